//! The `api_keys` table: public API keys. Only a key's SHA-256 is stored (`key_hash`); the
//! key itself is shown once, when it is created, and can never be read back.

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A stored key (never the key itself).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ApiKeyRecord {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub key_prefix: String,
    /// `read | write | admin`.
    pub permissions: String,
    pub is_active: bool,
    pub last_used_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The trading account it acts on; `None` follows the owner's current account.
    pub account_id: Option<String>,
}

/// A key to store.
#[derive(Clone, Debug)]
pub struct NewApiKey {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub key_hash: String,
    pub key_prefix: String,
    pub permissions: String,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// One of the owner's trading accounts, or `None` for whichever is current.
    pub account_id: Option<String>,
}

const COLUMNS: &str = "id, user_id, name, key_prefix, permissions, is_active, last_used_at, expires_at, created_at, updated_at, account_id";

/// Stores a key unless its user already has `max_per_user` keys; returns whether it was stored.
/// The count and the insert are one transaction that first locks the user's row, so parallel
/// requests of one user cannot pass the limit together.
pub async fn insert_within(db: &Db, key: &NewApiKey, max_per_user: u32) -> StoreResult<bool> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &key.user_id, "SELECT COUNT(*) FROM api_keys WHERE user_id = $1", max_per_user);
        sqlx::query(
            "INSERT INTO api_keys (id, user_id, name, key_hash, key_prefix, permissions, is_active, expires_at, created_at, updated_at, \
             account_id) VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8, $9, $10)",
        )
        .bind(&key.id)
        .bind(&key.user_id)
        .bind(&key.name)
        .bind(&key.key_hash)
        .bind(&key.key_prefix)
        .bind(&key.permissions)
        .bind(key.expires_at)
        .bind(key.created_at)
        .bind(key.created_at)
        .bind(&key.account_id)
        .execute(&mut *tx)
        .await
        .map_err(StoreError::from_write)?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A user's keys, newest first.
pub async fn list(db: &Db, user_id: &str) -> StoreResult<Vec<ApiKeyRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ApiKeyRecord>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// One key of `user_id` (another user's id finds nothing).
pub async fn find_owned(db: &Db, user_id: &str, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM api_keys WHERE id = $1 AND user_id = $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ApiKeyRecord>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?))
}

#[derive(sqlx::FromRow)]
struct KeyUserRow {
    #[sqlx(flatten)]
    user: crate::users::UserRecord,
    k_id: String,
    k_name: String,
    k_key_prefix: String,
    k_permissions: String,
    k_is_active: bool,
    k_last_used_at: Option<DateTime<Utc>>,
    k_expires_at: Option<DateTime<Utc>>,
    k_created_at: DateTime<Utc>,
    k_updated_at: DateTime<Utc>,
    k_account_id: Option<String>,
}

fn by_hash_sql() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let key: Vec<String> =
            COLUMNS.split(',').map(|c| format!("k.{0} AS k_{0}", c.trim())).filter(|c| !c.contains("k_user_id")).collect();
        format!(
            "SELECT {}, {} FROM api_keys k JOIN users u ON u.id = k.user_id \
             JOIN trading_accounts a ON a.user_id = u.id AND ((k.account_id IS NULL AND a.is_current) OR a.id = k.account_id) \
             WHERE k.key_hash = $1",
            crate::users::COLUMNS,
            key.join(", ")
        )
    });
    &SQL
}

/// The key with this hash and its owner, whatever the key's state (the caller decides what an
/// inactive or expired key gets): one query, the one every public API request makes. The
/// owner's record carries the key's account (the current one for a key without one), so
/// everything the key reads and writes is that account's.
pub async fn find_by_hash(db: &Db, key_hash: &str) -> StoreResult<Option<(ApiKeyRecord, crate::users::UserRecord)>> {
    let row = with_db!(db, pool => sqlx::query_as::<_, KeyUserRow>(by_hash_sql()).bind(key_hash).fetch_optional(pool).await?);
    Ok(row.map(|r| {
        let key = ApiKeyRecord {
            id: r.k_id,
            user_id: r.user.id.clone(),
            name: r.k_name,
            key_prefix: r.k_key_prefix,
            permissions: r.k_permissions,
            is_active: r.k_is_active,
            last_used_at: r.k_last_used_at,
            expires_at: r.k_expires_at,
            created_at: r.k_created_at,
            updated_at: r.k_updated_at,
            account_id: r.k_account_id,
        };
        (key, r.user)
    }))
}

/// Switches a key of `user_id` on or off; the key as stored after, or `None` when the user
/// has no such key.
pub async fn set_active(db: &Db, user_id: &str, id: &str, active: bool, at: DateTime<Utc>) -> StoreResult<Option<ApiKeyRecord>> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE api_keys SET is_active = $1, updated_at = $2 WHERE id = $3 AND user_id = $4")
            .bind(active)
            .bind(at)
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    if done == 0 { Ok(None) } else { find_owned(db, user_id, id).await }
}

/// Deletes a key of `user_id`; whether there was one.
pub async fn delete(db: &Db, user_id: &str, id: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM api_keys WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    Ok(done > 0)
}

/// Records that a key was used at `at`. Written at most once a minute per key (the caller's
/// `since` is the stored value it saw), so a busy key does not write on every request.
pub async fn touch(db: &Db, id: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)")
            .bind(at)
            .bind(id)
            .execute(pool)
            .await?;
    });
    Ok(())
}
