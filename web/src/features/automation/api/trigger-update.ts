import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AutomationStatus } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/automation/update: a manual update run (any user, rate limited) → the status. */
export function triggerAutomationUpdate(): Promise<AutomationStatus> {
  return dataOf(api.POST("/api/automation/update"));
}

/** Runs a manual update, then refetches signals, stats and stock prices, which the update refreshes. */
export function useTriggerAutomationUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: triggerAutomationUpdate,
    onSuccess: (status) => {
      queryClient.setQueryData(queryKeys.automation(), status);
      void queryClient.invalidateQueries({ queryKey: queryKeys.signals.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stockPrices.all() });
    },
  });
}
