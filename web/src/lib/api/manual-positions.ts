import type { QueryClient } from "@tanstack/react-query";
import { apiJson } from "./client";

/**
 * Adding a manual position is shared by two features: the portfolio's Add Manual Position
 * form and the signal detail dialog's "Add to Portfolio" button (features do not import each
 * other). Both post here and refresh the same queries afterwards. Issue-5 contract, typed by
 * hand until the server's OpenAPI document lists these endpoints.
 */

export const POSITION_TYPES = ["CALL", "PUT", "STRADDLE"] as const;
export type PositionType = (typeof POSITION_TYPES)[number];

export type PositionStatus = "open" | "closed" | "expired";

/** POST /api/manual-positions body. Optional fields are left out when empty. */
export type NewManualPosition = {
  symbol: string;
  companyName: string;
  type: PositionType;
  strikePrice: number;
  /** YYYY-MM-DD, today or later. */
  expirationDate: string;
  /** Contracts, integer ≥ 1. */
  quantity: number;
  /** Premium paid per share, dollars. */
  entryPrice: number;
  targetPrice?: number;
  stopLoss?: number;
  reasoning?: string;
  status?: "open";
};

/** The user's own option position, as GET /api/manual-positions lists it. */
export type ManualPosition = {
  id: string;
  userId: string;
  symbol: string;
  companyName: string;
  type: PositionType;
  strikePrice: number;
  expirationDate: string;
  quantity: number;
  /** Premium paid per share. */
  entryPrice: number;
  /** The option's premium per share now (Black–Scholes); null when it cannot be priced. */
  currentPrice: number | null;
  /** The underlying now. */
  underlyingPrice: number | null;
  targetPrice: number | null;
  stopLoss: number | null;
  reasoning: string | null;
  /** (current − entry) × 100 × quantity, dollars. */
  pnl: number;
  /** Percent. */
  pnlPercent: number;
  status: PositionStatus;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

/**
 * Query-key prefixes of the portfolio's reads. Keys start with the endpoint's path, so one
 * prefix reaches a list and its details.
 */
export const PORTFOLIO_QUERY_KEYS = {
  manualPositions: ["/api/manual-positions"],
  metrics: ["/api/portfolio/metrics"],
  positions: ["/api/portfolio/positions"],
  position: ["/api/portfolio/position"],
} as const;

/** POST /api/manual-positions → 201 ManualPosition; 422 with field errors. */
export function createManualPosition(body: NewManualPosition): Promise<ManualPosition> {
  return apiJson<ManualPosition>("POST", "/api/manual-positions", body);
}

/** After a position is added: the manual positions and the portfolio figures (spec section 7). */
export function refreshAfterAdd(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: PORTFOLIO_QUERY_KEYS.manualPositions });
  void queryClient.invalidateQueries({ queryKey: PORTFOLIO_QUERY_KEYS.metrics });
}

/** What a signal (or an automated position's signal) offers to copy into a manual position. */
export type SignalLike = {
  symbol: string;
  companyName: string;
  type: PositionType;
  strikePrice: number;
  expirationDate: string;
  strategy: string | null;
  confidence: number | null;
  /** The option's premium per share at entry. */
  entryPrice?: number | null;
  /** The option's premium per share now. */
  currentOptionPrice?: number | null;
  /** The underlying now. */
  currentPrice?: number | null;
};

const positive = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value) && value > 0;

/** Dollars to whole cents, at least one cent (the server takes prices > 0 with two decimals). */
const cents = (value: number) => Math.max(0.01, Math.round(value * 100) / 100);

/**
 * The entry price copied from a signal (product spec, section 7): the signal's entry price,
 * else the option's current price, else the current price or the strike, else 1.
 */
export function entryPriceFor(signal: Pick<SignalLike, "entryPrice" | "currentOptionPrice" | "currentPrice" | "strikePrice">): number {
  const candidates = [signal.entryPrice, signal.currentOptionPrice, signal.currentPrice, signal.strikePrice];
  const found = candidates.find(positive);
  return found === undefined ? 1 : cents(found);
}

/** "Momentum strategy signal at 78% confidence" */
export function signalReasoning(signal: Pick<SignalLike, "strategy" | "confidence">): string {
  const strategy = signal.strategy ? `${signal.strategy} strategy signal` : "Signal";
  return signal.confidence == null ? strategy : `${strategy} at ${Math.round(signal.confidence)}% confidence`;
}

/**
 * The body that adds a signal to the user's manual positions (product spec, section 7):
 * one contract, open, at the entry price above, with a reasoning that names the strategy
 * and the confidence. `prefix` starts the reasoning ("Added from automated signal").
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
