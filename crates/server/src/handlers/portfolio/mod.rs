//! Portfolios: manual positions, automated paper positions opened from signals, and the
//! analysis over both.

pub mod manual;

use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use serde::Serialize;
use strikeline_store::positions::{self, AutomatedRow, HeldSignal};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::Result;
use crate::foundation::money::dollars;
use crate::foundation::money::round2;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{PositionStatus, SignalKind, stored};
use crate::services::portfolio_analysis::detail::{self, PositionDetail};
use crate::services::portfolio_analysis::metrics::{self, PortfolioAnalysis};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(manual::create, manual::list))
        .routes(routes!(manual::detail, manual::delete))
        .routes(routes!(list_positions))
        .routes(routes!(position_detail))
        .routes(routes!(portfolio_metrics))
        .routes(routes!(portfolio_report))
        .routes(routes!(optimise_portfolio))
        .routes(routes!(public_portfolio_metrics))
}

/// The portfolio's value, P&L, win rate and confidence, its exposure by symbol, and its daily
/// values over `period`, for API keys (Pro and Premium).
#[utoipa::path(
    get, path = "/api/v1/portfolio/metrics", operation_id = "v1_portfolio_metrics", tag = "public-api",
    params(metrics::MetricsQuery),
    security(("api_key" = [])),
    responses(
        (status = 200, body = metrics::PublicPortfolioMetrics),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 403, description = "The Free plan", body = crate::foundation::error::Problem),
        (status = 422, description = "`period` is not one of 1d, 7d, 30d, 90d, 1y", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn public_portfolio_metrics(
    State(state): State<AppState>,
    caller: crate::foundation::api_access::ApiCaller,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Result<(crate::foundation::api_access::ApiLimits, axum::Json<metrics::PublicPortfolioMetrics>)> {
    let now = state.clock.now();
    let query: metrics::MetricsQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    caller.entitlements.require(crate::foundation::entitlements::Capability::ApiStandardEndpoints)?;
    let limits = caller.endpoint(&state, crate::foundation::limits::API_PORTFOLIO_METRICS, now).await?;
    Ok((limits, axum::Json(metrics::public_metrics(&state, &caller.user, query.period.unwrap_or_default(), now).await?)))
}

/// The signal an automated position holds, in brief.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PositionSignalBrief {
    #[serde(rename = "type")]
    pub signal_type: SignalKind,
    pub symbol: String,
    pub company_name: String,
    pub strike_price: f64,
}

/// A row of the automated positions table.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioPosition {
    pub id: String,
    pub quantity: i64,
    /// Premium paid per share.
    pub entry_price: f64,
    /// Dollars (premium × 100 × quantity), at the exit once closed.
    pub current_value: f64,
    /// After commissions.
    pub unrealized_pnl: f64,
    pub unrealized_pnl_percent: f64,
    pub days_held: i64,
    pub status: PositionStatus,
    pub signal: PositionSignalBrief,
}

/// The list row of an automated position: marked at its signal's price while open, at the
/// exit once closed; P&L after the commissions paid so far.
pub fn position_row(row: &AutomatedRow, signal: &HeldSignal, now: DateTime<Utc>) -> Result<PortfolioPosition> {
    let status: PositionStatus = stored(&row.status, format_args!("automated position {}", row.id))?;
    let signal_type: SignalKind = stored(&signal.signal_type, format_args!("signal {}", signal.id))?;
    let open = status == PositionStatus::Open;
    let price = if open { signal.current_option_cents } else { row.exit_cents.unwrap_or(signal.current_option_cents) };
    let value = price * 100 * row.quantity;
    let cost = row.entry_cents * 100 * row.quantity;
    let pnl = value - cost - row.commissions_cents;
    let until = if open { now } else { row.closed_at.unwrap_or(now) };
    Ok(PortfolioPosition {
        id: row.id.clone(),
        quantity: row.quantity,
        entry_price: dollars(row.entry_cents),
        current_value: dollars(value),
        unrealized_pnl: dollars(pnl),
        unrealized_pnl_percent: if cost > 0 { round2(pnl as f64 * 100.0 / cost as f64) } else { 0.0 },
        days_held: (until - row.opened_at).num_days().max(0),
        status,
        signal: PositionSignalBrief {
            signal_type,
            symbol: signal.symbol.clone(),
            company_name: signal.company_name.clone(),
            strike_price: dollars(signal.strike_cents),
        },
    })
}

/// The user's automated paper positions: open first, then newest.
#[utoipa::path(
    get, path = "/api/portfolio/positions", tag = "portfolio",
    responses((status = 200, body = Vec<PortfolioPosition>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn list_positions(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<PortfolioPosition>>> {
    let now = state.clock.now();
    let held = crate::services::portfolio_valuation::automated_with_signals(&state, &user.account_id).await?;
    Ok(axum::Json(held.iter().map(|(row, signal)| position_row(row, signal, now)).collect::<Result<_>>()?))
}

/// One automated position in depth: Greeks, risk metrics, performance and payoff.
#[utoipa::path(
    get, path = "/api/portfolio/position/{id}", tag = "portfolio",
    params(("id" = String, Path, description = "Position id")),
    responses((status = 200, body = PositionDetail), (status = 404, description = "No such position", body = crate::foundation::error::Problem))
)]
async fn position_detail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<PositionDetail>> {
    let row = positions::find_automated(&state.db, &user.account_id, &id).await?;
    Ok(axum::Json(detail::automated_detail(&state, &user, &row, state.clock.now()).await?))
}

/// The portfolio analysis over manual and automated positions: summary, risk metrics from the
/// daily value snapshots, and the risk assessment with its reasons (docs/risk.md).
#[utoipa::path(
    get, path = "/api/portfolio/metrics", tag = "portfolio",
    responses((status = 200, body = PortfolioAnalysis), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn portfolio_metrics(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<PortfolioAnalysis>> {
    Ok(axum::Json(metrics::analyse(&state, &user, state.clock.now()).await?))
}

/// The portfolio as a PDF in the account's brand: summary, risk metrics, the value over time,
/// open positions with their Greeks, and the risk assessment, with the figures
/// `GET /api/portfolio/metrics` and the positions' details answer at the same moment
/// (docs/reports.md).
#[utoipa::path(
    get, path = "/api/portfolio/report", tag = "reports",
    responses(
        (status = 200, description = "The report", content_type = "application/pdf", body = crate::foundation::views::FileBytes),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many reports; see Retry-After", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
    )
)]
async fn portfolio_report(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<impl axum::response::IntoResponse> {
    use crate::services::reporting;
    let now = state.clock.now();
    let limit = crate::foundation::limits::hit(&state, crate::foundation::limits::REPORT, &user.id, now).await?;
    let pdf = reporting::portfolio::render(&state, &user, now).await?;
    Ok((limit, crate::foundation::views::PdfDownload::new("portfolio-report", now, pdf)))
}

/// The portfolio optimiser (Premium): how many contracts of which signals you can see now
/// would maximise expected P&L while the book stays within the risk model's comfortable levels
/// (premium at risk, position size, per-symbol and per-strategy budgets, net delta and vega).
/// Each signal's chance is a checked probability (the predictive model's, else its strategy's
/// live win rate); a proposal only, nothing is bought (docs/optimisation.md).
#[utoipa::path(
    post, path = "/api/portfolio/optimise", tag = "portfolio",
    responses(
        (status = 200, body = crate::services::optimising::Optimisation),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "The plan does not include the optimiser", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many optimisations; see Retry-After", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
    )
)]
async fn optimise_portfolio(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(crate::foundation::limits::RateLimit, axum::Json<crate::services::optimising::Optimisation>)> {
    let now = state.clock.now();
    crate::foundation::entitlements::Entitlements::of(&user, now)
        .require(crate::foundation::entitlements::Capability::PortfolioOptimisation)?;
    let limit = crate::foundation::limits::hit(&state, crate::foundation::limits::OPTIMISE, &user.id, now).await?;
    Ok((limit, axum::Json(crate::services::optimising::propose(&state, &user, now).await?)))
}
