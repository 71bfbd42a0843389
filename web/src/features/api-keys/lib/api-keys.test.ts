import { describe, expect, it } from "vitest";
import { isExpired, keyName, LIFETIME_LABELS, PERMISSION_LABELS } from "./api-keys";

describe("API keys", () => {
  it("name permissions Read Only, Read & Write, Full Access and lifetimes 30, 90, 365 days or Never", () => {
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
