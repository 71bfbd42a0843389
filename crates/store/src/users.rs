//! The `users` table.

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A stored account. Money is kept in whole cents so what a user enters reads back exactly.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct UserRecord {
    pub id: String,
    pub email: String,
    pub username: String,
    pub password_hash: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image_url: Option<String>,
    pub role: String,
    pub subscription_plan: String,
    pub subscription_status: String,
    pub subscription_expires_at: Option<DateTime<Utc>>,
    /// The current trading account (`trading_accounts`), whose preferences follow: capital,
    /// risk tolerance, maximum position size and preferred strategies are each account's own.
    pub account_id: String,
    pub investment_capital_cents: i64,
    pub risk_tolerance: String,
    pub max_position_size_cents: i64,
    pub preferred_strategies: String,
    pub email_notifications: bool,
    pub signal_alerts: bool,
    pub portfolio_updates: bool,
    /// `light | dark | system`.
    pub theme: String,
    /// `USD | EUR | GBP`: how money is shown.
    pub currency: String,
    pub auto_update_signals: bool,
    pub high_risk_alerts: bool,
    /// The notification kinds pushed to the user's browsers, comma-separated.
    pub push_events: String,
    /// `monthly | yearly` while a plan is paid for.
    pub billing_interval: Option<String>,
    /// When the paid period that ends at `subscription_expires_at` began.
    pub period_started_at: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    /// Past due: the plan is kept until then unless a payment succeeds.
    pub grace_ends_at: Option<DateTime<Utc>>,
    /// Credit from a downgrade, taken off the next invoice.
    pub credit_cents: i64,
    /// `test | stripe`: who bills this account.
    pub payment_provider: Option<String>,
    /// The provider's customer and subscription ids.
    pub payment_customer_id: Option<String>,
    pub payment_subscription_id: Option<String>,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    /// When the address was confirmed through the emailed link; `None` until then.
    pub email_verified_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What registration supplies; everything else takes the schema's defaults.
#[derive(Clone, Debug)]
pub struct NewUser {
    pub id: String,
    /// Already normalised to lower case.
    pub email: String,
    pub username: String,
    pub password_hash: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub subscription_plan: String,
    pub subscription_status: String,
    pub subscription_expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// A user's columns (`u`) and their current account's preferences (`a`), read from [`FROM`].
pub(crate) const COLUMNS: &str = "u.id, u.email, u.username, u.password_hash, u.first_name, u.last_name, u.profile_image_url, u.role, \
    u.subscription_plan, u.subscription_status, u.subscription_expires_at, a.id AS account_id, a.investment_capital_cents, \
    a.risk_tolerance, a.max_position_size_cents, a.preferred_strategies, u.email_notifications, u.signal_alerts, u.portfolio_updates, \
    u.theme, u.currency, u.auto_update_signals, u.high_risk_alerts, u.push_events, u.billing_interval, u.period_started_at, \
    u.cancel_at_period_end, u.grace_ends_at, u.credit_cents, u.payment_provider, u.payment_customer_id, u.payment_subscription_id, \
    u.card_brand, u.card_last4, u.email_verified_at, u.created_at, u.updated_at";

/// `users u` joined with their current trading account `a` (every user has exactly one): what
/// [`COLUMNS`] reads from, alone or joined to another table on `u.id`.
pub(crate) const FROM: &str = "users u JOIN trading_accounts a ON a.user_id = u.id AND a.is_current";

/// Inserts a user and their first trading account ([`crate::trading_accounts::first_account`])
/// in one transaction. A taken email or username is [`StoreError::Conflict`] naming the field.
pub async fn insert(db: &Db, user: &NewUser) -> StoreResult<UserRecord> {
    const SQL: &str = "INSERT INTO users (id, email, username, username_key, password_hash, first_name, last_name, \
         subscription_plan, subscription_status, subscription_expires_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
    let read = format!("SELECT {COLUMNS} FROM {FROM} WHERE u.id = $1");
    let account = crate::trading_accounts::first_account(&user.id, user.created_at);
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query(SQL)
            .bind(&user.id)
            .bind(&user.email)
            .bind(&user.username)
            .bind(user.username.to_lowercase())
            .bind(&user.password_hash)
            .bind(&user.first_name)
            .bind(&user.last_name)
            .bind(&user.subscription_plan)
            .bind(&user.subscription_status)
            .bind(user.subscription_expires_at)
            .bind(user.created_at)
            .bind(user.created_at)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?;
        crate::trading_accounts::bind_account!(sqlx::query(crate::trading_accounts::INSERT), account).execute(&mut *tx).await?;
        let record = sqlx::query_as::<_, UserRecord>(&read).bind(&user.id).fetch_one(&mut *tx).await?;
        tx.commit().await?;
        Ok(record)
    })
}

/// Finds a user by (lower-cased) email.
pub async fn find_by_email(db: &Db, email: &str) -> StoreResult<Option<UserRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM {FROM} WHERE u.email = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, UserRecord>(&sql).bind(email).fetch_optional(pool).await?))
}

/// Finds a user by id.
pub async fn find_by_id(db: &Db, id: &str) -> StoreResult<Option<UserRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM {FROM} WHERE u.id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, UserRecord>(&sql).bind(id).fetch_optional(pool).await?))
}

/// Counts registered accounts.
pub async fn count(db: &Db) -> StoreResult<i64> {
    Ok(with_db!(db, pool => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users").fetch_one(pool).await?))
}

/// Sets a user's subscription (plan `free|pro|premium`, status, end of period).
pub async fn set_subscription(
    db: &Db,
    id: &str,
    plan: &str,
    status: &str,
    expires_at: Option<DateTime<Utc>>,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE users SET subscription_plan = $1, subscription_status = $2, subscription_expires_at = $3, updated_at = $4 WHERE id = $5",
        )
        .bind(plan)
        .bind(status)
        .bind(expires_at)
        .bind(at)
        .bind(id)
        .execute(pool)
        .await?
        .rows_affected()
    });
    if done == 0 { Err(crate::StoreError::NotFound) } else { Ok(()) }
}

/// Every user, oldest first (for per-user jobs: automated positions, portfolio snapshots).
pub async fn all(db: &Db) -> StoreResult<Vec<UserRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM {FROM} ORDER BY u.created_at, u.id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, UserRecord>(&sql).fetch_all(pool).await?))
}

/// Sets the investment preferences of a user's current account (money in cents; strategies
/// comma-separated).
pub async fn set_investment_preferences(
    db: &Db,
    id: &str,
    capital_cents: i64,
    risk_tolerance: &str,
    max_position_size_cents: i64,
    preferred_strategies: &str,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE trading_accounts SET investment_capital_cents = $1, risk_tolerance = $2, max_position_size_cents = $3, \
             preferred_strategies = $4, updated_at = $5 WHERE user_id = $6 AND is_current",
        )
        .bind(capital_cents)
        .bind(risk_tolerance)
        .bind(max_position_size_cents)
        .bind(preferred_strategies)
        .bind(at)
        .bind(id)
        .execute(pool)
        .await?
        .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// A change to the settings saved on each change (Settings: General, Trading,
/// Notifications): what is `None` keeps its stored value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsUpdate {
    pub theme: Option<String>,
    pub currency: Option<String>,
    pub email_notifications: Option<bool>,
    pub signal_alerts: Option<bool>,
    pub portfolio_updates: Option<bool>,
    pub auto_update_signals: Option<bool>,
    pub high_risk_alerts: Option<bool>,
    pub risk_tolerance: Option<String>,
    pub push_events: Option<String>,
}

/// Applies a settings change field by field, so two changes sent at once to different settings
/// both stay; the risk tolerance is the current account's. One transaction.
pub async fn update_settings(db: &Db, id: &str, update: &SettingsUpdate, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let done = sqlx::query(
            "UPDATE users SET theme = COALESCE($1, theme), currency = COALESCE($2, currency), \
             email_notifications = COALESCE($3, email_notifications), signal_alerts = COALESCE($4, signal_alerts), \
             portfolio_updates = COALESCE($5, portfolio_updates), auto_update_signals = COALESCE($6, auto_update_signals), \
             high_risk_alerts = COALESCE($7, high_risk_alerts), push_events = COALESCE($8, push_events), updated_at = $9 WHERE id = $10",
        )
        .bind(&update.theme)
        .bind(&update.currency)
        .bind(update.email_notifications)
        .bind(update.signal_alerts)
        .bind(update.portfolio_updates)
        .bind(update.auto_update_signals)
        .bind(update.high_risk_alerts)
        .bind(&update.push_events)
        .bind(at)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        if let Some(risk) = &update.risk_tolerance {
            sqlx::query("UPDATE trading_accounts SET risk_tolerance = $1, updated_at = $2 WHERE user_id = $3 AND is_current")
                .bind(risk)
                .bind(at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    })
}

/// Replaces a user's password hash and ends every session but `keep_sid` (the one that asked),
/// in one transaction: a changed password leaves no other session signed in.
pub async fn set_password(db: &Db, id: &str, password_hash: &str, keep_sid: &str, at: DateTime<Utc>) -> StoreResult<Vec<String>> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let done = sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
            .bind(password_hash)
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        let ended: Vec<String> = sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 AND sid <> $2 RETURNING sid")
            .bind(id)
            .bind(keep_sid)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ended)
    })
}

/// Deletes a user and, through the foreign keys, everything that is theirs (sessions,
/// signals generated for them, positions, snapshots, API keys, their audit events); a stock
/// they added to the shared watchlist stays, without their name. Returns the ended sessions.
pub async fn delete(db: &Db, id: &str) -> StoreResult<Vec<String>> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let sids: Vec<String> = sqlx::query_scalar("SELECT sid FROM sessions WHERE user_id = $1").bind(id).fetch_all(&mut *tx).await?;
        let done = sqlx::query("DELETE FROM users WHERE id = $1").bind(id).execute(&mut *tx).await?.rows_affected();
        if done == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        tx.commit().await?;
        Ok(sids)
    })
}

/// The user a payment provider's customer id belongs to.
pub async fn find_by_payment_customer(db: &Db, customer_id: &str) -> StoreResult<Option<UserRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM {FROM} WHERE u.payment_customer_id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, UserRecord>(&sql).bind(customer_id).fetch_optional(pool).await?))
}

/// Records the payment provider's customer id of a user.
pub async fn set_payment_customer(db: &Db, id: &str, customer_id: &str, at: DateTime<Utc>) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE users SET payment_customer_id = $1, updated_at = $2 WHERE id = $3")
            .bind(customer_id)
            .bind(at)
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// The payment provider's customer id of a user, if any.
pub async fn payment_customer(db: &Db, id: &str) -> StoreResult<Option<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, Option<String>>("SELECT payment_customer_id FROM users WHERE id = $1").bind(id).fetch_optional(pool).await?.flatten()
    }))
}
