//! The API's vocabulary: every enumerated value the server answers with (and the lenient
//! parsing of the ones it reads), one definition per concept.
//!
//! Each enum is declared once with the exact wire spelling of each variant; that spelling is
//! what it serialises to, what the OpenAPI document lists (`"enum": [...]`), what the store's
//! TEXT columns hold and what [`FromStr`] reads back. Where the engine or the market has the
//! same concept, `From` conversions go both ways with exhaustive matches, so a variant added on
//! one side is a compile error on the other.
//!
//! Stored rows keep their TEXT columns; [`stored`] turns a column into its enum at the DTO
//! boundary, and a value that is not one of the spellings is a 500 naming the row, never a
//! silent default.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use strikeline_engine::backtest::TradeOutcome;
use strikeline_engine::portfolio::RiskLevel;
use strikeline_engine::{Outcome, SignalType, Strategy};
use strikeline_market::Sector;

use crate::foundation::error::{AppError, Result};

/// A text that is none of an enumeration's spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// What was expected, e.g. `signal status`.
    pub what: &'static str,
    /// The text as given.
    pub value: String,
    /// Every spelling, in order.
    pub expected: &'static [&'static str],
}

impl UnknownValue {
    /// The message a request field gets: `Must be one of: a, b, c`.
    pub fn must_be(&self) -> String {
        format!("Must be one of: {}", self.expected.join(", "))
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}; expected one of: {}", self.what, self.value, self.expected.join(", "))
    }
}

impl std::error::Error for UnknownValue {}

/// An enumeration of the API: its variants, their one spelling and exact parsing.
pub trait Vocabulary: Copy + 'static {
    /// What the values are, for messages (`signal status`).
    const WHAT: &'static str;
    /// Every spelling, in the order of the variants.
    const NAMES: &'static [&'static str];
    /// Every variant.
    fn all() -> &'static [Self];
    /// The wire spelling.
    fn spelling(self) -> &'static str;

    /// Exactly one of the spellings (how stored values are read).
    fn exact(raw: &str) -> Result<Self, UnknownValue> {
        Self::all().iter().copied().find(|v| v.spelling() == raw).ok_or_else(|| Self::unknown(raw))
    }

    /// One of the spellings in any case, ignoring surrounding blanks and the spaces, `-` and
    /// `_` between words (`mean_reversion`, `call`, ` Real-Estate `): how requests are read.
    fn lenient(raw: &str) -> Result<Self, UnknownValue> {
        let squash = |s: &str| s.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase()).collect::<String>();
        let wanted = squash(raw.trim());
        Self::all().iter().copied().find(|v| squash(v.spelling()) == wanted).ok_or_else(|| Self::unknown(raw.trim()))
    }

    #[doc(hidden)]
    fn unknown(raw: &str) -> UnknownValue {
        UnknownValue { what: Self::WHAT, value: raw.chars().take(40).collect(), expected: Self::NAMES }
    }
}

/// A stored column read as its enum; a value that is none of the spellings is an internal
/// error naming `row` (e.g. `signal 0f3…`), which the CHECK constraints make impossible.
pub fn stored<T: Vocabulary>(raw: &str, row: impl fmt::Display) -> Result<T> {
    T::exact(raw).map_err(|e| AppError::Internal(anyhow::anyhow!("stored {row}: {e}")))
}

/// Declares an enumeration: the enum, its `ALL`, `as_str`, `Display`, lenient `FromStr`,
/// `Serialize` and exact `Deserialize` by the spelling, and a string-enum OpenAPI schema.
macro_rules! vocabulary {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident ($what:literal) {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $spelling:literal, )+
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant, )+
        }

        impl $name {
            /// Every variant, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire spelling (also the stored one).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $spelling, )+
                }
            }
        }

        impl Vocabulary for $name {
            const WHAT: &'static str = $what;
            const NAMES: &'static [&'static str] = &[$($spelling),+];
            fn all() -> &'static [Self] {
                Self::ALL
            }
            fn spelling(self) -> &'static str {
                self.as_str()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownValue;

            /// Any case, ignoring blanks around and `-`, `_` or spaces between words.
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                <$name as Vocabulary>::lenient(s)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            /// Exactly one of the spellings, as the schema says.
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                <$name as Vocabulary>::exact(&text)
                    .map_err(|_| <D::Error as serde::de::Error>::unknown_variant(&text, <$name as Vocabulary>::NAMES))
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let description = [$($doc),*].iter().map(|line: &&str| line.trim()).collect::<Vec<_>>().join("\n");
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description((!description.is_empty()).then_some(description))
                    .enum_values(Some(<$name as Vocabulary>::NAMES.iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

vocabulary! {
    /// The rule that produced a signal (docs/strategies.md).
    pub enum StrategyName ("strategy") {
        Momentum = "Momentum",
        MeanReversion = "Mean Reversion",
        Breakout = "Breakout",
        Volatility = "Volatility",
    }
}

vocabulary! {
    /// The rule a backtested trade followed: one of the four, or the user's custom strategy.
    pub enum TradedStrategy ("traded strategy") {
        Momentum = "Momentum",
        MeanReversion = "Mean Reversion",
        Breakout = "Breakout",
        Volatility = "Volatility",
        Custom = "Custom",
    }
}

vocabulary! {
    /// What a signal or position buys: a long call, a long put or a long straddle.
    pub enum SignalKind ("signal type") {
        Call = "CALL",
        Put = "PUT",
        Straddle = "STRADDLE",
    }
}

vocabulary! {
    /// Where a signal stands: active until it closes (at its target or stop) or expires.
    pub enum SignalStatus ("signal status") {
        Active = "active",
        Closed = "closed",
        Expired = "expired",
    }
}

vocabulary! {
    /// How a signal came to be stored: issued live by the running strategies, replayed from
    /// stored history at first start, or stored before the track record existed (or generated
    /// for load tests) with no outcome rule recorded at issue. Only live signals count in
    /// published figures.
    pub enum Provenance ("provenance") {
        Live = "live",
        Replayed = "replayed",
        Unrecorded = "unrecorded",
    }
}

vocabulary! {
    /// Why a signal ended: its target, its stop, its expiry, or (a custom strategy's signal)
    /// its time limit.
    pub enum CloseReason ("close reason") {
        Target = "target",
        Stop = "stop",
        Expiry = "expiry",
        Time = "time",
    }
}

vocabulary! {
    /// How a backtested trade ended; `open` when it was still open as the test ended (closed
    /// at its last mark).
    pub enum BacktestOutcome ("backtest outcome") {
        Target = "target",
        Stop = "stop",
        Expiry = "expiry",
        Open = "open",
        /// A custom strategy's days to hold passed.
        Time = "time",
    }
}

vocabulary! {
    /// Where a position stands.
    pub enum PositionStatus ("position status") {
        Open = "open",
        Closed = "closed",
        Expired = "expired",
    }
}

vocabulary! {
    /// Whose decision a position was: a paper trade opened from a signal, or the user's own.
    pub enum PositionKind ("position kind") {
        Automated = "automated",
        Manual = "manual",
    }
}

vocabulary! {
    /// The risk level of a portfolio, shown on its badge (docs/risk.md).
    pub enum PortfolioRiskLevel ("risk level") {
        Low = "low",
        Moderate = "moderate",
        High = "high",
        VeryHigh = "very_high",
    }
}

vocabulary! {
    /// The risk of one AI recommendation: three levels (a portfolio's "very high" reads high).
    pub enum RecommendationRiskLevel ("risk level") {
        Low = "low",
        Moderate = "moderate",
        High = "high",
    }
}

vocabulary! {
    /// Where a subscription stands.
    pub enum SubscriptionStatus ("subscription status") {
        Active = "active",
        Trialing = "trialing",
        Canceled = "canceled",
        PastDue = "past_due",
    }
}

vocabulary! {
    /// A stock's sector: the options of the Add Stocks dialog.
    pub enum SectorName ("sector") {
        Technology = "Technology",
        Healthcare = "Healthcare",
        Financial = "Financial",
        Consumer = "Consumer",
        Energy = "Energy",
        Industrial = "Industrial",
        Utilities = "Utilities",
        RealEstate = "Real Estate",
        Materials = "Materials",
        Communications = "Communications",
    }
}

vocabulary! {
    /// What a change figure measures: `percent` is a relative change, `points` the difference
    /// of two percentages.
    pub enum ChangeUnit ("change unit") {
        Percent = "percent",
        Points = "points",
    }
}

vocabulary! {
    /// Where a contact message was sent from.
    pub enum ContactSource ("contact source") {
        Landing = "landing",
        Help = "help",
    }
}

vocabulary! {
    /// The database engine the server runs on.
    pub enum DatabaseEngine ("database engine") {
        Sqlite = "sqlite",
        Postgres = "postgres",
    }
}

vocabulary! {
    /// The colour theme: `system` follows the operating system.
    pub enum Theme ("theme") {
        Light = "light",
        Dark = "dark",
        System = "system",
    }
}

vocabulary! {
    /// The currency money is shown in, converted from US dollars at the market-data
    /// provider's rates. Billing stays in US dollars.
    pub enum DisplayCurrency ("currency") {
        Usd = "USD",
        Eur = "EUR",
        Gbp = "GBP",
    }
}

vocabulary! {
    /// Risk tolerance, shown as Conservative, Moderate, Aggressive.
    pub enum RiskTolerance ("risk tolerance") {
        Low = "low",
        Medium = "medium",
        High = "high",
    }
}

vocabulary! {
    /// What an API key may do: `read` (Read Only: GET), `write` (Read & Write: also
    /// creating), `admin` (Full Access).
    pub enum KeyPermission ("permission") {
        Read = "read",
        Write = "write",
        Admin = "admin",
    }
}

vocabulary! {
    /// How long a new API key works, in days, or `never` expires.
    pub enum KeyLifetime ("key lifetime") {
        Days30 = "30",
        Days90 = "90",
        Days365 = "365",
        Never = "never",
    }
}

vocabulary! {
    /// What an audit-log entry records.
    pub enum AuditAction ("audit action") {
        SignIn = "sign_in",
        SignInFailed = "sign_in_failed",
        SignOut = "sign_out",
        PasswordChanged = "password_changed",
        SessionRevoked = "session_revoked",
        ApiKeyCreated = "api_key_created",
        ApiKeyToggled = "api_key_toggled",
        ApiKeyDeleted = "api_key_deleted",
        PlanChanged = "plan_changed",
        AccountDeleted = "account_deleted",
        AdminAction = "admin_action",
        /// An order was placed for one of the user's trading accounts.
        OrderPlaced = "order_placed",
        OrderFilled = "order_filled",
        /// Refused by an account's limit or rejected by the broker.
        OrderRejected = "order_rejected",
        OrderCancelled = "order_cancelled",
        /// An account's kill switch was turned on or off.
        OrdersHalted = "orders_halted",
        /// An account was connected to a real broker (Alpaca).
        BrokerConnected = "broker_connected",
        /// An account was disconnected from its broker.
        BrokerDisconnected = "broker_disconnected",
    }
}

vocabulary! {
    /// What a notification is about.
    pub enum NotificationKind ("notification kind") {
        NewSignals = "new_signals",
        PositionClosed = "position_closed",
        PriceAlert = "price_alert",
        Billing = "billing",
        /// A webhook endpoint was switched off after failing for a day.
        Webhook = "webhook",
        /// One of the user's orders filled, was refused or was cancelled.
        Order = "order",
    }
}

impl NotificationKind {
    /// A stored choice of kinds (`"price_alert,position_closed"`, as the push and SMS settings
    /// keep it), in the vocabulary's order; a spelling outside it is skipped.
    pub fn set_from_stored(stored: &str) -> Vec<NotificationKind> {
        let listed: Vec<&str> = stored.split(',').map(str::trim).collect();
        NotificationKind::ALL.iter().copied().filter(|k| listed.contains(&k.as_str())).collect()
    }

    /// `kinds` as stored: each once, comma-separated, in the vocabulary's order.
    pub fn set_to_stored(kinds: &[NotificationKind]) -> String {
        NotificationKind::ALL.iter().filter(|k| kinds.contains(k)).map(|k| k.as_str()).collect::<Vec<_>>().join(",")
    }
}

vocabulary! {
    /// Where a message in the outbox (a webhook delivery or an email) stands.
    pub enum DeliveryStatus ("delivery status") {
        /// Waiting for its next attempt.
        Pending = "pending",
        Delivered = "delivered",
        /// Given up after the last attempt, or its endpoint was switched off.
        Failed = "failed",
    }
}

vocabulary! {
    /// What a webhook endpoint is sent.
    pub enum WebhookEventType ("webhook event type") {
        /// A new automated signal the owner's plan shows.
        NewSignal = "new_signal",
        /// One of the owner's price alerts triggered.
        PriceAlert = "price_alert",
        /// A signal the owner's plan shows closed (target, stop or expiry).
        SignalClosed = "signal_closed",
        /// One of the owner's automated positions closed.
        PositionClosed = "position_closed",
        /// One of the owner's orders filled.
        OrderFilled = "order_filled",
        /// One of the owner's orders was refused (by an account's limit or the broker).
        OrderRejected = "order_rejected",
    }
}

vocabulary! {
    /// Which way a price alert waits for the price to cross its target.
    pub enum AlertDirection ("alert direction") {
        Above = "above",
        Below = "below",
    }
}

vocabulary! {
    /// A price alert waits until the price reaches its target, then has triggered (once).
    pub enum AlertStatus ("alert status") {
        Active = "active",
        Triggered = "triggered",
    }
}

vocabulary! {
    /// Who takes payments: the built-in test provider or Stripe.
    pub enum PaymentProvider ("payment provider") {
        Test = "test",
        Stripe = "stripe",
    }
}

vocabulary! {
    /// Whether an invoice was paid or its charge failed.
    pub enum InvoiceStatus ("invoice status") {
        Paid = "paid",
        Failed = "failed",
    }
}

vocabulary! {
    /// How a paid plan is billed.
    pub enum BillingInterval ("billing interval") {
        Monthly = "monthly",
        Yearly = "yearly",
    }
}

vocabulary! {
    /// A signal's risk read from its confidence: `low` under 30, `medium` 30–70, `high` over
    /// 70 (the filter of the signals pages).
    pub enum SignalRiskLevel ("risk level") {
        Low = "low",
        Medium = "medium",
        High = "high",
    }
}

impl SignalRiskLevel {
    /// The confidences (inclusive) the level covers.
    pub const fn confidence_range(self) -> (u8, u8) {
        match self {
            SignalRiskLevel::Low => (0, 29),
            SignalRiskLevel::Medium => (30, 70),
            SignalRiskLevel::High => (71, 100),
        }
    }
}

impl From<strikeline_market::Currency> for DisplayCurrency {
    fn from(c: strikeline_market::Currency) -> Self {
        match c {
            strikeline_market::Currency::Usd => DisplayCurrency::Usd,
            strikeline_market::Currency::Eur => DisplayCurrency::Eur,
            strikeline_market::Currency::Gbp => DisplayCurrency::Gbp,
        }
    }
}

impl From<Strategy> for TradedStrategy {
    fn from(s: Strategy) -> Self {
        match s {
            Strategy::Momentum => TradedStrategy::Momentum,
            Strategy::MeanReversion => TradedStrategy::MeanReversion,
            Strategy::Breakout => TradedStrategy::Breakout,
            Strategy::Volatility => TradedStrategy::Volatility,
            Strategy::Custom => TradedStrategy::Custom,
        }
    }
}

impl From<StrategyName> for Strategy {
    fn from(s: StrategyName) -> Self {
        match s {
            StrategyName::Momentum => Strategy::Momentum,
            StrategyName::MeanReversion => Strategy::MeanReversion,
            StrategyName::Breakout => Strategy::Breakout,
            StrategyName::Volatility => Strategy::Volatility,
        }
    }
}

impl From<SignalType> for SignalKind {
    fn from(t: SignalType) -> Self {
        match t {
            SignalType::Call => SignalKind::Call,
            SignalType::Put => SignalKind::Put,
            SignalType::Straddle => SignalKind::Straddle,
        }
    }
}

impl From<strikeline_engine::broker::Right> for OptionRight {
    fn from(r: strikeline_engine::broker::Right) -> Self {
        match r {
            strikeline_engine::broker::Right::Call => OptionRight::Call,
            strikeline_engine::broker::Right::Put => OptionRight::Put,
        }
    }
}

impl From<OptionRight> for strikeline_engine::broker::Right {
    fn from(r: OptionRight) -> Self {
        match r {
            OptionRight::Call => strikeline_engine::broker::Right::Call,
            OptionRight::Put => strikeline_engine::broker::Right::Put,
        }
    }
}

impl SignalKind {
    /// The contracts a signal of this kind buys: its call or its put, or both for a straddle.
    #[must_use]
    pub fn rights(self) -> &'static [strikeline_engine::broker::Right] {
        use strikeline_engine::broker::Right;
        match self {
            SignalKind::Call => &[Right::Call],
            SignalKind::Put => &[Right::Put],
            SignalKind::Straddle => &[Right::Call, Right::Put],
        }
    }
}

impl From<SignalKind> for SignalType {
    fn from(k: SignalKind) -> Self {
        match k {
            SignalKind::Call => SignalType::Call,
            SignalKind::Put => SignalType::Put,
            SignalKind::Straddle => SignalType::Straddle,
        }
    }
}

impl From<Sector> for SectorName {
    fn from(s: Sector) -> Self {
        match s {
            Sector::Technology => SectorName::Technology,
            Sector::Healthcare => SectorName::Healthcare,
            Sector::Financial => SectorName::Financial,
            Sector::Consumer => SectorName::Consumer,
            Sector::Energy => SectorName::Energy,
            Sector::Industrial => SectorName::Industrial,
            Sector::Utilities => SectorName::Utilities,
            Sector::RealEstate => SectorName::RealEstate,
            Sector::Materials => SectorName::Materials,
            Sector::Communications => SectorName::Communications,
        }
    }
}

impl From<SectorName> for Sector {
    fn from(s: SectorName) -> Self {
        match s {
            SectorName::Technology => Sector::Technology,
            SectorName::Healthcare => Sector::Healthcare,
            SectorName::Financial => Sector::Financial,
            SectorName::Consumer => Sector::Consumer,
            SectorName::Energy => Sector::Energy,
            SectorName::Industrial => Sector::Industrial,
            SectorName::Utilities => Sector::Utilities,
            SectorName::RealEstate => Sector::RealEstate,
            SectorName::Materials => Sector::Materials,
            SectorName::Communications => Sector::Communications,
        }
    }
}

impl From<RiskLevel> for PortfolioRiskLevel {
    fn from(level: RiskLevel) -> Self {
        match level {
            RiskLevel::Low => PortfolioRiskLevel::Low,
            RiskLevel::Moderate => PortfolioRiskLevel::Moderate,
            RiskLevel::High => PortfolioRiskLevel::High,
            RiskLevel::VeryHigh => PortfolioRiskLevel::VeryHigh,
        }
    }
}

impl From<RiskLevel> for RecommendationRiskLevel {
    fn from(level: RiskLevel) -> Self {
        match level {
            RiskLevel::Low => RecommendationRiskLevel::Low,
            RiskLevel::Moderate => RecommendationRiskLevel::Moderate,
            RiskLevel::High | RiskLevel::VeryHigh => RecommendationRiskLevel::High,
        }
    }
}

impl From<TradeOutcome> for BacktestOutcome {
    fn from(outcome: TradeOutcome) -> Self {
        match outcome {
            TradeOutcome::Target => BacktestOutcome::Target,
            TradeOutcome::Stop => BacktestOutcome::Stop,
            TradeOutcome::Expiry => BacktestOutcome::Expiry,
            TradeOutcome::EndOfTest => BacktestOutcome::Open,
            TradeOutcome::TimeLimit => BacktestOutcome::Time,
        }
    }
}

impl From<strikeline_store::Engine> for DatabaseEngine {
    fn from(engine: strikeline_store::Engine) -> Self {
        match engine {
            strikeline_store::Engine::Sqlite => DatabaseEngine::Sqlite,
            strikeline_store::Engine::Postgres => DatabaseEngine::Postgres,
        }
    }
}

impl CloseReason {
    /// How a mark's outcome ends a signal: its new status and why; `None` while it stays active.
    pub fn of(outcome: Outcome) -> Option<(SignalStatus, CloseReason)> {
        match outcome {
            Outcome::Active => None,
            Outcome::TargetHit => Some((SignalStatus::Closed, CloseReason::Target)),
            Outcome::StopHit => Some((SignalStatus::Closed, CloseReason::Stop)),
            Outcome::Expired => Some((SignalStatus::Expired, CloseReason::Expiry)),
        }
    }
}

vocabulary! {
    /// When the options may be exercised: US equity options are American (the default);
    /// European values the same legs with Black–Scholes–Merton.
    pub enum ExerciseStyle ("exercise style") {
        American = "american",
        European = "european",
    }
}

#[expect(clippy::derivable_impls, reason = "`vocabulary!` declares the enum, so `#[default]` cannot be put on its variant")]
impl Default for ExerciseStyle {
    fn default() -> Self {
        ExerciseStyle::American
    }
}

vocabulary! {
    /// What a leg of a multi-leg position holds.
    pub enum Instrument ("instrument") {
        Call = "call",
        Put = "put",
        Stock = "stock",
    }
}

vocabulary! {
    /// Bought or sold.
    pub enum Side ("side") {
        Long = "long",
        Short = "short",
    }
}

vocabulary! {
    /// A named multi-leg structure (docs/strategy-builder.md lists the legs of each).
    pub enum TemplateName ("template") {
        LongCall = "long-call",
        ShortCall = "short-call",
        LongPut = "long-put",
        ShortPut = "short-put",
        CoveredCall = "covered-call",
        ProtectivePut = "protective-put",
        Collar = "collar",
        BullCallSpread = "bull-call-spread",
        BearCallSpread = "bear-call-spread",
        BullPutSpread = "bull-put-spread",
        BearPutSpread = "bear-put-spread",
        Straddle = "straddle",
        Strangle = "strangle",
        IronCondor = "iron-condor",
        IronButterfly = "iron-butterfly",
        CallButterfly = "call-butterfly",
        PutButterfly = "put-butterfly",
        Calendar = "calendar",
        Diagonal = "diagonal",
    }
}

impl From<ExerciseStyle> for strikeline_quant::american::Exercise {
    fn from(style: ExerciseStyle) -> strikeline_quant::american::Exercise {
        match style {
            ExerciseStyle::American => strikeline_quant::american::Exercise::American,
            ExerciseStyle::European => strikeline_quant::american::Exercise::European,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Vocabulary + serde::Serialize + serde::de::DeserializeOwned + PartialEq + fmt::Debug + FromStr>() {
        assert_eq!(T::all().len(), T::NAMES.len());
        for (value, name) in T::all().iter().zip(T::NAMES) {
            assert_eq!(value.spelling(), *name);
            assert_eq!(serde_json::to_value(value).expect("serialise"), serde_json::Value::String((*name).to_owned()));
            assert_eq!(&serde_json::from_value::<T>(serde_json::Value::String((*name).to_owned())).expect("deserialise"), value);
            assert_eq!(T::exact(name).as_ref(), Ok(value));
            assert_eq!(T::lenient(&format!(" {} ", name.to_lowercase())).as_ref(), Ok(value));
        }
        assert!(T::exact("nonsense").is_err() && T::lenient("nonsense").is_err());
    }

    #[test]
    fn every_enumeration_round_trips_through_its_one_spelling() {
        round_trips::<StrategyName>();
        round_trips::<SignalKind>();
        round_trips::<SignalStatus>();
        round_trips::<CloseReason>();
        round_trips::<BacktestOutcome>();
        round_trips::<PositionStatus>();
        round_trips::<PositionKind>();
        round_trips::<PortfolioRiskLevel>();
        round_trips::<RecommendationRiskLevel>();
        round_trips::<SubscriptionStatus>();
        round_trips::<SectorName>();
        round_trips::<ChangeUnit>();
        round_trips::<ContactSource>();
        round_trips::<DatabaseEngine>();
    }

    #[test]
    fn spellings_agree_with_the_engine_and_the_market() {
        for s in Strategy::ALL {
            let name = StrategyName::exact(s.label()).expect("a built-in strategy's label is its wire name");
            assert_eq!(Strategy::from(name), s);
        }
        for s in Strategy::ALL.into_iter().chain([Strategy::Custom]) {
            assert_eq!(TradedStrategy::from(s).as_str(), s.label());
        }
        for t in SignalType::ALL {
            assert_eq!(SignalKind::from(t).as_str(), t.as_str());
            assert_eq!(SignalType::from(SignalKind::from(t)), t);
        }
        for s in Sector::ALL {
            assert_eq!(SectorName::from(s).as_str(), s.label());
            assert_eq!(Sector::from(SectorName::from(s)), s);
        }
        for level in [RiskLevel::Low, RiskLevel::Moderate, RiskLevel::High, RiskLevel::VeryHigh] {
            assert_eq!(PortfolioRiskLevel::from(level).as_str(), level.as_str());
        }
        for o in [TradeOutcome::Target, TradeOutcome::Stop, TradeOutcome::Expiry] {
            assert_eq!(BacktestOutcome::from(o).as_str(), o.as_str());
        }
        assert_eq!(BacktestOutcome::from(TradeOutcome::EndOfTest), BacktestOutcome::Open);
        for o in [Outcome::TargetHit, Outcome::StopHit, Outcome::Expired] {
            assert_eq!(CloseReason::of(o).map(|(_, r)| r.as_str()), o.close_reason());
        }
    }

    #[test]
    fn requests_are_read_leniently_and_stored_values_exactly() {
        assert_eq!("mean_reversion".parse(), Ok(StrategyName::MeanReversion));
        assert_eq!("real-estate".parse(), Ok(SectorName::RealEstate));
        assert_eq!(" call ".parse(), Ok(SignalKind::Call));
        assert!(SignalKind::exact("call").is_err());
        let err = "Scalping".parse::<StrategyName>().expect_err("unknown");
        assert_eq!(err.must_be(), "Must be one of: Momentum, Mean Reversion, Breakout, Volatility");
        let Err(AppError::Internal(cause)) = stored::<SignalStatus>("Active", "signal s1") else { panic!("expected an internal error") };
        assert_eq!(cause.to_string(), "stored signal s1: unknown signal status \"Active\"; expected one of: active, closed, expired");
        assert!(serde_json::from_str::<ContactSource>("\"Landing\"").is_err());
    }
}

vocabulary! {
    /// An article's tone for the stocks it is about.
    pub enum NewsSentiment ("news sentiment") {
        Bullish = "bullish",
        Bearish = "bearish",
        Neutral = "neutral",
    }
}

vocabulary! {
    /// Where an article came from.
    pub enum NewsOrigin ("news origin") {
        /// A configured RSS or Atom feed.
        Feed = "feed",
        /// The bundled sample articles (the offline default), labelled as samples.
        Sample = "sample",
        /// Computed by Strikeline from stored prices (large moves, volume spikes, 52-week highs and lows).
        MarketNote = "market_note",
    }
}

vocabulary! {
    /// What produced an analysis.
    pub enum Analyzer ("analyzer") {
        /// Strikeline's offline financial-sentiment analyser with the symbol's indicators and signals.
        Builtin = "builtin",
        /// An OpenAI-compatible chat endpoint.
        Openai = "openai",
    }
}

vocabulary! {
    /// The option trade an analysis points to, if any.
    pub enum TradeIdea ("trade idea") {
        Call = "CALL",
        Put = "PUT",
        Straddle = "STRADDLE",
        /// No trade: the evidence disagrees or is too weak.
        Hold = "HOLD",
    }
}

vocabulary! {
    /// How risky an analysis judges the idea (from the underlying's volatility).
    pub enum AnalysisRisk ("analysis risk level") {
        Low = "LOW",
        Medium = "MEDIUM",
        High = "HIGH",
    }
}

vocabulary! {
    /// What an AI recommendation is about.
    pub enum RecommendationKind ("recommendation type") {
        /// A trade to consider: a signal the plan shows, in the user's strategies, not held.
        Trade = "trade",
        /// A position held: near expiry, or news running against it.
        Portfolio = "portfolio",
        /// The portfolio's risk model: concentration, Greeks, size, drawdown.
        Risk = "risk",
    }
}

vocabulary! {
    /// Where an order stands (docs/execution.md): filled, cancelled and rejected are final.
    pub enum OrderState ("order status") {
        New = "new",
        Accepted = "accepted",
        PartiallyFilled = "partially_filled",
        Filled = "filled",
        Cancelled = "cancelled",
        Rejected = "rejected",
    }
}

impl From<strikeline_engine::broker::OrderStatus> for OrderState {
    fn from(status: strikeline_engine::broker::OrderStatus) -> Self {
        use strikeline_engine::broker::OrderStatus as S;
        match status {
            S::New => OrderState::New,
            S::Accepted => OrderState::Accepted,
            S::PartiallyFilled => OrderState::PartiallyFilled,
            S::Filled => OrderState::Filled,
            S::Cancelled => OrderState::Cancelled,
            S::Rejected => OrderState::Rejected,
        }
    }
}

impl From<OrderState> for strikeline_engine::broker::OrderStatus {
    fn from(state: OrderState) -> Self {
        use strikeline_engine::broker::OrderStatus as S;
        match state {
            OrderState::New => S::New,
            OrderState::Accepted => S::Accepted,
            OrderState::PartiallyFilled => S::PartiallyFilled,
            OrderState::Filled => S::Filled,
            OrderState::Cancelled => S::Cancelled,
            OrderState::Rejected => S::Rejected,
        }
    }
}

vocabulary! {
    /// A market order fills at the price there is; a limit order at its net price or better.
    pub enum OrderKind ("order type") {
        Market = "market",
        Limit = "limit",
    }
}

vocabulary! {
    /// How long an order stands: to the end of its session, or until filled or cancelled.
    pub enum OrderDuration ("time in force") {
        Day = "day",
        Gtc = "gtc",
    }
}

vocabulary! {
    /// Whether an order's leg buys or sells its contract.
    pub enum OrderSide ("order side") {
        Buy = "buy",
        Sell = "sell",
    }
}

vocabulary! {
    /// The right an option contract gives.
    pub enum OptionRight ("option right") {
        Call = "call",
        Put = "put",
    }
}

vocabulary! {
    /// Who fills a trading account's orders: the built-in paper broker, or Alpaca with the
    /// account's own keys.
    pub enum BrokerName ("broker") {
        Paper = "paper",
        Alpaca = "alpaca",
    }
}

vocabulary! {
    /// Which of Alpaca's endpoints an account trades on.
    pub enum BrokerEndpoint ("broker endpoint") {
        Paper = "paper",
        Live = "live",
    }
}
