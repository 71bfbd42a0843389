//! `GET /api/stats` and `POST /api/update-stats`.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::Result;
use crate::foundation::events::Topic;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::services::figures::{DashboardStats, compute_stats, take_snapshot};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_stats)).routes(routes!(update_stats)).routes(routes!(public_stats))
}

/// The dashboard's stat cards. Change figures compare with stored daily snapshots and are
/// `null` where there is no earlier snapshot.
#[utoipa::path(
    get, path = "/api/stats", tag = "signals",
    responses((status = 200, body = DashboardStats), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn get_stats(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<DashboardStats>> {
    Ok(axum::Json(compute_stats(&state, &user, state.clock.now()).await?))
}

/// Recomputes the figures now and records today's snapshot.
#[utoipa::path(
    post, path = "/api/update-stats", tag = "signals",
    responses(
        (status = 200, body = DashboardStats),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many recomputations; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn update_stats(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(crate::foundation::limits::RateLimit, axum::Json<DashboardStats>)> {
    let now = state.clock.now();
    let limit = crate::foundation::limits::hit(&state, crate::foundation::limits::STATS_UPDATE, &user.id, now).await?;
    take_snapshot(&state, now).await?;
    state.events.publish(Topic::Stats);
    Ok((limit, axum::Json(compute_stats(&state, &user, now).await?)))
}

/// The dashboard's figures, for API keys.
#[utoipa::path(
    get, path = "/api/v1/stats", operation_id = "v1_stats", tag = "public-api",
    security(("api_key" = [])),
    responses(
        (status = 200, body = DashboardStats),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn public_stats(
    State(state): State<AppState>,
    caller: crate::foundation::api_access::ApiCaller,
) -> Result<(crate::foundation::api_access::ApiLimits, axum::Json<DashboardStats>)> {
    let now = state.clock.now();
    let limits = caller.endpoint(&state, crate::foundation::limits::API_STATS, now).await?;
    Ok((limits, axum::Json(compute_stats(&state, &caller.user, now).await?)))
}
