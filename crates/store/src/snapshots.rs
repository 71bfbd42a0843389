//! One snapshot per day of the shared signal figures; the dashboard's change figures compare against them.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreResult, with_db};

/// The dashboard figures as they stood on a day.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Snapshot {
    pub day: NaiveDate,
    pub active_signals: i64,
    pub win_rate: Option<f64>,
    pub avg_confidence: Option<f64>,
    pub taken_at: DateTime<Utc>,
}

/// Records (or replaces) the snapshot of `snapshot.day`.
pub async fn upsert(db: &Db, s: &Snapshot) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO dashboard_snapshots (day, active_signals, win_rate, avg_confidence, taken_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (day) DO UPDATE SET active_signals = excluded.active_signals, \
             win_rate = excluded.win_rate, avg_confidence = excluded.avg_confidence, taken_at = excluded.taken_at",
        )
        .bind(s.day)
        .bind(s.active_signals)
        .bind(s.win_rate)
        .bind(s.avg_confidence)
        .bind(s.taken_at)
        .execute(pool)
        .await?;
    });
    Ok(())
}

pub(crate) const ON_OR_BEFORE: &str =
    "SELECT day, active_signals, win_rate, avg_confidence, taken_at FROM dashboard_snapshots WHERE day <= $1 ORDER BY day DESC LIMIT 1";

/// The latest snapshot taken on or before `day`.
pub async fn on_or_before(db: &Db, day: NaiveDate) -> StoreResult<Option<Snapshot>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, Snapshot>(ON_OR_BEFORE)
        .bind(day)
        .fetch_optional(pool)
        .await?
    }))
}
