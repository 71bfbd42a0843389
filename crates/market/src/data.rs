//! The values market-data providers hand out: daily bars, quotes, company facts, sectors,
//! and the one error type every provider answers with.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// One regular session's open, high, low, close and volume, split- and dividend-adjusted
/// where the source adjusts. `date` is the New York trading date.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyBar {
    /// The New York trading date.
    pub date: NaiveDate,
    /// First trade of the session, dollars.
    pub open: f64,
    /// Highest trade of the session, dollars; at least `max(open, close)`.
    pub high: f64,
    /// Lowest trade of the session, dollars; at most `min(open, close)`.
    pub low: f64,
    /// Last trade of the session, dollars.
    pub close: f64,
    /// Shares traded in the session.
    pub volume: u64,
}

impl DailyBar {
    /// Whether the bar is internally consistent: every price finite and positive,
    /// `low <= open, close <= high`.
    pub fn is_consistent(&self) -> bool {
        let prices = [self.open, self.high, self.low, self.close];
        prices.iter().all(|p| p.is_finite() && *p > 0.0)
            && self.low <= self.high
            && (self.low..=self.high).contains(&self.open)
            && (self.low..=self.high).contains(&self.close)
    }
}

/// The state of one symbol at an instant: the last price and today's figures so far.
///
/// While the exchange is closed, `price` is the last session's close, `day_*` and `volume`
/// are that session's, and `at` is the instant of that close.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// The ticker, e.g. `AAPL`.
    pub symbol: String,
    /// The last trade price, dollars.
    pub price: f64,
    /// The close of the session before the current (or last) one, dollars.
    pub previous_close: f64,
    /// The current (or last) session's open, dollars.
    pub day_open: f64,
    /// The current (or last) session's high so far, dollars.
    pub day_high: f64,
    /// The current (or last) session's low so far, dollars.
    pub day_low: f64,
    /// Shares traded in the current (or last) session so far.
    pub volume: u64,
    /// When `price` was last true: the requested instant during a session, the session's
    /// close while the market is closed, or the vendor's timestamp.
    pub at: DateTime<Utc>,
}

impl Quote {
    /// `price - previous_close`, dollars.
    pub fn change(&self) -> f64 {
        self.price - self.previous_close
    }

    /// The change as a percent of the previous close (0 when there is no previous close).
    pub fn change_percent(&self) -> f64 {
        if self.previous_close > 0.0 { 100.0 * self.change() / self.previous_close } else { 0.0 }
    }
}

/// What the product shows about a listed company.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyInfo {
    /// The ticker, e.g. `AAPL`.
    pub symbol: String,
    /// The company's name, e.g. `Apple Inc.`.
    pub name: String,
    /// One of the product's ten sectors.
    pub sector: Sector,
    /// Market capitalisation in dollars, when the source knows it.
    pub market_cap: Option<f64>,
    /// Shares outstanding, when the source knows them (lets a caller compute the market cap
    /// at a live price).
    pub shares_outstanding: Option<u64>,
}

/// The product's sectors: exactly the options of the web app's Add Stocks dialog, so a
/// sector a user picks always parses (`docs/market-data.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sector {
    /// Technology (the default for a user-added symbol).
    Technology,
    /// Healthcare.
    Healthcare,
    /// Financial.
    Financial,
    /// Consumer (discretionary and staples).
    Consumer,
    /// Energy.
    Energy,
    /// Industrial.
    Industrial,
    /// Utilities.
    Utilities,
    /// Real Estate.
    #[serde(rename = "Real Estate")]
    RealEstate,
    /// Materials.
    Materials,
    /// Communications.
    Communications,
}

impl Sector {
    /// Every sector, in the order the product lists them.
    pub const ALL: [Sector; 10] = [
        Sector::Technology,
        Sector::Healthcare,
        Sector::Financial,
        Sector::Consumer,
        Sector::Energy,
        Sector::Industrial,
        Sector::Utilities,
        Sector::RealEstate,
        Sector::Materials,
        Sector::Communications,
    ];

    /// The label users see, e.g. `Real Estate`.
    pub const fn label(self) -> &'static str {
        match self {
            Sector::Technology => "Technology",
            Sector::Healthcare => "Healthcare",
            Sector::Financial => "Financial",
            Sector::Consumer => "Consumer",
            Sector::Energy => "Energy",
            Sector::Industrial => "Industrial",
            Sector::Utilities => "Utilities",
            Sector::RealEstate => "Real Estate",
            Sector::Materials => "Materials",
            Sector::Communications => "Communications",
        }
    }
}

impl Default for Sector {
    /// [`Sector::Technology`], the sector of a symbol added without one (the web app's bulk
    /// add fills in the same default).
    fn default() -> Self {
        Sector::Technology
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A sector name that is none of the ten.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown sector {0:?}; expected one of Technology, Healthcare, Financial, Consumer, Energy, Industrial, Utilities, Real Estate, Materials, Communications"
)]
pub struct UnknownSector(pub String);

impl FromStr for Sector {
    type Err = UnknownSector;

    /// The label, case-insensitively, ignoring surrounding blanks and any spaces, hyphens or
    /// underscores inside (`real estate`, `Real-Estate`, `REAL_ESTATE` and `RealEstate` all
    /// read as [`Sector::RealEstate`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let squeezed: String = s.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).collect::<String>().to_ascii_lowercase();
        Sector::ALL
            .into_iter()
            .find(|sector| sector.label().replace(' ', "").to_ascii_lowercase() == squeezed)
            .ok_or_else(|| UnknownSector(s.trim().to_owned()))
    }
}

/// Why a provider could not answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MarketError {
    /// The text is not a ticker at all (see [`is_valid_symbol`]).
    #[error("{0:?} is not a valid symbol")]
    InvalidSymbol(String),
    /// A well-formed ticker the provider does not list.
    #[error("unknown symbol {0}")]
    UnknownSymbol(String),
    /// The provider refused for now; ask again after `retry_after`.
    #[error("rate limited by the market-data provider; retry after {} s", retry_after.as_secs_f64())]
    RateLimited {
        /// How long the provider asked to wait (its `Retry-After`, or our estimate).
        retry_after: Duration,
    },
    /// The provider cannot be reached or refuses us (network, timeouts, 5xx, rejected key).
    #[error("market data unavailable: {0}")]
    Unavailable(String),
    /// The provider answered something we cannot read.
    #[error("invalid response from the market-data provider: {0}")]
    InvalidResponse(String),
}

/// Whether `s` is a ticker the product accepts: 1–10 characters of `A`–`Z`, digits, `.` and
/// `-`, starting with a letter (`AAPL`, `BRK.B`, `BF-B`). Lower case is not accepted; use
/// [`normalize_symbol`] on user input.
pub fn is_valid_symbol(s: &str) -> bool {
    let bytes = s.as_bytes();
    (1..=10).contains(&bytes.len())
        && bytes[0].is_ascii_uppercase()
        && bytes.iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-'))
}

/// User input made a ticker: trimmed and upper-cased, `None` when the result is not
/// [valid](is_valid_symbol).
pub fn normalize_symbol(input: &str) -> Option<String> {
    let symbol = input.trim().to_ascii_uppercase();
    is_valid_symbol(&symbol).then_some(symbol)
}

/// `symbol` when it is [valid](is_valid_symbol), else [`MarketError::InvalidSymbol`];
/// providers check their input with it.
pub(crate) fn checked_symbol(symbol: &str) -> Result<&str, MarketError> {
    if is_valid_symbol(symbol) { Ok(symbol) } else { Err(MarketError::InvalidSymbol(symbol.to_owned())) }
}

/// Rounds a price the way US equities trade: to the cent at $1 and above, to 1/100 of a cent
/// below (never to zero).
pub fn round_price(price: f64) -> f64 {
    if price >= 1.0 { (price * 100.0).round() / 100.0 } else { ((price * 10_000.0).round() / 10_000.0).max(0.0001) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols() {
        for ok in ["A", "AAPL", "BRK.B", "BF-B", "ABCDEFGHIJ", "X1"] {
            assert!(is_valid_symbol(ok), "{ok}");
        }
        for bad in ["", "aapl", "1ABC", ".A", "ABCDEFGHIJK", "AA PL", "AÄ", "A_B", "-"] {
            assert!(!is_valid_symbol(bad), "{bad}");
        }
        assert_eq!(normalize_symbol(" brk.b "), Some("BRK.B".to_owned()));
        assert_eq!(normalize_symbol("  "), None);
    }

    #[test]
    fn sectors_read_back_from_their_labels() {
        for sector in Sector::ALL {
            assert_eq!(sector.label().parse::<Sector>(), Ok(sector));
            assert_eq!(sector.label().to_uppercase().parse::<Sector>(), Ok(sector));
            assert_eq!(sector.to_string(), sector.label());
        }
        assert_eq!("real-estate".parse::<Sector>(), Ok(Sector::RealEstate));
        assert_eq!(" RealEstate ".parse::<Sector>(), Ok(Sector::RealEstate));
        assert!("Tech".parse::<Sector>().is_err());
        assert_eq!(serde_json::to_string(&Sector::RealEstate).unwrap(), "\"Real Estate\"");
    }

    #[test]
    fn prices_round_to_the_tick() {
        assert_eq!(round_price(123.456), 123.46);
        assert_eq!(round_price(0.123456), 0.1235);
        assert_eq!(round_price(0.00001), 0.0001);
    }
}
