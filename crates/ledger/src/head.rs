//! Signed tree heads: the instance's Ed25519 signature over (size, time, root).
//!
//! What is signed is `b"strikeline/tree-head/v1\0"`, then the size and the timestamp in
//! milliseconds since 1970 as 8-byte big-endian integers, then the 32-byte root: a fixed layout,
//! so any Ed25519 implementation can check a head without this code.

use ring::rand::SystemRandom;
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

use crate::merkle::Hash;

/// What a tree head signature covers first: names the format, so a signature made for
/// anything else can never pass as a tree head.
const CONTEXT: &[u8] = b"strikeline/tree-head/v1\0";

/// The state of the log at one time: how many entries, and the root over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeHead {
    pub size: u64,
    /// When the head was made, in milliseconds since 1970-01-01T00:00:00Z.
    pub timestamp_ms: i64,
    pub root: Hash,
}

impl TreeHead {
    /// The bytes the signature covers.
    #[must_use]
    pub fn signing_input(&self) -> Vec<u8> {
        let mut input = Vec::with_capacity(CONTEXT.len() + 8 + 8 + 32);
        input.extend_from_slice(CONTEXT);
        input.extend_from_slice(&self.size.to_be_bytes());
        input.extend_from_slice(&self.timestamp_ms.to_be_bytes());
        input.extend_from_slice(&self.root);
        input
    }
}

/// A tree head and the instance's signature over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignedTreeHead {
    pub head: TreeHead,
    pub signature: [u8; 64],
}

impl SignedTreeHead {
    /// A head from its stored or published form: the root and the signature as hex; `None`
    /// when either is not hex of the right length.
    ///
    /// ```
    /// use strikeline_ledger::SignedTreeHead;
    /// let head = SignedTreeHead::from_hex(0, 1, &"00".repeat(32), &"11".repeat(64)).unwrap();
    /// assert_eq!((head.head.size, head.signature[0]), (0, 0x11));
    /// assert_eq!(SignedTreeHead::from_hex(0, 1, "00", &"11".repeat(64)), None);
    /// ```
    #[must_use]
    pub fn from_hex(size: u64, timestamp_ms: i64, root: &str, signature: &str) -> Option<SignedTreeHead> {
        Some(SignedTreeHead {
            head: TreeHead { size, timestamp_ms, root: crate::hex::decode_array(root)? },
            signature: crate::hex::decode_array(signature)?,
        })
    }
}

/// Why a signing key cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError(pub String);

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the tree head signing key is unusable: {}", self.0)
    }
}

impl std::error::Error for KeyError {}

/// The instance's signing key.
pub struct Signer {
    key: Ed25519KeyPair,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("public_key", &self.public_key()).finish_non_exhaustive()
    }
}

impl Signer {
    /// A new key from the operating system's random source, as PKCS#8 bytes to keep.
    ///
    /// # Errors
    /// When the random source fails.
    pub fn generate_pkcs8() -> Result<Vec<u8>, KeyError> {
        Ed25519KeyPair::generate_pkcs8(&SystemRandom::new())
            .map(|document| document.as_ref().to_vec())
            .map_err(|_| KeyError("no randomness to generate a key".to_owned()))
    }

    /// The key kept as PKCS#8 (what [`Signer::generate_pkcs8`] made).
    ///
    /// # Errors
    /// When the bytes are not an Ed25519 PKCS#8 key.
    pub fn from_pkcs8(pkcs8: &[u8]) -> Result<Signer, KeyError> {
        Ed25519KeyPair::from_pkcs8(pkcs8).map(|key| Signer { key }).map_err(|e| KeyError(e.to_string()))
    }

    /// The key of a 32-byte secret seed (RFC 8032's form; test vectors use it).
    ///
    /// # Errors
    /// When the seed is not 32 bytes.
    pub fn from_seed(seed: &[u8]) -> Result<Signer, KeyError> {
        Ed25519KeyPair::from_seed_unchecked(seed).map(|key| Signer { key }).map_err(|e| KeyError(e.to_string()))
    }

    /// The public key, which verifiers need.
    #[must_use]
    pub fn public_key(&self) -> [u8; 32] {
        let mut out = [0; 32];
        out.copy_from_slice(self.key.public_key().as_ref());
        out
    }

    /// Signs raw bytes (RFC 8032 Ed25519).
    #[must_use]
    pub fn sign_bytes(&self, message: &[u8]) -> [u8; 64] {
        let mut out = [0; 64];
        out.copy_from_slice(self.key.sign(message).as_ref());
        out
    }

    /// Signs a tree head.
    #[must_use]
    pub fn sign(&self, head: TreeHead) -> SignedTreeHead {
        SignedTreeHead { head, signature: self.sign_bytes(&head.signing_input()) }
    }
}

/// Whether `signed` carries a valid signature by `public_key`.
#[must_use]
pub fn verify_head(public_key: &[u8; 32], signed: &SignedTreeHead) -> bool {
    verify_bytes(public_key, &signed.head.signing_input(), &signed.signature)
}

/// Whether `signature` is `public_key`'s Ed25519 signature over `message`.
#[must_use]
pub fn verify_bytes(public_key: &[u8; 32], message: &[u8], signature: &[u8; 64]) -> bool {
    UnparsedPublicKey::new(&ED25519, public_key).verify(message, signature).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
    }

    /// RFC 8032, section 7.1, TEST 1 (the empty message) and TEST 2 (one byte).
    #[test]
    fn signatures_match_rfc_8032() {
        let cases = [
            (
                "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
                "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                "",
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
            ),
            (
                "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
                "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
                "72",
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
            ),
        ];
        for (seed, public, message, signature) in cases {
            let signer = Signer::from_seed(&unhex(seed)).expect("seed");
            assert_eq!(hex(&signer.public_key()), public);
            let signed = signer.sign_bytes(&unhex(message));
            assert_eq!(hex(&signed), signature);
            assert!(verify_bytes(&signer.public_key(), &unhex(message), &signed));
        }
    }

    #[test]
    fn a_head_verifies_only_unchanged_and_under_its_own_key() {
        let signer = Signer::from_pkcs8(&Signer::generate_pkcs8().expect("key")).expect("pkcs8");
        let head = TreeHead { size: 42, timestamp_ms: 1_795_000_000_000, root: [7; 32] };
        let signed = signer.sign(head);
        assert!(verify_head(&signer.public_key(), &signed));
        for changed in
            [TreeHead { size: 43, ..head }, TreeHead { timestamp_ms: head.timestamp_ms + 1, ..head }, TreeHead { root: [8; 32], ..head }]
        {
            assert!(!verify_head(&signer.public_key(), &SignedTreeHead { head: changed, ..signed }), "{changed:?}");
        }
        let other = Signer::from_seed(&[1; 32]).expect("seed");
        assert!(!verify_head(&other.public_key(), &signed));
        let mut forged = signed;
        forged.signature[0] ^= 1;
        assert!(!verify_head(&signer.public_key(), &forged));
    }

    #[test]
    fn the_signed_bytes_have_a_fixed_layout() {
        let input = TreeHead { size: 1, timestamp_ms: 2, root: [3; 32] }.signing_input();
        assert_eq!(&input[..CONTEXT.len()], b"strikeline/tree-head/v1\0");
        assert_eq!(&input[CONTEXT.len()..CONTEXT.len() + 16], &[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
        assert_eq!(&input[CONTEXT.len() + 16..], &[3; 32]);
    }

    #[test]
    fn bad_keys_are_errors() {
        assert!(Signer::from_pkcs8(b"not a key").is_err());
        assert!(Signer::from_seed(&[0; 31]).is_err());
    }
}
