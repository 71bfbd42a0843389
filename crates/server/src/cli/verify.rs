//! `strikeline verify <export.json> [--key HEX] [--heads FILE]`: checks an exported track
//! record offline (no database, no network): every signed head, the entries against every
//! head's root, and the stored signals against the entries. With `--key`, the export must be
//! signed by that key; with `--heads`, heads saved earlier (from `GET
//! /api/public/track-record/heads`) must be among the ones the export is checked against, so
//! a log rewritten and signed again from scratch fails against what observers already saw.

use std::path::Path;

use crate::services::track_record::export::{PublishedHead, RecordExport, verify};

/// Heads saved earlier: either the `heads` answer (`{"heads": [...], "latest": ...}`) or a list.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum SavedHeads {
    Answer { heads: Vec<PublishedHead>, latest: Option<PublishedHead> },
    List(Vec<PublishedHead>),
}

/// Verifies the export at `path`; the report on success, the reason on failure.
///
/// # Errors
/// A file that cannot be read or parsed, or the first check that fails.
pub fn verify_file(path: &Path, key: Option<&str>, saved_heads: Option<&Path>) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut export: RecordExport =
        serde_json::from_str(&text).map_err(|e| format!("{}: not a track record export: {e}", path.display()))?;
    if let Some(saved) = saved_heads {
        let text = std::fs::read_to_string(saved).map_err(|e| format!("{}: {e}", saved.display()))?;
        let heads = match serde_json::from_str(&text).map_err(|e| format!("{}: not a list of heads: {e}", saved.display()))? {
            SavedHeads::Answer { heads, latest } => heads.into_iter().chain(latest).collect(),
            SavedHeads::List(heads) => heads,
        };
        merge_heads(&mut export, heads);
    }
    let verified = verify(&export, key).map_err(|e| e.to_string())?;
    Ok(format!(
        "verified: {} entries ({} covered by the newest of {} signed heads), {} signals, {} resolved; every stored signal matches the log",
        verified.log.entries, verified.log.signed_entries, verified.log.heads, verified.signals, verified.resolved
    ))
}

/// Adds `heads` to the export's, once each, in time order.
fn merge_heads(export: &mut RecordExport, heads: Vec<PublishedHead>) {
    for head in heads {
        if !export.heads.contains(&head) {
            export.heads.push(head);
        }
    }
    export.heads.sort_by_key(|h| (h.timestamp_ms, h.tree_size));
}
