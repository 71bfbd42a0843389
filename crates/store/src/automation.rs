//! Scheduler state shared by every instance: named settings (running or stopped, last runs)
//! and the leader lease that lets exactly one instance run the scheduler.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A stored setting's value, if set.
pub async fn get(db: &Db, name: &str) -> StoreResult<Option<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, String>("SELECT value FROM automation_state WHERE name = $1")
            .bind(name)
            .fetch_optional(pool)
            .await?
    }))
}

/// Sets a setting.
pub async fn set(db: &Db, name: &str, value: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO automation_state (name, value, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(name)
        .bind(value)
        .bind(at)
        .execute(pool)
        .await?;
    });
    Ok(())
}

/// Takes or renews the lease `name` for `holder` until `until`. Succeeds when the lease is
/// free, expired, or already held by `holder`; one statement, so two instances cannot both win.
pub async fn acquire_lease(db: &Db, name: &str, holder: &str, now: DateTime<Utc>, until: DateTime<Utc>) -> StoreResult<bool> {
    let won = with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO automation_state (name, value, holder, expires_at, updated_at) VALUES ($1, 'lease', $2, $3, $4) \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at, \
             updated_at = excluded.updated_at \
             WHERE automation_state.holder = excluded.holder OR automation_state.expires_at IS NULL \
                OR automation_state.expires_at <= $4",
        )
        .bind(name)
        .bind(holder)
        .bind(until)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(won == 1)
}

/// Gives the lease up if `holder` has it.
pub async fn release_lease(db: &Db, name: &str, holder: &str) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE automation_state SET holder = NULL, expires_at = NULL WHERE name = $1 AND holder = $2")
            .bind(name)
            .bind(holder)
            .execute(pool)
            .await?;
    });
    Ok(())
}
