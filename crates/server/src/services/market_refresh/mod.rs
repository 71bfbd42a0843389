//! The shared watchlist and its quotes.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use strikeline_market::simulated::SimulatedMarket;
use strikeline_market::{MarketError, Quote, Sector};
use strikeline_store::StoreError;
use strikeline_store::market::{self, QuoteUpdate, StockRow};

pub mod history;

use crate::foundation::error::{AppError, Result};
use crate::foundation::input::Symbol;
use crate::foundation::money::to_cents;
use crate::foundation::state::AppState;
use crate::foundation::vocab::SectorName;
pub use history::{catch_up_history, catch_up_symbol};

/// Tracks the default universe (the simulated market's names) when the watchlist is empty.
pub async fn ensure_universe(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    if market::count_stocks(&state.db).await? > 0 {
        return Ok(());
    }
    let defaults = SimulatedMarket::new(state.config.market.seed).listings();
    for listing in defaults.iter().take(state.config.market.max_symbols) {
        let row = StockRow {
            id: uuid::Uuid::new_v4().to_string(),
            symbol: listing.symbol.clone(),
            company_name: listing.name.clone(),
            sector: SectorName::from(listing.sector).as_str().to_owned(),
            current_price_cents: 0,
            previous_close_cents: 0,
            volume: 0,
            high_52_week_cents: 0,
            low_52_week_cents: 0,
            market_cap: None,
            added_by: None,
            last_updated: now,
            created_at: now,
        };
        match market::insert_stock(&state.db, &row).await {
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(err) => return Err(err.into()),
        }
    }
    tracing::info!(symbols = defaults.len(), "default watchlist tracked");
    Ok(())
}

/// Quotes every tracked symbol at `now` and stores them (52-week range from the stored
/// history and today's quote). Returns the quotes by symbol.
pub async fn refresh_prices(state: &AppState, now: DateTime<Utc>) -> Result<HashMap<String, Quote>> {
    let stocks = market::list_stocks(&state.db).await?;
    let symbols: Vec<String> = stocks.iter().map(|s| s.symbol.clone()).collect();
    if symbols.is_empty() {
        return Ok(HashMap::new());
    }
    let quotes = state.market.provider.quotes(&symbols, now).await.map_err(|e| AppError::upstream("Market data", e))?;
    let ranges: HashMap<String, (i64, i64)> = market::ranges_since(&state.db, state.market.today(now) - Duration::days(365))
        .await?
        .into_iter()
        .map(|(symbol, high, low)| (symbol, (high, low)))
        .collect();
    let updates: Vec<QuoteUpdate> = quotes
        .iter()
        .map(|q| {
            let (high, low) = ranges.get(&q.symbol).copied().unwrap_or((0, i64::MAX));
            QuoteUpdate {
                symbol: q.symbol.clone(),
                current_price_cents: to_cents(q.price),
                previous_close_cents: to_cents(q.previous_close),
                volume: i64::try_from(q.volume).unwrap_or(i64::MAX),
                high_52_week_cents: high.max(to_cents(q.day_high)),
                low_52_week_cents: low.min(to_cents(q.day_low)),
                at: now,
            }
        })
        .collect();
    market::update_quotes(&state.db, &updates).await?;
    trigger_price_alerts(state, &updates, now).await?;
    Ok(quotes.into_iter().map(|q| (q.symbol.clone(), q)).collect())
}

/// Triggers the price alerts the new quotes reach, each once (only symbols with active alerts
/// are asked about).
async fn trigger_price_alerts(state: &AppState, updates: &[QuoteUpdate], now: DateTime<Utc>) -> Result<usize> {
    use strikeline_store::price_alerts;
    let watched: std::collections::HashSet<String> = price_alerts::watched_symbols(&state.db).await?.into_iter().collect();
    let mut notes = Vec::new();
    let mut events = Vec::new();
    for update in updates.iter().filter(|u| watched.contains(&u.symbol)) {
        let fired = price_alerts::trigger(&state.db, &update.symbol, update.current_price_cents, now).await?;
        for alert in fired {
            tracing::info!(alert_id = %alert.id, user_id = %alert.user_id, symbol = %alert.symbol, "price alert triggered");
            events.push((
                alert.user_id.clone(),
                serde_json::json!({
                    "alertId": alert.id,
                    "symbol": alert.symbol,
                    "direction": alert.direction,
                    "targetPrice": crate::foundation::money::dollars(alert.target_cents),
                    "price": crate::foundation::money::dollars(update.current_price_cents),
                    "triggeredAt": now,
                }),
            ));
            notes.push(crate::services::notifying::Note {
                user_id: alert.user_id,
                kind: crate::foundation::vocab::NotificationKind::PriceAlert,
                title: format!("{} is {} {}", alert.symbol, alert.direction, crate::foundation::money::usd(alert.target_cents)),
                body: format!("Your price alert triggered at {}.", crate::foundation::money::usd(update.current_price_cents)),
                link: Some("/dashboard"),
            });
        }
    }
    let triggered = notes.len();
    if triggered > 0 {
        state.events.publish(crate::foundation::events::Topic::Alerts);
        crate::services::notifying::notify(state, notes, now).await?;
        use crate::services::webhooks::{Audience, Event, emit};
        let events: Vec<Event> = events
            .iter()
            .map(|(user_id, data)| Event {
                event_type: crate::foundation::vocab::WebhookEventType::PriceAlert,
                audience: Audience::Owner(user_id),
                data: data.clone(),
            })
            .collect();
        emit(state, &events, now).await?;
    }
    Ok(triggered)
}

/// Why a symbol could not be added to the watchlist.
#[derive(Debug)]
pub enum AddError {
    Invalid(String),
    Failed(AppError),
}

impl From<AppError> for AddError {
    fn from(err: AppError) -> Self {
        AddError::Failed(err)
    }
}

impl From<StoreError> for AddError {
    fn from(err: StoreError) -> Self {
        AddError::Failed(err.into())
    }
}

/// Adds `symbol` to the shared watchlist with its history and current quote. The name and
/// sector default to the provider's. Each failure is a reason a user can read.
pub async fn add_stock(
    state: &AppState,
    symbol: &Symbol,
    name: Option<&str>,
    sector: Option<Sector>,
    added_by: Option<&str>,
    now: DateTime<Utc>,
) -> std::result::Result<StockRow, AddError> {
    let symbol = symbol.as_str();
    if market::find_stock(&state.db, symbol).await?.is_some() {
        return Err(AddError::Invalid("Already in the watchlist".into()));
    }
    if market::count_stocks(&state.db).await? >= i64::try_from(state.config.market.max_symbols).unwrap_or(i64::MAX) {
        return Err(AddError::Invalid(format!("The watchlist is full ({} symbols)", state.config.market.max_symbols)));
    }
    let provider_error = |err: MarketError| match err {
        MarketError::InvalidSymbol(_) => AddError::Invalid("Not a valid ticker symbol".into()),
        MarketError::UnknownSymbol(_) => AddError::Invalid("Unknown to the market-data provider".into()),
        other => AddError::Failed(AppError::upstream("Market data", other)),
    };
    let company = state.market.provider.company(symbol).await.map_err(provider_error)?;
    let symbols = [symbol.to_owned()];
    let quote = state.market.provider.quotes(&symbols, now).await.map_err(provider_error)?.into_iter().next();
    let Some(quote) = quote else { return Err(AddError::Invalid("Unknown to the market-data provider".into())) };
    let row = StockRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: symbol.to_owned(),
        company_name: name.map_or(company.name, str::to_owned),
        sector: SectorName::from(sector.unwrap_or(company.sector)).as_str().to_owned(),
        current_price_cents: to_cents(quote.price),
        previous_close_cents: to_cents(quote.previous_close),
        volume: i64::try_from(quote.volume).unwrap_or(i64::MAX),
        high_52_week_cents: to_cents(quote.day_high),
        low_52_week_cents: to_cents(quote.day_low),
        market_cap: company.market_cap,
        added_by: added_by.map(str::to_owned),
        last_updated: now,
        created_at: now,
    };
    if state.config.market.history_years > 0 {
        catch_up_symbol(state, symbol, state.market.last_completed_day(now)).await?;
    }
    match market::insert_stock(&state.db, &row).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => return Err(AddError::Invalid("Already in the watchlist".into())),
        Err(err) => return Err(err.into()),
    }
    // The 52-week range from the history just loaded.
    let mut row = row;
    if let Some((high, low)) = market::range_of(&state.db, symbol, state.market.today(now) - Duration::days(365)).await? {
        row.high_52_week_cents = high.max(row.high_52_week_cents);
        row.low_52_week_cents = low.min(row.low_52_week_cents);
        market::update_quotes(
            &state.db,
            &[QuoteUpdate {
                symbol: row.symbol.clone(),
                current_price_cents: row.current_price_cents,
                previous_close_cents: row.previous_close_cents,
                volume: row.volume,
                high_52_week_cents: row.high_52_week_cents,
                low_52_week_cents: row.low_52_week_cents,
                at: now,
            }],
        )
        .await?;
    }
    Ok(row)
}
