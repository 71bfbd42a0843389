import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf, rateLimited } from "@/lib/api/client";
import type { OptionChainView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/stock-prices/{symbol}/options?expiration=YYYY-MM-DD: every listed expiration, and a
 * row per strike (call and put) at `expiration`, or at the one the server picks (the first at
 * least a week away) when it is null. 422 naming `expiration` for a date not listed; 404 for a
 * symbol off the watchlist; 429 with Retry-After (60 chains a minute per user); 503 while the
 * market-data provider is down.
 */
export function getOptionChain(symbol: string, expiration: string | null, signal?: AbortSignal): Promise<OptionChainView> {
  return dataOf(
    api.GET("/api/stock-prices/{symbol}/options", {
      params: { path: { symbol }, query: expiration ? { expiration } : {} },
      signal,
    }),
  );
}

/**
 * The chain of `symbol` at `expiration`. Quotes move: an answer counts as fresh for a minute
 * (the prices event refreshes it sooner), and while another expiration loads the last one
 * stays on screen.
 */
export function optionChainQueryOptions(symbol: string, expiration: string | null) {
  return queryOptions({
    queryKey: queryKeys.stockPrices.optionChain(symbol, expiration),
    queryFn: ({ signal }) => getOptionChain(symbol, expiration, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useOptionChain(symbol: string, expiration: string | null) {
  return useQuery({ ...optionChainQueryOptions(symbol, expiration), enabled: symbol.length > 0 });
}

/** "Too many option chains: try again in 12 s." for a 429, else null. */
export function chainRetryText(error: unknown): string | null {
  const limited = rateLimited(error);
  if (!limited) return null;
  return limited.retryAfter !== null
    ? `Too many option chains: try again in ${limited.retryAfter} s.`
    : "Too many option chains: try again shortly.";
}
