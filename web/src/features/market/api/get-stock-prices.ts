import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { StockPrice } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/stock-prices: the watchlist, ordered by symbol. */
export function getStockPrices(): Promise<StockPrice[]> {
  return dataOf(api.GET("/api/stock-prices"));
}

export function stockPricesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.stockPrices.all(), queryFn: getStockPrices, refetchInterval: LIVE_REFETCH_MS });
}

export function useStockPrices() {
  return useQuery(stockPricesQueryOptions());
}
