import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { HistoryBar } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/stock-prices/{symbol}/history?days=N: daily bars, oldest first. */
export function getStockHistory(symbol: string, days = 90): Promise<HistoryBar[]> {
  return dataOf(api.GET("/api/stock-prices/{symbol}/history", { params: { path: { symbol }, query: { days } } }));
}

export function stockHistoryQueryOptions(symbol: string, days = 90) {
  return queryOptions({ queryKey: queryKeys.stockPrices.history(symbol, days), queryFn: () => getStockHistory(symbol, days) });
}

export function useStockHistory(symbol: string, days = 90, enabled = true) {
  return useQuery({ ...stockHistoryQueryOptions(symbol, days), enabled: enabled && symbol.length > 0 });
}
