import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ManualPosition } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { PORTFOLIO_REFETCH_MS } from "./get-portfolio-metrics";

/** GET /api/manual-positions: the user's own positions, newest first, each valued now. */
export function getManualPositions(): Promise<ManualPosition[]> {
  return dataOf(api.GET("/api/manual-positions"));
}

export function manualPositionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.portfolio.manualPositions.all(),
    queryFn: getManualPositions,
    // Their marks move with the market, like the automated positions.
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function useManualPositions() {
  return useQuery(manualPositionsQueryOptions());
}
