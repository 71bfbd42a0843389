//! `GET /api/events`: the live-update stream open pages listen to.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use strikeline_store::sessions;
use tokio::sync::broadcast;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::events::Topic;
use crate::foundation::session::{self, CurrentUser};
use crate::foundation::state::AppState;

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
              (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
              (status = 429, description = "Too many open streams for this account", body = crate::foundation::error::Problem))
)]
async fn events(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
) -> crate::foundation::error::Result<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let slot = state.capacity.stream_slot(&user.id)?;
    let sid = session::token(&state, &headers).map(session::sid_for).unwrap_or_default();
    let open = OpenStream {
        receiver: state.events.subscribe(),
        shutting_down: state.capacity.shutting_down.subscribe(),
        said_goodbye: false,
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
    shutting_down: tokio::sync::watch::Receiver<bool>,
    said_goodbye: bool,
    ended: broadcast::Receiver<String>,
    recheck: tokio::time::Interval,
    state: AppState,
    sid: String,
    _slot: crate::foundation::capacity::Counted,
}

impl OpenStream {
    /// The next event to send, or `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        if self.said_goodbye {
            return None;
        }
        if *self.shutting_down.borrow() {
            self.said_goodbye = true;
            return Some(Event::default().event("reconnect").retry(Duration::from_secs(1)).data("{}"));
        }
        loop {
            tokio::select! {
                // The process is shutting down: a last event tells the client to reconnect
                // (to another instance) in a second, then the stream ends, so shutdown need
                // not wait for it.
                changed = self.shutting_down.changed() => {
                    let down = changed.is_err() || *self.shutting_down.borrow_and_update();
                    if down {
                        self.said_goodbye = true;
                        return Some(Event::default().event("reconnect").retry(Duration::from_secs(1)).data("{}"));
                    }
                },
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
                    let live = sessions::find_live(&self.state.db, &self.sid, self.state.clock.now()).await;
                    if !matches!(live, Ok(Some(_))) {
                        return None;
                    }
                }
            }
        }
    }
}
