import type { ChainContract, ChainRow, OptionChainView } from "@/lib/api/models";
import { parseIsoDate } from "@/lib/calendar";
import { formatShortDate } from "@/lib/dates";
import { formatCount, NO_VALUE } from "@/lib/format";
import { type ChainPick, formatIv, type OptionRight } from "@/lib/options";

/** The strike nearest the underlying's price (the lower of two as near); null without rows. */
export function atTheMoneyStrike(rows: readonly ChainRow[], underlying: number): number | null {
  let best: number | null = null;
  for (const { strike } of rows) {
    if (best === null || Math.abs(strike - underlying) < Math.abs(best - underlying) - 1e-9) best = strike;
  }
  return best;
}

/** Whether a contract is in the money: a call struck below the price, a put above it. */
export function inTheMoney(right: OptionRight, strike: number, underlying: number): boolean {
  return right === "call" ? strike < underlying : strike > underlying;
}

const hasValue = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value);

/** A quote per share, US dollars, as a chain shows it: "6.62" (the caption names the unit); "—" without one. */
export function formatQuote(value: number | null | undefined): string {
  return hasValue(value) ? value.toFixed(2) : NO_VALUE;
}

/** A Greek with `digits` decimals ("0.50", "-0.27"), never "-0.00"; "—" without one. */
export function formatGreek(value: number | null | undefined, digits = 2): string {
  if (!hasValue(value)) return NO_VALUE;
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** Open interest as a count ("17,147"); "—" without one. */
export function formatOpenInterest(value: number | null | undefined): string {
  return hasValue(value) ? formatCount(value) : NO_VALUE;
}

/** Whole calendar days from `today` to `expiration` (both YYYY-MM-DD); null for a malformed date. */
export function daysToExpiration(expiration: string, today: string): number | null {
  const end = parseIsoDate(expiration);
  const start = parseIsoDate(today);
  if (!end || !start) return null;
  return Math.round((end.getTime() - start.getTime()) / 86_400_000);
}

/** An expiration as the select lists it: "Dec 18, 2026 · 20 days" ("· today", "· 1 day"). */
export function expirationLabel(expiration: string, today: string): string {
  const days = daysToExpiration(expiration, today);
  const date = formatShortDate(expiration);
  if (days === null || days < 0) return date;
  return `${date} · ${days === 0 ? "today" : days === 1 ? "1 day" : `${days} days`}`;
}

const PROVIDERS: Record<string, string> = { simulated: "Simulated market", polygon: "Polygon.io" };

/** Who quoted the chain, as users read it: "Simulated market" (`simulated`), "Polygon.io" (`polygon`), else as sent. */
export function providerName(provider: string): string {
  return PROVIDERS[provider] ?? provider;
}

/** One column of a side of the chain: what it shows and how it is named. */
export type ChainColumn = {
  key: "bid" | "ask" | "impliedVolatility" | "delta" | "openInterest" | "gamma" | "theta" | "vega";
  /** The header's text. */
  label: string;
  /** The header as said to screen readers and on hover, after "Call" or "Put". */
  long: string;
  format: (contract: ChainContract) => string;
  /** Only with the Greeks shown. */
  greek?: boolean;
};

/** A put's columns from the strike outwards; a call's are the same mirrored, bid and ask kept next to the strike. */
export const CHAIN_COLUMNS: readonly ChainColumn[] = [
  { key: "bid", label: "Bid", long: "bid", format: (c) => formatQuote(c.bid) },
  { key: "ask", label: "Ask", long: "ask", format: (c) => formatQuote(c.ask) },
  { key: "impliedVolatility", label: "IV", long: "implied volatility", format: (c) => formatIv(c.impliedVolatility) },
  { key: "delta", label: "Delta", long: "delta", format: (c) => formatGreek(c.delta) },
  { key: "openInterest", label: "OI", long: "open interest", format: (c) => formatOpenInterest(c.openInterest) },
  { key: "gamma", label: "Gamma", long: "gamma", format: (c) => formatGreek(c.gamma, 4), greek: true },
  { key: "theta", label: "Theta", long: "theta, dollars per day", format: (c) => formatGreek(c.theta, 3), greek: true },
  { key: "vega", label: "Vega", long: "vega, dollars per volatility point", format: (c) => formatGreek(c.vega, 3), greek: true },
];

/** The columns of one side, in the order they stand left to right. */
export function sideColumns(right: OptionRight, greeks: boolean): ChainColumn[] {
  const shown = CHAIN_COLUMNS.filter((c) => greeks || !c.greek);
  if (right === "put") return shown;
  const [bid, ask, ...rest] = shown;
  return [...rest.reverse(), bid, ask];
}

/**
 * What choosing a contract's quote adds to a position: buying at the ask, selling at the bid.
 * Null when the contract is not listed or has no such quote.
 */
export function pickOf(
  chain: Pick<OptionChainView, "symbol" | "expiration">,
  row: ChainRow,
  right: OptionRight,
  side: ChainPick["side"],
): ChainPick | null {
  const contract = row[right];
  const price = side === "long" ? contract?.ask : contract?.bid;
  if (!contract || !hasValue(price)) return null;
  return {
    symbol: chain.symbol,
    right,
    side,
    strike: row.strike,
    expiration: chain.expiration,
    price,
    impliedVolatility: hasValue(contract.impliedVolatility) ? contract.impliedVolatility : null,
  };
}
