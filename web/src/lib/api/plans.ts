import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PlanCatalogue } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/plans: the one plan catalogue (prices, limits, features, support, and the phone line
 * when the operator offers one). Shared (lib/api): the pricing pages and the help and legal
 * pages read it.
 */
export function getPlans(): Promise<PlanCatalogue> {
  return dataOf(api.GET("/api/plans"));
}

export function plansQueryOptions() {
  return queryOptions({ queryKey: queryKeys.plans(), queryFn: getPlans });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
