//! What a backtest produced: the trades, the equity and drawdown curves, and the
//! statistics computed from them (see "Statistics" in the module documentation of
//! [`backtest`](super)).

use chrono::NaiveDate;
use strikeline_quant::{DailyReturns, ReturnStats, TradeStats};

use super::simulation::{Simulation, strategy_bit};
use crate::proposal::round_cents;
use crate::types::{BarError, SignalType, Strategy};

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
    /// A custom strategy's days to hold passed: closed at that day's mark.
    TimeLimit,
}

impl TradeOutcome {
    /// `target`, `stop`, `expiry`, `end` or `time`.
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
            TradeOutcome::TimeLimit => "time",
        }
    }
}

/// One closed backtest trade. Prices are premiums per share, money in dollars.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{SignalType, Strategy, backtest::{Trade, TradeOutcome}};
/// let d = |m, day| NaiveDate::from_ymd_opt(2024, m, day).unwrap();
/// // The hand-checked trade of tests/it/backtest.rs: 2 contracts, 1% slippage (fills to the
/// // cent), $0.65 a contract.
/// let t = Trade { symbol: "TEST".into(), strategy: Strategy::Breakout, signal_type: SignalType::Call, strike: 105.0,
///     expiration: d(11, 22), entry_date: d(10, 28), exit_date: d(10, 29), entry_price: 1.13, exit_price: 3.60,
///     contracts: 2, commissions: 2.60, pnl: 491.40, outcome: TradeOutcome::Target, confidence: 95, context: Default::default(), model_entry_price: 1.12,
///     model_exit_price: 3.64, target_price: 2.50, stop_loss: 0.67, volatility: 0.1327, entry_underlying: 104.0, exit_underlying: 108.0, short_strike: None };
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
    /// What the indicators said at entry.
    pub context: crate::state::EntryContext,
    /// The model premium at entry (before slippage).
    pub model_entry_price: f64,
    /// The mark it closed at (before slippage): for a spread, the long leg's less the short
    /// leg's.
    pub model_exit_price: f64,
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
    /// A vertical spread's short strike ([`Structuring::Vertical`](super::Structuring)); then
    /// the entry and exit prices, model entry, target and stop are the spread's net premiums
    /// per share and the commissions those of both legs.
    pub short_strike: Option<f64>,
}

/// A trade of a withheld setup: only which setup and when, never its terms or result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithheldTrade {
    pub symbol: String,
    pub strategy: Strategy,
    pub entry_date: NaiveDate,
    /// When it would have ended (for ordering only).
    pub exit_date: NaiveDate,
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
    /// #   commissions: 1.3, pnl: 98.7, outcome: TradeOutcome::Target, confidence: 70, context: Default::default(), model_entry_price: 2.0,
    /// #   model_exit_price: 3.03, target_price: 3.0, stop_loss: 1.0, volatility: 0.3, entry_underlying: 98.0, exit_underlying: 103.0, short_strike: None };
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

/// The figures of the overall backtest, every selected strategy traded together (what
/// `POST /api/backtest` reports).
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

/// One strategy's figures within a backtest (the `summary` of each entry of
/// `POST /api/backtest/strategy`).
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

/// A bar the backtest refused (see [`DailyBar::validate`](crate::DailyBar::validate)); the
/// symbol kept its state.
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
    /// Trades of withheld setups ([`Withheld`](super::Withheld)), by exit date: not in any
    /// figure of the report.
    pub withheld: Vec<WithheldTrade>,
    /// Equity at each date from `start` to `end`.
    pub equity_curve: Vec<EquityPoint>,
    /// Drawdown at each date of the equity curve.
    pub drawdown: Vec<DrawdownPoint>,
    /// Overall figures.
    pub overall: OverallResult,
    /// One entry per selected strategy, in [`Strategy::ALL`] order, then the custom one.
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

impl Simulation<'_> {
    pub(super) fn report(self) -> BacktestReport {
        let initial = self.config.initial_capital;
        let mut drawdown = Vec::with_capacity(self.equity_curve.len());
        let mut returns = Vec::with_capacity(self.equity_curve.len());
        let mut changes = Vec::with_capacity(self.equity_curve.len());
        let (mut previous, mut peak) = (initial, initial);
        for point in &self.equity_curve {
            peak = peak.max(point.equity);
            drawdown.push(DrawdownPoint { date: point.date, drawdown: if peak > 0.0 { point.equity / peak - 1.0 } else { 0.0 } });
            returns.push(if previous > 0.0 { point.equity / previous - 1.0 } else { 0.0 });
            changes.push(point.equity - previous);
            previous = point.equity;
        }
        let return_stats = DailyReturns::new(&returns).map(|r| r.stats(0.0)).unwrap_or(EMPTY_RETURN_STATS);
        let equity_stats = TradeStats::new(&changes).ok();

        let pnls: Vec<f64> = self.trades.iter().map(|t| t.pnl).collect();
        let stats = TradeStats::new(&pnls).ok();
        let holding: f64 = self.trades.iter().map(|t| t.holding_days() as f64).sum();
        let count = self.trades.len();
        let overall = OverallResult {
            total_trades: count,
            win_rate: stats.and_then(|s| s.win_rate).unwrap_or(0.0) * 100.0,
            total_pnl: round_cents(pnls.iter().sum()),
            avg_holding_period: if count > 0 { holding / count as f64 } else { 0.0 },
            profit_factor: stats.and_then(|s| s.profit_factor),
            sharpe_ratio: return_stats.sharpe,
            max_drawdown: return_stats.max_drawdown.unwrap_or(0.0),
            recovery_factor: equity_stats.and_then(|s| s.recovery_factor),
        };
        let by_strategy = Strategy::ALL
            .into_iter()
            .chain([Strategy::Custom])
            .filter(|s| self.selected_bits & strategy_bit(*s) != 0)
            .map(|strategy| {
                let pnls: Vec<f64> = self.trades.iter().filter(|t| t.strategy == strategy).map(|t| t.pnl).collect();
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
            withheld: self.withheld,
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
        avg_pnl: if pnls.is_empty() { 0.0 } else { round_cents(total / pnls.len() as f64) },
        winning_trades: stats.map_or(0, |s| s.wins),
        losing_trades: stats.map_or(0, |s| s.losses),
        profit_factor: stats.and_then(|s| s.profit_factor),
    }
}
