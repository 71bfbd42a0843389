//! Observability: a request id on every request (in the logs, the `X-Request-Id` answer
//! header and every problem+json body), request counts and latencies by route for
//! `/metrics`, and `/metrics` itself (administrators, or the configured token).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::foundation::error::{REQUEST_ID as REQUEST_ID_SCOPE, Result};
use crate::foundation::metrics::Gauges;
use crate::foundation::state::AppState;

/// The request id header, read from a trusted proxy when well formed and answered always.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// An id a proxy may have given: 1–64 characters of `[A-Za-z0-9._-]`.
fn acceptable(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The request's id, from the request headers (set by [`request_id`]).
pub fn id_of(headers: &HeaderMap) -> &str {
    headers.get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Outermost layer: gives the request an id (or keeps a well-formed one from the proxy), so the
/// trace span and every log line in it carry it; answers it in `X-Request-Id` and, in a
/// problem+json answer, as `requestId` ([`REQUEST_ID_SCOPE`]), so a user's report leads to the
/// log lines.
pub async fn request_id(mut request: Request, next: Next) -> Response {
    let id = match request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()) {
        Some(given) if acceptable(given) => given.to_owned(),
        _ => uuid::Uuid::new_v4().simple().to_string(),
    };
    let value = HeaderValue::from_str(&id).unwrap_or(HeaderValue::from_static("unknown"));
    request.headers_mut().insert(REQUEST_ID, value.clone());
    let mut response = REQUEST_ID_SCOPE.scope(id, next.run(request)).await;
    response.headers_mut().insert(REQUEST_ID, value);
    response
}

/// Counts each request under its route's pattern (never its raw path, so the labels stay
/// bounded): `/api/signals/{id}`; an unknown API path counts as `/api/{*rest}`, the web app's
/// files as `static`.
pub async fn record(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let route = match request.extensions().get::<MatchedPath>() {
        Some(path) => path.as_str().to_owned(),
        None => "static".to_owned(),
    };
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    state.metrics.request(&route, &method, response.status().as_u16(), started.elapsed().as_secs_f64());
    response
}

/// Whether `headers` carry the configured metrics token as a bearer token (compared in time
/// independent of where they differ).
fn has_token(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(expected) = state.config.metrics_token.as_ref().map(|t| t.expose().as_bytes().to_vec()) else { return false };
    let Some(given) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().as_bytes().to_vec())
    else {
        return false;
    };
    given.len() == expected.len() && given.iter().zip(&expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// `GET /metrics`: the Prometheus text format, for an administrator's session or the
/// configured token (`metrics_token`); 401 otherwise (403 for a signed-in non-administrator).
pub async fn metrics(State(state): State<AppState>, request: Request) -> Result<Response> {
    let (mut parts, _) = request.into_parts();
    if !has_token(&state, &parts.headers) {
        <crate::foundation::session::AdminUser as axum::extract::FromRequestParts<AppState>>::from_request_parts(&mut parts, &state)
            .await?;
    }
    let (pool_connections, pool_idle, pool_max) = state.db.pool_stats();
    let now = state.clock.now();
    let outbox = strikeline_store::outbox::backlog(&state.db)
        .await?
        .into_iter()
        .map(|(channel, n, oldest)| (channel, n, oldest.map_or(0.0, |t| (now - t).num_milliseconds().max(0) as f64 / 1000.0)))
        .collect();
    let gauges = Gauges { pool_connections, pool_idle, pool_max, outbox, event_streams: state.capacity.open_streams() };
    let body = state.metrics.render(&gauges);
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body).into_response())
}
