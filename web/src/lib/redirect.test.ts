import { describe, expect, it } from "vitest";
import { safeNextPath, withNext } from "./redirect";

describe("safeNextPath", () => {
  it("keeps a path on this site, with its query and hash", () => {
    expect(safeNextPath("/subscribe?plan=premium&billing=yearly")).toBe("/subscribe?plan=premium&billing=yearly");
    expect(safeNextPath("/help#contact")).toBe("/help#contact");
  });

  it("refuses anything that could leave the site, and falls back", () => {
    for (const next of [
      null,
      undefined,
      "",
      "https://evil.example/x",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "subscribe",
    ]) {
      expect(safeNextPath(next), String(next)).toBe("/dashboard");
    }
    expect(safeNextPath("//evil.example", "/pricing")).toBe("/pricing");
  });

  it("builds a link that carries it", () => {
    expect(withNext("/register", "/subscribe?plan=pro&billing=monthly")).toBe(
      "/register?next=%2Fsubscribe%3Fplan%3Dpro%26billing%3Dmonthly",
    );
  });
});
