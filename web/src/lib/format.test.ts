import { describe, expect, it } from "vitest";
import {
  formatBadgeCount,
  formatCurrency,
  formatDays,
  formatFractionPercent,
  formatLastUpdate,
  formatMoney,
  formatPercentOrDash,
  formatRatio,
  riskToleranceLabel,
} from "./format";

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

  it("shows '—' for a figure there is no data for", () => {
    expect(formatRatio(1.234)).toBe("1.23");
    expect(formatRatio(null)).toBe("—");
    expect(formatRatio(Number.NaN)).toBe("—");
    expect(formatPercentOrDash(62.5, 2)).toBe("62.50%");
    expect(formatPercentOrDash(undefined)).toBe("—");
    expect(formatFractionPercent(-0.0834)).toBe("-8.34%");
    expect(formatFractionPercent(-0.00001)).toBe("0.00%");
    expect(formatFractionPercent(null)).toBe("—");
    expect(formatMoney(-12.5, { signed: true })).toBe("-$12.50");
    expect(formatMoney(null)).toBe("—");
  });

  it("shows holding periods in days with one decimal", () => {
    expect(formatDays(6.43)).toBe("6.4 days");
    expect(formatDays(1)).toBe("1.0 day");
    expect(formatDays(null)).toBe("—");
  });
});
