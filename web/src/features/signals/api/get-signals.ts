import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ConfidenceBand, MaxCost, OptionType, SignalStatus, Strategy } from "@/lib/api/enums";
import type { Signal } from "@/lib/api/models";
import type { operations } from "@/lib/api/schema";
import { LIVE_QUERY_KEYS, LIVE_REFETCH_MS } from "@/lib/live-events";

type SignalsQuery = NonNullable<operations["list_signals"]["parameters"]["query"]>;

/**
 * The query filters of GET /api/signals, narrowed to the values the filter bar offers; an
 * absent key means "All".
 */
export type SignalFilters = Pick<SignalsQuery, "symbol"> & {
  strategy?: Strategy;
  signalType?: OptionType;
  status?: SignalStatus;
  maxCost?: MaxCost;
  riskLevel?: ConfidenceBand;
};

/** The filters in the order they are sent; absent ones are left out of the query. */
const FILTER_KEYS = ["symbol", "strategy", "signalType", "status", "maxCost", "riskLevel"] as const satisfies readonly (keyof SignalsQuery)[];

/** Only the filters that are set, in the order they are sent, so equal filters make equal keys. */
function normalise(filters: SignalFilters): SignalFilters {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) out[key] = value;
  }
  return out as SignalFilters;
}

export function signalsQueryKey(filters: SignalFilters = {}) {
  return [...LIVE_QUERY_KEYS.signals, normalise(filters)] as const;
}

/** GET /api/signals with the given filters: newest first. */
export function getSignals(filters: SignalFilters = {}): Promise<Signal[]> {
  return dataOf(api.GET("/api/signals", { params: { query: normalise(filters) } }));
}

export function signalsQueryOptions(filters: SignalFilters = {}) {
  const normalised = normalise(filters);
  return queryOptions({
    queryKey: signalsQueryKey(normalised),
    queryFn: () => getSignals(normalised),
    // Live updates arrive as events; polling is the fallback, in the background too (spec 4).
    refetchInterval: LIVE_REFETCH_MS,
    refetchIntervalInBackground: true,
  });
}

export function useSignals(filters: SignalFilters = {}) {
  return useQuery(signalsQueryOptions(filters));
}
