import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { automationStatusQueryKey } from "./get-automation-status";
import type { AutomationStatus } from "./types";

/** POST /api/automation/stop (administrators; 403 otherwise) → the new status. */
export function stopAutomation(): Promise<AutomationStatus> {
  return apiJson<AutomationStatus>("POST", "/api/automation/stop");
}

export function useStopAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopAutomation,
    onSuccess: (status) => queryClient.setQueryData(automationStatusQueryKey, status),
  });
}
