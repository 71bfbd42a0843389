import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { BulkAddRequest, BulkAddResponse } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/stock-prices/bulk-add: one result per entry (ok, or the reason it failed) and a summary. */
export function bulkAddStocks(body: BulkAddRequest): Promise<BulkAddResponse> {
  return dataOf(api.POST("/api/stock-prices/bulk-add", { body }));
}

export function useBulkAddStocks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkAddStocks,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.stockPrices.all() });
    },
  });
}
