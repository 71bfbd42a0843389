import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import type { components } from "@/lib/api/schema";

export type PlanCatalogue = components["schemas"]["PlanCatalogue"];
export type PlanInfo = components["schemas"]["PlanInfo"];
export type Billing = "monthly" | "yearly";

export const plansQueryKey = ["/api/plans"] as const;

/** GET /api/plans: the one plan catalogue (prices, limits, features, support). */
export function getPlans(): Promise<PlanCatalogue> {
  return apiJson<PlanCatalogue>("GET", "/api/plans");
}

export function plansQueryOptions() {
  return queryOptions({ queryKey: plansQueryKey, queryFn: getPlans });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
