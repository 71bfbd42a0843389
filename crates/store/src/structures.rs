//! Multi-leg positions held in the portfolio (issue 28): `structure_positions`, one row per
//! position, and `structure_legs`, one per leg (each carrying its owner, so the data export
//! finds them). A position and its legs are written in one transaction.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A held structure. `exercise` is `american | european`; `status` `open | expired | closed`.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct StructureRow {
    pub id: String,
    pub user_id: String,
    pub symbol: String,
    pub name: String,
    pub template: Option<String>,
    pub exercise: String,
    pub status: String,
    /// The P&L at the first expiration's close, once settled.
    pub pnl_cents: Option<i64>,
    /// The underlying's price it was settled at.
    pub settled_price_cents: Option<i64>,
    pub closed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The trading account it is held in (one of `user_id`'s).
    pub account_id: String,
}

/// One leg. `instrument` is `call | put | stock`, `side` `long | short`; an option has a
/// strike and an expiration, stock neither.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct LegRow {
    pub position_id: String,
    pub user_id: String,
    pub leg_index: i64,
    pub instrument: String,
    pub side: String,
    pub quantity: i64,
    pub strike_cents: Option<i64>,
    pub expiration_date: Option<NaiveDate>,
    pub volatility: Option<f64>,
    pub entry_cents: i64,
}

/// A structure with its legs in order.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldStructure {
    pub row: StructureRow,
    pub legs: Vec<LegRow>,
}

impl HeldStructure {
    /// The earliest option expiration (what [`due`] settles by); `None` without an option leg,
    /// which the table's CHECKs and the API's validation never store.
    #[must_use]
    pub fn first_expiration(&self) -> Option<NaiveDate> {
        self.legs.iter().filter_map(|l| l.expiration_date).min()
    }
}

const COLUMNS: &str =
    "id, user_id, symbol, name, template, exercise, status, pnl_cents, settled_price_cents, closed_at, created_at, updated_at, account_id";
const LEG_COLUMNS: &str =
    "position_id, user_id, leg_index, instrument, side, quantity, strike_cents, expiration_date, volatility, entry_cents";

/// Stores a structure and its legs unless its owner already holds `max_open` open ones;
/// whether it was stored. The count and the inserts are one transaction after locking the
/// owner's row, so parallel requests cannot pass the cap.
pub async fn insert_within(db: &Db, s: &StructureRow, legs: &[LegRow], max_open: u32) -> StoreResult<bool> {
    let sql = format!("INSERT INTO structure_positions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)");
    let leg_sql = format!("INSERT INTO structure_legs ({LEG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)");
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        crate::return_if_at_cap!(tx, &s.user_id, "SELECT COUNT(*) FROM structure_positions WHERE user_id = $1 AND status = 'open'", max_open);
        sqlx::query(&sql)
            .bind(&s.id)
            .bind(&s.user_id)
            .bind(&s.symbol)
            .bind(&s.name)
            .bind(&s.template)
            .bind(&s.exercise)
            .bind(&s.status)
            .bind(s.pnl_cents)
            .bind(s.settled_price_cents)
            .bind(s.closed_at)
            .bind(s.created_at)
            .bind(s.updated_at)
            .bind(&s.account_id)
            .execute(&mut *tx)
            .await?;
        for leg in legs {
            sqlx::query(&leg_sql)
                .bind(&leg.position_id)
                .bind(&leg.user_id)
                .bind(leg.leg_index)
                .bind(&leg.instrument)
                .bind(&leg.side)
                .bind(leg.quantity)
                .bind(leg.strike_cents)
                .bind(leg.expiration_date)
                .bind(leg.volatility)
                .bind(leg.entry_cents)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}

/// Pairs rows with their legs (both ordered by position id).
fn assemble(rows: Vec<StructureRow>, legs: Vec<LegRow>) -> Vec<HeldStructure> {
    let mut by_id: std::collections::HashMap<String, Vec<LegRow>> = std::collections::HashMap::new();
    for leg in legs {
        by_id.entry(leg.position_id.clone()).or_default().push(leg);
    }
    rows.into_iter()
        .map(|row| {
            let mut legs = by_id.remove(&row.id).unwrap_or_default();
            legs.sort_by_key(|l| l.leg_index);
            HeldStructure { row, legs }
        })
        .collect()
}

/// An account's structures, newest first.
pub async fn for_account(db: &Db, account_id: &str) -> StoreResult<Vec<HeldStructure>> {
    let sql = format!("SELECT {COLUMNS} FROM structure_positions WHERE account_id = $1 ORDER BY created_at DESC, id");
    let leg_sql =
        format!("SELECT {LEG_COLUMNS} FROM structure_legs WHERE position_id IN (SELECT id FROM structure_positions WHERE account_id = $1)");
    let (rows, legs) = with_db!(db, pool => (
        sqlx::query_as::<_, StructureRow>(&sql).bind(account_id).fetch_all(pool).await?,
        sqlx::query_as::<_, LegRow>(&leg_sql).bind(account_id).fetch_all(pool).await?,
    ));
    Ok(assemble(rows, legs))
}

/// Every account's structures (for the daily valuation of all), grouped by account.
pub async fn all(db: &Db) -> StoreResult<Vec<HeldStructure>> {
    let sql = format!("SELECT {COLUMNS} FROM structure_positions ORDER BY account_id, created_at DESC, id");
    let leg_sql = format!("SELECT {LEG_COLUMNS} FROM structure_legs");
    let (rows, legs) = with_db!(db, pool => (
        sqlx::query_as::<_, StructureRow>(&sql).fetch_all(pool).await?,
        sqlx::query_as::<_, LegRow>(&leg_sql).fetch_all(pool).await?,
    ));
    Ok(assemble(rows, legs))
}

/// Every open structure whose first expiration is on or before `day`, for settling.
pub async fn due(db: &Db, day: NaiveDate) -> StoreResult<Vec<HeldStructure>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM structure_positions p WHERE status = 'open' AND \
         (SELECT MIN(expiration_date) FROM structure_legs l WHERE l.position_id = p.id) <= $1 ORDER BY id"
    );
    let leg_sql = format!(
        "SELECT {LEG_COLUMNS} FROM structure_legs WHERE position_id IN (SELECT p.id FROM structure_positions p WHERE status = 'open' AND \
         (SELECT MIN(expiration_date) FROM structure_legs l WHERE l.position_id = p.id) <= $1)"
    );
    let (rows, legs) = with_db!(db, pool => (
        sqlx::query_as::<_, StructureRow>(&sql).bind(day).fetch_all(pool).await?,
        sqlx::query_as::<_, LegRow>(&leg_sql).bind(day).fetch_all(pool).await?,
    ));
    Ok(assemble(rows, legs))
}

/// One of an account's structures ([`StoreError::NotFound`] for any other account's).
pub async fn find(db: &Db, account_id: &str, id: &str) -> StoreResult<HeldStructure> {
    let sql = format!("SELECT {COLUMNS} FROM structure_positions WHERE id = $1 AND account_id = $2");
    let leg_sql = format!(
        "SELECT {LEG_COLUMNS} FROM structure_legs WHERE position_id = $1 \
         AND position_id IN (SELECT id FROM structure_positions WHERE account_id = $2)"
    );
    let (row, legs) = with_db!(db, pool => (
        sqlx::query_as::<_, StructureRow>(&sql).bind(id).bind(account_id).fetch_optional(pool).await?,
        sqlx::query_as::<_, LegRow>(&leg_sql).bind(id).bind(account_id).fetch_all(pool).await?,
    ));
    let row = row.ok_or(StoreError::NotFound)?;
    Ok(assemble(vec![row], legs).remove(0))
}

/// Deletes one of an account's structures with its legs ([`StoreError::NotFound`] for any
/// other account's).
pub async fn delete(db: &Db, account_id: &str, id: &str) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM structure_positions WHERE id = $1 AND account_id = $2")
            .bind(id)
            .bind(account_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Settles an open structure at `pnl_cents` with the underlying at `price_cents`; whether it
/// was still open (a second settler changes nothing).
pub async fn settle(db: &Db, id: &str, pnl_cents: i64, price_cents: i64, at: DateTime<Utc>) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE structure_positions SET status = 'expired', pnl_cents = $2, settled_price_cents = $3, closed_at = $4, updated_at = $4 \
             WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(pnl_cents)
        .bind(price_cents)
        .bind(at)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done == 1)
}
