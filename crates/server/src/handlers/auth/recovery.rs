//! The emailed account links: confirming the address (which starts the trial) and resetting a
//! forgotten password.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::model::{User, check_password};
use super::password;
use crate::foundation::audit::{self, Origin};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::{ApiJson, ClientIp};
use crate::foundation::input::parse_email;
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::AuditAction;
use crate::services::accounts;

/// `POST /api/auth/verify-email`: the token from the emailed link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyEmailRequest {
    pub token: String,
}

/// The account after its address was confirmed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailVerified {
    pub user: User,
    /// Whether confirming started the 14-day Pro trial (once per address; not for an account
    /// that already pays).
    pub trial_started: bool,
}

/// `POST /api/auth/forgot-password`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgotPasswordRequest {
    #[schema(schema_with = crate::foundation::input::email_schema)]
    pub email: String,
}

/// `POST /api/auth/reset-password`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResetPasswordRequest {
    pub token: String,
    /// 6–128 characters.
    #[schema(min_length = 6, max_length = 128)]
    pub new_password: String,
}

/// The same answer to every forgotten-password request.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResetRequested {
    pub message: String,
}

/// Confirms the account's address with the token of the emailed link (it works once, for 48
/// hours; only the newest link works). Needs no session: the link may be opened anywhere.
/// Starts the 14-day Pro trial when the address has never had one.
#[utoipa::path(
    post, path = "/api/auth/verify-email", tag = "auth",
    request_body = VerifyEmailRequest,
    responses(
        (status = 200, description = "Confirmed", body = EmailVerified),
        (status = 422, description = "The link has expired or was already used (`token`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many links tried from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
pub(super) async fn verify_email(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    origin: Origin,
    ApiJson(request): ApiJson<VerifyEmailRequest>,
) -> Result<axum::Json<EmailVerified>> {
    let now = state.clock.now();
    limits::hit(&state, limits::ACCOUNT_LINK, &ip.to_string(), now).await?;
    let confirmed = accounts::confirm(&state, request.token.trim(), now).await?;
    if confirmed.trial_started {
        let detail = Some("Pro trial started on confirming the email address".to_owned());
        audit::record(&state, Some(&confirmed.user.id), None, AuditAction::PlanChanged, detail, &origin, now).await?;
    }
    Ok(axum::Json(EmailVerified { user: User::from_record(confirmed.user, &state.config, now)?, trial_started: confirmed.trial_started }))
}

/// Sends a new confirmation link to the signed-in account's address (5 an hour); earlier
/// links stop working.
#[utoipa::path(
    post, path = "/api/auth/verify-email/resend", tag = "auth",
    responses(
        (status = 202, description = "Sent"),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The address is already confirmed", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many links asked for; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
pub(super) async fn resend_confirmation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(StatusCode, limits::RateLimit, ())> {
    let limit = accounts::resend_confirmation(&state, &user, state.clock.now()).await?;
    Ok((StatusCode::ACCEPTED, limit, ()))
}

/// Asks for a password reset link. The answer is the same whether or not an account has the
/// address; an account gets at most three links an hour. The link works once, for 30
/// minutes.
#[utoipa::path(
    post, path = "/api/auth/forgot-password", tag = "auth",
    request_body = ForgotPasswordRequest,
    responses(
        (status = 202, description = "If an account has the address, a link is on its way", body = ResetRequested),
        (status = 422, description = "`email` is not an address", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
pub(super) async fn forgot_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<ForgotPasswordRequest>,
) -> Result<(StatusCode, limits::RateLimit, axum::Json<ResetRequested>)> {
    let email = parse_email(&request.email).map_err(|e| AppError::Validation(vec![e]))?;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::PASSWORD_RESET_IP, &ip.to_string(), now).await?;
    accounts::request_reset(&state, &email, now).await?;
    let message = "If an account uses that address, we have sent it a link to choose a new password. It works for 30 minutes.";
    Ok((StatusCode::ACCEPTED, limit, axum::Json(ResetRequested { message: message.to_owned() })))
}

/// Sets a new password with the token of a reset link. Every session of the account ends and
/// every API key is switched off (turn them on again, or make new ones, after signing in).
#[utoipa::path(
    post, path = "/api/auth/reset-password", tag = "auth",
    request_body = ResetPasswordRequest,
    responses(
        (status = 204, description = "Changed; signed out everywhere, API keys off"),
        (status = 422, description = "`token` no longer works or `newPassword` is too short", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many links tried from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
pub(super) async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    origin: Origin,
    ApiJson(request): ApiJson<ResetPasswordRequest>,
) -> Result<StatusCode> {
    let mut errors: Vec<FieldError> = Vec::new();
    check_password(&request.new_password, &mut errors);
    for e in &mut errors {
        e.field = "newPassword".into();
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let now = state.clock.now();
    limits::hit(&state, limits::ACCOUNT_LINK, &ip.to_string(), now).await?;
    let token = request.token.trim();
    if !accounts::reset_link_works(&state, token, now).await? {
        return Err(AppError::field("token", accounts::LINK_USED));
    }
    let hash = password::hash_async(&state.capacity, request.new_password).await?;
    let (user_id, ended) = accounts::reset(&state, token, &hash, now).await?;
    for sid in ended {
        let _ = state.capacity.ended_sessions.send(sid);
    }
    let detail = Some("through an emailed reset link; every session ended, API keys switched off".to_owned());
    audit::record(&state, Some(&user_id), None, AuditAction::PasswordChanged, detail, &origin, now).await?;
    Ok(StatusCode::NO_CONTENT)
}
