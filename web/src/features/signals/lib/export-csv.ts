import type { Signal } from "@/lib/api/models";
import { type CsvValue, downloadFile, toCsv } from "@/lib/csv";
import { getAllSignals, SIGNALS_MAX_LIMIT, type SignalFilters } from "../api/get-signals";

/** The export's columns; prices are per share except P&L, which is per contract. */
export const SIGNAL_CSV_HEADER = [
  "Symbol",
  "Company",
  "Type",
  "Strategy",
  "Strike",
  "Expiration",
  "Entry Price",
  "Option Price",
  "Underlying Price",
  "Underlying Change %",
  // The signal's `confidence`, a heuristic score out of 100 (not a probability).
  "Strength",
  "RSI",
  "Volume",
  "P&L",
  "P&L %",
  "Target",
  "Stop Loss",
  "Status",
  "Close Reason",
  "Created At",
  "Locked",
] as const;

function row(s: Signal): CsvValue[] {
  return [
    s.symbol,
    s.companyName,
    s.signalType,
    s.strategy,
    s.strikePrice,
    s.expirationDate,
    s.entryPrice,
    s.currentOptionPrice,
    s.currentPrice,
    s.priceChangePercent,
    s.confidence,
    s.rsi,
    s.volume,
    s.pnl,
    s.pnlPercent,
    s.targetPrice,
    s.stopLoss,
    s.status,
    s.closeReason,
    s.createdAt,
    s.locked ? "yes" : "no",
  ];
}

/** The signals as CSV, in the order given; locked signals as the list shows them (most cells empty). */
export function signalsCsv(signals: readonly Signal[]): string {
  return toCsv(SIGNAL_CSV_HEADER, signals.map(row));
}

/** "strikeline-signals-2026-11-23.csv" (the reader's local date). */
export function signalsCsvFilename(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `strikeline-signals-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Downloads the signals as a CSV file. */
export function exportSignalsCsv(signals: readonly Signal[]): void {
  downloadFile(signalsCsvFilename(), signalsCsv(signals), "text/csv;charset=utf-8");
}

/**
 * Downloads every signal matching the filters, newest first: reads all pages through the
 * cursor (200 per request), telling `onProgress` the running count after each. If any page
 * fails the promise rejects and nothing is downloaded (never a partial file). Resolves to
 * the number of signals saved.
 */
export async function exportAllSignalsCsv(filters: SignalFilters, onProgress?: (loaded: number) => void): Promise<number> {
  const signals = await getAllSignals(filters, { limit: SIGNALS_MAX_LIMIT, onProgress });
  exportSignalsCsv(signals);
  return signals.length;
}
