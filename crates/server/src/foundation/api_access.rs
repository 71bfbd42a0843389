//! The public API's keys: how a key is made and stored (only its SHA-256), and the
//! [`ApiCaller`] extractor every `/api/v1` handler takes: the bearer key is checked (unknown,
//! inactive or expired: 401), its permission against the method (read for GET, write for
//! creating; admin for all: 403), the plan against writing (Free keys read only: 403 naming
//! the plan), and the plan's hourly quota through the shared limiter (429). Each handler then
//! counts its own per-minute policy with [`ApiCaller::endpoint`].

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Method, header};
use axum::response::{IntoResponseParts, ResponseParts};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use strikeline_store::api_keys::{self, ApiKeyRecord};
use strikeline_store::users::UserRecord;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Result};
use crate::foundation::limits::{self, Policy, RateLimit};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{KeyPermission, stored};

/// Every key starts with this, so a leaked one is easy to recognise (and to scan for).
pub const KEY_PREFIX: &str = "slk_";
/// How much of a key is kept to show again: the prefix and the first 8 random characters.
pub const SHOWN_PREFIX_LEN: usize = KEY_PREFIX.len() + 8;
/// `lastUsed` is written at most this often per key.
const TOUCH_EVERY: Duration = Duration::seconds(60);

/// What a key with `held` permission may do: admin everything, write reading and creating,
/// read only reading.
pub fn permits(held: KeyPermission, needed: KeyPermission) -> bool {
    match held {
        KeyPermission::Admin => true,
        KeyPermission::Write => needed != KeyPermission::Admin,
        KeyPermission::Read => needed == KeyPermission::Read,
    }
}

/// A new key: the whole key (shown once), the part kept to show again, and the stored hash.
pub struct NewKey {
    pub key: String,
    pub prefix: String,
    pub hash: String,
}

/// Makes a key from 256 random bits.
pub fn new_key() -> NewKey {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let key = format!("{KEY_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes));
    NewKey { prefix: key[..SHOWN_PREFIX_LEN].to_owned(), hash: hash(&key), key }
}

/// The stored form of a key: hex SHA-256. A key carries 256 random bits, so a fast hash is
/// enough; a copy of the database gives no usable key.
pub fn hash(key: &str) -> String {
    Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `key` has expired at `now`.
pub fn expired(key: &ApiKeyRecord, now: DateTime<Utc>) -> bool {
    key.expires_at.is_some_and(|end| end <= now)
}

/// The owner of a valid key, with what the key and plan allow.
#[derive(Clone, Debug)]
pub struct ApiCaller {
    pub user: UserRecord,
    pub key: ApiKeyRecord,
    pub entitlements: Entitlements,
    /// The plan's hourly quota after this request was counted.
    pub hourly: RateLimit,
}

/// The rate-limit state a `/api/v1` answer reports: the plan's hour and the endpoint's minute.
#[derive(Clone, Copy, Debug)]
pub struct ApiLimits {
    pub hourly: RateLimit,
    pub minute: RateLimit,
}

impl IntoResponseParts for ApiLimits {
    type Error = std::convert::Infallible;

    fn into_response_parts(self, mut res: ResponseParts) -> std::result::Result<ResponseParts, Self::Error> {
        limits::append_headers(res.headers_mut(), &self.hourly);
        limits::append_headers(res.headers_mut(), &self.minute);
        Ok(res)
    }
}

impl ApiCaller {
    /// Counts this request against the endpoint's per-minute `policy` (per user).
    pub async fn endpoint(&self, state: &AppState, policy: Policy, now: DateTime<Utc>) -> Result<ApiLimits> {
        let minute = limits::hit(state, policy, &self.user.id, now).await?;
        Ok(ApiLimits { hourly: self.hourly, minute })
    }
}

fn unauthorized(detail: &str) -> AppError {
    AppError::BadApiKey(detail.to_owned())
}

/// The bearer token of a request, if it has one.
fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

impl<S> FromRequestParts<S> for ApiCaller
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let token = bearer(parts).ok_or_else(|| unauthorized("Send your API key as `Authorization: Bearer <key>`."))?;
        if !token.starts_with(KEY_PREFIX) || token.len() > 100 {
            return Err(unauthorized("This API key is not valid."));
        }
        let now = state.clock.now();
        let (key, user) =
            api_keys::find_by_hash(&state.db, &hash(token)).await?.ok_or_else(|| unauthorized("This API key is not valid."))?;
        if !key.is_active {
            return Err(unauthorized("This API key is inactive. Switch it on under Settings › API Keys."));
        }
        if expired(&key, now) {
            return Err(unauthorized("This API key has expired. Create a new one under Settings › API Keys."));
        }
        let permission: KeyPermission = stored(&key.permissions, format_args!("api key {}", key.id))?;
        let writing = !matches!(parts.method, Method::GET | Method::HEAD);
        let needed = if writing { KeyPermission::Write } else { KeyPermission::Read };
        if !permits(permission, needed) {
            return Err(AppError::Forbidden("This API key can only read. Creating needs a key with write or admin permission.".into()));
        }
        let entitlements = Entitlements::of(&user, now);
        if writing {
            entitlements.require(Capability::ApiWrite)?;
        }
        let hourly = limits::hit(&state, limits::api_hourly(entitlements.plan, entitlements.api_requests_per_hour), &user.id, now).await?;
        if key.last_used_at.is_none_or(|at| now - at >= TOUCH_EVERY) {
            api_keys::touch(&state.db, &key.id, now).await?;
        }
        Ok(ApiCaller { user, key, entitlements, hourly })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_prefixed_and_stored_only_as_their_hash() {
        let a = new_key();
        let b = new_key();
        assert_ne!(a.key, b.key);
        assert!(a.key.starts_with(KEY_PREFIX) && a.key.len() == KEY_PREFIX.len() + 43);
        assert!(a.key.starts_with(&a.prefix) && a.prefix.len() == SHOWN_PREFIX_LEN);
        assert_eq!(a.hash, hash(&a.key));
        assert_eq!(a.hash.len(), 64);
        assert!(!a.hash.contains(&a.key[KEY_PREFIX.len()..]));
    }

    #[test]
    fn permissions_nest() {
        use KeyPermission::{Admin, Read, Write};
        assert!(permits(Admin, Write) && permits(Admin, Admin));
        assert!(permits(Write, Read) && permits(Write, Write) && !permits(Write, Admin));
        assert!(permits(Read, Read) && !permits(Read, Write));
    }
}
