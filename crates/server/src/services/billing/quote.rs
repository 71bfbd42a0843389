//! What a renewal and a change of plan cost: the one computation that `GET
//! /api/billing/change/preview` shows and that the renewal and the change then charge, so a
//! customer is never charged a figure other than the one they were shown.

use chrono::{DateTime, Duration, Utc};
use strikeline_store::billing::BillingState;

use crate::foundation::entitlements::Plan;
use crate::foundation::error::{AppError, Result};
use crate::foundation::subscription::{Refusal, Subscription, period_end, price_cents, proration};
use crate::foundation::vocab::{BillingInterval, SubscriptionStatus};

/// A renewal of the current plan: what is charged, the credit it uses, the period it pays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenewalQuote {
    pub interval: BillingInterval,
    /// Charged to the card: the price less the credit used.
    pub charged: i64,
    pub credit_applied: i64,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

/// A renewal of `current` (`None` without a paid interval and period end) with `credit_cents`
/// on account at `now`. Periods follow on from each other; after a long stop the next one
/// starts now.
pub fn renewal(current: &Subscription, credit_cents: i64, now: DateTime<Utc>) -> Option<RenewalQuote> {
    let (interval, old_end) = (current.interval?, current.period_end?);
    let price = price_cents(current.plan, interval);
    let credit_applied = credit_cents.clamp(0, price);
    let start = if period_end(old_end, interval) > now { old_end } else { now };
    Some(RenewalQuote { interval, charged: price - credit_applied, credit_applied, start, end: period_end(start, interval) })
}

/// A change of plan: what it costs today and from the next period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeQuote {
    /// Owed first, when the account is past due or its period has ended: the renewal collected
    /// before the change (the change is then prorated over the period it pays for).
    pub owed_first: Option<RenewalQuote>,
    /// The new plan for the rest of the period (the whole new period for a change of
    /// interval), less the unused part of what was paid.
    pub prorated: i64,
    /// Credit on account used against `prorated`.
    pub credit_applied: i64,
    /// Charged to the card for the change.
    pub charged: i64,
    /// Credit kept for the next invoice afterwards.
    pub credit_after: i64,
    /// The period the new plan runs in: the current one, or a new one from now for a change of
    /// interval.
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    /// What the first renewal of the new plan will charge, at `end` (the price less the
    /// credit then kept).
    pub next_charge: i64,
}

impl ChangeQuote {
    /// Everything charged today: what is owed first and the change.
    pub fn charged_today(&self) -> i64 {
        self.owed_first.map_or(0, |r| r.charged) + self.charged
    }
}

/// What changing `current` (with the stored billing `before`) to `plan` billed `interval`
/// costs at `now`, or why it cannot be changed: Free is reached by cancelling (422), the
/// current plan is no change (422), and only a paid subscription changes (409).
pub fn change(
    current: &Subscription,
    before: &BillingState,
    plan: Plan,
    interval: BillingInterval,
    now: DateTime<Utc>,
) -> Result<ChangeQuote> {
    if plan == Plan::Free {
        return Err(AppError::field("plan", "To move to Free, cancel: the plan stays until the end of the period you paid for"));
    }
    let (Some(from_interval), Some(end)) = (current.interval.filter(|_| current.is_paid()), current.period_end) else {
        return Err(crate::services::billing::refusal(Refusal::NotPaid));
    };
    if (current.plan, from_interval) == (plan, interval) {
        return Err(AppError::field("plan", "You are already on this plan"));
    }
    // Past due, or the period over: the renewal is collected first and the change prorated
    // over the period it pays for.
    let (owed_first, credit, start, end) = if current.status == SubscriptionStatus::PastDue || end <= now {
        let r = renewal(current, before.credit_cents, now).ok_or_else(|| crate::services::billing::refusal(Refusal::NotPaid))?;
        (Some(r), before.credit_cents - r.credit_applied, r.start, r.end)
    } else {
        (None, before.credit_cents, before.period_started_at.unwrap_or(end - Duration::days(30)), end)
    };
    let (prorated, credit_new) = proration((current.plan, from_interval), (plan, interval), start, end, now);
    let credit = credit + credit_new;
    let credit_applied = credit.min(prorated);
    let credit_after = credit - credit_applied;
    let (start, end) = if interval == from_interval { (start, end) } else { (now, period_end(now, interval)) };
    let price = price_cents(plan, interval);
    Ok(ChangeQuote {
        owed_first,
        prorated,
        credit_applied,
        charged: prorated - credit_applied,
        credit_after,
        start,
        end,
        next_charge: price - credit_after.min(price),
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(month: u32, day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, month, day, 0, 0, 0).single().expect("time")
    }

    fn paid(plan: Plan, interval: BillingInterval, start: DateTime<Utc>, status: SubscriptionStatus) -> (Subscription, BillingState) {
        let end = period_end(start, interval);
        let sub = Subscription { plan, status, interval: Some(interval), period_end: Some(end), ..Subscription::FREE };
        let before = BillingState {
            plan: plan.id().to_owned(),
            status: status.as_str().to_owned(),
            billing_interval: Some(interval.as_str().to_owned()),
            period_started_at: Some(start),
            period_end: Some(end),
            cancel_at_period_end: false,
            grace_ends_at: None,
            credit_cents: 0,
            payment_provider: Some("test".into()),
            subscription_ref: None,
            card_brand: None,
            card_last4: Some("4242".into()),
        };
        (sub, before)
    }

    #[test]
    fn premium_yearly_to_pro_monthly_is_a_credit_that_pays_the_next_months() {
        // Premium yearly paid on Jan 1 (whole year); on Jul 2 (half the year left) to Pro monthly.
        let (sub, before) = paid(Plan::Premium, BillingInterval::Yearly, at(1, 1), SubscriptionStatus::Active);
        let now = at(7, 2);
        let q = change(&sub, &before, Plan::Pro, BillingInterval::Monthly, now).expect("quote");
        let year = price_cents(Plan::Premium, BillingInterval::Yearly);
        let unused = (i128::from(year) * i128::from((at(1, 1) + chrono::Months::new(12) - now).num_seconds())
            / i128::from((period_end(at(1, 1), BillingInterval::Yearly) - at(1, 1)).num_seconds())) as i64;
        let month = price_cents(Plan::Pro, BillingInterval::Monthly);
        assert_eq!((q.prorated, q.charged, q.charged_today()), (0, 0, 0), "nothing to pay today");
        assert_eq!(q.credit_after, unused - month, "the unused half-year, less the first month of Pro");
        assert_eq!((q.start, q.end), (now, period_end(now, BillingInterval::Monthly)), "a change of interval starts a period");
        assert_eq!(q.next_charge, 0, "the credit pays the next month too");
        assert!(q.owed_first.is_none());
    }

    #[test]
    fn an_upgrade_within_the_period_charges_the_difference_for_what_is_left() {
        let (sub, before) = paid(Plan::Pro, BillingInterval::Monthly, at(3, 1), SubscriptionStatus::Active);
        let q = change(&sub, &before, Plan::Premium, BillingInterval::Monthly, at(3, 1)).expect("quote");
        let difference = price_cents(Plan::Premium, BillingInterval::Monthly) - price_cents(Plan::Pro, BillingInterval::Monthly);
        assert_eq!((q.charged, q.credit_after, q.charged_today()), (difference, 0, difference));
        assert_eq!((q.start, q.end), (at(3, 1), at(4, 1)), "the same period");
        assert_eq!(q.next_charge, price_cents(Plan::Premium, BillingInterval::Monthly));
    }

    #[test]
    fn past_due_collects_the_renewal_first_and_prorates_over_its_period() {
        // Pro monthly from Feb 1, past due since Mar 1; the change on Mar 3.
        let (sub, before) = paid(Plan::Pro, BillingInterval::Monthly, at(2, 1), SubscriptionStatus::PastDue);
        let q = change(&sub, &before, Plan::Premium, BillingInterval::Monthly, at(3, 3)).expect("quote");
        let owed = q.owed_first.expect("the renewal is owed");
        assert_eq!((owed.charged, owed.start, owed.end), (price_cents(Plan::Pro, BillingInterval::Monthly), at(3, 1), at(4, 1)));
        let (prorated, _) =
            proration((Plan::Pro, BillingInterval::Monthly), (Plan::Premium, BillingInterval::Monthly), at(3, 1), at(4, 1), at(3, 3));
        assert_eq!(q.charged_today(), owed.charged + prorated);
    }

    #[test]
    fn free_the_same_plan_and_an_unpaid_account_are_refused() {
        let (sub, before) = paid(Plan::Pro, BillingInterval::Monthly, at(3, 1), SubscriptionStatus::Active);
        let field = |e: AppError| match e {
            AppError::Validation(errors) => errors[0].field.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(field(change(&sub, &before, Plan::Free, BillingInterval::Monthly, at(3, 2)).expect_err("free")), "plan");
        assert_eq!(field(change(&sub, &before, Plan::Pro, BillingInterval::Monthly, at(3, 2)).expect_err("same")), "plan");
        let free = Subscription::FREE;
        assert!(change(&free, &before, Plan::Pro, BillingInterval::Monthly, at(3, 2)).is_err());
    }
}
