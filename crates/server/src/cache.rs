//! Figures every user reads alike (the watchlist's quotes, the shared signal figures), kept
//! between requests so a thousand open dashboards do not each ask the database.
//!
//! An entry is dropped when anything changes ([`Events::generation`](crate::events::Events)
//! moves: at once for a change on this instance, when the notice arrives for one elsewhere)
//! and in any case after [`MAX_AGE`], the bound on staleness should a notice be lost. One
//! request reloads an entry while the others wait for it, so an expiry costs one query, not
//! one per waiting request.

use std::future::Future;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use strikeline_store::market::StockRow;
use strikeline_store::signals::SignalFigures;
use strikeline_store::snapshots::Snapshot;

use crate::error::Result;
use crate::events::Events;

/// The longest an entry is served without a reload.
pub const MAX_AGE: Duration = Duration::from_secs(1);

struct Entry<T> {
    value: Arc<T>,
    generation: u64,
    loaded: Instant,
}

/// One cached value.
pub struct Shared<T> {
    entry: RwLock<Option<Entry<T>>>,
    reloading: tokio::sync::Mutex<()>,
    max_age: Duration,
    /// Whether any change notice drops it (figures from the database do; outside data that
    /// no notice describes, such as exchange rates, only ages out).
    follows_changes: bool,
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared { entry: RwLock::new(None), reloading: tokio::sync::Mutex::new(()), max_age: MAX_AGE, follows_changes: true }
    }
}

impl<T> Shared<T> {
    /// A value no change notice describes, kept for `max_age`.
    pub fn lasting(max_age: Duration) -> Self {
        Shared { max_age, follows_changes: false, ..Shared::default() }
    }

    fn fresh(&self, generation: u64) -> Option<Arc<T>> {
        let entry = self.entry.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        entry.as_ref().filter(|e| e.generation == generation && e.loaded.elapsed() < self.max_age).map(|e| e.value.clone())
    }

    /// The cached value, loading it with `load` when there is none, something changed since,
    /// or it is older than its maximum age. A failed load leaves the cache as it was.
    pub async fn get<F, Fut>(&self, events: &Events, load: F) -> Result<Arc<T>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let generation_now = || if self.follows_changes { events.generation() } else { 0 };
        if let Some(value) = self.fresh(generation_now()) {
            return Ok(value);
        }
        let _one_loader = self.reloading.lock().await;
        // Read the generation before loading: a change during the load makes the next read
        // load again rather than keep what may predate it.
        let generation = generation_now();
        if let Some(value) = self.fresh(generation) {
            return Ok(value);
        }
        let value = Arc::new(load().await?);
        let mut entry = self.entry.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        *entry = Some(Entry { value: value.clone(), generation, loaded: Instant::now() });
        Ok(value)
    }
}

/// The signal figures every dashboard shows, and the snapshots its changes compare with.
#[derive(Clone, Debug)]
pub struct SignalFiguresAt {
    /// The New York day the figures are for.
    pub day: NaiveDate,
    pub figures: SignalFigures,
    pub yesterday: Option<Snapshot>,
    pub week_ago: Option<Snapshot>,
    pub loaded_at: chrono::DateTime<chrono::Utc>,
}

/// How long exchange rates are kept: a vendor's rates are previous closes, and its free tier
/// allows a few requests a minute.
pub const RATES_MAX_AGE: Duration = Duration::from_secs(15 * 60);

/// The caches of one server.
pub struct Caches {
    /// Every tracked stock with its quote, by symbol.
    pub stocks: Shared<Vec<StockRow>>,
    /// The stored volatility estimate of each symbol that has one.
    pub volatilities: Shared<std::collections::HashMap<String, f64>>,
    pub signal_figures: Shared<SignalFiguresAt>,
    /// The market-data provider's exchange rates.
    pub exchange_rates: Shared<strikeline_market::ExchangeRates>,
}

impl Default for Caches {
    fn default() -> Self {
        Caches {
            stocks: Shared::default(),
            volatilities: Shared::default(),
            signal_figures: Shared::default(),
            exchange_rates: Shared::lasting(RATES_MAX_AGE),
        }
    }
}

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Caches")
    }
}

/// Every tracked stock with its quote, by symbol, from the cache.
pub async fn stocks(state: &crate::state::AppState) -> Result<Arc<Vec<StockRow>>> {
    state.caches.stocks.get(&state.events, || async { Ok(strikeline_store::market::list_stocks(&state.db).await?) }).await
}

/// The provider's exchange rates, from the cache (a failure is a 503 and is not kept).
pub async fn exchange_rates(state: &crate::state::AppState) -> Result<Arc<strikeline_market::ExchangeRates>> {
    state
        .caches
        .exchange_rates
        .get(&state.events, || async {
            state.market.provider.exchange_rates(crate::now()).await.map_err(|e| crate::error::AppError::upstream("Exchange rates", e))
        })
        .await
}

/// The stored volatility estimate of each symbol that has one, from the cache.
pub async fn volatilities(state: &crate::state::AppState) -> Result<Arc<std::collections::HashMap<String, f64>>> {
    state
        .caches
        .volatilities
        .get(&state.events, || async { Ok(strikeline_store::market::volatilities(&state.db).await?.into_iter().collect()) })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_change_reloads_and_concurrent_readers_share_one_load() {
        let events = Events::default();
        let cache: Arc<Shared<usize>> = Arc::default();
        let loads = Arc::new(AtomicUsize::new(0));
        let read = |cache: Arc<Shared<usize>>, events: Events, loads: Arc<AtomicUsize>| async move {
            *cache
                .get(&events, || async {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Ok(loads.fetch_add(1, Ordering::SeqCst) + 1)
                })
                .await
                .expect("load")
        };
        let readers: Vec<_> = (0..50).map(|_| tokio::spawn(read(cache.clone(), events.clone(), loads.clone()))).collect();
        for reader in readers {
            assert_eq!(reader.await.expect("join"), 1, "every reader sees the one load");
        }
        assert_eq!(read(cache.clone(), events.clone(), loads.clone()).await, 1, "still fresh");
        events.publish(crate::events::Topic::Prices);
        assert_eq!(read(cache.clone(), events.clone(), loads.clone()).await, 2, "a change reloads");
        assert_eq!(loads.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_failed_load_keeps_nothing_and_entries_age_out() {
        let events = Events::default();
        let cache: Shared<u32> = Shared::default();
        let failed = cache.get(&events, || async { Err(crate::error::AppError::Unavailable(String::new())) }).await;
        assert!(failed.is_err());
        assert_eq!(*cache.get(&events, || async { Ok(7) }).await.expect("load"), 7);
        tokio::time::sleep(MAX_AGE + Duration::from_millis(50)).await;
        assert_eq!(*cache.get(&events, || async { Ok(8) }).await.expect("load"), 8, "older than MAX_AGE reloads");
    }
}
