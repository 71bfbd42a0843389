import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { SubscriptionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/billing/subscription, under the key the billing feature reads it with (the pricing
 * route reads it already, so this is the same answer, not another request): the pricing page
 * needs the paid period's end to say when a move to Free would take effect.
 */
export function useSubscriptionForPricing({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: queryKeys.subscription(),
    queryFn: (): Promise<SubscriptionView> => dataOf(api.GET("/api/billing/subscription")),
    enabled,
  });
}
