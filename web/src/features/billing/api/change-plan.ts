import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { api, dataOf } from "@/lib/api/client";
import type { PlanChoice, SubscriptionView } from "@/lib/api/models";
import { announceToOtherTabs } from "@/lib/live-events";

/**
 * POST /api/billing/change {plan, billing}: prorated; what is due is charged now to the card on
 * file. 402 "Payment Failed" (the provider's message) when it is declined, and nothing changes.
 */
export function changePlan(choice: PlanChoice): Promise<SubscriptionView> {
  return dataOf(api.POST("/api/billing/change", { body: choice }));
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    onSuccess: (subscription) => {
      void refreshAfterBillingChange(queryClient, subscription);
      // The user's other open tabs follow at once.
      announceToOtherTabs("billing");
    },
  });
}
