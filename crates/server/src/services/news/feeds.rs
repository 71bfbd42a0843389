//! Polling the configured RSS/Atom feeds: each at most every `news.poll_minutes`, with the
//! validators it answered last time (`If-None-Match`, `If-Modified-Since`), so an unchanged
//! feed costs a 304; answers are capped in size and time. Feed addresses come from the
//! operator's configuration, not from users, and are fetched as given; the redirects a feed
//! answers do not, so each is checked like a webhook URL before it is followed
//! (`outbound::get`: at most three, public addresses on `outbound.allowed_ports` only).

use chrono::{DateTime, Duration, Utc};
use reqwest::StatusCode;
use reqwest::header::{ETAG, HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, USER_AGENT};
use strikeline_store::news::{self as store, FeedState};

use super::Draft;
use crate::foundation::config::Config;
use crate::foundation::error::Result;
use crate::foundation::outbound::{self, Guard};
use crate::foundation::state::AppState;
use crate::foundation::vocab::NewsOrigin;

/// Most bytes of a feed read.
const MAX_FEED_BYTES: usize = 4 * 1024 * 1024;
/// Most articles taken from one answer.
const MAX_ITEMS: usize = 200;

/// How the redirects a feed answers are checked: as webhook URLs are (public addresses only,
/// on `outbound.allowed_ports`; `delivery.allow_private` lifts both for local development),
/// except that plain http is allowed, as it is in `news.feeds`.
pub fn redirect_guard(config: &Config) -> Guard {
    Guard {
        allow_http: true,
        allow_private: config.delivery.allow_private,
        allowed_ports: config.outbound.allowed_ports.clone(),
        max_response_bytes: MAX_FEED_BYTES,
        timeout: std::time::Duration::from_secs(config.news.timeout_seconds),
    }
}

/// The articles of every configured feed that is due at `now`.
pub async fn poll_due(state: &AppState, now: DateTime<Utc>) -> Result<Vec<Draft>> {
    let every = Duration::minutes(i64::try_from(state.config.news.poll_minutes).unwrap_or(15));
    let guard = redirect_guard(&state.config);
    let mut drafts = Vec::new();
    for url in &state.config.news.feeds {
        let previous = store::feed_state(&state.db, url).await?.unwrap_or_else(|| FeedState { url: url.clone(), ..FeedState::default() });
        if previous.last_polled_at.is_some_and(|at| now - at < every) {
            continue;
        }
        let (polled, articles) = poll(&guard, previous, now).await;
        if let Some(error) = &polled.last_error {
            tracing::warn!(feed = %url, %error, "news feed poll failed");
        }
        store::save_feed_state(&state.db, &polled).await?;
        drafts.extend(articles);
    }
    Ok(drafts)
}

/// One conditional GET of a feed: its new state and articles. The configured address is
/// fetched as given (any host, port and scheme the configuration accepted); each redirect is
/// checked by `guard` before it is followed.
pub async fn poll(guard: &Guard, previous: FeedState, now: DateTime<Utc>) -> (FeedState, Vec<Draft>) {
    let failed = |previous: FeedState, status: Option<i32>, error: String| {
        (FeedState { last_polled_at: Some(now), last_status: status, last_error: Some(error), ..previous }, Vec::new())
    };
    let configured = Guard { allow_http: true, allow_private: true, ..guard.clone() };
    let start = match outbound::resolve(&previous.url, &configured).await {
        Ok(start) => start,
        Err(refusal) => return failed(previous, None, format!("unreachable: {refusal}")),
    };
    let mut headers = HeaderMap::new();
    headers.insert(USER_AGENT, HeaderValue::from_static("Strikeline-News/1 (+feed reader)"));
    for (name, value) in [(IF_NONE_MATCH, &previous.etag), (IF_MODIFIED_SINCE, &previous.last_modified)] {
        if let Some(value) = value.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            headers.insert(name, value);
        }
    }
    let mut response = match outbound::get(start, &headers, guard).await {
        Ok((_, response)) => response,
        Err(e) => return failed(previous, None, e.to_string()),
    };
    let status = response.status();
    let code = Some(i32::from(status.as_u16()));
    if status == StatusCode::NOT_MODIFIED {
        return (FeedState { last_polled_at: Some(now), last_status: code, last_error: None, ..previous }, Vec::new());
    }
    if !status.is_success() {
        return failed(previous, code, format!("answered {status}"));
    }
    let header = |name| response.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok()).map(str::to_owned);
    let (etag, last_modified) = (header(ETAG), header(LAST_MODIFIED));
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) if body.len() + chunk.len() <= MAX_FEED_BYTES => body.extend_from_slice(&chunk),
            Ok(Some(_)) => return failed(previous, code, format!("larger than {} MiB", MAX_FEED_BYTES / 1024 / 1024)),
            Ok(None) => break,
            Err(e) => return failed(previous, code, format!("read failed: {}", e.without_url())),
        }
    }
    let items = match strikeline_news::parse_feed(&body) {
        Ok(items) => items,
        Err(e) => return failed(previous, code, e.to_string()),
    };
    let host = url::Url::parse(&previous.url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    let drafts = items
        .into_iter()
        .take(MAX_ITEMS)
        .map(|item| Draft {
            origin: NewsOrigin::Feed,
            source: if item.source.is_empty() { host.clone() } else { item.source },
            title: item.title,
            summary: item.summary,
            url: item.url,
            image_url: item.image_url,
            published_at: item.published_at.map_or(now, |at| at.min(now)),
            symbols: Vec::new(),
        })
        .collect();
    (FeedState { url: previous.url, etag, last_modified, last_polled_at: Some(now), last_status: code, last_error: None }, drafts)
}
