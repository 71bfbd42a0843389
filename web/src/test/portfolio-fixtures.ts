import { STRATEGIES } from "@/lib/api/enums";
import type {
  HeldStructureView,
  ManualPosition,
  Optimisation,
  OverallBacktest,
  PortfolioAnalysis,
  PortfolioPosition,
  PositionDetail,
  ProposedPosition,
  StrategyBacktest,
} from "@/lib/api/models";

let seq = 0;
const uuid = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const day = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * 86_400_000).toISOString().slice(0, 10);

/** A manual position as GET /api/manual-positions lists it. */
export function makeManualPosition(overrides: Partial<ManualPosition> = {}): ManualPosition {
  seq += 1;
  return {
    id: uuid(seq),
    userId: "7d0f3f5e-4f7c-4b44-9d1e-2b1c2f2a9a10",
    symbol: "MSFT",
    companyName: "Microsoft Corporation",
    type: "PUT",
    strikePrice: 400,
    expirationDate: "2026-12-18",
    quantity: 3,
    entryPrice: 5.1,
    currentPrice: 4.2,
    underlyingPrice: 412.5,
    targetPrice: null,
    stopLoss: 2.5,
    reasoning: "Hedge against a pullback.",
    pnl: -270,
    pnlPercent: -17.647,
    status: "open",
    isActive: true,
    createdAt: "2026-11-20T15:00:00Z",
    updatedAt: "2026-11-20T15:00:00Z",
    ...overrides,
  };
}

/**
 * A multi-leg position as GET /api/portfolio/structures lists it: by default an open AAPL
 * iron condor (95/90 puts, 110/115 calls) opened for a $150.00 credit, valued now.
 */
export function makeHeldStructure(overrides: Partial<HeldStructureView> = {}): HeldStructureView {
  seq += 1;
  return {
    id: uuid(seq),
    symbol: "AAPL",
    name: "AAPL iron condor",
    template: "iron-condor",
    exercise: "american",
    status: "open",
    legs: [
      { instrument: "put", side: "short", quantity: 1, strike: 95, expirationDate: "2026-12-18", volatility: 0.28, entryPrice: 2.1 },
      { instrument: "put", side: "long", quantity: 1, strike: 90, expirationDate: "2026-12-18", volatility: 0.3, entryPrice: 1.05 },
      { instrument: "call", side: "short", quantity: 1, strike: 110, expirationDate: "2026-12-18", volatility: 0.26, entryPrice: 1.3 },
      { instrument: "call", side: "long", quantity: 1, strike: 115, expirationDate: "2026-12-18", volatility: 0.25, entryPrice: 0.85 },
    ],
    createdAt: "2026-11-20T15:00:00Z",
    firstExpiration: "2026-12-18",
    netPremium: -150,
    currentValue: -90,
    pnl: 60,
    returnOnRiskPercent: 17.142857,
    capitalAtRisk: 350,
    daysToExpiry: 20,
    greeks: { delta: -3.25, gamma: -0.01234, theta: 4.5, vega: -12.3, rho: -1.1 },
    atExpiry: {
      maxProfit: { unbounded: false, pnl: 150, spot: 100 },
      maxLoss: { unbounded: false, pnl: -350, spot: 85 },
      breakevens: [93.5, 111.5],
      profitableRanges: [{ from: 93.5, to: 111.5 }],
      probabilityOfProfit: 0.61234,
    },
    settledPrice: null,
    closedAt: null,
    ...overrides,
  };
}

/** The iron condor of `makeHeldStructure`, settled at its expiration: no Greeks nor payoff any more. */
export function makeExpiredHeldStructure(overrides: Partial<HeldStructureView> = {}): HeldStructureView {
  return makeHeldStructure({
    name: "AAPL condor, November",
    status: "expired",
    firstExpiration: "2026-11-20",
    legs: makeHeldStructure().legs.map((l) => ({ ...l, expirationDate: "2026-11-20" })),
    currentValue: 0,
    pnl: 150,
    returnOnRiskPercent: 42.857143,
    daysToExpiry: 0,
    greeks: null,
    atExpiry: null,
    settledPrice: 101.37,
    closedAt: "2026-11-20T21:00:00Z",
    ...overrides,
  });
}

/** An automated position as GET /api/portfolio/positions lists it. */
export function makePortfolioPosition(overrides: Partial<PortfolioPosition> = {}): PortfolioPosition {
  seq += 1;
  return {
    id: uuid(seq),
    quantity: 2,
    entryPrice: 3.2,
    currentValue: 730,
    unrealizedPnl: 90,
    unrealizedPnlPercent: 14.0625,
    daysHeld: 21,
    status: "open",
    signal: { type: "CALL", symbol: "AAPL", companyName: "Apple Inc.", strikePrice: 250 },
    ...overrides,
  };
}

/** `n` automated positions with symbols SYM1…SYMn. */
export function makePortfolioPositions(n: number, overrides: Partial<PortfolioPosition> = {}): PortfolioPosition[] {
  return Array.from({ length: n }, (_, i) =>
    makePortfolioPosition({
      signal: { type: "CALL", symbol: `SYM${i + 1}`, companyName: `Company ${i + 1}`, strikePrice: 100 + i },
      ...overrides,
    }),
  );
}

/** GET /api/portfolio/position/{id} (or the manual one). */
export function makePositionDetail(overrides: Partial<PositionDetail> = {}): PositionDetail {
  seq += 1;
  return {
    id: uuid(seq),
    kind: "automated",
    signal: {
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      strategy: "Momentum",
      confidence: 78,
      currentOptionPrice: 3.65,
      currentPrice: 248.1,
      targetPrice: 4.8,
      reasoning: "Price broke above the 20-day high on rising volume.",
    },
    quantity: 2,
    entryPrice: 3.2,
    entryDate: "2026-11-02",
    totalCost: 640,
    currentValue: 730,
    unrealizedPnl: 90,
    unrealizedPnlPercent: 14.0625,
    daysHeld: 21,
    status: "open",
    greeks: { delta: 1.0412345, gamma: 0.03125, theta: -0.214567, vega: 0.8123, rho: 0.1 },
    riskMetrics: { maxLoss: 640, maxGain: null, breakeven: [253.2], positionSize: 6.4, probabilityOfProfit: 0.412, riskRewardRatio: null },
    performance: { totalReturn: 14.06, annualizedReturn: 92.4, sharpeRatio: 1.42, dailyReturn: 0.6263, volatility: 31.2 },
    payoff: Array.from({ length: 41 }, (_, i) => {
      const price = 200 + i * 2.5;
      const expiry = (Math.max(price - 250, 0) - 3.2) * 200;
      return { price, expiry, today: expiry + 80 };
    }),
    ...overrides,
  };
}

/** GET /api/portfolio/metrics for a portfolio with some history. */
export function makePortfolioMetrics(overrides: Partial<PortfolioAnalysis> = {}): PortfolioAnalysis {
  return {
    summary: {
      totalValue: 12_450.32,
      totalPnlPercent: 8.4567,
      netPnl: 965.4,
      winRate: 62.5,
      openPositions: 10,
      closedPositions: 8,
      avgHoldingPeriod: 6.43,
      profitFactor: 1.84,
      largestWin: 420,
      largestLoss: -310.5,
      consecutiveWins: 3,
      totalCommissions: 23.4,
    },
    metrics: { sharpeRatio: 1.234, calmarRatio: null, maxDrawdown: -0.0834, recoveryFactor: 2.1, volatility: 0.2234 },
    riskAssessment: {
      riskLevel: "moderate",
      riskScore: 46,
      riskFactors: ["Three positions in technology (62% of value)"],
      recommendations: ["Spread new positions across more sectors"],
    },
    history: Array.from({ length: 30 }, (_, i) => ({ date: day(i), value: 11_000 + i * 40 })),
    ...overrides,
  };
}

/** GET /api/portfolio/metrics for an account with no position at all. */
export function makeEmptyPortfolioMetrics(): PortfolioAnalysis {
  const metrics = makePortfolioMetrics();
  return {
    summary: {
      ...metrics.summary,
      totalValue: 0,
      totalPnlPercent: 0,
      netPnl: 0,
      winRate: null,
      openPositions: 0,
      closedPositions: 0,
      avgHoldingPeriod: null,
      profitFactor: null,
      largestWin: 0,
      largestLoss: 0,
      consecutiveWins: 0,
      totalCommissions: 0,
    },
    metrics: { sharpeRatio: null, calmarRatio: null, maxDrawdown: null, recoveryFactor: null, volatility: null },
    riskAssessment: { riskLevel: "low", riskScore: 0, riskFactors: [], recommendations: [] },
    history: [],
  };
}

/** POST /api/backtest */
export function makeOverallBacktest(overrides: Partial<OverallBacktest> = {}): OverallBacktest {
  const equityCurve = Array.from({ length: 40 }, (_, i) => ({ date: day(i), equity: 10_000 + i * 45 - (i % 7) * 30 }));
  let peak = 0;
  const drawdown = equityCurve.map((p) => {
    peak = Math.max(peak, p.equity);
    return { date: p.date, drawdown: p.equity / peak - 1 };
  });
  return {
    totalTrades: 3,
    winRate: 66.667,
    totalPnl: 1840.5,
    avgHoldingPeriod: 9.36,
    profitFactor: 1.92,
    sharpeRatio: 1.31,
    maxDrawdown: -0.0834,
    recoveryFactor: null,
    startDate: "2025-11-24",
    endDate: "2026-11-23",
    symbols: 50,
    initialCapital: 10_000,
    lockedTrades: 0,
    finalEquity: 11_840.5,
    equityCurve,
    drawdown,
    trades: [
      {
        symbol: "AAPL",
        strategy: "Momentum",
        signalType: "CALL",
        strike: 250,
        expiration: "2026-03-20",
        entryDate: "2026-02-02",
        exitDate: "2026-02-20",
        entryPrice: 3.2,
        exitPrice: 4.8,
        contracts: 1,
        commissions: 1.3,
        pnl: 158.7,
        outcome: "target",
        confidence: 78,
        locked: false,
      },
      {
        symbol: "=HYPE",
        strategy: "Breakout",
        signalType: "PUT",
        strike: 120,
        expiration: "2026-05-15",
        entryDate: "2026-04-01",
        exitDate: "2026-04-09",
        entryPrice: 2.1,
        exitPrice: 1.05,
        contracts: 2,
        commissions: 2.6,
        pnl: -212.6,
        outcome: "stop",
        confidence: 64,
        locked: false,
      },
      {
        symbol: "NVDA",
        strategy: "Volatility",
        signalType: "STRADDLE",
        strike: 180,
        expiration: "2026-12-18",
        entryDate: "2026-11-02",
        exitDate: "2026-11-23",
        entryPrice: 12.4,
        exitPrice: 14.9,
        contracts: 1,
        commissions: 0.65,
        pnl: 250,
        outcome: "open",
        confidence: 71,
        locked: false,
      },
    ],
    ...overrides,
  };
}

/** POST /api/backtest/strategy */
export function makeStrategyBacktests(): StrategyBacktest[] {
  return STRATEGIES.map((strategy, k) => ({
    strategy,
    summary: {
      totalTrades: 10 + k,
      winRate: 50 + k * 5,
      totalPnl: k % 2 ? -(400 + k * 100) : 400 + k * 100,
      avgPnl: k % 2 ? -(40 + k) : 40 + k,
      winningTrades: 5 + k,
      losingTrades: 5,
      profitFactor: k === 3 ? null : 1.2 + k * 0.2,
    },
    equityCurve: Array.from({ length: 20 }, (_, i) => ({ date: day(i), equity: 10_000 + (k % 2 ? -1 : 1) * i * 20 })),
  }));
}

/**
 * POST /api/portfolio/optimise for a $100,000 account with a $5,000 maximum position and
 * $10,000 of premium open: two positions (AAPL by the model's chance, NVDA by its strategy's
 * track record) and one signal left out for want of a checked chance.
 */
export function makeOptimisation(overrides: Partial<Optimisation> = {}): Optimisation {
  const positions: ProposedPosition[] = [
    {
      signalId: "20000000-0000-4000-8000-000000000001",
      symbol: "AAPL",
      strategy: "Momentum",
      type: "CALL",
      strikePrice: 195,
      expirationDate: "2026-12-18",
      contracts: 4,
      premium: 3.2,
      cost: 1287.6,
      probability: 0.6,
      probabilitySource: "model",
      expectedPnl: 412.5,
      deltaDollars: 38_400.25,
      vega: 96.4,
    },
    {
      signalId: "20000000-0000-4000-8000-000000000002",
      symbol: "NVDA",
      strategy: "Mean Reversion",
      type: "PUT",
      strikePrice: 170,
      expirationDate: "2027-01-15",
      contracts: 2,
      premium: 5.5,
      cost: 1101.3,
      probability: 0.5634,
      probabilitySource: "track_record",
      expectedPnl: 120,
      deltaDollars: -14_200,
      vega: 41.1,
    },
  ];
  return {
    limits: {
      budget: 15_000,
      maxPositionCost: 5_000,
      maxPerSymbol: 6_250,
      maxPerStrategy: 12_500,
      delta: [-50_000, 50_000],
      vega: [-200, 200],
    },
    positions,
    candidates: 5,
    leftOut: [
      {
        signalId: "20000000-0000-4000-8000-000000000003",
        symbol: "TSLA",
        reason: "No checked chance yet: the model did not score it and its strategy's track record is under the minimum sample.",
      },
    ],
    cost: 2388.9,
    expectedPnl: 532.5,
    deltaBefore: -1_500,
    deltaAfter: 22_700.25,
    vegaBefore: 12,
    vegaAfter: 149.5,
    provenOptimal: true,
    expectedPnlBound: 532.5,
    ...overrides,
  };
}
