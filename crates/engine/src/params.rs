//! The tunable thresholds of the four strategies and of pricing and exits
//! ([`StrategyParams`]). The defaults are the documented rules of `docs/strategies.md`;
//! Premium users may send their own for backtests.

use std::fmt;

/// Every threshold the four rules, the target and stop levels and the expiration choice
/// read. [`Default`] is exactly the documented live engine (`docs/strategies.md`), and
/// [`SymbolState::new`](crate::SymbolState::new) uses it; custom values go through
/// [`SymbolState::with_params`](crate::SymbolState::with_params), which validates them.
///
/// Each condition's degree anchors move with its threshold, so the confidence keeps its
/// meaning (0.5 exactly at the threshold); `docs/strategies.md` (section 9) gives the
/// formulas.
///
/// ```
/// use strikeline_engine::StrategyParams;
/// let p = StrategyParams::default();
/// assert_eq!((p.oversold_rsi, p.overbought_rsi, p.bollinger_multiplier), (30.0, 70.0, 2.0));
/// assert_eq!((p.breakout_lookback, p.volume_multiple), (20, 1.5));
/// assert_eq!((p.target_atr, p.stop_atr), (2.0, 1.0));
/// assert_eq!((p.min_days_directional, p.min_days_straddle), (21, 30));
/// assert!(p.validate().is_ok());
///
/// let wide = StrategyParams { bollinger_multiplier: 2.5, ..StrategyParams::default() };
/// assert!(wide.validate().is_ok());
/// let bad = StrategyParams { volume_multiple: 0.8, ..StrategyParams::default() };
/// assert_eq!(bad.validate().unwrap_err().field, "volume_multiple");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrategyParams {
    /// Momentum CALL: RSI must be above this (50). The PUT zone is the mirror image,
    /// `100 − momentum_rsi_high … 100 − momentum_rsi_low` (30–50).
    pub momentum_rsi_low: f64,
    /// Momentum CALL: RSI must be below this (70); above it the move is left to Mean
    /// Reversion.
    pub momentum_rsi_high: f64,
    /// Mean Reversion CALL: RSI below this (30) is oversold.
    pub oversold_rsi: f64,
    /// Mean Reversion PUT: RSI above this (70) is overbought.
    pub overbought_rsi: f64,
    /// Bollinger bands' width in standard deviations of the 20-day close (2.0).
    pub bollinger_multiplier: f64,
    /// Breakout: bars of the prior range (20) and of the prior average volume.
    pub breakout_lookback: usize,
    /// Breakout: volume must exceed this multiple of the prior average (1.5).
    pub volume_multiple: f64,
    /// Volatility: the HV20 rank in its 252-day range must be below this (20).
    pub hv_rank_threshold: f64,
    /// Volatility: the HV20 percentile must be below this (25).
    pub hv_percentile_threshold: f64,
    /// Target: the option's value with the underlying this many ATRs in the trade's
    /// direction (2.0; for a straddle, up). Mean Reversion's target is the middle band,
    /// kept within `min(1, target_atr)` to `target_atr` ATRs.
    pub target_atr: f64,
    /// Stop of a directional trade: the option's value with the underlying this many
    /// ATRs against it (1.0).
    pub stop_atr: f64,
    /// Stop of a straddle as a fraction of its entry premium (0.5: half the premium).
    pub straddle_stop_fraction: f64,
    /// Minimum calendar days from issue to expiration of a CALL or PUT (21).
    pub min_days_directional: u32,
    /// Minimum calendar days from issue to expiration of a STRADDLE (30).
    pub min_days_straddle: u32,
}

impl Default for StrategyParams {
    /// The documented live rules.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::StrategyParams::default().hv_rank_threshold, 20.0);
    /// ```
    fn default() -> Self {
        StrategyParams::DEFAULT
    }
}

impl StrategyParams {
    /// The documented live rules, as a constant ([`Default`] returns it).
    ///
    /// ```
    /// use strikeline_engine::StrategyParams;
    /// assert_eq!(StrategyParams::DEFAULT, StrategyParams::default());
    /// ```
    pub const DEFAULT: StrategyParams = StrategyParams {
        momentum_rsi_low: 50.0,
        momentum_rsi_high: 70.0,
        oversold_rsi: 30.0,
        overbought_rsi: 70.0,
        bollinger_multiplier: 2.0,
        breakout_lookback: 20,
        volume_multiple: 1.5,
        hv_rank_threshold: 20.0,
        hv_percentile_threshold: 25.0,
        target_atr: 2.0,
        stop_atr: 1.0,
        straddle_stop_fraction: 0.5,
        min_days_directional: crate::types::MIN_DAYS_DIRECTIONAL,
        min_days_straddle: crate::types::MIN_DAYS_STRADDLE,
    };
}

/// A [`StrategyParams`] field outside its allowed range (both bounds inclusive unless
/// the message says "above" or "below").
///
/// ```
/// use strikeline_engine::StrategyParams;
/// let err = StrategyParams { breakout_lookback: 400, ..Default::default() }.validate().unwrap_err();
/// assert_eq!(err.field, "breakout_lookback");
/// assert_eq!(err.to_string(), "breakout_lookback must be between 5 and 250, got 400");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamError {
    /// The field's name, as in [`StrategyParams`].
    pub field: &'static str,
    /// The value given.
    pub value: f64,
    /// Smallest value allowed.
    pub min: f64,
    /// Largest value allowed.
    pub max: f64,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} must be between {} and {}, got {}", self.field, self.min, self.max, self.value)
    }
}

impl std::error::Error for ParamError {}

fn check(field: &'static str, value: f64, min: f64, max: f64) -> Result<(), ParamError> {
    if value >= min && value <= max { Ok(()) } else { Err(ParamError { field, value, min, max }) }
}

impl StrategyParams {
    /// Checks every field against its range, in declaration order, and names the first
    /// one outside it:
    ///
    /// | field | range | why |
    /// |---|---|---|
    /// | `momentum_rsi_low` | 1 – 99 | an RSI level |
    /// | `momentum_rsi_high` | `momentum_rsi_low + 1` – 99 | a non-empty zone |
    /// | `oversold_rsi` | 1 – 50 | below the RSI midpoint |
    /// | `overbought_rsi` | 50 – 99 | above the RSI midpoint |
    /// | `bollinger_multiplier` | 0.5 – 4 | bands from tight to very wide |
    /// | `breakout_lookback` | 5 – 250 | ready within the 272-bar warm-up |
    /// | `volume_multiple` | 1.01 – 5 | a surge means above average |
    /// | `hv_rank_threshold` | 1 – 50 | "cheap" is the lower half at most |
    /// | `hv_percentile_threshold` | 1 – 50 | same |
    /// | `target_atr` | 0.25 – 10 | |
    /// | `stop_atr` | 0.25 – 10 | |
    /// | `straddle_stop_fraction` | 0.05 – 0.95 | a stop below the entry, above zero |
    /// | `min_days_directional` | 1 – 365 | |
    /// | `min_days_straddle` | 1 – 365 | |
    ///
    /// NaN is outside every range.
    ///
    /// ```
    /// use strikeline_engine::StrategyParams;
    /// let p = StrategyParams { momentum_rsi_low: 60.0, momentum_rsi_high: 55.0, ..Default::default() };
    /// let err = p.validate().unwrap_err();
    /// assert_eq!((err.field, err.min), ("momentum_rsi_high", 61.0));
    /// assert!(StrategyParams { stop_atr: f64::NAN, ..Default::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ParamError> {
        check("momentum_rsi_low", self.momentum_rsi_low, 1.0, 99.0)?;
        check("momentum_rsi_high", self.momentum_rsi_high, self.momentum_rsi_low + 1.0, 99.0)?;
        check("oversold_rsi", self.oversold_rsi, 1.0, 50.0)?;
        check("overbought_rsi", self.overbought_rsi, 50.0, 99.0)?;
        check("bollinger_multiplier", self.bollinger_multiplier, 0.5, 4.0)?;
        check("breakout_lookback", self.breakout_lookback as f64, 5.0, 250.0)?;
        check("volume_multiple", self.volume_multiple, 1.01, 5.0)?;
        check("hv_rank_threshold", self.hv_rank_threshold, 1.0, 50.0)?;
        check("hv_percentile_threshold", self.hv_percentile_threshold, 1.0, 50.0)?;
        check("target_atr", self.target_atr, 0.25, 10.0)?;
        check("stop_atr", self.stop_atr, 0.25, 10.0)?;
        check("straddle_stop_fraction", self.straddle_stop_fraction, 0.05, 0.95)?;
        check("min_days_directional", f64::from(self.min_days_directional), 1.0, 365.0)?;
        check("min_days_straddle", f64::from(self.min_days_straddle), 1.0, 365.0)?;
        Ok(())
    }

    /// Minimum calendar days to expiration asked of the picker for a strategy's
    /// signals: [`min_days_straddle`](Self::min_days_straddle) for Volatility,
    /// [`min_days_directional`](Self::min_days_directional) for the others.
    ///
    /// ```
    /// use strikeline_engine::{Strategy, StrategyParams};
    /// let p = StrategyParams::default();
    /// assert_eq!(p.min_days_to_expiry(Strategy::Volatility), Strategy::Volatility.min_days_to_expiry());
    /// assert_eq!(p.min_days_to_expiry(Strategy::Breakout), 21);
    /// ```
    #[must_use]
    pub fn min_days_to_expiry(&self, strategy: crate::types::Strategy) -> u32 {
        match strategy {
            crate::types::Strategy::Volatility => self.min_days_straddle,
            _ => self.min_days_directional,
        }
    }
}
