//! `Idempotency-Key` on every POST of the app and public APIs. A client that lost the answer
//! to a write (a dropped connection, a killed server) sends it again with the same key and gets
//! the first answer back, with `Idempotent-Replayed: true`, instead of a second write.
//!
//! - A key is 1–255 visible ASCII characters, scoped to whoever sent it: the session, the
//!   API key, or anonymous callers together (whose requests must then match byte for byte).
//! - The same key with another method, path, query or body is refused: 422 naming
//!   `Idempotency-Key`.
//! - While the first request is being answered, a retry is 409 with `Retry-After: 1`. If the
//!   server stopped while answering it (the key is older than the request time limit and still
//!   unanswered), its outcome is unknown: 409 says so, and nothing is done twice.
//! - Answers are kept 24 hours, except those worth trying again: 408, 429 and 5xx (the write
//!   did not happen; the key is released) and answers that set a cookie (a session is never
//!   handed out twice).

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Duration;
use sha2::{Digest, Sha256};
use strikeline_store::idempotency::{self as store, Answer, Claimed};

use crate::foundation::error::{AppError, FieldError};
use crate::foundation::state::AppState;

/// The request header.
pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
/// Set on a replayed answer.
pub const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");
/// Longest key.
const MAX_KEY: usize = 255;
/// Largest answer kept (a larger one is not replayed).
const MAX_ANSWER: usize = 1024 * 1024;

/// Who sent a request, as a hash: the session cookie or the bearer key, or anonymous.
fn scope(headers: &HeaderMap) -> String {
    let caller = match (headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()), crate::foundation::session::token_from(headers)) {
        (Some(bearer), _) => format!("key:{bearer}"),
        (None, Some(session)) => format!("session:{session}"),
        (None, None) => "anonymous".to_owned(),
    };
    crate::foundation::session::sid_for(&caller)
}

fn request_hash(method: &Method, uri: &axum::http::Uri, body: &[u8]) -> String {
    let mut digest = Sha256::new();
    digest.update(method.as_str().as_bytes());
    digest.update(b" ");
    digest.update(uri.path_and_query().map_or(uri.path(), |p| p.as_str()).as_bytes());
    digest.update(b"\n");
    digest.update(body);
    format!("{:x}", digest.finalize())
}

fn key_problem(message: &str) -> Response {
    AppError::Validation(vec![FieldError::new("Idempotency-Key", message)]).into_response()
}

fn in_progress(message: &str, retry: bool) -> Response {
    let mut response = AppError::Conflict(FieldError::new("Idempotency-Key", message)).into_response();
    if retry {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    response
}

fn replay(answer: Answer) -> Response {
    let status = u16::try_from(answer.status).ok().and_then(|s| StatusCode::from_u16(s).ok()).unwrap_or(StatusCode::OK);
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    for (name, value) in [(header::CONTENT_TYPE, answer.content_type), (header::LOCATION, answer.location)] {
        if let Some(value) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
            headers.insert(name, value);
        }
    }
    headers.insert(REPLAYED, HeaderValue::from_static("true"));
    response
}

/// Frees a claimed key if the request is dropped before it is answered (the request timed
/// out, or the client went away and the server stops the work).
struct Release {
    state: Option<AppState>,
    scope: String,
    key: String,
}

impl Drop for Release {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            let (scope, key) = (std::mem::take(&mut self.scope), std::mem::take(&mut self.key));
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    if let Err(error) = store::release(&state.db, &scope, &key).await {
                        tracing::warn!(%error, "an abandoned idempotency key could not be released");
                    }
                });
            }
        }
    }
}

/// The middleware: POSTs under `/api/` with an `Idempotency-Key` header.
pub async fn idempotent_posts(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !request.uri().path().starts_with("/api/") {
        return next.run(request).await;
    }
    let Some(raw) = request.headers().get(&IDEMPOTENCY_KEY) else { return next.run(request).await };
    let key = match raw.to_str() {
        Ok(k) if !k.is_empty() && k.len() <= MAX_KEY && k.bytes().all(|b| b.is_ascii_graphic()) => k.to_owned(),
        _ => return key_problem("An Idempotency-Key is 1 to 255 visible ASCII characters (a UUID, say)."),
    };
    let (parts, body) = request.into_parts();
    // The body limit layer outside has already bounded the body.
    let bytes: Bytes = match axum::body::to_bytes(body, crate::http::BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(_) => return AppError::PayloadTooLarge.into_response(),
    };
    let scope = scope(&parts.headers);
    let hash = request_hash(&parts.method, &parts.uri, &bytes);
    let now = state.clock.now();
    match store::claim(&state.db, &scope, &key, &hash, now).await {
        Ok(Claimed::New) => {}
        Ok(Claimed::Answered(answer)) => return replay(answer),
        Ok(Claimed::OtherRequest) => {
            return key_problem("This Idempotency-Key was sent with a different request; use a new key for a new request.");
        }
        Ok(Claimed::InProgress { since }) => {
            let limit = Duration::seconds(i64::try_from(state.config.capacity.request_seconds).unwrap_or(60) + 5);
            return if now - since > limit {
                in_progress(
                    "The server stopped while answering the first request with this Idempotency-Key, so its outcome is unknown: \
                     check whether it took effect before sending it again with a new key.",
                    false,
                )
            } else {
                in_progress("The first request with this Idempotency-Key is still being answered; try again in a moment.", true)
            };
        }
        Err(error) => return AppError::from(error).into_response(),
    }
    let mut guard = Release { state: Some(state.clone()), scope, key };
    let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    let status = response.status();
    let replayable = !(status.is_server_error()
        || status == StatusCode::REQUEST_TIMEOUT
        || status == StatusCode::TOO_MANY_REQUESTS
        || response.headers().contains_key(header::SET_COOKIE));
    if !replayable {
        // Released by the guard, as soon as this returns.
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ANSWER).await else {
        return AppError::Internal(anyhow::anyhow!("an answer could not be read for the idempotency store")).into_response();
    };
    let text = |name: HeaderName| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    if let Ok(body) = std::str::from_utf8(&bytes) {
        let answer = Answer {
            status: i64::from(status.as_u16()),
            content_type: text(header::CONTENT_TYPE),
            location: text(header::LOCATION),
            body: body.to_owned(),
        };
        match store::answer(&state.db, &guard.scope, &guard.key, &answer).await {
            // Answered: the key stays claimed.
            Ok(()) => guard.state = None,
            Err(error) => tracing::warn!(%error, "an idempotent answer could not be stored; a retry is answered afresh"),
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}
