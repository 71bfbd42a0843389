use std::fmt;

use super::{Close, Next, Reset, period};
use crate::error::InputError;

/// Exponential moving average with `α = 2/(n+1)`:
/// `EMA_t = EMA_{t−1} + α·(x_t − EMA_{t−1})`, seeded (as TA-Lib does) with the simple
/// mean of the first `n` inputs, so the first value is at input `n−1`.
///
/// ```
/// use strikeline_quant::indicators::{Ema, Next};
/// let mut ema = Ema::new(3)?;
/// let out: Vec<_> = [2.0, 4.0, 6.0, 8.0].into_iter().map(|x| ema.next(x)).collect();
/// // seed = (2+4+6)/3 = 4, then 4 + 0.5·(8 − 4) = 6
/// assert_eq!(out, [None, None, Some(4.0), Some(6.0)]);
/// assert_eq!(ema.to_string(), "EMA(3)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Ema {
    pub(super) period: usize,
    pub(super) alpha: f64,
    pub(super) count: usize,
    /// Running sum during the seed, then the EMA.
    pub(super) value: f64,
}

impl Ema {
    /// An EMA over `period ≥ 1` inputs.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Ema::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        let period = period(period_len)?;
        Ok(Ema { period, alpha: 2.0 / (period as f64 + 1.0), count: 0, value: 0.0 })
    }

    /// The period `n`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Ema::new(9)?.period(), 9);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn period(&self) -> usize {
        self.period
    }

    /// The smoothing factor `α = 2/(n+1)`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Ema::new(3)?.alpha(), 0.5);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl Next<f64> for Ema {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        if self.count >= self.period {
            self.value = (input - self.value) * self.alpha + self.value;
            return Some(self.value);
        }
        self.count += 1;
        self.value += input;
        if self.count == self.period {
            self.value /= self.period as f64;
            Some(self.value)
        } else {
            None
        }
    }
}
close_input!(Ema);

impl Reset for Ema {
    fn reset(&mut self) {
        self.count = 0;
        self.value = 0.0;
    }
}

impl fmt::Display for Ema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EMA({})", self.period)
    }
}
