//! Portfolios: manual positions (the user's own entries), automated paper positions opened
//! from signals, and each user's daily portfolio value.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A position the user entered. Prices in cents.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ManualRow {
    pub id: String,
    pub user_id: String,
    pub symbol: String,
    pub company_name: String,
    pub position_type: String,
    pub strike_cents: i64,
    pub expiration_date: NaiveDate,
    pub quantity: i64,
    pub entry_cents: i64,
    pub target_cents: Option<i64>,
    pub stop_cents: Option<i64>,
    pub reasoning: Option<String>,
    pub status: String,
    pub current_option_cents: Option<i64>,
    pub current_price_cents: Option<i64>,
    pub pnl_cents: i64,
    pub pnl_percent: f64,
    pub closed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

pub(crate) const MANUAL_COLUMNS: &str = "id, user_id, symbol, company_name, position_type, strike_cents, expiration_date, quantity, \
    entry_cents, target_cents, stop_cents, reasoning, status, current_option_cents, current_price_cents, pnl_cents, \
    pnl_percent, closed_at, created_at, updated_at";

/// Binds a [`ManualRow`] in [`MANUAL_COLUMNS`] order.
macro_rules! bind_manual {
    ($query:expr, $p:expr) => {
        $query
            .bind(&$p.id)
            .bind(&$p.user_id)
            .bind(&$p.symbol)
            .bind(&$p.company_name)
            .bind(&$p.position_type)
            .bind($p.strike_cents)
            .bind($p.expiration_date)
            .bind($p.quantity)
            .bind($p.entry_cents)
            .bind($p.target_cents)
            .bind($p.stop_cents)
            .bind(&$p.reasoning)
            .bind(&$p.status)
            .bind($p.current_option_cents)
            .bind($p.current_price_cents)
            .bind($p.pnl_cents)
            .bind($p.pnl_percent)
            .bind($p.closed_at)
            .bind($p.created_at)
            .bind($p.updated_at)
    };
}
pub(crate) use bind_manual;

/// Binds an [`AutomatedRow`] in [`AUTOMATED_COLUMNS`] order.
macro_rules! bind_automated {
    ($query:expr, $p:expr) => {
        $query
            .bind(&$p.id)
            .bind(&$p.user_id)
            .bind(&$p.signal_id)
            .bind($p.quantity)
            .bind($p.entry_cents)
            .bind($p.commissions_cents)
            .bind(&$p.status)
            .bind($p.exit_cents)
            .bind($p.opened_at)
            .bind($p.closed_at)
            .bind($p.updated_at)
    };
}
pub(crate) use bind_automated;

/// Stores a new manual position.
pub async fn insert_manual(db: &Db, p: &ManualRow) -> StoreResult<()> {
    let params: Vec<String> = (1..=20).map(|i| format!("${i}")).collect();
    let sql = format!("INSERT INTO manual_positions ({MANUAL_COLUMNS}) VALUES ({})", params.join(", "));
    with_db!(db, pool => { bind_manual!(sqlx::query(&sql), p).execute(pool).await?; });
    Ok(())
}

pub(crate) fn manual_for_sql() -> String {
    format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE user_id = $1 ORDER BY created_at DESC, id")
}

/// A user's manual positions, newest first.
pub async fn manual_for(db: &Db, user_id: &str) -> StoreResult<Vec<ManualRow>> {
    let sql = manual_for_sql();
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).bind(user_id).fetch_all(pool).await?))
}

/// Every user's manual positions (newest first per user), for the daily valuation of all.
pub async fn all_manual(db: &Db) -> StoreResult<Vec<ManualRow>> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions ORDER BY user_id, created_at DESC, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).fetch_all(pool).await?))
}

/// One of `user_id`'s manual positions ([`StoreError::NotFound`] for anyone else's).
pub async fn find_manual(db: &Db, user_id: &str, id: &str) -> StoreResult<ManualRow> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE id = $1 AND user_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// Deletes one of `user_id`'s manual positions ([`StoreError::NotFound`] for anyone else's).
pub async fn delete_manual(db: &Db, user_id: &str, id: &str) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM manual_positions WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(pool).await?.rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Every open manual position, for marking to market.
pub async fn open_manual(db: &Db) -> StoreResult<Vec<ManualRow>> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE status = 'open'");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).fetch_all(pool).await?))
}

/// The mark of a manual position; `expired` ends it.
#[derive(Clone, Debug, PartialEq)]
pub struct ManualMark {
    pub id: String,
    pub current_option_cents: i64,
    pub current_price_cents: i64,
    pub pnl_cents: i64,
    pub pnl_percent: f64,
    pub expired: bool,
    pub at: DateTime<Utc>,
}

/// Writes marks in one transaction; a position that has ended is not marked again.
pub async fn mark_manual(db: &Db, marks: &[ManualMark]) -> StoreResult<()> {
    const SQL: &str = "UPDATE manual_positions SET current_option_cents = $1, current_price_cents = $2, pnl_cents = $3, \
        pnl_percent = $4, status = $5, closed_at = $6, updated_at = $7 WHERE id = $8 AND status = 'open'";
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for m in marks {
            sqlx::query(SQL)
                .bind(m.current_option_cents)
                .bind(m.current_price_cents)
                .bind(m.pnl_cents)
                .bind(m.pnl_percent)
                .bind(if m.expired { "expired" } else { "open" })
                .bind(m.expired.then_some(m.at))
                .bind(m.at)
                .bind(&m.id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// An automated paper position, joined with its signal. Prices in cents.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AutomatedRow {
    pub id: String,
    pub user_id: String,
    pub signal_id: String,
    pub quantity: i64,
    pub entry_cents: i64,
    pub commissions_cents: i64,
    pub status: String,
    pub exit_cents: Option<i64>,
    pub opened_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
}

pub(crate) const AUTOMATED_COLUMNS: &str =
    "id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents, opened_at, closed_at, updated_at";

/// Opens an automated position; `false` when the user already holds that signal.
pub async fn open_automated(db: &Db, p: &AutomatedRow) -> StoreResult<bool> {
    Ok(open_automated_many(db, std::slice::from_ref(p)).await? == 1)
}

/// Opens automated positions in one transaction, skipping any a user already holds; returns
/// how many opened.
pub async fn open_automated_many(db: &Db, rows: &[AutomatedRow]) -> StoreResult<usize> {
    let sql = format!(
        "INSERT INTO portfolio_positions ({AUTOMATED_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
         ON CONFLICT (user_id, signal_id) DO NOTHING"
    );
    let mut opened = 0;
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for p in rows {
            opened += bind_automated!(sqlx::query(&sql), p)
                .execute(&mut *tx)
                .await?
                .rows_affected() as usize;
        }
        tx.commit().await?;
    });
    Ok(opened)
}

/// Who holds which active automated signal: `(user, signal)` for every position (open or not)
/// on a signal that is still active.
pub async fn holders_of_active_signals(db: &Db) -> StoreResult<Vec<(String, String)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, String)>(
            "SELECT p.user_id, p.signal_id FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id \
             WHERE s.status = 'active' AND s.owner_id IS NULL",
        )
        .fetch_all(pool)
        .await?
    }))
}

/// What each user has paid for their open automated positions (premium × 100 × contracts,
/// cents), for every user with one.
pub async fn open_cost_by_user(db: &Db) -> StoreResult<Vec<(String, i64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, i64)>(
            "SELECT user_id, CAST(SUM(entry_cents * 100 * quantity) AS BIGINT) FROM portfolio_positions WHERE status = 'open' GROUP BY user_id",
        )
        .fetch_all(pool)
        .await?
    }))
}

/// An automated position read together with its signal.
#[derive(sqlx::FromRow)]
struct HeldRow {
    position_id: String,
    position_user_id: String,
    position_signal_id: String,
    position_quantity: i64,
    position_entry_cents: i64,
    position_commissions_cents: i64,
    position_status: String,
    position_exit_cents: Option<i64>,
    position_opened_at: DateTime<Utc>,
    position_closed_at: Option<DateTime<Utc>>,
    position_updated_at: DateTime<Utc>,
    #[sqlx(flatten)]
    signal: crate::signals::SignalRow,
}

/// Automated positions joined with their signals: one user's (`$1`), or everyone's.
fn held_sql(one_user: bool) -> String {
    let position: Vec<String> = AUTOMATED_COLUMNS.split(',').map(|c| format!("p.{0} AS position_{0}", c.trim())).collect();
    let signal: Vec<String> = crate::signals::COLUMNS.split(',').map(|c| format!("s.{}", c.trim())).collect();
    format!(
        "SELECT {}, {} FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id {} \
         ORDER BY p.user_id, CASE WHEN p.status = 'open' THEN 0 ELSE 1 END, p.opened_at DESC, p.id",
        position.join(", "),
        signal.join(", "),
        if one_user { "WHERE p.user_id = $1" } else { "" }
    )
}

/// Built once: every portfolio read runs it.
pub(crate) fn automated_with_signals_sql() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| held_sql(true));
    &SQL
}

/// A user's automated positions (open first, then newest), each with its signal: one query.
pub async fn automated_with_signals(db: &Db, user_id: &str) -> StoreResult<Vec<(AutomatedRow, crate::signals::SignalRow)>> {
    let sql = automated_with_signals_sql();
    let rows = with_db!(db, pool => sqlx::query_as::<_, HeldRow>(sql).bind(user_id).fetch_all(pool).await?);
    Ok(rows.into_iter().map(HeldRow::split).collect())
}

/// Every user's automated positions with their signals (grouped by user, each user's open
/// first), for the daily valuation of all.
pub async fn all_automated_with_signals(db: &Db) -> StoreResult<Vec<(AutomatedRow, crate::signals::SignalRow)>> {
    let sql = held_sql(false);
    let rows = with_db!(db, pool => sqlx::query_as::<_, HeldRow>(&sql).fetch_all(pool).await?);
    Ok(rows.into_iter().map(HeldRow::split).collect())
}

impl HeldRow {
    fn split(self) -> (AutomatedRow, crate::signals::SignalRow) {
        let position = AutomatedRow {
            id: self.position_id,
            user_id: self.position_user_id,
            signal_id: self.position_signal_id,
            quantity: self.position_quantity,
            entry_cents: self.position_entry_cents,
            commissions_cents: self.position_commissions_cents,
            status: self.position_status,
            exit_cents: self.position_exit_cents,
            opened_at: self.position_opened_at,
            closed_at: self.position_closed_at,
            updated_at: self.position_updated_at,
        };
        (position, self.signal)
    }
}

/// One of `user_id`'s automated positions.
pub async fn find_automated(db: &Db, user_id: &str, id: &str) -> StoreResult<AutomatedRow> {
    let sql = format!("SELECT {AUTOMATED_COLUMNS} FROM portfolio_positions WHERE id = $1 AND user_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, AutomatedRow>(&sql).bind(id).bind(user_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// Closes every open automated position whose signal has ended, at the signal's last mark,
/// adding the closing commission per contract. Returns the `(user, signal)` of each closed.
pub async fn close_ended(db: &Db, commission_per_contract_cents: i64, at: DateTime<Utc>) -> StoreResult<Vec<(String, String)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, String)>(
            "UPDATE portfolio_positions SET status = (SELECT s.status FROM signals s WHERE s.id = portfolio_positions.signal_id), \
             exit_cents = (SELECT s.current_option_cents FROM signals s WHERE s.id = portfolio_positions.signal_id), \
             commissions_cents = commissions_cents + quantity * $1, closed_at = $2, updated_at = $2 \
             WHERE status = 'open' AND signal_id IN (SELECT id FROM signals WHERE status <> 'active') RETURNING user_id, signal_id",
        )
        .bind(commission_per_contract_cents)
        .bind(at)
        .fetch_all(pool)
        .await?
    }))
}

const SNAPSHOT_VALUE: &str = "INSERT INTO portfolio_snapshots (user_id, day, value_cents, taken_at) VALUES ($1, $2, $3, $4) \
    ON CONFLICT (user_id, day) DO UPDATE SET value_cents = excluded.value_cents, taken_at = excluded.taken_at";

/// Records (or replaces) a user's portfolio value for `day`.
pub async fn snapshot_value(db: &Db, user_id: &str, day: NaiveDate, value_cents: i64, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(SNAPSHOT_VALUE).bind(user_id).bind(day).bind(value_cents).bind(at).execute(pool).await?;
    });
    Ok(())
}

/// Records (or replaces) each `(user, value in cents)` for `day`, in one transaction.
pub async fn snapshot_values(db: &Db, day: NaiveDate, values: &[(String, i64)], at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for (user_id, value_cents) in values {
            sqlx::query(SNAPSHOT_VALUE).bind(user_id).bind(day).bind(value_cents).bind(at).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// The history as one text cell, `day:cents` pairs oldest first (both engines spell
/// `string_agg … ORDER BY` alike), so a year of values is one row to read, not 250.
pub(crate) const VALUE_HISTORY: &str = "SELECT string_agg(CAST(day AS TEXT) || ':' || CAST(value_cents AS TEXT), ',' ORDER BY day) \
    FROM portfolio_snapshots WHERE user_id = $1";

/// A user's daily values, oldest first.
pub async fn value_history(db: &Db, user_id: &str) -> StoreResult<Vec<(NaiveDate, i64)>> {
    let packed: Option<String> = with_db!(db, pool => sqlx::query_scalar(VALUE_HISTORY).bind(user_id).fetch_one(pool).await?);
    packed
        .unwrap_or_default()
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let parsed = pair.split_once(':').and_then(|(day, cents)| Some((day.parse::<NaiveDate>().ok()?, cents.parse::<i64>().ok()?)));
            parsed.ok_or_else(|| StoreError::Database(sqlx::Error::Decode(format!("unreadable portfolio value {pair:?}").into())))
        })
        .collect()
}

pub(crate) const VALUE_BEFORE: &str = "SELECT value_cents FROM portfolio_snapshots WHERE user_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1";

/// A user's latest daily value before `day`, if any.
pub async fn value_before(db: &Db, user_id: &str, day: NaiveDate) -> StoreResult<Option<i64>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>(VALUE_BEFORE)
            .bind(user_id)
            .bind(day)
            .fetch_optional(pool)
            .await?
    }))
}
