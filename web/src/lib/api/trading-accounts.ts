import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { BrokerConnectionInput, NewTradingAccount, TradingAccount, TradingAccounts, TradingAccountUpdate } from "./models";

/**
 * Trading accounts (docs/accounts.md): a user holds one or more, one of them current. Shared
 * because the app's header switches accounts and Settings › Trading accounts manages them, and
 * because a switch reaches every feature that shows the current account's data.
 */

/** GET /api/accounts: the accounts, oldest first, and how many the plan holds (`maxAccounts`). */
export function getTradingAccounts(): Promise<TradingAccounts> {
  return dataOf(api.GET("/api/accounts"));
}

export function tradingAccountsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tradingAccounts(), queryFn: getTradingAccounts });
}

/**
 * Whether a form that can scope what it creates to one account (an API key, a webhook endpoint)
 * offers the choice: only to a user who holds more than one account.
 */
export function offersAccountChoice(list: TradingAccounts | undefined): boolean {
  return (list?.accounts?.length ?? 0) > 1;
}

export function useTradingAccounts() {
  return useQuery(tradingAccountsQueryOptions());
}

/**
 * POST /api/accounts → 201 with the new account (not current). 403 on a plan that holds one
 * account (the detail names Premium); 409 on a taken name (field `name`) or at the plan's
 * number (field `body`); 422 naming the field that is not valid.
 */
export function createTradingAccount(body: NewTradingAccount): Promise<TradingAccount> {
  return dataOf(api.POST("/api/accounts", { body }));
}

/** PATCH /api/accounts/{id} → the account as stored; what `body` leaves out is kept. 409 on a taken name; 422 naming a field. */
export function updateTradingAccount({ id, body }: { id: string; body: TradingAccountUpdate }): Promise<TradingAccount> {
  return dataOf(api.PATCH("/api/accounts/{id}", { params: { path: { id } }, body }));
}

/**
 * DELETE /api/accounts/{id} → 204, with the account's closed positions and history. 409 (field
 * `id`, the detail says why) for the current account or one holding open positions.
 */
export async function deleteTradingAccount(id: string): Promise<void> {
  await api.DELETE("/api/accounts/{id}", { params: { path: { id } } });
}

/** PUT /api/accounts/current → the account now current; 404 for an id that is not one of the user's. */
export function switchTradingAccount(id: string): Promise<TradingAccount> {
  return dataOf(api.PUT("/api/accounts/current", { body: { id } }));
}

/**
 * PUT /api/accounts/{id}/broker → the account, now trading through Alpaca's paper or live
 * endpoint with these keys (replacing an earlier connection). 403 below Premium; 404 for an
 * account not the user's; 409 when the server stores no broker keys or the account has standing
 * orders (the detail says which); 422 naming `keyId` or `secretKey`.
 */
export function connectBroker({ id, body }: { id: string; body: BrokerConnectionInput }): Promise<TradingAccount> {
  return dataOf(api.PUT("/api/accounts/{id}/broker", { params: { path: { id } }, body }));
}

/** DELETE /api/accounts/{id}/broker → the account, back on the paper broker. 409 while it has standing orders at its broker. */
export function disconnectBroker(id: string): Promise<TradingAccount> {
  return dataOf(api.DELETE("/api/accounts/{id}/broker", { params: { path: { id } } }));
}

/**
 * The first segments of the keys whose answers are the same whichever account is current:
 * catalogues, market data and pure calculations. A switch leaves them alone.
 */
const SAME_FOR_EVERY_ACCOUNT: ReadonlySet<unknown> = new Set([
  queryKeys.plans()[0],
  queryKeys.publicStats()[0],
  queryKeys.exchangeRates()[0],
  queryKeys.openApi()[0],
  queryKeys.content("")[0],
  queryKeys.trackRecord.summary()[0],
  queryKeys.trackRecord.key()[0],
  queryKeys.trackRecord.heads(0)[0],
  queryKeys.customStrategies.language()[0],
  queryKeys.customStrategies.preview("")[0],
  queryKeys.structureAnalysis("")[0],
  queryKeys.stockPrices.all()[0],
  queryKeys.news.all()[0],
]);

/**
 * After the current account changes (a switch), or its preferences do: reads again every query
 * but the ones above. That covers the accounts list, the user (`auth/me` carries the current
 * account's preferences), the settings (its risk tolerance), the signals matched to its
 * preferences, every portfolio query (positions, manual positions, metrics, multi-leg
 * positions), the dashboard's figures and the AI recommendations built on the portfolio.
 *
 * Why this shape:
 * - A list of what is *not* account-scoped, rather than of what is: a query added later is
 *   refreshed by default, which is the safe side (a stale figure from another account is wrong,
 *   an extra read is only an extra read).
 * - Invalidate, not reset: a reset empties the signed-in user for a moment, and the signed-in
 *   shell renders nothing without one. Invalidating keeps the page on screen and reads again
 *   the queries on it now; the rest are marked stale and read when next shown.
 *
 * Resolves once the queries on screen are read again (failures included: each query shows its
 * own error).
 */
export function refreshAccountScoped(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => !SAME_FOR_EVERY_ACCOUNT.has(query.queryKey[0]) });
}

/** The list with `account` in place of its stored copy (and, when it is current, the others not current). */
function withAccount(list: TradingAccounts | undefined, account: TradingAccount): TradingAccounts | undefined {
  if (!list?.accounts) return list;
  const accounts = list.accounts.map((a) => (a.id === account.id ? account : account.current ? { ...a, current: false } : a));
  return { ...list, accounts };
}

/** Opens an account: it joins the end of the list (oldest first) at once, then the list is read again. */
export function useCreateTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTradingAccount,
    onSuccess: (account) => {
      queryClient.setQueryData<TradingAccounts>(queryKeys.tradingAccounts(), (list) =>
        list?.accounts ? { ...list, accounts: [...list.accounts.filter((a) => a.id !== account.id), account] } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts() });
    },
  });
}

/**
 * Renames an account or changes its preferences or automation switch. A change to the current
 * account changes what the rest of the app shows (its preferences are the user's), so everything
 * account-scoped is read again; a change to another account only changes the list.
 */
export function useUpdateTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTradingAccount,
    onSuccess: (account) => {
      queryClient.setQueryData<TradingAccounts>(queryKeys.tradingAccounts(), (list) => withAccount(list, account));
      if (account.current) void refreshAccountScoped(queryClient);
    },
  });
}

/**
 * Connects an account to Alpaca, or disconnects it: the account takes its new broker in the list
 * at once, then the list is read again, and so is the audit log (`broker_connected`,
 * `broker_disconnected`). What the account holds is unchanged, so nothing else is.
 */
function useBrokerMutation<Variables>(mutationFn: (variables: Variables) => Promise<TradingAccount>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (account) => {
      queryClient.setQueryData<TradingAccounts>(queryKeys.tradingAccounts(), (list) => withAccount(list, account));
      void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditLog() });
    },
  });
}

/** Connects an account to Alpaca (`connectBroker`). */
export function useConnectBroker() {
  return useBrokerMutation(connectBroker);
}

/** Disconnects an account from Alpaca (`disconnectBroker`): its orders go to the paper broker again. */
export function useDisconnectBroker() {
  return useBrokerMutation(disconnectBroker);
}

/** Deletes an account: it leaves the list at once, then the list is read again. */
export function useDeleteTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTradingAccount,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<TradingAccounts>(queryKeys.tradingAccounts(), (list) =>
        list?.accounts ? { ...list, accounts: list.accounts.filter((a) => a.id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts() });
    },
  });
}

/**
 * Switches the current account. The switch resolves once everything account-scoped has been
 * read again (`refreshAccountScoped`), so a "Switched to …" toast comes with the new account's
 * figures rather than before them. The list then says which account is current even if reading
 * it again failed.
 */
export function useSwitchTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchTradingAccount,
    onSuccess: async (account) => {
      await refreshAccountScoped(queryClient);
      queryClient.setQueryData<TradingAccounts>(queryKeys.tradingAccounts(), (list) => withAccount(list, account));
    },
  });
}

/** The current account of a list (undefined while none is known). */
export function currentAccountOf(list: TradingAccounts | undefined): TradingAccount | undefined {
  return list?.accounts?.find((a) => a.current);
}

/**
 * A number that goes up each time the current account changes to another one (not when it is
 * first read). The signed-in shell keys its page on it, so a page remounts on a switch: state a
 * page seeded from the previous account (a form's starting values, the optimiser's proposal)
 * does not outlive it. The queries themselves are refreshed by `refreshAccountScoped`. Asks
 * nothing while `enabled` is false (signed out).
 */
export function useTradingAccountEpoch({ enabled = true }: { enabled?: boolean } = {}): number {
  const { data: currentId } = useQuery({ ...tradingAccountsQueryOptions(), enabled, select: (list) => currentAccountOf(list)?.id });
  const [seen, setSeen] = useState<{ id: string | undefined; epoch: number }>({ id: currentId, epoch: 0 });
  if (currentId !== undefined && currentId !== seen.id) {
    // Adjusting state while rendering (React's pattern for state derived from a change): the
    // render starts over with the new epoch before anything is committed.
    const next = { id: currentId, epoch: seen.id === undefined ? seen.epoch : seen.epoch + 1 };
    setSeen(next);
    return next.epoch;
  }
  return seen.epoch;
}
