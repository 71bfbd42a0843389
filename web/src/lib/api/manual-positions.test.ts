import { describe, expect, it } from "vitest";
import { entryPriceFor, manualPositionFromSignal, type SignalLike } from "./manual-positions";

const signal: SignalLike = {
  symbol: "AAPL",
  companyName: "Apple Inc.",
  type: "CALL",
  strikePrice: 250,
  expirationDate: "2026-12-18",
  strategy: "Momentum",
  confidence: 78,
  entryPrice: 3.2,
  currentOptionPrice: 3.65,
  currentPrice: 248.1,
};

describe("a manual position from a signal", () => {
  it("takes the entry price, else the option price, else the current price or strike, else 1", () => {
    expect(entryPriceFor(signal)).toBe(3.2);
    expect(entryPriceFor({ ...signal, entryPrice: null })).toBe(3.65);
    expect(entryPriceFor({ ...signal, entryPrice: null, currentOptionPrice: 0 })).toBe(248.1);
    expect(entryPriceFor({ ...signal, entryPrice: null, currentOptionPrice: null, currentPrice: null })).toBe(250);
    expect(entryPriceFor({ entryPrice: null, currentOptionPrice: null, currentPrice: null, strikePrice: 0 })).toBe(1);
    // Whole cents, as the server takes prices.
    expect(entryPriceFor({ ...signal, entryPrice: 3.14159 })).toBe(3.14);
  });

  it("is one open contract with a reasoning naming the strategy and its strength out of 100, not a percentage", () => {
    expect(manualPositionFromSignal(signal)).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 1,
      status: "open",
      entryPrice: 3.2,
      reasoning: "Momentum strategy signal, strength 78/100",
    });
    expect(manualPositionFromSignal(signal, "Added from automated signal").reasoning).toBe(
      "Added from automated signal: Momentum strategy signal, strength 78/100",
    );
  });
});
