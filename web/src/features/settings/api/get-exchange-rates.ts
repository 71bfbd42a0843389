import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { DisplayCurrency, ExchangeRates } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** The server keeps rates 15 minutes; the app asks again as often. */
const RATES_REFRESH_MS = 15 * 60 * 1000;

/** GET /api/exchange-rates: units of EUR and GBP one US dollar buys, from the market-data provider. */
export function getExchangeRates(): Promise<ExchangeRates> {
  return dataOf(api.GET("/api/exchange-rates"));
}

export function exchangeRatesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.exchangeRates(),
    queryFn: getExchangeRates,
    staleTime: RATES_REFRESH_MS,
    refetchInterval: RATES_REFRESH_MS,
  });
}

/** The rates, fetched only while `enabled` (a currency other than the dollar is chosen). */
export function useExchangeRates({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...exchangeRatesQueryOptions(), enabled });
}

/** Units of `currency` one US dollar buys, or null when the rates do not say. */
export function rateFor(rates: ExchangeRates | undefined, currency: DisplayCurrency): number | null {
  if (currency === "USD") return 1;
  if (!rates || rates.base !== "USD") return null;
  const rate = rates.rates.find((r) => r.currency === currency)?.perUsd;
  return typeof rate === "number" && Number.isFinite(rate) && rate > 0 ? rate : null;
}
