use std::fmt;

use super::extreme::Extreme;
use super::highest_high::HighestHigh;
use super::lowest_low::LowestLow;
use super::{Next, Reset};
use crate::error::InputError;

/// Implied-volatility rank over the last `n` observations (252 trading days by default),
/// the current one included:
/// `rank = 100·(IV_t − min)/(max − min)`. `None` until `n` observations have been seen,
/// and also when the window is flat (`max = min`: the rank is undefined).
///
/// ```
/// use strikeline_quant::indicators::{IvRank, Next};
/// let mut rank = IvRank::new(3)?;
/// assert_eq!(rank.next(0.20), None);
/// assert_eq!(rank.next(0.40), None);
/// assert!((rank.next(0.25).unwrap() - 25.0).abs() < 1e-12);
/// assert_eq!(IvRank::default().to_string(), "IV_RANK(252)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct IvRank {
    high: HighestHigh,
    low: LowestLow,
}

impl IvRank {
    /// Over `period ≥ 1` observations.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::IvRank::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(IvRank { high: HighestHigh::new(period_len)?, low: LowestLow::new(period_len)? })
    }
}

impl Default for IvRank {
    /// Over 252 observations (one year of trading days).
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::IvRank::default().to_string(), "IV_RANK(252)");
    /// ```
    fn default() -> Self {
        IvRank { high: HighestHigh(Extreme::new(252, 1.0)), low: LowestLow(Extreme::new(252, -1.0)) }
    }
}

impl Next<f64> for IvRank {
    type Output = Option<f64>;
    fn next(&mut self, iv: f64) -> Option<f64> {
        let high = self.high.next(iv);
        let low = self.low.next(iv);
        let (high, low) = (high?, low?);
        (high > low).then(|| 100.0 * (iv - low) / (high - low))
    }
}

impl Reset for IvRank {
    fn reset(&mut self) {
        self.high.reset();
        self.low.reset();
    }
}

impl fmt::Display for IvRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IV_RANK({})", self.high.0.window.capacity())
    }
}
