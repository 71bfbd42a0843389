use std::fmt;

use super::window::Window;
use super::{Close, Next, Reset, TA_EPSILON, period};
use crate::error::{Field, InputError, positive};

/// One set of Bollinger bands.
///
/// ```
/// use strikeline_quant::indicators::{Bollinger, Next};
/// let mut bb = Bollinger::new(8, 2.0)?;
/// // The textbook population example: mean 5, standard deviation 2.
/// let inputs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
/// let b = inputs.into_iter().map(|x| bb.next(x)).last().flatten().unwrap();
/// assert!((b.middle - 5.0).abs() < 1e-12);
/// assert!((b.upper - 9.0).abs() < 1e-12 && (b.lower - 1.0).abs() < 1e-12);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BollingerOutput {
    /// `middle + k·σ`.
    pub upper: f64,
    /// The `n`-period SMA.
    pub middle: f64,
    /// `middle − k·σ`.
    pub lower: f64,
}

/// Bollinger bands, TA-Lib's `BBANDS(n, k, k, SMA)`: `middle = SMA_n`,
/// `upper/lower = middle ± k·σ` with `σ` the **population** standard deviation of the
/// last `n` inputs, `σ² = (1/n)·Σ(x_i − mean)²`, and, as in TA-Lib, `σ = 0` when `σ²` is
/// below `1e-8`.
///
/// The middle band is TA-Lib's running-total SMA, bit for bit. The variance is kept in
/// O(1) per input from running sums of deviations from a shift `c`,
/// `σ² = Σ(x−c)²/n − (Σ(x−c)/n)²`, with `c` moved to the window mean (and the sums
/// recomputed from the window) every `n` inputs, so that the subtraction never loses
/// precision even when prices drift far from where they started. TA-Lib 0.6 also
/// computes σ accurately; the two agree to about 1e-13 relative.
///
/// ```
/// use strikeline_quant::indicators::{Bollinger, Next};
/// let mut bb = Bollinger::new(4, 2.0)?;
/// let out: Vec<_> = [2.0, 4.0, 4.0, 6.0].into_iter().map(|x| bb.next(x)).collect();
/// let last = out[3].unwrap();
/// // mean 4, population variance (4+0+0+4)/4 = 2
/// assert!((last.middle - 4.0).abs() < 1e-12);
/// assert!((last.upper - (4.0 + 2.0 * 2f64.sqrt())).abs() < 1e-12);
/// assert_eq!(bb.to_string(), "BB(4, 2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Bollinger {
    window: Window,
    /// Running total for the SMA middle band (TA-Lib's arithmetic).
    total: f64,
    /// Shift `c` and the sums of `x − c` and `(x − c)²` over the window.
    shift: f64,
    shifted_total: f64,
    shifted_squares: f64,
    multiplier: f64,
    inv_n: f64,
}

impl Bollinger {
    /// Bands over `period ≥ 1` inputs, `multiplier` (`k > 0`) standard deviations wide;
    /// the classic setting is `(20, 2.0)`.
    ///
    /// ```
    /// use strikeline_quant::indicators::Bollinger;
    /// assert!(Bollinger::new(20, 2.0).is_ok());
    /// assert!(Bollinger::new(0, 2.0).is_err());
    /// assert!(Bollinger::new(20, f64::NAN).is_err());
    /// ```
    pub fn new(period_len: usize, multiplier: f64) -> Result<Self, InputError> {
        Ok(Bollinger::with(period(period_len)?, positive(Field::Multiplier, multiplier)?))
    }

    pub(super) fn with(period: usize, multiplier: f64) -> Self {
        Bollinger {
            window: Window::new(period),
            total: 0.0,
            shift: 0.0,
            shifted_total: 0.0,
            shifted_squares: 0.0,
            multiplier,
            inv_n: 1.0 / period as f64,
        }
    }

    /// `(period, multiplier)`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Bollinger::new(20, 2.0)?.parameters(), (20, 2.0));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn parameters(&self) -> (usize, f64) {
        (self.window.capacity(), self.multiplier)
    }
}

impl Next<f64> for Bollinger {
    type Output = Option<BollingerOutput>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<BollingerOutput> {
        if self.window.len == 0 {
            self.shift = input;
        }
        self.total += input;
        let deviation = input - self.shift;
        self.shifted_total += deviation;
        self.shifted_squares += deviation * deviation;
        if let Some(old) = self.window.push(input) {
            let old = old - self.shift;
            self.shifted_total -= old;
            self.shifted_squares -= old * old;
        }
        if !self.window.is_full() {
            return None;
        }
        if self.window.head == 0 {
            self.recenter();
        }
        let middle = self.total * self.inv_n;
        self.total -= self.window.oldest();
        let mean_deviation = self.shifted_total * self.inv_n;
        let variance = self.shifted_squares * self.inv_n - mean_deviation * mean_deviation;
        let deviation = if variance < TA_EPSILON { 0.0 } else { variance.sqrt() };
        let width = self.multiplier * deviation;
        Some(BollingerOutput { upper: middle + width, middle, lower: middle - width })
    }
}
close_input!(Bollinger);

impl Bollinger {
    /// Moves the shift to the window's mean and recomputes the shifted sums exactly.
    fn recenter(&mut self) {
        self.shift += self.shifted_total * self.inv_n;
        let (mut total, mut squares) = (0.0, 0.0);
        for &x in &self.window.values {
            let d = x - self.shift;
            total += d;
            squares += d * d;
        }
        self.shifted_total = total;
        self.shifted_squares = squares;
    }
}

impl Reset for Bollinger {
    fn reset(&mut self) {
        self.window.clear();
        self.total = 0.0;
        self.shift = 0.0;
        self.shifted_total = 0.0;
        self.shifted_squares = 0.0;
    }
}

impl fmt::Display for Bollinger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BB({}, {})", self.window.capacity(), self.multiplier)
    }
}
