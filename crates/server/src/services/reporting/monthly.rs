//! The monthly portfolio report by email (docs/reports.md): before the first session of each
//! month, every account whose brand asks for it gets its portfolio report, as the month
//! closed, attached to an email through the outbox. A month is claimed per account before it
//! is queued, so two instances (or a rerun) send it once.

use base64::Engine as _;
use chrono::{DateTime, Datelike, Utc};
use strikeline_store::report_brands;
use strikeline_store::users::UserRecord;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::Result;
use crate::foundation::state::AppState;
use crate::services::mailing::{self, EmailAttachment, MailingList};

/// The outbox topic of the monthly report.
pub const TOPIC: &str = "monthly_report";

/// Queues this month's report for every account due one at `now`; how many were queued. An
/// account that is no longer Premium, or has turned email off, is skipped (and its month
/// claimed: nothing piles up for later).
pub async fn queue_due(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let month = super::month_of(now);
    let mut queued = 0;
    for brand in report_brands::due_monthly(&state.db, &month).await? {
        if !report_brands::claim_monthly(&state.db, &brand.user_id, &month).await? {
            continue;
        }
        let Some(user) = strikeline_store::users::find_by_id(&state.db, &brand.user_id).await? else { continue };
        if !Entitlements::of(&user, now).allows(Capability::WhiteLabelReports) {
            continue;
        }
        match send_one(state, &user, &brand.name, now).await {
            Ok(true) => queued += 1,
            Ok(false) => {}
            // One account's report failing leaves the others'; its month is given back, so the
            // next run tries it again.
            Err(err) => {
                tracing::warn!(user = %user.id, error = %err, "monthly report not queued");
                report_brands::release_monthly(&state.db, &user.id, &month, brand.last_monthly.as_deref()).await?;
            }
        }
    }
    Ok(queued)
}

/// The month that just ended, as words: "November 2026" on any day of December 2026.
fn ended_month(now: DateTime<Utc>) -> String {
    let today = strikeline_market::calendar::to_new_york(now).date_naive();
    let last_month = today.with_day(1).and_then(|first| first.pred_opt()).unwrap_or(today);
    last_month.format("%B %Y").to_string()
}

async fn send_one(state: &AppState, user: &UserRecord, brand: &str, now: DateTime<Utc>) -> Result<bool> {
    let pdf = super::portfolio::render(state, user, now).await?;
    let month = ended_month(now);
    let file_name = format!("portfolio-report-{}.pdf", super::month_of(now));
    let text = format!(
        "Attached: your portfolio report from {brand} for {month}, with your positions, their Greeks, the risk \
         assessment and performance as the month closed.\n\nThe same report, with today's figures, is under Portfolio, \
         \"Download report\": {base}/portfolio",
        base = mailing::base_url(state),
    );
    let attachment =
        EmailAttachment { file_name, content_type: "application/pdf".into(), data: base64::engine::general_purpose::STANDARD.encode(pdf) };
    let subject = format!("Your portfolio report for {month}");
    mailing::queue_with(state, user, MailingList::MonthlyReport, TOPIC, &subject, &text, vec![attachment], now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_of_the_month_that_just_ended() {
        let at = |s: &str| s.parse::<DateTime<Utc>>().expect("instant");
        assert_eq!(ended_month(at("2026-12-01T14:00:00Z")), "November 2026");
        // 23:30 New York on 31 January is already February in UTC, still January in New York.
        assert_eq!(ended_month(at("2027-02-01T04:30:00Z")), "December 2026");
        assert_eq!(ended_month(at("2027-01-04T14:00:00Z")), "December 2026");
    }
}
