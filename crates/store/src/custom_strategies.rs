//! The `custom_strategies` table: a user's own strategies, each a named rule document (the
//! server checks the document; the store keeps its JSON text).

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A saved custom strategy.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct CustomStrategyRow {
    pub id: String,
    pub user_id: String,
    pub name: String,
    /// The rule document, JSON.
    pub document: String,
    /// Switched on by its owner: the scheduler issues its signals (while the plan includes it).
    pub active: bool,
    /// The owner's automation opens paper positions from its signals (only while `active`).
    pub automate: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, user_id, name, document, active, automate, created_at, updated_at";

/// A user's custom strategies by name, whatever its case.
pub async fn for_user(db: &Db, user_id: &str) -> StoreResult<Vec<CustomStrategyRow>> {
    let sql = format!("SELECT {COLUMNS} FROM custom_strategies WHERE user_id = $1 ORDER BY lower(name), name, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, CustomStrategyRow>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// One of `user_id`'s strategies ([`StoreError::NotFound`] for anyone else's).
pub async fn find(db: &Db, user_id: &str, id: &str) -> StoreResult<CustomStrategyRow> {
    let sql = format!("SELECT {COLUMNS} FROM custom_strategies WHERE id = $1 AND user_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, CustomStrategyRow>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// Stores `row` unless its owner already has `max` strategies; whether it was stored. The count
/// and the insert are one transaction after locking the owner's row, so parallel requests cannot
/// pass the cap. A name the owner already uses is [`StoreError::Conflict`]`("name")`.
pub async fn insert_within(db: &Db, row: &CustomStrategyRow, max: u32) -> StoreResult<bool> {
    let sql = format!("INSERT INTO custom_strategies ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &row.user_id, "SELECT COUNT(*) FROM custom_strategies WHERE user_id = $1", max);
        sqlx::query(&sql)
            .bind(&row.id)
            .bind(&row.user_id)
            .bind(&row.name)
            .bind(&row.document)
            .bind(row.active)
            .bind(row.automate)
            .bind(row.created_at)
            .bind(row.updated_at)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?;
        tx.commit().await?;
        Ok(true)
    })
}

/// Replaces the name and document of one of `user_id`'s strategies ([`StoreError::NotFound`]
/// for anyone else's, [`StoreError::Conflict`]`("name")` for a name the owner already uses).
pub async fn update(db: &Db, user_id: &str, id: &str, name: &str, document: &str, now: DateTime<Utc>) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE custom_strategies SET name = $1, document = $2, updated_at = $3 WHERE id = $4 AND user_id = $5")
            .bind(name)
            .bind(document)
            .bind(now)
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?
            .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Deletes one of `user_id`'s strategies ([`StoreError::NotFound`] for anyone else's).
pub async fn delete(db: &Db, user_id: &str, id: &str) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM custom_strategies WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Switches one of `user_id`'s strategies on or off, and its automation (never on while the
/// strategy is off) ([`StoreError::NotFound`] for anyone else's).
pub async fn set_active(db: &Db, user_id: &str, id: &str, active: bool, automate: bool, now: DateTime<Utc>) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE custom_strategies SET active = $1, automate = $2, updated_at = $3 WHERE id = $4 AND user_id = $5")
            .bind(active)
            .bind(active && automate)
            .bind(now)
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Every strategy switched on, of every user, by owner (the scheduler's one read a tick).
pub async fn active(db: &Db) -> StoreResult<Vec<CustomStrategyRow>> {
    let sql = format!("SELECT {COLUMNS} FROM custom_strategies WHERE active ORDER BY user_id, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, CustomStrategyRow>(&sql).fetch_all(pool).await?))
}
