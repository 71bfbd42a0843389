//! Multi-leg option positions ("structures"): verticals, condors, butterflies, calendars,
//! covered calls and anything built leg by leg, valued, charted and analysed as one.
//!
//! A [`Structure`] is one to [`MAX_LEGS`] [`Leg`]s on one [`Underlying`]: calls and puts
//! (each with its own strike, expiry and implied volatility) and stock, each long or short
//! in a whole number of contracts (×[`CONTRACT_MULTIPLIER`] shares) or shares. Amounts are
//! in the underlying's currency for the whole position (contracts × multiplier included),
//! not per share; a leg's entry price is per share, as quoted.
//!
//! - [`Structure::pnl`], [`Structure::pnl_curve`] and [`Structure::scenarios`]: profit and
//!   loss at any date up to the first expiry, with a parallel implied-volatility shift.
//!   Legs still alive at that date are valued with Black–Scholes–Merton
//!   ([`crate::BlackScholes`]); expired legs are worth their intrinsic value.
//! - [`Structure::greeks`]: the position's Greeks, the sum of the legs' × quantity ×
//!   multiplier (stock has a delta of one a share).
//! - [`Structure::at_expiry`]: the analysis at the first expiry ([`ExpiryAnalysis`]): the
//!   maximum profit and loss, exact (taken at the strikes and the ends, where the extremes
//!   of a piecewise-linear payoff are) and "unbounded" when a tail's slope says so; the
//!   breakevens, root-found to 1e-9 rather than read off a grid; the profitable ranges and
//!   the risk-neutral probability of ending in them.
//! - [`Template`]: the usual structures from a centre strike, a width and expiries.
//!
//! A date after the first expiry is refused ([`StructureError::AfterExpiry`]): the legs
//! that expired would need a decision (exercise, assignment) this model does not make.
//!
//! ```
//! use strikeline_quant::structure::{Extreme, Leg, Side, Structure, Underlying};
//! let market = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.25 };
//! // A 100/105 bull call spread for a debit of 2.00 a share.
//! let spread = Structure::new(market, vec![
//!     Leg::call(Side::Long, 1, 100.0, 30.0 / 365.0, 3.10),
//!     Leg::call(Side::Short, 1, 105.0, 30.0 / 365.0, 1.10),
//! ])?;
//! let expiry = spread.at_expiry();
//! assert_eq!(expiry.max_profit, Extreme::At { pnl: 300.0, spot: Some(105.0) });
//! assert_eq!(expiry.max_loss, Extreme::At { pnl: -200.0, spot: Some(0.0) });
//! assert_eq!(expiry.breakevens, vec![102.0]);
//! # Ok::<(), strikeline_quant::structure::StructureError>(())
//! ```

mod expiry;
mod templates;

use std::fmt;

use crate::american::{American, Exercise};
use crate::error::{Field, InputError, finite, in_range, non_negative, positive, price_level, rate, years};
use crate::pricing::{BlackScholes, Greeks, OptionInputs, OptionType, intrinsic};
use crate::{PnlPoint, PriceGrid};

pub use expiry::{ExpiryAnalysis, Extreme, ProfitRange};
pub use templates::{Template, TemplateInputs};

/// Shares per option contract (US equity options).
pub const CONTRACT_MULTIPLIER: f64 = 100.0;
/// The most legs a structure may have.
pub const MAX_LEGS: usize = 8;
/// The most contracts or shares in one leg.
pub const MAX_QUANTITY: u32 = 1_000_000;
/// The largest parallel implied-volatility shift, either way (5.00 = 500 vol points).
pub const MAX_VOLATILITY_SHIFT: f64 = 5.0;

/// What a leg holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Instrument {
    /// A European call on the underlying.
    Call,
    /// A European put on the underlying.
    Put,
    /// The underlying itself.
    Stock,
}

/// Bought or sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Bought: gains when the leg's value rises.
    Long,
    /// Sold (written): gains when it falls.
    Short,
}

impl Side {
    /// `+1` for long, `−1` for short.
    ///
    /// ```
    /// use strikeline_quant::structure::Side;
    /// assert_eq!(Side::Short.sign(), -1.0);
    /// ```
    #[must_use]
    pub fn sign(self) -> f64 {
        match self {
            Side::Long => 1.0,
            Side::Short => -1.0,
        }
    }
}

/// One leg as given: an option needs a strike and an expiry (years from now) and may carry
/// its own implied volatility (the underlying's otherwise); stock has none of the three.
///
/// ```
/// use strikeline_quant::structure::{Instrument, Leg, Side};
/// let leg = Leg::put(Side::Short, 2, 95.0, 0.1, 1.25).with_volatility(0.32);
/// assert_eq!((leg.instrument, leg.quantity, leg.strike, leg.volatility), (Instrument::Put, 2, Some(95.0), Some(0.32)));
/// assert_eq!(Leg::stock(Side::Long, 100, 101.5).strike, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    /// Call, put or stock.
    pub instrument: Instrument,
    /// Long or short.
    pub side: Side,
    /// Contracts for an option (each [`CONTRACT_MULTIPLIER`] shares), shares for stock:
    /// 1 to [`MAX_QUANTITY`].
    pub quantity: u32,
    /// An option's strike.
    pub strike: Option<f64>,
    /// An option's time to expiry from now, in years (> 0).
    pub expiry: Option<f64>,
    /// An option's own implied volatility; the underlying's when `None`.
    pub volatility: Option<f64>,
    /// Paid (long) or received (short) per share: the option's premium or the stock's price
    /// (≥ 0).
    pub entry_price: f64,
}

impl Leg {
    /// A call leg.
    #[must_use]
    pub fn call(side: Side, contracts: u32, strike: f64, expiry: f64, premium: f64) -> Leg {
        Leg::option(Instrument::Call, side, contracts, strike, expiry, premium)
    }

    /// A put leg.
    #[must_use]
    pub fn put(side: Side, contracts: u32, strike: f64, expiry: f64, premium: f64) -> Leg {
        Leg::option(Instrument::Put, side, contracts, strike, expiry, premium)
    }

    /// A stock leg of `shares` at `price`.
    #[must_use]
    pub fn stock(side: Side, shares: u32, price: f64) -> Leg {
        Leg { instrument: Instrument::Stock, side, quantity: shares, strike: None, expiry: None, volatility: None, entry_price: price }
    }

    fn option(instrument: Instrument, side: Side, quantity: u32, strike: f64, expiry: f64, premium: f64) -> Leg {
        Leg { instrument, side, quantity, strike: Some(strike), expiry: Some(expiry), volatility: None, entry_price: premium }
    }

    /// The same leg with its own implied volatility.
    #[must_use]
    pub fn with_volatility(self, volatility: f64) -> Leg {
        Leg { volatility: Some(volatility), ..self }
    }
}

/// The underlying and the market the structure is valued in: spot, continuously
/// compounded rate and dividend yield, and the volatility used for legs without their own
/// and for the probability of profit (the at-the-money implied volatility, typically).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Underlying {
    /// Price now, `S > 0`.
    pub spot: f64,
    /// Risk-free rate `r`.
    pub rate: f64,
    /// Dividend yield `q`.
    pub dividend_yield: f64,
    /// Volatility `σ > 0` per year.
    pub volatility: f64,
}

/// Why a structure, a date or a shift was refused. Leg problems name the leg (from 0) and
/// the input.
///
/// ```
/// use strikeline_quant::structure::{Leg, Side, Structure, StructureError, Underlying};
/// use strikeline_quant::Field;
/// let market = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2 };
/// let err = Structure::new(market, vec![Leg::call(Side::Long, 1, -5.0, 0.1, 1.0)]).unwrap_err();
/// assert_eq!(err.leg(), Some(0));
/// assert_eq!(err.field(), Some(Field::Strike));
/// assert_eq!(err.to_string(), "leg 1: strike must be greater than 0, got -5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StructureError {
    /// No legs, or more than [`MAX_LEGS`].
    LegCount {
        /// How many were given.
        count: usize,
    },
    /// Only stock: there is no option to analyse.
    NoOptionLeg,
    /// A leg's input is out of its range.
    Leg {
        /// Which leg, from 0.
        index: usize,
        /// What is wrong with it.
        error: InputError,
    },
    /// An option leg without a strike or an expiry.
    Missing {
        /// Which leg, from 0.
        index: usize,
        /// The missing input.
        field: Field,
    },
    /// A stock leg with a strike, an expiry or a volatility.
    NotForStock {
        /// Which leg, from 0.
        index: usize,
        /// The input stock does not have.
        field: Field,
    },
    /// The underlying's spot, rate, yield or volatility, a date or a shift.
    Input(InputError),
    /// A date after the first leg's expiry.
    AfterExpiry {
        /// The date asked for, in years from now.
        horizon: f64,
        /// The first expiry, in years from now.
        first_expiry: f64,
    },
}

impl StructureError {
    /// The leg the error is about, from 0.
    #[must_use]
    pub fn leg(&self) -> Option<usize> {
        match self {
            StructureError::Leg { index, .. } | StructureError::Missing { index, .. } | StructureError::NotForStock { index, .. } => {
                Some(*index)
            }
            _ => None,
        }
    }

    /// The input the error is about, when it is one input.
    #[must_use]
    pub fn field(&self) -> Option<Field> {
        match self {
            StructureError::Leg { error, .. } | StructureError::Input(error) => Some(error.field()),
            StructureError::Missing { field, .. } | StructureError::NotForStock { field, .. } => Some(*field),
            StructureError::AfterExpiry { .. } => Some(Field::Horizon),
            StructureError::LegCount { .. } | StructureError::NoOptionLeg => None,
        }
    }
}

impl fmt::Display for StructureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructureError::LegCount { count } => write!(f, "a position has 1 to {MAX_LEGS} legs, got {count}"),
            StructureError::NoOptionLeg => f.write_str("a position needs at least one option leg"),
            StructureError::Leg { index, error } => write!(f, "leg {}: {error}", index + 1),
            StructureError::Missing { index, field } => write!(f, "leg {}: an option needs a {field}", index + 1),
            StructureError::NotForStock { index, field } => write!(f, "leg {}: stock has no {field}", index + 1),
            StructureError::Input(error) => error.fmt(f),
            StructureError::AfterExpiry { horizon, first_expiry } => write!(
                f,
                "the date is after the first leg's expiry ({:.1} days from now, asked for {:.1}); value the legs that remain as their own position",
                first_expiry * 365.0,
                horizon * 365.0
            ),
        }
    }
}

impl std::error::Error for StructureError {}

impl From<InputError> for StructureError {
    fn from(error: InputError) -> Self {
        StructureError::Input(error)
    }
}

/// A validated leg, ready to value.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Priced {
    /// `Some` for options.
    option: Option<Terms>,
    /// Signed shares: `±quantity × multiplier`.
    units: f64,
    entry_price: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Terms {
    kind: OptionType,
    strike: f64,
    expiry: f64,
    volatility: f64,
}

/// A validated multi-leg position on one underlying. See the [module documentation](self).
#[derive(Debug, Clone, PartialEq)]
pub struct Structure {
    underlying: Underlying,
    legs: Vec<Leg>,
    priced: Vec<Priced>,
    first_expiry: f64,
    exercise: Exercise,
}

impl Structure {
    /// Validates the underlying and every leg: 1 to [`MAX_LEGS`] legs, at least one an
    /// option; quantities 1 to [`MAX_QUANTITY`]; strikes and prices as [`BlackScholes::new`]
    /// accepts them; expiries after now and at most 100 years away.
    ///
    /// ```
    /// use strikeline_quant::structure::{Leg, Side, Structure, StructureError, Underlying};
    /// let market = Underlying { spot: 100.0, rate: 0.03, dividend_yield: 0.0, volatility: 0.2 };
    /// assert_eq!(Structure::new(market, vec![]), Err(StructureError::LegCount { count: 0 }));
    /// assert_eq!(Structure::new(market, vec![Leg::stock(Side::Long, 100, 100.0)]), Err(StructureError::NoOptionLeg));
    /// let mut no_strike = Leg::call(Side::Long, 1, 100.0, 0.1, 2.0);
    /// no_strike.strike = None;
    /// assert_eq!(Structure::new(market, vec![no_strike]).unwrap_err().to_string(), "leg 1: an option needs a strike");
    /// ```
    pub fn new(underlying: Underlying, legs: Vec<Leg>) -> Result<Structure, StructureError> {
        let underlying = Underlying {
            spot: price_level(Field::Spot, underlying.spot)?,
            rate: rate(Field::Rate, underlying.rate)?,
            dividend_yield: rate(Field::DividendYield, underlying.dividend_yield)?,
            volatility: volatility(Field::Volatility, underlying.volatility)?,
        };
        if legs.is_empty() || legs.len() > MAX_LEGS {
            return Err(StructureError::LegCount { count: legs.len() });
        }
        let priced = legs.iter().enumerate().map(|(index, leg)| price_leg(index, leg, &underlying)).collect::<Result<Vec<_>, _>>()?;
        let first_expiry = priced.iter().filter_map(|p| p.option.map(|o| o.expiry)).reduce(f64::min).ok_or(StructureError::NoOptionLeg)?;
        Ok(Structure { underlying, legs, priced, first_expiry, exercise: Exercise::European })
    }

    /// The same position with options of `exercise` style (European by default). American
    /// options need a rate and a dividend yield of at least 0.
    ///
    /// ```
    /// use strikeline_quant::american::Exercise;
    /// use strikeline_quant::structure::{Leg, Side, Structure, Underlying};
    /// let market = Underlying { spot: 80.0, rate: 0.06, dividend_yield: 0.0, volatility: 0.3 };
    /// let put = Structure::new(market, vec![Leg::put(Side::Long, 1, 100.0, 1.0, 20.0)])?;
    /// let american = put.clone().with_exercise(Exercise::American)?;
    /// assert!(american.pnl(80.0, 0.0, 0.0)? > put.pnl(80.0, 0.0, 0.0)?, "deep in the money, early exercise is worth something");
    /// # Ok::<(), strikeline_quant::structure::StructureError>(())
    /// ```
    pub fn with_exercise(self, exercise: Exercise) -> Result<Structure, StructureError> {
        if exercise == Exercise::American {
            for (field, value) in [(Field::Rate, self.underlying.rate), (Field::DividendYield, self.underlying.dividend_yield)] {
                if value < 0.0 {
                    return Err(InputError::OutOfRange { field, value, min: 0.0, max: crate::error::MAX_RATE }.into());
                }
            }
        }
        Ok(Structure { exercise, ..self })
    }

    /// The options' exercise style.
    #[must_use]
    pub fn exercise(&self) -> Exercise {
        self.exercise
    }

    /// The legs as given.
    #[must_use]
    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// The underlying as validated.
    #[must_use]
    pub fn underlying(&self) -> Underlying {
        self.underlying
    }

    /// Years from now to the first leg's expiry.
    #[must_use]
    pub fn first_expiry(&self) -> f64 {
        self.first_expiry
    }

    /// What opening the position cost: positive for a net debit, negative for a net credit.
    ///
    /// ```
    /// use strikeline_quant::structure::{Leg, Side, Structure, Underlying};
    /// let market = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2 };
    /// let credit = Structure::new(market, vec![Leg::put(Side::Short, 2, 95.0, 0.1, 1.5)])?;
    /// assert_eq!(credit.net_premium(), -300.0);
    /// # Ok::<(), strikeline_quant::structure::StructureError>(())
    /// ```
    #[must_use]
    pub fn net_premium(&self) -> f64 {
        self.priced.iter().map(|p| p.units * p.entry_price).sum()
    }

    /// Checks a date (years from now, from 0 to the first expiry) and a volatility shift.
    fn check(&self, horizon: f64, shift: f64) -> Result<(), StructureError> {
        let horizon = years(Field::Horizon, horizon)?;
        if horizon > self.first_expiry {
            return Err(StructureError::AfterExpiry { horizon, first_expiry: self.first_expiry });
        }
        let shift = in_range(Field::VolatilityShift, finite(Field::VolatilityShift, shift)?, -MAX_VOLATILITY_SHIFT, MAX_VOLATILITY_SHIFT)?;
        for (index, p) in self.priced.iter().enumerate() {
            if let Some(o) = p.option
                && o.volatility + shift <= 0.0
            {
                let error =
                    InputError::OutOfRange { field: Field::VolatilityShift, value: shift, min: -o.volatility, max: MAX_VOLATILITY_SHIFT };
                return Err(StructureError::Leg { index, error });
            }
        }
        Ok(())
    }

    /// Profit or loss of the whole position if the underlying is at `spot` at `horizon`
    /// years from now (0 to the first expiry) with every implied volatility shifted by
    /// `shift` (0.05 = five points up).
    ///
    /// ```
    /// use strikeline_quant::structure::{Leg, Side, Structure, StructureError, Underlying};
    /// let market = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2 };
    /// let put = Structure::new(market, vec![Leg::put(Side::Long, 1, 100.0, 0.25, 4.0)])?;
    /// assert_eq!(put.pnl(90.0, 0.25, 0.0)?, 600.0);
    /// assert!(matches!(put.pnl(90.0, 0.3, 0.0), Err(StructureError::AfterExpiry { .. })));
    /// # Ok::<(), StructureError>(())
    /// ```
    pub fn pnl(&self, spot: f64, horizon: f64, shift: f64) -> Result<f64, StructureError> {
        self.check(horizon, shift)?;
        let spot = price_level(Field::Spot, spot)?;
        Ok(self.at(horizon, shift).pnl(spot))
    }

    /// A P&L curve over `grid` at `horizon` with a volatility `shift` (for payoff charts:
    /// `horizon = 0` is today, [`Structure::first_expiry`] the expiry line).
    pub fn pnl_curve(&self, grid: &PriceGrid, horizon: f64, shift: f64) -> Result<Vec<PnlPoint>, StructureError> {
        self.check(horizon, shift)?;
        let at = self.at(horizon, shift);
        Ok(grid.prices().map(|spot| PnlPoint { spot, pnl: at.pnl(spot) }).collect())
    }

    /// P&L for every pair of `spots` (rows) and volatility `shifts` (columns) at `horizon`.
    ///
    /// ```
    /// use strikeline_quant::structure::{Leg, Side, Structure, Underlying};
    /// let market = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2 };
    /// let call = Structure::new(market, vec![Leg::call(Side::Long, 1, 100.0, 0.25, 4.0)])?;
    /// let grid = call.scenarios(&[95.0, 105.0], &[-0.05, 0.0, 0.05], 0.1)?;
    /// assert_eq!(grid.len(), 2);
    /// assert!(grid[1][0] < grid[1][1] && grid[1][1] < grid[1][2], "long vega");
    /// # Ok::<(), strikeline_quant::structure::StructureError>(())
    /// ```
    pub fn scenarios(&self, spots: &[f64], shifts: &[f64], horizon: f64) -> Result<Vec<Vec<f64>>, StructureError> {
        for &shift in shifts {
            self.check(horizon, shift)?;
        }
        self.check(horizon, 0.0)?;
        let spots = spots.iter().map(|&spot| price_level(Field::Spot, spot)).collect::<Result<Vec<_>, _>>()?;
        let columns: Vec<Valuer<'_>> = shifts.iter().map(|&shift| self.at(horizon, shift)).collect();
        Ok(spots.iter().map(|&spot| columns.iter().map(|at| at.pnl(spot)).collect()).collect())
    }

    /// The position's Greeks at `spot`, `horizon` and volatility `shift`: the sum over the
    /// legs of their Black–Scholes Greeks × signed quantity × multiplier (an expired leg has
    /// only its delta step; stock a delta of one a share). Vega is per 1.00 of a parallel
    /// shift of every leg's volatility; theta per year of calendar time.
    ///
    /// ```
    /// use strikeline_quant::structure::{Leg, Side, Structure, Underlying};
    /// let market = Underlying { spot: 100.0, rate: 0.01, dividend_yield: 0.0, volatility: 0.2 };
    /// let covered = Structure::new(market, vec![Leg::stock(Side::Long, 100, 100.0), Leg::call(Side::Short, 1, 105.0, 0.1, 0.9)])?;
    /// let g = covered.greeks(100.0, 0.0, 0.0)?;
    /// assert!(g.delta > 0.0 && g.delta < 100.0);
    /// assert!(g.gamma < 0.0 && g.vega < 0.0 && g.theta > 0.0);
    /// # Ok::<(), strikeline_quant::structure::StructureError>(())
    /// ```
    pub fn greeks(&self, spot: f64, horizon: f64, shift: f64) -> Result<Greeks, StructureError> {
        self.check(horizon, shift)?;
        let spot = price_level(Field::Spot, spot)?;
        Ok(self.greeks_unchecked(spot, horizon, shift))
    }

    /// The analysis at the first expiry. See [`ExpiryAnalysis`].
    #[must_use]
    pub fn at_expiry(&self) -> ExpiryAnalysis {
        expiry::analyse(self)
    }

    fn inputs(&self, spot: f64, o: &Terms, horizon: f64, shift: f64) -> OptionInputs {
        OptionInputs {
            spot,
            strike: o.strike,
            rate: self.underlying.rate,
            dividend_yield: self.underlying.dividend_yield,
            volatility: o.volatility + shift,
            time_to_expiry: (o.expiry - horizon).max(0.0),
        }
    }

    /// The legs' values at `horizon` with volatility `shift`, ready for many spots (an
    /// American leg's exercise boundary is solved once here). Inputs already checked.
    pub(crate) fn at(&self, horizon: f64, shift: f64) -> Valuer<'_> {
        let legs = self
            .priced
            .iter()
            .map(|p| match &p.option {
                None => LegValue::Stock,
                Some(o) if o.expiry <= horizon => LegValue::Expired(o.kind, o.strike),
                Some(o) => {
                    let model = BlackScholes::from_validated(self.inputs(self.underlying.spot, o, horizon, shift));
                    match self.exercise {
                        Exercise::European => LegValue::European(model, o.kind),
                        Exercise::American => LegValue::American(American::from_validated(model).curve(o.kind)),
                    }
                }
            })
            .collect();
        Valuer { structure: self, legs }
    }

    pub(crate) fn greeks_unchecked(&self, spot: f64, horizon: f64, shift: f64) -> Greeks {
        let mut total = Greeks::default();
        for p in &self.priced {
            let g = match &p.option {
                None => Greeks { delta: 1.0, ..Greeks::default() },
                Some(o) => {
                    let model = BlackScholes::from_validated(self.inputs(spot, o, horizon, shift));
                    match self.exercise {
                        Exercise::European => model.greeks(o.kind),
                        Exercise::American => American::from_validated(model).valuation(o.kind).greeks,
                    }
                }
            };
            total.delta += p.units * g.delta;
            total.gamma += p.units * g.gamma;
            total.vega += p.units * g.vega;
            total.theta += p.units * g.theta;
            total.rho += p.units * g.rho;
        }
        total
    }

    fn priced(&self) -> &[Priced] {
        &self.priced
    }
}

/// One leg's value as a function of the spot at a fixed date and volatility shift.
enum LegValue {
    Stock,
    Expired(OptionType, f64),
    European(BlackScholes, OptionType),
    American(crate::american::Curve),
}

/// The structure's P&L and delta as functions of the spot at a fixed date and shift.
pub(crate) struct Valuer<'a> {
    structure: &'a Structure,
    legs: Vec<LegValue>,
}

impl Valuer<'_> {
    fn value(leg: &LegValue, spot: f64) -> f64 {
        match leg {
            LegValue::Stock => spot,
            LegValue::Expired(kind, strike) => intrinsic(*kind, spot, *strike),
            LegValue::European(model, kind) => model.with_spot_unchecked(spot).price(*kind),
            LegValue::American(curve) => curve.price(spot),
        }
    }

    /// The P&L at `spot` (> 0).
    pub(crate) fn pnl(&self, spot: f64) -> f64 {
        self.structure.priced.iter().zip(&self.legs).map(|(p, leg)| p.units * (Self::value(leg, spot) - p.entry_price)).sum()
    }

    /// The position's delta at `spot` (an expired leg's is its step).
    pub(crate) fn delta(&self, spot: f64) -> f64 {
        self.structure
            .priced
            .iter()
            .zip(&self.legs)
            .map(|(p, leg)| {
                p.units
                    * match leg {
                        LegValue::Stock => 1.0,
                        LegValue::Expired(kind, strike) => {
                            // The payoff's step: ½ exactly at the strike.
                            let call = match spot.partial_cmp(strike) {
                                Some(std::cmp::Ordering::Greater) => 1.0,
                                Some(std::cmp::Ordering::Less) => 0.0,
                                _ => 0.5,
                            };
                            if *kind == OptionType::Put { call - 1.0 } else { call }
                        }
                        LegValue::European(model, kind) => model.with_spot_unchecked(spot).greeks(*kind).delta,
                        LegValue::American(curve) => curve.delta(spot),
                    }
            })
            .sum()
    }
}

fn volatility(field: Field, value: f64) -> Result<f64, InputError> {
    let value = positive(field, value)?;
    in_range(field, value, 0.0, crate::error::MAX_VOLATILITY)
}

fn price_leg(index: usize, leg: &Leg, underlying: &Underlying) -> Result<Priced, StructureError> {
    let at = |error: InputError| StructureError::Leg { index, error };
    if leg.quantity == 0 || leg.quantity > MAX_QUANTITY {
        let error =
            InputError::OutOfRange { field: Field::Quantity, value: f64::from(leg.quantity), min: 1.0, max: f64::from(MAX_QUANTITY) };
        return Err(at(error));
    }
    let entry_price = non_negative(Field::Premium, leg.entry_price).and_then(|p| in_range(Field::Premium, p, 0.0, 1e12)).map_err(at)?;
    let kind = match leg.instrument {
        Instrument::Call => OptionType::Call,
        Instrument::Put => OptionType::Put,
        Instrument::Stock => {
            let stray = [(leg.strike, Field::Strike), (leg.expiry, Field::TimeToExpiry), (leg.volatility, Field::Volatility)];
            if let Some((_, field)) = stray.into_iter().find(|(value, _)| value.is_some()) {
                return Err(StructureError::NotForStock { index, field });
            }
            return Ok(Priced { option: None, units: leg.side.sign() * f64::from(leg.quantity), entry_price });
        }
    };
    let strike = leg.strike.ok_or(StructureError::Missing { index, field: Field::Strike })?;
    let expiry = leg.expiry.ok_or(StructureError::Missing { index, field: Field::TimeToExpiry })?;
    let strike = price_level(Field::Strike, strike).map_err(at)?;
    let expiry = positive(Field::TimeToExpiry, expiry).and_then(|t| years(Field::TimeToExpiry, t)).map_err(at)?;
    let volatility = volatility(Field::Volatility, leg.volatility.unwrap_or(underlying.volatility)).map_err(at)?;
    let units = leg.side.sign() * f64::from(leg.quantity) * CONTRACT_MULTIPLIER;
    Ok(Priced { option: Some(Terms { kind, strike, expiry, volatility }), units, entry_price })
}
