use std::sync::Arc;

use strikeline_store::Db;

use crate::foundation::capacity::Capacity;
use crate::foundation::config::Config;
use crate::foundation::events::Events;
use crate::foundation::market::Market;

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub events: Events,
    /// The one clock: every reading of the time in the server goes through it.
    pub clock: crate::foundation::clock::Clock,
    /// Provider, calendar and engine states.
    pub market: Arc<Market>,
    /// This process, as the holder of leases.
    pub instance_id: String,
    /// Bounds on expensive work in this process.
    pub capacity: Arc<Capacity>,
    /// Where the limiter keeps its buckets (the database, or Redis when configured).
    pub buckets: crate::foundation::limits::Buckets,
    /// Figures every user reads alike, kept between requests.
    pub caches: Arc<crate::foundation::cache::Caches>,
    /// Counters `/metrics` reports.
    pub metrics: Arc<crate::foundation::metrics::Metrics>,
}
