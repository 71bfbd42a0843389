import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { api, dataOf } from "@/lib/api/client";
import type { SubscriptionView } from "@/lib/api/models";
import { announceToOtherTabs } from "@/lib/live-events";

/** POST /api/billing/cancel: the plan stays until the end of the paid period, then Free. 409 when there is nothing to cancel. */
export function cancelSubscription(): Promise<SubscriptionView> {
  return dataOf(api.POST("/api/billing/cancel"));
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (subscription) => {
      void refreshAfterBillingChange(queryClient, subscription);
      // The user's other open tabs follow at once.
      announceToOtherTabs("billing");
    },
  });
}
