import { describe, expect, it } from "vitest";
import { EMPTY_OPTIONS, optionsIssue, parseSymbols, toBacktestRequest } from "./options";

describe("backtest options", () => {
  it("sends only what is set", () => {
    expect(toBacktestRequest(EMPTY_OPTIONS)).toEqual({});
    expect(
      toBacktestRequest({
        startDate: "2026-01-02",
        endDate: "2026-06-30",
        symbols: "aapl, msft aapl",
        strategies: ["Momentum", "Breakout"],
      }),
    ).toEqual({ startDate: "2026-01-02", endDate: "2026-06-30", symbols: ["AAPL", "MSFT"], strategies: ["Momentum", "Breakout"] });
  });

  it("reads symbols separated by commas, spaces or semicolons", () => {
    expect(parseSymbols(" nvda;brk.b ,, amd ")).toEqual(["NVDA", "BRK.B", "AMD"]);
    expect(parseSymbols("")).toEqual([]);
  });

  it("refuses a reversed range, a future end and a bad symbol", () => {
    const today = "2026-11-23";
    expect(optionsIssue(EMPTY_OPTIONS, today)).toBeNull();
    expect(optionsIssue({ ...EMPTY_OPTIONS, startDate: "2026-06-01", endDate: "2026-01-01" }, today)).toBe(
      "The start date must be before the end date.",
    );
    expect(optionsIssue({ ...EMPTY_OPTIONS, endDate: "2026-12-01" }, today)).toBe("The end date cannot be in the future.");
    expect(optionsIssue({ ...EMPTY_OPTIONS, symbols: "AAPL, 1BAD" }, today)).toBe('"1BAD" is not a ticker symbol.');
  });
});
