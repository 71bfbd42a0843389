//! Web Push subscriptions: the browsers the signed-in user gets push notifications on
//! (`services::pushing`). Subscribing is Pro and up, through the one entitlement check; listing
//! and removing are for every plan (a downgraded user can still turn a browser off).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::push::{self as store, PushSubscription};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::services::pushing::{self, NewSubscription};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_push_subscriptions, create_push_subscription)).routes(routes!(delete_push_subscription))
}

/// One browser that gets push notifications.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscriptionView {
    #[schema(format = "uuid")]
    pub id: String,
    /// The browser and system it was made on, e.g. "Chrome on macOS".
    pub label: String,
    /// The push service's host, e.g. `fcm.googleapis.com`.
    pub service: String,
    /// The push service's URL for the browser, as subscribed: the app matches it against the
    /// browser's own subscription to tell "this browser" apart.
    pub endpoint: String,
    pub created_at: DateTime<Utc>,
    /// When a notification last reached the push service for it.
    pub last_delivered_at: Option<DateTime<Utc>>,
}

impl From<PushSubscription> for PushSubscriptionView {
    fn from(s: PushSubscription) -> Self {
        let service = url::Url::parse(&s.endpoint).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
        PushSubscriptionView {
            id: s.id,
            label: s.label,
            service,
            endpoint: s.endpoint,
            created_at: s.created_at,
            last_delivered_at: s.last_delivered_at,
        }
    }
}

/// `GET /api/push/subscriptions`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushDevices {
    /// The server's VAPID public key (base64url): the `applicationServerKey` browsers subscribe
    /// with.
    pub public_key: String,
    /// Newest first.
    pub subscriptions: Vec<PushSubscriptionView>,
    /// The most browsers one account subscribes.
    pub max_subscriptions: u32,
}

/// The keys of a browser's subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushKeys {
    /// The browser's P-256 public key, base64url (65 bytes).
    #[schema(max_length = 100)]
    pub p256dh: String,
    /// The browser's authentication secret, base64url (16 bytes).
    #[schema(max_length = 40)]
    pub auth: String,
}

/// `POST /api/push/subscriptions`: what `PushSubscription.toJSON()` gives in the browser.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPushSubscription {
    /// The push service's URL for this browser (https).
    #[schema(max_length = 2000)]
    pub endpoint: String,
    /// When the push service will end the subscription, in milliseconds since the epoch, if it
    /// says; not used.
    #[serde(default)]
    pub expiration_time: Option<f64>,
    pub keys: PushKeys,
}

/// The server's VAPID key and the browsers the user gets push notifications on.
#[utoipa::path(
    get, path = "/api/push/subscriptions", tag = "notifications",
    responses((status = 200, body = PushDevices), (status = 401, description = "Not signed in", body = Problem))
)]
async fn list_push_subscriptions(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<PushDevices>> {
    let subscriptions = store::for_user(&state.db, &user.id).await?.into_iter().map(PushSubscriptionView::from).collect();
    Ok(axum::Json(PushDevices {
        public_key: pushing::vapid(&state).await?.public_key(),
        subscriptions,
        max_subscriptions: pushing::MAX_SUBSCRIPTIONS,
    }))
}

/// Subscribes this browser to push notifications (Pro and up). The same browser subscribing
/// again replaces its subscription.
#[utoipa::path(
    post, path = "/api/push/subscriptions", tag = "notifications",
    request_body = NewPushSubscription,
    responses(
        (status = 201, body = PushSubscriptionView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "The plan does not include push notifications", body = Problem),
        (status = 409, description = "Ten browsers subscribed already", body = Problem),
        (status = 422, description = "The endpoint or a key is not usable; `errors` names it", body = Problem),
    )
)]
async fn create_push_subscription(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewPushSubscription>,
) -> Result<(StatusCode, axum::Json<PushSubscriptionView>)> {
    let now = state.clock.now();
    let agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let new =
        NewSubscription { endpoint: &body.endpoint, p256dh: &body.keys.p256dh, auth: &body.keys.auth, label: pushing::label_of(agent) };
    let stored = pushing::subscribe(&state, &user, new, now).await?;
    Ok((StatusCode::CREATED, axum::Json(stored.into())))
}

/// Stops push notifications to one of the user's browsers.
#[utoipa::path(
    delete, path = "/api/push/subscriptions/{id}", tag = "notifications",
    params(("id" = String, Path, description = "The subscription's id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such subscription of yours", body = Problem),
    )
)]
async fn delete_push_subscription(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    store::delete_for_user(&state.db, &user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
