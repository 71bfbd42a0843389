import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { PortfolioAnalysis } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";

/**
 * Portfolio reads are refetched by live events (`signals`, `prices` and `automation`; see
 * LIVE_TOPIC_PREFIXES in src/lib/live-events.ts) and poll every 30 s as the fallback
 * (product spec, sections 4 and 9).
 */
export const PORTFOLIO_REFETCH_MS = LIVE_REFETCH_MS;

export const portfolioMetricsQueryKey = PORTFOLIO_QUERY_KEYS.metrics;

/** GET /api/portfolio/metrics: summary, ratios, risk assessment and value history. */
export function getPortfolioMetrics(): Promise<PortfolioAnalysis> {
  return dataOf(api.GET("/api/portfolio/metrics"));
}

export function portfolioMetricsQueryOptions() {
  return queryOptions({
    queryKey: portfolioMetricsQueryKey,
    queryFn: getPortfolioMetrics,
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function usePortfolioMetrics() {
  return useQuery(portfolioMetricsQueryOptions());
}
