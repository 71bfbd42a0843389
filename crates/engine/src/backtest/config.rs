//! What to backtest and how to fill: the inputs of [`run`](super::run), validated.

use chrono::NaiveDate;

use crate::custom::CustomStrategy;
use crate::lifecycle::Costs;
use crate::params::{ParamError, StrategyParams};
use crate::types::{Assumptions, DailyBar, Strategy};

/// One symbol's daily bars, oldest first.
///
/// ```
/// use strikeline_engine::backtest::SymbolSeries;
/// let s = SymbolSeries { symbol: "AAPL".into(), bars: Vec::new() };
/// assert!(s.bars.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolSeries {
    /// Ticker.
    pub symbol: String,
    /// Bars in date order, one per trading day.
    pub bars: Vec<DailyBar>,
}

/// What to backtest and how to fill. [`BacktestConfig::new`] gives the defaults.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_engine::backtest::BacktestConfig;
/// let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
/// let config = BacktestConfig::new(d(2024, 1, 2), d(2024, 12, 31));
/// assert_eq!(config.strategies.len(), 4);
/// assert_eq!((config.contracts_per_trade, config.commission_per_contract, config.slippage), (1, 0.65, 0.01));
/// assert!(config.validate().is_ok());
/// let backwards = BacktestConfig::new(d(2024, 12, 31), d(2024, 1, 2));
/// assert_eq!(backwards.validate().unwrap_err().field, "end");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BacktestConfig {
    /// First date on which trades may open (bars before it only warm the indicators).
    pub start: NaiveDate,
    /// Last date simulated (inclusive); later bars are ignored.
    pub end: NaiveDate,
    /// The strategies whose proposals are traded (duplicates are ignored);
    /// [`Strategy::Custom`] trades [`custom`](Self::custom)'s.
    pub strategies: Vec<Strategy>,
    /// A user's custom strategy, traded when `strategies` holds [`Strategy::Custom`] (and
    /// required then).
    pub custom: Option<CustomStrategy>,
    /// The rules' thresholds ([`StrategyParams::default`] is the live engine).
    pub params: StrategyParams,
    /// Rate and dividend yield for Black–Scholes.
    pub assumptions: Assumptions,
    /// Contracts bought per trade (1).
    pub contracts_per_trade: u32,
    /// Commission per contract, charged on the open and on the close ($0.65).
    pub commission_per_contract: f64,
    /// Fraction of the premium paid above the model on entry and given up below it on
    /// exit (0.01 = 1%).
    pub slippage: f64,
    /// Starting cash ($100,000).
    pub initial_capital: f64,
    /// Setups the trader may not trade (signals their plan locks): none by default.
    pub withheld: Vec<Withheld>,
    /// How a proposal is traded: as proposed (single legs, the default) or CALL and PUT
    /// proposals as vertical debit spreads (see [`Structuring`]).
    pub structuring: Structuring,
}

/// How the backtest trades a proposal.
///
/// With [`Structuring::Vertical`], a CALL proposal is bought as a bull call spread and a PUT
/// as a bear put spread: the proposal's contract is the long leg, and a short leg of the same
/// type and expiration is sold `width` (a fraction of the strike) further out of the money, on
/// the listed strike grid. A STRADDLE is already two legs and is traded as proposed. The
/// spread's target and stop are its values, at entry, with the underlying at the levels where
/// the proposal's own target and stop premiums are reached (the same underlying move closes
/// either way); without a stop level (none exists below the premium) it is held to target or
/// expiry. Both legs pay the slippage (the long leg above its mark, the short one below) and
/// the commission, on the open and on the close.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Structuring {
    /// Every proposal as proposed.
    #[default]
    Single,
    /// CALL and PUT proposals as vertical debit spreads `width` × the strike wide (0.01–0.5).
    Vertical {
        /// The distance to the short strike as a fraction of the long strike.
        width: f64,
    },
}

/// A setup withheld from the trader: a proposal of `strategy` on `symbol` dated `from` to `to`
/// (inclusive) is not filled. The setup is held as if the trade were open until that trade
/// would have ended (as live, one signal per setup), no cash moves, and the report lists it in
/// [`BacktestReport::withheld`](super::BacktestReport::withheld) without any of its terms or
/// its result: no total, curve or statistic includes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    pub symbol: String,
    pub strategy: Strategy,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl BacktestConfig {
    /// All four strategies, the live rules, default assumptions, 1 contract a trade,
    /// $0.65 a contract, 1% slippage, $100,000 of capital.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
    /// let c = strikeline_engine::backtest::BacktestConfig::new(d, d);
    /// assert_eq!(c.initial_capital, 100_000.0);
    /// ```
    #[must_use]
    pub fn new(start: NaiveDate, end: NaiveDate) -> Self {
        BacktestConfig {
            start,
            end,
            strategies: Strategy::ALL.to_vec(),
            custom: None,
            params: StrategyParams::DEFAULT,
            assumptions: Assumptions::default(),
            contracts_per_trade: 1,
            commission_per_contract: Costs::STANDARD.commission_per_contract,
            slippage: Costs::STANDARD.slippage,
            initial_capital: 100_000.0,
            withheld: Vec::new(),
            structuring: Structuring::Single,
        }
    }

    /// The fill model the trades are filled with.
    #[must_use]
    pub fn costs(&self) -> Costs {
        Costs { slippage: self.slippage, commission_per_contract: self.commission_per_contract }
    }

    /// Checks the configuration and names the first field that is wrong:
    /// `end` before `start`; no `strategies`; `params` (the offending parameter's own
    /// name, see [`StrategyParams::validate`]); `assumptions.rate` or
    /// `assumptions.dividend_yield` not within ±1 (±100% a year);
    /// `contracts_per_trade` not 1–10,000; `commission_per_contract` not 0–100;
    /// `slippage` not 0–0.5; `initial_capital` not above 0 (and finite, at most 1e12).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::backtest::BacktestConfig;
    /// let d = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
    /// let mut c = BacktestConfig::new(d, d);
    /// c.slippage = -0.01;
    /// let err = c.validate().unwrap_err();
    /// assert_eq!(err.to_string(), "slippage: must be between 0 and 0.5, got -0.01");
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.end < self.start {
            return Err(ConfigError::new("end", format!("{} is before the start {}", self.end, self.start)));
        }
        if self.strategies.is_empty() {
            return Err(ConfigError::new("strategies", "choose at least one strategy"));
        }
        match (&self.custom, self.strategies.contains(&Strategy::Custom)) {
            (None, true) => return Err(ConfigError::new("custom", "the custom strategy's rules are missing")),
            (Some(custom), _) => {
                if let Err(errors) = custom.validate() {
                    let first = errors.first().map(ToString::to_string).unwrap_or_default();
                    return Err(ConfigError::new("custom", first));
                }
            }
            (None, false) => {}
        }
        self.params.validate().map_err(ConfigError::from)?;
        range("assumptions.rate", self.assumptions.rate, -1.0, 1.0)?;
        range("assumptions.dividend_yield", self.assumptions.dividend_yield, -1.0, 1.0)?;
        range("contracts_per_trade", f64::from(self.contracts_per_trade), 1.0, 10_000.0)?;
        range("commission_per_contract", self.commission_per_contract, 0.0, 100.0)?;
        range("slippage", self.slippage, 0.0, 0.5)?;
        if !(self.initial_capital > 0.0 && self.initial_capital <= 1e12) {
            return Err(ConfigError::new("initial_capital", format!("must be above 0 and at most 1e12, got {}", self.initial_capital)));
        }
        if let Structuring::Vertical { width } = self.structuring {
            range("structuring.width", width, 0.01, 0.5)?;
        }
        Ok(())
    }
}

fn range(field: &'static str, value: f64, min: f64, max: f64) -> Result<(), ConfigError> {
    if value >= min && value <= max {
        Ok(())
    } else {
        Err(ConfigError::new(field, format!("must be between {min} and {max}, got {value}")))
    }
}

/// A [`BacktestConfig`] field that is out of range, with the reason.
///
/// ```
/// use strikeline_engine::backtest::ConfigError;
/// use strikeline_engine::StrategyParams;
/// let param = StrategyParams { stop_atr: 0.0, ..Default::default() }.validate().unwrap_err();
/// let err = ConfigError::from(param);
/// assert_eq!(err.field, "stop_atr");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The field: a [`BacktestConfig`] field, or a [`StrategyParams`] field's name.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    fn new(field: &'static str, reason: impl Into<String>) -> Self {
        ConfigError { field, reason: reason.into() }
    }
}

impl From<ParamError> for ConfigError {
    fn from(e: ParamError) -> Self {
        ConfigError::new(e.field, format!("must be between {} and {}, got {}", e.min, e.max, e.value))
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ConfigError {}
