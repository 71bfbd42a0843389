//! A position valued at today's price: its Greeks, the Risk tab and the Performance tab.

use chrono::NaiveDate;
use strikeline_quant::{BlackScholes, Drift, InputError, OptionInputs, TradeAnalysis};

use super::performance::performance_metrics;
use super::{CONTRACT_MULTIPLIER, round_to};
use crate::lifecycle::years_between;
use crate::proposal::round_cents;
use crate::types::{Assumptions, SignalType};

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
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, SignalType, portfolio::PositionInput};
/// use strikeline_quant::normal::cdf;
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let call = PositionInput { symbol: "XYZ".into(), sector: "Tech".into(), kind: SignalType::Call, strike: 100.0,
///     expiration: d(6, 19), quantity: 2, entry_price: 4.0, volatility: 0.25, opened_on: d(3, 20),
///     target_price: None, stop_loss: None };
/// let g = call.value(100.0, d(3, 20), Assumptions::default(), 10_000.0)?.greeks;
/// // At the money, 91 days, r = 4%: two contracts hold 200·N(d₁) shares' worth of delta.
/// let (t, sigma, r) = (91.0 / 365.0, 0.25, 0.04);
/// let d1 = (r + sigma * sigma / 2.0) * t / (sigma * f64::sqrt(t));
/// assert!((g.delta - 200.0 * cdf(d1)).abs() < 1e-9);
/// # Ok::<(), strikeline_quant::InputError>(())
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
    pub fn value(&self, spot: f64, as_of: NaiveDate, assumptions: Assumptions, capital: f64) -> Result<PositionValuation, InputError> {
        let expired = as_of >= self.expiration;
        let years = if expired { 0.0 } else { years_between(as_of, self.expiration) };
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
        let unrealized_pnl_percent = if total_cost > 0.0 { round_to(unrealized_pnl / total_cost * 100.0, 2) } else { 0.0 };
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
            _ => max_gain.filter(|_| max_loss > 0.0).map(|gain| gain / max_loss),
        };
        let risk = PositionRisk {
            max_loss,
            max_gain,
            breakevens: analysis.breakevens().into_iter().map(round_cents).collect(),
            position_size_percent: (capital > 0.0).then(|| total_cost / capital * 100.0),
            probability_of_profit: analysis.probability_of_profit(Drift::RISK_NEUTRAL),
            risk_reward_ratio,
        };

        let growth = if total_cost > 0.0 { Some(current_value / total_cost) } else { None };
        let per_days = |days: f64| growth.filter(|_| days_held >= 1).map(|g| (g.powf(days / days_held as f64) - 1.0) * 100.0);
        let elasticity_volatility =
            (!expired && valuation.price > 0.0).then(|| (g.delta * spot / valuation.price).abs() * self.volatility * 100.0);
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
