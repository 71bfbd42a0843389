import { describe, expect, it } from "vitest";
import { makeOverallBacktest } from "@/test/portfolio-fixtures";
import { TRADE_CSV_HEADER, tradesCsv, tradesCsvFilename } from "./export-trades";

describe("trades CSV", () => {
  it("writes a header and one line per trade, formula-safe", () => {
    const lines = tradesCsv(makeOverallBacktest().trades).split("\r\n");
    expect(lines[0]).toBe(TRADE_CSV_HEADER.join(","));
    expect(lines[0]).toBe(
      "Symbol,Strategy,Type,Strike,Short Strike,Expiration,Entry Date,Exit Date,Entry Price,Exit Price,Contracts,Commissions,P&L,Outcome,Strength",
    );
    expect(lines[1]).toBe("AAPL,Momentum,CALL,250,,2026-03-20,2026-02-02,2026-02-20,3.2,4.8,1,1.3,158.7,target,78");
    expect(lines[2]).toBe("'=HYPE,Breakout,PUT,120,,2026-05-15,2026-04-01,2026-04-09,2.1,1.05,2,2.6,-212.6,stop,64");
    expect(lines[3]).toBe("NVDA,Volatility,STRADDLE,180,,2026-12-18,2026-11-02,2026-11-23,12.4,14.9,1,0.65,250,open,71");
    expect(lines[4]).toBe("");
  });

  it("writes a vertical spread's short strike next to its long one", () => {
    const [call] = makeOverallBacktest().trades;
    const lines = tradesCsv([{ ...call, strike: 105, shortStrike: 110.25, entryPrice: 1.85, exitPrice: 3.1 }]).split("\r\n");
    expect(lines[1]).toBe("AAPL,Momentum,CALL,105,110.25,2026-03-20,2026-02-02,2026-02-20,1.85,3.1,1,1.3,158.7,target,78");
  });

  it("names the file after the period", () => {
    expect(tradesCsvFilename("2025-11-24", "2026-11-23")).toBe("strikeline-backtest-2025-11-24-to-2026-11-23.csv");
  });
});
