import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { PORTFOLIO_QUERY_KEYS } from "@/lib/api/manual-positions";
import type { ManualPosition } from "@/lib/api/models";
import { manualPositionQueryKey } from "./get-manual-position";

/** DELETE /api/manual-positions/{id} → 204; 404 for another user's id. */
export async function deleteManualPosition(id: string): Promise<void> {
  await api.DELETE("/api/manual-positions/{id}", { params: { path: { id } } });
}

/** Removes the position from the list at once, then refetches the list and the figures. */
export function useDeleteManualPosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteManualPosition,
    onSuccess: (_, id) => {
      queryClient.setQueryData<ManualPosition[]>(PORTFOLIO_QUERY_KEYS.manualPositions, (list) => list?.filter((p) => p.id !== id));
      queryClient.removeQueries({ queryKey: manualPositionQueryKey(id) });
      void queryClient.invalidateQueries({ queryKey: PORTFOLIO_QUERY_KEYS.manualPositions });
      void queryClient.invalidateQueries({ queryKey: PORTFOLIO_QUERY_KEYS.metrics });
    },
  });
}
