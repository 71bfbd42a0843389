import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { stockPricesQueryKey } from "./get-stock-prices";
import type { BulkAddRequest, BulkAddResponse } from "./types";

/** POST /api/stock-prices/bulk-add: one result per entry (ok, or the reason it failed) and a summary. */
export function bulkAddStocks(body: BulkAddRequest): Promise<BulkAddResponse> {
  return apiJson<BulkAddResponse>("POST", "/api/stock-prices/bulk-add", body);
}

export function useBulkAddStocks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkAddStocks,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: stockPricesQueryKey });
    },
  });
}
