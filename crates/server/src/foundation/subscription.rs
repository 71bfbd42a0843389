//! The subscription state machine, pure: a subscription's state, what each billing event
//! makes of it, and what time alone changes (a trial or a cancelled period running out, a
//! grace period after a failed renewal). Stored on the user row; the entitlement check reads
//! the state [`settled`] at the moment it asks, so a plan follows a transition the instant it
//! is due, whether or not a job has written it yet.
//!
//! ```text
//! trialing ──paid──► active ──renewal failed──► past_due ──paid──► active
//!    │                 │  ▲                         │
//!    │ trial over      │  └─resume─┐                │ grace over
//!    ▼                 ▼ cancel    │                ▼
//!  free (active)    active, cancel_at_period_end ──period over──► free (canceled)
//! ```

use chrono::{DateTime, Duration, Utc};

use crate::foundation::entitlements::Plan;
use crate::foundation::vocab::{BillingInterval, SubscriptionStatus};

/// Days a past-due subscription keeps its plan while the payment is retried.
pub const GRACE_DAYS: i64 = 7;

/// Where one account's subscription stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscription {
    pub plan: Plan,
    pub status: SubscriptionStatus,
    /// How a paid plan is billed; `None` for a trial or Free.
    pub interval: Option<BillingInterval>,
    /// The end of the trial or of the paid period.
    pub period_end: Option<DateTime<Utc>>,
    /// Cancelled: stays paid until `period_end`, then Free.
    pub cancel_at_period_end: bool,
    /// Past due: keeps the plan until then unless a payment succeeds.
    pub grace_ends_at: Option<DateTime<Utc>>,
}

/// What happens to a subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A payment for `plan` billed by `interval` succeeded, paying until `period_end` (a first
    /// subscription, a renewal, a change of plan, or settling a past-due one).
    Paid { plan: Plan, interval: BillingInterval, period_end: DateTime<Utc> },
    /// A renewal could not be charged.
    RenewalFailed,
    /// Cancel at the end of the paid period.
    Cancel,
    /// Take back a cancellation before the period ends.
    Resume,
}

/// Why an event does not apply to a subscription as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("There is no paid subscription to change.")]
    NotPaid,
    #[error("The subscription is already set to end with its period.")]
    AlreadyCancelling,
    #[error("The subscription is not set to end; there is nothing to resume.")]
    NotCancelling,
    #[error("Free cannot be bought.")]
    FreeIsNotSold,
}

impl Subscription {
    /// The subscription stored on `record`. Stored values outside the vocabulary read as the
    /// least they could grant (an entitlement check fails closed): an unknown plan is Free.
    pub fn of(record: &strikeline_store::users::UserRecord) -> Subscription {
        use crate::foundation::vocab::Vocabulary;
        Subscription {
            plan: Plan::from_id(&record.subscription_plan).unwrap_or(Plan::Free),
            status: SubscriptionStatus::exact(&record.subscription_status).unwrap_or(SubscriptionStatus::Canceled),
            interval: record.billing_interval.as_deref().and_then(|i| BillingInterval::exact(i).ok()),
            period_end: record.subscription_expires_at,
            cancel_at_period_end: record.cancel_at_period_end,
            grace_ends_at: record.grace_ends_at,
        }
    }

    /// Free, with nothing to bill.
    pub const FREE: Subscription = Subscription {
        plan: Plan::Free,
        status: SubscriptionStatus::Active,
        interval: None,
        period_end: None,
        cancel_at_period_end: false,
        grace_ends_at: None,
    };

    /// The 14-day Pro trial every new account starts with.
    pub fn trial(started: DateTime<Utc>) -> Subscription {
        Subscription {
            plan: Plan::Pro,
            status: SubscriptionStatus::Trialing,
            period_end: Some(started + Duration::days(crate::foundation::plans::TRIAL_DAYS)),
            ..Subscription::FREE
        }
    }

    /// Whether it is a paid plan billed now (active or past due).
    pub fn is_paid(&self) -> bool {
        self.plan != Plan::Free
            && matches!(self.status, SubscriptionStatus::Active | SubscriptionStatus::PastDue)
            && self.interval.is_some()
    }

    /// What time alone has made of it by `now`: a trial or a cancelled period that has run
    /// out is Free (`active` after a trial, `canceled` after a cancellation); a grace period
    /// that has run out is Free and `canceled`.
    pub fn settled(self, now: DateTime<Utc>) -> Subscription {
        let over = |at: Option<DateTime<Utc>>| at.is_none_or(|end| end <= now);
        match self.status {
            SubscriptionStatus::Trialing if over(self.period_end) => Subscription::FREE,
            SubscriptionStatus::Active if self.cancel_at_period_end && over(self.period_end) => {
                Subscription { status: SubscriptionStatus::Canceled, ..Subscription::FREE }
            }
            SubscriptionStatus::PastDue if over(self.grace_ends_at) => {
                Subscription { status: SubscriptionStatus::Canceled, ..Subscription::FREE }
            }
            _ => self,
        }
    }

    /// The subscription after `event` at `now` (settled first), or why the event does not apply.
    pub fn apply(self, event: Event, now: DateTime<Utc>) -> Result<Subscription, Refusal> {
        let current = self.settled(now);
        match event {
            Event::Paid { plan: Plan::Free, .. } => Err(Refusal::FreeIsNotSold),
            Event::Paid { plan, interval, period_end } => Ok(Subscription {
                plan,
                status: SubscriptionStatus::Active,
                interval: Some(interval),
                period_end: Some(period_end),
                cancel_at_period_end: false,
                grace_ends_at: None,
            }),
            Event::RenewalFailed if current.is_paid() => Ok(Subscription {
                status: SubscriptionStatus::PastDue,
                grace_ends_at: current.grace_ends_at.or(Some(now + Duration::days(GRACE_DAYS))),
                ..current
            }),
            Event::RenewalFailed => Err(Refusal::NotPaid),
            Event::Cancel if !current.is_paid() => Err(Refusal::NotPaid),
            Event::Cancel if current.cancel_at_period_end => Err(Refusal::AlreadyCancelling),
            Event::Cancel => Ok(Subscription { cancel_at_period_end: true, ..current }),
            Event::Resume if !current.is_paid() => Err(Refusal::NotPaid),
            Event::Resume if !current.cancel_at_period_end => Err(Refusal::NotCancelling),
            Event::Resume => Ok(Subscription { cancel_at_period_end: false, ..current }),
        }
    }
}

/// The price of `plan` billed by `interval`, in US cents, from the plan catalogue.
pub fn price_cents(plan: Plan, interval: BillingInterval) -> i64 {
    let info = crate::foundation::plans::catalogue().plans.into_iter().find(|p| p.id == plan);
    let dollars = info.map_or(0, |p| match interval {
        BillingInterval::Monthly => p.monthly_price,
        BillingInterval::Yearly => p.yearly_price,
    });
    i64::from(dollars) * 100
}

/// The end of a period of `interval` starting at `start`: the same day of the next month (or
/// year), the month's last day when it has no such day.
pub fn period_end(start: DateTime<Utc>, interval: BillingInterval) -> DateTime<Utc> {
    let months = match interval {
        BillingInterval::Monthly => 1,
        BillingInterval::Yearly => 12,
    };
    start.checked_add_months(chrono::Months::new(months)).unwrap_or(start + Duration::days(30 * i64::from(months)))
}

/// What changing from `from` (paid until `period_end`) to `to` costs now, in cents, the way
/// providers prorate: the unused part of what was paid is credited, and the new price is
/// charged for the rest of the period. A change of interval starts a new period now, so the
/// new price is charged in full less the credit. Never negative: a credit larger than the
/// charge is kept for the next invoice (returned second).
pub fn proration(
    from: (Plan, BillingInterval),
    to: (Plan, BillingInterval),
    period_start: DateTime<Utc>,
    period_end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> (i64, i64) {
    let total = (period_end - period_start).num_seconds().max(1);
    let left = (period_end - now).num_seconds().clamp(0, total);
    let share = |cents: i64| (i128::from(cents) * i128::from(left) / i128::from(total)) as i64;
    let credit = share(price_cents(from.0, from.1));
    let charge = if from.1 == to.1 { share(price_cents(to.0, to.1)) } else { price_cents(to.0, to.1) };
    let due = charge - credit;
    if due >= 0 { (due, 0) } else { (0, -due) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, day, 12, 0, 0).single().expect("time")
    }

    fn premium_yearly(until: DateTime<Utc>) -> Subscription {
        Subscription {
            plan: Plan::Premium,
            status: SubscriptionStatus::Active,
            interval: Some(BillingInterval::Yearly),
            period_end: Some(until),
            ..Subscription::FREE
        }
    }

    #[test]
    fn a_trial_is_pro_for_fourteen_days_then_free() {
        let trial = Subscription::trial(at(1));
        assert_eq!(trial.settled(at(14)), trial);
        assert_eq!(trial.settled(at(15)), Subscription::FREE);
    }

    #[test]
    fn paying_during_a_trial_is_the_plan_at_once() {
        let paid = Subscription::trial(at(1))
            .apply(Event::Paid { plan: Plan::Premium, interval: BillingInterval::Yearly, period_end: at(1) + Duration::days(365) }, at(3))
            .expect("paid");
        assert_eq!(paid, premium_yearly(at(1) + Duration::days(365)));
        assert!(paid.is_paid());
        assert_eq!(
            Subscription::FREE.apply(Event::Paid { plan: Plan::Free, interval: BillingInterval::Monthly, period_end: at(2) }, at(1)),
            Err(Refusal::FreeIsNotSold)
        );
    }

    #[test]
    fn a_cancelled_subscription_stays_paid_to_the_period_end_then_is_free() {
        let sub = premium_yearly(at(20));
        let cancelled = sub.apply(Event::Cancel, at(2)).expect("cancel");
        assert!(cancelled.cancel_at_period_end);
        assert_eq!(cancelled.settled(at(19)).plan, Plan::Premium);
        let over = cancelled.settled(at(20));
        assert_eq!((over.plan, over.status), (Plan::Free, SubscriptionStatus::Canceled));
        assert_eq!(cancelled.apply(Event::Cancel, at(3)), Err(Refusal::AlreadyCancelling));
        let resumed = cancelled.apply(Event::Resume, at(4)).expect("resume");
        assert_eq!(resumed, sub);
        assert_eq!(resumed.settled(at(25)).plan, Plan::Premium, "a resumed subscription renews");
        assert_eq!(sub.apply(Event::Resume, at(4)), Err(Refusal::NotCancelling));
        assert_eq!(cancelled.apply(Event::Resume, at(21)), Err(Refusal::NotPaid), "too late once the period is over");
    }

    #[test]
    fn a_failed_renewal_is_past_due_for_the_grace_period() {
        let sub = premium_yearly(at(10));
        let due = sub.apply(Event::RenewalFailed, at(10)).expect("past due");
        assert_eq!((due.status, due.grace_ends_at), (SubscriptionStatus::PastDue, Some(at(17))));
        assert_eq!(due.settled(at(16)).plan, Plan::Premium, "keeps the plan while the payment is retried");
        assert_eq!(
            due.apply(Event::RenewalFailed, at(12)).expect("again").grace_ends_at,
            Some(at(17)),
            "a retry does not extend the grace"
        );
        let lapsed = due.settled(at(17));
        assert_eq!((lapsed.plan, lapsed.status), (Plan::Free, SubscriptionStatus::Canceled));
        let recovered =
            due.apply(Event::Paid { plan: Plan::Premium, interval: BillingInterval::Yearly, period_end: at(28) }, at(12)).expect("paid");
        assert_eq!((recovered.status, recovered.grace_ends_at), (SubscriptionStatus::Active, None));
        assert_eq!(Subscription::FREE.apply(Event::RenewalFailed, at(1)), Err(Refusal::NotPaid));
        assert_eq!(Subscription::trial(at(1)).apply(Event::Cancel, at(2)), Err(Refusal::NotPaid));
    }

    #[test]
    fn prices_come_from_the_catalogue_in_cents() {
        assert_eq!(price_cents(Plan::Pro, BillingInterval::Monthly), 4_900);
        assert_eq!(price_cents(Plan::Pro, BillingInterval::Yearly), 47_000);
        assert_eq!(price_cents(Plan::Premium, BillingInterval::Monthly), 14_900);
        assert_eq!(price_cents(Plan::Premium, BillingInterval::Yearly), 143_000);
        assert_eq!(price_cents(Plan::Free, BillingInterval::Monthly), 0);
    }

    #[test]
    fn periods_end_on_the_same_day_of_the_next_month_or_the_months_last() {
        let jan31 = Utc.with_ymd_and_hms(2026, 1, 31, 9, 0, 0).single().expect("time");
        assert_eq!(period_end(jan31, BillingInterval::Monthly), Utc.with_ymd_and_hms(2026, 2, 28, 9, 0, 0).single().expect("time"));
        assert_eq!(period_end(jan31, BillingInterval::Yearly), Utc.with_ymd_and_hms(2027, 1, 31, 9, 0, 0).single().expect("time"));
    }

    #[test]
    fn changes_are_prorated_over_what_is_left_of_the_period() {
        let (start, end) = (at(1), at(31));
        // Half way through a month of Pro, to Premium monthly: (149 − 49) / 2.
        assert_eq!(
            proration((Plan::Pro, BillingInterval::Monthly), (Plan::Premium, BillingInterval::Monthly), start, end, at(16)),
            (5_000, 0)
        );
        // Down to Pro half way: a credit of 50 for the next invoice.
        assert_eq!(
            proration((Plan::Premium, BillingInterval::Monthly), (Plan::Pro, BillingInterval::Monthly), start, end, at(16)),
            (0, 5_000)
        );
        // Monthly to yearly half way: a new year now, less half a month of Pro.
        assert_eq!(
            proration((Plan::Pro, BillingInterval::Monthly), (Plan::Pro, BillingInterval::Yearly), start, end, at(16)),
            (47_000 - 2_450, 0)
        );
        // At the very end nothing is left to credit.
        assert_eq!(proration((Plan::Pro, BillingInterval::Monthly), (Plan::Premium, BillingInterval::Monthly), start, end, end), (0, 0));
    }
}
