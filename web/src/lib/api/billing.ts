import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { CheckoutView, PlanChoice, SubscriptionView } from "./models";

/**
 * Billing pieces more than one feature needs (features do not import each other): starting a
 * checkout (the pricing page and /subscribe), and what to refetch after the subscription changed
 * (paying on /subscribe; cancel, resume, change in Settings).
 */

/**
 * POST /api/create-subscription → the checkout the payment form confirms: its client secret,
 * the provider and the first payment in US cents. The same checkout again within a day for the
 * same plan and billing. 409 when the account already pays (it changes its plan instead).
 */
export function createSubscription(choice: PlanChoice): Promise<CheckoutView> {
  return dataOf(api.POST("/api/create-subscription", { body: choice }));
}

/** The payment page for a plan: `/subscribe?plan=…&billing=…`. */
export function subscribePath(choice: PlanChoice): string {
  return `/subscribe?plan=${choice.plan}&billing=${choice.billing}`;
}

/** Where a plan is changed once paid for: Settings › Subscription, with the change chosen. */
export function changePlanPath(choice?: PlanChoice): string {
  return choice ? `/settings?tab=subscription&change=${choice.plan}-${choice.billing}` : "/settings?tab=subscription";
}

/** Where the payment pages send the user once paid (the settings page toasts, then drops `success`). */
export const PAYMENT_SUCCESS_PATH = "/settings?tab=subscription&success=true";

const PROVIDER_NAMES: Record<string, string> = { test: "Strikeline test payments", stripe: "Stripe" };

/** The payment provider as users read it: "Strikeline test payments" (`test`), "Stripe" (`stripe`). */
export function paymentProviderName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/**
 * After a payment, a cancellation, a resumption or a change of plan: the user (the plan in the
 * sidebar and header, what the server allows) and the billing history are read again, the
 * subscription is the server's answer (`subscription`, else read again). Checkouts are not
 * touched: /subscribe still shows its own until it has moved on, and drops it when left.
 */
export function refreshAfterBillingChange(queryClient: QueryClient, subscription?: SubscriptionView): Promise<unknown> {
  if (subscription) queryClient.setQueryData(queryKeys.subscription(), subscription);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() }),
    subscription ? null : queryClient.invalidateQueries({ queryKey: queryKeys.subscription() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.invoices() }),
  ]);
}
