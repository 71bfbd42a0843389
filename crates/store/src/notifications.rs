//! The `notifications` table: what the bell lists, read or unread.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Notification {
    pub id: String,
    pub user_id: String,
    /// `new_signals | position_closed | price_alert | billing`.
    pub kind: String,
    pub title: String,
    pub body: String,
    /// An app path to open, e.g. `/portfolio`.
    pub link: Option<String>,
    pub read_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, user_id, kind, title, body, link, read_at, created_at";

/// Stores notifications in one transaction.
pub async fn insert_many(db: &Db, notifications: &[Notification]) -> StoreResult<()> {
    if notifications.is_empty() {
        return Ok(());
    }
    let sql = format!("INSERT INTO notifications ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for n in notifications {
            sqlx::query(&sql)
                .bind(&n.id)
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.title)
                .bind(&n.body)
                .bind(&n.link)
                .bind(n.read_at)
                .bind(n.created_at)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// Whether a user has a notification of `kind` titled `title` written at or after `since`.
pub async fn exists_since(db: &Db, user_id: &str, kind: &str, title: &str, since: DateTime<Utc>) -> StoreResult<bool> {
    let found: Option<i32> = with_db!(db, pool => {
        sqlx::query_scalar("SELECT 1 FROM notifications WHERE user_id = $1 AND kind = $2 AND title = $3 AND created_at >= $4 LIMIT 1")
            .bind(user_id)
            .bind(kind)
            .bind(title)
            .bind(since)
            .fetch_optional(pool)
            .await?
    });
    Ok(found.is_some())
}

/// A user's newest notifications, at most `limit`.
pub async fn list(db: &Db, user_id: &str, limit: u32) -> StoreResult<Vec<Notification>> {
    let sql = format!("SELECT {COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Notification>(&sql).bind(user_id).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// How many of a user's notifications are unread.
pub async fn unread_count(db: &Db, user_id: &str) -> StoreResult<i64> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL").bind(user_id).fetch_one(pool).await?
    }))
}

/// Marks one of a user's notifications read; whether the user has it.
pub async fn mark_read(db: &Db, user_id: &str, id: &str, at: DateTime<Utc>) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE notifications SET read_at = COALESCE(read_at, $1) WHERE id = $2 AND user_id = $3")
            .bind(at)
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Marks every unread notification of a user read; how many.
pub async fn mark_all_read(db: &Db, user_id: &str, at: DateTime<Utc>) -> StoreResult<u64> {
    Ok(with_db!(db, pool => {
        sqlx::query("UPDATE notifications SET read_at = $1 WHERE user_id = $2 AND read_at IS NULL")
            .bind(at)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    }))
}
