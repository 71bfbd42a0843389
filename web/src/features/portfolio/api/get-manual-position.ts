import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { PositionDetail } from "@/lib/api/models";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

export function manualPositionQueryKey(id: string) {
  return [...PORTFOLIO_QUERY_KEYS.manualPositions, id] as const;
}

/** GET /api/manual-positions/{id}: one manual position with Greeks, risk and payoff. 404 for another user's id. */
export function getManualPosition(id: string): Promise<PositionDetail> {
  return dataOf(api.GET("/api/manual-positions/{id}", { params: { path: { id } } }));
}

export function manualPositionQueryOptions(id: string) {
  return queryOptions({
    queryKey: manualPositionQueryKey(id),
    queryFn: () => getManualPosition(id),
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function useManualPosition(id: string, enabled = true) {
  return useQuery({ ...manualPositionQueryOptions(id), enabled });
}
