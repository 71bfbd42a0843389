//! The `broker_connections` table: a trading account connected to a real broker (Alpaca), with
//! its endpoint, its key id and its secret as sealed by the server (docs/execution.md). An
//! account without one sends its orders to the paper broker.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// One account's connection. `broker` is `alpaca`, `endpoint` `paper | live`.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ConnectionRow {
    pub account_id: String,
    pub user_id: String,
    pub broker: String,
    pub endpoint: String,
    pub key_id: String,
    /// The secret key, sealed with the operator's key for this account.
    pub secret_sealed: String,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "account_id, user_id, broker, endpoint, key_id, secret_sealed, created_at";

/// Connects an account (replacing its connection, if any).
pub async fn upsert(db: &Db, row: &ConnectionRow) -> StoreResult<()> {
    let sql = format!(
        "INSERT INTO broker_connections ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (account_id) DO UPDATE SET broker = excluded.broker, endpoint = excluded.endpoint, key_id = excluded.key_id, \
         secret_sealed = excluded.secret_sealed, created_at = excluded.created_at"
    );
    with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&row.account_id)
            .bind(&row.user_id)
            .bind(&row.broker)
            .bind(&row.endpoint)
            .bind(&row.key_id)
            .bind(&row.secret_sealed)
            .bind(row.created_at)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// The connection of `account_id`, if it has one.
pub async fn find(db: &Db, account_id: &str) -> StoreResult<Option<ConnectionRow>> {
    let sql = format!("SELECT {COLUMNS} FROM broker_connections WHERE account_id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ConnectionRow>(&sql).bind(account_id).fetch_optional(pool).await?))
}

/// The connections of `user_id`'s accounts.
pub async fn for_user(db: &Db, user_id: &str) -> StoreResult<Vec<ConnectionRow>> {
    let sql = format!("SELECT {COLUMNS} FROM broker_connections WHERE user_id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ConnectionRow>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// Every connection (the automation's one read a tick).
pub async fn all(db: &Db) -> StoreResult<Vec<ConnectionRow>> {
    let sql = format!("SELECT {COLUMNS} FROM broker_connections");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ConnectionRow>(&sql).fetch_all(pool).await?))
}

/// Disconnects one of `user_id`'s accounts; whether it was connected.
pub async fn delete(db: &Db, user_id: &str, account_id: &str) -> StoreResult<bool> {
    Ok(with_db!(db, pool => {
        sqlx::query("DELETE FROM broker_connections WHERE account_id = $1 AND user_id = $2")
            .bind(account_id)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
            == 1
    }))
}
