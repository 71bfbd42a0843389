//! One position in depth: value, Greeks, risk and performance, and its payoff chart. Both kinds
//! of position are valued by the engine's portfolio model at the current underlying price.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::portfolio::PositionValuation;
use strikeline_quant::{OptionInputs, PriceGrid};
use strikeline_store::positions::{AutomatedRow, ManualRow};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::error::{AppError, Result};
use crate::foundation::money::dollars;
use crate::foundation::money::round2;
use crate::foundation::state::AppState;
use crate::foundation::views::{PayoffPoint, payoff_points};
use crate::foundation::vocab::{PositionKind, PositionStatus, SignalKind, TradedStrategy, stored};
use crate::services::portfolio_settlement::Pricing;
use crate::services::portfolio_valuation::{Holding, automated_holding, manual_holding, value};

/// The signal (or, for a manual position, the contract) a position holds.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PositionSignal {
    pub symbol: String,
    pub company_name: String,
    #[serde(rename = "type")]
    pub position_type: SignalKind,
    pub strike_price: f64,
    pub expiration_date: NaiveDate,
    /// `null` for manual positions.
    pub strategy: Option<TradedStrategy>,
    pub confidence: Option<i64>,
    /// The option's premium per share now.
    pub current_option_price: f64,
    /// The underlying now.
    pub current_price: f64,
    pub target_price: Option<f64>,
    pub reasoning: Option<String>,
}

/// The whole position's Greeks: delta and gamma in shares, theta per calendar day, vega per
/// volatility point, rho per rate point.
#[derive(Debug, Serialize, ToSchema)]
pub struct GreeksView {
    pub delta: f64,
    pub gamma: f64,
    pub theta: f64,
    pub vega: f64,
    pub rho: f64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RiskMetrics {
    /// Dollars; the premium paid for a long option.
    pub max_loss: f64,
    /// Dollars; `null` when unlimited.
    pub max_gain: Option<f64>,
    /// Underlying prices at expiry where the position breaks even.
    pub breakeven: Vec<f64>,
    /// The position's cost as a percent of the user's investment capital.
    pub position_size: Option<f64>,
    /// Under the lognormal model at the pricing volatility (0–1).
    pub probability_of_profit: f64,
    pub risk_reward_ratio: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PerformanceView {
    /// Percent since entry.
    pub total_return: f64,
    /// Compounded to a year; `null` before 30 days held.
    pub annualized_return: Option<f64>,
    pub sharpe_ratio: Option<f64>,
    pub daily_return: Option<f64>,
    pub volatility: Option<f64>,
}

/// A position in depth (automated or manual).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PositionDetail {
    pub id: String,
    pub kind: PositionKind,
    pub signal: PositionSignal,
    pub quantity: i64,
    pub entry_price: f64,
    pub entry_date: NaiveDate,
    pub total_cost: f64,
    pub current_value: f64,
    pub unrealized_pnl: f64,
    pub unrealized_pnl_percent: f64,
    pub days_held: i64,
    pub status: PositionStatus,
    pub greeks: GreeksView,
    pub risk_metrics: RiskMetrics,
    pub performance: PerformanceView,
    /// The whole position's P&L across underlying prices, at expiry and today.
    pub payoff: Vec<PayoffPoint>,
}

/// The whole position's P&L across ±30 % of the underlying, at expiry and today.
pub fn payoff(state: &AppState, holding: &Holding, now: DateTime<Utc>) -> Vec<PayoffPoint> {
    let input = &holding.input;
    let years = state.market.years_to_expiry(input.expiration, now);
    let scale = 100.0 * f64::from(input.quantity);
    let inputs = OptionInputs {
        spot: holding.spot,
        strike: input.strike,
        rate: state.market.assumptions.rate,
        dividend_yield: state.market.assumptions.dividend_yield,
        volatility: input.volatility,
        time_to_expiry: years,
    };
    PriceGrid::around(holding.spot, 0.3, 61)
        .and_then(|grid| payoff_points(inputs, input.kind.option_type(), input.entry_price, scale, &grid))
        .unwrap_or_default()
}

/// The detail view of a valued holding.
#[expect(clippy::too_many_arguments, reason = "one position's facts, each named at the call")]
pub fn detail_view(
    state: &AppState,
    id: &str,
    kind: PositionKind,
    holding: &Holding,
    v: &PositionValuation,
    company_name: &str,
    strategy: Option<TradedStrategy>,
    confidence: Option<i64>,
    reasoning: Option<String>,
    status: PositionStatus,
    now: DateTime<Utc>,
) -> PositionDetail {
    let input = &holding.input;
    let four = |x: f64| (x * 10_000.0).round() / 10_000.0;
    PositionDetail {
        id: id.to_owned(),
        kind,
        signal: PositionSignal {
            symbol: input.symbol.clone(),
            company_name: company_name.to_owned(),
            position_type: input.kind.into(),
            strike_price: input.strike,
            expiration_date: input.expiration,
            strategy,
            confidence,
            current_option_price: round2(v.current_price),
            current_price: round2(holding.spot),
            target_price: input.target_price,
            reasoning,
        },
        quantity: i64::from(input.quantity),
        entry_price: input.entry_price,
        entry_date: input.opened_on,
        total_cost: round2(v.total_cost),
        current_value: round2(v.current_value),
        unrealized_pnl: round2(v.unrealized_pnl),
        unrealized_pnl_percent: round2(v.unrealized_pnl_percent),
        days_held: v.days_held,
        status,
        greeks: GreeksView {
            delta: four(v.greeks.delta),
            gamma: four(v.greeks.gamma),
            theta: four(v.greeks.theta),
            vega: four(v.greeks.vega),
            rho: four(v.greeks.rho),
        },
        risk_metrics: RiskMetrics {
            max_loss: round2(v.risk.max_loss),
            max_gain: v.risk.max_gain.map(round2),
            breakeven: v.risk.breakevens.iter().map(|b| round2(*b)).collect(),
            position_size: v.risk.position_size_percent.map(round2),
            probability_of_profit: four(v.risk.probability_of_profit),
            risk_reward_ratio: v.risk.risk_reward_ratio.map(round2),
        },
        performance: PerformanceView {
            total_return: round2(v.performance.total_return),
            // Annualising a few days' return gives meaningless figures: only from 30 days held.
            annualized_return: v.performance.annualized_return.filter(|_| v.days_held >= 30).map(round2),
            sharpe_ratio: v.performance.sharpe_ratio.map(round2),
            daily_return: v.performance.daily_return.map(four),
            volatility: v.performance.volatility.map(four),
        },
        payoff: payoff(state, holding, now),
    }
}

/// A manual position in depth.
pub async fn manual_detail(state: &AppState, user: &UserRecord, row: &ManualRow, now: DateTime<Utc>) -> Result<PositionDetail> {
    let status: PositionStatus = stored(&row.status, format_args!("manual position {}", row.id))?;
    let mut pricing = Pricing::cached(state).await?;
    let sector = pricing.sector_of(&row.symbol);
    let holding = manual_holding(state, &mut pricing, row, &sector, now)
        .await?
        // Not an outage: the symbol is not priced yet (untracked, or no history to estimate
        // its volatility from). 409, so that it is not retried as a server fault.
        .ok_or_else(|| AppError::NotReady(format!("No price for {} yet; try again after the next refresh.", row.symbol)))?;
    let v = value(state, &holding, dollars(user.investment_capital_cents), now)?;
    Ok(detail_view(state, &row.id, PositionKind::Manual, &holding, &v, &row.company_name, None, None, row.reasoning.clone(), status, now))
}

/// An automated position in depth.
pub async fn automated_detail(state: &AppState, user: &UserRecord, row: &AutomatedRow, now: DateTime<Utc>) -> Result<PositionDetail> {
    let signal = strikeline_store::signals::find(&state.db, &row.signal_id).await?.ok_or(AppError::NotFound)?;
    let status: PositionStatus = stored(&row.status, format_args!("automated position {}", row.id))?;
    let strategy: TradedStrategy = stored(&signal.strategy, format_args!("signal {}", signal.id))?;
    let sector = Pricing::cached(state).await?.sector_of(&signal.symbol);
    let holding = automated_holding(state, row, &(&signal).into(), &sector)?;
    let mut v = value(state, &holding, dollars(user.investment_capital_cents), now)?;
    if status != PositionStatus::Open {
        // Closed: the exit stands, not today's model value.
        let exit = dollars(row.exit_cents.unwrap_or(signal.current_option_cents));
        v.current_price = exit;
        v.current_value = exit * 100.0 * row.quantity as f64;
        v.unrealized_pnl = v.current_value - v.total_cost;
        v.unrealized_pnl_percent = if v.total_cost > 0.0 { v.unrealized_pnl * 100.0 / v.total_cost } else { 0.0 };
    }
    Ok(detail_view(
        state,
        &row.id,
        PositionKind::Automated,
        &holding,
        &v,
        &signal.company_name,
        Some(strategy),
        Some(signal.confidence),
        Some(signal.reasoning.clone()),
        status,
        now,
    ))
}
