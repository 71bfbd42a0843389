import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PortfolioPosition } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

/** GET /api/portfolio/positions: the automated positions, open first, then newest. */
export function getPortfolioPositions(): Promise<PortfolioPosition[]> {
  return dataOf(api.GET("/api/portfolio/positions"));
}

export function portfolioPositionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.portfolio.positions(),
    queryFn: getPortfolioPositions,
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function usePortfolioPositions() {
  return useQuery(portfolioPositionsQueryOptions());
}
