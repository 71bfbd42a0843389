//! The account's brand on its PDF reports (white-label, Premium; `services::reporting`). The
//! reports themselves are downloaded from the feature they report on: the portfolio
//! (`/api/portfolio/report`), a backtest (`/api/backtest/report`) and the track record
//! (`/api/public/track-record/report`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use base64::Engine as _;
use serde::Serialize;
use strikeline_reports::Brand;
use strikeline_store::report_brands as store;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::services::reporting::{self, ReportBrandInput};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_report_brand, save_report_brand, delete_report_brand)).routes(routes!(
        get_report_logo,
        put_report_logo,
        delete_report_logo
    ))
}

/// `GET /api/reports/brand`: the brand the account's reports carry.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBrandView {
    /// Whether the plan includes reports in the account's own brand (Premium).
    pub available: bool,
    /// Whether the account's own brand is saved and in use; otherwise the house brand below.
    pub custom: bool,
    pub name: String,
    /// `#rrggbb`.
    pub primary_color: String,
    pub accent_color: String,
    pub footer: String,
    /// Whether a logo is saved (`GET /api/reports/brand/logo`).
    pub has_logo: bool,
    /// Whether the portfolio report is emailed at the start of each month.
    pub monthly_email: bool,
}

/// The brand the signed-in account's reports carry: its own when saved and the plan includes
/// white-label reports, else the house brand.
#[utoipa::path(
    get, path = "/api/reports/brand", tag = "reports",
    responses((status = 200, body = ReportBrandView), (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"))
)]
async fn get_report_brand(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<ReportBrandView>> {
    let now = state.clock.now();
    let available = Entitlements::of(&user, now).allows(Capability::WhiteLabelReports);
    let saved = store::get(&state.db, &user.id).await?;
    let view = match saved {
        Some(s) if available => ReportBrandView {
            available,
            custom: true,
            name: s.name,
            primary_color: s.primary_color,
            accent_color: s.accent_color,
            footer: s.footer,
            has_logo: s.logo_png.is_some(),
            monthly_email: s.monthly_email,
        },
        _ => {
            let house = Brand::strikeline();
            ReportBrandView {
                available,
                custom: false,
                name: house.name,
                primary_color: house.primary.to_hex(),
                accent_color: house.accent.to_hex(),
                footer: house.footer,
                has_logo: false,
                monthly_email: false,
            }
        }
    };
    Ok(axum::Json(view))
}

/// Saves the account's own brand (Premium): its reports then carry it and no Strikeline
/// branding. The logo is set apart (`PUT /api/reports/brand/logo`).
#[utoipa::path(
    put, path = "/api/reports/brand", tag = "reports",
    request_body = ReportBrandInput,
    responses(
        (status = 200, description = "Saved", body = ReportBrandView),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The plan does not include white-label reports", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn save_report_brand(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(body): ApiJson<ReportBrandInput>,
) -> Result<axum::Json<ReportBrandView>> {
    reporting::save_brand(&state, &user, &body, state.clock.now()).await?;
    get_report_brand(State(state), CurrentUser(user)).await
}

/// Forgets the account's brand and logo: reports carry the house brand again. Works on every
/// plan.
#[utoipa::path(
    delete, path = "/api/reports/brand", tag = "reports",
    responses(
        (status = 204, description = "Forgotten (or there was none)"),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn delete_report_brand(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<StatusCode> {
    store::delete(&state.db, &user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The account's saved logo, as it was uploaded.
#[utoipa::path(
    get, path = "/api/reports/brand/logo", tag = "reports",
    responses(
        (status = 200, description = "The logo", content_type = "image/png", body = crate::foundation::views::FileBytes),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No logo saved", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn get_report_logo(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<impl IntoResponse> {
    let saved = store::get(&state.db, &user.id).await?.and_then(|b| b.logo_png).ok_or(AppError::NotFound)?;
    let png = base64::engine::general_purpose::STANDARD.decode(saved).map_err(|e| AppError::Internal(e.into()))?;
    Ok(([(header::CONTENT_TYPE, "image/png")], png))
}

/// Sets the logo of the account's saved brand (Premium): the body is the PNG itself
/// (`Content-Type: image/png`), at most 512 KB and 2000 px a side.
#[utoipa::path(
    put, path = "/api/reports/brand/logo", tag = "reports",
    request_body(content = crate::foundation::views::FileBytes, content_type = "image/png", description = "A PNG image"),
    responses(
        (status = 204, description = "Saved"),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The plan does not include white-label reports", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No brand saved yet", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Larger than the request limit", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not image/png", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a PNG that reads, or too large; `errors` names `logo`", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn put_report_logo(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode> {
    let now = state.clock.now();
    // The plan before the body: a caller who may not brand learns nothing else.
    Entitlements::of(&user, now).require(Capability::WhiteLabelReports)?;
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if !essence.eq_ignore_ascii_case("image/png") {
        return Err(AppError::UnsupportedMediaType("Send the logo as image/png.".into()));
    }
    reporting::set_logo(&state, &user, &body, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Removes the logo of the account's brand. Works on every plan.
#[utoipa::path(
    delete, path = "/api/reports/brand/logo", tag = "reports",
    responses(
        (status = 204, description = "Removed (or there was none)"),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn delete_report_logo(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<StatusCode> {
    store::set_logo(&state.db, &user.id, None, state.clock.now()).await?;
    Ok(StatusCode::NO_CONTENT)
}
