//! Sliding-window rate-limit counters shared by every instance.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// Times of the hits on `bucket` since `since`, oldest first.
pub async fn hits_since(db: &Db, bucket: &str, since: DateTime<Utc>) -> StoreResult<Vec<DateTime<Utc>>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar("SELECT hit_at FROM rate_limit_hits WHERE bucket = $1 AND hit_at > $2 ORDER BY hit_at")
            .bind(bucket)
            .bind(since)
            .fetch_all(pool)
            .await?
    }))
}

/// Records one hit on `bucket`.
pub async fn record(db: &Db, bucket: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("INSERT INTO rate_limit_hits (id, bucket, hit_at) VALUES ($1, $2, $3)")
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(bucket)
            .bind(at)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Deletes hits older than `before`; returns how many.
pub async fn delete_before(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    Ok(with_db!(db, pool => {
        sqlx::query("DELETE FROM rate_limit_hits WHERE hit_at <= $1").bind(before).execute(pool).await?.rows_affected()
    }))
}
