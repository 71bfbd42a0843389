import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { OrderView } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/orders: the current account's latest 100 orders, newest first, each with its legs,
 * status, reason and fills (docs/execution.md).
 */
export function getOrders(): Promise<OrderView[]> {
  return dataOf(api.GET("/api/orders"));
}

/**
 * The orders are the current account's, as the portfolio's reads are: the key names no account,
 * so a switch reads them again with the rest (`refreshAccountScoped` in lib/api/trading-accounts.ts
 * leaves only the queries that are the same for every account alone), and the page showing them
 * remounts (`useTradingAccountEpoch`). Polled every 30 s, and refetched on the `signals` and
 * `automation` events (lib/live-events.ts).
 */
export function ordersQueryOptions() {
  return queryOptions({ queryKey: queryKeys.orders(), queryFn: getOrders, refetchInterval: LIVE_REFETCH_MS });
}

export function useOrders() {
  return useQuery(ordersQueryOptions());
}
