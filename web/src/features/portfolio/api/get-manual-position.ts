import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PositionDetail } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

/** GET /api/manual-positions/{id}: one manual position with Greeks, risk and payoff. 404 for another user's id. */
export function getManualPosition(id: string): Promise<PositionDetail> {
  return dataOf(api.GET("/api/manual-positions/{id}", { params: { path: { id } } }));
}

export function manualPositionQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.portfolio.manualPositions.detail(id),
    queryFn: () => getManualPosition(id),
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

/** Loaded only while `enabled` (the detail dialog is open). */
export function useManualPosition(id: string, enabled = true) {
  return useQuery({ ...manualPositionQueryOptions(id), enabled });
}
