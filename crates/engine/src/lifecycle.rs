//! An issued signal's life: marking it to the model, closing it at target, stop or
//! expiry, and the underlying prices where target and stop lie.

use chrono::NaiveDate;
use strikeline_quant::{BlackScholes, InputError, OptionInputs, OptionType};

use crate::proposal::round_cents;
use crate::types::{Assumptions, SignalType};

/// What the lifecycle needs of an issued signal (the server reads it back from storage).
/// Prices are option premiums per share.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{OpenSignal, SignalType};
/// let signal = OpenSignal {
///     signal_type: SignalType::Call, strike: 105.0, expiration: NaiveDate::from_ymd_opt(2026, 4, 17).unwrap(),
///     entry_price: 2.10, target_price: 3.40, stop_loss: 1.30, volatility: 0.28,
/// };
/// assert_eq!(signal.signal_type.as_str(), "CALL");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpenSignal {
    /// CALL, PUT or STRADDLE.
    pub signal_type: SignalType,
    /// Strike.
    pub strike: f64,
    /// Expiration date (the last trading day of the series).
    pub expiration: NaiveDate,
    /// Premium paid at issue.
    pub entry_price: f64,
    /// Premium that closes the signal with a profit.
    pub target_price: f64,
    /// Premium that closes the signal with a loss.
    pub stop_loss: f64,
    /// σ the signal was priced with; it is marked with the same σ.
    pub volatility: f64,
}

/// Where a signal stands after a mark.
///
/// ```
/// use strikeline_engine::Outcome;
/// assert_eq!(Outcome::TargetHit.close_reason(), Some("target"));
/// assert_eq!(Outcome::Active.close_reason(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still open.
    Active,
    /// The premium reached the target: close with a profit.
    TargetHit,
    /// The premium fell to the stop: close with a loss.
    StopHit,
    /// Expiration passed: closed at intrinsic value.
    Expired,
}

impl Outcome {
    /// The contract's `closeReason`: `target`, `stop`, `expiry`, or `None` while active.
    #[must_use]
    pub fn close_reason(self) -> Option<&'static str> {
        match self {
            Outcome::Active => None,
            Outcome::TargetHit => Some("target"),
            Outcome::StopHit => Some("stop"),
            Outcome::Expired => Some("expiry"),
        }
    }
}

/// A signal valued now (see [`mark`]).
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, OpenSignal, Outcome, SignalType, mark};
/// let put = OpenSignal {
///     signal_type: SignalType::Put, strike: 50.0, expiration: NaiveDate::from_ymd_opt(2026, 4, 17).unwrap(),
///     entry_price: 2.00, target_price: 3.50, stop_loss: 1.00, volatility: 0.35,
/// };
/// let m = mark(&put, 51.0, 20.0 / 365.0, false, Assumptions::default())?;
/// assert_eq!(m.outcome, Outcome::Active);
/// assert_eq!(m.pnl, ((m.option_price - 2.00) * 10_000.0).round() / 100.0); // per contract
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    /// Model premium per share now, rounded to cents (intrinsic value at expiry).
    pub option_price: f64,
    /// `(option_price − entry) × 100`: dollars per contract, rounded to cents.
    pub pnl: f64,
    /// `(option_price / entry − 1) × 100`, 2 decimals (0 when the entry is not positive).
    pub pnl_percent: f64,
    /// Open, or closed at target, stop or expiry.
    pub outcome: Outcome,
}

/// Calendar days from `from` to `to` over 365, never negative: the `T` of Black–Scholes.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::years_between;
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// assert_eq!(years_between(d(3, 2), d(4, 17)), 46.0 / 365.0);
/// assert_eq!(years_between(d(4, 17), d(3, 2)), 0.0);
/// ```
#[must_use]
pub fn years_between(from: NaiveDate, to: NaiveDate) -> f64 {
    (to - from).num_days().max(0) as f64 / 365.0
}

/// The Black–Scholes model of `signal`'s contract at `spot` with `years` left, at its own σ.
pub(crate) fn model(signal: &OpenSignal, spot: f64, years: f64, assumptions: Assumptions) -> Result<BlackScholes, InputError> {
    BlackScholes::new(OptionInputs {
        spot,
        strike: signal.strike,
        rate: assumptions.rate,
        dividend_yield: assumptions.dividend_yield,
        volatility: signal.volatility,
        time_to_expiry: years,
    })
}

/// Values an open signal at `spot` with `years_to_expiry` left (see [`years_between`]),
/// using the σ it was issued with, and decides its outcome:
///
/// 1. `expired` (the caller's calendar says the series has stopped trading) or no time
///    left: the premium is the intrinsic value and the outcome [`Outcome::Expired`],
///    whatever it is worth;
/// 2. otherwise a premium at or above the target is [`Outcome::TargetHit`], at or below
///    the stop [`Outcome::StopHit`], anything between [`Outcome::Active`].
///
/// The premium is rounded to cents before the comparisons, so what the user sees is what
/// was compared. Errors only for inputs the model refuses (spot or strike not positive,
/// σ not in (0, 10], a NaN).
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, OpenSignal, Outcome, SignalType, mark};
/// let call = OpenSignal {
///     signal_type: SignalType::Call, strike: 100.0, expiration: NaiveDate::from_ymd_opt(2026, 4, 17).unwrap(),
///     entry_price: 2.50, target_price: 4.00, stop_loss: 1.50, volatility: 0.25,
/// };
/// let a = Assumptions::default();
/// // At expiry with the underlying at 110 the call is worth its intrinsic 10.00.
/// let m = mark(&call, 110.0, 0.0, true, a)?;
/// assert_eq!((m.option_price, m.pnl, m.pnl_percent, m.outcome), (10.0, 750.0, 300.0, Outcome::Expired));
/// // Three weeks before expiry a rally to 106 carries it through the target.
/// assert_eq!(mark(&call, 106.0, 21.0 / 365.0, false, a)?.outcome, Outcome::TargetHit);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn mark(signal: &OpenSignal, spot: f64, years_to_expiry: f64, expired: bool, assumptions: Assumptions) -> Result<Mark, InputError> {
    let expired = expired || years_to_expiry <= 0.0;
    // NaN stays NaN and is refused by the model.
    let years = if expired { 0.0 } else { years_to_expiry };
    let option_price = round_cents(model(signal, spot, years, assumptions)?.price(signal.signal_type.option_type()));
    let entry = signal.entry_price;
    let pnl = round_cents((option_price - entry) * 100.0);
    let pnl_percent = if entry > 0.0 { ((option_price / entry - 1.0) * 10_000.0).round() / 100.0 } else { 0.0 };
    let outcome = if expired {
        Outcome::Expired
    } else if option_price >= signal.target_price {
        Outcome::TargetHit
    } else if option_price <= signal.stop_loss {
        Outcome::StopHit
    } else {
        Outcome::Active
    };
    Ok(Mark { option_price, pnl, pnl_percent, outcome })
}

/// Underlying prices at which a signal's premium (now, with `years_to_expiry` left)
/// equals its target and its stop, rounded to cents, ascending.
///
/// A call has at most one level for each (its premium rises with the underlying), a put
/// at most one (a put can never be worth more than `K·e^{−rT}`, so a higher target has
/// none), a straddle zero, one or two (its premium is lowest near the strike and rises on
/// both sides). A level the premium can never reach is left out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Levels {
    /// Where the target premium is reached.
    pub target: Vec<f64>,
    /// Where the stop premium is reached.
    pub stop: Vec<f64>,
}

/// Solves for the underlying prices of a signal's target and stop (see [`Levels`]) by
/// bisection on the Black–Scholes premium, with the signal's own σ.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::{Assumptions, OpenSignal, SignalType, mark, underlying_levels};
/// let straddle = OpenSignal {
///     signal_type: SignalType::Straddle, strike: 100.0, expiration: NaiveDate::from_ymd_opt(2026, 4, 17).unwrap(),
///     entry_price: 5.00, target_price: 8.00, stop_loss: 2.50, volatility: 0.30,
/// };
/// let years = 30.0 / 365.0;
/// let levels = underlying_levels(&straddle, years, Assumptions::default())?;
/// assert_eq!(levels.target.len(), 2); // one below the strike, one above
/// assert!(levels.stop.is_empty());   // a 30-day straddle is worth more than 2.50 anywhere
/// for level in levels.target {
///     let m = mark(&straddle, level, years, false, Assumptions::default())?;
///     assert!((m.option_price - 8.00).abs() <= 0.011);
/// }
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn underlying_levels(signal: &OpenSignal, years_to_expiry: f64, assumptions: Assumptions) -> Result<Levels, InputError> {
    let years = years_to_expiry.max(0.0);
    let base = model(signal, signal.strike, years, assumptions)?;
    let kind = signal.signal_type.option_type();
    let strike = signal.strike;
    let (low, high) = (strike * 1e-4, strike * 1e3);
    let value = |spot: f64| -> Result<f64, InputError> { Ok(base.with_spot(spot)?.price(kind)) };
    // Where a straddle's value is lowest: d1 = 0.
    let bottom = strike * (-(assumptions.rate - assumptions.dividend_yield + 0.5 * signal.volatility * signal.volatility) * years).exp();
    let solve = |level: f64| -> Result<Vec<f64>, InputError> {
        let mut found = Vec::with_capacity(2);
        match kind {
            OptionType::Call => {
                if let Some(s) = bisect(&value, level, low, high)? {
                    found.push(s);
                }
            }
            OptionType::Put => {
                if let Some(s) = bisect(&value, level, high, low)? {
                    found.push(s);
                }
            }
            OptionType::Straddle => {
                let bottom = bottom.clamp(low, high);
                if let Some(s) = bisect(&value, level, bottom, low)? {
                    found.push(s);
                }
                if let Some(s) = bisect(&value, level, bottom, high)? {
                    found.push(s);
                }
            }
        }
        found.iter_mut().for_each(|s| *s = round_cents(*s));
        found.sort_by(f64::total_cmp);
        Ok(found)
    };
    Ok(Levels { target: solve(signal.target_price)?, stop: solve(signal.stop_loss)? })
}

/// The point between `from` and `to` where the monotone `value` crosses `level`, when
/// `value(from) < level ≤ value(to)`; `from` may be above or below `to`.
fn bisect(value: &impl Fn(f64) -> Result<f64, InputError>, level: f64, from: f64, to: f64) -> Result<Option<f64>, InputError> {
    if !(value(from)? < level && level <= value(to)?) {
        return Ok(None);
    }
    // `below` always prices under the level, `above` at or over it.
    let (mut below, mut above) = (from, to);
    for _ in 0..200 {
        let middle = 0.5 * (below + above);
        if middle == below || middle == above {
            break;
        }
        if value(middle)? < level {
            below = middle;
        } else {
            above = middle;
        }
    }
    Ok(Some(above))
}

/// The fill model of a trade: premiums bought `slippage` above the mark and sold `slippage`
/// below it, each fill to the cent (as options trade), and a commission per contract on each
/// side. The backtester fills its trades with
/// it, and every issued signal stores the costs its outcome is resolved with, so a signal
/// "won" exactly when the same trade in a backtest would have made money.
///
/// ```
/// use strikeline_engine::Costs;
/// let costs = Costs::STANDARD; // 1% slippage, $0.65 a contract
/// // Bought at a 2.00 mark, sold at a 2.05 mark: 2.02 in, 2.03 out (2.0295 to the cent).
/// assert_eq!(costs.net_pnl(2.00, 2.05, 1.0), -0.3); // 1.00 gross, 1.30 commissions
/// assert_eq!(costs.net_pnl(2.00, 2.20, 1.0), 14.7); // 2.18 out (2.178): 16.00 gross
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Costs {
    /// Fraction of the premium lost on entry and on exit, 0–0.5.
    pub slippage: f64,
    /// Dollars per contract, charged on entry and on exit.
    pub commission_per_contract: f64,
}

impl Costs {
    /// 1% slippage and $0.65 a contract: the backtester's defaults and every live signal's rule.
    pub const STANDARD: Costs = Costs { slippage: 0.01, commission_per_contract: 0.65 };

    /// The premium paid for a premium marked at `mark`, to the cent.
    #[must_use]
    pub fn entry_fill(self, mark: f64) -> f64 {
        round_cents(mark * (1.0 + self.slippage))
    }

    /// The premium received for a premium marked at `mark`, to the cent.
    #[must_use]
    pub fn exit_fill(self, mark: f64) -> f64 {
        round_cents(mark * (1.0 - self.slippage))
    }

    /// Commissions of `contracts` contracts, opened and closed.
    #[must_use]
    pub fn commissions(self, contracts: f64) -> f64 {
        2.0 * self.commission_per_contract * contracts
    }

    /// P&L in dollars, rounded to cents, of `contracts` contracts filled at `entry_fill` and
    /// `exit_fill` (already slipped), after commissions.
    #[must_use]
    pub fn pnl_of_fills(self, entry_fill: f64, exit_fill: f64, contracts: f64) -> f64 {
        round_cents((exit_fill - entry_fill) * 100.0 * contracts - self.commissions(contracts))
    }

    /// Net P&L in dollars, rounded to cents, of `contracts` contracts bought at an
    /// `entry_mark` and sold at an `exit_mark`.
    #[must_use]
    pub fn net_pnl(self, entry_mark: f64, exit_mark: f64, contracts: f64) -> f64 {
        self.pnl_of_fills(self.entry_fill(entry_mark), self.exit_fill(exit_mark), contracts)
    }
}
