//! Sign-in throttling, counted in the database so every instance sees the same numbers.

use chrono::{DateTime, Duration, Utc};
use strikeline_store::login_failures;

use crate::error::{AppError, Result};
use crate::limits::retry_after;
use crate::state::AppState;

/// Refuses with 429 when the account or the address has used up its failures in the window.
pub async fn check(state: &AppState, email: &str, ip: &str, now: DateTime<Utc>) -> Result<()> {
    let limits = &state.config.login_throttle;
    let window = Duration::minutes(limits.window_minutes);
    let since = now - window;
    let by_account = login_failures::for_email(&state.db, email, since).await?;
    let by_ip = login_failures::for_ip(&state.db, ip, since).await?;
    let waits = [
        retry_after(&by_account, limits.per_account, window, now),
        retry_after(&by_ip, limits.per_ip, window, now),
    ];
    match waits.into_iter().flatten().max() {
        Some(secs) => Err(AppError::TooManyRequests {
            detail: format!("Too many failed sign-in attempts. Try again in {} minute(s).", secs.div_ceil(60)),
            retry_after_secs: secs,
        }),
        None => Ok(()),
    }
}

pub async fn record_failure(state: &AppState, email: &str, ip: &str, now: DateTime<Utc>) -> Result<()> {
    login_failures::record(&state.db, email, ip, now).await?;
    tracing::warn!(%ip, "failed sign-in");
    Ok(())
}

pub async fn forget(state: &AppState, email: &str) -> Result<()> {
    Ok(login_failures::clear_email(&state.db, email).await?)
}
