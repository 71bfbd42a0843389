import { afterEach, describe, expect, it } from "vitest";
import { setMoneyDisplay } from "./money-display";
import { describeIv, describePick, formatIv, formatIvScore, IV_RANK_NEEDS, stockOptionsPath } from "./options";

afterEach(() => setMoneyDisplay(null));

describe("formatIv", () => {
  it("shows a fraction per year as a percentage with one decimal", () => {
    expect(formatIv(0.2534)).toBe("25.3%");
    expect(formatIv(1.2)).toBe("120.0%");
    expect(formatIv(0.2534, 0)).toBe("25%");
  });

  it("shows a dash without a reading", () => {
    expect(formatIv(null)).toBe("—");
    expect(formatIv(undefined)).toBe("—");
    expect(formatIv(Number.NaN)).toBe("—");
  });
});

describe("formatIvScore", () => {
  it("rounds a rank or percentile to a whole number, without a percent sign", () => {
    expect(formatIvScore(43.4)).toBe("43");
    expect(formatIvScore(99.6)).toBe("100");
    expect(formatIvScore(0)).toBe("0");
  });

  it("shows a dash while hidden", () => {
    expect(formatIvScore(null)).toBe("—");
    expect(formatIvScore(undefined)).toBe("—");
  });
});

describe("describeIv", () => {
  it("says the figures in full", () => {
    expect(describeIv({ impliedVolatility: 0.2534, ivRank: 43.2, ivPercentile: 67 })).toBe(
      "Implied volatility 25.3%, IV rank 43, IV percentile 67",
    );
  });

  it("says why the rank is hidden", () => {
    expect(IV_RANK_NEEDS).toBe("IV rank needs 200 recorded sessions");
    expect(describeIv({ impliedVolatility: 0.2534, ivRank: null, ivPercentile: null })).toBe(
      "Implied volatility 25.3%, IV rank needs 200 recorded sessions",
    );
    expect(describeIv({})).toBe("No implied volatility reading, IV rank needs 200 recorded sessions");
  });
});

describe("describePick", () => {
  const pick = { symbol: "AAPL", right: "call", strike: 250, expiration: "2026-12-18", impliedVolatility: 0.25 } as const;

  it("buys at the ask and sells at the bid, in US dollars", () => {
    expect(describePick({ ...pick, side: "long", price: 3.3 })).toBe("Buy the AAPL Dec 18, 2026 $250.00 call at the ask, $3.30");
    expect(describePick({ ...pick, right: "put", side: "short", price: 3.1 })).toBe(
      "Sell the AAPL Dec 18, 2026 $250.00 put at the bid, $3.10",
    );
  });

  it("keeps contract terms in dollars when money is shown in euros", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    expect(describePick({ ...pick, side: "long", price: 3.3 })).toBe("Buy the AAPL Dec 18, 2026 US$250.00 call at the ask, US$3.30");
  });
});

describe("stockOptionsPath", () => {
  it("is the stock's options view", () => {
    expect(stockOptionsPath("AAPL")).toBe("/stocks/AAPL/options");
    expect(stockOptionsPath("BRK.B")).toBe("/stocks/BRK.B/options");
  });
});
