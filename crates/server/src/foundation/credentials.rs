//! Sealing a broker's secret key for storage (docs/execution.md): AES-256-GCM under the
//! operator's `brokers.credentials_key`, with a fresh random nonce each time and the trading
//! account's id as associated data, so a sealed secret copied to another account's row does
//! not open. The key never sits in the database; without it nothing is sealed or opened.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};

/// The operator's key, checked: 32 bytes in base64.
pub struct SealingKey(LessSafeKey);

impl SealingKey {
    /// The key from its configured base64 text; `None` when it is not 32 bytes of base64.
    pub fn from_base64(text: &str) -> Option<SealingKey> {
        let bytes = STANDARD.decode(text.trim()).ok()?;
        let key = UnboundKey::new(&AES_256_GCM, &bytes).ok()?;
        Some(SealingKey(LessSafeKey::new(key)))
    }

    /// The configured key, if any and well formed.
    pub fn configured(config: &crate::foundation::config::Config) -> Option<SealingKey> {
        config.brokers.credentials_key.as_ref().and_then(|k| SealingKey::from_base64(k.expose()))
    }

    /// `secret` sealed for `account_id`: base64 of the nonce followed by the ciphertext and tag.
    pub fn seal(&self, account_id: &str, secret: &str) -> Option<String> {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).ok()?;
        let mut sealed = secret.as_bytes().to_vec();
        self.0.seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(account_id.as_bytes()), &mut sealed).ok()?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Some(STANDARD.encode(out))
    }

    /// The secret sealed for `account_id`; `None` when it was sealed under another key or for
    /// another account, or was altered.
    pub fn open(&self, account_id: &str, sealed: &str) -> Option<String> {
        let bytes = STANDARD.decode(sealed).ok()?;
        if bytes.len() < NONCE_LEN {
            return None;
        }
        let (nonce, body) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).ok()?;
        let mut body = body.to_vec();
        let plain = self.0.open_in_place(nonce, Aad::from(account_id.as_bytes()), &mut body).ok()?;
        String::from_utf8(plain.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

    #[test]
    fn a_sealed_secret_opens_for_its_account_only() {
        let key = SealingKey::from_base64(KEY).expect("key");
        let sealed = key.seal("acct-1", "alpaca-secret").expect("seal");
        assert!(!sealed.contains("alpaca-secret"));
        assert_ne!(key.seal("acct-1", "alpaca-secret").expect("seal"), sealed, "a fresh nonce each time");
        assert_eq!(key.open("acct-1", &sealed).as_deref(), Some("alpaca-secret"));
        assert_eq!(key.open("acct-2", &sealed), None, "bound to its account");
        let other = SealingKey::from_base64("HxwdHh8AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRo=").expect("key");
        assert_eq!(other.open("acct-1", &sealed), None, "another key");
        let mut bytes = STANDARD.decode(&sealed).expect("base64");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert_eq!(key.open("acct-1", &STANDARD.encode(bytes)), None, "altered");
        assert!(SealingKey::from_base64("c2hvcnQ=").is_none(), "not 32 bytes");
    }
}
