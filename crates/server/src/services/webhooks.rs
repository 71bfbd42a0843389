//! Outbound webhooks: the endpoints users register, and the events written to the outbox for
//! them. Delivery (signing, retries, the log) is `delivering`'s; this module decides who is
//! sent what.
//!
//! Every message is a Standard Webhooks envelope: `{"type", "timestamp", "data"}`, with the
//! message id (`msg_…`) as `webhook-id`. Payloads are documented in docs/notifications.md.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use strikeline_store::outbox::{self, Message};
use strikeline_store::signals::SignalRow;
use strikeline_store::users::UserRecord;
use strikeline_store::webhooks::{self as store, Endpoint};

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::outbound;
use crate::foundation::state::AppState;
use crate::foundation::vocab::WebhookEventType;
use crate::services::visibility::{Viewer, Viewers};

/// Endpoints one user may register.
pub const MAX_ENDPOINTS_PER_USER: u32 = 10;

/// The outbox channel of webhook messages.
pub const CHANNEL: &str = "webhook";

/// The topic of a test message (not an event type users subscribe to).
pub const TEST_TOPIC: &str = "webhook.test";

/// How outgoing webhook requests are guarded, from the configuration.
pub fn guard(state: &AppState) -> outbound::Guard {
    let d = &state.config.delivery;
    outbound::Guard {
        allow_http: d.allow_http,
        allow_private: d.allow_private,
        allowed_ports: state.config.outbound.allowed_ports.clone(),
        timeout: std::time::Duration::from_secs(d.timeout_seconds),
        ..outbound::Guard::default()
    }
}

/// Registers `url` for `event_type`, scoped to the trading account `account_id` if given (one
/// of the user's): the plan must include webhooks, the URL must pass the outgoing-request guard
/// now (it is checked again at each delivery), and the user may hold at most
/// [`MAX_ENDPOINTS_PER_USER`]. The endpoint carries its secret, shown this once.
pub async fn create(
    state: &AppState,
    user: &UserRecord,
    url: &str,
    event_type: WebhookEventType,
    account_id: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Endpoint> {
    Entitlements::of(user, now).require(Capability::Webhooks)?;
    let account_id = crate::services::account_scope::checked(state, user, account_id).await?;
    let url = url.trim();
    let target = outbound::resolve(url, &guard(state)).await.map_err(|refusal| AppError::field("url", &refusal.to_string()))?;
    let endpoint = Endpoint {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        url: target.url.to_string(),
        event_type: event_type.as_str().to_owned(),
        secret: outbound::standard_webhooks::new_secret(),
        is_active: true,
        failing_since: None,
        disabled_at: None,
        created_at: now,
        account_id,
    };
    if !store::insert_within(&state.db, &endpoint, MAX_ENDPOINTS_PER_USER).await? {
        return Err(AppError::Conflict(FieldError::new("url", "You have 10 webhook endpoints. Delete one to add another.")));
    }
    Ok(endpoint)
}

/// A new message id (`msg_` + 32 hex digits), the `webhook-id` receivers de-duplicate by.
pub fn message_id() -> String {
    format!("msg_{}", uuid::Uuid::new_v4().simple())
}

/// The envelope of an event.
fn envelope(topic: &str, data: &Value, now: DateTime<Utc>) -> String {
    json!({ "type": topic, "timestamp": now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true), "data": data }).to_string()
}

fn message(endpoint: &Endpoint, topic: &str, data: &Value, now: DateTime<Utc>) -> Message {
    Message::pending(message_id(), CHANNEL, &endpoint.user_id, Some(&endpoint.id), topic, envelope(topic, data, now), now)
}

/// Queues a test message for one of the user's endpoints, already held by the caller (no
/// worker takes it), who sends it at once with `delivering::send_held`. Like every other
/// delivery it needs the plan in force to include webhooks (403 naming the plan, nothing
/// queued).
pub async fn queue_test(state: &AppState, user: &UserRecord, endpoint_id: &str, now: DateTime<Utc>) -> Result<Message> {
    Entitlements::of(user, now).require(Capability::Webhooks)?;
    let endpoint = store::get(&state.db, &user.id, endpoint_id).await?.ok_or(AppError::NotFound)?;
    if !endpoint.is_active {
        return Err(AppError::field("id", "This endpoint is switched off. Switch it on to send to it."));
    }
    let data = json!({ "message": "A test delivery from Strikeline.", "endpointId": endpoint.id, "eventType": endpoint.event_type });
    let message = message(&endpoint, TEST_TOPIC, &data, now);
    let held = Message { attempts: 1, next_attempt_at: now + state.config.delivery.claim_hold(), ..message.clone() };
    if outbox::enqueue(&state.db, &[held]).await? == 0 {
        return Err(AppError::NotFound); // deleted since it was read
    }
    Ok(message)
}

/// What an event is about, for choosing its receivers.
pub enum Audience<'a> {
    /// One user's endpoints (their alert, their own signal).
    Owner(&'a str),
    /// One user's endpoints but those scoped to another of their trading accounts (a position
    /// in the account `account`).
    Account { owner: &'a str, account: &'a str },
    /// Every subscriber to whom the automated signal issued on `day`, ranked `rank` in that
    /// day, is unlocked ([`crate::services::visibility::Viewer`]).
    Signal { day: chrono::NaiveDate, rank: i64 },
}

/// One event to announce.
pub struct Event<'a> {
    pub event_type: WebhookEventType,
    pub audience: Audience<'a>,
    pub data: Value,
}

/// Why the user `user_id` may not be sent webhooks at `now`, or `None` when they may: the
/// plan in force (a trial that ran out, a downgrade, a lapsed subscription: Free) does not
/// include them, or the user is gone. Their endpoints are kept and stay as they were; they are
/// paused while this answers a reason and work again once the plan includes webhooks.
pub async fn paused_for_plan(state: &AppState, user_id: &str, now: DateTime<Utc>) -> Result<Option<String>> {
    let Some(user) = strikeline_store::users::find_by_id(&state.db, user_id).await? else {
        return Ok(Some("The endpoint's owner is gone.".to_owned()));
    };
    Ok(Entitlements::of(&user, now).require(Capability::Webhooks).err().map(|refusal| refusal.to_string()))
}

/// Queues a message for every active endpoint subscribed to each event whose owner may
/// receive it now: the owner's plan in force includes webhooks (whatever the audience), and
/// for an automated signal shows it; how many. One query per event type, one read per owner,
/// one transaction for all the messages.
pub async fn emit(state: &AppState, events: &[Event<'_>], now: DateTime<Utc>) -> Result<usize> {
    if events.is_empty() {
        return Ok(0);
    }
    let mut messages = Vec::new();
    // Own signals count toward a day's quota: every owner's counts since the oldest day read once.
    let since = events.iter().filter_map(|e| if let Audience::Signal { day, .. } = e.audience { Some(day) } else { None }).min();
    let counts = match since {
        Some(day) => Viewers::since(state, day).await?,
        None => Viewers::empty(),
    };
    // Each owner as a viewer, asked once per call; `None` for an owner who is gone or whose
    // plan in force does not include webhooks.
    let mut owners: std::collections::HashMap<String, Option<Viewer>> = std::collections::HashMap::new();
    for event_type in WebhookEventType::ALL {
        let of_type: Vec<&Event> = events.iter().filter(|e| e.event_type == *event_type).collect();
        if of_type.is_empty() {
            continue;
        }
        let endpoints = store::subscribed(&state.db, event_type.as_str()).await?;
        for endpoint in &endpoints {
            let audiences: Vec<&&Event> = of_type
                .iter()
                .filter(|event| match event.audience {
                    Audience::Owner(user_id) => endpoint.user_id == user_id,
                    Audience::Account { owner, account } => {
                        endpoint.user_id == owner && endpoint.account_id.as_deref().is_none_or(|scope| scope == account)
                    }
                    Audience::Signal { .. } => true,
                })
                .collect();
            if audiences.is_empty() {
                continue;
            }
            if !owners.contains_key(&endpoint.user_id) {
                let viewer = strikeline_store::users::find_by_id(&state.db, &endpoint.user_id)
                    .await?
                    .filter(|user| Entitlements::of(user, now).allows(Capability::Webhooks))
                    .map(|user| counts.of(&user, now));
                owners.insert(endpoint.user_id.clone(), viewer);
            }
            let Some(Some(viewer)) = owners.get(&endpoint.user_id) else { continue };
            for event in audiences {
                let receives = match event.audience {
                    Audience::Owner(_) | Audience::Account { .. } => true,
                    Audience::Signal { day, rank } => viewer.unlocks_rank(day, rank),
                };
                if receives {
                    messages.push(message(endpoint, event_type.as_str(), &event.data, now));
                }
            }
        }
    }
    Ok(outbox::enqueue(&state.db, &messages).await?)
}

/// A signal as webhook payloads carry it (dollars, wire spellings).
pub fn signal_data(s: &SignalRow) -> Value {
    use crate::foundation::money::dollars;
    json!({
        "id": s.id,
        "symbol": s.symbol,
        "companyName": s.company_name,
        "signalType": s.signal_type,
        "strategy": s.strategy,
        "strikePrice": dollars(s.strike_cents),
        "expirationDate": s.expiration_date,
        "entryPrice": dollars(s.entry_cents),
        "targetPrice": dollars(s.target_cents),
        "stopLoss": dollars(s.stop_cents),
        "currentPrice": dollars(s.current_option_cents),
        "confidence": s.confidence,
        "status": s.status,
        "closeReason": s.close_reason,
        "pnlPercent": s.pnl_percent,
        "createdAt": s.created_at,
        "closedAt": s.closed_at,
    })
}
