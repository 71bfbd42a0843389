import { queryOptions, useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { CustomStrategyView } from "./models";

/**
 * The user's saved custom strategies, read by more than one feature (features do not import
 * each other): the custom strategies page lists and edits them, the signals name the one that
 * issued a "Custom" signal (`Signal.customStrategyId`). One query under one key, so every reader
 * shares one answer; the custom strategies feature's `api/custom-strategies.ts` builds on it.
 */

/** GET /api/strategies/custom: the user's saved strategies, by name (every plan may read them). */
export function getCustomStrategies(): Promise<CustomStrategyView[]> {
  return dataOf(api.GET("/api/strategies/custom"));
}

export function customStrategiesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.customStrategies.all(), queryFn: getCustomStrategies });
}

/** How old the shared list may be before a signal naming one of its strategies asks for it again. */
const NAME_STALE_MS = 60_000;

/**
 * The name of the user's custom strategy `id`, null while the list loads, when it failed, or
 * when the list lacks it. Without an id (a house rule's signal, or one whose strategy was
 * deleted) nothing is asked; with one, the shared list is read (asked again when over a
 * minute old: the strategy may have been saved since).
 */
export function useCustomStrategyName(id: string | null | undefined): string | null {
  const { data } = useQuery({
    ...customStrategiesQueryOptions(),
    enabled: id != null,
    staleTime: NAME_STALE_MS,
    select: (list: CustomStrategyView[]) => list.find((s) => s.id === id)?.name ?? null,
  });
  return id == null ? null : (data ?? null);
}
