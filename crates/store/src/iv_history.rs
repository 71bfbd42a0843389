//! Each symbol's daily 30-day at-the-money implied volatility (`iv_history`): written once a
//! session by the recorder (again for the same session replaces the reading: idempotent), read
//! as a series for IV rank and IV percentile.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreResult, with_db};

/// One session's reading.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct IvRow {
    pub symbol: String,
    pub day: NaiveDate,
    pub atm_iv: f64,
    pub near_expiration: NaiveDate,
    pub far_expiration: Option<NaiveDate>,
    pub provider: String,
    pub recorded_at: DateTime<Utc>,
}

const COLUMNS: &str = "symbol, day, atm_iv, near_expiration, far_expiration, provider, recorded_at";

/// Stores readings in one transaction, replacing any for the same symbol and session.
pub async fn upsert(db: &Db, rows: &[IvRow]) -> StoreResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO iv_history ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (symbol, day) DO UPDATE SET atm_iv = excluded.atm_iv, near_expiration = excluded.near_expiration, \
         far_expiration = excluded.far_expiration, provider = excluded.provider, recorded_at = excluded.recorded_at"
    );
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for row in rows {
            sqlx::query(&sql)
                .bind(&row.symbol)
                .bind(row.day)
                .bind(row.atm_iv)
                .bind(row.near_expiration)
                .bind(row.far_expiration)
                .bind(&row.provider)
                .bind(row.recorded_at)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// The readings of `symbol` in `[from, to]`, oldest first.
pub async fn series(db: &Db, symbol: &str, from: NaiveDate, to: NaiveDate) -> StoreResult<Vec<IvRow>> {
    let sql = format!("SELECT {COLUMNS} FROM iv_history WHERE symbol = $1 AND day >= $2 AND day <= $3 ORDER BY day");
    Ok(with_db!(db, pool => sqlx::query_as::<_, IvRow>(&sql).bind(symbol).bind(from).bind(to).fetch_all(pool).await?))
}

/// Every symbol's readings in `[from, to]`, by symbol then day (the stock list ranks them all).
pub async fn all_series(db: &Db, from: NaiveDate, to: NaiveDate) -> StoreResult<Vec<IvRow>> {
    let sql = format!("SELECT {COLUMNS} FROM iv_history WHERE day >= $1 AND day <= $2 ORDER BY symbol, day");
    Ok(with_db!(db, pool => sqlx::query_as::<_, IvRow>(&sql).bind(from).bind(to).fetch_all(pool).await?))
}
