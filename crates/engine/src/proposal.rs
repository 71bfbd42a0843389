//! From an evaluated rule to a priced, tradeable proposal: strike, expiration, premium,
//! target, stop and the reasoning text.

use std::fmt::Write;

use chrono::NaiveDate;
use strikeline_quant::{BlackScholes, OptionInputs, OptionType};

use crate::lifecycle::{OpenSignal, years_between};
use crate::params::StrategyParams;
use crate::state::SymbolState;
use crate::strategies::{Evaluation, Values, evaluate, volume_text};
use crate::types::{Assumptions, SignalType, Strategy};

/// Floor of the volatility used for pricing: a 20-day window can look almost still, but
/// no listed option trades at a near-zero volatility.
pub const MIN_VOLATILITY: f64 = 0.10;
/// Cap of the volatility used for pricing (500% a year).
pub const MAX_VOLATILITY: f64 = 5.0;

/// Everything about the moment of evaluation that is not in the bars.
///
/// The engine knows no calendar: `expiration(as_of, min_days)` must return a listed
/// expiration date at least `min_days` calendar days after `as_of` (the server passes the
/// exchange calendar's `next_expiration_at_least`).
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::{Assumptions, ProposalContext};
/// // A stand-in picker: the first Friday at least `min_days` away.
/// let fridays = |from: NaiveDate, min_days: u32| {
///     let mut d = from + Days::new(u64::from(min_days));
///     while chrono::Datelike::weekday(&d) != chrono::Weekday::Fri { d = d + Days::new(1); }
///     d
/// };
/// let ctx = ProposalContext {
///     symbol: "AAPL",
///     as_of: NaiveDate::from_ymd_opt(2026, 3, 2).unwrap(),
///     spot: 182.10,
///     assumptions: Assumptions::default(),
///     expiration: &fridays,
/// };
/// assert_eq!((ctx.expiration)(ctx.as_of, 21), NaiveDate::from_ymd_opt(2026, 3, 27).unwrap());
/// ```
#[derive(Clone, Copy)]
pub struct ProposalContext<'a> {
    /// Ticker, used in the reasoning text.
    pub symbol: &'a str,
    /// Trading date of the evaluation (the latest bar's date).
    pub as_of: NaiveDate,
    /// Underlying price the option is priced at: the latest close, or the live quote
    /// intraday. The rules themselves read the bars.
    pub spot: f64,
    /// Rate and dividend yield for Black–Scholes.
    pub assumptions: Assumptions,
    /// The listed-expiration picker: `(as_of, min_days) → expiration`.
    pub expiration: &'a dyn Fn(NaiveDate, u32) -> NaiveDate,
}

impl std::fmt::Debug for ProposalContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProposalContext")
            .field("symbol", &self.symbol)
            .field("as_of", &self.as_of)
            .field("spot", &self.spot)
            .field("assumptions", &self.assumptions)
            .finish_non_exhaustive()
    }
}

/// A priced signal the engine proposes. Money is in dollars, rounded to cents; option
/// prices (`entry_price`, `target_price`, `stop_loss`) are premiums **per share** (one
/// contract is 100 shares).
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The rule that produced it.
    pub strategy: Strategy,
    /// CALL, PUT or STRADDLE.
    pub signal_type: SignalType,
    /// Strike, at a standard listed increment ([`strike_increment`]).
    pub strike: f64,
    /// Listed expiration from the context's picker.
    pub expiration: NaiveDate,
    /// Black–Scholes premium at issue (call + put for a straddle).
    pub entry_price: f64,
    /// Premium at which the signal closes with a profit.
    pub target_price: f64,
    /// Premium at which the signal closes with a loss.
    pub stop_loss: f64,
    /// The volatility σ used for pricing (20-day HV, floored and capped), 4 decimals.
    pub volatility: f64,
    /// The underlying price at issue.
    pub underlying_price: f64,
    /// 0–100: 50–95 when the rule fired, below 50 for a weak on-demand setup.
    pub confidence: u8,
    /// RSI(14) at issue, 1 decimal.
    pub rsi: Option<f64>,
    /// The latest bar's volume.
    pub volume: Option<u64>,
    /// Why, with the numbers.
    pub reasoning: String,
}

impl Proposal {
    /// The fields the lifecycle needs, for [`mark`](crate::mark) and
    /// [`underlying_levels`](crate::underlying_levels).
    ///
    /// ```
    /// # use chrono::NaiveDate;
    /// # use strikeline_engine::{Proposal, SignalType, Strategy};
    /// # let p = Proposal { strategy: Strategy::Momentum, signal_type: SignalType::Call, strike: 105.0,
    /// #     expiration: NaiveDate::from_ymd_opt(2026, 4, 17).unwrap(), entry_price: 2.0, target_price: 3.0,
    /// #     stop_loss: 1.2, volatility: 0.3, underlying_price: 103.0, confidence: 70, rsi: Some(60.0),
    /// #     volume: Some(1_000_000), reasoning: String::new() };
    /// let open = p.open_signal();
    /// assert_eq!((open.strike, open.entry_price), (105.0, 2.0));
    /// ```
    #[must_use]
    pub fn open_signal(&self) -> OpenSignal {
        OpenSignal {
            signal_type: self.signal_type,
            strike: self.strike,
            expiration: self.expiration,
            entry_price: self.entry_price,
            target_price: self.target_price,
            stop_loss: self.stop_loss,
            volatility: self.volatility,
        }
    }
}

/// Rounds to cents.
///
/// ```
/// assert_eq!(strikeline_engine::round_cents(3.14159), 3.14);
/// assert_eq!(strikeline_engine::round_cents(2.675000001), 2.68);
/// ```
#[must_use]
pub fn round_cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (x * factor).round() / factor
}

/// The listed strike spacing at an underlying price: $0.50 under $25, $1 from $25 to
/// under $100, $2.50 from $100 to under $200, $5 from $200 to under $500, $10 from $500.
///
/// ```
/// use strikeline_engine::strike_increment;
/// assert_eq!(strike_increment(24.99), 0.5);
/// assert_eq!(strike_increment(25.0), 1.0);
/// assert_eq!(strike_increment(150.0), 2.5);
/// assert_eq!(strike_increment(499.0), 5.0);
/// assert_eq!(strike_increment(500.0), 10.0);
/// ```
#[must_use]
pub fn strike_increment(spot: f64) -> f64 {
    if spot < 25.0 {
        0.5
    } else if spot < 100.0 {
        1.0
    } else if spot < 200.0 {
        2.5
    } else if spot < 500.0 {
        5.0
    } else {
        10.0
    }
}

/// Which listed strike a signal uses.
///
/// ```
/// use strikeline_engine::{StrikeChoice, SignalType, pick_strike};
/// assert_eq!(pick_strike(182.10, SignalType::Call, StrikeChoice::AtTheMoney), 182.5);
/// assert_eq!(pick_strike(182.10, SignalType::Call, StrikeChoice::FirstOutOfTheMoney), 182.5);
/// assert_eq!(pick_strike(182.10, SignalType::Put, StrikeChoice::FirstOutOfTheMoney), 180.0);
/// // Exactly on a strike: the next one out.
/// assert_eq!(pick_strike(50.0, SignalType::Call, StrikeChoice::FirstOutOfTheMoney), 51.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrikeChoice {
    /// The listed strike nearest the spot (the higher one when halfway).
    AtTheMoney,
    /// The first listed strike beyond the spot in the option's direction: above for a
    /// call, below for a put (never below one increment). A straddle uses the ATM strike.
    FirstOutOfTheMoney,
}

/// The strike chosen at `spot` for `signal_type`, on the grid of [`strike_increment`].
///
/// ```
/// use strikeline_engine::{SignalType, StrikeChoice, pick_strike};
/// // $5 grid between $200 and $500.
/// assert_eq!(pick_strike(243.80, SignalType::Put, StrikeChoice::FirstOutOfTheMoney), 240.0);
/// assert_eq!(pick_strike(243.80, SignalType::Straddle, StrikeChoice::AtTheMoney), 245.0);
/// ```
#[must_use]
pub fn pick_strike(spot: f64, signal_type: SignalType, choice: StrikeChoice) -> f64 {
    let step = strike_increment(spot);
    let units = spot / step;
    let index = match (choice, signal_type) {
        (StrikeChoice::FirstOutOfTheMoney, SignalType::Call) => units.floor() + 1.0,
        (StrikeChoice::FirstOutOfTheMoney, SignalType::Put) => units.ceil() - 1.0,
        _ => units.round(),
    };
    round_cents(index.max(1.0) * step)
}

/// The strike each strategy takes: Momentum and Breakout the first out-of-the-money
/// strike (the move is expected to continue, and the OTM option gives more leverage for
/// less premium); Mean Reversion at the money (the expected snap-back is limited, so the
/// option needs a delta near 0.5 to capture it); Volatility at the money (a straddle
/// with the least directional exposure).
///
/// ```
/// use strikeline_engine::{Strategy, StrikeChoice, strike_choice};
/// assert_eq!(strike_choice(Strategy::Breakout), StrikeChoice::FirstOutOfTheMoney);
/// assert_eq!(strike_choice(Strategy::MeanReversion), StrikeChoice::AtTheMoney);
/// ```
#[must_use]
pub fn strike_choice(strategy: Strategy) -> StrikeChoice {
    match strategy {
        Strategy::Momentum | Strategy::Breakout => StrikeChoice::FirstOutOfTheMoney,
        Strategy::MeanReversion | Strategy::Volatility | Strategy::Custom => StrikeChoice::AtTheMoney,
    }
}

/// The volatility used to price a proposal: the 20-day close-to-close historical
/// volatility, floored at [`MIN_VOLATILITY`] and capped at [`MAX_VOLATILITY`].
///
/// ```
/// use strikeline_engine::pricing_volatility;
/// assert_eq!(pricing_volatility(0.31), 0.31);
/// assert_eq!(pricing_volatility(0.04), 0.10);
/// ```
#[must_use]
pub fn pricing_volatility(hv20: f64) -> f64 {
    if hv20.is_nan() {
        return MIN_VOLATILITY;
    }
    hv20.clamp(MIN_VOLATILITY, MAX_VOLATILITY)
}

/// Black–Scholes premium per share; `None` when an input is out of the model's range.
pub(crate) fn premium(kind: OptionType, spot: f64, strike: f64, volatility: f64, years: f64, assumptions: Assumptions) -> Option<f64> {
    BlackScholes::new(OptionInputs {
        spot,
        strike,
        rate: assumptions.rate,
        dividend_yield: assumptions.dividend_yield,
        volatility,
        time_to_expiry: years,
    })
    .ok()
    .map(|bs| bs.price(kind))
}

/// Where the pricing σ comes from, for the reasoning: the 20-day historical volatility, or its
/// floor when the history is stiller than any listed option.
pub(crate) fn sigma_note(hv20: f64, sigma: f64) -> String {
    if hv20 < MIN_VOLATILITY {
        format!("σ {:.1}%: 20-day historical volatility {:.1}% floored", sigma * 100.0, hv20 * 100.0)
    } else {
        format!("σ {:.1}% from 20-day historical volatility", sigma * 100.0)
    }
}

/// What the reasoning calls the contract bought: "call", "put", "straddle (call + put)".
pub(crate) fn contract_noun(kind: SignalType) -> &'static str {
    match kind {
        SignalType::Call => "call",
        SignalType::Put => "put",
        SignalType::Straddle => "straddle (call + put)",
    }
}

/// Prices an evaluation into a proposal; `None` when it cannot be priced (spot not
/// positive, the picker's expiration not after `as_of`, or a premium under one cent).
fn price(evaluation: &Evaluation, v: &Values, ctx: &ProposalContext<'_>, params: &StrategyParams, weak: bool) -> Option<Proposal> {
    // Multiples of the ATR for the target and stop moves of the underlying (2 and 1).
    let (target_atr, stop_atr) = (params.target_atr, params.stop_atr);
    // Mean Reversion's target stays at least this many ATRs away (1, or less when the
    // target itself is closer).
    let near_atr = target_atr.min(1.0);
    let spot = ctx.spot;
    if !(spot.is_finite() && spot > 0.0) {
        return None;
    }
    let strategy = evaluation.strategy;
    let kind = evaluation.signal_type;
    let option = kind.option_type();
    let strike = pick_strike(spot, kind, strike_choice(strategy));
    let expiration = (ctx.expiration)(ctx.as_of, params.min_days_to_expiry(strategy));
    let years = years_between(ctx.as_of, expiration);
    if years <= 0.0 {
        return None;
    }
    let sigma = round_to(pricing_volatility(v.hv20), 4);
    let value = |at: f64| premium(option, at, strike, sigma, years, ctx.assumptions);
    let entry = round_cents(value(spot)?);
    if entry < 0.01 {
        return None;
    }
    // The ATR (floored at 0.1% of the close, so a flat history still gets a target).
    let atr = v.scale;
    let floor = 0.01;
    // Underlying levels the target and stop premiums are read at (see docs/strategies.md).
    let (target_at, stop_at) = match (strategy, kind) {
        (_, SignalType::Straddle) => (spot + target_atr * atr, spot),
        // Back to the middle band, but no nearer than 1 ATR and no farther than 2.
        (Strategy::MeanReversion, SignalType::Call) => {
            (v.bands.middle.clamp(spot + near_atr * atr, spot + target_atr * atr), spot - stop_atr * atr)
        }
        (Strategy::MeanReversion, SignalType::Put) => {
            (v.bands.middle.clamp(spot - target_atr * atr, spot - near_atr * atr), spot + stop_atr * atr)
        }
        (_, SignalType::Call) => (spot + target_atr * atr, spot - stop_atr * atr),
        (_, SignalType::Put) => (spot - target_atr * atr, spot + stop_atr * atr),
    };
    let (target_at, stop_at) = (target_at.max(floor), stop_at.max(floor));
    let target = round_cents(value(target_at)?).max(entry + 0.01);
    let stop = if kind == SignalType::Straddle { round_cents(entry * params.straddle_stop_fraction) } else { round_cents(value(stop_at)?) };
    let stop = round_cents(stop.min(entry - 0.01).max(0.0));
    let target = round_cents(target);

    let mut reasoning = String::with_capacity(400);
    if weak {
        reasoning.push_str("Weak setup: no strategy's rule fully triggers; this is the closest. ");
    }
    let _ = write!(reasoning, "{} {} {}: ", ctx.symbol, strategy.label(), kind.as_str());
    evaluation.describe(&mut reasoning);
    let contract = contract_noun(kind);
    let sigma_note = sigma_note(v.hv20, sigma);
    let _ = write!(
        reasoning,
        ". Buy the {strike:.2} {contract} expiring {expiration} for {entry:.2} a share at {spot:.2} ({sigma_note}, {} days). ",
        (expiration - ctx.as_of).num_days()
    );
    let _ = match (strategy, kind) {
        (_, SignalType::Straddle) => {
            let lost = 1.0 - params.straddle_stop_fraction;
            let lost = if lost == 0.5 { "half the premium".to_owned() } else { format!("{}% of the premium", round_to(lost * 100.0, 1)) };
            write!(
                reasoning,
                "Target {target:.2} if the underlying moves {target_atr} ATR ({:.2}) either way; stop {stop:.2}, {lost} lost to time decay.",
                target_atr * atr
            )
        }
        (Strategy::MeanReversion, _) => write!(
            reasoning,
            "Target {target:.2} with the underlying back at {target_at:.2} (toward the middle band {:.2}, kept within {near_atr}–{target_atr} ATR of {:.2}); stop {stop:.2} at {stop_at:.2} ({stop_atr} ATR against).",
            v.bands.middle, atr
        ),
        _ => write!(
            reasoning,
            "Target {target:.2} with the underlying at {target_at:.2} ({target_atr} ATR of {atr:.2}); stop {stop:.2} at {stop_at:.2} ({stop_atr} ATR against)."
        ),
    };
    let confidence = evaluation.confidence();
    let _ = write!(reasoning, " Volume {}. Confidence {confidence}/100.", volume_text(v.volume));

    Some(Proposal {
        strategy,
        signal_type: kind,
        strike,
        expiration,
        entry_price: entry,
        target_price: target,
        stop_loss: stop,
        volatility: sigma,
        underlying_price: round_cents(spot),
        confidence,
        rsi: Some(round_to(v.rsi, 1)),
        volume: Some(v.volume.round() as u64),
        reasoning,
    })
}

impl SymbolState {
    fn values(&self) -> Option<Values> {
        if !self.is_warm() {
            return None;
        }
        Values::from_snapshot(self.latest()?)
    }

    /// The proposals of every strategy whose rule fires on the latest bar, in
    /// [`Strategy::ALL`] order, at most one per strategy. When firing rules disagree on
    /// direction (a CALL and a PUT), only the direction with the higher confidence is
    /// proposed (the earlier strategy's on a tie); a STRADDLE never conflicts. Empty
    /// before the state [is warm](SymbolState::is_warm), and for a setup that cannot be
    /// priced (see [`propose_best`](SymbolState::propose_best)).
    ///
    /// Deterministic: the same bars and context always give the same proposals.
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{Assumptions, DailyBar, ProposalContext, Strategy, SymbolState, SignalType};
    /// let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    /// let mut state = SymbolState::new();
    /// let mut date = start;
    /// // 300 quiet days in a 99–101 range, then a close at 104 on triple volume.
    /// for i in 0..300 {
    ///     let close = 100.0 + (i as f64 * 0.7).sin();
    ///     state.update(&DailyBar { date, open: close, high: close + 0.3, low: close - 0.3, close, volume: 1e6 })?;
    ///     date = date + Days::new(1);
    /// }
    /// state.update(&DailyBar { date, open: 100.5, high: 104.2, low: 100.4, close: 104.0, volume: 3e6 })?;
    /// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min) + 3);
    /// let ctx = ProposalContext { symbol: "XYZ", as_of: date, spot: 104.0, assumptions: Assumptions::default(), expiration: &picker };
    /// let proposals = state.propose(&ctx);
    /// let breakout = proposals.iter().find(|p| p.strategy == Strategy::Breakout).unwrap();
    /// assert_eq!(breakout.signal_type, SignalType::Call);
    /// assert_eq!(breakout.strike, 105.0); // first OTM strike on the $2.50 grid
    /// assert!(breakout.target_price > breakout.entry_price && breakout.entry_price > breakout.stop_loss);
    /// assert!(breakout.confidence >= 50);
    /// # Ok::<(), strikeline_engine::BarError>(())
    /// ```
    #[must_use]
    pub fn propose(&self, ctx: &ProposalContext<'_>) -> Vec<Proposal> {
        let Some(v) = self.values() else {
            return Vec::new();
        };
        let params = self.params();
        let mut fired: Vec<Evaluation> =
            Strategy::ALL.into_iter().filter_map(|strategy| evaluate(strategy, &v, params)).filter(|e| e.triggered).collect();
        // A CALL and a PUT on the same bar contradict each other (a breakout on volume
        // is also "overbought"): keep the direction with the higher confidence, the
        // earlier strategy on a tie. Straddles take no direction and always stay.
        let strongest = |kind: SignalType| fired.iter().filter(|e| e.signal_type == kind).map(Evaluation::confidence).max();
        if let (Some(call), Some(put)) = (strongest(SignalType::Call), strongest(SignalType::Put)) {
            let winner =
                fired.iter().find(|e| e.signal_type != SignalType::Straddle && e.confidence() == call.max(put)).map(|e| e.signal_type);
            fired.retain(|e| e.signal_type == SignalType::Straddle || Some(e.signal_type) == winner);
        }
        fired.iter().filter_map(|e| price(e, &v, ctx, params, false)).collect()
    }

    /// The strongest candidate across the four strategies, for on-demand generation: a
    /// firing rule first (the highest score among them), otherwise the setup that came
    /// closest, with its honest confidence (below 50) and reasoning that opens with
    /// "Weak setup". Ties go to the earlier strategy in [`Strategy::ALL`].
    ///
    /// `None` when the state is not warm, or when nothing can be priced (the context's
    /// spot is not a positive number, the picker returns an expiration not after
    /// `as_of`, or every premium rounds to zero).
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{Assumptions, DailyBar, ProposalContext, SymbolState};
    /// let mut state = SymbolState::new();
    /// let mut date = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    /// for i in 0..300 {
    ///     let close = 50.0 + (i as f64 * 0.7).sin() * 0.5;
    ///     state.update(&DailyBar { date, open: close, high: close + 0.2, low: close - 0.2, close, volume: 1e6 })?;
    ///     date = date + Days::new(1);
    /// }
    /// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
    /// let ctx = ProposalContext { symbol: "QUIET", as_of: date, spot: 50.0, assumptions: Assumptions::default(), expiration: &picker };
    /// let best = state.propose_best(&ctx).unwrap();
    /// if state.propose(&ctx).is_empty() {
    ///     assert!(best.confidence < 50);
    ///     assert!(best.reasoning.starts_with("Weak setup"));
    /// }
    /// assert!(SymbolState::new().propose_best(&ctx).is_none());
    /// # Ok::<(), strikeline_engine::BarError>(())
    /// ```
    #[must_use]
    pub fn propose_best(&self, ctx: &ProposalContext<'_>) -> Option<Proposal> {
        self.ranked_proposals(ctx, &Strategy::ALL).into_iter().next()
    }

    /// What each of `strategies` proposes now, triggered setups first, then by score (ties in
    /// `strategies`' order); a setup that has not triggered is priced and says it is weak.
    /// Empty until the indicators are warm.
    #[must_use]
    pub fn ranked_proposals(&self, ctx: &ProposalContext<'_>, strategies: &[Strategy]) -> Vec<Proposal> {
        let Some(v) = self.values() else {
            return Vec::new();
        };
        let params = self.params();
        let mut candidates: Vec<Evaluation> = strategies.iter().filter_map(|strategy| evaluate(*strategy, &v, params)).collect();
        // Stable sort: ties keep the given order.
        candidates.sort_by(|a, b| (b.triggered, b.score).partial_cmp(&(a.triggered, a.score)).unwrap_or(std::cmp::Ordering::Equal));
        candidates.iter().filter_map(|e| price(e, &v, ctx, params, !e.triggered)).collect()
    }
}
