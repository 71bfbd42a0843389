import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createManualPosition, refreshAfterAdd } from "@/lib/api/manual-positions";

/**
 * POST /api/manual-positions → 201 ManualPosition; 422 with field errors. Afterwards the
 * manual positions and the portfolio metrics are refetched. The
 * call itself lives in src/lib, shared with the signal dialog's "Add to Portfolio".
 */
export { createManualPosition };

export function useCreateManualPosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createManualPosition,
    onSuccess: () => refreshAfterAdd(queryClient),
  });
}
