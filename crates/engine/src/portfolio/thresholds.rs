//! Comfortable and alarm levels and weights of the risk model (`docs/risk.md`).
//!
//! ```
//! use strikeline_engine::portfolio::thresholds;
//! let weights = [thresholds::SYMBOL_CONCENTRATION, thresholds::SECTOR_CONCENTRATION, thresholds::NET_DELTA,
//!     thresholds::NET_VEGA, thresholds::NEAR_EXPIRY, thresholds::POSITION_SIZE, thresholds::CAPITAL_AT_RISK,
//!     thresholds::DRAWDOWN].iter().map(|t| t.2).sum::<f64>();
//! assert_eq!(weights, 100.0);
//! ```

/// Largest symbol's share of the open value: comfortable, alarm, weight.
pub const SYMBOL_CONCENTRATION: (f64, f64, f64) = (0.25, 0.75, 15.0);
/// Largest sector's share of the open value.
pub const SECTOR_CONCENTRATION: (f64, f64, f64) = (0.40, 0.90, 10.0);
/// |Net dollar delta| / capital.
pub const NET_DELTA: (f64, f64, f64) = (0.5, 2.0, 15.0);
/// |Net vega| × 10 vol points / capital.
pub const NET_VEGA: (f64, f64, f64) = (0.02, 0.10, 10.0);
/// Share of the open value expiring within [`NEAR_EXPIRY_DAYS`].
pub const NEAR_EXPIRY: (f64, f64, f64) = (0.0, 0.5, 10.0);
/// Largest position's cost / the user's maximum position size.
pub const POSITION_SIZE: (f64, f64, f64) = (1.0, 2.0, 10.0);
/// Premium at risk (total cost of the open positions) / capital.
pub const CAPITAL_AT_RISK: (f64, f64, f64) = (0.25, 0.75, 15.0);
/// |Drawdown| of the equity from its peak.
pub const DRAWDOWN: (f64, f64, f64) = (0.05, 0.25, 15.0);
/// "Near expiry": this many calendar days or fewer.
pub const NEAR_EXPIRY_DAYS: i64 = 7;
/// Scores from this level up are very high risk.
pub const VERY_HIGH_SCORE: u8 = 85;
/// Scores from this level up are high risk.
pub const HIGH_SCORE: u8 = 65;
/// Scores from this level up are moderate risk.
pub const MODERATE_SCORE: u8 = 35;
