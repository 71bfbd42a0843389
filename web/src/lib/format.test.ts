import { describe, expect, it } from "vitest";
import { formatBadgeCount, formatCurrency, formatLastUpdate, riskToleranceLabel } from "./format";

describe("format", () => {
  it("shows 'Just now' under a minute, then minutes", () => {
    const t = 1_000_000;
    expect(formatLastUpdate(t, t + 59_000)).toBe("Just now");
    expect(formatLastUpdate(t, t + 60_000)).toBe("1 min ago");
    expect(formatLastUpdate(t, t + 5 * 60_000 + 10)).toBe("5 min ago");
  });

  it("caps badge counts at 9+", () => {
    expect(formatBadgeCount(0)).toBe("0");
    expect(formatBadgeCount(9)).toBe("9");
    expect(formatBadgeCount(10)).toBe("9+");
  });

  it("formats dollars with two decimals", () => {
    expect(formatCurrency(1000)).toBe("$1,000.00");
    expect(formatCurrency(12.34)).toBe("$12.34");
  });

  it("names risk tolerance levels", () => {
    expect(riskToleranceLabel("low")).toBe("Conservative");
    expect(riskToleranceLabel("medium")).toBe("Moderate");
    expect(riskToleranceLabel("high")).toBe("Aggressive");
  });
});
