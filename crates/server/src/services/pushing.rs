//! Web Push (Pro and up): a user subscribes each browser from Settings › Notifications, chooses
//! which notification kinds are pushed, and each such notification is queued in the outbox once
//! per browser and sent by `delivering` to the browser's push service, encrypted to the
//! browser's keys and signed with the instance's VAPID key (`foundation::web_push`). A push
//! service's 404 or 410 (the browser unsubscribed) removes the subscription; its 429 and 5xx
//! are retried on the outbox's schedule.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::notifications::Notification;
use strikeline_store::outbox::{self, Message};
use strikeline_store::push::{self as store, PushSubscription};
use strikeline_store::users::UserRecord;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::outbound::{self, Outcome};
use crate::foundation::state::AppState;
use crate::foundation::vocab::NotificationKind;
use crate::foundation::web_push::{BrowserKeys, PushError, Vapid};

/// The outbox channel of Web Push.
pub const CHANNEL: &str = "push";

/// The most browsers one user subscribes.
pub const MAX_SUBSCRIPTIONS: u32 = 10;

/// How long a push service keeps a message for a browser that is offline (the `TTL` header):
/// a day, after which a notification is stale.
pub const TTL_SECONDS: u32 = 86_400;

/// The name the VAPID key is stored under.
const KEY_NAME: &str = "vapid-p256";

fn key_error(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("VAPID key: {e}"))
}

/// The instance's VAPID key, generated and stored at first start (`Server::bind`, or first use
/// if that failed); every instance of a deployment reads the same one, so a subscription made
/// through one is sent to by all.
pub async fn vapid(state: &AppState) -> Result<Arc<Vapid>> {
    if let Some(key) = state.caches.vapid.get() {
        return Ok(key.clone());
    }
    let (private, _) = match strikeline_store::ledger::key(&state.db, KEY_NAME).await? {
        Some(stored) => stored,
        None => {
            let pkcs8 = Vapid::generate_pkcs8().map_err(key_error)?;
            let public = Vapid::from_pkcs8(&pkcs8).map_err(key_error)?.public_key();
            let hex = strikeline_ledger::hex::encode(&pkcs8);
            let stored = strikeline_store::ledger::key_or_insert(&state.db, KEY_NAME, &hex, &public, state.clock.now()).await?;
            tracing::info!(public_key = %stored.1, "Web Push (VAPID) key generated");
            stored
        }
    };
    let pkcs8 = strikeline_ledger::hex::decode(&private).ok_or_else(|| key_error("stored key is not hex"))?;
    let key = Arc::new(Vapid::from_pkcs8(&pkcs8).map_err(key_error)?);
    // Two first readers store the same key: whichever sets it, both answer it.
    Ok(state.caches.vapid.get_or_init(|| key).clone())
}

/// The contact named in VAPID tokens: `push.subject`, else the public URL, else the email
/// sender's address.
pub fn subject(state: &AppState) -> String {
    if let Some(subject) = &state.config.push.subject {
        return subject.clone();
    }
    if let Some(url) = &state.config.public_url {
        return url.trim_end_matches('/').to_owned();
    }
    let from = &state.config.email.from;
    let address = from.rsplit_once('<').map_or(from.as_str(), |(_, rest)| rest.trim_end_matches('>'));
    format!("mailto:{}", address.trim())
}

/// What the browser sent (`PushSubscription.toJSON()`), checked.
pub struct NewSubscription<'a> {
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
    pub label: String,
}

/// Stores a browser's subscription for `user`: the plan must include push notifications, the
/// endpoint must pass the outgoing-request guard and the keys must be a browser's (each refusal
/// names its field); a user holds at most [`MAX_SUBSCRIPTIONS`].
pub async fn subscribe(state: &AppState, user: &UserRecord, new: NewSubscription<'_>, now: DateTime<Utc>) -> Result<PushSubscription> {
    Entitlements::of(user, now).require(Capability::PushNotifications)?;
    let mut errors = Vec::new();
    if let Err(refusal) = outbound::parse(new.endpoint, &super::webhooks::guard(state)) {
        errors.push(FieldError::new("endpoint", refusal.to_string()));
    }
    match BrowserKeys::parse(new.p256dh, new.auth) {
        Ok(_) => {}
        Err(PushError::AuthSecret) => errors.push(FieldError::new("keys.auth", PushError::AuthSecret.to_string())),
        Err(other) => errors.push(FieldError::new("keys.p256dh", other.to_string())),
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let row = PushSubscription {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        endpoint: new.endpoint.trim().to_owned(),
        p256dh: new.p256dh.trim_end_matches('=').to_owned(),
        auth_secret: new.auth.trim_end_matches('=').to_owned(),
        label: new.label,
        created_at: now,
        last_delivered_at: None,
    };
    if !store::insert_within(&state.db, &row, MAX_SUBSCRIPTIONS).await? {
        return Err(AppError::Conflict(FieldError::new(
            "endpoint",
            format!("You have push notifications on {MAX_SUBSCRIPTIONS} browsers. Turn one off to add another."),
        )));
    }
    Ok(row)
}

/// The kinds `user` has chosen to push.
pub fn chosen(user: &UserRecord) -> Vec<NotificationKind> {
    NotificationKind::set_from_stored(&user.push_events)
}

/// A queued push, as stored in the outbox's payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueuedPush {
    pub subscription_id: String,
    pub notification_id: String,
    pub kind: String,
    pub title: String,
    pub body: String,
    pub link: Option<String>,
}

/// What the service worker is sent (encrypted): it shows `title` and `body` and opens `url`.
#[derive(Debug, Serialize)]
struct Shown<'a> {
    title: &'a str,
    body: &'a str,
    url: &'a str,
    /// The notification's id: a browser shows one notification per tag.
    tag: &'a str,
    kind: &'a str,
}

/// Queues each notification for every browser of its user whose plan in force includes push
/// notifications and who chose its kind; how many messages.
pub async fn queue(state: &AppState, addressed: &[(&Notification, &UserRecord)], now: DateTime<Utc>) -> Result<usize> {
    let mut browsers: HashMap<&str, Vec<PushSubscription>> = HashMap::new();
    let mut messages = Vec::new();
    for &(row, user) in addressed {
        let wanted = row.kind.parse::<NotificationKind>().is_ok_and(|kind| chosen(user).contains(&kind));
        if !wanted || !Entitlements::of(user, now).allows(Capability::PushNotifications) {
            continue;
        }
        if !browsers.contains_key(row.user_id.as_str()) {
            browsers.insert(row.user_id.as_str(), store::for_user(&state.db, &row.user_id).await?);
        }
        for browser in browsers.get(row.user_id.as_str()).into_iter().flatten() {
            let push = QueuedPush {
                subscription_id: browser.id.clone(),
                notification_id: row.id.clone(),
                kind: row.kind.clone(),
                title: row.title.clone(),
                body: row.body.clone(),
                link: row.link.clone(),
            };
            let payload = serde_json::to_string(&push).map_err(anyhow::Error::from)?;
            messages.push(Message::pending(uuid::Uuid::new_v4().to_string(), CHANNEL, &row.user_id, None, &row.kind, payload, now));
        }
    }
    outbox::enqueue(&state.db, &messages).await?;
    Ok(messages.len())
}

/// Sends one queued push; what came of it, and whether a failure is worth another attempt.
/// Not sent (and not retried) when the subscription is gone or now another account's, or the
/// owner's plan in force no longer includes push.
pub async fn send(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<(Outcome, bool)> {
    let failed = |error: String, retry: bool| Ok((Outcome::not_sent(error), retry));
    let Ok(push) = serde_json::from_str::<QueuedPush>(&message.payload) else {
        return failed("unreadable stored push".to_owned(), false);
    };
    let browser = store::by_id(&state.db, &push.subscription_id).await?.filter(|b| b.user_id == message.user_id);
    let Some(browser) = browser else { return failed("The browser's subscription was removed.".to_owned(), false) };
    let user = strikeline_store::users::find_by_id(&state.db, &message.user_id).await?;
    if let Some(refusal) =
        user.map(|u| Entitlements::of(&u, now).require(Capability::PushNotifications).err()).unwrap_or(Some(AppError::NotFound))
    {
        return failed(format!("Not sent: {refusal}"), false);
    }
    let Ok(keys) = BrowserKeys::parse(&browser.p256dh, &browser.auth_secret) else {
        return failed("The browser's stored keys are unusable.".to_owned(), false);
    };
    let shown = Shown {
        title: &push.title,
        body: &push.body,
        url: push.link.as_deref().unwrap_or("/notifications"),
        tag: &push.notification_id,
        kind: &push.kind,
    };
    let plaintext = serde_json::to_vec(&shown).map_err(anyhow::Error::from)?;
    let body = crate::foundation::web_push::encrypt(&keys, &plaintext).map_err(|e| AppError::Internal(anyhow::anyhow!("push: {e}")))?;
    let guard = super::webhooks::guard(state);
    let target = match outbound::resolve(&browser.endpoint, &guard).await {
        Ok(target) => target,
        Err(refusal) => return failed(refusal.to_string(), true),
    };
    let authorization = vapid(state).await?.authorization(&target.url, &subject(state), now).map_err(key_error)?;
    let urgency = if push.kind == NotificationKind::PriceAlert.as_str() { "high" } else { "normal" };
    let headers = [
        ("authorization", authorization),
        ("content-encoding", "aes128gcm".to_owned()),
        ("content-type", "application/octet-stream".to_owned()),
        ("ttl", TTL_SECONDS.to_string()),
        ("urgency", urgency.to_owned()),
    ];
    let started = std::time::Instant::now();
    let answer = outbound::post(&target, &headers, body, &guard).await;
    let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let outcome =
        |delivered: bool, status: Option<u16>, error: Option<String>| Outcome { delivered, status_code: status, latency_ms, error };
    Ok(match answer {
        Ok(answer) if (200..300).contains(&answer.status) => {
            store::mark_delivered(&state.db, &browser.id, now).await?;
            (outcome(true, Some(answer.status), None), false)
        }
        Ok(answer) if answer.status == 404 || answer.status == 410 => {
            store::delete(&state.db, &browser.id).await?;
            tracing::info!(subscription_id = %browser.id, user_id = %browser.user_id, status = answer.status, "push subscription gone: removed");
            let error = format!("The push service answered {}: the browser unsubscribed, so its subscription was removed.", answer.status);
            (outcome(false, Some(answer.status), Some(error)), false)
        }
        Ok(answer) => {
            // Too many requests and the service's own faults pass; anything else (a key the
            // service does not take, a body too large) would fail the same way again.
            let retry = answer.status == 429 || answer.status >= 500;
            (outcome(false, Some(answer.status), Some(format!("The push service answered {}.", answer.status))), retry)
        }
        Err(_) => (outcome(false, None, Some("The push service could not be reached in time.".to_owned())), true),
    })
}

/// "Chrome on macOS" from a `User-Agent`, for the list of devices.
pub fn label_of(user_agent: &str) -> String {
    let browser = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
        .into_iter()
        .find(|(token, _)| user_agent.contains(token))
        .map_or("A browser", |(_, name)| name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .into_iter()
    .find(|(token, _)| user_agent.contains(token))
    .map(|(_, name)| name);
    match system {
        Some(system) => format!("{browser} on {system}"),
        None => browser.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_named_by_its_browser_and_system() {
        let chrome_mac =
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(label_of(chrome_mac), "Chrome on macOS");
        let edge =
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0";
        assert_eq!(label_of(edge), "Edge on Windows");
        let firefox = "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0";
        assert_eq!(label_of(firefox), "Firefox on Android");
        let safari = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
        assert_eq!(label_of(safari), "Safari on iOS");
        assert_eq!(label_of(""), "A browser");
    }
}
