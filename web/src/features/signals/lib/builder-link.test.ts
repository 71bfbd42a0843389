import { describe, expect, it } from "vitest";
import { decodeState, requestOf } from "@/features/strategy-builder/lib/builder";
import { makeSignal } from "@/test/fixtures";
import { builderLinkForSignal, signalLegs } from "./builder-link";

/** The legs a link opens in the builder, as the builder reads its `s` parameter. */
function openedLegs(link: string | null) {
  expect(link).toMatch(/^\/strategy-builder\?s=[A-Za-z0-9_-]+$/);
  const state = decodeState(new URL(link ?? "", "http://localhost").searchParams.get("s"));
  expect(state).not.toBeNull();
  const built = state && requestOf(state);
  expect(built && "request" in built).toBe(true);
  return built && "request" in built ? built.request : null;
}

describe("builderLinkForSignal", () => {
  it("opens a CALL as one long call at the strike, the expiration and the entry price", () => {
    const signal = makeSignal({ symbol: "AAPL", signalType: "CALL", strikePrice: 250, expirationDate: "2026-12-18", entryPrice: 3.2 });
    expect(openedLegs(builderLinkForSignal(signal))).toEqual({
      symbol: "AAPL",
      exercise: "american",
      legs: [{ instrument: "call", side: "long", quantity: 1, strike: 250, expirationDate: "2026-12-18", entryPrice: 3.2 }],
    });
  });

  it("opens a PUT as one long put", () => {
    const signal = makeSignal({ symbol: "MSFT", signalType: "PUT", strikePrice: 412.5, expirationDate: "2027-01-15", entryPrice: 6.45 });
    expect(openedLegs(builderLinkForSignal(signal))).toEqual({
      symbol: "MSFT",
      exercise: "american",
      legs: [{ instrument: "put", side: "long", quantity: 1, strike: 412.5, expirationDate: "2027-01-15", entryPrice: 6.45 }],
    });
  });

  it("opens a STRADDLE as a long call and a long put, priced by the builder (the entry price is the pair's)", () => {
    const signal = makeSignal({ symbol: "NVDA", signalType: "STRADDLE", strikePrice: 180, expirationDate: "2026-12-18", entryPrice: 12.4 });
    expect(openedLegs(builderLinkForSignal(signal))).toEqual({
      symbol: "NVDA",
      exercise: "american",
      legs: [
        { instrument: "call", side: "long", quantity: 1, strike: 180, expirationDate: "2026-12-18" },
        { instrument: "put", side: "long", quantity: 1, strike: 180, expirationDate: "2026-12-18" },
      ],
    });
  });

  it("leaves the entry price to the builder when the signal has none", () => {
    expect(signalLegs(makeSignal({ entryPrice: null }))).toEqual([
      { instrument: "call", side: "long", quantity: 1, strike: 250, expirationDate: "2026-12-18" },
    ]);
  });

  it("round-trips: the builder decodes exactly the signal's legs", () => {
    for (const signalType of ["CALL", "PUT", "STRADDLE"] as const) {
      const signal = makeSignal({ signalType });
      const param = new URL(builderLinkForSignal(signal) ?? "", "http://localhost").searchParams.get("s");
      const state = decodeState(param);
      expect(state?.symbol).toBe(signal.symbol);
      const built = state && requestOf(state);
      expect(built && "request" in built ? built.request.legs : null).toEqual(signalLegs(signal));
    }
  });

  it("has no link for a locked signal or one without its contract's terms", () => {
    expect(builderLinkForSignal(makeSignal({ locked: true }))).toBeNull();
    expect(builderLinkForSignal(makeSignal({ signalType: null }))).toBeNull();
    expect(builderLinkForSignal(makeSignal({ strikePrice: null }))).toBeNull();
    expect(builderLinkForSignal(makeSignal({ expirationDate: null }))).toBeNull();
  });
});
