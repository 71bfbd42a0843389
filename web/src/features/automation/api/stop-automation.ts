import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AutomationStatus } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/automation/stop (administrators; 403 otherwise) → the new status. */
export function stopAutomation(): Promise<AutomationStatus> {
  return dataOf(api.POST("/api/automation/stop"));
}

export function useStopAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopAutomation,
    onSuccess: (status) => queryClient.setQueryData(queryKeys.automation(), status),
  });
}
