import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { PortfolioPosition } from "@/lib/api/models";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

export const portfolioPositionsQueryKey = PORTFOLIO_QUERY_KEYS.positions;

/** GET /api/portfolio/positions: the automated positions, open first, then newest. */
export function getPortfolioPositions(): Promise<PortfolioPosition[]> {
  return dataOf(api.GET("/api/portfolio/positions"));
}

export function portfolioPositionsQueryOptions() {
  return queryOptions({
    queryKey: portfolioPositionsQueryKey,
    queryFn: getPortfolioPositions,
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function usePortfolioPositions() {
  return useQuery(portfolioPositionsQueryOptions());
}
