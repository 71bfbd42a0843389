//! The `price_alerts` table: a symbol crossing a price, triggered once.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A stored alert.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PriceAlert {
    pub id: String,
    pub user_id: String,
    pub symbol: String,
    /// `above | below`.
    pub direction: String,
    pub target_cents: i64,
    /// `active | triggered`.
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub triggered_at: Option<DateTime<Utc>>,
    pub triggered_price_cents: Option<i64>,
}

const COLUMNS: &str = "id, user_id, symbol, direction, target_cents, status, created_at, triggered_at, triggered_price_cents";

/// Stores an alert unless its user already has `max_per_user` active ones; whether it was
/// stored. Count and insert are one transaction after locking the user's row.
pub async fn insert_within(db: &Db, alert: &PriceAlert, max_per_user: u32) -> StoreResult<bool> {
    let sql = format!("INSERT INTO price_alerts ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &alert.user_id, "SELECT COUNT(*) FROM price_alerts WHERE user_id = $1 AND status = 'active'", max_per_user);
        sqlx::query(&sql)
            .bind(&alert.id)
            .bind(&alert.user_id)
            .bind(&alert.symbol)
            .bind(&alert.direction)
            .bind(alert.target_cents)
            .bind(&alert.status)
            .bind(alert.created_at)
            .bind(alert.triggered_at)
            .bind(alert.triggered_price_cents)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A user's alerts, newest first.
pub async fn list(db: &Db, user_id: &str) -> StoreResult<Vec<PriceAlert>> {
    let sql = format!("SELECT {COLUMNS} FROM price_alerts WHERE user_id = $1 ORDER BY created_at DESC, id DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, PriceAlert>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// Deletes an alert of `user_id`; whether there was one.
pub async fn delete(db: &Db, user_id: &str, id: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM price_alerts WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    Ok(done > 0)
}

/// Triggers every active alert on `symbol` that `price_cents` has reached (at or above an
/// `above` target, at or below a `below` one), each once: the guard on `status` makes a
/// second refresh, or a second instance, find nothing. Returns the alerts triggered now.
pub async fn trigger(db: &Db, symbol: &str, price_cents: i64, at: DateTime<Utc>) -> StoreResult<Vec<PriceAlert>> {
    let sql = format!(
        "UPDATE price_alerts SET status = 'triggered', triggered_at = $1, triggered_price_cents = $2 \
         WHERE symbol = $3 AND status = 'active' \
         AND ((direction = 'above' AND target_cents <= $4) OR (direction = 'below' AND target_cents >= $5)) RETURNING {COLUMNS}"
    );
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, PriceAlert>(&sql).bind(at).bind(price_cents).bind(symbol).bind(price_cents).bind(price_cents).fetch_all(pool).await?
    }))
}

/// The symbols that have active alerts.
pub async fn watched_symbols(db: &Db) -> StoreResult<Vec<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, String>("SELECT DISTINCT symbol FROM price_alerts WHERE status = 'active'").fetch_all(pool).await?
    }))
}
