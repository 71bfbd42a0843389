import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { IvHistoryView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/stock-prices/{symbol}/implied-volatility: the last year's daily 30-day at-the-money
 * readings, the lookback's sessions, the sessions without a reading, and the standing (current,
 * IV rank, IV percentile, the high and the low) or, while hidden, the reason why.
 */
export function getImpliedVolatility(symbol: string): Promise<IvHistoryView> {
  return dataOf(api.GET("/api/stock-prices/{symbol}/implied-volatility", { params: { path: { symbol } } }));
}

export function impliedVolatilityQueryOptions(symbol: string) {
  return queryOptions({ queryKey: queryKeys.stockPrices.impliedVolatility(symbol), queryFn: () => getImpliedVolatility(symbol) });
}

export function useImpliedVolatility(symbol: string) {
  return useQuery({ ...impliedVolatilityQueryOptions(symbol), enabled: symbol.length > 0 });
}
