import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { announceToOtherTabs } from "@/lib/live-events";
import { toast } from "@/lib/toast";

/** Back from paying (`?success=true`): the toast, shown once, before the parameter is removed. */
export const PAYMENT_SUCCESS_TOAST = {
  title: "Payment Successful",
  description: "Thank you for subscribing. Your plan and its invoice are shown below.",
};

/** The parameters Stripe adds to the return URL (`redirect_status`: succeeded, processing or failed). */
const STRIPE_RETURN_PARAMS = ["payment_intent", "payment_intent_client_secret", "redirect_status"];

/** The toast for a return from paying: Stripe's redirect can also come back unpaid or still processing. */
function paymentReturnToast(redirectStatus: string | null) {
  if (!redirectStatus || redirectStatus === "succeeded") return PAYMENT_SUCCESS_TOAST;
  if (redirectStatus === "processing") {
    return { title: "Payment Processing", description: "Your payment is being confirmed. The plan starts as soon as it is." };
  }
  return {
    variant: "destructive" as const,
    title: "Payment Failed",
    description: "The payment was not completed and nothing was charged. Choose a plan again to retry.",
  };
}

/**
 * Back from the payment page or provider (`/settings?success=true`): opens at the top of the
 * page, toasts once, refetches what the payment changed (here and in the user's other tabs),
 * and swaps `success` and Stripe's parameters for `tab=subscription`.
 * `confirming` stays true while the page is open: Stripe's confirmation may reach the server a
 * moment later, so the subscription is read again until the payment shows.
 */
export function usePaymentReturn(): { confirming: boolean } {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [confirming] = useState(() => params.get("success") === "true");
  const shown = useRef(false);
  useEffect(() => {
    if (params.get("success") !== "true" || shown.current) return;
    shown.current = true;
    // The payment page was scrolled to its button: the settings page opens at its top, on the plan.
    window.scrollTo(0, 0);
    toast(paymentReturnToast(params.get("redirect_status")));
    void refreshAfterBillingChange(queryClient);
    announceToOtherTabs("billing");
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("success");
        for (const name of STRIPE_RETURN_PARAMS) next.delete(name);
        next.set("tab", "subscription");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams, queryClient]);
  return { confirming };
}
