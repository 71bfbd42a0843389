//! Billing through the built-in test provider: buying a plan from the trial, declined cards,
//! cancel and resume, renewals on schedule (a test moves the clock by calling the schedule
//! with a later time), past due and its grace period, prorated changes, and what 10 parallel
//! payments of one checkout do. Each on both engines.

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use strikeline_server::services::billing::run_due;

use crate::common::{TestApp, fields, problem};

on_both_engines!(
    a_trial_user_buys_premium_yearly_and_has_it_at_once,
    a_declined_card_changes_nothing_and_bad_card_fields_are_named,
    one_checkout_is_paid_once_even_when_confirmed_in_parallel,
    cancel_keeps_the_plan_to_the_period_end_then_it_is_free,
    renewals_charge_the_card_and_a_declined_one_is_past_due_then_free,
    a_change_of_plan_is_prorated_and_a_downgrade_leaves_a_credit,
    the_preview_shows_what_the_change_then_charges,
);

on_both_engines_with!(admin_without_clock, crate::common::with_admin;
    the_test_clock_is_off_by_default,
);

on_both_engines_with!(test_clock, crate::billing::with_test_clock;
    an_administrator_runs_the_schedule_at_a_later_time_with_the_test_clock,
);

pub fn with_test_clock(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_admin(config);
    config.billing.test_clock = true;
}

async fn an_administrator_runs_the_schedule_at_a_later_time_with_the_test_clock(app: TestApp) {
    let admin = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&admin, "admin@example.com", "admin", "correct-horse").await.status(), 201);
    subscribed(&app, "pro", "monthly", "4242 4242 4242 4242").await;
    assert_eq!(app.post_json(&app.client, "/api/billing/cancel", &json!({})).await.status(), 200);
    let later = (app.now() + Duration::days(40)).to_rfc3339();
    assert_eq!(app.post_json(&app.client, "/api/admin/billing/run", &json!({"at": later})).await.status(), 403, "administrators only");
    assert_eq!(app.post_json(&admin, "/api/admin/billing/run", &json!({"at": "9999-12-31T00:00:00Z"})).await.status(), 422);
    let past = (app.now() - Duration::days(1)).to_rfc3339();
    assert_eq!(app.post_json(&admin, "/api/admin/billing/run", &json!({"at": past})).await.status(), 422);
    let too_far = (app.now() + Duration::days(3700)).to_rfc3339();
    assert_eq!(app.post_json(&admin, "/api/admin/billing/run", &json!({"at": too_far})).await.status(), 422);
    let before = app.now();
    let target = before + Duration::days(40);
    let run = app.post_json(&admin, "/api/admin/billing/run", &json!({"at": target.to_rfc3339()})).await;
    assert_eq!(run.status(), 200);
    let receipt: Value = run.json().await.expect("json");
    assert_eq!(receipt["changed"], 1);
    // The test clock is the server's one clock: the server now lives 40 days later.
    let moved: chrono::DateTime<chrono::Utc> = receipt["now"].as_str().expect("now").parse().expect("a time");
    assert!(moved >= target && moved - target < Duration::minutes(1), "moved to {moved}, asked for {target}");
    assert!(app.now() >= target, "every reader of the clock sees the new time");
    // 40 days idle ends the session, as it would have; signed in again, the account is Free.
    assert_eq!(app.me(&app.client).await.status(), 401);
    assert_eq!(app.login_with(&app.client, "ada@example.com", "correct-horse").await.status(), 200);
    assert_eq!(subscription(&app).await["plan"], "free");
    assert_eq!(app.login_with(&admin, "admin@example.com", "correct-horse").await.status(), 200);
    let past = (app.now() - Duration::days(1)).to_rfc3339();
    assert_eq!(app.post_json(&admin, "/api/admin/billing/run", &json!({"at": past})).await.status(), 422, "it does not move back");
}

async fn the_test_clock_is_off_by_default(app: TestApp) {
    assert_eq!(app.register_with(&app.client, "admin@example.com", "admin", "correct-horse").await.status(), 201);
    let response = app.post_json(&app.client, "/api/admin/billing/run", &json!({"at": app.now().to_rfc3339()})).await;
    assert_eq!(response.status(), 404, "even an administrator cannot move the clock unless it is configured");
}

async fn checkout(app: &TestApp, plan: &str, billing: &str) -> Value {
    let response = app.post_json(&app.client, "/api/create-subscription", &json!({"plan": plan, "billing": billing})).await;
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn pay(app: &TestApp, client: &reqwest::Client, secret: &str, card: &str) -> reqwest::Response {
    let body = json!({"clientSecret": secret, "cardNumber": card, "expMonth": 12, "expYear": 2035, "cvc": "123"});
    app.post_json(client, "/api/billing/test-provider/pay", &body).await
}

async fn subscription(app: &TestApp) -> Value {
    app.client.get(app.url("/api/billing/subscription")).send().await.expect("request").json().await.expect("json")
}

async fn invoices(app: &TestApp) -> Vec<Value> {
    app.client.get(app.url("/api/billing/invoices")).send().await.expect("request").json().await.expect("json")
}

async fn subscribed(app: &TestApp, plan: &str, billing: &str, card: &str) -> String {
    let user = app.register().await;
    let started = checkout(app, plan, billing).await;
    assert_eq!(pay(app, &app.client, started["clientSecret"].as_str().expect("secret"), card).await.status(), 200);
    user["id"].as_str().expect("id").to_owned()
}

async fn a_trial_user_buys_premium_yearly_and_has_it_at_once(app: TestApp) {
    app.register().await;
    let trial = subscription(&app).await;
    assert_eq!(
        (trial["plan"].as_str(), trial["status"].as_str(), trial["trialDaysLeft"].as_i64()),
        (Some("pro"), Some("trialing"), Some(14))
    );
    let started = checkout(&app, "premium", "yearly").await;
    assert_eq!(
        (started["amountCents"].as_i64(), started["provider"].as_str(), started["currency"].as_str()),
        (Some(143_000), Some("test"), Some("usd"))
    );
    let again = checkout(&app, "premium", "yearly").await;
    assert_eq!(again["clientSecret"], started["clientSecret"], "a reloaded payment page confirms the same checkout");

    let paid = pay(&app, &app.client, started["clientSecret"].as_str().expect("secret"), "4242 4242 4242 4242").await;
    assert_eq!(paid.status(), 200);
    let sub: Value = paid.json().await.expect("json");
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str(), sub["billing"].as_str()), (Some("premium"), Some("active"), Some("yearly")));
    assert_eq!(sub["nextBilling"]["amountCents"], 143_000);
    assert_eq!(sub["card"], json!({"brand": "visa", "last4": "4242"}));
    assert!(sub["trialDaysLeft"].is_null());
    let end = chrono::DateTime::parse_from_rfc3339(sub["currentPeriodEnd"].as_str().expect("end")).expect("time");
    assert!((end.with_timezone(&Utc) - app.now() - Duration::days(365)).num_days().abs() <= 1);

    // In force at once: the user, Premium's custom strategy parameters and unlimited signals.
    let me: Value = app.me(&app.client).await.json().await.expect("json");
    assert_eq!(me["subscriptionPlan"], "premium");
    let record = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("read").expect("user");
    let entitlements = strikeline_server::foundation::entitlements::Entitlements::of(&record, app.now());
    assert!(entitlements.allows(strikeline_server::foundation::entitlements::Capability::CustomStrategyParams));
    assert_eq!(entitlements.signals_per_day, None);

    let history = invoices(&app).await;
    assert_eq!(history.len(), 1);
    assert_eq!((history[0]["status"].as_str(), history[0]["amountCents"].as_i64()), (Some("paid"), Some(143_000)));
    let id = history[0]["id"].as_str().expect("id");
    let download = app.client.get(app.url(&format!("/api/billing/invoices/{id}"))).send().await.expect("request");
    assert_eq!(download.status(), 200);
    assert!(
        download.headers()["content-disposition"].to_str().expect("header").starts_with("attachment; filename=\"strikeline-invoice-SL-")
    );
    let html = download.text().await.expect("text");
    assert!(html.contains("$1430.00") && html.contains("Premium (yearly)") && html.contains("ada@example.com"), "{html}");
    let stranger = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&stranger, "eve@example.com", "eve", "correct-horse").await.status(), 201);
    assert_eq!(stranger.get(app.url(&format!("/api/billing/invoices/{id}"))).send().await.expect("request").status(), 404);

    let audit: Vec<Value> = app.client.get(app.url("/api/user/audit")).send().await.expect("request").json().await.expect("json");
    assert!(audit.iter().any(|e| e["action"] == "plan_changed" && e["detail"].as_str().is_some_and(|d| d.contains("Premium (yearly)"))));
    let paying_again = app.post_json(&app.client, "/api/create-subscription", &json!({"plan": "pro", "billing": "monthly"})).await;
    assert_eq!(paying_again.status(), 409, "a paying account changes its plan instead");
}

async fn a_declined_card_changes_nothing_and_bad_card_fields_are_named(app: TestApp) {
    app.register().await;
    let secret = checkout(&app, "pro", "monthly").await["clientSecret"].as_str().expect("secret").to_owned();
    let declined = pay(&app, &app.client, &secret, "4000 0000 0000 0002").await;
    assert_eq!(declined.status(), 402);
    let problem_body = problem(declined).await;
    assert_eq!(
        (problem_body["title"].as_str(), problem_body["detail"].as_str()),
        (Some("Payment Failed"), Some("Your card was declined."))
    );
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("pro"), Some("trialing")), "still the trial");
    assert!(invoices(&app).await.is_empty());

    for (card, month, cvc, field) in [
        ("4242 4242 4242 4241", 12, "123", "cardNumber"),
        ("5555 5555 5555 4444", 12, "123", "cardNumber"),
        ("4242 4242 4242 4242", 13, "123", "expMonth"),
        ("4242 4242 4242 4242", 12, "12a", "cvc"),
    ] {
        let body = json!({"clientSecret": secret, "cardNumber": card, "expMonth": month, "expYear": 2035, "cvc": cvc});
        let response = app.post_json(&app.client, "/api/billing/test-provider/pay", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    for (body, field) in [
        (json!({"plan": "free", "billing": "monthly"}), "plan"),
        (json!({"plan": "gold", "billing": "monthly"}), "plan"),
        (json!({"plan": "pro", "billing": "weekly"}), "billing"),
    ] {
        let response = app.post_json(&app.client, "/api/create-subscription", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field]);
    }
    // Someone else's checkout is not yours to pay.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let theirs = pay(&app, &mallory, &secret, "4242 4242 4242 4242").await;
    assert_eq!(theirs.status(), 422);
    assert_eq!(fields(&problem(theirs).await), ["clientSecret"]);
    // The same checkout goes through with a good card.
    assert_eq!(pay(&app, &app.client, &secret, "4242424242424242").await.status(), 200);
    assert_eq!(subscription(&app).await["status"], "active");
    let signed_out = TestApp::browser(&app.base);
    assert_eq!(signed_out.get(app.url("/api/billing/subscription")).send().await.expect("request").status(), 401);
}

async fn one_checkout_is_paid_once_even_when_confirmed_in_parallel(app: TestApp) {
    app.register().await;
    let secret = checkout(&app, "premium", "monthly").await["clientSecret"].as_str().expect("secret").to_owned();
    let attempts = (0..10).map(|_| pay(&app, &app.client, &secret, "4242 4242 4242 4242"));
    let statuses: Vec<u16> = futures_util::future::join_all(attempts).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "{statuses:?}");
    assert_eq!(invoices(&app).await.len(), 1, "charged once");
}

async fn cancel_keeps_the_plan_to_the_period_end_then_it_is_free(app: TestApp) {
    subscribed(&app, "premium", "monthly", "4242 4242 4242 4242").await;
    let cancelled = app.post_json(&app.client, "/api/billing/cancel", &json!({})).await;
    assert_eq!(cancelled.status(), 200);
    let sub: Value = cancelled.json().await.expect("json");
    assert_eq!(
        (sub["plan"].as_str(), sub["cancelAtPeriodEnd"].as_bool(), sub["nextBilling"].is_null()),
        (Some("premium"), Some(true), true)
    );
    assert_eq!(app.post_json(&app.client, "/api/billing/cancel", &json!({})).await.status(), 409);
    let resumed: Value = app.post_json(&app.client, "/api/billing/resume", &json!({})).await.json().await.expect("json");
    assert_eq!(resumed["cancelAtPeriodEnd"], false);
    assert_eq!(app.post_json(&app.client, "/api/billing/resume", &json!({})).await.status(), 409);
    assert_eq!(app.post_json(&app.client, "/api/billing/cancel", &json!({})).await.status(), 200);

    // A day before the period ends: still Premium, nothing billed.
    run_due(&app.state, app.now() + Duration::days(26)).await.expect("run");
    assert_eq!(subscription(&app).await["plan"], "premium");
    // After it: Free, and nothing renewed.
    assert_eq!(run_due(&app.state, app.now() + Duration::days(32)).await.expect("run"), 1);
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("free"), Some("canceled")));
    let me: Value = app.me(&app.client).await.json().await.expect("json");
    assert_eq!(me["subscriptionPlan"], "free");
    assert_eq!(invoices(&app).await.len(), 1, "no renewal");
}

async fn renewals_charge_the_card_and_a_declined_one_is_past_due_then_free(app: TestApp) {
    // A card that pays: the period renews, from where the last one ended.
    subscribed(&app, "pro", "monthly", "4242 4242 4242 4242").await;
    let first_end = subscription(&app).await["currentPeriodEnd"].as_str().expect("end").to_owned();
    assert_eq!(run_due(&app.state, app.now() + Duration::days(32)).await.expect("run"), 1);
    let renewed = subscription(&app).await;
    assert_eq!(renewed["status"], "active");
    assert_ne!(renewed["currentPeriodEnd"].as_str(), Some(first_end.as_str()));
    let history = invoices(&app).await;
    assert_eq!((history.len(), history[0]["status"].as_str(), history[0]["amountCents"].as_i64()), (2, Some("paid"), Some(4_900)));
    assert_eq!(history[0]["periodStart"].as_str().map(|s| &s[..16]), Some(&first_end[..16]), "periods follow on");

    // A card that declines later: past due with a grace period, then Free.
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    let started: Value =
        app.post_json(&other, "/api/create-subscription", &json!({"plan": "pro", "billing": "monthly"})).await.json().await.expect("json");
    assert_eq!(pay(&app, &other, started["clientSecret"].as_str().expect("secret"), "4000 0000 0000 0341").await.status(), 200);
    let bob_sub = |client: &reqwest::Client| {
        let request = client.get(app.url("/api/billing/subscription"));
        async move { request.send().await.expect("request").json::<Value>().await.expect("json") }
    };
    let due_at = app.now() + Duration::days(32);
    run_due(&app.state, due_at).await.expect("run");
    let past_due = bob_sub(&other).await;
    assert_eq!(
        (past_due["status"].as_str(), past_due["plan"].as_str()),
        (Some("past_due"), Some("pro")),
        "the plan stays during the grace period"
    );
    assert!(past_due["graceEndsAt"].is_string());
    run_due(&app.state, due_at + Duration::hours(2)).await.expect("run");
    let bob_invoices: Vec<Value> = other.get(app.url("/api/billing/invoices")).send().await.expect("request").json().await.expect("json");
    assert_eq!(bob_invoices.iter().filter(|i| i["status"] == "failed").count(), 1, "retried at most daily");
    assert_eq!(bob_invoices[0]["failureMessage"], "Your card was declined.");
    let bell: Value = other.get(app.url("/api/notifications")).send().await.expect("request").json().await.expect("json");
    assert_eq!(bell["notifications"][0]["title"], "Payment failed", "{bell}");
    assert_eq!(bell["notifications"][0]["kind"], "billing");
    run_due(&app.state, due_at + Duration::days(8)).await.expect("run");
    let lapsed = bob_sub(&other).await;
    assert_eq!((lapsed["status"].as_str(), lapsed["plan"].as_str()), (Some("canceled"), Some("free")));
    let bell: Value = other.get(app.url("/api/notifications")).send().await.expect("request").json().await.expect("json");
    assert_eq!(bell["notifications"][0]["title"], "Your plan is now Free");
}

async fn a_change_of_plan_is_prorated_and_a_downgrade_leaves_a_credit(app: TestApp) {
    subscribed(&app, "pro", "monthly", "4242 4242 4242 4242").await;
    let up = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await;
    assert_eq!(up.status(), 200);
    let sub: Value = up.json().await.expect("json");
    assert_eq!((sub["plan"].as_str(), sub["billing"].as_str()), (Some("premium"), Some("monthly")));
    let upgrade = &invoices(&app).await[0];
    let charged = upgrade["amountCents"].as_i64().expect("amount");
    assert!((9_990..=10_000).contains(&charged), "almost the whole difference of a month: {charged}");

    let down = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "pro", "billing": "monthly"})).await;
    assert_eq!(down.status(), 200);
    let sub: Value = down.json().await.expect("json");
    let credit = sub["creditCents"].as_i64().expect("credit");
    assert!((9_990..=10_000).contains(&credit), "{credit}");
    assert_eq!(invoices(&app).await[0]["amountCents"], 0);
    assert_eq!(sub["nextBilling"]["amountCents"], 0, "the credit covers the next Pro month: {sub}");

    // Monthly to yearly: a new year now, less the credit and the unused month.
    let yearly: Value =
        app.post_json(&app.client, "/api/billing/change", &json!({"plan": "pro", "billing": "yearly"})).await.json().await.expect("json");
    assert_eq!((yearly["billing"].as_str(), yearly["creditCents"].as_i64()), (Some("yearly"), Some(0)));
    let charged = invoices(&app).await[0]["amountCents"].as_i64().expect("amount");
    assert!(charged < 47_000 - 9_990 && charged > 47_000 - 9_990 - 4_910, "{charged}");

    let same = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "pro", "billing": "yearly"})).await;
    assert_eq!(same.status(), 422);
    assert_eq!(fields(&problem(same).await), ["plan"]);
    let trial = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&trial, "tina@example.com", "tina", "correct-horse").await.status(), 201);
    assert_eq!(app.post_json(&trial, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await.status(), 409);
}

/// `GET /api/billing/change/preview` for a Premium-yearly customer moving to Pro monthly:
/// nothing today, the unused year kept as credit that pays the next months; the change then
/// charges and credits what the preview said. Hostile and missing values are named; a trial
/// has nothing to change.
async fn the_preview_shows_what_the_change_then_charges(app: TestApp) {
    subscribed(&app, "premium", "yearly", "4242 4242 4242 4242").await;
    let preview = |query: &str| app.client.get(app.url(&format!("/api/billing/change/preview{query}"))).send();
    let response = preview("?plan=pro&billing=monthly").await.expect("request");
    assert_eq!(response.status(), 200);
    let quote: Value = response.json().await.expect("json");
    assert_eq!((quote["chargedTodayCents"].as_i64(), quote["owedFirstCents"].as_i64()), (Some(0), Some(0)), "{quote}");
    let kept = quote["creditAfterCents"].as_i64().expect("credit");
    assert_eq!(quote["priceCents"].as_i64(), Some(4_900), "Pro monthly's price: {quote}");
    assert!(kept > 100_000, "most of a year of Premium, less a month of Pro: {quote}");
    assert_eq!(quote["nextChargeCents"], 0, "the credit pays the next month: {quote}");
    assert_eq!(subscription(&app).await["plan"], "premium", "a preview changes nothing");

    let changed = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "pro", "billing": "monthly"})).await;
    assert_eq!(changed.status(), 200);
    let sub: Value = changed.json().await.expect("json");
    let credit = sub["creditCents"].as_i64().expect("credit");
    assert!((kept - credit).abs() <= 1, "the change credits what the preview showed (a cent for the seconds between): {kept} vs {credit}");
    assert_eq!(invoices(&app).await[0]["amountCents"], 0, "and charges what it showed: nothing");

    // Pro monthly back to Premium yearly: the preview's charge is the invoice's.
    let quote: Value = preview("?plan=premium&billing=yearly").await.expect("request").json().await.expect("json");
    let due = quote["chargedTodayCents"].as_i64().expect("due");
    assert!(due > 0, "{quote}");
    let changed = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "yearly"})).await;
    assert_eq!(changed.status(), 200);
    let charged = invoices(&app).await[0]["amountCents"].as_i64().expect("amount");
    assert!((due - charged).abs() <= 1, "{due} vs {charged}");

    for (query, field) in [
        ("?plan=gold&billing=monthly", "plan"),
        ("?plan=pro", "billing"),
        ("?plan=free&billing=monthly", "plan"),
        ("?plan=premium&billing=yearly", "plan"),
        ("?plan=pro&billing=monthly&coupon=1", "coupon"),
        ("?plan=pro&billing=weekly", "billing"),
    ] {
        let refused = preview(query).await.expect("request");
        assert_eq!(refused.status(), 422, "{query}");
        assert_eq!(fields(&problem(refused).await), [field], "{query}");
    }
    let trial = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&trial, "tina@example.com", "tina", "correct-horse").await.status(), 201);
    let nothing = trial.get(app.url("/api/billing/change/preview?plan=premium&billing=monthly")).send().await.expect("request");
    assert_eq!(nothing.status(), 409, "a trial has no paid plan to change");
    let anonymous =
        reqwest::Client::new().get(app.url("/api/billing/change/preview?plan=pro&billing=monthly")).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
}
