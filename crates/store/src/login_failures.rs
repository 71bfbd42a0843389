//! Failed sign-in attempts, kept in the database so every instance throttles alike.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// Records one failed attempt.
pub async fn record(db: &Db, email: &str, ip: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("INSERT INTO login_failures (id, email, ip, failed_at) VALUES ($1, $2, $3, $4)")
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(email)
            .bind(ip)
            .bind(at)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Times of an account's failures since `since`, oldest first.
pub async fn for_email(db: &Db, email: &str, since: DateTime<Utc>) -> StoreResult<Vec<DateTime<Utc>>> {
    window(db, "email", email, since).await
}

/// Times of an IP address's failures since `since`, oldest first.
pub async fn for_ip(db: &Db, ip: &str, since: DateTime<Utc>) -> StoreResult<Vec<DateTime<Utc>>> {
    window(db, "ip", ip, since).await
}

async fn window(db: &Db, column: &'static str, value: &str, since: DateTime<Utc>) -> StoreResult<Vec<DateTime<Utc>>> {
    let sql = format!("SELECT failed_at FROM login_failures WHERE {column} = $1 AND failed_at > $2 ORDER BY failed_at");
    Ok(with_db!(db, pool => sqlx::query_scalar(&sql).bind(value).bind(since).fetch_all(pool).await?))
}

/// Forgets an account's failures after it signs in successfully.
pub async fn clear_email(db: &Db, email: &str) -> StoreResult<()> {
    with_db!(db, pool => { sqlx::query("DELETE FROM login_failures WHERE email = $1").bind(email).execute(pool).await?; });
    Ok(())
}

/// Deletes failures older than `before`; returns how many.
pub async fn delete_before(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM login_failures WHERE failed_at <= $1").bind(before).execute(pool).await?.rows_affected()
    });
    Ok(done)
}
