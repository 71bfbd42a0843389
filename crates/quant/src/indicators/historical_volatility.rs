use std::fmt;

use super::window::Window;
use super::{Close, Next, Reset};
use crate::error::{Field, InputError, at_least};

/// Trading days per year used to annualise daily figures: a daily standard deviation
/// `s` is `s·√252` a year.
///
/// ```
/// use strikeline_quant::indicators::TRADING_DAYS_PER_YEAR;
/// // 30% a year is about 1.89% a trading day.
/// let daily = 0.30 / TRADING_DAYS_PER_YEAR.sqrt();
/// assert!((daily - 0.0189).abs() < 5e-5);
/// ```
pub const TRADING_DAYS_PER_YEAR: f64 = 252.0;

/// Close-to-close historical volatility, annualised:
/// `HV = √252 · s`, where `s` is the **sample** standard deviation (divisor `n−1`) of the
/// last `n` log returns `r_t = ln(x_t / x_{t−1})`. The first value is at input `n` (it
/// needs `n+1` closes). Computed two-pass over the window (mean first, then squared
/// deviations) for accuracy.
///
/// ```
/// use strikeline_quant::indicators::{HistoricalVolatility, Next};
/// let mut hv = HistoricalVolatility::new(2)?;
/// let e = std::f64::consts::E;
/// assert_eq!(hv.next(1.0), None);
/// assert_eq!(hv.next(e), None);
/// // log returns 1 and −1: mean 0, sample variance 2
/// let v = hv.next(1.0).unwrap();
/// assert!((v - (2.0f64 * 252.0).sqrt()).abs() < 1e-12);
/// assert_eq!(hv.to_string(), "HV(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct HistoricalVolatility {
    returns: Window,
    previous: Option<f64>,
}

impl HistoricalVolatility {
    /// Over `period ≥ 2` log returns (a sample standard deviation needs two).
    ///
    /// ```
    /// use strikeline_quant::indicators::HistoricalVolatility;
    /// assert!(HistoricalVolatility::new(1).is_err());
    /// assert!(HistoricalVolatility::new(20).is_ok());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(HistoricalVolatility { returns: Window::new(at_least(Field::Period, period_len, 2)?), previous: None })
    }
}

impl Next<f64> for HistoricalVolatility {
    type Output = Option<f64>;
    fn next(&mut self, input: f64) -> Option<f64> {
        let previous = self.previous.replace(input)?;
        self.returns.push((input / previous).ln());
        if !self.returns.is_full() {
            return None;
        }
        let n = self.returns.capacity() as f64;
        let mean = self.returns.values.iter().sum::<f64>() / n;
        let squares: f64 = self.returns.values.iter().map(|r| (r - mean) * (r - mean)).sum();
        Some((squares / (n - 1.0)).sqrt() * TRADING_DAYS_PER_YEAR.sqrt())
    }
}
close_input!(HistoricalVolatility);

impl Reset for HistoricalVolatility {
    fn reset(&mut self) {
        self.returns.clear();
        self.previous = None;
    }
}

impl fmt::Display for HistoricalVolatility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HV({})", self.returns.capacity())
    }
}
