//! The `webhook_endpoints` and `webhook_attempts` tables: where users want events delivered,
//! and what each delivery attempt came to (the log the Settings screen shows).

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A registered endpoint.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Endpoint {
    pub id: String,
    pub user_id: String,
    pub url: String,
    /// `new_signal | price_alert | signal_closed | position_closed`.
    pub event_type: String,
    /// `whsec_…`: shown to the owner once, at creation.
    pub secret: String,
    pub is_active: bool,
    /// When the current run of failed deliveries began; `None` while deliveries succeed.
    pub failing_since: Option<DateTime<Utc>>,
    /// When the endpoint was switched off after failing for too long.
    pub disabled_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// The trading account whose positions it hears about; `None` for all of the owner's.
    pub account_id: Option<String>,
}

const COLUMNS: &str = "id, user_id, url, event_type, secret, is_active, failing_since, disabled_at, created_at, account_id";

/// Stores an endpoint unless its user already has `max_per_user`; whether it was stored.
/// Count and insert are one transaction after locking the user's row.
pub async fn insert_within(db: &Db, endpoint: &Endpoint, max_per_user: u32) -> StoreResult<bool> {
    let sql = format!("INSERT INTO webhook_endpoints ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &endpoint.user_id, "SELECT COUNT(*) FROM webhook_endpoints WHERE user_id = $1", max_per_user);
        sqlx::query(&sql)
            .bind(&endpoint.id)
            .bind(&endpoint.user_id)
            .bind(&endpoint.url)
            .bind(&endpoint.event_type)
            .bind(&endpoint.secret)
            .bind(endpoint.is_active)
            .bind(endpoint.failing_since)
            .bind(endpoint.disabled_at)
            .bind(endpoint.created_at)
            .bind(&endpoint.account_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A user's endpoints, newest first.
pub async fn list(db: &Db, user_id: &str) -> StoreResult<Vec<Endpoint>> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE user_id = $1 ORDER BY created_at DESC, id DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Endpoint>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// One of a user's endpoints.
pub async fn get(db: &Db, user_id: &str, id: &str) -> StoreResult<Option<Endpoint>> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1 AND user_id = $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Endpoint>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?))
}

/// An endpoint by id, whoever owns it (the delivery worker).
pub async fn by_id(db: &Db, id: &str) -> StoreResult<Option<Endpoint>> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Endpoint>(&sql).bind(id).fetch_optional(pool).await?))
}

/// The active endpoints subscribed to `event_type`, of every user.
pub async fn subscribed(db: &Db, event_type: &str) -> StoreResult<Vec<Endpoint>> {
    let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE event_type = $1 AND is_active = TRUE ORDER BY created_at, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Endpoint>(&sql).bind(event_type).fetch_all(pool).await?))
}

/// Deletes one of a user's endpoints (its queued deliveries and log go with it); whether it
/// existed.
pub async fn delete(db: &Db, user_id: &str, id: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    Ok(done > 0)
}

/// Records a successful delivery: the endpoint is no longer failing.
pub async fn mark_succeeded(db: &Db, id: &str) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL").bind(id).execute(pool).await?;
    });
    Ok(())
}

/// Records a failed delivery at `at`; the time the current run of failures began.
pub async fn mark_failed(db: &Db, id: &str, at: DateTime<Utc>) -> StoreResult<Option<DateTime<Utc>>> {
    Ok(with_db!(db, pool => {
        sqlx::query("UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $1) WHERE id = $2").bind(at).bind(id).execute(pool).await?;
        sqlx::query_scalar::<_, Option<DateTime<Utc>>>("SELECT failing_since FROM webhook_endpoints WHERE id = $1").bind(id).fetch_optional(pool).await?.flatten()
    }))
}

/// Switches an endpoint off at `at` and fails its pending deliveries; whether this call did
/// it (it was still active).
pub async fn disable(db: &Db, id: &str, at: DateTime<Utc>, reason: &str) -> StoreResult<bool> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let done = sqlx::query("UPDATE webhook_endpoints SET is_active = FALSE, disabled_at = $1 WHERE id = $2 AND is_active = TRUE")
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("UPDATE outbox SET status = 'failed', last_error = $1 WHERE endpoint_id = $2 AND status = 'pending'")
            .bind(reason)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done > 0)
    })
}

/// Switches one of a user's endpoints on again (a fresh start: not failing); whether the user
/// has it.
pub async fn enable(db: &Db, user_id: &str, id: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE webhook_endpoints SET is_active = TRUE, disabled_at = NULL, failing_since = NULL WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// One delivery attempt.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Attempt {
    pub id: String,
    pub message_id: String,
    pub endpoint_id: String,
    pub attempted_at: DateTime<Utc>,
    /// The receiver's status; `None` when no answer came (refused, timed out, unreachable).
    pub status_code: Option<i32>,
    pub latency_ms: i64,
    pub succeeded: bool,
    pub error: Option<String>,
}

const ATTEMPT_COLUMNS: &str = "id, message_id, endpoint_id, attempted_at, status_code, latency_ms, succeeded, error";

/// Logs an attempt; `false` when there is nothing left to log it against: the endpoint (and
/// with it the message) was deleted while the attempt was under way. That race is the
/// owner's own doing, not a fault, so it is not an error.
pub async fn log_attempt(db: &Db, attempt: &Attempt) -> StoreResult<bool> {
    let sql = format!("INSERT INTO webhook_attempts ({ATTEMPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    let inserted = with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&attempt.id)
            .bind(&attempt.message_id)
            .bind(&attempt.endpoint_id)
            .bind(attempt.attempted_at)
            .bind(attempt.status_code)
            .bind(attempt.latency_ms)
            .bind(attempt.succeeded)
            .bind(&attempt.error)
            .execute(pool)
            .await
            .map(|_| ())
    });
    match inserted {
        Ok(()) => Ok(true),
        Err(sqlx::Error::Database(err)) if err.is_foreign_key_violation() => Ok(false),
        Err(err) => Err(err.into()),
    }
}

/// An endpoint's newest attempts, at most `limit`.
pub async fn attempts(db: &Db, endpoint_id: &str, limit: u32) -> StoreResult<Vec<Attempt>> {
    let sql = format!("SELECT {ATTEMPT_COLUMNS} FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY attempted_at DESC, id DESC LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Attempt>(&sql).bind(endpoint_id).bind(i64::from(limit)).fetch_all(pool).await?))
}
