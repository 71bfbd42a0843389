//! Billing: the subscription state on the user row, checkouts (a subscription being bought),
//! invoices, and the payment provider's events. A payment's effects (the new state, its
//! invoice, the checkout it completes, its audit entry) are written in one transaction.

use chrono::{DateTime, Utc};

use crate::audit::AuditEvent;
use crate::{Db, StoreError, StoreResult, with_db};

/// The billing columns of a user, as one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BillingState {
    pub plan: String,
    pub status: String,
    pub billing_interval: Option<String>,
    pub period_started_at: Option<DateTime<Utc>>,
    /// `subscription_expires_at`: the end of the trial or of the paid period.
    pub period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub grace_ends_at: Option<DateTime<Utc>>,
    pub credit_cents: i64,
    pub payment_provider: Option<String>,
    /// The provider's subscription id.
    pub subscription_ref: Option<String>,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
}

impl BillingState {
    /// The billing state stored on `user`.
    pub fn of(user: &crate::users::UserRecord) -> BillingState {
        BillingState {
            plan: user.subscription_plan.clone(),
            status: user.subscription_status.clone(),
            billing_interval: user.billing_interval.clone(),
            period_started_at: user.period_started_at,
            period_end: user.subscription_expires_at,
            cancel_at_period_end: user.cancel_at_period_end,
            grace_ends_at: user.grace_ends_at,
            credit_cents: user.credit_cents,
            payment_provider: user.payment_provider.clone(),
            subscription_ref: user.payment_subscription_id.clone(),
            card_brand: user.card_brand.clone(),
            card_last4: user.card_last4.clone(),
        }
    }
}

/// A subscription being bought.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Checkout {
    pub id: String,
    pub user_id: String,
    pub provider: String,
    pub provider_ref: Option<String>,
    pub client_secret: String,
    pub plan: String,
    pub billing_interval: String,
    pub amount_cents: i64,
    /// `pending | succeeded | failed | voided` (a newer checkout replaced it). At most one
    /// checkout of an account is `pending` (a partial unique index).
    pub status: String,
    pub failure_message: Option<String>,
    pub created_at: DateTime<Utc>,
    pub completed_at: Option<DateTime<Utc>>,
}

const CHECKOUT_COLUMNS: &str = "id, user_id, provider, provider_ref, client_secret, plan, billing_interval, amount_cents, status, \
    failure_message, created_at, completed_at";

/// One invoice: a payment or a failed attempt. Invoices outlive the account: when it is
/// deleted, `user_id` becomes NULL and the invoice (number, amounts, period, plan) is kept,
/// detached from the person (the readers here only find invoices by their user).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Invoice {
    pub id: String,
    pub user_id: String,
    pub number: String,
    pub provider: String,
    pub provider_ref: Option<String>,
    pub description: String,
    pub plan: String,
    pub billing_interval: String,
    /// Charged (after `credit_applied_cents`), in cents.
    pub amount_cents: i64,
    pub credit_applied_cents: i64,
    pub currency: String,
    /// `paid | failed`.
    pub status: String,
    pub failure_message: Option<String>,
    pub period_start: DateTime<Utc>,
    pub period_end: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

const INVOICE_COLUMNS: &str = "id, user_id, number, provider, provider_ref, description, plan, billing_interval, amount_cents, \
    credit_applied_cents, currency, status, failure_message, period_start, period_end, created_at";

/// A change of a user's billing state and what goes with it, written together.
#[derive(Clone, Debug, Default)]
pub struct Transition {
    /// The new state; `None` leaves it (a failed first payment changes no state).
    pub state: Option<BillingState>,
    pub invoice: Option<Invoice>,
    /// The checkout this completes, `succeeded` or `failed` with the provider's message.
    pub checkout: Option<(String, String, Option<String>)>,
    pub audit: Option<AuditEvent>,
}

/// Stores a checkout.
pub async fn insert_checkout(db: &Db, c: &Checkout) -> StoreResult<()> {
    let sql = format!("INSERT INTO checkouts ({CHECKOUT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)");
    with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&c.id)
            .bind(&c.user_id)
            .bind(&c.provider)
            .bind(&c.provider_ref)
            .bind(&c.client_secret)
            .bind(&c.plan)
            .bind(&c.billing_interval)
            .bind(c.amount_cents)
            .bind(&c.status)
            .bind(&c.failure_message)
            .bind(c.created_at)
            .bind(c.completed_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
    });
    Ok(())
}

/// Stores `c` as the account's one open checkout, voiding the open one it replaces, in one
/// transaction taken on the user's row (two checkouts started at once are written one after
/// the other). Answers the checkouts it voided.
pub async fn replace_checkout(db: &Db, c: &Checkout, at: DateTime<Utc>) -> StoreResult<Vec<Checkout>> {
    let insert = format!("INSERT INTO checkouts ({CHECKOUT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)");
    let open = format!("SELECT {CHECKOUT_COLUMNS} FROM checkouts WHERE user_id = $1 AND status = 'pending'");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let exists = sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(&c.user_id).execute(&mut *tx).await?.rows_affected();
        if exists == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        let voided = sqlx::query_as::<_, Checkout>(&open).bind(&c.user_id).fetch_all(&mut *tx).await?;
        sqlx::query("UPDATE checkouts SET status = 'voided', completed_at = $1 WHERE user_id = $2 AND status = 'pending'")
            .bind(at)
            .bind(&c.user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(&insert)
            .bind(&c.id)
            .bind(&c.user_id)
            .bind(&c.provider)
            .bind(&c.provider_ref)
            .bind(&c.client_secret)
            .bind(&c.plan)
            .bind(&c.billing_interval)
            .bind(c.amount_cents)
            .bind(&c.status)
            .bind(&c.failure_message)
            .bind(c.created_at)
            .bind(c.completed_at)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?;
        tx.commit().await?;
        Ok(voided)
    })
}

/// The account's open (pending) checkouts: at most one.
pub async fn open_checkouts(db: &Db, user_id: &str) -> StoreResult<Vec<Checkout>> {
    let sql = format!("SELECT {CHECKOUT_COLUMNS} FROM checkouts WHERE user_id = $1 AND status = 'pending' ORDER BY created_at DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Checkout>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// The checkout with this client secret.
pub async fn checkout_by_secret(db: &Db, client_secret: &str) -> StoreResult<Option<Checkout>> {
    let sql = format!("SELECT {CHECKOUT_COLUMNS} FROM checkouts WHERE client_secret = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Checkout>(&sql).bind(client_secret).fetch_optional(pool).await?))
}

/// The checkout with this provider reference (e.g. Stripe's subscription id).
pub async fn checkout_by_provider_ref(db: &Db, provider: &str, provider_ref: &str) -> StoreResult<Option<Checkout>> {
    let sql = format!("SELECT {CHECKOUT_COLUMNS} FROM checkouts WHERE provider = $1 AND provider_ref = $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Checkout>(&sql).bind(provider).bind(provider_ref).fetch_optional(pool).await?))
}

/// Writes a transition in one transaction, after locking the user's row. With `expected`, only
/// while the stored state is still what the caller decided on (a compare-and-set, so two
/// changes decided on the same reading cannot both be written). A checkout is completed only
/// while it is pending. When either does not hold, nothing is written and `false` comes back.
pub async fn apply(db: &Db, user_id: &str, expected: Option<&BillingState>, t: &Transition, at: DateTime<Utc>) -> StoreResult<bool> {
    // The columns that decide a transition; a match means nothing changed since the reading.
    const GUARD: &str = "SELECT COUNT(*) FROM users WHERE id = $1 AND subscription_plan = $2 AND subscription_status = $3 \
        AND cancel_at_period_end = $4 AND credit_cents = $5 \
        AND ((subscription_expires_at IS NULL AND $6 IS NULL) OR subscription_expires_at = $7)";
    let invoice_sql =
        format!("INSERT INTO invoices ({INVOICE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)");
    let audit_sql =
        "INSERT INTO audit_events (id, user_id, actor_id, action, detail, ip, user_agent, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // A write first: PostgreSQL locks the row, SQLite takes the database's write lock.
        let exists = sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut *tx).await?.rows_affected();
        if exists == 0 {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        }
        if let Some(e) = expected {
            let still: i64 = sqlx::query_scalar(GUARD)
                .bind(user_id)
                .bind(&e.plan)
                .bind(&e.status)
                .bind(e.cancel_at_period_end)
                .bind(e.credit_cents)
                .bind(e.period_end)
                .bind(e.period_end)
                .fetch_one(&mut *tx)
                .await?;
            if still == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        if let Some((checkout_id, status, message)) = &t.checkout {
            let done = sqlx::query(
                "UPDATE checkouts SET status = $1, failure_message = $2, completed_at = $3 WHERE id = $4 AND user_id = $5 AND status = 'pending'",
            )
            .bind(status)
            .bind(message)
            .bind(at)
            .bind(checkout_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if done == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        if let Some(s) = &t.state {
            let done = sqlx::query(
                "UPDATE users SET subscription_plan = $1, subscription_status = $2, billing_interval = $3, period_started_at = $4, \
                 subscription_expires_at = $5, cancel_at_period_end = $6, grace_ends_at = $7, credit_cents = $8, payment_provider = $9, \
                 card_brand = $10, card_last4 = $11, payment_subscription_id = $12, updated_at = $13 WHERE id = $14",
            )
            .bind(&s.plan)
            .bind(&s.status)
            .bind(&s.billing_interval)
            .bind(s.period_started_at)
            .bind(s.period_end)
            .bind(s.cancel_at_period_end)
            .bind(s.grace_ends_at)
            .bind(s.credit_cents)
            .bind(&s.payment_provider)
            .bind(&s.card_brand)
            .bind(&s.card_last4)
            .bind(&s.subscription_ref)
            .bind(at)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if done == 0 {
                tx.rollback().await?;
                return Err(StoreError::NotFound);
            }
        }
        if let Some(i) = &t.invoice {
            sqlx::query(&invoice_sql)
                .bind(&i.id)
                .bind(&i.user_id)
                .bind(&i.number)
                .bind(&i.provider)
                .bind(&i.provider_ref)
                .bind(&i.description)
                .bind(&i.plan)
                .bind(&i.billing_interval)
                .bind(i.amount_cents)
                .bind(i.credit_applied_cents)
                .bind(&i.currency)
                .bind(&i.status)
                .bind(&i.failure_message)
                .bind(i.period_start)
                .bind(i.period_end)
                .bind(i.created_at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_write)?;
        }
        if let Some(e) = &t.audit {
            sqlx::query(audit_sql)
                .bind(&e.id)
                .bind(&e.user_id)
                .bind(&e.actor_id)
                .bind(&e.action)
                .bind(&e.detail)
                .bind(&e.ip)
                .bind(&e.user_agent)
                .bind(e.at)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}

/// A user's invoices, newest first.
pub async fn invoices(db: &Db, user_id: &str) -> StoreResult<Vec<Invoice>> {
    let sql = format!("SELECT {INVOICE_COLUMNS} FROM invoices WHERE user_id = $1 ORDER BY created_at DESC, id DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Invoice>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// One invoice of `user_id` (another user's id finds nothing).
pub async fn invoice(db: &Db, user_id: &str, id: &str) -> StoreResult<Option<Invoice>> {
    let sql = format!("SELECT {INVOICE_COLUMNS} FROM invoices WHERE id = $1 AND user_id = $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Invoice>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?))
}

/// Records a provider event as applied; `false` when it already was (a repeated delivery).
pub async fn record_event(db: &Db, provider: &str, event_id: &str, event_type: &str, at: DateTime<Utc>) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("INSERT INTO payment_events (provider, event_id, event_type, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
            .bind(provider)
            .bind(event_id)
            .bind(event_type)
            .bind(at)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Paid subscriptions whose period has ended by `now` and that renew (not cancelled): the
/// renewal job's work.
pub async fn due_for_renewal(db: &Db, now: DateTime<Utc>) -> StoreResult<Vec<crate::users::UserRecord>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE billing_interval IS NOT NULL AND subscription_expires_at <= $1 \
         AND subscription_status IN ('active', 'past_due') AND cancel_at_period_end = FALSE ORDER BY subscription_expires_at",
        crate::users::COLUMNS,
        crate::users::FROM
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, crate::users::UserRecord>(&sql).bind(now).fetch_all(pool).await?))
}

/// A pending checkout of `user_id` for `plan` billed by `interval`, made since `since` (so a
/// reloaded payment page confirms the same one).
pub async fn pending_checkout(db: &Db, user_id: &str, plan: &str, interval: &str, since: DateTime<Utc>) -> StoreResult<Option<Checkout>> {
    let sql = format!(
        "SELECT {CHECKOUT_COLUMNS} FROM checkouts WHERE user_id = $1 AND plan = $2 AND billing_interval = $3 AND status = 'pending' \
         AND created_at >= $4 ORDER BY created_at DESC LIMIT 1"
    );
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, Checkout>(&sql).bind(user_id).bind(plan).bind(interval).bind(since).fetch_optional(pool).await?
    }))
}

/// Subscriptions that time has ended by `now` but whose row still says otherwise: cancelled
/// at a period end that has passed, or past due beyond the grace period.
pub async fn lapsed(db: &Db, now: DateTime<Utc>) -> StoreResult<Vec<crate::users::UserRecord>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE billing_interval IS NOT NULL AND ( \
           (cancel_at_period_end = TRUE AND subscription_status = 'active' AND subscription_expires_at <= $1) \
           OR (subscription_status = 'past_due' AND grace_ends_at <= $2))",
        crate::users::COLUMNS,
        crate::users::FROM
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, crate::users::UserRecord>(&sql).bind(now).bind(now).fetch_all(pool).await?))
}

/// Accounts on a trial that ends after `from` and at or before `to`.
pub async fn trials_ending(db: &Db, from: DateTime<Utc>, to: DateTime<Utc>) -> StoreResult<Vec<crate::users::UserRecord>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE subscription_status = 'trialing' AND subscription_expires_at > $1 AND subscription_expires_at <= $2",
        crate::users::COLUMNS,
        crate::users::FROM
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, crate::users::UserRecord>(&sql).bind(from).bind(to).fetch_all(pool).await?))
}

/// When `user_id` was last billed (paid or failed), if ever.
pub async fn last_invoice_at(db: &Db, user_id: &str) -> StoreResult<Option<DateTime<Utc>>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, DateTime<Utc>>("SELECT created_at FROM invoices WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?
    }))
}

/// Whether a provider event was already applied.
pub async fn event_seen(db: &Db, provider: &str, event_id: &str) -> StoreResult<bool> {
    let n: i64 = with_db!(db, pool => {
        sqlx::query_scalar("SELECT COUNT(*) FROM payment_events WHERE provider = $1 AND event_id = $2").bind(provider).bind(event_id).fetch_one(pool).await?
    });
    Ok(n > 0)
}

/// Whether the provider's invoice is recorded.
pub async fn invoice_recorded(db: &Db, provider: &str, provider_ref: &str) -> StoreResult<bool> {
    let n: i64 = with_db!(db, pool => {
        sqlx::query_scalar("SELECT COUNT(*) FROM invoices WHERE provider = $1 AND provider_ref = $2").bind(provider).bind(provider_ref).fetch_one(pool).await?
    });
    Ok(n > 0)
}
