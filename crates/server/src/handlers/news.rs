//! News with its analysis: `GET /api/news` for the /news page and `GET /api/v1/news` for API
//! keys. Sentiment is for everyone; the AI analysis of each item is Pro and up (Free sees
//! `aiAnalysis: null` and `analysisLocked: true`).

use std::collections::HashMap;

use axum::extract::{RawQuery, State};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::news::{self as store, NewsFilter};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::api_access::{ApiCaller, ApiLimits};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{NewsOrigin, NewsSentiment, Vocabulary, stored};
use crate::services::news::analysis::NewsAnalysis;

/// The page sizes the /news page offers.
pub const COUNTS: [u32; 4] = [5, 20, 25, 100];
/// Most items one public API request returns.
pub const MAX_LIMIT: u32 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_news)).routes(routes!(v1_news))
}

/// A news item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewsItem {
    #[schema(format = "uuid")]
    pub id: String,
    pub title: String,
    /// The company of `symbol`, when the item is about one on the watchlist.
    pub company_name: Option<String>,
    /// The stock the item is mostly about.
    pub symbol: Option<String>,
    /// Every watchlist stock it names, `symbol` first.
    pub symbols: Vec<String>,
    pub source: String,
    /// A feed, a bundled sample (labelled as such on the page) or a market note Strikeline
    /// computed from prices.
    pub origin: NewsOrigin,
    pub published_at: DateTime<Utc>,
    pub sentiment: NewsSentiment,
    /// -1 (clearly bad news) to 1 (clearly good news).
    pub sentiment_score: f64,
    pub image_url: Option<String>,
    /// Plain text.
    pub summary: String,
    pub article_url: Option<String>,
    /// `null` when the plan does not include AI analysis (`analysisLocked`).
    pub ai_analysis: Option<NewsAnalysis>,
    pub analysis_locked: bool,
}

fn items(rows: Vec<store::NewsItem>, companies: &HashMap<String, String>, unlocked: bool) -> Result<Vec<NewsItem>> {
    rows.into_iter()
        .map(|row| {
            let what = format!("news item {}", row.id);
            let symbols: Vec<String> = row.symbols.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            let symbol = symbols.first().cloned();
            let analysis = if unlocked { serde_json::from_str::<NewsAnalysis>(&row.analysis).ok() } else { None };
            Ok(NewsItem {
                origin: stored(&row.origin, &what)?,
                sentiment: stored(&row.sentiment, &what)?,
                company_name: symbol.as_ref().and_then(|s| companies.get(s).cloned()),
                symbol,
                symbols,
                id: row.id,
                title: row.title,
                source: row.source,
                published_at: row.published_at,
                sentiment_score: (row.sentiment_score * 100.0).round() / 100.0,
                image_url: row.image_url,
                summary: row.summary,
                article_url: row.article_url,
                ai_analysis: analysis,
                analysis_locked: !unlocked,
            })
        })
        .collect()
}

async fn companies(state: &AppState) -> Result<HashMap<String, String>> {
    Ok(strikeline_store::market::list_stocks(&state.db).await?.into_iter().map(|s| (s.symbol, s.company_name)).collect())
}

/// The query of `GET /api/news`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct NewsQuery {
    /// 5, 20, 25 or 100 (default 5).
    #[param(schema_with = count_schema)]
    count: Option<u32>,
}

/// `count` as the document states it: one of [`COUNTS`].
fn count_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new().schema_type(Type::Integer).enum_values(Some(COUNTS)).default(Some(serde_json::json!(COUNTS[0]))).build()
}

/// The newest news, with sentiment, and the AI analysis on Pro and up.
#[utoipa::path(
    get, path = "/api/news", tag = "news",
    params(NewsQuery),
    responses(
        (status = 200, body = Vec<NewsItem>),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 422, description = "`count` is not 5, 20, 25 or 100", body = Problem),
    )
)]
async fn list_news(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<Vec<NewsItem>>> {
    let query: NewsQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    let count = query.count.unwrap_or(COUNTS[0]);
    if !COUNTS.contains(&count) {
        return Err(AppError::field("count", "One of 5, 20, 25 or 100"));
    }
    let unlocked = Entitlements::of(&user, state.clock.now()).allows(Capability::NewsAnalysis);
    let rows = store::newest(&state.db, &NewsFilter::default(), count).await?;
    Ok(axum::Json(items(rows, &companies(&state).await?, unlocked)?))
}

/// The query of `GET /api/v1/news`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PublicNewsQuery {
    /// `bullish`, `bearish` or `neutral`.
    sentiment: Option<String>,
    /// Tickers, comma-separated (at most 20): items naming any of them.
    symbols: Option<String>,
    /// At most this many (1–100, default 20).
    limit: Option<u32>,
}

/// A page of news for API keys.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicNews {
    pub news: Vec<NewsItem>,
    /// Items matching the filters.
    pub total: i64,
}

/// The newest news matching the filters (every plan; the AI analysis is Pro and up).
#[utoipa::path(
    get, path = "/api/v1/news", operation_id = "v1_news", tag = "public-api",
    params(PublicNewsQuery),
    security(("api_key" = [])),
    responses(
        (status = 200, body = PublicNews),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 422, description = "`sentiment`, `symbols` or `limit` is not valid", body = Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = Problem),
    )
)]
async fn v1_news(
    State(state): State<AppState>,
    caller: ApiCaller,
    RawQuery(query): RawQuery,
) -> Result<(ApiLimits, axum::Json<PublicNews>)> {
    let limits = caller.endpoint(&state, limits::API_NEWS, state.clock.now()).await?;
    let query: PublicNewsQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    let mut errors = Vec::new();
    let limit = query.limit.unwrap_or(20);
    if !(1..=MAX_LIMIT).contains(&limit) {
        errors.push(FieldError::new("limit", format!("A whole number from 1 to {MAX_LIMIT}")));
    }
    let sentiment = match query.sentiment.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => match NewsSentiment::exact(s) {
            Ok(v) => Some(v.as_str().to_owned()),
            Err(_) => {
                errors.push(FieldError::new("sentiment", "One of bullish, bearish or neutral"));
                None
            }
        },
        None => None,
    };
    let mut symbols = Vec::new();
    for raw in query.symbols.as_deref().unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match crate::foundation::input::Symbol::parse(raw) {
            Ok(symbol) if symbols.len() < 20 => symbols.push(symbol.into_string()),
            Ok(_) => {
                errors.push(FieldError::new("symbols", "At most 20 symbols"));
                break;
            }
            Err(error) => {
                errors.push(error.on("symbols"));
                break;
            }
        }
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let filter = NewsFilter { sentiment, symbols };
    let unlocked = caller.entitlements.allows(Capability::NewsAnalysis);
    let rows = store::newest(&state.db, &filter, limit).await?;
    let total = store::count(&state.db, &filter).await?;
    Ok((limits, axum::Json(PublicNews { news: items(rows, &companies(&state).await?, unlocked)?, total })))
}
