//! Retention as the privacy policy states it (section 5; `docs/security.md`, "Retention"):
//! communications are kept 3 years, trading records 10 years after they end, and what is kept
//! of a deleted account (its invoices and audit entries) 7 years; then they are deleted. The
//! periods come from `[retention]` in the configuration. Run hourly by each instance's sweeper
//! (`sweep_expired`), whether or not automation runs, at the time the one clock gives.

use chrono::{DateTime, Months, Utc};

use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// What one run deleted, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Removed {
    pub communications: u64,
    pub trading: u64,
    pub closed_accounts: u64,
}

/// `years` before `now` (the same day of the month, or the month's last day).
fn years_before(now: DateTime<Utc>, years: u32) -> DateTime<Utc> {
    now.checked_sub_months(Months::new(years.saturating_mul(12))).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// Deletes every record whose retention period has ended at `now`.
pub async fn enforce(state: &AppState, now: DateTime<Utc>) -> Result<Removed> {
    let periods = state.config.retention;
    let removed = Removed {
        communications: strikeline_store::retention::communications(&state.db, years_before(now, periods.communications_years)).await?,
        trading: strikeline_store::retention::trading(&state.db, years_before(now, periods.trading_years)).await?,
        closed_accounts: strikeline_store::retention::closed_accounts(&state.db, years_before(now, periods.account_years)).await?,
    };
    if removed != Removed::default() {
        tracing::info!(?removed, "records past their retention period deleted");
    }
    Ok(removed)
}
