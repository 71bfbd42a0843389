//! The market as the server sees it: the data provider, the exchange calendar, the pricing
//! assumptions and a cache of each symbol's warmed engine state. Shared by every service;
//! it knows nothing of HTTP.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_engine::{Assumptions, DailyBar, SymbolState};
use strikeline_market::calendar::{Calendar, ExpirationKind, to_new_york};
use strikeline_market::polygon::{PolygonClient, PolygonConfig};
use strikeline_market::simulated::SimulatedMarket;
use strikeline_market::{MarketData, Quote};
use strikeline_store::Db;
use tokio::sync::Mutex;

use crate::foundation::config::{Config, MarketProvider};
use crate::foundation::error::Result;
use crate::foundation::money::dollars;

/// Bars loaded to warm a symbol's engine state (the engine needs 272).
pub const WARM_UP_LOAD: i64 = 320;

/// The market as the server sees it: provider, calendar, pricing assumptions, and each
/// symbol's engine state warmed through its last stored bar.
pub struct Market {
    pub provider: Arc<dyn MarketData>,
    pub calendar: Calendar,
    pub assumptions: Assumptions,
    states: Mutex<HashMap<String, (SymbolState, NaiveDate)>>,
}

impl std::fmt::Debug for Market {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Market").field("provider", &self.provider.provider_name()).finish_non_exhaustive()
    }
}

impl Market {
    /// The configured provider (the simulated market unless told otherwise).
    pub fn from_config(config: &Config) -> anyhow::Result<Market> {
        let provider: Arc<dyn MarketData> = match config.market.provider {
            MarketProvider::Simulated => Arc::new(SimulatedMarket::new(config.market.seed)),
            MarketProvider::Polygon => {
                let key = config.market.polygon_api_key.as_ref().map(|k| k.expose().clone()).unwrap_or_default();
                let mut polygon = PolygonConfig::new(key);
                polygon.base_url = config.market.polygon_base_url.clone();
                polygon.requests_per_minute = config.market.polygon_requests_per_minute;
                Arc::new(PolygonClient::new(polygon).map_err(|e| anyhow::anyhow!("{e}"))?)
            }
        };
        Ok(Market::with_provider(provider, config.market.risk_free_rate))
    }

    pub fn with_provider(provider: Arc<dyn MarketData>, rate: f64) -> Market {
        Market {
            provider,
            calendar: Calendar::nyse(),
            assumptions: Assumptions { rate, dividend_yield: 0.0 },
            states: Mutex::new(HashMap::new()),
        }
    }

    /// The listed expiration at least `min_days` after `from` (weeklies are listed on every
    /// name the product covers).
    pub fn expiration(&self, from: NaiveDate, min_days: u32) -> NaiveDate {
        self.calendar.next_expiration_at_least(from, i64::from(min_days), ExpirationKind::Weekly)
    }

    /// Years from `now` to the close of `expiration` (0 once it has passed).
    pub fn years_to_expiry(&self, expiration: NaiveDate, now: DateTime<Utc>) -> f64 {
        let close = match self.calendar.session(expiration) {
            Some(session) => session.close,
            None => expiration.and_hms_opt(21, 0, 0).map_or(now, |t| t.and_utc()),
        };
        ((close - now).num_seconds().max(0) as f64) / (365.0 * 86_400.0)
    }

    /// Whether `expiration` has passed at `now` (its session has closed).
    pub fn has_expired(&self, expiration: NaiveDate, now: DateTime<Utc>) -> bool {
        self.years_to_expiry(expiration, now) <= 0.0
    }

    /// The New York trading date of `now`.
    pub fn today(&self, now: DateTime<Utc>) -> NaiveDate {
        to_new_york(now).date_naive()
    }
}

/// An engine bar from stored cents.
pub fn engine_bar(bar: &strikeline_store::market::BarRow) -> DailyBar {
    DailyBar {
        date: bar.day,
        open: dollars(bar.open_cents),
        high: dollars(bar.high_cents),
        low: dollars(bar.low_cents),
        close: dollars(bar.close_cents),
        volume: bar.volume as f64,
    }
}

impl Market {
    /// `symbol`'s engine state warmed through its last stored bar, from the cache or the store.
    pub async fn warm_state(&self, db: &Db, symbol: &str, through: NaiveDate) -> Result<Option<SymbolState>> {
        let mut states = self.states.lock().await;
        if let Some((cached, day)) = states.get(symbol)
            && *day == through
        {
            return Ok(Some(cached.clone()));
        }
        let bars = strikeline_store::market::last_bars(db, symbol, through, WARM_UP_LOAD).await?;
        let Some(last) = bars.last().map(|b| b.day) else { return Ok(None) };
        let mut engine = SymbolState::new();
        for bar in &bars {
            // A bar the engine refuses (out of order, inconsistent) is skipped, not fatal.
            let _ = engine.update(&engine_bar(bar));
        }
        states.insert(symbol.to_owned(), (engine.clone(), last));
        Ok(Some(engine))
    }

    /// The engine state of `symbol` at `now`, with the session it reads as of and the spot:
    /// warmed through the last completed session, plus the session in progress (from its
    /// quote) while the exchange is open. What the issuing tick and a custom strategy's
    /// preview both judge.
    pub async fn state_now(
        &self,
        db: &Db,
        symbol: &str,
        quote: Option<&Quote>,
        now: DateTime<Utc>,
    ) -> Result<Option<(SymbolState, NaiveDate, f64)>> {
        let through = self.last_completed_day(now);
        let Some(mut engine) = self.warm_state(db, symbol, through).await? else { return Ok(None) };
        let Some(latest) = engine.latest().map(|s| (s.date, s.close)) else { return Ok(None) };
        let today = self.today(now);
        match quote {
            Some(q) if self.calendar.is_open(now) && today > latest.0 => {
                let partial =
                    DailyBar { date: today, open: q.day_open, high: q.day_high, low: q.day_low, close: q.price, volume: q.volume as f64 };
                if engine.update(&partial).is_ok() {
                    return Ok(Some((engine, today, q.price)));
                }
                Ok(Some((engine, latest.0, latest.1)))
            }
            Some(q) => Ok(Some((engine, latest.0, q.price))),
            None => Ok(Some((engine, latest.0, latest.1))),
        }
    }

    /// The trading day a signal issued at `now` belongs to: today, or the last trading day
    /// when the exchange is closed today.
    pub fn issue_day(&self, now: DateTime<Utc>) -> NaiveDate {
        self.calendar.trading_day_on_or_before(self.today(now))
    }

    /// The last session that has closed at `now`.
    pub fn last_completed_day(&self, now: DateTime<Utc>) -> NaiveDate {
        let today = self.today(now);
        match self.calendar.session(today) {
            Some(session) if now >= session.close => today,
            _ => self.calendar.previous_trading_day(today),
        }
    }
}
