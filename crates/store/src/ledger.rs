//! The track record's log (issue 24): every automated signal that is live or replayed is
//! appended as an *issue* entry in the transaction that stores it, and as an *outcome* entry
//! in the transaction that ends it. Entries are never updated or deleted; entry `seq` is leaf
//! `seq` of the RFC 9162 Merkle tree (`strikeline_ledger`). The signed tree heads and the
//! instance's signing key live here too.
//!
//! An entry's bytes are compact JSON with a fixed field order, money in integer cents and
//! times in UTC to the millisecond, so encoding a stored row again gives the same bytes on
//! both engines: that is how an export shows the stored signals still match their entries.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use serde::Serialize;
use strikeline_ledger::{Hash, SignedTreeHead, hex, merkle};

use crate::signals::SignalRow;
use crate::{Db, StoreResult, with_db};

/// The format names an entry starts with.
pub const ISSUE_FORMAT: &str = "strikeline/signal-issued/v1";
pub const OUTCOME_FORMAT: &str = "strikeline/signal-resolved/v1";

/// How a signal resolves, written into its issue entry: exit at the first session mark at or
/// beyond the target or the stop premium, else at intrinsic value after expiry; filled with
/// the stated slippage and commissions; won when the net P&L is above zero.
const EXIT_RULE: &str = "first session mark at or above the target premium (target) or at or below the stop premium (stop); \
    otherwise intrinsic value once the series has expired (expiry)";
const WIN_RULE: &str = "net P&L per contract after slippage and commissions > 0";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutcomeRule<'a> {
    horizon: NaiveDate,
    exit: &'a str,
    slippage_bp: i64,
    commission_cents_per_contract: i64,
    contracts: u32,
    win: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IssueEntry<'a> {
    format: &'a str,
    signal_id: &'a str,
    provenance: &'a str,
    symbol: &'a str,
    strategy: &'a str,
    signal_type: &'a str,
    strike_cents: i64,
    expiration_date: NaiveDate,
    entry_cents: i64,
    target_cents: i64,
    stop_cents: i64,
    underlying_entry_cents: i64,
    volatility: f64,
    confidence: i64,
    probability_of_profit: Option<f64>,
    model_probability: Option<f64>,
    model_version: Option<&'a str>,
    issued_on: NaiveDate,
    issued_at: String,
    rule: OutcomeRule<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutcomeEntry<'a> {
    format: &'a str,
    signal_id: &'a str,
    status: &'a str,
    close_reason: Option<&'a str>,
    resolved_at: String,
    exit_option_cents: i64,
    exit_underlying_cents: i64,
    net_pnl_cents: Option<i64>,
    won: Option<bool>,
}

fn millis(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn json<T: Serialize>(value: &T) -> String {
    // Serializing a struct of strings, integers and finite floats cannot fail; a non-finite
    // float (which the schema never stores) would become `null`.
    serde_json::to_string(value).unwrap_or_default()
}

/// Whether a stored signal belongs in the log: automated (not generated on demand for one
/// user), and live or replayed.
#[must_use]
pub fn is_logged(owner_id: Option<&str>, provenance: &str) -> bool {
    owner_id.is_none() && provenance != "unrecorded"
}

/// The issue entry of a signal: its terms, its outcome rule and when it was issued.
#[must_use]
pub fn issue_entry(s: &SignalRow) -> String {
    json(&IssueEntry {
        format: ISSUE_FORMAT,
        signal_id: &s.id,
        provenance: &s.provenance,
        symbol: &s.symbol,
        strategy: &s.strategy,
        signal_type: &s.signal_type,
        strike_cents: s.strike_cents,
        expiration_date: s.expiration_date,
        entry_cents: s.entry_cents,
        target_cents: s.target_cents,
        stop_cents: s.stop_cents,
        underlying_entry_cents: s.underlying_entry_cents,
        volatility: s.volatility,
        confidence: s.confidence,
        probability_of_profit: s.issue_probability,
        model_probability: s.model_probability,
        model_version: s.model_version.as_deref(),
        issued_on: s.issued_on,
        issued_at: millis(s.created_at),
        rule: OutcomeRule {
            horizon: s.expiration_date,
            exit: EXIT_RULE,
            slippage_bp: s.slippage_bp,
            commission_cents_per_contract: s.commission_cents,
            contracts: 1,
            win: WIN_RULE,
        },
    })
}

/// How a signal ended, as its outcome entry records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolution<'a> {
    pub signal_id: &'a str,
    pub status: &'a str,
    pub close_reason: Option<&'a str>,
    pub resolved_at: DateTime<Utc>,
    pub exit_option_cents: i64,
    pub exit_underlying_cents: i64,
    pub net_pnl_cents: Option<i64>,
}

impl<'a> Resolution<'a> {
    /// The resolution of a stored signal that has ended; `None` while it is active.
    #[must_use]
    pub fn of_row(s: &'a SignalRow) -> Option<Resolution<'a>> {
        Some(Resolution {
            signal_id: &s.id,
            status: &s.status,
            close_reason: s.close_reason.as_deref(),
            resolved_at: s.closed_at?,
            exit_option_cents: s.current_option_cents,
            exit_underlying_cents: s.current_price_cents,
            net_pnl_cents: s.net_pnl_cents,
        })
    }
}

/// The outcome entry of a resolution.
#[must_use]
pub fn outcome_entry(r: &Resolution<'_>) -> String {
    json(&OutcomeEntry {
        format: OUTCOME_FORMAT,
        signal_id: r.signal_id,
        status: r.status,
        close_reason: r.close_reason,
        resolved_at: millis(r.resolved_at),
        exit_option_cents: r.exit_option_cents,
        exit_underlying_cents: r.exit_underlying_cents,
        net_pnl_cents: r.net_pnl_cents,
        won: r.net_pnl_cents.map(|p| p > 0),
    })
}

/// An entry to append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    pub kind: &'static str,
    pub signal_id: String,
    pub body: String,
}

impl NewEntry {
    #[must_use]
    pub fn issue(s: &SignalRow) -> NewEntry {
        NewEntry { kind: "issue", signal_id: s.id.clone(), body: issue_entry(s) }
    }

    #[must_use]
    pub fn outcome(r: &Resolution<'_>) -> NewEntry {
        NewEntry { kind: "outcome", signal_id: r.signal_id.to_owned(), body: outcome_entry(r) }
    }
}

pub(crate) const INSERT_ENTRY: &str =
    "INSERT INTO ledger_entries (seq, kind, signal_id, body, leaf_hash, appended_at) VALUES ($1, $2, $3, $4, $5, $6)";
/// Takes the size row without changing it: what orders writers that will append.
pub(crate) const LOCK: &str = "UPDATE ledger_size SET size = size WHERE id = 1";
pub(crate) const GROW: &str = "UPDATE ledger_size SET size = size + $1 WHERE id = 1 RETURNING size";

/// Inside an open transaction `$tx`: appends `$entries` (a slice of [`NewEntry`]) at the end of
/// the log at `$at`. Growing the size row first orders concurrent appenders (PostgreSQL locks
/// the row; SQLite has one writer), so sequence numbers never collide or skip.
macro_rules! append_entries {
    ($tx:ident, $entries:expr, $at:expr) => {{
        let entries: &[$crate::ledger::NewEntry] = $entries;
        if !entries.is_empty() {
            let added = i64::try_from(entries.len()).unwrap_or(i64::MAX);
            let end: i64 = sqlx::query_scalar($crate::ledger::GROW).bind(added).fetch_one(&mut *$tx).await?;
            for (seq, entry) in (end - added..).zip(entries) {
                let leaf = strikeline_ledger::hex::encode(&strikeline_ledger::merkle::leaf_hash(entry.body.as_bytes()));
                sqlx::query($crate::ledger::INSERT_ENTRY)
                    .bind(seq)
                    .bind(entry.kind)
                    .bind(&entry.signal_id)
                    .bind(&entry.body)
                    .bind(leaf)
                    .bind($at)
                    .execute(&mut *$tx)
                    .await?;
            }
        }
    }};
}
pub(crate) use append_entries;

/// A stored entry.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EntryRow {
    pub seq: i64,
    pub kind: String,
    pub signal_id: String,
    pub body: String,
    pub leaf_hash: String,
    pub appended_at: DateTime<Utc>,
}

const ENTRY_COLUMNS: &str = "seq, kind, signal_id, body, leaf_hash, appended_at";

/// How many entries the log holds.
pub async fn size(db: &Db) -> StoreResult<i64> {
    Ok(with_db!(db, pool => sqlx::query_scalar::<_, i64>("SELECT size FROM ledger_size WHERE id = 1").fetch_one(pool).await?))
}

/// Up to `limit` entries from `from` on, in log order.
pub async fn entries(db: &Db, from: i64, limit: i64) -> StoreResult<Vec<EntryRow>> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM ledger_entries WHERE seq >= $1 ORDER BY seq LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, EntryRow>(&sql).bind(from).bind(limit).fetch_all(pool).await?))
}

/// The entries of one signal (its issue entry and, once it ended, its outcome entry).
pub async fn entries_of_signal(db: &Db, signal_id: &str) -> StoreResult<Vec<EntryRow>> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM ledger_entries WHERE signal_id = $1 ORDER BY seq");
    Ok(with_db!(db, pool => sqlx::query_as::<_, EntryRow>(&sql).bind(signal_id).fetch_all(pool).await?))
}

/// The leaf hashes of the first `size` entries, in log order, as stored. A stored hash that is
/// not 32 bytes of hex is recomputed from the entry's body instead (read only for such rows).
pub async fn leaf_hashes(db: &Db, size: i64) -> StoreResult<Vec<Hash>> {
    let rows: Vec<(String, String)> = with_db!(db, pool => {
        sqlx::query_as(
            "SELECT leaf_hash, CASE WHEN LENGTH(leaf_hash) = 64 THEN '' ELSE body END FROM ledger_entries WHERE seq < $1 ORDER BY seq",
        )
        .bind(size)
        .fetch_all(pool)
        .await?
    });
    Ok(rows.into_iter().map(|(hash, body)| hex::decode_array(&hash).unwrap_or_else(|| merkle::leaf_hash(body.as_bytes()))).collect())
}

#[derive(sqlx::FromRow)]
struct HeadRow {
    size: i64,
    timestamp_ms: i64,
    root: String,
    signature: String,
}

impl HeadRow {
    fn parse(self) -> Option<SignedTreeHead> {
        SignedTreeHead::from_hex(u64::try_from(self.size).ok()?, self.timestamp_ms, &self.root, &self.signature)
    }
}

/// Stores a signed head; a head with the same timestamp is kept as it was.
pub async fn insert_head(db: &Db, head: &SignedTreeHead) -> StoreResult<()> {
    let size = i64::try_from(head.head.size).unwrap_or(i64::MAX);
    with_db!(db, pool => {
        sqlx::query("INSERT INTO ledger_heads (size, timestamp_ms, root, signature) VALUES ($1, $2, $3, $4) ON CONFLICT (timestamp_ms) DO NOTHING")
            .bind(size)
            .bind(head.head.timestamp_ms)
            .bind(hex::encode(&head.head.root))
            .bind(hex::encode(&head.signature))
            .execute(pool)
            .await?;
    });
    Ok(())
}

const HEAD_COLUMNS: &str = "size, timestamp_ms, root, signature";

/// Signed heads made at or after `since_ms`, oldest first, at most `limit`.
pub async fn heads(db: &Db, since_ms: i64, limit: i64) -> StoreResult<Vec<SignedTreeHead>> {
    let sql = format!("SELECT {HEAD_COLUMNS} FROM ledger_heads WHERE timestamp_ms >= $1 ORDER BY timestamp_ms LIMIT $2");
    let rows = with_db!(db, pool => sqlx::query_as::<_, HeadRow>(&sql).bind(since_ms).bind(limit).fetch_all(pool).await?);
    Ok(rows.into_iter().filter_map(HeadRow::parse).collect())
}

/// The newest signed head.
pub async fn latest_head(db: &Db) -> StoreResult<Option<SignedTreeHead>> {
    let sql = format!("SELECT {HEAD_COLUMNS} FROM ledger_heads ORDER BY timestamp_ms DESC LIMIT 1");
    let row = with_db!(db, pool => sqlx::query_as::<_, HeadRow>(&sql).fetch_optional(pool).await?);
    Ok(row.and_then(HeadRow::parse))
}

/// The newest signed head covering exactly `size` entries.
pub async fn head_of_size(db: &Db, size: i64) -> StoreResult<Option<SignedTreeHead>> {
    let sql = format!("SELECT {HEAD_COLUMNS} FROM ledger_heads WHERE size = $1 ORDER BY timestamp_ms DESC LIMIT 1");
    let row = with_db!(db, pool => sqlx::query_as::<_, HeadRow>(&sql).bind(size).fetch_optional(pool).await?);
    Ok(row.and_then(HeadRow::parse))
}

/// The stored key named `name`: `(private PKCS#8, public key)`, both hex.
pub async fn key(db: &Db, name: &str) -> StoreResult<Option<(String, String)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as("SELECT private_key, public_key FROM instance_keys WHERE name = $1").bind(name).fetch_optional(pool).await?
    }))
}

/// Stores a key named `name` unless one is stored already, and returns the stored one: of two
/// instances starting at once, both end up with the same key.
pub async fn key_or_insert(db: &Db, name: &str, private_hex: &str, public_hex: &str, at: DateTime<Utc>) -> StoreResult<(String, String)> {
    with_db!(db, pool => {
        sqlx::query("INSERT INTO instance_keys (name, private_key, public_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(private_hex)
            .bind(public_hex)
            .bind(at)
            .execute(pool)
            .await?;
    });
    key(db, name).await?.ok_or(crate::StoreError::NotFound)
}

/// Every signal the log records (automated, live or replayed), in issue order: what an export
/// publishes beside the entries, to show the stored signals still match them.
pub async fn recorded_signals(db: &Db) -> StoreResult<Vec<SignalRow>> {
    let sql = format!(
        "SELECT {} FROM signals WHERE owner_id IS NULL AND provenance <> 'unrecorded' ORDER BY created_at, id",
        crate::signals::COLUMNS
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, SignalRow>(&sql).fetch_all(pool).await?))
}
