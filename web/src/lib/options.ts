import type { OptionRight, Side, StockPrice } from "./api/models";
import { formatShortDate } from "./dates";
import { formatContractPrice, NO_VALUE } from "./format";

/**
 * The options pieces more than one feature needs (features do not import each other): how an
 * implied volatility and an IV rank read (the market overview, the signals, the options view),
 * and what a pick from an option chain carries to the strategy builder. docs/options.md.
 */

/**
 * Recorded sessions of the last year IV rank and IV percentile need; the server hides both
 * below it (the history answers it as `minimumSessions`, with the reason in its words).
 */
export const IV_RANK_MINIMUM_SESSIONS = 200;

/** Why a stock's IV rank reads "—", said to screen readers and shown on hover. */
export const IV_RANK_NEEDS = `IV rank needs ${IV_RANK_MINIMUM_SESSIONS} recorded sessions`;

const finite = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * An implied volatility (a fraction per year, 0.2534) as a percentage with one decimal
 * ("25.3%", or `digits`); "—" without a reading. A volatility, not a probability.
 */
export function formatIv(fraction: number | null | undefined, digits = 1): string {
  return finite(fraction) ? `${(fraction * 100).toFixed(digits)}%` : NO_VALUE;
}

/**
 * An IV rank or IV percentile (0–100) as a whole number ("43"); "—" while it is hidden.
 * Neither is a chance, so neither carries a "%" (docs/decisions.md#20-a-percentage-is-a-probability).
 */
export function formatIvScore(value: number | null | undefined): string {
  return finite(value) ? String(Math.round(value)) : NO_VALUE;
}

/** What a stock row or a signal shows of its symbol's volatility. */
export type IvFigures = Pick<StockPrice, "impliedVolatility" | "ivRank" | "ivPercentile">;

/**
 * The figures spoken in full: "Implied volatility 25.3%, IV rank 43, IV percentile 67", or
 * "…, IV rank needs 200 recorded sessions" while the rank is hidden.
 */
export function describeIv({ impliedVolatility, ivRank, ivPercentile }: IvFigures): string {
  const iv = finite(impliedVolatility) ? `Implied volatility ${formatIv(impliedVolatility)}` : "No implied volatility reading";
  if (!finite(ivRank)) return `${iv}, ${IV_RANK_NEEDS}`;
  const percentile = finite(ivPercentile) ? `, IV percentile ${formatIvScore(ivPercentile)}` : "";
  return `${iv}, IV rank ${formatIvScore(ivRank)}${percentile}`;
}

/** A contract's right (the schema's `OptionRight`): what the builder calls the leg's instrument. */
export type { OptionRight };

/**
 * A contract chosen from a chain: bought at the ask (`long`) or sold at the bid (`short`),
 * with the chain's implied volatility (a fraction; null when the provider has none).
 */
export type ChainPick = {
  symbol: string;
  right: OptionRight;
  side: Side;
  strike: number;
  /** YYYY-MM-DD */
  expiration: string;
  /** Dollars per share: the ask for a buy, the bid for a sale. */
  price: number;
  impliedVolatility: number | null;
};

/**
 * What a chain picker takes: the symbol, what to do with a pick, and whether picks are
 * refused (`disabled`, with the reason shown by the picker's host).
 */
export type ChainPickerProps = {
  symbol: string;
  onPick: (pick: ChainPick) => void;
  disabled?: boolean;
};

/** The options view of a tracked stock: its chain and its implied-volatility history. */
export function stockOptionsPath(symbol: string): string {
  return `/stocks/${encodeURIComponent(symbol)}/options`;
}

/**
 * A pick in words: "Buy the AAPL Dec 18, 2026 $250.00 call at the ask, $3.10". Prices stay in
 * US dollars (contract terms are never converted).
 */
export function describePick(pick: ChainPick): string {
  const verb = pick.side === "long" ? "Buy" : "Sell";
  const quote = pick.side === "long" ? "ask" : "bid";
  return `${verb} the ${pick.symbol} ${formatShortDate(pick.expiration)} ${formatContractPrice(pick.strike)} ${pick.right} at the ${quote}, ${formatContractPrice(pick.price)}`;
}
