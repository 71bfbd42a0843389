import { ChevronRightIcon, LockIcon, ServerCrashIcon, UnlockIcon } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { CopyButton } from "@/components/copy-button";
import { EmptyState } from "@/components/empty-state";
import { MethodBadge } from "@/components/method-badge";
import { QueryState } from "@/components/query-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";
import { useOpenApi } from "../api/get-openapi";
import {
  type ApiDocument,
  type AuthRequirement,
  type BodyInfo,
  curlExample,
  defaultEndpoint,
  type Endpoint,
  type FieldInfo,
  isPublicApi,
  splitEndpoints,
  successResponse,
} from "../lib/openapi";
import { canTry } from "../lib/try-it";
import { TryItPanel } from "./try-it-panel";

/** OpenAPI descriptions mark code with backticks; show those parts as code. */
function Text({ children }: { children: string }) {
  const parts = children.split("`");
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] text-foreground">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

const AUTH_TEXT: Record<AuthRequirement, string> = {
  none: "No authentication",
  session: "Signed-in session (cookie)",
  admin: "Administrator session (cookie)",
  apiKey: "API key (Bearer)",
};

function FieldTable({ fields, caption }: { fields: FieldInfo[]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Description
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {fields.map((field) => (
            <tr key={field.name}>
              <td className="px-4 py-2 align-top">
                <code className="font-mono text-xs">{field.name}</code>
                {field.required ? <span className="ml-1.5 text-xs text-destructive-strong">required</span> : null}
              </td>
              <td className="px-4 py-2 align-top font-mono text-xs text-muted-foreground">{field.type}</td>
              <td className="px-4 py-2 align-top text-muted-foreground">
                <Text>{field.description}</Text>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre tabIndex={0} aria-label={label} className="max-h-96 overflow-auto rounded-lg border bg-muted/60 p-4 font-mono text-xs leading-5">
      <code>{JSON.stringify(value, null, 2)}</code>
    </pre>
  );
}

function BodyFields({ body, caption }: { body: BodyInfo; caption: string }) {
  if (body.fields.length > 0) return <FieldTable fields={body.fields} caption={caption} />;
  return (
    <p className="text-sm text-muted-foreground">
      {body.type ? (
        <>
          Type: <code className="font-mono text-xs text-foreground">{body.type}</code>
        </>
      ) : (
        "No body."
      )}
    </p>
  );
}

function ParametersTab({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.parameters.length === 0 && !endpoint.requestBody) {
    return <p className="text-sm text-muted-foreground">This endpoint takes no parameters and no request body.</p>;
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      {endpoint.parameters.length > 0 ? (
        <section aria-label="Parameters">
          <h4 className="mb-3 text-sm font-semibold">Parameters</h4>
          <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Parameters table">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead className="bg-muted/60">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    In
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Type
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Description
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {endpoint.parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td className="px-4 py-2 align-top">
                      <code className="font-mono text-xs">{p.name}</code>
                      {p.required ? <span className="ml-1.5 text-xs text-destructive-strong">required</span> : null}
                    </td>
                    <td className="px-4 py-2 align-top text-muted-foreground">{p.in}</td>
                    <td className="px-4 py-2 align-top font-mono text-xs text-muted-foreground">{p.type}</td>
                    <td className="px-4 py-2 align-top text-muted-foreground">
                      <Text>{p.description}</Text>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {endpoint.requestBody ? (
        <section aria-label="Request body">
          <h4 className="mb-3 text-sm font-semibold">
            Request body <span className="font-normal text-muted-foreground">({endpoint.requestBody.contentType})</span>
          </h4>
          <BodyFields body={endpoint.requestBody} caption="Request body fields" />
        </section>
      ) : null}
    </div>
  );
}

function ResponseTab({ endpoint }: { endpoint: Endpoint }) {
  const success = successResponse(endpoint);
  return (
    <div className="grid grid-cols-1 gap-6">
      <ul className="grid gap-2">
        {endpoint.responses.map((r) => (
          <li key={r.status} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
            <code
              className={cn(
                "rounded px-1.5 py-0.5 font-mono text-xs font-semibold",
                r.status.startsWith("2") ? "bg-positive/12 text-positive-strong" : "bg-destructive/10 text-destructive-strong",
              )}
            >
              {r.status}
            </code>
            <span className="text-muted-foreground">
              {r.description || (r.status.startsWith("2") ? "Success" : "Error")}
              {r.body && !r.status.startsWith("2") ? ` (${r.body.contentType})` : ""}
            </span>
          </li>
        ))}
      </ul>
      {success?.body ? (
        <>
          <section aria-label="Response fields">
            <h4 className="mb-3 text-sm font-semibold">
              {success.status} response <span className="font-normal text-muted-foreground">({success.body.contentType})</span>
            </h4>
            <BodyFields body={success.body} caption="Response fields" />
          </section>
          {success.body.example !== undefined ? (
            <section aria-label="Example response">
              <div className="mb-3 flex items-center justify-between gap-3">
                <h4 className="text-sm font-semibold">Example response</h4>
                <CopyButton text={JSON.stringify(success.body.example, null, 2)} label="response" />
              </div>
              <Json value={success.body.example} label="Example response body" />
            </section>
          ) : null}
        </>
      ) : success ? (
        <p className="text-sm text-muted-foreground">A successful answer has no body.</p>
      ) : null}
      {endpoint.responses.some((r) => !r.status.startsWith("2")) ? (
        <p className="text-sm text-muted-foreground">
          Errors are problem details (<code className="font-mono text-xs">application/problem+json</code>); see{" "}
          <Link to="/docs/errors" className="font-medium text-primary underline-offset-4 hover:underline">
            API errors
          </Link>
          .
        </p>
      ) : null}
    </div>
  );
}

function ExampleTab({ endpoint }: { endpoint: Endpoint }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = curlExample(endpoint, origin);
  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="flex items-center justify-between gap-3">
        <h4 className="text-sm font-semibold">curl</h4>
        <CopyButton text={curl} label="curl example" />
      </div>
      <pre tabIndex={0} aria-label="curl example" className="overflow-x-auto rounded-lg border bg-muted/60 p-4 font-mono text-xs leading-5">
        <code>{curl}</code>
      </pre>
      {endpoint.auth === "session" || endpoint.auth === "admin" ? (
        <p className="text-sm text-muted-foreground">
          This endpoint uses the browser session. From a terminal, sign in first with{" "}
          <code className="font-mono text-xs">POST /api/auth/login</code> and <code className="font-mono text-xs">-c cookies.txt</code>.
        </p>
      ) : null}
    </div>
  );
}

type ApiKeyState = { apiKey: string; onApiKeyChange: (key: string) => void };

function EndpointDetail({ endpoint, apiKey, onApiKeyChange }: { endpoint: Endpoint } & ApiKeyState) {
  const tryable = canTry(endpoint);
  const AuthIcon = endpoint.auth === "none" ? UnlockIcon : LockIcon;
  return (
    <div id="endpoint-detail" className="min-w-0 scroll-mt-20 rounded-2xl border bg-card" data-testid="endpoint-detail">
      <div className="border-b p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-3">
          <MethodBadge method={endpoint.method} />
          <h3 className="font-mono text-base font-semibold break-all">{endpoint.path}</h3>
        </div>
        <p className="mt-3 font-medium">
          <Text>{endpoint.summary}</Text>
        </p>
        {endpoint.description ? (
          <p className="mt-2 text-sm text-muted-foreground">
            <Text>{endpoint.description}</Text>
          </p>
        ) : null}
        <p className="mt-3 inline-flex items-center gap-1.5 text-xs text-muted-foreground">
          <AuthIcon className="size-3.5" aria-hidden />
          {AUTH_TEXT[endpoint.auth]}
        </p>
        {isPublicApi(endpoint) ? null : (
          <p className="mt-2 text-xs text-muted-foreground" data-testid="endpoint-internal-note">
            Internal: the web app&apos;s own endpoint, which may change without notice. Programs use the public API under{" "}
            <code className="font-mono">/api/v1</code>.
          </p>
        )}
      </div>
      <Tabs defaultValue="parameters" className="p-5 sm:p-6">
        <TabsList aria-label="Endpoint details">
          <TabsTrigger value="parameters">Parameters</TabsTrigger>
          <TabsTrigger value="response">Response</TabsTrigger>
          <TabsTrigger value="example">Example</TabsTrigger>
          {tryable ? <TabsTrigger value="try">Try it</TabsTrigger> : null}
        </TabsList>
        <TabsContent value="parameters" className="mt-5">
          <ParametersTab endpoint={endpoint} />
        </TabsContent>
        <TabsContent value="response" className="mt-5">
          <ResponseTab endpoint={endpoint} />
        </TabsContent>
        <TabsContent value="example" className="mt-5">
          <ExampleTab endpoint={endpoint} />
        </TabsContent>
        {tryable ? (
          <TabsContent value="try" className="mt-5">
            <TryItPanel endpoint={endpoint} apiKey={apiKey} onApiKeyChange={onApiKeyChange} />
          </TabsContent>
        ) : null}
      </Tabs>
    </div>
  );
}

function EndpointButton({ endpoint, active, onSelect }: { endpoint: Endpoint; active: boolean; onSelect: (id: string) => void }) {
  return (
    <li>
      <button
        type="button"
        aria-current={active ? "true" : undefined}
        onClick={() => onSelect(endpoint.id)}
        className={cn(
          "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
          active && "bg-accent",
        )}
      >
        <MethodBadge method={endpoint.method} className="w-12 text-[0.65rem]" />
        <span className={cn("min-w-0 font-mono text-xs break-all", active ? "font-semibold text-foreground" : "text-muted-foreground")}>
          {endpoint.path}
        </span>
      </button>
    </li>
  );
}

/** Endpoints under their tag's name, in the document's tag order. */
function TagGroups({
  doc,
  endpoints,
  selected,
  onSelect,
  showTags = true,
}: {
  doc: ApiDocument;
  endpoints: Endpoint[];
  selected: Endpoint;
  onSelect: (id: string) => void;
  showTags?: boolean;
}) {
  return doc.tags.map((tag) => {
    const inTag = endpoints.filter((e) => e.tag === tag.name);
    if (inTag.length === 0) return null;
    return (
      <section key={tag.name} aria-label={tag.name} className="mb-3 last:mb-0">
        {showTags ? (
          <p className="px-2 pt-1 pb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase" title={tag.description}>
            {tag.name}
          </p>
        ) : null}
        <ul className="grid gap-0.5">
          {inTag.map((endpoint) => (
            <EndpointButton key={endpoint.id} endpoint={endpoint} active={endpoint.id === selected.id} onSelect={onSelect} />
          ))}
        </ul>
      </section>
    );
  });
}

/**
 * The endpoint list: the public API (`/api/v1`, what programs call with a key) first and open;
 * the web app's own endpoints apart, in a group that starts collapsed unless one of them is
 * selected.
 */
function EndpointList({ doc, selected, onSelect }: { doc: ApiDocument; selected: Endpoint; onSelect: (id: string) => void }) {
  const { publicApi, internal } = splitEndpoints(doc.endpoints);
  const [internalOpen, setInternalOpen] = useState(() => publicApi.length === 0 || !isPublicApi(selected));
  // An internal endpoint selected from elsewhere (a link with ?endpoint=) opens its group.
  const [shown, setShown] = useState(selected.id);
  if (shown !== selected.id) {
    setShown(selected.id);
    if (!isPublicApi(selected)) setInternalOpen(true);
  }
  return (
    <nav
      aria-label="Endpoints"
      className="grid content-start gap-3 rounded-2xl border bg-card p-3 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:overflow-y-auto"
    >
      {publicApi.length > 0 ? (
        <section aria-labelledby="endpoints-public" data-testid="endpoints-public">
          <div className="px-2 pt-1 pb-2">
            <h2 id="endpoints-public" className="text-sm font-semibold">
              Public API
            </h2>
            <p className="text-xs text-muted-foreground">
              <code className="font-mono">/api/v1</code> with an API key; try any of them here.
            </p>
          </div>
          <TagGroups doc={doc} endpoints={publicApi} selected={selected} onSelect={onSelect} showTags={false} />
        </section>
      ) : null}
      {internal.length > 0 ? (
        <details
          open={internalOpen}
          onToggle={(e) => setInternalOpen(e.currentTarget.open)}
          className="group rounded-lg border border-dashed"
          data-testid="endpoints-internal"
        >
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-2 py-2 text-sm font-semibold outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
            <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden />
            <span className="flex-1">Internal (used by the web app)</span>
            <span className="text-xs font-normal text-muted-foreground tabular">{internal.length}</span>
          </summary>
          <div className="px-1 pb-2">
            <p className="px-2 pb-2 text-xs text-muted-foreground">
              The web app&apos;s own endpoints, behind its session cookie. They may change without notice: programs use the public API.
            </p>
            <TagGroups doc={doc} endpoints={internal} selected={selected} onSelect={onSelect} />
          </div>
        </details>
      ) : null}
    </nav>
  );
}

/** "13 public endpoints and 97 internal ones". */
function summaryCounts(endpoints: readonly Endpoint[]): string {
  const { publicApi, internal } = splitEndpoints(endpoints);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (publicApi.length === 0) return plural(internal.length, "endpoint", "endpoints");
  return `${plural(publicApi.length, "public endpoint", "public endpoints")} and ${plural(internal.length, "internal one", "internal ones")}`;
}

/** The endpoint list and the selected endpoint's detail. */
function Explorer({ doc }: { doc: ApiDocument }) {
  const [params, setParams] = useSearchParams();
  // The key for "Try it" is kept while the page is open, across endpoints, and never stored.
  const [apiKey, setApiKey] = useState("");
  const selected = doc.endpoints.find((e) => e.id === params.get("endpoint")) ?? defaultEndpoint(doc.endpoints);
  if (!selected) {
    return <EmptyState icon={ServerCrashIcon} title="No endpoints" description="The server's OpenAPI document lists no endpoints." />;
  }
  const select = (id: string) => {
    setParams({ endpoint: id }, { replace: true, preventScrollReset: true });
    // Below the large breakpoint the detail sits under the list: bring it into view.
    if (window.matchMedia?.("(max-width: 1023px)").matches) {
      requestAnimationFrame(() => document.getElementById("endpoint-detail")?.scrollIntoView({ block: "start" }));
    }
  };

  return (
    <div>
      <p className="mb-6 text-sm text-muted-foreground">
        {doc.title} {doc.version ? `v${doc.version}` : ""} · {summaryCounts(doc.endpoints)}, generated from the running server.
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <EndpointList doc={doc} selected={selected} onSelect={select} />
        <EndpointDetail key={selected.id} endpoint={selected} apiKey={apiKey} onApiKeyChange={setApiKey} />
      </div>
    </div>
  );
}

/**
 * The API explorer over the server's own OpenAPI document: the endpoint list (the public API
 * first, the web app's internal endpoints apart and collapsed; it opens on the public signals
 * list, see `defaultEndpoint`) and a detail panel with
 * Parameters, Response and Example tabs, and for the public API (`/api/v1`) a "Try it" tab
 * that sends the request with a pasted API key. The selection is kept in the URL (?endpoint=).
 */
export function ApiExplorer() {
  const openApi = useOpenApi();
  return (
    <QueryState
      query={openApi}
      loadingLabel="Loading the API reference"
      skeleton={
        <>
          <Skeleton className="h-80 rounded-2xl" />
          <Skeleton className="h-96 rounded-2xl" />
        </>
      }
      skeletonClassName="gap-6 lg:grid-cols-[18rem_1fr]"
      errorTitle="The API reference could not be loaded"
      errorDetail="The server's OpenAPI document did not arrive. Check your connection and try again."
      errorLayout="panel"
      errorIcon={ServerCrashIcon}
    >
      {(doc) => <Explorer doc={doc} />}
    </QueryState>
  );
}
