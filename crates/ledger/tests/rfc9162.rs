//! The tree against the reference values every Certificate Transparency implementation
//! shares (transparency-dev/merkle's RFC 6962 test vectors, whose hashing RFC 9162 keeps), then
//! every proof of every tree up to 64 entries, and tampered proofs and records.

use strikeline_ledger::merkle::{consistency_proof, empty_root, inclusion_proof, leaf_hash, root, verify_consistency, verify_inclusion};
use strikeline_ledger::{Hash, RecordError, Signer, TreeHead, verify_record};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

fn hash(s: &str) -> Hash {
    unhex(s).try_into().expect("32 bytes")
}

const ENTRIES: [&str; 8] = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"];

/// MTH of the first n entries, n = 0..=8.
const ROOTS: [&str; 9] = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

fn reference_leaves() -> Vec<Hash> {
    ENTRIES.iter().map(|e| leaf_hash(&unhex(e))).collect()
}

#[test]
fn roots_match_the_reference_at_every_size() {
    let leaves = reference_leaves();
    assert_eq!(empty_root(), hash(ROOTS[0]));
    for n in 0..=8 {
        assert_eq!(root(&leaves[..n]), hash(ROOTS[n]), "size {n}");
    }
}

#[test]
fn inclusion_proofs_match_the_reference() {
    let leaves = reference_leaves();
    let cases: [(u64, [&str; 3]); 2] = [
        (
            0,
            [
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ],
        ),
        (
            5,
            [
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ],
        ),
    ];
    for (index, expected) in cases {
        let expected: Vec<Hash> = expected.iter().map(|h| hash(h)).collect();
        assert_eq!(inclusion_proof(&leaves, index).expect("proof"), expected, "leaf {index}");
        assert!(verify_inclusion(&leaves[index as usize], index, 8, &expected, &hash(ROOTS[8])));
    }
}

#[test]
fn consistency_proofs_match_the_reference() {
    let leaves = reference_leaves();
    let cases: [(u64, &[&str]); 3] = [
        (
            2,
            &[
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ],
        ),
        (
            6,
            &[
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ],
        ),
        (
            1,
            &[
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ],
        ),
    ];
    for (first, expected) in cases {
        let expected: Vec<Hash> = expected.iter().map(|h| hash(h)).collect();
        assert_eq!(consistency_proof(&leaves, first).expect("proof"), expected, "from {first}");
        assert!(verify_consistency(first, 8, &hash(ROOTS[first as usize]), &hash(ROOTS[8]), &expected));
    }
}

fn many(n: u32) -> Vec<Hash> {
    (0..n).map(|i| leaf_hash(format!("entry {i}").as_bytes())).collect()
}

#[test]
fn every_proof_of_every_tree_up_to_64_verifies_and_every_tampering_fails() {
    let leaves = many(64);
    let roots: Vec<Hash> = (0..=64).map(|n| root(&leaves[..n])).collect();
    for n in 1..=64_usize {
        let size = n as u64;
        for i in 0..size {
            let proof = inclusion_proof(&leaves[..n], i).expect("proof");
            let leaf = &leaves[i as usize];
            assert!(verify_inclusion(leaf, i, size, &proof, &roots[n]), "{i} of {n}");
            if n > 1 {
                let another = &leaves[(i as usize + 1) % n];
                assert!(!verify_inclusion(another, i, size, &proof, &roots[n]), "another leaf, {i} of {n}");
                assert!(!verify_inclusion(leaf, i, size, &proof, &roots[n - 1]), "an older root, {i} of {n}");
            }
            if n < 64 {
                assert!(!verify_inclusion(leaf, i, size + 1, &proof, &roots[n + 1]), "a larger tree, {i} of {n}");
            }
            assert!(!verify_inclusion(leaf, size, size, &proof, &roots[n]), "an index past the end, {i} of {n}");
            if let Some(last) = proof.len().checked_sub(1) {
                let mut flipped = proof.clone();
                flipped[last][7] ^= 1;
                assert!(!verify_inclusion(leaf, i, size, &flipped, &roots[n]), "flipped byte {i} of {n}");
                assert!(!verify_inclusion(leaf, i, size, &proof[..last], &roots[n]), "truncated {i} of {n}");
                let mut longer = proof.clone();
                longer.push([0xab; 32]);
                assert!(!verify_inclusion(leaf, i, size, &longer, &roots[n]), "extended {i} of {n}");
            }
        }
        for m in 0..=n {
            let proof = consistency_proof(&leaves[..n], m as u64).expect("proof");
            assert!(verify_consistency(m as u64, size, &roots[m], &roots[n], &proof), "{m} → {n}");
            if 0 < m && m < n {
                let mut flipped = proof.clone();
                flipped[0][3] ^= 0x80;
                assert!(!verify_consistency(m as u64, size, &roots[m], &roots[n], &flipped), "flipped {m} → {n}");
                assert!(!verify_consistency(m as u64, size, &roots[m], &roots[n], &proof[..proof.len() - 1]), "truncated {m} → {n}");
                let mut longer = proof.clone();
                longer.push([0xcd; 32]);
                assert!(!verify_consistency(m as u64, size, &roots[m], &roots[n], &longer), "extended {m} → {n}");
                // A first tree that is not a prefix of the second.
                let other = root(&many_other(m));
                assert!(!verify_consistency(m as u64, size, &other, &roots[n], &proof), "foreign {m} → {n}");
            }
        }
    }
}

fn many_other(n: usize) -> Vec<Hash> {
    (0..n).map(|i| leaf_hash(format!("other {i}").as_bytes())).collect()
}

#[test]
fn the_degenerate_consistency_cases() {
    let leaves = many(5);
    let (r4, r5) = (root(&leaves[..4]), root(&leaves));
    assert!(verify_consistency(4, 4, &r4, &r4, &[]));
    assert!(!verify_consistency(4, 4, &r4, &r5, &[]));
    assert!(!verify_consistency(4, 4, &r4, &r4, &[[0; 32]]));
    assert!(verify_consistency(0, 5, &empty_root(), &r5, &[]));
    assert!(!verify_consistency(0, 5, &r4, &r5, &[]));
    assert!(!verify_consistency(5, 4, &r5, &r4, &[]));
    assert!(!verify_consistency(3, 5, &root(&leaves[..3]), &r5, &[]));
}

/// A record of `n` entries with heads signed at sizes 0, 3, 7 and n.
fn published(n: usize) -> (Vec<Vec<u8>>, Vec<strikeline_ledger::SignedTreeHead>, [u8; 32]) {
    let entries: Vec<Vec<u8>> = (0..n).map(|i| format!("{{\"signal\":\"s{i}\",\"kind\":\"issued\"}}").into_bytes()).collect();
    let signer = Signer::from_seed(&[9; 32]).expect("seed");
    let leaves: Vec<Hash> = entries.iter().map(|e| leaf_hash(e)).collect();
    let heads = [0, 3, 7, n]
        .iter()
        .enumerate()
        .map(|(i, &size)| signer.sign(TreeHead { size: size as u64, timestamp_ms: 1_000 * i as i64, root: root(&leaves[..size]) }))
        .collect();
    (entries, heads, signer.public_key())
}

#[test]
fn an_untouched_record_verifies() {
    let (entries, heads, key) = published(12);
    let report = verify_record(&entries, &heads, &key).expect("verifies");
    assert_eq!((report.entries, report.heads, report.signed_entries), (12, 4, 12));
    // Entries appended after the last head are reported, not refused.
    let mut more = entries.clone();
    more.push(b"later".to_vec());
    assert_eq!(verify_record(&more, &heads, &key).expect("verifies").signed_entries, 12);
}

#[test]
fn every_edit_deletion_insertion_and_reordering_is_caught() {
    let (entries, heads, key) = published(12);
    for i in 0..entries.len() {
        let mut edited = entries.clone();
        edited[i][2] ^= 1;
        assert!(matches!(verify_record(&edited, &heads, &key), Err(RecordError::RootMismatch { .. })), "edit {i}");

        let mut deleted = entries.clone();
        deleted.remove(i);
        assert!(verify_record(&deleted, &heads, &key).is_err(), "delete {i}");

        let mut inserted = entries.clone();
        inserted.insert(i, b"{\"signal\":\"forged\"}".to_vec());
        assert!(matches!(verify_record(&inserted, &heads, &key), Err(RecordError::RootMismatch { .. })), "insert at {i}");

        if i + 1 < entries.len() {
            let mut swapped = entries.clone();
            swapped.swap(i, i + 1);
            assert!(matches!(verify_record(&swapped, &heads, &key), Err(RecordError::RootMismatch { .. })), "swap {i}");
        }
    }
    assert_eq!(verify_record(&entries[..11], &heads, &key), Err(RecordError::MissingEntries { head: 3, size: 12, entries: 11 }));
}

#[test]
fn forged_missing_and_reordered_heads_are_caught() {
    let (entries, heads, key) = published(12);
    assert_eq!(verify_record(&entries, &[], &key), Err(RecordError::NoHeads));
    let mut forged = heads.clone();
    forged[2].head.root = root(&[leaf_hash(b"x")]);
    assert_eq!(verify_record(&entries, &forged, &key), Err(RecordError::BadSignature { head: 2 }));
    let other = Signer::from_seed(&[8; 32]).expect("seed").public_key();
    assert_eq!(verify_record(&entries, &heads, &other), Err(RecordError::BadSignature { head: 0 }));
    let mut reordered = heads.clone();
    reordered.swap(1, 2);
    assert_eq!(verify_record(&entries, &reordered, &key), Err(RecordError::OutOfOrder { head: 2 }));
    // A head re-signed over a rewritten history still fails against the published entries.
    let signer = Signer::from_seed(&[9; 32]).expect("seed");
    let mut rewritten = heads.clone();
    rewritten[3] = signer.sign(TreeHead { root: root(&[leaf_hash(b"rewritten")]), ..heads[3].head });
    assert_eq!(verify_record(&entries, &rewritten, &key), Err(RecordError::RootMismatch { head: 3, size: 12 }));
}
