//! Live updates: a server-sent-events stream telling open pages what changed, so they refetch
//! instead of polling. Events carry no data beyond the time; pages read through the API, which
//! applies each user's plan.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Serialize;
use tokio::sync::broadcast;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::http::HeaderMap;
use strikeline_store::sessions;

use crate::auth::{CurrentUser, session};
use crate::state::AppState;

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    Signals,
    Prices,
    Stats,
    Automation,
}

impl Topic {
    pub fn name(self) -> &'static str {
        match self {
            Topic::Signals => "signals",
            Topic::Prices => "prices",
            Topic::Stats => "stats",
            Topic::Automation => "automation",
        }
    }
}

/// The fan-out of change notices to every open stream. On PostgreSQL the notices travel through
/// `NOTIFY strikeline_events`, so every instance sharing the database (not only the one that
/// ran the job) tells its open pages; on SQLite (one instance) they stay in process.
#[derive(Clone, Debug)]
pub struct Events {
    sender: broadcast::Sender<(Topic, chrono::DateTime<chrono::Utc>)>,
    relay: Option<sqlx::PgPool>,
}

impl Default for Events {
    fn default() -> Self {
        Events { sender: broadcast::channel(64).0, relay: None }
    }
}

/// The PostgreSQL channel the notices travel on.
const CHANNEL: &str = "strikeline_events";

impl Topic {
    fn parse(name: &str) -> Option<Topic> {
        [Topic::Signals, Topic::Prices, Topic::Stats, Topic::Automation].into_iter().find(|t| t.name() == name)
    }
}

impl Events {
    /// Events relayed through PostgreSQL when `db` is PostgreSQL: starts the listener that
    /// hands every instance's notices to this instance's streams.
    pub fn for_database(db: &strikeline_store::Db) -> Events {
        let mut events = Events::default();
        if let strikeline_store::Db::Postgres(pool) = db {
            events.relay = Some(pool.clone());
            tokio::spawn(relay(pool.clone(), events.sender.clone()));
        }
        events
    }

    /// Tells every open stream that `topic` changed. Nobody listening is fine.
    pub fn publish(&self, topic: Topic) {
        match &self.relay {
            Some(pool) => {
                let pool = pool.clone();
                let local = self.sender.clone();
                tokio::spawn(async move {
                    let sent = sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(topic.name()).execute(&pool).await;
                    if let Err(err) = sent {
                        tracing::debug!(error = %err, "NOTIFY failed; telling this instance only");
                        let _ = local.send((topic, crate::now()));
                    }
                });
            }
            None => {
                let _ = self.sender.send((topic, crate::now()));
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
async fn relay(pool: sqlx::PgPool, sender: broadcast::Sender<(Topic, chrono::DateTime<chrono::Utc>)>) {
    loop {
        let listened = async {
            let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await?;
            listener.listen(CHANNEL).await?;
            loop {
                let notice = listener.recv().await?;
                if let Some(topic) = Topic::parse(notice.payload()) {
                    let _ = sender.send((topic, crate::now()));
                }
            }
            #[allow(unreachable_code)]
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

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events))
}

/// Live updates as server-sent events named `signals`, `prices`, `stats` and `automation`, each
/// with data `{"at": instant}`; a comment every 15 s keeps the connection open. A page that
/// falls behind (or reconnects) gets a `resync` event and should refetch everything. At most
/// five streams per account are open at once; a stream ends when its session ends.
#[utoipa::path(
    get, path = "/api/events", tag = "signals",
    responses((status = 200, description = "An event stream", content_type = "text/event-stream", body = String),
              (status = 401, description = "Not signed in", body = crate::error::Problem),
              (status = 429, description = "Too many open streams for this account", body = crate::error::Problem))
)]
async fn events(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
) -> crate::error::Result<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let slot = state.capacity.stream_slot(&user.id)?;
    let sid = session::token_from(&headers).map(session::sid_for).unwrap_or_default();
    let open = OpenStream {
        receiver: state.events.subscribe(),
        ended: state.capacity.ended_sessions.subscribe(),
        recheck: tokio::time::interval(SESSION_RECHECK),
        state,
        sid,
        _slot: slot,
    };
    let stream = futures_util::stream::unfold(open, |mut open| async move {
        let event = open.next().await?;
        Some((Ok(event), open))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)).text("ping")))
}

/// How often an open stream checks that its session still exists (a sign-out on another
/// instance ends it within this time; on this instance, at once).
const SESSION_RECHECK: Duration = Duration::from_secs(30);

/// One open stream: the notices it forwards, and what ends it (its session's end).
struct OpenStream {
    receiver: broadcast::Receiver<(Topic, chrono::DateTime<chrono::Utc>)>,
    ended: broadcast::Receiver<String>,
    recheck: tokio::time::Interval,
    state: AppState,
    sid: String,
    _slot: crate::capacity::Counted,
}

impl OpenStream {
    /// The next event to send, or `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        loop {
            tokio::select! {
                notice = self.receiver.recv() => return match notice {
                    Ok((topic, at)) => Some(Event::default().event(topic.name()).data(format!("{{\"at\":\"{}\"}}", at.to_rfc3339()))),
                    Err(broadcast::error::RecvError::Lagged(_)) => Some(Event::default().event("resync").data("{}")),
                    Err(broadcast::error::RecvError::Closed) => None,
                },
                ended = self.ended.recv() => match ended {
                    Ok(sid) if sid == self.sid => return None,
                    Err(broadcast::error::RecvError::Closed) => return None,
                    _ => {}
                },
                _ = self.recheck.tick() => {
                    let live = sessions::find_live(&self.state.db, &self.sid, crate::now()).await;
                    if !matches!(live, Ok(Some(_))) {
                        return None;
                    }
                }
            }
        }
    }
}
