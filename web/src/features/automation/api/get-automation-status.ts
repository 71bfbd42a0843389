import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AutomationStatus } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/automation/status, polled every 30 s (and refetched on `automation` events). */
export function getAutomationStatus(): Promise<AutomationStatus> {
  return dataOf(api.GET("/api/automation/status"));
}

export function automationStatusQueryOptions() {
  return queryOptions({ queryKey: queryKeys.automation(), queryFn: getAutomationStatus, refetchInterval: LIVE_REFETCH_MS });
}

export function useAutomationStatus() {
  return useQuery(automationStatusQueryOptions());
}
