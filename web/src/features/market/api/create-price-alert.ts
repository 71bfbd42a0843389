import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { NewPriceAlert, PriceAlert } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/price-alerts → 201 with the alert; 422 naming `symbol` (not a ticker, not on the
 * watchlist) or `targetPrice`; 409 (on `symbol`) at 50 active alerts.
 */
export function createPriceAlert(body: NewPriceAlert): Promise<PriceAlert> {
  return dataOf(api.POST("/api/price-alerts", { body }));
}

/** Sets an alert and puts it at the top of the list (newest first). */
export function useCreatePriceAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPriceAlert,
    onSuccess: (alert) => {
      queryClient.setQueryData<PriceAlert[]>(queryKeys.priceAlerts(), (alerts) =>
        alerts ? [alert, ...alerts.filter((a) => a.id !== alert.id)] : [alert],
      );
    },
  });
}
