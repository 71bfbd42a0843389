import { describe, expect, it } from "vitest";
import { makeLockedSignal, makeSignal } from "@/test/fixtures";
import { signalToManualPosition } from "./add-signal-to-portfolio";

describe("signalToManualPosition", () => {
  it("copies the contract as one open position at the signal's entry price", () => {
    expect(signalToManualPosition(makeSignal({ strategy: "Breakout", confidence: 82 }))).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 1,
      status: "open",
      entryPrice: 3.2,
      reasoning: "Breakout strategy signal, strength 82/100",
    });
  });

  it("falls back to the option's current price, then the current price, then the strike, then 1", () => {
    expect(signalToManualPosition(makeSignal({ entryPrice: null }))?.entryPrice).toBe(3.65);
    expect(signalToManualPosition(makeSignal({ entryPrice: null, currentOptionPrice: null }))?.entryPrice).toBe(248.1);
    expect(signalToManualPosition(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 0 }))?.entryPrice).toBe(250);
    expect(
      signalToManualPosition(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 0, strikePrice: 0 }))?.entryPrice,
    ).toBe(1);
  });

  it("says a custom strategy's signal in the reasoning (the body has no strategy), by its name when known", () => {
    const signal = makeSignal({ strategy: "Custom", customStrategyId: "5f0c2a51-0000-4000-8000-000000000001", confidence: 58 });
    expect(signalToManualPosition(signal, "Oversold bounce")?.reasoning).toBe("Custom strategy “Oversold bounce” signal, strength 58/100");
    expect(signalToManualPosition(signal)?.reasoning).toBe("Custom strategy signal, strength 58/100");
  });

  it("has nothing to copy from a locked signal", () => {
    expect(signalToManualPosition(makeLockedSignal())).toBeNull();
  });
});
