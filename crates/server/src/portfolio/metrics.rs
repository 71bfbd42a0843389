//! The portfolio analysis: summary over both kinds of position, risk metrics from the user's
//! daily value snapshots, and the risk assessment (docs/risk.md).

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::portfolio::{self as model, RiskInputs};
use strikeline_store::positions;
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::services::portfolio_valuation::book;
use crate::money::dollars;
use crate::money::to_cents;
use crate::error::Result;
use crate::money::round2;
use crate::state::AppState;
use crate::vocab::PortfolioRiskLevel;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioSummaryView {
    /// Capital plus realized and unrealized P&L, after commissions.
    pub total_value: f64,
    pub total_pnl_percent: f64,
    /// Realized plus unrealized P&L after commissions.
    pub net_pnl: f64,
    pub win_rate: Option<f64>,
    pub open_positions: usize,
    pub closed_positions: usize,
    pub avg_holding_period: Option<f64>,
    pub profit_factor: Option<f64>,
    pub largest_win: f64,
    pub largest_loss: f64,
    pub consecutive_wins: usize,
    pub total_commissions: f64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioMetricsView {
    pub sharpe_ratio: Option<f64>,
    pub calmar_ratio: Option<f64>,
    /// Largest fall from a peak, a fraction ≤ 0 (−0.12 = 12 % below the peak).
    pub max_drawdown: Option<f64>,
    pub recovery_factor: Option<f64>,
    /// Annualized, fraction.
    pub volatility: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RiskAssessmentView {
    pub risk_level: PortfolioRiskLevel,
    pub risk_score: u8,
    pub risk_factors: Vec<String>,
    pub recommendations: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ValuePoint {
    pub date: NaiveDate,
    pub value: f64,
}

/// `GET /api/portfolio/metrics`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioAnalysis {
    pub summary: PortfolioSummaryView,
    pub metrics: PortfolioMetricsView,
    pub risk_assessment: RiskAssessmentView,
    /// Daily portfolio value, oldest first.
    pub history: Vec<ValuePoint>,
}

/// The user's daily values with today's as `value_cents`, written only when it differs from
/// what is stored (a dashboard polling an unchanged portfolio reads, it does not write).
async fn record_today(state: &AppState, user_id: &str, value_cents: i64, now: DateTime<Utc>) -> Result<Vec<(NaiveDate, i64)>> {
    let today = state.market.today(now);
    let mut history = positions::value_history(&state.db, user_id).await?;
    if history.last() != Some(&(today, value_cents)) {
        positions::snapshot_value(&state.db, user_id, today, value_cents, now).await?;
        if history.last().is_some_and(|(day, _)| *day == today) {
            history.pop();
        }
        history.push((today, value_cents));
    }
    Ok(history)
}

/// The whole analysis for `user` at `now`; today's value is recorded on the way.
pub async fn analyse(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<PortfolioAnalysis> {
    let capital = dollars(user.investment_capital_cents);
    let b = book(state, user, now).await?;
    let s = model::summary(&b.closed, &b.open, b.open_commissions, capital);
    let history: Vec<(NaiveDate, f64)> = record_today(state, &user.id, to_cents(s.total_value), now).await?.into_iter().map(|(d, c)| (d, dollars(c))).collect();
    let m = model::performance_metrics(&history);
    let peak = history.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    let drawdown = if peak > 0.0 { (s.total_value / peak - 1.0).min(0.0) } else { 0.0 };
    let risk = model::risk_assessment(&RiskInputs {
        capital,
        max_position_size: dollars(user.max_position_size_cents),
        positions: b.risk,
        drawdown,
    });
    let four = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Ok(PortfolioAnalysis {
        summary: PortfolioSummaryView {
            total_value: round2(s.total_value),
            total_pnl_percent: round2(s.total_pnl_percent),
            net_pnl: round2(s.net_pnl),
            win_rate: s.win_rate.map(round2),
            open_positions: s.open_positions,
            closed_positions: s.closed_positions,
            avg_holding_period: s.avg_holding_period.map(|d| (d * 10.0).round() / 10.0),
            profit_factor: s.profit_factor.map(round2),
            largest_win: round2(s.largest_win.unwrap_or(0.0)),
            largest_loss: round2(s.largest_loss.unwrap_or(0.0)),
            consecutive_wins: s.consecutive_wins,
            total_commissions: round2(s.total_commissions),
        },
        metrics: PortfolioMetricsView {
            sharpe_ratio: m.sharpe_ratio.map(round2),
            calmar_ratio: m.calmar_ratio.map(round2),
            max_drawdown: m.max_drawdown.map(four),
            recovery_factor: m.recovery_factor.map(round2),
            volatility: m.volatility.map(four),
        },
        risk_assessment: RiskAssessmentView {
            risk_level: risk.risk_level.into(),
            risk_score: risk.risk_score,
            risk_factors: risk.risk_factors,
            recommendations: risk.recommendations,
        },
        history: history.into_iter().map(|(date, value)| ValuePoint { date, value: round2(value) }).collect(),
    })
}
