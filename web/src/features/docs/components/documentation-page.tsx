import {
  ArrowRightIcon,
  BookOpenIcon,
  BotIcon,
  ClockIcon,
  CodeIcon,
  FileWarningIcon,
  LayoutDashboardIcon,
  LifeBuoyIcon,
  MailIcon,
  SearchIcon,
  UserCogIcon,
  UsersIcon,
  WrenchIcon,
} from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { MethodBadge } from "@/components/method-badge";
import { QueryLoading } from "@/components/query-state";
import { SearchInput } from "@/components/search-input";
import { Badge } from "@/components/ui/badge";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";
import { DOC_PAGES, QUICK_START_GUIDES } from "@/content/docs";
import { findHelpArticle, helpArticlePath } from "@/content/help";
import { cn } from "@/lib/utils";
import { type DocItem, docPageItem, searchDocs } from "../lib/search";

/** An endpoint from the server's OpenAPI document, for the short API list. */
export type ApiListItem = { method: string; path: string; summary: string; href: string };

type FeatureLink = { title: string; description: string; href: string };

function helpLink(category: string, slug: string): FeatureLink {
  const article = findHelpArticle(category, slug);
  if (!article) throw new Error(`No help article ${category}/${slug}`);
  return { title: article.title, description: article.summary, href: helpArticlePath(article) };
}

const FEATURE_GROUPS: { title: string; Icon: typeof LayoutDashboardIcon; links: FeatureLink[] }[] = [
  {
    title: "Dashboard",
    Icon: LayoutDashboardIcon,
    links: [
      helpLink("getting-started", "dashboard-tour"),
      helpLink("getting-started", "investment-preferences"),
      helpLink("getting-started", "theme-and-display"),
    ],
  },
  {
    title: "Trading Tools",
    Icon: WrenchIcon,
    links: [
      helpLink("platform-features", "signals-page"),
      helpLink("platform-features", "portfolio-tracking"),
      helpLink("platform-features", "backtesting"),
    ],
  },
  {
    title: "AI Features",
    Icon: BotIcon,
    links: [
      helpLink("platform-features", "ai-assistant"),
      helpLink("platform-features", "news-analysis"),
      {
        title: "What AI market analysis can and cannot do",
        description: "Sentiment models, language models and signal engines, and their limits.",
        href: "/blog/ai-powered-market-analysis",
      },
    ],
  },
  {
    title: "Account Management",
    Icon: UserCogIcon,
    links: [
      helpLink("account-billing", "plans-and-limits"),
      helpLink("platform-features", "api-keys"),
      helpLink("account-billing", "account-security"),
    ],
  },
];

const TABS = [
  { value: "getting-started", label: "Getting Started" },
  { value: "platform", label: "Platform Guide" },
  { value: "api", label: "API Reference" },
  { value: "integrations", label: "Integrations" },
] as const;

function Level({ level }: { level: string }) {
  return (
    <Badge variant="outline" className={cn(level === "Beginner" ? "text-positive-strong" : "text-primary-strong")}>
      {level}
    </Badge>
  );
}

function GuideCards() {
  return (
    <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
      {QUICK_START_GUIDES.map((guide) => (
        <Link
          key={guide.slug}
          to={`/docs/${guide.slug}`}
          className="group flex flex-col rounded-xl border bg-card p-6 shadow-xs transition-colors outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring"
        >
          <div className="flex items-center justify-between gap-2">
            <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
              <ClockIcon className="size-3.5" aria-hidden />
              {guide.duration} min
            </span>
            {guide.level ? <Level level={guide.level} /> : null}
          </div>
          <h3 className="mt-4 font-semibold group-hover:text-primary">{guide.title}</h3>
          <p className="mt-1.5 flex-1 text-sm leading-relaxed text-muted-foreground">{guide.description}</p>
          <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-primary">
            Start guide
            <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden />
          </span>
        </Link>
      ))}
    </div>
  );
}

function FeatureGroups() {
  return (
    <div className="grid gap-5 md:grid-cols-2">
      {FEATURE_GROUPS.map(({ title, Icon, links }) => (
        <section key={title} aria-labelledby={`group-${title}`} className="rounded-xl border bg-card p-6">
          <h3 id={`group-${title}`} className="flex items-center gap-2 font-semibold">
            <Icon className="size-4 text-primary" aria-hidden />
            {title}
          </h3>
          <ul className="mt-4 grid gap-3">
            {links.map((link) => (
              <li key={link.href}>
                <Link to={link.href} className="group block rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
                  <span className="text-sm font-medium text-primary underline-offset-4 group-hover:underline">{link.title}</span>
                  <span className="mt-0.5 block text-sm text-muted-foreground">{link.description}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function ApiList({ endpoints }: { endpoints: ApiListItem[] | undefined }) {
  const errors = DOC_PAGES.find((page) => page.slug === "errors");
  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <div className="rounded-xl border bg-card">
        {endpoints === undefined ? (
          <QueryLoading label="Loading endpoints" className="p-5">
            <SkeletonRows count={5} className="h-5 w-full" />
          </QueryLoading>
        ) : (
          <ul className="divide-y">
            {endpoints.slice(0, 8).map((endpoint) => (
              <li key={`${endpoint.method} ${endpoint.path}`}>
                <Link
                  to={endpoint.href}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                >
                  <MethodBadge method={endpoint.method} />
                  <code className="font-mono text-sm">{endpoint.path}</code>
                  <span className="w-full text-sm text-muted-foreground sm:w-auto sm:flex-1 sm:text-right">{endpoint.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <div className="border-t px-5 py-3">
          <Link to="/api" className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
            Every endpoint in the API reference
            <ArrowRightIcon className="size-4" aria-hidden />
          </Link>
        </div>
      </div>
      <div className="grid content-start gap-4">
        <div className="rounded-xl border bg-card p-5">
          <h3 className="flex items-center gap-2 font-semibold">
            <CodeIcon className="size-4 text-primary" aria-hidden />
            Authentication
          </h3>
          <p className="mt-2 text-sm text-muted-foreground">
            Programs authenticate with an API key, created under Settings &gt; API Keys and sent as{" "}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">Authorization: Bearer &lt;key&gt;</code>.
          </p>
        </div>
        {errors ? (
          <Link
            to={`/docs/${errors.slug}`}
            className="group rounded-xl border bg-card p-5 outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <h3 className="flex items-center gap-2 font-semibold group-hover:text-primary">
              <FileWarningIcon className="size-4 text-primary" aria-hidden />
              {errors.title}
            </h3>
            <p className="mt-2 text-sm text-muted-foreground">{errors.description}</p>
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function Integrations({ origin }: { origin: string }) {
  const samples = [
    {
      title: "Python",
      note: "With the requests library.",
      code: `import requests

res = requests.get("${origin}/api/plans", timeout=10)
res.raise_for_status()
for plan in res.json()["plans"]:
    print(plan["name"], plan["monthlyPrice"])`,
    },
    {
      title: "JavaScript",
      note: "With fetch, in Node 18+ or the browser.",
      code: `const res = await fetch("${origin}/api/plans");
if (!res.ok) throw new Error((await res.json()).detail);
const { plans } = await res.json();
for (const plan of plans) console.log(plan.name, plan.monthlyPrice);`,
    },
    {
      title: "REST",
      note: "Any HTTP client; here curl.",
      code: `curl -s '${origin}/api/plans' \\
  -H 'Accept: application/json'`,
    },
  ];
  return (
    <div>
      <p className="max-w-3xl text-sm text-muted-foreground">
        The API is JSON over HTTPS, so any language&apos;s HTTP client works and there is no SDK to install. Errors follow one format,
        described in{" "}
        <Link to="/docs/errors" className="font-medium text-primary underline-offset-4 hover:underline">
          API errors
        </Link>
        . Endpoints that need an account take an API key in the <code className="font-mono text-xs">Authorization</code> header.
      </p>
      <div className="mt-6 grid gap-5 lg:grid-cols-3">
        {samples.map((sample) => (
          <section
            key={sample.title}
            aria-labelledby={`sample-${sample.title}`}
            className="flex min-w-0 flex-col rounded-xl border bg-card"
          >
            <div className="border-b px-5 py-3">
              <h3 id={`sample-${sample.title}`} className="font-semibold">
                {sample.title}
              </h3>
              <p className="text-xs text-muted-foreground">{sample.note}</p>
            </div>
            <pre tabIndex={0} className="flex-1 overflow-x-auto p-5 font-mono text-xs leading-5">
              <code>{sample.code}</code>
            </pre>
          </section>
        ))}
      </div>
    </div>
  );
}

function SearchResults({ results, query }: { results: DocItem[]; query: string }) {
  return (
    <section aria-labelledby="docs-results-heading" className="mt-8">
      <h2 id="docs-results-heading" className="text-lg font-semibold" aria-live="polite">
        {results.length === 1 ? "1 result" : `${results.length} results`} for “{query}”
      </h2>
      {results.length === 0 ? (
        <EmptyState
          className="mt-4"
          icon={SearchIcon}
          title="Nothing found"
          description="No guide, feature or endpoint matches your search. Try other words, or search the Help Center."
        />
      ) : (
        <ul className="mt-4 divide-y rounded-xl border bg-card">
          {results.map((item) => (
            <li key={item.href}>
              <Link
                to={item.href}
                className="group flex items-start justify-between gap-4 p-5 outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
              >
                <span>
                  <span className="block text-xs font-medium text-muted-foreground">{item.group}</span>
                  <span className="mt-0.5 block font-medium group-hover:text-primary">{item.title}</span>
                  <span className="mt-1 block text-sm text-muted-foreground">{item.description}</span>
                </span>
                <ArrowRightIcon className="mt-1 size-4 shrink-0 text-primary" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Documentation: search over guides, feature links and endpoints;
 * tabs for getting started, the platform guide, the API and integrations; help links.
 */
export function DocumentationPage({ endpoints }: { endpoints: ApiListItem[] | undefined }) {
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const tab = TABS.some((t) => t.value === params.get("tab")) ? (params.get("tab") as string) : "getting-started";

  const setParam = (key: "q" | "tab", value: string, empty: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value && value !== empty) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const items: DocItem[] = [
    ...DOC_PAGES.map(docPageItem),
    ...FEATURE_GROUPS.flatMap((group) =>
      group.links.map((link) => ({
        kind: "feature" as const,
        title: link.title,
        description: link.description,
        href: link.href,
        group: group.title,
      })),
    ),
    ...(endpoints ?? []).map((endpoint) => ({
      kind: "endpoint" as const,
      title: `${endpoint.method} ${endpoint.path}`,
      description: endpoint.summary,
      href: endpoint.href,
      keywords: `api endpoint ${endpoint.path.replace(/[/{}]/g, " ")}`,
      group: "API endpoints",
    })),
  ];
  const results = searchDocs(items, query);
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <div>
      <SearchInput
        id="docs-search"
        label="Search the documentation"
        placeholder="Search guides, features and endpoints"
        value={query}
        onChange={(value) => setParam("q", value, "")}
        className="max-w-2xl"
        inputClassName="h-11"
      />

      {query.trim() ? (
        <SearchResults results={results} query={query.trim()} />
      ) : (
        <Tabs value={tab} onValueChange={(value) => setParam("tab", value, "getting-started")} className="mt-8">
          <TabsList aria-label="Documentation sections">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="getting-started" className="mt-8">
            <h2 className="text-2xl font-semibold tracking-tight">Quick-start guides</h2>
            <p className="mt-2 mb-6 text-muted-foreground">Short, step-by-step guides from sign-up to your first tracked position.</p>
            <GuideCards />
          </TabsContent>
          <TabsContent value="platform" className="mt-8">
            <h2 className="text-2xl font-semibold tracking-tight">Platform guide</h2>
            <p className="mt-2 mb-6 text-muted-foreground">How each part of Strikeline works, feature by feature.</p>
            <FeatureGroups />
          </TabsContent>
          <TabsContent value="api" className="mt-8">
            <h2 className="text-2xl font-semibold tracking-tight">API reference</h2>
            <p className="mt-2 mb-6 text-muted-foreground">
              Endpoints from the server&apos;s OpenAPI document. Open one to see its parameters, responses and a curl example.
            </p>
            <ApiList endpoints={endpoints} />
          </TabsContent>
          <TabsContent value="integrations" className="mt-8">
            <h2 className="text-2xl font-semibold tracking-tight">Integrations</h2>
            <p className="mt-2 mb-6 text-muted-foreground">Call the API from your own code.</p>
            <Integrations origin={origin} />
          </TabsContent>
        </Tabs>
      )}

      <section aria-labelledby="docs-help-heading" className="mt-16">
        <h2 id="docs-help-heading" className="text-xl font-semibold tracking-tight">
          Need more help?
        </h2>
        <div className="mt-5 grid gap-4 sm:grid-cols-3">
          {[
            { Icon: LifeBuoyIcon, title: "Help Center", text: "Short answers, by category.", href: "/help" },
            { Icon: UsersIcon, title: "Community", text: "Categories, guidelines and how to take part.", href: "/community" },
            { Icon: MailIcon, title: "Contact support", text: `We reply within ${SUPPORT_RESPONSE_TEXT}.`, href: "/help#contact" },
          ].map(({ Icon, title, text, href }) => (
            <Link
              key={href}
              to={href}
              className="group flex gap-3 rounded-xl border bg-card p-5 outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring"
            >
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <span>
                <span className="block font-semibold group-hover:text-primary">{title}</span>
                <span className="mt-0.5 block text-sm text-muted-foreground">{text}</span>
              </span>
            </Link>
          ))}
        </div>
      </section>
      <p className="mt-10 flex items-center gap-2 text-xs text-muted-foreground">
        <BookOpenIcon className="size-3.5" aria-hidden />
        Guides describe the platform as it works today; the API reference is generated from the running server.
      </p>
    </div>
  );
}
