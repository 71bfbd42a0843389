import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/query-keys";
import { makeCheckout, makePaidSubscription } from "@/test/billing-fixtures";
import { bodyOf, jsonResponse, makePlanCatalogue, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { parseSubscribeParams } from "../lib/subscribe-params";
import { SubscribePage } from "./subscribe-page";

// Stripe.js is never loaded in tests: the Payment Element and confirmPayment are stand-ins.
const stripe = vi.hoisted(() => ({
  confirmPayment: vi.fn(),
  loadStripe: vi.fn(),
}));
vi.mock("@stripe/stripe-js/pure", () => ({ loadStripe: stripe.loadStripe }));
vi.mock("@stripe/react-stripe-js", async () => {
  const { useEffect } = await import("react");
  return {
    Elements: ({ children }: { children: React.ReactNode }) => children,
    PaymentElement: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="payment-element" />;
    },
    useStripe: () => ({ confirmPayment: stripe.confirmPayment }),
    useElements: () => ({}),
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
  stripe.confirmPayment.mockReset();
  stripe.loadStripe.mockReset();
});

const premium = makePlanCatalogue().plans.find((p) => p.id === "premium");

type Answer = (init: RequestInit) => Response | Promise<Response>;

function billingApi({
  checkout = () => jsonResponse(makeCheckout()),
  pay = () => jsonResponse(makePaidSubscription()),
}: { checkout?: Answer; pay?: Answer } = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/create-subscription" && init.method === "POST") return checkout(init);
    if (url === "/api/billing/test-provider/pay" && init.method === "POST") return pay(init);
    if (url === "/api/auth/me") return jsonResponse(makeUser({ subscriptionPlan: "premium", subscriptionStatus: "active" }));
    return problem(404, "Not Found");
  });
}

function renderPage(query = "plan=premium&billing=yearly", trialDaysLeft: number | null = 12) {
  const params = parseSubscribeParams(new URLSearchParams(query));
  return renderWithProviders(<SubscribePage params={params} plan={premium} trialDaysLeft={trialDaysLeft} />, {
    route: `/subscribe?${query}`,
  });
}

async function fillCard(number: string, expiry = "12/30", cvc = "123") {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Card number"), number);
  await user.type(screen.getByLabelText("Expiry (MM/YY)"), expiry);
  await user.type(screen.getByLabelText("CVC"), cvc);
  return user;
}

describe("SubscribePage", () => {
  it("shows 'Setting up your subscription...' until the checkout arrives, then the plan, billing and amount", async () => {
    let answer: (r: Response) => void = () => {};
    const fetchMock = billingApi({ checkout: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderPage();
    expect(await screen.findByText("Setting up your subscription...")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Complete Your Subscription" })).not.toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/create-subscription")).toEqual({ plan: "premium", billing: "yearly" });
    answer(jsonResponse(makeCheckout()));
    expect(await screen.findByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeInTheDocument();
    const summary = within(screen.getByTestId("checkout-summary"));
    expect(summary.getByText("Plan").nextSibling).toHaveTextContent("Premium");
    expect(summary.getByText("Billing").nextSibling).toHaveTextContent("Yearly");
    expect(screen.getByTestId("checkout-amount")).toHaveTextContent("$1,430.00 USD");
    expect(summary.getByText("Then").nextSibling).toHaveTextContent("$1,430.00 every year until you cancel");
    expect(screen.getByText("Premium, billed yearly. Payment through Strikeline test payments.")).toBeInTheDocument();
    expect(screen.getByTestId("trial-note")).toHaveTextContent("Your Pro trial (12 days left) ends when you pay");
    const note = screen.getByTestId("test-provider-note");
    expect(note).toHaveTextContent("no real card is charged");
    for (const card of ["4242 4242 4242 4242", "4000 0000 0000 0002", "4000 0000 0000 9995", "4000 0000 0000 0341"])
      expect(note).toHaveTextContent(card);
    expect(screen.getByRole("button", { name: "Subscribe Now" })).toBeEnabled();
    expect(screen.getByRole("heading", { level: 2, name: "Premium includes" })).toBeInTheDocument();
    expect(screen.getByText("Unlimited signals")).toBeInTheDocument();
  });

  it("spaces the card number and checks the card before sending it", async () => {
    const fetchMock = billingApi();
    renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Card number"), "42424242");
    expect(screen.getByLabelText("Card number")).toHaveValue("4242 4242");
    await user.type(screen.getByLabelText("Expiry (MM/YY)"), "1");
    await user.click(screen.getByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByText("Your card number is incomplete.")).toBeInTheDocument();
    expect(screen.getByText("Enter the expiry date as MM/YY.")).toBeInTheDocument();
    expect(screen.getByText("Your card's security code is incomplete.")).toBeInTheDocument();
    expect(screen.getByLabelText("Card number")).toHaveFocus();
    expect(screen.getByLabelText("Card number")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/billing/test-provider/pay")).toHaveLength(0);
  });

  it("pays with the test card, reads the user again, and goes to Settings › Subscription with success", async () => {
    const fetchMock = billingApi();
    const { queryClient } = renderPage();
    queryClient.setQueryData(queryKeys.currentUser(), makeUser());
    const user = await fillCard("4242 4242 4242 4242");
    expect(screen.getByLabelText("Expiry (MM/YY)")).toHaveValue("12/30");
    await user.click(screen.getByRole("button", { name: "Subscribe Now" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/settings"));
    expect(bodyOf(fetchMock, "/api/billing/test-provider/pay")).toEqual({
      clientSecret: "test_cs_0123456789abcdef",
      cardNumber: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    });
    expect(queryClient.getQueryState(queryKeys.currentUser())?.isInvalidated).toBe(true);
    expect(queryClient.getQueryData(["/api/billing/subscription"])).toMatchObject({ plan: "premium", status: "active" });
    // The paid checkout is not started again.
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/create-subscription")).toHaveLength(1);
  });

  it("a declined card: 'Payment Failed' with the provider's message, and the form stays as typed", async () => {
    billingApi({ pay: () => problem(402, "Payment Failed", "Your card was declined.") });
    renderPage();
    const user = await fillCard("4000000000000002");
    await user.click(screen.getByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByText("Payment Failed", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(screen.getByText("Your card was declined.", { selector: '[data-slot="toast-description"]' })).toBeInTheDocument();
    expect(screen.getByTestId("payment-failure")).toHaveTextContent("Payment Failed: Your card was declined. Nothing was charged");
    expect(screen.getByLabelText("Card number")).toHaveValue("4000 0000 0000 0002");
    expect(screen.getByRole("button", { name: "Subscribe Now" })).toBeEnabled();
    expect(screen.getByTestId("location")).toHaveTextContent("/subscribe");
  });

  it("places the server's field errors under the inputs", async () => {
    billingApi({
      pay: () =>
        problem(422, "Validation failed", "Check the card.", [
          {
            field: "cardNumber",
            message: "This is the built-in test payment provider: no real card is charged. Use the test card 4242 4242 4242 4242.",
          },
          { field: "expYear", message: "Your card's expiration date is in the past." },
        ]),
    });
    renderPage();
    const user = await fillCard("5555555555554444");
    await user.click(screen.getByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByText(/Use the test card 4242 4242 4242 4242\.$/)).toBeInTheDocument();
    expect(screen.getByLabelText("Card number")).toHaveAccessibleDescription(/no real card is charged/);
    expect(screen.getByLabelText("Expiry (MM/YY)")).toHaveAccessibleDescription("Your card's expiration date is in the past.");
    expect(screen.getByLabelText("Card number")).toHaveFocus();
  });

  it("a checkout paid meanwhile (409) shows the server's reason, not a decline", async () => {
    billingApi({ pay: () => problem(409, "Already taken", "This payment has already been made.") });
    renderPage();
    const user = await fillCard("4242424242424242");
    await user.click(screen.getByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByTestId("payment-failure")).toHaveTextContent(/^This payment has already been made\.$/);
    expect(await screen.findByText("Error", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
  });

  it("an account that already pays is sent to change its plan in Settings, without a toast", async () => {
    billingApi({
      checkout: () => problem(409, "Already taken", "You already have a paid subscription. Change it under Settings › Subscription."),
    });
    renderPage();
    expect(await screen.findByRole("heading", { level: 1, name: "You already have a subscription" })).toBeInTheDocument();
    expect(screen.getByTestId("subscribe-problem")).toHaveTextContent(
      "You already have a paid subscription. Change it under Settings › Subscription.",
    );
    expect(screen.getByRole("link", { name: "Change plan in Settings" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription&change=premium-yearly",
    );
    expect(screen.queryByText("Payment Failed")).not.toBeInTheDocument();
  });

  it("refuses a plan or billing period that cannot be bought, and starts nothing", async () => {
    const fetchMock = billingApi();
    renderPage("plan=gold&billing=weekly");
    expect(screen.getByRole("heading", { level: 1, name: "This plan cannot be bought" })).toBeInTheDocument();
    expect(screen.getByText("“gold” is not a plan you can buy: choose Pro or Premium.")).toBeInTheDocument();
    expect(screen.getByText("“weekly” is not a billing period: choose monthly or yearly.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Choose a plan" })).toHaveAttribute("href", "/pricing");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("Stripe: the Payment Element with the server's publishable key, confirmed with the return URL; a decline toasts Stripe's message", async () => {
    billingApi({
      checkout: () =>
        jsonResponse(makeCheckout({ provider: "stripe", publishableKey: "pk_test_from_server", clientSecret: "pi_123_secret_456" })),
    });
    stripe.loadStripe.mockResolvedValue({});
    stripe.confirmPayment.mockResolvedValue({ error: { type: "card_error", message: "Your card has insufficient funds." } });
    renderPage();
    expect(await screen.findByText("Premium, billed yearly. Payment through Stripe.")).toBeInTheDocument();
    expect(await screen.findByTestId("payment-element")).toBeInTheDocument();
    expect(stripe.loadStripe).toHaveBeenCalledWith("pk_test_from_server");
    expect(screen.queryByLabelText("Card number")).not.toBeInTheDocument();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Subscribe Now" }));
    expect(await screen.findByTestId("payment-failure")).toHaveTextContent("Payment Failed: Your card has insufficient funds.");
    expect(screen.getByText("Payment Failed", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(stripe.confirmPayment).toHaveBeenCalledWith({
      elements: {},
      confirmParams: { return_url: `${window.location.origin}/settings?tab=subscription&success=true` },
    });
  });

  it("Stripe without a publishable key says card payment is not available", async () => {
    billingApi({ checkout: () => jsonResponse(makeCheckout({ provider: "stripe", publishableKey: null })) });
    renderPage();
    expect(await screen.findByText(/the server has no Stripe publishable key configured/)).toBeInTheDocument();
    expect(stripe.loadStripe).not.toHaveBeenCalled();
  });
});
