//! Accounts and sessions: register, sign in, sign out, who is signed in, and the account's
//! own preferences.

mod data_export;
pub mod model;
pub mod password;
pub mod preferences;
pub mod recovery;
pub mod security;
pub mod settings;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{AppendHeaders, IntoResponse};
use strikeline_store::users::{self, NewUser};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::audit::{self, Origin};
use crate::foundation::entitlements::Plan;
use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::extract::{ApiJson, ClientIp};
use crate::foundation::limits;
use crate::foundation::session::{self, CurrentUser};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AuditAction, SubscriptionStatus};
use model::{Credentials, LoginRequest, RegisterRequest, Registration, User};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(me))
        .routes(routes!(security::change_password))
        .routes(routes!(security::list_sessions))
        .routes(routes!(security::revoke_session))
        .routes(routes!(security::audit_log))
        .routes(routes!(security::delete_account))
        .routes(routes!(data_export::export))
        .routes(routes!(recovery::verify_email))
        .routes(routes!(recovery::resend_confirmation))
        .routes(routes!(recovery::forgot_password))
        .routes(routes!(recovery::reset_password))
        .merge(preferences::router())
}

/// Create an account and sign in.
///
/// Sends a link that confirms the address; until it is opened the account is on Free and
/// has no API keys, webhooks or administrator rights. Opening it starts the 14-day Pro
/// trial (once per address). Sets the session cookie.
#[utoipa::path(
    post, path = "/api/auth/register", tag = "auth",
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "Account created and signed in", body = User),
        (status = 409, description = "Email or username taken; `errors` names the field", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many new accounts from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many registrations at once; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<RegisterRequest>,
) -> Result<impl IntoResponse> {
    let reg = Registration::try_from(body)?;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::REGISTER, &ip.to_string(), now).await?;
    let password_hash = password::hash_async(&state.capacity, reg.password).await?;
    let new_user = NewUser {
        id: uuid::Uuid::new_v4().to_string(),
        email: reg.email,
        username: reg.username,
        password_hash,
        first_name: reg.first_name,
        last_name: reg.last_name,
        subscription_plan: Plan::Free.id().into(),
        subscription_status: SubscriptionStatus::Active.as_str().into(),
        subscription_expires_at: None,
        created_at: now,
    };
    let record = users::insert(&state.db, &new_user).await.map_err(|err| match AppError::from(err) {
        AppError::Conflict(mut field) => {
            field.message = match field.field.as_str() {
                "email" => "An account with this email already exists".into(),
                _ => "This username is already taken".into(),
            };
            AppError::Conflict(field)
        }
        other => other,
    })?;
    tracing::info!(user_id = %record.id, "account registered");
    crate::services::accounts::send_confirmation(&state, &record, now).await?;
    let user = User::from_record(record, &state.config, now)?;
    let cookie = session::start(&state, &headers, &user.id, &ip.to_string(), now).await?;
    Ok((StatusCode::CREATED, limit, AppendHeaders([(header::SET_COOKIE, cookie)]), axum::Json(user)))
}

/// Sign in with email and password.
///
/// Every attempt is counted before the password is checked: 20 per address in 10 minutes,
/// 100 per account in an hour, and per account a back-off (five attempts back to back, then
/// a wait growing by a second per attempt, at most a minute) that a successful sign-in
/// clears. Beyond them the answer is 429 with `Retry-After`. An unknown email and a wrong
/// password get the same answer in the same time. A successful sign-in starts a new session.
#[utoipa::path(
    post, path = "/api/auth/login", tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in", body = User),
        (status = 401, description = "Invalid email or password", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many attempts; see Retry-After", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many sign-ins at once; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    origin: Origin,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<impl IntoResponse> {
    let creds = Credentials::try_from(body)?;
    let now = state.clock.now();
    let ip = ip.to_string();
    // The address's own budget first, so a refused address spends nothing of the account's.
    let by_ip = limits::hit(&state, limits::LOGIN_IP, &ip, now).await?;
    limits::login_backoff(&state, &creds.email, now).await?;
    let by_account = limits::hit(&state, limits::LOGIN_ACCOUNT, &creds.email, now).await?;
    let user = users::find_by_email(&state.db, &creds.email).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let account = user.as_ref().map(|u| u.id.clone());
    let verified = password::verify_async(&state.capacity, creds.password, stored).await?;
    let Some(user) = user.filter(|_| verified) else {
        tracing::warn!(%ip, "failed sign-in");
        audit::record(&state, account.as_deref(), None, AuditAction::SignInFailed, None, &origin, now).await?;
        return Err(AppError::Unauthorized("Invalid email or password".into()));
    };
    limits::forget_login_backoff(&state, &creds.email).await?;
    // A new session id at every sign-in; a session the browser already had is ended.
    session::end(&state, &headers).await?;
    audit::record(&state, Some(&user.id), None, AuditAction::SignIn, None, &origin, now).await?;
    let view = User::from_record(user, &state.config, now)?;
    let cookie = session::start(&state, &headers, &view.id, &ip, now).await?;
    Ok((by_ip, by_account, AppendHeaders([(header::SET_COOKIE, cookie)]), axum::Json(view)))
}

/// Sign out: ends the session and clears the cookie. Succeeds when not signed in, too.
#[utoipa::path(
    post, path = "/api/auth/logout", tag = "auth",
    responses((status = 204, description = "Signed out"))
)]
async fn logout(State(state): State<AppState>, origin: Origin, headers: HeaderMap) -> Result<impl IntoResponse> {
    if let Some(user_id) = session::end(&state, &headers).await? {
        audit::record(&state, Some(&user_id), None, AuditAction::SignOut, None, &origin, state.clock.now()).await?;
    }
    let cookie = session::clearing_cookie(&state, &headers)?;
    Ok((StatusCode::NO_CONTENT, AppendHeaders([(header::SET_COOKIE, cookie)])))
}

/// The signed-in user.
#[utoipa::path(
    get, path = "/api/auth/me", tag = "auth",
    responses(
        (status = 200, description = "The signed-in user", body = User),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn me(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<User>> {
    Ok(axum::Json(User::from_record(user, &state.config, state.clock.now())?))
}
