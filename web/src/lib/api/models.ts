import type { components } from "./schema";

/**
 * The API's shapes, each an alias of the schema generated from the server's OpenAPI document
 * (schema.d.ts, `npm run gen:api`). This is the one place they are named: features import
 * them from here and declare no copies (models.test.ts fails on one). The enumerations'
 * values, as lists to iterate, are in ./enums.
 */
type Schemas = components["schemas"];

// Enumerations (lists to iterate are in ./enums)
export type SignalKind = Schemas["SignalKind"];
export type StrategyName = Schemas["StrategyName"];
export type SignalStatus = Schemas["SignalStatus"];
export type CloseReason = Schemas["CloseReason"];
export type PositionStatus = Schemas["PositionStatus"];
export type PositionKind = Schemas["PositionKind"];
export type PortfolioRiskLevel = Schemas["PortfolioRiskLevel"];
export type RecommendationRiskLevel = Schemas["RecommendationRiskLevel"];
export type BacktestOutcome = Schemas["BacktestOutcome"];
export type ChangeUnit = Schemas["ChangeUnit"];
export type SectorName = Schemas["SectorName"];
export type SubscriptionStatus = Schemas["SubscriptionStatus"];
export type Theme = Schemas["Theme"];
export type DisplayCurrency = Schemas["DisplayCurrency"];
export type KeyPermission = Schemas["KeyPermission"];
export type KeyLifetime = Schemas["KeyLifetime"];
export type AuditAction = Schemas["AuditAction"];
export type NotificationKind = Schemas["NotificationKind"];
export type AlertDirection = Schemas["AlertDirection"];
export type AlertStatus = Schemas["AlertStatus"];
export type WebhookEventType = Schemas["WebhookEventType"];
export type NewsSentiment = Schemas["NewsSentiment"];
export type NewsOrigin = Schemas["NewsOrigin"];
export type TradeIdea = Schemas["TradeIdea"];
export type AnalysisRisk = Schemas["AnalysisRisk"];
export type Analyzer = Schemas["Analyzer"];
export type RecommendationKind = Schemas["RecommendationKind"];
export type IndicatorName = Schemas["IndicatorName"];
export type DirectionName = Schemas["DirectionName"];
export type TradedStrategy = Schemas["TradedStrategy"];
export type OrderState = Schemas["OrderState"];
export type OrderKind = Schemas["OrderKind"];
export type OrderDuration = Schemas["OrderDuration"];
export type OrderSide = Schemas["OrderSide"];
export type OptionRight = Schemas["OptionRight"];
export type BrokerName = Schemas["BrokerName"];
export type BrokerEndpoint = Schemas["BrokerEndpoint"];

// Errors
export type Problem = Schemas["Problem"];
export type FieldError = Schemas["FieldError"];

// Accounts
export type User = Schemas["User"];
export type Plan = Schemas["Plan"];
export type PaidPlan = Schemas["PaidPlan"];
export type RiskTolerance = Schemas["RiskTolerance"];
export type InvestmentPreferencesUpdate = Schemas["InvestmentPreferencesUpdate"];
export type LoginRequest = Schemas["LoginRequest"];
export type RegisterRequest = Schemas["RegisterRequest"];
export type VerifyEmailRequest = Schemas["VerifyEmailRequest"];
export type EmailVerified = Schemas["EmailVerified"];
export type ForgotPasswordRequest = Schemas["ForgotPasswordRequest"];
export type ResetRequested = Schemas["ResetRequested"];
export type ResetPasswordRequest = Schemas["ResetPasswordRequest"];

// Settings and account security
export type UserSettings = Schemas["UserSettings"];
export type UserSettingsUpdate = Schemas["UserSettingsUpdate"];
export type ExchangeRates = Schemas["ExchangeRates"];
export type ExchangeRate = Schemas["ExchangeRate"];
export type PasswordChange = Schemas["PasswordChange"];
export type AccountDeletion = Schemas["AccountDeletion"];
export type DataExport = Schemas["DataExport"];
export type SessionView = Schemas["SessionView"];
export type AuditEntry = Schemas["AuditEntry"];

// API keys
export type ApiKey = Schemas["ApiKey"];
export type CreateApiKeyRequest = Schemas["CreateApiKeyRequest"];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type ToggleApiKeyRequest = Schemas["ToggleApiKeyRequest"];

// Webhooks (Settings › API Keys)
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type CreateWebhookRequest = Schemas["CreateWebhookRequest"];
export type CreatedWebhook = Schemas["CreatedWebhook"];
export type WebhookDelivery = Schemas["WebhookDelivery"];

// Public pages
export type PlanCatalogue = Schemas["PlanCatalogue"];
export type PlanInfo = Schemas["PlanInfo"];
export type PublicStats = Schemas["PublicStats"];
export type ContactRequest = Schemas["ContactRequest"];
export type ContactReceipt = Schemas["ContactReceipt"];
export type NewsletterRequest = Schemas["NewsletterRequest"];
export type NewsletterReceipt = Schemas["NewsletterReceipt"];

// The public track record (/track-record)
export type TrackRecordSummary = Schemas["TrackRecordSummary"];
export type Calibration = Schemas["Calibration"];
export type StrategyCalibration = Schemas["StrategyCalibration"];
export type Figures = Schemas["Figures"];
export type Bin = Schemas["Bin"];
export type RollingPoint = Schemas["RollingPoint"];
export type Excluded = Schemas["Excluded"];
export type TreeHeadKey = Schemas["TreeHeadKey"];
export type HeadList = Schemas["HeadList"];
export type PublishedHead = Schemas["PublishedHead"];
export type PublishedModel = Schemas["PublishedModel"];
export type HeldOutEvaluation = Schemas["HeldOutEvaluation"];
export type HeldOutScores = Schemas["HeldOutScores"];
export type HeldOutBin = Schemas["HeldOutBin"];

// Signals
export type Signal = Schemas["Signal"];
export type SignalPage = Schemas["SignalPage"];
export type SignalAnalysis = Schemas["SignalAnalysis"];
export type DecileRecord = Schemas["DecileRecord"];
export type ModelEstimate = Schemas["ModelEstimate"];
export type ModelReason = Schemas["ModelReason"];
export type GenerateRequest = Schemas["GenerateRequest"];
export type RefreshReceipt = Schemas["RefreshReceipt"];
export type HistoryBar = Schemas["HistoryBar"];
export type PayoffPoint = Schemas["PayoffPoint"];

// Dashboard and automation
export type DashboardStats = Schemas["DashboardStats"];
export type Change = Schemas["Change"];
export type AutomationStatus = Schemas["AutomationStatus"];
export type NextSchedules = Schemas["NextSchedules"];

// Market
export type StockPrice = Schemas["StockPrice"];
export type WatchlistEntry = Schemas["WatchlistEntry"];
export type BulkAddRequest = Schemas["BulkAddRequest"];
export type BulkAddResponse = Schemas["BulkAddResponse"];
export type BulkAddResult = Schemas["BulkAddResult"];
export type PriceAlert = Schemas["PriceAlert"];
export type NewPriceAlert = Schemas["NewPriceAlert"];

// Options: the chain and the implied-volatility history (docs/options.md)
export type OptionChainView = Schemas["OptionChainView"];
export type ChainRow = Schemas["ChainRow"];
export type ChainContract = Schemas["ChainContract"];
export type IvHistoryView = Schemas["IvHistoryView"];
export type IvPoint = Schemas["IvPoint"];
export type IvStandingView = Schemas["IvStandingView"];

// Notifications (the header bell)
export type NotificationView = Schemas["NotificationView"];
export type NotificationList = Schemas["NotificationList"];
export type MarkedRead = Schemas["MarkedRead"];

// News and AI recommendations
export type NewsItem = Schemas["NewsItem"];
export type NewsAnalysis = Schemas["NewsAnalysis"];
export type Recommendation = Schemas["Recommendation"];

// Portfolio
export type ManualPosition = Schemas["ManualPosition"];
export type NewManualPosition = Schemas["NewManualPosition"];
export type PortfolioPosition = Schemas["PortfolioPosition"];
export type PositionDetail = Schemas["PositionDetail"];
export type PositionSignal = Schemas["PositionSignal"];
export type GreeksView = Schemas["GreeksView"];
export type RiskMetrics = Schemas["RiskMetrics"];
export type PerformanceView = Schemas["PerformanceView"];
export type PortfolioAnalysis = Schemas["PortfolioAnalysis"];
// The portfolio optimiser (Premium; docs/optimisation.md)
export type Optimisation = Schemas["Optimisation"];
export type OptimisationLimits = Schemas["OptimisationLimits"];
export type ProposedPosition = Schemas["ProposedPosition"];
export type LeftOut = Schemas["LeftOut"];
export type ChanceSource = Schemas["ChanceSource"];

// Billing
export type BillingInterval = Schemas["BillingInterval"];
export type PlanChoice = Schemas["PlanChoice"];
export type CheckoutView = Schemas["CheckoutView"];
export type TestCardPayment = Schemas["TestCardPayment"];
export type SubscriptionView = Schemas["SubscriptionView"];
export type CardView = Schemas["CardView"];
export type NextBilling = Schemas["NextBilling"];
export type InvoiceView = Schemas["InvoiceView"];

// Backtests
export type BacktestRequest = Schemas["BacktestRequest"];
export type ParamsRequest = Schemas["ParamsRequest"];
export type OverallBacktest = Schemas["OverallBacktest"];
export type StrategyBacktest = Schemas["StrategyBacktest"];
export type TradeView = Schemas["TradeView"];

// Custom strategies (Premium; docs/strategies.md §11)
export type CustomStrategyDocument = Schemas["CustomStrategyDocument"];
export type ConditionDocument = Schemas["ConditionDocument"];
export type ComparisonDocument = Schemas["ComparisonDocument"];
export type OperandDocument = Schemas["OperandDocument"];
export type IndicatorOperand = Schemas["IndicatorOperand"];
export type StrikeDocument = Schemas["StrikeDocument"];
export type ExitsDocument = Schemas["ExitsDocument"];
export type CustomStrategyInput = Schemas["CustomStrategyInput"];
export type CustomStrategyView = Schemas["CustomStrategyView"];
export type PreviewRequest = Schemas["PreviewRequest"];
export type Preview = Schemas["Preview"];
export type SymbolPreview = Schemas["SymbolPreview"];
export type JudgedCondition = Schemas["JudgedCondition"];
export type PreviewProposal = Schemas["PreviewProposal"];
export type RuleLanguage = Schemas["RuleLanguage"];
export type IndicatorInfo = Schemas["IndicatorInfo"];
export type IndicatorKind = Schemas["IndicatorKind"];

// The strategy builder (multi-leg structures)
export type TemplateName = Schemas["TemplateName"];
export type ExerciseStyle = Schemas["ExerciseStyle"];
export type Instrument = Schemas["Instrument"];
export type Side = Schemas["Side"];
export type LegInput = Schemas["LegInput"];
export type LegView = Schemas["LegView"];
export type TemplateRequest = Schemas["TemplateRequest"];
export type TemplateLegs = Schemas["TemplateLegs"];
export type AnalysisRequest = Schemas["AnalysisRequest"];
export type StructureAnalysis = Schemas["StructureAnalysis"];
export type ExpiryView = Schemas["ExpiryView"];
export type ExtremeView = Schemas["ExtremeView"];
export type ProfitRangeView = Schemas["ProfitRangeView"];
export type PositionGreeks = Schemas["PositionGreeks"];
export type ScenarioGrid = Schemas["ScenarioGrid"];
export type StructurePayoffPoint = Schemas["StructurePayoffPoint"];
// Web Push
export type PushDevices = Schemas["PushDevices"];
export type PushSubscriptionView = Schemas["PushSubscriptionView"];
export type NewPushSubscription = Schemas["NewPushSubscription"];
// SMS
export type SmsSettings = Schemas["SmsSettings"];
export type SmsPreferencesInput = Schemas["SmsPreferencesInput"];
export type QuietHours = Schemas["QuietHours"];
// Multi-leg positions held in the portfolio
export type NewHeldStructure = Schemas["NewHeldStructure"];
export type HeldStructureView = Schemas["HeldStructureView"];
// PDF reports and their brand (Settings › Reports; docs/reports.md)
export type ReportBrandView = Schemas["ReportBrandView"];
export type ReportBrandInput = Schemas["ReportBrandInput"];
// Trading accounts: each with its own capital, preferences, automation switch and positions (docs/accounts.md)
export type TradingAccount = Schemas["TradingAccount"];
export type TradingAccounts = Schemas["TradingAccounts"];
export type NewTradingAccount = Schemas["NewTradingAccount"];
export type TradingAccountUpdate = Schemas["TradingAccountUpdate"];
export type CurrentAccountInput = Schemas["CurrentAccountInput"];
// An account's broker: the paper broker, or Alpaca with the account's keys (Premium; docs/execution.md)
export type AccountBroker = Schemas["AccountBroker"];
export type BrokerConnectionInput = Schemas["BrokerConnectionInput"];
export type Reconciliation = Schemas["Reconciliation"];
export type HoldingDifference = Schemas["HoldingDifference"];
// Orders sent for the current account, and the kill switches (docs/execution.md)
export type OrderView = Schemas["OrderView"];
export type OrderLegView = Schemas["OrderLegView"];
export type OrderFillView = Schemas["OrderFillView"];
export type OrdersHalt = Schemas["OrdersHalt"];
export type ProposalOrders = Schemas["ProposalOrders"];
export type ProposalPosition = Schemas["ProposalPosition"];
export type SentOrders = Schemas["SentOrders"];
