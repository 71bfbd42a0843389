//! The dashboard's figures: active signals, win rate, average confidence and portfolio value,
//! with their changes against stored daily snapshots.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use strikeline_store::signals as store;
use strikeline_store::snapshots::{self, Snapshot};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::cache::SignalFiguresAt;
use crate::foundation::error::Result;
use crate::foundation::money::round2;
use crate::foundation::state::AppState;
use crate::foundation::vocab::ChangeUnit;

/// Days of closed signals the win rate covers.
pub const WIN_RATE_DAYS: i64 = 30;

/// A change figure and what it compares against; `value` is `null` when there is no earlier
/// snapshot to compare with (show "—").
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub value: Option<f64>,
    pub unit: ChangeUnit,
    #[schema(example = "vs yesterday")]
    pub label: &'static str,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatChanges {
    pub active_signals: Change,
    pub win_rate: Change,
    pub avg_confidence: Change,
    pub portfolio_value: Change,
}

/// The dashboard's stat cards.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardStats {
    /// Active automated signals.
    pub active_signals: i64,
    /// Percent of the automated signals closed in the last 30 days that made money; `null`
    /// when none closed.
    pub win_rate: Option<f64>,
    /// How many closed signals the win rate is over.
    pub closed_signals: i64,
    /// Average strength score (0–100, a heuristic, not a probability) of the active signals; `null` when none are active.
    pub avg_confidence: Option<f64>,
    /// The user's portfolio value in dollars: capital plus net P&L of every position.
    pub portfolio_value: f64,
    /// When the market data behind the figures was last refreshed (the newest quote), so the
    /// answer stays the same, and revalidates, until something changes.
    pub last_updated: DateTime<Utc>,
    pub changes: StatChanges,
}

/// The shared figures as the snapshot of `day` taken at `now`.
fn snapshot_of(day: NaiveDate, figures: &store::SignalFigures, now: DateTime<Utc>) -> Snapshot {
    Snapshot {
        day,
        active_signals: figures.active,
        win_rate: (figures.closed > 0).then(|| round2(figures.winners as f64 * 100.0 / figures.closed as f64)),
        avg_confidence: figures.avg_active_confidence.map(|c| (c * 10.0).round() / 10.0),
        taken_at: now,
    }
}

/// The shared figures at `now`, read now, and how many closed signals the win rate is over.
pub async fn current_snapshot(state: &AppState, day: NaiveDate, now: DateTime<Utc>) -> Result<(Snapshot, i64)> {
    let figures = store::figures(&state.db, now - Duration::days(WIN_RATE_DAYS)).await?;
    Ok((snapshot_of(day, &figures, now), figures.closed))
}

/// Records today's figures (New York date), so tomorrow's change figures have a base.
pub async fn take_snapshot(state: &AppState, now: DateTime<Utc>) -> Result<Snapshot> {
    let day = strikeline_market::calendar::to_new_york(now).date_naive();
    let (snapshot, _) = current_snapshot(state, day, now).await?;
    snapshots::upsert(&state.db, &snapshot).await?;
    Ok(snapshot)
}

fn relative(now: f64, before: f64) -> Option<f64> {
    (before != 0.0).then(|| round2((now - before) * 100.0 / before.abs()))
}

/// The shared signal figures for `today` at `now` and the snapshots to compare them with, from
/// the read cache (at most [`crate::foundation::cache::MAX_AGE`] old, and never older than a change).
async fn shared_figures(state: &AppState, today: NaiveDate, now: DateTime<Utc>) -> Result<std::sync::Arc<SignalFiguresAt>> {
    let load = || async {
        Ok(SignalFiguresAt {
            day: today,
            figures: store::figures(&state.db, now - Duration::days(WIN_RATE_DAYS)).await?,
            yesterday: snapshots::on_or_before(&state.db, today - Duration::days(1)).await?,
            week_ago: snapshots::on_or_before(&state.db, today - Duration::days(7)).await?,
            loaded_at: now,
        })
    };
    let cached = state.caches.signal_figures.get(&state.events, load).await?;
    if cached.day == today {
        return Ok(cached);
    }
    // The day turned while the entry was fresh: read again for the new day.
    Ok(std::sync::Arc::new(load().await?))
}

/// The dashboard figures at `now`, with changes against the snapshots of yesterday and of a
/// week ago.
pub async fn compute_stats(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<DashboardStats> {
    let today = strikeline_market::calendar::to_new_york(now).date_naive();
    let (shared, (portfolio_value, history)) =
        tokio::try_join!(shared_figures(state, today, now), super::portfolio_valuation::value_and_history(state, user, now))?;
    let (current, closed) = (snapshot_of(today, &shared.figures, now), shared.figures.closed);
    let (yesterday, week_ago) = (shared.yesterday.clone(), shared.week_ago.clone());
    let portfolio_value = round2(portfolio_value);
    // The latest stored value before today.
    let before_today = history.iter().rev().find(|(day, _)| *day < today).map(|(_, cents)| *cents as f64 / 100.0);
    let last_updated = crate::foundation::cache::stocks(state).await?.iter().map(|s| s.last_updated).max().unwrap_or(shared.loaded_at);
    let points = |now: Option<f64>, before: Option<&Snapshot>, pick: fn(&Snapshot) -> Option<f64>| Some(round2(now? - pick(before?)?));
    Ok(DashboardStats {
        active_signals: current.active_signals,
        win_rate: current.win_rate,
        closed_signals: closed,
        avg_confidence: current.avg_confidence,
        portfolio_value,
        last_updated,
        changes: StatChanges {
            active_signals: Change {
                value: yesterday.as_ref().and_then(|y| relative(current.active_signals as f64, y.active_signals as f64)),
                unit: ChangeUnit::Percent,
                label: "vs yesterday",
            },
            win_rate: Change {
                value: points(current.win_rate, week_ago.as_ref(), |s| s.win_rate),
                unit: ChangeUnit::Points,
                label: "this week",
            },
            avg_confidence: Change {
                value: points(current.avg_confidence, week_ago.as_ref(), |s| s.avg_confidence),
                unit: ChangeUnit::Points,
                label: "from last week",
            },
            portfolio_value: Change {
                value: before_today.and_then(|before| relative(portfolio_value, before)),
                unit: ChangeUnit::Percent,
                label: "today",
            },
        },
    })
}
