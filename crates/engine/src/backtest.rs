//! The backtester: historical daily bars fed, one at a time, to exactly the strategy code
//! the live engine runs ([`SymbolState::update`] then [`SymbolState::propose`]), the
//! proposals filled at the model premium, marked every day with [`mark`] and closed at
//! target, stop or expiry like live signals. Also a plain stock SMA crossover
//! ([`sma_crossover`]) used as the speed yardstick against Python backtesters.
//!
//! # The simulation, day by day
//!
//! The timeline is every date on which at least one series has a bar, up to
//! `config.end`. On each date, symbols are visited in symbol order (so the order of the
//! `series` slice does not matter):
//!
//! 1. every symbol with a bar that day pushes it into its [`SymbolState`] (a refused bar
//!    is reported in [`BacktestReport::rejected_bars`] and leaves the state as it was);
//! 2. **before `config.start`** nothing else happens: those bars only warm the
//!    indicators (a symbol needs [`WARM_UP_BARS`](crate::WARM_UP_BARS) of them before
//!    anything is proposed; pass about 13 months of history before `start`);
//! 3. from `start`, every open trade whose symbol has a bar that day is **marked** at the
//!    close with the σ it was priced with and `T = years_between(date, expiration)`
//!    (calendar days / 365), expired once the date reaches the expiration (intrinsic
//!    value), exactly as [`Universe::refresh`](crate::Universe::refresh) marks live
//!    signals. A mark at or above the target, at or below the stop, or at expiry closes
//!    the trade at that mark. A trade whose symbol has no bar on or after its expiration
//!    date is closed at expiry at its last close;
//! 4. then every warm symbol with a bar is evaluated with [`SymbolState::propose`] at its
//!    close (`spot` = the close, `as_of` = the date). A proposal of a selected strategy
//!    opens a trade, **filled at that close** at the model premium plus slippage, unless
//!    that symbol already has an open trade of that strategy (as live: one active signal
//!    per setup). A setup closed in step 3 may reopen the same day. The strategies filter
//!    the live proposals: when a CALL and a PUT contradict each other the live engine
//!    keeps only the stronger direction, and so does the backtest even if the stronger
//!    one belongs to a strategy that was not selected;
//! 5. the day's equity is recorded.
//!
//! Trades still open after the last date are closed at their last mark, with the usual
//! slippage and commissions, and flagged [`TradeOutcome::EndOfTest`].
//!
//! # Money
//!
//! Premiums are per share; a contract is 100 shares. With slippage `s` and commission `c`
//! per contract, `n` contracts:
//!
//! - entry fill `= entry premium × (1 + s)`; exit fill `= exit mark × (1 − s)`;
//! - commissions `= 2 × c × n` (open and close);
//! - P&L `= (exit fill − entry fill) × 100 × n − 2 × c × n`, rounded to cents.
//!
//! Cash starts at `initial_capital`. Opening pays `entry fill × 100 × n + c × n`; a trade
//! is skipped ([`BacktestReport::skipped_for_capital`]) when the cash left after it would
//! not also cover the closing commissions of every open trade, so cash never goes
//! negative. **Equity** = cash + the liquidation value of the open trades
//! (`mark × (1 − s) × 100 × n − c × n`), so it does not jump when trades are closed.
//!
//! # Statistics
//!
//! Every statistic is the quant crate's definition (`strikeline_quant::stats`):
//!
//! - the daily returns are those of the equity curve, `r_i = E_i / E_{i−1} − 1`, with
//!   `E_0 = initial_capital`; one point per date of the timeline (a trading day);
//! - Sharpe ratio: [`DailyReturns::sharpe`] with a risk-free rate of 0 (the simulated
//!   cash earns nothing, so the raw returns are the excess returns), annualised by √252;
//!   `max_drawdown`: [`DailyReturns::max_drawdown`] (a fraction ≤ 0, the running peak
//!   includes the initial capital); the other return figures in
//!   [`BacktestReport::return_stats`];
//! - win rate, profit factor, per-strategy wins and losses: [`TradeStats`] of the trades'
//!   net P&Ls (a trade at exactly 0 is neither a win nor a loss);
//! - recovery factor: [`TradeStats::recovery_factor`] of the equity curve's daily dollar
//!   changes, i.e. net profit over the largest peak-to-trough fall of the marked-to-market
//!   equity, in dollars;
//! - holding period: calendar days from entry to exit.
//!
//! The run is deterministic: no clock, no randomness, no hash-map iteration order; the
//! same inputs give an identical report.

use chrono::NaiveDate;
use strikeline_quant::indicators::{Next, Sma};
use strikeline_quant::{DailyReturns, ReturnStats, TradeStats};

use crate::lifecycle::{OpenSignal, Outcome, mark, years_between};
use crate::params::{ParamError, StrategyParams};
use crate::proposal::{ProposalContext, round_cents};
use crate::state::SymbolState;
use crate::types::{Assumptions, BarError, DailyBar, SignalType, Strategy};

/// One symbol's daily bars, oldest first.
///
/// ```
/// use strikeline_engine::backtest::SymbolSeries;
/// let s = SymbolSeries { symbol: "AAPL".into(), bars: Vec::new() };
/// assert!(s.bars.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolSeries {
    /// Ticker.
    pub symbol: String,
    /// Bars in date order, one per trading day.
    pub bars: Vec<DailyBar>,
}

/// What to backtest and how to fill. [`BacktestConfig::new`] gives the defaults.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::backtest::BacktestConfig;
/// let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
/// let config = BacktestConfig::new(d(2024, 1, 2), d(2024, 12, 31));
/// assert_eq!(config.strategies.len(), 4);
/// assert_eq!((config.contracts_per_trade, config.commission_per_contract, config.slippage), (1, 0.65, 0.01));
/// assert!(config.validate().is_ok());
/// let backwards = BacktestConfig::new(d(2024, 12, 31), d(2024, 1, 2));
/// assert_eq!(backwards.validate().unwrap_err().field, "end");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BacktestConfig {
    /// First date on which trades may open (bars before it only warm the indicators).
    pub start: NaiveDate,
    /// Last date simulated (inclusive); later bars are ignored.
    pub end: NaiveDate,
    /// The strategies whose proposals are traded (duplicates are ignored).
    pub strategies: Vec<Strategy>,
    /// The rules' thresholds ([`StrategyParams::default`] is the live engine).
    pub params: StrategyParams,
    /// Rate and dividend yield for Black–Scholes.
    pub assumptions: Assumptions,
    /// Contracts bought per trade (1).
    pub contracts_per_trade: u32,
    /// Commission per contract, charged on the open and on the close ($0.65).
    pub commission_per_contract: f64,
    /// Fraction of the premium paid above the model on entry and given up below it on
    /// exit (0.01 = 1%).
    pub slippage: f64,
    /// Starting cash ($100,000).
    pub initial_capital: f64,
}

impl BacktestConfig {
    /// All four strategies, the live rules, default assumptions, 1 contract a trade,
    /// $0.65 a contract, 1% slippage, $100,000 of capital.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
    /// let c = strikeline_engine::backtest::BacktestConfig::new(d, d);
    /// assert_eq!(c.initial_capital, 100_000.0);
    /// ```
    #[must_use]
    pub fn new(start: NaiveDate, end: NaiveDate) -> Self {
        BacktestConfig {
            start,
            end,
            strategies: Strategy::ALL.to_vec(),
            params: StrategyParams::DEFAULT,
            assumptions: Assumptions::default(),
            contracts_per_trade: 1,
            commission_per_contract: 0.65,
            slippage: 0.01,
            initial_capital: 100_000.0,
        }
    }

    /// Checks the configuration and names the first field that is wrong:
    /// `end` before `start`; no `strategies`; `params` (the offending parameter's own
    /// name, see [`StrategyParams::validate`]); `assumptions.rate` or
    /// `assumptions.dividend_yield` not within ±1 (±100% a year);
    /// `contracts_per_trade` not 1–10,000; `commission_per_contract` not 0–100;
    /// `slippage` not 0–0.5; `initial_capital` not above 0 (and finite, at most 1e12).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::backtest::BacktestConfig;
    /// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
    /// let mut c = BacktestConfig::new(d, d);
    /// c.slippage = -0.01;
    /// let err = c.validate().unwrap_err();
    /// assert_eq!(err.to_string(), "slippage: must be between 0 and 0.5, got -0.01");
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.end < self.start {
            return Err(ConfigError::new(
                "end",
                format!("{} is before the start {}", self.end, self.start),
            ));
        }
        if self.strategies.is_empty() {
            return Err(ConfigError::new(
                "strategies",
                "choose at least one strategy",
            ));
        }
        self.params.validate().map_err(ConfigError::from)?;
        range("assumptions.rate", self.assumptions.rate, -1.0, 1.0)?;
        range(
            "assumptions.dividend_yield",
            self.assumptions.dividend_yield,
            -1.0,
            1.0,
        )?;
        range(
            "contracts_per_trade",
            f64::from(self.contracts_per_trade),
            1.0,
            10_000.0,
        )?;
        range(
            "commission_per_contract",
            self.commission_per_contract,
            0.0,
            100.0,
        )?;
        range("slippage", self.slippage, 0.0, 0.5)?;
        if !(self.initial_capital > 0.0 && self.initial_capital <= 1e12) {
            return Err(ConfigError::new(
                "initial_capital",
                format!(
                    "must be above 0 and at most 1e12, got {}",
                    self.initial_capital
                ),
            ));
        }
        Ok(())
    }
}

fn range(field: &'static str, value: f64, min: f64, max: f64) -> Result<(), ConfigError> {
    if value >= min && value <= max {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!("must be between {min} and {max}, got {value}"),
        ))
    }
}

/// A [`BacktestConfig`] field that is out of range, with the reason.
///
/// ```
/// use strikeline_engine::backtest::ConfigError;
/// use strikeline_engine::StrategyParams;
/// let param = StrategyParams { stop_atr: 0.0, ..Default::default() }.validate().unwrap_err();
/// let err = ConfigError::from(param);
/// assert_eq!(err.field, "stop_atr");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The field: a [`BacktestConfig`] field, or a [`StrategyParams`] field's name.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    fn new(field: &'static str, reason: impl Into<String>) -> Self {
        ConfigError {
            field,
            reason: reason.into(),
        }
    }
}

impl From<ParamError> for ConfigError {
    fn from(e: ParamError) -> Self {
        ConfigError::new(
            e.field,
            format!("must be between {} and {}, got {}", e.min, e.max, e.value),
        )
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ConfigError {}

/// How a backtested trade ended.
///
/// ```
/// use strikeline_engine::backtest::TradeOutcome;
/// assert_eq!(TradeOutcome::Target.as_str(), "target");
/// assert_eq!(TradeOutcome::EndOfTest.as_str(), "end");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TradeOutcome {
    /// The mark reached the target premium.
    Target,
    /// The mark fell to the stop premium.
    Stop,
    /// Closed at expiry at its intrinsic value.
    Expiry,
    /// Still open after the last date: closed at its last mark.
    EndOfTest,
}

impl TradeOutcome {
    /// `target`, `stop`, `expiry` or `end`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::backtest::TradeOutcome::Expiry.as_str(), "expiry");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TradeOutcome::Target => "target",
            TradeOutcome::Stop => "stop",
            TradeOutcome::Expiry => "expiry",
            TradeOutcome::EndOfTest => "end",
        }
    }
}

/// One closed backtest trade. Prices are premiums per share, money in dollars.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{SignalType, Strategy, backtest::{Trade, TradeOutcome}};
/// let d = |m, day| NaiveDate::from_ymd_opt(2024, m, day).unwrap();
/// // The hand-checked trade of tests/backtest.rs: 2 contracts, 1% slippage, $0.65 a contract.
/// let t = Trade { symbol: "TEST".into(), strategy: Strategy::Breakout, signal_type: SignalType::Call, strike: 105.0,
///     expiration: d(11, 22), entry_date: d(10, 28), exit_date: d(10, 29), entry_price: 1.12 * 1.01, exit_price: 3.64 * 0.99,
///     contracts: 2, commissions: 2.60, pnl: 491.88, outcome: TradeOutcome::Target, confidence: 95, model_entry_price: 1.12,
///     target_price: 2.50, stop_loss: 0.67, volatility: 0.1327, entry_underlying: 104.0, exit_underlying: 108.0 };
/// let gross = (t.exit_price - t.entry_price) * 100.0 * f64::from(t.contracts);
/// assert_eq!(((gross - t.commissions) * 100.0).round() / 100.0, t.pnl);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Trade {
    /// Ticker.
    pub symbol: String,
    /// The rule that proposed it.
    pub strategy: Strategy,
    /// CALL, PUT or STRADDLE.
    pub signal_type: SignalType,
    /// Strike.
    pub strike: f64,
    /// Expiration.
    pub expiration: NaiveDate,
    /// Date filled (at that day's close).
    pub entry_date: NaiveDate,
    /// Date closed.
    pub exit_date: NaiveDate,
    /// Entry fill: the model premium plus slippage.
    pub entry_price: f64,
    /// Exit fill: the closing mark minus slippage.
    pub exit_price: f64,
    /// Contracts.
    pub contracts: u32,
    /// Commissions paid, open and close.
    pub commissions: f64,
    /// Net P&L after slippage and commissions, rounded to cents.
    pub pnl: f64,
    /// How it ended.
    pub outcome: TradeOutcome,
    /// The proposal's confidence, 50–95.
    pub confidence: u8,
    /// The model premium at entry (before slippage).
    pub model_entry_price: f64,
    /// The proposal's target premium.
    pub target_price: f64,
    /// The proposal's stop premium.
    pub stop_loss: f64,
    /// σ it was priced and marked with.
    pub volatility: f64,
    /// The underlying's close at entry.
    pub entry_underlying: f64,
    /// The underlying's close at exit.
    pub exit_underlying: f64,
}

impl Trade {
    /// Calendar days from entry to exit.
    ///
    /// ```
    /// # use chrono::NaiveDate;
    /// # use strikeline_engine::{SignalType, Strategy, backtest::{Trade, TradeOutcome}};
    /// # let d = |m, day| NaiveDate::from_ymd_opt(2024, m, day).unwrap();
    /// # let t = Trade { symbol: "X".into(), strategy: Strategy::Momentum, signal_type: SignalType::Call, strike: 100.0,
    /// #   expiration: d(3, 15), entry_date: d(2, 1), exit_date: d(2, 8), entry_price: 2.0, exit_price: 3.0, contracts: 1,
    /// #   commissions: 1.3, pnl: 98.7, outcome: TradeOutcome::Target, confidence: 70, model_entry_price: 2.0,
    /// #   target_price: 3.0, stop_loss: 1.0, volatility: 0.3, entry_underlying: 98.0, exit_underlying: 103.0 };
    /// assert_eq!(t.holding_days(), 7);
    /// ```
    #[must_use]
    pub fn holding_days(&self) -> i64 {
        (self.exit_date - self.entry_date).num_days()
    }
}

/// The equity at one date's close.
///
/// ```
/// use chrono::NaiveDate;
/// let p = strikeline_engine::backtest::EquityPoint { date: NaiveDate::from_ymd_opt(2024, 3, 1).unwrap(), equity: 101_250.0 };
/// assert!(p.equity > 100_000.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquityPoint {
    /// Date.
    pub date: NaiveDate,
    /// Cash plus the liquidation value of the open trades.
    pub equity: f64,
}

/// The drawdown at one date's close.
///
/// ```
/// use chrono::NaiveDate;
/// let p = strikeline_engine::backtest::DrawdownPoint { date: NaiveDate::from_ymd_opt(2024, 3, 1).unwrap(), drawdown: -0.042 };
/// assert!(p.drawdown <= 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawdownPoint {
    /// Date.
    pub date: NaiveDate,
    /// `equity / running peak − 1`, a fraction ≤ 0 (the peak includes the initial
    /// capital).
    pub drawdown: f64,
}

/// The spec's "Overall backtest result".
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::backtest::{BacktestConfig, run};
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// let overall = run(&BacktestConfig::new(d, d), &[], &picker).overall;
/// assert_eq!((overall.total_trades, overall.win_rate, overall.total_pnl), (0, 0.0, 0.0));
/// assert_eq!((overall.profit_factor, overall.sharpe_ratio, overall.recovery_factor), (None, None, None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverallResult {
    /// Closed trades.
    pub total_trades: usize,
    /// Winning trades in percent of all trades (0 with no trades).
    pub win_rate: f64,
    /// Sum of the trades' net P&Ls, dollars.
    pub total_pnl: f64,
    /// Mean calendar days from entry to exit (0 with no trades).
    pub avg_holding_period: f64,
    /// Gross profit / |gross loss|; `None` with no losing trade.
    pub profit_factor: Option<f64>,
    /// Annualised Sharpe ratio of the equity curve's daily returns (r_f = 0, √252);
    /// `None` with fewer than 2 days or flat equity.
    pub sharpe_ratio: Option<f64>,
    /// Largest peak-to-trough fall of the equity curve, a fraction ≤ 0 (0 when none).
    pub max_drawdown: f64,
    /// Net profit / largest dollar drawdown of the equity curve; `None` with no
    /// drawdown.
    pub recovery_factor: Option<f64>,
}

/// The spec's "Strategy backtest result" (its `summary`).
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::{Strategy, backtest::{BacktestConfig, run}};
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// let config = BacktestConfig { strategies: vec![Strategy::Volatility, Strategy::Momentum], ..BacktestConfig::new(d, d) };
/// let by = run(&config, &[], &picker).by_strategy;
/// // One entry per selected strategy, in the engine's order.
/// assert_eq!(by.iter().map(|s| s.strategy).collect::<Vec<_>>(), [Strategy::Momentum, Strategy::Volatility]);
/// assert_eq!((by[0].total_trades, by[0].avg_pnl, by[0].profit_factor), (0, 0.0, None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrategyResult {
    /// The strategy.
    pub strategy: Strategy,
    /// Its closed trades.
    pub total_trades: usize,
    /// Winning trades in percent (0 with no trades).
    pub win_rate: f64,
    /// Sum of net P&Ls.
    pub total_pnl: f64,
    /// Mean net P&L per trade (0 with no trades).
    pub avg_pnl: f64,
    /// Trades with P&L > 0.
    pub winning_trades: usize,
    /// Trades with P&L < 0.
    pub losing_trades: usize,
    /// Gross profit / |gross loss|; `None` with no losing trade.
    pub profit_factor: Option<f64>,
}

/// A bar the backtest refused (see [`DailyBar::validate`]); the symbol kept its state.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::{BarError, DailyBar};
/// use strikeline_engine::backtest::{BacktestConfig, SymbolSeries, run};
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let bad = DailyBar { date: d, open: 10.0, high: 9.0, low: 9.5, close: 9.2, volume: 0.0 };
/// let series = [SymbolSeries { symbol: "X".into(), bars: vec![bad] }];
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// let report = run(&BacktestConfig::new(d, d), &series, &picker);
/// assert_eq!(report.rejected_bars[0].error, BarError::HighBelowLow { date: d });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RejectedBar {
    /// Ticker.
    pub symbol: String,
    /// Why.
    pub error: BarError,
}

/// Everything a backtest produced.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::backtest::{BacktestConfig, run};
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// let report = run(&BacktestConfig::new(d, d + Days::new(30)), &[], &picker);
/// assert!(report.trades.is_empty() && report.equity_curve.is_empty());
/// assert_eq!((report.final_equity, report.total_return), (100_000.0, 0.0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BacktestReport {
    /// Closed trades, by exit date (then in the order they were opened).
    pub trades: Vec<Trade>,
    /// Equity at each date from `start` to `end`.
    pub equity_curve: Vec<EquityPoint>,
    /// Drawdown at each date of the equity curve.
    pub drawdown: Vec<DrawdownPoint>,
    /// Overall figures.
    pub overall: OverallResult,
    /// One entry per selected strategy, in [`Strategy::ALL`] order.
    pub by_strategy: Vec<StrategyResult>,
    /// Every return statistic of the equity curve (Sortino, CAGR, Calmar, volatility…).
    pub return_stats: ReturnStats,
    /// Capital at the start.
    pub initial_capital: f64,
    /// Equity at the end.
    pub final_equity: f64,
    /// `final_equity / initial_capital − 1`.
    pub total_return: f64,
    /// Commissions of every trade.
    pub total_commissions: f64,
    /// Proposals not taken because the cash could not pay for them.
    pub skipped_for_capital: usize,
    /// Bars refused.
    pub rejected_bars: Vec<RejectedBar>,
    /// Bars pushed through the strategies (warm-up included).
    pub bars_processed: usize,
    /// Option marks computed (one per open trade per day with a bar).
    pub option_marks: usize,
}

/// An open position of the simulation.
struct Position {
    symbol: usize,
    strategy: Strategy,
    signal: OpenSignal,
    entry_date: NaiveDate,
    entry_fill: f64,
    confidence: u8,
    entry_underlying: f64,
    /// Latest mark (premium per share) and the underlying then.
    mark: f64,
    underlying: f64,
}

fn strategy_bit(strategy: Strategy) -> u8 {
    match strategy {
        Strategy::Momentum => 1,
        Strategy::MeanReversion => 2,
        Strategy::Breakout => 4,
        Strategy::Volatility => 8,
    }
}

/// Runs a backtest (see the [module documentation](self)).
///
/// `expiration(as_of, min_days)` is the listed-expiration picker, as for
/// [`ProposalContext::expiration`].
///
/// # Panics
/// If `config` is invalid; call [`BacktestConfig::validate`] first, or use [`try_run`].
///
/// ```
/// use chrono::{Datelike, Days, NaiveDate, Weekday};
/// use strikeline_engine::DailyBar;
/// use strikeline_engine::backtest::{BacktestConfig, SymbolSeries, run};
/// let first = NaiveDate::from_ymd_opt(2023, 1, 2).unwrap();
/// // 400 days of a calm oscillation with a volume spike now and then.
/// let bars: Vec<DailyBar> = (0..400).map(|i| {
///     let close = 100.0 + 5.0 * (i as f64 / 9.0).sin() + i as f64 * 0.02;
///     DailyBar { date: first + Days::new(i), open: close - 0.2, high: close + 0.8, low: close - 0.8, close,
///                volume: if i % 37 == 0 { 3e6 } else { 1e6 } }
/// }).collect();
/// let series = [SymbolSeries { symbol: "XYZ".into(), bars }];
/// let fridays = |from: NaiveDate, min_days: u32| {
///     let mut d = from + Days::new(u64::from(min_days));
///     while d.weekday() != Weekday::Fri { d = d + Days::new(1); }
///     d
/// };
/// let config = BacktestConfig::new(first + Days::new(300), first + Days::new(399));
/// let report = run(&config, &series, &fridays);
/// assert_eq!(report.equity_curve.len(), 100);
/// let summed: f64 = report.trades.iter().map(|t| t.pnl).sum();
/// assert!((report.overall.total_pnl - summed).abs() < 1e-6);
/// assert!((report.final_equity - (100_000.0 + summed)).abs() < 1e-6);
/// // Deterministic.
/// assert_eq!(run(&config, &series, &fridays), report);
/// ```
#[must_use]
pub fn run(
    config: &BacktestConfig,
    series: &[SymbolSeries],
    expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate,
) -> BacktestReport {
    match try_run(config, series, expiration) {
        Ok(report) => report,
        Err(e) => panic!("invalid backtest configuration: {e}"),
    }
}

/// [`run`], returning the configuration error instead of panicking.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::backtest::{BacktestConfig, try_run};
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let mut config = BacktestConfig::new(d, d);
/// config.strategies.clear();
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// assert_eq!(try_run(&config, &[], &picker).unwrap_err().field, "strategies");
/// ```
pub fn try_run(
    config: &BacktestConfig,
    series: &[SymbolSeries],
    expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate,
) -> Result<BacktestReport, ConfigError> {
    config.validate()?;
    Ok(Simulation::new(config, series).run(expiration))
}

struct Simulation<'a> {
    config: &'a BacktestConfig,
    series: &'a [SymbolSeries],
    /// Symbol indices in symbol order (then input order).
    order: Vec<usize>,
    states: Vec<SymbolState>,
    cursors: Vec<usize>,
    /// Close of the symbol's bar today, if it has one and it was accepted.
    today: Vec<Option<f64>>,
    /// Latest accepted close.
    last_close: Vec<Option<f64>>,
    /// Strategies with an open trade, as bits, per symbol.
    open_bits: Vec<u8>,
    selected_bits: u8,
    open: Vec<Position>,
    trades: Vec<Trade>,
    cash: f64,
    /// Commissions owed on closing every open trade.
    closing_reserve: f64,
    equity_curve: Vec<EquityPoint>,
    skipped_for_capital: usize,
    rejected_bars: Vec<RejectedBar>,
    bars_processed: usize,
    option_marks: usize,
}

impl<'a> Simulation<'a> {
    fn new(config: &'a BacktestConfig, series: &'a [SymbolSeries]) -> Self {
        let n = series.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| series[a].symbol.cmp(&series[b].symbol).then(a.cmp(&b)));
        // Validated by `config.validate()`.
        let state = SymbolState::with_params(config.params).unwrap_or_default();
        let selected_bits = config
            .strategies
            .iter()
            .fold(0, |bits, &s| bits | strategy_bit(s));
        Simulation {
            config,
            series,
            order,
            states: vec![state; n],
            cursors: vec![0; n],
            today: vec![None; n],
            last_close: vec![None; n],
            open_bits: vec![0; n],
            selected_bits,
            open: Vec::new(),
            trades: Vec::new(),
            cash: config.initial_capital,
            closing_reserve: 0.0,
            equity_curve: Vec::new(),
            skipped_for_capital: 0,
            rejected_bars: Vec::new(),
            bars_processed: 0,
            option_marks: 0,
        }
    }

    fn contracts(&self) -> f64 {
        f64::from(self.config.contracts_per_trade)
    }

    /// The next date of the timeline after `after`, skipping (and rejecting) bars that
    /// are not after the last date already processed.
    fn next_date(&mut self, after: Option<NaiveDate>) -> Option<NaiveDate> {
        let mut next: Option<NaiveDate> = None;
        for i in 0..self.series.len() {
            let bars = &self.series[i].bars;
            while let Some(bar) = bars.get(self.cursors[i]) {
                match after {
                    Some(last) if bar.date <= last => {
                        self.rejected_bars.push(RejectedBar {
                            symbol: self.series[i].symbol.clone(),
                            error: BarError::OutOfOrder {
                                date: bar.date,
                                last,
                            },
                        });
                        self.cursors[i] += 1;
                    }
                    _ => break,
                }
            }
            if let Some(bar) = bars.get(self.cursors[i])
                && bar.date <= self.config.end
            {
                next = Some(next.map_or(bar.date, |d: NaiveDate| d.min(bar.date)));
            }
        }
        next
    }

    fn run(mut self, expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate) -> BacktestReport {
        let mut last: Option<NaiveDate> = None;
        while let Some(date) = self.next_date(last) {
            last = Some(date);
            self.push_bars(date);
            if date < self.config.start {
                continue;
            }
            self.mark_open(date);
            self.open_new(date, expiration);
            let equity = self.equity();
            self.equity_curve.push(EquityPoint { date, equity });
        }
        if let Some(date) = last.filter(|&d| d >= self.config.start) {
            self.close_all_at_end(date);
        }
        self.report()
    }

    fn push_bars(&mut self, date: NaiveDate) {
        for i in 0..self.series.len() {
            self.today[i] = None;
            let Some(bar) = self.series[i].bars.get(self.cursors[i]) else {
                continue;
            };
            if bar.date != date {
                continue;
            }
            self.cursors[i] += 1;
            match self.states[i].update(bar) {
                Ok(()) => {
                    self.bars_processed += 1;
                    self.today[i] = Some(bar.close);
                    self.last_close[i] = Some(bar.close);
                }
                Err(error) => self.rejected_bars.push(RejectedBar {
                    symbol: self.series[i].symbol.clone(),
                    error,
                }),
            }
        }
    }

    /// Marks every open trade that has a price today; closes those at target, stop or
    /// expiry.
    fn mark_open(&mut self, date: NaiveDate) {
        let assumptions = self.config.assumptions;
        let mut k = 0;
        while k < self.open.len() {
            let position = &mut self.open[k];
            let expiry = position.signal.expiration;
            let spot = match self.today[position.symbol] {
                Some(close) => Some(close),
                // No bar today: only an expiry needs a price (the last close).
                None if date >= expiry => self.last_close[position.symbol],
                None => None,
            };
            let mut close = None;
            if let Some(spot) = spot {
                self.option_marks += 1;
                if let Ok(m) = mark(
                    &position.signal,
                    spot,
                    years_between(date, expiry),
                    date >= expiry,
                    assumptions,
                ) {
                    position.mark = m.option_price;
                    position.underlying = spot;
                    close = match m.outcome {
                        Outcome::Active => None,
                        Outcome::TargetHit => Some(TradeOutcome::Target),
                        Outcome::StopHit => Some(TradeOutcome::Stop),
                        Outcome::Expired => Some(TradeOutcome::Expiry),
                    };
                }
            }
            match close {
                Some(outcome) => {
                    let position = self.open.remove(k);
                    self.close(position, date, outcome);
                }
                None => k += 1,
            }
        }
    }

    fn close(&mut self, position: Position, date: NaiveDate, outcome: TradeOutcome) {
        let n = self.contracts();
        let c = self.config.commission_per_contract;
        let s = self.config.slippage;
        let exit_fill = position.mark * (1.0 - s);
        let commissions = 2.0 * c * n;
        let pnl = round_cents((exit_fill - position.entry_fill) * 100.0 * n - commissions);
        // The opening paid entry_fill·100·n + c·n; the books now hold that plus the P&L.
        self.cash += position.entry_fill * 100.0 * n + c * n + pnl;
        self.closing_reserve -= c * n;
        self.open_bits[position.symbol] &= !strategy_bit(position.strategy);
        let signal = position.signal;
        self.trades.push(Trade {
            symbol: self.series[position.symbol].symbol.clone(),
            strategy: position.strategy,
            signal_type: signal.signal_type,
            strike: signal.strike,
            expiration: signal.expiration,
            entry_date: position.entry_date,
            exit_date: date,
            entry_price: position.entry_fill,
            exit_price: exit_fill,
            contracts: self.config.contracts_per_trade,
            commissions,
            pnl,
            outcome,
            confidence: position.confidence,
            model_entry_price: signal.entry_price,
            target_price: signal.target_price,
            stop_loss: signal.stop_loss,
            volatility: signal.volatility,
            entry_underlying: position.entry_underlying,
            exit_underlying: position.underlying,
        });
    }

    fn open_new(&mut self, date: NaiveDate, expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate) {
        let n = self.contracts();
        let c = self.config.commission_per_contract;
        for idx in 0..self.order.len() {
            let i = self.order[idx];
            let Some(spot) = self.today[i] else {
                continue;
            };
            // Every selected setup already has an open trade: nothing to evaluate.
            if self.selected_bits & !self.open_bits[i] == 0 || !self.states[i].is_warm() {
                continue;
            }
            let ctx = ProposalContext {
                symbol: &self.series[i].symbol,
                as_of: date,
                spot,
                assumptions: self.config.assumptions,
                expiration,
            };
            for proposal in self.states[i].propose(&ctx) {
                let bit = strategy_bit(proposal.strategy);
                if self.selected_bits & bit == 0 || self.open_bits[i] & bit != 0 {
                    continue;
                }
                let entry_fill = proposal.entry_price * (1.0 + self.config.slippage);
                let cost = entry_fill * 100.0 * n + c * n;
                if self.cash - cost < self.closing_reserve + c * n {
                    self.skipped_for_capital += 1;
                    continue;
                }
                self.cash -= cost;
                self.closing_reserve += c * n;
                self.open_bits[i] |= bit;
                self.open.push(Position {
                    symbol: i,
                    strategy: proposal.strategy,
                    signal: proposal.open_signal(),
                    entry_date: date,
                    entry_fill,
                    confidence: proposal.confidence,
                    entry_underlying: spot,
                    mark: proposal.entry_price,
                    underlying: spot,
                });
            }
        }
    }

    /// Cash plus what closing every open trade at its latest mark would bring.
    fn equity(&self) -> f64 {
        let n = self.contracts();
        let c = self.config.commission_per_contract;
        let s = self.config.slippage;
        self.cash
            + self
                .open
                .iter()
                .map(|p| p.mark * (1.0 - s) * 100.0 * n - c * n)
                .sum::<f64>()
    }

    fn close_all_at_end(&mut self, date: NaiveDate) {
        let open = std::mem::take(&mut self.open);
        for position in open {
            self.close(position, date, TradeOutcome::EndOfTest);
        }
        // The last point already valued the trades at their liquidation value; make it
        // the books' exact figure after the (cent-rounded) closes.
        if let Some(point) = self.equity_curve.last_mut() {
            point.equity = self.cash;
        }
    }

    fn report(self) -> BacktestReport {
        let initial = self.config.initial_capital;
        let mut drawdown = Vec::with_capacity(self.equity_curve.len());
        let mut returns = Vec::with_capacity(self.equity_curve.len());
        let mut changes = Vec::with_capacity(self.equity_curve.len());
        let (mut previous, mut peak) = (initial, initial);
        for point in &self.equity_curve {
            peak = peak.max(point.equity);
            drawdown.push(DrawdownPoint {
                date: point.date,
                drawdown: if peak > 0.0 {
                    point.equity / peak - 1.0
                } else {
                    0.0
                },
            });
            returns.push(if previous > 0.0 {
                point.equity / previous - 1.0
            } else {
                0.0
            });
            changes.push(point.equity - previous);
            previous = point.equity;
        }
        let return_stats = DailyReturns::new(&returns)
            .map(|r| r.stats(0.0))
            .unwrap_or(EMPTY_RETURN_STATS);
        let equity_stats = TradeStats::new(&changes).ok();

        let pnls: Vec<f64> = self.trades.iter().map(|t| t.pnl).collect();
        let stats = TradeStats::new(&pnls).ok();
        let holding: f64 = self.trades.iter().map(|t| t.holding_days() as f64).sum();
        let count = self.trades.len();
        let overall = OverallResult {
            total_trades: count,
            win_rate: stats.and_then(|s| s.win_rate).unwrap_or(0.0) * 100.0,
            total_pnl: round_cents(pnls.iter().sum()),
            avg_holding_period: if count > 0 {
                holding / count as f64
            } else {
                0.0
            },
            profit_factor: stats.and_then(|s| s.profit_factor),
            sharpe_ratio: return_stats.sharpe,
            max_drawdown: return_stats.max_drawdown.unwrap_or(0.0),
            recovery_factor: equity_stats.and_then(|s| s.recovery_factor),
        };
        let by_strategy = Strategy::ALL
            .into_iter()
            .filter(|s| self.selected_bits & strategy_bit(*s) != 0)
            .map(|strategy| {
                let pnls: Vec<f64> = self
                    .trades
                    .iter()
                    .filter(|t| t.strategy == strategy)
                    .map(|t| t.pnl)
                    .collect();
                strategy_result(strategy, &pnls)
            })
            .collect();
        let final_equity = self.equity_curve.last().map_or(initial, |p| p.equity);
        BacktestReport {
            overall,
            by_strategy,
            return_stats,
            initial_capital: initial,
            final_equity,
            total_return: final_equity / initial - 1.0,
            total_commissions: round_cents(self.trades.iter().map(|t| t.commissions).sum()),
            skipped_for_capital: self.skipped_for_capital,
            rejected_bars: self.rejected_bars,
            bars_processed: self.bars_processed,
            option_marks: self.option_marks,
            trades: self.trades,
            equity_curve: self.equity_curve,
            drawdown,
        }
    }
}

const EMPTY_RETURN_STATS: ReturnStats = ReturnStats {
    sharpe: None,
    sortino: None,
    max_drawdown: None,
    cagr: None,
    calmar: None,
    annualized_volatility: None,
    cumulative_return: 0.0,
};

fn strategy_result(strategy: Strategy, pnls: &[f64]) -> StrategyResult {
    let stats = TradeStats::new(pnls).ok();
    let total: f64 = pnls.iter().sum();
    StrategyResult {
        strategy,
        total_trades: pnls.len(),
        win_rate: stats.and_then(|s| s.win_rate).unwrap_or(0.0) * 100.0,
        total_pnl: round_cents(total),
        avg_pnl: if pnls.is_empty() {
            0.0
        } else {
            round_cents(total / pnls.len() as f64)
        },
        winning_trades: stats.map_or(0, |s| s.wins),
        losing_trades: stats.map_or(0, |s| s.losses),
        profit_factor: stats.and_then(|s| s.profit_factor),
    }
}

/// One round trip of [`sma_crossover`].
///
/// ```
/// use chrono::NaiveDate;
/// let d = |day| NaiveDate::from_ymd_opt(2024, 1, day).unwrap();
/// let t = strikeline_engine::backtest::CrossoverTrade { entry_date: d(2), exit_date: d(9), entry_price: 50.0, exit_price: 55.0 };
/// assert!((t.exit_price / t.entry_price - 1.0 - 0.1).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossoverTrade {
    /// Bought at this day's close.
    pub entry_date: NaiveDate,
    /// Sold at this day's close.
    pub exit_date: NaiveDate,
    /// The entry close.
    pub entry_price: f64,
    /// The exit close.
    pub exit_price: f64,
}

/// The result of [`sma_crossover`].
///
/// ```
/// let r = strikeline_engine::backtest::sma_crossover(&[], 10, 30);
/// assert_eq!((r.trades.len(), r.open_position, r.final_equity, r.bars), (0, None, 1.0, 0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CrossoverResult {
    /// Closed round trips.
    pub trades: Vec<CrossoverTrade>,
    /// The position still held after the last bar: entry date and price.
    pub open_position: Option<(NaiveDate, f64)>,
    /// Equity after the last bar, starting from 1.0 (an open position valued at the last
    /// close).
    pub final_equity: f64,
    /// `final_equity − 1`.
    pub total_return: f64,
    /// Bars read.
    pub bars: usize,
    /// Bars on which the position was held (at the close).
    pub bars_in_market: usize,
}

/// A plain long-only stock SMA crossover, the yardstick of the side-by-side speed
/// comparison with vectorbt and backtesting.py (`bench/peers/sma_crossover.py`):
///
/// - `SMA(fast)` and `SMA(slow)` of the closes ([`Sma`], TA-Lib's definition, first
///   values at bars `fast` and `slow`);
/// - a **cross above** on bar `t`: `SMA_fast(t) > SMA_slow(t)` while the last bar on which
///   the two differed had `SMA_fast < SMA_slow` (equal values keep the previous side,
///   as vectorbt's `crossed_above`); a **cross below** is the mirror. The first bar on
///   which both averages exist only sets the side: it is not a cross;
/// - buy with all the equity at the close of a cross above (fractional shares), sell at
///   the close of a cross below; no costs, no shorting;
/// - equity starts at 1.0; a position still open after the last bar is valued at the
///   last close.
///
/// Degenerate periods (`fast` 0, or `fast ≥ slow`) trade nothing.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::DailyBar;
/// use strikeline_engine::backtest::sma_crossover;
/// let first = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
/// let closes = [10.0, 10.0, 10.0, 9.0, 8.0, 9.0, 11.0, 12.0, 11.0, 9.0, 8.0];
/// let bars: Vec<DailyBar> = closes.iter().enumerate().map(|(i, &c)| DailyBar {
///     date: first + Days::new(i as u64), open: c, high: c, low: c, close: c, volume: 1.0,
/// }).collect();
/// let r = sma_crossover(&bars, 2, 3);
/// // SMA2 < SMA3 from bar 3; SMA2 crosses above on bar 6 (10.0 > 9.33), below on bar 9 (10.0 < 10.67).
/// assert_eq!(r.trades.len(), 1);
/// assert_eq!((r.trades[0].entry_price, r.trades[0].exit_price), (11.0, 9.0));
/// assert!((r.total_return - (9.0 / 11.0 - 1.0)).abs() < 1e-12);
/// ```
#[must_use]
pub fn sma_crossover(bars: &[DailyBar], fast: usize, slow: usize) -> CrossoverResult {
    let mut result = CrossoverResult {
        trades: Vec::new(),
        open_position: None,
        final_equity: 1.0,
        total_return: 0.0,
        bars: bars.len(),
        bars_in_market: 0,
    };
    let (Ok(mut fast_sma), Ok(mut slow_sma)) = (Sma::new(fast), Sma::new(slow)) else {
        return result;
    };
    if fast >= slow {
        return result;
    }
    // Side of the last bar on which the averages differed: 1 above, -1 below, 0 unknown.
    let mut side: i8 = 0;
    let mut equity = 1.0;
    let mut holding: Option<(NaiveDate, f64)> = None;
    for bar in bars {
        let close = bar.close;
        let (f, s) = (fast_sma.next(close), slow_sma.next(close));
        if let (Some(f), Some(s)) = (f, s) {
            if f > s {
                if side == -1 && holding.is_none() {
                    holding = Some((bar.date, close));
                }
                side = 1;
            } else if f < s {
                if side == 1
                    && let Some((entry_date, entry_price)) = holding.take()
                {
                    equity *= close / entry_price;
                    result.trades.push(CrossoverTrade {
                        entry_date,
                        exit_date: bar.date,
                        entry_price,
                        exit_price: close,
                    });
                }
                side = -1;
            }
        }
        if holding.is_some() {
            result.bars_in_market += 1;
        }
    }
    if let (Some((date, price)), Some(last)) = (holding, bars.last()) {
        equity *= last.close / price;
        result.open_position = Some((date, price));
    }
    result.final_equity = equity;
    result.total_return = equity - 1.0;
    result
}
