//! The backtest report: what `POST /api/backtest` answers, as pages (docs/reports.md).

use chrono::{DateTime, Utc};
use strikeline_reports::{Align, Column, Figure, Report, Section, Series};

use super::OverallBacktest;
use strikeline_engine::DisplayMoney;

use crate::services::reporting::{self, number_or_dash, percent};

/// Trades listed at most: a ten-year backtest of fifty symbols trades thousands of times,
/// hundreds of pages that nobody reads; the figures and curves above count every one.
const MAX_TRADES: usize = 200;

/// The report of `result`, generated at `now`: money in `money`'s currency, contract terms
/// (strikes, premiums per share) in US dollars (docs/currency.md).
pub fn backtest(result: &OverallBacktest, money: DisplayMoney, now: DateTime<Utc>) -> Report {
    let usd = |amount: f64| money.format(amount);
    let term = |amount: f64| money.term(amount);
    let mut sections = vec![Section::Figures {
        heading: "Results".into(),
        items: vec![
            Figure::new("Total P&L", usd(result.total_pnl)),
            Figure::new("Final equity", usd(result.final_equity)),
            Figure::new("Initial capital", usd(result.initial_capital)),
            Figure::new("Trades", result.total_trades.to_string()),
            Figure::new("Win rate", percent(result.win_rate)),
            Figure::new("Profit factor", number_or_dash(result.profit_factor, 2)),
            Figure::new("Sharpe ratio", number_or_dash(result.sharpe_ratio, 2)),
            Figure::new("Max drawdown", percent(result.max_drawdown * 100.0)),
            Figure::new("Recovery factor", number_or_dash(result.recovery_factor, 2)),
            Figure::new("Avg holding", format!("{:.1} days", result.avg_holding_period)),
            Figure::new("Symbols", result.symbols.to_string()),
            Figure::new("Locked trades", result.locked_trades.to_string()),
        ],
    }];
    if result.equity_curve.len() > 1 {
        let dates: Vec<_> = result.equity_curve.iter().map(|p| p.date).collect();
        sections.push(Section::LineChart {
            heading: "Equity".into(),
            series: vec![Series { label: "Equity".into(), points: result.equity_curve.iter().map(|p| money.convert(p.equity)).collect() }],
            x_labels: reporting::axis_labels(&dates),
            y_suffix: String::new(),
        });
    }
    if result.drawdown.len() > 1 {
        let dates: Vec<_> = result.drawdown.iter().map(|p| p.date).collect();
        sections.push(Section::LineChart {
            heading: "Drawdown".into(),
            series: vec![Series { label: "Below the peak".into(), points: result.drawdown.iter().map(|p| p.drawdown * 100.0).collect() }],
            x_labels: reporting::axis_labels(&dates),
            y_suffix: "%".into(),
        });
    }
    let dash = || "—".to_owned();
    let shown = &result.trades[result.trades.len().saturating_sub(MAX_TRADES)..];
    let heading = if shown.len() < result.trades.len() {
        format!("Trades: the latest {} of {}, every one in the app", shown.len(), result.trades.len())
    } else {
        "Trades".to_owned()
    };
    sections.push(Section::Table {
        heading,
        columns: vec![
            // Widths in points of the widest cell each column holds (8 pt Helvetica).
            Column::new("Symbol", Align::Left, 40.0),
            Column::new("Strategy", Align::Left, 70.0),
            Column::new("Type", Align::Left, 56.0),
            Column::new("Strike", Align::Right, 44.0),
            Column::new("Entered", Align::Left, 54.0),
            Column::new("Exited", Align::Left, 54.0),
            Column::new("Entry", Align::Right, 42.0),
            Column::new("Exit", Align::Right, 42.0),
            Column::new("P&L", Align::Right, 56.0),
            Column::new("Outcome", Align::Left, 48.0),
        ],
        rows: shown
            .iter()
            .map(|t| {
                if t.locked {
                    return vec![
                        t.symbol.clone(),
                        t.strategy.as_str().to_owned(),
                        "Locked".into(),
                        dash(),
                        t.entry_date.to_string(),
                        dash(),
                        dash(),
                        dash(),
                        dash(),
                        dash(),
                    ];
                }
                vec![
                    t.symbol.clone(),
                    t.strategy.as_str().to_owned(),
                    t.signal_type.map_or_else(dash, |k| k.as_str().to_owned()),
                    t.strike.map_or_else(dash, term),
                    t.entry_date.to_string(),
                    t.exit_date.map_or_else(dash, |d| d.to_string()),
                    t.entry_price.map_or_else(dash, term),
                    t.exit_price.map_or_else(dash, term),
                    t.pnl.map_or_else(dash, usd),
                    t.outcome.map_or_else(dash, |o| o.as_str().to_owned()),
                ]
            })
            .collect(),
        empty: "No trades in this range.".into(),
    });
    sections.push(Section::Paragraph {
        heading: None,
        text: "Backtested with model-priced options over stored history, as the live engine would have traded: \
               past results do not promise future ones."
            .into(),
    });
    Report {
        title: "Backtest report".into(),
        subtitle: format!("{} to {}, {} symbols", result.start_date, result.end_date, result.symbols),
        generated: reporting::generated_line(now),
        sections,
    }
}
