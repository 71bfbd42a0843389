/**
 * The backtest API as the issue-5 contract gives it (hand-written until the server's
 * OpenAPI document lists these endpoints). Money in dollars, dates YYYY-MM-DD.
 *
 * Units the contract leaves implicit, read as follows (one place to change if the server
 * differs): `winRate` is a percentage (0–100, as issue 4's win rate); `maxDrawdown` is a
 * fraction ≤ 0 like the `drawdown` series it is the minimum of (−0.12 is −12%).
 */

export const BACKTEST_STRATEGIES = ["Momentum", "Mean Reversion", "Breakout", "Volatility"] as const;
export type BacktestStrategy = (typeof BACKTEST_STRATEGIES)[number];

/** Request body of both runs; every field optional and left out when not set. */
export type BacktestRequest = {
  startDate?: string;
  endDate?: string;
  symbols?: string[];
  strategies?: string[];
  /** Custom strategy parameters: Premium only. */
  params?: Record<string, number>;
};

export type EquityPoint = { date: string; equity: number };
export type DrawdownPoint = { date: string; drawdown: number };

export type TradeOutcome = "target" | "stop" | "expiry" | "open";

export type BacktestTrade = {
  symbol: string;
  strategy: string;
  signalType: string;
  strike: number;
  expiration: string;
  entryDate: string;
  exitDate: string | null;
  /** Premium per share. */
  entryPrice: number;
  exitPrice: number | null;
  contracts: number;
  commissions: number;
  pnl: number;
  outcome: TradeOutcome;
  /** Percent. */
  confidence: number;
};

/** POST /api/backtest */
export type OverallBacktest = {
  totalTrades: number;
  /** Percent. */
  winRate: number;
  totalPnl: number;
  /** Days. */
  avgHoldingPeriod: number;
  profitFactor: number | null;
  sharpeRatio: number | null;
  /** Fraction ≤ 0. */
  maxDrawdown: number;
  recoveryFactor: number | null;
  startDate: string;
  endDate: string;
  /** How many symbols were tested. */
  symbols: number;
  initialCapital: number;
  equityCurve: EquityPoint[];
  drawdown: DrawdownPoint[];
  trades: BacktestTrade[];
};

/** One item of POST /api/backtest/strategy */
export type StrategyBacktest = {
  strategy: string;
  summary: {
    totalTrades: number;
    /** Percent. */
    winRate: number;
    totalPnl: number;
    avgPnl: number;
    winningTrades: number;
    losingTrades: number;
    profitFactor: number | null;
  };
  equityCurve: EquityPoint[];
};
