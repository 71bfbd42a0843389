import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";
import type { GenerateSignalRequest, Signal } from "./types";

/**
 * POST /api/signals/generate-for-symbol → 201 Signal. 422 (`symbol`) when blank, invalid or
 * unknown; 403 when the plan has no on-demand generation; 429 when the day's quota is used.
 */
export function generateSignal(body: GenerateSignalRequest): Promise<Signal> {
  return apiJson<Signal>("POST", "/api/signals/generate-for-symbol", body);
}

export function useGenerateSignal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateSignal,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.signals });
      void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.stats });
    },
  });
}
