//! A tracked stock's option chain (strikes × one expiration, calls beside puts) and its
//! implied-volatility history with IV rank and IV percentile (issue 28, docs/options.md).

use axum::extract::{Path, RawQuery, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::iv_rank::{self, IvReading};
use strikeline_market::options::{ChainQuery, MIN_DAYS_FOR_ATM, OptionContract, OptionRight, listed_expirations};
use strikeline_store::market;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::input::Symbol;
use crate::foundation::limits;
use crate::foundation::money::round1;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::ExerciseStyle;
use crate::services::implied_volatility::{self, MATURITY_DAYS};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(option_chain)).routes(routes!(implied_volatility_history))
}

/// One side of a strike's row, in vendors' units.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainContract {
    /// Dollars per share.
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    /// The midpoint of a two-sided quote.
    pub mid: Option<f64>,
    /// The last trade, when the provider has one.
    pub last: Option<f64>,
    /// Per year, as a fraction (0.25 is 25%).
    pub implied_volatility: Option<f64>,
    pub delta: Option<f64>,
    pub gamma: Option<f64>,
    /// Dollars per share per calendar day.
    pub theta: Option<f64>,
    /// Dollars per share per volatility point.
    pub vega: Option<f64>,
    pub open_interest: Option<u64>,
}

impl From<&OptionContract> for ChainContract {
    fn from(c: &OptionContract) -> Self {
        ChainContract {
            bid: c.bid,
            ask: c.ask,
            mid: c.mid(),
            last: c.last,
            implied_volatility: c.implied_volatility,
            delta: c.greeks.map(|g| g.delta),
            gamma: c.greeks.map(|g| g.gamma),
            theta: c.greeks.map(|g| g.theta),
            vega: c.greeks.map(|g| g.vega),
            open_interest: c.open_interest,
        }
    }
}

/// One strike: its call and its put (either may be unlisted).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainRow {
    pub strike: f64,
    pub call: Option<ChainContract>,
    pub put: Option<ChainContract>,
}

/// `GET /api/stock-prices/{symbol}/options`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionChainView {
    pub symbol: String,
    /// Dollars: the price the quotes go with.
    pub underlying_price: f64,
    /// When the quotes were taken.
    pub as_of: DateTime<Utc>,
    /// Who quoted them (`simulated`, `polygon`).
    pub provider: String,
    /// Equity options are American-style: exercisable on any session up to expiration.
    pub exercise: ExerciseStyle,
    /// Every listed expiration, nearest first.
    pub expirations: Vec<NaiveDate>,
    /// The expiration shown.
    pub expiration: NaiveDate,
    /// Its strikes, lowest first.
    pub rows: Vec<ChainRow>,
}

/// A tracked stock's option chain for one expiration: bid, ask, mid, implied volatility,
/// delta, gamma, theta, vega and open interest of each strike's call and put, as the
/// market-data provider quotes them. `expiration` is one of the listed expirations (default:
/// the first at least a week away).
#[utoipa::path(
    get, path = "/api/stock-prices/{symbol}/options", tag = "market",
    params(
        ("symbol" = String, Path, description = "Ticker", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$"),
        ("expiration" = Option<NaiveDate>, Query, description = "A listed expiration (YYYY-MM-DD)"),
    ),
    responses(
        (status = 200, body = OptionChainView),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "Not in the watchlist", body = crate::foundation::error::Problem),
        (status = 422, description = "`expiration` is not a listed expiration", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many chains; see Retry-After", body = crate::foundation::error::Problem),
        (status = 503, description = "The market-data provider is unavailable", body = crate::foundation::error::Problem),
    )
)]
async fn option_chain(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(symbol): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<(limits::RateLimit, axum::Json<OptionChainView>)> {
    let now = state.clock.now();
    let mut asked: Option<String> = None;
    for (key, value) in query_pairs(query.as_deref())? {
        match key.as_str() {
            "expiration" => asked = Some(value),
            other => return Err(AppError::Validation(vec![FieldError::new(other, "Unknown parameter")])),
        }
    }
    let symbol = tracked(&state, &symbol).await?;
    let today = state.market.today(now);
    let session_over = state.market.calendar.session(today).is_none_or(|s| now >= s.close);
    let expirations: Vec<NaiveDate> =
        listed_expirations(&state.market.calendar, today).into_iter().filter(|e| *e > today || !session_over).collect();
    let expiration = match asked {
        Some(text) => NaiveDate::parse_from_str(&text, "%Y-%m-%d")
            .ok()
            .filter(|d| expirations.contains(d))
            .ok_or_else(|| AppError::field("expiration", "Not a listed expiration. Choose one of the dates the chain lists."))?,
        None => expirations
            .iter()
            .find(|e| (**e - today).num_days() >= MIN_DAYS_FOR_ATM)
            .or(expirations.first())
            .copied()
            .ok_or_else(|| AppError::NotReady("No expiration is listed.".into()))?,
    };
    let limit = limits::hit(&state, limits::OPTION_CHAIN, &user.id, now).await?;
    let chain = state
        .market
        .provider
        .option_chain(&symbol, ChainQuery::expiration(expiration), now)
        .await
        .map_err(|e| AppError::upstream("Option data", e))?;
    let mut rows: Vec<ChainRow> = Vec::new();
    for contract in &chain.contracts {
        let row = match rows.last_mut() {
            Some(row) if row.strike == contract.strike => row,
            _ => {
                rows.push(ChainRow { strike: contract.strike, call: None, put: None });
                rows.last_mut().ok_or_else(|| AppError::Internal(anyhow::anyhow!("a row just pushed")))?
            }
        };
        match contract.right {
            OptionRight::Call => row.call = Some(contract.into()),
            OptionRight::Put => row.put = Some(contract.into()),
        }
    }
    Ok((
        limit,
        axum::Json(OptionChainView {
            symbol: chain.symbol,
            underlying_price: chain.underlying_price,
            as_of: chain.as_of,
            provider: chain.provider.to_owned(),
            exercise: ExerciseStyle::American,
            expirations,
            expiration,
            rows,
        }),
    ))
}

/// One session's reading.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IvPoint {
    pub date: NaiveDate,
    /// Per year, as a fraction (0.25 is 25%).
    pub iv: f64,
}

impl From<IvReading> for IvPoint {
    fn from(r: IvReading) -> Self {
        IvPoint { date: r.date, iv: r.iv }
    }
}

/// Where the last session's reading stands in the lookback.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IvStandingView {
    pub current: IvPoint,
    /// IV rank, 0–100: (current − low) / (high − low) over the lookback.
    pub rank: f64,
    /// IV percentile, 0–100: the share of the lookback's earlier recorded sessions below the
    /// current reading.
    pub percentile: f64,
    pub high: IvPoint,
    pub low: IvPoint,
}

/// `GET /api/stock-prices/{symbol}/implied-volatility`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IvHistoryView {
    pub symbol: String,
    /// The readings' constant maturity, calendar days.
    pub maturity_days: i64,
    /// The lookback: the last completed session and the 252 before it.
    pub lookback_from: NaiveDate,
    pub lookback_to: NaiveDate,
    pub lookback_sessions: usize,
    /// Sessions of the lookback with a reading.
    pub recorded_sessions: usize,
    /// Recorded sessions needed before rank and percentile are shown.
    pub minimum_sessions: usize,
    /// The lookback's readings, oldest first.
    pub series: Vec<IvPoint>,
    /// Its sessions without a reading (never interpolated), oldest first.
    pub missing: Vec<NaiveDate>,
    /// Rank and percentile, or `null` with `hiddenReason`.
    pub standing: Option<IvStandingView>,
    pub hidden_reason: Option<String>,
}

/// A tracked stock's 30-day constant-maturity at-the-money implied volatility over the last
/// year (one reading per session, from the provider's option chain near the close), its IV
/// rank and IV percentile, and the sessions without a reading. Below 200 recorded sessions
/// rank and percentile are hidden, with the reason.
#[utoipa::path(
    get, path = "/api/stock-prices/{symbol}/implied-volatility", tag = "market",
    params(("symbol" = String, Path, description = "Ticker", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")),
    responses(
        (status = 200, body = IvHistoryView),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 404, description = "Not in the watchlist", body = crate::foundation::error::Problem),
    )
)]
async fn implied_volatility_history(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(symbol): Path<String>,
) -> Result<axum::Json<IvHistoryView>> {
    let symbol = tracked(&state, &symbol).await?;
    let lookback = implied_volatility::lookback(&state, &symbol, state.clock.now()).await?;
    Ok(axum::Json(iv_history_view(symbol, lookback)))
}

/// `strikeline iv-rank`: the same view from the command line, after recording what is due
/// when `record` asks for it.
///
/// # Errors
///
/// [`AppError::NotFound`] for a symbol not on the watchlist; the store's.
pub async fn iv_rank_of(state: &AppState, symbol: &str, record: bool, now: DateTime<Utc>) -> Result<IvHistoryView> {
    let symbol = tracked(state, symbol).await?;
    if record {
        implied_volatility::record_due(state, now, implied_volatility::Reach::Backfill).await?;
    }
    Ok(iv_history_view(symbol.clone(), implied_volatility::lookback(state, &symbol, now).await?))
}

/// The API's view of a lookback.
pub fn iv_history_view(symbol: String, lookback: iv_rank::IvLookback) -> IvHistoryView {
    let (standing, hidden_reason) = match lookback.standing {
        Ok(s) => (
            Some(IvStandingView {
                current: s.current.into(),
                rank: round1(100.0 * s.rank),
                percentile: round1(100.0 * s.percentile),
                high: s.high.into(),
                low: s.low.into(),
            }),
            None,
        ),
        Err(hidden) => (None, Some(hidden.to_string())),
    };
    IvHistoryView {
        symbol,
        maturity_days: MATURITY_DAYS,
        lookback_from: lookback.from,
        lookback_to: lookback.to,
        lookback_sessions: lookback.readings.len() + lookback.missing.len(),
        recorded_sessions: lookback.readings.len(),
        minimum_sessions: iv_rank::MIN_SESSIONS,
        series: lookback.readings.into_iter().map(IvPoint::from).collect(),
        missing: lookback.missing,
        standing,
        hidden_reason,
    }
}

fn query_pairs(query: Option<&str>) -> Result<Vec<(String, String)>> {
    serde_urlencoded::from_str(query.unwrap_or("")).map_err(|_| AppError::MalformedBody("The query string is not valid.".into()))
}

/// The symbol when it is on the watchlist; 404 otherwise (a malformed one too).
async fn tracked(state: &AppState, symbol: &str) -> Result<String> {
    let symbol = Symbol::parse(symbol).map_err(|_| AppError::NotFound)?;
    market::find_stock(&state.db, symbol.as_str()).await?.ok_or(AppError::NotFound)?;
    Ok(symbol.as_str().to_owned())
}
