//! The strategy builder's numbers (Premium): a multi-leg position on a tracked stock,
//! analysed at its first expiry and at a date before it, and the named templates built on
//! today's price. The math is `strikeline_quant::structure`; the legs and the market they are
//! valued in come from `services::structuring`.

use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_quant::structure::{self as quant, Extreme, Structure, Template, TemplateInputs};
use strikeline_quant::{Field, PriceGrid};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::money::{MAX_PRICE, dollars, entered_cents, round2};
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::ExerciseStyle;
use crate::foundation::vocab::{Instrument, Side, TemplateName};
use crate::services::structuring::{Context, LegInput, MAX_CONTRACTS, context, expiration_years, model_price, quant_legs, refused};

mod held;

pub use held::MAX_OPEN_STRUCTURES;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(analyse))
        .routes(routes!(from_template))
        .routes(routes!(held::create, held::list))
        .routes(routes!(held::detail, held::delete))
}

/// Points on the payoff chart.
const GRID_POINTS: usize = 81;
/// The scenario grid's prices, as multiples of the spot, and volatility shifts.
const SCENARIO_MOVES: [f64; 7] = [0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15];
const SCENARIO_SHIFTS: [f64; 5] = [-0.1, -0.05, 0.0, 0.05, 0.1];

/// `POST /api/structures/analysis`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalysisRequest {
    /// A tracked stock's ticker.
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    /// One to eight legs, at least one an option.
    #[schema(min_items = 1, max_items = 8)]
    pub legs: Vec<LegInput>,
    /// The date of the second payoff line and of the Greeks: today when absent, at the latest
    /// the first expiration.
    pub horizon_date: Option<NaiveDate>,
    /// Added to every leg's implied volatility for that line and the Greeks (−0.5 to 0.5;
    /// 0.05 = five points up).
    #[schema(minimum = -0.5, maximum = 0.5)]
    pub volatility_shift: Option<f64>,
    /// American (the default, as US equity options are) or European.
    pub exercise: Option<ExerciseStyle>,
}

/// A leg as analysed: the entry price resolved, and its model value per share today.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegView {
    #[serde(flatten)]
    pub leg: LegInput,
    /// The model's value per share today, in the analysis' exercise style (the stock's price
    /// for stock).
    pub model_price: f64,
}

/// The largest profit or loss at the first expiry.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtremeView {
    /// No limit (the P&L grows or falls without bound as the price rises).
    pub unbounded: bool,
    /// Dollars for the whole position (a loss is negative); `null` when unbounded.
    pub pnl: Option<f64>,
    /// The underlying's price where it is reached: 0 as the price falls to zero; `null` when
    /// unbounded or only approached as the price rises without limit.
    pub spot: Option<f64>,
}

impl From<Extreme> for ExtremeView {
    fn from(extreme: Extreme) -> Self {
        match extreme {
            Extreme::Unbounded => ExtremeView { unbounded: true, pnl: None, spot: None },
            Extreme::At { pnl, spot } => ExtremeView { unbounded: false, pnl: Some(round2(pnl)), spot },
        }
    }
}

/// Prices at the first expiry where the position makes money.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfitRangeView {
    pub from: f64,
    /// `null`: no upper end.
    pub to: Option<f64>,
}

/// The position at its first expiry.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpiryView {
    pub max_profit: ExtremeView,
    pub max_loss: ExtremeView,
    /// Underlying prices where the P&L is zero, ascending (root-found to 1e-9, not rounded).
    pub breakevens: Vec<f64>,
    pub profitable_ranges: Vec<ProfitRangeView>,
    /// Risk-neutral probability (0–1) that the price at the first expiry lies in a profitable
    /// range, at the stock's volatility estimate.
    pub probability_of_profit: f64,
}

/// The position's Greeks at the horizon date, dollars for the whole position.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PositionGreeks {
    /// Share-equivalents: the P&L per $1 move of the underlying.
    pub delta: f64,
    /// Change of delta per $1 move.
    pub gamma: f64,
    /// P&L per one volatility point up on every leg.
    pub vega: f64,
    /// P&L per calendar day passing.
    pub theta: f64,
    /// P&L per one point of the interest rate.
    pub rho: f64,
}

impl PositionGreeks {
    /// The whole position's Greeks in their display units, rounded for the answer (gamma to
    /// four places, the others to cents).
    fn rounded(delta: f64, gamma: f64, vega: f64, theta: f64, rho: f64) -> PositionGreeks {
        PositionGreeks {
            delta: round2(delta),
            gamma: (gamma * 1e4).round() / 1e4,
            vega: round2(vega),
            theta: round2(theta),
            rho: round2(rho),
        }
    }
}

impl From<strikeline_quant::structure::ExpiryAnalysis> for ExpiryView {
    fn from(e: strikeline_quant::structure::ExpiryAnalysis) -> Self {
        ExpiryView {
            max_profit: e.max_profit.into(),
            max_loss: e.max_loss.into(),
            breakevens: e.breakevens,
            profitable_ranges: e.profitable.iter().map(|r| ProfitRangeView { from: r.from, to: r.to }).collect(),
            probability_of_profit: e.probability_of_profit,
        }
    }
}

/// One point of the payoff chart.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StructurePayoffPoint {
    pub spot: f64,
    /// P&L at the first expiry.
    pub at_expiry: f64,
    /// P&L at the horizon date with the volatility shift.
    pub at_horizon: f64,
}

/// P&L at the horizon date for prices (rows) × volatility shifts (columns).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioGrid {
    pub spots: Vec<f64>,
    pub volatility_shifts: Vec<f64>,
    pub pnl: Vec<Vec<f64>>,
}

/// `POST /api/structures/analysis`'s answer. Dollars for the whole position unless a field
/// says per share.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StructureAnalysis {
    pub symbol: String,
    /// The stock's last price.
    pub spot: f64,
    /// The stock's volatility estimate: legs without their own, and the probability.
    pub volatility: f64,
    pub rate: f64,
    pub dividend_yield: f64,
    pub first_expiration: NaiveDate,
    pub horizon_date: NaiveDate,
    pub volatility_shift: f64,
    pub exercise: ExerciseStyle,
    pub legs: Vec<LegView>,
    /// What opening costs: positive for a net debit, negative for a net credit.
    pub net_premium: f64,
    pub at_expiry: ExpiryView,
    pub greeks: PositionGreeks,
    pub payoff: Vec<StructurePayoffPoint>,
    pub scenarios: ScenarioGrid,
}

fn builder_entitlements(user: &strikeline_store::users::UserRecord, now: DateTime<Utc>) -> Result<()> {
    Entitlements::of(user, now).require(Capability::StrategyBuilder)
}

/// Analyses a multi-leg position on a tracked stock (Premium): the maximum profit and loss,
/// breakevens, profitable ranges and probability of profit at the first expiry; the Greeks,
/// a payoff line and a price × volatility grid at the horizon date.
#[utoipa::path(
    post, path = "/api/structures/analysis", operation_id = "analyse_structure", tag = "strategy-builder",
    request_body = AnalysisRequest,
    responses(
        (status = 200, body = StructureAnalysis),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 422, description = "A field is not valid; `legs[i].field` names a leg's", body = Problem),
        (status = 429, description = "Over the analysis limit; see Retry-After", body = Problem),
    )
)]
async fn analyse(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<AnalysisRequest>,
) -> Result<(limits::RateLimit, axum::Json<StructureAnalysis>)> {
    let now = state.clock.now();
    // The plan is judged before the fields.
    builder_entitlements(&user, now)?;
    let limit = limits::hit(&state, limits::STRUCTURE_ANALYSIS, &user.id, now).await?;
    let shift = request.volatility_shift.unwrap_or(0.0);
    if !(-0.5..=0.5).contains(&shift) {
        return Err(AppError::field("volatilityShift", "From -0.5 to 0.5 (50 points down to 50 up)"));
    }
    let ctx = context(&state, &request.symbol, request.exercise.unwrap_or_default(), now).await?;
    let legs = quant_legs(&state, &ctx, &request.legs)?;
    let structure = Structure::new(ctx.underlying, legs).and_then(|s| s.with_exercise(ctx.exercise)).map_err(refused)?;
    let first_expiration = request
        .legs
        .iter()
        .filter_map(|l| l.expiration_date)
        .min()
        .ok_or_else(|| AppError::field("legs", "A position needs at least one option leg"))?;
    let horizon_date = request.horizon_date.unwrap_or(ctx.today);
    let horizon = if horizon_date < ctx.today {
        return Err(AppError::field("horizonDate", "Must be today or later"));
    } else if horizon_date == ctx.today {
        0.0
    } else if horizon_date >= first_expiration {
        if horizon_date > first_expiration {
            return Err(AppError::field("horizonDate", &format!("At the latest the first expiration, {first_expiration}")));
        }
        structure.first_expiry()
    } else {
        state.market.years_to_expiry(horizon_date, now).min(structure.first_expiry())
    };
    Ok((limit, axum::Json(answer(&ctx, &request, &structure, horizon_date, horizon, shift, first_expiration)?)))
}

fn answer(
    ctx: &Context,
    request: &AnalysisRequest,
    structure: &Structure,
    horizon_date: NaiveDate,
    horizon: f64,
    shift: f64,
    first_expiration: NaiveDate,
) -> Result<StructureAnalysis> {
    let u = ctx.underlying;
    let strikes = structure.legs().iter().filter_map(|l| l.strike);
    let low = strikes.clone().fold(u.spot, f64::min) * 0.7;
    let high = strikes.fold(u.spot, f64::max) * 1.3;
    let grid = PriceGrid::new(low, high, GRID_POINTS).map_err(|e| AppError::field("legs", &e.to_string()))?;
    let at_expiry = structure.pnl_curve(&grid, structure.first_expiry(), 0.0).map_err(refused)?;
    let at_horizon = structure.pnl_curve(&grid, horizon, shift).map_err(refused)?;
    let payoff = at_expiry
        .iter()
        .zip(&at_horizon)
        .map(|(e, h)| StructurePayoffPoint { spot: round2(e.spot), at_expiry: round2(e.pnl), at_horizon: round2(h.pnl) })
        .collect();
    // Shifts that would take a leg's volatility to zero or below are left out.
    let lowest =
        structure.legs().iter().filter_map(|l| l.strike.map(|_| l.volatility.unwrap_or(u.volatility))).fold(f64::INFINITY, f64::min);
    let shifts: Vec<f64> = SCENARIO_SHIFTS.into_iter().filter(|s| lowest + s >= 0.01).collect();
    let spots: Vec<f64> = SCENARIO_MOVES.iter().map(|m| round2(u.spot * m)).collect();
    let pnl = structure
        .scenarios(&spots, &shifts, horizon)
        .map_err(refused)?
        .into_iter()
        .map(|row| row.into_iter().map(round2).collect())
        .collect();
    let g = structure.greeks(u.spot, horizon, shift).map_err(refused)?;
    let e = structure.at_expiry();
    let legs = request
        .legs
        .iter()
        .zip(structure.legs())
        .map(|(input, leg)| LegView {
            leg: LegInput { entry_price: Some(leg.entry_price), ..input.clone() },
            model_price: match (leg.strike, leg.expiry) {
                (Some(strike), Some(years)) => model_price(ctx, leg.instrument, strike, years, leg.volatility.unwrap_or(u.volatility)),
                _ => u.spot,
            },
        })
        .collect();
    Ok(StructureAnalysis {
        symbol: ctx.symbol.clone(),
        spot: u.spot,
        volatility: u.volatility,
        rate: u.rate,
        dividend_yield: u.dividend_yield,
        first_expiration,
        horizon_date,
        volatility_shift: shift,
        exercise: request.exercise.unwrap_or_default(),
        legs,
        net_premium: round2(structure.net_premium()),
        at_expiry: e.into(),
        greeks: PositionGreeks::rounded(g.delta, g.gamma, g.vega_per_vol_point(), g.theta_per_day(), g.rho_per_rate_point()),
        payoff,
        scenarios: ScenarioGrid { spots, volatility_shifts: shifts, pnl },
    })
}

/// `POST /api/structures/template`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateRequest {
    /// A tracked stock's ticker.
    #[schema(example = "AAPL", pattern = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$")]
    pub symbol: String,
    pub template: TemplateName,
    /// The (near) expiration; the first listed one at least 21 days away when absent.
    pub expiration_date: Option<NaiveDate>,
    /// A calendar's or diagonal's far expiration; the first listed one at least 28 days after
    /// the near one when absent.
    pub far_expiration_date: Option<NaiveDate>,
    /// Dollars between strikes (whole cents); about 5% of the price, on the strike grid, when
    /// absent.
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub width: Option<f64>,
    /// How many of the template (1–10,000).
    #[schema(minimum = 1, maximum = 10_000)]
    pub contracts: Option<u32>,
    /// Whether the premiums are American (the default) or European model prices.
    pub exercise: Option<ExerciseStyle>,
}

/// The template's legs, priced at the model's value today.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateLegs {
    pub template: TemplateName,
    pub legs: Vec<LegInput>,
}

/// The listed strikes' spacing at `price`: $0.50 under $25, $1 under $100, $2.50 under $250,
/// $5 above.
fn strike_step(price: f64) -> f64 {
    match price {
        p if p < 25.0 => 0.5,
        p if p < 100.0 => 1.0,
        p if p < 250.0 => 2.5,
        _ => 5.0,
    }
}

/// Builds a named structure on a tracked stock (Premium): strikes on the listed grid around
/// the last price, expirations from the exchange calendar, premiums at the model's value.
#[utoipa::path(
    post, path = "/api/structures/template", operation_id = "structure_template", tag = "strategy-builder",
    request_body = TemplateRequest,
    responses(
        (status = 200, body = TemplateLegs),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Not the Premium plan", body = Problem),
        (status = 422, description = "A field is not valid", body = Problem),
        (status = 429, description = "Over the analysis limit; see Retry-After", body = Problem),
    )
)]
async fn from_template(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(request): ApiJson<TemplateRequest>,
) -> Result<(limits::RateLimit, axum::Json<TemplateLegs>)> {
    let now = state.clock.now();
    builder_entitlements(&user, now)?;
    let limit = limits::hit(&state, limits::STRUCTURE_ANALYSIS, &user.id, now).await?;
    let ctx = context(&state, &request.symbol, request.exercise.unwrap_or_default(), now).await?;
    let template = Template::from(request.template);
    let mut errors = Vec::new();
    let contracts = request.contracts.unwrap_or(1);
    if contracts == 0 || contracts > MAX_CONTRACTS {
        errors.push(FieldError::new("contracts", format!("From 1 to {MAX_CONTRACTS}")));
    }
    let step = strike_step(ctx.underlying.spot);
    let width = match request.width {
        Some(w) => dollars(entered_cents("width", w, MAX_PRICE, &mut errors)),
        None => (ctx.underlying.spot * 0.05 / step).round().max(1.0) * step,
    };
    let near = request.expiration_date.unwrap_or_else(|| state.market.expiration(ctx.today, 21));
    let far = request.far_expiration_date.unwrap_or_else(|| state.market.expiration(near, 28));
    let near_years = expiration_years(&state, &ctx, "expirationDate", near, &mut errors);
    let far_years = if template.uses_far_expiry() { expiration_years(&state, &ctx, "farExpirationDate", far, &mut errors) } else { 0.0 };
    if template.uses_far_expiry() && errors.is_empty() && far <= near {
        errors.push(FieldError::new("farExpirationDate", "After the near expiration"));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let center = (ctx.underlying.spot / step).round() * step;
    let inputs = TemplateInputs { center, width, expiry: near_years, far_expiry: far_years, contracts, exercise: ctx.exercise };
    let legs = template.legs(ctx.underlying, inputs).map_err(|e| match e.field() {
        Some(Field::Width | Field::Strike) => {
            AppError::field("width", &format!("Too wide for a price of {:.2}: every strike must stay above 0", ctx.underlying.spot))
        }
        _ => AppError::field("template", &e.to_string()),
    })?;
    let legs = legs
        .into_iter()
        .map(|leg| {
            let instrument = match leg.instrument {
                quant::Instrument::Call => Instrument::Call,
                quant::Instrument::Put => Instrument::Put,
                quant::Instrument::Stock => Instrument::Stock,
            };
            let expiration_date = leg.expiry.map(|t| if (t - near_years).abs() < 1e-12 { near } else { far });
            LegInput {
                instrument,
                side: if leg.side == quant::Side::Long { Side::Long } else { Side::Short },
                quantity: leg.quantity,
                strike: leg.strike.map(round2),
                expiration_date,
                volatility: None,
                entry_price: Some(leg.entry_price.max(0.01)),
            }
        })
        .collect();
    Ok((limit, axum::Json(TemplateLegs { template: request.template, legs })))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The API's names are the quant crate's, both ways: every template has one, and each name
    /// maps back to its template.
    #[test]
    fn every_template_has_its_api_name() {
        for template in Template::ALL {
            let name: TemplateName = serde_json::from_value(serde_json::json!(template.name())).expect("an API name");
            assert_eq!(Template::from(name), template);
        }
    }

    #[test]
    fn strikes_are_spaced_as_listed() {
        assert_eq!([strike_step(12.0), strike_step(99.99), strike_step(100.0), strike_step(400.0)], [0.5, 1.0, 2.5, 5.0]);
    }
}
