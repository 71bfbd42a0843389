import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PositionDetail } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

/** GET /api/portfolio/position/{id}: one automated position with Greeks, risk and payoff. */
export function getPortfolioPosition(id: string): Promise<PositionDetail> {
  return dataOf(api.GET("/api/portfolio/position/{id}", { params: { path: { id } } }));
}

export function portfolioPositionQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.portfolio.position.detail(id),
    queryFn: () => getPortfolioPosition(id),
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function usePortfolioPosition(id: string, enabled = true) {
  return useQuery({ ...portfolioPositionQueryOptions(id), enabled });
}
