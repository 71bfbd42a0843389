//! Signals: the list every user reads (with the plan's daily quota applied), on-demand
//! generation, the detail analysis, the dashboard figures and the manual refresh.

pub mod analysis;
pub mod dto;
pub mod filter;
mod stats;
mod v1;
pub mod window;

use axum::extract::{RawQuery, State};
use strikeline_store::signals as store;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Result};
use crate::foundation::input::{Symbol, SymbolError};
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::services::signal_issuing::GenerationChoice;
use strikeline_store::users::UserRecord;

pub use dto::Signal;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_signals))
        .routes(routes!(generate))
        .routes(routes!(refresh))
        .routes(routes!(analysis::analysis))
        .merge(stats::router())
        .merge(v1::router())
}

/// A page of signals, newest first.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignalPage {
    pub signals: Vec<Signal>,
    /// Pass as `cursor` for the next (older) page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// Signals, newest first, a page at a time, with the filters of the dashboard and the signals
/// page. Automated signals are shared by everyone; each day the plan shows its quota of them
/// (highest confidence first: Free 5, Pro 50, Premium all) and returns the rest `locked`.
/// Signals the user generated on demand are always shown and count toward the quota. A page
/// costs the same however old it is.
#[utoipa::path(
    get, path = "/api/signals", tag = "signals",
    params(filter::SignalQuery),
    responses(
        (status = 200, body = SignalPage),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "A filter or the cursor is not valid; `errors` names it", body = crate::foundation::error::Problem),
    )
)]
async fn list_signals(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    RawQuery(query): RawQuery,
) -> Result<axum::response::Response> {
    use axum::response::IntoResponse;
    let filter = filter::parse(query.as_deref())?;
    let body = window::page_json(&state, &user, &filter, state.clock.now()).await?;
    Ok(([(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// `POST /api/signals/generate-for-symbol`.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Ticker; trimmed and upper-cased. Added to the watchlist when not tracked yet.
    #[schema(example = "AAPL")]
    pub symbol: String,
}

/// Generates a signal for one symbol now: the strongest setup the four strategies see, with an
/// honest confidence (a weak setup says so). Pro and Premium; counts toward the daily quota.
#[utoipa::path(
    post, path = "/api/signals/generate-for-symbol", tag = "signals",
    request_body = GenerateRequest,
    responses(
        (status = 201, body = Signal),
        (status = 403, description = "The plan does not include generation (Free)", body = crate::foundation::error::Problem),
        (status = 422, description = "`symbol` is blank, not a ticker, or unknown", body = crate::foundation::error::Problem),
        (status = 429, description = "Today's signal quota is used up, or too many generations this minute; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn generate(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    crate::foundation::extract::ApiJson(request): crate::foundation::extract::ApiJson<GenerateRequest>,
) -> Result<(axum::http::StatusCode, limits::RateLimit, axum::Json<Signal>)> {
    let now = state.clock.now();
    // A plan without generation hears so whatever it sent, before the symbol is judged.
    let entitlements = Entitlements::of(&user, now);
    entitlements.require(Capability::GenerateSignals)?;
    let symbol = requested_symbol(&request.symbol)?;
    let limit = limits::hit(&state, limits::GENERATE, &user.id, now).await?;
    let row = issue_on_demand(&state, &user, &symbol, entitlements, &GenerationChoice::default(), now).await?;
    Ok((axum::http::StatusCode::CREATED, limit, axum::Json(Signal::from_row(row, false)?)))
}

/// The symbol a generation asks for, or 422 naming `symbol`.
fn requested_symbol(raw: &str) -> Result<Symbol> {
    match Symbol::parse(raw) {
        Ok(symbol) => Ok(symbol),
        Err(SymbolError::Blank) => Err(AppError::field("symbol", "Please enter a stock symbol to generate a signal")),
        Err(error) => Err(AppError::Validation(vec![error.on("symbol")])),
    }
}

/// Generates and stores a signal for `user` (whose plan allows generating) within their
/// daily quota: the app's and the public API's generation alike. A symbol not tracked yet is
/// added to the watchlist.
async fn issue_on_demand(
    state: &AppState,
    user: &UserRecord,
    symbol: &Symbol,
    entitlements: Entitlements,
    choice: &GenerationChoice,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<store::SignalRow> {
    let today = state.market.issue_day(now);
    let quota = entitlements.signals_per_day;
    let quota_used_up = || AppError::TooManyRequests {
        detail: format!("You have generated today's {} signals. The quota renews on the next trading day.", quota.unwrap_or_default()),
        retry_after_secs: 3600,
        limit: None,
    };
    if let Some(q) = quota {
        // A cheap early answer; the store checks again atomically when it inserts.
        let used: i64 =
            store::on_demand_counts(&state.db, &user.id, today).await?.into_iter().filter(|(d, _)| *d == today).map(|(_, n)| n).sum();
        if used >= i64::from(q) {
            return Err(quota_used_up());
        }
    }
    let stock = tracked_stock(state, symbol, &user.id, now).await?;
    let row = crate::services::signal_issuing::generate_for_symbol(state, &stock, &user.id, quota, choice, now)
        .await?
        .ok_or_else(quota_used_up)?;
    state.events.publish(crate::foundation::events::Topic::Signals);
    Ok(row)
}

/// The watchlist entry of `symbol`, added (with the provider's company facts) when missing.
async fn tracked_stock(
    state: &AppState,
    symbol: &Symbol,
    user_id: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<strikeline_store::market::StockRow> {
    use crate::services::market_refresh::{AddError, add_stock};
    match strikeline_store::market::find_stock(&state.db, symbol.as_str()).await? {
        Some(stock) => Ok(stock),
        None => match add_stock(state, symbol, None, None, Some(user_id), now).await {
            Ok(stock) => Ok(stock),
            Err(AddError::Invalid(why)) => Err(AppError::field("symbol", &why)),
            Err(AddError::Failed(err)) => Err(err),
        },
    }
}

/// Marks active signals to market now (quotes refreshed first). Ten per minute per user; the
/// scheduler does this for everyone on its own.
#[utoipa::path(
    post, path = "/api/refresh", tag = "signals",
    responses(
        (status = 202, body = RefreshReceipt),
        (status = 429, description = "Too many refreshes; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn refresh(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(axum::http::StatusCode, limits::RateLimit, axum::Json<RefreshReceipt>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::REFRESH, &user.id, now).await?;
    let quotes = crate::services::market_refresh::refresh_prices(&state, now).await?;
    crate::services::signal_issuing::mark_signals(&state, &quotes, now).await?;
    state.events.publish(crate::foundation::events::Topic::Prices);
    state.events.publish(crate::foundation::events::Topic::Signals);
    Ok((axum::http::StatusCode::ACCEPTED, limit, axum::Json(RefreshReceipt { refreshed_at: now })))
}

/// When the refresh ran.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefreshReceipt {
    pub refreshed_at: chrono::DateTime<chrono::Utc>,
}
