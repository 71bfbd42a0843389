import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { Recommendation } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** The dashboard's assistant shows at most this many. */
export const ASSISTANT_LIMIT = 6;

/**
 * GET /api/ai/recommendations?limit=…: the user's recommendations, risk first, then the
 * positions held, then trades. 403 on a plan without AI recommendations (Free).
 */
export function getAiRecommendations(limit: number): Promise<Recommendation[]> {
  return dataOf(api.GET("/api/ai/recommendations", { params: { query: { limit } } }));
}

export function aiRecommendationsQueryOptions(limit: number = ASSISTANT_LIMIT) {
  return queryOptions({ queryKey: queryKeys.aiRecommendations(limit), queryFn: () => getAiRecommendations(limit) });
}

/** `enabled: false` (a plan without AI recommendations) makes no request at all. */
export function useAiRecommendations(limit: number = ASSISTANT_LIMIT, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...aiRecommendationsQueryOptions(limit), enabled });
}
