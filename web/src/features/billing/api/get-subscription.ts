import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { SubscriptionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/billing/subscription: the plan in force, its status, billing period, period end,
 * trial days left, grace end, next charge (US cents), card on file and credit.
 */
export function getSubscription(): Promise<SubscriptionView> {
  return dataOf(api.GET("/api/billing/subscription"));
}

export function subscriptionQueryOptions() {
  return queryOptions({ queryKey: queryKeys.subscription(), queryFn: getSubscription });
}

/** Whether the subscription is one that is paid for (Pro or Premium, active or past due). */
export function isPaying(subscription: Pick<SubscriptionView, "plan" | "status">): boolean {
  return subscription.plan !== "free" && (subscription.status === "active" || subscription.status === "past_due");
}

/** How many times the subscription is read while a provider's confirmation is awaited (about a minute). */
const CONFIRM_READS = 30;

/**
 * The subscription. With `confirming` (back from the payment provider, whose confirmation can
 * reach the server a moment after the browser), it is read again every 2 s until it is paid (for about a minute).
 */
export function useSubscription({ confirming = false, enabled = true }: { confirming?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    ...subscriptionQueryOptions(),
    enabled,
    refetchInterval: (query) =>
      confirming && query.state.data && !isPaying(query.state.data) && query.state.dataUpdateCount < CONFIRM_READS ? 2000 : false,
  });
}
