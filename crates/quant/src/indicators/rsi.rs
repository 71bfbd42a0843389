use std::fmt;

use super::{Close, Next, Reset, TA_EPSILON, period};
use crate::error::InputError;

/// Wilder's relative strength index.
///
/// With changes `Δ_t = x_t − x_{t−1}`, gains `G_t = max(Δ_t, 0)` and losses
/// `L_t = max(−Δ_t, 0)`: the first averages are the simple means of the first `n` gains
/// and losses (available at input `n`), then Wilder's smoothing
/// `AG_t = (AG_{t−1}·(n−1) + G_t)/n` (likewise `AL`), and
/// `RSI = 100·AG/(AG + AL)`. As in TA-Lib, when `AG + AL` is below `1e-8` the RSI is 0.
///
/// ```
/// use strikeline_quant::indicators::{Next, Rsi};
/// let mut rsi = Rsi::new(2)?;
/// assert_eq!(rsi.next(10.0), None);
/// assert_eq!(rsi.next(11.0), None);
/// assert_eq!(rsi.next(10.0), Some(50.0)); // one gain of 1, one loss of 1
/// assert_eq!(rsi.to_string(), "RSI(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Rsi {
    pub(super) period: usize,
    /// `1/n` and `(n−1)/n`: Wilder's smoothing as two multiplications.
    pub(super) inv_n: f64,
    pub(super) decay: f64,
    /// Changes seen so far (saturates at `period`).
    pub(super) count: usize,
    pub(super) previous: Option<f64>,
    pub(super) gain: f64,
    pub(super) loss: f64,
}

impl Rsi {
    /// An RSI over `period ≥ 1` changes (Wilder used 14).
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Rsi::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        let period = period(period_len)?;
        let n = period as f64;
        Ok(Rsi { period, inv_n: 1.0 / n, decay: (n - 1.0) / n, count: 0, previous: None, gain: 0.0, loss: 0.0 })
    }

    /// The period `n`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Rsi::new(14)?.period(), 14);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn period(&self) -> usize {
        self.period
    }

    #[inline]
    fn value(&self) -> f64 {
        let total = self.gain + self.loss;
        if total > -TA_EPSILON && total < TA_EPSILON { 0.0 } else { 100.0 * (self.gain / total) }
    }
}

impl Next<f64> for Rsi {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        let previous = self.previous.replace(input)?;
        let change = input - previous;
        // Branch-free: a random walk would mispredict "gain or loss?" half the time.
        let gain = change.max(0.0);
        let loss = (-change).max(0.0);
        if self.count >= self.period {
            self.gain = self.gain * self.decay + gain * self.inv_n;
            self.loss = self.loss * self.decay + loss * self.inv_n;
            return Some(self.value());
        }
        self.gain += gain;
        self.loss += loss;
        self.count += 1;
        if self.count == self.period {
            self.gain *= self.inv_n;
            self.loss *= self.inv_n;
            Some(self.value())
        } else {
            None
        }
    }
}
close_input!(Rsi);

impl Reset for Rsi {
    fn reset(&mut self) {
        self.count = 0;
        self.previous = None;
        self.gain = 0.0;
        self.loss = 0.0;
    }
}

impl fmt::Display for Rsi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RSI({})", self.period)
    }
}
