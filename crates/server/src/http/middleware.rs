use std::any::Any;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use crate::foundation::config::origin_of;
use crate::foundation::error::{AppError, InternalCause, Problem};
use crate::foundation::session;
use crate::foundation::state::AppState;

use super::BODY_LIMIT;

/// Logs the cause of every 500 (kept out of the response body by [`AppError`]).
pub async fn log_server_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    if response.status().is_server_error() {
        let cause = response.extensions().get::<InternalCause>().map(|c| c.0.as_str().to_owned());
        tracing::error!(%method, %path, status = %response.status(), cause = cause.as_deref().unwrap_or("-"), "request failed");
    }
    response
}

/// Gives error responses made outside our handlers (405, 413 from the body limit, 408 from the
/// timeout, …) the same problem+json body as every other error.
pub async fn problem_for_bare_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    // A problem already, or a page a handler made for a person (the unsubscribe link).
    let shaped = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/problem+json") || v.as_bytes().starts_with(b"text/html"));
    if !(status.is_client_error() || status.is_server_error()) || shaped {
        return response;
    }
    let (parts, _) = response.into_parts();
    let mut problem = Problem::for_status(status);
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return AppError::PayloadTooLarge.into_response();
    }
    if status == StatusCode::METHOD_NOT_ALLOWED {
        problem.detail = Some("This method is not allowed on this path.".into());
    }
    let mut fresh = problem.into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            fresh.headers_mut().insert(name, value.clone());
        }
    }
    fresh
}

/// API answers are personal and live: no cache (browser or shared) may keep them.
pub async fn no_store_api(request: Request, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    if is_api && !response.headers().contains_key(header::CACHE_CONTROL) {
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// A panic answers a plain 500 problem; the panic message goes to the log only.
pub fn panic_to_problem(panic: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let message =
        panic.downcast_ref::<String>().map(String::as_str).or_else(|| panic.downcast_ref::<&str>().copied()).unwrap_or("unknown panic");
    AppError::Internal(anyhow::anyhow!("handler panicked: {message}")).into_response()
}

/// CSRF defence: a state-changing request must come from our own origin when it carries the
/// session cookie, and may never come from a foreign one. Checked with `Origin`, else `Referer`.
pub async fn same_origin_writes(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let headers = request.headers();
    let claimed = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| headers.get(header::REFERER).and_then(|v| v.to_str().ok()).map(|r| origin_of(r).to_owned()));
    let has_session = session::token_from(headers).is_some();
    let allowed = match &claimed {
        Some(origin) => is_own_origin(&state, headers, origin),
        None => !has_session,
    };
    if allowed {
        next.run(request).await
    } else {
        AppError::Forbidden("Cross-site request refused: it must come from this site.".into()).into_response()
    }
}

fn is_own_origin(state: &AppState, headers: &axum::http::HeaderMap, origin: &str) -> bool {
    if let Some(public) = state.config.public_origin() {
        return origin.eq_ignore_ascii_case(&public);
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    matches!((host, authority), (Some(host), Some(authority)) if host.eq_ignore_ascii_case(authority))
}

/// Most bytes read and thrown away from an oversized body so that the 413 reaches the client.
const DRAIN_CAP: usize = 8 * BODY_LIMIT;
/// Longest time spent throwing an oversized body away.
const DRAIN_DEADLINE: Duration = Duration::from_secs(5);

/// Enforces [`BODY_LIMIT`] for declared and chunked bodies alike.
///
/// An oversized body is read to its end (up to [`DRAIN_CAP`] bytes and [`DRAIN_DEADLINE`]) before
/// the 413 is sent: closing a socket with unread bytes makes the kernel reset the connection, and
/// the client would then see a broken connection instead of the answer.
pub async fn limit_body(request: Request, next: Next) -> Response {
    let declared = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    match declared {
        // hyper holds the body to its declared length.
        Some(length) if length <= BODY_LIMIT as u64 => return next.run(request).await,
        Some(length) if length > DRAIN_CAP as u64 => return too_large(),
        _ => {}
    }
    let (parts, mut body) = request.into_parts();
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let read = tokio::time::timeout(DRAIN_DEADLINE, async {
        while let Some(frame) = body.frame().await {
            let Ok(data) = frame?.into_data() else { continue };
            seen += data.len();
            if seen > DRAIN_CAP {
                break;
            }
            if seen <= BODY_LIMIT {
                kept.extend_from_slice(&data);
            }
        }
        Ok::<(), axum::Error>(())
    })
    .await;
    if seen > BODY_LIMIT {
        return too_large();
    }
    match read {
        Ok(Ok(())) => next.run(Request::from_parts(parts, Body::from(kept))).await,
        Ok(Err(_)) => AppError::MalformedBody("The request body could not be read.".into()).into_response(),
        Err(_) => Problem::for_status(StatusCode::REQUEST_TIMEOUT).into_response(),
    }
}

fn too_large() -> Response {
    let mut response = AppError::PayloadTooLarge.into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The database circuit breaker around the API: while it is open, a request is answered 503
/// with `Retry-After` at once; a response that found the database unreachable opens it.
/// `/healthz` and `/readyz` are never refused here.
pub async fn database_breaker(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with("/api/") {
        return next.run(request).await;
    }
    if state.capacity.database.is_open() {
        return crate::foundation::error::AppError::DatabaseUnreachable.into_response();
    }
    let response = next.run(request).await;
    if response.extensions().get::<crate::foundation::breaker::DatabaseUnreachable>().is_some() {
        state.capacity.database.trip(&state.db);
    }
    response
}
