//! Sliding-window limits counted in the database, so every instance enforces the same numbers.

use chrono::{DateTime, Duration, Utc};
use strikeline_store::rate_limits;

use crate::error::{AppError, Result};
use crate::state::AppState;

/// Seconds until fewer than `limit` of `hits` (oldest first) are inside `window`, or `None`
/// when there is room already.
pub fn retry_after(hits: &[DateTime<Utc>], limit: usize, window: Duration, now: DateTime<Utc>) -> Option<u64> {
    let n = hits.len();
    if n < limit {
        return None;
    }
    let frees_at = hits[n - limit] + window;
    Some((frees_at - now).num_seconds().max(1) as u64)
}

/// Counts one request against `bucket` (e.g. `contact:203.0.113.7`), or refuses with 429 and
/// `Retry-After` when `limit` requests were already made within `window`.
pub async fn hit(state: &AppState, bucket: &str, limit: usize, window: Duration, now: DateTime<Utc>) -> Result<()> {
    let hits = rate_limits::hits_since(&state.db, bucket, now - window).await?;
    if let Some(secs) = retry_after(&hits, limit, window, now) {
        return Err(AppError::TooManyRequests {
            detail: format!("Too many requests. Try again in {} minute(s).", secs.div_ceil(60)),
            retry_after_secs: secs,
        });
    }
    rate_limits::record(&state.db, bucket, now).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_frees_when_the_oldest_counted_hit_leaves_it() {
        let now = Utc::now();
        let window = Duration::minutes(15);
        let hits: Vec<_> = (0..5).map(|i| now - Duration::minutes(10 - i)).collect();
        assert_eq!(retry_after(&hits[..4], 5, window, now), None);
        // The oldest hit, 10 minutes ago, leaves the window in 5 minutes.
        assert_eq!(retry_after(&hits, 5, window, now), Some(300));
        // With more hits than the limit, the one that must leave is the (n - limit)th.
        assert_eq!(retry_after(&hits, 3, window, now), Some(420));
    }
}
