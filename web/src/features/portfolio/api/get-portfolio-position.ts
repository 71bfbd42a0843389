import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { PositionDetail } from "@/lib/api/models";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

export function portfolioPositionQueryKey(id: string) {
  return [...PORTFOLIO_QUERY_KEYS.position, id] as const;
}

/** GET /api/portfolio/position/{id}: one automated position with Greeks, risk and payoff. */
export function getPortfolioPosition(id: string): Promise<PositionDetail> {
  return dataOf(api.GET("/api/portfolio/position/{id}", { params: { path: { id } } }));
}

export function portfolioPositionQueryOptions(id: string) {
  return queryOptions({
    queryKey: portfolioPositionQueryKey(id),
    queryFn: () => getPortfolioPosition(id),
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function usePortfolioPosition(id: string, enabled = true) {
  return useQuery({ ...portfolioPositionQueryOptions(id), enabled });
}
