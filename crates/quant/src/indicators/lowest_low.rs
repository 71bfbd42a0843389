use std::fmt;

use super::extreme::Extreme;
use super::{Low, Next, Reset, period};
use crate::error::InputError;

/// Lowest low of the last `n` bars, current bar included (TA-Lib's `MIN(low, n)`).
/// Fed plain numbers it is the rolling minimum of those.
///
/// ```
/// use strikeline_quant::indicators::{Bar, LowestLow, Next};
/// let mut ll = LowestLow::new(2)?;
/// let bar = |low| Bar { low, ..Bar::default() };
/// assert_eq!(ll.next(&bar(5.0)), None);
/// assert_eq!(ll.next(&bar(3.0)), Some(3.0));
/// assert_eq!(ll.next(&bar(4.0)), Some(3.0));
/// assert_eq!(ll.next(&bar(6.0)), Some(4.0));
/// assert_eq!(ll.to_string(), "LOWEST(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct LowestLow(pub(super) Extreme);

impl LowestLow {
    /// Over `period ≥ 1` bars.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::LowestLow::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(LowestLow(Extreme::new(period(period_len)?, -1.0)))
    }
}

impl Next<f64> for LowestLow {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        self.0.next(input)
    }
}

impl<T: Low> Next<&T> for LowestLow {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: &T) -> Option<f64> {
        self.0.next(input.low())
    }
}

impl Reset for LowestLow {
    fn reset(&mut self) {
        self.0.reset();
    }
}

impl fmt::Display for LowestLow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LOWEST({})", self.0.window.capacity())
    }
}
