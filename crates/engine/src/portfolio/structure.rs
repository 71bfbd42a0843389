//! A held multi-leg position (issue 28): the legs a user saved from the strategy builder,
//! valued on any date with the quant crate's structures, its Greeks summed across legs, its
//! expiry analysis while it lasts, and its view in the portfolio's risk assessment.
//!
//! A structure lives until its **first** expiration: on that date it is valued at the
//! close with the expiring legs at intrinsic value and any later legs (a calendar's far
//! month) at the model, and it is then settled (the analysis past that date would need an
//! exercise decision this model does not make).

use chrono::NaiveDate;
use strikeline_quant::american::Exercise;
use strikeline_quant::structure::{ExpiryAnalysis, Extreme, Instrument, Leg, Side, Structure, StructureError, Underlying};

use super::valuation::PositionGreeks;
use super::{CONTRACT_MULTIPLIER, RiskPosition, round_to};
use crate::lifecycle::years_between;
use crate::proposal::round_cents;
use crate::types::Assumptions;

/// One leg as held: an option's expiration is a date.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldLeg {
    /// Call, put or stock.
    pub instrument: Instrument,
    /// Long or short.
    pub side: Side,
    /// Contracts (options) or shares (stock).
    pub quantity: u32,
    /// An option's strike.
    pub strike: Option<f64>,
    /// An option's expiration date.
    pub expiration: Option<NaiveDate>,
    /// The leg's own implied volatility; the underlying's estimate when `None`.
    pub volatility: Option<f64>,
    /// Paid (long) or received (short) per share.
    pub entry_price: f64,
}

/// A saved multi-leg position.
#[derive(Debug, Clone, PartialEq)]
pub struct StructureHolding {
    /// Ticker.
    pub symbol: String,
    /// The symbol's sector (for concentration).
    pub sector: String,
    /// One to eight legs, at least one an option expiring after `opened_on`.
    pub legs: Vec<HeldLeg>,
    /// American or European contracts.
    pub exercise: Exercise,
    /// Date opened.
    pub opened_on: NaiveDate,
}

/// A structure valued on one date. Money is dollars for the whole position.
#[derive(Debug, Clone, PartialEq)]
pub struct StructureValuation {
    /// What opening cost: positive for a net debit, negative for a net credit.
    pub net_premium: f64,
    /// What closing would bring now: `net_premium + unrealized_pnl` (negative when closing
    /// costs, as for a credit spread).
    pub current_value: f64,
    /// Profit or loss since opening.
    pub unrealized_pnl: f64,
    /// `unrealized_pnl` over the capital at risk, percent (2 decimals).
    pub return_on_risk_percent: f64,
    /// The most the position can lose by its first expiry, dollars ≥ 0: the bounded maximum
    /// loss, or, when the loss is unbounded, the loss if the underlying doubles by then.
    pub capital_at_risk: f64,
    /// The first expiration.
    pub first_expiration: NaiveDate,
    /// Calendar days to it (0 once reached).
    pub days_to_expiry: i64,
    /// Calendar days since opened.
    pub days_held: i64,
    /// Whether the first expiration has been reached (the position is then valued at it).
    pub expired: bool,
    /// Greeks now (at the first expiry once expired), summed across the legs.
    pub greeks: PositionGreeks,
    /// The analysis at the first expiry from today; `None` once expired.
    pub at_expiry: Option<ExpiryAnalysis>,
}

impl StructureHolding {
    /// The earliest option expiration; `None` without an option leg.
    #[must_use]
    pub fn first_expiration(&self) -> Option<NaiveDate> {
        self.legs.iter().filter_map(|l| l.expiration).min()
    }

    /// What opening cost, dollars to the cent: positive for a net debit, negative for a net
    /// credit (each leg's entry price × its shares, bought or sold).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::portfolio::{HeldLeg, StructureHolding};
    /// use strikeline_quant::american::Exercise;
    /// use strikeline_quant::structure::{Instrument, Side};
    /// let d = NaiveDate::from_ymd_opt(2026, 4, 17).unwrap();
    /// let covered = StructureHolding { symbol: "XYZ".into(), sector: "Tech".into(), exercise: Exercise::American, opened_on: d,
    ///     legs: vec![
    ///         HeldLeg { instrument: Instrument::Stock, side: Side::Long, quantity: 100, strike: None, expiration: None, volatility: None, entry_price: 50.0 },
    ///         HeldLeg { instrument: Instrument::Call, side: Side::Short, quantity: 1, strike: Some(55.0), expiration: Some(d), volatility: None, entry_price: 1.25 },
    ///     ] };
    /// assert_eq!(covered.net_premium(), 4_875.0);
    /// ```
    #[must_use]
    pub fn net_premium(&self) -> f64 {
        let shares = |l: &HeldLeg| if l.instrument == Instrument::Stock { 1.0 } else { CONTRACT_MULTIPLIER } * f64::from(l.quantity);
        round_cents(self.legs.iter().map(|l| l.side.sign() * l.entry_price * shares(l)).sum())
    }

    /// The quant structure seen from `from` (each expiry in years after it), in the market
    /// `spot`, `volatility`, `assumptions`.
    fn structure(&self, from: NaiveDate, spot: f64, volatility: f64, assumptions: Assumptions) -> Result<Structure, StructureError> {
        let underlying = Underlying { spot, rate: assumptions.rate, dividend_yield: assumptions.dividend_yield, volatility };
        let legs = self
            .legs
            .iter()
            .map(|l| Leg {
                instrument: l.instrument,
                side: l.side,
                quantity: l.quantity,
                strike: l.strike,
                expiry: l.expiration.map(|e| years_between(from, e)),
                volatility: l.volatility,
                entry_price: l.entry_price,
            })
            .collect();
        Structure::new(underlying, legs)?.with_exercise(self.exercise)
    }

    /// Values the position with the underlying at `spot` on `as_of` (from the first
    /// expiration on: at it), legs without their own volatility at `volatility`.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::Assumptions;
    /// use strikeline_engine::portfolio::{HeldLeg, StructureHolding};
    /// use strikeline_quant::american::Exercise;
    /// use strikeline_quant::structure::{Instrument, Side};
    /// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    /// let leg = |instrument, side, strike: f64, entry_price| HeldLeg {
    ///     instrument, side, quantity: 1, strike: Some(strike), expiration: Some(d(4, 17)), volatility: None, entry_price };
    /// // A 100/105 bull call spread for a 2.00 debit, at expiry with the stock at 110.
    /// let spread = StructureHolding { symbol: "XYZ".into(), sector: "Tech".into(), exercise: Exercise::European,
    ///     opened_on: d(3, 2), legs: vec![leg(Instrument::Call, Side::Long, 100.0, 3.1), leg(Instrument::Call, Side::Short, 105.0, 1.1)] };
    /// let v = spread.value(110.0, d(4, 20), 0.3, Assumptions::default())?;
    /// assert!(v.expired && v.at_expiry.is_none());
    /// assert_eq!((v.net_premium, v.current_value, v.unrealized_pnl), (200.0, 500.0, 300.0));
    /// assert_eq!((v.capital_at_risk, v.return_on_risk_percent), (200.0, 150.0));
    /// # Ok::<(), strikeline_quant::structure::StructureError>(())
    /// ```
    pub fn value(
        &self,
        spot: f64,
        as_of: NaiveDate,
        volatility: f64,
        assumptions: Assumptions,
    ) -> Result<StructureValuation, StructureError> {
        let first = self.first_expiration().ok_or(StructureError::NoOptionLeg)?;
        let expired = as_of >= first;
        // Before the first expiration the structure is seen from today (its analysis and
        // probability are today's); from it on, from the day it was opened, at its expiry.
        let (structure, horizon) = if expired {
            let s = self.structure(self.opened_on, spot, volatility, assumptions)?;
            let at = s.first_expiry();
            (s, at)
        } else {
            (self.structure(as_of, spot, volatility, assumptions)?, 0.0)
        };
        let net_premium = self.net_premium();
        let unrealized_pnl = round_cents(structure.pnl(spot, horizon, 0.0)?);
        let g = structure.greeks(spot, horizon, 0.0)?;
        let expiry = structure.at_expiry();
        let capital_at_risk = round_cents(match expiry.max_loss {
            Extreme::At { pnl, .. } => (-pnl).max(0.0),
            Extreme::Unbounded => (-structure.pnl(spot * 2.0, structure.first_expiry(), 0.0)?).max(0.0),
        });
        let basis = if capital_at_risk > 0.0 { capital_at_risk } else { net_premium.abs() };
        Ok(StructureValuation {
            net_premium,
            current_value: round_cents(net_premium + unrealized_pnl),
            unrealized_pnl,
            return_on_risk_percent: if basis > 0.0 { round_to(unrealized_pnl / basis * 100.0, 2) } else { 0.0 },
            capital_at_risk,
            first_expiration: first,
            days_to_expiry: (first - as_of).num_days().max(0),
            days_held: (as_of - self.opened_on).num_days().max(0),
            expired,
            greeks: PositionGreeks {
                delta: g.delta,
                gamma: g.gamma,
                theta: g.theta_per_day(),
                vega: g.vega_per_vol_point(),
                rho: g.rho_per_rate_point(),
            },
            at_expiry: (!expired).then_some(expiry),
        })
    }

    /// The position in the portfolio's risk assessment: its capital at risk as the cost,
    /// its value now, dollar delta at `spot` and vega per point.
    #[must_use]
    pub fn risk_position(&self, valuation: &StructureValuation, spot: f64) -> RiskPosition {
        RiskPosition {
            symbol: self.symbol.clone(),
            sector: self.sector.clone(),
            cost: valuation.capital_at_risk,
            market_value: valuation.current_value,
            delta_dollars: valuation.greeks.delta * spot,
            vega_dollars: valuation.greeks.vega,
            days_to_expiry: valuation.days_to_expiry,
        }
    }
}
