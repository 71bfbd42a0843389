import { CheckIcon } from "lucide-react";
import type * as React from "react";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import type { PlanInfo } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { type Billing, usePlans } from "../api/get-plans";
import { formatCount, planPrice } from "../lib/figures";

/** Three placeholder plan cards. */
function PlanCardSkeletons() {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="flex min-h-[31rem] flex-col rounded-2xl border bg-card p-7">
          <Skeleton className="h-5 w-24" />
          <Skeleton className="mt-3 h-4 w-48" />
          <Skeleton className="mt-7 h-10 w-32" />
          <SkeletonRows count={5} className="mt-4 h-4 w-56" />
        </div>
      ))}
    </div>
  );
}

type CardProps = {
  billing: Billing;
  action: (plan: PlanInfo) => React.ReactNode;
  /** A badge by the plan's name ("Current plan" for the signed-in account's), or nothing. */
  badge?: (plan: PlanInfo) => React.ReactNode;
};

/** One plan: name, price for the billing period, features, and the caller's button. */
function PlanCard({ plan, billing, action, badge }: CardProps & { plan: PlanInfo }) {
  const price = planPrice(plan, billing);
  const saving = plan.monthlyPrice * 12 - plan.yearlyPrice;
  const marker = badge?.(plan);
  return (
    <div
      data-testid={`plan-${plan.id}`}
      className={cn(
        "relative flex flex-col rounded-2xl border bg-card p-7 shadow-xs",
        plan.mostPopular && "border-primary shadow-md ring-1 ring-primary",
      )}
    >
      {plan.mostPopular ? <Badge className="absolute -top-3 left-7 px-2.5 py-1">Most Popular</Badge> : null}
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-lg font-semibold">{plan.name}</h3>
        {marker}
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-semibold tracking-tight tabular">{price.amount}</span>
        <span className="text-sm text-muted-foreground">{price.per}</span>
      </p>
      <p className="mt-1 h-5 text-sm text-muted-foreground">
        {billing === "yearly" && saving > 0 ? `Billed yearly, $${formatCount(saving)} less than monthly` : ""}
      </p>
      <ul className="mt-5 flex-1 space-y-3">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2.5 text-sm">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-8">{action(plan)}</div>
    </div>
  );
}

/**
 * The three plans from the server's catalogue (GET /api/plans), side by side. `action`
 * renders each plan's button, so the landing page, the pricing page and signed-in users can
 * each decide where it leads; `badge` marks a plan (the account's current one).
 */
export function PlanCards({ billing, action, badge }: CardProps) {
  const plans = usePlans();
  return (
    <QueryState
      query={plans}
      loadingLabel="Loading plans"
      skeleton={<PlanCardSkeletons />}
      errorTitle="The plans could not be loaded."
      errorDetail="Check your connection and try again."
      errorLayout="panel"
    >
      {(data) => (
        <div className="grid gap-6 lg:grid-cols-3">
          {data.plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} billing={billing} action={action} badge={badge} />
          ))}
        </div>
      )}
    </QueryState>
  );
}
