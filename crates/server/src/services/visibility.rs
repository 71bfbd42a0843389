//! Which signals a viewer may see: automated signals are shared, and each trading day a plan
//! shows its quota of them (highest confidence first); the viewer's own on-demand signals count
//! first. Used by the signal list, the backtest's masking and automated positions alike.

use std::collections::HashMap;

use strikeline_store::signals::{self as store, RankedSignal, SignalFilter, SignalRow};
use strikeline_store::users::UserRecord;

use crate::entitlements::Entitlements;
use crate::error::Result;
use crate::state::AppState;

/// Which of `rows` the viewer's plan leaves locked: per day, the viewer's own on-demand
/// signals count first, then the automated ones by confidence rank.
pub fn apply_quota(rows: Vec<RankedSignal>, quota: Option<u32>, own_per_day: &HashMap<chrono::NaiveDate, i64>) -> Vec<(SignalRow, bool)> {
    rows.into_iter()
        .map(|ranked| {
            let locked = match quota {
                None => false,
                Some(_) if ranked.signal.owner_id.is_some() => false,
                Some(q) => {
                    let own = own_per_day.get(&ranked.signal.issued_on).copied().unwrap_or(0);
                    ranked.day_rank > (i64::from(q) - own).max(0)
                }
            };
            (ranked.signal, locked)
        })
        .collect()
}

/// The signals `user` may list under `filter`, each with whether their plan locks it.
pub async fn ranked_for(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: chrono::DateTime<chrono::Utc>) -> Result<Vec<(SignalRow, bool)>> {
    let rows = store::list(&state.db, Some(&user.id), filter).await?;
    let quota = Entitlements::of(user, now).signals_per_day;
    let own_per_day = match rows.iter().map(|r| r.signal.issued_on).min() {
        Some(first) if quota.is_some() => store::on_demand_counts(&state.db, &user.id, first).await?.into_iter().collect(),
        _ => HashMap::new(),
    };
    Ok(apply_quota(rows, quota, &own_per_day))
}

/// The signals `user`'s plan unlocks under `filter`.
pub async fn visible_to(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: chrono::DateTime<chrono::Utc>) -> Result<Vec<SignalRow>> {
    Ok(ranked_for(state, user, filter, now).await?.into_iter().filter(|(_, locked)| !locked).map(|(row, _)| row).collect())
}

