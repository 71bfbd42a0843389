//! Liveness and readiness.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::state::AppState;
use crate::foundation::vocab::DatabaseEngine;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(healthz)).routes(routes!(readyz))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    #[schema(example = "ready")]
    pub status: &'static str,
    pub database: DatabaseEngine,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, body = Health)))]
async fn healthz() -> axum::Json<Health> {
    axum::Json(Health { status: "ok" })
}

/// How long `/readyz` waits for the database.
pub const READY_WITHIN: std::time::Duration = std::time::Duration::from_millis(80);

/// The process can serve: its database answers (the answer comes within 100 ms) and it is
/// not draining before a shutdown.
#[utoipa::path(
    get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, body = Readiness),
        (status = 503, description = "Database unreachable, or shutting down", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn readyz(State(state): State<AppState>) -> Result<axum::Json<Readiness>> {
    if state.capacity.draining.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(AppError::Unavailable("The server is shutting down.".into()));
    }
    // A load balancer asks often and must hear quickly: a database that does not answer a
    // trivial query within the bound counts as unreachable (never the pool's 5 s wait).
    let unreachable = |why: String| {
        tracing::warn!(error = %why, "readiness check failed");
        AppError::Unavailable("The database is not reachable.".into())
    };
    let failure = match tokio::time::timeout(READY_WITHIN, state.db.ping()).await {
        Ok(Ok(())) => None,
        Ok(Err(err)) => Some(err.to_string()),
        Err(_) => Some(format!("no answer within {} ms", READY_WITHIN.as_millis())),
    };
    if let Some(why) = failure {
        // The API refuses at once until the database answers the breaker's probe again.
        state.capacity.database.trip(&state.db);
        return Err(unreachable(why));
    }
    Ok(axum::Json(Readiness { status: "ready", database: state.db.engine().into() }))
}
