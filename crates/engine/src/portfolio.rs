//! Portfolio analytics for `/api/portfolio/*`: a position valued at today's price
//! ([`PositionInput::value`]), performance metrics of daily portfolio snapshots
//! ([`performance_metrics`]), the portfolio summary ([`summary`]), the risk assessment
//! ([`risk_assessment`], documented in `docs/risk.md`) and the rule that decides which
//! signals a user's automated paper portfolio takes ([`automated_allocation`]).
//!
//! Every figure reuses the quant crate: Black–Scholes prices and Greeks
//! ([`BlackScholes`]), breakevens, maximum loss and gain and probability of profit
//! ([`TradeAnalysis`]), return and trade statistics ([`DailyReturns`], [`TradeStats`]).
//! A STRADDLE is one call plus one put at the same strike and expiry: its price and Greeks
//! are the sums, its maximum loss the premium, its maximum gain unlimited, and it has two
//! breakevens.
//!
//! Units: option prices are premiums **per share**; one contract is 100 shares; money is
//! in dollars. Fields named `…_percent` and the position's `performance` are percentages
//! (12.5 = 12.5%); [`Metrics`] are fractions like the quant crate's (−0.08 = −8%).

use std::fmt::Write;

use chrono::NaiveDate;
use strikeline_quant::{
    BlackScholes, DailyReturns, Drift, InputError, OptionInputs, TradeAnalysis, TradeStats,
};

use crate::lifecycle::years_between;
use crate::proposal::round_cents;
use crate::types::{Assumptions, SignalType, Strategy};

/// Shares per contract.
///
/// ```
/// assert_eq!(strikeline_engine::portfolio::CONTRACT_MULTIPLIER, 100.0);
/// ```
pub const CONTRACT_MULTIPLIER: f64 = 100.0;

fn round_to(x: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (x * factor).round() / factor
}

/// An open option position, automated or manual, as stored.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let call = PositionInput {
///     symbol: "AAPL".into(), sector: "Technology".into(), kind: SignalType::Call,
///     strike: 105.0, expiration: d(4, 17), quantity: 2, entry_price: 2.10, volatility: 0.28,
///     opened_on: d(3, 2), target_price: Some(3.40), stop_loss: Some(1.30),
/// };
/// let v = call.value(104.0, d(3, 9), Assumptions::default(), 10_000.0)?;
/// assert_eq!(v.total_cost, 420.0);                       // 2.10 × 100 × 2
/// assert_eq!(v.current_value, v.current_price * 200.0);
/// assert_eq!(v.days_held, 7);
/// assert_eq!(v.risk.max_gain, None);                     // a call: unlimited
/// assert_eq!(v.risk.breakevens, vec![107.10]);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PositionInput {
    /// Ticker.
    pub symbol: String,
    /// The symbol's sector (for concentration).
    pub sector: String,
    /// CALL, PUT or STRADDLE (call + put).
    pub kind: SignalType,
    /// Strike.
    pub strike: f64,
    /// Expiration date.
    pub expiration: NaiveDate,
    /// Contracts.
    pub quantity: u32,
    /// Premium paid per share (for a straddle, call and put together).
    pub entry_price: f64,
    /// σ to mark with: the signal's σ, or today's volatility estimate.
    pub volatility: f64,
    /// Date opened.
    pub opened_on: NaiveDate,
    /// Target premium per share, if the position has one.
    pub target_price: Option<f64>,
    /// Stop premium per share, if the position has one.
    pub stop_loss: Option<f64>,
}

/// The whole position's Greeks (per-share Greeks × 100 × contracts).
///
/// ```
/// let g = strikeline_engine::portfolio::PositionGreeks { delta: 52.0, ..Default::default() };
/// // About $52 gained per $1 rise of the underlying: like holding 52 shares.
/// assert_eq!(g.delta * 1.0, 52.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PositionGreeks {
    /// Share-equivalent exposure: the position gains about `delta` dollars per $1 rise
    /// of the underlying.
    pub delta: f64,
    /// Change of `delta` per $1 rise of the underlying.
    pub gamma: f64,
    /// Dollars per calendar day of time passing (÷365).
    pub theta: f64,
    /// Dollars per volatility point (σ + 0.01).
    pub vega: f64,
    /// Dollars per rate point (r + 0.01).
    pub rho: f64,
}

/// The Risk tab of a position.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let put = PositionInput { symbol: "XYZ".into(), sector: "Energy".into(), kind: SignalType::Put, strike: 50.0,
///     expiration: d(5, 15), quantity: 1, entry_price: 2.0, volatility: 0.3, opened_on: d(3, 2),
///     target_price: None, stop_loss: None };
/// let risk = put.value(50.0, d(3, 2), Assumptions::default(), 1_000.0)?.risk;
/// assert_eq!((risk.max_loss, risk.max_gain, risk.breakevens), (200.0, Some(4_800.0), vec![48.0]));
/// assert_eq!(risk.risk_reward_ratio, Some(24.0));
/// assert_eq!(risk.position_size_percent, Some(20.0));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PositionRisk {
    /// The most the position can lose: the premium paid, dollars.
    pub max_loss: f64,
    /// The most it can gain, dollars; `None` when unlimited (calls, straddles).
    pub max_gain: Option<f64>,
    /// Underlying prices at expiry where the position breaks even (two for a
    /// straddle), cents.
    pub breakevens: Vec<f64>,
    /// Premium paid as a percentage of the capital; `None` when the capital is not
    /// positive.
    pub position_size_percent: Option<f64>,
    /// Probability (0–1) that the position is worth more than it cost at expiry, from
    /// today's price and σ under the risk-neutral drift.
    pub probability_of_profit: f64,
    /// Reward over risk: `(target − entry) / (entry − stop)` when the position has a
    /// target above and a stop below its entry; otherwise `max gain / max loss` when the
    /// gain is bounded (a put); `None` otherwise.
    pub risk_reward_ratio: Option<f64>,
}

/// The Performance tab of a position, in percent.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let call = PositionInput { symbol: "XYZ".into(), sector: "Tech".into(), kind: SignalType::Call, strike: 100.0,
///     expiration: d(3, 10), quantity: 1, entry_price: 2.0, volatility: 0.3, opened_on: d(3, 2),
///     target_price: None, stop_loss: None };
/// // Expired with the underlying at 104: worth 4.00 against 2.00 paid, after 8 days.
/// let p = call.value(104.0, d(3, 10), Assumptions::default(), 1_000.0)?.performance;
/// assert_eq!(p.total_return, 100.0);
/// assert!((p.daily_return.unwrap() - (2f64.powf(1.0 / 8.0) - 1.0) * 100.0).abs() < 1e-9);
/// assert_eq!(p.volatility, None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PositionPerformance {
    /// `current value / cost − 1`, percent.
    pub total_return: f64,
    /// `(1 + total return)^(365 / days held) − 1`, percent; `None` before a full day.
    pub annualized_return: Option<f64>,
    /// `(1 + total return)^(1 / days held) − 1`, the average per calendar day, percent;
    /// `None` before a full day.
    pub daily_return: Option<f64>,
    /// Annualised volatility of the position's value, percent. From
    /// [`PositionInput::value`] it is the model's `|Δ·S / V|·σ` (the option's
    /// elasticity times the underlying's σ); [`PositionValuation::with_history`] replaces
    /// it with the realised figure. `None` when the position is worth nothing or
    /// expired.
    pub volatility: Option<f64>,
    /// Annualised Sharpe ratio of the position's daily values; only with a history
    /// ([`PositionValuation::with_history`]), `None` otherwise.
    pub sharpe_ratio: Option<f64>,
}

/// A position valued now (see [`PositionInput::value`]).
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let call = PositionInput { symbol: "XYZ".into(), sector: "Tech".into(), kind: SignalType::Call, strike: 100.0,
///     expiration: d(3, 10), quantity: 3, entry_price: 2.0, volatility: 0.3, opened_on: d(3, 2),
///     target_price: None, stop_loss: None };
/// let v = call.value(104.0, d(3, 10), Assumptions::default(), 1_000.0)?;
/// assert_eq!((v.current_price, v.current_value, v.total_cost, v.unrealized_pnl), (4.0, 1_200.0, 600.0, 600.0));
/// assert_eq!((v.unrealized_pnl_percent, v.days_held, v.expired), (100.0, 8, true));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PositionValuation {
    /// Model premium per share now, cents (intrinsic value once expired).
    pub current_price: f64,
    /// `current_price × 100 × quantity`.
    pub current_value: f64,
    /// `entry_price × 100 × quantity` (commissions not included).
    pub total_cost: f64,
    /// `current_value − total_cost`.
    pub unrealized_pnl: f64,
    /// `unrealized_pnl / total_cost × 100`, 2 decimals (0 when nothing was paid).
    pub unrealized_pnl_percent: f64,
    /// Calendar days since it was opened.
    pub days_held: i64,
    /// Calendar days left to expiration (0 once expired).
    pub days_to_expiry: i64,
    /// Whether the expiration date has been reached.
    pub expired: bool,
    /// The whole position's Greeks.
    pub greeks: PositionGreeks,
    /// The Risk tab.
    pub risk: PositionRisk,
    /// The Performance tab.
    pub performance: PositionPerformance,
}

impl PositionInput {
    /// Values the position at the underlying price `spot` on `as_of`, with the
    /// position's σ, `T = years_between(as_of, expiration)` (calendar days / 365; 0 from
    /// the expiration date on, which values it at intrinsic) and `assumptions`.
    /// `capital` is the user's investment capital, for the position size.
    ///
    /// Errors only for inputs the model refuses (spot or strike not positive, σ not in
    /// (0, 10], a negative entry price, a NaN).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
    /// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    /// let straddle = PositionInput {
    ///     symbol: "SPY".into(), sector: "Index".into(), kind: SignalType::Straddle,
    ///     strike: 500.0, expiration: d(5, 15), quantity: 1, entry_price: 20.0, volatility: 0.18,
    ///     opened_on: d(4, 1), target_price: None, stop_loss: None,
    /// };
    /// let v = straddle.value(500.0, d(4, 15), Assumptions::default(), 50_000.0)?;
    /// assert_eq!(v.risk.breakevens, vec![480.0, 520.0]);
    /// assert_eq!((v.risk.max_loss, v.risk.max_gain), (2000.0, None));
    /// assert!(v.greeks.delta.abs() < 20.0);   // nearly delta-neutral at the strike
    /// assert!(v.greeks.theta < 0.0 && v.greeks.vega > 0.0);
    /// assert_eq!(v.risk.position_size_percent, Some(4.0));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn value(
        &self,
        spot: f64,
        as_of: NaiveDate,
        assumptions: Assumptions,
        capital: f64,
    ) -> Result<PositionValuation, InputError> {
        let expired = as_of >= self.expiration;
        let years = if expired {
            0.0
        } else {
            years_between(as_of, self.expiration)
        };
        let model = BlackScholes::new(OptionInputs {
            spot,
            strike: self.strike,
            rate: assumptions.rate,
            dividend_yield: assumptions.dividend_yield,
            volatility: self.volatility,
            time_to_expiry: years,
        })?;
        let kind = self.kind.option_type();
        let analysis = TradeAnalysis::new(model, kind, self.entry_price)?;
        let valuation = model.valuation(kind);
        let units = CONTRACT_MULTIPLIER * f64::from(self.quantity);

        let current_price = round_cents(valuation.price);
        let current_value = round_cents(current_price * units);
        let total_cost = round_cents(self.entry_price * units);
        let unrealized_pnl = round_cents(current_value - total_cost);
        let unrealized_pnl_percent = if total_cost > 0.0 {
            round_to(unrealized_pnl / total_cost * 100.0, 2)
        } else {
            0.0
        };
        let days_held = (as_of - self.opened_on).num_days().max(0);
        let g = valuation.greeks;
        let greeks = PositionGreeks {
            delta: g.delta * units,
            gamma: g.gamma * units,
            theta: g.theta_per_day() * units,
            vega: g.vega_per_vol_point() * units,
            rho: g.rho_per_rate_point() * units,
        };

        let max_loss = round_cents(analysis.max_loss() * units);
        let max_gain = analysis.max_gain().map(|gain| round_cents(gain * units));
        let risk_reward_ratio = match (self.target_price, self.stop_loss) {
            (Some(target), Some(stop)) if target > self.entry_price && stop < self.entry_price => {
                Some((target - self.entry_price) / (self.entry_price - stop))
            }
            _ => max_gain
                .filter(|_| max_loss > 0.0)
                .map(|gain| gain / max_loss),
        };
        let risk = PositionRisk {
            max_loss,
            max_gain,
            breakevens: analysis.breakevens().into_iter().map(round_cents).collect(),
            position_size_percent: (capital > 0.0).then(|| total_cost / capital * 100.0),
            probability_of_profit: analysis.probability_of_profit(Drift::RISK_NEUTRAL),
            risk_reward_ratio,
        };

        let growth = if total_cost > 0.0 {
            Some(current_value / total_cost)
        } else {
            None
        };
        let per_days = |days: f64| {
            growth
                .filter(|_| days_held >= 1)
                .map(|g| (g.powf(days / days_held as f64) - 1.0) * 100.0)
        };
        let elasticity_volatility = (!expired && valuation.price > 0.0)
            .then(|| (g.delta * spot / valuation.price).abs() * self.volatility * 100.0);
        let performance = PositionPerformance {
            total_return: unrealized_pnl_percent,
            annualized_return: per_days(365.0),
            daily_return: per_days(1.0),
            volatility: elasticity_volatility,
            sharpe_ratio: None,
        };
        Ok(PositionValuation {
            current_price,
            current_value,
            total_cost,
            unrealized_pnl,
            unrealized_pnl_percent,
            days_held,
            days_to_expiry: (self.expiration - as_of).num_days().max(0),
            expired,
            greeks,
            risk,
            performance,
        })
    }
}

impl PositionValuation {
    /// Fills the realised Sharpe ratio and volatility of the position from its daily
    /// values (`(date, value)`, any order), with [`performance_metrics`]'s definitions;
    /// both stay as they were when the history is too short (fewer than 3 values).
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
    /// let d0 = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    /// let put = PositionInput { symbol: "X".into(), sector: "Energy".into(), kind: SignalType::Put, strike: 50.0,
    ///     expiration: d0 + Days::new(40), quantity: 1, entry_price: 2.0, volatility: 0.3, opened_on: d0,
    ///     target_price: None, stop_loss: None };
    /// let history: Vec<(NaiveDate, f64)> = [200.0, 210.0, 190.0, 230.0].iter().enumerate()
    ///     .map(|(i, &v)| (d0 + Days::new(i as u64), v)).collect();
    /// let v = put.value(49.0, d0 + Days::new(3), Assumptions::default(), 5_000.0)?.with_history(&history);
    /// assert!(v.performance.sharpe_ratio.is_some());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn with_history(mut self, history: &[(NaiveDate, f64)]) -> Self {
        let metrics = performance_metrics(history);
        if let Some(sharpe) = metrics.sharpe_ratio {
            self.performance.sharpe_ratio = Some(sharpe);
        }
        if let Some(volatility) = metrics.volatility {
            self.performance.volatility = Some(volatility * 100.0);
        }
        self
    }
}

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
        recovery_factor: TradeStats::new(&changes)
            .ok()
            .and_then(|s| s.recovery_factor),
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
pub fn summary(
    closed: &[ClosedTrade],
    open: &[PositionValuation],
    open_commissions: f64,
    capital: f64,
) -> PortfolioSummary {
    let mut ordered: Vec<ClosedTrade> = closed.to_vec();
    ordered.sort_by_key(|t| (t.closed_on, t.opened_on));
    let pnls: Vec<f64> = ordered
        .iter()
        .map(|t| t.pnl)
        .filter(|p| p.is_finite())
        .collect();
    let stats = TradeStats::new(&pnls).ok();
    let realized_pnl = round_cents(pnls.iter().sum());
    let unrealized_pnl = round_cents(open.iter().map(|v| v.unrealized_pnl).sum());
    let open_value = round_cents(open.iter().map(|v| v.current_value).sum());
    let net_pnl = round_cents(realized_pnl + unrealized_pnl - open_commissions);
    let holding: f64 = ordered
        .iter()
        .map(|t| (t.closed_on - t.opened_on).num_days().max(0) as f64)
        .sum();
    PortfolioSummary {
        total_value: round_cents(capital + net_pnl),
        total_pnl_percent: if capital > 0.0 {
            round_to(net_pnl / capital * 100.0, 2)
        } else {
            0.0
        },
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
        total_commissions: round_cents(
            ordered.iter().map(|t| t.commissions).sum::<f64>() + open_commissions,
        ),
    }
}

/// One open position as the risk model sees it.
///
/// ```
/// let p = strikeline_engine::portfolio::RiskPosition {
///     symbol: "AAPL".into(), sector: "Technology".into(), cost: 500.0, market_value: 620.0,
///     delta_dollars: 9_300.0, vega_dollars: 14.0, days_to_expiry: 21,
/// };
/// assert!(p.market_value > p.cost);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RiskPosition {
    /// Ticker.
    pub symbol: String,
    /// Sector.
    pub sector: String,
    /// Premium paid, dollars (the most it can lose).
    pub cost: f64,
    /// Market value now, dollars.
    pub market_value: f64,
    /// Dollar delta: share-equivalent delta × the underlying's price.
    pub delta_dollars: f64,
    /// Dollars gained per volatility point.
    pub vega_dollars: f64,
    /// Calendar days to expiration.
    pub days_to_expiry: i64,
}

impl RiskPosition {
    /// The risk view of a valued position at the underlying price `spot`.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::{Assumptions, SignalType, portfolio::{PositionInput, RiskPosition}};
    /// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    /// let p = PositionInput { symbol: "MSFT".into(), sector: "Technology".into(), kind: SignalType::Call,
    ///     strike: 400.0, expiration: d(4, 17), quantity: 1, entry_price: 8.0, volatility: 0.25,
    ///     opened_on: d(3, 2), target_price: None, stop_loss: None };
    /// let v = p.value(400.0, d(3, 2), Assumptions::default(), 20_000.0)?;
    /// let r = RiskPosition::from_valuation(&p, &v, 400.0);
    /// assert_eq!(r.cost, 800.0);
    /// assert!((r.delta_dollars - v.greeks.delta * 400.0).abs() < 1e-9);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn from_valuation(input: &PositionInput, valuation: &PositionValuation, spot: f64) -> Self {
        RiskPosition {
            symbol: input.symbol.clone(),
            sector: input.sector.clone(),
            cost: valuation.total_cost,
            market_value: valuation.current_value,
            delta_dollars: valuation.greeks.delta * spot,
            vega_dollars: valuation.greeks.vega,
            days_to_expiry: valuation.days_to_expiry,
        }
    }
}

/// What the risk assessment reads.
///
/// ```
/// let inputs = strikeline_engine::portfolio::RiskInputs { capital: 1_000.0, max_position_size: 100.0, ..Default::default() };
/// assert!(inputs.positions.is_empty() && inputs.drawdown == 0.0);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiskInputs {
    /// The user's investment capital, dollars.
    pub capital: f64,
    /// The user's maximum position size, dollars.
    pub max_position_size: f64,
    /// The open positions.
    pub positions: Vec<RiskPosition>,
    /// Current drawdown of the account's equity from its peak, a fraction ≤ 0 (from the
    /// daily snapshots; 0 when at a peak or unknown).
    pub drawdown: f64,
}

/// The risk level shown on the badge.
///
/// ```
/// use strikeline_engine::portfolio::RiskLevel;
/// assert_eq!(RiskLevel::Moderate.as_str(), "moderate");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RiskLevel {
    /// Score under 35 and no factor at its alarm level.
    Low,
    /// Score 35–64, or a lower score with a factor at its alarm level.
    Moderate,
    /// Score 65 and over.
    High,
}

impl RiskLevel {
    /// `low`, `moderate` or `high`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskLevel::High.as_str(), "high");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::Low => "low",
            RiskLevel::Moderate => "moderate",
            RiskLevel::High => "high",
        }
    }
}

/// One measured exposure of the risk model (see `docs/risk.md`).
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1_000.0, max_position_size: 100.0, drawdown: -0.15, ..Default::default() });
/// let drawdown = a.factors.iter().find(|f| f.name == "drawdown").unwrap();
/// // (0.15 − 0.05) / (0.25 − 0.05) = 50
/// assert!((drawdown.score - 50.0).abs() < 1e-9);
/// assert_eq!(drawdown.weight, 15.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RiskFactor {
    /// `symbol_concentration`, `sector_concentration`, `net_delta`, `net_vega`,
    /// `near_expiry`, `position_size`, `capital_at_risk` or `drawdown`.
    pub name: &'static str,
    /// The measured value (a fraction or a multiple, as documented).
    pub value: f64,
    /// Where it sits between its comfortable level (0) and its alarm level (100).
    pub score: f64,
    /// Its weight in the risk score (the weights add up to 100).
    pub weight: f64,
}

/// The Risk Assessment card.
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, RiskLevel, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1_000.0, max_position_size: 100.0, drawdown: -0.15, ..Default::default() });
/// assert_eq!((a.risk_score, a.risk_level), (8, RiskLevel::Low)); // 50 × 15 / 100 = 7.5 → 8
/// assert_eq!(a.risk_factors, vec!["The portfolio is 15.0% below its peak value."]);
/// assert_eq!(a.factors.len(), 8);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RiskAssessment {
    /// Low, moderate or high.
    pub risk_level: RiskLevel,
    /// 0–100: the weighted mean of the factor scores, rounded half up.
    pub risk_score: u8,
    /// One sentence per factor above its comfortable level, the largest contribution
    /// first.
    pub risk_factors: Vec<String>,
    /// One recommendation per such factor, in the same order.
    pub recommendations: Vec<String>,
    /// Every factor, in model order (for transparency and tests).
    pub factors: Vec<RiskFactor>,
}

/// Dollars with thousands separators and cents: `$12,345.60`, `-$40.00`.
fn money(x: f64) -> String {
    let cents = (x.abs() * 100.0).round() as u64;
    let (whole, frac) = (cents / 100, cents % 100);
    let digits = whole.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if x < 0.0 && cents > 0 { "-" } else { "" };
    format!("{sign}${grouped}.{frac:02}")
}

fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// 0 at `comfortable`, 100 at `alarm`, linear between, clamped.
fn scale(value: f64, comfortable: f64, alarm: f64) -> f64 {
    if !value.is_finite() {
        return 0.0;
    }
    ((value - comfortable) / (alarm - comfortable) * 100.0).clamp(0.0, 100.0)
}

/// Comfortable and alarm levels and weights of the risk model (`docs/risk.md`).
///
/// ```
/// use strikeline_engine::portfolio::thresholds;
/// let weights = [thresholds::SYMBOL_CONCENTRATION, thresholds::SECTOR_CONCENTRATION, thresholds::NET_DELTA,
///     thresholds::NET_VEGA, thresholds::NEAR_EXPIRY, thresholds::POSITION_SIZE, thresholds::CAPITAL_AT_RISK,
///     thresholds::DRAWDOWN].iter().map(|t| t.2).sum::<f64>();
/// assert_eq!(weights, 100.0);
/// ```
pub mod thresholds {
    /// Largest symbol's share of the open value: comfortable, alarm, weight.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::SYMBOL_CONCENTRATION, (0.25, 0.75, 15.0));
    /// ```
    pub const SYMBOL_CONCENTRATION: (f64, f64, f64) = (0.25, 0.75, 15.0);
    /// Largest sector's share of the open value.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::SECTOR_CONCENTRATION, (0.40, 0.90, 10.0));
    /// ```
    pub const SECTOR_CONCENTRATION: (f64, f64, f64) = (0.40, 0.90, 10.0);
    /// |Net dollar delta| / capital.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::NET_DELTA, (0.5, 2.0, 15.0));
    /// ```
    pub const NET_DELTA: (f64, f64, f64) = (0.5, 2.0, 15.0);
    /// |Net vega| × 10 vol points / capital.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::NET_VEGA, (0.02, 0.10, 10.0));
    /// ```
    pub const NET_VEGA: (f64, f64, f64) = (0.02, 0.10, 10.0);
    /// Share of the open value expiring within [`NEAR_EXPIRY_DAYS`].
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::NEAR_EXPIRY, (0.0, 0.5, 10.0));
    /// ```
    pub const NEAR_EXPIRY: (f64, f64, f64) = (0.0, 0.5, 10.0);
    /// Largest position's cost / the user's maximum position size.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::POSITION_SIZE, (1.0, 2.0, 10.0));
    /// ```
    pub const POSITION_SIZE: (f64, f64, f64) = (1.0, 2.0, 10.0);
    /// Premium at risk (total cost of the open positions) / capital.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::CAPITAL_AT_RISK, (0.25, 0.75, 15.0));
    /// ```
    pub const CAPITAL_AT_RISK: (f64, f64, f64) = (0.25, 0.75, 15.0);
    /// |Drawdown| of the equity from its peak.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::DRAWDOWN, (0.05, 0.25, 15.0));
    /// ```
    pub const DRAWDOWN: (f64, f64, f64) = (0.05, 0.25, 15.0);
    /// "Near expiry": this many calendar days or fewer.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::NEAR_EXPIRY_DAYS, 7);
    /// ```
    pub const NEAR_EXPIRY_DAYS: i64 = 7;
    /// Scores from this level up are high risk.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::HIGH_SCORE, 65);
    /// ```
    pub const HIGH_SCORE: u8 = 65;
    /// Scores from this level up are moderate risk.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::thresholds::MODERATE_SCORE, 35);
    /// ```
    pub const MODERATE_SCORE: u8 = 35;
}

/// Largest key's share of the total by `key`, with the key and its amount.
fn largest_share<'a>(
    positions: &'a [RiskPosition],
    key: impl Fn(&'a RiskPosition) -> &'a str,
    amount: impl Fn(&RiskPosition) -> f64,
) -> Option<(&'a str, f64, f64, usize)> {
    let mut totals: Vec<(&str, f64, usize)> = Vec::new();
    for p in positions {
        let k = key(p);
        match totals.iter_mut().find(|(name, _, _)| *name == k) {
            Some(entry) => {
                entry.1 += amount(p);
                entry.2 += 1;
            }
            None => totals.push((k, amount(p), 1)),
        }
    }
    let total: f64 = totals.iter().map(|t| t.1).sum();
    if total <= 0.0 {
        return None;
    }
    // The largest; on a tie the first in alphabetical order.
    totals.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    totals.first().map(|&(k, v, n)| (k, v, total, n))
}

/// The Risk Assessment of a portfolio from measurable exposures (the model, its
/// thresholds and weights are documented in `docs/risk.md`):
///
/// | factor | measure | comfortable → alarm | weight |
/// |---|---|---|---|
/// | symbol concentration | largest symbol's share of the open value | 25% → 75% | 15 |
/// | sector concentration | largest sector's share of the open value | 40% → 90% | 10 |
/// | net delta | \|Σ dollar delta\| / capital | 0.5× → 2× | 15 |
/// | net vega | \|Σ vega\| × 10 points / capital | 2% → 10% | 10 |
/// | near expiry | share of the open value expiring within 7 days | 0% → 50% | 10 |
/// | position size | largest cost / maximum position size | 1× → 2× | 10 |
/// | capital at risk | Σ premium paid / capital | 25% → 75% | 15 |
/// | drawdown | \|drawdown\| of the equity | 5% → 25% | 15 |
///
/// Each factor scores 0 at or below its comfortable level and 100 at or beyond its alarm
/// level, linearly between. The risk score is the weighted mean, rounded. The level is
/// high from 65, moderate from 35, low below, but at least moderate when any factor is at
/// its alarm level. Shares use the market value, or the cost when everything is worth
/// nothing; ratios to the capital (and to the maximum position size) score 0 when that
/// is not positive.
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, RiskLevel, RiskPosition, risk_assessment};
/// let position = |symbol: &str, sector: &str, value: f64| RiskPosition {
///     symbol: symbol.into(), sector: sector.into(), cost: value, market_value: value,
///     delta_dollars: 0.0, vega_dollars: 0.0, days_to_expiry: 30,
/// };
/// let inputs = RiskInputs {
///     capital: 10_000.0, max_position_size: 1_000.0, drawdown: 0.0,
///     positions: vec![position("AAPL", "Technology", 550.0), position("XOM", "Energy", 450.0)],
/// };
/// let a = risk_assessment(&inputs);
/// // AAPL is 55% of the value: (0.55 − 0.25)/(0.75 − 0.25) = 60 → 15 × 0.60 = 9;
/// // Technology 55%: (0.55 − 0.40)/(0.90 − 0.40) = 30 → 10 × 0.30 = 3. Nothing else.
/// assert_eq!(a.risk_score, 12);
/// assert_eq!(a.risk_level, RiskLevel::Low);
/// assert_eq!(a.risk_factors[0], "AAPL is 55.0% of the open positions' value ($550.00 of $1,000.00); above 25.0% a single symbol drives the portfolio.");
/// assert_eq!(a.recommendations[0], "Keep any one symbol under 25.0% of the open value: trim AAPL by about $400.00 or add positions in other symbols.");
/// ```
#[must_use]
pub fn risk_assessment(inputs: &RiskInputs) -> RiskAssessment {
    use thresholds as t;
    let positions = &inputs.positions;
    let capital = inputs.capital;
    let total_value: f64 = positions.iter().map(|p| p.market_value).sum();
    let by_value = total_value > 0.0;
    let amount = move |p: &RiskPosition| if by_value { p.market_value } else { p.cost };
    let total_amount: f64 = positions.iter().map(amount).sum();
    let basis = if by_value { "value" } else { "cost" };

    // (factor, sentence, recommendation)
    let mut found: Vec<(RiskFactor, Option<(String, String)>)> = Vec::with_capacity(8);
    let mut push = |name: &'static str,
                    value: f64,
                    (comfortable, alarm, weight): (f64, f64, f64),
                    text: &dyn Fn() -> (String, String)| {
        let score = scale(value, comfortable, alarm);
        let factor = RiskFactor {
            name,
            value,
            score,
            weight,
        };
        found.push((factor, (score > 0.0).then(text)));
    };

    // 1. Symbol concentration.
    let symbol = largest_share(positions, |p| p.symbol.as_str(), amount);
    let share = symbol.map_or(0.0, |(_, v, total, _)| v / total);
    push(
        "symbol_concentration",
        share,
        t::SYMBOL_CONCENTRATION,
        &|| {
            let (name, v, total, _) = symbol.unwrap_or(("", 0.0, 0.0, 0));
            let limit = t::SYMBOL_CONCENTRATION.0;
            let others = total - v;
            let recommendation = if others > 0.0 {
                // Trim to others·limit/(1 − limit) so that it is `limit` of the new total.
                let trim = v - others * limit / (1.0 - limit);
                format!(
                    "Keep any one symbol under {} of the open {basis}: trim {name} by about {} or add positions in other symbols.",
                    percent(limit),
                    money(trim)
                )
            } else {
                format!(
                    "Spread new positions over other symbols so that {name} falls under {} of the open {basis}.",
                    percent(limit)
                )
            };
            (
                format!(
                    "{name} is {} of the open positions' {basis} ({} of {}); above {} a single symbol drives the portfolio.",
                    percent(share),
                    money(v),
                    money(total),
                    percent(limit)
                ),
                recommendation,
            )
        },
    );

    // 2. Sector concentration.
    let sector = largest_share(positions, |p| p.sector.as_str(), amount);
    let sector_share = sector.map_or(0.0, |(_, v, total, _)| v / total);
    push(
        "sector_concentration",
        sector_share,
        t::SECTOR_CONCENTRATION,
        &|| {
            let (name, v, _, count) = sector.unwrap_or(("", 0.0, 0.0, 0));
            let limit = t::SECTOR_CONCENTRATION.0;
            let plural = if count == 1 { "" } else { "s" };
            (
                format!(
                    "The {name} sector is {} of the open {basis} ({} in {count} position{plural}); one sector's news moves most of the portfolio.",
                    percent(sector_share),
                    money(v)
                ),
                format!(
                    "Open new positions outside {name} until it is under {} of the open {basis}.",
                    percent(limit)
                ),
            )
        },
    );

    // 3. Net delta.
    let net_delta: f64 = positions.iter().map(|p| p.delta_dollars).sum();
    let delta_ratio = if capital > 0.0 {
        net_delta.abs() / capital
    } else {
        0.0
    };
    push("net_delta", delta_ratio, t::NET_DELTA, &|| {
        let side = if net_delta >= 0.0 { "long" } else { "short" };
        let limit = t::NET_DELTA.0;
        (
            format!(
                "Net delta is {} ({side}), {:.2}× your {} capital: a 1% move of the underlyings changes the portfolio by about {}.",
                money(net_delta),
                delta_ratio,
                money(capital),
                money(net_delta.abs() * 0.01)
            ),
            format!(
                "Bring net delta under {limit}× capital ({}): close part of the {side} exposure or add positions in the other direction.",
                money(limit * capital)
            ),
        )
    });

    // 4. Net vega.
    let net_vega: f64 = positions.iter().map(|p| p.vega_dollars).sum();
    let vega_ratio = if capital > 0.0 {
        net_vega.abs() * 10.0 / capital
    } else {
        0.0
    };
    push("net_vega", vega_ratio, t::NET_VEGA, &|| {
        let way = if net_vega >= 0.0 { "fall" } else { "rise" };
        let limit = t::NET_VEGA.0;
        (
            format!(
                "Net vega is {} per volatility point: a 10-point {way} in volatility would cost about {}, {} of capital.",
                money(net_vega),
                money(net_vega.abs() * 10.0),
                percent(vega_ratio)
            ),
            format!(
                "Keep net vega under {} per point (a 10-point move costing under {} of capital): fewer straddles or smaller long-volatility positions.",
                money(limit * capital / 10.0),
                percent(limit)
            ),
        )
    });

    // 5. Near expiry.
    let near: Vec<&RiskPosition> = positions
        .iter()
        .filter(|p| p.days_to_expiry <= t::NEAR_EXPIRY_DAYS)
        .collect();
    let near_amount: f64 = near.iter().map(|p| amount(p)).sum();
    let near_share = if total_amount > 0.0 {
        near_amount / total_amount
    } else {
        0.0
    };
    push("near_expiry", near_share, t::NEAR_EXPIRY, &|| {
        let mut symbols: Vec<&str> = near.iter().map(|p| p.symbol.as_str()).collect();
        symbols.sort_unstable();
        symbols.dedup();
        (
            format!(
                "{} of {} positions ({} of the open {basis}) expire within {} days, where time decay and gamma are steepest.",
                near.len(),
                positions.len(),
                percent(near_share),
                t::NEAR_EXPIRY_DAYS
            ),
            format!(
                "Close or roll the positions expiring within {} days ({}) before their time value runs out.",
                t::NEAR_EXPIRY_DAYS,
                symbols.join(", ")
            ),
        )
    });

    // 6. Position size against the user's maximum.
    let largest = positions
        .iter()
        .fold(None::<&RiskPosition>, |best, p| match best {
            Some(b) if b.cost >= p.cost => Some(b),
            _ => Some(p),
        });
    let max_size = inputs.max_position_size;
    let size_ratio = match largest {
        Some(p) if max_size > 0.0 => p.cost / max_size,
        _ => 0.0,
    };
    push("position_size", size_ratio, t::POSITION_SIZE, &|| {
        let (name, cost) = largest.map_or(("", 0.0), |p| (p.symbol.as_str(), p.cost));
        (
            format!(
                "The largest position, {name}, cost {}: {:.2}× your {} maximum position size.",
                money(cost),
                size_ratio,
                money(max_size)
            ),
            format!(
                "Size new positions at or under {}, and consider trimming {name} by about {}.",
                money(max_size),
                money(cost - max_size)
            ),
        )
    });

    // 7. Capital at risk.
    let at_risk: f64 = positions.iter().map(|p| p.cost).sum();
    let at_risk_ratio = if capital > 0.0 {
        at_risk / capital
    } else {
        0.0
    };
    push(
        "capital_at_risk",
        at_risk_ratio,
        t::CAPITAL_AT_RISK,
        &|| {
            let limit = t::CAPITAL_AT_RISK.0;
            (
                format!(
                    "{} of premium is at risk in open positions, {} of your {} capital; long options can expire worthless.",
                    money(at_risk),
                    percent(at_risk_ratio),
                    money(capital)
                ),
                format!(
                    "Keep the premium at risk under {} of capital ({}): hold off new positions until closes bring it down.",
                    percent(limit),
                    money(limit * capital)
                ),
            )
        },
    );

    // 8. Drawdown.
    let drawdown = inputs.drawdown.min(0.0).abs();
    push("drawdown", drawdown, t::DRAWDOWN, &|| {
        (
            format!(
                "The portfolio is {} below its peak value.",
                percent(drawdown)
            ),
            format!(
                "Trade smaller until the drawdown is back within {}, and check the stops of the open positions.",
                percent(t::DRAWDOWN.0)
            ),
        )
    });

    let weighted: f64 = found.iter().map(|(f, _)| f.score * f.weight).sum::<f64>() / 100.0;
    // Half up, with a hair of tolerance so that a score of exactly x.5 in decimal (such
    // as 7.5 = 15 × 0.5) is not rounded down by binary floating point.
    let risk_score = (weighted + 1e-9).round().clamp(0.0, 100.0) as u8;
    let alarm = found.iter().any(|(f, _)| f.score >= 100.0);
    let risk_level = if risk_score >= t::HIGH_SCORE {
        RiskLevel::High
    } else if risk_score >= t::MODERATE_SCORE || alarm {
        RiskLevel::Moderate
    } else {
        RiskLevel::Low
    };
    let factors: Vec<RiskFactor> = found.iter().map(|(f, _)| *f).collect();
    let mut texts: Vec<(f64, usize, String, String)> = found
        .into_iter()
        .enumerate()
        .filter_map(|(i, (f, text))| text.map(|(a, b)| (f.score * f.weight, i, a, b)))
        .collect();
    texts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let (risk_factors, recommendations) = texts.into_iter().map(|(_, _, a, b)| (a, b)).unzip();
    RiskAssessment {
        risk_level,
        risk_score,
        risk_factors,
        recommendations,
        factors,
    }
}

/// A user's risk tolerance: `low`, `medium` or `high` (shown as Conservative,
/// Moderate, Aggressive).
///
/// ```
/// use strikeline_engine::portfolio::RiskTolerance;
/// assert_eq!(RiskTolerance::parse("HIGH"), Some(RiskTolerance::High));
/// assert_eq!(RiskTolerance::Medium.confidence_floor(), 65);
/// assert_eq!(RiskTolerance::Low.as_str(), "low");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RiskTolerance {
    /// Conservative.
    Low,
    /// Moderate (the default).
    #[default]
    Medium,
    /// Aggressive.
    High,
}

impl RiskTolerance {
    /// From `low`, `medium` or `high`, any case.
    ///
    /// ```
    /// use strikeline_engine::portfolio::RiskTolerance;
    /// assert_eq!(RiskTolerance::parse(" Low "), Some(RiskTolerance::Low));
    /// assert_eq!(RiskTolerance::parse("aggressive"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "low" => Some(RiskTolerance::Low),
            "medium" => Some(RiskTolerance::Medium),
            "high" => Some(RiskTolerance::High),
            _ => None,
        }
    }

    /// The stored form.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskTolerance::Medium.as_str(), "medium");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RiskTolerance::Low => "low",
            RiskTolerance::Medium => "medium",
            RiskTolerance::High => "high",
        }
    }

    /// The lowest signal confidence the automated portfolio takes: 75 for low, 65 for
    /// medium, 50 (every signal whose rule fired) for high.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskTolerance::High.confidence_floor(), 50);
    /// ```
    #[must_use]
    pub fn confidence_floor(self) -> u8 {
        match self {
            RiskTolerance::Low => 75,
            RiskTolerance::Medium => 65,
            RiskTolerance::High => 50,
        }
    }
}

/// A new signal, as the allocation rule sees it.
///
/// ```
/// use strikeline_engine::{Strategy, portfolio::AllocationSignal};
/// let s = AllocationSignal { strategy: Strategy::Breakout, confidence: 74, entry_price: 0.85 };
/// assert_eq!(s.entry_price * 100.0, 85.0); // dollars a contract
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AllocationSignal {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its confidence, 0–100.
    pub confidence: u8,
    /// Its entry premium per share.
    pub entry_price: f64,
}

/// A user's investment preferences.
///
/// ```
/// use strikeline_engine::{Strategy, portfolio::{InvestmentPreferences, RiskTolerance}};
/// // The defaults of a new user.
/// let prefs = InvestmentPreferences { preferred_strategies: vec![Strategy::Momentum, Strategy::Breakout],
///     risk_tolerance: RiskTolerance::default(), capital: 1_000.0, max_position_size: 100.0 };
/// assert_eq!(prefs.risk_tolerance, RiskTolerance::Medium);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct InvestmentPreferences {
    /// Strategies the user wants traded (default Momentum and Breakout).
    pub preferred_strategies: Vec<Strategy>,
    /// Risk tolerance (default medium).
    pub risk_tolerance: RiskTolerance,
    /// Investment capital, dollars (default 1,000).
    pub capital: f64,
    /// Maximum premium per position, dollars (default 100).
    pub max_position_size: f64,
}

/// Whether a user's automated paper portfolio takes `signal`, and with how many
/// contracts. `open_cost` is the premium already paid for the user's open automated
/// positions. The rule (`docs/risk.md`):
///
/// 1. the signal's strategy is one of the user's preferred strategies;
/// 2. its confidence is at least the tolerance's floor
///    ([`RiskTolerance::confidence_floor`]: 75 low, 65 medium, 50 high);
/// 3. contracts = ⌊max position size / (premium × 100)⌋: at least 1, else skipped (one
///    contract would exceed the user's maximum);
/// 4. never beyond capital: at most ⌊(capital − open_cost) / (premium × 100)⌋ contracts;
///    0 skips.
///
/// Commissions are not part of the sizing. `None` means "skip".
///
/// ```
/// use strikeline_engine::Strategy;
/// use strikeline_engine::portfolio::{AllocationSignal, InvestmentPreferences, RiskTolerance, automated_allocation};
/// let prefs = InvestmentPreferences {
///     preferred_strategies: vec![Strategy::Momentum, Strategy::Breakout],
///     risk_tolerance: RiskTolerance::Medium, capital: 1_000.0, max_position_size: 300.0,
/// };
/// let signal = AllocationSignal { strategy: Strategy::Momentum, confidence: 72, entry_price: 1.40 };
/// assert_eq!(automated_allocation(&signal, &prefs, 0.0), Some(2));     // ⌊300 / 140⌋
/// assert_eq!(automated_allocation(&signal, &prefs, 800.0), Some(1));   // $200 left
/// assert_eq!(automated_allocation(&signal, &prefs, 900.0), None);      // $100 left
/// let weak = AllocationSignal { confidence: 60, ..signal };
/// assert_eq!(automated_allocation(&weak, &prefs, 0.0), None);          // under 65
/// let dear = AllocationSignal { entry_price: 3.50, ..signal };
/// assert_eq!(automated_allocation(&dear, &prefs, 0.0), None);          // $350 > $300
/// ```
#[must_use]
pub fn automated_allocation(
    signal: &AllocationSignal,
    prefs: &InvestmentPreferences,
    open_cost: f64,
) -> Option<u32> {
    if !prefs.preferred_strategies.contains(&signal.strategy)
        || signal.confidence < prefs.risk_tolerance.confidence_floor()
    {
        return None;
    }
    let per_contract = signal.entry_price * CONTRACT_MULTIPLIER;
    if !(per_contract.is_finite() && per_contract > 0.0) {
        return None;
    }
    // A hair of tolerance so that 300 / (1.50 × 100) is 2, not 1.999….
    let whole = |budget: f64| {
        if budget.is_finite() && budget > 0.0 {
            (budget / per_contract + 1e-9)
                .floor()
                .min(f64::from(u32::MAX))
        } else {
            0.0
        }
    };
    let by_size = whole(prefs.max_position_size);
    let by_capital = whole(prefs.capital - open_cost.max(0.0));
    let contracts = by_size.min(by_capital);
    (contracts >= 1.0).then_some(contracts as u32)
}

/// Writes a one-line description of an assessment (for logs and the CLI).
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, describe, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1000.0, max_position_size: 100.0, ..Default::default() });
/// assert_eq!(describe(&a), "risk low (0/100): no factor above its comfortable level");
/// ```
#[must_use]
pub fn describe(assessment: &RiskAssessment) -> String {
    let mut out = format!(
        "risk {} ({}/100): ",
        assessment.risk_level.as_str(),
        assessment.risk_score
    );
    if assessment.risk_factors.is_empty() {
        out.push_str("no factor above its comfortable level");
    } else {
        let _ = write!(out, "{}", assessment.risk_factors.join(" "));
    }
    out
}
