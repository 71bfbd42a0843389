import { PlayIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import type { Endpoint } from "../lib/openapi";
import { buildTryRequest, initialBody, sendTry, type TryResult } from "../lib/try-it";

/**
 * "Try it" for a public API operation: an API key (kept on this page only, never stored),
 * the operation's parameters and body, and Send. Shows the status, the rate-limit headers
 * and the answer. The request carries `Authorization: Bearer <key>` and no cookie.
 */
export function TryItPanel({
  endpoint,
  apiKey,
  onApiKeyChange,
}: {
  endpoint: Endpoint;
  apiKey: string;
  onApiKeyChange: (key: string) => void;
}) {
  const id = useId();
  const [params, setParams] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() => initialBody(endpoint));
  const [result, setResult] = useState<TryResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputs = endpoint.parameters.filter((p) => p.in === "path" || p.in === "query");

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const request = buildTryRequest(endpoint, { params, body }, apiKey);
    if ("error" in request) {
      setProblem(request.error);
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      setResult(await sendTry(request));
    } catch {
      setResult(null);
      setProblem("No answer: check your connection and try again.");
    } finally {
      setPending(false);
    }
  };

  const ok = result !== null && result.status >= 200 && result.status < 300;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid grid-cols-1 gap-5" aria-label="Try it">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-key`}>API key</Label>
        <PasswordInput
          id={`${id}-key`}
          value={apiKey}
          onChange={(e) => onApiKeyChange(e.target.value)}
          placeholder="slk_…"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-key-hint`}
        />
        <p id={`${id}-key-hint`} className="text-[0.8rem] text-muted-foreground">
          Create one under{" "}
          <Link to="/settings?tab=api-keys" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            Settings › API Keys
          </Link>
          . It stays on this page and is sent only with your request.
        </p>
      </div>

      {inputs.length > 0 ? (
        <fieldset className="grid min-w-0 gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold">Parameters</legend>
          {inputs.map((p) => (
            <div key={`${p.in}-${p.name}`} className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-${p.in}-${p.name}`} className="font-mono text-xs">
                {p.name}
                {p.required ? <span className="ml-1.5 font-sans text-destructive-strong">required</span> : null}
              </Label>
              <Input
                id={`${id}-${p.in}-${p.name}`}
                value={params[p.name] ?? ""}
                onChange={(e) => setParams((prev) => ({ ...prev, [p.name]: e.target.value }))}
                placeholder={p.type}
                autoComplete="off"
                spellCheck={false}
                className="h-9 font-mono text-xs"
              />
            </div>
          ))}
        </fieldset>
      ) : null}

      {endpoint.requestBody ? (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-body`}>
            Request body <span className="font-normal text-muted-foreground">({endpoint.requestBody.contentType})</span>
          </Label>
          <Textarea
            id={`${id}-body`}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            spellCheck={false}
            rows={8}
            className="font-mono text-xs"
          />
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          <PlayIcon aria-hidden />
          {pending ? "Sending..." : "Send request"}
        </Button>
        <code className="min-w-0 font-mono text-xs break-all text-muted-foreground">
          {endpoint.method} {endpoint.path}
        </code>
      </div>

      <div aria-live="polite" className="grid gap-4">
        {problem ? <p className="text-sm font-medium text-destructive-strong">{problem}</p> : null}
        {result ? (
          <section aria-label="Answer" className="grid gap-3" data-testid="try-it-result">
            <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
              <code
                className={cn(
                  "rounded px-1.5 py-0.5 font-mono text-xs font-semibold",
                  ok ? "bg-positive/12 text-positive-strong" : "bg-destructive/10 text-destructive-strong",
                )}
              >
                {result.status}
                {result.statusText ? ` ${result.statusText}` : ""}
              </code>
              <span className="text-muted-foreground">{result.ms} ms</span>
            </p>
            {result.limits.length > 0 ? (
              <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[9rem_minmax(0,1fr)]" aria-label="Rate-limit headers">
                {result.limits.map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="font-mono font-medium">{name}</dt>
                    <dd className="font-mono break-all text-muted-foreground">{value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {result.body ? (
              <pre
                tabIndex={0}
                aria-label="Response body"
                className="max-h-96 overflow-auto rounded-lg border bg-muted/60 p-4 font-mono text-xs leading-5"
              >
                <code>{result.body}</code>
              </pre>
            ) : (
              <p className="text-sm text-muted-foreground">No body.</p>
            )}
          </section>
        ) : null}
      </div>
    </form>
  );
}
