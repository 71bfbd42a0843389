//! The database circuit breaker: once the database is found unreachable (a broken or refused
//! connection, a pool that could not get one, a readiness check without an answer), requests
//! that would need it are answered 503 at once instead of each waiting out the pool, and a
//! probe pings the database every [`PROBE_EVERY`] until it answers; then requests go through
//! again. Health probes are never refused by it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use strikeline_store::Db;

/// How often the probe asks a tripped database.
pub const PROBE_EVERY: Duration = Duration::from_millis(250);
/// How long the probe waits for an answer.
pub const PROBE_WITHIN: Duration = Duration::from_millis(250);

/// How long after a trip pooled connections are pinged before use.
pub const SUSPECT_FOR: Duration = Duration::from_secs(30);

/// The marker a response carries when the database could not be reached for it.
#[derive(Clone, Copy, Debug)]
pub struct DatabaseUnreachable;

#[derive(Debug, Default)]
pub struct DatabaseBreaker {
    open: AtomicBool,
    probing: AtomicBool,
}

impl DatabaseBreaker {
    /// Whether requests needing the database are refused now.
    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    /// Opens the breaker and starts the probe that closes it (one probe at a time).
    pub fn trip(self: &Arc<Self>, db: &Db) {
        self.open.store(true, Ordering::Release);
        // Connections that broke are found by a ping before use, not by a request.
        strikeline_store::suspect_connections(SUSPECT_FOR);
        if self.probing.swap(true, Ordering::AcqRel) {
            return;
        }
        tracing::warn!("database unreachable: refusing requests until it answers");
        let (breaker, db) = (self.clone(), db.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_EVERY).await;
                if matches!(tokio::time::timeout(PROBE_WITHIN, db.ping()).await, Ok(Ok(()))) {
                    breaker.open.store(false, Ordering::Release);
                    breaker.probing.store(false, Ordering::Release);
                    tracing::info!("database answers again");
                    return;
                }
            }
        });
    }
}
