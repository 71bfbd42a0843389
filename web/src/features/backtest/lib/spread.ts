import type { TradeView } from "@/lib/api/models";
import { formatContractPrice } from "@/lib/format";

/**
 * Premium's vertical spreads (`BacktestRequest.spreadWidth`): the short strike this many percent
 * of the long strike further out of the money. The form takes percent; the request a fraction
 * (the server accepts 0.01–0.5 and names `spreadWidth` when it refuses one).
 */
export const SPREAD_WIDTH = { defaultPercent: 5, minPercent: 1, maxPercent: 50, step: 0.5 } as const;

export const DEFAULT_SPREAD_WIDTH = String(SPREAD_WIDTH.defaultPercent);

/** What is wrong with the width as typed (percent), or null. */
export function spreadWidthIssue(text: string): string | null {
  const trimmed = text.trim();
  const value = Number(trimmed);
  const range = `between ${SPREAD_WIDTH.minPercent}% and ${SPREAD_WIDTH.maxPercent}%`;
  if (trimmed === "" || !Number.isFinite(value)) return `Enter the spread width in percent, ${range}.`;
  if (value < SPREAD_WIDTH.minPercent || value > SPREAD_WIDTH.maxPercent) return `The spread width must be ${range}.`;
  return null;
}

/** "5" (percent) → 0.05, the request's fraction (call after `spreadWidthIssue` found nothing). */
export function spreadWidthFraction(text: string): number {
  return Number((Number(text.trim()) / 100).toFixed(6));
}

/** 0.05 → "5%", 0.125 → "12.5%". */
export function spreadWidthLabel(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/**
 * A vertical spread's legs, long strike first: { strikes: "$105.00 / $110.25", kind: "call
 * spread" }; null for a trade of a single contract (a straddle is never a spread).
 */
export function spreadLegs(trade: Pick<TradeView, "signalType" | "strike" | "shortStrike">): { strikes: string; kind: string } | null {
  if (trade.shortStrike == null || trade.strike == null) return null;
  if (trade.signalType !== "CALL" && trade.signalType !== "PUT") return null;
  return {
    strikes: `${formatContractPrice(trade.strike)} / ${formatContractPrice(trade.shortStrike)}`,
    kind: trade.signalType === "CALL" ? "call spread" : "put spread",
  };
}
