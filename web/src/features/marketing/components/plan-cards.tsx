import { CheckIcon } from "lucide-react";
import type * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import type { PlanInfo } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { type Billing, usePlans } from "../api/get-plans";
import { formatCount, planPrice } from "../lib/figures";

/**
 * The three plans from the server's catalogue (GET /api/plans), side by side. `action`
 * renders each plan's button, so the landing page, the pricing page and signed-in users can
 * each decide where it leads.
 */
export function PlanCards({ billing, action }: { billing: Billing; action: (plan: PlanInfo) => React.ReactNode }) {
  const { data, isPending, isError, refetch } = usePlans();

  if (isPending) {
    return (
      <div className="grid gap-6 lg:grid-cols-3" aria-busy="true" aria-label="Loading plans">
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="flex min-h-[31rem] flex-col rounded-2xl border bg-card p-7">
            <Skeleton className="h-5 w-24" />
            <Skeleton className="mt-3 h-4 w-48" />
            <Skeleton className="mt-7 h-10 w-32" />
            {Array.from({ length: 5 }, (_, j) => (
              <Skeleton key={j} className="mt-4 h-4 w-56" />
            ))}
          </div>
        ))}
      </div>
    );
  }
  if (isError || !data) {
    return (
      <div className="rounded-2xl border border-dashed bg-card/50 p-8 text-center">
        <p className="font-medium">The plans could not be loaded.</p>
        <p className="mt-1 text-sm text-muted-foreground">Check your connection and try again.</p>
        <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {data.plans.map((plan) => {
        const price = planPrice(plan, billing);
        const saving = plan.monthlyPrice * 12 - plan.yearlyPrice;
        return (
          <div
            key={plan.id}
            data-testid={`plan-${plan.id}`}
            className={cn(
              "relative flex flex-col rounded-2xl border bg-card p-7 shadow-xs",
              plan.mostPopular && "border-primary shadow-md ring-1 ring-primary",
            )}
          >
            {plan.mostPopular ? <Badge className="absolute -top-3 left-7 px-2.5 py-1">Most Popular</Badge> : null}
            <h3 className="text-lg font-semibold">{plan.name}</h3>
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
      })}
    </div>
  );
}
