import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { DashboardStats } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/stats: the four stat cards' figures and their changes. */
export function getStats(): Promise<DashboardStats> {
  return dataOf(api.GET("/api/stats"));
}

export function statsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.stats(), queryFn: getStats, refetchInterval: LIVE_REFETCH_MS });
}

export function useStats() {
  return useQuery(statsQueryOptions());
}
