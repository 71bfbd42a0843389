//! Live updates: a server-sent-events stream telling open pages what changed, so they refetch
//! instead of polling. Events carry no data beyond the time; pages read through the API, which
//! applies each user's plan.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast;

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    Signals,
    Prices,
    Stats,
    Automation,
    /// Price alerts were triggered.
    Alerts,
    /// New notifications.
    Notifications,
    /// New articles or market notes.
    News,
}

impl Topic {
    pub fn name(self) -> &'static str {
        match self {
            Topic::Signals => "signals",
            Topic::Prices => "prices",
            Topic::Stats => "stats",
            Topic::Automation => "automation",
            Topic::Alerts => "alerts",
            Topic::Notifications => "notifications",
            Topic::News => "news",
        }
    }
}

/// The fan-out of change notices to every open stream. On PostgreSQL the notices travel through
/// `NOTIFY strikeline_events`, so every instance sharing the database (not only the one that
/// ran the job) tells its open pages; on SQLite (one instance) they stay in process.
///
/// Every notice also moves the change counter ([`Events::generation`]) that shared read
/// caches compare against: a change on this instance moves it at once, one elsewhere when its
/// notice arrives.
#[derive(Clone, Debug)]
pub struct Events {
    sender: broadcast::Sender<(Topic, chrono::DateTime<chrono::Utc>)>,
    relay: Option<sqlx::PgPool>,
    generation: Arc<AtomicU64>,
    /// Stamps each notice.
    clock: crate::foundation::clock::Clock,
}

/// The PostgreSQL channel the notices travel on.
const CHANNEL: &str = "strikeline_events";

impl Topic {
    fn parse(name: &str) -> Option<Topic> {
        [Topic::Signals, Topic::Prices, Topic::Stats, Topic::Automation, Topic::Alerts, Topic::Notifications, Topic::News]
            .into_iter()
            .find(|t| t.name() == name)
    }
}

impl Events {
    /// Events relayed through PostgreSQL when `db` is PostgreSQL: starts the listener that
    /// hands every instance's notices to this instance's streams.
    pub fn for_database(db: &strikeline_store::Db, clock: crate::foundation::clock::Clock) -> Events {
        let mut events = Events::in_process(clock);
        if let strikeline_store::Db::Postgres(pool) = db {
            events.relay = Some(pool.clone());
            tokio::spawn(relay(pool.clone(), events.sender.clone(), events.generation.clone(), events.clock.clone()));
        }
        events
    }

    /// Events that stay in this process (one instance, or tools that do not serve).
    pub fn in_process(clock: crate::foundation::clock::Clock) -> Events {
        Events { sender: broadcast::channel(64).0, relay: None, generation: Arc::default(), clock }
    }

    /// How many changes this instance has heard of; moves on every notice.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Tells every open stream that `topic` changed. Nobody listening is fine.
    pub fn publish(&self, topic: Topic) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        match &self.relay {
            Some(pool) => {
                let pool = pool.clone();
                let local = self.sender.clone();
                let clock = self.clock.clone();
                tokio::spawn(async move {
                    let sent = sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(topic.name()).execute(&pool).await;
                    if let Err(err) = sent {
                        tracing::debug!(error = %err, "NOTIFY failed; telling this instance only");
                        let _ = local.send((topic, clock.now()));
                    }
                });
            }
            None => {
                let _ = self.sender.send((topic, self.clock.now()));
            }
        }
    }

    /// A new subscription (for tests and the stream).
    pub fn subscribe(&self) -> broadcast::Receiver<(Topic, chrono::DateTime<chrono::Utc>)> {
        self.sender.subscribe()
    }
}

/// Listens on the channel and forwards each notice; reconnects after a pause when the
/// connection drops (pages poll meanwhile).
async fn relay(
    pool: sqlx::PgPool,
    sender: broadcast::Sender<(Topic, chrono::DateTime<chrono::Utc>)>,
    generation: Arc<AtomicU64>,
    clock: crate::foundation::clock::Clock,
) {
    loop {
        let listened = async {
            let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await?;
            listener.listen(CHANNEL).await?;
            loop {
                let notice = listener.recv().await?;
                if let Some(topic) = Topic::parse(notice.payload()) {
                    generation.fetch_add(1, Ordering::AcqRel);
                    let _ = sender.send((topic, clock.now()));
                }
            }
            #[expect(unreachable_code, reason = "names the block's error type; the loop ends only by `?`")]
            Ok::<(), sqlx::Error>(())
        };
        if let Err(err) = listened.await {
            tracing::debug!(error = %err, "event relay lost its connection; reconnecting");
        }
        if pool.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}
