//! The crate's input error: every constructor that validates numbers returns
//! [`InputError`], naming the offending [`Field`], so the HTTP layer and the CLI can say
//! exactly which argument was wrong. Once a value is constructed, the math on it cannot
//! fail. Implied volatility has its own error, [`crate::iv::IvError`], because a price
//! outside the no-arbitrage bounds is a different kind of mistake.
//!
//! ```
//! use strikeline_quant::{BlackScholes, Field, OptionInputs};
//! let err = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: -0.2, time_to_expiry: 1.0 }).unwrap_err();
//! assert_eq!(err.field(), Field::Volatility);
//! assert_eq!(err.to_string(), "volatility must be greater than 0, got -0.2");
//! ```

use std::fmt;

/// The input a validation error is about.
///
/// ```
/// use strikeline_quant::Field;
/// assert_eq!(Field::TimeToExpiry.to_string(), "time to expiry");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// Price of the underlying, `S`.
    Spot,
    /// Strike price, `K`.
    Strike,
    /// Continuously compounded risk-free rate, `r`.
    Rate,
    /// Continuous dividend yield, `q`.
    DividendYield,
    /// Volatility, `σ`.
    Volatility,
    /// Time to expiry in years, `T`.
    TimeToExpiry,
    /// An option price (for implied volatility).
    Price,
    /// The premium paid for a position.
    Premium,
    /// Expected annual drift of the underlying.
    Drift,
    /// Time remaining to expiry at an evaluation date.
    TimeRemaining,
    /// A price grid bound.
    GridBound,
    /// The number of points in a grid.
    GridPoints,
    /// An indicator's period (lookback length).
    Period,
    /// A multiplier such as Bollinger's number of standard deviations.
    Multiplier,
    /// A forecast probability, in `[0, 1]`.
    Probability,
    /// A number of bins.
    Bins,
    /// A trailing window's length, in days.
    Window,
    /// A count of successes out of a number of trials.
    Successes,
    /// A leg's number of contracts or shares.
    Quantity,
    /// A parallel shift added to every leg's implied volatility.
    VolatilityShift,
    /// The date (in years from now) at which a position is valued.
    Horizon,
    /// The distance between two strikes of a template.
    Width,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Spot => "spot",
            Field::Strike => "strike",
            Field::Rate => "rate",
            Field::DividendYield => "dividend yield",
            Field::Volatility => "volatility",
            Field::TimeToExpiry => "time to expiry",
            Field::Price => "price",
            Field::Premium => "premium",
            Field::Drift => "drift",
            Field::TimeRemaining => "time remaining",
            Field::GridBound => "grid bound",
            Field::GridPoints => "grid points",
            Field::Period => "period",
            Field::Multiplier => "multiplier",
            Field::Probability => "probability",
            Field::Bins => "number of bins",
            Field::Window => "window",
            Field::Successes => "successes",
            Field::Quantity => "quantity",
            Field::VolatilityShift => "volatility shift",
            Field::Horizon => "horizon",
            Field::Width => "width",
        })
    }
}

/// Why an input was rejected.
///
/// ```
/// use strikeline_quant::{Field, InputError};
/// let err = InputError::NotPositive { field: Field::Volatility, value: 0.0 };
/// assert_eq!(err.to_string(), "volatility must be greater than 0, got 0");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum InputError {
    /// The value is NaN or infinite.
    NotFinite {
        /// Which input.
        field: Field,
        /// The value given.
        value: f64,
    },
    /// The value must be strictly greater than zero.
    NotPositive {
        /// Which input.
        field: Field,
        /// The value given.
        value: f64,
    },
    /// The value must be zero or greater.
    Negative {
        /// Which input.
        field: Field,
        /// The value given.
        value: f64,
    },
    /// The value is outside its allowed range.
    OutOfRange {
        /// Which input.
        field: Field,
        /// The value given.
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// An integer count (a period, a number of grid points) is too small.
    TooSmall {
        /// Which input.
        field: Field,
        /// The value given.
        value: usize,
        /// Smallest allowed value.
        min: usize,
    },
}

impl InputError {
    /// The input the error is about.
    ///
    /// ```
    /// use strikeline_quant::{Field, InputError};
    /// let err = InputError::Negative { field: Field::TimeToExpiry, value: -1.0 };
    /// assert_eq!(err.field(), Field::TimeToExpiry);
    /// ```
    #[must_use]
    pub fn field(&self) -> Field {
        match *self {
            InputError::NotFinite { field, .. }
            | InputError::NotPositive { field, .. }
            | InputError::Negative { field, .. }
            | InputError::OutOfRange { field, .. }
            | InputError::TooSmall { field, .. } => field,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InputError::NotFinite { field, value } => {
                write!(f, "{field} must be a finite number, got {value}")
            }
            InputError::NotPositive { field, value } => {
                write!(f, "{field} must be greater than 0, got {value}")
            }
            InputError::Negative { field, value } => {
                write!(f, "{field} must not be negative, got {value}")
            }
            InputError::OutOfRange { field, value, min, max } => {
                write!(f, "{field} must be between {min} and {max}, got {value}")
            }
            InputError::TooSmall { field, value, min } => {
                write!(f, "{field} must be at least {min}, got {value}")
            }
        }
    }
}

impl std::error::Error for InputError {}

pub(crate) fn finite(field: Field, value: f64) -> Result<f64, InputError> {
    if value.is_finite() { Ok(value) } else { Err(InputError::NotFinite { field, value }) }
}

pub(crate) fn positive(field: Field, value: f64) -> Result<f64, InputError> {
    let value = finite(field, value)?;
    if value > 0.0 { Ok(value) } else { Err(InputError::NotPositive { field, value }) }
}

pub(crate) fn non_negative(field: Field, value: f64) -> Result<f64, InputError> {
    let value = finite(field, value)?;
    if value >= 0.0 { Ok(value) } else { Err(InputError::Negative { field, value }) }
}

pub(crate) fn at_least(field: Field, value: usize, min: usize) -> Result<usize, InputError> {
    if value >= min { Ok(value) } else { Err(InputError::TooSmall { field, value, min }) }
}

pub(crate) fn in_range(field: Field, value: f64, min: f64, max: f64) -> Result<f64, InputError> {
    let value = finite(field, value)?;
    if (min..=max).contains(&value) { Ok(value) } else { Err(InputError::OutOfRange { field, value, min, max }) }
}

/// Largest accepted spot or strike: with the smallest, `ln(S/K)` and every exponential
/// in the formulas stay finite.
pub(crate) const MAX_PRICE: f64 = 1e12;
pub(crate) const MIN_PRICE: f64 = 1e-12;
/// Largest accepted |rate| and |dividend yield| (100% a year, continuously compounded).
pub(crate) const MAX_RATE: f64 = 1.0;
/// Largest accepted volatility (1000% a year).
pub(crate) const MAX_VOLATILITY: f64 = 10.0;
/// Longest accepted time to expiry, in years.
pub(crate) const MAX_YEARS: f64 = 100.0;

pub(crate) fn price_level(field: Field, value: f64) -> Result<f64, InputError> {
    let value = positive(field, value)?;
    in_range(field, value, MIN_PRICE, MAX_PRICE)
}

pub(crate) fn rate(field: Field, value: f64) -> Result<f64, InputError> {
    in_range(field, value, -MAX_RATE, MAX_RATE)
}

pub(crate) fn years(field: Field, value: f64) -> Result<f64, InputError> {
    let value = non_negative(field, value)?;
    in_range(field, value, 0.0, MAX_YEARS)
}
