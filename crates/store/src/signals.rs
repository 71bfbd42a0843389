//! Issued signals: what was issued is never overwritten; each refresh writes only the mark
//! (current prices, P&L) and, once, how the signal ended.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};

use crate::ledger::{self, NewEntry, Resolution};
use crate::{Db, StoreResult, with_db};

/// A stored signal. Prices in cents.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SignalRow {
    pub id: String,
    pub symbol: String,
    pub company_name: String,
    pub signal_type: String,
    pub strategy: String,
    pub strike_cents: i64,
    pub expiration_date: NaiveDate,
    pub entry_cents: i64,
    pub target_cents: i64,
    pub stop_cents: i64,
    pub underlying_entry_cents: i64,
    pub volatility: f64,
    pub confidence: i64,
    pub rsi: Option<f64>,
    pub volume: Option<i64>,
    pub reasoning: String,
    pub current_option_cents: i64,
    pub current_price_cents: i64,
    pub previous_close_cents: i64,
    pub pnl_cents: i64,
    pub pnl_percent: f64,
    pub status: String,
    pub close_reason: Option<String>,
    pub closed_at: Option<DateTime<Utc>>,
    pub owner_id: Option<String>,
    pub issued_on: NaiveDate,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// `live`, `replayed` (recomputed at first start) or `unrecorded` (stored before the
    /// track record, or generated for load tests); only live signals count in figures.
    pub provenance: String,
    /// The outcome rule's fill model: slippage in basis points, commission per contract.
    pub slippage_bp: i64,
    pub commission_cents: i64,
    /// The risk-neutral probability of profit at expiry, as known at issue.
    pub issue_probability: Option<f64>,
    /// P&L per contract after slippage and commissions, once the signal has ended.
    pub net_pnl_cents: Option<i64>,
    /// The shipping model's probability that it wins, given at issue, with the model's version
    /// and the features that moved it most (JSON); `None` when no model scored it.
    pub model_probability: Option<f64>,
    pub model_version: Option<String>,
    pub model_why: Option<String>,
    /// The owner's custom strategy that issued it (strategy `Custom`); `None` for the house
    /// rules, and once that strategy has been deleted.
    pub custom_strategy_id: Option<String>,
    /// A custom strategy's time limit: the session after whose close a mark ends it (close
    /// reason `time`); `None` holds it to its target, stop or expiry.
    pub close_after: Option<NaiveDate>,
}

impl SignalRow {
    /// Whether it counts against its owner's daily quota of signals generated on demand: an
    /// owned signal, unless a custom strategy issued it.
    pub fn counts_against_quota(&self) -> bool {
        self.owner_id.is_some() && self.strategy != CUSTOM
    }
}

/// The stored strategy name of a custom strategy's signals.
pub const CUSTOM: &str = "Custom";

/// A stored signal with its rank among the automated signals of its day (1 = highest
/// confidence; on-demand signals have rank 0) and, in a viewer's list, how many signals the
/// viewer generated on demand that day (what the plan's quota counts first).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RankedSignal {
    #[sqlx(flatten)]
    pub signal: SignalRow,
    pub day_rank: i64,
    pub own_that_day: i64,
}

/// The marked-to-market state a refresh writes.
#[derive(Clone, Debug, PartialEq)]
pub struct SignalMark {
    pub id: String,
    pub current_option_cents: i64,
    pub current_price_cents: i64,
    pub previous_close_cents: i64,
    pub pnl_cents: i64,
    pub pnl_percent: f64,
    /// `Some((status, reason))` when the signal ends with this mark.
    pub close: Option<(String, String)>,
    /// With `close`: the P&L per contract after the signal's stated costs.
    pub net_pnl_cents: Option<i64>,
    pub at: DateTime<Utc>,
}

/// Filters of `GET /api/signals`, already validated. Costs in cents per contract.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SignalFilter {
    /// Upper-cased symbol prefix.
    pub symbol_prefix: Option<String>,
    pub strategy: Option<String>,
    pub signal_type: Option<String>,
    pub status: Option<String>,
    /// Contract cost (entry × 100) range in cents: `min < cost <= max`.
    pub cost_above_cents: Option<i64>,
    pub cost_at_most_cents: Option<i64>,
    /// Confidence range: `min <= confidence <= max`.
    pub confidence_min: Option<i64>,
    pub confidence_max: Option<i64>,
    /// Start after this signal (the previous page's last); `None` for the newest.
    pub after: Option<ListPosition>,
    pub limit: i64,
}

pub(crate) const COLUMNS: &str = "id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents, \
    target_cents, stop_cents, underlying_entry_cents, volatility, confidence, rsi, volume, reasoning, \
    current_option_cents, current_price_cents, previous_close_cents, pnl_cents, pnl_percent, status, close_reason, \
    closed_at, owner_id, issued_on, created_at, updated_at, provenance, slippage_bp, commission_cents, issue_probability, \
    net_pnl_cents, model_probability, model_version, model_why, custom_strategy_id, close_after";

fn insert_sql(on_conflict: &str) -> String {
    let params: Vec<String> = (1..=38).map(|i| format!("${i}")).collect();
    format!("INSERT INTO signals ({COLUMNS}) VALUES ({}) {on_conflict}", params.join(", "))
}

macro_rules! bind_signal {
    ($query:expr, $s:expr) => {
        $query
            .bind(&$s.id)
            .bind(&$s.symbol)
            .bind(&$s.company_name)
            .bind(&$s.signal_type)
            .bind(&$s.strategy)
            .bind($s.strike_cents)
            .bind($s.expiration_date)
            .bind($s.entry_cents)
            .bind($s.target_cents)
            .bind($s.stop_cents)
            .bind($s.underlying_entry_cents)
            .bind($s.volatility)
            .bind($s.confidence)
            .bind($s.rsi)
            .bind($s.volume)
            .bind(&$s.reasoning)
            .bind($s.current_option_cents)
            .bind($s.current_price_cents)
            .bind($s.previous_close_cents)
            .bind($s.pnl_cents)
            .bind($s.pnl_percent)
            .bind(&$s.status)
            .bind(&$s.close_reason)
            .bind($s.closed_at)
            .bind(&$s.owner_id)
            .bind($s.issued_on)
            .bind($s.created_at)
            .bind($s.updated_at)
            .bind(&$s.provenance)
            .bind($s.slippage_bp)
            .bind($s.commission_cents)
            .bind($s.issue_probability)
            .bind($s.net_pnl_cents)
            .bind($s.model_probability)
            .bind(&$s.model_version)
            .bind(&$s.model_why)
            .bind(&$s.custom_strategy_id)
            .bind($s.close_after)
    };
}
pub(crate) use bind_signal;

/// Issues automated signals in one transaction, re-ranking each day that gained one. A signal
/// whose symbol and strategy already has an active automated signal is skipped; returns the
/// ids actually inserted. Each inserted signal that is live or replayed is appended to the
/// track record's log in the same transaction (its issue entry and, when it is stored already
/// ended, its outcome entry), appended at `appended_at` (the clock's now).
pub async fn issue_automated_at(db: &Db, signals: &[SignalRow], appended_at: DateTime<Utc>) -> StoreResult<Vec<String>> {
    let sql = insert_sql("ON CONFLICT (symbol, strategy) WHERE status = 'active' AND owner_id IS NULL DO NOTHING");
    let mut inserted = Vec::new();
    let mut days = std::collections::BTreeSet::new();
    let mut entries = Vec::new();
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // Issuers queue on the log's size row before anything else: the day's re-ranking
        // updates rows other issuers also update, which in any other order can deadlock on
        // PostgreSQL; SQLite has one writer anyway.
        sqlx::query(ledger::LOCK).execute(&mut *tx).await?;
        for s in signals {
            let done = bind_signal!(sqlx::query(&sql), s).execute(&mut *tx).await?.rows_affected();
            if done == 1 {
                inserted.push(s.id.clone());
                days.insert(s.issued_on);
                if ledger::is_logged(s.owner_id.as_deref(), &s.provenance) {
                    entries.push(NewEntry::issue(s));
                    entries.extend(Resolution::of_row(s).map(|r| NewEntry::outcome(&r)));
                }
            }
        }
        for day in &days {
            sqlx::query(RERANK_DAY).bind(day).execute(&mut *tx).await?;
        }
        ledger::append_entries!(tx, &entries, appended_at);
        tx.commit().await?;
    });
    Ok(inserted)
}

/// [`issue_automated_at`], appended at the latest `created_at` of `signals` (for tests and
/// callers whose signals are issued now).
pub async fn issue_automated(db: &Db, signals: &[SignalRow]) -> StoreResult<Vec<String>> {
    let at = signals.iter().map(|s| s.created_at).max().unwrap_or(DateTime::UNIX_EPOCH);
    issue_automated_at(db, signals, at).await
}

/// Issues custom strategies' signals (owned, so neither ranked nor in the track record's log) in
/// one transaction. A signal whose strategy already has an active signal in its symbol is
/// skipped; returns the ids actually inserted.
pub async fn issue_custom(db: &Db, signals: &[SignalRow]) -> StoreResult<Vec<String>> {
    debug_assert!(signals.iter().all(|s| s.custom_strategy_id.is_some() && s.owner_id.is_some()));
    let sql = insert_sql("ON CONFLICT (custom_strategy_id, symbol) WHERE status = 'active' AND custom_strategy_id IS NOT NULL DO NOTHING");
    let mut inserted = Vec::new();
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for s in signals {
            if bind_signal!(sqlx::query(&sql), s).execute(&mut *tx).await?.rows_affected() == 1 {
                inserted.push(s.id.clone());
            }
        }
        tx.commit().await?;
    });
    Ok(inserted)
}

/// Stores a signal generated on demand for its owner.
pub async fn insert_on_demand(db: &Db, signal: &SignalRow) -> StoreResult<()> {
    let inserted = insert_on_demand_within(db, signal, None).await?;
    debug_assert!(inserted);
    Ok(())
}

/// Stores an on-demand signal unless its owner already has `quota` signals of their own on
/// its day; returns whether it was stored. The check and the insert are one transaction that
/// first locks the owner's row (a write), so concurrent requests of one user queue up behind
/// each other on both engines and exactly `quota` of them get through.
pub async fn insert_on_demand_within(db: &Db, signal: &SignalRow, quota: Option<u32>) -> StoreResult<bool> {
    let owner = signal.owner_id.as_deref().unwrap_or_default();
    let sql = insert_sql("");
    Ok(with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        // A write first: PostgreSQL locks the row, SQLite takes the database's write lock.
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(owner).execute(&mut *tx).await?;
        let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM signals WHERE owner_id = $1 AND issued_on = $2 AND strategy <> 'Custom'")
            .bind(owner)
            .bind(signal.issued_on)
            .fetch_one(&mut *tx)
            .await?;
        if quota.is_some_and(|q| used >= i64::from(q)) {
            tx.rollback().await?;
            false
        } else {
            bind_signal!(sqlx::query(&sql), signal).execute(&mut *tx).await?;
            tx.commit().await?;
            true
        }
    }))
}

/// One signal by id.
pub async fn find(db: &Db, id: &str) -> StoreResult<Option<SignalRow>> {
    let sql = format!("SELECT {COLUMNS} FROM signals WHERE id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, SignalRow>(&sql).bind(id).fetch_optional(pool).await?))
}

/// Every active automated signal with its day rank, newest first (the automation tick's view
/// of what it may open, read once for all users).
pub async fn active_automated(db: &Db) -> StoreResult<Vec<RankedSignal>> {
    let sql = format!(
        "SELECT {COLUMNS}, day_rank, CAST(0 AS BIGINT) AS own_that_day FROM signals \
         WHERE status = 'active' AND owner_id IS NULL ORDER BY created_at DESC, id DESC"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, RankedSignal>(&sql).fetch_all(pool).await?))
}

/// Every active signal of a custom strategy whose owner automates it, newest first (the
/// automation tick's second read, for all owners at once).
pub async fn active_automated_custom(db: &Db) -> StoreResult<Vec<SignalRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM signals WHERE status = 'active' \
         AND custom_strategy_id IN (SELECT id FROM custom_strategies WHERE active AND automate) ORDER BY created_at DESC, id DESC"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, SignalRow>(&sql).fetch_all(pool).await?))
}

/// How many signals each owner generated on demand per day since `since`, for every owner at
/// once: `(owner, day, count)`.
pub async fn on_demand_counts_by_owner(db: &Db, since: NaiveDate) -> StoreResult<Vec<(String, NaiveDate, i64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, NaiveDate, i64)>(
            "SELECT owner_id, issued_on, COUNT(*) FROM signals WHERE owner_id IS NOT NULL AND issued_on >= $1 AND strategy <> 'Custom' \
             GROUP BY owner_id, issued_on",
        )
        .bind(since)
        .fetch_all(pool)
        .await?
    }))
}

/// Every active signal (automated and on demand), for marking to market.
pub async fn active(db: &Db) -> StoreResult<Vec<SignalRow>> {
    let sql = format!("SELECT {COLUMNS} FROM signals WHERE status = 'active' ORDER BY created_at");
    Ok(with_db!(db, pool => sqlx::query_as::<_, SignalRow>(&sql).fetch_all(pool).await?))
}

/// Writes marks in one transaction. A mark never touches what was issued, and a signal that
/// has ended is not marked again. A mark that ends a logged signal appends its outcome entry
/// to the track record's log in the same transaction.
pub async fn apply_marks(db: &Db, marks: &[SignalMark]) -> StoreResult<()> {
    const SQL: &str = "UPDATE signals SET current_option_cents = $1, current_price_cents = $2, previous_close_cents = $3, \
        pnl_cents = $4, pnl_percent = $5, status = $6, close_reason = $7, closed_at = $8, updated_at = $9, net_pnl_cents = $10 \
        WHERE id = $11 AND status = 'active' RETURNING owner_id, provenance";
    let mut entries = Vec::new();
    if marks.is_empty() {
        return Ok(());
    }
    // One lock order for every writer of signals: the log's size row first (as issuers, whose
    // re-ranking updates a day's signals in whatever order the scan takes), then the signals
    // by id. Concurrent refreshes then queue instead of deadlocking.
    let mut ordered: Vec<&SignalMark> = marks.iter().collect();
    ordered.sort_by(|a, b| a.id.cmp(&b.id));
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query(ledger::LOCK).execute(&mut *tx).await?;
        for m in ordered {
            let (status, reason, closed_at, net) = match &m.close {
                Some((status, reason)) => (status.as_str(), Some(reason.as_str()), Some(m.at), m.net_pnl_cents),
                None => ("active", None, None, None),
            };
            let updated: Option<(Option<String>, String)> = sqlx::query_as(SQL)
                .bind(m.current_option_cents)
                .bind(m.current_price_cents)
                .bind(m.previous_close_cents)
                .bind(m.pnl_cents)
                .bind(m.pnl_percent)
                .bind(status)
                .bind(reason)
                .bind(closed_at)
                .bind(m.at)
                .bind(net)
                .bind(&m.id)
                .fetch_optional(&mut *tx)
                .await?;
            if let (Some((owner, provenance)), Some(closed_at)) = (updated, closed_at)
                && ledger::is_logged(owner.as_deref(), &provenance)
            {
                entries.push(NewEntry::outcome(&Resolution {
                    signal_id: &m.id,
                    status,
                    close_reason: reason,
                    resolved_at: closed_at,
                    exit_option_cents: m.current_option_cents,
                    exit_underlying_cents: m.current_price_cents,
                    net_pnl_cents: net,
                }));
            }
        }
        let at = marks.iter().map(|m| m.at).max().unwrap_or(DateTime::UNIX_EPOCH);
        ledger::append_entries!(tx, &entries, at);
        tx.commit().await?;
    });
    Ok(())
}

/// Where a page of [`list`] starts: just after the signal created at `created_at` with `id`
/// (lists run newest first, ties by id, largest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListPosition {
    pub created_at: DateTime<Utc>,
    pub id: String,
}

/// One half of [`list`]; `$2`–`$9` are the filters, `$10` the limit, `$11`/`$12` the position.
fn list_half(audience: &str, own_that_day: &str, after: bool) -> String {
    let keyset = if after { "AND created_at <= $11 AND (created_at < $11 OR id < $12)" } else { "" };
    format!(
        "SELECT {COLUMNS}, day_rank, {own_that_day} AS own_that_day FROM signals WHERE {audience} \
           AND (CAST($2 AS TEXT) IS NULL OR symbol LIKE CAST($2 AS TEXT) || '%') \
           AND (CAST($3 AS TEXT) IS NULL OR strategy = CAST($3 AS TEXT)) \
           AND (CAST($4 AS TEXT) IS NULL OR signal_type = CAST($4 AS TEXT)) \
           AND (CAST($5 AS TEXT) IS NULL OR status = CAST($5 AS TEXT)) \
           AND (CAST($6 AS BIGINT) IS NULL OR entry_cents * 100 > CAST($6 AS BIGINT)) \
           AND (CAST($7 AS BIGINT) IS NULL OR entry_cents * 100 <= CAST($7 AS BIGINT)) \
           AND (CAST($8 AS BIGINT) IS NULL OR confidence >= CAST($8 AS BIGINT)) \
           AND (CAST($9 AS BIGINT) IS NULL OR confidence <= CAST($9 AS BIGINT)) \
           {keyset} ORDER BY created_at DESC, id DESC LIMIT $10"
    )
}

/// The SQL of [`list`]: the newest automated signals and the newest of the viewer's own, each
/// read from its own index in list order, merged. Each automated row carries how many signals
/// the viewer generated that day (an index lookup per row of the page, in the same query). A
/// page costs the same however many signals are stored.
/// Built once per variant (first page, later page), not per request.
pub fn list_sql(after: bool) -> &'static str {
    static FIRST: LazyLock<String> = LazyLock::new(|| build_list_sql(false));
    static LATER: LazyLock<String> = LazyLock::new(|| build_list_sql(true));
    if after { &LATER } else { &FIRST }
}

fn build_list_sql(after: bool) -> String {
    const OWN_THAT_DAY: &str = "(SELECT COUNT(*) FROM signals o WHERE o.owner_id = CAST($1 AS TEXT) AND o.issued_on = signals.issued_on \
        AND o.strategy <> 'Custom')";
    format!(
        "SELECT * FROM ({}) automated UNION ALL SELECT * FROM ({}) owned ORDER BY created_at DESC, id DESC LIMIT $10",
        list_half("owner_id IS NULL", OWN_THAT_DAY, after),
        list_half("owner_id = CAST($1 AS TEXT)", "CAST(0 AS BIGINT)", after),
    )
}

/// The signals a viewer may list, newest first (ties by id, largest first), from `after` on:
/// every automated signal with its stored rank in its day, plus the viewer's own on-demand
/// signals (rank 0). Filters never change a rank, so they never change which signals the plan
/// unlocks.
pub async fn list(db: &Db, viewer: Option<&str>, f: &SignalFilter) -> StoreResult<Vec<RankedSignal>> {
    let sql = list_sql(f.after.is_some());
    Ok(with_db!(db, pool => {
        let query = sqlx::query_as::<_, RankedSignal>(sql)
            .bind(viewer)
            .bind(f.symbol_prefix.as_deref())
            .bind(f.strategy.as_deref())
            .bind(f.signal_type.as_deref())
            .bind(f.status.as_deref())
            .bind(f.cost_above_cents)
            .bind(f.cost_at_most_cents)
            .bind(f.confidence_min)
            .bind(f.confidence_max)
            .bind(f.limit);
        match &f.after {
            Some(after) => query.bind(after.created_at).bind(&after.id),
            None => query,
        }
        .fetch_all(pool)
        .await?
    }))
}

/// How many signals `viewer` may list under `f`'s filters (automated ones and their own),
/// whatever the page.
pub async fn count(db: &Db, viewer: &str, f: &SignalFilter) -> StoreResult<i64> {
    const SQL: &str = "SELECT COUNT(*) FROM signals WHERE (owner_id IS NULL OR owner_id = $1) \
        AND (CAST($2 AS TEXT) IS NULL OR symbol LIKE CAST($2 AS TEXT) || '%') \
        AND (CAST($3 AS TEXT) IS NULL OR strategy = CAST($3 AS TEXT)) \
        AND (CAST($4 AS TEXT) IS NULL OR signal_type = CAST($4 AS TEXT)) \
        AND (CAST($5 AS TEXT) IS NULL OR status = CAST($5 AS TEXT)) \
        AND (CAST($6 AS BIGINT) IS NULL OR entry_cents * 100 > CAST($6 AS BIGINT)) \
        AND (CAST($7 AS BIGINT) IS NULL OR entry_cents * 100 <= CAST($7 AS BIGINT)) \
        AND (CAST($8 AS BIGINT) IS NULL OR confidence >= CAST($8 AS BIGINT)) \
        AND (CAST($9 AS BIGINT) IS NULL OR confidence <= CAST($9 AS BIGINT))";
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>(SQL)
            .bind(viewer)
            .bind(f.symbol_prefix.as_deref())
            .bind(f.strategy.as_deref())
            .bind(f.signal_type.as_deref())
            .bind(f.status.as_deref())
            .bind(f.cost_above_cents)
            .bind(f.cost_at_most_cents)
            .bind(f.confidence_min)
            .bind(f.confidence_max)
            .fetch_one(pool)
            .await?
    }))
}

/// The SQL of [`own_since`]: an index range on `(owner_id, issued_on)`, unsorted.
pub(crate) fn own_since_sql() -> &'static str {
    static SQL: LazyLock<String> =
        LazyLock::new(|| format!("SELECT {COLUMNS} FROM signals WHERE owner_id = $1 AND issued_on >= $2 LIMIT $3"));
    &SQL
}

/// `owner`'s on-demand signals issued on `since` or later, at most `limit`, in no order: what
/// the shared window of automated signals needs to merge a viewer's own into a page and to
/// count them per day.
pub async fn own_since(db: &Db, owner: &str, since: NaiveDate, limit: i64) -> StoreResult<Vec<SignalRow>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, SignalRow>(own_since_sql()).bind(owner).bind(since).bind(limit).fetch_all(pool).await?
    }))
}

pub(crate) const ON_DEMAND_COUNTS: &str =
    "SELECT issued_on, COUNT(*) FROM signals WHERE owner_id = $1 AND issued_on >= $2 AND strategy <> 'Custom' GROUP BY issued_on";

/// How many signals `owner` generated on demand per day, for the days given.
pub async fn on_demand_counts(db: &Db, owner: &str, since: NaiveDate) -> StoreResult<Vec<(NaiveDate, i64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (NaiveDate, i64)>(ON_DEMAND_COUNTS)
        .bind(owner)
        .bind(since)
        .fetch_all(pool)
        .await?
    }))
}

/// Figures over the automated signals for the dashboard and the public stats.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SignalFigures {
    pub active: i64,
    pub avg_active_confidence: Option<f64>,
    pub closed: i64,
    pub winners: i64,
}

pub(crate) const ACTIVE_FIGURES: &str =
    "SELECT COUNT(*), AVG(CAST(confidence AS DOUBLE PRECISION)) FROM signals WHERE status = 'active' AND owner_id IS NULL";
pub(crate) const CLOSED_FIGURES: &str = "SELECT COUNT(*), SUM(CASE WHEN net_pnl_cents > 0 THEN 1 ELSE 0 END) FROM signals \
    WHERE owner_id IS NULL AND provenance = 'live' AND closed_at >= $1 AND status <> 'active'";

/// Active count and average confidence now; closed and winning counts among the live signals
/// closed since `closed_since` (a winner ended with a positive P&L after its stated costs;
/// replayed signals never count).
pub async fn figures(db: &Db, closed_since: DateTime<Utc>) -> StoreResult<SignalFigures> {
    let (active, avg): (i64, Option<f64>) = with_db!(db, pool => {
        sqlx::query_as(ACTIVE_FIGURES)
            .fetch_one(pool)
            .await?
    });
    let (closed, winners): (i64, Option<i64>) = with_db!(db, pool => {
        sqlx::query_as(CLOSED_FIGURES)
        .bind(closed_since)
        .fetch_one(pool)
        .await?
    });
    Ok(SignalFigures { active, avg_active_confidence: avg, closed, winners: winners.unwrap_or(0) })
}

/// The stored rank of a signal among its day's automated signals (1 = highest confidence; 0
/// for an on-demand signal), the rank [`list`] returns.
pub async fn day_rank(db: &Db, signal: &SignalRow) -> StoreResult<i64> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>("SELECT day_rank FROM signals WHERE id = $1").bind(&signal.id).fetch_optional(pool).await?
    })
    .unwrap_or(0))
}

/// Re-ranks the automated signals of the day `$1`: 1 + how many of that day's automated
/// signals come first (higher confidence, then earlier, then smaller id).
const RERANK_DAY: &str = "UPDATE signals SET day_rank = 1 + ( \
    SELECT COUNT(*) FROM signals o WHERE o.owner_id IS NULL AND o.issued_on = signals.issued_on \
    AND (o.confidence > signals.confidence OR (o.confidence = signals.confidence \
         AND (o.created_at < signals.created_at OR (o.created_at = signals.created_at AND o.id < signals.id))))) \
    WHERE owner_id IS NULL AND issued_on = $1";

/// Re-ranks the automated signals of each of `days` in one transaction (after bulk loads).
pub async fn rerank_days(db: &Db, days: &[NaiveDate]) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for day in days {
            sqlx::query(RERANK_DAY).bind(day).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// How many automated signals were issued since `since`.
pub async fn issued_since(db: &Db, since: DateTime<Utc>) -> StoreResult<i64> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM signals WHERE owner_id IS NULL AND created_at >= $1")
            .bind(since)
            .fetch_one(pool)
            .await?
    }))
}

/// Every automated signal that has ended, oldest resolution first: what the track record's
/// calibration reads (it keeps the live ones and counts the others it leaves out).
pub async fn resolved_automated(db: &Db) -> StoreResult<Vec<SignalRow>> {
    let sql = format!("SELECT {COLUMNS} FROM signals WHERE owner_id IS NULL AND status <> 'active' ORDER BY closed_at, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, SignalRow>(&sql).fetch_all(pool).await?))
}

/// Resolved automated signals with a net outcome, counted by strategy and provenance: how many,
/// and how many made money after costs (the track record's outcome rule).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OutcomeCount {
    pub strategy: String,
    pub provenance: String,
    pub resolved: i64,
    pub won: i64,
}

/// [`OutcomeCount`]s of every strategy and provenance, in one aggregate query.
pub async fn outcome_counts(db: &Db) -> StoreResult<Vec<OutcomeCount>> {
    let sql = "SELECT strategy, provenance, COUNT(*) AS resolved, \
               COALESCE(SUM(CASE WHEN net_pnl_cents > 0 THEN 1 ELSE 0 END), 0) AS won \
               FROM signals WHERE owner_id IS NULL AND status <> 'active' AND net_pnl_cents IS NOT NULL \
               GROUP BY strategy, provenance ORDER BY strategy, provenance";
    Ok(with_db!(db, pool => sqlx::query_as::<_, OutcomeCount>(sql).fetch_all(pool).await?))
}

/// The automated signals of one provenance issued since a time.
#[derive(Clone, Debug, Default, PartialEq, sqlx::FromRow)]
pub struct IssuedFigures {
    pub provenance: String,
    pub issued: i64,
    /// Of them, still active.
    pub active: i64,
    /// The underlying's value at issue summed over them, in cents (one contract is 100 shares
    /// of it): the notional the signals analysed.
    pub underlying_cents: i64,
}

/// How many automated signals of each provenance were issued since `since`, with the
/// underlying value they covered.
pub async fn issued_by_provenance(db: &Db, since: DateTime<Utc>) -> StoreResult<Vec<IssuedFigures>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, IssuedFigures>(
            "SELECT provenance, COUNT(*) AS issued, COALESCE(SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END), 0) AS active, \
             CAST(COALESCE(SUM(underlying_entry_cents), 0) AS BIGINT) AS underlying_cents FROM signals \
             WHERE owner_id IS NULL AND created_at >= $1 GROUP BY provenance",
        )
        .bind(since)
        .fetch_all(pool)
        .await?
    }))
}

/// How the resolved live automated signals of `strategy` with a strength in `low..=high` ended:
/// `(resolved, won)`, a win being a net P&L above zero.
pub async fn live_record_in_range(db: &Db, strategy: &str, low: i64, high: i64) -> StoreResult<(i64, i64)> {
    let (n, wins): (i64, Option<i64>) = with_db!(db, pool => {
        sqlx::query_as(
            "SELECT COUNT(*), SUM(CASE WHEN net_pnl_cents > 0 THEN 1 ELSE 0 END) FROM signals \
             WHERE owner_id IS NULL AND provenance = 'live' AND status <> 'active' AND net_pnl_cents IS NOT NULL \
             AND strategy = $1 AND confidence >= $2 AND confidence <= $3",
        )
        .bind(strategy)
        .bind(low)
        .bind(high)
        .fetch_one(pool)
        .await?
    });
    Ok((n, wins.unwrap_or(0)))
}
