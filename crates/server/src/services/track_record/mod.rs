//! The track record (issue 24): the instance's signing key, hourly signed tree heads over the
//! log the store appends to, inclusion and consistency proofs, the export `strikeline verify`
//! checks offline ([`export`]), and the calibration figures of resolved live signals
//! ([`calibration`]).

pub mod calibration;
pub mod export;

use chrono::{DateTime, Duration, Utc};
use strikeline_ledger::{Hash, SignedTreeHead, Signer, TreeHead, hex, merkle};
use strikeline_store::ledger::{self as store, EntryRow};

use crate::foundation::error::{AppError, Result};
use crate::foundation::state::AppState;

/// The name the tree-head key is stored under.
const KEY_NAME: &str = "tree-head-ed25519";

/// A head is signed when the newest is this old (or there is none).
pub const HEAD_INTERVAL: Duration = Duration::hours(1);

fn key_error(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("tree head key: {e}"))
}

/// The instance's signing key, generated and stored at first use (first start).
pub async fn signer(state: &AppState) -> Result<Signer> {
    let (private, _) = match store::key(&state.db, KEY_NAME).await? {
        Some(stored) => stored,
        None => {
            let pkcs8 = Signer::generate_pkcs8().map_err(key_error)?;
            let public = Signer::from_pkcs8(&pkcs8).map_err(key_error)?.public_key();
            let stored = store::key_or_insert(&state.db, KEY_NAME, &hex::encode(&pkcs8), &hex::encode(&public), state.clock.now()).await?;
            tracing::info!(public_key = %stored.1, "tree head signing key generated");
            stored
        }
    };
    let pkcs8 = hex::decode(&private).ok_or_else(|| key_error("stored key is not hex"))?;
    Signer::from_pkcs8(&pkcs8).map_err(key_error)
}

/// The public key heads are signed with.
pub async fn public_key(state: &AppState) -> Result<[u8; 32]> {
    Ok(signer(state).await?.public_key())
}

/// Signs a head over the whole log at `now` and stores it.
pub async fn sign_head(state: &AppState, now: DateTime<Utc>) -> Result<SignedTreeHead> {
    let signer = signer(state).await?;
    let size = store::size(&state.db).await?;
    let leaves = store::leaf_hashes(&state.db, size).await?;
    let head = signer.sign(TreeHead { size: leaves.len() as u64, timestamp_ms: now.timestamp_millis(), root: merkle::root(&leaves) });
    store::insert_head(&state.db, &head).await?;
    Ok(head)
}

/// Signs a head when the newest is [`HEAD_INTERVAL`] old or there is none (the scheduler's
/// tick and first start call this). Returns the head signed, if any.
pub async fn sign_head_if_due(state: &AppState, now: DateTime<Utc>) -> Result<Option<SignedTreeHead>> {
    let due = match store::latest_head(&state.db).await? {
        Some(latest) => now.timestamp_millis() - latest.head.timestamp_ms >= HEAD_INTERVAL.num_milliseconds(),
        None => true,
    };
    if due { sign_head(state, now).await.map(Some) } else { Ok(None) }
}

/// One of a signal's entries with the audit path that places it in a head's tree.
pub struct EntryProof {
    pub entry: EntryRow,
    pub audit_path: Vec<Hash>,
}

/// The inclusion proofs of `signal_id`'s entries in the tree of `head` (the newest head, or the
/// newest of `tree_size` entries): the entries the head covers, each with its audit path.
/// Not found when no head has that size or the signal is not in its tree.
pub async fn inclusion(state: &AppState, signal_id: &str, tree_size: Option<i64>) -> Result<(SignedTreeHead, Vec<EntryProof>)> {
    let head = match tree_size {
        Some(size) => {
            // A size no head was signed at names no tree: as missing as an unknown signal.
            store::head_of_size(&state.db, size).await?.ok_or(AppError::NotFound)?
        }
        None => store::latest_head(&state.db).await?.ok_or(AppError::NotFound)?,
    };
    let size = i64::try_from(head.head.size).unwrap_or(i64::MAX);
    let entries: Vec<EntryRow> = store::entries_of_signal(&state.db, signal_id).await?.into_iter().filter(|e| e.seq < size).collect();
    if entries.is_empty() {
        return Err(AppError::NotFound);
    }
    let leaves = store::leaf_hashes(&state.db, size).await?;
    let mut proofs = Vec::with_capacity(entries.len());
    for entry in entries {
        let audit_path = merkle::inclusion_proof(&leaves, entry.seq as u64).map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))?;
        proofs.push(EntryProof { entry, audit_path });
    }
    Ok((head, proofs))
}

/// The consistency proof between the trees of `first` and `second` entries (`first` ≤
/// `second` ≤ the log's size).
pub async fn consistency(state: &AppState, first: i64, second: i64) -> Result<Vec<Hash>> {
    if first > second {
        return Err(AppError::field("first", "Must not exceed second"));
    }
    let size = store::size(&state.db).await?;
    if second > size {
        return Err(AppError::field("second", &format!("The log holds {size} entries")));
    }
    let leaves = store::leaf_hashes(&state.db, second).await?;
    merkle::consistency_proof(&leaves, first as u64).map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))
}
