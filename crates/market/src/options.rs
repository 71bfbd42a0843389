//! Listed equity options: the chain a provider quotes for one underlying (strikes × expirations
//! with bid/ask, implied volatility, Greeks and open interest where the provider has them),
//! which expirations are listed, and the 30-day constant-maturity at-the-money implied
//! volatility read from a chain (the series IV rank and IV percentile are taken over).
//!
//! Units are the ones option vendors quote: prices in dollars per share, implied volatility
//! as a fraction per year, delta and gamma per share, theta in dollars per share per calendar
//! day, vega in dollars per share per volatility point (σ + 0.01).

use chrono::{DateTime, Days, Months, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::calendar::{Calendar, ExpirationKind};

/// A call or a put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionRight {
    Call,
    Put,
}

/// Which part of a chain to fetch (every bound inclusive; `None` is unbounded). A whole chain
/// runs to thousands of contracts, so callers ask for what they show.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChainQuery {
    pub expiration_from: Option<NaiveDate>,
    pub expiration_to: Option<NaiveDate>,
    pub strike_from: Option<f64>,
    pub strike_to: Option<f64>,
}

impl ChainQuery {
    /// One expiration, every strike.
    pub fn expiration(date: NaiveDate) -> ChainQuery {
        ChainQuery { expiration_from: Some(date), expiration_to: Some(date), ..ChainQuery::default() }
    }

    /// Whether a contract of `expiration` and `strike` is inside the query.
    pub fn admits(&self, expiration: NaiveDate, strike: f64) -> bool {
        self.admits_expiration(expiration)
            && self.strike_from.is_none_or(|from| strike >= from)
            && self.strike_to.is_none_or(|to| strike <= to)
    }

    /// Whether the query admits any strike of `expiration`.
    pub fn admits_expiration(&self, expiration: NaiveDate) -> bool {
        self.expiration_from.is_none_or(|from| expiration >= from) && self.expiration_to.is_none_or(|to| expiration <= to)
    }
}

/// Sensitivities of one contract, per share, in vendors' units (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ContractGreeks {
    pub delta: f64,
    pub gamma: f64,
    /// Dollars per share per calendar day.
    pub theta: f64,
    /// Dollars per share per volatility point.
    pub vega: f64,
}

/// One listed contract as the provider quotes it.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionContract {
    pub right: OptionRight,
    pub strike: f64,
    /// The last trading day of the series.
    pub expiration: NaiveDate,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    /// The last trade's price, when the provider has one.
    pub last: Option<f64>,
    pub implied_volatility: Option<f64>,
    pub greeks: Option<ContractGreeks>,
    pub open_interest: Option<u64>,
}

impl OptionContract {
    /// A contract with nothing quoted yet: no bid, ask, trade, volatility, Greeks or open interest.
    pub fn unquoted(right: OptionRight, strike: f64, expiration: NaiveDate) -> OptionContract {
        OptionContract {
            right,
            strike,
            expiration,
            bid: None,
            ask: None,
            last: None,
            implied_volatility: None,
            greeks: None,
            open_interest: None,
        }
    }

    /// The midpoint of a two-sided quote (both sides present, the ask above zero and not
    /// below the bid).
    pub fn mid(&self) -> Option<f64> {
        match (self.bid, self.ask) {
            (Some(bid), Some(ask)) if ask > 0.0 && ask >= bid && bid >= 0.0 => Some(0.5 * (bid + ask)),
            _ => None,
        }
    }
}

/// The contracts of one underlying that a [`ChainQuery`] asked for, ordered by expiration,
/// strike, then call before put.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionChain {
    pub symbol: String,
    /// The underlying's price the quotes go with.
    pub underlying_price: f64,
    /// When the quotes were taken (a live vendor's time; the simulated market's `at`).
    pub as_of: DateTime<Utc>,
    pub provider: &'static str,
    pub contracts: Vec<OptionContract>,
}

impl OptionChain {
    /// Sorts the contracts into the documented order.
    pub fn sort(&mut self) {
        self.contracts.sort_by(|a, b| a.expiration.cmp(&b.expiration).then(a.strike.total_cmp(&b.strike)).then(a.right.cmp(&b.right)));
    }

    /// The distinct expirations present, in order.
    pub fn expirations(&self) -> Vec<NaiveDate> {
        let mut dates: Vec<NaiveDate> = self.contracts.iter().map(|c| c.expiration).collect();
        dates.dedup();
        dates
    }
}

/// Weeks of weekly expirations listed ahead.
pub const LISTED_WEEKS: u64 = 8;
/// Months of monthly expirations listed ahead.
pub const LISTED_MONTHS: u32 = 12;

/// The expirations listed on `today` for the names Strikeline covers: every weekly expiration
/// in the next [`LISTED_WEEKS`] weeks and every monthly one in the next [`LISTED_MONTHS`]
/// months, `today`'s own included (a series trades until its last day's close). The
/// simulated market lists exactly these; a live vendor may list more or fewer, and a chain
/// asked for a date it does not list is empty.
pub fn listed_expirations(calendar: &Calendar, today: NaiveDate) -> Vec<NaiveDate> {
    let weeks_end = today + Days::new(7 * LISTED_WEEKS);
    let months_end = today.checked_add_months(Months::new(LISTED_MONTHS)).unwrap_or(weeks_end);
    let mut dates = calendar.weekly_expirations_between(today, weeks_end);
    let mut from = today;
    while from <= months_end {
        let monthly = calendar.next_expiration_at_least(from, 0, ExpirationKind::Monthly);
        if monthly > months_end {
            break;
        }
        dates.push(monthly);
        from = monthly + Days::new(1);
    }
    dates.sort_unstable();
    dates.dedup();
    dates
}

/// The strike spacing listed around a price: the grid the signal engine picks strikes from,
/// so every signal's strike is a listed one.
pub use strikeline_engine::strike_increment;

/// Expirations closer than this are left out of the constant-maturity reading (the last
/// week's quotes are dominated by pin and event risk).
pub const MIN_DAYS_FOR_ATM: i64 = 7;
/// The farthest expiration used alone when the target has no expiration on one side.
pub const MAX_DAYS_FOR_ATM: i64 = 60;

/// A constant-maturity at-the-money implied volatility read from a chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtmVolatility {
    /// Per year, as a fraction.
    pub volatility: f64,
    /// The maturity it stands for, calendar days.
    pub days: i64,
    /// The expiration(s) it was read from: the one before the target and the one after, or
    /// one alone when the chain has nothing on the other side.
    pub near: NaiveDate,
    pub far: Option<NaiveDate>,
}

/// Why a chain gave no at-the-money reading.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AtmError {
    #[error(
        "the chain has no expiration between {MIN_DAYS_FOR_ATM} and {MAX_DAYS_FOR_ATM} days with implied volatilities either side of the underlying's price"
    )]
    NoUsableExpiration,
}

/// The `days`-day constant-maturity at-the-money implied volatility of `chain` on `today`:
/// for each expiration at least [`MIN_DAYS_FOR_ATM`] days out, the implied volatility at the
/// underlying's price (linear in strike between the listed strikes either side, each the mean
/// of its call's and put's where both are quoted); then total variance σ²·t interpolated
/// linearly in time between the expirations either side of `days` (the VIX method's
/// interpolation). With an expiration on one side only, the nearest within
/// [`MAX_DAYS_FOR_ATM`] days is used as it is.
///
/// # Errors
///
/// [`AtmError::NoUsableExpiration`] when no expiration qualifies.
pub fn constant_maturity_atm(chain: &OptionChain, today: NaiveDate, days: i64) -> Result<AtmVolatility, AtmError> {
    let spot = chain.underlying_price;
    let mut readings: Vec<(NaiveDate, i64, f64)> = Vec::new();
    for expiration in chain.expirations() {
        let to_expiry = (expiration - today).num_days();
        if to_expiry < MIN_DAYS_FOR_ATM {
            continue;
        }
        if let Some(iv) = atm_of_expiration(chain, expiration, spot) {
            readings.push((expiration, to_expiry, iv));
        }
    }
    let before = readings.iter().rev().find(|r| r.1 <= days).copied();
    let after = readings.iter().find(|r| r.1 >= days).copied();
    match (before, after) {
        (Some(near), Some(far)) if near.1 == far.1 => Ok(AtmVolatility { volatility: near.2, days, near: near.0, far: None }),
        (Some(near), Some(far)) => {
            let (t1, t2, t) = (near.1 as f64, far.1 as f64, days as f64);
            let (w1, w2) = (near.2 * near.2 * t1, far.2 * far.2 * t2);
            let w = w1 + (w2 - w1) * (t - t1) / (t2 - t1);
            Ok(AtmVolatility { volatility: (w / t).max(0.0).sqrt(), days, near: near.0, far: Some(far.0) })
        }
        (Some(one), None) | (None, Some(one)) if one.1 <= MAX_DAYS_FOR_ATM => {
            Ok(AtmVolatility { volatility: one.2, days, near: one.0, far: None })
        }
        _ => Err(AtmError::NoUsableExpiration),
    }
}

/// The implied volatility at `spot` for one expiration, interpolated in strike.
fn atm_of_expiration(chain: &OptionChain, expiration: NaiveDate, spot: f64) -> Option<f64> {
    // (strike, mean IV of its quoted contracts), in strike order.
    let mut strikes: Vec<(f64, f64)> = Vec::new();
    for contract in chain.contracts.iter().filter(|c| c.expiration == expiration) {
        let Some(iv) = contract.implied_volatility.filter(|v| v.is_finite() && *v > 0.0) else { continue };
        match strikes.last_mut() {
            Some((strike, sum)) if *strike == contract.strike => *sum = 0.5 * (*sum + iv),
            _ => strikes.push((contract.strike, iv)),
        }
    }
    let above = strikes.iter().position(|(k, _)| *k >= spot)?;
    let (k2, v2) = strikes[above];
    if k2 == spot {
        return Some(v2);
    }
    let (k1, v1) = strikes[above.checked_sub(1)?];
    Some(v1 + (v2 - v1) * (spot - k1) / (k2 - k1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).expect("a date")
    }

    fn contract(expiration: NaiveDate, strike: f64, right: OptionRight, iv: f64) -> OptionContract {
        OptionContract { implied_volatility: Some(iv), ..OptionContract::unquoted(right, strike, expiration) }
    }

    fn chain(contracts: Vec<OptionContract>) -> OptionChain {
        OptionChain { symbol: "AAPL".into(), underlying_price: 102.0, as_of: DateTime::UNIX_EPOCH, provider: "test", contracts }
    }

    #[test]
    fn the_listing_has_eight_weeks_of_weeklies_and_a_year_of_monthlies() {
        let nyse = Calendar::nyse();
        let dates = listed_expirations(&nyse, ymd(2026, 11, 27));
        // Friday the 27th itself (the day after Thanksgiving trades), then weekly to Jan 22.
        assert_eq!(dates[0], ymd(2026, 11, 27));
        assert_eq!(dates.iter().filter(|d| **d <= ymd(2027, 1, 22)).count(), 9);
        assert!(dates.contains(&ymd(2027, 11, 19)), "the monthly twelve months out");
        assert!(!dates.contains(&ymd(2027, 2, 5)), "no weekly past eight weeks");
        assert!(dates.contains(&ymd(2027, 2, 19)), "the February monthly");
        assert!(dates.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn atm_interpolates_in_strike_then_in_total_variance() {
        let today = ymd(2026, 1, 2);
        let (near, far) = (today + Days::new(23), today + Days::new(37));
        let mut contracts = Vec::new();
        for (expiration, low, high) in [(near, 0.30, 0.20), (far, 0.40, 0.30)] {
            for right in [OptionRight::Call, OptionRight::Put] {
                contracts.push(contract(expiration, 100.0, right, low));
                contracts.push(contract(expiration, 105.0, right, high));
            }
        }
        let reading = constant_maturity_atm(&chain(contracts), today, 30).expect("a reading");
        // Spot 102 is 40% of the way from 100 to 105: 0.26 at 23 days, 0.36 at 37 days.
        let (w1, w2) = (0.26_f64.powi(2) * 23.0, 0.36_f64.powi(2) * 37.0);
        let expected = ((w1 + (w2 - w1) * 7.0 / 14.0) / 30.0).sqrt();
        assert!((reading.volatility - expected).abs() < 1e-12, "{reading:?} vs {expected}");
        assert_eq!((reading.near, reading.far), (near, Some(far)));
    }

    #[test]
    fn a_chain_without_the_underlying_bracketed_gives_no_reading() {
        let today = ymd(2026, 1, 2);
        let expiration = today + Days::new(30);
        let only_above = vec![contract(expiration, 105.0, OptionRight::Call, 0.3)];
        assert_eq!(constant_maturity_atm(&chain(only_above), today, 30), Err(AtmError::NoUsableExpiration));
        let too_near = vec![
            contract(today + Days::new(3), 100.0, OptionRight::Call, 0.3),
            contract(today + Days::new(3), 105.0, OptionRight::Call, 0.3),
        ];
        assert_eq!(constant_maturity_atm(&chain(too_near), today, 30), Err(AtmError::NoUsableExpiration));
    }
}
