import type { BacktestRequest } from "@/lib/api/models";
import { isIsoDate, todayIso } from "@/lib/calendar";

/** The optional inputs of a run, as typed. */
export type BacktestOptions = {
  startDate: string;
  endDate: string;
  /** Tickers separated by commas or spaces. */
  symbols: string;
  strategies: string[];
};

export const EMPTY_OPTIONS: BacktestOptions = { startDate: "", endDate: "", symbols: "", strategies: [] };

/** "aapl, msft  nvda" → ["AAPL", "MSFT", "NVDA"]: upper-cased, without blanks or repeats. */
export function parseSymbols(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const symbol = part.trim().toUpperCase();
    if (symbol) seen.add(symbol);
  }
  return [...seen];
}

/** What is wrong with the options, or null: real dates, start before end, end not in the future. */
export function optionsIssue(options: BacktestOptions, today: string = todayIso()): string | null {
  if (options.startDate && !isIsoDate(options.startDate)) return "Enter a valid start date.";
  if (options.endDate && !isIsoDate(options.endDate)) return "Enter a valid end date.";
  if (options.startDate && options.endDate && options.startDate > options.endDate) return "The start date must be before the end date.";
  if (options.endDate && options.endDate > today) return "The end date cannot be in the future.";
  const bad = parseSymbols(options.symbols).find((s) => !/^[A-Z][A-Z0-9.-]{0,9}$/.test(s));
  if (bad) return `"${bad}" is not a ticker symbol.`;
  return null;
}

/** The request body: only the options that are set (every field of the contract is optional). */
export function toBacktestRequest(options: BacktestOptions): BacktestRequest {
  const body: BacktestRequest = {};
  if (options.startDate) body.startDate = options.startDate;
  if (options.endDate) body.endDate = options.endDate;
  const symbols = parseSymbols(options.symbols);
  if (symbols.length > 0) body.symbols = symbols;
  if (options.strategies.length > 0) body.strategies = [...options.strategies];
  return body;
}
