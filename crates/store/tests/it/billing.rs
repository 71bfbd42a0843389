//! Billing's compare-and-set: two changes decided on the same reading cannot both be written.

use chrono::Duration;
use strikeline_store::Db;
use strikeline_store::billing::{self, BillingState, Transition};

use crate::common::{t0, user};

crate::on_both_engines!(of_two_changes_decided_on_one_reading_exactly_one_is_written);

/// The state registration leaves: Pro on a 14-day trial.
fn on_trial() -> BillingState {
    BillingState {
        plan: "pro".into(),
        status: "trialing".into(),
        billing_interval: None,
        period_started_at: None,
        period_end: Some(t0() + Duration::days(14)),
        cancel_at_period_end: false,
        grace_ends_at: None,
        credit_cents: 0,
        payment_provider: None,
        subscription_ref: None,
        card_brand: None,
        card_last4: None,
    }
}

fn paid(plan: &str) -> Transition {
    let state = BillingState {
        plan: plan.into(),
        status: "active".into(),
        billing_interval: Some("monthly".into()),
        period_started_at: Some(t0()),
        period_end: Some(t0() + Duration::days(30)),
        payment_provider: Some("test".into()),
        ..on_trial()
    };
    Transition { state: Some(state), invoice: None, checkout: None, audit: None }
}

async fn of_two_changes_decided_on_one_reading_exactly_one_is_written(db: Db) {
    let ada = user(&db, "ada").await;
    let reading = on_trial();
    // A Pro and a Premium payment both decided on the trial: ten attempts of each at once.
    let changes = (0..20).map(|n| {
        let (db, id, reading) = (db.clone(), ada.id.clone(), reading.clone());
        let plan = if n % 2 == 0 { "pro" } else { "premium" };
        tokio::spawn(async move { (plan, billing::apply(&db, &id, Some(&reading), &paid(plan), t0()).await.expect("apply")) })
    });
    let mut written = Vec::new();
    for change in changes {
        let (plan, applied) = change.await.expect("task");
        if applied {
            written.push(plan);
        }
    }
    assert_eq!(written.len(), 1, "one change is written: {written:?}");
    let stored = strikeline_store::users::find_by_id(&db, &ada.id).await.expect("read").expect("user");
    assert_eq!((stored.subscription_plan.as_str(), stored.subscription_status.as_str()), (written[0], "active"));
    // A change decided on the stale reading is refused; one on no reading is written.
    assert!(!billing::apply(&db, &ada.id, Some(&reading), &paid("pro"), t0()).await.expect("apply"));
    assert!(billing::apply(&db, &ada.id, None, &paid("premium"), t0()).await.expect("apply"));
}
