import { Link } from "react-router";
import { InfoPage, InfoSection } from "@/components/info-page";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiExplorer } from "@/features/api-reference/components/api-explorer";
import { usePlans } from "@/features/marketing/api/get-plans";
import { formatCount } from "@/features/marketing/lib/figures";
import { usePageMeta } from "@/lib/page-meta";

function RateLimits() {
  const { data, isPending, isError } = usePlans();
  if (isPending) return <Skeleton className="h-36 w-full rounded-lg" />;
  if (isError || !data) return <p>The plan quotas could not be loaded. They are listed on the pricing page.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Rate limits per plan">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <thead className="bg-muted/60 text-foreground">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Plan
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Requests per hour
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Price
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {data.plans.map((plan) => (
            <tr key={plan.id}>
              <td className="px-4 py-2.5 font-medium text-foreground">{plan.name}</td>
              <td className="px-4 py-2.5 tabular">{formatCount(plan.apiRequestsPerHour)}</td>
              <td className="px-4 py-2.5 tabular">{plan.monthlyPrice === 0 ? "Free" : `$${formatCount(plan.monthlyPrice)}/month`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const code = "rounded bg-muted px-1.5 py-0.5 font-mono text-sm text-foreground";

export default function ApiRoute() {
  usePageMeta(
    "API Reference",
    "Explore Strikeline's REST API: every endpoint from the server's OpenAPI document with parameters, responses and curl examples, plus authentication and per-plan rate limits.",
  );
  return (
    <InfoPage
      eyebrow="Developers"
      title="API Reference"
      description="Every endpoint the server offers, read from its own OpenAPI document, with parameters, responses and a curl example to copy."
      width="wide"
    >
      <ApiExplorer />
      <div className="mt-16 grid grid-cols-1 gap-x-12 lg:grid-cols-2">
        <InfoSection title="Authentication">
          <p>
            Programs authenticate with an API key sent in the Authorization header:{" "}
            <code className={code}>Authorization: Bearer &lt;key&gt;</code>. Generate keys under Settings &gt; API Keys. A key is shown
            once, when it is created; Strikeline stores only its hash.
          </p>
          <p>
            Keys carry a permission: read (GET requests), write (also creating signals and webhooks) or admin (everything). The web app
            itself uses a session cookie set by <code className={code}>POST /api/auth/login</code>.
          </p>
          <p>
            Errors are problem details (<code className={code}>application/problem+json</code>), described in{" "}
            <Link to="/docs/errors" className="font-medium text-primary underline-offset-4 hover:underline">
              API errors
            </Link>
            .
          </p>
        </InfoSection>
        <InfoSection title="Rate limits">
          <p>
            Each plan has an hourly request quota for API keys, and each endpoint a per-minute limit. Every answer reports both in the{" "}
            <code className={code}>RateLimit-Policy</code> and <code className={code}>RateLimit</code> headers. A request over a limit is
            answered with status 429 and a <code className={code}>Retry-After</code> header giving the seconds to wait.
          </p>
          <RateLimits />
        </InfoSection>
      </div>
    </InfoPage>
  );
}
