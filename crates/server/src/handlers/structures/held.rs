//! Multi-leg positions held in the portfolio: a structure built in the strategy builder and
//! saved (Premium), listed with its value, P&L, Greeks and expiry analysis now, settled at its
//! first expiration (`services::portfolio_settlement::settle_structures`), deleted by its
//! owner. Saving takes the builder's own legs and checks; every plan can still read and
//! delete what it holds after a downgrade.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_quant::structure::{Structure, Template};
use strikeline_store::structures::{self, HeldStructure, LegRow, StructureRow};
use utoipa::ToSchema;

use super::{ExpiryView, PositionGreeks, builder_entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::money::{dollars, round2, to_cents};
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{ExerciseStyle, PositionStatus, TemplateName, stored};
use crate::services::portfolio_settlement::Pricing;
use crate::services::portfolio_valuation::value_structure;
use crate::services::structuring::{LegInput, context, quant_legs, refused};

/// The most open multi-leg positions one user holds.
pub const MAX_OPEN_STRUCTURES: u32 = 100;
/// The longest name, in characters.
const MAX_NAME: usize = 80;

/// `POST /api/portfolio/structures`: the builder's legs, saved as a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewHeldStructure {
    /// A tracked stock's ticker.
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    /// A label (1–80 characters); the template's name and the ticker when absent.
    #[schema(min_length = 1, max_length = 80)]
    pub name: Option<String>,
    /// The template it was built from, if any.
    pub template: Option<TemplateName>,
    /// One to eight legs, at least one an option expiring after today. An absent entry price
    /// is the model's price now (the last price for stock).
    #[schema(min_items = 1, max_items = 8)]
    pub legs: Vec<LegInput>,
    /// American (the default) or European.
    pub exercise: Option<ExerciseStyle>,
}

/// A multi-leg position in the portfolio. Dollars for the whole position unless a field says
/// per share.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldStructureView {
    pub id: String,
    pub symbol: String,
    pub name: String,
    pub template: Option<TemplateName>,
    pub exercise: ExerciseStyle,
    /// `open` until its first expiration; `expired` once settled there.
    pub status: PositionStatus,
    /// The legs as held; each entry price per share.
    pub legs: Vec<LegInput>,
    pub created_at: DateTime<Utc>,
    pub first_expiration: NaiveDate,
    /// What opening cost: positive for a net debit, negative for a net credit.
    pub net_premium: f64,
    /// What closing would bring now (negative when closing costs); at settlement once
    /// expired. `null` while the stock has no price yet.
    pub current_value: Option<f64>,
    /// Profit or loss since opening (realized once expired); `null` as `currentValue`.
    pub pnl: Option<f64>,
    /// `pnl` over the capital at risk, percent.
    pub return_on_risk_percent: Option<f64>,
    /// The most it can lose by its first expiration: the bounded maximum loss, or, when the
    /// loss is unbounded, the loss if the stock doubles by then.
    pub capital_at_risk: Option<f64>,
    /// Calendar days to the first expiration (0 once reached).
    pub days_to_expiry: i64,
    /// Greeks now, summed over the legs; `null` once expired or without a price.
    pub greeks: Option<PositionGreeks>,
    /// Maximum profit and loss, breakevens and probability of profit at the first expiration,
    /// from today; `null` once expired or without a price.
    pub at_expiry: Option<ExpiryView>,
    /// The stock's price it was settled at, once expired.
    pub settled_price: Option<f64>,
    pub closed_at: Option<DateTime<Utc>>,
}

/// The view of a stored structure, valued now while open.
async fn view(state: &AppState, pricing: &mut Pricing, held: HeldStructure, now: DateTime<Utc>) -> Result<HeldStructureView> {
    let row = &held.row;
    let what = || format!("structure {}", row.id);
    let status: PositionStatus = stored(&row.status, what())?;
    let template = row.template.as_deref().map(|t| stored::<TemplateName>(t, what())).transpose()?;
    let legs = held
        .legs
        .iter()
        .map(|leg| {
            Ok(LegInput {
                instrument: stored(&leg.instrument, what())?,
                side: stored(&leg.side, what())?,
                quantity: u32::try_from(leg.quantity).unwrap_or(1),
                strike: leg.strike_cents.map(dollars),
                expiration_date: leg.expiration_date,
                volatility: leg.volatility,
                entry_price: Some(dollars(leg.entry_cents)),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let first_expiration = held.first_expiration().ok_or_else(|| AppError::Internal(anyhow::anyhow!("{} has no option leg", what())))?;
    let net_premium = crate::services::structuring::holding(state, &held, &pricing.sector_of(&row.symbol))?.net_premium();
    let today = state.market.today(now);
    let mut out = HeldStructureView {
        id: row.id.clone(),
        symbol: row.symbol.clone(),
        name: row.name.clone(),
        template,
        exercise: stored(&row.exercise, what())?,
        status,
        legs,
        created_at: row.created_at,
        first_expiration,
        net_premium,
        current_value: None,
        pnl: None,
        return_on_risk_percent: None,
        capital_at_risk: None,
        days_to_expiry: (first_expiration - today).num_days().max(0),
        greeks: None,
        at_expiry: None,
        settled_price: row.settled_price_cents.map(dollars),
        closed_at: row.closed_at,
    };
    if status != PositionStatus::Open {
        let pnl = dollars(row.pnl_cents.unwrap_or(0));
        out.pnl = Some(pnl);
        out.current_value = Some(round2(net_premium + pnl));
        out.days_to_expiry = 0;
        return Ok(out);
    }
    let Some(valued) = value_structure(state, pricing, &held, now).await? else { return Ok(out) };
    let v = valued.valuation;
    out.current_value = Some(round2(v.current_value));
    out.pnl = Some(round2(v.unrealized_pnl));
    out.return_on_risk_percent = Some(v.return_on_risk_percent);
    out.capital_at_risk = Some(round2(v.capital_at_risk));
    if !v.expired {
        let g = v.greeks;
        out.greeks = Some(PositionGreeks::rounded(g.delta, g.gamma, g.vega, g.theta, g.rho));
    }
    out.at_expiry = v.at_expiry.map(ExpiryView::from);
    Ok(out)
}

/// The name as given, trimmed, or the template's name with the ticker.
fn name_of(request: &NewHeldStructure, symbol: &str) -> Result<String> {
    match request.name.as_deref().map(str::trim) {
        Some("") => Err(AppError::field("name", "Please enter a name, or leave it out")),
        Some(name) if name.chars().count() > MAX_NAME => Err(AppError::field("name", "At most 80 characters")),
        Some(name) if name.chars().any(char::is_control) => Err(AppError::field("name", "No control characters")),
        Some(name) => Ok(name.to_owned()),
        None => Ok(match request.template {
            Some(t) => format!("{symbol} {}", Template::from(t).name().replace('-', " ")),
            None => format!("{symbol} custom ({} legs)", request.legs.len()),
        }),
    }
}

/// Saves a multi-leg position to the portfolio (Premium), with entry prices as given or the
/// model's now; valued at once.
#[utoipa::path(
    post, path = "/api/portfolio/structures", operation_id = "create_held_structure", tag = "portfolio",
    request_body = NewHeldStructure,
    responses(
        (status = 201, body = HeldStructureView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 409, description = "Already 100 open multi-leg positions", body = Problem),
        (status = 422, description = "A field is not valid; `legs[i].field` names a leg's", body = Problem),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<NewHeldStructure>,
) -> Result<(StatusCode, axum::Json<HeldStructureView>)> {
    let now = state.clock.now();
    builder_entitlements(&user, now)?;
    let exercise = request.exercise.unwrap_or_default();
    let ctx = context(&state, &request.symbol, exercise, now).await?;
    let name = name_of(&request, &ctx.symbol)?;
    let legs = quant_legs(&state, &ctx, &request.legs)?;
    let mut errors = Vec::new();
    for (i, leg) in request.legs.iter().enumerate() {
        if leg.expiration_date.is_some_and(|d| d <= ctx.today) {
            errors.push(FieldError::new(format!("legs[{i}].expirationDate"), "A held position expires after today"));
        }
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    Structure::new(ctx.underlying, legs.clone()).and_then(|s| s.with_exercise(ctx.exercise)).map_err(refused)?;
    let id = uuid::Uuid::new_v4().to_string();
    let row = StructureRow {
        id: id.clone(),
        user_id: user.id.clone(),
        account_id: user.account_id.clone(),
        symbol: ctx.symbol.clone(),
        name,
        template: request.template.map(|t| t.as_str().to_owned()),
        exercise: exercise.as_str().to_owned(),
        status: PositionStatus::Open.as_str().to_owned(),
        pnl_cents: None,
        settled_price_cents: None,
        closed_at: None,
        created_at: now,
        updated_at: now,
    };
    let leg_rows: Vec<LegRow> = request
        .legs
        .iter()
        .zip(&legs)
        .enumerate()
        .map(|(i, (input, leg))| LegRow {
            position_id: id.clone(),
            user_id: user.id.clone(),
            leg_index: i as i64,
            instrument: input.instrument.as_str().to_owned(),
            side: input.side.as_str().to_owned(),
            quantity: i64::from(input.quantity),
            strike_cents: leg.strike.map(to_cents),
            expiration_date: input.expiration_date,
            volatility: input.volatility,
            entry_cents: to_cents(leg.entry_price),
        })
        .collect();
    if !structures::insert_within(&state.db, &row, &leg_rows, MAX_OPEN_STRUCTURES).await? {
        return Err(AppError::Conflict(FieldError::new("legs", "You hold 100 open multi-leg positions. Delete one to save another.")));
    }
    let held = structures::find(&state.db, &user.account_id, &id).await?;
    let mut pricing = Pricing::cached(&state).await?;
    Ok((StatusCode::CREATED, axum::Json(view(&state, &mut pricing, held, now).await?)))
}

/// The user's multi-leg positions, newest first, each valued now.
#[utoipa::path(
    get, path = "/api/portfolio/structures", operation_id = "list_held_structures", tag = "portfolio",
    responses((status = 200, body = Vec<HeldStructureView>), (status = 401, description = "Not signed in", body = Problem))
)]
pub async fn list(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<HeldStructureView>>> {
    let now = state.clock.now();
    let mut pricing = Pricing::cached(&state).await?;
    let mut out = Vec::new();
    for held in structures::for_account(&state.db, &user.account_id).await? {
        out.push(view(&state, &mut pricing, held, now).await?);
    }
    Ok(axum::Json(out))
}

/// One of the user's multi-leg positions, valued now.
#[utoipa::path(
    get, path = "/api/portfolio/structures/{id}", operation_id = "get_held_structure", tag = "portfolio",
    params(("id" = String, Path, description = "The position's id")),
    responses(
        (status = 200, body = HeldStructureView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such position of yours", body = Problem),
    )
)]
pub async fn detail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<HeldStructureView>> {
    let now = state.clock.now();
    let held = structures::find(&state.db, &user.account_id, &id).await?;
    let mut pricing = Pricing::cached(&state).await?;
    Ok(axum::Json(view(&state, &mut pricing, held, now).await?))
}

/// Deletes one of the user's multi-leg positions with its legs.
#[utoipa::path(
    delete, path = "/api/portfolio/structures/{id}", operation_id = "delete_held_structure", tag = "portfolio",
    params(("id" = String, Path, description = "The position's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such position of yours", body = Problem),
    )
)]
pub async fn delete(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    structures::delete(&state.db, &user.account_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
