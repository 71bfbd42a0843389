//! Manual positions: the user's own option contracts, validated field by field, stored in
//! cents so they read back exactly as entered, and visible only to their owner.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::positions::{self, ManualRow};
use utoipa::ToSchema;

use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::input::{Symbol, SymbolError};
use crate::foundation::money::dollars;
use crate::foundation::money::round2;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{PositionStatus, SignalKind, stored};
use crate::services::portfolio_analysis::detail::{PositionDetail, manual_detail};

/// Largest quantity accepted, contracts.
const MAX_QUANTITY: i64 = 10_000;

/// `POST /api/manual-positions`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewManualPosition {
    /// Ticker: a letter, then up to nine letters, digits, `.` or `-`; upper-cased.
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    /// 1–100 characters, not only spaces.
    #[schema(example = "Apple Inc.", min_length = 1, max_length = 100, pattern = r"\S")]
    pub company_name: String,
    /// `CALL`, `PUT` or `STRADDLE` (the server takes any case).
    #[serde(rename = "type")]
    #[schema(value_type = crate::foundation::vocab::SignalKind)]
    pub position_type: String,
    /// Dollars, 0.01–1,000,000, whole cents.
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub strike_price: f64,
    /// `YYYY-MM-DD`, today or later.
    #[schema(example = "2026-12-18", pattern = r"^(19[7-9][0-9]|20[0-9][0-9]|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    pub expiration_date: String,
    /// Contracts, 1–10000.
    #[schema(minimum = 1, maximum = 10_000)]
    pub quantity: i64,
    /// Premium paid per share, dollars, 0.01–1,000,000, whole cents.
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub entry_price: f64,
    /// Dollars, 0.01–1,000,000, whole cents.
    #[serde(default)]
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub target_price: Option<f64>,
    /// Dollars, 0.01–1,000,000, whole cents.
    #[serde(default)]
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub stop_loss: Option<f64>,
    /// Up to 1000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reasoning: Option<String>,
    /// Only `open` is accepted (new positions are open).
    #[serde(default)]
    #[schema(pattern = "^open$")]
    pub status: Option<String>,
}

/// A manual position with its current mark.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManualPosition {
    #[schema(format = "uuid")]
    pub id: String,
    pub user_id: String,
    pub symbol: String,
    pub company_name: String,
    #[serde(rename = "type")]
    pub position_type: SignalKind,
    pub strike_price: f64,
    pub expiration_date: NaiveDate,
    pub quantity: i64,
    pub entry_price: f64,
    /// The option's premium per share now (Black–Scholes at the current price and volatility).
    pub current_price: Option<f64>,
    /// The underlying now.
    pub underlying_price: Option<f64>,
    pub target_price: Option<f64>,
    pub stop_loss: Option<f64>,
    pub reasoning: Option<String>,
    /// (current − entry) × 100 × quantity, dollars.
    pub pnl: f64,
    pub pnl_percent: f64,
    pub status: PositionStatus,
    pub is_active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TryFrom<ManualRow> for ManualPosition {
    type Error = AppError;

    /// A stored value outside the vocabulary is an internal error naming the position.
    fn try_from(row: ManualRow) -> Result<Self> {
        let what = format!("manual position {}", row.id);
        let status: PositionStatus = stored(&row.status, &what)?;
        let position_type: SignalKind = stored(&row.position_type, &what)?;
        Ok(ManualPosition {
            is_active: status == PositionStatus::Open,
            id: row.id,
            user_id: row.user_id,
            symbol: row.symbol,
            company_name: row.company_name,
            position_type,
            strike_price: dollars(row.strike_cents),
            expiration_date: row.expiration_date,
            quantity: row.quantity,
            entry_price: dollars(row.entry_cents),
            current_price: row.current_option_cents.map(dollars),
            underlying_price: row.current_price_cents.map(dollars),
            target_price: row.target_cents.map(dollars),
            stop_loss: row.stop_cents.map(dollars),
            reasoning: row.reasoning,
            pnl: dollars(row.pnl_cents),
            pnl_percent: round2(row.pnl_percent),
            status,
            created_at: row.created_at,
            updated_at: row.updated_at,
        })
    }
}

fn cents(field: &str, value: f64, errors: &mut Vec<FieldError>) -> i64 {
    crate::foundation::money::entered_cents(field, value, crate::foundation::money::MAX_PRICE, errors)
}

/// Checks every field; all problems at once. The position is `user_id`'s, held in their account
/// `account_id`.
pub fn validate(p: &NewManualPosition, user_id: &str, account_id: &str, today: NaiveDate, now: DateTime<Utc>) -> Result<ManualRow> {
    let mut errors = Vec::new();
    let symbol = match Symbol::parse(&p.symbol) {
        Ok(symbol) => Some(symbol),
        Err(SymbolError::Blank) => {
            errors.push(FieldError::new("symbol", "This field is required"));
            None
        }
        Err(SymbolError::Malformed) => {
            errors.push(FieldError::new("symbol", "Not a valid ticker symbol"));
            None
        }
    };
    let company = p.company_name.trim();
    if company.is_empty() {
        errors.push(FieldError::new("companyName", "This field is required"));
    } else if company.chars().count() > 100 {
        errors.push(FieldError::new("companyName", "At most 100 characters"));
    }
    let position_type =
        p.position_type.parse::<SignalKind>().map_err(|unknown| errors.push(FieldError::new("type", unknown.must_be()))).ok();
    let strike_cents = cents("strikePrice", p.strike_price, &mut errors);
    let entry_cents = cents("entryPrice", p.entry_price, &mut errors);
    let target_cents = p.target_price.map(|v| cents("targetPrice", v, &mut errors));
    let stop_cents = p.stop_loss.map(|v| cents("stopLoss", v, &mut errors));
    if !(1..=MAX_QUANTITY).contains(&p.quantity) {
        errors.push(FieldError::new("quantity", "A whole number from 1 to 10,000"));
    }
    let expiration = match crate::foundation::input::date("expirationDate", &p.expiration_date) {
        Ok(date) if date < today => {
            errors.push(FieldError::new("expirationDate", "Must not be in the past"));
            date
        }
        Ok(date) => date,
        Err(error) => {
            errors.push(error);
            today
        }
    };
    let reasoning = p.reasoning.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned);
    if reasoning.as_ref().is_some_and(|r| r.chars().count() > 1000) {
        errors.push(FieldError::new("reasoning", "At most 1000 characters"));
    }
    if p.status.as_deref().is_some_and(|s| s.parse::<PositionStatus>() != Ok(PositionStatus::Open)) {
        errors.push(FieldError::new("status", "New positions are open"));
    }
    let (Some(symbol), Some(position_type), true) = (symbol, position_type, errors.is_empty()) else {
        return Err(AppError::Validation(errors));
    };
    Ok(ManualRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.to_owned(),
        account_id: account_id.to_owned(),
        symbol: symbol.into_string(),
        company_name: company.to_owned(),
        position_type: position_type.as_str().to_owned(),
        strike_cents,
        expiration_date: expiration,
        quantity: p.quantity,
        entry_cents,
        target_cents,
        stop_cents,
        reasoning,
        status: PositionStatus::Open.as_str().to_owned(),
        current_option_cents: None,
        current_price_cents: None,
        pnl_cents: 0,
        pnl_percent: 0.0,
        closed_at: None,
        created_at: now,
        updated_at: now,
    })
}

/// Adds a manual position, valued at once.
#[utoipa::path(
    post, path = "/api/manual-positions", tag = "portfolio",
    request_body = NewManualPosition,
    responses(
        (status = 201, body = ManualPosition),
        (status = 422, description = "Field errors (`errors` names each)", body = crate::foundation::error::Problem),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<NewManualPosition>,
) -> Result<(StatusCode, axum::Json<ManualPosition>)> {
    let now = state.clock.now();
    let mut row = validate(&request, &user.id, &user.account_id, state.market.today(now), now)?;
    // Valued before it is stored, and stored with its value in one statement: the create
    // touches no other position, and a failure leaves nothing behind.
    let mut pricing = crate::services::portfolio_settlement::Pricing::load(&state).await?;
    if let Some(mark) = crate::services::portfolio_settlement::manual_mark(&state, &mut pricing, &row, now).await? {
        row.apply(&mark);
    }
    positions::insert_manual(&state.db, &row).await?;
    let saved = positions::find_manual(&state.db, &user.account_id, &row.id).await?;
    Ok((StatusCode::CREATED, axum::Json(saved.try_into()?)))
}

/// The user's manual positions, newest first.
#[utoipa::path(
    get, path = "/api/manual-positions", tag = "portfolio",
    responses((status = 200, body = Vec<ManualPosition>), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
pub async fn list(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<ManualPosition>>> {
    Ok(axum::Json(
        positions::manual_for(&state.db, &user.account_id).await?.into_iter().map(ManualPosition::try_from).collect::<Result<_>>()?,
    ))
}

/// One manual position with Greeks, risk and performance. Another user's id is 404.
#[utoipa::path(
    get, path = "/api/manual-positions/{id}", tag = "portfolio",
    params(("id" = String, Path, description = "Position id")),
    responses(
        (status = 200, body = PositionDetail),
        (status = 404, description = "No such position", body = crate::foundation::error::Problem),
        (status = 409, description = "The symbol has no price yet (try again after the next market refresh)", body = crate::foundation::error::Problem),
    )
)]
pub async fn detail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<PositionDetail>> {
    let row = positions::find_manual(&state.db, &user.account_id, &id).await?;
    Ok(axum::Json(manual_detail(&state, &user, &row, state.clock.now()).await?))
}

/// Deletes a manual position for good. Another user's id is 404.
#[utoipa::path(
    delete, path = "/api/manual-positions/{id}", tag = "portfolio",
    params(("id" = String, Path, description = "Position id")),
    responses((status = 204, description = "Deleted"), (status = 404, description = "No such position", body = crate::foundation::error::Problem))
)]
pub async fn delete(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    positions::delete_manual(&state.db, &user.account_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(symbol: &str, kind: &str) -> NewManualPosition {
        NewManualPosition {
            symbol: symbol.into(),
            company_name: "Apple Inc.".into(),
            position_type: kind.into(),
            strike_price: 200.0,
            expiration_date: "2026-12-18".into(),
            quantity: 2,
            entry_price: 4.5,
            target_price: None,
            stop_loss: None,
            reasoning: None,
            status: Some("Open".into()),
        }
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).expect("date")
    }

    #[test]
    fn the_symbol_and_type_are_parsed_once_into_their_stored_spelling() {
        let now = today().and_hms_opt(15, 0, 0).expect("time").and_utc();
        let row = validate(&request(" aapl ", "straddle"), "u1", "a1", today(), now).expect("valid");
        assert_eq!((row.symbol.as_str(), row.position_type.as_str(), row.status.as_str()), ("AAPL", "STRADDLE", "open"));
        let Err(AppError::Validation(errors)) = validate(&request("1BAD", "butterfly"), "u1", "a1", today(), now) else {
            panic!("invalid")
        };
        let named: Vec<_> = errors.iter().map(|e| (e.field.as_str(), e.message.as_str())).collect();
        assert_eq!(named, [("symbol", "Not a valid ticker symbol"), ("type", "Must be one of: CALL, PUT, STRADDLE")]);
    }

    #[test]
    fn a_stored_value_outside_the_vocabulary_is_an_internal_error_naming_the_row() {
        let mut row =
            validate(&request("AAPL", "CALL"), "u1", "a1", today(), today().and_hms_opt(15, 0, 0).expect("time").and_utc()).expect("valid");
        row.status = "Active".into();
        let Err(AppError::Internal(cause)) = ManualPosition::try_from(row.clone()) else { panic!("expected an internal error") };
        assert!(
            cause.to_string().starts_with(&format!("stored manual position {}: unknown position status \"Active\"", row.id)),
            "{cause}"
        );
    }
}
