import { queryOptions, useQuery } from "@tanstack/react-query";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { StockPrice } from "./models";

/**
 * The watchlist's quotes, read by more than one feature (features do not import each other):
 * the market overview lists them, the signals show their symbol's implied volatility and IV
 * rank, the strategy builder picks its symbol from them. One query under one key, so every
 * reader shares one answer; the market feature's `api/get-stock-prices.ts` re-exports it.
 */

/** GET /api/stock-prices: the watchlist, ordered by symbol. */
export function getStockPrices(): Promise<StockPrice[]> {
  return dataOf(api.GET("/api/stock-prices"));
}

export function stockPricesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.stockPrices.all(), queryFn: getStockPrices, refetchInterval: LIVE_REFETCH_MS });
}

/** The watchlist, polled every 30 s as the live stream's fallback (the market overview). */
export function useStockPrices() {
  return useQuery(stockPricesQueryOptions());
}

/**
 * One symbol's quote from the watchlist query, `null` when the symbol is not on it. It reads
 * the shared answer (a card per signal makes no request of its own) and does not poll: the
 * live stream's `prices` event refreshes it, and the overview polls it where it is shown.
 */
export function useStockQuote(symbol: string) {
  return useQuery({
    ...stockPricesQueryOptions(),
    refetchInterval: false,
    select: (prices: StockPrice[]) => prices.find((p) => p.symbol === symbol) ?? null,
  });
}
