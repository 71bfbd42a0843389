//! Offline verification of an exported record against the published signed tree heads.

use crate::head::{SignedTreeHead, verify_head};
use crate::merkle::{Hash, leaf_hash, node_hash};

/// What a verified record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordReport {
    /// Entries in the export.
    pub entries: u64,
    /// Signed heads checked.
    pub heads: usize,
    /// Entries the latest head covers; those after it are not signed yet.
    pub signed_entries: u64,
}

/// Why a record does not match its heads. Each names the first head that fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// No signed head: nothing to check the record against.
    NoHeads,
    /// The signature on the head at `head` (its position in the list) is not the instance's.
    BadSignature { head: usize },
    /// A later head covers fewer entries than an earlier one, or is older: the log went back.
    OutOfOrder { head: usize },
    /// The head at `head` covers `size` entries and the export has only `entries`.
    MissingEntries { head: usize, size: u64, entries: u64 },
    /// The first `size` entries do not hash to the root the head at `head` signed: an entry
    /// was edited, deleted, inserted or moved.
    RootMismatch { head: usize, size: u64 },
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::NoHeads => write!(f, "no signed tree head to check the record against"),
            RecordError::BadSignature { head } => write!(f, "tree head {head} is not signed by this key"),
            RecordError::OutOfOrder { head } => write!(f, "tree head {head} is older or smaller than the one before it"),
            RecordError::MissingEntries { head, size, entries } => {
                write!(f, "tree head {head} covers {size} entries and the record has {entries}")
            }
            RecordError::RootMismatch { head, size } => {
                write!(f, "the first {size} entries do not match tree head {head}: the record was changed")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// The roots of a growing tree, one leaf at a time, in `O(log n)` space: the roots of the
/// perfect subtrees the leaves so far fall into (one per set bit of the size, largest first).
/// Folding them from the right gives the RFC 9162 root, as the tree splits at the largest
/// power of two.
#[derive(Default)]
struct Accumulator {
    peaks: Vec<(u64, Hash)>,
    size: u64,
}

impl Accumulator {
    fn push(&mut self, leaf: Hash) {
        let mut carry = (1_u64, leaf);
        while let Some(&(width, peak)) = self.peaks.last() {
            if width != carry.0 {
                break;
            }
            self.peaks.pop();
            carry = (width * 2, node_hash(&peak, &carry.1));
        }
        self.peaks.push(carry);
        self.size += 1;
    }

    fn root(&self) -> Hash {
        let mut peaks = self.peaks.iter().rev();
        match peaks.next() {
            None => crate::merkle::empty_root(),
            Some(&(_, last)) => peaks.fold(last, |right, (_, left)| node_hash(left, &right)),
        }
    }
}

/// Checks an exported record (its entries, in log order) against the signed heads published
/// for it (oldest first) under `public_key`: every signature, the order of the heads, and that
/// the entries reproduce every head's root. One pass over the entries.
///
/// # Errors
/// The first failure found, as a [`RecordError`].
pub fn verify_record<E: AsRef<[u8]>>(entries: &[E], heads: &[SignedTreeHead], public_key: &[u8; 32]) -> Result<RecordReport, RecordError> {
    if heads.is_empty() {
        return Err(RecordError::NoHeads);
    }
    let count = entries.len() as u64;
    let mut tree = Accumulator::default();
    let mut unread = entries.iter();
    for (i, signed) in heads.iter().enumerate() {
        let head = &signed.head;
        if !verify_head(public_key, signed) {
            return Err(RecordError::BadSignature { head: i });
        }
        if i > 0 && (head.size < heads[i - 1].head.size || head.timestamp_ms < heads[i - 1].head.timestamp_ms) {
            return Err(RecordError::OutOfOrder { head: i });
        }
        if head.size > count {
            return Err(RecordError::MissingEntries { head: i, size: head.size, entries: count });
        }
        // Heads only grow, so the tree is extended to each head's size in turn.
        while tree.size < head.size {
            let Some(entry) = unread.next() else { break };
            tree.push(leaf_hash(entry.as_ref()));
        }
        if tree.root() != head.root {
            return Err(RecordError::RootMismatch { head: i, size: head.size });
        }
    }
    let signed_entries = heads.last().map_or(0, |h| h.head.size);
    Ok(RecordReport { entries: count, heads: heads.len(), signed_entries })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merkle::root;

    #[test]
    fn the_accumulator_gives_the_rfc_root_at_every_size() {
        let leaves: Vec<Hash> = (0..70_u32).map(|i| leaf_hash(&i.to_be_bytes())).collect();
        let mut tree = Accumulator::default();
        assert_eq!(tree.root(), root(&[]));
        for (n, leaf) in leaves.iter().enumerate() {
            tree.push(*leaf);
            assert_eq!(tree.root(), root(&leaves[..=n]), "size {}", n + 1);
        }
    }
}
