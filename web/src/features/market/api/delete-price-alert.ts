import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { PriceAlert } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** DELETE /api/price-alerts/{id} → 204; 404 when it is not one of the user's. */
export async function deletePriceAlert(id: string): Promise<void> {
  await api.DELETE("/api/price-alerts/{id}", { params: { path: { id } } });
}

export function useDeletePriceAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePriceAlert,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<PriceAlert[]>(queryKeys.priceAlerts(), (alerts) => alerts?.filter((a) => a.id !== id));
    },
  });
}
