import { queryOptions, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { HeldStructureView, NewHeldStructure } from "./models";

/**
 * Multi-leg positions held in the portfolio ("held structures"). Shared by two features: the
 * strategy builder saves one, the portfolio lists and deletes them (features do not import
 * each other). Both refresh the same queries afterwards: the list and the portfolio figures,
 * which count these positions.
 */

/** GET /api/portfolio/structures: the user's multi-leg positions, newest first, each valued now (every plan may read). */
export function getHeldStructures(): Promise<HeldStructureView[]> {
  return dataOf(api.GET("/api/portfolio/structures"));
}

export function heldStructuresQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.portfolio.heldStructures.all(),
    queryFn: getHeldStructures,
    // Valued at today's prices, like the other positions (refetched by the `prices` event too).
    refetchInterval: LIVE_REFETCH_MS,
  });
}

export function useHeldStructures() {
  return useQuery(heldStructuresQueryOptions());
}

/**
 * POST /api/portfolio/structures (Premium) → 201 HeldStructureView; 403 on another plan; 409
 * with 100 open already; 422 naming fields such as `name` or `legs[1].expirationDate`.
 */
export function saveHeldStructure(body: NewHeldStructure): Promise<HeldStructureView> {
  return dataOf(api.POST("/api/portfolio/structures", { body }));
}

/** DELETE /api/portfolio/structures/{id} → 204; 404 for another user's id. */
export async function deleteHeldStructure(id: string): Promise<void> {
  await api.DELETE("/api/portfolio/structures/{id}", { params: { path: { id } } });
}

/** After a save or a delete: refetches the multi-leg positions and the portfolio figures. */
function refreshHeldStructures(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.heldStructures.all() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.metrics() });
}

export function useSaveHeldStructure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveHeldStructure,
    onSuccess: () => refreshHeldStructures(queryClient),
  });
}

/** Removes the position from the list at once, then refetches the list and the figures. */
export function useDeleteHeldStructure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHeldStructure,
    onSuccess: (_, id) => {
      queryClient.setQueryData<HeldStructureView[]>(queryKeys.portfolio.heldStructures.all(), (list) => list?.filter((s) => s.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.portfolio.heldStructures.detail(id) });
      refreshHeldStructures(queryClient);
    },
  });
}
