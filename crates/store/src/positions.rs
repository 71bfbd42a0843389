//! Portfolios: manual positions (the user's own entries), automated paper positions opened
//! from signals, and each trading account's daily value. Every position belongs to one of its
//! owner's trading accounts (`account_id`); a portfolio is an account's.

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
    /// The trading account it is held in (one of `user_id`'s).
    pub account_id: String,
}

pub(crate) const MANUAL_COLUMNS: &str = "id, user_id, symbol, company_name, position_type, strike_cents, expiration_date, quantity, \
    entry_cents, target_cents, stop_cents, reasoning, status, current_option_cents, current_price_cents, pnl_cents, \
    pnl_percent, closed_at, created_at, updated_at, account_id";

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
            .bind(&$p.account_id)
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
            .bind(&$p.account_id)
    };
}
pub(crate) use bind_automated;

impl ManualRow {
    /// Takes `mark`'s values (as [`mark_manual`] would write them).
    pub fn apply(&mut self, mark: &ManualMark) {
        self.current_option_cents = Some(mark.current_option_cents);
        self.current_price_cents = Some(mark.current_price_cents);
        self.pnl_cents = mark.pnl_cents;
        self.pnl_percent = mark.pnl_percent;
        if mark.expired {
            self.status = "expired".to_owned();
            self.closed_at = Some(mark.at);
        }
        self.updated_at = mark.at;
    }
}

/// Stores a new manual position.
pub async fn insert_manual(db: &Db, p: &ManualRow) -> StoreResult<()> {
    let params: Vec<String> = (1..=21).map(|i| format!("${i}")).collect();
    let sql = format!("INSERT INTO manual_positions ({MANUAL_COLUMNS}) VALUES ({})", params.join(", "));
    with_db!(db, pool => { bind_manual!(sqlx::query(&sql), p).execute(pool).await?; });
    Ok(())
}

pub(crate) fn manual_for_sql() -> String {
    format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE account_id = $1 ORDER BY created_at DESC, id")
}

/// An account's manual positions, newest first.
pub async fn manual_for(db: &Db, account_id: &str) -> StoreResult<Vec<ManualRow>> {
    let sql = manual_for_sql();
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).bind(account_id).fetch_all(pool).await?))
}

/// Every account's manual positions (newest first per account), for the daily valuation of all.
pub async fn all_manual(db: &Db) -> StoreResult<Vec<ManualRow>> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions ORDER BY account_id, created_at DESC, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).fetch_all(pool).await?))
}

/// One of an account's manual positions ([`StoreError::NotFound`] for any other account's).
pub async fn find_manual(db: &Db, account_id: &str, id: &str) -> StoreResult<ManualRow> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE id = $1 AND account_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).bind(id).bind(account_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// Deletes one of an account's manual positions ([`StoreError::NotFound`] for any other
/// account's).
pub async fn delete_manual(db: &Db, account_id: &str, id: &str) -> StoreResult<()> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM manual_positions WHERE id = $1 AND account_id = $2").bind(id).bind(account_id).execute(pool).await?.rows_affected()
    });
    if done == 0 { Err(StoreError::NotFound) } else { Ok(()) }
}

/// Every open manual position, for marking to market, by id (the order marks are written in).
pub async fn open_manual(db: &Db) -> StoreResult<Vec<ManualRow>> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE status = 'open' ORDER BY id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).fetch_all(pool).await?))
}

/// One account's open manual positions, by id: what marking that account's book reads,
/// whatever the number of other accounts' positions.
pub async fn open_manual_of(db: &Db, account_id: &str) -> StoreResult<Vec<ManualRow>> {
    let sql = format!("SELECT {MANUAL_COLUMNS} FROM manual_positions WHERE account_id = $1 AND status = 'open' ORDER BY id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ManualRow>(&sql).bind(account_id).fetch_all(pool).await?))
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
    // Rows are locked in id order, whoever marks: two transactions marking overlapping sets
    // wait for each other instead of deadlocking.
    let mut ordered: Vec<&ManualMark> = marks.iter().collect();
    ordered.sort_by(|a, b| a.id.cmp(&b.id));
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for m in &ordered {
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
    /// The trading account it is held in (one of `user_id`'s).
    pub account_id: String,
}

pub(crate) const AUTOMATED_COLUMNS: &str =
    "id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents, opened_at, closed_at, updated_at, account_id";

/// Opens an automated position; `false` when the account already holds that signal.
pub async fn open_automated(db: &Db, p: &AutomatedRow) -> StoreResult<bool> {
    Ok(open_automated_many(db, std::slice::from_ref(p)).await? == 1)
}

/// Opens automated positions in one transaction, skipping any an account already holds;
/// returns how many opened.
pub async fn open_automated_many(db: &Db, rows: &[AutomatedRow]) -> StoreResult<usize> {
    let sql = format!(
        "INSERT INTO portfolio_positions ({AUTOMATED_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (account_id, signal_id) DO NOTHING"
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

/// Which account holds which active signal: `(account, signal)` for every position (open or
/// not) on a signal that is still active.
pub async fn holders_of_active_signals(db: &Db) -> StoreResult<Vec<(String, String)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, String)>(
            "SELECT p.account_id, p.signal_id FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id WHERE s.status = 'active'",
        )
        .fetch_all(pool)
        .await?
    }))
}

/// What `account_id` has paid for its open automated positions (premium × 100 × contracts,
/// cents).
pub async fn open_cost_of(db: &Db, account_id: &str) -> StoreResult<i64> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "SELECT CAST(COALESCE(SUM(entry_cents * 100 * quantity), 0) AS BIGINT) FROM portfolio_positions \
             WHERE account_id = $1 AND status = 'open'",
        )
        .bind(account_id)
        .fetch_one(pool)
        .await?
    }))
}

/// What each account has paid for its open automated positions (premium × 100 × contracts,
/// cents), for every account with one.
pub async fn open_cost_by_account(db: &Db) -> StoreResult<Vec<(String, i64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, i64)>(
            "SELECT account_id, CAST(SUM(entry_cents * 100 * quantity) AS BIGINT) FROM portfolio_positions WHERE status = 'open' \
             GROUP BY account_id",
        )
        .fetch_all(pool)
        .await?
    }))
}

/// What a held position needs of its signal: the contract, its marks and what the list
/// shows. Reading only these keeps the portfolio's reads to half the columns of a whole
/// signal (every dashboard poll reads them for each position held).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct HeldSignal {
    pub id: String,
    pub symbol: String,
    pub company_name: String,
    pub signal_type: String,
    pub strike_cents: i64,
    pub expiration_date: NaiveDate,
    pub target_cents: i64,
    pub stop_cents: i64,
    pub volatility: f64,
    pub confidence: i64,
    pub current_option_cents: i64,
    pub current_price_cents: i64,
}

/// The columns of [`HeldSignal`].
const HELD_SIGNAL_COLUMNS: &str = "id, symbol, company_name, signal_type, strike_cents, expiration_date, target_cents, stop_cents, \
    volatility, confidence, current_option_cents, current_price_cents";

impl From<&crate::signals::SignalRow> for HeldSignal {
    fn from(s: &crate::signals::SignalRow) -> Self {
        HeldSignal {
            id: s.id.clone(),
            symbol: s.symbol.clone(),
            company_name: s.company_name.clone(),
            signal_type: s.signal_type.clone(),
            strike_cents: s.strike_cents,
            expiration_date: s.expiration_date,
            target_cents: s.target_cents,
            stop_cents: s.stop_cents,
            volatility: s.volatility,
            confidence: s.confidence,
            current_option_cents: s.current_option_cents,
            current_price_cents: s.current_price_cents,
        }
    }
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
    position_account_id: String,
    #[sqlx(flatten)]
    signal: HeldSignal,
}

/// Every user's automated positions joined with their signals.
fn held_sql() -> String {
    let position: Vec<String> = AUTOMATED_COLUMNS.split(',').map(|c| format!("p.{0} AS position_{0}", c.trim())).collect();
    let signal: Vec<String> = HELD_SIGNAL_COLUMNS.split(',').map(|c| format!("s.{}", c.trim())).collect();
    format!(
        "SELECT {}, {} FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id \
         ORDER BY p.account_id, CASE WHEN p.status = 'open' THEN 0 ELSE 1 END, p.opened_at DESC, p.id",
        position.join(", "),
        signal.join(", "),
    )
}

/// The columns of a held position and its signal, in [`HeldJson`]'s order, for one JSON
/// array per position. The volatility goes as text both engines write exactly (SQLite's JSON
/// writes a real to 15 digits; `quote` and PostgreSQL's text write it to round-trip).
fn held_json_columns(volatility_text: &str) -> String {
    let position = AUTOMATED_COLUMNS.split(',').map(|c| format!("p.{}", c.trim()));
    let signal = HELD_SIGNAL_COLUMNS
        .split(',')
        .map(str::trim)
        .map(|c| if c == "volatility" { volatility_text.to_owned() } else { format!("s.{c}") });
    position.chain(signal).collect::<Vec<_>>().join(", ")
}

/// How an engine packs rows into one JSON text. SQLite's JSON writes a real to 15 digits;
/// `quote` and PostgreSQL's text write it to round-trip, so reals travel as text.
struct JsonSpelling {
    /// The aggregate of rows into an array, as text.
    array: fn(&str) -> String,
    /// One row of columns as an array.
    row: fn(&str) -> String,
    /// A real as exact text.
    exact: fn(&str) -> String,
}

fn json_spelling(engine: crate::Engine) -> JsonSpelling {
    match engine {
        crate::Engine::Sqlite => JsonSpelling {
            array: |rows| format!("json_group_array({rows})"),
            row: |cols| format!("json_array({cols})"),
            exact: |col| format!("quote({col})"),
        },
        crate::Engine::Postgres => JsonSpelling {
            array: |rows| format!("CAST(json_agg({rows}) AS TEXT)"),
            row: |cols| format!("json_build_array({cols})"),
            exact: |col| format!("CAST({col} AS TEXT)"),
        },
    }
}

/// The automated positions of account `$1` with their signals as one JSON text, in no order (an
/// ordered aggregate sorts through a temporary tree; the reader sorts).
fn held_json_select(engine: crate::Engine) -> String {
    let JsonSpelling { array, row, exact } = json_spelling(engine);
    format!(
        "SELECT {} FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id WHERE p.account_id = $1",
        array(&row(&held_json_columns(&exact("s.volatility"))))
    )
}

/// The manual positions of account `$1` as one JSON text, in no order.
fn manual_json_select(engine: crate::Engine) -> String {
    let JsonSpelling { array, row, exact } = json_spelling(engine);
    let columns: Vec<String> = MANUAL_COLUMNS
        .split(',')
        .map(str::trim)
        .map(|c| if c == "pnl_percent" { exact("m.pnl_percent") } else { format!("m.{c}") })
        .collect();
    format!("SELECT {} FROM manual_positions m WHERE m.account_id = $1", array(&row(&columns.join(", "))))
}

/// The SQL of [`automated_with_signals`] on `engine`: one row holding every position of the
/// user as a JSON array. One value instead of a row of 23 per position: on SQLite each value
/// is copied out of the engine and handed between threads. Built once per engine: every
/// portfolio read runs it.
pub(crate) fn automated_with_signals_sql(engine: crate::Engine) -> &'static str {
    static SQLITE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| held_json_select(crate::Engine::Sqlite));
    static POSTGRES: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| held_json_select(crate::Engine::Postgres));
    match engine {
        crate::Engine::Sqlite => &SQLITE,
        crate::Engine::Postgres => &POSTGRES,
    }
}

/// The SQL of [`account_book`] on `engine`: three scalar subqueries, one round trip.
pub(crate) fn account_book_sql(engine: crate::Engine) -> &'static str {
    fn build(engine: crate::Engine) -> String {
        format!("SELECT ({}), ({}), ({})", held_json_select(engine), manual_json_select(engine), VALUE_HISTORY)
    }
    static SQLITE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| build(crate::Engine::Sqlite));
    static POSTGRES: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| build(crate::Engine::Postgres));
    match engine {
        crate::Engine::Sqlite => &SQLITE,
        crate::Engine::Postgres => &POSTGRES,
    }
}

/// One held position and its signal as [`automated_with_signals_sql`] writes it.
#[derive(serde::Deserialize)]
struct HeldJson(
    String,
    String,
    String,
    i64,
    i64,
    i64,
    String,
    Option<i64>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
    DateTime<Utc>,
    String,
    String,
    String,
    String,
    String,
    i64,
    NaiveDate,
    i64,
    i64,
    String,
    i64,
    i64,
    i64,
);

impl HeldJson {
    fn split(self) -> StoreResult<(AutomatedRow, HeldSignal)> {
        let HeldJson(
            id,
            user_id,
            signal_id,
            quantity,
            entry_cents,
            commissions_cents,
            status,
            exit_cents,
            opened_at,
            closed_at,
            updated_at,
            account_id,
            s_id,
            symbol,
            company_name,
            signal_type,
            strike_cents,
            expiration_date,
            target_cents,
            stop_cents,
            volatility,
            confidence,
            current_option_cents,
            current_price_cents,
        ) = self;
        let volatility =
            volatility.parse::<f64>().map_err(|_| decode_error(format!("unreadable volatility {volatility:?} of signal {s_id}")))?;
        Ok((
            AutomatedRow {
                id,
                user_id,
                signal_id,
                quantity,
                entry_cents,
                commissions_cents,
                status,
                exit_cents,
                opened_at,
                closed_at,
                updated_at,
                account_id,
            },
            HeldSignal {
                id: s_id,
                symbol,
                company_name,
                signal_type,
                strike_cents,
                expiration_date,
                target_cents,
                stop_cents,
                volatility,
                confidence,
                current_option_cents,
                current_price_cents,
            },
        ))
    }
}

fn decode_error(message: String) -> StoreError {
    StoreError::Database(sqlx::Error::Decode(message.into()))
}

/// An account's automated positions (open first, then newest), each with its signal: one
/// query, one row.
pub async fn automated_with_signals(db: &Db, account_id: &str) -> StoreResult<Vec<(AutomatedRow, HeldSignal)>> {
    let sql = automated_with_signals_sql(db.engine());
    let packed: Option<String> = with_db!(db, pool => sqlx::query_scalar(sql).bind(account_id).fetch_one(pool).await?);
    unpack_held(packed)
}

fn unpack_held(packed: Option<String>) -> StoreResult<Vec<(AutomatedRow, HeldSignal)>> {
    let Some(packed) = packed else { return Ok(Vec::new()) };
    let held: Vec<HeldJson> = serde_json::from_str(&packed).map_err(|e| decode_error(format!("unreadable positions: {e}")))?;
    let mut held = held.into_iter().map(HeldJson::split).collect::<StoreResult<Vec<_>>>()?;
    // Open first, then newest, ties by id.
    held.sort_by(|(a, _), (b, _)| (a.status != "open", b.opened_at, &a.id).cmp(&(b.status != "open", a.opened_at, &b.id)));
    Ok(held)
}

/// One manual position as [`manual_json_select`] writes it.
#[derive(serde::Deserialize)]
struct ManualJson(
    String,
    String,
    String,
    String,
    String,
    i64,
    NaiveDate,
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    Option<String>,
    String,
    Option<i64>,
    Option<i64>,
    i64,
    String,
    Option<DateTime<Utc>>,
    DateTime<Utc>,
    DateTime<Utc>,
    String,
);

fn unpack_manual(packed: Option<String>) -> StoreResult<Vec<ManualRow>> {
    let Some(packed) = packed else { return Ok(Vec::new()) };
    let rows: Vec<ManualJson> = serde_json::from_str(&packed).map_err(|e| decode_error(format!("unreadable manual positions: {e}")))?;
    let mut manual = rows
        .into_iter()
        .map(
            |ManualJson(
                id,
                user_id,
                symbol,
                company_name,
                position_type,
                strike_cents,
                expiration_date,
                quantity,
                entry_cents,
                target_cents,
                stop_cents,
                reasoning,
                status,
                current_option_cents,
                current_price_cents,
                pnl_cents,
                pnl_percent,
                closed_at,
                created_at,
                updated_at,
                account_id,
            )| {
                let pnl_percent = pnl_percent
                    .parse::<f64>()
                    .map_err(|_| decode_error(format!("unreadable P&L percent {pnl_percent:?} of position {id}")))?;
                Ok(ManualRow {
                    id,
                    user_id,
                    symbol,
                    company_name,
                    position_type,
                    strike_cents,
                    expiration_date,
                    quantity,
                    entry_cents,
                    target_cents,
                    stop_cents,
                    reasoning,
                    status,
                    current_option_cents,
                    current_price_cents,
                    pnl_cents,
                    pnl_percent,
                    closed_at,
                    created_at,
                    updated_at,
                    account_id,
                })
            },
        )
        .collect::<StoreResult<Vec<_>>>()?;
    // Newest first, ties by id (as [`manual_for`]).
    manual.sort_by(|a, b| (b.created_at, &a.id).cmp(&(a.created_at, &b.id)));
    Ok(manual)
}

/// All a portfolio analysis reads of one account.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AccountBook {
    /// Newest first.
    pub manual: Vec<ManualRow>,
    /// Open first, then newest.
    pub automated: Vec<(AutomatedRow, HeldSignal)>,
    /// Daily values, oldest first.
    pub history: Vec<(NaiveDate, i64)>,
}

/// An account's manual positions, automated positions with their signals and daily values, in
/// one query of one row (one round trip where three followed each other).
pub async fn account_book(db: &Db, account_id: &str) -> StoreResult<AccountBook> {
    let sql = account_book_sql(db.engine());
    let (held, manual, history): (Option<String>, Option<String>, Option<String>) =
        with_db!(db, pool => sqlx::query_as(sql).bind(account_id).fetch_one(pool).await?);
    Ok(AccountBook { manual: unpack_manual(manual)?, automated: unpack_held(held)?, history: unpack_history(history)? })
}

/// Every account's automated positions with their signals (grouped by account, each account's
/// open first), for the daily valuation of all.
pub async fn all_automated_with_signals(db: &Db) -> StoreResult<Vec<(AutomatedRow, HeldSignal)>> {
    let sql = held_sql();
    let rows = with_db!(db, pool => sqlx::query_as::<_, HeldRow>(&sql).fetch_all(pool).await?);
    Ok(rows.into_iter().map(HeldRow::split).collect())
}

impl HeldRow {
    fn split(self) -> (AutomatedRow, HeldSignal) {
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
            account_id: self.position_account_id,
        };
        (position, self.signal)
    }
}

/// One of an account's automated positions ([`StoreError::NotFound`] for any other account's).
pub async fn find_automated(db: &Db, account_id: &str, id: &str) -> StoreResult<AutomatedRow> {
    let sql = format!("SELECT {AUTOMATED_COLUMNS} FROM portfolio_positions WHERE id = $1 AND account_id = $2");
    with_db!(db, pool => sqlx::query_as::<_, AutomatedRow>(&sql).bind(id).bind(account_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)
}

/// An open automated position whose signal has ended, and how the signal ended (`closed` or
/// `expired`): what the settlement closes with a sell order.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Ending {
    #[sqlx(flatten)]
    pub position: AutomatedRow,
    pub ended_as: String,
}

/// Every open automated position whose signal has ended, oldest first.
pub async fn ending(db: &Db) -> StoreResult<Vec<Ending>> {
    let columns: Vec<String> = AUTOMATED_COLUMNS.split(',').map(|c| format!("p.{}", c.trim())).collect();
    let sql = format!(
        "SELECT {}, s.status AS ended_as FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id \
         WHERE p.status = 'open' AND s.status <> 'active' ORDER BY p.opened_at, p.id",
        columns.join(", ")
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, Ending>(&sql).fetch_all(pool).await?))
}

/// How a sell order's fill closes an automated position: its status after (as its signal
/// ended), the exit premium per share and the commission the fill paid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    pub position_id: String,
    pub status: String,
    pub exit_cents: i64,
    pub commission_cents: i64,
}

/// The account's owner is read from the account (an account that is gone writes nothing).
const SNAPSHOT_VALUE: &str = "INSERT INTO portfolio_snapshots (user_id, account_id, day, value_cents, taken_at) \
    SELECT a.user_id, a.id, $2, $3, $4 FROM trading_accounts a WHERE a.id = $1 \
    ON CONFLICT (account_id, day) DO UPDATE SET value_cents = excluded.value_cents, taken_at = excluded.taken_at";

/// Records (or replaces) an account's value for `day`.
pub async fn snapshot_value(db: &Db, account_id: &str, day: NaiveDate, value_cents: i64, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(SNAPSHOT_VALUE).bind(account_id).bind(day).bind(value_cents).bind(at).execute(pool).await?;
    });
    Ok(())
}

/// Records (or replaces) each `(account, value in cents)` for `day`, in one transaction.
pub async fn snapshot_values(db: &Db, day: NaiveDate, values: &[(String, i64)], at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for (account_id, value_cents) in values {
            sqlx::query(SNAPSHOT_VALUE).bind(account_id).bind(day).bind(value_cents).bind(at).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// The history as one text cell of `day:cents` pairs (both engines spell `string_agg`
/// alike), so a year of values is one row to read, not 250. Unordered: an ordered aggregate
/// sorts through a temporary tree in the engine, and sorting 250 pairs here is cheaper.
pub(crate) const VALUE_HISTORY: &str = "SELECT string_agg(CAST(day AS TEXT) || ':' || CAST(value_cents AS TEXT), ',') \
    FROM portfolio_snapshots WHERE account_id = $1";

/// An account's daily values, oldest first.
pub async fn value_history(db: &Db, account_id: &str) -> StoreResult<Vec<(NaiveDate, i64)>> {
    let packed: Option<String> = with_db!(db, pool => sqlx::query_scalar(VALUE_HISTORY).bind(account_id).fetch_one(pool).await?);
    unpack_history(packed)
}

fn unpack_history(packed: Option<String>) -> StoreResult<Vec<(NaiveDate, i64)>> {
    let mut history = packed
        .unwrap_or_default()
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let parsed = pair.split_once(':').and_then(|(day, cents)| Some((iso_day(day)?, cents.parse::<i64>().ok()?)));
            parsed.ok_or_else(|| decode_error(format!("unreadable portfolio value {pair:?}")))
        })
        .collect::<StoreResult<Vec<_>>>()?;
    history.sort_unstable_by_key(|(day, _)| *day);
    Ok(history)
}

/// `YYYY-MM-DD` (what both engines write for a date), without the general date parser.
fn iso_day(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |range: std::ops::Range<usize>| text.get(range)?.parse::<u32>().ok();
    NaiveDate::from_ymd_opt(i32::try_from(number(0..4)?).ok()?, number(5..7)?, number(8..10)?)
}
