import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/api/enums";
import { CHROME_MAC, FIREFOX_WINDOWS } from "@/test/settings-fixtures";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "./audit";
import { passwordChangeSchema } from "./password";
import { describeUserAgent } from "./user-agent";

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

describe("the password change form", () => {
  it("checks a password change before sending it", () => {
    const ok = passwordChangeSchema.safeParse({
      currentPassword: "old-pass",
      newPassword: "new-pass-1",
      confirmPassword: "new-pass-1",
      revokeApiKeys: true,
    });
    expect(ok.success).toBe(true);
    const bad = passwordChangeSchema.safeParse({
      currentPassword: "",
      newPassword: "short",
      confirmPassword: "other",
      revokeApiKeys: true,
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(["currentPassword: Enter your current password", "newPassword: Password must be at least 6 characters"]),
    );
  });
});
