use std::fmt;

use super::extreme::Extreme;
use super::{High, Next, Reset, period};
use crate::error::InputError;

/// Highest high of the last `n` bars, current bar included (TA-Lib's `MAX(high, n)`).
/// Fed plain numbers it is the rolling maximum of those.
///
/// ```
/// use strikeline_quant::indicators::{Bar, HighestHigh, Next};
/// let mut hh = HighestHigh::new(2)?;
/// let bar = |high| Bar { high, ..Bar::default() };
/// assert_eq!(hh.next(&bar(5.0)), None);
/// assert_eq!(hh.next(&bar(3.0)), Some(5.0));
/// assert_eq!(hh.next(&bar(4.0)), Some(4.0));
/// assert_eq!(hh.to_string(), "HIGHEST(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct HighestHigh(pub(super) Extreme);

impl HighestHigh {
    /// Over `period ≥ 1` bars.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::HighestHigh::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(HighestHigh(Extreme::new(period(period_len)?, 1.0)))
    }
}

impl Next<f64> for HighestHigh {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        self.0.next(input)
    }
}

impl<T: High> Next<&T> for HighestHigh {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: &T) -> Option<f64> {
        self.0.next(input.high())
    }
}

impl Reset for HighestHigh {
    fn reset(&mut self) {
        self.0.reset();
    }
}

impl fmt::Display for HighestHigh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HIGHEST({})", self.0.window.capacity())
    }
}
