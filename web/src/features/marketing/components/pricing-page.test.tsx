import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SubscriptionView } from "@/lib/api/models";
import { resetToastsForTests } from "@/lib/toast";
import { makePaidSubscription } from "@/test/billing-fixtures";
import { jsonResponse, makePlanCatalogue, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { type PricingAccount, PricingPage } from "./pricing-page";

afterEach(() => {
  vi.unstubAllGlobals();
  resetToastsForTests();
});

function server(subscription: SubscriptionView = makePaidSubscription()) {
  return mockFetch((url) => {
    if (url === "/api/plans") return jsonResponse(makePlanCatalogue());
    if (url === "/api/billing/subscription") return jsonResponse(subscription);
    return problem(404, "Not Found");
  });
}

const PREMIUM_YEARLY: PricingAccount = {
  plan: "premium",
  status: "active",
  paying: true,
  billing: "yearly",
  freePlanNote: "Every account includes Free. To move to Free, cancel your subscription in Settings; it ends with the billing period.",
};

const yearly = () => screen.getByRole("button", { name: /Yearly/ });
const monthly = () => screen.getByRole("button", { name: "Monthly" });

describe("PricingPage for a subscriber", () => {
  it("opens on their billing period with their plan marked 'Current plan' and its button disabled", async () => {
    server();
    renderWithProviders(<PricingPage account={PREMIUM_YEARLY} />, { route: "/pricing" });
    const premium = await screen.findByTestId("plan-premium");
    expect(yearly()).toHaveAttribute("aria-pressed", "true");
    expect(monthly()).toHaveAttribute("aria-pressed", "false");
    expect(premium).toHaveTextContent("$1,430/year");
    expect(within(premium).getByTestId("current-plan-badge")).toHaveTextContent(/^Current plan$/);
    expect(within(premium).getByRole("button", { name: "Current Plan" })).toBeDisabled();
    expect(screen.getAllByTestId("current-plan-badge")).toHaveLength(1);
    expect(within(screen.getByTestId("plan-pro")).getByRole("link", { name: "Change to Pro" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription&change=pro-yearly",
    );

    // The other period: still their plan, named with how it is billed; changing period is a change in Settings.
    await userEvent.setup().click(monthly());
    expect(within(premium).getByTestId("current-plan-badge")).toHaveTextContent("Current plan, billed yearly");
    expect(within(premium).getByRole("link", { name: "Switch to monthly" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription&change=premium-monthly",
    );
  });

  it("keeps a period clicked while the subscription was still loading", async () => {
    server();
    /** The page before and after the subscription (billed yearly) has loaded. */
    function Loading() {
      const [billing, setBilling] = useState<PricingAccount["billing"]>(null);
      return (
        <>
          <button type="button" onClick={() => setBilling("yearly")}>
            Subscription loaded
          </button>
          <PricingPage account={{ ...PREMIUM_YEARLY, billing }} />
        </>
      );
    }
    renderWithProviders(<Loading />, { route: "/pricing?billing=yearly" });
    await screen.findByTestId("plan-premium");
    const user = userEvent.setup();
    await user.click(monthly());
    expect(monthly()).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByRole("button", { name: "Subscription loaded" }));
    expect(monthly()).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("location")).toHaveAttribute("data-search", "?billing=monthly");
  });

  it("keeps the period asked for in the address", async () => {
    server();
    renderWithProviders(<PricingPage account={PREMIUM_YEARLY} />, { route: "/pricing?billing=monthly" });
    await screen.findByTestId("plan-premium");
    expect(monthly()).toHaveAttribute("aria-pressed", "true");
  });

  it("answers a click on Free with what moving to Free means: cancelling, at the end of the paid period, in Settings › Subscription", async () => {
    server(makePaidSubscription({ currentPeriodEnd: "2027-11-23T12:00:00Z" }));
    renderWithProviders(<PricingPage account={PREMIUM_YEARLY} />, { route: "/pricing" });
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId("plan-free")).getByRole("button", { name: "Free Plan" }));
    const dialog = await screen.findByRole("dialog", { name: "Moving to Free means cancelling" });
    expect(dialog).toHaveTextContent(
      "There is no separate switch to Free: you cancel your Premium subscription. Premium stays until the end of the period you have paid for, November 23, 2027; then your account moves to Free and nothing more is charged.",
    );
    expect(within(dialog).getByRole("link", { name: "Go to Settings › Subscription" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription",
    );
    expect(screen.queryByText("Already on Free Plan")).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Keep Premium" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("says a cancelled subscription already ends with its period", async () => {
    server(makePaidSubscription({ cancelAtPeriodEnd: true, nextBilling: null }));
    renderWithProviders(<PricingPage account={PREMIUM_YEARLY} />, { route: "/pricing" });
    await userEvent.setup().click(within(await screen.findByTestId("plan-free")).getByRole("button", { name: "Free Plan" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent(
      "Your Premium subscription is already cancelled: it stays until November 23, 2027, then your account moves to Free",
    );
  });
});

describe("PricingPage for accounts that do not pay", () => {
  it("marks Free as the current plan of a Free account, which Free answers with 'Already on Free Plan'", async () => {
    server();
    const account: PricingAccount = { plan: "free", status: "active", paying: false, billing: null, freePlanNote: "On Free." };
    renderWithProviders(<PricingPage account={account} />, { route: "/pricing" });
    const free = await screen.findByTestId("plan-free");
    expect(monthly()).toHaveAttribute("aria-pressed", "true");
    expect(within(free).getByTestId("current-plan-badge")).toHaveTextContent("Current plan");
    await userEvent.setup().click(within(free).getByRole("button", { name: "Current Plan" }));
    expect(await screen.findByText("Already on Free Plan")).toBeInTheDocument();
  });

  it("marks a trial's plan as the trial, and lets it be bought", async () => {
    server();
    const account: PricingAccount = { plan: "pro", status: "trialing", paying: false, billing: null, freePlanNote: "Trial." };
    renderWithProviders(<PricingPage account={account} />, { route: "/pricing" });
    const pro = await screen.findByTestId("plan-pro");
    expect(within(pro).getByTestId("current-plan-badge")).toHaveTextContent("Your trial");
    expect(within(pro).getByRole("button", { name: "Choose Pro" })).toBeEnabled();
  });

  it("marks nothing for a visitor", async () => {
    server();
    renderWithProviders(<PricingPage account={null} />, { route: "/pricing" });
    await screen.findByTestId("plan-pro");
    expect(screen.queryByTestId("current-plan-badge")).not.toBeInTheDocument();
  });
});
