//! The `sms_phones` table: each user's phone number for text messages, its verification, the
//! carrier's opt-out, what is texted and the quiet hours.

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A user's phone.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SmsPhone {
    pub user_id: String,
    /// E.164.
    pub phone: String,
    pub verified_at: Option<DateTime<Utc>>,
    pub opted_out_at: Option<DateTime<Utc>>,
    pub code_hash: Option<String>,
    pub code_expires_at: Option<DateTime<Utc>>,
    pub code_attempts: i32,
    /// Notification kinds texted, comma-separated.
    pub events: String,
    pub quiet_start_minute: Option<i32>,
    pub quiet_end_minute: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "user_id, phone, verified_at, opted_out_at, code_hash, code_expires_at, code_attempts, events, \
    quiet_start_minute, quiet_end_minute, created_at, updated_at";

pub async fn get(db: &Db, user_id: &str) -> StoreResult<Option<SmsPhone>> {
    let sql = format!("SELECT {COLUMNS} FROM sms_phones WHERE user_id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, SmsPhone>(&sql).bind(user_id).fetch_optional(pool).await?))
}

/// Sets `phone` as the user's number awaiting the code whose hash is `code_hash`: unverified
/// until the code comes back, with no wrong tries. A number changed to another loses its
/// opt-out (it was the old number's); the same number keeps it, and the kinds and quiet hours
/// stay.
pub async fn start_verification(
    db: &Db,
    user_id: &str,
    phone: &str,
    code_hash: &str,
    expires_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO sms_phones (user_id, phone, code_hash, code_expires_at, code_attempts, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, 0, $5, $5) \
             ON CONFLICT (user_id) DO UPDATE SET \
             opted_out_at = CASE WHEN sms_phones.phone = excluded.phone THEN sms_phones.opted_out_at ELSE NULL END, \
             phone = excluded.phone, verified_at = NULL, code_hash = excluded.code_hash, \
             code_expires_at = excluded.code_expires_at, code_attempts = 0, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(phone)
        .bind(code_hash)
        .bind(expires_at)
        .bind(now)
        .execute(pool)
        .await?;
    });
    Ok(())
}

/// What a code sent back came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    Verified,
    /// Wrong; this many tries are left.
    Wrong {
        left: i32,
    },
    /// No code is waiting, it ran out, or its tries are used up: ask for a new one.
    NoCode,
}

/// Checks `code_hash` against the waiting code, counting a wrong try, in one transaction (a
/// row lock on PostgreSQL; SQLite writes one at a time): parallel guesses cannot exceed
/// `max_attempts` between them.
pub async fn verify(db: &Db, user_id: &str, code_hash: &str, max_attempts: i32, now: DateTime<Utc>) -> StoreResult<Verification> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // Take the row's write lock before reading it.
        sqlx::query("UPDATE sms_phones SET updated_at = updated_at WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        let row: Option<(Option<String>, Option<DateTime<Utc>>, i32)> =
            sqlx::query_as("SELECT code_hash, code_expires_at, code_attempts FROM sms_phones WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?;
        let outcome = match row {
            Some((Some(stored), Some(expires), attempts)) if expires > now && attempts < max_attempts => {
                if stored == code_hash {
                    sqlx::query(
                        "UPDATE sms_phones SET verified_at = $1, code_hash = NULL, code_expires_at = NULL, code_attempts = 0, \
                         updated_at = $1 WHERE user_id = $2",
                    )
                    .bind(now)
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                    Verification::Verified
                } else {
                    sqlx::query("UPDATE sms_phones SET code_attempts = code_attempts + 1, updated_at = $1 WHERE user_id = $2")
                        .bind(now)
                        .bind(user_id)
                        .execute(&mut *tx)
                        .await?;
                    Verification::Wrong { left: max_attempts - attempts - 1 }
                }
            }
            _ => Verification::NoCode,
        };
        tx.commit().await?;
        Ok(outcome)
    })
}

/// Saves the kinds texted and the quiet hours ([`StoreError::NotFound`] without a phone).
pub async fn set_preferences(db: &Db, user_id: &str, events: &str, quiet: Option<(i32, i32)>, now: DateTime<Utc>) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE sms_phones SET events = $1, quiet_start_minute = $2, quiet_end_minute = $3, updated_at = $4 WHERE user_id = $5",
        )
        .bind(events)
        .bind(quiet.map(|q| q.0))
        .bind(quiet.map(|q| q.1))
        .bind(now)
        .bind(user_id)
        .execute(pool)
        .await?
        .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Forgets the user's phone; whether there was one.
pub async fn delete(db: &Db, user_id: &str) -> StoreResult<bool> {
    let done =
        with_db!(db, pool => sqlx::query("DELETE FROM sms_phones WHERE user_id = $1").bind(user_id).execute(pool).await?.rows_affected());
    Ok(done > 0)
}

/// Marks every row with `phone` opted out (STOP) or back in (START, `at` = None); how many.
pub async fn set_opt_out(db: &Db, phone: &str, at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> StoreResult<u64> {
    Ok(with_db!(db, pool => {
        sqlx::query("UPDATE sms_phones SET opted_out_at = $1, updated_at = $2 WHERE phone = $3")
            .bind(at)
            .bind(now)
            .bind(phone)
            .execute(pool)
            .await?
            .rows_affected()
    }))
}
