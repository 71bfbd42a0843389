//! The interface every market-data provider implements.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, NaiveDate, Utc};

use crate::data::{CompanyInfo, DailyBar, MarketError, Quote};
use crate::fx::ExchangeRates;
use crate::options::{ChainQuery, OptionChain};

/// The future a [`MarketData`] method returns: boxed, `Send`, borrowing the provider and the
/// arguments for `'a`.
pub type MarketFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, MarketError>> + Send + 'a>>;

/// A source of quotes, daily history, company facts and exchange rates: the simulated market
/// (the offline default), imported history, or an HTTP vendor.
///
/// Object safe, so the server holds one as `Arc<dyn MarketData>` and tests swap it.
/// Providers never read the clock to decide what "now" is: the caller passes `at`.
pub trait MarketData: Send + Sync {
    /// A short name for logs and for "which provider said so" labels, e.g. `simulated`.
    fn provider_name(&self) -> &'static str;

    /// The quote of each of `symbols` as of `at`, in the order asked. Symbols the provider does
    /// not list are left out (compare the answer with the question); an
    /// [invalid](crate::is_valid_symbol) symbol fails the whole call with
    /// [`MarketError::InvalidSymbol`]. A live vendor answers with its latest data whatever
    /// `at` says; the simulated market answers for `at` exactly.
    fn quotes<'a>(&'a self, symbols: &'a [String], at: DateTime<Utc>) -> MarketFuture<'a, Vec<Quote>>;

    /// The daily bars of `symbol` for the trading days in `[from, to]`, oldest first; empty
    /// when `to < from` or the range holds no session the provider has.
    /// [`MarketError::UnknownSymbol`] when the provider does not list the symbol at all.
    fn daily_bars<'a>(&'a self, symbol: &'a str, from: NaiveDate, to: NaiveDate) -> MarketFuture<'a, Vec<DailyBar>>;

    /// Name, sector and size of the company behind `symbol`.
    fn company<'a>(&'a self, symbol: &'a str) -> MarketFuture<'a, CompanyInfo>;

    /// How many euros and pounds one US dollar buys as of `at`: every [`Currency`], USD
    /// exactly 1, each rate finite and positive ([`ExchangeRates::new`] checks a vendor's
    /// answer; a bad one is [`MarketError::InvalidResponse`]). A live vendor answers with its
    /// latest rates whatever `at` says; the simulated market answers for `at`'s New York date.
    ///
    /// [`Currency`]: crate::Currency
    fn exchange_rates<'a>(&'a self, at: DateTime<Utc>) -> MarketFuture<'a, ExchangeRates>;

    /// The option chain of `symbol` restricted to `query` (see [`OptionChain`]): bid/ask,
    /// implied volatility, Greeks and open interest where the provider has them. A live
    /// vendor answers with its latest quotes whatever `at` says (its [`OptionChain::as_of`]
    /// tells when they are from); the simulated market answers for `at` exactly.
    /// [`MarketError::Unavailable`] from a provider without option data.
    fn option_chain<'a>(&'a self, symbol: &'a str, query: ChainQuery, at: DateTime<Utc>) -> MarketFuture<'a, OptionChain>;

    /// Whether quotes and option chains answer for any past `at` (the simulated market), not
    /// only the latest (a live vendor): what a history can be back-filled from.
    fn answers_any_instant(&self) -> bool {
        false
    }
}
