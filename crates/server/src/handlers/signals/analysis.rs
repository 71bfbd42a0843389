//! The detail dialog's numbers and charts: the underlying's recent history with the strike,
//! target and stop levels, and the position's payoff at expiry and today.

use axum::extract::{Path, State};
use chrono::NaiveDate;
use serde::Serialize;
use strikeline_engine::underlying_levels;
use strikeline_quant::{BlackScholes, Drift, OptionInputs, PriceGrid, TradeAnalysis};
use strikeline_store::signals as store;
use utoipa::ToSchema;

use super::dto::{ModelEstimate, model_estimate};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Result};
use crate::foundation::money::dollars;
use crate::foundation::money::round2;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::views::{HistoryBar, PayoffPoint, payoff_points};
use crate::foundation::vocab::{SignalStatus, TradedStrategy, stored};
use crate::services::signal_issuing::open_signal;

/// Points on the payoff chart.
const GRID_POINTS: usize = 81;

/// Everything the signal detail charts need.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignalAnalysis {
    /// The underlying's last 90 sessions.
    pub history: Vec<HistoryBar>,
    pub strike: f64,
    pub expiration_date: NaiveDate,
    /// Underlying prices at expiry where the P&L is zero.
    pub breakevens: Vec<f64>,
    /// Per contract (the premium paid × 100).
    pub max_loss: f64,
    /// Per contract; `null` when unlimited.
    pub max_gain: Option<f64>,
    /// Under the lognormal model at the pricing volatility, risk-neutral drift (0–1).
    pub probability_of_profit: f64,
    /// One standard deviation of the underlying to expiry, in dollars.
    pub expected_move: f64,
    /// Underlying prices at which the option would be worth the target today.
    pub underlying_target: Vec<f64>,
    /// Underlying prices at which the option would fall to the stop today.
    pub underlying_stop: Vec<f64>,
    pub payoff: Vec<PayoffPoint>,
    /// The risk-neutral probability of profit when the signal was issued (0–1), the one the
    /// track record calibrates; `null` for signals stored before it was recorded.
    pub probability_of_profit_at_issue: Option<f64>,
    /// How often the strategy's live signals of the same strength decile won.
    pub decile_record: DecileRecord,
    /// The predictive model's probability that this signal wins, given at issue (Premium);
    /// `null` on other plans or when no shipping model scored it.
    pub model: Option<ModelEstimate>,
    /// Whether the viewer's plan includes the model's probability.
    pub model_included: bool,
}

/// The resolved live signals of one strategy whose strength falls in one decile (90–100 is the
/// last), and how many won (net P&L after costs above zero).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecileRecord {
    /// A custom strategy's record is empty: only the house rules' live signals are recorded.
    pub strategy: TradedStrategy,
    /// The decile's strengths, inclusive.
    pub low: i64,
    pub high: i64,
    pub n: i64,
    pub wins: i64,
    /// `wins / n` (0–1); `null` under the track record's minimum sample of 30.
    pub hit_rate: Option<f64>,
    /// Its 95% Wilson score interval; `null` with the hit rate.
    pub wilson_low: Option<f64>,
    pub wilson_high: Option<f64>,
}

/// The decile record of `row`'s strategy and strength.
async fn decile_record(state: &AppState, row: &store::SignalRow) -> Result<DecileRecord> {
    let strategy = stored::<TradedStrategy>(&row.strategy, format_args!("signal {}", row.id))?;
    let low = (row.confidence.clamp(0, 99) / 10) * 10;
    let high = if low == 90 { 100 } else { low + 9 };
    let (n, wins) = store::live_record_in_range(&state.db, &row.strategy, low, high).await?;
    let enough = n >= crate::services::track_record::calibration::MINIMUM_SAMPLE as i64;
    let (count, won) = (usize::try_from(n).unwrap_or(0), usize::try_from(wins).unwrap_or(0));
    let interval =
        if enough { strikeline_quant::calibration::wilson(won, count, strikeline_quant::calibration::Z_95).ok().flatten() } else { None };
    Ok(DecileRecord {
        strategy,
        low,
        high,
        n,
        wins,
        hit_rate: enough.then(|| wins as f64 / n as f64),
        wilson_low: interval.map(|w| w.0),
        wilson_high: interval.map(|w| w.1),
    })
}

/// The detail analysis of one signal: history, levels, breakevens, probability of profit and
/// the payoff chart. A signal the plan has locked is refused (403).
#[utoipa::path(
    get, path = "/api/signals/{id}/analysis", tag = "signals",
    params(("id" = String, Path, description = "Signal id")),
    responses(
        (status = 200, body = SignalAnalysis),
        (status = 403, description = "Locked by the plan's daily quota", body = crate::foundation::error::Problem),
        (status = 404, description = "No such signal", body = crate::foundation::error::Problem),
    )
)]
pub async fn analysis(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<SignalAnalysis>> {
    let row = store::find(&state.db, &id).await?.ok_or(AppError::NotFound)?;
    match &row.owner_id {
        Some(owner) if *owner != user.id => return Err(AppError::NotFound),
        Some(_) => {}
        None => {
            let viewer = crate::services::visibility::Viewer::of(&state, &user, row.issued_on, state.clock.now()).await?;
            if !viewer.unlocks(&row, store::day_rank(&state.db, &row).await?) {
                return Err(AppError::Forbidden("This signal is beyond your plan's daily quota. Upgrade to see it.".into()));
            }
        }
    }
    let now = state.clock.now();
    let model_included = Entitlements::of(&user, now).allows(Capability::PredictiveAnalysis);
    let open = open_signal(&row).ok_or_else(|| AppError::Internal(anyhow::anyhow!("stored signal {id} has an unknown type")))?;
    let kind = open.signal_type.option_type();
    let spot = dollars(row.current_price_cents);
    let years = if row.status == SignalStatus::Active.as_str() { state.market.years_to_expiry(row.expiration_date, now) } else { 0.0 };
    let internal = |e: strikeline_quant::InputError| AppError::Internal(anyhow::anyhow!("analysis of {id}: {e}"));
    let model = BlackScholes::new(OptionInputs {
        spot,
        strike: open.strike,
        rate: state.market.assumptions.rate,
        dividend_yield: state.market.assumptions.dividend_yield,
        volatility: open.volatility,
        time_to_expiry: years,
    })
    .map_err(internal)?;
    let trade = TradeAnalysis::new(model, kind, open.entry_price).map_err(internal)?;
    let summary = trade.summary(Drift::RISK_NEUTRAL);
    let grid = PriceGrid::around(spot, 0.3, GRID_POINTS).map_err(internal)?;
    let inputs = OptionInputs {
        spot,
        strike: open.strike,
        rate: state.market.assumptions.rate,
        dividend_yield: state.market.assumptions.dividend_yield,
        volatility: open.volatility,
        time_to_expiry: years,
    };
    let payoff = payoff_points(inputs, kind, open.entry_price, 100.0, &grid).map_err(internal)?;
    let levels = underlying_levels(&open, years, state.market.assumptions).map_err(internal)?;
    let through = state.market.today(now);
    let history =
        strikeline_store::market::last_bars(&state.db, &row.symbol, through, 90).await?.into_iter().map(HistoryBar::from).collect();
    Ok(axum::Json(SignalAnalysis {
        history,
        strike: open.strike,
        expiration_date: row.expiration_date,
        breakevens: summary.breakevens.iter().map(|b| round2(*b)).collect(),
        max_loss: round2(summary.max_loss * 100.0),
        max_gain: summary.max_gain.map(|g| round2(g * 100.0)),
        probability_of_profit: (summary.probability_of_profit * 10_000.0).round() / 10_000.0,
        expected_move: round2(summary.expected_move),
        underlying_target: levels.target.iter().map(|l| round2(*l)).collect(),
        underlying_stop: levels.stop.iter().map(|l| round2(*l)).collect(),
        payoff,
        probability_of_profit_at_issue: row.issue_probability,
        decile_record: decile_record(&state, &row).await?,
        model: if model_included { model_estimate(&row) } else { None },
        model_included,
    }))
}
