import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { api, dataOf } from "@/lib/api/client";
import type { SubscriptionView, TestCardPayment } from "@/lib/api/models";
import { announceToOtherTabs } from "@/lib/live-events";

/**
 * POST /api/billing/test-provider/pay: the built-in test provider's card confirms the checkout
 * and the plan is in force at once. 402 "Payment Failed" with the provider's message when the
 * card is declined (nothing changes); 422 naming cardNumber, expMonth, expYear, cvc or clientSecret.
 */
export function payWithTestCard(payment: TestCardPayment): Promise<SubscriptionView> {
  return dataOf(api.POST("/api/billing/test-provider/pay", { body: payment }));
}

export function usePayWithTestCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payWithTestCard,
    onSuccess: (subscription) => {
      void refreshAfterBillingChange(queryClient, subscription);
      // The user's other open tabs follow at once.
      announceToOtherTabs("billing");
    },
  });
}
