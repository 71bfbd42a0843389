//! Portfolios on the desk: manual positions marked to market, automated paper positions
//! opened from signals and closed with them, and each user's daily portfolio value.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use strikeline_engine::{OpenSignal, Outcome, mark, pricing_volatility};
use strikeline_store::market;
use strikeline_store::positions::{self, ManualMark, ManualRow};

use crate::foundation::error::Result;
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{SignalKind, Vocabulary};

/// Each tracked symbol's current price (dollars) and volatility estimate.
pub struct Pricing {
    pub spot: HashMap<String, f64>,
    pub volatility: HashMap<String, f64>,
    /// Each tracked symbol's sector.
    pub sector: HashMap<String, String>,
}

impl Pricing {
    /// Prices, volatilities and sectors as stored by the last refresh, read now (for marking).
    pub async fn load(state: &AppState) -> Result<Pricing> {
        let volatility = market::volatilities(&state.db).await?.into_iter().collect();
        Ok(Pricing::from_rows(&market::list_stocks(&state.db).await?, volatility))
    }

    /// The same through the shared read cache (at most [`crate::foundation::cache::MAX_AGE`] old), for
    /// showing portfolios.
    pub async fn cached(state: &AppState) -> Result<Pricing> {
        let volatility = (*crate::foundation::cache::volatilities(state).await?).clone();
        Ok(Pricing::from_rows(&crate::foundation::cache::stocks(state).await?, volatility))
    }

    fn from_rows(stocks: &[market::StockRow], volatility: HashMap<String, f64>) -> Pricing {
        let spot =
            stocks.iter().filter(|s| s.current_price_cents > 0).map(|s| (s.symbol.clone(), dollars(s.current_price_cents))).collect();
        let sector = stocks.iter().map(|s| (s.symbol.clone(), s.sector.clone())).collect();
        Pricing { spot, volatility, sector }
    }

    /// The sector of `symbol` (the default sector when it is not tracked).
    pub fn sector_of(&self, symbol: &str) -> String {
        self.sector
            .get(symbol)
            .cloned()
            .unwrap_or_else(|| crate::foundation::vocab::SectorName::from(strikeline_market::Sector::default()).as_str().to_owned())
    }

    /// The volatility of `symbol`: the stored estimate, else one computed from its history.
    pub async fn volatility_of(&mut self, state: &AppState, symbol: &str, now: DateTime<Utc>) -> Result<Option<f64>> {
        if let Some(v) = self.volatility.get(symbol) {
            return Ok(Some(*v));
        }
        let estimate = state
            .market
            .warm_state(&state.db, symbol, state.market.last_completed_day(now))
            .await?
            .and_then(|s| s.latest().and_then(|l| l.hv20))
            .map(pricing_volatility);
        if let Some(v) = estimate {
            self.volatility.insert(symbol.to_owned(), v);
        }
        Ok(estimate)
    }

    /// The volatility a multi-leg position's legs without their own are valued at: the
    /// stock's estimate, or the engine's default before there is one (as the strategy
    /// builder prices them).
    pub async fn structure_volatility(&mut self, state: &AppState, symbol: &str, now: DateTime<Utc>) -> Result<f64> {
        Ok(self.volatility_of(state, symbol, now).await?.unwrap_or_else(|| pricing_volatility(f64::NAN)))
    }
}

/// The engine's view of a manual position (no target or stop: the user closes it); `None` when
/// its stored type is none of the spellings.
pub fn manual_open_signal(row: &ManualRow, volatility: f64) -> Option<OpenSignal> {
    Some(OpenSignal {
        signal_type: SignalKind::exact(&row.position_type).ok()?.into(),
        strike: dollars(row.strike_cents),
        expiration: row.expiration_date,
        entry_price: dollars(row.entry_cents),
        target_price: f64::MAX,
        stop_loss: 0.0,
        volatility,
    })
}

/// Marks open manual positions (of `only_account`, or every account's) with Black–Scholes at the current
/// price and volatility estimate; a position past its expiry expires at intrinsic value.
pub async fn mark_manual_positions(state: &AppState, only_account: Option<&str>, now: DateTime<Utc>) -> Result<usize> {
    let mut pricing = Pricing::load(state).await?;
    let open = match only_account {
        Some(account_id) => positions::open_manual_of(&state.db, account_id).await?,
        None => positions::open_manual(&state.db).await?,
    };
    let mut marks = Vec::new();
    for row in &open {
        if let Some(mark) = manual_mark(state, &mut pricing, row, now).await? {
            marks.push(mark);
        }
    }
    positions::mark_manual(&state.db, &marks).await?;
    Ok(marks.len())
}

/// The mark of one manual position now; `None` when its symbol has no price or volatility yet.
pub async fn manual_mark(state: &AppState, pricing: &mut Pricing, row: &ManualRow, now: DateTime<Utc>) -> Result<Option<ManualMark>> {
    let Some(&spot) = pricing.spot.get(&row.symbol) else { return Ok(None) };
    let Some(volatility) = pricing.volatility_of(state, &row.symbol, now).await? else { return Ok(None) };
    let Some(open) = manual_open_signal(row, volatility) else { return Ok(None) };
    let years = state.market.years_to_expiry(row.expiration_date, now);
    let expired = state.market.has_expired(row.expiration_date, now);
    let Ok(m) = mark(&open, spot, years, expired, state.market.assumptions) else { return Ok(None) };
    Ok(Some(ManualMark {
        id: row.id.clone(),
        current_option_cents: to_cents(m.option_price),
        current_price_cents: to_cents(spot),
        pnl_cents: to_cents(m.pnl * row.quantity as f64),
        pnl_percent: m.pnl_percent,
        expired: m.outcome == Outcome::Expired,
        at: now,
    }))
}

/// Settles every open multi-leg position whose first expiration's session has closed: valued
/// at that day's close (the stored bar; the last price when the bar is missing), the expiring
/// legs at intrinsic value and any later ones at the model, and its owner told. Returns how
/// many were settled; a second settler (another instance) changes nothing.
pub async fn settle_structures(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let due = strikeline_store::structures::due(&state.db, state.market.last_completed_day(now)).await?;
    if due.is_empty() {
        return Ok(0);
    }
    let mut pricing = Pricing::load(state).await?;
    let mut notes = Vec::new();
    // Each symbol's close on each expiration, read once however many positions share it.
    let mut closes: HashMap<(String, chrono::NaiveDate), Option<f64>> = HashMap::new();
    for held in due {
        let symbol = &held.row.symbol;
        let Some(first) = held.first_expiration() else { continue };
        let close = match closes.get(&(symbol.clone(), first)) {
            Some(close) => *close,
            None => {
                let close = market::bars(&state.db, symbol, first, first).await?.first().map(|b| dollars(b.close_cents));
                *closes.entry((symbol.clone(), first)).or_insert(close)
            }
        };
        let Some(spot) = close.or_else(|| pricing.spot.get(symbol).copied()) else { continue };
        let volatility = pricing.structure_volatility(state, symbol, now).await?;
        let (_, v) = crate::services::structuring::valued(state, &held, &pricing.sector_of(symbol), spot, first, volatility)?;
        if strikeline_store::structures::settle(&state.db, &held.row.id, to_cents(v.unrealized_pnl), to_cents(spot), now).await? {
            notes.push(crate::services::notifying::Note {
                user_id: held.row.user_id.clone(),
                kind: crate::foundation::vocab::NotificationKind::PositionClosed,
                title: format!("{} settled at expiry", held.row.name),
                body: format!(
                    "Your {} position settled at its first expiration, {first}, with {} at {}: P&L {}.",
                    held.row.name,
                    symbol,
                    crate::foundation::money::usd(to_cents(spot)),
                    crate::foundation::money::usd(to_cents(v.unrealized_pnl))
                ),
                link: Some("/portfolio"),
            });
        }
    }
    let settled = notes.len();
    crate::services::notifying::notify(state, notes, now).await?;
    Ok(settled)
}

/// Marks manual positions and closes the automated positions whose signals ended, each with a
/// sell order filled at the signal's last mark (`execution::closing`). Each owner is told, naming the account
/// when they hold more than one; the `position_closed` webhook carries the account and reaches
/// the owner's endpoints but those scoped to another account.
pub async fn settle_positions(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    mark_manual_positions(state, None, now).await?;
    settle_structures(state, now).await?;
    let closed = crate::services::execution::closing::close_ended(state, now).await?;
    let mut notes = Vec::new();
    let mut events = Vec::new();
    // Each owner's accounts, read once however many of their positions closed.
    let mut accounts: HashMap<String, Vec<strikeline_store::trading_accounts::AccountRow>> = HashMap::new();
    for (user_id, account_id, signal_id) in closed {
        let Some(signal) = strikeline_store::signals::find(&state.db, &signal_id).await? else { continue };
        if !accounts.contains_key(&user_id) {
            accounts.insert(user_id.clone(), strikeline_store::trading_accounts::for_user(&state.db, &user_id).await?);
        }
        let held = accounts.get(&user_id).map(Vec::as_slice).unwrap_or_default();
        let account_name = held.iter().find(|a| a.id == account_id).map(|a| a.name.clone()).unwrap_or_default();
        let place = if held.len() > 1 { format!(" in {account_name}") } else { String::new() };
        let data = serde_json::json!({
            "closedAt": now,
            "account": {"id": account_id, "name": account_name},
            "signal": crate::services::webhooks::signal_data(&signal),
        });
        events.push((user_id.clone(), account_id, data));
        let reason = signal
            .close_reason
            .as_deref()
            .and_then(|r| <crate::foundation::vocab::CloseReason as crate::foundation::vocab::Vocabulary>::exact(r).ok());
        let how = match reason {
            Some(crate::foundation::vocab::CloseReason::Target) => "at its target",
            Some(crate::foundation::vocab::CloseReason::Stop) => "at its stop loss",
            Some(crate::foundation::vocab::CloseReason::Expiry) => "at expiry",
            Some(crate::foundation::vocab::CloseReason::Time) => "at its time limit",
            None => "as its signal ended",
        };
        notes.push(crate::services::notifying::Note {
            user_id,
            kind: crate::foundation::vocab::NotificationKind::PositionClosed,
            title: format!("{} {} position closed", signal.symbol, signal.signal_type),
            body: format!(
                "Your automated {} {} {} position{place} closed {how}.",
                signal.symbol,
                signal.signal_type,
                crate::foundation::money::usd(signal.strike_cents)
            ),
            link: Some("/portfolio"),
        });
    }
    crate::services::notifying::notify(state, notes, now).await?;
    use crate::services::webhooks::{Audience, Event, emit};
    let events: Vec<Event> = events
        .iter()
        .map(|(user_id, account_id, data)| Event {
            event_type: crate::foundation::vocab::WebhookEventType::PositionClosed,
            audience: Audience::Account { owner: user_id, account: account_id },
            data: data.clone(),
        })
        .collect();
    emit(state, &events, now).await?;
    Ok(())
}
