//! The portfolio report: the analysis `GET /api/portfolio/metrics` answers (summary, risk
//! metrics, the daily values, the risk assessment) and every open position with its Greeks,
//! as a PDF in the account's brand (docs/reports.md).

use chrono::{DateTime, Utc};
use strikeline_reports::{Align, Bar, Column, Figure, Report, Section, Series};
use strikeline_store::positions;
use strikeline_store::users::UserRecord;

use strikeline_engine::DisplayMoney;

use super::{generated_line, number_or_dash, percent};
use crate::foundation::error::{AppError, Result};
use crate::foundation::state::AppState;
use crate::foundation::vocab::PositionStatus;
use crate::services::portfolio_analysis::detail::{PositionDetail, automated_detail, manual_detail};
use crate::services::portfolio_analysis::metrics::{PortfolioAnalysis, analyse};

/// `user`'s portfolio report at `now`, rendered in their brand (also what the monthly email
/// attaches).
pub async fn render(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Vec<u8>> {
    let analysis = analyse(state, user, now).await?;
    let open = open_positions(state, user, now).await?;
    let brand = super::brand_for(state, user, now).await?;
    let money = crate::foundation::money::display_money(state, user).await;
    super::render(portfolio(&analysis, &open, money, now), brand).await
}

/// Every open position, automated and manual, in depth; a manual one on a symbol that has no
/// price yet is left out (its detail cannot be valued).
async fn open_positions(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Vec<PositionDetail>> {
    let mut open = Vec::new();
    for (row, _) in crate::services::portfolio_valuation::automated_with_signals(state, &user.account_id).await? {
        if row.status == PositionStatus::Open.as_str() {
            open.push(automated_detail(state, user, &row, now).await?);
        }
    }
    for row in positions::manual_for(&state.db, &user.account_id).await? {
        if row.status != PositionStatus::Open.as_str() {
            continue;
        }
        match manual_detail(state, user, &row, now).await {
            Ok(detail) => open.push(detail),
            Err(AppError::NotReady(_)) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(open)
}

/// The report's pages, from the figures the API answers: money in `money`'s currency,
/// contract terms in US dollars (docs/currency.md).
pub fn portfolio(analysis: &PortfolioAnalysis, open: &[PositionDetail], money: DisplayMoney, now: DateTime<Utc>) -> Report {
    let usd = |amount: f64| money.format(amount);
    let s = &analysis.summary;
    let m = &analysis.metrics;
    let r = &analysis.risk_assessment;
    let mut sections = vec![
        Section::Figures {
            heading: "Summary".into(),
            items: vec![
                Figure::new("Total value", usd(s.total_value)),
                Figure::new("Net P&L", usd(s.net_pnl)),
                Figure::new("Total return", percent(s.total_pnl_percent)),
                Figure::new("Win rate", s.win_rate.map_or_else(|| "—".to_owned(), percent)),
                Figure::new("Open positions", s.open_positions.to_string()),
                Figure::new("Closed positions", s.closed_positions.to_string()),
                Figure::new("Profit factor", number_or_dash(s.profit_factor, 2)),
                Figure::new("Commissions", usd(s.total_commissions)),
            ],
        },
        Section::Figures {
            heading: "Risk metrics".into(),
            items: vec![
                Figure::new("Risk level", format!("{} ({}/100)", risk_words(r.risk_level), r.risk_score)),
                Figure::new("Sharpe ratio", number_or_dash(m.sharpe_ratio, 2)),
                Figure::new("Max drawdown", m.max_drawdown.map_or_else(|| "—".to_owned(), |d| percent(d * 100.0))),
                Figure::new("Volatility (annual)", m.volatility.map_or_else(|| "—".to_owned(), |v| percent(v * 100.0))),
                Figure::new("Calmar ratio", number_or_dash(m.calmar_ratio, 2)),
                Figure::new("Recovery factor", number_or_dash(m.recovery_factor, 2)),
            ],
        },
    ];
    if analysis.history.len() > 1 {
        let dates: Vec<_> = analysis.history.iter().map(|p| p.date).collect();
        sections.push(Section::LineChart {
            heading: "Portfolio value".into(),
            series: vec![Series { label: "Value".into(), points: analysis.history.iter().map(|p| money.convert(p.value)).collect() }],
            x_labels: super::axis_labels(&dates),
            y_suffix: String::new(),
        });
    }
    sections.push(Section::Table {
        heading: "Open positions".into(),
        columns: vec![
            Column::new("Symbol", Align::Left, 1.0),
            Column::new("Type", Align::Left, 1.1),
            Column::new("Strike", Align::Right, 1.0),
            Column::new("Expires", Align::Left, 1.3),
            Column::new("Qty", Align::Right, 0.6),
            Column::new("Entry", Align::Right, 0.9),
            Column::new("Value", Align::Right, 1.3),
            Column::new("P&L", Align::Right, 1.2),
            Column::new("Delta", Align::Right, 0.9),
            Column::new("Theta", Align::Right, 0.9),
            Column::new("Vega", Align::Right, 0.9),
        ],
        rows: open.iter().map(|p| position_row(p, money)).collect(),
        empty: "No open positions.".into(),
    });
    if !open.is_empty() {
        sections.push(Section::Bars {
            heading: "Unrealized P&L by position".into(),
            bars: open
                .iter()
                .map(|p| Bar {
                    label: format!("{} {} {}", p.signal.symbol, p.signal.position_type.as_str(), money.term(p.signal.strike_price)),
                    value: money.convert(p.unrealized_pnl),
                    text: format!("{} ({})", usd(p.unrealized_pnl), percent(p.unrealized_pnl_percent)),
                })
                .collect(),
        });
    }
    let mut assessment = format!("Risk level: {} (score {} of 100).", risk_words(r.risk_level), r.risk_score);
    for factor in &r.risk_factors {
        assessment.push_str(&format!("\n• {factor}"));
    }
    if !r.recommendations.is_empty() {
        assessment.push_str("\nRecommendations:");
        for recommendation in &r.recommendations {
            assessment.push_str(&format!("\n• {recommendation}"));
        }
    }
    sections.push(Section::Paragraph { heading: Some("Risk assessment".into()), text: assessment });
    Report {
        title: "Portfolio report".into(),
        subtitle: "Positions, Greeks, risk and performance".into(),
        generated: generated_line(now),
        sections,
    }
}

fn position_row(p: &PositionDetail, money: DisplayMoney) -> Vec<String> {
    vec![
        p.signal.symbol.clone(),
        p.signal.position_type.as_str().to_owned(),
        money.term(p.signal.strike_price),
        p.signal.expiration_date.to_string(),
        p.quantity.to_string(),
        money.term(p.entry_price),
        money.format(p.current_value),
        money.format(p.unrealized_pnl),
        format!("{:.2}", p.greeks.delta),
        format!("{:.2}", p.greeks.theta),
        format!("{:.2}", p.greeks.vega),
    ]
}

fn risk_words(level: crate::foundation::vocab::PortfolioRiskLevel) -> &'static str {
    use crate::foundation::vocab::PortfolioRiskLevel::*;
    match level {
        Low => "Low",
        Moderate => "Moderate",
        High => "High",
        VeryHigh => "Very high",
    }
}
