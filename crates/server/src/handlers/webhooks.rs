//! Outbound webhook endpoints: registered, listed, tested, switched on again and deleted from
//! Settings (`/api/webhooks`, signed in) and from the public API (`/api/v1/webhooks`, a key
//! with write permission). Both call the same service; each answer names the endpoint's event
//! type as an enum and never shows the secret again after creation.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::users::UserRecord;
use strikeline_store::webhooks::{self as store, Attempt, Endpoint};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::api_access::{ApiCaller, ApiLimits};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{WebhookEventType, stored};
use crate::services::{delivering, webhooks as service};

/// Attempts the delivery log shows per endpoint.
const LOG_LENGTH: u32 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_webhooks, create_webhook))
        .routes(routes!(delete_webhook))
        .routes(routes!(test_webhook))
        .routes(routes!(enable_webhook))
        .routes(routes!(webhook_deliveries))
        .routes(routes!(v1_list, v1_create))
        .routes(routes!(v1_delete))
        .routes(routes!(v1_send_test))
}

/// A registered endpoint, without its secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    #[schema(format = "uuid")]
    pub id: String,
    pub url: String,
    pub event_type: WebhookEventType,
    /// Deliveries are made; `false` once switched off after failing for a day (`disabledAt`
    /// set), or while the owner's plan does not include webhooks (`disabledAt` null; on again
    /// after an upgrade).
    pub is_active: bool,
    /// Kept but paused because the owner's plan in force does not include webhooks (or the
    /// address is not confirmed): active again, as it was, once it does.
    pub paused_for_plan: bool,
    /// When the current run of failed deliveries began.
    pub failing_since: Option<DateTime<Utc>>,
    pub disabled_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// The trading account whose positions and orders it hears about (`position_closed`,
    /// `order_filled`, `order_rejected`); `null`: all of the owner's. Other events are the
    /// owner's whatever the account.
    pub account_id: Option<String>,
}

impl WebhookEndpoint {
    /// The endpoint as its owner sees it; `entitled`: their plan in force includes webhooks.
    /// Without them it reads as not active (paused for the plan: kept as it is, and active
    /// again once the plan includes webhooks), with `disabledAt` and `failingSince` as stored.
    fn of(e: Endpoint, entitled: bool) -> Result<WebhookEndpoint> {
        Ok(WebhookEndpoint {
            event_type: stored(&e.event_type, format_args!("webhook endpoint {}", e.id))?,
            id: e.id,
            url: e.url,
            is_active: e.is_active && entitled,
            paused_for_plan: e.is_active && !entitled,
            failing_since: e.failing_since,
            disabled_at: e.disabled_at,
            created_at: e.created_at,
            account_id: e.account_id,
        })
    }
}

/// `POST /api/webhooks` and `POST /api/v1/webhooks`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWebhookRequest {
    pub event_type: WebhookEventType,
    /// An `https` URL on a public address.
    #[schema(example = "https://hooks.example.com/strikeline")]
    pub url: String,
    /// One of the user's trading accounts: `position_closed`, `order_filled` and
    /// `order_rejected` are then sent for that account's positions and orders only. Left out,
    /// for every account's.
    #[serde(default)]
    pub account_id: Option<String>,
}

/// A new endpoint, with its signing secret shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    pub message: String,
    #[schema(format = "uuid")]
    pub webhook_id: String,
    /// `whsec_…`: verifies `webhook-signature` (Standard Webhooks). Not shown again.
    pub secret: String,
    pub endpoint: WebhookEndpoint,
}

/// One delivery attempt, as the log shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDelivery {
    /// The `webhook-id` the attempt carried (the same on every attempt of a message).
    pub message_id: String,
    pub attempted_at: DateTime<Utc>,
    /// The receiver's status; absent when no answer came.
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub succeeded: bool,
    pub error: Option<String>,
}

impl WebhookDelivery {
    fn of(a: Attempt) -> WebhookDelivery {
        WebhookDelivery {
            message_id: a.message_id,
            attempted_at: a.attempted_at,
            status_code: a.status_code.and_then(|c| u16::try_from(c).ok()),
            latency_ms: a.latency_ms,
            succeeded: a.succeeded,
            error: a.error,
        }
    }
}

async fn list_for(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Vec<WebhookEndpoint>> {
    let entitled = Entitlements::of(user, now).allows(Capability::Webhooks);
    store::list(&state.db, &user.id).await?.into_iter().map(|e| WebhookEndpoint::of(e, entitled)).collect()
}

async fn create_for(state: &AppState, user: &UserRecord, request: CreateWebhookRequest, now: DateTime<Utc>) -> Result<CreatedWebhook> {
    let endpoint = service::create(state, user, &request.url, request.event_type, request.account_id.as_deref(), now).await?;
    Ok(CreatedWebhook {
        message: "Webhook created. Copy its signing secret now: it will not be shown again.".into(),
        webhook_id: endpoint.id.clone(),
        secret: endpoint.secret.clone(),
        endpoint: WebhookEndpoint::of(endpoint, true)?,
    })
}

async fn delete_for(state: &AppState, user: &UserRecord, id: &str) -> Result<StatusCode> {
    if store::delete(&state.db, &user.id, id).await? { Ok(StatusCode::NO_CONTENT) } else { Err(AppError::NotFound) }
}

async fn test_for(state: &AppState, user: &UserRecord, id: &str, now: DateTime<Utc>) -> Result<WebhookDelivery> {
    let message = service::queue_test(state, user, id, now).await?;
    let outcome = delivering::send_held(state, &message, now).await?;
    Ok(WebhookDelivery {
        message_id: message.id,
        attempted_at: now,
        status_code: outcome.status_code,
        latency_ms: outcome.latency_ms,
        succeeded: outcome.delivered,
        error: outcome.error,
    })
}

/// The signed-in user's webhook endpoints, newest first.
#[utoipa::path(
    get, path = "/api/webhooks", tag = "webhooks",
    responses((status = 200, body = Vec<WebhookEndpoint>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn list_webhooks(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<WebhookEndpoint>>> {
    Ok(axum::Json(list_for(&state, &user, state.clock.now()).await?))
}

/// Registers an endpoint for one event type (Pro and up, at most 10 per user). The URL must
/// be `https` on a public address; it is checked again at each delivery.
#[utoipa::path(
    post, path = "/api/webhooks", tag = "webhooks",
    request_body = CreateWebhookRequest,
    responses(
        (status = 201, body = CreatedWebhook),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 403, description = "The plan does not include webhooks", body = crate::foundation::error::Problem),
        (status = 409, description = "10 endpoints already", body = crate::foundation::error::Problem),
        (status = 422, description = "`url` is refused or `eventType` unknown", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many webhook changes; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn create_webhook(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<CreateWebhookRequest>,
) -> Result<(StatusCode, limits::RateLimit, axum::Json<CreatedWebhook>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::WEBHOOK_WRITE, &user.id, now).await?;
    Ok((StatusCode::CREATED, limit, axum::Json(create_for(&state, &user, request, now).await?)))
}

/// Deletes one of the user's endpoints, with its queued deliveries and log.
#[utoipa::path(
    delete, path = "/api/webhooks/{id}", tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
    )
)]
async fn delete_webhook(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    delete_for(&state, &user, &id).await
}

/// Sends a signed test message to one of the user's endpoints now and answers what came of it
/// (it is logged with the others, and not retried).
#[utoipa::path(
    post, path = "/api/webhooks/{id}/test", tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 200, body = WebhookDelivery),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 403, description = "The plan does not include webhooks", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
        (status = 422, description = "The endpoint is switched off", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many test sends; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn test_webhook(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<(limits::RateLimit, axum::Json<WebhookDelivery>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::WEBHOOK_WRITE, &user.id, now).await?;
    Ok((limit, axum::Json(test_for(&state, &user, &id, now).await?)))
}

/// Switches an endpoint that was switched off back on (a fresh start).
#[utoipa::path(
    post, path = "/api/webhooks/{id}/enable", tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 200, body = WebhookEndpoint),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 403, description = "The plan does not include webhooks", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
    )
)]
async fn enable_webhook(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<WebhookEndpoint>> {
    Entitlements::of(&user, state.clock.now()).require(Capability::Webhooks)?;
    if !store::enable(&state.db, &user.id, &id).await? {
        return Err(AppError::NotFound);
    }
    let endpoint = store::get(&state.db, &user.id, &id).await?.ok_or(AppError::NotFound)?;
    Ok(axum::Json(WebhookEndpoint::of(endpoint, true)?))
}

/// An endpoint's newest delivery attempts (at most 50): time, status, latency, answer code.
#[utoipa::path(
    get, path = "/api/webhooks/{id}/deliveries", tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 200, body = Vec<WebhookDelivery>),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
    )
)]
async fn webhook_deliveries(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<Vec<WebhookDelivery>>> {
    store::get(&state.db, &user.id, &id).await?.ok_or(AppError::NotFound)?;
    Ok(axum::Json(store::attempts(&state.db, &id, LOG_LENGTH).await?.into_iter().map(WebhookDelivery::of).collect()))
}

/// The key owner's webhook endpoints.
#[utoipa::path(
    get, path = "/api/v1/webhooks", operation_id = "v1_list_webhooks", tag = "public-api",
    security(("api_key" = [])),
    responses(
        (status = 200, body = Vec<WebhookEndpoint>),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn v1_list(State(state): State<AppState>, caller: ApiCaller) -> Result<(ApiLimits, axum::Json<Vec<WebhookEndpoint>>)> {
    let now = state.clock.now();
    let limits = caller.endpoint(&state, limits::API_WEBHOOKS, now).await?;
    Ok((limits, axum::Json(list_for(&state, &caller.user, now).await?)))
}

/// Registers a webhook endpoint (a key with write permission; Pro and up; at most 10).
/// Deliveries are signed per Standard Webhooks with the secret in the answer.
#[utoipa::path(
    post, path = "/api/v1/webhooks", operation_id = "v1_create_webhook", tag = "public-api",
    security(("api_key" = [])),
    request_body = CreateWebhookRequest,
    responses(
        (status = 201, body = CreatedWebhook),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 403, description = "A read-only key, or the plan does not include webhooks", body = crate::foundation::error::Problem),
        (status = 409, description = "10 endpoints already", body = crate::foundation::error::Problem),
        (status = 422, description = "`url` is refused or `eventType` unknown", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn v1_create(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(request): ApiJson<CreateWebhookRequest>,
) -> Result<(StatusCode, ApiLimits, axum::Json<CreatedWebhook>)> {
    let now = state.clock.now();
    let limits = caller.endpoint(&state, limits::API_WEBHOOKS, now).await?;
    Ok((StatusCode::CREATED, limits, axum::Json(create_for(&state, &caller.user, request, now).await?)))
}

/// Deletes one of the key owner's endpoints.
#[utoipa::path(
    delete, path = "/api/v1/webhooks/{id}", operation_id = "v1_delete_webhook", tag = "public-api",
    security(("api_key" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 403, description = "A read-only key", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn v1_delete(State(state): State<AppState>, caller: ApiCaller, Path(id): Path<String>) -> Result<(ApiLimits, StatusCode)> {
    let limits = caller.endpoint(&state, limits::API_WEBHOOKS, state.clock.now()).await?;
    Ok((limits, delete_for(&state, &caller.user, &id).await?))
}

/// Sends a signed test message to one of the key owner's endpoints now.
#[utoipa::path(
    post, path = "/api/v1/webhooks/{id}/test", operation_id = "v1_test_webhook", tag = "public-api",
    security(("api_key" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses(
        (status = 200, body = WebhookDelivery),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 403, description = "A read-only key, or the plan does not include webhooks", body = crate::foundation::error::Problem),
        (status = 404, description = "No such endpoint of yours", body = crate::foundation::error::Problem),
        (status = 422, description = "The endpoint is switched off", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn v1_send_test(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(id): Path<String>,
) -> Result<(ApiLimits, axum::Json<WebhookDelivery>)> {
    let now = state.clock.now();
    let limits = caller.endpoint(&state, limits::API_WEBHOOKS, now).await?;
    Ok((limits, axum::Json(test_for(&state, &caller.user, &id, now).await?)))
}
