//! Strikeline's quantitative core: pure functions and state machines, no I/O, no clock.
//!
//! Every number Strikeline shows comes from here:
//!
//! - [`normal`]: the standard normal density and distribution (Cody's `erfc`, ~1e-15).
//! - [`pricing`]: Black–Scholes–Merton with a continuous dividend yield: prices and
//!   Greeks of calls, puts and straddles ([`BlackScholes`], [`OptionType`], [`Greeks`]).
//! - [`iv`]: implied volatility from a price, with a typed error for prices outside the
//!   no-arbitrage bounds ([`implied_volatility`], [`IvError`]).
//! - [`pricing::batch`] and [`iv::batch`]: the same prices, Greeks and implied volatilities
//!   for whole columns of options at once, with SIMD instructions (AVX-512 or AVX2 + FMA,
//!   chosen at run time; portable code elsewhere), agreeing with the scalar API to about
//!   1e-15 (prices and Greeks) and 1e-12 (implied volatility).
//! - [`american`]: American calls and puts (the Andersen–Lake–Offengenden exercise-boundary
//!   engine), their Greeks, critical price and implied volatility, and the binomial lattices
//!   (Cox–Ross–Rubinstein, Leisen–Reimer, with cash dividends) it is checked against.
//! - [`analytics`]: breakevens, maximum loss and gain, probability of profit, expected
//!   move and P&L curves of long calls, puts and straddles ([`TradeAnalysis`]).
//! - [`indicators`]: streaming technical indicators over [`Bar`]s that reproduce TA-Lib
//!   (SMA, EMA, RSI, MACD, Bollinger, ATR, …) behind the [`Next`] + [`Reset`] traits.
//! - [`structure`]: multi-leg positions (spreads, condors, calendars, covered calls, …):
//!   P&L at any date and volatility, position Greeks, and the exact extremes, breakevens
//!   and probability of profit at expiry ([`structure::Structure`], [`structure::Template`]).
//! - [`stats`]: performance statistics of daily returns ([`DailyReturns`]) and of trade
//!   P&Ls ([`TradeStats`]).
//!
//! Time never comes from a clock: time to expiry, dates and bars are arguments. Inputs
//! are validated once, in constructors returning [`InputError`]; the math after that
//! cannot fail.
//!
//! ```
//! use strikeline_quant::{BlackScholes, OptionInputs, OptionType, implied_volatility, IvInputs};
//! let bs = BlackScholes::new(OptionInputs { spot: 100.0, strike: 105.0, rate: 0.04, dividend_yield: 0.01, volatility: 0.3, time_to_expiry: 30.0 / 365.0 })?;
//! let price = bs.price(OptionType::Call);
//! let sigma = implied_volatility(OptionType::Call, IvInputs { price, spot: 100.0, strike: 105.0, rate: 0.04, dividend_yield: 0.01, time_to_expiry: 30.0 / 365.0 })?;
//! assert!((sigma - 0.3).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod american;
pub mod analytics;
pub mod calibration;
pub mod error;
pub mod indicators;
pub mod iv;
pub mod normal;
pub mod pricing;
mod simd;
pub mod stats;
pub mod structure;

pub use error::{Field, InputError};
pub use indicators::{Bar, Next, Reset};

pub use analytics::{Drift, PnlPoint, PriceGrid, TradeAnalysis, TradeSummary};
pub use calibration::{BinStrategy, Binning, DatedForecast, Forecast, MurphyDecomposition, ReliabilityBin, RollingBrier};
pub use iv::{IvError, IvInputs, implied_volatility};
pub use pricing::{BlackScholes, Greeks, OptionInputs, OptionType, Valuation};
pub use stats::{DailyReturns, ReturnStats, TradeStats};
