import { describe, expect, it } from "vitest";
import {
  allocationOf,
  investmentPreferencesSchema,
  parseAmount,
  parseStrategies,
  toggleStrategy,
  toPreferencesUpdate,
  valuesFromUser,
} from "./investment-preferences";

const issues = (values: Parameters<typeof investmentPreferencesSchema.parse>[0]) => {
  const result = investmentPreferencesSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

const base = { investmentCapital: "1000", maxPositionSize: "100", riskTolerance: "medium", preferredStrategies: [] } as const;

describe("investment preferences", () => {
  it("reads the stored strategies in the checkbox list's order, in any case, each once", () => {
    expect(parseStrategies("Breakout, momentum,,BREAKOUT")).toEqual(["Momentum", "Breakout"]);
    expect(parseStrategies("")).toEqual([]);
    expect(parseStrategies("Volatility,Mean Reversion")).toEqual(["Mean Reversion", "Volatility"]);
  });

  it("toggling adds a strategy when absent and removes it when present, down to none", () => {
    expect(toggleStrategy(["Breakout"], "Momentum")).toEqual(["Momentum", "Breakout"]);
    expect(toggleStrategy(["Momentum", "Breakout"], "Momentum")).toEqual(["Breakout"]);
    expect(toggleStrategy(["Breakout"], "Breakout")).toEqual([]);
  });

  it("starts from the stored values, with the defaults where one is missing", () => {
    expect(
      valuesFromUser({ investmentCapital: 25000.5, maxPositionSize: 2500, riskTolerance: "high", preferredStrategies: "Volatility" }),
    ).toEqual({ investmentCapital: "25000.5", maxPositionSize: "2500", riskTolerance: "high", preferredStrategies: ["Volatility"] });
    expect(valuesFromUser({})).toEqual({
      investmentCapital: "1000",
      maxPositionSize: "100",
      riskTolerance: "medium",
      preferredStrategies: ["Momentum", "Breakout"],
    });
    // Stored as none: stays none.
    expect(valuesFromUser({ investmentCapital: 0, preferredStrategies: "" })).toMatchObject({
      investmentCapital: "1000",
      preferredStrategies: [],
    });
  });

  it("sends all four fields, the strategies comma-joined in canonical order", () => {
    expect(
      toPreferencesUpdate({
        investmentCapital: " 5000.25 ",
        maxPositionSize: "500",
        riskTolerance: "low",
        preferredStrategies: ["Volatility", "Momentum"],
      }),
    ).toEqual({ investmentCapital: 5000.25, riskTolerance: "low", maxPositionSize: 500, preferredStrategies: "Momentum,Volatility" });
    expect(toPreferencesUpdate({ ...base, preferredStrategies: [] }).preferredStrategies).toBe("");
  });

  it("checks the server's rules: more than 0, two decimals, at most $1,000,000,000, position within capital", () => {
    expect(issues(base)).toEqual([]);
    expect(issues({ ...base, investmentCapital: "", maxPositionSize: "0" })).toEqual([
      "investmentCapital: Enter the investment capital",
      "maxPositionSize: The max position size must be more than 0",
    ]);
    expect(issues({ ...base, investmentCapital: "1000.001" })).toEqual(["investmentCapital: Use at most two decimals"]);
    expect(issues({ ...base, investmentCapital: "1000000000.01" })).toEqual([
      "investmentCapital: The investment capital can be at most 1,000,000,000 US dollars",
    ]);
    expect(issues({ ...base, investmentCapital: "1000000000" })).toEqual([]);
    expect(issues({ ...base, maxPositionSize: "1000.01" })).toEqual([
      "maxPositionSize: The maximum position size cannot be more than the investment capital",
    ]);
    expect(issues({ ...base, maxPositionSize: "1000" })).toEqual([]);
    expect(issues({ ...base, investmentCapital: "0.3", maxPositionSize: "0.30" })).toEqual([]);
  });

  it("parses amounts as decimals, 0 when empty or invalid", () => {
    expect(parseAmount("12.5")).toBe(12.5);
    expect(parseAmount("")).toBe(0);
    expect(parseAmount("abc")).toBe(0);
    expect(parseAmount("-3")).toBe(0);
  });

  it("derives the allocation without dividing by zero", () => {
    expect(allocationOf(1000, 100, 2)).toEqual({ maxPositions: 10, riskPerTrade: 10, strategies: 2 });
    expect(allocationOf(0.3, 0.1, 1)).toEqual({ maxPositions: 3, riskPerTrade: (10 / 30) * 100, strategies: 1 });
    expect(allocationOf(1000, 0, 0)).toEqual({ maxPositions: null, riskPerTrade: null, strategies: 0 });
    expect(allocationOf(0, 100, 0)).toEqual({ maxPositions: null, riskPerTrade: null, strategies: 0 });
  });
});
