//! The track record's append-only log, in the manner of Certificate Transparency (RFC 9162).
//!
//! Every issued signal and every outcome is an entry appended to one Merkle tree
//! ([`merkle`]): its leaf hash is `SHA-256(0x00 || entry)`, an interior node is
//! `SHA-256(0x01 || left || right)`, and the tree over `n` entries splits at the largest power
//! of two below `n`. An inclusion proof shows one entry is in a tree of a given size; a
//! consistency proof shows a larger tree extends a smaller one without changing it. The
//! instance signs a tree head (size, time, root) with its Ed25519 key ([`head`]), and
//! [`verify_record`] checks an exported record against the published heads, offline: an entry
//! edited, deleted, inserted or moved changes the root of every head that covers it.

pub mod head;
pub mod hex;
pub mod merkle;
mod record;

pub use head::{KeyError, SignedTreeHead, Signer, TreeHead, verify_bytes, verify_head};
pub use merkle::{Hash, ProofError};
pub use record::{RecordError, RecordReport, verify_record};
