import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { SignalAnalysis } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/signals/{id}/analysis: price history, payoff grid and risk figures for the detail dialog. */
export function getSignalAnalysis(id: string): Promise<SignalAnalysis> {
  return dataOf(api.GET("/api/signals/{id}/analysis", { params: { path: { id } } }));
}

export function signalAnalysisQueryOptions(id: string) {
  return queryOptions({ queryKey: queryKeys.signals.analysis(id), queryFn: () => getSignalAnalysis(id) });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function useSignalAnalysis(id: string, enabled = true) {
  return useQuery({ ...signalAnalysisQueryOptions(id), enabled });
}
