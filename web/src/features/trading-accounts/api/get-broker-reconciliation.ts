import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, dataOf } from "@/lib/api/client";
import type { HoldingDifference, Reconciliation } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/accounts/{id}/broker/reconciliation (Premium): the options contracts our books hold
 * for the account (open automated and manual positions) against Alpaca's positions, contract by
 * contract, with the cash and options buying power Alpaca reports. 403 below Premium; 404 for an
 * account not the user's; 409 when the account is not connected to Alpaca or Alpaca refused its
 * keys (the detail says which); 429 with Retry-After; 503 while Alpaca cannot answer.
 */
export function getBrokerReconciliation(id: string, signal?: AbortSignal) {
  return dataOf(api.GET("/api/accounts/{id}/broker/reconciliation", { params: { path: { id } }, signal }));
}

/** The check's answer. */
export type BrokerCheck = Reconciliation;
/** A contract the two books hold in different numbers. */
export type ContractDifference = HoldingDifference;

/** The check of one account; under the accounts' key, as the endpoint is under their path. */
export function brokerReconciliationKey(id: string) {
  return [...queryKeys.tradingAccounts(), id, "broker", "reconciliation"] as const;
}

/**
 * The check runs on demand: only while something shows it (the dialog), and its answer is
 * dropped as soon as nothing does (`gcTime: 0`), so each opening asks Alpaca afresh instead of
 * showing an earlier answer as if it were current.
 */
export function brokerReconciliationQueryOptions(id: string) {
  return queryOptions({
    queryKey: brokerReconciliationKey(id),
    queryFn: ({ signal }) => getBrokerReconciliation(id, signal),
    gcTime: 0,
  });
}

/**
 * The check of account `id`, and `checkAgain`, which drops the answer shown and asks Alpaca again.
 * A check that booked Alpaca's fees for the first time changed the account's cash: the account
 * list is read again (only the list: the check itself sits under the same key).
 */
export function useBrokerReconciliation(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery(brokerReconciliationQueryOptions(id));
  const booked = query.data?.feesBooked ?? 0;
  useEffect(() => {
    if (booked > 0) void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts(), exact: true });
  }, [booked, query.dataUpdatedAt, queryClient]);
  const checkAgain = () => void queryClient.resetQueries({ queryKey: brokerReconciliationKey(id), exact: true });
  return { query, checkAgain };
}
