//! Custom strategies (Premium; docs/strategies.md §11): a user's own rules, saved by name,
//! judged on today's bars, and backtested by `POST /api/backtest` with the document. Saving and
//! judging are Premium; every plan can still read and delete what it saved.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use strikeline_store::custom_strategies as store;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits::RateLimit;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::services::custom_rules::{
    self as rules, ActiveInput, CustomStrategyInput, CustomStrategyView, Preview, PreviewRequest, RuleLanguage,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(detail, update, delete))
        .routes(routes!(set_active))
        .routes(routes!(preview))
        .routes(routes!(language))
}

/// The rule language: every indicator a rule can read with its kind (only like compares with
/// like), and the limits on a rule's size. The same for everyone.
#[utoipa::path(
    get, path = "/api/strategies/custom/language", operation_id = "custom_rule_language", tag = "custom-strategies",
    responses((status = 200, body = RuleLanguage))
)]
async fn language() -> axum::Json<RuleLanguage> {
    axum::Json(rules::language())
}

/// The user's custom strategies, by name.
#[utoipa::path(
    get, path = "/api/strategies/custom", operation_id = "list_custom_strategies", tag = "custom-strategies",
    responses((status = 200, body = Vec<CustomStrategyView>), (status = 401, description = "Not signed in", body = Problem))
)]
async fn list(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<CustomStrategyView>>> {
    let rows = store::for_user(&state.db, &user.id).await?;
    Ok(axum::Json(rows.into_iter().map(rules::view).collect::<Result<_>>()?))
}

/// Saves a custom strategy (Premium).
#[utoipa::path(
    post, path = "/api/strategies/custom", operation_id = "create_custom_strategy", tag = "custom-strategies",
    request_body = CustomStrategyInput,
    responses(
        (status = 201, body = CustomStrategyView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 409, description = "The name is taken, or 20 strategies are kept already", body = Problem),
        (status = 422, description = "A field is not valid; `document.…` names the part of the rule", body = Problem),
    )
)]
async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(input): ApiJson<CustomStrategyInput>,
) -> Result<(StatusCode, axum::Json<CustomStrategyView>)> {
    let now = state.clock.now();
    Ok((StatusCode::CREATED, axum::Json(rules::create(&state, &user, &input, now).await?)))
}

/// One of the user's custom strategies.
#[utoipa::path(
    get, path = "/api/strategies/custom/{id}", operation_id = "get_custom_strategy", tag = "custom-strategies",
    params(("id" = String, Path, description = "The strategy's id")),
    responses(
        (status = 200, body = CustomStrategyView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such strategy of yours", body = Problem),
    )
)]
async fn detail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<CustomStrategyView>> {
    Ok(axum::Json(rules::view(store::find(&state.db, &user.id, &id).await?)?))
}

/// Replaces a custom strategy's name and rule (Premium).
#[utoipa::path(
    put, path = "/api/strategies/custom/{id}", operation_id = "update_custom_strategy", tag = "custom-strategies",
    params(("id" = String, Path, description = "The strategy's id")),
    request_body = CustomStrategyInput,
    responses(
        (status = 200, body = CustomStrategyView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 404, description = "No such strategy of yours", body = Problem),
        (status = 409, description = "The name is taken by another of your strategies", body = Problem),
        (status = 422, description = "A field is not valid; `document.…` names the part of the rule", body = Problem),
    )
)]
async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<CustomStrategyInput>,
) -> Result<axum::Json<CustomStrategyView>> {
    let now = state.clock.now();
    Ok(axum::Json(rules::update(&state, &user, &id, &input, now).await?))
}

/// Switches a custom strategy on (Premium) or off (every plan). While it is on, the scheduler
/// judges it on every tracked symbol as the market moves and issues its signals to the owner
/// alone (strategy `Custom`, one active signal per symbol), tracked to their target, stop or
/// expiry like the house rules' signals.
#[utoipa::path(
    put, path = "/api/strategies/custom/{id}/active", operation_id = "set_custom_strategy_active", tag = "custom-strategies",
    params(("id" = String, Path, description = "The strategy's id")),
    request_body = ActiveInput,
    responses(
        (status = 200, body = CustomStrategyView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Switching on outside the Premium plan", body = Problem),
        (status = 404, description = "No such strategy of yours", body = Problem),
        (status = 422, description = "`active` is missing or not a boolean", body = Problem),
    )
)]
async fn set_active(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<ActiveInput>,
) -> Result<axum::Json<CustomStrategyView>> {
    let now = state.clock.now();
    Ok(axum::Json(rules::set_active(&state, &user, &input, &id, now).await?))
}

/// Deletes a custom strategy (every plan).
#[utoipa::path(
    delete, path = "/api/strategies/custom/{id}", operation_id = "delete_custom_strategy", tag = "custom-strategies",
    params(("id" = String, Path, description = "The strategy's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such strategy of yours", body = Problem),
    )
)]
async fn delete(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    store::delete(&state.db, &user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What a rule says now on each tracked symbol (Premium): whether it fires, its confidence,
/// each condition with the values it read, and what it would open.
#[utoipa::path(
    post, path = "/api/strategies/custom/preview", operation_id = "preview_custom_strategy", tag = "custom-strategies",
    request_body = PreviewRequest,
    responses(
        (status = 200, body = Preview),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 422, description = "A field is not valid; `document.…` names the part of the rule", body = Problem),
        (status = 429, description = "Too many previews; see Retry-After", body = Problem),
    )
)]
async fn preview(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<PreviewRequest>,
) -> Result<(RateLimit, axum::Json<Preview>)> {
    let (limit, preview) = rules::preview(&state, &user, &request, state.clock.now()).await?;
    Ok((limit, axum::Json(preview)))
}
