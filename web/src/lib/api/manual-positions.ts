import type { QueryClient } from "@tanstack/react-query";
import { formatScore } from "@/lib/format";
import { queryKeys } from "@/lib/query-keys";
import { api, dataOf } from "./client";
import type { ManualPosition, NewManualPosition, PositionSignal, Signal } from "./models";

/**
 * Adding a manual position is shared by two features: the portfolio's Add Manual Position
 * form and the signal detail dialog's "Add to Portfolio" button (features do not import each
 * other). Both post here and refresh the same queries afterwards.
 */

/** POST /api/manual-positions → 201 ManualPosition; 422 with field errors. */
export function createManualPosition(body: NewManualPosition): Promise<ManualPosition> {
  return dataOf(api.POST("/api/manual-positions", { body }));
}

/** After a position is added, refetches the manual positions and the portfolio figures. */
export function refreshAfterAdd(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.manualPositions.all() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.metrics() });
}

/**
 * What a signal (or an automated position's signal) offers to copy into a manual position:
 * the contract, and what the reasoning and entry price are made from.
 */
export type SignalLike = Pick<NewManualPosition, "symbol" | "companyName" | "type" | "strikePrice" | "expirationDate"> & {
  /** The rule that issued it: a house rule, "Custom" (one of the user's own), or none. */
  strategy: Signal["strategy"] | PositionSignal["strategy"];
  /** The name of the user's custom strategy that issued it (`strategy` "Custom"), when known. */
  strategyName?: string | null;
  confidence: PositionSignal["confidence"];
  /** The option's premium per share at entry. */
  entryPrice?: Signal["entryPrice"];
  /** The option's premium per share now. */
  currentOptionPrice?: Signal["currentOptionPrice"];
  /** The underlying now. */
  currentPrice?: Signal["currentPrice"] | null;
};

const positive = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value) && value > 0;

/** Dollars to whole cents, at least one cent (the server takes prices > 0 with two decimals). */
const cents = (value: number) => Math.max(0.01, Math.round(value * 100) / 100);

/**
 * The entry price copied from a signal: the signal's entry price,
 * else the option's current price, else the current price or the strike, else 1.
 */
export function entryPriceFor(signal: Pick<SignalLike, "entryPrice" | "currentOptionPrice" | "currentPrice" | "strikePrice">): number {
  const candidates = [signal.entryPrice, signal.currentOptionPrice, signal.currentPrice, signal.strikePrice];
  const found = candidates.find(positive);
  return found === undefined ? 1 : cents(found);
}

/** "Momentum strategy signal", "Custom strategy “Oversold bounce” signal" (or without the name when unknown), "Signal". */
function strategyText({ strategy, strategyName }: Pick<SignalLike, "strategy" | "strategyName">): string {
  if (!strategy) return "Signal";
  if (strategy === "Custom" && strategyName) return `Custom strategy “${strategyName}” signal`;
  return `${strategy} strategy signal`;
}

/**
 * "Momentum strategy signal, strength 78/100": the signal's `confidence` is a heuristic score,
 * not a probability, so it is written as a score, never as a percentage.
 */
export function signalReasoning(signal: Pick<SignalLike, "strategy" | "strategyName" | "confidence">): string {
  const strategy = strategyText(signal);
  return signal.confidence == null ? strategy : `${strategy}, strength ${formatScore(signal.confidence)}`;
}

/**
 * The body that adds a signal to the user's manual positions:
 * one contract, open, at the entry price above, with a reasoning that names the strategy
 * and the strength. `prefix` starts the reasoning ("Added from automated signal").
 */
export function manualPositionFromSignal(signal: SignalLike, prefix?: string): NewManualPosition {
  const reasoning = signalReasoning(signal);
  return {
    symbol: signal.symbol,
    companyName: signal.companyName,
    type: signal.type,
    strikePrice: signal.strikePrice,
    expirationDate: signal.expirationDate,
    quantity: 1,
    status: "open",
    entryPrice: entryPriceFor(signal),
    reasoning: prefix ? `${prefix}: ${reasoning}` : reasoning,
  };
}
