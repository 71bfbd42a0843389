//! Automation's endpoints: its status, start and stop (administrators), and a manual update.
//! The scheduler itself is `services::scheduling`.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::audit::{self, Origin};
use crate::foundation::error::Result;
use crate::foundation::limits;
use crate::foundation::session::{AdminUser, CurrentUser};
use crate::foundation::state::AppState;
use crate::foundation::vocab::AuditAction;
use crate::services::scheduling::{self, AutomationStatus, current_status};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(start))
        .routes(routes!(stop))
        .routes(routes!(manual_update))
        .routes(routes!(halt_orders))
}

/// `PUT /api/automation/orders`: the administrator's kill switch.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OrdersHalt {
    /// On: no order is sent for any account, and every standing order is cancelled.
    pub halted: bool,
}

/// Turns the kill switch for every account's orders on or off (administrators only).
/// Idempotent.
#[utoipa::path(
    put, path = "/api/automation/orders", tag = "automation",
    request_body = OrdersHalt,
    responses(
        (status = 200, body = AutomationStatus),
        (status = 403, description = "Not an administrator", body = crate::foundation::error::Problem),
        (status = 422, description = "A field is not valid; `errors` names it", body = crate::foundation::error::Problem),
    )
)]
async fn halt_orders(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    origin: Origin,
    crate::foundation::extract::ApiJson(input): crate::foundation::extract::ApiJson<OrdersHalt>,
) -> Result<axum::Json<AutomationStatus>> {
    let now = state.clock.now();
    let cancelled = crate::services::execution::set_halted(&state, input.halted, now).await?;
    let what = if input.halted { format!("orders halted ({cancelled} standing cancelled)") } else { "orders resumed".to_owned() };
    audit::record(&state, Some(&admin.id), Some(&admin.id), AuditAction::AdminAction, Some(what), &origin, now).await?;
    state.events.publish(crate::foundation::events::Topic::Automation);
    Ok(axum::Json(current_status(&state, now).await?))
}

/// Whether automation runs and when each job runs next. Pages poll this every 30 s.
#[utoipa::path(
    get, path = "/api/automation/status", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn status(State(state): State<AppState>, _user: CurrentUser) -> Result<axum::Json<AutomationStatus>> {
    Ok(axum::Json(current_status(&state, state.clock.now()).await?))
}

/// Starts automation (administrators only). Idempotent.
#[utoipa::path(
    post, path = "/api/automation/start", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 403, description = "Not an administrator", body = crate::foundation::error::Problem))
)]
async fn start(State(state): State<AppState>, AdminUser(admin): AdminUser, origin: Origin) -> Result<axum::Json<AutomationStatus>> {
    let now = state.clock.now();
    audit::record(&state, Some(&admin.id), Some(&admin.id), AuditAction::AdminAction, Some("automation started".into()), &origin, now)
        .await?;
    Ok(axum::Json(scheduling::set_running(&state, true, now).await?))
}

/// Stops automation (administrators only): no job runs until it is started again. Idempotent.
#[utoipa::path(
    post, path = "/api/automation/stop", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 403, description = "Not an administrator", body = crate::foundation::error::Problem))
)]
async fn stop(State(state): State<AppState>, AdminUser(admin): AdminUser, origin: Origin) -> Result<axum::Json<AutomationStatus>> {
    let now = state.clock.now();
    audit::record(&state, Some(&admin.id), Some(&admin.id), AuditAction::AdminAction, Some("automation stopped".into()), &origin, now)
        .await?;
    Ok(axum::Json(scheduling::set_running(&state, false, now).await?))
}

/// Runs a manual update now (quotes, marks, new signals, figures), whether automation is running
/// or not. Any user; 12 per hour each.
#[utoipa::path(
    post, path = "/api/automation/update", tag = "automation",
    responses(
        (status = 200, body = AutomationStatus),
        (status = 429, description = "Too many manual updates; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn manual_update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(limits::RateLimit, axum::Json<AutomationStatus>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::AUTOMATION_UPDATE, &user.id, now).await?;
    scheduling::update_now(&state, now).await?;
    Ok((limit, axum::Json(current_status(&state, now).await?)))
}
