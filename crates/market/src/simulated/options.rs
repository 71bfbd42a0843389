//! The simulated market's option chain: American-style contracts on every listed expiration
//! ([`listed_expirations`]), priced by the American engine off a volatility surface that
//! moves with the name's own recent history, so its implied volatility is a market of its own
//! and not the listing's parameter:
//!
//! - **Level.** The at-the-money volatility for a very short maturity is the volatility risk
//!   premium ([`VARIANCE_PREMIUM`]) times a blend of the last 20 sessions' realised volatility
//!   ([`REALISED_WEIGHT`]) and the listing's long-run volatility, times a day's sentiment
//!   `exp(DAILY_NOISE · z)` drawn from the (seed, symbol, date) stream.
//! - **Term structure.** It reverts toward the premium times the long-run volatility with the
//!   maturity: `σ(T) = σ∞ + (σ0 − σ∞)(1 − e^{−κT})/(κT)` with `κ` = [`TERM_REVERSION`] per year.
//! - **Skew and smile.** `σ(K, T) = σ(T) · max(0.3, 1 − SKEW · x + SMILE · x²)` with the
//!   standardised moneyness `x = ln(K/F) / (σ(T)√T)` clipped to ±4.
//!
//! Prices are the American engine's at [`RATE`] with no dividend; bid and ask sit a spread of
//! `max($0.01, 1.5% of the price + $0.01)` either side of it, to the cent; the reported implied
//! volatility and Greeks are the model's. Open interest falls with distance from the money
//! and with time. `docs/market-data.md` lists the parameters.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use strikeline_quant::american::American;
use strikeline_quant::{OptionInputs, OptionType};

use super::{Listing, SimulatedMarket};
use crate::calendar::to_new_york;
use crate::data::{MarketError, checked_symbol};
use crate::options::{ChainQuery, ContractGreeks, OptionChain, OptionContract, OptionRight, listed_expirations, strike_increment};
use crate::rng::{Rng, hash_bytes};

/// The risk-free rate the simulated market prices its options at (continuous, per year).
pub const RATE: f64 = 0.04;
/// Implied over realised variance: option sellers are paid for bearing volatility.
pub const VARIANCE_PREMIUM: f64 = 1.10;
/// Weight of the last 20 sessions' realised volatility in the short-dated level.
pub const REALISED_WEIGHT: f64 = 0.65;
/// Standard deviation of the day's log sentiment on the level.
pub const DAILY_NOISE: f64 = 0.06;
/// Speed at which the term structure reverts to the long-run level, per year.
pub const TERM_REVERSION: f64 = 3.0;
/// Volatility lost per standard deviation of moneyness above the forward (equity skew).
pub const SKEW: f64 = 0.10;
/// Curvature of the smile per squared standard deviation of moneyness.
pub const SMILE: f64 = 0.02;
/// Strikes listed either side of the money per expiration, at most.
const MAX_STRIKES_EACH_SIDE: i64 = 60;
/// Sessions of closes the realised volatility is taken over.
const REALISED_WINDOW: usize = 20;

const IV_STREAM: u64 = 0x0049_5653; // "IVS"
const OPEN_INTEREST_STREAM: u64 = 0x4F49; // "OI"

impl SimulatedMarket {
    /// The option chain of `symbol` at `at`, restricted to `query`: every listed expiration
    /// that has not closed by `at`, strikes on the listed increment out to about 2.5 standard
    /// deviations (at least 10%) either side of the price.
    ///
    /// # Errors
    ///
    /// As [`SimulatedMarket::quote`].
    pub fn option_chain(&self, symbol: &str, query: &ChainQuery, at: DateTime<Utc>) -> Result<OptionChain, MarketError> {
        let symbol = checked_symbol(symbol)?;
        let listing = self.listing(symbol)?;
        let quote = self.quote(symbol, at)?;
        let today = to_new_york(at).date_naive();
        let surface = self.surface(&listing, quote.at.date_naive())?;
        let spot = quote.price;
        let step = strike_increment(spot);
        let mut contracts = Vec::new();
        for expiration in listed_expirations(&self.calendar, today) {
            let Some(session) = self.calendar.session(expiration) else { continue };
            if session.close <= at || !query.admits_expiration(expiration) {
                continue;
            }
            let years = (session.close - at).num_seconds() as f64 / (365.0 * 86_400.0);
            let atm = surface.at_the_money(years);
            let reach = (2.5 * atm * years.sqrt()).max(0.10);
            let centre = (spot / step).round() as i64;
            let low = ((spot * (-reach).exp() / step).floor() as i64).max(centre - MAX_STRIKES_EACH_SIDE).max(1);
            let high = ((spot * reach.exp() / step).ceil() as i64).min(centre + MAX_STRIKES_EACH_SIDE);
            for n in low..=high {
                let strike = n as f64 * step;
                if !query.admits(expiration, strike) {
                    continue;
                }
                let volatility = surface.at(strike, spot, years);
                for right in [OptionRight::Call, OptionRight::Put] {
                    let open_interest = self.open_interest(&listing, expiration, strike, right, spot, atm, years);
                    contracts.push(contract(right, strike, expiration, spot, years, volatility, open_interest));
                }
            }
        }
        let mut chain = OptionChain { symbol: listing.symbol, underlying_price: spot, as_of: at, provider: "simulated", contracts };
        chain.sort();
        Ok(chain)
    }

    /// The surface of `listing` on the session `date`.
    fn surface(&self, listing: &Listing, date: NaiveDate) -> Result<Surface, MarketError> {
        let from = date - chrono::Days::new(45);
        let bars = self.bars(&listing.symbol, from, date)?;
        let closes: Vec<f64> = bars.iter().rev().take(REALISED_WINDOW + 1).map(|b| b.close).collect();
        let realised = if closes.len() > 2 {
            let returns: Vec<f64> = closes.windows(2).map(|w| (w[0] / w[1]).ln()).collect();
            let mean = returns.iter().sum::<f64>() / returns.len() as f64;
            let variance = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (returns.len() - 1) as f64;
            (variance * super::TRADING_DAYS_PER_YEAR).sqrt()
        } else {
            listing.annual_volatility
        };
        let ordinal = u64::from(date.num_days_from_ce().unsigned_abs());
        let z = Rng::for_keys(&[self.seed, hash_bytes(listing.symbol.as_bytes()), ordinal, IV_STREAM]).normal();
        let long_run = VARIANCE_PREMIUM.sqrt() * listing.annual_volatility;
        let short = VARIANCE_PREMIUM.sqrt()
            * (REALISED_WEIGHT * realised + (1.0 - REALISED_WEIGHT) * listing.annual_volatility)
            * (DAILY_NOISE * z).exp();
        Ok(Surface { short, long_run })
    }

    #[expect(clippy::too_many_arguments, reason = "one contract's terms, each needed")]
    fn open_interest(
        &self,
        listing: &Listing,
        expiration: NaiveDate,
        strike: f64,
        right: OptionRight,
        spot: f64,
        atm: f64,
        years: f64,
    ) -> u64 {
        let keys = [
            self.seed,
            hash_bytes(listing.symbol.as_bytes()),
            u64::from(expiration.num_days_from_ce().unsigned_abs()),
            strike.to_bits(),
            u64::from(right == OptionRight::Put),
            OPEN_INTEREST_STREAM,
        ];
        let noise = (0.5 * Rng::for_keys(&keys).normal()).exp();
        let x = (strike / spot).ln() / (atm * years.max(1.0 / 365.0).sqrt());
        let base = listing.average_volume as f64 / 2_000.0;
        (base * (-0.5 * x * x).exp() * (-years).exp() * noise).round().max(0.0) as u64
    }
}

/// One session's volatility surface of one name.
struct Surface {
    short: f64,
    long_run: f64,
}

impl Surface {
    fn at_the_money(&self, years: f64) -> f64 {
        let k = TERM_REVERSION * years.max(1e-6);
        self.long_run + (self.short - self.long_run) * (1.0 - (-k).exp()) / k
    }

    fn at(&self, strike: f64, spot: f64, years: f64) -> f64 {
        let atm = self.at_the_money(years);
        let forward = spot * (RATE * years).exp();
        let x = ((strike / forward).ln() / (atm * years.max(1e-6).sqrt())).clamp(-4.0, 4.0);
        atm * (1.0 - SKEW * x + SMILE * x * x).max(0.3)
    }
}

fn contract(
    right: OptionRight,
    strike: f64,
    expiration: NaiveDate,
    spot: f64,
    years: f64,
    volatility: f64,
    open_interest: u64,
) -> OptionContract {
    let kind = match right {
        OptionRight::Call => OptionType::Call,
        OptionRight::Put => OptionType::Put,
    };
    let inputs = OptionInputs { spot, strike, rate: RATE, dividend_yield: 0.0, volatility, time_to_expiry: years };
    let Ok(model) = American::new(inputs) else {
        return OptionContract { open_interest: Some(open_interest), ..OptionContract::unquoted(right, strike, expiration) };
    };
    let valuation = match right {
        // No dividend: a call is never exercised early, and the closed form is exact.
        OptionRight::Call => model.european().valuation(kind),
        OptionRight::Put => model.valuation(kind),
    };
    let price = valuation.price.max(0.0);
    let half_spread = (0.015 * price + 0.01).max(0.01);
    let bid = ((price - half_spread) * 100.0).floor().max(0.0) / 100.0;
    let ask = (((price + half_spread) * 100.0).ceil() / 100.0).max(0.01);
    let g = valuation.greeks;
    OptionContract {
        right,
        strike,
        expiration,
        bid: Some(bid),
        ask: Some(ask),
        last: None,
        implied_volatility: Some(volatility),
        // Central differences can step a hair past the bounds deep in the money.
        greeks: Some(ContractGreeks {
            delta: match right {
                OptionRight::Call => g.delta.clamp(0.0, 1.0),
                OptionRight::Put => g.delta.clamp(-1.0, 0.0),
            },
            gamma: g.gamma.max(0.0),
            theta: g.theta / 365.0,
            vega: g.vega.max(0.0) / 100.0,
        }),
        open_interest: Some(open_interest),
    }
}
