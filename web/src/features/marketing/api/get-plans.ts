import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { BillingInterval, PlanCatalogue } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** How a plan is billed: the schema's `BillingInterval`. */
export type Billing = BillingInterval;

/** GET /api/plans: the one plan catalogue (prices, limits, features, support). */
export function getPlans(): Promise<PlanCatalogue> {
  return dataOf(api.GET("/api/plans"));
}

export function plansQueryOptions() {
  return queryOptions({ queryKey: queryKeys.plans(), queryFn: getPlans });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
