import { keepPreviousData, queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AnalysisRequest, StructureAnalysis, TemplateLegs, TemplateRequest } from "@/lib/api/models";
import { stockPricesQueryOptions } from "@/lib/api/stock-prices";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/stock-prices: the tracked stocks (the watchlist), ordered by symbol; the market overview's query, not polled here. */
export function useTrackedStocks() {
  return useQuery({ ...stockPricesQueryOptions(), refetchInterval: false });
}

/** POST /api/structures/template (Premium): a named structure's legs on a tracked stock. */
export function buildTemplate(body: TemplateRequest): Promise<TemplateLegs> {
  return dataOf(api.POST("/api/structures/template", { body }));
}

export function useBuildTemplate() {
  return useMutation({ mutationKey: ["/api/structures/template"], mutationFn: buildTemplate });
}

/** POST /api/structures/analysis (Premium); `signal` aborts it when its answer is no longer wanted. */
export function analyseStructure(body: AnalysisRequest, signal?: AbortSignal): Promise<StructureAnalysis> {
  return dataOf(api.POST("/api/structures/analysis", { body, signal }));
}

/**
 * The analysis of `request` (null: nothing to analyse, no request). One query per request: a
 * change starts the new one and aborts the one in flight (its answer would be stale); the
 * previous answer stays on screen meanwhile.
 */
export function analysisQueryOptions(request: AnalysisRequest | null) {
  const key = request ? JSON.stringify(request) : "";
  return queryOptions({
    queryKey: queryKeys.structureAnalysis(key),
    queryFn: ({ signal }) => analyseStructure(JSON.parse(key) as AnalysisRequest, signal),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    // An answer is for the market as it was: a minute later the same request is asked again.
    staleTime: 60_000,
  });
}

export function useStructureAnalysis(request: AnalysisRequest | null) {
  return useQuery(analysisQueryOptions(request));
}
