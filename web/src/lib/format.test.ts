import { afterEach, describe, expect, it, vi } from "vitest";
import {
  formatUsdCents,
  formatBadgeCount,
  formatCompactCurrency,
  formatContractPrice,
  formatCount,
  formatCurrency,
  formatDays,
  formatFractionPercent,
  formatLastUpdate,
  formatMoney,
  formatPercentOrDash,
  formatRatio,
  formatScore,
  formatSignedCurrency,
  moneyAxis,
  riskToleranceLabel,
} from "./format";
import { getMoneyDisplay, setMoneyDisplay, subscribeMoneyDisplay } from "./money-display";

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

  it("shows a heuristic score out of 100, never as a percentage", () => {
    expect(formatScore(74)).toBe("74/100");
    expect(formatScore(73.6)).toBe("74/100");
    expect(formatScore(null)).toBe("—");
    expect(formatScore(Number.NaN)).toBe("—");
  });

  it("shows holding periods in days with one decimal", () => {
    expect(formatDays(6.43)).toBe("6.4 days");
    expect(formatDays(1)).toBe("1.0 day");
    expect(formatDays(null)).toBe("—");
  });
});

describe("money in the display currency", () => {
  afterEach(() => setMoneyDisplay(null));

  it("shows US dollars by default", () => {
    expect(getMoneyDisplay()).toEqual({ currency: "USD", perUsd: 1 });
    expect(formatMoney(12.5)).toBe("$12.50");
    expect(formatSignedCurrency(-3)).toBe("-$3.00");
    expect(formatCompactCurrency(12_345)).toBe("$12.3K");
  });

  it("converts dollars to euros at the rate", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    expect(formatCurrency(1000)).toBe("€920.00");
    expect(formatMoney(12.5)).toBe("€11.50");
    expect(formatMoney(null)).toBe("—");
    expect(formatSignedCurrency(45)).toBe("+€41.40");
    expect(formatSignedCurrency(-12.5)).toBe("-€11.50");
    expect(formatSignedCurrency(0)).toBe("€0.00");
    expect(formatMoney(-10, { signed: true })).toBe("-€9.20");
    expect(formatCompactCurrency(20_000)).toBe("€18.4K");
  });

  it("gives charts the same path, with ticks round in the display currency", () => {
    expect(moneyAxis().tickScale).toBe(1);
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    const axis = moneyAxis();
    expect(axis.tickScale).toBe(0.92);
    expect(axis.formatTick(100_000)).toBe("€92K");
    expect(axis.formatValue(100_000)).toBe("€92,000.00");
  });

  it("converts dollars to pounds at the rate", () => {
    setMoneyDisplay({ currency: "GBP", perUsd: 0.79 });
    expect(formatCurrency(1000)).toBe("£790.00");
    expect(formatSignedCurrency(100)).toBe("+£79.00");
    expect(formatMoney(2.5)).toBe("£1.98");
  });

  it("falls back to dollars for a rate that is not a positive number, and tells subscribers", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeMoneyDisplay(listener);
    setMoneyDisplay({ currency: "EUR", perUsd: 0.9 });
    expect(listener).toHaveBeenCalledTimes(1);
    setMoneyDisplay({ currency: "EUR", perUsd: 0.9 });
    expect(listener).toHaveBeenCalledTimes(1);
    setMoneyDisplay({ currency: "GBP", perUsd: Number.NaN });
    expect(formatCurrency(1)).toBe("$1.00");
    setMoneyDisplay({ currency: "EUR", perUsd: 0 });
    expect(getMoneyDisplay().currency).toBe("USD");
    setMoneyDisplay({ currency: "USD", perUsd: 3 });
    expect(formatCurrency(1)).toBe("$1.00");
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});

describe("formatContractPrice", () => {
  afterEach(() => setMoneyDisplay(null));

  it("shows a contract's prices in US dollars, '—' when there is none", () => {
    expect(formatContractPrice(105)).toBe("$105.00");
    expect(formatContractPrice(6.5)).toBe("$6.50");
    expect(formatContractPrice(1234.567)).toBe("$1,234.57");
    expect(formatContractPrice(null)).toBe("—");
    expect(formatContractPrice(undefined)).toBe("—");
    expect(formatContractPrice(Number.NaN)).toBe("—");
  });

  it("never converts them, and names the dollar beside another display currency", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    expect(formatContractPrice(105)).toBe("US$105.00");
    expect(formatContractPrice(390)).toBe("US$390.00");
    expect(formatCurrency(390)).toBe("€358.80");
    setMoneyDisplay({ currency: "GBP", perUsd: 0.79 });
    expect(formatContractPrice(6.5)).toBe("US$6.50");
  });

  it("signs a change when asked, and never signs zero", () => {
    expect(formatContractPrice(1.2, { signed: true })).toBe("+$1.20");
    expect(formatContractPrice(-1.2, { signed: true })).toBe("-$1.20");
    expect(formatContractPrice(-1.2)).toBe("-$1.20");
    expect(formatContractPrice(1.2)).toBe("$1.20");
    expect(formatContractPrice(-0.001, { signed: true })).toBe("$0.00");
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    expect(formatContractPrice(-2.5, { signed: true })).toBe("-US$2.50");
  });
});

describe("formatCount", () => {
  it("separates thousands", () => {
    expect(formatCount(12345)).toBe("12,345");
    expect(formatCount(7)).toBe("7");
  });
});

describe("formatUsdCents", () => {
  it("shows whole cents exactly, in US dollars whatever the display currency", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.9 });
    try {
      expect(formatUsdCents(143000)).toBe("$1,430.00");
      expect(formatUsdCents(4900)).toBe("$49.00");
      expect(formatUsdCents(138101)).toBe("$1,381.01");
      expect(formatUsdCents(5)).toBe("$0.05");
      expect(formatUsdCents(0)).toBe("$0.00");
      expect(formatUsdCents(-250)).toBe("-$2.50");
      expect(formatUsdCents(123456789012)).toBe("$1,234,567,890.12");
      expect(formatUsdCents(Number.NaN)).toBe("—");
    } finally {
      setMoneyDisplay(null);
    }
  });
});
