//! Versioned predictive models: each training run stores one, with its held-out evaluation and
//! whether it ships (beat the heuristic strength on the held-out years).

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreResult, with_db};

/// A stored model. `definition` and `evaluation` are JSON the model crate reads.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ModelRow {
    pub version: String,
    pub created_at: DateTime<Utc>,
    pub trained_through: NaiveDate,
    pub examples: i64,
    pub definition: String,
    pub evaluation: Option<String>,
    pub ships: bool,
}

const COLUMNS: &str = "version, created_at, trained_through, examples, definition, evaluation, ships";

/// Stores a model.
pub async fn insert(db: &Db, m: &ModelRow) -> StoreResult<()> {
    let sql = format!("INSERT INTO prediction_models ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)");
    with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&m.version)
            .bind(m.created_at)
            .bind(m.trained_through)
            .bind(m.examples)
            .bind(&m.definition)
            .bind(&m.evaluation)
            .bind(m.ships)
            .execute(pool)
            .await
            .map_err(crate::StoreError::from_write)?;
    });
    Ok(())
}

/// The newest model, shipping or not (what the track record publishes).
pub async fn latest(db: &Db) -> StoreResult<Option<ModelRow>> {
    let sql = format!("SELECT {COLUMNS} FROM prediction_models ORDER BY created_at DESC, version DESC LIMIT 1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ModelRow>(&sql).fetch_optional(pool).await?))
}

/// The newest model that ships: the one that scores new signals.
pub async fn shipping(db: &Db) -> StoreResult<Option<ModelRow>> {
    let sql = format!("SELECT {COLUMNS} FROM prediction_models WHERE ships ORDER BY created_at DESC, version DESC LIMIT 1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ModelRow>(&sql).fetch_optional(pool).await?))
}

/// How the last `limit` resolved automated signals (live or replayed) of `strategy` ended, as
/// known at `before`: `(resolved, won)`, a win being a net P&L above zero.
pub async fn recent_record(db: &Db, strategy: &str, before: DateTime<Utc>, limit: i64) -> StoreResult<(i64, i64)> {
    let rows: Vec<(i64,)> = with_db!(db, pool => {
        sqlx::query_as(
            "SELECT CASE WHEN net_pnl_cents > 0 THEN 1 ELSE 0 END FROM signals \
             WHERE owner_id IS NULL AND provenance <> 'unrecorded' AND net_pnl_cents IS NOT NULL AND strategy = $1 AND closed_at < $2 \
             ORDER BY closed_at DESC LIMIT $3",
        )
        .bind(strategy)
        .bind(before)
        .bind(limit)
        .fetch_all(pool)
        .await?
    });
    Ok((rows.len() as i64, rows.iter().map(|r| r.0).sum()))
}
