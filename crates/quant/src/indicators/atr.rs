use std::fmt;

use super::{Close, High, Low, Next, Reset, period};
use crate::error::InputError;

/// Wilder's average true range, TA-Lib's `ATR(n)`.
///
/// The true range of a bar after the first is
/// `TR_t = max(high_t − low_t, |high_t − close_{t−1}|, |low_t − close_{t−1}|)` (the first
/// bar has none). The first ATR, at bar `n`, is the simple mean of `TR_1 … TR_n`; then
/// `ATR_t = (ATR_{t−1}·(n−1) + TR_t)/n`.
///
/// ```
/// use strikeline_quant::indicators::{Atr, Bar, Next};
/// let mut atr = Atr::new(2)?;
/// let bar = |high, low, close| Bar { open: close, high, low, close, volume: 0.0 };
/// assert_eq!(atr.next(&bar(11.0, 9.0, 10.0)), None);
/// assert_eq!(atr.next(&bar(12.0, 10.0, 11.0)), None);        // TR = 2
/// assert_eq!(atr.next(&bar(15.0, 13.0, 14.0)), Some(3.0));   // TR = 15 − 11 = 4; (2+4)/2
/// assert_eq!(atr.next(&bar(14.0, 13.0, 13.5)), Some(2.0));   // TR = 1; (3·1 + 1)/2
/// assert_eq!(atr.to_string(), "ATR(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Atr {
    pub(super) period: usize,
    pub(super) inv_n: f64,
    pub(super) decay: f64,
    pub(super) count: usize,
    pub(super) previous_close: Option<f64>,
    /// Sum of true ranges during the seed, then the ATR.
    pub(super) value: f64,
}

impl Atr {
    /// An ATR over `period ≥ 1` true ranges (Wilder used 14).
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Atr::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        let period = period(period_len)?;
        let n = period as f64;
        Ok(Atr { period, inv_n: 1.0 / n, decay: (n - 1.0) / n, count: 0, previous_close: None, value: 0.0 })
    }

    /// The period `n`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Atr::new(14)?.period(), 14);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn period(&self) -> usize {
        self.period
    }
}

/// The true range of a bar given the previous close (TA-Lib's `TRANGE`).
///
/// ```
/// use strikeline_quant::indicators::true_range;
/// assert_eq!(true_range(12.0, 10.0, 9.0), 3.0);  // gap up: high − previous close
/// assert_eq!(true_range(12.0, 10.0, 11.0), 2.0); // inside: high − low
/// ```
#[must_use]
#[inline]
pub fn true_range(high: f64, low: f64, previous_close: f64) -> f64 {
    (high - low).max((previous_close - high).abs()).max((previous_close - low).abs())
}

impl<T: High + Low + Close> Next<&T> for Atr {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, bar: &T) -> Option<f64> {
        let previous_close = self.previous_close.replace(bar.close())?;
        let range = true_range(bar.high(), bar.low(), previous_close);
        if self.count >= self.period {
            self.value = self.value * self.decay + range * self.inv_n;
            return Some(self.value);
        }
        self.value += range;
        self.count += 1;
        if self.count == self.period {
            self.value *= self.inv_n;
            Some(self.value)
        } else {
            None
        }
    }
}

impl Reset for Atr {
    fn reset(&mut self) {
        self.count = 0;
        self.previous_close = None;
        self.value = 0.0;
    }
}

impl fmt::Display for Atr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ATR({})", self.period)
    }
}
