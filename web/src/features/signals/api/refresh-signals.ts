import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { RefreshReceipt } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/refresh → 202. Only the refresh button posts it (never a timer; the server's
 * scheduler refreshes for everyone). Rate limited per user: 429 with Retry-After.
 */
export function refreshSignals(): Promise<RefreshReceipt> {
  return dataOf(api.POST("/api/refresh"));
}

export function useRefreshSignals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshSignals,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.signals.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats() });
    },
  });
}
