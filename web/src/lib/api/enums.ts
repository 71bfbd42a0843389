import type {
  AlertDirection,
  AlertStatus,
  AnalysisRisk,
  Analyzer,
  AuditAction,
  BacktestOutcome,
  BillingInterval,
  BrokerEndpoint,
  BrokerName,
  ChangeUnit,
  CloseReason,
  DirectionName,
  DisplayCurrency,
  ExerciseStyle,
  Instrument,
  KeyLifetime,
  KeyPermission,
  NewsOrigin,
  NewsSentiment,
  NotificationKind,
  OptionRight,
  OrderDuration,
  OrderKind,
  OrderSide,
  OrderState,
  PaidPlan,
  Plan,
  PortfolioRiskLevel,
  PositionKind,
  PositionStatus,
  RecommendationKind,
  RiskTolerance,
  SectorName,
  Side,
  SignalKind,
  SignalStatus,
  StrategyName,
  TemplateName,
  Theme,
  TradedStrategy,
  TradeIdea,
  WebhookEventType,
} from "./models";

export type {
  AlertDirection,
  AlertStatus,
  AnalysisRisk,
  Analyzer,
  AuditAction,
  BillingInterval,
  BrokerEndpoint,
  BrokerName,
  ChangeUnit,
  CloseReason,
  DirectionName,
  DisplayCurrency,
  ExerciseStyle,
  Instrument,
  KeyLifetime,
  KeyPermission,
  NewsOrigin,
  NewsSentiment,
  NotificationKind,
  OptionRight,
  OrderDuration,
  OrderKind,
  OrderSide,
  OrderState,
  PaidPlan,
  Plan,
  PositionKind,
  PositionStatus,
  RecommendationKind,
  RiskTolerance,
  Side,
  SignalStatus,
  SubscriptionStatus,
  TemplateName,
  Theme,
  TradedStrategy,
  TradeIdea,
  WebhookEventType,
} from "./models";

/**
 * The server's enumerations as lists the UI can iterate (filter options, select items). Each
 * type is the generated schema's union; each list is checked against it both ways at compile
 * time (`exhaustive`), so a value added on the server fails the type check here until the list
 * has it. Filter terms that are not stored enums (confidence bands, budget bands) are the web's
 * own lists of the server's accepted query values.
 */

/** Compiles only when `List` holds every member of `Union` (and nothing else). */
type Exhaustive<Union extends string, List extends readonly Union[]> = [Exclude<Union, List[number]>] extends [never] ? List : never;

function exhaustive<Union extends string>() {
  return <const List extends readonly Union[]>(list: Exhaustive<Union, List>) => list;
}

/** Signal types, and the types of a position's contract: `Signal.signalType`, `…Position.type`. */
export type OptionType = SignalKind;
export const OPTION_TYPES = exhaustive<OptionType>()(["CALL", "PUT", "STRADDLE"]);

/** `Signal.strategy`, `StrategyBacktest.strategy`, the strategies of a backtest request. */
export type Strategy = StrategyName;
export const STRATEGIES = exhaustive<Strategy>()(["Momentum", "Mean Reversion", "Breakout", "Volatility"]);

/** `Signal.status`. */
export const SIGNAL_STATUSES = exhaustive<SignalStatus>()(["active", "closed", "expired"]);

/** `Signal.closeReason`. */
export const CLOSE_REASONS = exhaustive<CloseReason>()(["target", "stop", "expiry", "time"]);

/** `ManualPosition.status`, `PortfolioPosition.status`, `PositionDetail.status`. */
export const POSITION_STATUSES = exhaustive<PositionStatus>()(["open", "closed", "expired"]);

/** `PositionDetail.kind`. */
export const POSITION_KINDS = exhaustive<PositionKind>()(["automated", "manual"]);

/** `RiskAssessmentView.riskLevel`: the portfolio's risk assessment. */
export type RiskLevel = PortfolioRiskLevel;
export const RISK_LEVELS = exhaustive<RiskLevel>()(["low", "moderate", "high", "very_high"]);

/** `User.riskTolerance`, shown as Conservative, Moderate, Aggressive (`riskToleranceLabel`). */
export const RISK_TOLERANCES = exhaustive<RiskTolerance>()(["low", "medium", "high"]);

/** `TradeView.outcome`: how a backtest trade ended (`open`: still open when the test ended; `time`: a custom strategy's days to hold passed). */
export type TradeOutcome = BacktestOutcome;
export const TRADE_OUTCOMES = exhaustive<TradeOutcome>()(["target", "stop", "expiry", "open", "time"]);

/** `Change.unit`: a relative change, or the difference of two percentages. */
export const CHANGE_UNITS = exhaustive<ChangeUnit>()(["percent", "points"]);

/** `WatchlistEntry.sector`, `StockPrice.sector`: one of these sectors. */
export type Sector = SectorName;
export const SECTORS = exhaustive<Sector>()([
  "Technology",
  "Healthcare",
  "Financial",
  "Consumer",
  "Energy",
  "Industrial",
  "Utilities",
  "Real Estate",
  "Materials",
  "Communications",
]);

/** `UserSettings.theme`: the colour theme (also kept in localStorage under `theme`). */
export const THEMES = exhaustive<Theme>()(["light", "dark", "system"]);

/** `UserSettings.currency`: the currency money is shown in (amounts are stored in US dollars). */
export const DISPLAY_CURRENCIES = exhaustive<DisplayCurrency>()(["USD", "EUR", "GBP"]);

/** `ApiKey.permissions`, shown as Read Only, Read & Write, Full Access. */
export const KEY_PERMISSIONS = exhaustive<KeyPermission>()(["read", "write", "admin"]);

/** `CreateApiKeyRequest.expiresIn`: days until a new key expires, or never. */
export const KEY_LIFETIMES = exhaustive<KeyLifetime>()(["30", "90", "365", "never"]);

/** `AuditEntry.action`. */
export const AUDIT_ACTIONS = exhaustive<AuditAction>()([
  "sign_in",
  "sign_in_failed",
  "sign_out",
  "password_changed",
  "session_revoked",
  "api_key_created",
  "api_key_toggled",
  "api_key_deleted",
  "plan_changed",
  "account_deleted",
  "admin_action",
  "order_placed",
  "order_filled",
  "order_rejected",
  "order_cancelled",
  "orders_halted",
  "broker_connected",
  "broker_disconnected",
]);

/** `NotificationView.kind`: what a notification in the bell is about. */
export const NOTIFICATION_KINDS = exhaustive<NotificationKind>()([
  "new_signals",
  "position_closed",
  "price_alert",
  "billing",
  "webhook",
  "order",
]);

/** `PriceAlert.direction`, `NewPriceAlert.direction`: which way the price must cross the target. */
export const ALERT_DIRECTIONS = exhaustive<AlertDirection>()(["above", "below"]);

/** `PriceAlert.status`: waiting, or triggered (once). */
export const ALERT_STATUSES = exhaustive<AlertStatus>()(["active", "triggered"]);

/** `WebhookEndpoint.eventType`, `CreateWebhookRequest.eventType`: what a webhook endpoint is sent. */
export const WEBHOOK_EVENT_TYPES = exhaustive<WebhookEventType>()([
  "new_signal",
  "price_alert",
  "signal_closed",
  "position_closed",
  "order_filled",
  "order_rejected",
]);

/** `NewsItem.sentiment`: an article's tone for the stocks it is about. */
export const NEWS_SENTIMENTS = exhaustive<NewsSentiment>()(["bullish", "bearish", "neutral"]);

/** `NewsItem.origin`: a feed article, a bundled sample, or a market note computed from prices. */
export const NEWS_ORIGINS = exhaustive<NewsOrigin>()(["feed", "sample", "market_note"]);

/** `NewsAnalysis.signalRecommendation`: the option trade an analysis points to, if any. */
export const TRADE_IDEAS = exhaustive<TradeIdea>()(["CALL", "PUT", "STRADDLE", "HOLD"]);

/** `NewsAnalysis.riskLevel`. */
export const ANALYSIS_RISKS = exhaustive<AnalysisRisk>()(["LOW", "MEDIUM", "HIGH"]);

/** `NewsAnalysis.analyzer`, `Recommendation.analyzer`: what produced an analysis. */
export const ANALYZERS = exhaustive<Analyzer>()(["builtin", "openai"]);

/** `Recommendation.type`, and the `type` filter of GET /api/ai/recommendations. */
export const RECOMMENDATION_KINDS = exhaustive<RecommendationKind>()(["trade", "portfolio", "risk"]);

/** `Plan`: the subscription plans, cheapest first. */
export const PLANS = exhaustive<Plan>()(["free", "pro", "premium"]);

/** `PaidPlan`: the plans that are bought (`PlanChoice.plan`), every plan but Free. */
export const PAID_PLANS = exhaustive<PaidPlan>()(["pro", "premium"]);

/** Whether `plan` is one that is bought. */
export const isPaidPlan = (plan: Plan): plan is PaidPlan => isOneOf(PAID_PLANS, plan);

/** `BillingInterval`: how a paid plan is billed (`PlanChoice.billing`, `SubscriptionView.billing`). */
export const BILLING_INTERVALS = exhaustive<BillingInterval>()(["monthly", "yearly"]);

/**
 * The `riskLevel` filter of GET /api/signals, a band of confidence rather than a risk level:
 * `low` under 30, `medium` 30–70, `high` over 70.
 */
export const CONFIDENCE_BANDS = ["low", "medium", "high"] as const;
export type ConfidenceBand = (typeof CONFIDENCE_BANDS)[number];

/** The `maxCost` filter of GET /api/signals: budget bands on one contract (entry premium × 100). */
export const MAX_COSTS = ["under-50", "50-100", "100-250", "250-500", "over-500"] as const;
export type MaxCost = (typeof MAX_COSTS)[number];

/** Whether `value` is one of `list`: narrows text (a query parameter, a select's value) to the list's union. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}

/** `TemplateName`: the named structures of POST /api/structures/template, in the builder's order. */
export const TEMPLATE_NAMES = exhaustive<TemplateName>()([
  "long-call",
  "short-call",
  "long-put",
  "short-put",
  "covered-call",
  "protective-put",
  "collar",
  "bull-call-spread",
  "bear-call-spread",
  "bull-put-spread",
  "bear-put-spread",
  "straddle",
  "strangle",
  "iron-condor",
  "iron-butterfly",
  "call-butterfly",
  "put-butterfly",
  "calendar",
  "diagonal",
]);

/** `ExerciseStyle`: American (US equity options, the default) or European. */
export const EXERCISE_STYLES = exhaustive<ExerciseStyle>()(["american", "european"]);

/** `LegInput.instrument`: a leg of a structure. */
export const INSTRUMENTS = exhaustive<Instrument>()(["call", "put", "stock"]);

/** `LegInput.side`. */
export const SIDES = exhaustive<Side>()(["long", "short"]);

/** `ComparisonDocument.is`: which way a custom strategy's comparison or cross goes. */
export const DIRECTION_NAMES = exhaustive<DirectionName>()(["above", "below"]);

/** `TradeView.strategy`: the house strategies, and "Custom" for a custom strategy's trades. */
export const TRADED_STRATEGIES = exhaustive<TradedStrategy>()(["Momentum", "Mean Reversion", "Breakout", "Volatility", "Custom"]);

/** `OrderView.status`: where an order stands; filled, cancelled and rejected are final (docs/execution.md). */
export const ORDER_STATES = exhaustive<OrderState>()(["new", "accepted", "partially_filled", "filled", "cancelled", "rejected"]);

/** The order states that still stand: the only ones a cancel (POST /api/orders/{id}/cancel) can stop. */
export const STANDING_ORDER_STATES = ["new", "accepted", "partially_filled"] as const satisfies readonly OrderState[];

/** `OrderView.orderType`: a market order, or a limit on the net price per unit. */
export const ORDER_KINDS = exhaustive<OrderKind>()(["market", "limit"]);

/** `OrderView.timeInForce`: to the end of the session it was placed in, or until filled or cancelled. */
export const ORDER_DURATIONS = exhaustive<OrderDuration>()(["day", "gtc"]);

/** `OrderLegView.side`: whether a leg buys or sells its contract. */
export const ORDER_SIDES = exhaustive<OrderSide>()(["buy", "sell"]);

/** `OrderLegView.right`: the option contract of a leg. */
export const OPTION_RIGHTS = exhaustive<OptionRight>()(["call", "put"]);

/** `AccountBroker.name`: who fills an account's orders, the built-in paper broker or Alpaca. */
export const BROKER_NAMES = exhaustive<BrokerName>()(["paper", "alpaca"]);

/** `AccountBroker.endpoint`, `BrokerConnectionInput.endpoint`: Alpaca's paper endpoint (the default) or its live one. */
export const BROKER_ENDPOINTS = exhaustive<BrokerEndpoint>()(["paper", "live"]);
