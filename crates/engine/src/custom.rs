//! Custom strategies (Premium): a user's own rule over the indicators the engine already
//! computes, and what it opens. `docs/strategies.md` §11 is the user's reference.
//!
//! A [`CustomStrategy`] is a tree of [`Condition`]s: comparisons and crosses between two
//! [`Operand`]s (an [`Indicator`], now or up to [`MAX_LOOKBACK`] bars ago, or a number), joined
//! by "all of" and "any of". It is evaluated by the same scoring as the four built-in rules
//! ([`Evaluation`]): each condition of the top level is one check, with a degree that is 0.5
//! exactly at its threshold, above when it holds; a group's degree is the mean of its
//! members' ("all") or the best of them ("any"). So a custom signal's confidence means what a
//! built-in one's does, and it is priced into the same [`Proposal`], backtested by the same
//! backtester ([`crate::backtest::BacktestConfig::custom`]).
//!
//! Distances are measured in the unit of the compared quantity: prices (and the moving
//! averages, bands and range levels) in ATRs; MACD in fifths of an ATR; RSI, HV rank and HV
//! percentile in 10 points; HV(20) in 5 volatility points; volume relative to the other side
//! (half of it is one unit). Two indicators of different kinds cannot be compared.
//!
//! ```
//! use strikeline_engine::custom::{Condition, CustomStrategy, Direction, Exits, Indicator, Operand, StrikeRule};
//! use strikeline_engine::SignalType;
//! let oversold = CustomStrategy {
//!     entry: Condition::All(vec![
//!         Condition::Compare { left: Operand::now(Indicator::Rsi14), direction: Direction::Below, right: Operand::Number(30.0) },
//!         Condition::Crosses { left: Operand::now(Indicator::Close), direction: Direction::Above, right: Operand::now(Indicator::BollingerLower) },
//!     ]),
//!     opens: SignalType::Call,
//!     strike: StrikeRule::Offset(0),
//!     min_days: 30,
//!     monthly: false,
//!     exits: Exits { target_gain: 0.5, stop_loss: 0.3, max_days: Some(10) },
//! };
//! assert!(oversold.validate().is_ok());
//! assert_eq!(oversold.lookback(), 1, "a cross reads the bar before");
//! let bad = CustomStrategy { strike: StrikeRule::Delta(1.5), ..oversold };
//! assert_eq!(bad.validate().unwrap_err()[0].path, "strike.delta");
//! ```

use std::fmt::{self, Write};

use chrono::{Datelike, NaiveDate};
use strikeline_quant::{BlackScholes, OptionInputs};

use crate::lifecycle::years_between;
use crate::proposal::{
    MIN_VOLATILITY, Proposal, ProposalContext, contract_noun, premium, pricing_volatility, round_cents, sigma_note, strike_increment,
};
use crate::state::{MAX_LOOKBACK, Snapshot, SymbolState};
use crate::strategies::{Check, Evaluation, Fact, MAX_CHECKS, ramp, volume_text};
use crate::types::{SignalType, Strategy};

/// The rule document's version this engine reads.
pub const DOCUMENT_VERSION: u32 = 1;
/// Groups nest at most this deep (the top level is depth 1).
pub const MAX_DEPTH: usize = 3;
/// A group holds at most this many conditions.
pub const MAX_GROUP: usize = MAX_CHECKS;
/// A rule compares at most this many pairs in all.
pub const MAX_CONDITIONS: usize = 20;
/// A number in a rule is at most this large in magnitude.
pub const MAX_NUMBER: f64 = 1e9;
/// [`StrikeRule::Offset`]'s listed strikes from the money, inclusive.
pub const OFFSET_RANGE: (i32, i32) = (-10, 10);
/// [`StrikeRule::Delta`]'s absolute delta, inclusive.
pub const DELTA_RANGE: (f64, f64) = (0.05, 0.95);
/// Calendar days: the minimum to expiration, and the days to hold.
pub const DAYS_RANGE: (u32, u32) = (1, 365);
/// [`Exits::target_gain`], a fraction of the premium (+5 % to +1000 %).
pub const TARGET_GAIN_RANGE: (f64, f64) = (0.05, 10.0);
/// [`Exits::stop_loss`], a fraction of the premium (−5 % to −95 %).
pub const STOP_LOSS_RANGE: (f64, f64) = (0.05, 0.95);

/// What a rule can read: the values of [`Snapshot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Indicator {
    Open,
    High,
    Low,
    Close,
    Volume,
    /// EMA(20) of the close.
    Ema20,
    /// EMA(50) of the close.
    Ema50,
    /// SMA(20) of the close (the Bollinger middle band).
    Sma20,
    /// Wilder's RSI(14), 0–100.
    Rsi14,
    /// MACD(12, 26) line.
    Macd,
    /// Its 9-day signal line.
    MacdSignal,
    /// MACD − signal.
    MacdHistogram,
    /// SMA(20) + 2σ.
    BollingerUpper,
    /// SMA(20) − 2σ.
    BollingerLower,
    /// Wilder's ATR(14).
    Atr14,
    /// 20-day historical volatility, annualised, in percent.
    Hv20,
    /// Rank of HV(20) in its 252-day range, 0–100.
    HvRank,
    /// Percentile of HV(20) among its last 252 values, 0–100.
    HvPercentile,
    /// Highest high of the 20 bars before.
    PriorHigh,
    /// Lowest low of the 20 bars before.
    PriorLow,
    /// Average volume of the 20 bars before.
    PriorVolumeAverage,
}

/// The kind of quantity an indicator is: only quantities of one kind compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Dollars a share: prices, averages, bands, range levels, the ATR.
    Price,
    /// MACD's line, signal and histogram (dollars, centred on zero).
    Momentum,
    /// 0–100 oscillators: RSI, HV rank, HV percentile.
    Points,
    /// Annualised volatility in percent.
    Volatility,
    /// Shares traded.
    Volume,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Price => "a price",
            Kind::Momentum => "a MACD value",
            Kind::Points => "a 0–100 reading",
            Kind::Volatility => "a volatility",
            Kind::Volume => "a volume",
        }
    }
}

impl Indicator {
    /// Every indicator, in the builder's order.
    pub const ALL: [Indicator; 21] = [
        Indicator::Close,
        Indicator::Open,
        Indicator::High,
        Indicator::Low,
        Indicator::Volume,
        Indicator::Ema20,
        Indicator::Ema50,
        Indicator::Sma20,
        Indicator::Rsi14,
        Indicator::Macd,
        Indicator::MacdSignal,
        Indicator::MacdHistogram,
        Indicator::BollingerUpper,
        Indicator::BollingerLower,
        Indicator::Atr14,
        Indicator::Hv20,
        Indicator::HvRank,
        Indicator::HvPercentile,
        Indicator::PriorHigh,
        Indicator::PriorLow,
        Indicator::PriorVolumeAverage,
    ];

    /// How the reasoning names it: "close", "EMA(20)", "RSI(14)", …
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Indicator::Open => "open",
            Indicator::High => "high",
            Indicator::Low => "low",
            Indicator::Close => "close",
            Indicator::Volume => "volume",
            Indicator::Ema20 => "EMA(20)",
            Indicator::Ema50 => "EMA(50)",
            Indicator::Sma20 => "SMA(20)",
            Indicator::Rsi14 => "RSI(14)",
            Indicator::Macd => "MACD",
            Indicator::MacdSignal => "MACD signal",
            Indicator::MacdHistogram => "MACD histogram",
            Indicator::BollingerUpper => "upper Bollinger band",
            Indicator::BollingerLower => "lower Bollinger band",
            Indicator::Atr14 => "ATR(14)",
            Indicator::Hv20 => "HV(20)",
            Indicator::HvRank => "HV rank",
            Indicator::HvPercentile => "HV percentile",
            Indicator::PriorHigh => "prior 20-day high",
            Indicator::PriorLow => "prior 20-day low",
            Indicator::PriorVolumeAverage => "prior 20-day average volume",
        }
    }

    /// The kind of quantity it is.
    #[must_use]
    pub fn kind(self) -> Kind {
        match self {
            Indicator::Open
            | Indicator::High
            | Indicator::Low
            | Indicator::Close
            | Indicator::Ema20
            | Indicator::Ema50
            | Indicator::Sma20
            | Indicator::BollingerUpper
            | Indicator::BollingerLower
            | Indicator::Atr14
            | Indicator::PriorHigh
            | Indicator::PriorLow => Kind::Price,
            Indicator::Macd | Indicator::MacdSignal | Indicator::MacdHistogram => Kind::Momentum,
            Indicator::Rsi14 | Indicator::HvRank | Indicator::HvPercentile => Kind::Points,
            Indicator::Hv20 => Kind::Volatility,
            Indicator::Volume | Indicator::PriorVolumeAverage => Kind::Volume,
        }
    }

    /// Its value in `s`; `None` while it is in its look-back.
    #[must_use]
    pub fn read(self, s: &Snapshot) -> Option<f64> {
        match self {
            Indicator::Open => Some(s.open),
            Indicator::High => Some(s.high),
            Indicator::Low => Some(s.low),
            Indicator::Close => Some(s.close),
            Indicator::Volume => Some(s.volume),
            Indicator::Ema20 => s.ema20,
            Indicator::Ema50 => s.ema50,
            Indicator::Sma20 => s.bollinger.map(|b| b.middle),
            Indicator::Rsi14 => s.rsi14,
            Indicator::Macd => s.macd.map(|m| m.macd),
            Indicator::MacdSignal => s.macd.map(|m| m.signal),
            Indicator::MacdHistogram => s.macd.map(|m| m.histogram),
            Indicator::BollingerUpper => s.bollinger.map(|b| b.upper),
            Indicator::BollingerLower => s.bollinger.map(|b| b.lower),
            Indicator::Atr14 => s.atr14,
            Indicator::Hv20 => s.hv20.map(|hv| hv * 100.0),
            Indicator::HvRank => s.hv_rank,
            Indicator::HvPercentile => s.hv_percentile,
            Indicator::PriorHigh => s.prior_high20,
            Indicator::PriorLow => s.prior_low20,
            Indicator::PriorVolumeAverage => s.prior_volume_avg20,
        }
        .filter(|v| v.is_finite())
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// An indicator's value `bars_ago` bars before the latest (0 is the latest, at most
    /// [`MAX_LOOKBACK`]).
    Indicator { indicator: Indicator, bars_ago: usize },
    /// A constant, in the other side's unit (RSI points, dollars, percent of volatility…).
    Number(f64),
}

impl Operand {
    /// `indicator` on the latest bar.
    #[must_use]
    pub fn now(indicator: Indicator) -> Operand {
        Operand::Indicator { indicator, bars_ago: 0 }
    }

    fn kind(self) -> Option<Kind> {
        match self {
            Operand::Indicator { indicator, .. } => Some(indicator.kind()),
            Operand::Number(_) => None,
        }
    }

    /// Its value `extra` bars before the bar it names.
    fn value(self, state: &SymbolState, extra: usize) -> Option<f64> {
        match self {
            Operand::Indicator { indicator, bars_ago } => indicator.read(state.snapshot_ago(bars_ago + extra)?),
            Operand::Number(value) => Some(value),
        }
    }

    fn name(self) -> String {
        match self {
            Operand::Indicator { indicator, bars_ago: 0 } => indicator.label().to_owned(),
            Operand::Indicator { indicator, bars_ago: 1 } => format!("{} 1 bar ago", indicator.label()),
            Operand::Indicator { indicator, bars_ago } => format!("{} {bars_ago} bars ago", indicator.label()),
            Operand::Number(_) => String::new(),
        }
    }
}

/// Above or below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Above,
    Below,
}

impl Direction {
    fn word(self) -> &'static str {
        match self {
            Direction::Above => "above",
            Direction::Below => "below",
        }
    }
}

/// A rule: comparisons and crosses joined by "all of" and "any of".
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// Every member holds.
    All(Vec<Condition>),
    /// At least one member holds.
    Any(Vec<Condition>),
    /// `left` is strictly above (below) `right`.
    Compare { left: Operand, direction: Direction, right: Operand },
    /// `left` was not above (below) `right` one bar before and is now.
    Crosses { left: Operand, direction: Direction, right: Operand },
}

/// Which listed strike a custom signal buys.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StrikeRule {
    /// Listed strikes from the one nearest the spot: 0 at the money, +n out of the money
    /// (above the spot for a call, below for a put), −n in the money; −10 to 10, and 0 for a
    /// straddle.
    Offset(i32),
    /// The listed strike whose model delta is nearest this absolute value (0.05–0.95); not for
    /// a straddle.
    Delta(f64),
}

/// How a custom signal closes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exits {
    /// Target: the premium up by this fraction (0.5 = +50%), 0.05–10.
    pub target_gain: f64,
    /// Stop: the premium down by this fraction (0.3 = −30%), 0.05–0.95.
    pub stop_loss: f64,
    /// Closed at the close this many calendar days after entry if neither was reached
    /// (1–365); `None` holds to expiry.
    pub max_days: Option<u32>,
}

/// A user's strategy: when to enter, what to open and how to close.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomStrategy {
    /// The entry rule.
    pub entry: Condition,
    /// CALL, PUT or STRADDLE.
    pub opens: SignalType,
    pub strike: StrikeRule,
    /// Minimum calendar days to the listed expiration (1–365).
    pub min_days: u32,
    /// The first **monthly** expiration (the third Friday's, or the Thursday before it when
    /// that Friday is a holiday) at least `min_days` away, rather than the first listed one.
    pub monthly: bool,
    pub exits: Exits,
}

/// Whether `day` is its month's monthly expiration: the third Friday, or the Thursday before
/// it (a listed Thursday there is the Friday's holiday expiration).
#[must_use]
pub fn is_monthly_expiration(day: NaiveDate) -> bool {
    let third_friday = |d: NaiveDate| d.weekday() == chrono::Weekday::Fri && (15..=21).contains(&d.day());
    third_friday(day) || (day.weekday() == chrono::Weekday::Thu && day.succ_opt().is_some_and(third_friday))
}

/// Weekly expirations looked through for a monthly one (there is one every four or five weeks).
const MONTHLY_SEARCH: usize = 6;

/// A part of a rule document that is wrong: its path in the document (`entry.all[1].compare.right`)
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for RuleError {}

fn error(errors: &mut Vec<RuleError>, path: impl Into<String>, message: impl Into<String>) {
    errors.push(RuleError { path: path.into(), message: message.into() });
}

impl CustomStrategy {
    /// Every part that is wrong, each named by its path; empty is `Ok`.
    ///
    /// # Errors
    /// The list of [`RuleError`]s, in document order.
    pub fn validate(&self) -> Result<(), Vec<RuleError>> {
        let mut errors = Vec::new();
        let mut leaves = 0;
        validate_condition(&self.entry, "entry", 1, &mut leaves, &mut errors);
        if leaves > MAX_CONDITIONS {
            error(&mut errors, "entry", format!("At most {MAX_CONDITIONS} comparisons in all; this rule has {leaves}."));
        }
        match self.strike {
            StrikeRule::Offset(n) if !(OFFSET_RANGE.0..=OFFSET_RANGE.1).contains(&n) => {
                let (low, high) = OFFSET_RANGE;
                error(&mut errors, "strike.offset", format!("Must be between {low} and {high} listed strikes, got {n}."));
            }
            StrikeRule::Offset(n) if n != 0 && self.opens == SignalType::Straddle => {
                error(&mut errors, "strike.offset", "A straddle buys the strike nearest the price: use 0.");
            }
            StrikeRule::Delta(_) if self.opens == SignalType::Straddle => {
                error(&mut errors, "strike.delta", "A straddle buys the strike nearest the price: use an offset of 0.");
            }
            StrikeRule::Delta(d) if !(DELTA_RANGE.0..=DELTA_RANGE.1).contains(&d) => {
                let (low, high) = DELTA_RANGE;
                error(&mut errors, "strike.delta", format!("Must be between {low} and {high}, got {d}."));
            }
            _ => {}
        }
        let days = DAYS_RANGE.0..=DAYS_RANGE.1;
        let (first_day, last_day) = DAYS_RANGE;
        if !days.contains(&self.min_days) {
            error(&mut errors, "minDays", format!("Must be between {first_day} and {last_day} days, got {}.", self.min_days));
        }
        let exits = self.exits;
        let fraction = |(low, high): (f64, f64), sign: char| {
            format!("Must be between {low} ({sign}{}%) and {high} ({sign}{}%)", percent(low), percent(high))
        };
        if !(TARGET_GAIN_RANGE.0..=TARGET_GAIN_RANGE.1).contains(&exits.target_gain) {
            error(&mut errors, "exits.targetGain", format!("{}, got {}.", fraction(TARGET_GAIN_RANGE, '+'), exits.target_gain));
        }
        if !(STOP_LOSS_RANGE.0..=STOP_LOSS_RANGE.1).contains(&exits.stop_loss) {
            error(&mut errors, "exits.stopLoss", format!("{}, got {}.", fraction(STOP_LOSS_RANGE, '−'), exits.stop_loss));
        }
        if let Some(held) = exits.max_days
            && !days.contains(&held)
        {
            error(&mut errors, "exits.maxDays", format!("Must be between {first_day} and {last_day} days, got {held}."));
        }
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }

    /// The most bars back the rule reads (a cross reads one bar before its operands).
    #[must_use]
    pub fn lookback(&self) -> usize {
        fn deepest(c: &Condition) -> usize {
            let operand = |o: &Operand| match o {
                Operand::Indicator { bars_ago, .. } => *bars_ago,
                Operand::Number(_) => 0,
            };
            match c {
                Condition::All(list) | Condition::Any(list) => list.iter().map(deepest).max().unwrap_or(0),
                Condition::Compare { left, right, .. } => operand(left).max(operand(right)),
                Condition::Crosses { left, right, .. } => operand(left).max(operand(right)) + 1,
            }
        }
        deepest(&self.entry)
    }
}

fn validate_condition(c: &Condition, path: &str, depth: usize, leaves: &mut usize, errors: &mut Vec<RuleError>) {
    match c {
        Condition::All(list) | Condition::Any(list) => {
            let word = if matches!(c, Condition::All(_)) { "all" } else { "any" };
            let here = format!("{path}.{word}");
            if list.is_empty() {
                error(errors, &here, "A group needs at least one condition.");
            } else if list.len() > MAX_GROUP {
                error(errors, &here, format!("A group holds at most {MAX_GROUP} conditions, got {}.", list.len()));
            }
            if depth > MAX_DEPTH {
                error(errors, &here, format!("Groups nest at most {MAX_DEPTH} deep."));
                return;
            }
            for (i, member) in list.iter().enumerate() {
                validate_condition(member, &format!("{here}[{i}]"), depth + 1, leaves, errors);
            }
        }
        Condition::Compare { left, right, .. } | Condition::Crosses { left, right, .. } => {
            *leaves += 1;
            let crosses = matches!(c, Condition::Crosses { .. });
            let here = format!("{path}.{}", if crosses { "crosses" } else { "compare" });
            let lookback = if crosses { MAX_LOOKBACK - 1 } else { MAX_LOOKBACK };
            for (side, operand) in [("left", left), ("right", right)] {
                match *operand {
                    Operand::Indicator { bars_ago, .. } if bars_ago > lookback => error(
                        errors,
                        format!("{here}.{side}.indicator.barsAgo"),
                        format!("At most {lookback} bars ago{}, got {bars_ago}.", if crosses { " in a cross" } else { "" }),
                    ),
                    Operand::Number(x) if !(x.is_finite() && x.abs() <= MAX_NUMBER) => {
                        error(
                            errors,
                            format!("{here}.{side}.number"),
                            format!("Must be a number between -{MAX_NUMBER:e} and {MAX_NUMBER:e}."),
                        );
                    }
                    _ => {}
                }
            }
            match (left.kind(), right.kind()) {
                (None, None) => error(errors, &here, "Compare an indicator: two numbers always compare the same way."),
                (Some(a), Some(b)) if a != b => error(
                    errors,
                    format!("{here}.right"),
                    format!("{} is {}, {} is {}: they cannot be compared.", left.name(), a.describe(), right.name(), b.describe()),
                ),
                _ => {}
            }
        }
    }
}

/// One condition judged on a bar: whether it holds, its degree and what it read.
struct Judged {
    holds: bool,
    degree: f64,
    text: String,
}

/// Formats a value of `kind` for the reasoning.
fn show(kind: Option<Kind>, value: f64) -> String {
    match kind {
        Some(Kind::Price) => format!("{value:.2}"),
        Some(Kind::Momentum) => format!("{value:.3}"),
        Some(Kind::Points) => format!("{value:.1}"),
        Some(Kind::Volatility) => format!("{value:.1}%"),
        Some(Kind::Volume) => volume_text(value),
        None => format!("{value}"),
    }
}

/// The signed distance of `left` past `right` in the direction, in the unit of their kind
/// (see the module documentation): above zero when the comparison holds.
fn distance(kind: Option<Kind>, left: f64, right: f64, direction: Direction, scale: f64) -> f64 {
    let sign = match direction {
        Direction::Above => 1.0,
        Direction::Below => -1.0,
    };
    let d = match kind {
        Some(Kind::Price) => (left - right) / scale,
        Some(Kind::Momentum) => (left - right) / (0.2 * scale),
        Some(Kind::Points) => (left - right) / 10.0,
        Some(Kind::Volatility) => (left - right) / 5.0,
        Some(Kind::Volume) if right.abs() > 0.0 => (left / right - 1.0) / 0.5,
        Some(Kind::Volume) | None => (left - right).signum(),
    };
    sign * d
}

/// `c` on the latest bar; its text only when `describe` (a backtest reads the text of the bars
/// that fire alone).
fn judge(c: &Condition, state: &SymbolState, scale: f64, describe: bool) -> Judged {
    match c {
        Condition::All(list) | Condition::Any(list) => {
            let all = matches!(c, Condition::All(_));
            let members: Vec<Judged> = list.iter().map(|m| judge(m, state, scale, describe)).collect();
            let n = members.len().max(1) as f64;
            let (holds, degree) = if all {
                (members.iter().all(|m| m.holds), members.iter().map(|m| m.degree).sum::<f64>() / n)
            } else {
                (members.iter().any(|m| m.holds), members.iter().map(|m| m.degree).fold(0.0, f64::max))
            };
            if !describe {
                return Judged { holds, degree, text: String::new() };
            }
            let joiner = if all { " and " } else { " or " };
            let text = members.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join(joiner);
            Judged { holds, degree, text: format!("({text})") }
        }
        Condition::Compare { left, direction, right } | Condition::Crosses { left, direction, right } => {
            let crosses = matches!(c, Condition::Crosses { .. });
            let kind = left.kind().or(right.kind());
            let side = |o: &Operand, v: f64| match o {
                Operand::Number(_) => show(kind, v),
                _ => format!("{} {}", o.name(), show(kind, v)),
            };
            let (Some(l), Some(r)) = (left.value(state, 0), right.value(state, 0)) else {
                let missing = || if left.value(state, 0).is_none() { left.name() } else { right.name() };
                let text = if describe { format!("{} not available yet", missing()) } else { String::new() };
                return Judged { holds: false, degree: 0.0, text };
            };
            let d = distance(kind, l, r, *direction, scale);
            let word = direction.word();
            if !crosses {
                let holds = d > 0.0;
                let not = if holds { "" } else { "not " };
                let text = if describe { format!("{} {not}{word} {}", side(left, l), side(right, r)) } else { String::new() };
                return Judged { holds, degree: ramp(d, -1.0, 0.0, 1.0), text };
            }
            let before = match (left.value(state, 1), right.value(state, 1)) {
                (Some(pl), Some(pr)) => Some(distance(kind, pl, pr, *direction, scale)),
                _ => None,
            };
            let holds = d > 0.0 && before.is_some_and(|b| b <= 0.0);
            // A cross that did not happen stays at or under the threshold's 0.5, even when the
            // left side has long been past the right one.
            let degree = if holds { ramp(d, -1.0, 0.0, 1.0) } else { ramp(d, -1.0, 0.0, 1.0).min(0.5) };
            let verb = if holds { "crossed" } else { "did not cross" };
            let text = if describe { format!("{} {verb} {word} {}", side(left, l), side(right, r)) } else { String::new() };
            Judged { holds, degree, text }
        }
    }
}

/// A custom rule judged on the latest bar: the [`Evaluation`] every strategy has, and the
/// text of each of its checks.
pub(crate) struct CustomEvaluation {
    pub evaluation: Evaluation,
    pub texts: Vec<String>,
}

/// What a custom rule says on a symbol's latest bar, fired or not: the builder's preview.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// Every top-level condition holds.
    pub triggered: bool,
    /// 0–100, read like a built-in rule's: 50–95 when it fires, at most 49 when not.
    pub confidence: u8,
    /// Each top-level condition's text with the values read, and whether it holds.
    pub conditions: Vec<(String, bool)>,
}

impl CustomStrategy {
    /// The rule on `state`'s latest bar, fired or not; `None` before the state is warm.
    #[must_use]
    pub fn judge(&self, state: &SymbolState) -> Option<Judgement> {
        let judged = self.evaluate(state, true)?;
        let holds = judged.evaluation.checks().map(|c| c.holds);
        Some(Judgement {
            triggered: judged.evaluation.triggered,
            confidence: judged.evaluation.confidence(),
            conditions: judged.texts.iter().cloned().zip(holds).collect(),
        })
    }

    /// The rule on `state`'s latest bar; `None` before the state is warm, and for a rule with
    /// an empty group (it would "fire" on nothing; [`validate`](Self::validate) refuses it).
    pub(crate) fn evaluate(&self, state: &SymbolState, describe: bool) -> Option<CustomEvaluation> {
        fn has_empty_group(c: &Condition) -> bool {
            match c {
                Condition::All(list) | Condition::Any(list) => list.is_empty() || list.iter().any(has_empty_group),
                _ => false,
            }
        }
        if !state.is_warm() || has_empty_group(&self.entry) {
            return None;
        }
        let latest = state.latest()?;
        let scale = latest.atr14?.max(latest.close * 0.001);
        let top: Vec<&Condition> = match &self.entry {
            Condition::All(list) => list.iter().collect(),
            single => vec![single],
        };
        let judged: Vec<Judged> = top.iter().map(|c| judge(c, state, scale, describe)).collect();
        let weight = 1.0 / judged.len().max(1) as f64;
        let checks: Vec<Check> = judged
            .iter()
            .enumerate()
            .map(|(i, j)| Check {
                weight,
                degree: j.degree,
                holds: j.holds,
                fact: Fact::Rule { index: u8::try_from(i).unwrap_or(u8::MAX) },
            })
            .collect();
        let evaluation = Evaluation::new(Strategy::Custom, self.opens, &checks);
        let texts = judged.into_iter().map(|j| j.text.trim_start_matches('(').trim_end_matches(')').to_owned()).collect();
        Some(CustomEvaluation { evaluation, texts })
    }

    /// The listed strike the rule buys at `spot` with `years` to expiry at volatility `sigma`.
    fn strike(&self, spot: f64, years: f64, sigma: f64, ctx: &ProposalContext<'_>) -> Option<f64> {
        let step = strike_increment(spot);
        let atm = (spot / step).round();
        let index = match (self.strike, self.opens) {
            (StrikeRule::Offset(n), SignalType::Call) => atm + f64::from(n),
            (StrikeRule::Offset(n), SignalType::Put) => atm - f64::from(n),
            (StrikeRule::Offset(_), SignalType::Straddle) => atm,
            (StrikeRule::Delta(target), kind) => {
                let option = kind.option_type();
                let delta_at = |k: f64| {
                    BlackScholes::new(OptionInputs {
                        spot,
                        strike: k * step,
                        rate: ctx.assumptions.rate,
                        dividend_yield: ctx.assumptions.dividend_yield,
                        volatility: sigma,
                        time_to_expiry: years,
                    })
                    .ok()
                    .map(|bs| bs.greeks(option).delta.abs())
                };
                // The listed strikes within half the spot either side. |Δ| falls as the strike
                // rises for a call and grows for a put: bisect to the crossing of the target,
                // then take the nearer of the two strikes around it.
                let (low, high) = ((0.5 * spot / step).ceil().max(1.0), (1.5 * spot / step).floor());
                if low > high {
                    return None;
                }
                let call = kind == SignalType::Call;
                // Whether strike index `k` is at or past the target (|Δ| at most it for a call,
                // at least it for a put).
                let past = |k: f64| delta_at(k).map(|d| if call { d <= target } else { d >= target });
                let (mut lo, mut hi) = (low, high);
                if past(lo)? {
                    hi = lo;
                } else if !past(hi)? {
                    lo = hi;
                } else {
                    while hi - lo > 1.0 {
                        let mid = ((lo + hi) / 2.0).floor();
                        if past(mid)? { hi = mid } else { lo = mid }
                    }
                }
                let gap = |k: f64| delta_at(k).map(|d| (d - target).abs());
                if gap(lo)? <= gap(hi)? { lo } else { hi }
            }
        };
        Some(round_cents(index.max(1.0) * step))
    }

    /// The rule's proposal on `state`'s latest bar when it fires, priced like every signal;
    /// `None` when it does not fire, before the state is warm or when it cannot be priced.
    #[must_use]
    pub fn propose(&self, state: &SymbolState, ctx: &ProposalContext<'_>) -> Option<Proposal> {
        // Judged without its text first: most bars do not fire.
        if !self.evaluate(state, false)?.evaluation.triggered {
            return None;
        }
        let judged = self.evaluate(state, true)?;
        self.price(&judged, state.latest()?, ctx)
    }

    /// The listed expiration the rule opens: the first at least `min_days` away, or with
    /// `monthly` the first monthly one, found among the listed ones; `None` when the listed
    /// ones hold no monthly within [`MONTHLY_SEARCH`] weeks.
    fn expiration(&self, ctx: &ProposalContext<'_>) -> Option<NaiveDate> {
        let mut expiration = (ctx.expiration)(ctx.as_of, self.min_days);
        if !self.monthly {
            return Some(expiration);
        }
        for _ in 0..MONTHLY_SEARCH {
            if is_monthly_expiration(expiration) {
                return Some(expiration);
            }
            let past = u32::try_from((expiration - ctx.as_of).num_days() + 1).ok()?;
            expiration = (ctx.expiration)(ctx.as_of, past);
        }
        is_monthly_expiration(expiration).then_some(expiration)
    }

    fn price(&self, judged: &CustomEvaluation, latest: &Snapshot, ctx: &ProposalContext<'_>) -> Option<Proposal> {
        let spot = ctx.spot;
        if !(spot.is_finite() && spot > 0.0) {
            return None;
        }
        let kind = self.opens;
        let expiration = self.expiration(ctx)?;
        let years = years_between(ctx.as_of, expiration);
        if years <= 0.0 {
            return None;
        }
        let hv20 = latest.hv20.unwrap_or(MIN_VOLATILITY);
        let sigma = (pricing_volatility(hv20) * 10_000.0).round() / 10_000.0;
        let strike = self.strike(spot, years, sigma, ctx)?;
        let entry = round_cents(premium(kind.option_type(), spot, strike, sigma, years, ctx.assumptions)?);
        if entry < 0.01 {
            return None;
        }
        let exits = self.exits;
        let target = round_cents(entry * (1.0 + exits.target_gain)).max(round_cents(entry + 0.01));
        let stop = round_cents(entry * (1.0 - exits.stop_loss)).min(round_cents(entry - 0.01)).max(0.0);
        let confidence = judged.evaluation.confidence();

        let mut reasoning = String::with_capacity(400);
        let _ = write!(reasoning, "{} Custom {}: {}", ctx.symbol, kind.as_str(), judged.texts.join("; "));
        let contract = contract_noun(kind);
        let _ = write!(
            reasoning,
            ". Buy the {strike:.2} {contract} expiring {expiration} for {entry:.2} a share at {spot:.2} ({}, {} days). Target {target:.2} (+{}% of the premium); stop {stop:.2} (−{}%).",
            sigma_note(hv20, sigma),
            (expiration - ctx.as_of).num_days(),
            percent(exits.target_gain),
            percent(exits.stop_loss),
        );
        if let Some(days) = exits.max_days {
            let _ = write!(reasoning, " Closed after {days} days if neither is reached.");
        }
        let _ = write!(reasoning, " Volume {}. Confidence {confidence}/100.", volume_text(latest.volume));
        Some(Proposal {
            strategy: Strategy::Custom,
            signal_type: kind,
            strike,
            expiration,
            entry_price: entry,
            target_price: target,
            stop_loss: stop,
            volatility: sigma,
            underlying_price: round_cents(spot),
            confidence,
            rsi: latest.rsi14.map(|r| (r * 10.0).round() / 10.0),
            volume: Some(latest.volume.round() as u64),
            reasoning,
        })
    }
}

/// 0.5 → "50", 0.125 → "12.5".
fn percent(fraction: f64) -> String {
    let p = (fraction * 1000.0).round() / 10.0;
    if p.fract() == 0.0 { format!("{p:.0}") } else { format!("{p}") }
}
