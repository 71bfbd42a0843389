import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { customStrategiesQueryOptions } from "@/lib/api/custom-strategies";
import type {
  BacktestRequest,
  CustomStrategyInput,
  CustomStrategyView,
  OverallBacktest,
  Preview,
  PreviewRequest,
  RuleLanguage,
} from "@/lib/api/models";
import { stockPricesQueryOptions } from "@/lib/api/stock-prices";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/strategies/custom/language (no sign-in): every indicator a rule reads with its label
 * and kind, and the limits on a rule's size. The builder's one source for both.
 */
export function getRuleLanguage(): Promise<RuleLanguage> {
  return dataOf(api.GET("/api/strategies/custom/language"));
}

/** The rule language, asked once: it changes only with the server. */
export function useRuleLanguage() {
  return useQuery({ queryKey: queryKeys.customStrategies.language(), queryFn: getRuleLanguage, staleTime: Infinity });
}

// The saved list is shared with the signals (they name a custom strategy's signals): it lives
// in lib/api/custom-strategies.ts, and this module keeps the feature's name for it.
export { getCustomStrategies } from "@/lib/api/custom-strategies";

/** GET /api/strategies/custom: the user's saved strategies, by name (every plan may read them). */
export function useCustomStrategies() {
  return useQuery(customStrategiesQueryOptions());
}

/**
 * POST /api/strategies/custom (a new one) or PUT /api/strategies/custom/{id} (Premium) → the
 * saved strategy; 409 (field `name`) when the name is taken or the user keeps the most they may
 * (`RuleLanguage.maxStrategies`); 422 naming `name` and `document.…`.
 */
export function saveCustomStrategy({ id, input }: { id: string | null; input: CustomStrategyInput }): Promise<CustomStrategyView> {
  return id
    ? dataOf(api.PUT("/api/strategies/custom/{id}", { params: { path: { id } }, body: input }))
    : dataOf(api.POST("/api/strategies/custom", { body: input }));
}

export function useSaveCustomStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCustomStrategy,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.customStrategies.detail(saved.id), saved);
      // In the list at once (by name, as the server lists them), then as the server has it.
      queryClient.setQueryData<CustomStrategyView[]>(queryKeys.customStrategies.all(), (list) =>
        list ? [...list.filter((s) => s.id !== saved.id), saved].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.customStrategies.all() });
    },
  });
}

/** DELETE /api/strategies/custom/{id} → 204 (every plan). */
export async function deleteCustomStrategy(id: string): Promise<void> {
  await api.DELETE("/api/strategies/custom/{id}", { params: { path: { id } } });
}

/** Removes the strategy from the list at once, then refetches the list. */
export function useDeleteCustomStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomStrategy,
    onSuccess: (_, id) => {
      queryClient.setQueryData<CustomStrategyView[]>(queryKeys.customStrategies.all(), (list) => list?.filter((s) => s.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.customStrategies.detail(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.customStrategies.all() });
    },
  });
}

/**
 * PUT /api/strategies/custom/{id}/active → the strategy as it is now. On, the scheduler issues
 * its signals to the user alone, and with `automate` the user's automation opens paper
 * positions from them (only while on; the server answers 422 otherwise); switching either on
 * is Premium (403 otherwise), switching off is allowed on every plan; 404 when the strategy
 * is not the user's. Left out, `automate` is off.
 */
export function setCustomStrategyActive({
  id,
  active,
  automate,
}: {
  id: string;
  active: boolean;
  automate?: boolean;
}): Promise<CustomStrategyView> {
  const body = automate === undefined ? { active } : { active, automate };
  return dataOf(api.PUT("/api/strategies/custom/{id}/active", { params: { path: { id } }, body }));
}

/** Switches one strategy's live signals on or off (each row has its own, so only that row's switch waits). */
export function useSetCustomStrategyActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCustomStrategyActive,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.customStrategies.detail(saved.id), saved);
      queryClient.setQueryData<CustomStrategyView[]>(queryKeys.customStrategies.all(), (list) =>
        list?.map((s) => (s.id === saved.id ? saved : s)),
      );
    },
  });
}

/** POST /api/strategies/custom/preview (Premium; 120 an hour, then 429 with Retry-After). */
export function previewCustomStrategy(body: PreviewRequest, signal?: AbortSignal): Promise<Preview> {
  return dataOf(api.POST("/api/strategies/custom/preview", { body, signal }));
}

/**
 * What the rule says today (null: no valid rule, no request). One query per request: a change
 * starts the new one and aborts the one in flight; the previous answer stays on screen meanwhile.
 */
export function previewQueryOptions(request: PreviewRequest | null) {
  const key = request ? JSON.stringify(request) : "";
  return queryOptions({
    queryKey: queryKeys.customStrategies.preview(key),
    queryFn: ({ signal }) => previewCustomStrategy(JSON.parse(key) as PreviewRequest, signal),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    // Judged on the latest bar: a minute later the same rule is asked again.
    staleTime: 60_000,
  });
}

export function usePreview(request: PreviewRequest | null) {
  return useQuery(previewQueryOptions(request));
}

/** POST /api/backtest with `customStrategy` (Premium): the rule's trades alone. May take a few seconds. */
export function runCustomBacktest(body: BacktestRequest): Promise<OverallBacktest> {
  return dataOf(api.POST("/api/backtest", { body }));
}

export function useRunCustomBacktest() {
  return useMutation({ mutationKey: ["/api/backtest", "custom"], mutationFn: runCustomBacktest });
}

/** GET /api/stock-prices: the tracked stocks (what a backtest may be limited to), once `enabled`; not polled here. */
export function useTrackedStocks(enabled = true) {
  return useQuery({ ...stockPricesQueryOptions(), refetchInterval: false, enabled });
}
