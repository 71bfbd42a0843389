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

/// The process can serve: its database answers.
#[utoipa::path(
    get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, body = Readiness),
        (status = 503, description = "Database unreachable", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn readyz(State(state): State<AppState>) -> Result<axum::Json<Readiness>> {
    state.db.ping().await.map_err(|err| {
        tracing::warn!(error = %err, "readiness check failed");
        AppError::Unavailable("The database is not reachable.".into())
    })?;
    Ok(axum::Json(Readiness { status: "ready", database: state.db.engine().into() }))
}
