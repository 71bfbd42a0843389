import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { statsQueryKey } from "./get-stats";
import type { DashboardStats } from "./types";

/** POST /api/update-stats: recalculates the figures (and records today's snapshot). */
export function updateStats(): Promise<DashboardStats> {
  return apiJson<DashboardStats>("POST", "/api/update-stats");
}

export function useUpdateStats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStats,
    onSuccess: (stats) => queryClient.setQueryData(statsQueryKey, stats),
  });
}
