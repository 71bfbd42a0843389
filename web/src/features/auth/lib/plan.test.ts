import { describe, expect, it } from "vitest";
import { makeUser } from "@/test/utils";
import { displayName, initials, planLabel, trialDaysLeft } from "./plan";

const NOW = Date.parse("2025-03-01T12:00:00Z");

describe("plan", () => {
  it("counts trial days left, rounding up", () => {
    const user = makeUser({ subscriptionExpiresAt: "2025-03-15T11:00:00Z" });
    expect(trialDaysLeft(user, NOW)).toBe(14);
    expect(planLabel(user, NOW)).toBe("Pro trial, 14 days left");
    expect(planLabel(makeUser({ subscriptionExpiresAt: "2025-03-02T00:00:00Z" }), NOW)).toBe("Pro trial, 1 day left");
  });

  it("names the plan when not trialing", () => {
    const user = makeUser({ subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null });
    expect(trialDaysLeft(user, NOW)).toBeNull();
    expect(planLabel(user, NOW)).toBe("Free plan");
    expect(
      planLabel(
        makeUser({ subscriptionPlan: "premium", subscriptionStatus: "active", subscriptionExpiresAt: "2026-03-01T12:00:00Z" }),
        NOW,
      ),
    ).toBe("Premium plan");
    expect(planLabel(makeUser({ subscriptionPlan: "premium", subscriptionStatus: "past_due" }), NOW)).toBe(
      "Premium plan, payment past due",
    );
  });

  it("greets by first name, else username", () => {
    expect(displayName(makeUser())).toBe("Ada");
    expect(displayName(makeUser({ firstName: null }))).toBe("ada");
    expect(displayName(makeUser({ firstName: "  " }))).toBe("ada");
    expect(initials(makeUser())).toBe("AL");
    expect(initials(makeUser({ firstName: null, lastName: null }))).toBe("AD");
  });
});
