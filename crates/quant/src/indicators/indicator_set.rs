use std::fmt;

use super::{Atr, Bollinger, BollingerOutput, Close, Ema, High, Low, Macd, MacdOutput, Next, Reset, Rsi};

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
            rsi: Rsi { period: 14, inv_n: 1.0 / 14.0, decay: 13.0 / 14.0, count: 0, previous: None, gain: 0.0, loss: 0.0 },
            ema: Ema { period: 20, alpha: 2.0 / 21.0, count: 0, value: 0.0 },
            bollinger: Bollinger::with(20, 2.0),
            macd: Macd::default(),
            atr: Atr { period: 14, inv_n: 1.0 / 14.0, decay: 13.0 / 14.0, count: 0, previous_close: None, value: 0.0 },
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
        assert_eq!(bars.len(), out.len(), "compute_into: output slice length must equal the number of bars");
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
        write!(f, "{}, {}, {}, {}, {}", self.rsi, self.ema, self.bollinger, self.macd, self.atr)
    }
}
