//! The outbox worker: claims due messages (webhooks and email), sends each, and either marks
//! it delivered or schedules the next attempt on the configured backoff (about a day by
//! default), giving up after the last. A webhook endpoint whose deliveries have failed for
//! `delivery.disable_after_hours` is switched off and its owner notified.
//!
//! Webhook requests follow Standard Webhooks: `webhook-id` (the message id, the same on every
//! attempt), `webhook-timestamp` (the attempt's Unix time) and `webhook-signature`
//! (`v1,` + HMAC-SHA256 with the endpoint's secret), and go through the outgoing-request guard
//! (the URL is checked and resolved again at each attempt).

use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use strikeline_store::outbox::{self, Message};
use strikeline_store::webhooks::{self as endpoints, Attempt, Endpoint};

use super::{mailing, notifying, webhooks};
use crate::foundation::error::Result;
use crate::foundation::outbound::{self, standard_webhooks};
use crate::foundation::state::AppState;
use crate::foundation::vocab::NotificationKind;

/// Messages one pass takes at most.
const BATCH: u32 = 50;

/// What one attempt came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub delivered: bool,
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub error: Option<String>,
}

/// Sends every message due at `now` that this worker can claim; how many attempts it made.
pub async fn run_due(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let mut made = 0;
    for message in outbox::due(&state.db, now, BATCH).await? {
        if attempt(state, &message, now).await?.is_some() {
            made += 1;
        }
    }
    Ok(made)
}

/// Claims `message` and makes one attempt; `None` when another worker had claimed it.
pub async fn attempt(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<Option<Outcome>> {
    if !outbox::claim(&state.db, message, now, now + state.config.delivery.claim_hold()).await? {
        return Ok(None);
    }
    Ok(Some(send_held(state, message, now).await?))
}

/// Makes one attempt at a message this caller holds (claimed, or queued held), and records
/// what came of it. `message.attempts` is the count before this attempt.
pub async fn send_held(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<Outcome> {
    let attempts_made = message.attempts + 1;
    let outcome = match message.channel.as_str() {
        webhooks::CHANNEL => send_webhook(state, message, now).await?,
        mailing::CHANNEL => {
            let started = Instant::now();
            let sent = mailing::send(&state.config.email, &message.id, &message.payload).await;
            Outcome { delivered: sent.is_ok(), status_code: None, latency_ms: elapsed_ms(started), error: sent.err() }
        }
        other => Outcome { delivered: false, status_code: None, latency_ms: 0, error: Some(format!("unknown channel {other}")) },
    };
    if outcome.delivered {
        outbox::delivered(&state.db, &message.id, now).await?;
    } else {
        let error = outcome.error.clone().unwrap_or_else(|| "failed".to_owned());
        let delays = &state.config.delivery.retry_seconds;
        let retried = message.topic != webhooks::TEST_TOPIC;
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
        return Ok(Outcome {
            delivered: false,
            status_code: None,
            latency_ms: 0,
            error: Some("The endpoint was deleted or switched off.".into()),
        });
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
    endpoints::log_attempt(
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
    if message.topic != webhooks::TEST_TOPIC {
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

/// The background loop: one pass every `delivery.poll_seconds` until the task is dropped.
pub async fn run_forever(state: AppState) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(state.config.delivery.poll_seconds));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match run_due(&state, state.clock.now()).await {
            Ok(0) => {}
            Ok(made) => tracing::debug!(attempts = made, "outbox pass"),
            Err(err) => tracing::warn!(error = %err, "outbox pass failed"),
        }
    }
}
