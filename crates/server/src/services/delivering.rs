//! The outbox worker: claims due messages (webhooks, email, Web Push and SMS), sends each, and either marks
//! it delivered or schedules the next attempt on the configured backoff (about a day by
//! default), giving up after the last. A webhook endpoint whose deliveries have failed for
//! `delivery.disable_after_hours` is switched off and its owner notified.
//!
//! Messages are sent concurrently, in **lanes**: a lane is one webhook endpoint, whose messages
//! go one at a time and in order (a later message is not sent before an earlier one has been
//! answered, or has failed and been scheduled for retry); every email is a lane of its own. At
//! most `delivery.concurrency` lanes run at once on an instance, so a slow receiver holds one
//! lane and delays nobody else. [`Worker::start_due`] starts lanes and returns at once (the
//! background loop calls it every `delivery.poll_seconds`); [`run_due`] starts them and waits
//! until everything due has been attempted (tests and one-off passes).
//!
//! Webhook requests follow Standard Webhooks: `webhook-id` (the message id, the same on every
//! attempt), `webhook-timestamp` (the attempt's Unix time) and `webhook-signature`
//! (`v1,` + HMAC-SHA256 with the endpoint's secret), and go through the outgoing-request guard
//! (the URL is checked and resolved again at each attempt).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use strikeline_store::outbox::{self, Message};
use strikeline_store::webhooks::{self as endpoints, Attempt, Endpoint};
use tokio::task::JoinSet;

use super::{mailing, notifying, pushing, texting, webhooks};
use crate::foundation::error::{AppError, Result};
use crate::foundation::outbound::{self, Outcome, standard_webhooks};
use crate::foundation::state::AppState;
use crate::foundation::vocab::NotificationKind;

/// Messages one lane sends to its endpoint in a row before it makes way (the endpoint's next
/// messages wait for a free lane like everyone else's).
const LANE: u32 = 20;

/// The lanes one instance is running: at most `limit` at once, one per endpoint. Cloning shares
/// them.
#[derive(Clone, Debug)]
pub struct Worker {
    limit: usize,
    busy: Arc<Mutex<HashSet<String>>>,
}

/// A running lane's place; dropping it (the lane ended, however) frees the place and the
/// endpoint.
struct Place {
    key: String,
    busy: Arc<Mutex<HashSet<String>>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.busy.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.key);
    }
}

/// A pass's time: `at` when it began, running forward in real time, so a lane that sends for a
/// while claims, logs and schedules with the time of each attempt. Messages are picked as due
/// at `at`, so a retry that comes due during a pass waits for the next one.
#[derive(Clone, Copy, Debug)]
struct Pace {
    at: DateTime<Utc>,
    started: Instant,
}

impl Pace {
    fn new(at: DateTime<Utc>) -> Pace {
        Pace { at, started: Instant::now() }
    }

    fn now(&self) -> DateTime<Utc> {
        self.at + Duration::from_std(self.started.elapsed()).unwrap_or(Duration::zero())
    }
}

/// A lane runs in a task of its own: it ends with the attempts it made.
pub type Lanes = JoinSet<Result<usize>>;

impl Worker {
    /// A worker running at most `limit` lanes at once (at least one).
    pub fn new(limit: usize) -> Worker {
        Worker { limit: limit.max(1), busy: Arc::new(Mutex::new(HashSet::new())) }
    }

    /// A worker with the configured `delivery.concurrency`.
    pub fn configured(state: &AppState) -> Worker {
        Worker::new(state.config.delivery.concurrency)
    }

    /// Lanes running now.
    pub fn running(&self) -> usize {
        self.busy.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// The lane of `key` if it is free and a place is: `None` when that endpoint is being sent
    /// to, or every place is taken.
    fn take(&self, key: &str) -> Option<Place> {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        if busy.len() >= self.limit || !busy.insert(key.to_owned()) {
            return None;
        }
        Some(Place { key: key.to_owned(), busy: self.busy.clone() })
    }

    /// Starts a lane, into `lanes`, for each endpoint (and each email) with a message due at
    /// `now` that is not already being sent to, oldest first, while places are free; how many
    /// it started. Returns at once: the lanes send on their own.
    pub async fn start_due(&self, state: &AppState, now: DateTime<Utc>, lanes: &mut Lanes) -> Result<usize> {
        self.start(state, Pace::new(now), lanes).await
    }

    async fn start(&self, state: &AppState, pace: Pace, lanes: &mut Lanes) -> Result<usize> {
        let running = self.running();
        let free = self.limit.saturating_sub(running);
        if free == 0 {
            return Ok(0);
        }
        // Running lanes' heads may come back first: ask for enough to fill the free places.
        let wanted = u32::try_from(free + running).unwrap_or(u32::MAX);
        let mut started = 0;
        for head in outbox::due_heads(&state.db, pace.at, wanted).await? {
            if started == free {
                break;
            }
            let Some(place) = self.take(&lane_key(&head)) else { continue };
            lanes.spawn(lane(state.clone(), head, pace, place));
            started += 1;
        }
        Ok(started)
    }
}

/// Which lane a message goes in: its endpoint's, or (email) its own.
fn lane_key(message: &Message) -> String {
    match message.endpoint_id.as_deref() {
        Some(endpoint_id) => format!("endpoint:{endpoint_id}"),
        None => format!("message:{}", message.id),
    }
}

/// Sends one lane's due messages in order, one at a time: an endpoint's next message goes once
/// the one before it was answered (or failed, and waits for its retry). A database error ends
/// the lane, leaving the rest for a later pass.
async fn lane(state: AppState, head: Message, pace: Pace, _place: Place) -> Result<usize> {
    let messages = match head.endpoint_id.as_deref() {
        Some(endpoint_id) => outbox::due_for_endpoint(&state.db, endpoint_id, pace.at, LANE).await,
        None => Ok(vec![head]),
    };
    let sent: Result<usize> = async {
        let mut made = 0;
        for message in &messages? {
            if attempt(&state, message, pace.now()).await?.is_some() {
                made += 1;
            }
        }
        Ok(made)
    }
    .await;
    if let Err(err) = &sent {
        tracing::warn!(error = %err, "outbox lane stopped");
    }
    sent
}

/// Sends every message due at `now` that this worker can claim, up to `delivery.concurrency`
/// lanes at once, and waits until all have been attempted; how many attempts it made. Retries
/// that come due meanwhile wait for the next pass. After an error no new lane starts; the
/// running ones finish, then the first error is answered.
pub async fn run_due(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let worker = Worker::configured(state);
    let pace = Pace::new(now);
    let mut lanes = Lanes::new();
    let mut made = 0;
    let mut failed = None;
    loop {
        if failed.is_none()
            && let Err(err) = worker.start(state, pace, &mut lanes).await
        {
            failed = Some(err);
        }
        let Some(ended) = lanes.join_next().await else { break };
        match ended {
            Ok(Ok(attempts)) => made += attempts,
            Ok(Err(err)) => failed = failed.or(Some(err)),
            Err(join) => failed = failed.or(Some(AppError::Internal(anyhow::anyhow!("an outbox lane failed: {join}")))),
        }
    }
    failed.map_or(Ok(made), Err)
}

/// Claims `message` and makes one attempt; `None` when another worker had claimed it.
pub async fn attempt(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<Option<Outcome>> {
    if !outbox::claim(&state.db, message, now, now + state.config.delivery.claim_hold()).await? {
        return Ok(None);
    }
    Ok(Some(send_held(state, message, now).await?))
}

/// Makes one attempt at a message this caller holds (claimed, or queued held), and records
/// what came of it. `message.attempts` is the count before this attempt. A webhook whose
/// owner's plan in force no longer includes webhooks is not sent: it is given up with the
/// plan as the reason, and the endpoint is not counted as failing.
pub async fn send_held(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<Outcome> {
    if message.channel == webhooks::CHANNEL
        && let Some(refusal) = webhooks::paused_for_plan(state, &message.user_id, now).await?
    {
        let error = format!("Not sent: {refusal}");
        tracing::info!(message_id = %message.id, user_id = %message.user_id, reason = %refusal, "webhook not sent: the owner's plan does not include webhooks");
        outbox::give_up(&state.db, &message.id, &error).await?;
        return Ok(Outcome::not_sent(error));
    }
    let attempts_made = message.attempts + 1;
    // What came of the attempt, and whether a failure is worth another.
    let (outcome, retry) = match message.channel.as_str() {
        webhooks::CHANNEL => (send_webhook(state, message, now).await?, true),
        mailing::CHANNEL => {
            let started = Instant::now();
            let sent = mailing::send(&state.config.email, &message.id, &message.payload).await;
            (Outcome { delivered: sent.is_ok(), status_code: None, latency_ms: elapsed_ms(started), error: sent.err() }, true)
        }
        pushing::CHANNEL => pushing::send(state, message, now).await?,
        texting::CHANNEL => texting::send(state, message, now).await?,
        other => (Outcome::not_sent(format!("unknown channel {other}")), false),
    };
    if outcome.delivered {
        outbox::delivered(&state.db, &message.id, now).await?;
    } else {
        let error = outcome.error.clone().unwrap_or_else(|| "failed".to_owned());
        let delays = &state.config.delivery.retry_seconds;
        let retried = retry && message.topic != webhooks::TEST_TOPIC;
        match usize::try_from(attempts_made).ok().and_then(|n| delays.get(n - 1)).filter(|_| retried) {
            Some(delay) => {
                outbox::retry_at(&state.db, &message.id, now + Duration::seconds(i64::try_from(*delay).unwrap_or(i64::MAX / 4_000)), &error)
                    .await?
            }
            None => outbox::give_up(&state.db, &message.id, &error).await?,
        }
    }
    Ok(outcome)
}

fn elapsed_ms(started: Instant) -> i64 {
    i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX)
}

async fn send_webhook(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<Outcome> {
    let endpoint = match message.endpoint_id.as_deref() {
        Some(id) => endpoints::by_id(&state.db, id).await?,
        None => None,
    };
    let Some(endpoint) = endpoint.filter(|e| e.is_active) else {
        return Ok(Outcome::not_sent("The endpoint was deleted or switched off."));
    };
    let started = Instant::now();
    let outcome = match post(state, &endpoint, message, now).await {
        Ok(status) if (200..300).contains(&status) => {
            Outcome { delivered: true, status_code: Some(status), latency_ms: elapsed_ms(started), error: None }
        }
        Ok(status) => Outcome {
            delivered: false,
            status_code: Some(status),
            latency_ms: elapsed_ms(started),
            error: Some(format!("The endpoint answered {status}.")),
        },
        Err(error) => Outcome { delivered: false, status_code: None, latency_ms: elapsed_ms(started), error: Some(error) },
    };
    // Deleted while the request was in flight (the owner's own doing): nothing left to update.
    let logged = endpoints::log_attempt(
        &state.db,
        &Attempt {
            id: uuid::Uuid::new_v4().to_string(),
            message_id: message.id.clone(),
            endpoint_id: endpoint.id.clone(),
            attempted_at: now,
            status_code: outcome.status_code.map(i32::from),
            latency_ms: outcome.latency_ms,
            succeeded: outcome.delivered,
            error: outcome.error.clone(),
        },
    )
    .await?;
    if logged && message.topic != webhooks::TEST_TOPIC {
        if outcome.delivered {
            endpoints::mark_succeeded(&state.db, &endpoint.id).await?;
        } else {
            note_failure(state, &endpoint, now).await?;
        }
    }
    Ok(outcome)
}

/// Signs and POSTs a message to its endpoint; the answer's status, or why there was none.
async fn post(state: &AppState, endpoint: &Endpoint, message: &Message, now: DateTime<Utc>) -> std::result::Result<u16, String> {
    let guard = webhooks::guard(state);
    let target = outbound::resolve(&endpoint.url, &guard).await.map_err(|refusal| refusal.to_string())?;
    let timestamp = now.timestamp();
    let signature = standard_webhooks::sign(&endpoint.secret, &message.id, timestamp, message.payload.as_bytes())
        .ok_or("The endpoint's secret is unusable.")?;
    let headers = [
        ("webhook-id", message.id.clone()),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", signature),
        ("user-agent", "Strikeline-Webhooks/1".to_owned()),
    ];
    let answer = outbound::post(&target, &headers, message.payload.clone().into_bytes(), &guard)
        .await
        .map_err(|_| "The endpoint could not be reached in time.".to_owned())?;
    Ok(answer.status)
}

/// Records a failed delivery; switches the endpoint off (and tells its owner) once it has been
/// failing for the configured time.
async fn note_failure(state: &AppState, endpoint: &Endpoint, now: DateTime<Utc>) -> Result<()> {
    let Some(since) = endpoints::mark_failed(&state.db, &endpoint.id, now).await? else { return Ok(()) };
    if now - since < Duration::hours(state.config.delivery.disable_after_hours) {
        return Ok(());
    }
    if endpoints::disable(&state.db, &endpoint.id, now, "The endpoint was switched off after failing for a day.").await? {
        tracing::warn!(endpoint_id = %endpoint.id, user_id = %endpoint.user_id, "webhook endpoint switched off after failing");
        let note = notifying::Note {
            user_id: endpoint.user_id.clone(),
            kind: NotificationKind::Webhook,
            title: "Webhook endpoint switched off".to_owned(),
            body: format!(
                "Deliveries to {} ({}) failed for {} hours, so it was switched off. Fix it, then switch it on under Settings › API Keys.",
                endpoint.url, endpoint.event_type, state.config.delivery.disable_after_hours
            ),
            link: Some("/settings?tab=api"),
        };
        notifying::notify(state, vec![note], now).await?;
    }
    Ok(())
}

/// The background loop: every `delivery.poll_seconds`, starts lanes for what is due while
/// places are free, without waiting for the running ones, until the task is dropped (its lanes
/// with it: a claim cut short runs out and the message is sent again).
pub async fn run_forever(state: AppState) {
    let worker = Worker::configured(&state);
    let mut lanes = Lanes::new();
    let mut every = tokio::time::interval(std::time::Duration::from_secs(state.config.delivery.poll_seconds));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let mut made = 0;
        while let Some(ended) = lanes.try_join_next() {
            match ended {
                Ok(Ok(attempts)) => made += attempts,
                // The lane logged it.
                Ok(Err(_)) => {}
                Err(join) => tracing::warn!(error = %join, "outbox lane failed"),
            }
        }
        match worker.start_due(&state, state.clock.now(), &mut lanes).await {
            Ok(0) if made == 0 => {}
            Ok(started) => tracing::debug!(attempts = made, started, running = worker.running(), "outbox pass"),
            Err(err) => tracing::warn!(error = %err, "outbox pass failed"),
        }
    }
}
