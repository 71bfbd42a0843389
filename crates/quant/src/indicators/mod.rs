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

use crate::error::{Field, InputError, at_least};

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
        Bar { open: close, high: close, low: close, close, volume: 0.0 }
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

mod atr;
mod bollinger;
mod ema;
mod extreme;
mod highest_high;
mod historical_volatility;
mod indicator_set;
mod iv_percentile;
mod iv_rank;
mod lowest_low;
mod macd;
mod rsi;
mod sma;
mod volume_average;
mod window;

pub use atr::{Atr, true_range};
pub use bollinger::{Bollinger, BollingerOutput};
pub use ema::Ema;
pub use highest_high::HighestHigh;
pub use historical_volatility::{HistoricalVolatility, TRADING_DAYS_PER_YEAR};
pub use indicator_set::{IndicatorSet, IndicatorValues};
pub use iv_percentile::IvPercentile;
pub use iv_rank::IvRank;
pub use lowest_low::LowestLow;
pub use macd::{Macd, MacdOutput};
pub use rsi::Rsi;
pub use sma::Sma;
pub use volume_average::VolumeAverage;
