import { vi } from "vitest";
import type {
  AutomationStatus,
  CustomStrategyView,
  DashboardStats,
  DecileRecord,
  ModelEstimate,
  NotificationList,
  NotificationView,
  PriceAlert,
  RuleLanguage,
  Signal,
  SignalAnalysis,
  SignalPage,
  StockPrice,
} from "@/lib/api/models";
import { makeEmptyPortfolioMetrics } from "./portfolio-fixtures";
import { jsonResponse } from "./utils";
import { makeSubscription } from "./billing-fixtures";
import { makeTradingAccounts } from "./trading-account-fixtures";

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A signal as GET /api/signals answers it. */
export function makeSignal(overrides: Partial<Signal> = {}): Signal {
  seq += 1;
  return {
    id: uuid(seq),
    symbol: "AAPL",
    companyName: "Apple Inc.",
    signalType: "CALL",
    strategy: "Momentum",
    strikePrice: 250,
    expirationDate: "2026-12-18",
    entryPrice: 3.2,
    currentOptionPrice: 3.65,
    currentPrice: 248.1,
    priceChange: 1.92,
    priceChangePercent: 0.78,
    underlyingEntryPrice: 245.3,
    confidence: 78,
    rsi: 61.4,
    volume: 48_250_000,
    pnl: 45,
    pnlPercent: 14.06,
    targetPrice: 4.8,
    stopLoss: 1.6,
    volatility: 0.27,
    reasoning: "Price broke above the 20-day high on rising volume.",
    status: "active",
    isActive: true,
    closeReason: null,
    closedAt: null,
    createdAt: "2026-11-23T14:30:00Z",
    onDemand: false,
    locked: false,
    ...overrides,
  };
}

/**
 * A saved custom strategy as GET /api/strategies/custom lists it: "Oversold bounce" (RSI(14)
 * below 30: a call at the money), its live signals (and their automation) switched off.
 */
export function makeCustomStrategy(overrides: Partial<CustomStrategyView> = {}): CustomStrategyView {
  return {
    id: "5f0c2a51-0000-4000-8000-000000000001",
    name: "Oversold bounce",
    document: {
      version: 1,
      entry: { all: [{ compare: { left: { indicator: { name: "rsi14", barsAgo: 0 } }, is: "below", right: { number: 30 } } }] },
      opens: "CALL",
      strike: { offset: 0 },
      minDays: 30,
      exits: { targetGain: 0.5, stopLoss: 0.3, maxDays: 10 },
    },
    active: false,
    automate: false,
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-21T10:00:00Z",
    ...overrides,
  };
}

/** `n` signals with distinct symbols SYM1…SYMn. */
export function makeSignals(n: number, overrides: Partial<Signal> = {}): Signal[] {
  return Array.from({ length: n }, (_, i) => makeSignal({ symbol: `SYM${i + 1}`, companyName: `Company ${i + 1}`, ...overrides }));
}

/** One page of GET /api/signals; `nextCursor` null on the last page. */
export function signalPage(signals: Signal[], nextCursor: string | null = null): SignalPage {
  return { signals, nextCursor };
}

/**
 * GET /api/signals answered from `all` (already filtered, newest first) as the server pages
 * it: `limit` per page (default 50) from the position `cursor` names; the cursors are "c{index}".
 */
export function signalPageResponse(url: string, all: readonly Signal[]): Response {
  const params = new URL(url, "http://localhost").searchParams;
  const limit = Number(params.get("limit") ?? 50);
  const cursor = params.get("cursor");
  const start = cursor ? Number(cursor.slice(1)) : 0;
  const end = start + limit;
  return jsonResponse(signalPage(all.slice(start, end), end < all.length ? `c${end}` : null));
}

/** Whether `url` is the list GET /api/signals (with any query), not a path below it. */
export const isSignalList = (url: string) => url === "/api/signals" || url.startsWith("/api/signals?");

/** A signal beyond the plan's quota: only its id, symbol, company, strategy and creation time. */
export function makeLockedSignal(overrides: Partial<Signal> = {}): Signal {
  seq += 1;
  return {
    id: uuid(seq),
    symbol: "AAPL",
    companyName: "Apple Inc.",
    strategy: "Momentum",
    createdAt: "2026-11-23T14:30:00Z",
    locked: true,
    ...overrides,
  };
}

/**
 * The strategy's record at this signal's strength (Momentum, 70–79): 47 of 81 won, 58.0%
 * (95% Wilson interval 47.2%–68.2%). Pass a smaller `n` with `hitRate: null` for a thin decile.
 */
export function makeDecileRecord(overrides: Partial<DecileRecord> = {}): DecileRecord {
  return {
    strategy: "Momentum",
    low: 70,
    high: 79,
    n: 81,
    wins: 47,
    hitRate: 47 / 81,
    wilsonLow: 0.47153660142593207,
    wilsonHigh: 0.6816903725170137,
    ...overrides,
  };
}

/** The predictive model's estimate: 57.3% from model 2026-11-20.1, RSI raising it and volatility rank lowering it. */
export function makeModelEstimate(overrides: Partial<ModelEstimate> = {}): ModelEstimate {
  return {
    probability: 0.573,
    version: "2026-11-20.1",
    why: [
      { feature: "rsi", label: "RSI(14)", effect: 0.31 },
      { feature: "volatility_rank", label: "Volatility rank", effect: -0.18 },
      { feature: "days_to_expiry", label: "Days to expiry", effect: 0.07 },
    ],
    ...overrides,
  };
}

/** GET /api/signals/{id}/analysis for a Premium viewer: the charts' data, the three probabilities and the model's estimate. */
export function makeAnalysis(overrides: Partial<SignalAnalysis> = {}): SignalAnalysis {
  const history = Array.from({ length: 90 }, (_, i) => {
    const close = 230 + i * 0.2 + Math.sin(i / 5) * 3;
    const day = new Date(Date.UTC(2026, 7, 1) + i * 86_400_000).toISOString().slice(0, 10);
    return { date: day, open: close - 0.5, high: close + 1, low: close - 1, close, volume: 40_000_000 };
  });
  const payoff = Array.from({ length: 41 }, (_, i) => {
    const price = 200 + i * 2.5;
    const expiry = Math.max(price - 250, 0) * 100 - 320;
    return { price, expiry, today: expiry + 60 };
  });
  return {
    history,
    strike: 250,
    expirationDate: "2026-12-18",
    breakevens: [253.2],
    maxLoss: 320,
    maxGain: null,
    probabilityOfProfit: 0.412,
    probabilityOfProfitAtIssue: 0.387,
    decileRecord: makeDecileRecord(),
    model: makeModelEstimate(),
    modelIncluded: true,
    expectedMove: 11.85,
    underlyingTarget: [256.4],
    underlyingStop: [242.1],
    payoff,
    ...overrides,
  };
}

export function makeStats(overrides: Partial<DashboardStats> = {}): DashboardStats {
  return {
    activeSignals: 12,
    winRate: 64.3,
    closedSignals: 28,
    avgConfidence: 71.5,
    portfolioValue: 10_250.5,
    lastUpdated: new Date().toISOString(),
    changes: {
      activeSignals: { value: 12, label: "vs yesterday", unit: "percent" },
      winRate: { value: 2.3, label: "this week", unit: "points" },
      avgConfidence: { value: -1.2, label: "from last week", unit: "points" },
      portfolioValue: { value: null, label: "today", unit: "percent" },
    },
    ...overrides,
  };
}

export function makeStockPrice(overrides: Partial<StockPrice> = {}): StockPrice {
  seq += 1;
  return {
    id: uuid(seq),
    symbol: "AAPL",
    companyName: "Apple Inc.",
    sector: "Technology",
    currentPrice: 248.1,
    priceChange: 1.92,
    priceChangePercent: 0.78,
    volume: 48_250_000,
    previousClose: 246.18,
    high52Week: 260.1,
    low52Week: 164.08,
    marketCap: 3_700_000_000_000,
    lastUpdated: "2026-11-23T15:00:00Z",
    ...overrides,
  };
}

export function makeAutomationStatus(overrides: Partial<AutomationStatus> = {}): AutomationStatus {
  return {
    isRunning: true,
    ordersHalted: false,
    marketOpen: true,
    lastRunAt: "2026-11-23T15:00:00Z",
    nextSchedules: {
      signalUpdates: "2026-11-23T15:05:00Z",
      newSignals: "2026-11-23T15:30:00Z",
      portfolioStats: "2026-11-23T16:00:00Z",
      endOfDay: "2026-11-23T21:15:00Z",
      preMarket: "2026-11-24T13:00:00Z",
      weekend: "2026-11-28T15:00:00Z",
    },
    ...overrides,
  };
}

/** A notification as GET /api/notifications lists it (unread, written a few minutes ago). */
export function makeNotification(overrides: Partial<NotificationView> = {}): NotificationView {
  seq += 1;
  return {
    id: uuid(seq),
    kind: "price_alert",
    title: "AAPL is above $250.00",
    body: "AAPL traded at $251.20, above your alert at $250.00.",
    link: "/dashboard",
    read: false,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

/** GET /api/notifications for `notifications`, counting the unread ones unless told. */
export function notificationList(
  notifications: NotificationView[],
  unreadCount = notifications.filter((n) => !n.read).length,
): NotificationList {
  return { notifications, unreadCount };
}

/** A price alert as GET /api/price-alerts lists it (active, AAPL above $250). */
export function makePriceAlert(overrides: Partial<PriceAlert> = {}): PriceAlert {
  seq += 1;
  return {
    id: uuid(seq),
    symbol: "AAPL",
    direction: "above",
    targetPrice: 250,
    status: "active",
    createdAt: "2026-11-23T14:30:00Z",
    triggeredAt: null,
    triggeredPrice: null,
    ...overrides,
  };
}

/**
 * The custom-strategy rule language as GET /api/strategies/custom/language answers it: the
 * server's 21 indicators in its order, with its labels and kinds, and its limits.
 */
export function makeRuleLanguage(overrides: Partial<RuleLanguage> = {}): RuleLanguage {
  return {
    version: 1,
    indicators: [
      { name: "close", label: "close", kind: "price" },
      { name: "open", label: "open", kind: "price" },
      { name: "high", label: "high", kind: "price" },
      { name: "low", label: "low", kind: "price" },
      { name: "volume", label: "volume", kind: "volume" },
      { name: "ema20", label: "EMA(20)", kind: "price" },
      { name: "ema50", label: "EMA(50)", kind: "price" },
      { name: "sma20", label: "SMA(20)", kind: "price" },
      { name: "rsi14", label: "RSI(14)", kind: "points" },
      { name: "macd", label: "MACD", kind: "momentum" },
      { name: "macdSignal", label: "MACD signal", kind: "momentum" },
      { name: "macdHistogram", label: "MACD histogram", kind: "momentum" },
      { name: "bollingerUpper", label: "upper Bollinger band", kind: "price" },
      { name: "bollingerLower", label: "lower Bollinger band", kind: "price" },
      { name: "atr14", label: "ATR(14)", kind: "price" },
      { name: "hv20", label: "HV(20)", kind: "volatility" },
      { name: "hvRank", label: "HV rank", kind: "points" },
      { name: "hvPercentile", label: "HV percentile", kind: "points" },
      { name: "priorHigh", label: "prior 20-day high", kind: "price" },
      { name: "priorLow", label: "prior 20-day low", kind: "price" },
      { name: "priorVolumeAverage", label: "prior 20-day average volume", kind: "volume" },
    ],
    maxGroup: 8,
    maxDepth: 3,
    maxConditions: 20,
    maxBarsAgo: 10,
    maxStrategies: 20,
    maxName: 60,
    ranges: { offset: [-10, 10], delta: [0.05, 0.95], days: [1, 365], targetGain: [0.05, 10], stopLoss: [0.05, 0.95] },
    ...overrides,
  };
}

/** A stand-in for EventSource: tests call `emit(name)`; `instances` lists every stream opened. */
export class MockEventSource {
  static instances: MockEventSource[] = [];
  readonly url: string;
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();

  constructor(url: string) {
    this.url = url;
    MockEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.closed = true;
  }

  emit(type: string, data: unknown = { at: new Date().toISOString() }) {
    const event = new MessageEvent(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  static install() {
    MockEventSource.instances = [];
    vi.stubGlobal("EventSource", MockEventSource);
  }
}

/** A blob's text (jsdom's Blob has no text()). */
export function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** Captures files saved through URL.createObjectURL: `texts()` reads them back. */
export function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:mock/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return {
    blobs,
    names,
    texts: () => Promise.all(blobs.map(readBlob)),
    restore: () => click.mockRestore(),
  };
}

/** Answers for the signed-in app's live endpoints: no signals, an empty watchlist, no positions, no orders; undefined for other URLs. */
export function signedInApi(url: string): Response | undefined {
  if (isSignalList(url)) return jsonResponse(signalPage([]));
  if (url.startsWith("/api/signals") || url === "/api/stock-prices") return jsonResponse([]);
  if (url === "/api/stats") return jsonResponse(makeStats({ activeSignals: 0, winRate: null, avgConfidence: null }));
  if (url === "/api/automation/status") return jsonResponse(makeAutomationStatus());
  if (url === "/api/portfolio/positions" || url === "/api/manual-positions" || url === "/api/portfolio/structures") return jsonResponse([]);
  if (url === "/api/portfolio/metrics") return jsonResponse(makeEmptyPortfolioMetrics());
  if (url === "/api/orders") return jsonResponse([]);
  if (url === "/api/billing/subscription") return jsonResponse(makeSubscription());
  if (url === "/api/billing/invoices") return jsonResponse([]);
  if (url === "/api/notifications") return jsonResponse(notificationList([]));
  if (url === "/api/price-alerts") return jsonResponse([]);
  if (url === "/api/strategies/custom") return jsonResponse([]);
  // One account on a plan that holds one: the header offers no account menu.
  if (url === "/api/accounts") return jsonResponse(makeTradingAccounts());
  if (url === "/api/strategies/custom/language") return jsonResponse(makeRuleLanguage());
  if (url.startsWith("/api/ai/recommendations") || url.startsWith("/api/news")) return jsonResponse([]);
  return undefined;
}
