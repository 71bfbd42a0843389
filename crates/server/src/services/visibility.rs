//! Which signals a viewer may see: automated signals are shared, and each trading day a plan
//! shows its quota of them (highest confidence first); the viewer's own on-demand signals count
//! first. This is the one rule: the signal list and detail, `/api/v1`, backtest trades and
//! totals, AI trade ideas, notifications, webhooks and automated positions all ask a
//! [`Viewer`] (or [`ranked_for`], which asks the same rule per row).

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
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

/// One viewer's plan quota and on-demand signal counts per day: what decides, for any signal,
/// whether it is unlocked for them.
#[derive(Clone, Debug)]
pub struct Viewer {
    user_id: String,
    quota: Option<u32>,
    own_per_day: HashMap<NaiveDate, i64>,
}

impl Viewer {
    /// `user` as their plan in force at `now` and their own signals since `since` (the first
    /// day of any signal the caller will ask about) make them.
    pub async fn of(state: &AppState, user: &UserRecord, since: NaiveDate, now: DateTime<Utc>) -> Result<Viewer> {
        let quota = Entitlements::of(user, now).signals_per_day;
        let own_per_day = match quota {
            // Unlimited: nothing to count.
            None => HashMap::new(),
            Some(_) => store::on_demand_counts(&state.db, &user.id, since).await?.into_iter().collect(),
        };
        Ok(Viewer { user_id: user.id.clone(), quota, own_per_day })
    }

    /// `user` under their plan in force at `now`, with their own signals per day as already
    /// counted by the caller.
    pub fn with_counts(user: &UserRecord, own_per_day: HashMap<NaiveDate, i64>, now: DateTime<Utc>) -> Viewer {
        Viewer { user_id: user.id.clone(), quota: Entitlements::of(user, now).signals_per_day, own_per_day }
    }

    /// Whether this viewer may see `signal`, ranked `day_rank` among its day's automated
    /// signals: their own always, another user's never, an automated one within the quota.
    pub fn unlocks(&self, signal: &SignalRow, day_rank: i64) -> bool {
        self.unlocks_signal_of(signal.owner_id.as_deref(), signal.issued_on, day_rank)
    }

    fn unlocks_signal_of(&self, owner: Option<&str>, day: NaiveDate, day_rank: i64) -> bool {
        match owner {
            Some(owner) => owner == self.user_id,
            None => self.unlocks_rank(day, day_rank),
        }
    }

    /// [`Viewer::unlocks`] for an automated signal known only by its day and rank (an event
    /// about to be announced).
    pub fn unlocks_rank(&self, day: NaiveDate, day_rank: i64) -> bool {
        !beyond_quota(self.quota, day_rank, self.own_on(day))
    }

    fn own_on(&self, day: NaiveDate) -> i64 {
        self.own_per_day.get(&day).copied().unwrap_or(0)
    }
}

/// Many viewers at once (a notification run, a webhook fan-out, the automation tick): every
/// owner's on-demand counts since a day, read in one query.
pub struct Viewers {
    own: HashMap<String, HashMap<NaiveDate, i64>>,
}

impl Viewers {
    /// No own signals counted (events about no automated signal).
    pub fn empty() -> Viewers {
        Viewers { own: HashMap::new() }
    }

    pub async fn since(state: &AppState, since: NaiveDate) -> Result<Viewers> {
        let mut own: HashMap<String, HashMap<NaiveDate, i64>> = HashMap::new();
        for (owner, day, count) in store::on_demand_counts_by_owner(&state.db, since).await? {
            own.entry(owner).or_default().insert(day, count);
        }
        Ok(Viewers { own })
    }

    /// `user` as a [`Viewer`] under their plan in force at `now`.
    pub fn of(&self, user: &UserRecord, now: DateTime<Utc>) -> Viewer {
        Viewer::with_counts(user, self.own.get(&user.id).cloned().unwrap_or_default(), now)
    }
}

/// The signals `user` may list under `filter`, each with whether their plan locks it. One
/// query: each row carries the viewer's own count for its day.
pub async fn ranked_for(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: DateTime<Utc>) -> Result<Vec<(SignalRow, bool)>> {
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
pub async fn visible_to(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: DateTime<Utc>) -> Result<Vec<SignalRow>> {
    Ok(ranked_for(state, user, filter, now).await?.into_iter().filter(|(_, locked)| !locked).map(|(row, _)| row).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_signals_count_first_and_other_users_signals_are_never_unlocked() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let viewer = Viewer { user_id: "u1".into(), quota: Some(5), own_per_day: HashMap::from([(day, 3)]) };
        assert!(viewer.unlocks_signal_of(None, day, 2));
        assert!(!viewer.unlocks_signal_of(None, day, 3));
        assert!(viewer.unlocks_signal_of(None, day.succ_opt().unwrap(), 5));
        assert!(viewer.unlocks_signal_of(Some("u1"), day, 0));
        assert!(!viewer.unlocks_signal_of(Some("u2"), day, 0));
        let exhausted = Viewer { own_per_day: HashMap::from([(day, 50)]), ..viewer };
        assert!(!exhausted.unlocks_rank(day, 1));
    }
}
