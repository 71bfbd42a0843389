//! The portfolio analysis: summary over both kinds of position, risk metrics from the user's
//! daily value snapshots, and the risk assessment (docs/risk.md).

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::portfolio::{self as model, RiskInputs};
use strikeline_store::positions;
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::error::Result;
use crate::foundation::money::dollars;
use crate::foundation::money::round2;
use crate::foundation::money::to_cents;
use crate::foundation::state::AppState;
use crate::foundation::vocab::PortfolioRiskLevel;
use crate::services::portfolio_valuation::{Book, book_and_history};

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

/// The account's daily values with today's as `value_cents`, written only when it differs from
/// what is stored (a dashboard polling an unchanged portfolio reads, it does not write).
async fn record_today(
    state: &AppState,
    account_id: &str,
    mut history: Vec<(NaiveDate, i64)>,
    value_cents: i64,
    now: DateTime<Utc>,
) -> Result<Vec<(NaiveDate, i64)>> {
    let today = state.market.today(now);
    if history.last() != Some(&(today, value_cents)) {
        positions::snapshot_value(&state.db, account_id, today, value_cents, now).await?;
        if history.last().is_some_and(|(day, _)| *day == today) {
            history.pop();
        }
        history.push((today, value_cents));
    }
    Ok(history)
}

/// The whole analysis for `user` at `now`; today's value is recorded on the way.
pub async fn analyse(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<PortfolioAnalysis> {
    let (b, history) = book_and_history(state, user, now).await?;
    let money = crate::foundation::money::display_money(state, user).await;
    analyse_book(state, user, b, history, money, now).await
}

/// The analysis of `b`, `user`'s book at `now`, with their stored daily values `history`; its
/// sentences state amounts in `money`.
async fn analyse_book(
    state: &AppState,
    user: &UserRecord,
    b: Book,
    history: Vec<(NaiveDate, i64)>,
    money: strikeline_engine::DisplayMoney,
    now: DateTime<Utc>,
) -> Result<PortfolioAnalysis> {
    let capital = dollars(user.investment_capital_cents);
    let s = model::summary(&b.closed, &b.marks, b.open_commissions, capital);
    let history: Vec<(NaiveDate, f64)> = record_today(state, &user.account_id, history, to_cents(s.total_value), now)
        .await?
        .into_iter()
        .map(|(d, c)| (d, dollars(c)))
        .collect();
    let m = model::performance_metrics(&history);
    let peak = history.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    let drawdown = if peak > 0.0 { (s.total_value / peak - 1.0).min(0.0) } else { 0.0 };
    let risk = model::risk_assessment(&RiskInputs {
        capital,
        max_position_size: dollars(user.max_position_size_cents),
        positions: b.risk,
        drawdown,
        money,
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

/// The periods `GET /api/v1/portfolio/metrics` reports over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, ToSchema)]
pub enum MetricsPeriod {
    #[serde(rename = "1d")]
    Day,
    #[serde(rename = "7d")]
    Week,
    #[default]
    #[serde(rename = "30d")]
    Month,
    #[serde(rename = "90d")]
    Quarter,
    #[serde(rename = "1y")]
    Year,
}

impl MetricsPeriod {
    fn days(self) -> i64 {
        match self {
            MetricsPeriod::Day => 1,
            MetricsPeriod::Week => 7,
            MetricsPeriod::Month => 30,
            MetricsPeriod::Quarter => 90,
            MetricsPeriod::Year => 365,
        }
    }
}

/// The query of `GET /api/v1/portfolio/metrics`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MetricsQuery {
    /// `1d`, `7d`, `30d` (default), `90d` or `1y`: how far back `performance.daily` goes.
    #[param(inline)]
    pub period: Option<MetricsPeriod>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicMetricsSummary {
    /// Capital plus net P&L, dollars.
    pub total_value: f64,
    /// Net P&L after commissions, dollars.
    #[serde(rename = "totalPnL")]
    pub total_pnl: f64,
    #[serde(rename = "totalPnLPercent")]
    pub total_pnl_percent: f64,
    /// Percent of closed positions that made money; `null` before the first close.
    pub win_rate: Option<f64>,
    /// Mean strength score (0–100, a heuristic, not a probability) of the signals behind the open automated positions.
    pub avg_confidence: Option<f64>,
}

/// One symbol's share of the portfolio.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolExposure {
    pub symbol: String,
    /// Value of the open positions now, dollars.
    pub value: f64,
    /// Unrealized P&L of the open positions plus realized P&L of the closed ones, dollars.
    pub pnl: f64,
    /// The open positions' unrealized P&L over what they cost, percent (0 when none is open).
    pub pnl_percent: f64,
    /// Positions held in the symbol, open and closed.
    pub signals_count: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DailyPerformance {
    pub date: NaiveDate,
    /// Portfolio value that day, dollars.
    pub value: f64,
    /// Change from the day before, dollars (0 on the first stored day).
    pub pnl: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublicPerformance {
    /// Oldest first, within the period.
    pub daily: Vec<DailyPerformance>,
}

/// `GET /api/v1/portfolio/metrics`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicPortfolioMetrics {
    pub summary: PublicMetricsSummary,
    /// By symbol, largest value first.
    pub positions: Vec<SymbolExposure>,
    pub performance: PublicPerformance,
}

/// The public API's portfolio figures for `user` over `period`.
pub async fn public_metrics(
    state: &AppState,
    user: &UserRecord,
    period: MetricsPeriod,
    now: DateTime<Utc>,
) -> Result<PublicPortfolioMetrics> {
    let (b, history) = book_and_history(state, user, now).await?;
    // symbol → (open value, P&L, open cost, open unrealized P&L, positions)
    let mut by_symbol: std::collections::BTreeMap<String, (f64, f64, f64, f64, usize)> = std::collections::BTreeMap::new();
    for (symbol, v) in b.open_symbols.iter().zip(&b.open) {
        let e = by_symbol.entry(symbol.clone()).or_default();
        e.0 += v.current_value;
        e.1 += v.unrealized_pnl;
        e.2 += v.total_cost;
        e.3 += v.unrealized_pnl;
        e.4 += 1;
    }
    for held in &b.structures {
        let (e, v) = (by_symbol.entry(held.symbol.clone()).or_default(), &held.valuation);
        e.0 += v.current_value;
        e.1 += v.unrealized_pnl;
        // What a multi-leg position costs is the capital it puts at risk (a credit spread
        // is paid to open).
        e.2 += v.capital_at_risk;
        e.3 += v.unrealized_pnl;
        e.4 += 1;
    }
    for (symbol, t) in b.closed_symbols.iter().zip(&b.closed) {
        let e = by_symbol.entry(symbol.clone()).or_default();
        e.1 += t.pnl;
        e.4 += 1;
    }
    let avg_confidence =
        (!b.open_confidences.is_empty()).then(|| round2(b.open_confidences.iter().sum::<i64>() as f64 / b.open_confidences.len() as f64));
    let mut positions: Vec<SymbolExposure> = by_symbol
        .into_iter()
        .map(|(symbol, (value, pnl, cost, unrealized, count))| SymbolExposure {
            symbol,
            value: round2(value),
            pnl: round2(pnl),
            pnl_percent: if cost > 0.0 { round2(unrealized / cost * 100.0) } else { 0.0 },
            signals_count: count,
        })
        .collect();
    positions.sort_by(|a, b| b.value.total_cmp(&a.value).then_with(|| a.symbol.cmp(&b.symbol)));
    // The public API states every amount in US dollars, its sentences too.
    let analysis = analyse_book(state, user, b, history, strikeline_engine::DisplayMoney::USD, now).await?;
    let since = state.market.today(now) - chrono::Duration::days(period.days());
    let mut previous: Option<f64> = None;
    let mut daily = Vec::new();
    for point in &analysis.history {
        let pnl = previous.map_or(0.0, |p| round2(point.value - p));
        previous = Some(point.value);
        if point.date > since {
            daily.push(DailyPerformance { date: point.date, value: point.value, pnl });
        }
    }
    Ok(PublicPortfolioMetrics {
        summary: PublicMetricsSummary {
            total_value: analysis.summary.total_value,
            total_pnl: analysis.summary.net_pnl,
            total_pnl_percent: analysis.summary.total_pnl_percent,
            win_rate: analysis.summary.win_rate,
            avg_confidence,
        },
        positions,
        performance: PublicPerformance { daily },
    })
}
