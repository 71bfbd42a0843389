//! Merkle tree hashing and proofs exactly as RFC 9162, section 2.1, defines them.
//!
//! Trees are given by their leaf hashes (`leaf_hash` of each entry, in order). Generating a
//! root or a proof reads every leaf hash of the tree it covers (`O(n)`); verifying a proof
//! reads only the proof (`O(log n)`).

use sha2::{Digest, Sha256};

/// A SHA-256 value: a leaf hash, a node hash or a root.
pub type Hash = [u8; 32];

/// Why a proof cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// An inclusion proof for a leaf the tree does not have.
    NoSuchLeaf { index: u64, size: u64 },
    /// A consistency proof from a tree larger than the tree it should lead to.
    FirstLarger { first: u64, second: u64 },
}

impl std::fmt::Display for ProofError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProofError::NoSuchLeaf { index, size } => write!(f, "a tree of {size} entries has no entry {index}"),
            ProofError::FirstLarger { first, second } => write!(f, "a tree of {first} entries cannot lead to one of {second}"),
        }
    }
}

impl std::error::Error for ProofError {}

/// `SHA-256(0x00 || entry)`: the hash of one entry as a leaf.
#[must_use]
pub fn leaf_hash(entry: &[u8]) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x00]);
    hasher.update(entry);
    hasher.finalize().into()
}

/// `SHA-256(0x01 || left || right)`: an interior node.
#[must_use]
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x01]);
    hasher.update(left);
    hasher.update(right);
    hasher.finalize().into()
}

/// The root of the empty tree: `SHA-256()` of nothing.
#[must_use]
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// The largest power of two smaller than `n` (`n` ≥ 2): where RFC 9162 splits a tree.
fn split(n: usize) -> usize {
    debug_assert!(n >= 2);
    let mut k = 1;
    while k << 1 < n {
        k <<= 1;
    }
    k
}

/// MTH(D\[n\]): the root of the tree whose leaves hash to `leaves`.
#[must_use]
pub fn root(leaves: &[Hash]) -> Hash {
    match leaves {
        [] => empty_root(),
        [only] => *only,
        _ => {
            let k = split(leaves.len());
            node_hash(&root(&leaves[..k]), &root(&leaves[k..]))
        }
    }
}

/// PATH(m, D\[n\]): the audit path of leaf `index` in the tree of `leaves`, nearest sibling first.
///
/// # Errors
/// [`ProofError::NoSuchLeaf`] when `index` is not below the tree's size.
pub fn inclusion_proof(leaves: &[Hash], index: u64) -> Result<Vec<Hash>, ProofError> {
    let size = leaves.len() as u64;
    let at = usize::try_from(index).ok().filter(|&i| i < leaves.len()).ok_or(ProofError::NoSuchLeaf { index, size })?;
    let mut proof = Vec::new();
    path(at, leaves, &mut proof);
    Ok(proof)
}

fn path(m: usize, leaves: &[Hash], proof: &mut Vec<Hash>) {
    if leaves.len() <= 1 {
        return;
    }
    let k = split(leaves.len());
    if m < k {
        path(m, &leaves[..k], proof);
        proof.push(root(&leaves[k..]));
    } else {
        path(m - k, &leaves[k..], proof);
        proof.push(root(&leaves[..k]));
    }
}

/// PROOF(m, D\[n\]): shows the tree of the first `first` leaves is a prefix of the tree of all
/// of `leaves`. Empty when `first` is 0 or the whole tree.
///
/// # Errors
/// [`ProofError::FirstLarger`] when `first` exceeds the tree's size.
pub fn consistency_proof(leaves: &[Hash], first: u64) -> Result<Vec<Hash>, ProofError> {
    let second = leaves.len() as u64;
    let m = usize::try_from(first).ok().filter(|&m| m <= leaves.len()).ok_or(ProofError::FirstLarger { first, second })?;
    let mut proof = Vec::new();
    if m > 0 {
        subproof(m, leaves, true, &mut proof);
    }
    Ok(proof)
}

fn subproof(m: usize, leaves: &[Hash], whole: bool, proof: &mut Vec<Hash>) {
    let n = leaves.len();
    if m == n {
        if !whole {
            proof.push(root(leaves));
        }
        return;
    }
    let k = split(n);
    if m <= k {
        subproof(m, &leaves[..k], whole, proof);
        proof.push(root(&leaves[k..]));
    } else {
        subproof(m - k, &leaves[k..], false, proof);
        proof.push(root(&leaves[..k]));
    }
}

/// Verifies that `leaf` is entry `index` of the tree of `size` entries with root `root`
/// (RFC 9162, 2.1.3.2).
#[must_use]
pub fn verify_inclusion(leaf: &Hash, index: u64, size: u64, proof: &[Hash], root: &Hash) -> bool {
    if index >= size {
        return false;
    }
    let (mut f, mut s) = (index, size - 1);
    let mut r = *leaf;
    for p in proof {
        if s == 0 {
            return false;
        }
        if f & 1 == 1 || f == s {
            r = node_hash(p, &r);
            if f & 1 == 0 {
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            }
        } else {
            r = node_hash(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    s == 0 && r == *root
}

/// Verifies that the tree of `second` entries with root `second_root` extends the tree of
/// `first` entries with root `first_root` (RFC 9162, 2.1.4.2). A tree is consistent with itself
/// (an empty proof and equal roots) and every tree extends the empty one (an empty proof).
#[must_use]
pub fn verify_consistency(first: u64, second: u64, first_root: &Hash, second_root: &Hash, proof: &[Hash]) -> bool {
    if first > second {
        return false;
    }
    if first == second {
        return proof.is_empty() && first_root == second_root;
    }
    if first == 0 {
        return proof.is_empty() && *first_root == empty_root();
    }
    if proof.is_empty() {
        return false;
    }
    // A first tree of a power-of-two size is a node of the second: its root starts the path.
    let mut path: Vec<Hash> = Vec::with_capacity(proof.len() + 1);
    if first.is_power_of_two() {
        path.push(*first_root);
    }
    path.extend_from_slice(proof);
    let (mut f, mut s) = (first - 1, second - 1);
    while f & 1 == 1 {
        f >>= 1;
        s >>= 1;
    }
    let (mut fr, mut sr) = (path[0], path[0]);
    for c in &path[1..] {
        if s == 0 {
            return false;
        }
        if f & 1 == 1 || f == s {
            fr = node_hash(c, &fr);
            sr = node_hash(c, &sr);
            if f & 1 == 0 {
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            }
        } else {
            sr = node_hash(&sr, c);
        }
        f >>= 1;
        s >>= 1;
    }
    fr == *first_root && sr == *second_root && s == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_the_largest_power_of_two_below_n() {
        for (n, k) in [(2, 1), (3, 2), (4, 2), (5, 4), (8, 4), (9, 8), (1000, 512)] {
            assert_eq!(split(n), k, "n = {n}");
        }
    }

    #[test]
    fn a_one_leaf_tree_is_its_leaf() {
        let leaf = leaf_hash(b"entry");
        assert_eq!(root(&[leaf]), leaf);
        assert_eq!(inclusion_proof(&[leaf], 0), Ok(vec![]));
        assert!(verify_inclusion(&leaf, 0, 1, &[], &leaf));
    }

    #[test]
    fn proofs_outside_the_tree_are_refused() {
        let leaves = [leaf_hash(b"a"), leaf_hash(b"b")];
        assert_eq!(inclusion_proof(&leaves, 2), Err(ProofError::NoSuchLeaf { index: 2, size: 2 }));
        assert_eq!(consistency_proof(&leaves, 3), Err(ProofError::FirstLarger { first: 3, second: 2 }));
        assert!(!verify_inclusion(&leaves[0], 2, 2, &[leaves[1]], &root(&leaves)));
        assert!(!verify_consistency(2, 1, &root(&leaves), &leaves[0], &[]));
    }
}
