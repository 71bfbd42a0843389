import type { ChainContract, ChainRow, IvHistoryView, OptionChainView } from "@/lib/api/models";

/** One side of a strike as the chain answers it (dollars per share; theta per day, vega per point). */
export function makeContract(overrides: Partial<ChainContract> = {}): ChainContract {
  return {
    bid: 3.1,
    ask: 3.3,
    mid: 3.2,
    last: null,
    impliedVolatility: 0.2534,
    delta: 0.52,
    gamma: 0.0233,
    theta: -0.272,
    vega: 0.291,
    openInterest: 17_147,
    ...overrides,
  };
}

/** Rows at 240, 245, 250, 255, 260 with calls and puts whose prices follow the strike. */
export function makeChainRows(strikes: readonly number[] = [240, 245, 250, 255, 260]): ChainRow[] {
  return strikes.map((strike, i) => ({
    strike,
    call: makeContract({ bid: 12 - 2 * i, ask: 12.4 - 2 * i, delta: 0.8 - 0.15 * i, openInterest: 1000 + i }),
    put: makeContract({ bid: 1 + 2 * i, ask: 1.3 + 2 * i, delta: -0.2 - 0.15 * i, openInterest: 2000 + i }),
  }));
}

/** GET /api/stock-prices/AAPL/options: the Dec 18 expiration of three, the price at 248.10. */
export function makeOptionChain(overrides: Partial<OptionChainView> = {}): OptionChainView {
  return {
    symbol: "AAPL",
    underlyingPrice: 248.1,
    asOf: "2026-11-23T15:00:00Z",
    provider: "simulated",
    exercise: "american",
    expirations: ["2026-12-04", "2026-12-18", "2027-01-15"],
    expiration: "2026-12-18",
    rows: makeChainRows(),
    ...overrides,
  };
}

/** GET /api/stock-prices/AAPL/implied-volatility with a year of readings and the standing shown. */
export function makeIvHistory(overrides: Partial<IvHistoryView> = {}): IvHistoryView {
  return {
    symbol: "AAPL",
    maturityDays: 30,
    lookbackFrom: "2025-11-21",
    lookbackTo: "2026-11-20",
    lookbackSessions: 253,
    recordedSessions: 251,
    minimumSessions: 200,
    missing: ["2026-03-02", "2026-07-06"],
    series: [
      { date: "2025-11-21", iv: 0.22 },
      { date: "2026-04-09", iv: 0.4757 },
      { date: "2026-02-04", iv: 0.1822 },
      { date: "2026-11-20", iv: 0.2392 },
    ],
    standing: {
      current: { date: "2026-11-20", iv: 0.2392 },
      rank: 19.4,
      percentile: 30.6,
      high: { date: "2026-04-09", iv: 0.4757 },
      low: { date: "2026-02-04", iv: 0.1822 },
    },
    hiddenReason: null,
    ...overrides,
  };
}

/** The same, on a fresh server: three readings, rank and percentile hidden with the server's reason. */
export function makeHiddenIvHistory(): IvHistoryView {
  return makeIvHistory({
    recordedSessions: 3,
    missing: [],
    series: [
      { date: "2026-11-18", iv: 0.251 },
      { date: "2026-11-19", iv: 0.248 },
      { date: "2026-11-20", iv: 0.2392 },
    ],
    standing: null,
    hiddenReason: "IV rank needs 200 recorded sessions in the last year; 3 recorded so far.",
  });
}
