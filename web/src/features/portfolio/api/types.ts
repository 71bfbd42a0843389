/**
 * The portfolio API as the issue-5 contract gives it (hand-written until the server's
 * OpenAPI document lists these endpoints). Money in dollars, dates YYYY-MM-DD, instants
 * RFC 3339. Option prices are per share; a contract is 100 shares.
 *
 * Units the contract leaves implicit, as the server's OpenAPI document and code give them:
 * fields named `…Percent`, `winRate`, `positionSize`, `riskScore` and a position's
 * `performance` figures (returns and volatility) are percentages (12.5 is 12.5%);
 * `probabilityOfProfit` (0–1) and the portfolio's `maxDrawdown` (≤ 0) and `volatility`
 * are fractions (−0.12 is −12%).
 */
import type { ManualPosition, NewManualPosition, PositionStatus, PositionType } from "@/lib/api/manual-positions";

export type { ManualPosition, NewManualPosition, PositionStatus, PositionType };

/** GET /api/portfolio/positions → PortfolioPosition[] (open first, then newest). */
export type PortfolioPosition = {
  id: string;
  /** Contracts. */
  quantity: number;
  /** Premium paid per share. */
  entryPrice: number;
  /** The whole position's value now, dollars. */
  currentValue: number;
  unrealizedPnl: number;
  /** Percent. */
  unrealizedPnlPercent: number;
  daysHeld: number;
  status: PositionStatus;
  signal: { type: PositionType; symbol: string; companyName: string; strikePrice: number };
};

export type Greeks = { delta: number; gamma: number; theta: number; vega: number; rho: number };

export type RiskMetrics = {
  /** Dollars. */
  maxLoss: number;
  /** Dollars; null when unlimited. */
  maxGain: number | null;
  /** Underlying prices. */
  breakeven: number[];
  /** Percent of the user's investment capital; null when it cannot be said. */
  positionSize: number | null;
  /** 0–1. */
  probabilityOfProfit: number;
  riskRewardRatio: number | null;
};

export type PositionPerformance = {
  /** Percent since entry. */
  totalReturn: number;
  /** Percent; null before a full day. */
  annualizedReturn: number | null;
  sharpeRatio: number | null;
  /** Percent, average per calendar day; null before a full day. */
  dailyReturn: number | null;
  /** Percent, annualised. */
  volatility: number | null;
};

/** P&L of the whole position at one underlying price, at expiry and today. */
export type PositionPayoffPoint = { price: number; expiry: number; today: number };

/** GET /api/portfolio/position/{id} and GET /api/manual-positions/{id}. */
export type PositionDetail = {
  id: string;
  kind: "automated" | "manual";
  signal: {
    symbol: string;
    companyName: string;
    type: PositionType;
    strikePrice: number;
    expirationDate: string;
    strategy: string | null;
    /** Percent; null for a manual position. */
    confidence: number | null;
    /** The option's premium per share now. */
    currentOptionPrice: number | null;
    /** The underlying now. */
    currentPrice: number | null;
    targetPrice: number | null;
    reasoning: string | null;
  };
  quantity: number;
  /** Premium paid per share. */
  entryPrice: number;
  entryDate: string;
  totalCost: number;
  currentValue: number;
  unrealizedPnl: number;
  /** Percent. */
  unrealizedPnlPercent: number;
  daysHeld: number;
  status: PositionStatus;
  /** Of the whole position; shown to 4 decimals. */
  greeks: Greeks;
  riskMetrics: RiskMetrics;
  performance: PositionPerformance;
  payoff: PositionPayoffPoint[];
};

export type RiskLevel = "low" | "moderate" | "high";

/** GET /api/portfolio/metrics */
export type PortfolioMetrics = {
  summary: {
    totalValue: number;
    /** Percent. */
    totalPnlPercent: number;
    /** After commissions. */
    netPnl: number;
    /** Percent; null with no closed position. */
    winRate: number | null;
    openPositions: number;
    closedPositions: number;
    /** Days. */
    avgHoldingPeriod: number | null;
    profitFactor: number | null;
    largestWin: number;
    largestLoss: number;
    consecutiveWins: number;
    totalCommissions: number;
  };
  /** Each null while there is too little history. */
  metrics: {
    sharpeRatio: number | null;
    calmarRatio: number | null;
    /** Fraction ≤ 0. */
    maxDrawdown: number | null;
    recoveryFactor: number | null;
    /** Fraction, annualised. */
    volatility: number | null;
  };
  riskAssessment: {
    riskLevel: RiskLevel;
    /** 0–100. */
    riskScore: number;
    riskFactors: string[];
    recommendations: string[];
  };
  /** Daily portfolio value snapshots. */
  history: { date: string; value: number }[];
};
