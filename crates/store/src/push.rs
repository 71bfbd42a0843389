//! The `push_subscriptions` table: the browsers a user subscribed to Web Push (one row per
//! push-service endpoint).

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// One browser's subscription.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PushSubscription {
    pub id: String,
    pub user_id: String,
    /// The push service's URL for the browser.
    pub endpoint: String,
    /// base64url: the browser's P-256 public key and its authentication secret.
    pub p256dh: String,
    pub auth_secret: String,
    pub label: String,
    pub created_at: DateTime<Utc>,
    pub last_delivered_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, user_id, endpoint, p256dh, auth_secret, label, created_at, last_delivered_at";

/// Stores `s`, unless its user already holds `max` other subscriptions (`false`). A browser
/// subscribes once: an endpoint stored already (the same browser subscribing again, or signed
/// in to another account) is replaced, under the new id, so what was queued for the old row is
/// never pushed to it. The cap is counted after locking the user's row.
pub async fn insert_within(db: &Db, s: &PushSubscription, max: u32) -> StoreResult<bool> {
    let sql = format!(
        "INSERT INTO push_subscriptions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (endpoint) DO UPDATE SET id = excluded.id, user_id = excluded.user_id, p256dh = excluded.p256dh, \
         auth_secret = excluded.auth_secret, label = excluded.label, created_at = excluded.created_at, last_delivered_at = NULL"
    );
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(&s.user_id).execute(&mut *tx).await?;
        let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1 AND endpoint <> $2")
            .bind(&s.user_id)
            .bind(&s.endpoint)
            .fetch_one(&mut *tx)
            .await?;
        if held >= i64::from(max) {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(&sql)
            .bind(&s.id)
            .bind(&s.user_id)
            .bind(&s.endpoint)
            .bind(&s.p256dh)
            .bind(&s.auth_secret)
            .bind(&s.label)
            .bind(s.created_at)
            .bind(s.last_delivered_at)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A user's subscriptions, newest first.
pub async fn for_user(db: &Db, user_id: &str) -> StoreResult<Vec<PushSubscription>> {
    let sql = format!("SELECT {COLUMNS} FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, PushSubscription>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// The subscription `id`, whoever holds it.
pub async fn by_id(db: &Db, id: &str) -> StoreResult<Option<PushSubscription>> {
    let sql = format!("SELECT {COLUMNS} FROM push_subscriptions WHERE id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, PushSubscription>(&sql).bind(id).fetch_optional(pool).await?))
}

/// Deletes one of `user_id`'s subscriptions ([`StoreError::NotFound`] for anyone else's).
pub async fn delete_for_user(db: &Db, user_id: &str, id: &str) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Deletes the subscription `id` (the push service said it is gone); whether it was there.
pub async fn delete(db: &Db, id: &str) -> StoreResult<bool> {
    let done =
        with_db!(db, pool => sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(pool).await?.rows_affected());
    Ok(done > 0)
}

/// Records a message the push service accepted.
pub async fn mark_delivered(db: &Db, id: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE push_subscriptions SET last_delivered_at = $1 WHERE id = $2").bind(at).bind(id).execute(pool).await?;
    });
    Ok(())
}
