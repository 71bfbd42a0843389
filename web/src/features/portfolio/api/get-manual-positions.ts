import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { ManualPosition } from "@/lib/api/models";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

export const manualPositionsQueryKey = PORTFOLIO_QUERY_KEYS.manualPositions;

/** GET /api/manual-positions: the user's own positions, newest first, each valued now. */
export function getManualPositions(): Promise<ManualPosition[]> {
  return dataOf(api.GET("/api/manual-positions"));
}

export function manualPositionsQueryOptions() {
  return queryOptions({
    queryKey: manualPositionsQueryKey,
    queryFn: getManualPositions,
    // Their marks move with the market, like the automated positions.
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function useManualPositions() {
  return useQuery(manualPositionsQueryOptions());
}
