//! Currency exchange rates: the currencies the product shows money in, and a provider's rates
//! for them against the US dollar.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::data::MarketError;

/// A currency the product shows money in. Prices and balances are kept in US dollars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency {
    /// US dollar, the base of every [`ExchangeRates`].
    Usd,
    /// Euro.
    Eur,
    /// Pound sterling.
    Gbp,
}

impl Currency {
    /// Every currency, the base first.
    pub const ALL: [Currency; 3] = [Currency::Usd, Currency::Eur, Currency::Gbp];

    /// The ISO 4217 code, e.g. `EUR`.
    pub const fn code(self) -> &'static str {
        match self {
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
            Currency::Gbp => "GBP",
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A currency code that is none of the product's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown currency {0:?}; expected one of USD, EUR, GBP")]
pub struct UnknownCurrency(pub String);

impl FromStr for Currency {
    type Err = UnknownCurrency;

    /// The ISO code, case-insensitively, ignoring surrounding blanks (`eur` reads as
    /// [`Currency::Eur`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let code = s.trim();
        Currency::ALL.into_iter().find(|c| c.code().eq_ignore_ascii_case(code)).ok_or_else(|| UnknownCurrency(code.to_owned()))
    }
}

/// How many units of each currency one US dollar buys, and when and from whom.
///
/// Built by [`ExchangeRates::new`], which guarantees the invariants: `base` is
/// [`Currency::Usd`]; `rates` holds every currency once, in [`Currency::ALL`] order, each
/// finite and positive, USD itself exactly 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRates {
    /// Always [`Currency::Usd`].
    pub base: Currency,
    /// Units of the currency per 1 USD (e.g. `(Eur, 0.92)`); USD itself is 1.0.
    pub rates: Vec<(Currency, f64)>,
    /// When the rates were true: the vendor's timestamp, or as the provider documents.
    pub as_of: DateTime<Utc>,
    /// The [provider](crate::MarketData::provider_name) that gave them.
    pub provider: &'static str,
}

impl ExchangeRates {
    /// Rates per 1 USD from `rates` (USD may be left out; when given it must be 1).
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidResponse`] when a currency is missing or a rate is not a finite
    /// positive number: a vendor's answer goes through here before anyone uses it.
    pub fn new(rates: &[(Currency, f64)], as_of: DateTime<Utc>, provider: &'static str) -> Result<Self, MarketError> {
        let invalid = |why: String| MarketError::InvalidResponse(format!("exchange rates: {why}"));
        let mut checked = Vec::with_capacity(Currency::ALL.len());
        for currency in Currency::ALL {
            let given = rates.iter().find(|(c, _)| *c == currency).map(|&(_, r)| r);
            let rate = match (currency, given) {
                (Currency::Usd, None | Some(1.0)) => 1.0,
                (Currency::Usd, Some(r)) => return Err(invalid(format!("USD/USD is {r}, not 1"))),
                (_, None) => return Err(invalid(format!("no USD/{currency} rate"))),
                (_, Some(r)) if r.is_finite() && r > 0.0 => r,
                (_, Some(r)) => {
                    return Err(invalid(format!("USD/{currency} rate {r} is not a positive number")));
                }
            };
            checked.push((currency, rate));
        }
        Ok(Self { base: Currency::Usd, rates: checked, as_of, provider })
    }

    /// The long-run levels the simulated market's rates move around (EUR 0.92 and GBP 0.79
    /// per USD), for providers without rates of their own.
    pub fn reference(as_of: DateTime<Utc>, provider: &'static str) -> Self {
        Self { base: Currency::Usd, rates: REFERENCE_RATES.to_vec(), as_of, provider }
    }

    /// Units of `currency` per 1 USD (1.0 for USD). NaN for a currency missing from a
    /// hand-built value (never from [`ExchangeRates::new`]).
    pub fn rate(&self, currency: Currency) -> f64 {
        self.rates.iter().find(|(c, _)| *c == currency).map_or(f64::NAN, |&(_, r)| r)
    }

    /// `amount` of `from` in `to`, e.g. dollars to euros: `convert(100.0, Usd, Eur)`.
    pub fn convert(&self, amount: f64, from: Currency, to: Currency) -> f64 {
        amount / self.rate(from) * self.rate(to)
    }
}

/// Units per 1 USD around which the simulated market's rates move.
pub(crate) const REFERENCE_RATES: [(Currency, f64); 3] = [(Currency::Usd, 1.0), (Currency::Eur, 0.92), (Currency::Gbp, 0.79)];

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn currencies_read_back_from_their_codes() {
        for currency in Currency::ALL {
            assert_eq!(currency.code().parse::<Currency>(), Ok(currency));
            assert_eq!(currency.code().to_lowercase().parse::<Currency>(), Ok(currency));
            assert_eq!(currency.to_string(), currency.code());
        }
        assert_eq!(" gbp ".parse::<Currency>(), Ok(Currency::Gbp));
        assert!("JPY".parse::<Currency>().is_err());
        assert_eq!(serde_json::to_string(&Currency::Eur).unwrap(), "\"EUR\"");
    }

    #[test]
    fn rates_are_checked_and_converted() {
        let at = Utc.with_ymd_and_hms(2024, 11, 25, 0, 0, 0).unwrap();
        let rates = ExchangeRates::new(&[(Currency::Gbp, 0.8), (Currency::Eur, 0.9)], at, "test").unwrap();
        assert_eq!(rates.rates, [(Currency::Usd, 1.0), (Currency::Eur, 0.9), (Currency::Gbp, 0.8)]);
        assert_eq!(rates.rate(Currency::Usd), 1.0);
        assert!((rates.convert(100.0, Currency::Usd, Currency::Eur) - 90.0).abs() < 1e-9);
        assert!((rates.convert(90.0, Currency::Eur, Currency::Gbp) - 80.0).abs() < 1e-9);

        for bad in [
            vec![(Currency::Eur, 0.9)],
            vec![(Currency::Eur, 0.9), (Currency::Gbp, 0.0)],
            vec![(Currency::Eur, f64::NAN), (Currency::Gbp, 0.8)],
            vec![(Currency::Eur, -0.9), (Currency::Gbp, 0.8)],
            vec![(Currency::Eur, f64::INFINITY), (Currency::Gbp, 0.8)],
            vec![(Currency::Usd, 1.1), (Currency::Eur, 0.9), (Currency::Gbp, 0.8)],
        ] {
            let err = ExchangeRates::new(&bad, at, "test").unwrap_err();
            assert!(matches!(err, MarketError::InvalidResponse(_)), "{bad:?}");
        }
        let reference = ExchangeRates::reference(at, "test");
        assert_eq!(ExchangeRates::new(&reference.rates, at, "test"), Ok(reference));
    }
}
