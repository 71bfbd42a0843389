//! The one limiter. Every limited route names a [`Policy`] and a key (an address, a user, an
//! account) and calls [`hit`]; the count lives in the shared database (one atomic upsert per
//! hit, see `strikeline_store::rate_limits`), so every instance enforces the same numbers and
//! N + k concurrent requests let exactly N through.
//!
//! Every answer of a limited route carries the IETF `RateLimit-Policy` and `RateLimit` header
//! fields (draft-ietf-httpapi-ratelimit-headers); a refusal is 429 problem+json with
//! `Retry-After`. The numbers are listed in [`POLICIES`] and in docs/security.md; any of them
//! can be changed in the configuration (`[limits.<name>] quota, window_seconds`).
//!
//! The buckets live in the database by default; with `redis_url` configured they live in
//! Redis ([`redis::RedisBuckets`]), with the same algorithms and the same atomicity.

pub mod redis;

use axum::http::HeaderValue;
use axum::response::{IntoResponseParts, ResponseParts};
use chrono::{DateTime, Utc};
use strikeline_store::rate_limits::{self, Backoff, Verdict};

use crate::foundation::error::{AppError, Result};
use crate::foundation::state::AppState;

/// Where the buckets are kept.
#[derive(Clone, Debug, Default)]
pub enum Buckets {
    /// The shared database (`rate_limit_buckets`).
    #[default]
    Database,
    Redis(redis::RedisBuckets),
}

impl Buckets {
    async fn gcra(&self, state: &AppState, bucket: &str, now_ms: i64, interval_ms: i64, period_ms: i64) -> Result<Verdict> {
        match self {
            Buckets::Database => Ok(rate_limits::gcra(&state.db, bucket, now_ms, interval_ms, period_ms).await?),
            Buckets::Redis(r) => r.gcra(bucket, now_ms, interval_ms, period_ms).await.map_err(|e| AppError::upstream("Rate limiting", e)),
        }
    }

    async fn backoff(&self, state: &AppState, bucket: &str, now_ms: i64, rule: Backoff) -> Result<Verdict> {
        match self {
            Buckets::Database => Ok(rate_limits::backoff(&state.db, bucket, now_ms, rule).await?),
            Buckets::Redis(r) => r.backoff(bucket, now_ms, rule).await.map_err(|e| AppError::upstream("Rate limiting", e)),
        }
    }

    async fn reset(&self, state: &AppState, bucket: &str) -> Result<()> {
        match self {
            Buckets::Database => Ok(rate_limits::reset(&state.db, bucket).await?),
            Buckets::Redis(r) => r.reset(bucket).await.map_err(|e| AppError::upstream("Rate limiting", e)),
        }
    }
}

/// At most `quota` requests per `window_seconds` for one key; a full quota may be used at once,
/// after which it refills evenly (one request every window / quota).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Names the policy in headers, buckets and configuration.
    pub name: &'static str,
    pub quota: u32,
    pub window_seconds: u64,
}

const fn policy(name: &'static str, quota: u32, window_seconds: u64) -> Policy {
    Policy { name, quota, window_seconds }
}

const MINUTE: u64 = 60;
const HOUR: u64 = 3600;
const DAY: u64 = 86_400;

/// New accounts per client address.
pub const REGISTER: Policy = policy("register", 10, HOUR);
/// Sign-in attempts per client address.
pub const LOGIN_IP: Policy = policy("login_ip", 20, 10 * MINUTE);
/// Sign-in attempts per account, whatever their address: the hard cap above the back-off.
pub const LOGIN_ACCOUNT: Policy = policy("login_account", 100, HOUR);
/// Contact-form messages per client address.
pub const CONTACT: Policy = policy("contact", 5, HOUR);
/// Newsletter sign-ups per client address.
pub const NEWSLETTER: Policy = policy("newsletter", 10, HOUR);
/// Manual signal refreshes per user.
pub const REFRESH: Policy = policy("refresh", 10, MINUTE);
/// Manual stock-price updates per user.
pub const PRICE_UPDATE: Policy = policy("price_update", 6, MINUTE);
/// Manual automation updates per user.
pub const AUTOMATION_UPDATE: Policy = policy("automation_update", 12, HOUR);
/// Dashboard-figure recomputations per user.
pub const STATS_UPDATE: Policy = policy("stats_update", 10, MINUTE);
/// On-demand signal generations per user (the daily quota applies as well).
pub const GENERATE: Policy = policy("generate", 10, MINUTE);
/// Backtests per user (overall and by strategy together).
pub const BACKTEST: Policy = policy("backtest", 30, HOUR);
/// Watchlist writes (bulk add) per user.
pub const WATCHLIST_WRITE: Policy = policy("watchlist_write", 20, HOUR);

/// Public API (`/api/v1`), per user and minute, by endpoint.
pub const API_SIGNALS: Policy = policy("api_signals", 100, MINUTE);
pub const API_ACTIVE_SIGNALS: Policy = policy("api_active_signals", 100, MINUTE);
pub const API_GENERATE: Policy = policy("api_generate", 10, MINUTE);
pub const API_CREATE_SIGNAL: Policy = policy("api_create_signal", 50, MINUTE);
pub const API_STATS: Policy = policy("api_stats", 100, MINUTE);
pub const API_STOCK_PRICES: Policy = policy("api_stock_prices", 100, MINUTE);
pub const API_PORTFOLIO_METRICS: Policy = policy("api_portfolio_metrics", 50, MINUTE);
pub const API_WEBHOOKS: Policy = policy("api_webhooks", 10, MINUTE);
pub const API_NEWS: Policy = policy("api_news", 100, MINUTE);
pub const API_AI_RECOMMENDATIONS: Policy = policy("api_ai_recommendations", 25, MINUTE);
/// News analyses asked of the configured model, for the whole server.
pub const AI_NEWS: Policy = policy("ai_news", 120, HOUR);
/// Recommendation answers written by the configured model, per user and day, by plan.
pub const AI_DAY_PRO: Policy = policy("ai_day_pro", 50, DAY);
pub const AI_DAY_PREMIUM: Policy = policy("ai_day_premium", 500, DAY);
/// Webhook endpoints created and test messages sent from Settings, per user (each test is an
/// outgoing request).
pub const WEBHOOK_WRITE: Policy = policy("webhook_write", 30, HOUR);
/// API keys created per user (the 20-key cap applies as well).
pub const API_KEY_CREATE: Policy = policy("api_key_create", 20, HOUR);
/// Checkouts started and card payments tried per user (card testing is slow work).
pub const PAYMENT: Policy = policy("payment", 20, HOUR);
/// New confirmation links asked for per account.
pub const CONFIRMATION_RESEND: Policy = policy("confirmation_resend", 5, HOUR);
/// Forgotten-password requests per client address (each account also gets at most three
/// links an hour, whoever asks).
pub const PASSWORD_RESET_IP: Policy = policy("password_reset_ip", 10, HOUR);
/// Uses of emailed links (confirm, reset) per client address.
pub const ACCOUNT_LINK: Policy = policy("account_link", 30, 10 * MINUTE);
/// Data exports per account (each reads every table that holds the account's rows).
pub const DATA_EXPORT: Policy = policy("data_export", 5, HOUR);
/// Password changes and account deletions per user (each checks the current password).
pub const PASSWORD_CHECK: Policy = policy("password_check", 10, HOUR);

/// Reads of the public track record (figures, heads, proofs) per client address.
pub const TRACK_RECORD: Policy = policy("track_record", 120, MINUTE);
/// Whole-record exports per client address (each reads the whole log).
pub const TRACK_RECORD_EXPORT: Policy = policy("track_record_export", 20, HOUR);

/// Analyses of multi-leg positions (the strategy builder) per user: each values the position
/// over a chart and a scenario grid.
pub const STRUCTURE_ANALYSIS: Policy = policy("structure_analysis", 120, MINUTE);
/// Option chains per user: each asks the market-data provider, whose quota is shared.
pub const OPTION_CHAIN: Policy = policy("option_chain", 60, MINUTE);
/// Verification codes texted per user (each is a paid message to a number the user typed).
pub const SMS_CODE: Policy = policy("sms_code", 5, HOUR);
/// PDF reports per user (each gathers a portfolio, a backtest or the track record and renders
/// pages on the server).
pub const REPORT: Policy = policy("report", 30, HOUR);
/// Portfolio optimisations per user (each values the book and every visible signal).
pub const OPTIMISE: Policy = policy("optimise", 60, HOUR);
/// Custom strategies judged on every tracked symbol per user (each reads every symbol's state).
pub const STRATEGY_PREVIEW: Policy = policy("strategy_preview", 120, HOUR);
/// Optimiser proposals sent as orders per user (each places and sends up to 50 orders).
pub const ORDER_SEND: Policy = policy("order_send", 60, HOUR);
/// Checks of an account against its broker per user (each asks Alpaca three times with the
/// account's keys, within Alpaca's own rate limit).
pub const BROKER_CHECK: Policy = policy("broker_check", 60, HOUR);

/// The public API's hourly quota of `plan`, whose catalogue entry grants `quota` requests.
pub fn api_hourly(plan: crate::foundation::entitlements::Plan, quota: u32) -> Policy {
    use crate::foundation::entitlements::Plan;
    let name = match plan {
        Plan::Free => "api_hour_free",
        Plan::Pro => "api_hour_pro",
        Plan::Premium => "api_hour_premium",
    };
    policy(name, quota.max(1), HOUR)
}

/// Every policy, for configuration checks and the documentation (the public API's hourly
/// quotas, `api_hour_<plan>`, come from the plan catalogue).
pub const POLICIES: [Policy; 43] = [
    REGISTER,
    LOGIN_IP,
    LOGIN_ACCOUNT,
    CONTACT,
    NEWSLETTER,
    REFRESH,
    PRICE_UPDATE,
    AUTOMATION_UPDATE,
    STATS_UPDATE,
    GENERATE,
    BACKTEST,
    WATCHLIST_WRITE,
    API_SIGNALS,
    API_ACTIVE_SIGNALS,
    API_GENERATE,
    API_CREATE_SIGNAL,
    API_STATS,
    API_STOCK_PRICES,
    API_PORTFOLIO_METRICS,
    API_WEBHOOKS,
    API_NEWS,
    API_AI_RECOMMENDATIONS,
    AI_NEWS,
    AI_DAY_PRO,
    AI_DAY_PREMIUM,
    WEBHOOK_WRITE,
    API_KEY_CREATE,
    PASSWORD_CHECK,
    CONFIRMATION_RESEND,
    PASSWORD_RESET_IP,
    ACCOUNT_LINK,
    DATA_EXPORT,
    PAYMENT,
    TRACK_RECORD,
    TRACK_RECORD_EXPORT,
    STRUCTURE_ANALYSIS,
    OPTION_CHAIN,
    SMS_CODE,
    REPORT,
    OPTIMISE,
    STRATEGY_PREVIEW,
    ORDER_SEND,
    BROKER_CHECK,
];

/// Sign-in back-off per account: five attempts back to back, then a wait that grows by a
/// second with every further attempt, up to a minute; forgotten after a quiet hour or a
/// successful sign-in. Nobody can lock an account out: the owner waits at most a minute.
pub const LOGIN_BACKOFF: Backoff = Backoff { free: 5, step_ms: 1_000, cap_ms: 60_000, forget_ms: 3_600_000 };

/// Where a limited request stands after it was counted: what the response headers say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    pub policy: Policy,
    /// Requests left now.
    pub remaining: u32,
    /// Seconds until the whole quota is back.
    pub reset_seconds: u64,
}

impl RateLimit {
    /// `RateLimit-Policy: "refresh";q=10;w=60`.
    pub fn policy_header(&self) -> String {
        format!("\"{}\";q={};w={}", self.policy.name, self.policy.quota, self.policy.window_seconds)
    }

    /// `RateLimit: "refresh";r=9;t=6`.
    pub fn state_header(&self) -> String {
        format!("\"{}\";r={};t={}", self.policy.name, self.remaining, self.reset_seconds)
    }
}

impl IntoResponseParts for RateLimit {
    type Error = std::convert::Infallible;

    fn into_response_parts(self, mut res: ResponseParts) -> std::result::Result<ResponseParts, Self::Error> {
        append_headers(res.headers_mut(), &self);
        Ok(res)
    }
}

/// Adds `limit`'s two header fields (appended: a response may report several policies).
pub fn append_headers(headers: &mut axum::http::HeaderMap, limit: &RateLimit) {
    for (name, value) in [("ratelimit-policy", limit.policy_header()), ("ratelimit", limit.state_header())] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.append(name, value);
        }
    }
}

/// The policy in force: the built-in numbers unless the configuration overrides them.
pub fn effective(state: &AppState, policy: Policy) -> Policy {
    match state.config.limits.get(policy.name) {
        Some(o) => Policy { quota: o.quota, window_seconds: o.window_seconds, ..policy },
        None => policy,
    }
}

fn seconds_ceil(ms: i64) -> u64 {
    u64::try_from(ms.max(0)).unwrap_or(0).div_ceil(1000)
}

/// Counts one request by `key` against `policy`, or refuses it with 429 and `Retry-After`.
pub async fn hit(state: &AppState, policy: Policy, key: &str, now: DateTime<Utc>) -> Result<RateLimit> {
    let policy = effective(state, policy);
    let period_ms = i64::try_from(policy.window_seconds.saturating_mul(1000)).unwrap_or(i64::MAX / 4);
    let interval_ms = (period_ms / i64::from(policy.quota.max(1))).max(1);
    let now_ms = now.timestamp_millis();
    let bucket = format!("{}:{key}", policy.name);
    let verdict = state.buckets.gcra(state, &bucket, now_ms, interval_ms, period_ms).await?;
    let ahead = verdict.tat_ms - now_ms;
    if verdict.allowed {
        let remaining = ((period_ms - ahead).max(0) / interval_ms).clamp(0, i64::from(policy.quota));
        Ok(RateLimit { policy, remaining: u32::try_from(remaining).unwrap_or(0), reset_seconds: seconds_ceil(ahead) })
    } else {
        let retry = seconds_ceil(verdict.tat_ms + interval_ms - period_ms - now_ms).max(1);
        let limit = RateLimit { policy, remaining: 0, reset_seconds: seconds_ceil(ahead) };
        state.metrics.refused(limit.policy.name);
        Err(too_many(retry, limit))
    }
}

/// One sign-in attempt for `account` under [`LOGIN_BACKOFF`]: refused with 429 while the
/// account's current wait lasts.
pub async fn login_backoff(state: &AppState, account: &str, now: DateTime<Utc>) -> Result<()> {
    let now_ms = now.timestamp_millis();
    let verdict = state.buckets.backoff(state, &backoff_bucket(account), now_ms, LOGIN_BACKOFF).await?;
    if verdict.allowed {
        return Ok(());
    }
    let retry = seconds_ceil(verdict.tat_ms - now_ms).max(1);
    state.metrics.refused("login_backoff");
    Err(AppError::TooManyRequests {
        detail: format!("Too many sign-in attempts for this account. Try again in {retry} second(s)."),
        retry_after_secs: retry,
        limit: None,
    })
}

/// Forgets an account's back-off (after a successful sign-in).
pub async fn forget_login_backoff(state: &AppState, account: &str) -> Result<()> {
    state.buckets.reset(state, &backoff_bucket(account)).await
}

fn backoff_bucket(account: &str) -> String {
    format!("login-backoff:{account}")
}

fn too_many(retry_after_secs: u64, limit: RateLimit) -> AppError {
    let when = if retry_after_secs < 120 {
        format!("{retry_after_secs} second(s)")
    } else {
        format!("{} minute(s)", retry_after_secs.div_ceil(60))
    };
    AppError::TooManyRequests { detail: format!("Too many requests. Try again in {when}."), retry_after_secs, limit: Some(limit) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names_are_unique_and_quotas_positive() {
        let mut names: Vec<_> = POLICIES.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), POLICIES.len());
        assert!(POLICIES.iter().all(|p| p.quota > 0 && p.window_seconds > 0));
    }

    #[test]
    fn headers_follow_the_ietf_structured_field_syntax() {
        let limit = RateLimit { policy: REFRESH, remaining: 9, reset_seconds: 6 };
        assert_eq!(limit.policy_header(), "\"refresh\";q=10;w=60");
        assert_eq!(limit.state_header(), "\"refresh\";r=9;t=6");
    }

    #[test]
    fn waits_round_up_to_whole_seconds() {
        assert_eq!(seconds_ceil(1), 1);
        assert_eq!(seconds_ceil(1000), 1);
        assert_eq!(seconds_ceil(1001), 2);
        assert_eq!(seconds_ceil(-5), 0);
    }
}
