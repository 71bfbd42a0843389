//! The custom strategy document (issue 29; docs/strategies.md §11): the typed, versioned JSON a
//! Premium user writes, and its reading into the engine's [`CustomStrategy`], every mistake
//! named by its path in the document.
//!
//! ```json
//! {"version": 1,
//!  "entry": {"all": [
//!     {"compare": {"left": {"indicator": {"name": "rsi14"}}, "is": "below", "right": {"number": 30}}},
//!     {"crosses": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"indicator": {"name": "bollingerLower"}}}}]},
//!  "opens": "CALL", "strike": {"offset": 0}, "minDays": 30,
//!  "exits": {"targetGain": 0.5, "stopLoss": 0.3, "maxDays": 10}}
//! ```

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_engine::custom::{self, Condition, CustomStrategy, Direction, Exits, Indicator, Operand, StrikeRule};
use strikeline_engine::{EntryContext, ProposalContext};
use strikeline_store::custom_strategies::{self as store, CustomStrategyRow};
use strikeline_store::market;
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::limits::{self, RateLimit};
use crate::foundation::state::AppState;
use crate::foundation::vocab::SignalKind;
use crate::services::predicting;

/// The document version this server reads.
pub const VERSION: u32 = custom::DOCUMENT_VERSION;

/// A custom strategy: when to enter, what to open, how to close.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomStrategyDocument {
    /// The document's version: 1.
    #[schema(minimum = 1, maximum = 1)]
    pub version: u32,
    /// The entry rule: every warm bar where it holds is a signal.
    pub entry: ConditionDocument,
    /// What a signal buys.
    pub opens: SignalKind,
    pub strike: StrikeDocument,
    /// Minimum calendar days to the listed expiration.
    #[schema(minimum = 1, maximum = 365)]
    pub min_days: u32,
    /// The first monthly expiration (the third Friday) at least `minDays` away, rather than the
    /// first listed one (weeklies included). Default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub monthly: bool,
    pub exits: ExitsDocument,
    /// A custom AI strategy: a setup the rule fires on becomes a signal only when the
    /// predictive model gives it at least this probability of a win (0.05–0.95). While no model
    /// ships, such a strategy issues nothing. Absent: the rule alone decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.05, maximum = 0.95)]
    pub min_probability: Option<f64>,
}

/// The lowest and highest `minProbability` a document may set.
pub const MIN_PROBABILITY_RANGE: (f64, f64) = (0.05, 0.95);

/// Whether a setup the model scored `probability` (`None`: no model ships) clears a strategy's
/// `threshold` (`None`: no threshold, every setup does): the one check for issue and preview.
#[must_use]
pub fn clears(threshold: Option<f64>, probability: Option<f64>) -> bool {
    threshold.is_none_or(|t| probability.is_some_and(|p| p >= t))
}

/// A condition: a comparison, a cross, or a group of conditions (at most 8 in a group, groups
/// nested at most 3 deep, 20 comparisons in all).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum ConditionDocument {
    /// Every member holds.
    #[schema(no_recursion)]
    All(Vec<ConditionDocument>),
    /// At least one member holds.
    #[schema(no_recursion)]
    Any(Vec<ConditionDocument>),
    /// `left` is strictly above (below) `right` on the bar.
    Compare(ComparisonDocument),
    /// `left` was not above (below) `right` on the bar before and is on this one.
    Crosses(ComparisonDocument),
}

/// Two operands and a direction.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComparisonDocument {
    pub left: OperandDocument,
    pub is: DirectionName,
    pub right: OperandDocument,
}

/// An indicator's value, or a number in the other side's unit.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum OperandDocument {
    Indicator(IndicatorOperand),
    /// RSI and HV rank/percentile in points (0–100), HV(20) in percent, prices in dollars.
    Number(f64),
}

/// An indicator, on the bar or some bars before it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndicatorOperand {
    pub name: IndicatorName,
    /// Bars before the one judged (0–10; 0–9 in a cross). Default 0.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10)]
    pub bars_ago: u32,
}

/// Above or below.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum DirectionName {
    Above,
    Below,
}

/// What a rule can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum IndicatorName {
    Open,
    High,
    Low,
    Close,
    Volume,
    Ema20,
    Ema50,
    Sma20,
    Rsi14,
    Macd,
    MacdSignal,
    MacdHistogram,
    BollingerUpper,
    BollingerLower,
    Atr14,
    Hv20,
    HvRank,
    HvPercentile,
    PriorHigh,
    PriorLow,
    PriorVolumeAverage,
}

impl IndicatorName {
    /// Every name, in the builder's order (the engine's [`Indicator::ALL`]).
    pub const ALL: [IndicatorName; 21] = [
        IndicatorName::Close,
        IndicatorName::Open,
        IndicatorName::High,
        IndicatorName::Low,
        IndicatorName::Volume,
        IndicatorName::Ema20,
        IndicatorName::Ema50,
        IndicatorName::Sma20,
        IndicatorName::Rsi14,
        IndicatorName::Macd,
        IndicatorName::MacdSignal,
        IndicatorName::MacdHistogram,
        IndicatorName::BollingerUpper,
        IndicatorName::BollingerLower,
        IndicatorName::Atr14,
        IndicatorName::Hv20,
        IndicatorName::HvRank,
        IndicatorName::HvPercentile,
        IndicatorName::PriorHigh,
        IndicatorName::PriorLow,
        IndicatorName::PriorVolumeAverage,
    ];
}

impl From<IndicatorName> for Indicator {
    fn from(name: IndicatorName) -> Self {
        match name {
            IndicatorName::Open => Indicator::Open,
            IndicatorName::High => Indicator::High,
            IndicatorName::Low => Indicator::Low,
            IndicatorName::Close => Indicator::Close,
            IndicatorName::Volume => Indicator::Volume,
            IndicatorName::Ema20 => Indicator::Ema20,
            IndicatorName::Ema50 => Indicator::Ema50,
            IndicatorName::Sma20 => Indicator::Sma20,
            IndicatorName::Rsi14 => Indicator::Rsi14,
            IndicatorName::Macd => Indicator::Macd,
            IndicatorName::MacdSignal => Indicator::MacdSignal,
            IndicatorName::MacdHistogram => Indicator::MacdHistogram,
            IndicatorName::BollingerUpper => Indicator::BollingerUpper,
            IndicatorName::BollingerLower => Indicator::BollingerLower,
            IndicatorName::Atr14 => Indicator::Atr14,
            IndicatorName::Hv20 => Indicator::Hv20,
            IndicatorName::HvRank => Indicator::HvRank,
            IndicatorName::HvPercentile => Indicator::HvPercentile,
            IndicatorName::PriorHigh => Indicator::PriorHigh,
            IndicatorName::PriorLow => Indicator::PriorLow,
            IndicatorName::PriorVolumeAverage => Indicator::PriorVolumeAverage,
        }
    }
}

/// Which listed strike, one of the two: `offset`, listed strikes from the one nearest the price
/// (+ out of the money, − in; 0 for a straddle), or `delta`, the strike whose model delta is
/// nearest (not for a straddle).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StrikeDocument {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = -10, maximum = 10)]
    pub offset: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.05, maximum = 0.95)]
    pub delta: Option<f64>,
}

/// How a signal closes: at the target, at the stop, or after `maxDays`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExitsDocument {
    /// The premium up by this fraction (0.5 = +50%).
    #[schema(minimum = 0.05, maximum = 10)]
    pub target_gain: f64,
    /// The premium down by this fraction (0.3 = −30%).
    #[schema(minimum = 0.05, maximum = 0.95)]
    pub stop_loss: f64,
    /// Closed at the first close this many calendar days after entry; absent holds to expiry.
    #[schema(minimum = 1, maximum = 365)]
    pub max_days: Option<u32>,
}

fn condition(doc: &ConditionDocument) -> Condition {
    let operand = |o: &OperandDocument| match o {
        OperandDocument::Indicator(i) => {
            Operand::Indicator { indicator: i.name.into(), bars_ago: usize::try_from(i.bars_ago).unwrap_or(usize::MAX) }
        }
        OperandDocument::Number(x) => Operand::Number(*x),
    };
    let direction = |d: DirectionName| match d {
        DirectionName::Above => Direction::Above,
        DirectionName::Below => Direction::Below,
    };
    match doc {
        ConditionDocument::All(list) => Condition::All(list.iter().map(condition).collect()),
        ConditionDocument::Any(list) => Condition::Any(list.iter().map(condition).collect()),
        ConditionDocument::Compare(c) => {
            Condition::Compare { left: operand(&c.left), direction: direction(c.is), right: operand(&c.right) }
        }
        ConditionDocument::Crosses(c) => {
            Condition::Crosses { left: operand(&c.left), direction: direction(c.is), right: operand(&c.right) }
        }
    }
}

impl CustomStrategyDocument {
    /// The engine's strategy, or every mistake as a 422 naming its path under `prefix`
    /// (`customStrategy.entry.all[1].compare.right`).
    ///
    /// # Errors
    /// [`AppError::Validation`] listing each mistake.
    pub fn to_engine(&self, prefix: &str) -> Result<CustomStrategy> {
        let strategy = CustomStrategy {
            entry: condition(&self.entry),
            opens: self.opens.into(),
            strike: match (self.strike.offset, self.strike.delta) {
                (_, Some(d)) => StrikeRule::Delta(d),
                (offset, None) => StrikeRule::Offset(offset.unwrap_or(0)),
            },
            min_days: self.min_days,
            monthly: self.monthly,
            exits: Exits { target_gain: self.exits.target_gain, stop_loss: self.exits.stop_loss, max_days: self.exits.max_days },
        };
        let mut errors = Vec::new();
        if self.strike.offset.is_some() == self.strike.delta.is_some() {
            errors.push(FieldError::new(format!("{prefix}.strike"), "Give one of offset (listed strikes from the price) or delta."));
        }
        if self.version != VERSION {
            errors.push(FieldError::new(format!("{prefix}.version"), format!("This server reads version {VERSION}.")));
        }
        if let Some(p) = self.min_probability {
            let (low, high) = MIN_PROBABILITY_RANGE;
            if !(low..=high).contains(&p) {
                errors.push(FieldError::new(
                    format!("{prefix}.minProbability"),
                    format!("The model's probability threshold is between {low} and {high} (0.6 = 60%)."),
                ));
            }
        }
        if let Err(mistakes) = strategy.validate() {
            errors.extend(mistakes.into_iter().map(|e| FieldError::new(format!("{prefix}.{}", e.path), e.message)));
        }
        if errors.is_empty() { Ok(strategy) } else { Err(AppError::Validation(errors)) }
    }
}

/// The kind of quantity an indicator is: only indicators of one kind compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum IndicatorKind {
    /// Dollars a share: prices, averages, bands, range levels, the ATR.
    Price,
    /// MACD's line, signal and histogram.
    Momentum,
    /// 0–100 readings: RSI, HV rank, HV percentile.
    Points,
    /// Annualised volatility in percent (HV(20)).
    Volatility,
    /// Shares traded.
    Volume,
}

impl From<custom::Kind> for IndicatorKind {
    fn from(kind: custom::Kind) -> Self {
        match kind {
            custom::Kind::Price => IndicatorKind::Price,
            custom::Kind::Momentum => IndicatorKind::Momentum,
            custom::Kind::Points => IndicatorKind::Points,
            custom::Kind::Volatility => IndicatorKind::Volatility,
            custom::Kind::Volume => IndicatorKind::Volume,
        }
    }
}

/// One indicator a rule can read.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IndicatorInfo {
    pub name: IndicatorName,
    /// As the reasoning names it: "close", "EMA(20)", "RSI(14)".
    pub label: String,
    pub kind: IndicatorKind,
}

/// What a rule can read and how large it may be: the builder's one source for both.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleLanguage {
    /// The document version this server reads.
    pub version: u32,
    /// Every indicator, in the builder's order.
    pub indicators: Vec<IndicatorInfo>,
    /// Conditions in one group.
    pub max_group: usize,
    /// How deep groups nest (the top level is 1).
    pub max_depth: usize,
    /// Comparisons in a whole rule.
    pub max_conditions: usize,
    /// Bars back an operand may read (one fewer in a cross).
    pub max_bars_ago: usize,
    /// Strategies one user keeps.
    pub max_strategies: u32,
    /// A strategy's name, in characters.
    pub max_name: usize,
    /// Inclusive ranges of the document's numbers.
    pub ranges: RuleRanges,
}

/// The inclusive `[low, high]` of each number of a document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleRanges {
    /// `strike.offset`: listed strikes from the money.
    pub offset: [i32; 2],
    /// `strike.delta`.
    pub delta: [f64; 2],
    /// `minDays` and `exits.maxDays`: calendar days.
    pub days: [u32; 2],
    /// `exits.targetGain`: a fraction of the premium.
    pub target_gain: [f64; 2],
    /// `exits.stopLoss`: a fraction of the premium.
    pub stop_loss: [f64; 2],
}

/// The rule language's catalogue (`GET /api/strategies/custom/language`).
pub fn language() -> RuleLanguage {
    let indicators = IndicatorName::ALL
        .iter()
        .map(|&name| {
            let indicator = Indicator::from(name);
            IndicatorInfo { name, label: indicator.label().to_owned(), kind: indicator.kind().into() }
        })
        .collect();
    RuleLanguage {
        version: VERSION,
        indicators,
        max_group: custom::MAX_GROUP,
        max_depth: custom::MAX_DEPTH,
        max_conditions: custom::MAX_CONDITIONS,
        max_bars_ago: strikeline_engine::MAX_LOOKBACK,
        max_strategies: MAX_STRATEGIES,
        max_name: MAX_NAME,
        ranges: RuleRanges {
            offset: [custom::OFFSET_RANGE.0, custom::OFFSET_RANGE.1],
            delta: [custom::DELTA_RANGE.0, custom::DELTA_RANGE.1],
            days: [custom::DAYS_RANGE.0, custom::DAYS_RANGE.1],
            target_gain: [custom::TARGET_GAIN_RANGE.0, custom::TARGET_GAIN_RANGE.1],
            stop_loss: [custom::STOP_LOSS_RANGE.0, custom::STOP_LOSS_RANGE.1],
        },
    }
}

/// The most custom strategies one user keeps.
pub const MAX_STRATEGIES: u32 = 20;
/// The longest name, in characters.
const MAX_NAME: usize = 60;

/// A saved custom strategy.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomStrategyView {
    pub id: String,
    pub name: String,
    pub document: CustomStrategyDocument,
    /// Switched on: its signals are issued to its owner (alone) as the market moves, while
    /// the plan includes custom strategies.
    pub active: bool,
    /// The owner's automation opens paper positions from its signals, sized by their investment
    /// preferences like the house rules' (only while `active`).
    pub automate: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// `PUT /api/strategies/custom/{id}/active`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActiveInput {
    pub active: bool,
    /// Open paper positions from its signals automatically (default off); only with `active`.
    #[serde(default)]
    pub automate: bool,
}

/// `POST /api/strategies/custom` and `PUT /api/strategies/custom/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomStrategyInput {
    /// 1–60 characters, unique among the user's strategies.
    #[schema(min_length = 1, max_length = 60)]
    pub name: String,
    pub document: CustomStrategyDocument,
}

/// The stored row as the API shows it.
pub fn view(row: CustomStrategyRow) -> Result<CustomStrategyView> {
    let document =
        serde_json::from_str(&row.document).map_err(|e| AppError::Internal(anyhow::anyhow!("stored custom strategy {}: {e}", row.id)))?;
    Ok(CustomStrategyView {
        id: row.id,
        name: row.name,
        document,
        active: row.active,
        automate: row.automate,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// The name, trimmed and checked, and the document, checked, as stored text (Premium first).
fn checked(user: &UserRecord, input: &CustomStrategyInput, now: DateTime<Utc>) -> Result<(String, String)> {
    Entitlements::of(user, now).require(Capability::CustomStrategies)?;
    let name = input.name.trim();
    let mut errors = Vec::new();
    if name.is_empty() {
        errors.push(FieldError::new("name", "Please enter a name"));
    } else if name.chars().count() > MAX_NAME {
        errors.push(FieldError::new("name", format!("At most {MAX_NAME} characters")));
    } else if name.chars().any(char::is_control) {
        errors.push(FieldError::new("name", "No control characters"));
    }
    if let Err(AppError::Validation(mistakes)) = input.document.to_engine("document") {
        errors.extend(mistakes);
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let text = serde_json::to_string(&input.document).map_err(|e| AppError::Internal(e.into()))?;
    Ok((name.to_owned(), text))
}

/// Saves a new custom strategy for `user` (Premium; at most [`MAX_STRATEGIES`], names unique).
pub async fn create(state: &AppState, user: &UserRecord, input: &CustomStrategyInput, now: DateTime<Utc>) -> Result<CustomStrategyView> {
    let (name, document) = checked(user, input, now)?;
    let row = CustomStrategyRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        name,
        document,
        active: false,
        automate: false,
        created_at: now,
        updated_at: now,
    };
    if !store::insert_within(&state.db, &row, MAX_STRATEGIES).await? {
        // The whole request is refused, not its name: the field is `body`.
        return Err(AppError::Conflict(FieldError::new(
            "body",
            format!("You keep {MAX_STRATEGIES} custom strategies. Delete one to save another."),
        )));
    }
    view(row)
}

/// Replaces one of `user`'s custom strategies (Premium).
pub async fn update(
    state: &AppState,
    user: &UserRecord,
    id: &str,
    input: &CustomStrategyInput,
    now: DateTime<Utc>,
) -> Result<CustomStrategyView> {
    let (name, document) = checked(user, input, now)?;
    store::update(&state.db, &user.id, id, &name, &document, now).await?;
    view(store::find(&state.db, &user.id, id).await?)
}

/// Switches one of `user`'s custom strategies and its automation on (Premium) or off (any plan:
/// a downgraded account can always stop what it started).
pub async fn set_active(
    state: &AppState,
    user: &UserRecord,
    input: &ActiveInput,
    id: &str,
    now: DateTime<Utc>,
) -> Result<CustomStrategyView> {
    if input.active || input.automate {
        Entitlements::of(user, now).require(Capability::CustomStrategies)?;
    }
    if input.automate && !input.active {
        return Err(AppError::field("automate", "Switch the strategy's live signals on to automate them"));
    }
    store::set_active(&state.db, &user.id, id, input.active, input.automate, now).await?;
    view(store::find(&state.db, &user.id, id).await?)
}

/// A switched-on strategy the scheduler runs: its owner's plan includes it and its document
/// reads as a rule.
pub struct LiveStrategy {
    pub id: String,
    pub name: String,
    pub owner: String,
    pub rule: CustomStrategy,
    /// The document's `minProbability`.
    pub min_probability: Option<f64>,
}

/// Every switched-on strategy whose owner's plan includes custom strategies at `now` (the one
/// entitlement check); a stored document that no longer reads as a rule is left out and logged.
pub async fn live(state: &AppState, now: DateTime<Utc>) -> Result<Vec<LiveStrategy>> {
    let mut live = Vec::new();
    let mut owner: Option<(String, bool)> = None;
    for row in store::active(&state.db).await? {
        if owner.as_ref().is_none_or(|(id, _)| *id != row.user_id) {
            let entitled = strikeline_store::users::find_by_id(&state.db, &row.user_id)
                .await?
                .is_some_and(|user| Entitlements::of(&user, now).allows(Capability::CustomStrategies));
            owner = Some((row.user_id.clone(), entitled));
        }
        if !owner.as_ref().is_some_and(|(_, entitled)| *entitled) {
            continue;
        }
        let read = serde_json::from_str::<CustomStrategyDocument>(&row.document)
            .ok()
            .and_then(|d| d.to_engine("document").ok().map(|rule| (rule, d.min_probability)));
        match read {
            Some((rule, min_probability)) => {
                live.push(LiveStrategy { id: row.id, name: row.name, owner: row.user_id, rule, min_probability });
            }
            None => tracing::warn!(strategy = %row.id, "a stored custom strategy no longer reads as a rule; not run"),
        }
    }
    Ok(live)
}

/// `POST /api/strategies/custom/preview`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewRequest {
    pub document: CustomStrategyDocument,
    /// Tracked symbols to judge (at most 100); every tracked symbol when absent.
    #[schema(max_items = 100)]
    pub symbols: Option<Vec<String>>,
}

/// One top-level condition as judged, with the values it read.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JudgedCondition {
    pub text: String,
    pub holds: bool,
}

/// What the rule would open on a symbol now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewProposal {
    pub signal_type: SignalKind,
    pub strike_price: f64,
    pub expiration_date: NaiveDate,
    /// Premiums per share.
    pub entry_price: f64,
    pub target_price: f64,
    pub stop_loss: f64,
    pub reasoning: String,
    /// The predictive model's figure for the setup (0–1), the one `minProbability` is held
    /// against. The track record checks it for the house strategies' signals only, so on a
    /// custom rule's setup it is an estimate, shown as a score; `null` while no model ships.
    #[schema(minimum = 0, maximum = 1)]
    pub model_probability: Option<f64>,
    /// Whether it would become a signal: always without `minProbability`, else only when the
    /// model's probability is at least the threshold.
    pub clears_threshold: bool,
}

/// The rule on one symbol's latest bar.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolPreview {
    pub symbol: String,
    /// The bar judged (today's partial bar while the market is open).
    pub as_of: NaiveDate,
    pub triggered: bool,
    /// 0–100: 50–95 when it fires, at most 49 when not.
    pub confidence: u8,
    pub conditions: Vec<JudgedCondition>,
    /// When it fires and can be priced.
    pub proposal: Option<PreviewProposal>,
}

/// What a custom strategy says now on each symbol: firing ones first, then by confidence.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    pub symbols: Vec<SymbolPreview>,
    /// How many fire now.
    pub firing: usize,
    /// Symbols without a year of history yet, not judged.
    pub not_enough_history: Vec<String>,
    /// The model that scored the proposals; `null` while none ships.
    pub model_version: Option<String>,
}

/// The rule judged on each chosen symbol now (Premium). A preview counts against the
/// `strategy_preview` limit once the plan and the rule are found good, so a refused one costs
/// nothing.
pub async fn preview(state: &AppState, user: &UserRecord, request: &PreviewRequest, now: DateTime<Utc>) -> Result<(RateLimit, Preview)> {
    Entitlements::of(user, now).require(Capability::CustomStrategies)?;
    let strategy = request.document.to_engine("document")?;
    let limit = limits::hit(state, limits::STRATEGY_PREVIEW, &user.id, now).await?;
    let stocks = market::list_stocks(&state.db).await?;
    let symbols: Vec<String> = match &request.symbols {
        None => stocks.iter().map(|s| s.symbol.clone()).collect(),
        Some(list) if list.len() > 100 => return Err(AppError::field("symbols", "At most 100 symbols")),
        Some(list) => {
            let mut chosen = Vec::new();
            for raw in list {
                let wanted = raw.trim().to_ascii_uppercase();
                match stocks.iter().find(|s| s.symbol == wanted) {
                    Some(s) => chosen.push(s.symbol.clone()),
                    None => {
                        return Err(AppError::field(
                            "symbols",
                            &format!("{:?} is not a tracked stock", raw.chars().take(12).collect::<String>()),
                        ));
                    }
                }
            }
            chosen.sort();
            chosen.dedup();
            chosen
        }
    };
    let quotes = state.market.provider.quotes(&symbols, now).await.map_err(|e| AppError::upstream("Market data", e))?;
    let scoring = predicting::Scoring::load(state, now).await?;
    let scorer = scoring.as_ref().map(predicting::Scoring::scorer);
    let threshold = request.document.min_probability;
    let mut out = Preview {
        symbols: Vec::new(),
        firing: 0,
        not_enough_history: Vec::new(),
        model_version: scoring.as_ref().map(|s| s.version.clone()),
    };
    for symbol in symbols {
        let quote = quotes.iter().find(|q| q.symbol == symbol);
        let sector = stocks.iter().find(|s| s.symbol == symbol).map_or("", |s| s.sector.as_str());
        let Some((engine, as_of, spot)) = state.market.state_now(&state.db, &symbol, quote, now).await? else {
            out.not_enough_history.push(symbol);
            continue;
        };
        let Some(judgement) = strategy.judge(&engine) else {
            out.not_enough_history.push(symbol);
            continue;
        };
        let proposal = if judgement.triggered {
            let picker = |from: NaiveDate, min_days: u32| state.market.expiration(from, min_days);
            let ctx = ProposalContext { symbol: &symbol, as_of, spot, assumptions: state.market.assumptions, expiration: &picker };
            strategy.propose(&engine, &ctx).map(|p| {
                // Scored as the issued signal would be.
                let context = engine.latest().map(EntryContext::of).unwrap_or_default();
                let model_probability = scorer.as_ref().map(|s| s.judge(&p, as_of, context, sector).0);
                PreviewProposal {
                    signal_type: p.signal_type.into(),
                    strike_price: p.strike,
                    expiration_date: p.expiration,
                    entry_price: p.entry_price,
                    target_price: p.target_price,
                    stop_loss: p.stop_loss,
                    reasoning: p.reasoning,
                    model_probability,
                    clears_threshold: clears(threshold, model_probability),
                }
            })
        } else {
            None
        };
        out.firing += usize::from(judgement.triggered);
        out.symbols.push(SymbolPreview {
            symbol,
            as_of,
            triggered: judgement.triggered,
            confidence: judgement.confidence,
            conditions: judgement.conditions.into_iter().map(|(text, holds)| JudgedCondition { text, holds }).collect(),
            proposal,
        });
    }
    out.symbols.sort_by(|a, b| (b.triggered, b.confidence).cmp(&(a.triggered, a.confidence)).then_with(|| a.symbol.cmp(&b.symbol)));
    Ok((limit, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_reads_and_mistakes_are_named_by_path() {
        let text = r#"{"version": 1,
            "entry": {"all": [
                {"compare": {"left": {"indicator": {"name": "rsi14"}}, "is": "below", "right": {"number": 30}}},
                {"crosses": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"indicator": {"name": "bollingerLower"}}}}]},
            "opens": "CALL", "strike": {"offset": 0}, "minDays": 30,
            "exits": {"targetGain": 0.5, "stopLoss": 0.3, "maxDays": 10}}"#;
        let doc: CustomStrategyDocument = serde_json::from_str(text).expect("the module's example");
        let strategy = doc.to_engine("customStrategy").expect("valid");
        // The catalogue lists the engine's indicators, in its order, each with its kind.
        let catalogue = language();
        let engine: Vec<Indicator> = catalogue.indicators.iter().map(|i| Indicator::from(i.name)).collect();
        assert_eq!(engine, Indicator::ALL);
        assert_eq!(catalogue.indicators[8].label, "RSI(14)");
        assert_eq!(catalogue.indicators[8].kind, IndicatorKind::Points);
        assert_eq!(strategy.lookback(), 1);
        assert_eq!(serde_json::to_value(&doc).expect("json")["entry"]["all"][0]["compare"]["is"], "below");

        let wrong = CustomStrategyDocument {
            version: 2,
            strike: StrikeDocument { offset: None, delta: Some(0.3) },
            opens: SignalKind::Straddle,
            exits: ExitsDocument { max_days: Some(0), ..doc.exits },
            min_probability: Some(0.99),
            ..doc
        };
        let Err(AppError::Validation(errors)) = wrong.to_engine("customStrategy") else { panic!("refused") };
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["customStrategy.version", "customStrategy.minProbability", "customStrategy.strike.delta", "customStrategy.exits.maxDays"]
        );
        for bad in [0.0, 0.04, 0.951, 1.0, f64::NAN] {
            let doc = CustomStrategyDocument { min_probability: Some(bad), ..wrong.clone() };
            let Err(AppError::Validation(errors)) = doc.to_engine("d") else { panic!("refused") };
            assert!(errors.iter().any(|e| e.field == "d.minProbability"), "{bad}");
        }
    }

    #[test]
    fn a_threshold_needs_a_probability_at_least_as_high() {
        assert!(clears(None, None), "no threshold: the rule alone decides");
        assert!(clears(None, Some(0.1)));
        assert!(!clears(Some(0.6), None), "no model ships: a custom AI strategy issues nothing");
        assert!(!clears(Some(0.6), Some(0.5999)));
        assert!(clears(Some(0.6), Some(0.6)));
        assert!(clears(Some(0.6), Some(0.8)));
    }
}
