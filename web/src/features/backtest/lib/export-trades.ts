import type { TradeView } from "@/lib/api/models";
import { type CsvValue, downloadFile, toCsv } from "@/lib/csv";

/** The export's columns; prices are per share, P&L and commissions per trade. */
export const TRADE_CSV_HEADER = [
  "Symbol",
  "Strategy",
  "Type",
  "Strike",
  // A vertical spread's short strike (empty for a single contract); its prices are then net premiums.
  "Short Strike",
  "Expiration",
  "Entry Date",
  "Exit Date",
  "Entry Price",
  "Exit Price",
  "Contracts",
  "Commissions",
  "P&L",
  "Outcome",
  // The signal's `confidence`, a heuristic score out of 100 (not a probability).
  "Strength",
] as const;

function row(t: TradeView): CsvValue[] {
  return [
    t.symbol,
    t.strategy,
    t.signalType,
    t.strike,
    t.shortStrike,
    t.expiration,
    t.entryDate,
    t.exitDate,
    t.entryPrice,
    t.exitPrice,
    t.contracts,
    t.commissions,
    t.pnl,
    t.outcome,
    t.confidence,
  ];
}

/** Every trade of the run as CSV (RFC 4180, CRLF, formula-safe text). */
export function tradesCsv(trades: readonly TradeView[]): string {
  return toCsv(TRADE_CSV_HEADER, trades.map(row));
}

/** "strikeline-backtest-2025-11-23-to-2026-11-23.csv" */
export function tradesCsvFilename(startDate: string, endDate: string): string {
  const safe = (s: string) => s.replace(/[^0-9A-Za-z-]/g, "");
  return `strikeline-backtest-${safe(startDate)}-to-${safe(endDate)}.csv`;
}

/** Downloads the trades as a CSV file. */
export function exportTradesCsv(trades: readonly TradeView[], startDate: string, endDate: string): void {
  downloadFile(tradesCsvFilename(startDate, endDate), tradesCsv(trades), "text/csv;charset=utf-8");
}
