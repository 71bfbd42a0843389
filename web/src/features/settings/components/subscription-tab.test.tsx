import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makePlanCatalogue, makeUser, renderWithProviders } from "@/test/utils";
import { SubscriptionTab } from "./subscription-tab";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const plans = makePlanCatalogue().plans;

describe("SubscriptionTab", () => {
  it("shows the trial with its days left and the plan's price after it", () => {
    const user = makeUser({ subscriptionPlan: "pro", subscriptionStatus: "trialing", subscriptionExpiresAt: "2026-12-03T11:00:00Z" });
    renderWithProviders(<SubscriptionTab user={user} plans={plans} now={NOW} />);
    expect(screen.getByTestId("subscription-plan")).toHaveTextContent("ProTrial");
    expect(screen.getByTestId("subscription-status")).toHaveTextContent(/^Pro trial, 10 days left \(until December 3, 2026\)\. Afterwards the account moves to Free unless you subscribe\.$/);
    expect(screen.getByText("Free during the trial; then $49/month if you subscribe")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/pricing");
    expect(screen.getByRole("list", { name: "Pro includes" })).toHaveTextContent("50 signals per day");
  });

  it("shows a paying Premium account's renewal date, in dollars, with no upgrade to offer", () => {
    const user = makeUser({ subscriptionPlan: "premium", subscriptionStatus: "active", subscriptionExpiresAt: "2026-12-23T12:00:00Z" });
    renderWithProviders(<SubscriptionTab user={user} plans={plans} now={NOW} />);
    expect(screen.getByTestId("subscription-plan")).toHaveTextContent("PremiumActive");
    expect(screen.getByText("$149/month")).toBeInTheDocument();
    expect(screen.getByTestId("subscription-status")).toHaveTextContent("Renews on December 23, 2026.");
    expect(screen.getByRole("link", { name: "Compare Plans" })).toHaveAttribute("href", "/pricing");
  });

  it("says billing history arrives with payments, and invents none", () => {
    renderWithProviders(<SubscriptionTab user={makeUser({ subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null })} plans={plans} now={NOW} />);
    expect(screen.getByTestId("subscription-status")).toHaveTextContent("The Free plan has no end date and no charges.");
    expect(screen.getByText(/Billing history arrives with card payments/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });
});
