import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";
import type { PriceBar } from "./types";

export function stockHistoryQueryKey(symbol: string, days: number) {
  return [...LIVE_QUERY_KEYS.prices, symbol, "history", days] as const;
}

/** GET /api/stock-prices/{symbol}/history?days=N: daily bars, oldest first. */
export function getStockHistory(symbol: string, days = 90): Promise<PriceBar[]> {
  return apiJson<PriceBar[]>("GET", `/api/stock-prices/${encodeURIComponent(symbol)}/history?days=${days}`);
}

export function stockHistoryQueryOptions(symbol: string, days = 90) {
  return queryOptions({ queryKey: stockHistoryQueryKey(symbol, days), queryFn: () => getStockHistory(symbol, days) });
}

export function useStockHistory(symbol: string, days = 90, enabled = true) {
  return useQuery({ ...stockHistoryQueryOptions(symbol, days), enabled: enabled && symbol.length > 0 });
}
