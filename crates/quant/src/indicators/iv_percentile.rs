use std::fmt;

use super::window::Window;
use super::{Next, Reset};
use crate::error::{Field, InputError, at_least};

/// Implied-volatility percentile over the last `n` observations (252 by default): the
/// percentage of the `n−1` observations before the current one that are strictly below
/// it, `100·#{IV_i < IV_t}/(n−1)`. `None` until `n` observations have been seen.
///
/// ```
/// use strikeline_quant::indicators::{IvPercentile, Next};
/// let mut pct = IvPercentile::new(5)?;
/// for iv in [0.30, 0.20, 0.25, 0.40] {
///     assert_eq!(pct.next(iv), None);
/// }
/// assert_eq!(pct.next(0.28), Some(50.0)); // 0.20 and 0.25 of the previous 4 are below
/// assert_eq!(pct.to_string(), "IV_PERCENTILE(5)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct IvPercentile {
    window: Window,
}

impl IvPercentile {
    /// Over `period ≥ 2` observations (the current one plus at least one before it).
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::IvPercentile::new(1).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(IvPercentile { window: Window::new(at_least(Field::Period, period_len, 2)?) })
    }
}

impl Default for IvPercentile {
    /// Over 252 observations (one year of trading days).
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::IvPercentile::default().to_string(), "IV_PERCENTILE(252)");
    /// ```
    fn default() -> Self {
        IvPercentile { window: Window::new(252) }
    }
}

impl Next<f64> for IvPercentile {
    type Output = Option<f64>;
    fn next(&mut self, iv: f64) -> Option<f64> {
        self.window.push(iv);
        if !self.window.is_full() {
            return None;
        }
        // The current value is also in the window but is never strictly below itself.
        let below = self.window.values.iter().filter(|&&v| v < iv).count();
        Some(100.0 * below as f64 / (self.window.capacity() - 1) as f64)
    }
}

impl Reset for IvPercentile {
    fn reset(&mut self) {
        self.window.clear();
    }
}

impl fmt::Display for IvPercentile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IV_PERCENTILE({})", self.window.capacity())
    }
}
