//! The shared watchlist: its quotes, manual price updates, adding stocks in bulk, and a
//! symbol's daily history for charts.

use axum::extract::{Path, RawQuery, State};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_market::Sector;
use strikeline_store::market::{self, StockRow};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::events::Topic;
use crate::foundation::extract::ApiJson;
use crate::foundation::input::Symbol;
use crate::foundation::limits;
use crate::foundation::money::dollars;
use crate::foundation::money::percent_change;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::views::HistoryBar;
use crate::foundation::vocab::{SectorName, stored};
use crate::services::market_refresh::{self, AddError};

/// Entries one bulk add may carry.
pub const MAX_BULK_ENTRIES: usize = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_stocks))
        .routes(routes!(update_prices))
        .routes(routes!(bulk_add))
        .routes(routes!(history))
        .routes(routes!(exchange_rates))
        .routes(routes!(public_stocks))
        .routes(routes!(list_alerts, create_alert))
        .routes(routes!(delete_alert))
}

/// Active alerts one user may hold.
pub const MAX_ALERTS_PER_USER: u32 = 50;

/// A price alert.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceAlert {
    #[schema(format = "uuid")]
    pub id: String,
    pub symbol: String,
    pub direction: crate::foundation::vocab::AlertDirection,
    /// Dollars.
    pub target_price: f64,
    pub status: crate::foundation::vocab::AlertStatus,
    pub created_at: DateTime<Utc>,
    pub triggered_at: Option<DateTime<Utc>>,
    /// The price that triggered it, dollars.
    pub triggered_price: Option<f64>,
}

impl PriceAlert {
    fn of(a: strikeline_store::price_alerts::PriceAlert) -> Result<PriceAlert> {
        let what = format!("price alert {}", a.id);
        Ok(PriceAlert {
            direction: stored(&a.direction, &what)?,
            status: stored(&a.status, &what)?,
            id: a.id,
            symbol: a.symbol,
            target_price: dollars(a.target_cents),
            created_at: a.created_at,
            triggered_at: a.triggered_at,
            triggered_price: a.triggered_price_cents.map(dollars),
        })
    }
}

/// `POST /api/price-alerts`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPriceAlert {
    /// A symbol on the watchlist (a letter, then up to nine letters, digits, `.` or `-`).
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    pub direction: crate::foundation::vocab::AlertDirection,
    /// Dollars, 0.01–1,000,000, whole cents.
    #[schema(example = 200.0, minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub target_price: f64,
}

/// The signed-in user's price alerts, newest first.
#[utoipa::path(
    get, path = "/api/price-alerts", tag = "market",
    responses((status = 200, body = Vec<PriceAlert>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn list_alerts(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<PriceAlert>>> {
    let alerts = strikeline_store::price_alerts::list(&state.db, &user.id).await?;
    Ok(axum::Json(alerts.into_iter().map(PriceAlert::of).collect::<Result<_>>()?))
}

/// Sets an alert on a watchlist symbol: triggered once, by the first price refresh that finds
/// the price at or beyond the target. At most 50 active alerts per user.
#[utoipa::path(
    post, path = "/api/price-alerts", tag = "market",
    request_body = NewPriceAlert,
    responses(
        (status = 201, body = PriceAlert),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 409, description = "50 active alerts already", body = crate::foundation::error::Problem),
        (status = 422, description = "`symbol` is not on the watchlist, or `targetPrice` is not a price", body = crate::foundation::error::Problem),
    )
)]
async fn create_alert(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<NewPriceAlert>,
) -> Result<(axum::http::StatusCode, axum::Json<PriceAlert>)> {
    let now = state.clock.now();
    let mut errors = Vec::new();
    let target_cents =
        crate::foundation::money::entered_cents("targetPrice", request.target_price, crate::foundation::money::MAX_PRICE, &mut errors);
    let symbol = match Symbol::parse(&request.symbol) {
        Ok(symbol) => Some(symbol),
        Err(error) => {
            errors.push(error.on("symbol"));
            None
        }
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let symbol = symbol.ok_or_else(|| AppError::field("symbol", "Enter a symbol"))?;
    if market::find_stock(&state.db, symbol.as_str()).await?.is_none() {
        return Err(AppError::field("symbol", "Add the symbol to the watchlist first"));
    }
    let alert = strikeline_store::price_alerts::PriceAlert {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        symbol: symbol.into_string(),
        direction: request.direction.as_str().to_owned(),
        target_cents,
        status: crate::foundation::vocab::AlertStatus::Active.as_str().to_owned(),
        created_at: now,
        triggered_at: None,
        triggered_price_cents: None,
    };
    if !strikeline_store::price_alerts::insert_within(&state.db, &alert, MAX_ALERTS_PER_USER).await? {
        return Err(AppError::Conflict(FieldError::new("symbol", "You have 50 active price alerts. Delete one to set another.")));
    }
    Ok((axum::http::StatusCode::CREATED, axum::Json(PriceAlert::of(alert)?)))
}

/// Deletes one of the user's price alerts.
#[utoipa::path(
    delete, path = "/api/price-alerts/{id}", tag = "market",
    params(("id" = String, Path, description = "The alert's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "No such alert of yours", body = crate::foundation::error::Problem),
    )
)]
async fn delete_alert(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode> {
    if strikeline_store::price_alerts::delete(&state.db, &user.id, &id).await? {
        Ok(axum::http::StatusCode::NO_CONTENT)
    } else {
        Err(AppError::NotFound)
    }
}

/// The watchlist's quotes, for API keys.
#[utoipa::path(
    get, path = "/api/v1/stock-prices", operation_id = "v1_stock_prices", tag = "public-api",
    security(("api_key" = [])),
    responses(
        (status = 200, body = Vec<StockPrice>),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = crate::foundation::error::Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn public_stocks(
    State(state): State<AppState>,
    caller: crate::foundation::api_access::ApiCaller,
) -> Result<(crate::foundation::api_access::ApiLimits, axum::Json<Vec<StockPrice>>)> {
    let limits = caller.endpoint(&state, limits::API_STOCK_PRICES, state.clock.now()).await?;
    Ok((limits, axum::Json(all_stocks(&state).await?)))
}

/// One currency's rate.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRate {
    pub currency: crate::foundation::vocab::DisplayCurrency,
    /// Units of the currency one US dollar buys (USD itself is 1).
    #[schema(example = 0.92)]
    pub per_usd: f64,
}

/// `GET /api/exchange-rates`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRates {
    /// Every rate is per one of these (always `USD`).
    pub base: crate::foundation::vocab::DisplayCurrency,
    pub rates: Vec<ExchangeRate>,
    pub as_of: DateTime<Utc>,
    /// The market-data provider that gave them (`simulated`, `polygon`, ...).
    pub provider: String,
}

/// The rates money is shown at in EUR or GBP, from the market-data provider (kept 15 minutes).
/// Amounts are stored and billed in US dollars; only their display is converted.
#[utoipa::path(
    get, path = "/api/exchange-rates", tag = "market",
    responses(
        (status = 200, body = ExchangeRates),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 503, description = "The provider cannot answer now", body = crate::foundation::error::Problem),
    )
)]
async fn exchange_rates(State(state): State<AppState>, _user: CurrentUser) -> Result<axum::Json<ExchangeRates>> {
    let fx = crate::foundation::cache::exchange_rates(&state).await?;
    Ok(axum::Json(ExchangeRates {
        base: fx.base.into(),
        rates: fx.rates.iter().map(|(c, r)| ExchangeRate { currency: (*c).into(), per_usd: *r }).collect(),
        as_of: fx.as_of,
        provider: fx.provider.to_owned(),
    }))
}

/// A tracked stock with its latest quote.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StockPrice {
    #[schema(format = "uuid")]
    pub id: String,
    #[schema(example = "AAPL")]
    pub symbol: String,
    pub company_name: String,
    pub sector: SectorName,
    pub current_price: f64,
    pub price_change: f64,
    pub price_change_percent: f64,
    pub volume: i64,
    pub previous_close: f64,
    pub high_52_week: f64,
    pub low_52_week: f64,
    /// Dollars.
    pub market_cap: Option<f64>,
    pub last_updated: DateTime<Utc>,
    /// The last session's 30-day at-the-money implied volatility, as a fraction (0.25 is 25%);
    /// `null` when it has no reading (docs/options.md).
    pub implied_volatility: Option<f64>,
    /// IV rank over the last year, 0–100; `null` while fewer than 200 sessions are recorded
    /// (`GET /api/stock-prices/{symbol}/implied-volatility` says why).
    pub iv_rank: Option<f64>,
    /// IV percentile over the last year, 0–100; `null` as `ivRank`.
    pub iv_percentile: Option<f64>,
}

impl TryFrom<StockRow> for StockPrice {
    type Error = AppError;

    /// A stored sector outside the vocabulary is an internal error naming the stock.
    fn try_from(row: StockRow) -> Result<Self> {
        let (price_change, price_change_percent) = percent_change(row.current_price_cents, row.previous_close_cents);
        let sector: SectorName = stored(&row.sector, format_args!("stock {}", row.symbol))?;
        Ok(StockPrice {
            id: row.id,
            symbol: row.symbol,
            company_name: row.company_name,
            sector,
            current_price: dollars(row.current_price_cents),
            price_change,
            price_change_percent,
            volume: row.volume,
            previous_close: dollars(row.previous_close_cents),
            high_52_week: dollars(row.high_52_week_cents),
            low_52_week: dollars(row.low_52_week_cents),
            market_cap: row.market_cap,
            last_updated: row.last_updated,
            implied_volatility: None,
            iv_rank: None,
            iv_percentile: None,
        })
    }
}

/// The watchlist's quotes, through the shared read cache.
async fn all_stocks(state: &AppState) -> Result<Vec<StockPrice>> {
    let lookbacks = crate::services::implied_volatility::cached_lookbacks(state, state.clock.now()).await?;
    let mut stocks: Vec<StockPrice> =
        crate::foundation::cache::stocks(state).await?.iter().cloned().map(StockPrice::try_from).collect::<Result<_>>()?;
    for stock in &mut stocks {
        let Some(lookback) = lookbacks.get(&stock.symbol) else { continue };
        stock.implied_volatility = lookback.readings.last().filter(|r| r.date == lookback.to).map(|r| r.iv);
        if let Ok(standing) = &lookback.standing {
            stock.iv_rank = Some(crate::foundation::money::round1(100.0 * standing.rank));
            stock.iv_percentile = Some(crate::foundation::money::round1(100.0 * standing.percentile));
        }
    }
    Ok(stocks)
}

/// The watchlist every user shares, ordered by symbol.
#[utoipa::path(
    get, path = "/api/stock-prices", tag = "market",
    responses((status = 200, body = Vec<StockPrice>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
async fn list_stocks(State(state): State<AppState>, _user: CurrentUser) -> Result<axum::Json<Vec<StockPrice>>> {
    Ok(axum::Json(all_stocks(&state).await?))
}

/// Quotes every tracked stock now. Six per minute per user.
#[utoipa::path(
    post, path = "/api/update-stock-prices", tag = "market",
    responses(
        (status = 200, body = Vec<StockPrice>),
        (status = 429, description = "Too many updates; see Retry-After", body = crate::foundation::error::Problem),
        (status = 503, description = "The market-data provider cannot answer now", body = crate::foundation::error::Problem),
    )
)]
async fn update_prices(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<(limits::RateLimit, axum::Json<Vec<StockPrice>>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::PRICE_UPDATE, &user.id, now).await?;
    market_refresh::refresh_prices(&state, now).await?;
    state.events.publish(Topic::Prices);
    Ok((limit, axum::Json(all_stocks(&state).await?)))
}

/// One stock to add.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WatchlistEntry {
    /// Ticker; upper-cased.
    #[schema(example = "PLTR")]
    pub symbol: String,
    /// Defaults to the provider's name for the company.
    #[serde(default)]
    pub company_name: Option<String>,
    /// One of Technology, Healthcare, Financial, Consumer, Energy, Industrial, Utilities,
    /// Real Estate, Materials, Communications; defaults to the provider's.
    #[serde(default)]
    pub sector: Option<String>,
}

/// `POST /api/stock-prices/bulk-add`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkAddRequest {
    /// 1–50 entries.
    pub symbols: Vec<WatchlistEntry>,
}

/// How one entry went.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkAddResult {
    /// As sent (upper-cased and trimmed).
    pub symbol: String,
    pub ok: bool,
    /// Why it failed.
    pub reason: Option<String>,
    pub stock: Option<StockPrice>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BulkAddSummary {
    pub successful: usize,
    pub failed: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BulkAddResponse {
    pub results: Vec<BulkAddResult>,
    pub summary: BulkAddSummary,
}

fn parse_sector(raw: Option<&str>) -> std::result::Result<Option<Sector>, String> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(text) => text.parse::<SectorName>().map(|s| Some(s.into())).map_err(|_| format!("Unknown sector {text:?}")),
    }
}

/// Adds stocks to the shared watchlist with their history, so the strategies scan them from
/// the next refresh. Each entry succeeds or fails on its own, with a reason.
#[utoipa::path(
    post, path = "/api/stock-prices/bulk-add", tag = "market",
    request_body = BulkAddRequest,
    responses(
        (status = 200, body = BulkAddResponse),
        (status = 422, description = "No entries, or more than 50", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many watchlist writes; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn bulk_add(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<BulkAddRequest>,
) -> Result<(limits::RateLimit, axum::Json<BulkAddResponse>)> {
    if request.symbols.is_empty() || request.symbols.iter().all(|e| e.symbol.trim().is_empty()) {
        return Err(AppError::field("symbols", "Add at least one stock with a valid symbol"));
    }
    if request.symbols.len() > MAX_BULK_ENTRIES {
        return Err(AppError::field("symbols", &format!("At most {MAX_BULK_ENTRIES} stocks at a time")));
    }
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::WATCHLIST_WRITE, &user.id, now).await?;
    let mut results = Vec::with_capacity(request.symbols.len());
    for entry in &request.symbols {
        let shown = entry.symbol.trim().to_ascii_uppercase();
        if shown.is_empty() {
            continue;
        }
        let cleaned = entry.company_name.as_deref().map(crate::foundation::input::clean_text);
        let name = cleaned.as_deref().filter(|n| !n.is_empty());
        let outcome = match (Symbol::parse(&shown), parse_sector(entry.sector.as_deref())) {
            (Err(_), _) => Err("Not a valid ticker symbol".to_owned()),
            (_, Err(why)) => Err(why),
            (Ok(_), _) if name.is_some_and(|n| n.chars().count() > 100) => Err("Company name is longer than 100 characters".to_owned()),
            (Ok(symbol), Ok(sector)) => match market_refresh::add_stock(&state, &symbol, name, sector, Some(&user.id), now).await {
                Ok(row) => Ok(row),
                Err(AddError::Invalid(why)) => Err(why),
                Err(AddError::Failed(err)) => {
                    tracing::warn!(symbol = %symbol, error = %err, "adding a stock failed");
                    Err("Could not be added now; try again later".to_owned())
                }
            },
        };
        results.push(match outcome {
            Ok(row) => BulkAddResult { symbol: shown, ok: true, reason: None, stock: Some(row.try_into()?) },
            Err(reason) => BulkAddResult { symbol: shown, ok: false, reason: Some(reason), stock: None },
        });
    }
    let successful = results.iter().filter(|r| r.ok).count();
    if successful > 0 {
        state.events.publish(Topic::Prices);
    }
    let summary = BulkAddSummary { successful, failed: results.len() - successful };
    Ok((limit, axum::Json(BulkAddResponse { results, summary })))
}

/// A tracked stock's daily bars, oldest first: the last `days` sessions (1–2520, default 90).
#[utoipa::path(
    get, path = "/api/stock-prices/{symbol}/history", tag = "market",
    params(
        ("symbol" = String, Path, description = "Ticker", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$"),
        ("days" = Option<i64>, Query, description = "Sessions, 1–2520 (default 90)", minimum = 1, maximum = 2520),
    ),
    responses(
        (status = 200, body = Vec<HistoryBar>),
        (status = 404, description = "Not in the watchlist", body = crate::foundation::error::Problem),
        (status = 422, description = "`days` out of range", body = crate::foundation::error::Problem),
    )
)]
async fn history(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(symbol): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<Vec<HistoryBar>>> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
        .map_err(|_| AppError::MalformedBody("The query string is not valid.".into()))?;
    let mut days = 90;
    for (key, value) in pairs {
        match key.as_str() {
            "days" => match value.parse::<i64>() {
                Ok(n) if (1..=2520).contains(&n) => days = n,
                _ => return Err(AppError::field("days", "A whole number from 1 to 2520")),
            },
            other => return Err(AppError::Validation(vec![FieldError::new(other, "Unknown parameter")])),
        }
    }
    let symbol = Symbol::parse(&symbol).map_err(|_| AppError::NotFound)?;
    if market::find_stock(&state.db, symbol.as_str()).await?.is_none() {
        return Err(AppError::NotFound);
    }
    let through = state.market.today(state.clock.now());
    let bars = market::last_bars(&state.db, symbol.as_str(), through, days).await?;
    Ok(axum::Json(bars.into_iter().map(HistoryBar::from).collect()))
}
