import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { DashboardStats } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/update-stats: recalculates the figures (and records today's snapshot). */
export function updateStats(): Promise<DashboardStats> {
  return dataOf(api.POST("/api/update-stats"));
}

export function useUpdateStats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStats,
    onSuccess: (stats) => queryClient.setQueryData(queryKeys.stats(), stats),
  });
}
