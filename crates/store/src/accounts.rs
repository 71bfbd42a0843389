//! Account links sent by email (confirm the address, reset the password) and the trials each
//! address has had. A link's token is stored only as its SHA-256; using one is a single
//! conditional update, so of two uses at once exactly one wins.

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// Switches off every API key of `$user_id` on the transaction `$tx`; evaluates to how many
/// were on.
macro_rules! revoke_keys {
    ($tx:ident, $user_id:expr, $now:expr) => {
        sqlx::query("UPDATE api_keys SET is_active = FALSE, updated_at = $1 WHERE user_id = $2 AND is_active")
            .bind($now)
            .bind($user_id)
            .execute(&mut *$tx)
            .await?
            .rows_affected()
    };
}

/// What a link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "verify_email",
            Purpose::ResetPassword => "reset_password",
        }
    }
}

/// A link about to be sent.
#[derive(Clone, Debug)]
pub struct NewToken<'a> {
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub purpose: Purpose,
    pub email: &'a str,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// Stores a link's token and ends every unused link of the same purpose the user was sent
/// before: only the newest link works.
pub async fn issue(db: &Db, token: &NewToken<'_>) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // Ended, not deleted: what was sent still counts toward the hourly limits.
        sqlx::query("UPDATE account_tokens SET expires_at = $1 WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1")
            .bind(token.created_at)
            .bind(token.user_id)
            .bind(token.purpose.as_str())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO account_tokens (token_hash, user_id, purpose, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(token.token_hash)
        .bind(token.user_id)
        .bind(token.purpose.as_str())
        .bind(token.email)
        .bind(token.created_at)
        .bind(token.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
    });
    Ok(())
}

/// Marks the user's address confirmed without a link (an operator vouching for it, or a test
/// fixture); whether there was such a user.
pub async fn mark_confirmed(db: &Db, user_id: &str, at: DateTime<Utc>) -> StoreResult<bool> {
    Ok(with_db!(db, pool => {
        sqlx::query("UPDATE users SET email_verified_at = COALESCE(email_verified_at, $1), updated_at = $1 WHERE id = $2")
            .bind(at)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
            == 1
    }))
}

/// The user a link of `purpose` belongs to while it still works (unused, not expired).
pub async fn pending_user(db: &Db, token_hash: &str, purpose: Purpose, now: DateTime<Utc>) -> StoreResult<Option<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "SELECT user_id FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(now)
        .fetch_optional(pool)
        .await?
    }))
}

/// How many links of `purpose` the user was sent since `since` (used or not).
pub async fn sent_since(db: &Db, user_id: &str, purpose: Purpose, since: DateTime<Utc>) -> StoreResult<i64> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM account_tokens WHERE user_id = $1 AND purpose = $2 AND created_at >= $3")
            .bind(user_id)
            .bind(purpose.as_str())
            .bind(since)
            .fetch_one(pool)
            .await?
    }))
}

/// Within `$tx`: marks `$email` confirmed on `$user_id` (`None` when it is no longer the
/// account's address), and starts the Pro trial if the address never had one and the account
/// does not pay already; whether it started. A macro so each engine's transaction expands it.
macro_rules! confirm_and_grant {
    ($tx:ident, $user_id:expr, $email:expr, $email_key:expr, $trial_until:expr, $now:expr) => {{
        let confirmed = sqlx::query(
            "UPDATE users SET email_verified_at = COALESCE(email_verified_at, $1), updated_at = $1 WHERE id = $2 AND email = $3",
        )
        .bind($now)
        .bind($user_id)
        .bind($email)
        .execute(&mut *$tx)
        .await?
        .rows_affected();
        if confirmed == 0 {
            None
        } else {
            let first_trial = sqlx::query("INSERT INTO trial_grants (email_key, granted_at) VALUES ($1, $2) ON CONFLICT (email_key) DO NOTHING")
                .bind($email_key)
                .bind($now)
                .execute(&mut *$tx)
                .await?
                .rows_affected()
                == 1;
            let granted = first_trial
                && sqlx::query(
                    "UPDATE users SET subscription_plan = 'pro', subscription_status = 'trialing', subscription_expires_at = $1, updated_at = $2 \
                     WHERE id = $3 AND subscription_plan = 'free' AND payment_subscription_id IS NULL",
                )
                .bind($trial_until)
                .bind($now)
                .bind($user_id)
                .execute(&mut *$tx)
                .await?
                .rows_affected()
                    == 1;
            if first_trial && !granted {
                // The account already pays: the address keeps its trial for later.
                sqlx::query("DELETE FROM trial_grants WHERE email_key = $1").bind($email_key).execute(&mut *$tx).await?;
            }
            Some(granted)
        }
    }};
}

/// Confirms the address a verification link was sent to, once: marks the link used and the
/// user's address confirmed if it is still the address the link was sent to, and grants the
/// trial (`trial_until`) when `email_key` has never had one and the account is still on Free;
/// all in one transaction. Returns the user's id and whether the trial was granted, or
/// `None` for a link that is unknown, used, expired or for an address since changed.
pub async fn confirm_email(
    db: &Db,
    token_hash: &str,
    email_key: &str,
    trial_until: DateTime<Utc>,
    now: DateTime<Utc>,
) -> StoreResult<Option<(String, bool)>> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let used: Option<(String, String)> = sqlx::query_as(
            "UPDATE account_tokens SET used_at = $1 WHERE token_hash = $2 AND purpose = 'verify_email' \
             AND used_at IS NULL AND expires_at > $1 RETURNING user_id, email",
        )
        .bind(now)
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((user_id, email)) = used else {
            tx.rollback().await?;
            return Ok(None);
        };
        let Some(granted) = confirm_and_grant!(tx, &user_id, &email, email_key, trial_until, now) else {
            tx.rollback().await?;
            return Ok(None);
        };
        tx.commit().await?;
        Ok(Some((user_id, granted)))
    })
}

/// Confirms `user_id`'s address as an operator does (no link): the same as following the link,
/// trial included. `None` when there is no such account; else whether the trial started.
pub async fn confirm_user(
    db: &Db,
    user_id: &str,
    email_key: &str,
    trial_until: DateTime<Utc>,
    now: DateTime<Utc>,
) -> StoreResult<Option<bool>> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let email: Option<String> = sqlx::query_scalar("SELECT email FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await?;
        let Some(email) = email else {
            tx.rollback().await?;
            return Ok(None);
        };
        let granted = confirm_and_grant!(tx, user_id, &email, email_key, trial_until, now);
        tx.commit().await?;
        Ok(granted)
    })
}

/// Sets a new password through a reset link, once: marks the link used, replaces the hash,
/// ends every session and switches off every API key, in one transaction. Returns the user's
/// id and the ended sessions, or `None` for a link that is unknown, used or expired.
pub async fn reset_password(
    db: &Db,
    token_hash: &str,
    password_hash: &str,
    now: DateTime<Utc>,
) -> StoreResult<Option<(String, Vec<String>)>> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let used: Option<(String,)> = sqlx::query_as(
            "UPDATE account_tokens SET used_at = $1 WHERE token_hash = $2 AND purpose = 'reset_password' \
             AND used_at IS NULL AND expires_at > $1 RETURNING user_id",
        )
        .bind(now)
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((user_id,)) = used else {
            tx.rollback().await?;
            return Ok(None);
        };
        let done = sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
            .bind(password_hash)
            .bind(now)
            .bind(&user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        let ended: Vec<String> =
            sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 RETURNING sid").bind(&user_id).fetch_all(&mut *tx).await?;
        revoke_keys!(tx, &user_id, now);
        tx.commit().await?;
        Ok(Some((user_id, ended)))
    })
}

/// Switches off every API key of the user (kept, listed as revoked); how many were on.
pub async fn revoke_api_keys(db: &Db, user_id: &str, now: DateTime<Utc>) -> StoreResult<u64> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let n = revoke_keys!(tx, user_id, now);
        tx.commit().await?;
        Ok(n)
    })
}
