import type { CheckoutView, InvoiceView, SubscriptionView } from "@/lib/api/models";

/** GET /api/billing/subscription for a new account on its Pro trial. */
export function makeSubscription(overrides: Partial<SubscriptionView> = {}): SubscriptionView {
  return {
    plan: "pro",
    status: "trialing",
    billing: null,
    currentPeriodEnd: "2026-12-03T11:00:00Z",
    cancelAtPeriodEnd: false,
    trialDaysLeft: 10,
    graceEndsAt: null,
    nextBilling: null,
    card: null,
    creditCents: 0,
    provider: null,
    ...overrides,
  };
}

/** A Premium yearly subscription paid with the test card 4242. */
export function makePaidSubscription(overrides: Partial<SubscriptionView> = {}): SubscriptionView {
  return makeSubscription({
    plan: "premium",
    status: "active",
    billing: "yearly",
    currentPeriodEnd: "2027-11-23T12:00:00Z",
    trialDaysLeft: null,
    nextBilling: { date: "2027-11-23T12:00:00Z", amountCents: 143000 },
    card: { brand: "visa", last4: "4242" },
    provider: "test",
    ...overrides,
  });
}

/** POST /api/create-subscription with the built-in test provider. */
export function makeCheckout(overrides: Partial<CheckoutView> = {}): CheckoutView {
  return {
    clientSecret: "test_cs_0123456789abcdef",
    provider: "test",
    publishableKey: null,
    plan: "premium",
    billing: "yearly",
    amountCents: 143000,
    currency: "usd",
    ...overrides,
  };
}

/** One invoice of GET /api/billing/invoices. */
export function makeInvoice(overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id: "4f5b1c2a-0d3e-4a5b-8c7d-9e0f1a2b3c4d",
    number: "SL-20261123-1A2B3C4D",
    description: "Premium plan, yearly",
    plan: "premium",
    billing: "yearly",
    amountCents: 143000,
    creditAppliedCents: 0,
    currency: "usd",
    status: "paid",
    failureMessage: null,
    periodStart: "2026-11-23T12:00:00Z",
    periodEnd: "2027-11-23T12:00:00Z",
    createdAt: "2026-11-23T12:00:00Z",
    ...overrides,
  };
}
