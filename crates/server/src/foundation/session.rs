//! Cookie sessions stored server-side (`sessions` table), so any instance can serve any user.
//!
//! The cookie holds a random 256-bit token; the table holds its SHA-256 as `sid`. A session
//! ends at the earlier of its idle deadline (pushed forward by activity) and its absolute one.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::{COOKIE, HeaderValue};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use strikeline_store::sessions::{self, SessionData};
use strikeline_store::users::UserRecord;

use crate::foundation::error::AppError;
use crate::foundation::state::AppState;

/// The session cookie's name over plain http (local use).
pub const COOKIE_NAME: &str = "strikeline_session";
/// The session cookie's name over https: the `__Host-` prefix makes browsers insist on
/// `Secure`, `Path=/` and no `Domain`, so a sibling subdomain cannot plant or read it.
pub const SECURE_COOKIE_NAME: &str = "__Host-strikeline_session";

/// Activity is written back at most this often, to keep reads cheap.
const TOUCH_EVERY: Duration = Duration::seconds(60);

/// A fresh random token (256 bits, URL-safe base64): cookies, unsubscribe links.
pub(crate) fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The `sid` stored for a cookie token.
pub fn sid_for(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// What [`public_id`] gives, for the API document: 24 lowercase hex digits (a session id that
/// does not match names no session). Stated as a literal in the path's annotation; a test holds
/// it to this one.
pub const PUBLIC_ID_PATTERN: &str = "^[0-9a-f]{24}$";

/// The id a session is listed and revoked by: derived from `sid`, so it names the session
/// without being what is stored (nor, of course, the cookie).
pub fn public_id(sid: &str) -> String {
    let digest = Sha256::digest(format!("session-id:{sid}").as_bytes());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// Whether a request carries a session cookie of either name (the CSRF check asks only that;
/// never use its value to authenticate: [`token`] is what chooses the cookie to believe).
pub fn token_from(headers: &HeaderMap) -> Option<&str> {
    cookie_value(headers, COOKIE_NAME).or_else(|| cookie_value(headers, SECURE_COOKIE_NAME))
}

/// The session token of a request: over https only the `__Host-` cookie counts, over plain
/// http only the plain one. A plain `strikeline_session` cookie can be planted by a sibling
/// subdomain or a plain-http page ("cookie tossing"); believing it over https would sign the
/// victim in to the planter's account, so it is ignored there, whatever else the request holds.
pub fn token<'h>(state: &AppState, headers: &'h HeaderMap) -> Option<&'h str> {
    cookie_value(headers, cookie_name(state, headers))
}

/// The session cookie's name for a request: [`SECURE_COOKIE_NAME`] over https.
pub fn cookie_name(state: &AppState, headers: &HeaderMap) -> &'static str {
    if is_https(state, headers) { SECURE_COOKIE_NAME } else { COOKIE_NAME }
}

/// The first non-empty value of the cookie called exactly `name`.
fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, value)| *n == name && !value.is_empty())
        .map(|(_, value)| value)
}

fn deadline(state: &AppState, created_at: DateTime<Utc>, now: DateTime<Utc>) -> DateTime<Utc> {
    let idle = now + Duration::minutes(state.config.session.idle_minutes);
    let absolute = created_at + Duration::hours(state.config.session.absolute_hours);
    idle.min(absolute)
}

/// Whether the app is served over https: the configured public URL says so, or the nearest of
/// the configured proxies does.
pub fn is_https(state: &AppState, headers: &HeaderMap) -> bool {
    let public_https = state.config.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    let forwarded_https = state.config.proxy_hops > 0
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    public_https || forwarded_https
}

/// Starts a session for `user_id` and returns the `Set-Cookie` header that carries it.
pub async fn start(state: &AppState, headers: &HeaderMap, user_id: &str, ip: &str, now: DateTime<Utc>) -> Result<HeaderValue, AppError> {
    let token = new_token();
    let data = SessionData {
        user_id: user_id.to_owned(),
        created_at: now,
        last_seen_at: now,
        user_agent: headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(|s| s.chars().take(256).collect()),
        ip: Some(ip.to_owned()),
    };
    sessions::insert(&state.db, &sid_for(&token), &data, deadline(state, now, now)).await?;
    let max_age = state.config.session.absolute_hours * 3600;
    cookie(state, headers, &token, max_age)
}

/// The `Set-Cookie` header that removes the session cookie.
pub fn clearing_cookie(state: &AppState, headers: &HeaderMap) -> Result<HeaderValue, AppError> {
    cookie(state, headers, "", 0)
}

fn cookie(state: &AppState, headers: &HeaderMap, value: &str, max_age: i64) -> Result<HeaderValue, AppError> {
    let name = cookie_name(state, headers);
    let secure = if name == SECURE_COOKIE_NAME { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{name}={value}; Max-Age={max_age}; Path=/; HttpOnly; SameSite=Lax{secure}"))
        .map_err(|e| AppError::Internal(e.into()))
}

/// Ends the session a request carries, if any, and closes its event streams; the user whose
/// session it was.
pub async fn end(state: &AppState, headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let Some(token) = token(state, headers) else { return Ok(None) };
    let sid = sid_for(token);
    let user = sessions::delete(&state.db, &sid).await?;
    let _ = state.capacity.ended_sessions.send(sid);
    Ok(user)
}

/// The signed-in user of a request; rejects with 401 when there is none.
#[derive(Clone, Debug)]
pub struct CurrentUser(pub UserRecord);

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let not_signed_in = || AppError::Unauthorized("You are not signed in.".into());
        let token = token(&state, &parts.headers).ok_or_else(not_signed_in)?;
        let now = state.clock.now();
        let sid = sid_for(token);
        let (user, session) = sessions::find_live_user(&state.db, &sid, now).await?.ok_or_else(not_signed_in)?;
        if now - session.last_seen_at >= TOUCH_EVERY {
            let data = SessionData { last_seen_at: now, ..session };
            sessions::touch(&state.db, &sid, &data, deadline(&state, data.created_at, now)).await?;
        }
        Ok(CurrentUser(user))
    }
}

/// Whether `user` is an administrator: their address is named in the configuration and
/// confirmed (registering an administrator's address before the operator does gives nothing
/// until its mailbox confirms it).
pub fn is_administrator(config: &crate::foundation::config::Config, user: &UserRecord) -> bool {
    config.is_admin(&user.email) && user.email_verified_at.is_some()
}

/// The signed-in user when they are an administrator (listed in `admin_emails`, address
/// confirmed); 403 otherwise.
#[derive(Clone, Debug)]
pub struct AdminUser(pub UserRecord);

impl<S> FromRequestParts<S> for AdminUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        if is_administrator(&AppState::from_ref(state).config, &user) {
            Ok(AdminUser(user))
        } else {
            Err(AppError::Forbidden("This needs an administrator account.".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_found_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_static("theme=dark; strikeline_session=abc; x=1"));
        assert_eq!(token_from(&headers), Some("abc"));
        headers.insert(COOKIE, HeaderValue::from_static("strikeline_session="));
        assert_eq!(token_from(&headers), None);
    }

    #[test]
    fn a_cookie_is_found_only_under_its_exact_name() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_static("strikeline_session=tossed; __Host-strikeline_session=mine"));
        assert_eq!(cookie_value(&headers, SECURE_COOKIE_NAME), Some("mine"));
        assert_eq!(cookie_value(&headers, COOKIE_NAME), Some("tossed"));
        headers.insert(COOKIE, HeaderValue::from_static("x-strikeline_session=a; strikeline_session_2=b"));
        assert_eq!(cookie_value(&headers, COOKIE_NAME), None);
    }

    #[test]
    fn public_ids_match_their_documented_pattern() {
        let pattern = regex::Regex::new(PUBLIC_ID_PATTERN).expect("the pattern compiles");
        for sid in [sid_for("abc"), sid_for(&new_token()), String::new()] {
            assert!(pattern.is_match(&public_id(&sid)), "{}", public_id(&sid));
        }
    }

    #[test]
    fn sids_are_sha256_of_the_token_and_tokens_are_random() {
        assert_eq!(sid_for("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_ne!(new_token(), new_token());
        assert_eq!(new_token().len(), 43);
    }
}
