import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { stockPricesQueryKey } from "./get-stock-prices";
import type { StockPrice } from "./types";

/** POST /api/update-stock-prices → the refreshed watchlist. */
export function updateStockPrices(): Promise<StockPrice[]> {
  return apiJson<StockPrice[]>("POST", "/api/update-stock-prices");
}

export function useUpdateStockPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStockPrices,
    onSuccess: (prices) => {
      queryClient.setQueryData(stockPricesQueryKey, prices);
    },
  });
}
