//! The track-record report: what `GET /api/public/track-record` answers, as pages
//! (docs/reports.md).

use chrono::{DateTime, Utc};
use strikeline_reports::{Align, Column, Report, Section, Series};

use crate::services::reporting::{self, number_or_dash, percent};
use crate::services::track_record::calibration::{Calibration, TrackRecordSummary};

/// One group's row: its name, n, wins and, above the minimum sample, its figures.
fn row(name: &str, group: &Calibration) -> Vec<String> {
    let dash = || "—".to_owned();
    let rate = if group.n > 0 { percent(group.wins as f64 * 100.0 / group.n as f64) } else { dash() };
    let f = group.figures.as_ref();
    vec![
        name.to_owned(),
        group.n.to_string(),
        group.wins.to_string(),
        rate,
        f.map_or_else(dash, |f| percent(f.mean_forecast * 100.0)),
        f.map_or_else(dash, |f| format!("{:.4}", f.brier)),
        number_or_dash(f.and_then(|f| f.skill), 3),
        f.map_or_else(dash, |f| format!("{:.3}", f.ece_equal_width)),
        f.map_or_else(|| "Too few".to_owned(), |f| if f.meets_ece_target && f.meets_skill_target { "Yes".into() } else { "No".into() }),
    ]
}

/// The report of `summary`, generated at `now`.
pub fn track_record(summary: &TrackRecordSummary, now: DateTime<Utc>) -> Report {
    let mut rows = vec![row("All strategies", &summary.pooled)];
    for s in &summary.strategies {
        rows.push(row(s.strategy.as_str(), &s.strength));
    }
    rows.push(row("Risk-neutral PoP", &summary.risk_neutral));
    rows.push(row("Predictive model", &summary.model_live));
    let mut sections = vec![
        Section::Paragraph {
            heading: Some("What this measures".into()),
            text: format!(
                "Each live signal's stated chance against what happened. A group needs {} resolved signals before it shows \
                 figures. The targets: expected calibration error at most {:.2} and skill over the base rate above {:.2}.",
                summary.minimum_sample, summary.ece_target, summary.skill_target
            ),
        },
        Section::Table {
            heading: "Calibration".into(),
            columns: vec![
                Column::new("Group", Align::Left, 2.0),
                Column::new("Resolved", Align::Right, 1.0),
                Column::new("Won", Align::Right, 0.8),
                Column::new("Win rate", Align::Right, 1.0),
                Column::new("Forecast", Align::Right, 1.0),
                Column::new("Brier", Align::Right, 0.9),
                Column::new("Skill", Align::Right, 0.8),
                Column::new("ECE", Align::Right, 0.8),
                Column::new("On target", Align::Right, 1.0),
            ],
            rows,
            empty: String::new(),
        },
    ];
    if let Some(figures) = summary.pooled.figures.as_ref().filter(|f| f.rolling_brier.len() > 1) {
        let days: Vec<_> = figures.rolling_brier.iter().map(|p| p.day).collect();
        sections.push(Section::LineChart {
            heading: format!("Brier score over the trailing {} days (lower is better)", summary.rolling_window_days),
            series: vec![Series { label: "All strategies".into(), points: figures.rolling_brier.iter().map(|p| p.brier).collect() }],
            x_labels: reporting::axis_labels(&days),
            y_suffix: String::new(),
        });
    }
    let e = &summary.excluded;
    sections.push(Section::Paragraph {
        heading: Some("Left out".into()),
        text: format!(
            "{} replayed from history at first start, {} stored before the track record existed, {} without a recorded outcome.",
            e.replayed, e.unrecorded, e.without_outcome
        ),
    });
    Report {
        title: "Track record".into(),
        subtitle: "How often the signals' stated chances came true".into(),
        generated: reporting::generated_line(now),
        sections,
    }
}
