//! Per-symbol streaming state: every indicator the four strategies read, fed one
//! completed daily bar at a time.

use chrono::NaiveDate;
use strikeline_quant::indicators::{
    Bollinger, BollingerOutput, Ema, HighestHigh, HistoricalVolatility, IndicatorSet, IvPercentile, IvRank, LowestLow, MacdOutput, Next,
    VolumeAverage,
};

use crate::params::{ParamError, StrategyParams};
use crate::types::{BarError, DailyBar};

/// Bars a symbol needs before the engine proposes anything: **272** trading days (about
/// 13 months).
///
/// The longest chain is the Volatility strategy's: the 20-day historical volatility has
/// its first value on the 21st close, and its 252-day rank and percentile need 252 of
/// those values, so they first exist on bar 20 + 252 = 272. Everything else is warm much
/// earlier (EMA(50) at bar 50, MACD(12, 26, 9) at bar 34, RSI(14) and ATR(14) at bar 15,
/// the 20-day windows at bar 21). All four strategies wait for the longest chain so that
/// a symbol's first proposals are judged on complete information.
///
/// ```
/// use strikeline_quant::indicators::{HistoricalVolatility, IvPercentile, Next};
/// // The longest chain, computed: the 252-day percentile of the 20-day HV.
/// let (mut hv, mut percentile) = (HistoricalVolatility::new(20)?, IvPercentile::default());
/// let first = (1..=400).find(|&bar| {
///     let close = 100.0 + (bar as f64 * 0.3).sin();
///     hv.next(close).and_then(|v| percentile.next(v)).is_some()
/// });
/// assert_eq!(first, Some(strikeline_engine::WARM_UP_BARS));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub const WARM_UP_BARS: usize = 272;

/// Period of the slow trend EMA.
const EMA_SLOW: usize = 50;
/// Look-back of the historical volatility and the Bollinger bands (the breakout range
/// and volume average use [`StrategyParams::breakout_lookback`], 20 by default).
const WINDOW: usize = 20;

/// The indicator values after the latest bar (see [`SymbolState::latest`]).
///
/// `None` marks a value still in its look-back. Windows named `prior_…` cover the 20
/// bars **before** the latest one, so the latest bar can be compared against them
/// (a breakout is a close above the previous 20 days' highest high, not above a range
/// that already contains itself).
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{DailyBar, SymbolState};
/// let mut state = SymbolState::new();
/// let date = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
/// state.update(&DailyBar { date, open: 10.0, high: 10.5, low: 9.8, close: 10.2, volume: 5e5 })?;
/// let s = state.latest().unwrap();
/// assert_eq!((s.date, s.close), (date, 10.2));
/// assert!(s.rsi14.is_none() && s.prior_high20.is_none());
/// # Ok::<(), strikeline_engine::BarError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Snapshot {
    /// Date of the latest bar.
    pub date: NaiveDate,
    /// Its open.
    pub open: f64,
    /// Its high.
    pub high: f64,
    /// Its low.
    pub low: f64,
    /// Its close.
    pub close: f64,
    /// Its volume.
    pub volume: f64,
    /// Close of the bar before it.
    pub previous_close: Option<f64>,
    /// EMA(20) of the close.
    pub ema20: Option<f64>,
    /// EMA(50) of the close.
    pub ema50: Option<f64>,
    /// Wilder's RSI(14).
    pub rsi14: Option<f64>,
    /// MACD(12, 26, 9).
    pub macd: Option<MacdOutput>,
    /// MACD histogram at the bar before.
    pub previous_histogram: Option<f64>,
    /// Bollinger bands (20, 2σ by default; the multiplier is
    /// [`StrategyParams::bollinger_multiplier`]) of the close.
    pub bollinger: Option<BollingerOutput>,
    /// Wilder's ATR(14).
    pub atr14: Option<f64>,
    /// Highest high of the 20 bars before the latest (of
    /// [`StrategyParams::breakout_lookback`] bars with custom parameters).
    pub prior_high20: Option<f64>,
    /// Lowest low of the 20 bars before the latest (same look-back).
    pub prior_low20: Option<f64>,
    /// Average volume of the 20 bars before the latest (same look-back).
    pub prior_volume_avg20: Option<f64>,
    /// 20-day close-to-close historical volatility, annualised (0.25 = 25%).
    pub hv20: Option<f64>,
    /// Rank of `hv20` within its last 252 values, 0–100 (`None` also when those values
    /// are all equal).
    pub hv_rank: Option<f64>,
    /// Percentile of `hv20` within its last 252 values: the share of the previous 251
    /// that were lower, 0–100.
    pub hv_percentile: Option<f64>,
}

/// What the indicators said about the underlying when a signal was issued, kept with a
/// backtested trade and read for a live signal at issue: the inputs of the predictive model
/// beyond the signal's own terms.
///
/// ```
/// use strikeline_engine::EntryContext;
/// let none = EntryContext::default();
/// assert_eq!((none.rsi14, none.trend, none.hv_rank), (None, None, None));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EntryContext {
    /// Wilder's RSI(14), 0–100.
    pub rsi14: Option<f64>,
    /// EMA(20) / EMA(50) − 1: above zero in an uptrend.
    pub trend: Option<f64>,
    /// Rank of the 20-day historical volatility within its last year, 0–100.
    pub hv_rank: Option<f64>,
}

impl EntryContext {
    /// The context of a snapshot.
    #[must_use]
    pub fn of(snapshot: &Snapshot) -> EntryContext {
        let trend = match (snapshot.ema20, snapshot.ema50) {
            (Some(fast), Some(slow)) if slow > 0.0 => Some(fast / slow - 1.0),
            _ => None,
        };
        EntryContext { rsi14: snapshot.rsi14, trend, hv_rank: snapshot.hv_rank }
    }
}

/// Everything the engine knows about one symbol: the streaming indicators, fed one
/// completed daily bar at a time through [`update`](SymbolState::update).
///
/// The live engine and the backtester drive the same state the same way, so neither can
/// see a bar it has not been given. There is no history vector: each indicator keeps only
/// its fixed window (the largest is the 252-value volatility history), so a clone costs a
/// few kilobytes. The server clones a symbol's end-of-day state, pushes today's partial
/// bar into the clone and evaluates that, leaving the original ready for the real close.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::{DailyBar, SymbolState, WARM_UP_BARS};
/// let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
/// let mut state = SymbolState::new();
/// for i in 0..WARM_UP_BARS {
///     let close = 100.0 + (i as f64 * 0.2).sin();
///     let date = start + Days::new(i as u64);
///     state.update(&DailyBar { date, open: close, high: close + 0.5, low: close - 0.5, close, volume: 1e6 })?;
///     assert_eq!(state.is_warm(), i + 1 == WARM_UP_BARS);
/// }
/// assert_eq!(state.bars_seen(), WARM_UP_BARS);
///
/// // Intraday: evaluate a clone with today's partial bar; the original is untouched.
/// let mut intraday = state.clone();
/// let today = start + Days::new(WARM_UP_BARS as u64);
/// intraday.update(&DailyBar { date: today, open: 100.0, high: 101.0, low: 99.5, close: 100.8, volume: 4e5 })?;
/// assert_eq!(intraday.bars_seen(), state.bars_seen() + 1);
/// # Ok::<(), strikeline_engine::BarError>(())
/// ```
#[derive(Debug, Clone)]
pub struct SymbolState {
    /// RSI(14), EMA(20), Bollinger(20, 2), MACD(12, 26, 9), ATR(14).
    set: IndicatorSet,
    ema50: Ema,
    high20: HighestHigh,
    low20: LowestLow,
    volume20: VolumeAverage,
    hv20: HistoricalVolatility,
    hv_rank: IvRank,
    hv_percentile: IvPercentile,
    /// The 20-day windows' values through the latest bar (they become the next bar's
    /// `prior_…` values).
    high20_through: Option<f64>,
    low20_through: Option<f64>,
    volume20_through: Option<f64>,
    bars_seen: usize,
    /// The latest snapshot first, then the ones before it: [`MAX_LOOKBACK`] + 1 at most, for
    /// custom rules that read a value some bars ago or a cross.
    recent: std::collections::VecDeque<Snapshot>,
    params: StrategyParams,
}

/// How many bars back a custom rule may read (a cross reads one bar back).
pub const MAX_LOOKBACK: usize = 10;

impl Default for SymbolState {
    fn default() -> Self {
        SymbolState::new()
    }
}

impl SymbolState {
    /// A symbol with no history.
    ///
    /// ```
    /// let state = strikeline_engine::SymbolState::new();
    /// assert_eq!(state.bars_seen(), 0);
    /// assert!(state.latest().is_none() && !state.is_warm());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        SymbolState::build(StrategyParams::DEFAULT)
    }

    /// A symbol with no history whose rules use `params` instead of the documented
    /// defaults (custom strategy parameters; `SymbolState::new()` is
    /// `with_params(StrategyParams::default())`). The Bollinger multiplier and the
    /// breakout look-back shape the indicators themselves, so the parameters belong to
    /// the state from its first bar. Refused when [`StrategyParams::validate`] fails.
    ///
    /// ```
    /// use strikeline_engine::{StrategyParams, SymbolState};
    /// let tight = StrategyParams { bollinger_multiplier: 1.5, breakout_lookback: 10, ..StrategyParams::default() };
    /// let state = SymbolState::with_params(tight)?;
    /// assert_eq!(state.params().breakout_lookback, 10);
    /// assert_eq!(SymbolState::new().params(), &StrategyParams::default());
    /// assert!(SymbolState::with_params(StrategyParams { oversold_rsi: 80.0, ..StrategyParams::default() }).is_err());
    /// # Ok::<(), strikeline_engine::ParamError>(())
    /// ```
    pub fn with_params(params: StrategyParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(SymbolState::build(params))
    }

    /// The parameters the rules use.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::SymbolState::new().params().target_atr, 2.0);
    /// ```
    #[must_use]
    pub fn params(&self) -> &StrategyParams {
        &self.params
    }

    /// A fresh state for validated `params`.
    fn build(params: StrategyParams) -> Self {
        // Periods are constants ≥ 2 or a validated look-back (5–250), and the Bollinger
        // multiplier is validated (0.5–4): every constructor accepts them.
        const VALID: &str = "validated indicator periods";
        let lookback = params.breakout_lookback;
        let mut set = IndicatorSet::standard();
        if params.bollinger_multiplier != StrategyParams::DEFAULT.bollinger_multiplier {
            set.bollinger = Bollinger::new(WINDOW, params.bollinger_multiplier).expect(VALID);
        }
        SymbolState {
            set,
            ema50: Ema::new(EMA_SLOW).expect(VALID),
            high20: HighestHigh::new(lookback).expect(VALID),
            low20: LowestLow::new(lookback).expect(VALID),
            volume20: VolumeAverage::new(lookback).expect(VALID),
            hv20: HistoricalVolatility::new(WINDOW).expect(VALID),
            hv_rank: IvRank::default(),
            hv_percentile: IvPercentile::default(),
            high20_through: None,
            low20_through: None,
            volume20_through: None,
            bars_seen: 0,
            recent: std::collections::VecDeque::with_capacity(MAX_LOOKBACK + 1),
            params,
        }
    }

    /// Pushes one bar through every indicator. Bars must come in date order, one per
    /// trading day; a bar that fails [`DailyBar::validate`] or is not after the latest
    /// bar is refused and leaves the state exactly as it was.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::{BarError, DailyBar, SymbolState};
    /// let date = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
    /// let bar = DailyBar { date, open: 10.0, high: 10.5, low: 9.8, close: 10.2, volume: 5e5 };
    /// let mut state = SymbolState::new();
    /// state.update(&bar)?;
    /// // The same day twice would count it twice: refused.
    /// assert_eq!(state.update(&bar), Err(BarError::OutOfOrder { date, last: date }));
    /// assert_eq!(state.bars_seen(), 1);
    /// # Ok::<(), BarError>(())
    /// ```
    pub fn update(&mut self, bar: &DailyBar) -> Result<(), BarError> {
        bar.validate()?;
        if let Some(last) = self.latest()
            && bar.date <= last.date
        {
            return Err(BarError::OutOfOrder { date: bar.date, last: last.date });
        }
        let close = bar.close;
        let set = self.set.next(bar);
        let ema50 = self.ema50.next(close);
        // The 20-day windows as they stood before this bar, then this bar goes in.
        let prior_high20 = std::mem::replace(&mut self.high20_through, self.high20.next(bar));
        let prior_low20 = std::mem::replace(&mut self.low20_through, self.low20.next(bar));
        let prior_volume_avg20 = std::mem::replace(&mut self.volume20_through, self.volume20.next(bar));
        let previous = self.recent.front();
        let hv20 = self.hv20.next(close);
        let (hv_rank, hv_percentile) = match hv20 {
            Some(hv) => (self.hv_rank.next(hv), self.hv_percentile.next(hv)),
            None => (None, None),
        };
        let snapshot = Snapshot {
            date: bar.date,
            open: bar.open,
            high: bar.high,
            low: bar.low,
            close,
            volume: bar.volume,
            previous_close: previous.map(|s| s.close),
            ema20: set.ema,
            ema50,
            rsi14: set.rsi,
            macd: set.macd,
            previous_histogram: previous.and_then(|s| s.macd).map(|m| m.histogram),
            bollinger: set.bollinger,
            atr14: set.atr,
            prior_high20,
            prior_low20,
            prior_volume_avg20,
            hv20,
            hv_rank,
            hv_percentile,
        };
        if self.recent.len() > MAX_LOOKBACK {
            self.recent.pop_back();
        }
        self.recent.push_front(snapshot);
        self.bars_seen += 1;
        Ok(())
    }

    /// Bars accepted so far.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::SymbolState::new().bars_seen(), 0);
    /// ```
    #[must_use]
    pub fn bars_seen(&self) -> usize {
        self.bars_seen
    }

    /// Whether the state has seen [`WARM_UP_BARS`] bars: before that no strategy is
    /// evaluated and nothing is proposed.
    ///
    /// ```
    /// assert!(!strikeline_engine::SymbolState::new().is_warm());
    /// ```
    #[must_use]
    pub fn is_warm(&self) -> bool {
        self.bars_seen >= WARM_UP_BARS
    }

    /// The indicator values after the latest bar; `None` before the first.
    ///
    /// ```
    /// assert!(strikeline_engine::SymbolState::new().latest().is_none());
    /// ```
    #[must_use]
    pub fn latest(&self) -> Option<&Snapshot> {
        self.recent.front()
    }

    /// The snapshot `bars_ago` bars before the latest (0 is the latest), up to
    /// [`MAX_LOOKBACK`]; `None` beyond it or before that many bars were seen.
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{DailyBar, SymbolState};
    /// let mut state = SymbolState::new();
    /// let start = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
    /// for i in 0..3u32 {
    ///     let close = 10.0 + f64::from(i);
    ///     state.update(&DailyBar { date: start + Days::new(u64::from(i)), open: close, high: close, low: close, close, volume: 1e5 })?;
    /// }
    /// assert_eq!(state.snapshot_ago(0).map(|s| s.close), Some(12.0));
    /// assert_eq!(state.snapshot_ago(2).map(|s| s.close), Some(10.0));
    /// assert!(state.snapshot_ago(3).is_none());
    /// # Ok::<(), strikeline_engine::BarError>(())
    /// ```
    #[must_use]
    pub fn snapshot_ago(&self, bars_ago: usize) -> Option<&Snapshot> {
        self.recent.get(bars_ago)
    }
}
