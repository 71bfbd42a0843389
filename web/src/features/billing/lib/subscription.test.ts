import { describe, expect, it } from "vitest";
import { makePaidSubscription, makeSubscription } from "@/test/billing-fixtures";
import { cardLabel, describeSubscription, priceLabel } from "./subscription";

describe("subscription wording", () => {
  it("describes a subscription in a badge and a sentence", () => {
    expect(describeSubscription(makeSubscription({ trialDaysLeft: 1 }), "Pro")).toEqual({
      badge: "Trial",
      tone: "soft",
      note: "Pro trial, 1 day left (until December 3, 2026). Afterwards the account moves to Free unless you subscribe.",
    });
    expect(describeSubscription(makePaidSubscription({ cancelAtPeriodEnd: true, nextBilling: null }), "Premium").badge).toBe(
      "Cancels on November 23, 2027",
    );
    expect(describeSubscription(makePaidSubscription({ status: "past_due", graceEndsAt: null }), "Premium").note).toMatch(
      /^The last payment did not go through\. Premium stays for a grace period/,
    );
    expect(describeSubscription(makeSubscription({ plan: "free", status: "active", trialDaysLeft: null }), "Free").note).toBe(
      "The Free plan has no end date and no charges.",
    );
    expect(describeSubscription(makePaidSubscription({ card: null }), "Premium").note).toBe(
      "Renews on November 23, 2027: $1,430.00 will be charged.",
    );
  });

  it("names the card and prices a plan in US dollars", () => {
    expect(cardLabel({ brand: "visa", last4: "4242" })).toBe("Visa •••• 4242");
    expect(cardLabel({ brand: "", last4: "0341" })).toBe("Card •••• 0341");
    expect(priceLabel({ monthlyPrice: 149, yearlyPrice: 1430 }, "yearly")).toBe("$1,430.00/year");
    expect(priceLabel({ monthlyPrice: 49, yearlyPrice: 470 }, "monthly")).toBe("$49.00/month");
  });
});
