import { describe, expect, it } from "vitest";
import { encodeStrategyLink, parseStrategyLink, strategyBuilderPath } from "./strategy-link";

describe("strategy builder links", () => {
  it("carry the position as base64url JSON, version 1, only what is set", () => {
    const legs = [{ instrument: "call" as const, side: "long" as const, quantity: 1, strike: 250, expirationDate: "2026-12-18" }];
    const encoded = encodeStrategyLink({ symbol: "AAPL", legs });
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseStrategyLink(encoded)).toEqual({ v: 1, symbol: "AAPL", legs });
    expect(
      parseStrategyLink(encodeStrategyLink({ symbol: "AAPL", legs, exercise: "european", horizonDate: "2026-12-01", shift: -5 })),
    ).toEqual({
      v: 1,
      symbol: "AAPL",
      legs,
      exercise: "european",
      horizonDate: "2026-12-01",
      shift: -5,
    });
    expect(strategyBuilderPath({ symbol: "AAPL", legs })).toBe(`/strategy-builder?s=${encoded}`);
  });

  it("read nothing from a missing or malformed parameter", () => {
    expect(parseStrategyLink(null)).toBeNull();
    expect(parseStrategyLink("")).toBeNull();
    expect(parseStrategyLink("not base64 json")).toBeNull();
  });
});
