import { type InfiniteData, infiniteQueryOptions, queryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ConfidenceBand, MaxCost, OptionType, SignalStatus, TradedStrategy } from "@/lib/api/enums";
import type { Signal, SignalPage } from "@/lib/api/models";
import type { operations } from "@/lib/api/schema";
import { useAutoUpdateSignals } from "@/lib/api/user-settings";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

type SignalsQuery = NonNullable<operations["list_signals"]["parameters"]["query"]>;

/**
 * The query filters of GET /api/signals, narrowed to the values the filter bar offers; an
 * absent key means "All".
 */
export type SignalFilters = Pick<SignalsQuery, "symbol"> & {
  strategy?: TradedStrategy;
  signalType?: OptionType;
  status?: SignalStatus;
  maxCost?: MaxCost;
  riskLevel?: ConfidenceBand;
};

/** Signals per page in the lists (the server's default, sent all the same). */
export const SIGNALS_PAGE_LIMIT = 50;

/** Signals per request when every page is read (the CSV export, the active signals): the server's maximum. */
export const SIGNALS_MAX_LIMIT = 200;

/** The filters in the order they are sent; absent ones are left out of the query. */
const FILTER_KEYS = [
  "symbol",
  "strategy",
  "signalType",
  "status",
  "maxCost",
  "riskLevel",
] as const satisfies readonly (keyof SignalsQuery)[];

/** Only the filters that are set, in the order they are sent, so equal filters make equal keys. */
function normalise(filters: SignalFilters): SignalFilters {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) out[key] = value;
  }
  return out as SignalFilters;
}

/** The key of the paged list for these filters (an infinite query: one entry per page loaded). */
export function signalsQueryKey(filters: SignalFilters = {}) {
  return queryKeys.signals.pages(normalise(filters));
}

/** The key of every signal matching these filters, all pages read at once. */
export function allSignalsQueryKey(filters: SignalFilters = {}) {
  return queryKeys.signals.every(normalise(filters));
}

export type SignalPageRequest = {
  /** The previous page's `nextCursor`; absent for the newest page. */
  cursor?: string;
  /** Signals per page, 1–200. */
  limit?: number;
};

/**
 * GET /api/signals with the given filters: one page, newest first, and the cursor of the next
 * (older) page, absent or null on the last one. A bad cursor is a 422 naming `cursor`.
 */
export function getSignalPage(
  filters: SignalFilters = {},
  { cursor, limit = SIGNALS_PAGE_LIMIT }: SignalPageRequest = {},
): Promise<SignalPage> {
  return dataOf(api.GET("/api/signals", { params: { query: { ...normalise(filters), limit, cursor } } }));
}

/**
 * Every signal matching the filters, newest first: follows the cursors from the newest page
 * to the last, `limit` per request. `onProgress` hears the running count after each page.
 * Any failed page rejects the whole read (nothing partial is returned).
 */
export async function getAllSignals(
  filters: SignalFilters = {},
  { limit = SIGNALS_MAX_LIMIT, onProgress }: { limit?: number; onProgress?: (loaded: number) => void } = {},
): Promise<Signal[]> {
  const normalised = normalise(filters);
  const signals: Signal[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await getSignalPage(normalised, { cursor, limit });
    signals.push(...page.signals);
    onProgress?.(signals.length);
    const next = page.nextCursor ?? undefined;
    // A cursor seen before would loop forever: stop there.
    if (next === undefined || seen.has(next)) return signals;
    seen.add(next);
    cursor = next;
  }
}

/** The signals of every page loaded so far, newest first. */
export function signalsOf(data: InfiniteData<SignalPage> | undefined): Signal[] {
  return data?.pages.flatMap((page) => page.signals) ?? [];
}

/**
 * The paged list: the newest 50 first, then older pages through the cursor
 * (`fetchNextPage`, while `hasNextPage`). A live event or the fallback poll refetches every
 * page loaded so far.
 */
export function signalsQueryOptions(filters: SignalFilters = {}) {
  const normalised = normalise(filters);
  return infiniteQueryOptions({
    queryKey: signalsQueryKey(normalised),
    queryFn: ({ pageParam }) => getSignalPage(normalised, { cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Live updates arrive as events; polling is the fallback, in the background too
    // (docs/decisions.md#7-live-updates-instead-of-refresh-timers).
    refetchInterval: LIVE_REFETCH_MS,
    refetchIntervalInBackground: true,
  });
}

/**
 * The signals' fallback polling, as "Auto-update Signals" says: every 30 s while it is on, never
 * while it is off (the live events for signals are paused too, in the app layout); the Refresh
 * button still works.
 */
export function useSignalRefetch(): number | false {
  return useAutoUpdateSignals() ? LIVE_REFETCH_MS : false;
}

export function useSignals(filters: SignalFilters = {}) {
  return useInfiniteQuery({ ...signalsQueryOptions(filters), refetchInterval: useSignalRefetch() });
}

/** Every signal matching the filters in one query (all pages read; see `getAllSignals`). */
export function allSignalsQueryOptions(filters: SignalFilters = {}) {
  const normalised = normalise(filters);
  return queryOptions({
    queryKey: allSignalsQueryKey(normalised),
    queryFn: () => getAllSignals(normalised),
    refetchInterval: LIVE_REFETCH_MS,
    refetchIntervalInBackground: true,
  });
}
