import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PriceAlert } from "@/lib/api/models";
import { LIVE_QUERY_KEYS, LIVE_REFETCH_MS } from "@/lib/live-events";

/** Refetched on the event stream's `alerts` topic (an alert was triggered). */
export const priceAlertsQueryKey = LIVE_QUERY_KEYS.alerts;

/** GET /api/price-alerts: the user's alerts, newest first. */
export function getPriceAlerts(): Promise<PriceAlert[]> {
  return dataOf(api.GET("/api/price-alerts"));
}

export function priceAlertsQueryOptions() {
  return queryOptions({ queryKey: priceAlertsQueryKey, queryFn: getPriceAlerts, refetchInterval: LIVE_REFETCH_MS });
}

export function usePriceAlerts() {
  return useQuery(priceAlertsQueryOptions());
}
