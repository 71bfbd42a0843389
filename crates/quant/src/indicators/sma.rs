use std::fmt;

use super::window::Window;
use super::{Close, Next, Reset, period};
use crate::error::InputError;

/// Simple moving average of the last `n` inputs: `SMA_t = (x_{t−n+1} + … + x_t) / n`.
///
/// Like TA-Lib it keeps a running total (add the new input, divide, subtract the input
/// leaving the window), so values match TA-Lib's `SMA` bit for bit.
///
/// ```
/// use strikeline_quant::indicators::{Next, Sma};
/// let mut sma = Sma::new(3)?;
/// let out: Vec<_> = [1.0, 2.0, 3.0, 4.0].into_iter().map(|x| sma.next(x)).collect();
/// assert_eq!(out, [None, None, Some(2.0), Some(3.0)]);
/// assert_eq!(sma.to_string(), "SMA(3)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Sma {
    window: Window,
    total: f64,
}

impl Sma {
    /// A simple moving average over `period ≥ 1` inputs.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Sma::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(Sma { window: Window::new(period(period_len)?), total: 0.0 })
    }

    /// The period `n`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Sma::new(5)?.period(), 5);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn period(&self) -> usize {
        self.window.capacity()
    }
}

impl Next<f64> for Sma {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        self.total += input;
        self.window.push(input);
        if self.window.is_full() {
            let value = self.total / self.window.capacity() as f64;
            self.total -= self.window.oldest();
            Some(value)
        } else {
            None
        }
    }
}
close_input!(Sma);

impl Reset for Sma {
    fn reset(&mut self) {
        self.window.clear();
        self.total = 0.0;
    }
}

impl fmt::Display for Sma {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SMA({})", self.period())
    }
}
