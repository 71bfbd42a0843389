use std::fmt;

use super::sma::Sma;
use super::{Next, Reset, Volume};
use crate::error::InputError;

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
