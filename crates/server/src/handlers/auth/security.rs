//! Settings › Security: change the password (ends the other sessions), the signed-in
//! sessions with revoke, the account's audit log, and deleting the account with its data.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{AppendHeaders, IntoResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::{audit as audit_store, sessions, users};
use utoipa::{IntoParams, ToSchema};

use super::model::check_password;
use super::password;
use crate::foundation::audit::{self, AuditEntry, Origin};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::session::{self, CurrentUser};
use crate::foundation::state::AppState;
use crate::foundation::vocab::AuditAction;

/// Audit entries a page holds.
pub const AUDIT_PAGE: u32 = 50;

/// `POST /api/user/password`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasswordChange {
    pub current_password: String,
    /// 6–128 characters.
    #[schema(min_length = 6, max_length = 128)]
    pub new_password: String,
    /// Also switch off every API key (default: yes; a changed password usually means the
    /// old one, and what was made with it, should stop working).
    #[serde(default)]
    pub revoke_api_keys: Option<bool>,
}

/// `DELETE /api/user`: the password confirms it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountDeletion {
    pub password: String,
}

/// A signed-in session of the user.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// Names the session for revoking (not the cookie, nor what is stored).
    pub id: String,
    /// The session of this request.
    pub current: bool,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// The query of `GET /api/user/audit`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Entries older than this time (the `at` of the last entry of the previous page).
    pub before: Option<DateTime<Utc>>,
    /// With `before`: the `id` of the last entry of the previous page, so entries with the same
    /// time are neither repeated nor skipped.
    #[serde(rename = "beforeId")]
    #[param(rename = "beforeId")]
    pub before_id: Option<String>,
}

/// The `sid` of the request's own session.
fn current_sid(state: &AppState, headers: &HeaderMap) -> String {
    session::token(state, headers).map(session::sid_for).unwrap_or_default()
}

/// Checks `password` against the user's and counts the attempt (10 an hour per account), so
/// a stolen session cannot guess its way to the password.
async fn confirm_password(state: &AppState, user: &users::UserRecord, field: &str, password: String) -> Result<limits::RateLimit> {
    let limit = limits::hit(state, limits::PASSWORD_CHECK, &user.id, state.clock.now()).await?;
    if !password::verify_async(&state.capacity, password, Some(user.password_hash.clone())).await? {
        return Err(AppError::field(field, "Your current password is not correct"));
    }
    Ok(limit)
}

/// Changes the password. Needs the current one; every other session of the account ends, and
/// every API key is switched off unless `revokeApiKeys` is false.
#[utoipa::path(
    post, path = "/api/user/password", tag = "auth",
    request_body = PasswordChange,
    responses(
        (status = 204, description = "Changed; other sessions ended (and API keys switched off unless asked not to)"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "`currentPassword` is wrong or `newPassword` too short", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many attempts; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
pub(super) async fn change_password(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    headers: HeaderMap,
    ApiJson(change): ApiJson<PasswordChange>,
) -> Result<(StatusCode, limits::RateLimit, ())> {
    let mut errors: Vec<FieldError> = Vec::new();
    check_password(&change.new_password, &mut errors);
    for e in &mut errors {
        e.field = "newPassword".into();
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let limit = confirm_password(&state, &user, "currentPassword", change.current_password).await?;
    let now = state.clock.now();
    let hash = password::hash_async(&state.capacity, change.new_password).await?;
    let ended = users::set_password(&state.db, &user.id, &hash, &current_sid(&state, &headers), now).await?;
    for sid in ended {
        let _ = state.capacity.ended_sessions.send(sid);
    }
    let revoked = if change.revoke_api_keys.unwrap_or(true) {
        strikeline_store::accounts::revoke_api_keys(&state.db, &user.id, now).await?
    } else {
        0
    };
    let detail = (revoked > 0).then(|| format!("{revoked} API {} switched off", if revoked == 1 { "key" } else { "keys" }));
    audit::record(&state, Some(&user.id), None, AuditAction::PasswordChanged, detail, &origin, now).await?;
    Ok((StatusCode::NO_CONTENT, limit, ()))
}

/// The account's signed-in sessions, newest first; `current` marks this one.
#[utoipa::path(
    get, path = "/api/user/sessions", tag = "auth",
    responses((status = 200, body = Vec<SessionView>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
pub(super) async fn list_sessions(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
) -> Result<axum::Json<Vec<SessionView>>> {
    let current = current_sid(&state, &headers);
    let live = sessions::live_for_user(&state.db, &user.id, state.clock.now()).await?;
    Ok(axum::Json(
        live.into_iter()
            .map(|s| SessionView {
                id: session::public_id(&s.sid),
                current: s.sid == current,
                created_at: s.sess.created_at,
                last_seen_at: s.sess.last_seen_at,
                expires_at: s.expire,
                ip: s.sess.ip,
                user_agent: s.sess.user_agent,
            })
            .collect(),
    ))
}

/// Ends another of the account's sessions (signing that browser out). This request's own
/// session is ended by signing out, not here.
#[utoipa::path(
    delete, path = "/api/user/sessions/{id}", tag = "auth",
    params(("id" = String, Path, description = "The session's `id` from the list", pattern = "^[0-9a-f]{24}$")),
    responses(
        (status = 204, description = "Ended"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such session of yours", body = crate::foundation::error::Problem),
        (status = 422, description = "`id` is this request's own session", body = crate::foundation::error::Problem),
    )
)]
pub(super) async fn revoke_session(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    let now = state.clock.now();
    let live = sessions::live_for_user(&state.db, &user.id, now).await?;
    let target = live.into_iter().find(|s| session::public_id(&s.sid) == id).ok_or(AppError::NotFound)?;
    if target.sid == current_sid(&state, &headers) {
        return Err(AppError::field("id", "This is the session you are using. Sign out to end it."));
    }
    if !sessions::delete_for_user(&state.db, &user.id, &target.sid).await? {
        return Err(AppError::NotFound);
    }
    let _ = state.capacity.ended_sessions.send(target.sid);
    let detail = target.sess.user_agent.map(|ua| format!("session from {}", ua.chars().take(80).collect::<String>()));
    audit::record(&state, Some(&user.id), None, AuditAction::SessionRevoked, detail, &origin, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The account's audit log, newest first, 50 at a time.
#[utoipa::path(
    get, path = "/api/user/audit", tag = "auth",
    params(AuditQuery),
    responses(
        (status = 200, body = Vec<AuditEntry>),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "`before` is not an RFC 3339 time", body = crate::foundation::error::Problem),
    )
)]
pub(super) async fn audit_log(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<Vec<AuditEntry>>> {
    let query: AuditQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    let before = query.before.map(|at| (at, query.before_id.filter(|id| id.len() <= 64)));
    let events = audit_store::for_user(&state.db, &user.id, before, AUDIT_PAGE).await?;
    Ok(axum::Json(events.into_iter().map(AuditEntry::try_from).collect::<Result<_>>()?))
}

/// Deletes the account and everything that is its own (sessions, positions, generated
/// signals, API keys, snapshots, audit log). Needs the password. Signs out.
#[utoipa::path(
    delete, path = "/api/user", tag = "auth",
    request_body = AccountDeletion,
    responses(
        (status = 204, description = "Deleted and signed out"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "`password` is wrong", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many attempts; see Retry-After", body = crate::foundation::error::Problem),
        (status = 503, description = "The subscription could not be cancelled with the payment provider; nothing was deleted", body = crate::foundation::error::Problem),
    )
)]
pub(super) async fn delete_account(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    headers: HeaderMap,
    ApiJson(request): ApiJson<AccountDeletion>,
) -> Result<impl IntoResponse> {
    confirm_password(&state, &user, "password", request.password).await?;
    let now = state.clock.now();
    // What the payment provider bills is cancelled first; if it cannot be, nothing is deleted.
    crate::services::billing::close_account(&state, &user, now).await?;
    let ended = users::delete(&state.db, &user.id).await?;
    for sid in ended {
        let _ = state.capacity.ended_sessions.send(sid);
    }
    audit::record(&state, None, None, AuditAction::AccountDeleted, Some(format!("account {}", user.id)), &origin, now).await?;
    tracing::info!(user_id = %user.id, "account deleted");
    let cookie = session::clearing_cookie(&state, &headers)?;
    Ok((StatusCode::NO_CONTENT, AppendHeaders([(header::SET_COOKIE, cookie)])))
}
