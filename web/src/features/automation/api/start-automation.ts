import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AutomationStatus } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/automation/start (administrators; 403 otherwise) → the new status. */
export function startAutomation(): Promise<AutomationStatus> {
  return dataOf(api.POST("/api/automation/start"));
}

export function useStartAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startAutomation,
    onSuccess: (status) => queryClient.setQueryData(queryKeys.automation(), status),
  });
}
