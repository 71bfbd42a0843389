import type { PlanChoice } from "@/lib/api/models";

/**
 * Every query key of the app, in one place. A key starts with the endpoint's path, so the
 * shorter key of a family (`signals.all()`) is the prefix that reaches all of its queries (lists
 * with any filter, pages, details) when invalidated. The default query function fetches the key's
 * segments joined with "/" (`lib/api/client.ts`), so a key with only a path is also its URL.
 *
 * Shared code, features and tests read keys here; features do not import each other, and more
 * than one feature reads or refreshes the user, the settings, the subscription and the portfolio.
 */
export const queryKeys = {
  /** GET /api/auth/me: the signed-in user (null when signed out). */
  currentUser: () => ["/api/auth/me"] as const,
  /** GET /api/user/preferences: the user's settings (also carries the risk tolerance). */
  userSettings: () => ["/api/user/preferences"] as const,
  /** GET /api/accounts: the user's trading accounts (which one is current) and how many the plan holds. */
  tradingAccounts: () => ["/api/accounts"] as const,
  exchangeRates: () => ["/api/exchange-rates"] as const,

  apiKeys: {
    all: () => ["/api/api-keys"] as const,
  },
  sessions: () => ["/api/user/sessions"] as const,
  auditLog: () => ["/api/user/audit"] as const,

  subscription: () => ["/api/billing/subscription"] as const,
  invoices: () => ["/api/billing/invoices"] as const,
  /** /subscribe's checkout for a plan and billing period (POST /api/create-subscription). */
  checkout: ({ plan, billing }: PlanChoice) => ["/api/create-subscription", plan, billing] as const,
  plans: () => ["/api/plans"] as const,
  publicStats: () => ["/api/public/stats"] as const,
  /** The public track record: the calibration summary, the tree-head key and the newest signed heads. */
  trackRecord: {
    summary: () => ["/api/public/track-record"] as const,
    key: () => ["/api/public/track-record/key"] as const,
    heads: (limit: number) => ["/api/public/track-record/heads", { limit }] as const,
  },

  webhooks: {
    all: () => ["/api/webhooks"] as const,
    deliveries: (id: string) => [...queryKeys.webhooks.all(), id, "deliveries"] as const,
  },

  signals: {
    all: () => ["/api/signals"] as const,
    /** The paged list (an infinite query) for filters the caller has normalised, so equal filters make equal keys. */
    pages: <F extends object>(filters: F) => [...queryKeys.signals.all(), filters, "pages"] as const,
    /** Every signal matching the (normalised) filters, all pages read at once. */
    every: <F extends object>(filters: F) => [...queryKeys.signals.all(), filters, "all"] as const,
    analysis: (id: string) => [...queryKeys.signals.all(), id, "analysis"] as const,
  },
  stats: () => ["/api/stats"] as const,
  automation: () => ["/api/automation/status"] as const,
  notifications: () => ["/api/notifications"] as const,
  /** GET /api/push/subscriptions: the VAPID key and the browsers that get push notifications. */
  pushSubscriptions: () => ["/api/push/subscriptions"] as const,
  /** GET /api/sms: the phone texts go to, its verification, the kinds texted and the quiet hours. */
  sms: () => ["/api/sms"] as const,
  /** GET /api/reports/brand: the brand the account's PDF reports carry (its own, or the house brand). */
  reportBrand: () => ["/api/reports/brand"] as const,
  aiRecommendations: (limit: number) => ["/api/ai/recommendations", { limit }] as const,
  news: {
    all: () => ["/api/news"] as const,
    list: (count: number) => [...queryKeys.news.all(), { count }] as const,
  },

  stockPrices: {
    all: () => ["/api/stock-prices"] as const,
    history: (symbol: string, days: number) => [...queryKeys.stockPrices.all(), symbol, "history", days] as const,
    /** A symbol's option chain at an expiration (`null`: the one the server shows by default). */
    optionChain: (symbol: string, expiration: string | null) =>
      [...queryKeys.stockPrices.all(), symbol, "options", expiration ?? "default"] as const,
    /** A symbol's implied-volatility history, IV rank and IV percentile. */
    impliedVolatility: (symbol: string) => [...queryKeys.stockPrices.all(), symbol, "implied-volatility"] as const,
  },
  priceAlerts: () => ["/api/price-alerts"] as const,

  /** The user's custom strategies (GET /api/strategies/custom and each one by id). */
  customStrategies: {
    all: () => ["/api/strategies/custom"] as const,
    detail: (id: string) => [...queryKeys.customStrategies.all(), id] as const,
    /** POST /api/strategies/custom/preview for one request (its JSON text, so equal requests share an answer). */
    preview: (request: string) => ["/api/strategies/custom/preview", request] as const,
    /** GET /api/strategies/custom/language: the indicators, their kinds and the rule's limits (the same for everyone). */
    language: () => ["/api/strategies/custom/language"] as const,
  },

  /** POST /api/structures/analysis for one request (its JSON text, so equal requests share an answer). */
  structureAnalysis: (request: string) => ["/api/structures/analysis", request] as const,

  portfolio: {
    metrics: () => ["/api/portfolio/metrics"] as const,
    positions: () => ["/api/portfolio/positions"] as const,
    /** The prefix of every automated position's details. */
    position: {
      all: () => ["/api/portfolio/position"] as const,
      detail: (id: string) => [...queryKeys.portfolio.position.all(), id] as const,
    },
    manualPositions: {
      all: () => ["/api/manual-positions"] as const,
      detail: (id: string) => [...queryKeys.portfolio.manualPositions.all(), id] as const,
    },
    /** The multi-leg positions saved from the strategy builder. */
    heldStructures: {
      all: () => ["/api/portfolio/structures"] as const,
      detail: (id: string) => [...queryKeys.portfolio.heldStructures.all(), id] as const,
    },
  },

  /** GET /api/orders: the current account's latest 100 orders, newest first (docs/execution.md). */
  orders: () => ["/api/orders"] as const,

  openApi: () => ["/api/openapi.json"] as const,
  /** A content page's Markdown body (its own chunk). */
  content: (id: string) => ["content", id] as const,
};
