import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";
import type { RefreshReceipt } from "./types";

/**
 * POST /api/refresh → 202. Only the refresh button posts it (never a timer; the server's
 * scheduler refreshes for everyone). Rate limited per user: 429 with Retry-After.
 */
export function refreshSignals(): Promise<RefreshReceipt> {
  return apiJson<RefreshReceipt>("POST", "/api/refresh");
}

export function useRefreshSignals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshSignals,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.signals });
      void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.stats });
    },
  });
}
