import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { StockPrice } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/update-stock-prices → the refreshed watchlist. */
export function updateStockPrices(): Promise<StockPrice[]> {
  return dataOf(api.POST("/api/update-stock-prices"));
}

export function useUpdateStockPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStockPrices,
    onSuccess: (prices) => {
      queryClient.setQueryData(queryKeys.stockPrices.all(), prices);
    },
  });
}
