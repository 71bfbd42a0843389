import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/api/enums";
import { CHROME_MAC, FIREFOX_WINDOWS } from "@/test/settings-fixtures";
import { isExpired, keyName, LIFETIME_LABELS, PERMISSION_LABELS } from "./api-keys";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "./audit";
import { passwordChangeSchema } from "./password";
import { timeAgo } from "@/lib/dates";
import { refreshInterval } from "./schedule";
import { cardLabel, describeSubscription, priceLabel } from "./subscription";
import { makePaidSubscription, makeSubscription } from "@/test/billing-fixtures";
import { parseSettingsTab, SETTINGS_TABS } from "./tabs";
import { describeUserAgent } from "./user-agent";

describe("settings tabs", () => {
  it("are the spec's five plus Security, linkable by ?tab=", () => {
    expect(SETTINGS_TABS.map((t) => t.label)).toEqual(["General", "Trading", "Notifications", "API Keys", "Subscription", "Security"]);
    expect(parseSettingsTab("api-keys")).toBe("api-keys");
    expect(parseSettingsTab("security")).toBe("security");
    expect(parseSettingsTab(null)).toBe("general");
    expect(parseSettingsTab("billing")).toBe("general");
  });
});

describe("API keys", () => {
  it("name permissions and lifetimes as the spec does", () => {
    expect(PERMISSION_LABELS).toEqual({ read: "Read Only", write: "Read & Write", admin: "Full Access" });
    expect(Object.values(LIFETIME_LABELS)).toEqual(["30 days", "90 days", "365 days", "Never"]);
  });

  it("take a name only when something is left after trimming", () => {
    expect(keyName("  Trading bot ")).toBe("Trading bot");
    expect(keyName("   ")).toBeNull();
    expect(keyName("")).toBeNull();
  });

  it("count as expired when the server says so or expiresAt has passed", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(isExpired({ expired: false, expiresAt: null }, now)).toBe(false);
    expect(isExpired({ expired: true, expiresAt: null }, now)).toBe(true);
    expect(isExpired({ expired: false, expiresAt: "2026-11-23T11:59:59Z" }, now)).toBe(true);
    expect(isExpired({ expired: false, expiresAt: "2026-12-23T12:00:00Z" }, now)).toBe(false);
  });
});

describe("describeUserAgent", () => {
  it("names common browsers and systems", () => {
    expect(describeUserAgent(CHROME_MAC)).toBe("Chrome on macOS");
    expect(describeUserAgent(FIREFOX_WINDOWS)).toBe("Firefox on Windows");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toBe("Edge on Windows");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      ),
    ).toBe("Chrome on Android");
    expect(
      describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"),
    ).toBe("Headless Chrome on Linux");
  });

  it("keeps the product of other clients, and says when there is nothing to go on", () => {
    expect(describeUserAgent("curl/8.5.0")).toBe("curl");
    expect(describeUserAgent("python-requests/2.32")).toBe("python-requests");
    expect(describeUserAgent(null)).toBe("Unknown device");
    expect(describeUserAgent("  ")).toBe("Unknown device");
  });
});

describe("audit actions", () => {
  it("have a readable name each", () => {
    for (const action of AUDIT_ACTIONS) expect(AUDIT_ACTION_LABELS[action]).toMatch(/^[A-Z]/);
    expect(auditActionLabel("password_changed")).toBe("Password changed");
    expect(auditActionLabel("two_factor_enabled")).toBe("Two factor enabled");
  });
});

describe("small readings", () => {
  it("words the server's refresh period", () => {
    expect(refreshInterval(300)).toBe("5 minutes");
    expect(refreshInterval(60)).toBe("minute");
    expect(refreshInterval(90)).toBe("90 seconds");
    expect(refreshInterval(7200)).toBe("2 hours");
    expect(refreshInterval(undefined)).toBeUndefined();
    expect(refreshInterval(0)).toBeUndefined();
  });

  it("says how long ago", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(timeAgo("2026-11-23T11:59:30Z", now)).toBe("Just now");
    expect(timeAgo("2026-11-23T11:59:00Z", now)).toBe("1 minute ago");
    expect(timeAgo("2026-11-23T09:00:00Z", now)).toBe("3 hours ago");
    expect(timeAgo("2026-11-21T12:00:00Z", now)).toBe("2 days ago");
  });

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

  it("checks a password change before sending it", () => {
    const ok = passwordChangeSchema.safeParse({ currentPassword: "old-pass", newPassword: "new-pass-1", confirmPassword: "new-pass-1" });
    expect(ok.success).toBe(true);
    const bad = passwordChangeSchema.safeParse({ currentPassword: "", newPassword: "short", confirmPassword: "other" });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(["currentPassword: Enter your current password", "newPassword: Password must be at least 6 characters"]),
    );
  });
});
