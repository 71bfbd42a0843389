//! The market outside Strikeline: exchange calendar, option expirations, market data.
//!
//! - [`calendar`]: NYSE sessions, holidays, early closes and option expirations. Pure.
//! - [`data`] and [`MarketData`]: the values providers hand out and the one interface they
//!   implement, object safe so the server holds an `Arc<dyn MarketData>`.
//! - [`fx`]: the currencies money is shown in and providers' [`ExchangeRates`].
//! - [`simulated`]: the offline default, a deterministic seeded market of fifty US names.
//! - [`csv_import`]: daily history from `symbol,date,open,high,low,close,volume` files, and
//!   [`history::ImportedHistory`], a provider over such history.
//! - [`options`]: listed expirations, option chains and the 30-day at-the-money implied
//!   volatility read from one.
//! - [`polygon`]: the HTTP adapter for the Polygon.io REST API.
//!
//! Nothing here reads the clock to decide what "now" is: functions take the dates and
//! instants they reason about. Only the HTTP adapter does I/O (and waits, for its retries and
//! rate limit). `docs/market-data.md` describes the providers.

pub mod calendar;
pub mod csv_import;
pub mod data;
pub mod fx;
pub mod history;
pub mod options;
pub mod polygon;
mod provider;
mod rng;
pub mod simulated;

pub use data::{CompanyInfo, DailyBar, MarketError, Quote, Sector, UnknownSector, is_valid_symbol, normalize_symbol, round_price};
pub use fx::{Currency, ExchangeRates, UnknownCurrency};
pub use provider::{MarketData, MarketFuture};
pub use simulated::SimulatedMarket;
