import { Link } from "react-router";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { KEY_PERMISSIONS } from "@/lib/api/enums";
import type { Plan, PlanInfo } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { PERMISSION_DESCRIPTIONS, PERMISSION_LABELS } from "../lib/api-keys";

const count = new Intl.NumberFormat("en-US");
const code = "rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-foreground";

/**
 * A curl command that reads the signals with a key. The URL is in single quotes: unquoted, its
 * `?` is a glob that zsh (macOS's shell) refuses with "no matches found"; the header is in double
 * quotes so the shell puts the key in.
 */
export function curlExample(origin: string): string {
  return `curl -H "Authorization: Bearer $STRIKELINE_API_KEY" \\\n  '${origin}/api/v1/signals?limit=5'`;
}

/**
 * Short documentation of the public API: base URL, the Authorization header, a curl
 * example, what each permission allows, the hourly quota of each plan (the user's marked)
 * and a link to the full reference at /api.
 */
export function ApiDocs({ origin, plans, currentPlan }: { origin: string; plans: PlanInfo[] | undefined; currentPlan: Plan }) {
  const curl = curlExample(origin);
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Using the API</CardTitle>
        <CardDescription>Plain JSON over HTTPS; errors are problem details.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 pt-5 text-sm">
        <dl className="grid gap-3 sm:grid-cols-[9rem_minmax(0,1fr)]">
          <dt className="font-medium">Base URL</dt>
          <dd className="min-w-0">
            <code className={cn(code, "break-all")}>{origin}/api/v1</code>
          </dd>
          <dt className="font-medium">Authentication</dt>
          <dd className="min-w-0">
            <code className={code}>Authorization: Bearer &lt;key&gt;</code>
          </dd>
        </dl>

        <section aria-labelledby="api-docs-example" className="grid gap-2">
          <div className="flex items-center justify-between gap-3">
            <h4 id="api-docs-example" className="font-semibold">
              Example
            </h4>
            <CopyButton text={curl} label="curl example" />
          </div>
          <pre
            tabIndex={0}
            aria-label="curl example"
            className="overflow-x-auto rounded-lg border bg-muted/60 p-3 font-mono text-xs leading-5"
          >
            <code>{curl}</code>
          </pre>
        </section>

        <section aria-labelledby="api-docs-permissions" className="grid gap-2">
          <h4 id="api-docs-permissions" className="font-semibold">
            Permissions
          </h4>
          <ul className="grid gap-1.5 text-muted-foreground">
            {KEY_PERMISSIONS.map((permission) => (
              <li key={permission}>
                <span className="font-medium text-foreground">{PERMISSION_LABELS[permission]}</span>: {PERMISSION_DESCRIPTIONS[permission]}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="api-docs-limits" className="grid gap-2">
          <h4 id="api-docs-limits" className="font-semibold">
            Rate limits
          </h4>
          <p className="text-muted-foreground">
            Each plan has an hourly quota for all its keys together, and each endpoint a per-minute limit. Every answer reports them in the{" "}
            <code className={code}>RateLimit-Policy</code> and <code className={code}>RateLimit</code> headers; over a limit the answer is
            429 with <code className={code}>Retry-After</code>.
          </p>
          {plans ? (
            <ul className="grid gap-1 sm:grid-cols-3" aria-label="Requests per hour by plan">
              {plans.map((plan) => {
                const yours = plan.id === currentPlan;
                return (
                  <li
                    key={plan.id}
                    className={cn("rounded-lg border px-3 py-2", yours && "border-primary bg-primary/5")}
                    aria-current={yours ? "true" : undefined}
                  >
                    <span className="block text-xs text-muted-foreground">
                      {plan.name}
                      {yours ? " · your plan" : ""}
                    </span>
                    <span className="font-semibold tabular">{count.format(plan.apiRequestsPerHour)}</span>
                    <span className="text-muted-foreground"> requests/hour</span>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <p className="text-muted-foreground">
            Free keys read signals, stats and stock prices. Pro and Premium keys also read portfolio metrics and, with write permission,
            create and generate signals.
          </p>
        </section>

        <p>
          <Link to="/api" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            Open the full API reference
          </Link>{" "}
          <span className="text-muted-foreground">to see every endpoint and try it with your key.</span>
        </p>
      </CardContent>
    </Card>
  );
}
