//! Figures every user reads alike (the watchlist's quotes, the shared signal figures), kept
//! between requests so a thousand open dashboards do not each ask the database.
//!
//! An entry is dropped when anything changes ([`Events::generation`](crate::foundation::events::Events)
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

use crate::foundation::error::Result;
use crate::foundation::events::Events;

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
    /// Drops the value, so the next reader loads it (for a value no change notice describes,
    /// when its owner knows it changed).
    pub fn clear(&self) {
        *self.entry.write().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// A value no change notice describes, kept for `max_age`.
    pub fn lasting(max_age: Duration) -> Self {
        Shared { max_age, follows_changes: false, ..Shared::default() }
    }

    /// The entry if nothing changed since it was loaded, and whether it is also young enough.
    fn current(&self, generation: u64) -> Option<(Arc<T>, bool)> {
        let entry = self.entry.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        entry.as_ref().filter(|e| e.generation == generation).map(|e| (e.value.clone(), e.loaded.elapsed() < self.max_age))
    }

    fn fresh(&self, generation: u64) -> Option<Arc<T>> {
        self.current(generation).and_then(|(value, young)| young.then_some(value))
    }

    /// The cached value, loading it with `load` when there is none, something changed since,
    /// or it is older than its maximum age. After a change every reader waits for the one
    /// reload; when the entry has only aged, one reader reloads and the others are answered
    /// with the entry meanwhile (and keep it should the reload fail), so the periodic reload
    /// never holds up a burst of readers. A failed load leaves the cache as it was.
    pub async fn get<F, Fut>(&self, events: &Events, load: F) -> Result<Arc<T>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let generation_now = || if self.follows_changes { events.generation() } else { 0 };
        let aged = match self.current(generation_now()) {
            Some((value, true)) => return Ok(value),
            Some((value, false)) => Some(value),
            None => None,
        };
        let _one_loader = match (&aged, self.reloading.try_lock()) {
            (_, Ok(guard)) => guard,
            (Some(value), Err(_)) => return Ok(value.clone()),
            (None, Err(_)) => self.reloading.lock().await,
        };
        // Read the generation before loading: a change during the load makes the next read
        // load again rather than keep what may predate it.
        let generation = generation_now();
        if let Some(value) = self.fresh(generation) {
            return Ok(value);
        }
        let value = match load().await {
            Ok(value) => Arc::new(value),
            Err(error) => match aged.filter(|_| self.current(generation).is_some()) {
                Some(value) => {
                    tracing::warn!(%error, "reloading a cached value failed; keeping the one loaded before");
                    return Ok(value);
                }
                None => return Err(error),
            },
        };
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

/// One automated signal of the shared window, rendered once for every viewer.
#[derive(Clone, Debug)]
pub struct RenderedSignal {
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub id: String,
    /// The trading day it was issued on, and its confidence rank within that day.
    pub issued_on: NaiveDate,
    pub day_rank: i64,
    /// Its JSON as a viewer whose plan shows it, and as one whose quota locks it.
    pub open: Box<str>,
    pub locked: Box<str>,
}

/// The newest automated signals, newest first, each rendered: the first pages of the signal
/// list are assembled from these and the viewer's own signals, without reading or rendering
/// the shared rows per request.
#[derive(Clone, Debug, Default)]
pub struct SignalWindow {
    pub signals: Vec<RenderedSignal>,
}

/// How long exchange rates are kept: a vendor's rates are previous closes, and its free tier
/// allows a few requests a minute.
pub const RATES_MAX_AGE: Duration = Duration::from_secs(15 * 60);

/// How long the implied-volatility lookbacks are kept.
pub const IV_MAX_AGE: Duration = Duration::from_secs(60);

/// The caches of one server.
pub struct Caches {
    /// Every tracked stock with its quote, by symbol.
    pub stocks: Shared<Vec<StockRow>>,
    /// The stored volatility estimate of each symbol that has one.
    pub volatilities: Shared<std::collections::HashMap<String, f64>>,
    pub signal_figures: Shared<SignalFiguresAt>,
    pub signal_window: Shared<SignalWindow>,
    /// The market-data provider's exchange rates.
    pub exchange_rates: Shared<strikeline_market::ExchangeRates>,
    /// Each symbol's implied-volatility lookback: its readings change once a session, so no
    /// price or signal change drops it; recording a reading here does, and other instances'
    /// copies age out within [`IV_MAX_AGE`].
    pub iv_lookbacks: Shared<std::collections::HashMap<String, strikeline_engine::iv_rank::IvLookback>>,
    /// The Web Push (VAPID) key, read from the store once: it is made once and never changes.
    pub vapid: std::sync::OnceLock<Arc<crate::foundation::web_push::Vapid>>,
}

impl Default for Caches {
    fn default() -> Self {
        Caches {
            stocks: Shared::default(),
            volatilities: Shared::default(),
            signal_figures: Shared::default(),
            signal_window: Shared::default(),
            exchange_rates: Shared::lasting(RATES_MAX_AGE),
            iv_lookbacks: Shared::lasting(IV_MAX_AGE),
            vapid: std::sync::OnceLock::new(),
        }
    }
}

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Caches")
    }
}

/// Every tracked stock with its quote, by symbol, from the cache.
pub async fn stocks(state: &crate::foundation::state::AppState) -> Result<Arc<Vec<StockRow>>> {
    state.caches.stocks.get(&state.events, || async { Ok(strikeline_store::market::list_stocks(&state.db).await?) }).await
}

/// The provider's exchange rates, from the cache (a failure is a 503 and is not kept).
pub async fn exchange_rates(state: &crate::foundation::state::AppState) -> Result<Arc<strikeline_market::ExchangeRates>> {
    state
        .caches
        .exchange_rates
        .get(&state.events, || async {
            state
                .market
                .provider
                .exchange_rates(state.clock.now())
                .await
                .map_err(|e| crate::foundation::error::AppError::upstream("Exchange rates", e))
        })
        .await
}

/// The stored volatility estimate of each symbol that has one, from the cache.
pub async fn volatilities(state: &crate::foundation::state::AppState) -> Result<Arc<std::collections::HashMap<String, f64>>> {
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
        let events = Events::in_process(crate::foundation::clock::Clock::system());
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
        events.publish(crate::foundation::events::Topic::Prices);
        assert_eq!(read(cache.clone(), events.clone(), loads.clone()).await, 2, "a change reloads");
        assert_eq!(loads.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_failed_load_keeps_nothing_and_entries_age_out() {
        let events = Events::in_process(crate::foundation::clock::Clock::system());
        let cache: Shared<u32> = Shared::default();
        let failed = cache.get(&events, || async { Err(crate::foundation::error::AppError::Unavailable(String::new())) }).await;
        assert!(failed.is_err());
        assert_eq!(*cache.get(&events, || async { Ok(7) }).await.expect("load"), 7);
        tokio::time::sleep(MAX_AGE + Duration::from_millis(50)).await;
        assert_eq!(*cache.get(&events, || async { Ok(8) }).await.expect("load"), 8, "older than MAX_AGE reloads");
    }

    #[tokio::test]
    async fn an_aged_entry_answers_while_one_reader_reloads_and_survives_a_failed_reload() {
        let events = Events::in_process(crate::foundation::clock::Clock::system());
        let cache: Arc<Shared<u32>> = Arc::new(Shared::default());
        assert_eq!(*cache.get(&events, || async { Ok(1) }).await.expect("load"), 1);
        tokio::time::sleep(MAX_AGE + Duration::from_millis(50)).await;
        let (release, hold) = tokio::sync::oneshot::channel::<()>();
        let reloader = {
            let (cache, events) = (cache.clone(), events.clone());
            tokio::spawn(async move {
                *cache
                    .get(&events, || async move {
                        hold.await.ok();
                        Ok(2)
                    })
                    .await
                    .expect("reload")
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let during = cache.get(&events, || async { panic!("a second reload while one runs") }).await.expect("aged");
        assert_eq!(*during, 1, "the aged entry answers while the reload runs");
        release.send(()).expect("release");
        assert_eq!(reloader.await.expect("join"), 2);
        assert_eq!(*cache.get(&events, || async { Ok(3) }).await.expect("fresh"), 2, "the reload is kept");

        tokio::time::sleep(MAX_AGE + Duration::from_millis(50)).await;
        let kept = cache.get(&events, || async { Err(crate::foundation::error::AppError::Unavailable(String::new())) }).await;
        assert_eq!(*kept.expect("the aged entry"), 2, "a failed reload of an aged entry keeps it");
        events.publish(crate::foundation::events::Topic::Prices);
        let failed = cache.get(&events, || async { Err(crate::foundation::error::AppError::Unavailable(String::new())) }).await;
        assert!(failed.is_err(), "after a change the old entry is not served");
    }
}
