//! The billing invariants (docs/billing.md, "Invariants") through the built-in test provider,
//! on both engines: issue 25's rows 2, 3 and 4 as the attacks were made, and a property test
//! over random sequences of checkouts, payments (with cards that pay, decline, or decline
//! later), renewals as the clock moves, changes of plan, cancellations, resumptions and
//! deletions, checking after every step that
//!
//! - the money the provider took equals the sum of the paid invoices;
//! - a paid plan is in force only while a paid invoice's period covers now (or during the grace
//!   period of a declined renewal);
//! - an account has at most one open checkout, and a checkout is never paid while the account
//!   already pays (never two live subscriptions);
//! - no invoice ends before it starts, and a change of plan is invoiced for time to come;
//! - every transition and every invoice has its audit entry;
//! - a deleted account's invoices stay, detached from the person, and nothing is charged after.

use chrono::{DateTime, Duration, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use strikeline_server::foundation::audit::Origin;
use strikeline_server::foundation::entitlements::Plan;
use strikeline_server::foundation::error::AppError;
use strikeline_server::foundation::subscription::Subscription;
use strikeline_server::foundation::vocab::{BillingInterval, SubscriptionStatus};
use strikeline_server::services::billing::{self as billing, CardDetails, run_due, test_provider};
use strikeline_store::billing::{BillingState, Invoice};
use strikeline_store::users::{self, UserRecord};

use crate::common::{TestApp, problem};

on_both_engines!(
    paying_a_voided_or_stale_checkout_is_refused_and_charges_nothing,
    a_plan_change_from_past_due_collects_what_is_owed_first_or_changes_nothing,
    a_change_after_the_period_ended_starts_a_new_paid_period,
    a_deleted_account_keeps_its_invoices_detached_and_is_charged_no_more,
    random_billing_sequences_keep_the_invariants,
);

const GOOD: &str = "4242 4242 4242 4242";
const DECLINES_LATER: &str = "4000 0000 0000 0341";
const DECLINED: &str = "4000 0000 0000 0002";

async fn checkout(app: &TestApp, plan: &str, billing: &str) -> reqwest::Response {
    app.post_json(&app.client, "/api/create-subscription", &json!({"plan": plan, "billing": billing})).await
}

async fn secret_of(app: &TestApp, plan: &str, billing: &str) -> String {
    let response = checkout(app, plan, billing).await;
    assert_eq!(response.status(), 200);
    response.json::<Value>().await.expect("json")["clientSecret"].as_str().expect("secret").to_owned()
}

async fn pay(app: &TestApp, secret: &str, card: &str) -> reqwest::Response {
    let body = json!({"clientSecret": secret, "cardNumber": card, "expMonth": 12, "expYear": 2035, "cvc": "123"});
    app.post_json(&app.client, "/api/billing/test-provider/pay", &body).await
}

async fn subscription(app: &TestApp) -> Value {
    app.client.get(app.url("/api/billing/subscription")).send().await.expect("request").json().await.expect("json")
}

async fn user(app: &TestApp, id: &str) -> UserRecord {
    users::find_by_id(app.db(), id).await.expect("read").expect("user")
}

async fn invoices(app: &TestApp, id: &str) -> Vec<Invoice> {
    strikeline_store::billing::invoices(app.db(), id).await.expect("invoices")
}

fn paid_total(invoices: &[Invoice]) -> i64 {
    invoices.iter().filter(|i| i.status == "paid").map(|i| i.amount_cents).sum()
}

async fn count(app: &TestApp, sql: &str, id: &str) -> i64 {
    strikeline_store::with_db!(app.db(), pool => sqlx::query_scalar::<_, i64>(sql).bind(id).fetch_one(pool).await.expect("count"))
}

async fn audit_entries(app: &TestApp, id: &str) -> i64 {
    count(app, "SELECT COUNT(*) FROM audit_events WHERE user_id = $1 AND action = 'plan_changed'", id).await
}

async fn open_checkouts(app: &TestApp, id: &str) -> i64 {
    count(app, "SELECT COUNT(*) FROM checkouts WHERE user_id = $1 AND status = 'pending'", id).await
}

/// Issue 25, row 3: a Pro checkout, then a Premium one, both paid. Now the first is void.
async fn paying_a_voided_or_stale_checkout_is_refused_and_charges_nothing(app: TestApp) {
    let id = app.register().await["id"].as_str().expect("id").to_owned();
    let pro = secret_of(&app, "pro", "monthly").await;
    let premium = secret_of(&app, "premium", "monthly").await;
    assert_eq!(open_checkouts(&app, &id).await, 1, "the Premium checkout voided the Pro one");
    let voided = pay(&app, &pro, GOOD).await;
    assert_eq!(voided.status(), 409);
    let body = problem(voided).await;
    assert!(body["detail"].as_str().is_some_and(|d| d.contains("replaced by a newer one")), "{body}");
    assert_eq!((test_provider::taken(&id), invoices(&app, &id).await.len()), (0, 0), "nothing charged");
    assert_eq!(subscription(&app).await["status"], "trialing");

    assert_eq!(pay(&app, &premium, GOOD).await.status(), 200);
    assert_eq!(pay(&app, &pro, GOOD).await.status(), 409, "still void once the account pays");
    let history = invoices(&app, &id).await;
    assert_eq!((history.len(), paid_total(&history), test_provider::taken(&id)), (1, 14_900, 14_900), "$149, once");
    assert_eq!(subscription(&app).await["plan"], "premium");
    assert_eq!(open_checkouts(&app, &id).await, 0);

    // A checkout started on the trial, left open past a day, is stale; so is one an account
    // that has meanwhile paid still holds.
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    let bob = users::find_by_email(app.db(), "bob@example.com").await.expect("read").expect("bob").id;
    let started: Value =
        app.post_json(&other, "/api/create-subscription", &json!({"plan": "pro", "billing": "yearly"})).await.json().await.expect("json");
    app.state.clock.advance(Duration::hours(25));
    assert_eq!(app.login_with(&other, "bob@example.com", "correct-horse").await.status(), 200);
    let body = json!({"clientSecret": started["clientSecret"], "cardNumber": GOOD, "expMonth": 12, "expYear": 2035, "cvc": "123"});
    let stale = app.post_json(&other, "/api/billing/test-provider/pay", &body).await;
    assert_eq!(stale.status(), 409);
    assert!(problem(stale).await["detail"].as_str().is_some_and(|d| d.contains("expired")));
    assert_eq!((test_provider::taken(&bob), invoices(&app, &bob).await.len()), (0, 0));
}

/// Issue 25, row 4: the card that declines later, past due, then a change of plan.
async fn a_plan_change_from_past_due_collects_what_is_owed_first_or_changes_nothing(app: TestApp) {
    let id = app.register().await["id"].as_str().expect("id").to_owned();
    assert_eq!(pay(&app, &secret_of(&app, "pro", "monthly").await, DECLINES_LATER).await.status(), 200);
    app.state.clock.advance(Duration::days(32));
    run_due(&app.state, app.now()).await.expect("run");
    assert_eq!(app.login_with(&app.client, "ada@example.com", "correct-horse").await.status(), 200);
    let past_due = user(&app, &id).await;
    assert_eq!(past_due.subscription_status, "past_due");
    let taken = test_provider::taken(&id);
    let history = invoices(&app, &id).await;
    let audits = audit_entries(&app, &id).await;

    for _ in 0..2 {
        let change = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await;
        assert_eq!(change.status(), 402, "the $49 owed cannot be collected");
        let body = problem(change).await;
        assert!(body["detail"].as_str().is_some_and(|d| d.contains("could not be collected") && d.contains("$49.00")), "{body}");
        assert_eq!(BillingState::of(&user(&app, &id).await), BillingState::of(&past_due), "the state is untouched");
        assert_eq!(invoices(&app, &id).await, history, "no invoice, least of all one ending before it starts");
        assert_eq!((test_provider::taken(&id), audit_entries(&app, &id).await), (taken, audits));
    }
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("pro"), Some("past_due")), "still owing");

    // With a card that pays (as after updating it), the change first collects the renewal owed,
    // then is prorated over that new period.
    strikeline_store::with_db!(app.db(), pool => {
        sqlx::query("UPDATE users SET card_last4 = '4242' WHERE id = $1").bind(&id).execute(pool).await.expect("card");
    });
    let old_end = past_due.subscription_expires_at.expect("period end");
    let change = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await;
    assert_eq!(change.status(), 200);
    let sub: Value = change.json().await.expect("json");
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("premium"), Some("active")));
    let history = invoices(&app, &id).await;
    let find = |what: &str| history.iter().find(|i| i.description.contains(what) && i.status == "paid").expect(what).clone();
    let (change_invoice, renewal) = (find("Change to"), find("renewal"));
    assert!(renewal.description.contains("renewal") && renewal.status == "paid" && renewal.amount_cents == 4_900, "{renewal:?}");
    assert_eq!(renewal.period_start, old_end, "the period owed follows on from the last");
    assert!(change_invoice.description.starts_with("Change to Premium") && change_invoice.amount_cents > 0, "{change_invoice:?}");
    assert!(change_invoice.period_end > change_invoice.period_start && change_invoice.period_end > app.now());
    assert!(history.iter().all(|i| i.period_end >= i.period_start));
    assert_eq!(test_provider::taken(&id), paid_total(&history));
}

/// A change made after the period ended, before the schedule renewed it.
async fn a_change_after_the_period_ended_starts_a_new_paid_period(app: TestApp) {
    let id = app.register().await["id"].as_str().expect("id").to_owned();
    assert_eq!(pay(&app, &secret_of(&app, "pro", "monthly").await, GOOD).await.status(), 200);
    app.state.clock.advance(Duration::days(40));
    assert_eq!(app.login_with(&app.client, "ada@example.com", "correct-horse").await.status(), 200);
    let change = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await;
    assert_eq!(change.status(), 200);
    let now = app.now();
    let history = invoices(&app, &id).await;
    assert_eq!(history.len(), 3, "first payment, the period owed, the change: {history:?}");
    assert!(history.iter().all(|i| i.status == "paid" && i.period_end > i.period_start), "{history:?}");
    let covering: Vec<&Invoice> = history.iter().filter(|i| i.plan == "premium" && i.period_start <= now && now < i.period_end).collect();
    assert_eq!(covering.len(), 1, "a paid Premium period covers now: {history:?}");
    assert!(covering[0].amount_cents > 0, "and it was not free");
    assert_eq!(test_provider::taken(&id), paid_total(&history));
}

/// Issue 25, row 2, through the test provider: the account goes, its invoices stay, detached.
async fn a_deleted_account_keeps_its_invoices_detached_and_is_charged_no_more(app: TestApp) {
    let id = app.register().await["id"].as_str().expect("id").to_owned();
    assert_eq!(pay(&app, &secret_of(&app, "premium", "yearly").await, GOOD).await.status(), 200);
    let kept = invoices(&app, &id).await;
    assert_eq!(kept.len(), 1);
    let deleted = app.client.delete(app.url("/api/user")).json(&json!({"password": "correct-horse"})).send().await.expect("request");
    assert_eq!(deleted.status(), 204);
    assert!(users::find_by_id(app.db(), &id).await.expect("read").is_none());
    let row: (Option<String>, String, i64, String) = strikeline_store::with_db!(app.db(), pool => {
        sqlx::query_as("SELECT user_id, number, amount_cents, plan FROM invoices WHERE id = $1")
            .bind(&kept[0].id)
            .fetch_one(pool)
            .await
            .expect("the invoice is kept")
    });
    assert_eq!(row, (None, kept[0].number.clone(), 143_000, "premium".to_owned()), "kept, detached from the person");
    run_due(&app.state, app.now() + Duration::days(400)).await.expect("run");
    assert_eq!(test_provider::taken(&id), 143_000, "nothing is charged after the deletion");
}

// ---------------------------------------------------------------------------------------------
// The property test

#[derive(Clone, Copy, Debug)]
enum Step {
    Checkout(Plan, BillingInterval),
    /// Pay the n-th checkout started (counting back from the newest) with a card.
    Pay(usize, &'static str),
    /// Move the clock this many days and run the billing schedule.
    Advance(i64),
    Change(Plan, BillingInterval),
    Cancel,
    Resume,
    Delete,
}

/// A random step; sequences start by buying (most accounts pay, so the later steps have a
/// subscription to work on) and a deletion comes late, if at all.
fn random_step(rng: &mut StdRng, at: usize) -> Step {
    let plan = if rng.gen_bool(0.5) { Plan::Pro } else { Plan::Premium };
    let interval = if rng.gen_bool(0.7) { BillingInterval::Monthly } else { BillingInterval::Yearly };
    let card = [GOOD, GOOD, GOOD, DECLINES_LATER, DECLINES_LATER, DECLINED][rng.gen_range(0..6)];
    match (at, rng.gen_range(0..100)) {
        (0, _) => Step::Checkout(plan, interval),
        (1, _) => Step::Pay(0, card),
        (_, 0..=11) => Step::Checkout(plan, interval),
        (_, 12..=29) => Step::Pay(usize::from(rng.gen_bool(0.25)), card),
        (_, 30..=53) => Step::Advance([1, 3, 8, 20, 31, 40, 400][rng.gen_range(0..7)]),
        (_, 54..=77) => Step::Change(plan, interval),
        (_, 78..=86) => Step::Cancel,
        (_, 87..=95) => Step::Resume,
        (at, _) if at >= STEPS - 4 => Step::Delete,
        _ => Step::Advance(1),
    }
}

const CASES: u64 = 24;
const STEPS: usize = 12;

async fn random_billing_sequences_keep_the_invariants(app: TestApp) {
    let base: u64 = std::env::var("STRIKELINE_BILLING_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_b111);
    let mut answered = std::collections::BTreeMap::<&'static str, usize>::new();
    for case in 0..CASES {
        let seed = base.wrapping_add(case);
        let mut rng = StdRng::seed_from_u64(seed);
        let steps: Vec<Step> = (0..STEPS).map(|at| random_step(&mut rng, at)).collect();
        for (kind, ok) in run_case(&app, seed, &steps).await {
            *answered.entry(kind).or_default() += usize::from(ok);
        }
    }
    eprintln!("billing sequences: successful steps {answered:?}");
    // The sequences reach the interesting places, not only refusals.
    for kind in ["checkout", "pay", "change", "cancel", "resume", "delete", "renewal"] {
        assert!(answered.get(kind).copied().unwrap_or(0) >= 2, "too few successful {kind}s: {answered:?}");
    }
}

async fn new_account(app: &TestApp, seed: u64) -> String {
    let now = app.now();
    let name = format!("p{seed:x}");
    let user = users::insert(
        app.db(),
        &users::NewUser {
            id: uuid::Uuid::new_v4().to_string(),
            email: format!("{name}@example.com"),
            username: name,
            password_hash: "x".into(),
            first_name: None,
            last_name: None,
            subscription_plan: "pro".into(),
            subscription_status: "trialing".into(),
            subscription_expires_at: Some(now + Duration::days(14)),
            created_at: now,
        },
    )
    .await
    .expect("user");
    user.id
}

fn card(number: &str) -> CardDetails {
    CardDetails { number: number.to_owned(), exp_month: 12, exp_year: 2099, cvc: "123".to_owned() }
}

/// Runs one sequence, checking the invariants after each step; answers each step's kind and
/// whether it went through.
async fn run_case(app: &TestApp, seed: u64, steps: &[Step]) -> Vec<(&'static str, bool)> {
    let origin = Origin { ip: None, user_agent: Some("billing property test".to_owned()) };
    let id = new_account(app, seed).await;
    let mut secrets: Vec<String> = Vec::new();
    let mut done: Vec<String> = Vec::new();
    let mut deleted_invoices: Option<Vec<String>> = None;
    let mut answered = Vec::new();
    for step in steps {
        let trace = || format!("seed {seed} (STRIKELINE_BILLING_SEED={seed}, case 0), after {done:?} at {step:?}");
        if let Some(kept) = &deleted_invoices {
            // Deleted: time passes, nothing is charged, the invoices stay detached.
            let taken = test_provider::taken(&id);
            if let Step::Advance(days) = step {
                app.state.clock.advance(Duration::days(*days));
                run_due(&app.state, app.now()).await.expect("run");
            }
            assert_eq!(test_provider::taken(&id), taken, "{}", trace());
            let detached = kept_detached(app, kept).await;
            assert_eq!(detached, kept.len() as i64, "{}", trace());
            done.push(format!("{step:?} (deleted)"));
            continue;
        }
        let before = user(app, &id).await;
        let invoices_before = invoices(app, &id).await;
        let audits_before = audit_entries(app, &id).await;
        let now = app.now();
        let was_paying = Subscription::of(&before).settled(now).is_paid();
        let outcome: Result<(), AppError> = match *step {
            Step::Checkout(plan, interval) => match billing::start_checkout(&app.state, &before, plan, interval, now).await {
                Ok(started) => {
                    secrets.push(started.client_secret);
                    Ok(())
                }
                Err(e) => Err(e),
            },
            Step::Pay(back, number) => match secrets.iter().rev().nth(back) {
                Some(secret) => {
                    let paid = billing::pay_with_test_card(&app.state, &before, secret, &card(number), &origin, now).await;
                    if paid.is_ok() {
                        assert!(!was_paying, "a checkout was paid while the account already paid: {}", trace());
                        assert_eq!(Some(secret), secrets.last(), "only the newest checkout can be paid: {}", trace());
                    }
                    paid
                }
                None => Err(AppError::NotFound),
            },
            Step::Advance(days) => {
                app.state.clock.advance(Duration::days(days));
                run_due(&app.state, app.now()).await.map(|_| ())
            }
            Step::Change(plan, interval) => billing::change_plan(&app.state, &before, plan, interval, &origin, now).await,
            Step::Cancel => billing::cancel(&app.state, &before, &origin, now).await,
            Step::Resume => billing::resume(&app.state, &before, &origin, now).await,
            Step::Delete => {
                billing::close_account(&app.state, &before, now).await.expect("nothing to cancel at a provider");
                users::delete(app.db(), &id).await.expect("delete");
                deleted_invoices = Some(invoices_before.iter().map(|i| i.id.clone()).collect());
                Ok(())
            }
        };
        if let Err(error) = &outcome {
            // Refusals are answers (409, 402, 422), never failures of the server.
            assert!(!matches!(error, AppError::Internal(_) | AppError::Unavailable(_)), "{error:?}: {}", trace());
        }
        done.push(format!("{step:?} → {}", if outcome.is_ok() { "ok".to_owned() } else { format!("{:?}", outcome.as_ref().err()) }));
        let kind = match step {
            Step::Checkout(..) => "checkout",
            Step::Pay(..) => "pay",
            Step::Advance(_) => "advance",
            Step::Change(..) => "change",
            Step::Cancel => "cancel",
            Step::Resume => "resume",
            Step::Delete => "delete",
        };
        answered.push((kind, outcome.is_ok()));
        if let Some(kept) = &deleted_invoices {
            assert_eq!(kept_detached(app, kept).await, kept.len() as i64, "seed {seed}: {done:?}");
            continue;
        }
        let after = user(app, &id).await;
        let history = invoices(app, &id).await;
        let audits = audit_entries(app, &id).await;
        let now = app.now();
        let trace = || format!("seed {seed}: {done:?}\nstate {:?}\ninvoices {history:#?}", BillingState::of(&after));

        let renewed = history.iter().filter(|i| i.description.ends_with("renewal") && i.status == "paid").count()
            > invoices_before.iter().filter(|i| i.description.ends_with("renewal") && i.status == "paid").count();
        answered.push(("renewal", renewed));
        // Money taken equals the sum of the paid invoices.
        assert_eq!(test_provider::taken(&id), paid_total(&history), "{}", trace());
        // A refusal changes nothing.
        if outcome.is_err() {
            assert_eq!(BillingState::of(&after), BillingState::of(&before), "{}", trace());
            assert_eq!(history.len(), invoices_before.len(), "{}", trace());
        }
        // Every transition and every invoice is audited.
        let new_invoices = (history.len() - invoices_before.len()) as i64;
        if BillingState::of(&after) != BillingState::of(&before) || new_invoices > 0 {
            assert!(audits - audits_before >= new_invoices.max(1), "unaudited: {}", trace());
        }
        // No invoice ends before it starts; a change is invoiced for time to come.
        for i in &history {
            assert!(i.period_end >= i.period_start, "{}", trace());
            if i.description.starts_with("Change to") {
                assert!(i.period_end > i.created_at, "{}", trace());
            }
        }
        // At most one open checkout.
        assert!(open_checkouts(app, &id).await <= 1, "{}", trace());
        // A paid plan is in force only while a paid period covers it (or in a renewal's grace).
        let sub = Subscription::of(&after).settled(now);
        if sub.plan != Plan::Free && sub.status != SubscriptionStatus::Trialing {
            let covered = covered_by_paid_period(&history, sub.plan, now);
            let in_grace = sub.status == SubscriptionStatus::PastDue && sub.grace_ends_at.is_some_and(|g| g > now);
            assert!(covered || in_grace, "{} in force without a paid period: {}", sub.plan.id(), trace());
        }
    }
    answered
}

fn covered_by_paid_period(history: &[Invoice], plan: Plan, now: DateTime<Utc>) -> bool {
    history.iter().any(|i| i.status == "paid" && i.plan == plan.id() && i.period_start <= now && now < i.period_end)
}

async fn kept_detached(app: &TestApp, ids: &[String]) -> i64 {
    let mut n = 0;
    for id in ids {
        n += count(app, "SELECT COUNT(*) FROM invoices WHERE id = $1 AND user_id IS NULL", id).await;
    }
    n
}
