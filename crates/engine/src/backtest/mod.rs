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
//!
//! [`SymbolState`]: crate::SymbolState
//! [`SymbolState::update`]: crate::SymbolState::update
//! [`SymbolState::propose`]: crate::SymbolState::propose
//! [`mark`]: crate::mark
//! [`DailyReturns::sharpe`]: strikeline_quant::DailyReturns::sharpe
//! [`DailyReturns::max_drawdown`]: strikeline_quant::DailyReturns::max_drawdown
//! [`TradeStats`]: strikeline_quant::TradeStats
//! [`TradeStats::recovery_factor`]: strikeline_quant::TradeStats::recovery_factor

use chrono::NaiveDate;

use simulation::Simulation;

mod config;
mod crossover;
mod fills;
mod report;
mod simulation;

pub use config::{BacktestConfig, ConfigError, Structuring, SymbolSeries, Withheld};
pub use crossover::{CrossoverResult, CrossoverTrade, sma_crossover};
pub use report::{
    BacktestReport, DrawdownPoint, EquityPoint, OverallResult, RejectedBar, StrategyResult, Trade, TradeOutcome, WithheldTrade,
};

/// Runs a backtest (see the [module documentation](self)).
///
/// `expiration(as_of, min_days)` is the listed-expiration picker, as for
/// [`ProposalContext::expiration`](crate::ProposalContext::expiration).
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
pub fn run(config: &BacktestConfig, series: &[SymbolSeries], expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate) -> BacktestReport {
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
    let report = Simulation::new(config, series).run(expiration, &|| false);
    Ok(report.unwrap_or_else(|| unreachable!("a run that is never stopped ends with a report")))
}

/// [`try_run`] that gives up when `stop` returns true (it is asked once per simulated date),
/// answering `Ok(None)`: how a server stops a backtest whose request has gone away.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::backtest::{BacktestConfig, try_run_until};
/// use strikeline_engine::DailyBar;
/// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
/// let bars = (0..30u64).map(|i| DailyBar { date: d + Days::new(i), open: 10.0, high: 11.0, low: 9.0, close: 10.0, volume: 1e6 }).collect();
/// let series = [strikeline_engine::backtest::SymbolSeries { symbol: "ABC".into(), bars }];
/// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
/// let config = BacktestConfig::new(d, d + Days::new(29));
/// assert!(try_run_until(&config, &series, &picker, &|| true).unwrap().is_none());
/// assert!(try_run_until(&config, &series, &picker, &|| false).unwrap().is_some());
/// ```
pub fn try_run_until(
    config: &BacktestConfig,
    series: &[SymbolSeries],
    expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate,
    stop: &dyn Fn() -> bool,
) -> Result<Option<BacktestReport>, ConfigError> {
    config.validate()?;
    Ok(Simulation::new(config, series).run(expiration, stop))
}
