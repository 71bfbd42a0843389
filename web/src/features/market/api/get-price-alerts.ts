import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PriceAlert } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/price-alerts: the user's alerts, newest first. */
export function getPriceAlerts(): Promise<PriceAlert[]> {
  return dataOf(api.GET("/api/price-alerts"));
}

export function priceAlertsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.priceAlerts(), queryFn: getPriceAlerts, refetchInterval: LIVE_REFETCH_MS });
}

export function usePriceAlerts() {
  return useQuery(priceAlertsQueryOptions());
}
