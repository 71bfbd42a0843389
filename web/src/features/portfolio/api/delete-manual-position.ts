import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { ManualPosition } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

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
      queryClient.setQueryData<ManualPosition[]>(queryKeys.portfolio.manualPositions.all(), (list) => list?.filter((p) => p.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.portfolio.manualPositions.detail(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.manualPositions.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.metrics() });
    },
  });
}
