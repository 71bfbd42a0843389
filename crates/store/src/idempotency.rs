//! Idempotency keys: the first request with a key claims it (one conditional insert, so of
//! two at once exactly one wins) and stores its answer; later ones read it.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// How long an answer is kept for replay.
pub const KEEP_HOURS: i64 = 24;

/// A stored answer.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Answer {
    pub status: i64,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub body: String,
}

/// What a key already holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// The key was free: this request claimed it and is to be answered.
    New,
    /// The key belongs to another request (another hash).
    OtherRequest,
    /// The first request with the key is still being answered (since `since`).
    InProgress { since: DateTime<Utc> },
    /// The first request's answer.
    Answered(Answer),
}

#[derive(sqlx::FromRow)]
struct Row {
    request_hash: String,
    status: Option<i64>,
    content_type: Option<String>,
    location: Option<String>,
    body: Option<String>,
    created_at: DateTime<Utc>,
}

/// Claims `key` in `scope` for the request hashing to `request_hash`, or says what holds it.
pub async fn claim(db: &Db, scope: &str, key: &str, request_hash: &str, now: DateTime<Utc>) -> StoreResult<Claimed> {
    let inserted = with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO idempotency_keys (scope, idem_key, request_hash, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (scope, idem_key) DO NOTHING",
        )
        .bind(scope)
        .bind(key)
        .bind(request_hash)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    if inserted == 1 {
        return Ok(Claimed::New);
    }
    let row: Option<Row> = with_db!(db, pool => {
        sqlx::query_as(
            "SELECT request_hash, status, content_type, location, body, created_at FROM idempotency_keys \
             WHERE scope = $1 AND idem_key = $2",
        )
        .bind(scope)
        .bind(key)
        .fetch_optional(pool)
        .await?
    });
    Ok(match row {
        // Forgotten between the insert and the read (the first request failed): the caller
        // may try again.
        None => Claimed::InProgress { since: now },
        Some(row) if row.request_hash != request_hash => Claimed::OtherRequest,
        Some(Row { status: Some(status), content_type, location, body, .. }) => {
            Claimed::Answered(Answer { status, content_type, location, body: body.unwrap_or_default() })
        }
        Some(row) => Claimed::InProgress { since: row.created_at },
    })
}

/// Stores the answer to the request that claimed `key`.
pub async fn answer(db: &Db, scope: &str, key: &str, answer: &Answer) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "UPDATE idempotency_keys SET status = $1, content_type = $2, location = $3, body = $4 \
             WHERE scope = $5 AND idem_key = $6 AND status IS NULL",
        )
        .bind(answer.status)
        .bind(answer.content_type.as_deref())
        .bind(answer.location.as_deref())
        .bind(&answer.body)
        .bind(scope)
        .bind(key)
        .execute(pool)
        .await?;
    });
    Ok(())
}

/// Frees `key` while its first request is unanswered (it failed, or its answer is not one to
/// replay): a retry is answered afresh.
pub async fn release(db: &Db, scope: &str, key: &str) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND status IS NULL")
            .bind(scope)
            .bind(key)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Deletes the keys claimed before `before`; how many.
pub async fn prune(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    Ok(with_db!(db, pool => {
        sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1").bind(before).execute(pool).await?.rows_affected()
    }))
}
