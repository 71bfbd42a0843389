//! Performance metrics of the daily snapshots and the portfolio summary of closed and
//! open positions.

use chrono::NaiveDate;
use strikeline_quant::{DailyReturns, TradeStats};

use super::round_to;
use super::structure::StructureValuation;
use super::valuation::PositionValuation;
use crate::proposal::round_cents;

/// Performance metrics of a series of daily portfolio values (fractions, like the
/// quant crate's statistics).
///
/// ```
/// let m = strikeline_engine::portfolio::Metrics::default();
/// assert_eq!((m.sharpe_ratio, m.max_drawdown), (None, None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Metrics {
    /// Annualised Sharpe ratio of the daily returns ([`DailyReturns::sharpe`], r_f = 0,
    /// √252).
    pub sharpe_ratio: Option<f64>,
    /// CAGR / |max drawdown| ([`DailyReturns::calmar`]).
    pub calmar_ratio: Option<f64>,
    /// Largest peak-to-trough fall, a fraction ≤ 0 ([`DailyReturns::max_drawdown`]).
    pub max_drawdown: Option<f64>,
    /// Net change in value / largest fall in dollars ([`TradeStats::recovery_factor`]
    /// of the daily changes).
    pub recovery_factor: Option<f64>,
    /// Annualised volatility of the daily returns, a fraction
    /// ([`DailyReturns::annualized_volatility`]).
    pub volatility: Option<f64>,
}

/// The Performance Metrics card from daily snapshots `(date, value)` of a user's
/// portfolio (sorted here by date; one snapshot a trading day).
///
/// The value must be the account's **equity** (capital plus net P&L), not the market
/// value of the open positions: opening a position moves cash into options and must not
/// read as a return. The daily return between consecutive snapshots is
/// `v_i / v_{i−1} − 1` (a pair with a non-positive or non-finite value is left out), the
/// first snapshot being the starting value. Every figure is `None` with fewer than 2
/// snapshots, and as the quant crate defines otherwise (a flat series has no Sharpe
/// ratio; no fall, no Calmar or recovery factor).
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::portfolio::performance_metrics;
/// let d0 = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
/// let values = [1000.0, 1100.0, 990.0, 1089.0];
/// let snapshots: Vec<(NaiveDate, f64)> = values.iter().enumerate().map(|(i, &v)| (d0 + Days::new(i as u64), v)).collect();
/// let m = performance_metrics(&snapshots);
/// assert!((m.max_drawdown.unwrap() - (-0.10)).abs() < 1e-12);       // 1100 → 990
/// assert!((m.recovery_factor.unwrap() - 89.0 / 110.0).abs() < 1e-12); // +89 over a 110 fall
/// assert!(m.sharpe_ratio.is_some() && m.volatility.is_some() && m.calmar_ratio.is_some());
/// assert_eq!(performance_metrics(&snapshots[..1]), Default::default());
/// ```
#[must_use]
pub fn performance_metrics(snapshots: &[(NaiveDate, f64)]) -> Metrics {
    let mut sorted: Vec<(NaiveDate, f64)> = snapshots.to_vec();
    sorted.sort_by_key(|&(date, _)| date);
    let mut returns = Vec::with_capacity(sorted.len());
    let mut changes = Vec::with_capacity(sorted.len());
    for pair in sorted.windows(2) {
        let (before, after) = (pair[0].1, pair[1].1);
        if before.is_finite() && after.is_finite() && before > 0.0 && after > 0.0 {
            returns.push(after / before - 1.0);
            changes.push(after - before);
        }
    }
    if returns.is_empty() {
        return Metrics::default();
    }
    let Ok(daily) = DailyReturns::new(&returns) else {
        return Metrics::default();
    };
    Metrics {
        sharpe_ratio: daily.sharpe(0.0),
        calmar_ratio: daily.calmar(),
        max_drawdown: daily.max_drawdown(),
        recovery_factor: TradeStats::new(&changes).ok().and_then(|s| s.recovery_factor),
        volatility: daily.annualized_volatility(),
    }
}

/// A closed position (automated or manual) for the summary.
///
/// ```
/// use chrono::NaiveDate;
/// let d = |day| NaiveDate::from_ymd_opt(2026, 3, day).unwrap();
/// let t = strikeline_engine::portfolio::ClosedTrade { pnl: -41.30, commissions: 1.30, opened_on: d(2), closed_on: d(6) };
/// assert!(t.pnl < 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClosedTrade {
    /// Net P&L after commissions, dollars.
    pub pnl: f64,
    /// Commissions paid (open and close), dollars.
    pub commissions: f64,
    /// Date opened.
    pub opened_on: NaiveDate,
    /// Date closed.
    pub closed_on: NaiveDate,
}

/// The summary cards and Portfolio Statistics of the portfolio page.
///
/// ```
/// use strikeline_engine::portfolio::summary;
/// let s = summary(&[], &[], 0.0, 1_000.0);
/// assert_eq!((s.total_value, s.net_pnl, s.open_positions, s.closed_positions), (1_000.0, 0.0, 0, 0));
/// assert_eq!((s.win_rate, s.largest_win, s.consecutive_wins), (None, None, 0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PortfolioSummary {
    /// Account equity: `capital + net_pnl`.
    pub total_value: f64,
    /// `net_pnl / capital × 100`, 2 decimals (0 when the capital is not positive).
    pub total_pnl_percent: f64,
    /// Realised plus unrealised P&L, after every commission paid.
    pub net_pnl: f64,
    /// Net P&L of the closed positions.
    pub realized_pnl: f64,
    /// Unrealised P&L of the open positions (before their commissions).
    pub unrealized_pnl: f64,
    /// Market value of the open positions.
    pub open_value: f64,
    /// Winning closed positions in percent of the closed ones; `None` when none closed.
    pub win_rate: Option<f64>,
    /// Open positions.
    pub open_positions: usize,
    /// Closed positions.
    pub closed_positions: usize,
    /// Mean calendar days from open to close of the closed positions.
    pub avg_holding_period: Option<f64>,
    /// Gross profit / |gross loss| of the closed positions; `None` with no loss.
    pub profit_factor: Option<f64>,
    /// Largest winning closed P&L.
    pub largest_win: Option<f64>,
    /// Largest losing closed P&L (negative).
    pub largest_loss: Option<f64>,
    /// Longest run of consecutive winning closes, in closing order.
    pub consecutive_wins: usize,
    /// Commissions of the closed positions plus those already paid on the open ones.
    pub total_commissions: f64,
}

/// What the summary needs of an open position, single-leg or multi-leg: its value now and
/// its profit or loss since opening, dollars.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct OpenMark {
    /// What closing would bring now (negative when closing costs).
    pub current_value: f64,
    /// Profit or loss since opening.
    pub unrealized_pnl: f64,
}

impl From<&PositionValuation> for OpenMark {
    fn from(v: &PositionValuation) -> Self {
        OpenMark { current_value: v.current_value, unrealized_pnl: v.unrealized_pnl }
    }
}

impl From<&StructureValuation> for OpenMark {
    fn from(v: &StructureValuation) -> Self {
        OpenMark { current_value: v.current_value, unrealized_pnl: v.unrealized_pnl }
    }
}

/// The summary of a portfolio: `closed` positions (any order; taken in closing order),
/// the valuations of the `open` ones, the commissions already paid on the open ones, and
/// the user's capital. Win rate, profit factor, largest win and loss and the winning
/// streak are [`TradeStats`] of the closed net P&Ls (a P&L of exactly 0 is neither a win
/// nor a loss).
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::portfolio::{ClosedTrade, summary};
/// let d = |day| NaiveDate::from_ymd_opt(2026, 3, day).unwrap();
/// let closed = [
///     ClosedTrade { pnl: 120.0, commissions: 1.30, opened_on: d(2), closed_on: d(6) },
///     ClosedTrade { pnl: -40.0, commissions: 1.30, opened_on: d(3), closed_on: d(9) },
///     ClosedTrade { pnl: 60.0, commissions: 2.60, opened_on: d(9), closed_on: d(11) },
/// ];
/// let s = summary(&closed, &[], 0.0, 1000.0);
/// assert_eq!((s.net_pnl, s.total_value, s.total_pnl_percent), (140.0, 1140.0, 14.0));
/// assert!((s.win_rate.unwrap() - 200.0 / 3.0).abs() < 1e-12);
/// assert_eq!(s.profit_factor, Some(4.5));
/// assert_eq!((s.largest_win, s.largest_loss), (Some(120.0), Some(-40.0)));
/// assert_eq!(s.consecutive_wins, 1);
/// assert_eq!(s.avg_holding_period, Some(4.0));
/// assert_eq!(s.total_commissions, 5.2);
/// ```
#[must_use]
pub fn summary(closed: &[ClosedTrade], open: &[OpenMark], open_commissions: f64, capital: f64) -> PortfolioSummary {
    let mut ordered: Vec<ClosedTrade> = closed.to_vec();
    ordered.sort_by_key(|t| (t.closed_on, t.opened_on));
    let pnls: Vec<f64> = ordered.iter().map(|t| t.pnl).filter(|p| p.is_finite()).collect();
    let stats = TradeStats::new(&pnls).ok();
    let realized_pnl = round_cents(pnls.iter().sum());
    let unrealized_pnl = round_cents(open.iter().map(|v| v.unrealized_pnl).sum());
    let open_value = round_cents(open.iter().map(|v| v.current_value).sum());
    let net_pnl = round_cents(realized_pnl + unrealized_pnl - open_commissions);
    let holding: f64 = ordered.iter().map(|t| (t.closed_on - t.opened_on).num_days().max(0) as f64).sum();
    PortfolioSummary {
        total_value: round_cents(capital + net_pnl),
        total_pnl_percent: if capital > 0.0 { round_to(net_pnl / capital * 100.0, 2) } else { 0.0 },
        net_pnl,
        realized_pnl,
        unrealized_pnl,
        open_value,
        win_rate: stats.and_then(|s| s.win_rate).map(|w| w * 100.0),
        open_positions: open.len(),
        closed_positions: closed.len(),
        avg_holding_period: (!ordered.is_empty()).then(|| holding / ordered.len() as f64),
        profit_factor: stats.and_then(|s| s.profit_factor),
        largest_win: stats.and_then(|s| s.largest_win),
        largest_loss: stats.and_then(|s| s.largest_loss),
        consecutive_wins: stats.map_or(0, |s| s.longest_winning_streak),
        total_commissions: round_cents(ordered.iter().map(|t| t.commissions).sum::<f64>() + open_commissions),
    }
}
