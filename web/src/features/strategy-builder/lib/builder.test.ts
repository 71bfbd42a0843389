import { describe, expect, it } from "vitest";
import { TEMPLATE_NAMES } from "@/lib/api/enums";
import { type BuilderState, decodeState, draftFromPick, draftOf, encodeState, fieldPath, legOf, requestOf } from "./builder";
import { TEMPLATE_GROUPS } from "./templates";

const state: BuilderState = {
  symbol: "AAPL",
  legs: [
    draftOf({ instrument: "put", side: "long", quantity: 2, strike: 180, expirationDate: "2027-01-15", entryPrice: 1.25 }),
    draftOf({ instrument: "put", side: "short", quantity: 2, strike: 190, expirationDate: "2027-01-15", volatility: 0.325 }),
    draftOf({ instrument: "stock", side: "long", quantity: 100 }),
  ],
  exercise: "european",
  horizonDate: "2026-12-20",
  shiftPoints: -5,
};

const withoutKeys = (s: BuilderState) => ({ ...s, legs: s.legs.map(({ key: _key, ...rest }) => rest) });

describe("shared links", () => {
  it("round-trips: encode → decode gives the same state", () => {
    const encoded = encodeState(state);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = decodeState(encoded);
    expect(decoded && withoutKeys(decoded)).toEqual(withoutKeys(state));
    expect(decoded && requestOf(decoded)).toEqual(requestOf(state));
  });

  it("refuses what is not a link's state", () => {
    expect(decodeState(null)).toBeNull();
    expect(decodeState("not base64 json")).toBeNull();
    expect(decodeState(btoa(JSON.stringify({ v: 1, symbol: "AAPL", legs: [{ instrument: "swap" }] })))).toBeNull();
  });
});

describe("requestOf", () => {
  it("builds the analysis request: volatility in fractions, the shift in fractions", () => {
    const built = requestOf(state);
    expect(built).toEqual({
      request: {
        symbol: "AAPL",
        exercise: "european",
        horizonDate: "2026-12-20",
        volatilityShift: -0.05,
        legs: [
          { instrument: "put", side: "long", quantity: 2, strike: 180, expirationDate: "2027-01-15", entryPrice: 1.25 },
          { instrument: "put", side: "short", quantity: 2, strike: 190, expirationDate: "2027-01-15", volatility: 0.325 },
          { instrument: "stock", side: "long", quantity: 100 },
        ],
      },
    });
  });

  it("names a leg's missing strike instead of sending it", () => {
    const built = requestOf({ ...state, legs: [{ ...state.legs[0], strike: "" }] });
    expect(built).toEqual({ legErrors: [{ strike: "Enter the strike in dollars." }] });
  });

  it("splits the server's field paths", () => {
    expect(fieldPath("legs[1].strike")).toEqual({ leg: 1, field: "strike" });
    expect(fieldPath("horizonDate")).toEqual({ field: "horizonDate" });
  });
});

it("groups every template exactly once", () => {
  expect(TEMPLATE_GROUPS.flatMap((g) => g.templates).sort()).toEqual([...TEMPLATE_NAMES].sort());
});

describe("draftFromPick", () => {
  const pick = {
    symbol: "AAPL",
    right: "call",
    side: "long",
    strike: 250,
    expiration: "2026-12-18",
    price: 3.3,
    impliedVolatility: 0.253_4,
  } as const;

  it("is one contract of the picked right and side at the chain's strike, expiration, price and implied volatility", () => {
    const { key: _key, ...draft } = draftFromPick(pick);
    expect(draft).toEqual({
      instrument: "call",
      side: "long",
      quantity: "1",
      strike: "250",
      expirationDate: "2026-12-18",
      entryPrice: "3.30",
      volatility: "25.34",
    });
    expect(legOf(draftFromPick(pick))).toEqual({
      leg: {
        instrument: "call",
        side: "long",
        quantity: 1,
        strike: 250,
        expirationDate: "2026-12-18",
        entryPrice: 3.3,
        volatility: 0.2534,
      },
    });
  });

  it("sells at the bid, and leaves the volatility to the stock's estimate when the chain has none", () => {
    const draft = draftFromPick({ ...pick, right: "put", side: "short", strike: 242.5, price: 1.05, impliedVolatility: null });
    expect(draft).toMatchObject({ instrument: "put", side: "short", strike: "242.5", entryPrice: "1.05", volatility: "" });
  });
});
