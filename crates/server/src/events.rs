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

use crate::auth::CurrentUser;
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

/// The fan-out of change notices to every open stream of this instance.
#[derive(Clone, Debug)]
pub struct Events {
    sender: broadcast::Sender<(Topic, chrono::DateTime<chrono::Utc>)>,
}

impl Default for Events {
    fn default() -> Self {
        Events { sender: broadcast::channel(64).0 }
    }
}

impl Events {
    /// Tells every open stream that `topic` changed. Nobody listening is fine.
    pub fn publish(&self, topic: Topic) {
        let _ = self.sender.send((topic, crate::now()));
    }

    /// A new subscription (for tests and the stream).
    pub fn subscribe(&self) -> broadcast::Receiver<(Topic, chrono::DateTime<chrono::Utc>)> {
        self.sender.subscribe()
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events))
}

/// Live updates as server-sent events named `signals`, `prices`, `stats` and `automation`, each
/// with data `{"at": instant}`; a comment every 15 s keeps the connection open. A page that
/// falls behind (or reconnects) gets a `resync` event and should refetch everything.
#[utoipa::path(
    get, path = "/api/events", tag = "signals",
    responses((status = 200, description = "An event stream", content_type = "text/event-stream", body = String),
              (status = 401, description = "Not signed in", body = crate::error::Problem))
)]
async fn events(State(state): State<AppState>, _user: CurrentUser) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let receiver = state.events.subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let event = match receiver.recv().await {
            Ok((topic, at)) => Event::default().event(topic.name()).data(format!("{{\"at\":\"{}\"}}", at.to_rfc3339())),
            Err(broadcast::error::RecvError::Lagged(_)) => Event::default().event("resync").data("{}"),
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        Some((Ok(event), receiver))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)).text("ping"))
}
