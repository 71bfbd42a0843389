//! AI recommendations: `GET /api/ai/recommendations` for the dashboard's assistant (Pro and
//! up) and `GET /api/v1/ai/recommendations` for API keys (Premium). Both answer what
//! `services::advising` computes from the user's own book, signals and news.

use axum::extract::{RawQuery, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::api_access::{ApiCaller, ApiLimits};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{RecommendationKind, Vocabulary};
use crate::services::advising::{Recommendation, recommend};

/// Most recommendations one answer carries.
pub const MAX_LIMIT: usize = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(recommendations)).routes(routes!(v1_recommendations))
}

/// The query of both routes.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RecommendationQuery {
    /// `trade`, `portfolio` or `risk`; all when absent.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    kind: Option<String>,
    /// At most this many (1–50; default 5 on the public API, 20 in the app).
    limit: Option<usize>,
}

fn parse(raw: Option<&str>, default_limit: usize) -> Result<(Option<RecommendationKind>, usize)> {
    let query: RecommendationQuery = crate::foundation::extract::parse_query(raw)?;
    let mut errors = Vec::new();
    let kind = match query.kind.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(k) => match RecommendationKind::exact(k) {
            Ok(kind) => Some(kind),
            Err(_) => {
                errors.push(FieldError::new("type", "One of trade, portfolio or risk"));
                None
            }
        },
        None => None,
    };
    let limit = query.limit.unwrap_or(default_limit);
    if !(1..=MAX_LIMIT).contains(&limit) {
        errors.push(FieldError::new("limit", format!("A whole number from 1 to {MAX_LIMIT}")));
    }
    if errors.is_empty() { Ok((kind, limit)) } else { Err(AppError::Validation(errors)) }
}

fn pick(all: Vec<Recommendation>, kind: Option<RecommendationKind>, limit: usize) -> Vec<Recommendation> {
    all.into_iter().filter(|r| kind.is_none_or(|k| r.kind == k)).take(limit).collect()
}

/// The signed-in user's recommendations: risk first, then the positions held, then trades.
#[utoipa::path(
    get, path = "/api/ai/recommendations", tag = "ai",
    params(RecommendationQuery),
    responses(
        (status = 200, body = Vec<Recommendation>),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "The plan does not include AI recommendations", body = Problem),
        (status = 422, description = "`type` or `limit` is not valid", body = Problem),
    )
)]
async fn recommendations(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<Vec<Recommendation>>> {
    let now = state.clock.now();
    Entitlements::of(&user, now).require(Capability::AiRecommendations)?;
    let (kind, limit) = parse(query.as_deref(), 20)?;
    Ok(axum::Json(pick(recommend(&state, &user, now).await?, kind, limit)))
}

/// Recommendations with how many of each type there are.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicRecommendations {
    pub recommendations: Vec<Recommendation>,
    pub summary: RecommendationSummary,
}

/// How many recommendations of each type there are (before `type` and `limit`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecommendationSummary {
    pub total: usize,
    pub trade: usize,
    pub portfolio: usize,
    pub risk: usize,
}

/// The key owner's recommendations (Premium).
#[utoipa::path(
    get, path = "/api/v1/ai/recommendations", operation_id = "v1_ai_recommendations", tag = "public-api",
    params(RecommendationQuery),
    security(("api_key" = [])),
    responses(
        (status = 200, body = PublicRecommendations),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 403, description = "The plan is not Premium", body = Problem),
        (status = 422, description = "`type` or `limit` is not valid", body = Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = Problem),
    )
)]
async fn v1_recommendations(
    State(state): State<AppState>,
    caller: ApiCaller,
    RawQuery(query): RawQuery,
) -> Result<(ApiLimits, axum::Json<PublicRecommendations>)> {
    let now = state.clock.now();
    let limits = caller.endpoint(&state, limits::API_AI_RECOMMENDATIONS, now).await?;
    caller.entitlements.require(Capability::ApiAiRecommendations)?;
    let (kind, limit) = parse(query.as_deref(), 5)?;
    let all = recommend(&state, &caller.user, now).await?;
    let count = |k: RecommendationKind| all.iter().filter(|r| r.kind == k).count();
    let summary = RecommendationSummary {
        total: all.len(),
        trade: count(RecommendationKind::Trade),
        portfolio: count(RecommendationKind::Portfolio),
        risk: count(RecommendationKind::Risk),
    };
    Ok((limits, axum::Json(PublicRecommendations { recommendations: pick(all, kind, limit), summary })))
}
