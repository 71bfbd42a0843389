import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { HistoryBar } from "@/lib/api/models";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";

export function stockHistoryQueryKey(symbol: string, days: number) {
  return [...LIVE_QUERY_KEYS.prices, symbol, "history", days] as const;
}

/** GET /api/stock-prices/{symbol}/history?days=N: daily bars, oldest first. */
export function getStockHistory(symbol: string, days = 90): Promise<HistoryBar[]> {
  return dataOf(api.GET("/api/stock-prices/{symbol}/history", { params: { path: { symbol }, query: { days } } }));
}

export function stockHistoryQueryOptions(symbol: string, days = 90) {
  return queryOptions({ queryKey: stockHistoryQueryKey(symbol, days), queryFn: () => getStockHistory(symbol, days) });
}

export function useStockHistory(symbol: string, days = 90, enabled = true) {
  return useQuery({ ...stockHistoryQueryOptions(symbol, days), enabled: enabled && symbol.length > 0 });
}
