use std::fmt;

use super::ema::Ema;
use super::{Close, Next, Reset, period};
use crate::error::InputError;

/// One MACD value: the MACD line, its signal line and their difference.
///
/// ```
/// use strikeline_quant::indicators::{Macd, Next};
/// let mut macd = Macd::new(3, 6, 3)?;
/// let v = (0..20).map(|i| macd.next(f64::from(i))).last().flatten().unwrap();
/// // On a straight line an n-EMA lags by (n−1)/2 inputs: MACD = (6−3)/2 = 1.5, and the
/// // signal line has caught up with it.
/// assert!((v.macd - 1.5).abs() < 1e-9 && v.histogram.abs() < 1e-9);
/// assert_eq!(v.histogram, v.macd - v.signal);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MacdOutput {
    /// `EMA_fast − EMA_slow`.
    pub macd: f64,
    /// EMA of the MACD line over the signal period.
    pub signal: f64,
    /// `macd − signal`.
    pub histogram: f64,
}

/// Moving average convergence/divergence, TA-Lib's `MACD(fast, slow, signal)`.
///
/// `macd = EMA_fast(x) − EMA_slow(x)`, `signal = EMA_signal(macd)`,
/// `histogram = macd − signal`, each EMA with `α = 2/(n+1)`. Seeding follows TA-Lib:
/// both price EMAs start at input `slow−1`, the slow one seeded with the mean of the first
/// `slow` inputs and the fast one with the mean of the last `fast` of those; the signal
/// EMA is seeded with the mean of the first `signal` MACD values. The first output is at
/// input `slow + signal − 2` (33 for 12/26/9). If `slow < fast` they are swapped, as
/// TA-Lib does.
///
/// ```
/// use strikeline_quant::indicators::{Macd, Next};
/// let mut macd = Macd::new(12, 26, 9)?;
/// let closes: Vec<f64> = (0..40).map(|i| 100.0 + f64::from(i)).collect();
/// let out: Vec<_> = closes.iter().map(|&c| macd.next(c)).collect();
/// assert!(out[..33].iter().all(Option::is_none));
/// // On a straight line every EMA lags by the same amount: 12-EMA − 26-EMA = (26−12)/2 = 7.
/// assert!((out[39].unwrap().macd - 7.0).abs() < 1e-9);
/// assert_eq!(macd.to_string(), "MACD(12, 26, 9)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Macd {
    fast: usize,
    slow: usize,
    signal_period: usize,
    fast_alpha: f64,
    slow_alpha: f64,
    /// Inputs before the price EMAs are seeded.
    warmup: Vec<f64>,
    fast_ema: f64,
    slow_ema: f64,
    signal: Ema,
}

impl Macd {
    /// MACD with the given periods (all `≥ 1`); the classic setting is `(12, 26, 9)`.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Macd::new(12, 26, 0).is_err());
    /// ```
    pub fn new(fast: usize, slow: usize, signal: usize) -> Result<Self, InputError> {
        let (fast, slow) = (period(fast)?, period(slow)?);
        let (fast, slow) = if slow < fast { (slow, fast) } else { (fast, slow) };
        Ok(Macd {
            fast,
            slow,
            signal_period: signal,
            fast_alpha: 2.0 / (fast as f64 + 1.0),
            slow_alpha: 2.0 / (slow as f64 + 1.0),
            warmup: Vec::with_capacity(slow),
            fast_ema: 0.0,
            slow_ema: 0.0,
            signal: Ema::new(signal)?,
        })
    }

    /// `(fast, slow, signal)` periods.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Macd::new(26, 12, 9)?.periods(), (12, 26, 9));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn periods(&self) -> (usize, usize, usize) {
        (self.fast, self.slow, self.signal_period)
    }
}

impl Default for Macd {
    /// `MACD(12, 26, 9)`.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::Macd::default().periods(), (12, 26, 9));
    /// ```
    fn default() -> Self {
        Macd {
            fast: 12,
            slow: 26,
            signal_period: 9,
            fast_alpha: 2.0 / 13.0,
            slow_alpha: 2.0 / 27.0,
            warmup: Vec::with_capacity(26),
            fast_ema: 0.0,
            slow_ema: 0.0,
            signal: Ema { period: 9, alpha: 0.2, count: 0, value: 0.0 },
        }
    }
}

impl Next<f64> for Macd {
    type Output = Option<MacdOutput>;
    #[inline]
    fn next(&mut self, input: f64) -> Option<MacdOutput> {
        if self.warmup.len() < self.slow {
            self.warmup.push(input);
            if self.warmup.len() < self.slow {
                return None;
            }
            let mut slow_total = 0.0;
            for &x in &self.warmup {
                slow_total += x;
            }
            let mut fast_total = 0.0;
            for &x in &self.warmup[self.slow - self.fast..] {
                fast_total += x;
            }
            self.slow_ema = slow_total / self.slow as f64;
            self.fast_ema = fast_total / self.fast as f64;
        } else {
            self.fast_ema = (input - self.fast_ema) * self.fast_alpha + self.fast_ema;
            self.slow_ema = (input - self.slow_ema) * self.slow_alpha + self.slow_ema;
        }
        let macd = self.fast_ema - self.slow_ema;
        self.signal.next(macd).map(|signal| MacdOutput { macd, signal, histogram: macd - signal })
    }
}
close_input!(Macd);

impl Reset for Macd {
    fn reset(&mut self) {
        self.warmup.clear();
        self.fast_ema = 0.0;
        self.slow_ema = 0.0;
        self.signal.reset();
    }
}

impl fmt::Display for Macd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MACD({}, {}, {})", self.fast, self.slow, self.signal_period)
    }
}
