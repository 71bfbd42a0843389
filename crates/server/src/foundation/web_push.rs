//! Web Push, the sending side: message encryption (RFC 8291, the `aes128gcm` content coding of
//! RFC 8188) and the VAPID authorisation that names this server to the push service
//! (RFC 8292). Pure computation over `ring`: the delivery (`services::pushing`) does the I/O.
//!
//! A message is encrypted to one browser's keys (its P-256 public key `p256dh` and its 16-byte
//! authentication secret `auth`) with a fresh ephemeral key and salt, in a single record:
//! `salt (16) ‖ record size (4) ‖ key id length (1) ‖ ephemeral public key (65) ‖ ciphertext`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use ring::{aead, agreement, hkdf};

/// The record size written in the header: one record holds the whole message.
pub const RECORD_SIZE: u32 = 4096;

/// The header before the ciphertext: salt, record size, key id length, key id.
const HEADER_LEN: usize = 16 + 4 + 1 + 65;

/// The largest plaintext that fits one record of a 4,096-byte body, the size every push service
/// must accept (RFC 8030 §7.2): the header, the padding delimiter and the 16-byte tag come off.
pub const MAX_PLAINTEXT: usize = 4096 - HEADER_LEN - 1 - 16;

/// How long a VAPID token is good for (RFC 8292 §2: at most 24 hours).
pub const TOKEN_LIFETIME: chrono::Duration = chrono::Duration::hours(12);

/// What went wrong: nothing here is the caller's data leaking, so the reasons are plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    #[error("the key is not a base64url P-256 public key (65 bytes, uncompressed)")]
    PublicKey,
    #[error("the authentication secret is not 16 base64url bytes")]
    AuthSecret,
    #[error("the message is longer than one push record holds")]
    TooLong,
    #[error("the cryptographic library refused")]
    Crypto,
}

/// A browser's keys, as its subscription carries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserKeys {
    /// The uncompressed P-256 point (0x04 ‖ x ‖ y).
    pub p256dh: [u8; 65],
    pub auth: [u8; 16],
}

impl BrowserKeys {
    /// Reads `keys.p256dh` and `keys.auth` of `PushSubscription.toJSON()` (base64url, padding
    /// optional), checking that the key is a point on the curve.
    pub fn parse(p256dh: &str, auth: &str) -> Result<BrowserKeys, PushError> {
        let point: [u8; 65] = decode(p256dh).and_then(|b| b.try_into().ok()).ok_or(PushError::PublicKey)?;
        let auth: [u8; 16] = decode(auth).and_then(|b| b.try_into().ok()).ok_or(PushError::AuthSecret)?;
        // ring checks the point when it agrees on a secret: do that once with a throwaway key.
        let rng = SystemRandom::new();
        let trial = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).map_err(|_| PushError::Crypto)?;
        agreement::agree_ephemeral(trial, &agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, &point), |_| ())
            .map_err(|_| PushError::PublicKey)?;
        Ok(BrowserKeys { p256dh: point, auth })
    }
}

fn decode(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

/// base64url without padding, as Web Push writes keys and tokens.
pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Encrypts `plaintext` to `keys` with a fresh ephemeral key and salt: the request body.
pub fn encrypt(keys: &BrowserKeys, plaintext: &[u8]) -> Result<Vec<u8>, PushError> {
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(PushError::TooLong);
    }
    let rng = SystemRandom::new();
    let mut salt = [0u8; 16];
    rng.fill(&mut salt).map_err(|_| PushError::Crypto)?;
    let ephemeral = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).map_err(|_| PushError::Crypto)?;
    let public = ephemeral.compute_public_key().map_err(|_| PushError::Crypto)?;
    let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, keys.p256dh);
    agreement::agree_ephemeral(ephemeral, &peer, |secret| seal(secret, &keys.auth, &keys.p256dh, public.as_ref(), &salt, plaintext))
        .map_err(|_| PushError::PublicKey)?
}

/// The body for the shared ECDH secret, after the key agreement (RFC 8291 §3.3–3.4, RFC 8188
/// §2): deterministic, so the RFC's example checks it byte for byte.
pub fn seal(
    ecdh_secret: &[u8],
    auth: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    salt: &[u8; 16],
    plaintext: &[u8],
) -> Result<Vec<u8>, PushError> {
    if plaintext.len() > MAX_PLAINTEXT || as_public.len() != 65 {
        return Err(PushError::TooLong);
    }
    // PRK_key = HKDF-Extract(auth_secret, ecdh_secret); IKM = HKDF-Expand(PRK_key, key_info, 32)
    let key_info = [b"WebPush: info\0".as_slice(), ua_public, as_public].concat();
    let ikm: [u8; 32] = expand(&hkdf::Salt::new(hkdf::HKDF_SHA256, auth).extract(ecdh_secret), &key_info)?;
    // PRK = HKDF-Extract(salt, IKM); CEK and NONCE from it.
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(&ikm);
    let cek: [u8; 16] = expand(&prk, b"Content-Encoding: aes128gcm\0")?;
    let nonce: [u8; 12] = expand(&prk, b"Content-Encoding: nonce\0")?;
    let key = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).map_err(|_| PushError::Crypto)?);
    // The last (and only) record ends with the delimiter 0x02, no padding after it.
    let mut record = Vec::with_capacity(plaintext.len() + 17);
    record.extend_from_slice(plaintext);
    record.push(2);
    key.seal_in_place_append_tag(aead::Nonce::assume_unique_for_key(nonce), aead::Aad::empty(), &mut record)
        .map_err(|_| PushError::Crypto)?;
    let mut body = Vec::with_capacity(HEADER_LEN + record.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(as_public);
    body.extend_from_slice(&record);
    Ok(body)
}

/// `N` bytes of HKDF-Expand(prk, info).
fn expand<const N: usize>(prk: &hkdf::Prk, info: &[u8]) -> Result<[u8; N], PushError> {
    struct Len(usize);
    impl hkdf::KeyType for Len {
        fn len(&self) -> usize {
            self.0
        }
    }
    let mut out = [0u8; N];
    let info = [info];
    prk.expand(&info, Len(N)).and_then(|okm| okm.fill(&mut out)).map_err(|_| PushError::Crypto)?;
    Ok(out)
}

/// The server's VAPID key (ECDSA P-256), generated at first start and stored.
pub struct Vapid {
    pair: EcdsaKeyPair,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid").field("public_key", &self.public_key()).finish_non_exhaustive()
    }
}

impl Vapid {
    /// A new key, PKCS#8.
    pub fn generate_pkcs8() -> Result<Vec<u8>, PushError> {
        let rng = SystemRandom::new();
        EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).map(|d| d.as_ref().to_vec()).map_err(|_| PushError::Crypto)
    }

    pub fn from_pkcs8(pkcs8: &[u8]) -> Result<Vapid, PushError> {
        let rng = SystemRandom::new();
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8, &rng).map(|pair| Vapid { pair }).map_err(|_| PushError::Crypto)
    }

    /// The public key browsers subscribe with (`applicationServerKey`), base64url.
    pub fn public_key(&self) -> String {
        encode(self.pair.public_key().as_ref())
    }

    /// The `Authorization` header for a request to `endpoint` (RFC 8292 §3): a JWT signed with
    /// ES256 for the endpoint's origin, good until `now` + [`TOKEN_LIFETIME`], naming `subject`
    /// (a `mailto:` or `https:` contact), and the public key.
    pub fn authorization(&self, endpoint: &url::Url, subject: &str, now: DateTime<Utc>) -> Result<String, PushError> {
        let audience = endpoint.origin().ascii_serialization();
        let header = encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": audience, "exp": (now + TOKEN_LIFETIME).timestamp(), "sub": subject });
        let signing_input = format!("{header}.{}", encode(claims.to_string().as_bytes()));
        let rng = SystemRandom::new();
        let signature = self.pair.sign(&rng, signing_input.as_bytes()).map_err(|_| PushError::Crypto)?;
        Ok(format!("vapid t={signing_input}.{}, k={}", encode(signature.as_ref()), self.public_key()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(text: &str) -> Vec<u8> {
        decode(text).expect("base64url")
    }

    /// RFC 8291 Appendix A: from the example's ECDH secret, salt and keys to the body it shows.
    #[test]
    fn a_message_seals_to_the_rfc_8291_example() {
        let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().expect("16 bytes");
        let body = seal(
            &b64("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"),
            &b64("BTBZMqHH6r4Tts7J_aSIgg"),
            &b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            &b64("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"),
            &salt,
            b"When I grow up, I want to be a watermelon",
        )
        .expect("sealed");
        assert_eq!(
            encode(&body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_\
             yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
    }

    #[test]
    fn keys_that_are_not_a_browser_s_are_refused() {
        let ua = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
        assert!(BrowserKeys::parse(ua, "BTBZMqHH6r4Tts7J_aSIgg").is_ok());
        assert!(BrowserKeys::parse(&format!("{ua}=="), "BTBZMqHH6r4Tts7J_aSIgg==").is_ok(), "padding is allowed");
        // Off the curve: the last byte of y changed.
        let off = format!("{}5", &ua[..ua.len() - 1]);
        assert_eq!(BrowserKeys::parse(&off, "BTBZMqHH6r4Tts7J_aSIgg"), Err(PushError::PublicKey));
        assert_eq!(BrowserKeys::parse("not base64!", "BTBZMqHH6r4Tts7J_aSIgg"), Err(PushError::PublicKey));
        assert_eq!(BrowserKeys::parse(ua, "c2hvcnQ"), Err(PushError::AuthSecret));
    }

    #[test]
    fn the_largest_message_fits_a_4096_byte_body_and_a_larger_one_is_refused() {
        let keys = BrowserKeys::parse(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            "BTBZMqHH6r4Tts7J_aSIgg",
        )
        .expect("keys");
        assert_eq!(encrypt(&keys, &vec![b'x'; MAX_PLAINTEXT]).expect("fits").len(), 4096);
        assert_eq!(encrypt(&keys, &vec![b'x'; MAX_PLAINTEXT + 1]), Err(PushError::TooLong));
    }

    #[test]
    fn a_vapid_token_is_an_es256_jwt_for_the_endpoint_s_origin() {
        let vapid = Vapid::from_pkcs8(&Vapid::generate_pkcs8().expect("key")).expect("parsed");
        let now = DateTime::parse_from_rfc3339("2026-11-28T15:00:00Z").expect("time").with_timezone(&Utc);
        let endpoint = url::Url::parse("https://push.example.net:8443/send/abc?x=1").expect("url");
        let header = vapid.authorization(&endpoint, "mailto:ops@example.com", now).expect("signed");
        let (token, key) = header.strip_prefix("vapid t=").and_then(|rest| rest.split_once(", k=")).expect("t and k");
        assert_eq!(key, vapid.public_key());
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value = serde_json::from_slice(&b64(parts[1])).expect("claims");
        assert_eq!(claims["aud"], "https://push.example.net:8443");
        assert_eq!(claims["exp"], (now + TOKEN_LIFETIME).timestamp());
        assert_eq!(claims["sub"], "mailto:ops@example.com");
        let public = ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_FIXED, b64(key));
        public.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &b64(parts[2])).expect("the signature verifies with k");
    }
}
