//! Which signals a viewer may see: automated signals are shared, and each trading day a plan
//! shows its quota of them (highest confidence first); the viewer's own on-demand signals count
//! first. Used by the signal list, the backtest's masking and automated positions alike.

use strikeline_store::signals::{self as store, RankedSignal, SignalFilter, SignalRow};
use strikeline_store::users::UserRecord;

use crate::foundation::entitlements::Entitlements;
use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// Whether a viewer's plan leaves `ranked` locked when they generated `own_that_day` signals
/// on its day: their own signals count toward the day's quota first, then the automated ones
/// by confidence rank. Their own signals are never locked.
pub fn locked(ranked: &RankedSignal, quota: Option<u32>, own_that_day: i64) -> bool {
    ranked.signal.owner_id.is_none() && beyond_quota(quota, ranked.day_rank, own_that_day)
}

/// The quota rule itself: an automated signal ranked `day_rank` in its day is beyond a daily
/// `quota` (none: unlimited) once the viewer's `own_that_day` signals are counted first.
pub fn beyond_quota(quota: Option<u32>, day_rank: i64, own_that_day: i64) -> bool {
    quota.is_some_and(|q| day_rank > (i64::from(q) - own_that_day).max(0))
}

/// The signals `user` may list under `filter`, each with whether their plan locks it. One
/// query: each row carries the viewer's own count for its day.
pub async fn ranked_for(
    state: &AppState,
    user: &UserRecord,
    filter: &SignalFilter,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<(SignalRow, bool)>> {
    let quota = Entitlements::of(user, now).signals_per_day;
    let rows = store::list(&state.db, Some(&user.id), filter).await?;
    Ok(rows
        .into_iter()
        .map(|ranked| {
            let locked = locked(&ranked, quota, ranked.own_that_day);
            (ranked.signal, locked)
        })
        .collect())
}

/// The signals `user`'s plan unlocks under `filter`.
pub async fn visible_to(
    state: &AppState,
    user: &UserRecord,
    filter: &SignalFilter,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<SignalRow>> {
    Ok(ranked_for(state, user, filter, now).await?.into_iter().filter(|(_, locked)| !locked).map(|(row, _)| row).collect())
}
