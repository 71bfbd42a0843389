//! Bulk loading of generated data (`strikeline seed`, for load benchmarks): users, signals,
//! manual and automated positions and portfolio snapshots, written with multi-row INSERTs
//! (up to [`MAX_ROWS_PER_STATEMENT`] rows each) inside one transaction, so a load is all or
//! nothing and takes seconds rather than the minutes one statement per row would.
//!
//! Unlike the repositories, the statements here spell their placeholders per engine (`$1` on
//! PostgreSQL, `?` on SQLite; see `Placeholders`), because SQLite handles thousands of
//! numbered placeholders in one statement slowly.
//!
//! The rows are the repositories' own row types; what the schema defaults (a signal's
//! `day_rank`, a user's payment ids) is left to the schema. Automated signals loaded here are
//! not ranked: call [`crate::signals::rerank_days`] with their days afterwards.

use chrono::{DateTime, NaiveDate, Utc};

use crate::db::{Placeholders, column_count, insert_sql};
use crate::positions::{AutomatedRow, ManualRow};
use crate::signals::SignalRow;
use crate::users::UserRecord;
use crate::{Db, StoreResult, with_db};

/// Most rows one INSERT carries.
pub const MAX_ROWS_PER_STATEMENT: usize = 500;

/// Most bound values one statement may carry: SQLite's default `SQLITE_MAX_VARIABLE_NUMBER`
/// (32,766 since 3.32; PostgreSQL allows 65,535).
const MAX_BINDS: usize = 32_766;

/// A user's portfolio value on a day (`portfolio_snapshots`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortfolioSnapshot {
    pub user_id: String,
    pub account_id: String,
    pub day: NaiveDate,
    pub value_cents: i64,
    pub taken_at: DateTime<Utc>,
}

/// Rows to load in one transaction; any slice may be empty. Parents are written first (users,
/// then signals, then positions and snapshots), so rows may refer to rows of the same batch.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedBatch<'a> {
    pub users: &'a [UserRecord],
    pub signals: &'a [SignalRow],
    pub manual_positions: &'a [ManualRow],
    pub automated_positions: &'a [AutomatedRow],
    pub snapshots: &'a [PortfolioSnapshot],
}

/// How many rows a load wrote, per table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeedCounts {
    pub users: u64,
    pub signals: u64,
    pub manual_positions: u64,
    pub automated_positions: u64,
    pub snapshots: u64,
}

/// Users as loaded here: with `username_key` (what registration derives), unlike
/// [`crate::users`]' read columns.
const USER_COLUMNS: &str = "id, email, username, username_key, password_hash, first_name, last_name, profile_image_url, role, \
    subscription_plan, subscription_status, subscription_expires_at, email_notifications, signal_alerts, portfolio_updates, \
    email_verified_at, created_at, updated_at";
/// Each user's one (current) trading account, from the record's `account_id` and preferences.
const ACCOUNT_COLUMNS: &str = "id, user_id, name, name_key, investment_capital_cents, risk_tolerance, max_position_size_cents, \
    preferred_strategies, automate, is_current, created_at, updated_at";
const SIGNAL_COLUMNS: &str = crate::signals::COLUMNS;
const MANUAL_COLUMNS: &str = crate::positions::MANUAL_COLUMNS;
const AUTOMATED_COLUMNS: &str = crate::positions::AUTOMATED_COLUMNS;
const SNAPSHOT_COLUMNS: &str = "user_id, account_id, day, value_cents, taken_at";

/// Rows per statement for a table of `columns` columns.
fn rows_per_statement(columns: usize) -> usize {
    MAX_ROWS_PER_STATEMENT.min(MAX_BINDS / columns).max(1)
}

/// Inserts `$rows` into `$table` in statements of up to [`rows_per_statement`] rows (with
/// `$style` placeholders) on the transaction `$tx`, binding each row `$row` onto the query `$query` with `$bind`; evaluates to
/// the number of rows written.
macro_rules! insert_rows {
    ($tx:expr, $style:expr, $table:expr, $columns:expr, $rows:expr, |$query:ident, $row:ident| $bind:expr) => {{
        let per = rows_per_statement(column_count($columns));
        let full = insert_sql($table, $columns, per, $style);
        let mut written: u64 = 0;
        for chunk in $rows.chunks(per) {
            let partial;
            let sql = if chunk.len() == per {
                &full
            } else {
                partial = insert_sql($table, $columns, chunk.len(), $style);
                &partial
            };
            let mut $query = sqlx::query(sql);
            for $row in chunk {
                $query = $bind;
            }
            written += $query.execute(&mut *$tx).await?.rows_affected();
        }
        written
    }};
}

/// Writes every row of `batch` in one transaction (all or nothing). Uniqueness and CHECK
/// violations fail the whole load.
pub async fn insert(db: &Db, batch: &SeedBatch<'_>) -> StoreResult<SeedCounts> {
    let mut counts = SeedCounts::default();
    let style = Placeholders::of(db);
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        counts.users = insert_rows!(tx, style, "users", USER_COLUMNS, batch.users, |q, u| {
            q.bind(&u.id)
                .bind(&u.email)
                .bind(&u.username)
                .bind(u.username.to_lowercase())
                .bind(&u.password_hash)
                .bind(&u.first_name)
                .bind(&u.last_name)
                .bind(&u.profile_image_url)
                .bind(&u.role)
                .bind(&u.subscription_plan)
                .bind(&u.subscription_status)
                .bind(u.subscription_expires_at)
                .bind(u.email_notifications)
                .bind(u.signal_alerts)
                .bind(u.portfolio_updates)
                .bind(u.email_verified_at)
                .bind(u.created_at)
                .bind(u.updated_at)
        });
        insert_rows!(tx, style, "trading_accounts", ACCOUNT_COLUMNS, batch.users, |q, u| {
            q.bind(&u.account_id)
                .bind(&u.id)
                .bind(crate::trading_accounts::FIRST_ACCOUNT_NAME)
                .bind(crate::trading_accounts::FIRST_ACCOUNT_NAME.to_lowercase())
                .bind(u.investment_capital_cents)
                .bind(&u.risk_tolerance)
                .bind(u.max_position_size_cents)
                .bind(&u.preferred_strategies)
                .bind(true)
                .bind(true)
                .bind(u.created_at)
                .bind(u.updated_at)
        });
        counts.signals = insert_rows!(tx, style, "signals", SIGNAL_COLUMNS, batch.signals, |q, s| crate::signals::bind_signal!(q, s));
        counts.manual_positions = insert_rows!(tx, style, "manual_positions", MANUAL_COLUMNS, batch.manual_positions, |q, p| crate::positions::bind_manual!(q, p));
        counts.automated_positions = insert_rows!(tx, style, "portfolio_positions", AUTOMATED_COLUMNS, batch.automated_positions, |q, p| crate::positions::bind_automated!(q, p));
        counts.snapshots = insert_rows!(tx, style, "portfolio_snapshots", SNAPSHOT_COLUMNS, batch.snapshots, |q, s| {
            q.bind(&s.user_id).bind(&s.account_id).bind(s.day).bind(s.value_cents).bind(s.taken_at)
        });
        tx.commit().await?;
    });
    Ok(counts)
}

/// Row counts of the tables a seed fills.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounts {
    pub users: i64,
    pub automated_signals: i64,
    pub on_demand_signals: i64,
    pub automated_positions: i64,
    pub manual_positions: i64,
    pub snapshots: i64,
    pub stocks: i64,
    pub bars: i64,
}

/// How many rows each table a seed fills holds now.
pub async fn table_counts(db: &Db) -> StoreResult<TableCounts> {
    const SQL: &str = "SELECT \
        (SELECT COUNT(*) FROM users), \
        (SELECT COUNT(*) FROM signals WHERE owner_id IS NULL), \
        (SELECT COUNT(*) FROM signals WHERE owner_id IS NOT NULL), \
        (SELECT COUNT(*) FROM portfolio_positions), \
        (SELECT COUNT(*) FROM manual_positions), \
        (SELECT COUNT(*) FROM portfolio_snapshots), \
        (SELECT COUNT(*) FROM stock_prices), \
        (SELECT COUNT(*) FROM daily_bars)";
    type Row = (i64, i64, i64, i64, i64, i64, i64, i64);
    let row: Row = with_db!(db, pool => sqlx::query_as::<_, Row>(SQL).fetch_one(pool).await?);
    Ok(TableCounts {
        users: row.0,
        automated_signals: row.1,
        on_demand_signals: row.2,
        automated_positions: row.3,
        manual_positions: row.4,
        snapshots: row.5,
        stocks: row.6,
        bars: row.7,
    })
}

/// How many signals of any kind are stored (a seed refuses a database that already has some).
pub async fn signal_count(db: &Db) -> StoreResult<i64> {
    Ok(with_db!(db, pool => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM signals").fetch_one(pool).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_stay_within_the_bind_limits() {
        assert_eq!(rows_per_statement(column_count(SIGNAL_COLUMNS)), 500);
        assert!(rows_per_statement(column_count(SIGNAL_COLUMNS)) * column_count(SIGNAL_COLUMNS) <= MAX_BINDS);
        assert_eq!(rows_per_statement(100), 327);
        assert_eq!(insert_sql("t", "a, b", 2, Placeholders::Numbered), "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
        assert_eq!(insert_sql("t", "a, b", 2, Placeholders::Anonymous), "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)");
    }
}
