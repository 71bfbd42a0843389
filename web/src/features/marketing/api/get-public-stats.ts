import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PublicStats } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/public/stats: live platform figures, each with its period. */
export function getPublicStats(): Promise<PublicStats> {
  return dataOf(api.GET("/api/public/stats"));
}

export function publicStatsQueryOptions() {
  // Figures move slowly; a minute-old copy is fresh enough when a visitor navigates back.
  return queryOptions({ queryKey: queryKeys.publicStats(), queryFn: getPublicStats, staleTime: 60_000 });
}

export function usePublicStats() {
  return useQuery(publicStatsQueryOptions());
}
