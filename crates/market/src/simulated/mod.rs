//! The simulated market: Strikeline's offline, deterministic default provider.
//!
//! Fifty liquid US names (plus any other valid ticker, as a synthetic listing) trade on the
//! NYSE calendar from [`HISTORY_START`] on. Each name's daily log-returns follow geometric
//! Brownian motion with its own drift and volatility, driven partly by a market factor shared
//! by all names, with calm and stormy volatility regimes (a two-state Markov chain for the
//! market and one per name), occasional overnight news jumps, open gaps, Brownian-bridge highs
//! and lows, and volume that rises on big moves. Prices are scaled so that each name closes
//! at its reference price on [`REFERENCE_DATE`].
//!
//! Everything is a pure function of the seed, the symbol and the date: the random numbers of
//! one (symbol, day) come from their own SplitMix64 stream, so the answer never depends on the
//! order of calls, on other symbols, or on how far the history was generated before.
//! The crate reads no clock: quotes are asked for an instant `at`.
//!
//! During a session a quote follows a Brownian path from the day's open to its close that
//! touches the day's high and low, so the quote at the close equals the bar; while the
//! exchange is closed the quote is the last close. Exchange rates (euros and pounds per
//! dollar) mean-revert around fixed levels, one step per weekday
//! ([`SimulatedMarket::exchange_rates_at`]). `docs/market-data.md` gives the model and every
//! parameter.

mod options;
pub use options::RATE as OPTIONS_RATE;
mod universe;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use crate::calendar::{Calendar, Session, to_new_york};
use crate::data::{CompanyInfo, DailyBar, MarketError, Quote, Sector, checked_symbol, round_price};
use crate::fx::{Currency, ExchangeRates, REFERENCE_RATES};
use crate::options::{ChainQuery, OptionChain};
use crate::provider::{MarketData, MarketFuture};
use crate::rng::{Rng, hash_bytes};

const fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(year, month, day) {
        Some(d) => d,
        None => panic!("invalid constant date"),
    }
}

/// The first simulated session (a Thursday): over ten years of history before the present.
pub const HISTORY_START: NaiveDate = ymd(2014, 1, 2);
/// The session whose close equals each listing's [`Listing::reference_price`].
pub const REFERENCE_DATE: NaiveDate = ymd(2025, 1, 2);
/// The simulation ends here: later dates are answered as of this day's close.
pub const HORIZON: NaiveDate = ymd(2099, 12, 31);

/// Trading days per year, for annualising.
pub const TRADING_DAYS_PER_YEAR: f64 = 252.0;

// ----- model parameters (docs/market-data.md lists them) -----

/// Share of a day's diffusion variance that falls overnight (the open gap).
const OVERNIGHT_VARIANCE_SHARE: f64 = 0.2;
/// Volatility multiplier in a stormy regime.
const STORMY_MULTIPLIER: f64 = 1.8;
/// Daily probability that a calm stretch turns stormy (calm stretches last 120 days on average).
const CALM_TO_STORMY: f64 = 1.0 / 120.0;
/// Daily probability that a storm calms down (storms last 30 days on average).
const STORMY_TO_CALM: f64 = 1.0 / 30.0;
/// Long-run share of stormy days.
const STORMY_SHARE: f64 = CALM_TO_STORMY / (CALM_TO_STORMY + STORMY_TO_CALM);
/// Daily probability of an overnight news jump (about four a year, like earnings).
const JUMP_PROBABILITY: f64 = 1.0 / 63.0;
/// Standard deviation of a news jump, in daily volatilities.
const JUMP_SIZE: f64 = 2.5;
/// Standard deviation of the log-noise on daily volume.
const VOLUME_NOISE: f64 = 0.3;
/// How much of a day's volume follows the size of its move (the rest is noise around the
/// average).
const VOLUME_MOVE_SENSITIVITY: f64 = 0.45;
/// Depth of the intraday U-shaped volume profile (0 = flat).
const VOLUME_U_SHAPE: f64 = 2.0;
/// Minutes in a regular session.
const REGULAR_SESSION_MINUTES: f64 = 390.0;
/// Long-run standard deviation of an exchange rate's log distance from its reference level.
const FX_LONG_RUN_VOL: f64 = 0.05;
/// Weekdays for an exchange rate's distance from its reference level to halve, on average.
const FX_HALF_LIFE_DAYS: f64 = 250.0;
/// Share of each weekday's exchange-rate variance that is a dollar move common to all rates.
const FX_DOLLAR_SHARE: f64 = 0.6;
/// Weekdays of shocks summed for a rate (five half-lives: older ones weigh under 1/32).
const FX_MEMORY_DAYS: u32 = 1250;

/// Volatility multiplier in a calm regime, chosen so that the long-run mean variance
/// multiplier is exactly 1 and realised volatility matches the configured one.
fn calm_multiplier() -> f64 {
    ((1.0 - STORMY_SHARE * STORMY_MULTIPLIER * STORMY_MULTIPLIER) / (1.0 - STORMY_SHARE)).sqrt()
}

// Salts that name the random streams.
const MARKET_STREAM: u64 = 0x4D41_524B_4554; // "MARKET"
const DAY_STREAM: u64 = 0x0044_4159;
const INTRADAY_STREAM: u64 = 0x0049_4E54_5241;
const START_STREAM: u64 = 0x0053_5441_5254;
const FX_STREAM: u64 = 0x4658; // "FX"

/// Where a [`Listing`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListingOrigin {
    /// One of the fifty built-in names.
    BuiltIn,
    /// Registered by a user with [`SimulatedMarket::register`].
    Registered,
    /// Any other valid ticker, made up from a hash of the symbol.
    Synthetic,
}

/// A simulated listing: the company and the parameters of its price process.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The ticker.
    pub symbol: String,
    /// The company name.
    pub name: String,
    /// The sector.
    pub sector: Sector,
    /// The close on [`REFERENCE_DATE`], dollars.
    pub reference_price: f64,
    /// Annualised volatility of daily log-returns, e.g. 0.27.
    pub annual_volatility: f64,
    /// Annual drift (expected return), e.g. 0.14.
    pub annual_drift: f64,
    /// Average shares traded per regular session.
    pub average_volume: u64,
    /// Shares outstanding (market cap = shares × price).
    pub shares_outstanding: u64,
    /// Correlation of the name's diffusion with the market factor.
    pub market_correlation: f64,
    /// Built in, registered or synthetic.
    pub origin: ListingOrigin,
}

impl Listing {
    /// The company facts at the reference price.
    pub fn company_info(&self) -> CompanyInfo {
        CompanyInfo {
            symbol: self.symbol.clone(),
            name: self.name.clone(),
            sector: self.sector,
            // Shares are below 2^53: the cast is exact.
            market_cap: Some((self.shares_outstanding as f64 * self.reference_price).round()),
            shares_outstanding: Some(self.shares_outstanding),
        }
    }

    fn built_in(row: &universe::Row) -> Self {
        let &(symbol, name, sector, price, vol, drift, volume_m, shares_m) = row;
        Self {
            symbol: symbol.to_owned(),
            name: name.to_owned(),
            sector,
            reference_price: price,
            annual_volatility: vol,
            annual_drift: drift,
            average_volume: whole(volume_m * 1e6),
            shares_outstanding: whole(shares_m * 1e6),
            market_correlation: universe::market_correlation(sector),
            origin: ListingOrigin::BuiltIn,
        }
    }

    /// A made-up but stable listing for any other valid ticker: its parameters come from a
    /// hash of the symbol (so a ticker is the same company under every seed).
    fn synthetic(symbol: &str, name: Option<&str>, sector: Option<Sector>) -> Self {
        let mut rng = Rng::new(hash_bytes(symbol.as_bytes()));
        let log_uniform = |rng: &mut Rng, lo: f64, hi: f64| rng.range(lo.ln(), hi.ln()).exp();
        let reference_price = round_price(log_uniform(&mut rng, 10.0, 300.0));
        let annual_volatility = (rng.range(0.22, 0.60) * 100.0).round() / 100.0;
        let annual_drift = (rng.range(0.0, 0.12) * 100.0).round() / 100.0;
        let average_volume = whole(log_uniform(&mut rng, 5e5, 2e7));
        let shares_outstanding = whole(log_uniform(&mut rng, 5e7, 2e9));
        let name = name.map(str::trim).filter(|n| !n.is_empty()).map_or_else(|| format!("{symbol} Company"), str::to_owned);
        Self {
            symbol: symbol.to_owned(),
            name,
            sector: sector.unwrap_or_default(),
            reference_price,
            annual_volatility,
            annual_drift,
            average_volume,
            shares_outstanding,
            market_correlation: 0.5,
            origin: ListingOrigin::Synthetic,
        }
    }
}

/// A non-negative float made a whole count (saturating; the inputs here are small and positive).
fn whole(x: f64) -> u64 {
    // `as` saturates and maps NaN to 0; the values are counts well below 2^53.
    x.round().max(0.0) as u64
}

/// The offline market: deterministic for a seed, on the NYSE calendar. Cheap to share
/// (`Arc<SimulatedMarket>` or `Arc<dyn MarketData>`); generated history is cached inside.
pub struct SimulatedMarket {
    seed: u64,
    calendar: Calendar,
    built_in: Vec<Listing>,
    state: Mutex<State>,
}

impl std::fmt::Debug for SimulatedMarket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimulatedMarket").field("seed", &self.seed).finish_non_exhaustive()
    }
}

#[derive(Default)]
struct State {
    timeline: Timeline,
    histories: HashMap<String, History>,
    registered: BTreeMap<String, Listing>,
}

/// The trading days from [`HISTORY_START`] and the market factor of each.
#[derive(Default)]
struct Timeline {
    days: Vec<MarketDay>,
    /// The first date not yet looked at (None before the first extension).
    next: Option<NaiveDate>,
    stormy: bool,
}

#[derive(Debug, Clone, Copy)]
struct MarketDay {
    date: NaiveDate,
    /// Session length as a share of a regular one (early closes trade less).
    session_share: f64,
    multiplier: f64,
    z_overnight: f64,
    z_intraday: f64,
}

/// One symbol's generated history and the state to extend it.
struct History {
    bars: Vec<DailyBar>,
    /// The close before the first bar.
    reference_close: f64,
    /// Raw (unscaled) log close of the last bar.
    raw_log_close: f64,
    /// `ln(price) = raw log + shift`, fixed so the reference date closes at the reference price.
    shift: f64,
    stormy: bool,
}

/// A day in raw log space, before scaling and rounding.
struct RawDay {
    open: f64,
    high: f64,
    low: f64,
    close: f64,
    volume: u64,
}

impl SimulatedMarket {
    /// The simulated market for `seed` on the NYSE calendar ([`Calendar::nyse`]).
    pub fn new(seed: u64) -> Self {
        Self::with_calendar(seed, Calendar::nyse())
    }

    /// The simulated market for `seed` on `calendar` (e.g. with extra closures from
    /// configuration).
    pub fn with_calendar(seed: u64, calendar: Calendar) -> Self {
        Self { seed, calendar, built_in: universe::BUILT_IN.iter().map(Listing::built_in).collect(), state: Mutex::new(State::default()) }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The calendar sessions are taken from.
    pub fn calendar(&self) -> &Calendar {
        &self.calendar
    }

    /// The listing of `symbol`: built in, registered, or synthetic (every valid ticker has one).
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`] when `symbol` is not a valid ticker.
    pub fn listing(&self, symbol: &str) -> Result<Listing, MarketError> {
        let symbol = checked_symbol(symbol)?;
        if let Some(listing) = self.built_in.iter().find(|l| l.symbol == symbol) {
            return Ok(listing.clone());
        }
        Ok(self.lock().registered.get(symbol).cloned().unwrap_or_else(|| Listing::synthetic(symbol, None, None)))
    }

    /// The fifty built-in listings (in sector order), then the registered ones by symbol.
    pub fn listings(&self) -> Vec<Listing> {
        let mut all = self.built_in.clone();
        all.extend(self.lock().registered.values().cloned());
        all
    }

    /// Registers a user-supplied name and sector for a ticker that is not built in (the
    /// watchlist's "SYMBOL, Company Name, Sector"); a blank or missing name becomes
    /// "SYMBOL Company", a missing sector Technology. Registering again replaces the name and
    /// sector. Built-in names keep their real company and sector. Prices never depend on
    /// registration.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`] when `symbol` is not a valid ticker.
    pub fn register(&self, symbol: &str, name: Option<&str>, sector: Option<Sector>) -> Result<Listing, MarketError> {
        let symbol = checked_symbol(symbol)?;
        if let Some(listing) = self.built_in.iter().find(|l| l.symbol == symbol) {
            return Ok(listing.clone());
        }
        let mut listing = Listing::synthetic(symbol, name, sector);
        listing.origin = ListingOrigin::Registered;
        self.lock().registered.insert(symbol.to_owned(), listing.clone());
        Ok(listing)
    }

    /// Company facts for `symbol`, market cap at the reference price.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`] when `symbol` is not a valid ticker.
    pub fn company_info(&self, symbol: &str) -> Result<CompanyInfo, MarketError> {
        self.listing(symbol).map(|l| l.company_info())
    }

    /// The daily bars of `symbol` for the sessions in `[from, to]`, oldest first. The range is
    /// clipped to [`HISTORY_START`]..=[`HORIZON`].
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`] when `symbol` is not a valid ticker.
    pub fn bars(&self, symbol: &str, from: NaiveDate, to: NaiveDate) -> Result<Vec<DailyBar>, MarketError> {
        let listing = self.listing(symbol)?;
        let to = to.min(HORIZON);
        if to < from || to < HISTORY_START {
            return Ok(Vec::new());
        }
        let mut state = self.lock();
        let history = self.history(&mut state, &listing, to);
        let start = history.bars.partition_point(|b| b.date < from);
        let end = history.bars.partition_point(|b| b.date <= to);
        Ok(history.bars[start..end].to_vec())
    }

    /// The quote of `symbol` at `at`: during a session, the price on the day's intraday path
    /// with the day's high, low and volume so far; while closed, the last session's close.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`] when `symbol` is not a valid ticker;
    /// [`MarketError::Unavailable`] before the first simulated session has opened.
    pub fn quote(&self, symbol: &str, at: DateTime<Utc>) -> Result<Quote, MarketError> {
        let listing = self.listing(symbol)?;
        let (session, live) = self
            .last_session(at)
            .ok_or_else(|| MarketError::Unavailable(format!("the simulated market opens on {HISTORY_START}; no quote before that")))?;
        let mut state = self.lock();
        let history = self.history(&mut state, &listing, session.date);
        let index = history.bars.partition_point(|b| b.date < session.date);
        let Some(bar) = history.bars.get(index).copied() else {
            return Err(MarketError::Unavailable(format!("no simulated session on {}", session.date)));
        };
        let previous_close = index.checked_sub(1).and_then(|i| history.bars.get(i)).map_or(history.reference_close, |b| b.close);
        drop(state);
        if live {
            Ok(self.intraday_quote(&listing.symbol, &bar, previous_close, &session, at))
        } else {
            Ok(Quote {
                symbol: listing.symbol,
                price: bar.close,
                previous_close,
                day_open: bar.open,
                day_high: bar.high,
                day_low: bar.low,
                volume: bar.volume,
                at: session.close,
            })
        }
    }

    /// The exchange rates for the New York date of `at`, as of `at` (so every instant of a
    /// date gets the same rates; a Saturday or Sunday gets Friday's; dates past [`HORIZON`]
    /// get the horizon's). USD is 1; EUR and GBP are their reference levels (0.92 and 0.79
    /// per USD) times `exp(x)`, rounded to 1/10,000, where `x` is a weekday AR(1) process
    /// with a half-life of 250 weekdays and a long-run standard deviation of 0.05 (daily
    /// moves of about 0.37%), 60% of whose variance is a dollar move common to both. `x` is
    /// the weighted sum of the last 1,250 weekdays' shocks, each drawn from its own
    /// (seed, date) stream: a pure function of the seed and the date.
    pub fn exchange_rates_at(&self, at: DateTime<Utc>) -> ExchangeRates {
        let phi = 0.5_f64.powf(1.0 / FX_HALF_LIFE_DAYS);
        let mut weight = FX_LONG_RUN_VOL * (1.0 - phi * phi).sqrt();
        let mut date = to_new_york(at).date_naive().min(HORIZON);
        // Log distance from the reference level, per currency of REFERENCE_RATES (USD stays 0).
        let mut x = [0.0; REFERENCE_RATES.len()];
        let mut counted = 0;
        while counted < FX_MEMORY_DAYS {
            if date.weekday().num_days_from_monday() < 5 {
                let ordinal = u64::from(date.num_days_from_ce().unsigned_abs());
                let mut rng = Rng::for_keys(&[self.seed, FX_STREAM, ordinal]);
                let dollar = FX_DOLLAR_SHARE.sqrt() * rng.normal();
                for x in &mut x[1..] {
                    *x += weight * (dollar + (1.0 - FX_DOLLAR_SHARE).sqrt() * rng.normal());
                }
                weight *= phi;
                counted += 1;
            }
            let Some(previous) = date.pred_opt() else {
                break;
            };
            date = previous;
        }
        ExchangeRates {
            base: Currency::Usd,
            rates: REFERENCE_RATES.iter().zip(x).map(|(&(currency, level), x)| (currency, (level * x.exp() * 1e4).round() / 1e4)).collect(),
            as_of: at,
            provider: self.provider_name(),
        }
    }

    /// The session `at` falls in (`true`) or the last one that has closed by `at` (`false`);
    /// `None` before the first simulated session opens. Instants past the horizon are
    /// answered as of the horizon's last close.
    fn last_session(&self, at: DateTime<Utc>) -> Option<(Session, bool)> {
        // A session lies inside its own UTC date, so the UTC date finds it.
        let date = at.date_naive();
        if date > HORIZON {
            let last = self.calendar.trading_day_on_or_before(HORIZON);
            return self.calendar.session(last).map(|s| (s, false));
        }
        if let Some(session) = self.calendar.session(date)
            && session.open <= at
        {
            let live = at < session.close;
            return (date >= HISTORY_START).then_some((session, live));
        }
        let previous = self.calendar.previous_trading_day(date);
        if previous < HISTORY_START {
            return None;
        }
        self.calendar.session(previous).map(|s| (s, false))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is only ever extended; a panic mid-extension leaves it usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The history of `listing`, generated at least through `through` (and through the
    /// reference date).
    fn history<'s>(&self, state: &'s mut State, listing: &Listing, through: NaiveDate) -> &'s History {
        let through = through.clamp(REFERENCE_DATE, HORIZON);
        let State { timeline, histories, .. } = state;
        self.extend_timeline(timeline, through);
        let key = hash_bytes(listing.symbol.as_bytes());
        let history = histories.entry(listing.symbol.clone()).or_insert_with(|| self.start_history(listing, key, timeline));
        let wanted = timeline.days.partition_point(|d| d.date <= through);
        let have = history.bars.len();
        if have < wanted {
            history.bars.reserve(wanted - have);
            for day in &timeline.days[have..wanted] {
                let raw = self.raw_day(listing, key, history, day);
                history.bars.push(scaled_bar(day.date, &raw, history.shift));
            }
        }
        history
    }

    /// Generates the raw path through the reference date, fixes the scale, keeps the bars.
    fn start_history(&self, listing: &Listing, key: u64, timeline: &Timeline) -> History {
        let mut start = Rng::for_keys(&[self.seed, key, START_STREAM]);
        let mut history =
            History { bars: Vec::new(), reference_close: 0.0, raw_log_close: 0.0, shift: 0.0, stormy: start.uniform() < STORMY_SHARE };
        let reference_index = timeline.days.partition_point(|d| d.date <= REFERENCE_DATE);
        let mut raw = Vec::with_capacity(reference_index);
        for day in &timeline.days[..reference_index] {
            raw.push(self.raw_day(listing, key, &mut history, day));
        }
        let reference_log_close = raw.last().map_or(0.0, |d| d.close);
        history.shift = listing.reference_price.ln() - reference_log_close;
        history.reference_close = round_price(history.shift.exp());
        history.bars =
            timeline.days[..reference_index].iter().zip(&raw).map(|(day, raw)| scaled_bar(day.date, raw, history.shift)).collect();
        history
    }

    /// One simulated session in raw log space; advances the history's log close and regime.
    fn raw_day(&self, listing: &Listing, key: u64, history: &mut History, day: &MarketDay) -> RawDay {
        let ordinal = u64::from(day.date.num_days_from_ce().unsigned_abs());
        let mut rng = Rng::for_keys(&[self.seed, key, ordinal, DAY_STREAM]);
        // Fixed draw order: regime, overnight, intraday, jump, high, low, volume.
        let u_regime = rng.uniform();
        let z_overnight = rng.normal();
        let z_intraday = rng.normal();
        let u_jump = rng.uniform();
        let z_jump = rng.normal();
        let u_high = rng.uniform_open0();
        let u_low = rng.uniform_open0();
        let z_volume = rng.normal();

        history.stormy = next_regime(history.stormy, u_regime);
        let own = if history.stormy { STORMY_MULTIPLIER } else { calm_multiplier() };

        let daily_vol = listing.annual_volatility / TRADING_DAYS_PER_YEAR.sqrt();
        let diffusion_vol = daily_vol * (1.0 - JUMP_PROBABILITY * JUMP_SIZE * JUMP_SIZE).sqrt();
        let beta = listing.market_correlation;
        let idio = (1.0 - beta * beta).sqrt();
        let shock = |z_market: f64, z_own: f64| beta * day.multiplier * z_market + idio * own * z_own;
        let jump = if u_jump < JUMP_PROBABILITY { JUMP_SIZE * daily_vol * z_jump } else { 0.0 };
        let drift = (listing.annual_drift - 0.5 * listing.annual_volatility.powi(2)) / TRADING_DAYS_PER_YEAR;

        let overnight = diffusion_vol * OVERNIGHT_VARIANCE_SHARE.sqrt() * shock(day.z_overnight, z_overnight) + jump;
        let intraday_share = 1.0 - OVERNIGHT_VARIANCE_SHARE;
        let intraday = drift + diffusion_vol * intraday_share.sqrt() * shock(day.z_intraday, z_intraday);
        // Variance of the intraday move, for the Brownian-bridge extremes.
        let intraday_variance = diffusion_vol.powi(2) * intraday_share * (beta * beta * day.multiplier.powi(2) + idio * idio * own * own);

        let open = history.raw_log_close + overnight;
        let close = open + intraday;
        // Maximum and minimum of a Brownian bridge from 0 to x with variance v:
        // P(max >= m) = exp(-2 m (m - x) / v), solved for m at a uniform draw.
        let x = intraday;
        let high = open + 0.5 * (x + (x * x - 2.0 * intraday_variance * u_high.ln()).sqrt());
        let low = open + 0.5 * (x - (x * x - 2.0 * intraday_variance * u_low.ln()).sqrt());

        let move_size = (overnight + intraday - drift).abs() / (daily_vol * 0.8);
        let activity = (1.0 - VOLUME_MOVE_SENSITIVITY) + VOLUME_MOVE_SENSITIVITY * move_size;
        let noise = (VOLUME_NOISE * z_volume - 0.5 * VOLUME_NOISE * VOLUME_NOISE).exp();
        let volume = whole(listing.average_volume as f64 * noise * activity * day.session_share).max(1);

        history.raw_log_close = close;
        RawDay { open, high, low, close, volume }
    }

    fn extend_timeline(&self, timeline: &mut Timeline, through: NaiveDate) {
        let mut date = match timeline.next {
            Some(next) => next,
            None => {
                let mut start = Rng::for_keys(&[self.seed, MARKET_STREAM, START_STREAM]);
                timeline.stormy = start.uniform() < STORMY_SHARE;
                HISTORY_START
            }
        };
        while date <= through {
            if let Some(session) = self.calendar.session(date) {
                let ordinal = u64::from(date.num_days_from_ce().unsigned_abs());
                let mut rng = Rng::for_keys(&[self.seed, MARKET_STREAM, ordinal]);
                timeline.stormy = next_regime(timeline.stormy, rng.uniform());
                let minutes = (session.close - session.open).num_minutes();
                // At most 390: the cast is exact.
                let session_share = minutes as f64 / REGULAR_SESSION_MINUTES;
                timeline.days.push(MarketDay {
                    date,
                    session_share,
                    multiplier: if timeline.stormy { STORMY_MULTIPLIER } else { calm_multiplier() },
                    z_overnight: rng.normal(),
                    z_intraday: rng.normal(),
                });
            }
            let Some(next) = date.succ_opt() else { break };
            date = next;
        }
        timeline.next = Some(date);
    }

    /// The quote at `at` inside `session`, on a minute path from the open to the close that
    /// touches the bar's high and low.
    fn intraday_quote(&self, symbol: &str, bar: &DailyBar, previous_close: f64, session: &Session, at: DateTime<Utc>) -> Quote {
        let minutes = usize::try_from((session.close - session.open).num_minutes()).unwrap_or(0).max(3);
        let path = self.intraday_path(symbol, bar, minutes);
        let elapsed_ms = (at - session.open).num_milliseconds().max(0);
        // Minutes since the open as a float; sessions are a few hundred minutes long.
        let elapsed = (elapsed_ms as f64 / 60_000.0).min(minutes as f64);
        let step = (elapsed.floor() as usize).min(minutes - 1);
        let frac = elapsed - step as f64;
        let now = path[step] + frac * (path[step + 1] - path[step]);
        let (seen_low, seen_high) = path[..=step].iter().fold((now, now), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let price_at = |v: f64| round_price(bar.open * v.exp());
        let share = volume_profile(elapsed / minutes as f64);
        Quote {
            symbol: symbol.to_owned(),
            price: price_at(now),
            previous_close,
            day_open: bar.open,
            day_high: price_at(seen_high).min(bar.high),
            day_low: price_at(seen_low).max(bar.low),
            volume: whole(bar.volume as f64 * share).min(bar.volume),
            at,
        }
    }

    /// `minutes + 1` log prices relative to the open: 0 at the open, `ln(close/open)` at the
    /// close, exactly `ln(high/open)` and `ln(low/open)` once each, and inside that band
    /// everywhere (Brownian bridges between those four points, reflected at the band).
    fn intraday_path(&self, symbol: &str, bar: &DailyBar, minutes: usize) -> Vec<f64> {
        let key = hash_bytes(symbol.as_bytes());
        let ordinal = u64::from(bar.date.num_days_from_ce().unsigned_abs());
        let mut rng = Rng::for_keys(&[self.seed, key, ordinal, INTRADAY_STREAM]);
        let end = (bar.close / bar.open).ln();
        let high = (bar.high / bar.open).ln().max(0.0).max(end);
        let low = (bar.low / bar.open).ln().min(0.0).min(end);
        let mut path = vec![0.0; minutes + 1];
        if high - low < 1e-12 {
            return path;
        }
        // The times of the high and the low: distinct interior minutes, uniform (the argmax
        // of a Brownian bridge is uniform).
        let n = minutes as u64;
        let t_high = 1 + rng.below(n - 1);
        let mut t_low = 1 + rng.below(n - 2);
        if t_low >= t_high {
            t_low += 1;
        }
        let (t_high, t_low) = (t_high as usize, t_low as usize);
        let mut anchors = [(0, 0.0), (t_high, high), (t_low, low), (minutes, end)];
        anchors.sort_by_key(|&(t, _)| t);
        // Per-minute volatility from the day's range (Parkinson: E[(H-L)^2] = 4 ln2 σ²).
        let step_vol = (high - low) / (4.0 * std::f64::consts::LN_2 * minutes as f64).sqrt();
        for pair in anchors.windows(2) {
            let [(t0, v0), (t1, v1)] = [pair[0], pair[1]];
            let len = (t1 - t0) as f64;
            let mut walk = Vec::with_capacity(t1 - t0 + 1);
            walk.push(0.0);
            for _ in t0..t1 {
                let last = walk.last().copied().unwrap_or(0.0);
                walk.push(last + step_vol * rng.normal());
            }
            let walk_end = walk.last().copied().unwrap_or(0.0);
            for (i, w) in walk.iter().enumerate().skip(1) {
                let s = i as f64 / len;
                let bridged = v0 + s * (v1 - v0) + w - s * walk_end;
                path[t0 + i] = reflect(bridged, low, high);
            }
        }
        for (t, v) in anchors {
            path[t] = v;
        }
        path
    }
}

/// Folds `v` back into `[low, high]` by reflection at the edges.
fn reflect(mut v: f64, low: f64, high: f64) -> f64 {
    let width = high - low;
    for _ in 0..64 {
        if v > high {
            v = 2.0 * high - v;
        } else if v < low {
            v = 2.0 * low - v;
        } else {
            return v;
        }
    }
    // Only a walk many band widths away gets here; fold it arithmetically.
    let period = 2.0 * width;
    let r = (v - low).rem_euclid(period);
    low + if r > width { period - r } else { r }
}

/// The share of a session's volume traded by `u` ∈ [0, 1] of the session: a U-shaped
/// intensity `1 + a (2u - 1)²`, heavier at the open and the close.
fn volume_profile(u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    let a = VOLUME_U_SHAPE;
    (u + a * ((2.0 * u - 1.0).powi(3) + 1.0) / 6.0) / (1.0 + a / 3.0)
}

fn next_regime(stormy: bool, u: f64) -> bool {
    if stormy { u >= STORMY_TO_CALM } else { u < CALM_TO_STORMY }
}

fn scaled_bar(date: NaiveDate, raw: &RawDay, shift: f64) -> DailyBar {
    let price = |log: f64| round_price((log + shift).exp());
    DailyBar { date, open: price(raw.open), high: price(raw.high), low: price(raw.low), close: price(raw.close), volume: raw.volume }
}

impl MarketData for SimulatedMarket {
    fn provider_name(&self) -> &'static str {
        "simulated"
    }

    fn quotes<'a>(&'a self, symbols: &'a [String], at: DateTime<Utc>) -> MarketFuture<'a, Vec<Quote>> {
        let result = symbols.iter().map(|s| self.quote(s, at)).collect();
        Box::pin(std::future::ready(result))
    }

    fn daily_bars<'a>(&'a self, symbol: &'a str, from: NaiveDate, to: NaiveDate) -> MarketFuture<'a, Vec<DailyBar>> {
        Box::pin(std::future::ready(self.bars(symbol, from, to)))
    }

    fn company<'a>(&'a self, symbol: &'a str) -> MarketFuture<'a, CompanyInfo> {
        Box::pin(std::future::ready(self.company_info(symbol)))
    }

    fn exchange_rates<'a>(&'a self, at: DateTime<Utc>) -> MarketFuture<'a, ExchangeRates> {
        Box::pin(std::future::ready(Ok(self.exchange_rates_at(at))))
    }

    fn option_chain<'a>(&'a self, symbol: &'a str, query: ChainQuery, at: DateTime<Utc>) -> MarketFuture<'a, OptionChain> {
        Box::pin(std::future::ready(SimulatedMarket::option_chain(self, symbol, &query, at)))
    }

    fn answers_any_instant(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regime_multipliers_average_to_one() {
        let mean_variance = STORMY_SHARE * STORMY_MULTIPLIER.powi(2) + (1.0 - STORMY_SHARE) * calm_multiplier().powi(2);
        assert!((mean_variance - 1.0).abs() < 1e-12);
        assert!(calm_multiplier() > 0.5 && calm_multiplier() < 1.0);
    }

    #[test]
    fn the_volume_profile_runs_from_none_to_all() {
        assert_eq!(volume_profile(0.0), 0.0);
        assert!((volume_profile(1.0) - 1.0).abs() < 1e-12);
        assert!((volume_profile(0.5) - 0.5).abs() < 1e-12);
        // Heavier at the open: the first tenth trades more than a tenth.
        assert!(volume_profile(0.1) > 0.1);
        let mut last = 0.0;
        for i in 1..=100 {
            let v = volume_profile(f64::from(i) / 100.0);
            assert!(v > last);
            last = v;
        }
    }

    #[test]
    fn reflection_stays_in_the_band() {
        assert_eq!(reflect(0.5, 0.0, 1.0), 0.5);
        assert!((reflect(1.2, 0.0, 1.0) - 0.8).abs() < 1e-12);
        assert!((reflect(-0.3, 0.0, 1.0) - 0.3).abs() < 1e-12);
        let far = reflect(1000.3, 0.0, 1.0);
        assert!((0.0..=1.0).contains(&far));
    }

    #[test]
    fn intraday_paths_touch_the_bar_and_stay_inside() {
        let market = SimulatedMarket::new(7);
        let bars = market.bars("NVDA", ymd(2024, 3, 1), ymd(2024, 6, 30)).unwrap();
        for bar in &bars {
            let path = market.intraday_path("NVDA", bar, 390);
            let hi = path.iter().copied().fold(f64::MIN, f64::max);
            let lo = path.iter().copied().fold(f64::MAX, f64::min);
            assert!((bar.open * hi.exp() - bar.high).abs() < 1e-9, "{bar:?}");
            assert!((bar.open * lo.exp() - bar.low).abs() < 1e-9, "{bar:?}");
            assert_eq!(path[0], 0.0);
            assert!((bar.open * path[390].exp() - bar.close).abs() < 1e-9);
        }
    }
}
