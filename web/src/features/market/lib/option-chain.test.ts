import { describe, expect, it } from "vitest";
import { makeChainRows, makeContract, makeOptionChain } from "@/test/options-fixtures";
import {
  atTheMoneyStrike,
  daysToExpiration,
  expirationLabel,
  formatGreek,
  formatOpenInterest,
  formatQuote,
  inTheMoney,
  pickOf,
  providerName,
  sideColumns,
} from "./option-chain";

describe("atTheMoneyStrike", () => {
  it("is the strike nearest the price, the lower of two as near", () => {
    const rows = makeChainRows([240, 245, 250, 255, 260]);
    expect(atTheMoneyStrike(rows, 248.1)).toBe(250);
    expect(atTheMoneyStrike(rows, 246)).toBe(245);
    expect(atTheMoneyStrike(rows, 247.5)).toBe(245);
    expect(atTheMoneyStrike(rows, 1000)).toBe(260);
    expect(atTheMoneyStrike([], 100)).toBeNull();
  });
});

describe("inTheMoney", () => {
  it("is a call below the price and a put above it", () => {
    expect(inTheMoney("call", 240, 248.1)).toBe(true);
    expect(inTheMoney("call", 250, 248.1)).toBe(false);
    expect(inTheMoney("put", 250, 248.1)).toBe(true);
    expect(inTheMoney("put", 240, 248.1)).toBe(false);
  });
});

describe("chain figures", () => {
  it("formats quotes with two decimals", () => {
    expect(formatQuote(3.1)).toBe("3.10");
    expect(formatQuote(null)).toBe("—");
  });

  it("formats Greeks without a negative zero", () => {
    expect(formatGreek(0.5039)).toBe("0.50");
    expect(formatGreek(-0.2724, 3)).toBe("-0.272");
    expect(formatGreek(-0.0004)).toBe("0.00");
    expect(formatGreek(0.02327, 4)).toBe("0.0233");
    expect(formatGreek(undefined)).toBe("—");
  });

  it("formats open interest as a count", () => {
    expect(formatOpenInterest(17147)).toBe("17,147");
    expect(formatOpenInterest(0)).toBe("0");
    expect(formatOpenInterest(null)).toBe("—");
  });

  it("names the providers", () => {
    expect(providerName("simulated")).toBe("Simulated market");
    expect(providerName("polygon")).toBe("Polygon.io");
    expect(providerName("other")).toBe("other");
  });
});

describe("expirations", () => {
  it("counts calendar days to an expiration", () => {
    expect(daysToExpiration("2026-12-18", "2026-11-28")).toBe(20);
    expect(daysToExpiration("2026-03-09", "2026-03-07")).toBe(2);
    expect(daysToExpiration("not a date", "2026-11-28")).toBeNull();
  });

  it("labels each with its date and the days left", () => {
    expect(expirationLabel("2026-12-18", "2026-11-28")).toBe("Dec 18, 2026 · 20 days");
    expect(expirationLabel("2026-11-29", "2026-11-28")).toBe("Nov 29, 2026 · 1 day");
    expect(expirationLabel("2026-11-28", "2026-11-28")).toBe("Nov 28, 2026 · today");
    expect(expirationLabel("2026-11-27", "2026-11-28")).toBe("Nov 27, 2026");
  });
});

describe("sideColumns", () => {
  const keys = (right: "call" | "put", greeks: boolean) => sideColumns(right, greeks).map((c) => c.key);

  it("keeps bid and ask next to the strike, calls mirrored", () => {
    expect(keys("put", false)).toEqual(["bid", "ask", "impliedVolatility", "delta", "openInterest"]);
    expect(keys("call", false)).toEqual(["openInterest", "delta", "impliedVolatility", "bid", "ask"]);
  });

  it("adds gamma, theta and vega on request", () => {
    expect(keys("put", true)).toEqual(["bid", "ask", "impliedVolatility", "delta", "openInterest", "gamma", "theta", "vega"]);
    expect(keys("call", true)).toEqual(["vega", "theta", "gamma", "openInterest", "delta", "impliedVolatility", "bid", "ask"]);
  });

  it("formats each column of a contract", () => {
    const contract = makeContract();
    expect(sideColumns("put", true).map((c) => c.format(contract))).toEqual([
      "3.10",
      "3.30",
      "25.3%",
      "0.52",
      "17,147",
      "0.0233",
      "-0.272",
      "0.291",
    ]);
  });
});

describe("pickOf", () => {
  const chain = makeOptionChain();
  const row = chain.rows[2];

  it("buys at the ask and sells at the bid, with the chain's implied volatility", () => {
    expect(pickOf(chain, row, "call", "long")).toEqual({
      symbol: "AAPL",
      right: "call",
      side: "long",
      strike: 250,
      expiration: "2026-12-18",
      price: 8.4,
      impliedVolatility: 0.2534,
    });
    expect(pickOf(chain, row, "put", "short")).toMatchObject({ right: "put", side: "short", price: 5 });
  });

  it("picks nothing of an unlisted contract or a missing quote", () => {
    expect(pickOf(chain, { strike: 250, call: null, put: null }, "call", "long")).toBeNull();
    expect(pickOf(chain, { strike: 250, call: makeContract({ bid: null }) }, "call", "short")).toBeNull();
    expect(pickOf(chain, { strike: 250, call: makeContract({ impliedVolatility: null }) }, "call", "long")?.impliedVolatility).toBeNull();
  });
});
