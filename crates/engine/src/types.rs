//! The engine's vocabulary: signal types, strategies, daily bars and pricing assumptions.

use std::fmt;
use std::str::FromStr;

use chrono::NaiveDate;
use strikeline_quant::OptionType;
use strikeline_quant::indicators::{Close, High, Low, Open, Volume};

/// What a signal buys: a long call, a long put, or a long straddle (one call plus one put
/// at the same strike and expiry).
///
/// Parses from `CALL`, `PUT`, `STRADDLE` in any case:
///
/// ```
/// use strikeline_engine::SignalType;
/// assert_eq!("call".parse::<SignalType>(), Ok(SignalType::Call));
/// assert_eq!(SignalType::Straddle.as_str(), "STRADDLE");
/// assert_eq!(SignalType::Put.to_string(), "PUT");
/// assert!("butterfly".parse::<SignalType>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SignalType {
    /// A long call: profits when the underlying rises.
    Call,
    /// A long put: profits when the underlying falls.
    Put,
    /// A long call plus a long put at one strike: profits from a large move either way.
    Straddle,
}

impl SignalType {
    /// All three, in a fixed order: the order of the quant crate's option types.
    ///
    /// ```
    /// use strikeline_engine::SignalType;
    /// use strikeline_quant::OptionType;
    /// assert_eq!(SignalType::ALL.map(SignalType::option_type), OptionType::ALL);
    /// ```
    pub const ALL: [SignalType; 3] = [SignalType::Call, SignalType::Put, SignalType::Straddle];

    /// The wire form: `CALL`, `PUT` or `STRADDLE`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::SignalType::Call.as_str(), "CALL");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            SignalType::Call => "CALL",
            SignalType::Put => "PUT",
            SignalType::Straddle => "STRADDLE",
        }
    }

    /// The quant crate's option type priced for this signal.
    ///
    /// ```
    /// use strikeline_engine::SignalType;
    /// use strikeline_quant::OptionType;
    /// assert_eq!(SignalType::Straddle.option_type(), OptionType::Straddle);
    /// ```
    #[must_use]
    pub fn option_type(self) -> OptionType {
        match self {
            SignalType::Call => OptionType::Call,
            SignalType::Put => OptionType::Put,
            SignalType::Straddle => OptionType::Straddle,
        }
    }
}

impl fmt::Display for SignalType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SignalType {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        SignalType::ALL.into_iter().find(|t| t.as_str().eq_ignore_ascii_case(wanted)).ok_or_else(|| ParseError {
            what: "signal type",
            value: s.to_owned(),
            expected: "CALL, PUT or STRADDLE",
        })
    }
}

/// The rule that produced a signal. See `docs/strategies.md` for each rule.
///
/// Parses from its label in any case, with spaces, `-` or `_` between words:
///
/// ```
/// use strikeline_engine::Strategy;
/// assert_eq!("Mean Reversion".parse::<Strategy>(), Ok(Strategy::MeanReversion));
/// assert_eq!("mean_reversion".parse::<Strategy>(), Ok(Strategy::MeanReversion));
/// assert_eq!(Strategy::MeanReversion.label(), "Mean Reversion");
/// assert_eq!(Strategy::Breakout.to_string(), "Breakout");
/// assert!("Scalping".parse::<Strategy>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Trend continuation: EMAs stacked, MACD histogram growing, RSI strong but not
    /// overbought.
    Momentum,
    /// Snap-back from an oversold or overbought extreme: RSI and Bollinger bands.
    MeanReversion,
    /// Close beyond the 20-day range on heavy volume.
    Breakout,
    /// Realised volatility cheap against its own year: buy a straddle.
    Volatility,
    /// A user's own rules ([`CustomStrategy`](crate::custom::CustomStrategy)): never among
    /// [`Strategy::ALL`], never parsed from a name, traded only where a document is given.
    Custom,
}

impl Strategy {
    /// All four, in the order the engine evaluates them (and breaks ties).
    ///
    /// ```
    /// assert_eq!(strikeline_engine::Strategy::ALL[0], strikeline_engine::Strategy::Momentum);
    /// ```
    pub const ALL: [Strategy; 4] = [Strategy::Momentum, Strategy::MeanReversion, Strategy::Breakout, Strategy::Volatility];

    /// The label shown to users and used on the wire: `Momentum`, `Mean Reversion`,
    /// `Breakout`, `Volatility`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::Strategy::Volatility.label(), "Volatility");
    /// ```
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Strategy::Momentum => "Momentum",
            Strategy::MeanReversion => "Mean Reversion",
            Strategy::Breakout => "Breakout",
            Strategy::Volatility => "Volatility",
            Strategy::Custom => "Custom",
        }
    }

    /// Minimum calendar days from issue to expiration that this strategy asks the
    /// expiration picker for: 21 for the directional strategies (about a month of
    /// listed expirations, enough time for the expected move without paying for months
    /// of time value), 30 for straddles (which need time for volatility to expand).
    ///
    /// ```
    /// use strikeline_engine::Strategy;
    /// assert_eq!(Strategy::Momentum.min_days_to_expiry(), 21);
    /// assert_eq!(Strategy::Volatility.min_days_to_expiry(), 30);
    /// ```
    #[must_use]
    pub fn min_days_to_expiry(self) -> u32 {
        match self {
            Strategy::Volatility => MIN_DAYS_STRADDLE,
            _ => MIN_DAYS_DIRECTIONAL,
        }
    }
}

/// Minimum days to expiry of CALL and PUT signals (see [`Strategy::min_days_to_expiry`]).
pub const MIN_DAYS_DIRECTIONAL: u32 = 21;

/// Minimum days to expiry of STRADDLE signals (see [`Strategy::min_days_to_expiry`]).
pub const MIN_DAYS_STRADDLE: u32 = 30;

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl FromStr for Strategy {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let squash =
            |text: &str| -> String { text.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase()).collect() };
        let wanted = squash(s.trim());
        Strategy::ALL.into_iter().find(|strategy| squash(strategy.label()) == wanted).ok_or_else(|| ParseError {
            what: "strategy",
            value: s.to_owned(),
            expected: "Momentum, Mean Reversion, Breakout or Volatility",
        })
    }
}

/// A text that names no [`SignalType`] or [`Strategy`].
///
/// ```
/// let err = "x".parse::<strikeline_engine::Strategy>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown strategy \"x\": expected Momentum, Mean Reversion, Breakout or Volatility");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    value: String,
    expected: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}: expected {}", self.what, self.value, self.expected)
    }
}

impl std::error::Error for ParseError {}

/// One completed trading day of one symbol. Prices in dollars, volume in shares.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::DailyBar;
/// use strikeline_quant::indicators::{Close, High};
/// let bar = DailyBar { date: NaiveDate::from_ymd_opt(2026, 3, 2).unwrap(), open: 10.0, high: 11.0, low: 9.5, close: 10.5, volume: 1e6 };
/// assert_eq!((bar.high(), bar.close()), (11.0, 10.5));
/// assert!(bar.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DailyBar {
    /// The trading date (New York).
    pub date: NaiveDate,
    /// First trade.
    pub open: f64,
    /// Highest trade.
    pub high: f64,
    /// Lowest trade.
    pub low: f64,
    /// Last trade (the close, or the latest price for today's partial bar).
    pub close: f64,
    /// Shares traded.
    pub volume: f64,
}

impl DailyBar {
    /// Checks what the indicators need: every price finite and above zero, `low ≤ high`,
    /// volume finite and not negative. Open and close outside `[low, high]` (which some
    /// vendors report after late corrections) are accepted: no formula breaks on them.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::{BarError, DailyBar};
    /// let date = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    /// let bad = DailyBar { date, open: 10.0, high: 9.0, low: 9.5, close: 9.2, volume: 0.0 };
    /// assert_eq!(bad.validate(), Err(BarError::HighBelowLow { date }));
    /// ```
    pub fn validate(&self) -> Result<(), BarError> {
        let date = self.date;
        let prices = [self.open, self.high, self.low, self.close];
        if prices.iter().any(|p| !p.is_finite()) || !self.volume.is_finite() {
            return Err(BarError::NotFinite { date });
        }
        if prices.iter().any(|&p| p <= 0.0) {
            return Err(BarError::NotPositive { date });
        }
        if self.low > self.high {
            return Err(BarError::HighBelowLow { date });
        }
        if self.volume < 0.0 {
            return Err(BarError::NegativeVolume { date });
        }
        Ok(())
    }
}

impl Open for DailyBar {
    fn open(&self) -> f64 {
        self.open
    }
}
impl High for DailyBar {
    fn high(&self) -> f64 {
        self.high
    }
}
impl Low for DailyBar {
    fn low(&self) -> f64 {
        self.low
    }
}
impl Close for DailyBar {
    fn close(&self) -> f64 {
        self.close
    }
}
impl Volume for DailyBar {
    fn volume(&self) -> f64 {
        self.volume
    }
}

/// Why a bar was refused. A refused bar leaves the symbol's state untouched.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::BarError;
/// let date = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
/// assert_eq!(BarError::NotPositive { date }.to_string(), "bar of 2026-03-02: a price is zero or negative");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarError {
    /// A price or the volume is NaN or infinite.
    NotFinite {
        /// The bar's date.
        date: NaiveDate,
    },
    /// A price is zero or negative.
    NotPositive {
        /// The bar's date.
        date: NaiveDate,
    },
    /// The low is above the high.
    HighBelowLow {
        /// The bar's date.
        date: NaiveDate,
    },
    /// The volume is negative.
    NegativeVolume {
        /// The bar's date.
        date: NaiveDate,
    },
    /// The bar is not after the last bar already seen: bars must come one trading day at
    /// a time, in date order, each exactly once.
    OutOfOrder {
        /// The bar's date.
        date: NaiveDate,
        /// The date of the last bar seen.
        last: NaiveDate,
    },
}

impl fmt::Display for BarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BarError::NotFinite { date } => {
                write!(f, "bar of {date}: a price or the volume is not a finite number")
            }
            BarError::NotPositive { date } => {
                write!(f, "bar of {date}: a price is zero or negative")
            }
            BarError::HighBelowLow { date } => write!(f, "bar of {date}: low above high"),
            BarError::NegativeVolume { date } => write!(f, "bar of {date}: negative volume"),
            BarError::OutOfOrder { date, last } => {
                write!(f, "bar of {date}: not after the last bar seen ({last}); bars go in date order, once each")
            }
        }
    }
}

impl std::error::Error for BarError {}

/// Market assumptions for Black–Scholes pricing: the continuously compounded risk-free
/// rate and dividend yield, as decimals per year.
///
/// ```
/// let a = strikeline_engine::Assumptions::default();
/// assert_eq!((a.rate, a.dividend_yield), (0.04, 0.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assumptions {
    /// Risk-free rate `r` (4% = `0.04`).
    pub rate: f64,
    /// Continuous dividend yield `q`.
    pub dividend_yield: f64,
}

impl Default for Assumptions {
    /// `r = 4%`, `q = 0`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::Assumptions::default().rate, 0.04);
    /// ```
    fn default() -> Self {
        Assumptions { rate: 0.04, dividend_yield: 0.0 }
    }
}
