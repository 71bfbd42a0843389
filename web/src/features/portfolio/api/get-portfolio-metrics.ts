import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PortfolioAnalysis } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/**
 * Portfolio reads are refetched by live events (`signals`, `prices` and `automation`; see
 * LIVE_TOPIC_PREFIXES in src/lib/live-events.ts) and poll every 30 s as the fallback
 * (docs/decisions.md#7-live-updates-instead-of-refresh-timers).
 */
export const PORTFOLIO_REFETCH_MS = LIVE_REFETCH_MS;

/** GET /api/portfolio/metrics: summary, ratios, risk assessment and value history. */
export function getPortfolioMetrics(): Promise<PortfolioAnalysis> {
  return dataOf(api.GET("/api/portfolio/metrics"));
}

export function portfolioMetricsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.portfolio.metrics(),
    queryFn: getPortfolioMetrics,
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function usePortfolioMetrics() {
  return useQuery(portfolioMetricsQueryOptions());
}
