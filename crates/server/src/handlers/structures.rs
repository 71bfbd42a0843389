//! The strategy builder's numbers (Premium): a multi-leg position on a tracked stock,
//! analysed at its first expiry and at a date before it, and the named templates built on
//! today's price. The math is `strikeline_quant::structure`; this module resolves the
//! market (spot, the stock's volatility estimate, the rate) and the calendar (expiration
//! dates to years), and names every refused field by its path (`legs[1].strike`).

use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_quant::american::Exercise;
use strikeline_quant::structure::{self as quant, Extreme, Structure, StructureError, Template, TemplateInputs, Underlying};
use strikeline_quant::{Field, PriceGrid};
use strikeline_store::market as store;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::input::{Symbol, SymbolError};
use crate::foundation::limits;
use crate::foundation::money::{MAX_PRICE, dollars, entered_cents, round2};
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::ExerciseStyle;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(analyse)).routes(routes!(from_template))
}

/// The most contracts (or, for stock, shares ÷ 100) in one leg.
const MAX_CONTRACTS: u32 = 10_000;
/// The furthest expiration the builder prices, in days from today.
const MAX_DAYS: i64 = 3 * 365;
/// Points on the payoff chart.
const GRID_POINTS: usize = 81;
/// The scenario grid's prices, as multiples of the spot, and volatility shifts.
const SCENARIO_MOVES: [f64; 7] = [0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15];
const SCENARIO_SHIFTS: [f64; 5] = [-0.1, -0.05, 0.0, 0.05, 0.1];

/// What a leg holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Instrument {
    Call,
    Put,
    Stock,
}

/// Bought or sold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Side {
    Long,
    Short,
}

/// A named structure (see `docs/strategy-builder.md` for the legs of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TemplateName {
    LongCall,
    ShortCall,
    LongPut,
    ShortPut,
    CoveredCall,
    ProtectivePut,
    Collar,
    BullCallSpread,
    BearCallSpread,
    BullPutSpread,
    BearPutSpread,
    Straddle,
    Strangle,
    IronCondor,
    IronButterfly,
    CallButterfly,
    PutButterfly,
    Calendar,
    Diagonal,
}

impl From<TemplateName> for Template {
    fn from(name: TemplateName) -> Template {
        match name {
            TemplateName::LongCall => Template::LongCall,
            TemplateName::ShortCall => Template::ShortCall,
            TemplateName::LongPut => Template::LongPut,
            TemplateName::ShortPut => Template::ShortPut,
            TemplateName::CoveredCall => Template::CoveredCall,
            TemplateName::ProtectivePut => Template::ProtectivePut,
            TemplateName::Collar => Template::Collar,
            TemplateName::BullCallSpread => Template::BullCallSpread,
            TemplateName::BearCallSpread => Template::BearCallSpread,
            TemplateName::BullPutSpread => Template::BullPutSpread,
            TemplateName::BearPutSpread => Template::BearPutSpread,
            TemplateName::Straddle => Template::Straddle,
            TemplateName::Strangle => Template::Strangle,
            TemplateName::IronCondor => Template::IronCondor,
            TemplateName::IronButterfly => Template::IronButterfly,
            TemplateName::CallButterfly => Template::CallButterfly,
            TemplateName::PutButterfly => Template::PutButterfly,
            TemplateName::Calendar => Template::Calendar,
            TemplateName::Diagonal => Template::Diagonal,
        }
    }
}

/// One leg. An option needs `strike` and `expirationDate`; stock has neither (nor a
/// volatility).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LegInput {
    pub instrument: Instrument,
    pub side: Side,
    /// Contracts (100 shares each) for an option; shares for stock (up to 1,000,000).
    #[schema(minimum = 1, maximum = 1_000_000)]
    pub quantity: u32,
    /// An option's strike, dollars (whole cents).
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub strike: Option<f64>,
    /// An option's expiration: a trading day after today, within three years.
    pub expiration_date: Option<NaiveDate>,
    /// An option's implied volatility (0.01–5; 0.3 = 30%); the stock's estimate when absent.
    #[schema(minimum = 0.01, maximum = 5.0)]
    pub volatility: Option<f64>,
    /// Paid (long) or received (short) per share, dollars: the premium or the stock's price.
    /// The model's price (or the last price, for stock) when absent.
    #[schema(minimum = 0.01, maximum = 1_000_000.0, multiple_of = 0.01)]
    pub entry_price: Option<f64>,
}

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

/// The market one analysis runs in.
struct Context {
    symbol: String,
    underlying: Underlying,
    today: NaiveDate,
    now: DateTime<Utc>,
    exercise: Exercise,
}

async fn context(state: &AppState, raw_symbol: &str, exercise: ExerciseStyle, now: DateTime<Utc>) -> Result<Context> {
    let symbol = match Symbol::parse(raw_symbol) {
        Ok(symbol) => symbol,
        Err(SymbolError::Blank) => return Err(AppError::field("symbol", "Please enter a stock symbol")),
        Err(error) => return Err(AppError::Validation(vec![error.on("symbol")])),
    };
    let Some(stock) = store::find_stock(&state.db, symbol.as_str()).await? else {
        return Err(AppError::field("symbol", "Not a tracked stock: add it to the watchlist first"));
    };
    let volatility = crate::foundation::cache::volatilities(state)
        .await?
        .get(&stock.symbol)
        .copied()
        .unwrap_or_else(|| strikeline_engine::pricing_volatility(f64::NAN));
    let assumptions = state.market.assumptions;
    let underlying = Underlying {
        spot: dollars(stock.current_price_cents),
        rate: assumptions.rate,
        dividend_yield: assumptions.dividend_yield,
        volatility,
    };
    Ok(Context { symbol: stock.symbol, underlying, today: state.market.today(now), now, exercise: exercise.into() })
}

/// The years from now to `date`'s close, checked as an expiration: after today's close,
/// within three years.
fn expiration_years(state: &AppState, ctx: &Context, field: &str, date: NaiveDate, errors: &mut Vec<FieldError>) -> f64 {
    if (date - ctx.today).num_days() > MAX_DAYS {
        errors.push(FieldError::new(field, "At most three years away"));
        return 0.0;
    }
    let years = state.market.years_to_expiry(date, ctx.now);
    if years <= 0.0 {
        errors.push(FieldError::new(field, "This expiration has passed"));
    } else if state.market.calendar.session(date).is_none() {
        errors.push(FieldError::new(field, "Not a trading day: options expire on a session"));
    }
    years
}

/// The request's legs for the quant crate, with every problem named by its path.
fn quant_legs(state: &AppState, ctx: &Context, legs: &[LegInput]) -> Result<Vec<quant::Leg>> {
    let mut errors = Vec::new();
    if legs.is_empty() || legs.len() > quant::MAX_LEGS {
        return Err(AppError::field("legs", &format!("A position has 1 to {} legs", quant::MAX_LEGS)));
    }
    let mut out = Vec::with_capacity(legs.len());
    for (i, leg) in legs.iter().enumerate() {
        let path = |name: &str| format!("legs[{i}].{name}");
        let side = match leg.side {
            Side::Long => quant::Side::Long,
            Side::Short => quant::Side::Short,
        };
        let most = if leg.instrument == Instrument::Stock { quant::MAX_QUANTITY } else { MAX_CONTRACTS };
        if leg.quantity == 0 || leg.quantity > most {
            errors.push(FieldError::new(path("quantity"), format!("From 1 to {most}")));
        }
        let entry = leg.entry_price.map(|p| dollars(entered_cents(&path("entryPrice"), p, MAX_PRICE, &mut errors)));
        if let Some(v) = leg.volatility
            && !(0.01..=5.0).contains(&v)
        {
            errors.push(FieldError::new(path("volatility"), "From 0.01 to 5 (1% to 500%)"));
        }
        let instrument = match leg.instrument {
            Instrument::Stock => {
                for (given, name) in [
                    (leg.strike.is_some(), "strike"),
                    (leg.expiration_date.is_some(), "expirationDate"),
                    (leg.volatility.is_some(), "volatility"),
                ] {
                    if given {
                        errors.push(FieldError::new(path(name), "Stock has no strike, expiration or volatility"));
                    }
                }
                out.push(quant::Leg::stock(side, leg.quantity, entry.unwrap_or(ctx.underlying.spot)));
                continue;
            }
            Instrument::Call => quant::Instrument::Call,
            Instrument::Put => quant::Instrument::Put,
        };
        let strike = match leg.strike {
            Some(strike) => dollars(entered_cents(&path("strike"), strike, MAX_PRICE, &mut errors)),
            None => {
                errors.push(FieldError::new(path("strike"), "An option needs a strike"));
                0.0
            }
        };
        let years = match leg.expiration_date {
            Some(date) => expiration_years(state, ctx, &path("expirationDate"), date, &mut errors),
            None => {
                errors.push(FieldError::new(path("expirationDate"), "An option needs an expiration date"));
                0.0
            }
        };
        let volatility = leg.volatility.unwrap_or(ctx.underlying.volatility);
        let entry_price = entry.unwrap_or_else(|| model_price(ctx, instrument, strike, years, volatility));
        out.push(quant::Leg {
            instrument,
            side,
            quantity: leg.quantity,
            strike: Some(strike),
            expiry: Some(years),
            volatility: leg.volatility,
            entry_price,
        });
    }
    if errors.is_empty() { Ok(out) } else { Err(AppError::Validation(errors)) }
}

/// The model's value per share today in the context's exercise style, rounded to the cent (0
/// when an input is out of the model's range; the structure's own validation then names it).
fn model_price(ctx: &Context, instrument: quant::Instrument, strike: f64, years: f64, volatility: f64) -> f64 {
    let kind = match instrument {
        quant::Instrument::Put => strikeline_quant::OptionType::Put,
        _ => strikeline_quant::OptionType::Call,
    };
    let inputs = strikeline_quant::OptionInputs {
        spot: ctx.underlying.spot,
        strike,
        rate: ctx.underlying.rate,
        dividend_yield: ctx.underlying.dividend_yield,
        volatility,
        time_to_expiry: years,
    };
    ctx.exercise.price(inputs, kind).map_or(0.0, round2)
}

/// A structure error as a field error on the request's path.
fn refused(error: StructureError) -> AppError {
    let name = match error.field() {
        Some(Field::Strike) => "strike",
        Some(Field::TimeToExpiry) => "expirationDate",
        Some(Field::Volatility) => "volatility",
        Some(Field::Premium) => "entryPrice",
        Some(Field::Quantity) => "quantity",
        Some(Field::VolatilityShift) => return AppError::field("volatilityShift", &error.to_string()),
        Some(Field::Rate | Field::DividendYield) => {
            return AppError::field("exercise", "American options need a rate and dividend yield of at least 0: ask for European");
        }
        Some(Field::Horizon) => return AppError::field("horizonDate", &error.to_string()),
        _ => return AppError::field("legs", &error.to_string()),
    };
    match error.leg() {
        Some(i) => AppError::field(&format!("legs[{i}].{name}"), &error.to_string()),
        None => AppError::field("legs", &error.to_string()),
    }
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
        at_expiry: ExpiryView {
            max_profit: e.max_profit.into(),
            max_loss: e.max_loss.into(),
            breakevens: e.breakevens,
            profitable_ranges: e.profitable.iter().map(|r| ProfitRangeView { from: r.from, to: r.to }).collect(),
            probability_of_profit: e.probability_of_profit,
        },
        greeks: PositionGreeks {
            delta: round2(g.delta),
            gamma: (g.gamma * 1e4).round() / 1e4,
            vega: round2(g.vega_per_vol_point()),
            theta: round2(g.theta_per_day()),
            rho: round2(g.rho_per_rate_point()),
        },
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
