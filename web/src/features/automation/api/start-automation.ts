import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { automationStatusQueryKey } from "./get-automation-status";
import type { AutomationStatus } from "./types";

/** POST /api/automation/start (administrators; 403 otherwise) → the new status. */
export function startAutomation(): Promise<AutomationStatus> {
  return apiJson<AutomationStatus>("POST", "/api/automation/start");
}

export function useStartAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startAutomation,
    onSuccess: (status) => queryClient.setQueryData(automationStatusQueryKey, status),
  });
}
