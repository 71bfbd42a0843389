//! Black–Scholes–Merton prices and Greeks of European calls, puts and straddles on an
//! underlying paying a continuous dividend yield.
//!
//! With spot `S`, strike `K`, risk-free rate `r`, dividend yield `q`, volatility `σ`
//! and time to expiry `T` in years (all continuously compounded, per year):
//!
//! ```text
//! d1 = (ln(S/K) + (r − q + σ²/2)·T) / (σ√T),   d2 = d1 − σ√T
//! call = S·e^{−qT}·N(d1) − K·e^{−rT}·N(d2)
//! put  = K·e^{−rT}·N(−d2) − S·e^{−qT}·N(−d1)
//! straddle = call + put       (long one call and one put, same strike and expiry)
//! ```
//!
//! `N` is [`crate::normal::cdf`] (Cody's `erfc`), accurate to about 1e-15; one exponential
//! `e^{−d1²/2}` is shared by `N(d1)`, `N(d2)` and the density. Greek conventions (all per one
//! unit of the underlying, i.e. per share; multiply by the contract multiplier, usually
//! 100, for a contract):
//!
//! | Greek | definition | call | put |
//! |---|---|---|---|
//! | delta | ∂V/∂S | `e^{−qT}N(d1)` | `−e^{−qT}N(−d1)` |
//! | gamma | ∂²V/∂S² | `e^{−qT}φ(d1)/(Sσ√T)` | same |
//! | vega | ∂V/∂σ, per 1.00 (100 vol points) | `S·e^{−qT}φ(d1)√T` | same |
//! | theta | −∂V/∂T: value change per **year** of calendar time passing | `−S e^{−qT}φ(d1)σ/(2√T) − rK e^{−rT}N(d2) + qS e^{−qT}N(d1)` | `−S e^{−qT}φ(d1)σ/(2√T) + rK e^{−rT}N(−d2) − qS e^{−qT}N(−d1)` |
//! | rho | ∂V/∂r per 1.00 of rate, `q` held fixed | `K T e^{−rT}N(d2)` | `−K T e^{−rT}N(−d2)` |
//!
//! A straddle's Greeks are the sums. [`Greeks::vega_per_vol_point`],
//! [`Greeks::theta_per_day`] (÷365 calendar days) and [`Greeks::rho_per_rate_point`]
//! give the per-point / per-day figures brokers usually display.
//!
//! At `T = 0` the value is the intrinsic value `max(S−K, 0)` / `max(K−S, 0)`; delta is the
//! step (1, 0, or ½ exactly at the money for a call), and gamma, vega, theta and rho are 0.

use std::fmt;
use std::str::FromStr;

use crate::error::{Field, InputError, MAX_VOLATILITY, in_range, positive, price_level, rate, years};

pub mod batch;
use crate::normal::{FRAC_1_SQRT_2PI, cdf_and_complement_with_gaussian};

/// Which option (or combination) is priced: a call, a put, or a long straddle (one call
/// plus one put at the same strike and expiry).
///
/// Parses from `call`/`c`, `put`/`p`, `straddle`/`s`, case-insensitively:
///
/// ```
/// use strikeline_quant::OptionType;
/// assert_eq!("Call".parse::<OptionType>(), Ok(OptionType::Call));
/// assert_eq!("p".parse::<OptionType>(), Ok(OptionType::Put));
/// assert_eq!(OptionType::Straddle.to_string(), "straddle");
/// assert!("butterfly".parse::<OptionType>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionType {
    /// The right to buy at the strike.
    Call,
    /// The right to sell at the strike.
    Put,
    /// A long call plus a long put, same strike and expiry.
    Straddle,
}

impl OptionType {
    /// All three kinds, in a fixed order.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
    /// // Hull's example: S = 42, K = 40, r = 10%, σ = 20%, six months: call 4.76, put 0.81.
    /// let bs = BlackScholes::new(OptionInputs { spot: 42.0, strike: 40.0, rate: 0.1, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.5 })?;
    /// let [call, put, straddle] = OptionType::ALL.map(|kind| bs.price(kind));
    /// assert!((call - 4.76).abs() < 5e-3 && (put - 0.81).abs() < 5e-3);
    /// assert!((straddle - (call + put)).abs() < 1e-12);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub const ALL: [OptionType; 3] = [OptionType::Call, OptionType::Put, OptionType::Straddle];
}

impl fmt::Display for OptionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptionType::Call => "call",
            OptionType::Put => "put",
            OptionType::Straddle => "straddle",
        })
    }
}

/// The text given was not `call`, `put` or `straddle`.
///
/// ```
/// let err = "x".parse::<strikeline_quant::OptionType>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown option type \"x\": expected call, put or straddle");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptionTypeError(String);

impl fmt::Display for ParseOptionTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown option type {:?}: expected call, put or straddle", self.0)
    }
}

impl std::error::Error for ParseOptionTypeError {}

impl FromStr for OptionType {
    type Err = ParseOptionTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "call" | "c" => Ok(OptionType::Call),
            "put" | "p" => Ok(OptionType::Put),
            "straddle" | "s" => Ok(OptionType::Straddle),
            _ => Err(ParseOptionTypeError(s.to_owned())),
        }
    }
}

/// Raw, unvalidated Black–Scholes–Merton inputs, as read from a form or a command line.
/// Rates, yields and volatility are decimals per year (5% = `0.05`), time is in years.
/// Turn them into a [`BlackScholes`] with [`BlackScholes::new`] (or `try_into`).
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs};
/// let inputs = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 };
/// let bs: BlackScholes = inputs.try_into()?;
/// assert_eq!(bs.inputs(), inputs);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionInputs {
    /// Price of the underlying, `S > 0`.
    pub spot: f64,
    /// Strike, `K > 0`.
    pub strike: f64,
    /// Continuously compounded risk-free rate `r` (may be negative).
    pub rate: f64,
    /// Continuous dividend yield `q` (may be negative, e.g. a borrow cost).
    pub dividend_yield: f64,
    /// Volatility `σ > 0`, per year.
    pub volatility: f64,
    /// Time to expiry `T ≥ 0` in years (`T = 0` prices at intrinsic value).
    pub time_to_expiry: f64,
}

/// Validated Black–Scholes–Merton inputs for one strike and expiry. Construction is the
/// only fallible step: every pricing method on it is infallible and returns finite numbers.
///
/// Hull, *Options, Futures and Other Derivatives*, example 15.6: `S = 42, K = 40, r = 10%,
/// σ = 20%, T = 0.5` gives a call of 4.76 and a put of 0.81.
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
/// let bs = BlackScholes::new(OptionInputs {
///     spot: 42.0, strike: 40.0, rate: 0.10, dividend_yield: 0.0, volatility: 0.20, time_to_expiry: 0.5,
/// })?;
/// assert!((bs.price(OptionType::Call) - 4.76).abs() < 0.005);
/// assert!((bs.price(OptionType::Put) - 0.81).abs() < 0.005);
/// assert!((bs.price(OptionType::Straddle) - 5.57).abs() < 0.01);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlackScholes {
    spot: f64,
    strike: f64,
    rate: f64,
    dividend_yield: f64,
    volatility: f64,
    time_to_expiry: f64,
}

/// The five first-order sensitivities (and gamma) of one position, per unit of the
/// underlying. See the [module documentation](self) for the conventions.
///
/// ```
/// use strikeline_quant::Greeks;
/// let g = Greeks { delta: 0.5, gamma: 0.02, vega: 40.0, theta: -7.3, rho: 45.0 };
/// assert_eq!(g.vega_per_vol_point(), 0.4);
/// assert!((g.theta_per_day() - (-0.02)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Greeks {
    /// ∂V/∂S.
    pub delta: f64,
    /// ∂²V/∂S².
    pub gamma: f64,
    /// ∂V/∂σ per 1.00 of volatility (divide by 100 for one vol point).
    pub vega: f64,
    /// −∂V/∂T: value change per year of calendar time passing (divide by 365 for a day).
    pub theta: f64,
    /// ∂V/∂r per 1.00 of rate, dividend yield fixed (divide by 100 for one point).
    pub rho: f64,
}

impl Greeks {
    /// Vega per one volatility point (σ + 0.01): `vega / 100`.
    ///
    /// ```
    /// let g = strikeline_quant::Greeks { vega: 12.1, ..Default::default() };
    /// assert!((g.vega_per_vol_point() - 0.121).abs() < 1e-15);
    /// ```
    #[must_use]
    pub fn vega_per_vol_point(&self) -> f64 {
        self.vega / 100.0
    }

    /// Theta per calendar day: `theta / 365`.
    ///
    /// ```
    /// let g = strikeline_quant::Greeks { theta: -3.65, ..Default::default() };
    /// assert!((g.theta_per_day() + 0.01).abs() < 1e-15);
    /// ```
    #[must_use]
    pub fn theta_per_day(&self) -> f64 {
        self.theta / 365.0
    }

    /// Rho per one rate point (r + 0.01): `rho / 100`.
    ///
    /// ```
    /// let g = strikeline_quant::Greeks { rho: 8.91, ..Default::default() };
    /// assert!((g.rho_per_rate_point() - 0.0891).abs() < 1e-15);
    /// ```
    #[must_use]
    pub fn rho_per_rate_point(&self) -> f64 {
        self.rho / 100.0
    }
}

/// Price and Greeks computed together (cheaper than separately: they share `d1`, `d2`,
/// `N(·)` and the discount factors).
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
/// let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
/// let v = bs.valuation(OptionType::Call);
/// assert_eq!(v.price, bs.price(OptionType::Call));
/// assert_eq!(v.greeks, bs.greeks(OptionType::Call));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Valuation {
    /// Model value per unit of the underlying.
    pub price: f64,
    /// Sensitivities.
    pub greeks: Greeks,
}

/// Everything the formulas share, computed once.
struct Terms {
    /// `S·e^{−qT}`
    spot_df: f64,
    /// `K·e^{−rT}`
    strike_df: f64,
    nd1: f64,
    n_minus_d1: f64,
    nd2: f64,
    n_minus_d2: f64,
    /// `S·e^{−qT}·φ(d1)`
    spot_df_pdf: f64,
    sqrt_t: f64,
    /// `1/(σ√T)`
    inv_sig_sqrt_t: f64,
}

impl BlackScholes {
    /// Validates the inputs: `S > 0`, `K > 0`, `σ > 0`, `T ≥ 0`, and all (including `r`
    /// and `q`) finite. So that no formula can overflow, values must also be plausible:
    /// `S` and `K` between 1e-12 and 1e12, `|r|` and `|q|` at most 1 (100% a year), `σ` at
    /// most 10 (1000%) and `T` at most 100 years ([`InputError::OutOfRange`] otherwise).
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, Field, InputError, OptionInputs};
    /// let mut inputs = OptionInputs { spot: 100.0, strike: 90.0, rate: 0.03, dividend_yield: 0.01, volatility: 0.25, time_to_expiry: 0.25 };
    /// assert!(BlackScholes::new(inputs).is_ok());
    /// inputs.volatility = 0.0;
    /// assert_eq!(BlackScholes::new(inputs), Err(InputError::NotPositive { field: Field::Volatility, value: 0.0 }));
    /// inputs.volatility = 0.2;
    /// inputs.time_to_expiry = f64::NAN;
    /// assert_eq!(BlackScholes::new(inputs).unwrap_err().field(), Field::TimeToExpiry);
    /// ```
    pub fn new(inputs: OptionInputs) -> Result<Self, InputError> {
        Ok(BlackScholes {
            spot: price_level(Field::Spot, inputs.spot)?,
            strike: price_level(Field::Strike, inputs.strike)?,
            rate: rate(Field::Rate, inputs.rate)?,
            dividend_yield: rate(Field::DividendYield, inputs.dividend_yield)?,
            volatility: valid_volatility(inputs.volatility)?,
            time_to_expiry: years(Field::TimeToExpiry, inputs.time_to_expiry)?,
        })
    }

    /// The validated inputs, back as plain data.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// let inputs = OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.0, volatility: 0.3, time_to_expiry: 0.1 };
    /// assert_eq!(BlackScholes::new(inputs)?.inputs(), inputs);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn inputs(&self) -> OptionInputs {
        OptionInputs {
            spot: self.spot,
            strike: self.strike,
            rate: self.rate,
            dividend_yield: self.dividend_yield,
            volatility: self.volatility,
            time_to_expiry: self.time_to_expiry,
        }
    }

    /// Spot `S`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!((bs.spot(), bs.strike(), bs.rate(), bs.dividend_yield(), bs.volatility(), bs.time_to_expiry()), (50.0, 55.0, 0.01, 0.02, 0.3, 0.1));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn spot(&self) -> f64 {
        self.spot
    }

    /// Strike `K`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!(bs.strike(), 55.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn strike(&self) -> f64 {
        self.strike
    }

    /// Risk-free rate `r`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!(bs.rate(), 0.01);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Dividend yield `q`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!(bs.dividend_yield(), 0.02);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn dividend_yield(&self) -> f64 {
        self.dividend_yield
    }

    /// Volatility `σ`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!(bs.volatility(), 0.3);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn volatility(&self) -> f64 {
        self.volatility
    }

    /// Time to expiry `T` in years.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 50.0, strike: 55.0, rate: 0.01, dividend_yield: 0.02, volatility: 0.3, time_to_expiry: 0.1 })?;
    /// assert_eq!(bs.time_to_expiry(), 0.1);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn time_to_expiry(&self) -> f64 {
        self.time_to_expiry
    }

    /// The forward price `F = S·e^{(r−q)T}`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.02, volatility: 0.2, time_to_expiry: 2.0 })?;
    /// assert!((bs.forward() - 100.0 * (0.06f64).exp()).abs() < 1e-12);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn forward(&self) -> f64 {
        self.spot * ((self.rate - self.dividend_yield) * self.time_to_expiry).exp()
    }

    /// The same option with another spot (for P&L curves and scenarios).
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// assert_eq!(bs.with_spot(110.0)?.spot(), 110.0);
    /// assert!(bs.with_spot(-1.0).is_err());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn with_spot(&self, spot: f64) -> Result<Self, InputError> {
        Ok(BlackScholes { spot: price_level(Field::Spot, spot)?, ..*self })
    }

    /// The same option with another volatility.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// assert_eq!(bs.with_volatility(0.3)?.volatility(), 0.3);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn with_volatility(&self, volatility: f64) -> Result<Self, InputError> {
        Ok(BlackScholes { volatility: valid_volatility(volatility)?, ..*self })
    }

    /// The same option with another time to expiry (for "value at a date before expiry").
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// # let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// assert_eq!(bs.with_time_to_expiry(0.0)?.time_to_expiry(), 0.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn with_time_to_expiry(&self, time_to_expiry: f64) -> Result<Self, InputError> {
        Ok(BlackScholes { time_to_expiry: years(Field::TimeToExpiry, time_to_expiry)?, ..*self })
    }

    /// From values already validated as [`BlackScholes::new`] does (crate-internal, for
    /// the batch kernels).
    pub(crate) fn from_validated(inputs: OptionInputs) -> Self {
        debug_assert!(BlackScholes::new(inputs).is_ok());
        BlackScholes {
            spot: inputs.spot,
            strike: inputs.strike,
            rate: inputs.rate,
            dividend_yield: inputs.dividend_yield,
            volatility: inputs.volatility,
            time_to_expiry: inputs.time_to_expiry,
        }
    }

    /// Spot replaced by an already validated value (crate-internal, for grids).
    pub(crate) fn with_spot_unchecked(&self, spot: f64) -> Self {
        debug_assert!(spot > 0.0 && spot.is_finite());
        BlackScholes { spot, ..*self }
    }

    pub(crate) fn with_time_unchecked(&self, time_to_expiry: f64) -> Self {
        debug_assert!(time_to_expiry >= 0.0 && time_to_expiry.is_finite());
        BlackScholes { time_to_expiry, ..*self }
    }

    /// `(d1, d2)`; at `T = 0` both are ±∞ (or 0 exactly at the money).
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs};
    /// let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// let (d1, d2) = bs.d1_d2();
    /// assert!((d1 - 0.1).abs() < 1e-15 && (d2 + 0.1).abs() < 1e-15);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn d1_d2(&self) -> (f64, f64) {
        let log_moneyness = (self.spot / self.strike).ln();
        if self.time_to_expiry == 0.0 {
            let d = if log_moneyness == 0.0 { 0.0 } else { log_moneyness * f64::INFINITY };
            return (d, d);
        }
        let sig_sqrt_t = self.volatility * self.time_to_expiry.sqrt();
        let d1 = (log_moneyness + (self.rate - self.dividend_yield + 0.5 * self.volatility * self.volatility) * self.time_to_expiry)
            / sig_sqrt_t;
        (d1, d1 - sig_sqrt_t)
    }

    #[inline]
    fn terms(&self) -> Terms {
        let t = self.time_to_expiry;
        let sqrt_t = t.sqrt();
        let sig_sqrt_t = self.volatility * sqrt_t;
        let inv_sig_sqrt_t = 1.0 / sig_sqrt_t;
        let d1 = ((self.spot / self.strike).ln() + (self.rate - self.dividend_yield + 0.5 * self.volatility * self.volatility) * t)
            * inv_sig_sqrt_t;
        let d2 = d1 - sig_sqrt_t;
        let spot_df = self.spot * (-self.dividend_yield * t).exp();
        let strike_df = self.strike * (-self.rate * t).exp();
        // One exponential serves N(d1), N(d2) and φ(d1): since d2² = d1² − 2·ln(F/K),
        // e^{−d2²/2} = e^{−d1²/2}·F/K, and F/K = S·e^{−qT}/(K·e^{−rT}).
        let gaussian_d1 = (-0.5 * d1 * d1).exp();
        let gaussian_d2 = gaussian_d1 * (spot_df / strike_df);
        let (nd1, n_minus_d1) = cdf_and_complement_with_gaussian(d1, gaussian_d1);
        let (nd2, n_minus_d2) = cdf_and_complement_with_gaussian(d2, gaussian_d2);
        let spot_df_pdf = spot_df * FRAC_1_SQRT_2PI * gaussian_d1;
        Terms { spot_df, strike_df, nd1, n_minus_d1, nd2, n_minus_d2, spot_df_pdf, sqrt_t, inv_sig_sqrt_t }
    }

    /// Model value per unit of the underlying (see the [module documentation](self)).
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
    /// // At expiry the value is intrinsic.
    /// let bs = BlackScholes::new(OptionInputs { spot: 105.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.0 })?;
    /// assert_eq!(bs.price(OptionType::Call), 5.0);
    /// assert_eq!(bs.price(OptionType::Put), 0.0);
    /// assert_eq!(bs.price(OptionType::Straddle), 5.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn price(&self, kind: OptionType) -> f64 {
        if self.time_to_expiry == 0.0 {
            return intrinsic(kind, self.spot, self.strike);
        }
        let m = self.terms();
        let call = m.spot_df * m.nd1 - m.strike_df * m.nd2;
        let put = m.strike_df * m.n_minus_d2 - m.spot_df * m.n_minus_d1;
        // Rounding can leave a far out-of-the-money price a hair below zero.
        match kind {
            OptionType::Call => call.max(0.0),
            OptionType::Put => put.max(0.0),
            OptionType::Straddle => call.max(0.0) + put.max(0.0),
        }
    }

    /// Greeks of one call, put or straddle (see the [module documentation](self)).
    ///
    /// Hull, example 19.1 and the following sections: `S = 49, K = 50, r = 5%, σ = 20%,
    /// T = 0.3846` (20 weeks): call delta 0.522, gamma 0.066, vega 12.1, theta −4.31 per
    /// year, rho 8.91.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
    /// let bs = BlackScholes::new(OptionInputs { spot: 49.0, strike: 50.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.3846 })?;
    /// let g = bs.greeks(OptionType::Call);
    /// // Hull's figures, rounded as published.
    /// let round = |x: f64, decimals: i32| (x * 10f64.powi(decimals)).round() / 10f64.powi(decimals);
    /// assert_eq!(round(g.delta, 3), 0.522);
    /// assert_eq!(round(g.gamma, 3), 0.066);
    /// assert_eq!(round(g.vega, 1), 12.1);
    /// assert_eq!(round(g.theta, 2), -4.31);
    /// assert_eq!(round(g.rho, 2), 8.91);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn greeks(&self, kind: OptionType) -> Greeks {
        self.valuation(kind).greeks
    }

    /// Price and Greeks in one pass.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType};
    /// let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.02, volatility: 0.25, time_to_expiry: 0.5 })?;
    /// let c = bs.valuation(OptionType::Call);
    /// let p = bs.valuation(OptionType::Put);
    /// let s = bs.valuation(OptionType::Straddle);
    /// assert!((s.price - (c.price + p.price)).abs() < 1e-12);
    /// assert!((s.greeks.delta - (c.greeks.delta + p.greeks.delta)).abs() < 1e-12);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn valuation(&self, kind: OptionType) -> Valuation {
        if self.time_to_expiry == 0.0 {
            return self.valuation_at_expiry(kind);
        }
        let m = self.terms();
        let t = self.time_to_expiry;
        let gamma = m.spot_df_pdf * m.inv_sig_sqrt_t / (self.spot * self.spot);
        let vega = m.spot_df_pdf * m.sqrt_t;
        // σ/(2√T) = σ²/(2σ√T)
        let decay = -0.5 * m.spot_df_pdf * self.volatility * self.volatility * m.inv_sig_sqrt_t;
        let call_price = (m.spot_df * m.nd1 - m.strike_df * m.nd2).max(0.0);
        let put_price = (m.strike_df * m.n_minus_d2 - m.spot_df * m.n_minus_d1).max(0.0);
        let df_q = m.spot_df / self.spot;
        let call = || Greeks {
            delta: df_q * m.nd1,
            gamma,
            vega,
            theta: decay - self.rate * m.strike_df * m.nd2 + self.dividend_yield * m.spot_df * m.nd1,
            rho: t * m.strike_df * m.nd2,
        };
        let put = || Greeks {
            delta: -df_q * m.n_minus_d1,
            gamma,
            vega,
            theta: decay + self.rate * m.strike_df * m.n_minus_d2 - self.dividend_yield * m.spot_df * m.n_minus_d1,
            rho: -t * m.strike_df * m.n_minus_d2,
        };
        match kind {
            OptionType::Call => Valuation { price: call_price, greeks: call() },
            OptionType::Put => Valuation { price: put_price, greeks: put() },
            OptionType::Straddle => {
                let (c, p) = (call(), put());
                Valuation {
                    price: call_price + put_price,
                    greeks: Greeks {
                        delta: c.delta + p.delta,
                        gamma: 2.0 * gamma,
                        vega: 2.0 * vega,
                        theta: c.theta + p.theta,
                        rho: c.rho + p.rho,
                    },
                }
            }
        }
    }

    fn valuation_at_expiry(&self, kind: OptionType) -> Valuation {
        let call_delta = match self.spot.partial_cmp(&self.strike) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
        let delta = match kind {
            OptionType::Call => call_delta,
            OptionType::Put => call_delta - 1.0,
            OptionType::Straddle => 2.0 * call_delta - 1.0,
        };
        Valuation { price: intrinsic(kind, self.spot, self.strike), greeks: Greeks { delta, ..Greeks::default() } }
    }
}

impl TryFrom<OptionInputs> for BlackScholes {
    type Error = InputError;

    fn try_from(inputs: OptionInputs) -> Result<Self, Self::Error> {
        BlackScholes::new(inputs)
    }
}

fn valid_volatility(value: f64) -> Result<f64, InputError> {
    let value = positive(Field::Volatility, value)?;
    in_range(Field::Volatility, value, 0.0, MAX_VOLATILITY)
}

/// Value at expiry of one unit: `max(S−K, 0)`, `max(K−S, 0)`, or `|S−K|` for a straddle.
///
/// ```
/// use strikeline_quant::{OptionType, pricing::intrinsic};
/// assert_eq!(intrinsic(OptionType::Call, 110.0, 100.0), 10.0);
/// assert_eq!(intrinsic(OptionType::Put, 110.0, 100.0), 0.0);
/// assert_eq!(intrinsic(OptionType::Straddle, 90.0, 100.0), 10.0);
/// ```
#[must_use]
#[inline]
pub fn intrinsic(kind: OptionType, spot: f64, strike: f64) -> f64 {
    match kind {
        OptionType::Call => (spot - strike).max(0.0),
        OptionType::Put => (strike - spot).max(0.0),
        OptionType::Straddle => (spot - strike).abs(),
    }
}

/// Prices and Greeks of many options into `out` (batch form of
/// [`BlackScholes::valuation`], for chains and screens): `out[i]` is the valuation of
/// `options[i]` as `kind`.
///
/// # Panics
/// If `out.len() != options.len()`.
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, Valuation, pricing::value_into};
/// let chain: Vec<BlackScholes> = [90.0, 100.0, 110.0].iter().map(|&strike| {
///     BlackScholes::new(OptionInputs { spot: 100.0, strike, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })
/// }).collect::<Result<_, _>>()?;
/// let mut out = vec![Valuation::default(); chain.len()];
/// value_into(&chain, OptionType::Call, &mut out);
/// assert!(out[0].price > out[1].price && out[1].price > out[2].price);
/// assert_eq!(out[1], chain[1].valuation(OptionType::Call));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn value_into(options: &[BlackScholes], kind: OptionType, out: &mut [Valuation]) {
    assert_eq!(options.len(), out.len(), "value_into: output slice length must equal the number of options");
    for (option, slot) in options.iter().zip(out.iter_mut()) {
        *slot = option.valuation(kind);
    }
}
