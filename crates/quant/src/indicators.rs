//! Technical indicators as streaming state machines.
//!
//! Every indicator implements [`Next`] (feed one input, get the value at that bar) and
//! [`Reset`] (start over). The live engine and the backtester feed the same code one
//! bar at a time, so an indicator can never see a bar it has not been given: a backtest
//! cannot peek ahead. Constructors validate the parameters (a period of 0 is an error);
//! `next` is infallible.
//!
//! Values follow TA-Lib's conventions exactly, seeding included, and are `None` during
//! TA-Lib's lookback (the bars for which TA-Lib produces no output):
//!
//! | indicator | TA-Lib | first value at bar (0-based) |
//! |---|---|---|
//! | [`Sma`]`(n)` | `SMA` | `n−1` |
//! | [`Ema`]`(n)` | `EMA` (seeded with the SMA of the first `n` inputs) | `n−1` |
//! | [`Rsi`]`(n)` | `RSI` (Wilder, seeded with simple means of the first `n` changes) | `n` |
//! | [`Macd`]`(12, 26, 9)` | `MACD` | `slow + signal − 2` (33) |
//! | [`Bollinger`]`(20, 2)` | `BBANDS` with an SMA middle band | `n−1` |
//! | [`Atr`]`(n)` | `ATR` (Wilder, seeded with the simple mean of the first `n` true ranges) | `n` |
//! | [`HighestHigh`]`(n)`, [`LowestLow`]`(n)` | `MAX(high)`, `MIN(low)` | `n−1` |
//! | [`VolumeAverage`]`(n)` | `SMA(volume)` | `n−1` |
//! | [`HistoricalVolatility`]`(n)` | (none) | `n` |
//! | [`IvRank`]`(n)`, [`IvPercentile`]`(n)` | (none) | `n−1` |
//!
//! TA-Lib's arithmetic is followed closely (running sums, the order of additions, and
//! TA-Lib's `1e-8` zero tests in RSI and Bollinger), so results agree with TA-Lib 0.6 to
//! the last bit or two, not just to a tolerance: SMA, EMA, MACD and the rolling extremes
//! are bit-identical on the reference series in the tests; RSI, ATR and Bollinger agree
//! within a few 1e-15 relative, because Wilder's smoothing is computed as
//! `AG·((n−1)/n) + G·(1/n)` (two multiplications, no division on the critical path) and
//! Bollinger's deviation more accurately (see [`Bollinger`]).
//!
//! ```
//! use strikeline_quant::indicators::{Bar, Next, Reset, Rsi};
//! let mut rsi = Rsi::new(14)?;
//! let closes = [44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.10, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28];
//! let values: Vec<Option<f64>> = closes.iter().map(|&c| rsi.next(c)).collect();
//! assert!(values[..14].iter().all(Option::is_none));
//! // The classic RSI example series: TA-Lib's RSI(14) gives 70.46413502 on the 15th close.
//! assert!((values[14].unwrap() - 70.46413502).abs() < 1e-8);
//! rsi.reset();
//! assert_eq!(rsi.next(&Bar::from_close(44.34)), None);
//! # Ok::<(), strikeline_quant::InputError>(())
//! ```

use std::fmt;

use crate::error::{Field, InputError, at_least, positive};

/// One OHLCV bar (a day, an hour, …). Time is not part of it: the caller owns the
/// calendar and feeds bars in order.
///
/// ```
/// use strikeline_quant::Bar;
/// let bar = Bar { open: 10.0, high: 11.0, low: 9.5, close: 10.5, volume: 1_000.0 };
/// assert_eq!(Bar::from_close(10.5).close, bar.close);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bar {
    /// First trade price.
    pub open: f64,
    /// Highest trade price.
    pub high: f64,
    /// Lowest trade price.
    pub low: f64,
    /// Last trade price.
    pub close: f64,
    /// Shares (or contracts) traded.
    pub volume: f64,
}

impl Bar {
    /// A bar whose open, high, low and close are all `close`, with zero volume (for
    /// close-only series).
    ///
    /// ```
    /// let bar = strikeline_quant::Bar::from_close(3.0);
    /// assert_eq!((bar.open, bar.high, bar.low, bar.close, bar.volume), (3.0, 3.0, 3.0, 3.0, 0.0));
    /// ```
    #[must_use]
    pub fn from_close(close: f64) -> Self {
        Bar {
            open: close,
            high: close,
            low: close,
            close,
            volume: 0.0,
        }
    }
}

/// Feeds one input to a streaming indicator and returns its value at that input.
///
/// ```
/// use strikeline_quant::indicators::{Next, Sma};
/// let mut sma = Sma::new(2)?;
/// assert_eq!(sma.next(1.0), None);
/// assert_eq!(sma.next(3.0), Some(2.0));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub trait Next<T> {
    /// The value produced for each input.
    type Output;
    /// Consumes the next input.
    fn next(&mut self, input: T) -> Self::Output;
}

/// Returns an indicator to its freshly constructed state.
///
/// ```
/// use strikeline_quant::indicators::{Ema, Next, Reset};
/// let mut ema = Ema::new(1)?;
/// ema.next(5.0);
/// ema.reset();
/// assert_eq!(ema.next(7.0), Some(7.0));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub trait Reset {
    /// Forgets every input seen so far.
    fn reset(&mut self);
}

/// Access to a bar's open.
///
/// ```
/// use strikeline_quant::indicators::{Bar, Open};
/// assert_eq!(Bar { open: 1.0, ..Bar::default() }.open(), 1.0);
/// ```
pub trait Open {
    /// The opening price.
    fn open(&self) -> f64;
}
/// Access to a bar's high.
///
/// ```
/// use strikeline_quant::indicators::{Bar, High};
/// assert_eq!(Bar { high: 2.0, ..Bar::default() }.high(), 2.0);
/// ```
pub trait High {
    /// The highest price.
    fn high(&self) -> f64;
}
/// Access to a bar's low.
///
/// ```
/// use strikeline_quant::indicators::{Bar, Low};
/// assert_eq!(Bar { low: 0.5, ..Bar::default() }.low(), 0.5);
/// ```
pub trait Low {
    /// The lowest price.
    fn low(&self) -> f64;
}
/// Access to a bar's close.
///
/// ```
/// use strikeline_quant::indicators::{Bar, Close};
/// assert_eq!(Bar::from_close(4.0).close(), 4.0);
/// ```
pub trait Close {
    /// The closing price.
    fn close(&self) -> f64;
}
/// Access to a bar's volume.
///
/// ```
/// use strikeline_quant::indicators::{Bar, Volume};
/// assert_eq!(Bar { volume: 9.0, ..Bar::default() }.volume(), 9.0);
/// ```
pub trait Volume {
    /// The volume traded.
    fn volume(&self) -> f64;
}

impl Open for Bar {
    fn open(&self) -> f64 {
        self.open
    }
}
impl High for Bar {
    fn high(&self) -> f64 {
        self.high
    }
}
impl Low for Bar {
    fn low(&self) -> f64 {
        self.low
    }
}
impl Close for Bar {
    fn close(&self) -> f64 {
        self.close
    }
}
impl Volume for Bar {
    fn volume(&self) -> f64 {
        self.volume
    }
}

/// TA-Lib's `TA_IS_ZERO`.
const TA_EPSILON: f64 = 0.000_000_01;

fn period(value: usize) -> Result<usize, InputError> {
    at_least(Field::Period, value, 1)
}

/// Fixed-capacity ring buffer holding the last `capacity` values.
#[derive(Debug, Clone)]
struct Window {
    values: Vec<f64>,
    /// Where the next value goes (also the oldest value once full).
    head: usize,
    len: usize,
}

impl Window {
    fn new(capacity: usize) -> Self {
        Window {
            values: vec![0.0; capacity],
            head: 0,
            len: 0,
        }
    }

    fn capacity(&self) -> usize {
        self.values.len()
    }

    fn is_full(&self) -> bool {
        self.len == self.values.len()
    }

    /// Stores `value`; returns the value it replaced when the window was already full.
    #[inline]
    fn push(&mut self, value: f64) -> Option<f64> {
        let old = self.values[self.head];
        self.values[self.head] = value;
        self.head += 1;
        if self.head == self.values.len() {
            self.head = 0;
        }
        if self.len == self.values.len() {
            Some(old)
        } else {
            self.len += 1;
            None
        }
    }

    /// The oldest value (valid when full).
    #[inline]
    fn oldest(&self) -> f64 {
        self.values[self.head]
    }

    fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}

macro_rules! close_input {
    ($ty:ty) => {
        impl<T: Close> Next<&T> for $ty {
            type Output = <$ty as Next<f64>>::Output;
            #[inline]
            fn next(&mut self, input: &T) -> Self::Output {
                Next::<f64>::next(self, input.close())
            }
        }
    };
}

// ---------------------------------------------------------------------------------------
// SMA
// ---------------------------------------------------------------------------------------

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
        Ok(Sma {
            window: Window::new(period(period_len)?),
            total: 0.0,
        })
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

// ---------------------------------------------------------------------------------------
// EMA
// ---------------------------------------------------------------------------------------

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
    period: usize,
    alpha: f64,
    count: usize,
    /// Running sum during the seed, then the EMA.
    value: f64,
}

impl Ema {
    /// An EMA over `period ≥ 1` inputs.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::Ema::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        let period = period(period_len)?;
        Ok(Ema {
            period,
            alpha: 2.0 / (period as f64 + 1.0),
            count: 0,
            value: 0.0,
        })
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

// ---------------------------------------------------------------------------------------
// RSI
// ---------------------------------------------------------------------------------------

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
    period: usize,
    /// `1/n` and `(n−1)/n`: Wilder's smoothing as two multiplications.
    inv_n: f64,
    decay: f64,
    /// Changes seen so far (saturates at `period`).
    count: usize,
    previous: Option<f64>,
    gain: f64,
    loss: f64,
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
        Ok(Rsi {
            period,
            inv_n: 1.0 / n,
            decay: (n - 1.0) / n,
            count: 0,
            previous: None,
            gain: 0.0,
            loss: 0.0,
        })
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
        if total > -TA_EPSILON && total < TA_EPSILON {
            0.0
        } else {
            100.0 * (self.gain / total)
        }
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

// ---------------------------------------------------------------------------------------
// MACD
// ---------------------------------------------------------------------------------------

/// One MACD value: the MACD line, its signal line and their difference.
///
/// ```
/// let v = strikeline_quant::indicators::MacdOutput { macd: 1.0, signal: 0.75, histogram: 0.25 };
/// assert_eq!(v.macd - v.signal, v.histogram);
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
        let (fast, slow) = if slow < fast {
            (slow, fast)
        } else {
            (fast, slow)
        };
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
            signal: Ema {
                period: 9,
                alpha: 0.2,
                count: 0,
                value: 0.0,
            },
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
        self.signal.next(macd).map(|signal| MacdOutput {
            macd,
            signal,
            histogram: macd - signal,
        })
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
        write!(
            f,
            "MACD({}, {}, {})",
            self.fast, self.slow, self.signal_period
        )
    }
}

// ---------------------------------------------------------------------------------------
// Bollinger bands
// ---------------------------------------------------------------------------------------

/// One set of Bollinger bands.
///
/// ```
/// let b = strikeline_quant::indicators::BollingerOutput { upper: 12.0, middle: 10.0, lower: 8.0 };
/// assert_eq!(b.upper - b.middle, b.middle - b.lower);
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
        Ok(Bollinger::with(
            period(period_len)?,
            positive(Field::Multiplier, multiplier)?,
        ))
    }

    fn with(period: usize, multiplier: f64) -> Self {
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
        let deviation = if variance < TA_EPSILON {
            0.0
        } else {
            variance.sqrt()
        };
        let width = self.multiplier * deviation;
        Some(BollingerOutput {
            upper: middle + width,
            middle,
            lower: middle - width,
        })
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

// ---------------------------------------------------------------------------------------
// ATR
// ---------------------------------------------------------------------------------------

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
    period: usize,
    inv_n: f64,
    decay: f64,
    count: usize,
    previous_close: Option<f64>,
    /// Sum of true ranges during the seed, then the ATR.
    value: f64,
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
        Ok(Atr {
            period,
            inv_n: 1.0 / n,
            decay: (n - 1.0) / n,
            count: 0,
            previous_close: None,
            value: 0.0,
        })
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
    (high - low)
        .max((previous_close - high).abs())
        .max((previous_close - low).abs())
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

// ---------------------------------------------------------------------------------------
// Rolling extremes
// ---------------------------------------------------------------------------------------

/// Rolling maximum over a window, shared by [`HighestHigh`] and [`LowestLow`].
#[derive(Debug, Clone)]
struct Extreme {
    window: Window,
    /// Index (0..capacity) of the current extreme in the window storage.
    best: usize,
    best_value: f64,
    /// `+1` for a maximum, `−1` for a minimum (values are compared after multiplying).
    sign: f64,
}

impl Extreme {
    fn new(capacity: usize, sign: f64) -> Self {
        Extreme {
            window: Window::new(capacity),
            best: 0,
            best_value: f64::NEG_INFINITY,
            sign,
        }
    }

    #[inline]
    fn next(&mut self, input: f64) -> Option<f64> {
        let slot = self.window.head;
        let keyed = self.sign * input;
        self.window.push(input);
        if keyed >= self.best_value {
            self.best = slot;
            self.best_value = keyed;
        } else if slot == self.best {
            // The extreme just left the window: rescan.
            self.rescan();
        }
        self.window.is_full().then_some(self.sign * self.best_value)
    }

    fn rescan(&mut self) {
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, &v) in self.window.values[..self.window.len].iter().enumerate() {
            let keyed = self.sign * v;
            if keyed > best_value {
                best = i;
                best_value = keyed;
            }
        }
        self.best = best;
        self.best_value = best_value;
    }

    fn reset(&mut self) {
        self.window.clear();
        self.best = 0;
        self.best_value = f64::NEG_INFINITY;
    }
}

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
pub struct HighestHigh(Extreme);

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
pub struct LowestLow(Extreme);

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

// ---------------------------------------------------------------------------------------
// Volume average
// ---------------------------------------------------------------------------------------

/// Simple moving average of volume over the last `n` bars (TA-Lib's `SMA(volume, n)`).
///
/// ```
/// use strikeline_quant::indicators::{Bar, Next, VolumeAverage};
/// let mut avg = VolumeAverage::new(2)?;
/// let bar = |volume| Bar { volume, ..Bar::default() };
/// assert_eq!(avg.next(&bar(100.0)), None);
/// assert_eq!(avg.next(&bar(300.0)), Some(200.0));
/// assert_eq!(avg.to_string(), "VOLUME_AVG(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VolumeAverage(Sma);

impl VolumeAverage {
    /// Over `period ≥ 1` bars.
    ///
    /// ```
    /// assert!(strikeline_quant::indicators::VolumeAverage::new(0).is_err());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(VolumeAverage(Sma::new(period_len)?))
    }
}

impl<T: Volume> Next<&T> for VolumeAverage {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, input: &T) -> Option<f64> {
        self.0.next(input.volume())
    }
}

impl Next<f64> for VolumeAverage {
    type Output = Option<f64>;
    #[inline]
    fn next(&mut self, volume: f64) -> Option<f64> {
        self.0.next(volume)
    }
}

impl Reset for VolumeAverage {
    fn reset(&mut self) {
        self.0.reset();
    }
}

impl fmt::Display for VolumeAverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VOLUME_AVG({})", self.0.period())
    }
}

// ---------------------------------------------------------------------------------------
// Historical volatility
// ---------------------------------------------------------------------------------------

/// Trading days per year used to annualise daily figures.
///
/// ```
/// assert_eq!(strikeline_quant::indicators::TRADING_DAYS_PER_YEAR, 252.0);
/// ```
pub const TRADING_DAYS_PER_YEAR: f64 = 252.0;

/// Close-to-close historical volatility, annualised:
/// `HV = √252 · s`, where `s` is the **sample** standard deviation (divisor `n−1`) of the
/// last `n` log returns `r_t = ln(x_t / x_{t−1})`. The first value is at input `n` (it
/// needs `n+1` closes). Computed two-pass over the window (mean first, then squared
/// deviations) for accuracy.
///
/// ```
/// use strikeline_quant::indicators::{HistoricalVolatility, Next};
/// let mut hv = HistoricalVolatility::new(2)?;
/// let e = std::f64::consts::E;
/// assert_eq!(hv.next(1.0), None);
/// assert_eq!(hv.next(e), None);
/// // log returns 1 and −1: mean 0, sample variance 2
/// let v = hv.next(1.0).unwrap();
/// assert!((v - (2.0f64 * 252.0).sqrt()).abs() < 1e-12);
/// assert_eq!(hv.to_string(), "HV(2)");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone)]
pub struct HistoricalVolatility {
    returns: Window,
    previous: Option<f64>,
}

impl HistoricalVolatility {
    /// Over `period ≥ 2` log returns (a sample standard deviation needs two).
    ///
    /// ```
    /// use strikeline_quant::indicators::HistoricalVolatility;
    /// assert!(HistoricalVolatility::new(1).is_err());
    /// assert!(HistoricalVolatility::new(20).is_ok());
    /// ```
    pub fn new(period_len: usize) -> Result<Self, InputError> {
        Ok(HistoricalVolatility {
            returns: Window::new(at_least(Field::Period, period_len, 2)?),
            previous: None,
        })
    }
}

impl Next<f64> for HistoricalVolatility {
    type Output = Option<f64>;
    fn next(&mut self, input: f64) -> Option<f64> {
        let previous = self.previous.replace(input)?;
        self.returns.push((input / previous).ln());
        if !self.returns.is_full() {
            return None;
        }
        let n = self.returns.capacity() as f64;
        let mean = self.returns.values.iter().sum::<f64>() / n;
        let squares: f64 = self
            .returns
            .values
            .iter()
            .map(|r| (r - mean) * (r - mean))
            .sum();
        Some((squares / (n - 1.0)).sqrt() * TRADING_DAYS_PER_YEAR.sqrt())
    }
}
close_input!(HistoricalVolatility);

impl Reset for HistoricalVolatility {
    fn reset(&mut self) {
        self.returns.clear();
        self.previous = None;
    }
}

impl fmt::Display for HistoricalVolatility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HV({})", self.returns.capacity())
    }
}

// ---------------------------------------------------------------------------------------
// IV rank and percentile
// ---------------------------------------------------------------------------------------

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
        Ok(IvRank {
            high: HighestHigh::new(period_len)?,
            low: LowestLow::new(period_len)?,
        })
    }
}

impl Default for IvRank {
    /// Over 252 observations (one year of trading days).
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::IvRank::default().to_string(), "IV_RANK(252)");
    /// ```
    fn default() -> Self {
        IvRank {
            high: HighestHigh(Extreme::new(252, 1.0)),
            low: LowestLow(Extreme::new(252, -1.0)),
        }
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
        Ok(IvPercentile {
            window: Window::new(at_least(Field::Period, period_len, 2)?),
        })
    }
}

impl Default for IvPercentile {
    /// Over 252 observations (one year of trading days).
    ///
    /// ```
    /// assert_eq!(strikeline_quant::indicators::IvPercentile::default().to_string(), "IV_PERCENTILE(252)");
    /// ```
    fn default() -> Self {
        IvPercentile {
            window: Window::new(252),
        }
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

// ---------------------------------------------------------------------------------------
// A standard set, in one pass
// ---------------------------------------------------------------------------------------

/// The values of an [`IndicatorSet`] at one bar.
///
/// ```
/// let v = strikeline_quant::indicators::IndicatorValues::default();
/// assert!(v.rsi.is_none() && v.macd.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IndicatorValues {
    /// RSI of the close.
    pub rsi: Option<f64>,
    /// EMA of the close.
    pub ema: Option<f64>,
    /// Bollinger bands of the close.
    pub bollinger: Option<BollingerOutput>,
    /// MACD of the close.
    pub macd: Option<MacdOutput>,
    /// ATR of the bars.
    pub atr: Option<f64>,
}

/// RSI, EMA, Bollinger bands, MACD and ATR updated together from one bar: what a
/// signal scan needs, in one pass over the bars.
///
/// ```
/// use strikeline_quant::indicators::{Bar, IndicatorSet, IndicatorValues, Next};
/// let bars: Vec<Bar> = (0..60).map(|i| Bar::from_close(100.0 + (f64::from(i) * 0.3).sin())).collect();
/// let mut set = IndicatorSet::standard();
/// let mut out = vec![IndicatorValues::default(); bars.len()];
/// set.compute_into(&bars, &mut out);
/// assert!(out[59].rsi.is_some() && out[59].macd.is_some());
/// assert!(out[13].rsi.is_none());
/// assert_eq!(set.to_string(), "RSI(14), EMA(20), BB(20, 2), MACD(12, 26, 9), ATR(14)");
/// ```
#[derive(Debug, Clone)]
pub struct IndicatorSet {
    /// RSI of the close.
    pub rsi: Rsi,
    /// EMA of the close.
    pub ema: Ema,
    /// Bollinger bands of the close.
    pub bollinger: Bollinger,
    /// MACD of the close.
    pub macd: Macd,
    /// ATR.
    pub atr: Atr,
}

impl IndicatorSet {
    /// RSI(14), EMA(20), Bollinger(20, 2), MACD(12, 26, 9) and ATR(14).
    ///
    /// ```
    /// let set = strikeline_quant::indicators::IndicatorSet::standard();
    /// assert_eq!(set.rsi.period(), 14);
    /// ```
    #[must_use]
    pub fn standard() -> Self {
        IndicatorSet {
            rsi: Rsi {
                period: 14,
                inv_n: 1.0 / 14.0,
                decay: 13.0 / 14.0,
                count: 0,
                previous: None,
                gain: 0.0,
                loss: 0.0,
            },
            ema: Ema {
                period: 20,
                alpha: 2.0 / 21.0,
                count: 0,
                value: 0.0,
            },
            bollinger: Bollinger::with(20, 2.0),
            macd: Macd::default(),
            atr: Atr {
                period: 14,
                inv_n: 1.0 / 14.0,
                decay: 13.0 / 14.0,
                count: 0,
                previous_close: None,
                value: 0.0,
            },
        }
    }

    /// Feeds `bars` in order, writing the values at each bar into `out`
    /// (`out[i]` for `bars[i]`). The state carries on: a later call continues the series.
    ///
    /// # Panics
    /// If `out.len() != bars.len()`.
    ///
    /// ```
    /// use strikeline_quant::indicators::{Bar, IndicatorSet, IndicatorValues, Next};
    /// let bars: Vec<Bar> = (0..40).map(|i| Bar::from_close(f64::from(i))).collect();
    /// let mut batch = IndicatorSet::standard();
    /// let mut out = vec![IndicatorValues::default(); 40];
    /// batch.compute_into(&bars, &mut out);
    /// let mut streaming = IndicatorSet::standard();
    /// let last = bars.iter().map(|b| streaming.next(b)).last().unwrap();
    /// assert_eq!(out[39], last);
    /// ```
    pub fn compute_into<T: High + Low + Close>(&mut self, bars: &[T], out: &mut [IndicatorValues]) {
        assert_eq!(
            bars.len(),
            out.len(),
            "compute_into: output slice length must equal the number of bars"
        );
        for (bar, slot) in bars.iter().zip(out.iter_mut()) {
            *slot = self.next(bar);
        }
    }
}

impl<T: High + Low + Close> Next<&T> for IndicatorSet {
    type Output = IndicatorValues;
    #[inline]
    fn next(&mut self, bar: &T) -> IndicatorValues {
        let close = bar.close();
        IndicatorValues {
            rsi: self.rsi.next(close),
            ema: self.ema.next(close),
            bollinger: self.bollinger.next(close),
            macd: self.macd.next(close),
            atr: self.atr.next(bar),
        }
    }
}

impl Reset for IndicatorSet {
    fn reset(&mut self) {
        self.rsi.reset();
        self.ema.reset();
        self.bollinger.reset();
        self.macd.reset();
        self.atr.reset();
    }
}

impl fmt::Display for IndicatorSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}, {}, {}, {}",
            self.rsi, self.ema, self.bollinger, self.macd, self.atr
        )
    }
}
