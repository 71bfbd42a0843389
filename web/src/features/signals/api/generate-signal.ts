import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { GenerateRequest, Signal } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/signals/generate-for-symbol → 201 Signal. 422 (`symbol`) when blank, invalid or
 * unknown; 403 when the plan has no on-demand generation; 429 when the day's quota is used.
 */
export function generateSignal(body: GenerateRequest): Promise<Signal> {
  return dataOf(api.POST("/api/signals/generate-for-symbol", { body }));
}

export function useGenerateSignal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateSignal,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.signals.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats() });
    },
  });
}
