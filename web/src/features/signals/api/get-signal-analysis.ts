import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";
import type { SignalAnalysis } from "./types";

export function signalAnalysisQueryKey(id: string) {
  return [...LIVE_QUERY_KEYS.signals, id, "analysis"] as const;
}

/** GET /api/signals/{id}/analysis: price history, payoff grid and risk figures for the detail dialog. */
export function getSignalAnalysis(id: string): Promise<SignalAnalysis> {
  return apiJson<SignalAnalysis>("GET", `/api/signals/${encodeURIComponent(id)}/analysis`);
}

export function signalAnalysisQueryOptions(id: string) {
  return queryOptions({ queryKey: signalAnalysisQueryKey(id), queryFn: () => getSignalAnalysis(id) });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function useSignalAnalysis(id: string, enabled = true) {
  return useQuery({ ...signalAnalysisQueryOptions(id), enabled });
}
