//! Settings › API Keys: create (shown once), list, switch on or off, delete. The keys
//! themselves are checked by `api_access` on every `/api/v1` request.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::api_keys::{self, ApiKeyRecord, NewApiKey};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::api_access;
use crate::foundation::audit::{self, Origin};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AuditAction, KeyLifetime, KeyPermission, stored};

/// Keys one user may hold.
pub const MAX_KEYS_PER_USER: u32 = 20;
/// Longest key name, in characters.
pub const NAME_MAX: usize = 64;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_keys, create_key)).routes(routes!(delete_key)).routes(routes!(toggle_key))
}

/// A key as its owner sees it: never the key itself.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    #[schema(format = "uuid")]
    pub id: String,
    pub name: String,
    /// The key's first characters, to tell keys apart (`slk_AbCdEfGh`).
    #[schema(example = "slk_AbCdEfGh")]
    pub key_prefix: String,
    pub permissions: KeyPermission,
    pub is_active: bool,
    /// Whether `expiresAt` has passed: the key no longer works and cannot be switched on.
    pub expired: bool,
    pub last_used: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The trading account the key acts on; `null`: the owner's current account.
    pub account_id: Option<String>,
}

impl ApiKey {
    fn from_record(record: ApiKeyRecord, now: DateTime<Utc>) -> Result<ApiKey> {
        let permissions: KeyPermission = stored(&record.permissions, format_args!("api key {}", record.id))?;
        Ok(ApiKey {
            expired: api_access::expired(&record, now),
            id: record.id,
            name: record.name,
            key_prefix: record.key_prefix,
            permissions,
            is_active: record.is_active,
            last_used: record.last_used_at,
            expires_at: record.expires_at,
            created_at: record.created_at,
            updated_at: record.updated_at,
            account_id: record.account_id,
        })
    }
}

fn lifetime_days(lifetime: KeyLifetime) -> Option<i64> {
    match lifetime {
        KeyLifetime::Days30 => Some(30),
        KeyLifetime::Days90 => Some(90),
        KeyLifetime::Days365 => Some(365),
        KeyLifetime::Never => None,
    }
}

/// `POST /api/api-keys`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateApiKeyRequest {
    /// 1–64 characters after trimming.
    #[schema(example = "Trading bot")]
    pub name: String,
    /// Default `read`.
    #[serde(default)]
    pub permissions: Option<KeyPermission>,
    /// Days until the key stops working; default `never`.
    #[serde(default)]
    pub expires_in: Option<KeyLifetime>,
    /// One of the user's trading accounts: the key acts on it whatever account is current.
    /// Left out, the key acts on the current account.
    #[serde(default)]
    pub account_id: Option<String>,
}

/// A new key, the only time it is shown.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    /// The whole key. It is not stored and cannot be shown again.
    pub key: String,
    pub api_key: ApiKey,
    pub message: String,
}

/// `PATCH /api/api-keys/{id}/toggle`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToggleApiKeyRequest {
    pub is_active: bool,
}

fn key_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(AppError::field("name", "Please enter a name for your API key"));
    }
    if name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(AppError::field("name", "A key name is at most 64 characters, without control characters"));
    }
    Ok(name.to_owned())
}

/// The signed-in user's API keys, newest first.
#[utoipa::path(
    get, path = "/api/api-keys", tag = "api-keys",
    responses((status = 200, body = Vec<ApiKey>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn list_keys(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<ApiKey>>> {
    let now = state.clock.now();
    let keys = api_keys::list(&state.db, &user.id).await?;
    Ok(axum::Json(keys.into_iter().map(|k| ApiKey::from_record(k, now)).collect::<Result<_>>()?))
}

/// Creates a key and shows it once. Only its SHA-256 is stored. At most 20 keys per user.
#[utoipa::path(
    post, path = "/api/api-keys", tag = "api-keys",
    request_body = CreateApiKeyRequest,
    responses(
        (status = 201, body = CreatedApiKey),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 409, description = "The user already holds 20 keys", body = crate::foundation::error::Problem),
        (status = 422, description = "`name`, `permissions`, `expiresIn` or `accountId` is not valid", body = crate::foundation::error::Problem),
        (status = 403, description = "The email address is not confirmed yet", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many keys created this hour; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn create_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    ApiJson(request): ApiJson<CreateApiKeyRequest>,
) -> Result<(StatusCode, limits::RateLimit, axum::Json<CreatedApiKey>)> {
    let now = state.clock.now();
    Entitlements::of(&user, now).require(Capability::ApiKeys)?;
    let name = key_name(&request.name)?;
    let permissions = request.permissions.unwrap_or(KeyPermission::Read);
    let expires_at = lifetime_days(request.expires_in.unwrap_or(KeyLifetime::Never)).map(|d| now + Duration::days(d));
    let account_id = crate::services::account_scope::checked(&state, &user, request.account_id.as_deref()).await?;
    let limit = limits::hit(&state, limits::API_KEY_CREATE, &user.id, now).await?;
    let made = api_access::new_key();
    let record = NewApiKey {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        name: name.clone(),
        key_hash: made.hash,
        key_prefix: made.prefix,
        permissions: permissions.as_str().to_owned(),
        expires_at,
        created_at: now,
        account_id,
    };
    if !api_keys::insert_within(&state.db, &record, MAX_KEYS_PER_USER).await? {
        return Err(AppError::Conflict(FieldError::new(
            "name",
            "You already have 20 API keys. Delete one you no longer use to create another.",
        )));
    }
    audit::record(
        &state,
        Some(&user.id),
        None,
        AuditAction::ApiKeyCreated,
        Some(format!("{name} ({})", permissions.as_str())),
        &origin,
        now,
    )
    .await?;
    let stored = api_keys::find_owned(&state.db, &user.id, &record.id).await?.ok_or(AppError::NotFound)?;
    let created = CreatedApiKey {
        key: made.key,
        api_key: ApiKey::from_record(stored, now)?,
        message: "Copy your API key now. For your security it will not be shown again.".into(),
    };
    Ok((StatusCode::CREATED, limit, axum::Json(created)))
}

/// Deletes a key for good; requests with it fail from now on.
#[utoipa::path(
    delete, path = "/api/api-keys/{id}", tag = "api-keys",
    params(("id" = String, Path, description = "The key's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such key of yours", body = crate::foundation::error::Problem),
    )
)]
async fn delete_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    let now = state.clock.now();
    let key = api_keys::find_owned(&state.db, &user.id, &id).await?.ok_or(AppError::NotFound)?;
    if !api_keys::delete(&state.db, &user.id, &id).await? {
        return Err(AppError::NotFound);
    }
    audit::record(&state, Some(&user.id), None, AuditAction::ApiKeyDeleted, Some(key.name), &origin, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Switches a key on or off. An expired key cannot be switched on.
#[utoipa::path(
    patch, path = "/api/api-keys/{id}/toggle", tag = "api-keys",
    params(("id" = String, Path, description = "The key's id")),
    request_body = ToggleApiKeyRequest,
    responses(
        (status = 200, body = ApiKey),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such key of yours", body = crate::foundation::error::Problem),
        (status = 403, description = "Switching on needs a confirmed email address", body = crate::foundation::error::Problem),
        (status = 422, description = "The key has expired", body = crate::foundation::error::Problem),
    )
)]
async fn toggle_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<ToggleApiKeyRequest>,
) -> Result<axum::Json<ApiKey>> {
    let now = state.clock.now();
    let key = api_keys::find_owned(&state.db, &user.id, &id).await?.ok_or(AppError::NotFound)?;
    if request.is_active {
        Entitlements::of(&user, now).require(Capability::ApiKeys)?;
    }
    if request.is_active && api_access::expired(&key, now) {
        return Err(AppError::field("isActive", "This key has expired. Create a new one instead."));
    }
    let updated = api_keys::set_active(&state.db, &user.id, &id, request.is_active, now).await?.ok_or(AppError::NotFound)?;
    let state_word = if request.is_active { "on" } else { "off" };
    audit::record(
        &state,
        Some(&user.id),
        None,
        AuditAction::ApiKeyToggled,
        Some(format!("{} switched {state_word}", key.name)),
        &origin,
        now,
    )
    .await?;
    Ok(axum::Json(ApiKey::from_record(updated, now)?))
}
