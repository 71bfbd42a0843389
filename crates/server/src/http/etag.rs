//! Conditional reads of the polled endpoints: every successful JSON answer to a `GET` under
//! `/api/` carries a weak `ETag` of its body, and a request whose `If-None-Match` names it gets
//! `304 Not Modified` with no body. A dashboard that polls an unchanged list then moves a few
//! hundred bytes instead of the list.
//!
//! Such answers say `Cache-Control: private, no-cache`: only the user's own browser may keep
//! them, and it must ask again before each use (which is what lets it send `If-None-Match`).
//! Sign-in and account answers (`/api/auth/`) stay `no-store`.
//!
//! The tag is weak (`W/`) because compression, applied after this layer, changes the bytes
//! sent but not the representation the tag stands for.

use std::hash::{Hash, Hasher};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

/// Largest body this layer reads to tag; larger answers pass untagged.
const MAX_TAGGED: usize = 8 * 1024 * 1024;

/// The weak tag of a body.
pub fn tag_of(body: &[u8]) -> String {
    // SipHash with fixed keys: stable within a build, cheap; a tag only has to tell versions
    // of one user's answer apart, not resist forgery (a forged tag only earns a 304 of what
    // the sender already holds).
    let mut hasher = std::hash::DefaultHasher::new();
    body.hash(&mut hasher);
    format!("W/\"{:016x}{:x}\"", hasher.finish(), body.len())
}

/// Whether the `If-None-Match` values name `tag` (weak comparison, RFC 9110 §13.1.2) or `*`.
fn matches(if_none_match: &[HeaderValue], tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let wanted = bare(tag);
    if_none_match
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|candidate| candidate.trim() == "*" || bare(candidate) == wanted)
}

fn is_tagged_route(method: &Method, path: &str) -> bool {
    method == Method::GET && path.starts_with("/api/") && !path.starts_with("/api/auth/")
}

/// The layer: tags JSON answers of tagged routes and answers 304 when the client has them.
pub async fn conditional_get(request: Request, next: Next) -> Response {
    if !is_tagged_route(request.method(), request.uri().path()) {
        return next.run(request).await;
    }
    // Only what the comparison needs is kept while the handler runs.
    let if_none_match: Vec<HeaderValue> = request.headers().get_all(header::IF_NONE_MATCH).iter().cloned().collect();
    let response = next.run(request).await;
    let is_json = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if response.status() != StatusCode::OK || !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = http_body_util::Limited::new(body, MAX_TAGGED).collect().await.map(|c| c.to_bytes()) else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "The answer could not be read.").into_response();
    };
    let tag = tag_of(&bytes);
    let Ok(tag_value) = HeaderValue::from_str(&tag) else { return Response::from_parts(parts, Body::from(bytes)) };
    parts.headers.insert(header::ETAG, tag_value);
    parts.headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    parts.headers.insert(header::VARY, HeaderValue::from_static("Cookie, Authorization, Accept-Encoding"));
    if matches(&if_none_match, &tag) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_TYPE);
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_if_none_match(value: &'static str) -> Vec<HeaderValue> {
        vec![HeaderValue::from_static(value)]
    }

    #[test]
    fn tags_follow_the_body_and_compare_weakly() {
        let tag = tag_of(b"[1,2,3]");
        assert!(tag.starts_with("W/\""), "{tag}");
        assert_eq!(tag, tag_of(b"[1,2,3]"));
        assert_ne!(tag, tag_of(b"[1,2,4]"));
        let strong: &'static str = Box::leak(tag.trim_start_matches("W/").to_owned().into_boxed_str());
        assert!(matches(&with_if_none_match(strong), &tag), "weak comparison ignores W/");
        let listed: &'static str = Box::leak(format!("\"x\", {tag}").into_boxed_str());
        assert!(matches(&with_if_none_match(listed), &tag));
        assert!(matches(&with_if_none_match("*"), &tag));
        assert!(!matches(&with_if_none_match("\"other\""), &tag));
        assert!(!matches(&[], &tag));
    }

    #[test]
    fn only_reads_outside_sign_in_are_tagged() {
        assert!(is_tagged_route(&Method::GET, "/api/signals"));
        assert!(!is_tagged_route(&Method::POST, "/api/signals/generate-for-symbol"));
        assert!(!is_tagged_route(&Method::GET, "/api/auth/me"));
        assert!(!is_tagged_route(&Method::GET, "/index.html"));
    }
}
