//! Password hashing with argon2id at OWASP's recommended parameters
//! (m = 19 MiB, t = 2, p = 1), stored as PHC strings so parameters can be raised later.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;

use crate::foundation::capacity::Capacity;
use crate::foundation::error::AppError;

fn hasher() -> Argon2<'static> {
    #[expect(clippy::unwrap_used, reason = "constant, known-valid parameters")]
    let params = Params::new(19 * 1024, 2, 1, None).unwrap();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password into a PHC string. Blocking: call from `spawn_blocking`.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let hash = hasher().hash_password(password.as_bytes(), &salt).map_err(|e| anyhow::anyhow!("hash: {e}"))?;
    Ok(hash.to_string())
}

/// Checks a password against a stored PHC string. Blocking.
pub fn verify(password: &str, stored: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(parsed) => hasher().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

/// Spends the same time as a real check, for sign-ins to accounts that do not exist, so
/// response time does not reveal which emails are registered.
pub fn verify_against_nothing(password: &str) {
    let _ = verify(password, dummy_hash());
}

/// The stand-in hash for unknown accounts, made once (at start-up: see [`prepare`]) so that
/// even the first unknown sign-in costs what a real check costs.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash("not a real password").unwrap_or_default())
}

/// Makes the dummy hash now rather than on the first sign-in to an unknown account.
pub fn prepare() {
    let _ = dummy_hash();
}

/// [`hash`] off the async runtime, within the server's hashing capacity.
pub async fn hash_async(capacity: &Capacity, password: String) -> Result<String, AppError> {
    capacity.hash(move || hash(&password)).await?.map_err(AppError::Internal)
}

/// [`verify`] (or, with no stored hash, [`verify_against_nothing`]) off the async runtime,
/// within the server's hashing capacity. Both paths cost the same, so the answer's timing does
/// not tell whether the account exists.
pub async fn verify_async(capacity: &Capacity, password: String, stored: Option<String>) -> Result<bool, AppError> {
    capacity
        .hash(move || match stored {
            Some(stored) => verify(&password, &stored),
            None => {
                verify_against_nothing(&password);
                false
            }
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_with_owasp_parameters_and_verify() {
        let stored = hash("correct horse").expect("hash");
        assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{stored}");
        assert!(verify("correct horse", &stored));
        assert!(!verify("wrong horse", &stored));
        assert_ne!(stored, hash("correct horse").expect("hash"), "salts differ");
    }

    #[test]
    fn a_corrupt_stored_hash_never_verifies() {
        assert!(!verify("x", "not-a-phc-string"));
    }
}
