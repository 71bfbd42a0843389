//! The `trading_accounts` table: a user's trading accounts ("Taxable", "IRA", "Paper"), each
//! with its own capital, preferences and automation switch; positions, multi-leg positions and
//! daily values belong to one. Exactly one of a user's accounts is current (a unique partial
//! index): registration makes the first, and switching is one transaction.

use chrono::{DateTime, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A stored trading account. Money in whole cents.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountRow {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub investment_capital_cents: i64,
    /// `low | medium | high`.
    pub risk_tolerance: String,
    pub max_position_size_cents: i64,
    /// Comma-separated strategy names.
    pub preferred_strategies: String,
    /// Whether the automation opens paper positions here.
    pub automate: bool,
    pub is_current: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The account's kill switch: while set, no new order is sent for it.
    pub orders_halted: bool,
}

/// The name every user's first account gets.
pub const FIRST_ACCOUNT_NAME: &str = "Main";

/// The preferences a first account starts with (as the schema's old user defaults): $1,000 of
/// capital, medium risk, $100 a position, Momentum and Breakout.
pub const DEFAULT_CAPITAL_CENTS: i64 = 100_000;
pub const DEFAULT_RISK_TOLERANCE: &str = "medium";
pub const DEFAULT_MAX_POSITION_CENTS: i64 = 10_000;
pub const DEFAULT_STRATEGIES: &str = "Momentum,Breakout";

pub(crate) const COLUMNS: &str = "id, user_id, name, investment_capital_cents, risk_tolerance, max_position_size_cents, \
    preferred_strategies, automate, is_current, created_at, updated_at, orders_halted";

pub(crate) const INSERT: &str = "INSERT INTO trading_accounts (id, user_id, name, name_key, investment_capital_cents, risk_tolerance, \
    max_position_size_cents, preferred_strategies, automate, is_current, created_at, updated_at, orders_halted) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

/// Binds `$row` to [`INSERT`].
macro_rules! bind_account {
    ($query:expr, $row:expr) => {
        $query
            .bind(&$row.id)
            .bind(&$row.user_id)
            .bind(&$row.name)
            .bind($row.name.to_lowercase())
            .bind($row.investment_capital_cents)
            .bind(&$row.risk_tolerance)
            .bind($row.max_position_size_cents)
            .bind(&$row.preferred_strategies)
            .bind($row.automate)
            .bind($row.is_current)
            .bind($row.created_at)
            .bind($row.updated_at)
            .bind($row.orders_halted)
    };
}

/// The first account of a user registered at `at`: current, with the default preferences.
pub fn first_account(user_id: &str, at: DateTime<Utc>) -> AccountRow {
    AccountRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.to_owned(),
        name: FIRST_ACCOUNT_NAME.to_owned(),
        investment_capital_cents: DEFAULT_CAPITAL_CENTS,
        risk_tolerance: DEFAULT_RISK_TOLERANCE.to_owned(),
        max_position_size_cents: DEFAULT_MAX_POSITION_CENTS,
        preferred_strategies: DEFAULT_STRATEGIES.to_owned(),
        automate: true,
        is_current: true,
        created_at: at,
        updated_at: at,
        orders_halted: false,
    }
}

pub(crate) use bind_account;

/// A user's accounts, oldest first (the order the plan's number counts them in).
pub async fn for_user(db: &Db, user_id: &str) -> StoreResult<Vec<AccountRow>> {
    let sql = format!("SELECT {COLUMNS} FROM trading_accounts WHERE user_id = $1 ORDER BY created_at, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, AccountRow>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// One of `user_id`'s accounts ([`StoreError::NotFound`] for anyone else's).
pub async fn find(db: &Db, user_id: &str, id: &str) -> StoreResult<AccountRow> {
    let sql = format!("SELECT {COLUMNS} FROM trading_accounts WHERE id = $1 AND user_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, AccountRow>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// `user_id`'s current account.
pub async fn current(db: &Db, user_id: &str) -> StoreResult<AccountRow> {
    let sql = format!("SELECT {COLUMNS} FROM trading_accounts WHERE user_id = $1 AND is_current");
    with_db!(db, pool => sqlx::query_as::<_, AccountRow>(&sql).bind(user_id).fetch_optional(pool).await?).ok_or(StoreError::NotFound)
}

/// Stores `row` (not current) unless its owner already holds `max` accounts; whether it was
/// stored. The count and the insert are one transaction after locking the owner's row, so
/// parallel requests cannot pass the cap. A name the owner already uses (whatever its case) is
/// [`StoreError::Conflict`]`("name")`.
pub async fn insert_within(db: &Db, row: &AccountRow, max: u32) -> StoreResult<bool> {
    let row = AccountRow { is_current: false, ..row.clone() };
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &row.user_id, "SELECT COUNT(*) FROM trading_accounts WHERE user_id = $1", max);
        bind_account!(sqlx::query(INSERT), row).execute(&mut *tx).await.map_err(StoreError::from_write)?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A change to an account: what is `None` keeps its stored value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountUpdate {
    pub name: Option<String>,
    pub investment_capital_cents: Option<i64>,
    pub risk_tolerance: Option<String>,
    pub max_position_size_cents: Option<i64>,
    pub preferred_strategies: Option<String>,
    pub automate: Option<bool>,
    pub orders_halted: Option<bool>,
}

/// Applies `update` to one of `user_id`'s accounts in one statement (two changes sent at once to
/// different fields both stay); the account as stored after. [`StoreError::NotFound`] for anyone
/// else's, [`StoreError::Conflict`]`("name")` for a name the owner already uses.
pub async fn update(db: &Db, user_id: &str, id: &str, update: &AccountUpdate, now: DateTime<Utc>) -> StoreResult<AccountRow> {
    let sql = format!(
        "UPDATE trading_accounts SET name = COALESCE($1, name), name_key = COALESCE($2, name_key), \
         investment_capital_cents = COALESCE($3, investment_capital_cents), risk_tolerance = COALESCE($4, risk_tolerance), \
         max_position_size_cents = COALESCE($5, max_position_size_cents), preferred_strategies = COALESCE($6, preferred_strategies), \
         automate = COALESCE($7, automate), orders_halted = COALESCE($11, orders_halted), updated_at = $8 \
         WHERE id = $9 AND user_id = $10 RETURNING {COLUMNS}"
    );
    with_db!(db, pool => {
        sqlx::query_as::<_, AccountRow>(&sql)
            .bind(&update.name)
            .bind(update.name.as_ref().map(|n| n.to_lowercase()))
            .bind(update.investment_capital_cents)
            .bind(&update.risk_tolerance)
            .bind(update.max_position_size_cents)
            .bind(&update.preferred_strategies)
            .bind(update.automate)
            .bind(now)
            .bind(id)
            .bind(user_id)
            .bind(update.orders_halted)
            .fetch_optional(pool)
            .await
            .map_err(StoreError::from_write)?
    })
    .ok_or(StoreError::NotFound)
}

/// Makes one of `user_id`'s accounts the current one, in one transaction (the others stop being
/// current first, so the unique index never sees two). [`StoreError::NotFound`] for anyone
/// else's account, and then nothing changes.
pub async fn switch_current(db: &Db, user_id: &str, id: &str, now: DateTime<Utc>) -> StoreResult<AccountRow> {
    let sql = format!("UPDATE trading_accounts SET is_current = TRUE, updated_at = $1 WHERE id = $2 AND user_id = $3 RETURNING {COLUMNS}");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // Lock the owner first: two switches at once take turns instead of deadlocking.
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        sqlx::query("UPDATE trading_accounts SET is_current = FALSE WHERE user_id = $1 AND is_current AND id <> $2")
            .bind(user_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let Some(row) = sqlx::query_as::<_, AccountRow>(&sql).bind(now).bind(id).bind(user_id).fetch_optional(&mut *tx).await? else {
            tx.rollback().await?;
            return Err(StoreError::NotFound);
        };
        tx.commit().await?;
        Ok(row)
    })
}

/// Why an account could not be deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// It is the current account: switch to another first.
    Current,
    /// It still holds open positions (single-leg, automated or multi-leg) or standing orders.
    OpenPositions,
}

/// Deletes one of `user_id`'s accounts with its closed positions, finished orders and daily
/// values, unless it is current or holds an open position or a standing order (checked and deleted in one transaction after locking the
/// owner, so a switch or a new position cannot slip between). [`StoreError::NotFound`] for
/// anyone else's.
pub async fn delete(db: &Db, user_id: &str, id: &str) -> StoreResult<Result<(), Kept>> {
    const OPEN: &str = "SELECT (SELECT COUNT(*) FROM manual_positions WHERE account_id = $1 AND status = 'open') \
        + (SELECT COUNT(*) FROM portfolio_positions WHERE account_id = $1 AND status = 'open') \
        + (SELECT COUNT(*) FROM structure_positions WHERE account_id = $1 AND status = 'open') \
        + (SELECT COUNT(*) FROM orders WHERE account_id = $1 AND status IN ('new', 'accepted', 'partially_filled'))";
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        let current: Option<bool> = sqlx::query_scalar("SELECT is_current FROM trading_accounts WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
        let kept = match current {
            None => {
                tx.rollback().await?;
                return Err(StoreError::NotFound);
            }
            Some(true) => Some(Kept::Current),
            Some(false) => {
                let open: i64 = sqlx::query_scalar(OPEN).bind(id).fetch_one(&mut *tx).await?;
                (open > 0).then_some(Kept::OpenPositions)
            }
        };
        if let Some(kept) = kept {
            tx.rollback().await?;
            return Ok(Err(kept));
        }
        sqlx::query("DELETE FROM trading_accounts WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(Ok(()))
    })
}

/// An account the automation works in, with its place among its owner's accounts (1 for the
/// oldest), which the owner's plan is checked against.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Automating {
    #[sqlx(flatten)]
    pub account: AccountRow,
    pub place: i64,
}

/// Every account whose automation is on, by owner and age: the automation's one read a tick.
pub async fn automating(db: &Db) -> StoreResult<Vec<Automating>> {
    let sql = format!(
        "SELECT {COLUMNS}, place FROM (SELECT {COLUMNS}, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at, id) AS place \
         FROM trading_accounts) ranked WHERE automate ORDER BY user_id, place"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, Automating>(&sql).fetch_all(pool).await?))
}

/// Every account of every user (for the daily valuation of all), by owner and age.
pub async fn all(db: &Db) -> StoreResult<Vec<AccountRow>> {
    let sql = format!("SELECT {COLUMNS} FROM trading_accounts ORDER BY user_id, created_at, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, AccountRow>(&sql).fetch_all(pool).await?))
}
