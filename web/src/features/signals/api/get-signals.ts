import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { LIVE_QUERY_KEYS, LIVE_REFETCH_MS } from "@/lib/live-events";
import type { Signal, SignalFilters } from "./types";

/** The filters in the order they are sent; absent ones are left out of the query. */
const FILTER_KEYS = ["symbol", "strategy", "signalType", "status", "maxCost", "riskLevel"] as const;

/** "?strategy=Momentum&status=active", or "" with no filters. */
export function signalsSearch(filters: SignalFilters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Only the filters that are set, so equal filters make equal keys. */
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
  return apiJson<Signal[]>("GET", `/api/signals${signalsSearch(filters)}`);
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
