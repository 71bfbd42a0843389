//! The implied-volatility history behind IV rank and IV percentile (issue 28): one 30-day
//! constant-maturity at-the-money reading per symbol and session, read from the market-data
//! provider's option chain at the session's close and stored (`iv_history`).
//!
//! - **Recording.** After each close (the end-of-day job, and every first start) the last
//!   completed session is recorded for every tracked symbol that lacks it. A live
//!   vendor answers with its latest quotes, so a reading is stored only when the chain's quotes
//!   are from that session; otherwise it is skipped and logged, and the session stays missing.
//! - **Back-filling.** Where the provider answers for any past instant (the simulated market),
//!   the last `market.iv_backfill_sessions` sessions without a reading are filled the same way,
//!   by the background scheduler when it starts (after the server is serving) and each weekend.
//!   Writing a session again replaces its reading: recording is idempotent.
//! - **Reading.** [`lookback`] is a symbol's last year as [`strikeline_engine::iv_rank`]
//!   judges it: the readings, the sessions without one, and the rank and percentile or why
//!   they are hidden. Nothing is interpolated.

use std::collections::HashMap;

use chrono::{DateTime, Days, NaiveDate, Utc};
use strikeline_engine::iv_rank::{self, IvLookback, IvReading};
use strikeline_market::calendar::to_new_york;
use strikeline_market::options::{ChainQuery, constant_maturity_atm, listed_expirations, strike_increment};
use strikeline_store::iv_history::{self, IvRow};
use strikeline_store::market;

use crate::foundation::error::{AppError, Result};
use crate::foundation::money::dollars;
use crate::foundation::state::AppState;

/// The maturity of the reading, calendar days.
pub const MATURITY_DAYS: i64 = 30;
/// Listed strikes asked for either side of the close (the reading needs the two around the
/// chain's own underlying price, which a live vendor may quote a little away from the close).
const STRIKES_EACH_SIDE: f64 = 2.0;
/// And at least this share of the close either side.
const STRIKE_REACH: f64 = 0.05;

/// What recording one session came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    Stored(IvRow),
    /// Why there is no reading (logged; the session stays missing).
    Skipped(String),
}

/// Reads `symbol`'s 30-day at-the-money implied volatility for the completed session `day`
/// and stores it.
///
/// # Errors
///
/// The store's; a provider's failure is [`Recorded::Skipped`].
pub async fn record(state: &AppState, symbol: &str, day: NaiveDate, now: DateTime<Utc>) -> Result<Recorded> {
    let Some(session) = state.market.calendar.session(day) else {
        return Ok(Recorded::Skipped(format!("{day} is not a session")));
    };
    if session.close > now {
        return Ok(Recorded::Skipped(format!("the session of {day} has not closed")));
    }
    let Some(price) = reference_price(state, symbol, day).await? else {
        return Ok(Recorded::Skipped(format!("no price of {symbol} on {day}")));
    };
    let Some(query) = query_for(state, day, price) else {
        return Ok(Recorded::Skipped(format!("no expiration lists around {MATURITY_DAYS} days on {day}")));
    };
    let at = session.close;
    let chain = match state.market.provider.option_chain(symbol, query, at).await {
        Ok(chain) => chain,
        Err(err) => return Ok(Recorded::Skipped(format!("the option chain of {symbol} is unavailable: {err}"))),
    };
    let quoted_on = to_new_york(chain.as_of).date_naive();
    if quoted_on != day {
        return Ok(Recorded::Skipped(format!("the provider's quotes are from {quoted_on}, not {day}")));
    }
    let reading = match constant_maturity_atm(&chain, day, MATURITY_DAYS) {
        Ok(reading) => reading,
        Err(err) => return Ok(Recorded::Skipped(format!("{symbol} on {day}: {err}"))),
    };
    let row = IvRow {
        symbol: chain.symbol,
        day,
        atm_iv: reading.volatility,
        near_expiration: reading.near,
        far_expiration: reading.far,
        provider: chain.provider.to_owned(),
        recorded_at: now,
    };
    iv_history::upsert(&state.db, std::slice::from_ref(&row)).await?;
    state.caches.iv_lookbacks.clear();
    Ok(Recorded::Stored(row))
}

/// The session's close from the stored bars, else the last stored quote.
async fn reference_price(state: &AppState, symbol: &str, day: NaiveDate) -> Result<Option<f64>> {
    if let Some(bar) = market::bars(&state.db, symbol, day, day).await?.first() {
        return Ok(Some(dollars(bar.close_cents)));
    }
    let stock = market::find_stock(&state.db, symbol).await?;
    Ok(stock.filter(|s| s.current_price_cents > 0).map(|s| dollars(s.current_price_cents)))
}

/// The expirations either side of 30 days and the strikes around `price`.
fn query_for(state: &AppState, day: NaiveDate, price: f64) -> Option<ChainQuery> {
    let listed: Vec<NaiveDate> = listed_expirations(&state.market.calendar, day)
        .into_iter()
        .filter(|e| (*e - day).num_days() >= strikeline_market::options::MIN_DAYS_FOR_ATM)
        .collect();
    let target = day + Days::new(MATURITY_DAYS.unsigned_abs());
    let near = listed.iter().rev().find(|e| **e <= target).or(listed.first())?;
    let far = listed.iter().find(|e| **e >= target).unwrap_or(near);
    let reach = (STRIKES_EACH_SIDE * strike_increment(price)).max(STRIKE_REACH * price);
    Some(ChainQuery {
        expiration_from: Some(*near),
        expiration_to: Some(*far),
        strike_from: Some((price - reach).max(0.01)),
        strike_to: Some(price + reach),
    })
}

/// How far back [`record_due`] looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The last completed session only (the end-of-day job).
    LastSession,
    /// The last completed session unless `market.iv_backfill_sessions` is 0 (first start,
    /// before serving: cheap).
    Start,
    /// Up to `market.iv_backfill_sessions` sessions where the provider answers for past
    /// instants, else the last one; none when that is 0 (the background scheduler once it
    /// starts, and the weekend job).
    Backfill,
}

/// Records the sessions of `reach` that lack a reading, for every tracked symbol, newest first;
/// how many readings were stored.
///
/// # Errors
///
/// The store's.
pub async fn record_due(state: &AppState, now: DateTime<Utc>, reach: Reach) -> Result<usize> {
    let last = state.market.last_completed_day(now);
    let configured = state.config.market.iv_backfill_sessions as usize;
    let count = match reach {
        Reach::LastSession => 1,
        Reach::Start => configured.min(1),
        Reach::Backfill if state.market.provider.answers_any_instant() => configured,
        Reach::Backfill => configured.min(1),
    };
    if count == 0 {
        return Ok(0);
    }
    let sessions = state.market.calendar.sessions_back(last, count);
    let (Some(&first), Some(&through)) = (sessions.first(), sessions.last()) else { return Ok(0) };
    let mut have: HashMap<String, Vec<NaiveDate>> = HashMap::new();
    for row in iv_history::all_series(&state.db, first, through).await? {
        have.entry(row.symbol).or_default().push(row.day);
    }
    let mut stored = 0;
    for stock in market::list_stocks(&state.db).await? {
        let recorded = have.get(&stock.symbol).map(Vec::as_slice).unwrap_or_default();
        for day in sessions.iter().rev().filter(|d| !recorded.contains(d)) {
            match record(state, &stock.symbol, *day, now).await? {
                Recorded::Stored(_) => stored += 1,
                Recorded::Skipped(why) => {
                    tracing::info!(symbol = %stock.symbol, %day, reason = %why, "implied volatility not recorded");
                    break; // an earlier session will not do better
                }
            }
        }
    }
    if stored > 0 {
        tracing::info!(readings = stored, through = %through, "implied-volatility history recorded");
    }
    Ok(stored)
}

/// `symbol`'s last year of readings as of the last completed session at `now`.
///
/// # Errors
///
/// The store's.
pub async fn lookback(state: &AppState, symbol: &str, now: DateTime<Utc>) -> Result<IvLookback> {
    let (sessions, from, last) = lookback_sessions(state, now);
    let readings: Vec<IvReading> =
        iv_history::series(&state.db, symbol, from, last).await?.into_iter().map(|r| IvReading { date: r.day, iv: r.atm_iv }).collect();
    iv_rank::lookback(&sessions, &readings).ok_or_else(|| AppError::Internal(anyhow::anyhow!("an empty lookback")))
}

/// [`lookbacks`] through the shared cache (reloaded after a reading is recorded here, and at
/// least every minute).
///
/// # Errors
///
/// The store's.
pub async fn cached_lookbacks(state: &AppState, now: DateTime<Utc>) -> Result<std::sync::Arc<HashMap<String, IvLookback>>> {
    state.caches.iv_lookbacks.get(&state.events, || lookbacks(state, now)).await
}

/// Every tracked symbol's lookback as of `now` (one read of the history).
///
/// # Errors
///
/// The store's.
pub async fn lookbacks(state: &AppState, now: DateTime<Utc>) -> Result<HashMap<String, IvLookback>> {
    let (sessions, from, last) = lookback_sessions(state, now);
    let mut by_symbol: HashMap<String, Vec<IvReading>> = HashMap::new();
    for row in iv_history::all_series(&state.db, from, last).await? {
        by_symbol.entry(row.symbol).or_default().push(IvReading { date: row.day, iv: row.atm_iv });
    }
    Ok(by_symbol.into_iter().filter_map(|(symbol, readings)| Some((symbol, iv_rank::lookback(&sessions, &readings)?))).collect())
}

/// The lookback's sessions as of `now` (the last completed one and the 252 before it), its
/// first and its last.
fn lookback_sessions(state: &AppState, now: DateTime<Utc>) -> (Vec<NaiveDate>, NaiveDate, NaiveDate) {
    let last = state.market.last_completed_day(now);
    let sessions = state.market.calendar.sessions_back(last, iv_rank::LOOKBACK_SESSIONS + 1);
    let from = sessions.first().copied().unwrap_or(last);
    (sessions, from, last)
}
