import { describe, expect, it } from "vitest";
import { changedParams, DEFAULT_PARAM_VALUES, PARAM_KEYS, paramIssues, paramKeyOfField, toParamsRequest } from "./params";

describe("custom strategy parameters", () => {
  it("start at the engine's defaults (docs/strategies.md) and are all valid", () => {
    expect(toParamsRequest(DEFAULT_PARAM_VALUES)).toEqual({
      momentumRsiLow: 50,
      momentumRsiHigh: 70,
      oversoldRsi: 30,
      overboughtRsi: 70,
      bollingerMultiplier: 2,
      breakoutLookback: 20,
      volumeMultiple: 1.5,
      hvRankThreshold: 20,
      hvPercentileThreshold: 25,
      targetAtr: 2,
      stopAtr: 1,
      straddleStopFraction: 0.5,
      minDaysDirectional: 21,
      minDaysStraddle: 30,
    });
    expect(PARAM_KEYS).toHaveLength(14);
    expect(paramIssues(DEFAULT_PARAM_VALUES)).toEqual({});
  });

  it("refuses what the server would: not a number, not whole, out of range, an empty RSI zone", () => {
    expect(
      paramIssues({
        ...DEFAULT_PARAM_VALUES,
        oversoldRsi: "51",
        overboughtRsi: "",
        breakoutLookback: "20.5",
        volumeMultiple: "1",
        straddleStopFraction: "abc",
        momentumRsiLow: "60",
        momentumRsiHigh: "60.5",
      }),
    ).toEqual({
      oversoldRsi: "Must be between 1 and 50.",
      overboughtRsi: "Enter a number.",
      breakoutLookback: "Enter a whole number.",
      volumeMultiple: "Must be between 1.01 and 5.",
      straddleStopFraction: "Enter a number.",
      momentumRsiHigh: "Must be at least 1 above the Momentum RSI low.",
    });
    expect(paramIssues({ ...DEFAULT_PARAM_VALUES, targetAtr: "0.25", stopAtr: "10", minDaysStraddle: "365" })).toEqual({});
  });

  it("maps the server's field names and labels what a run changed", () => {
    expect(paramKeyOfField("params.momentumRsiHigh")).toBe("momentumRsiHigh");
    expect(paramKeyOfField("params.nope")).toBeNull();
    expect(paramKeyOfField("startDate")).toBeNull();
    expect(
      changedParams(toParamsRequest({ ...DEFAULT_PARAM_VALUES, momentumRsiLow: "55", targetAtr: "3" })).map(
        (c) => `${c.label}: ${c.value}`,
      ),
    ).toEqual(["Momentum RSI low: 55", "Target (ATR): 3"]);
    expect(changedParams(null)).toEqual([]);
  });
});
