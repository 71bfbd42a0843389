//! The exported record and its offline check (`strikeline verify`).
//!
//! An export holds the log's entries (the exact bytes hashed), every signed tree head, the
//! public key, and the signals as stored now, each encoded as its entries would be. The check
//! (1) verifies every head's signature and that the entries reproduce every head's root
//! (`strikeline_ledger::verify_record`), then (2) that the stored signals match the log: each
//! logged signal is stored, encodes to exactly its issue entry and, once ended, to its outcome
//! entry; and no stored signal is missing from the log. An edit, deletion, insertion or
//! reordering of stored signals or of log rows fails one of the two.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_ledger::{RecordReport, SignedTreeHead, hex};
use strikeline_store::ledger::{self as store, NewEntry, Resolution};
use utoipa::ToSchema;

use super::public_key;
use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// Names the export format.
pub const EXPORT_FORMAT: &str = "strikeline/track-record-export/v1";

/// A signed tree head as published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedHead {
    /// Entries the tree covers.
    pub tree_size: u64,
    /// When it was signed, milliseconds since 1970 (what the signature covers).
    pub timestamp_ms: i64,
    /// The same time, readable.
    pub timestamp: DateTime<Utc>,
    /// The RFC 9162 root hash over the first `treeSize` entries, hex.
    pub root_hash: String,
    /// Ed25519 over `"strikeline/tree-head/v1\0" ‖ treeSize (u64 BE) ‖ timestampMs (i64 BE) ‖ root`, hex.
    pub signature: String,
}

impl From<&SignedTreeHead> for PublishedHead {
    fn from(h: &SignedTreeHead) -> Self {
        PublishedHead {
            tree_size: h.head.size,
            timestamp_ms: h.head.timestamp_ms,
            timestamp: DateTime::from_timestamp_millis(h.head.timestamp_ms).unwrap_or_default(),
            root_hash: hex::encode(&h.head.root),
            signature: hex::encode(&h.signature),
        }
    }
}

impl PublishedHead {
    fn parse(&self) -> Option<SignedTreeHead> {
        SignedTreeHead::from_hex(self.tree_size, self.timestamp_ms, &self.root_hash, &self.signature)
    }
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedEntry {
    /// Its leaf index.
    pub index: i64,
    /// The exact bytes hashed (UTF-8 JSON): `SHA-256(0x00 ‖ entry)` is the leaf hash.
    pub entry: String,
}

/// A stored signal, encoded as its entries are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoredSignal {
    pub signal_id: String,
    /// What its issue entry must be.
    pub issue: String,
    /// What its outcome entry must be, once it has ended.
    pub outcome: Option<String>,
}

/// The whole record, to check offline with `strikeline verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordExport {
    /// `strikeline/track-record-export/v1`.
    pub format: String,
    pub generated_at: DateTime<Utc>,
    /// The Ed25519 public key the heads are signed with, hex.
    pub public_key: String,
    /// Every signed head, oldest first.
    pub heads: Vec<PublishedHead>,
    /// Every entry, in log order.
    pub entries: Vec<ExportedEntry>,
    /// Every automated live or replayed signal as stored now.
    pub signals: Vec<StoredSignal>,
}

/// Entries and heads are read in pages of this many.
const PAGE: i64 = 5_000;

/// The record as stored now.
pub async fn build(state: &AppState, now: DateTime<Utc>) -> Result<RecordExport> {
    let public_key = hex::encode(&public_key(state).await?);
    let mut heads = Vec::new();
    let mut since = i64::MIN;
    loop {
        let page = store::heads(&state.db, since, PAGE).await?;
        let done = (page.len() as i64) < PAGE;
        since = page.last().map_or(since, |h| h.head.timestamp_ms + 1);
        heads.extend(page.iter().map(PublishedHead::from));
        if done {
            break;
        }
    }
    let mut entries = Vec::new();
    loop {
        let page = store::entries(&state.db, entries.len() as i64, PAGE).await?;
        let done = (page.len() as i64) < PAGE;
        entries.extend(page.into_iter().map(|e| ExportedEntry { index: e.seq, entry: e.body }));
        if done {
            break;
        }
    }
    let signals = store::recorded_signals(&state.db)
        .await?
        .iter()
        .map(|s| StoredSignal {
            signal_id: s.id.clone(),
            issue: NewEntry::issue(s).body,
            outcome: Resolution::of_row(s).map(|r| NewEntry::outcome(&r).body),
        })
        .collect();
    Ok(RecordExport { format: EXPORT_FORMAT.into(), generated_at: now, public_key, heads, entries, signals })
}

/// Why an export fails its check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("not a track record export: {0}")]
    Format(String),
    #[error("the export is signed with {found}, not the expected key {expected}")]
    WrongKey { expected: String, found: String },
    #[error("the log does not match its signed heads: {0}")]
    Log(#[from] strikeline_ledger::RecordError),
    #[error("entry {index} is not a signal entry: {reason}")]
    BadEntry { index: i64, reason: String },
    #[error("signal {0} is issued twice in the log")]
    IssuedTwice(String),
    #[error("signal {0} is resolved twice in the log")]
    ResolvedTwice(String),
    #[error("signal {0} is resolved in the log before it is issued")]
    ResolvedBeforeIssue(String),
    #[error("signal {0} is in the log but not among the stored signals (deleted)")]
    Deleted(String),
    #[error("signal {0} is stored but not in the log (added afterwards)")]
    NotLogged(String),
    #[error("signal {0} as stored does not match its issue entry (edited)")]
    IssueEdited(String),
    #[error("signal {0} as stored does not match its outcome entry (edited)")]
    OutcomeEdited(String),
    #[error("signal {0} has an outcome in the log but is stored as still open")]
    OutcomeRemoved(String),
    #[error("signal {0} is stored as ended but its outcome is not in the log")]
    OutcomeNotLogged(String),
}

/// What a verified export holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub log: RecordReport,
    pub signals: usize,
    pub resolved: usize,
}

/// What a log entry says it is.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EntryHeader {
    format: String,
    signal_id: String,
}

/// Checks `export` offline; with `expected_key` (hex), also that it is that instance's record.
///
/// # Errors
/// The first check that fails.
pub fn verify(export: &RecordExport, expected_key: Option<&str>) -> std::result::Result<Verified, VerifyError> {
    if export.format != EXPORT_FORMAT {
        return Err(VerifyError::Format(format!("format is {:?}", export.format)));
    }
    let key: [u8; 32] =
        hex::decode_array(&export.public_key).ok_or_else(|| VerifyError::Format("publicKey is not 32 bytes of hex".into()))?;
    if let Some(expected) = expected_key
        && !expected.eq_ignore_ascii_case(&export.public_key)
    {
        return Err(VerifyError::WrongKey { expected: expected.to_owned(), found: export.public_key.clone() });
    }
    let heads = export
        .heads
        .iter()
        .enumerate()
        .map(|(i, h)| h.parse().ok_or_else(|| VerifyError::Format(format!("head {i} has a malformed root or signature"))))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    for (position, e) in export.entries.iter().enumerate() {
        if e.index != position as i64 {
            return Err(VerifyError::Format(format!("entry {position} is numbered {}", e.index)));
        }
    }
    let log = strikeline_ledger::verify_record(&export.entries.iter().map(|e| e.entry.as_bytes()).collect::<Vec<_>>(), &heads, &key)?;

    // What the log says of each signal.
    let mut issued: HashMap<String, &str> = HashMap::new();
    let mut resolved: HashMap<String, &str> = HashMap::new();
    for e in &export.entries {
        let header: EntryHeader =
            serde_json::from_str(&e.entry).map_err(|err| VerifyError::BadEntry { index: e.index, reason: err.to_string() })?;
        match header.format.as_str() {
            store::ISSUE_FORMAT => {
                if issued.insert(header.signal_id.clone(), &e.entry).is_some() {
                    return Err(VerifyError::IssuedTwice(header.signal_id));
                }
            }
            store::OUTCOME_FORMAT => {
                if !issued.contains_key(&header.signal_id) {
                    return Err(VerifyError::ResolvedBeforeIssue(header.signal_id));
                }
                if resolved.insert(header.signal_id.clone(), &e.entry).is_some() {
                    return Err(VerifyError::ResolvedTwice(header.signal_id));
                }
            }
            other => return Err(VerifyError::BadEntry { index: e.index, reason: format!("unknown format {other:?}") }),
        }
    }
    // The stored signals against it.
    let stored: BTreeMap<&str, &StoredSignal> = export.signals.iter().map(|s| (s.signal_id.as_str(), s)).collect();
    for id in issued.keys() {
        if !stored.contains_key(id.as_str()) {
            return Err(VerifyError::Deleted(id.clone()));
        }
    }
    for (id, s) in &stored {
        let Some(issue) = issued.get(*id) else { return Err(VerifyError::NotLogged((*id).to_owned())) };
        if s.issue != *issue {
            return Err(VerifyError::IssueEdited((*id).to_owned()));
        }
        match (resolved.get(*id), &s.outcome) {
            (Some(logged), Some(outcome)) if outcome != logged => return Err(VerifyError::OutcomeEdited((*id).to_owned())),
            (Some(_), None) => return Err(VerifyError::OutcomeRemoved((*id).to_owned())),
            (None, Some(_)) => return Err(VerifyError::OutcomeNotLogged((*id).to_owned())),
            _ => {}
        }
    }
    Ok(Verified { log, signals: stored.len(), resolved: resolved.len() })
}
