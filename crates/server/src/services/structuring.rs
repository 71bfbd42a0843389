//! Multi-leg positions on a tracked stock, as the strategy builder and the portfolio take
//! them: the legs as entered (`LegInput`, named templates), the market they are valued in
//! (spot, the stock's volatility estimate, the rate and dividend yield, the exercise style)
//! and their conversion to `strikeline_quant::structure` legs with every refused field named
//! by its path (`legs[1].strike`).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_engine::portfolio::{HeldLeg, StructureHolding, StructureValuation};
use strikeline_quant::Field;
use strikeline_quant::american::Exercise;
use strikeline_quant::structure::{self as quant, StructureError, Template, Underlying};
use strikeline_store::market as store;
use strikeline_store::structures::HeldStructure;
use utoipa::ToSchema;

use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::input::{Symbol, SymbolError};
use crate::foundation::money::{MAX_PRICE, dollars, entered_cents, round2};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{ExerciseStyle, Instrument, Side, TemplateName, stored};

/// The most contracts (or, for stock, shares ÷ 100) in one leg.
pub const MAX_CONTRACTS: u32 = 10_000;
/// The furthest expiration the builder prices, in days from today.
pub const MAX_DAYS: i64 = 3 * 365;

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

/// The market one analysis runs in.
pub struct Context {
    pub symbol: String,
    pub underlying: Underlying,
    pub today: NaiveDate,
    pub now: DateTime<Utc>,
    pub exercise: Exercise,
}

pub async fn context(state: &AppState, raw_symbol: &str, exercise: ExerciseStyle, now: DateTime<Utc>) -> Result<Context> {
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
pub fn expiration_years(state: &AppState, ctx: &Context, field: &str, date: NaiveDate, errors: &mut Vec<FieldError>) -> f64 {
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
pub fn quant_legs(state: &AppState, ctx: &Context, legs: &[LegInput]) -> Result<Vec<quant::Leg>> {
    let mut errors = Vec::new();
    if legs.is_empty() || legs.len() > quant::MAX_LEGS {
        return Err(AppError::field("legs", &format!("A position has 1 to {} legs", quant::MAX_LEGS)));
    }
    let mut out = Vec::with_capacity(legs.len());
    for (i, leg) in legs.iter().enumerate() {
        let path = |name: &str| format!("legs[{i}].{name}");
        let side = leg.side.into();
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
pub fn model_price(ctx: &Context, instrument: quant::Instrument, strike: f64, years: f64, volatility: f64) -> f64 {
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
pub fn refused(error: StructureError) -> AppError {
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

/// A stored structure as the engine holds it (`sector` for the risk assessment's
/// concentration).
pub fn holding(state: &AppState, held: &HeldStructure, sector: &str) -> Result<StructureHolding> {
    let row = &held.row;
    let what = || format!("structure {}", row.id);
    let exercise: ExerciseStyle = stored(&row.exercise, what())?;
    let legs = held
        .legs
        .iter()
        .map(|leg| {
            let instrument: Instrument = stored(&leg.instrument, what())?;
            let side: Side = stored(&leg.side, what())?;
            Ok(HeldLeg {
                instrument: instrument.into(),
                side: side.into(),
                quantity: u32::try_from(leg.quantity).unwrap_or(1),
                strike: leg.strike_cents.map(dollars),
                expiration: leg.expiration_date,
                volatility: leg.volatility,
                entry_price: dollars(leg.entry_cents),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(StructureHolding {
        symbol: row.symbol.clone(),
        sector: sector.to_owned(),
        legs,
        exercise: exercise.into(),
        opened_on: state.market.today(row.created_at),
    })
}

/// A stored structure valued with the underlying at `spot` on `as_of` (at its first
/// expiration from then on), legs without their own volatility at `volatility`: its holding
/// (for the risk view) and its valuation.
pub fn valued(
    state: &AppState,
    held: &HeldStructure,
    sector: &str,
    spot: f64,
    as_of: NaiveDate,
    volatility: f64,
) -> Result<(StructureHolding, StructureValuation)> {
    let holding = holding(state, held, sector)?;
    let valuation = holding
        .value(spot, as_of, volatility, state.market.assumptions)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("valuing structure {} on {as_of}: {e}", held.row.id)))?;
    Ok((holding, valuation))
}

impl From<Instrument> for quant::Instrument {
    fn from(instrument: Instrument) -> quant::Instrument {
        match instrument {
            Instrument::Call => quant::Instrument::Call,
            Instrument::Put => quant::Instrument::Put,
            Instrument::Stock => quant::Instrument::Stock,
        }
    }
}

impl From<Side> for quant::Side {
    fn from(side: Side) -> quant::Side {
        match side {
            Side::Long => quant::Side::Long,
            Side::Short => quant::Side::Short,
        }
    }
}
