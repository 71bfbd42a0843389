//! The public API's signal endpoints (`/api/v1/signals…`), for API keys: the list with
//! filters and `offset` or `cursor` paging, the active signals, generation (Pro and up) and
//! creating a signal of one's own (write permission).

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::signals::{self as store, ListPosition, SignalRow};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::dto::model_estimate;
use super::filter::{self, DEFAULT_PAGE, MAX_PAGE};
use super::{Signal, issue_on_demand, requested_symbol, tracked_stock};
use crate::foundation::api_access::{ApiCaller, ApiLimits};
use crate::foundation::entitlements::Capability;
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::input::clean_text;
use crate::foundation::limits;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{Provenance, SignalKind, SignalRiskLevel, SignalStatus, StrategyName};
use crate::services::signal_issuing::GenerationChoice;
use crate::services::signal_issuing::{STANDARD_COMMISSION_CENTS, STANDARD_SLIPPAGE_BP};
use crate::services::visibility::{ranked_for, visible_to};

/// Longest reasoning of a created signal, in characters.
const REASONING_MAX: usize = 2_000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(active)).routes(routes!(generate))
}

/// The query of `GET /api/v1/signals`.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[expect(dead_code, reason = "describes the query in the OpenAPI document; the handler parses it by hand")]
pub struct PublicSignalQuery {
    /// Symbol prefix, case-insensitive.
    symbol: Option<String>,
    /// `Momentum`, `Mean Reversion`, `Breakout`, `Volatility`, or `Custom`: the signals of the
    /// caller's own custom strategies (docs/strategies.md §11).
    strategy: Option<String>,
    /// `CALL`, `PUT` or `STRADDLE`.
    #[param(rename = "signalType")]
    signal_type: Option<String>,
    /// `active`, `closed` or `expired`.
    status: Option<String>,
    /// Signals per page (1–200, default 50).
    limit: Option<i64>,
    /// Signals to skip (0–2,000); deeper pages with `cursor`.
    offset: Option<i64>,
    /// The `nextCursor` of the previous page.
    cursor: Option<String>,
}

/// `GET /api/v1/signals`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicSignalPage {
    pub signals: Vec<Signal>,
    /// Signals matching the filters, on every page.
    pub total: i64,
    /// 1-based page number when paging by `offset` (`null` when paging by cursor).
    pub page: Option<i64>,
    pub has_more: bool,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// Signals newest first, with the plan's daily quota applied as in the app (`locked` rows).
#[utoipa::path(
    get, path = "/api/v1/signals", operation_id = "v1_list_signals", tag = "public-api",
    params(PublicSignalQuery),
    security(("api_key" = [])),
    responses(
        (status = 200, body = PublicSignalPage),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 422, description = "A filter is not valid; `errors` names it", body = Problem),
        (status = 429, description = "The plan's hourly quota or this endpoint's 100 a minute; see Retry-After", body = Problem),
    )
)]
async fn list(
    State(state): State<AppState>,
    caller: ApiCaller,
    RawQuery(query): RawQuery,
) -> Result<(ApiLimits, axum::Json<PublicSignalPage>)> {
    let now = state.clock.now();
    let (mut filter, offset) = filter::parse_public(query.as_deref())?;
    let limits = caller.endpoint(&state, limits::API_SIGNALS, now).await?;
    let page_size = filter.limit;
    let by_cursor = filter.after.is_some();
    let total = store::count(&state.db, &caller.user.id, &filter).await?;
    filter.limit = offset + page_size + 1;
    let mut rows = ranked_for(&state, &caller.user, &filter, now).await?;
    let rows: Vec<_> = rows.drain(..).skip(usize::try_from(offset).unwrap_or(0)).collect();
    let has_more = rows.len() > usize::try_from(page_size).unwrap_or(0);
    let rows: Vec<_> = rows.into_iter().take(usize::try_from(page_size).unwrap_or(0)).collect();
    let next_cursor = rows
        .last()
        .filter(|_| has_more)
        .map(|(row, _)| filter::encode_cursor(&ListPosition { created_at: row.created_at, id: row.id.clone() }));
    let predictive = caller.entitlements.allows(Capability::PredictiveAnalysis);
    let signals = rows
        .into_iter()
        .map(|(row, locked)| {
            let model = if predictive && !locked { model_estimate(&row) } else { None };
            Ok(Signal { model, ..Signal::from_row(row, locked)? })
        })
        .collect::<Result<_>>()?;
    let page = (!by_cursor).then(|| offset / page_size + 1);
    Ok((limits, axum::Json(PublicSignalPage { signals, total, page, has_more, next_cursor })))
}

/// The query of `GET /api/v1/signals/active`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ActiveQuery {
    /// Symbol prefix, case-insensitive.
    pub symbol: Option<String>,
    /// At most this many (1–200, default 50).
    pub limit: Option<i64>,
}

/// An active signal with how long it has left.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveSignal {
    #[serde(flatten)]
    pub signal: Signal,
    /// Until the option expires (at the close on `expirationDate`), e.g. `12 days`.
    pub time_remaining: String,
    /// Profit or loss per contract now, in dollars.
    #[serde(rename = "currentPnL")]
    pub current_pnl: f64,
}

/// `GET /api/v1/signals/active`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveSignals {
    pub active_signals: Vec<ActiveSignal>,
    pub total_active: usize,
}

fn time_remaining(expiration: chrono::NaiveDate, today: chrono::NaiveDate) -> String {
    match (expiration - today).num_days() {
        d if d <= 0 => "expires today".to_owned(),
        1 => "1 day".to_owned(),
        d => format!("{d} days"),
    }
}

/// The active signals the plan unlocks, newest first.
#[utoipa::path(
    get, path = "/api/v1/signals/active", operation_id = "v1_active_signals", tag = "public-api",
    params(ActiveQuery),
    security(("api_key" = [])),
    responses(
        (status = 200, body = ActiveSignals),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 422, description = "`symbol` or `limit` is not valid", body = Problem),
        (status = 429, description = "Over a limit; see Retry-After", body = Problem),
    )
)]
async fn active(
    State(state): State<AppState>,
    caller: ApiCaller,
    RawQuery(query): RawQuery,
) -> Result<(ApiLimits, axum::Json<ActiveSignals>)> {
    let now = state.clock.now();
    let query: ActiveQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    let mut errors = Vec::new();
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        errors.push(FieldError::new("limit", format!("A whole number from 1 to {MAX_PAGE}")));
    }
    let symbol_prefix = match query.symbol.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(crate::foundation::input::Symbol::parse)
    {
        Some(Ok(prefix)) => Some(prefix.into_string()),
        Some(Err(error)) => {
            errors.push(error.on("symbol"));
            None
        }
        None => None,
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let filter = store::SignalFilter { symbol_prefix, status: Some(SignalStatus::Active.as_str().to_owned()), limit, ..Default::default() };
    let limits = caller.endpoint(&state, limits::API_ACTIVE_SIGNALS, now).await?;
    let today = state.market.today(now);
    let rows = visible_to(&state, &caller.user, &filter, now).await?;
    let predictive = caller.entitlements.allows(Capability::PredictiveAnalysis);
    let active_signals: Vec<ActiveSignal> = rows
        .into_iter()
        .map(|row| {
            let (expiration, pnl_cents) = (row.expiration_date, row.pnl_cents);
            let model = if predictive { model_estimate(&row) } else { None };
            Ok(ActiveSignal {
                signal: Signal { model, ..Signal::from_row(row, false)? },
                time_remaining: time_remaining(expiration, today),
                current_pnl: crate::foundation::money::dollars(pnl_cents),
            })
        })
        .collect::<Result<_>>()?;
    Ok((limits, axum::Json(ActiveSignals { total_active: active_signals.len(), active_signals })))
}

/// `POST /api/v1/signals/generate`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicGenerateRequest {
    #[schema(example = "AAPL")]
    pub symbol: String,
    /// Only these strategies may propose (default: all four).
    #[serde(default)]
    pub strategies: Option<Vec<StrategyName>>,
    /// Only a setup whose confidence falls in this level (`low` under 30, `medium` 30–70,
    /// `high` over 70).
    #[serde(default)]
    pub risk_level: Option<SignalRiskLevel>,
}

/// `POST /api/v1/signals/generate`'s answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedSignals {
    pub generated_signals: Vec<Signal>,
    /// Names this generation in the server's logs.
    #[schema(format = "uuid")]
    pub analysis_id: String,
    pub generated_at: DateTime<Utc>,
}

/// Generates a signal for a symbol now (Pro and Premium, write permission): the strongest
/// setup among the chosen strategies and risk level. Counts toward the daily quota.
#[utoipa::path(
    post, path = "/api/v1/signals/generate", operation_id = "v1_generate_signals", tag = "public-api",
    request_body = PublicGenerateRequest,
    security(("api_key" = [])),
    responses(
        (status = 201, body = GeneratedSignals),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 403, description = "A read-only key, or the Free plan", body = Problem),
        (status = 422, description = "`symbol`, `strategies` or `riskLevel` is not valid, or no setup matches", body = Problem),
        (status = 429, description = "Over a limit or today's quota; see Retry-After", body = Problem),
    )
)]
async fn generate(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(request): ApiJson<PublicGenerateRequest>,
) -> Result<(StatusCode, ApiLimits, axum::Json<GeneratedSignals>)> {
    let now = state.clock.now();
    // A plan without generation hears so whatever it sent, before the fields are judged.
    caller.entitlements.require(Capability::GenerateSignals)?;
    let symbol = requested_symbol(&request.symbol)?;
    let mut choice = GenerationChoice::default();
    if let Some(strategies) = request.strategies {
        if strategies.is_empty() {
            return Err(AppError::field("strategies", "Name at least one strategy, or leave `strategies` out for all four"));
        }
        choice.strategies = strategies.into_iter().map(Into::into).collect();
        choice.strategies.dedup();
    }
    if let Some(level) = request.risk_level {
        choice.confidence = level.confidence_range();
    }
    let limits = caller.endpoint(&state, limits::API_GENERATE, now).await?;
    let row = issue_on_demand(&state, &caller.user, &symbol, caller.entitlements, &choice, now).await?;
    let analysis_id = uuid::Uuid::new_v4().to_string();
    tracing::info!(%analysis_id, signal_id = %row.id, key_id = %caller.key.id, "signal generated through the public API");
    let answer = GeneratedSignals { generated_signals: vec![Signal::from_row(row, false)?], analysis_id, generated_at: now };
    Ok((StatusCode::CREATED, limits, axum::Json(answer)))
}

/// `POST /api/v1/signals`: a signal of one's own, tracked and marked to market like the
/// others and shown only to its owner. A target is above the entry and a stop loss below it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateSignalRequest {
    /// Ticker: a letter, then up to nine letters, digits, `.` or `-` (either case); one the
    /// market data lists.
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    /// Not only spaces; cut to 100 characters.
    #[schema(example = "Apple Inc.", min_length = 1, pattern = r"\S")]
    pub company_name: String,
    pub signal_type: SignalKind,
    pub strategy: StrategyName,
    /// Dollars, 0.01–1,000,000, whole cents.
    #[schema(example = 190.0, minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub strike_price: f64,
    /// The underlying now, in dollars (0.01–1,000,000, whole cents).
    #[schema(example = 187.5, minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub current_price: f64,
    /// The option's premium per share, in dollars (0.01–1,000,000, whole cents).
    #[schema(example = 4.25, minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub entry_price: f64,
    /// Heuristic strength 0–100 of the strategy's conditions; not a probability. Calibrated
    /// outcomes are published at /api/public/track-record.
    #[schema(example = 70, minimum = 0, maximum = 100)]
    pub confidence: i64,
    /// `YYYY-MM-DD`, from today to three years ahead.
    #[schema(example = "2026-12-18", pattern = r"^(19[7-9][0-9]|20[0-9][0-9]|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    pub expiration_date: String,
    /// 0–100.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub rsi: Option<f64>,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub volume: Option<i64>,
    /// Premium per share that closes it with a profit, above the entry; default 1.5 × the entry.
    #[serde(default)]
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub target_price: Option<f64>,
    /// Premium per share that closes it with a loss, below the entry; default 0.5 × the entry.
    #[serde(default)]
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub stop_loss: Option<f64>,
    #[serde(default)]
    pub reasoning: Option<String>,
}

/// The stored row of a valid request (the company name is cleaned, the symbol parsed).
fn created_row(
    r: &CreateSignalRequest,
    owner: &str,
    volatility: f64,
    today: chrono::NaiveDate,
    issue_day: chrono::NaiveDate,
    now: DateTime<Utc>,
) -> Result<SignalRow> {
    let mut errors: Vec<FieldError> = Vec::new();
    let money = |field: &str, value: f64, errors: &mut Vec<FieldError>| {
        crate::foundation::money::entered_cents(field, value, crate::foundation::money::MAX_PRICE, errors)
    };
    let company = clean_text(&r.company_name);
    if company.is_empty() {
        errors.push(FieldError::new("companyName", "Enter the company's name"));
    }
    let strike = money("strikePrice", r.strike_price, &mut errors);
    let current = money("currentPrice", r.current_price, &mut errors);
    let entry = money("entryPrice", r.entry_price, &mut errors);
    let target = match r.target_price {
        Some(v) => money("targetPrice", v, &mut errors),
        None => entry * 3 / 2,
    };
    let stop = match r.stop_loss {
        Some(v) => money("stopLoss", v, &mut errors),
        None => (entry / 2).max(1),
    };
    if !(0..=100).contains(&r.confidence) {
        errors.push(FieldError::new("confidence", "A whole number from 0 to 100"));
    }
    if r.rsi.is_some_and(|x| !(0.0..=100.0).contains(&x)) {
        errors.push(FieldError::new("rsi", "From 0 to 100"));
    }
    if r.volume.is_some_and(|v| v < 0) {
        errors.push(FieldError::new("volume", "Zero or more"));
    }
    let expiration = match crate::foundation::input::date("expirationDate", &r.expiration_date) {
        Ok(d) if d < today => {
            errors.push(FieldError::new("expirationDate", "The option has already expired"));
            d
        }
        Ok(d) if d > today + Duration::days(3 * 366) => {
            errors.push(FieldError::new("expirationDate", "At most three years ahead"));
            d
        }
        Ok(d) => d,
        Err(e) => {
            errors.push(e);
            today
        }
    };
    if errors.is_empty() && target <= entry {
        errors.push(FieldError::new("targetPrice", "The target must be above the entry price"));
    }
    if errors.is_empty() && stop >= entry {
        errors.push(FieldError::new("stopLoss", "The stop loss must be below the entry price"));
    }
    let reasoning = r.reasoning.as_deref().map(str::trim).filter(|t| !t.is_empty()).map_or_else(
        || format!("Created through the public API ({} {}).", r.strategy, r.signal_type),
        |t| t.chars().filter(|c| !c.is_control() || *c == '\n').take(REASONING_MAX).collect(),
    );
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    Ok(SignalRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: String::new(),
        company_name: company,
        signal_type: r.signal_type.as_str().to_owned(),
        strategy: r.strategy.as_str().to_owned(),
        strike_cents: strike,
        expiration_date: expiration,
        entry_cents: entry,
        target_cents: target,
        stop_cents: stop,
        underlying_entry_cents: current,
        volatility,
        confidence: r.confidence,
        rsi: r.rsi,
        volume: r.volume,
        reasoning,
        current_option_cents: entry,
        current_price_cents: current,
        previous_close_cents: current,
        pnl_cents: 0,
        pnl_percent: 0.0,
        status: SignalStatus::Active.as_str().to_owned(),
        close_reason: None,
        closed_at: None,
        owner_id: Some(owner.to_owned()),
        issued_on: issue_day,
        created_at: now,
        updated_at: now,
        provenance: Provenance::Live.as_str().to_owned(),
        slippage_bp: STANDARD_SLIPPAGE_BP,
        commission_cents: STANDARD_COMMISSION_CENTS,
        issue_probability: None,
        net_pnl_cents: None,
        model_probability: None,
        model_version: None,
        model_why: None,
        custom_strategy_id: None,
        close_after: None,
    })
}

/// Creates a signal of one's own (write permission; Pro and Premium). It counts toward the
/// daily quota, is marked to market and closes at its target, stop or expiry like the others.
#[utoipa::path(
    post, path = "/api/v1/signals", operation_id = "v1_create_signal", tag = "public-api",
    request_body = CreateSignalRequest,
    security(("api_key" = [])),
    responses(
        (status = 201, body = Signal),
        (status = 401, description = "Missing, unknown, inactive or expired key", body = Problem),
        (status = 403, description = "A read-only key, or the Free plan", body = Problem),
        (status = 422, description = "A field is not valid; `errors` names it", body = Problem),
        (status = 429, description = "Over a limit or today's quota; see Retry-After", body = Problem),
    )
)]
async fn create(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(request): ApiJson<CreateSignalRequest>,
) -> Result<(StatusCode, ApiLimits, axum::Json<Signal>)> {
    let now = state.clock.now();
    let symbol = requested_symbol(&request.symbol)?;
    let today = state.market.today(now);
    // Checked before the symbol is looked up, so a bad request costs no provider call.
    created_row(&request, &caller.user.id, 0.3, today, today, now)?;
    let limits = caller.endpoint(&state, limits::API_CREATE_SIGNAL, now).await?;
    let stock = tracked_stock(&state, &symbol, &caller.user.id, now).await?;
    let volatility = crate::foundation::cache::volatilities(&state).await?.get(stock.symbol.as_str()).copied().unwrap_or(0.3);
    let mut row = created_row(&request, &caller.user.id, volatility, today, state.market.issue_day(now), now)?;
    row.symbol = stock.symbol.clone();
    let quota = caller.entitlements.signals_per_day;
    if !store::insert_on_demand_within(&state.db, &row, quota).await? {
        return Err(AppError::TooManyRequests {
            detail: format!("You have created today's {} signals. The quota renews on the next trading day.", quota.unwrap_or_default()),
            retry_after_secs: 3600,
            limit: None,
        });
    }
    state.events.publish(crate::foundation::events::Topic::Signals);
    Ok((StatusCode::CREATED, limits, axum::Json(Signal::from_row(row, false)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_reads_in_days() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 25).expect("date");
        assert_eq!(time_remaining(today, today), "expires today");
        assert_eq!(time_remaining(today + Duration::days(1), today), "1 day");
        assert_eq!(time_remaining(today + Duration::days(23), today), "23 days");
    }

    #[test]
    fn a_created_signal_is_checked_field_by_field() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 25).expect("date");
        let request = CreateSignalRequest {
            symbol: "AAPL".into(),
            company_name: "  ".into(),
            signal_type: SignalKind::Call,
            strategy: StrategyName::Momentum,
            strike_price: -1.0,
            current_price: 187.5,
            entry_price: 4.255,
            confidence: 101,
            expiration_date: "2026-11-24".into(),
            rsi: Some(120.0),
            volume: Some(-1),
            target_price: None,
            stop_loss: None,
            reasoning: None,
        };
        let Err(AppError::Validation(errors)) =
            created_row(&request, "u", 0.3, today, today, today.and_hms_opt(15, 0, 0).expect("time").and_utc())
        else {
            panic!("expected 422")
        };
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["companyName", "strikePrice", "entryPrice", "confidence", "rsi", "volume", "expirationDate"]);
    }

    #[test]
    fn defaults_put_the_target_above_and_the_stop_below_the_entry() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 25).expect("date");
        let request = CreateSignalRequest {
            symbol: "AAPL".into(),
            company_name: "Apple Inc.".into(),
            signal_type: SignalKind::Put,
            strategy: StrategyName::Breakout,
            strike_price: 180.0,
            current_price: 187.5,
            entry_price: 4.25,
            confidence: 64,
            expiration_date: "2026-12-18".into(),
            rsi: None,
            volume: None,
            target_price: None,
            stop_loss: None,
            reasoning: None,
        };
        let row = created_row(&request, "u", 0.3, today, today, today.and_hms_opt(15, 0, 0).expect("time").and_utc()).expect("valid");
        assert_eq!((row.entry_cents, row.target_cents, row.stop_cents), (425, 637, 212));
        assert_eq!(row.owner_id.as_deref(), Some("u"));
        assert_eq!(row.status, "active");
    }
}
