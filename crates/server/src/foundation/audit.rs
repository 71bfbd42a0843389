//! The audit log: security-relevant events (sign-ins, failed sign-ins, password changes,
//! revoked sessions, API keys, plan changes, admin actions), stored with time, account,
//! address and user agent. A user reads their own under Settings › Security.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header;
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use serde::Serialize;
use strikeline_store::audit::{self, AuditEvent};
use utoipa::ToSchema;

use crate::foundation::error::{AppError, Result};
use crate::foundation::extract::ClientIp;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AuditAction, stored};

/// Where a request came from: its client address and user agent (at most 256 characters).
#[derive(Clone, Debug, Default)]
pub struct Origin {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

impl<S> FromRequestParts<S> for Origin
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
        let user_agent = parts.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(|s| s.chars().take(256).collect());
        Ok(Origin { ip: Some(ip.to_string()), user_agent })
    }
}

/// Records `action` on `user_id`'s account (by `actor_id` when an administrator acted).
pub async fn record(
    state: &AppState,
    user_id: Option<&str>,
    actor_id: Option<&str>,
    action: AuditAction,
    detail: Option<String>,
    origin: &Origin,
    at: DateTime<Utc>,
) -> Result<()> {
    audit::record(&state.db, &event(user_id, actor_id, action, detail, origin, at)).await?;
    Ok(())
}

/// The entry [`record`] stores, for a write that stores it in its own transaction (an order's
/// change of state). The system's own acts (the automation, a deadline) have the default
/// [`Origin`]: no address, no browser.
pub fn event(
    user_id: Option<&str>,
    actor_id: Option<&str>,
    action: AuditAction,
    detail: Option<String>,
    origin: &Origin,
    at: DateTime<Utc>,
) -> AuditEvent {
    AuditEvent {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.map(str::to_owned),
        actor_id: actor_id.map(str::to_owned),
        action: action.as_str().to_owned(),
        detail: detail.map(|d| d.chars().take(500).collect()),
        ip: origin.ip.clone(),
        user_agent: origin.user_agent.clone(),
        at,
    }
}

/// One entry of a user's audit log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    #[schema(format = "uuid")]
    pub id: String,
    pub action: AuditAction,
    /// What was acted on, e.g. the API key's name.
    pub detail: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    /// Whether an administrator did it rather than the account's owner.
    pub by_administrator: bool,
    pub at: DateTime<Utc>,
}

impl TryFrom<AuditEvent> for AuditEntry {
    type Error = AppError;

    fn try_from(e: AuditEvent) -> Result<Self> {
        let action: AuditAction = stored(&e.action, format_args!("audit event {}", e.id))?;
        let by_administrator = e.actor_id.as_deref().is_some_and(|actor| Some(actor) != e.user_id.as_deref());
        Ok(AuditEntry { id: e.id, action, detail: e.detail, ip: e.ip, user_agent: e.user_agent, by_administrator, at: e.at })
    }
}
