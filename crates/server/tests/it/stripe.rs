//! Billing through Stripe, against a local fake that speaks Stripe's HTTP API (form-encoded
//! requests, bearer key, idempotency keys, expandable objects) and signs webhooks the way
//! Stripe does: a checkout confirmed by `invoice.paid`, replays and out-of-order events,
//! forged and stale signatures, retried failures, a declined change, cancel and deletion.
//! Issue 25's Stripe cases: a new checkout cancels the previous incomplete subscription, a
//! second live subscription on one customer is cancelled and credited, and deleting the
//! account cancels the subscription first (or, when Stripe fails, deletes nothing).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use serde_json::{Value, json};
use strikeline_server::services::billing::stripe::sign;

use crate::common::{Engine, TestApp, problem};

const SECRET_KEY: &str = "sk_test_fake";
const WEBHOOK_SECRET: &str = "whsec_fake";

#[derive(Default)]
struct Fake {
    customers: HashMap<String, Value>,
    subscriptions: HashMap<String, Value>,
    /// (method and path, Idempotency-Key)
    requests: Vec<(String, Option<String>)>,
    replies: HashMap<String, Value>,
    fail_next: u32,
    decline_changes: bool,
    /// Cancellations (`DELETE /v1/subscriptions/{id}`) fail with a 500.
    fail_cancels: bool,
    /// Customer balance transactions: (customer, amount in cents; negative is a credit).
    balance: Vec<(String, i64)>,
}

type Shared = Arc<Mutex<Fake>>;

fn form(body: &str) -> HashMap<String, String> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(body).unwrap_or_default().into_iter().collect()
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {SECRET_KEY}"))
}

/// Records the request; answers a failure, an idempotent replay, or `None` to go on.
fn front(fake: &Shared, what: String, headers: &HeaderMap) -> Result<Option<Value>, (StatusCode, axum::Json<Value>)> {
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut f = fake.lock().expect("lock");
    f.requests.push((what, key.clone()));
    if !authorised(headers) {
        return Err((
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}})),
        ));
    }
    if f.fail_next > 0 {
        f.fail_next -= 1;
        return Err((
            StatusCode::INTERNAL_SERVER_ERROR,
            axum::Json(json!({"error": {"type": "api_error", "message": "Something went wrong"}})),
        ));
    }
    Ok(key.and_then(|k| f.replies.get(&k).cloned()))
}

fn remember(fake: &Shared, headers: &HeaderMap, reply: &Value) {
    if let Some(key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) {
        fake.lock().expect("lock").replies.insert(key.to_owned(), reply.clone());
    }
}

async fn create_customer(
    State(fake): State<Shared>,
    headers: HeaderMap,
    body: String,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    if let Some(replay) = front(&fake, "POST /v1/customers".into(), &headers)? {
        return Ok(axum::Json(replay));
    }
    let f = form(&body);
    let id = format!("cus_{}", uuid::Uuid::new_v4().simple());
    let customer = json!({"id": id, "object": "customer", "email": f.get("email"), "metadata": {"user_id": f.get("metadata[user_id]")}});
    fake.lock().expect("lock").customers.insert(id, customer.clone());
    remember(&fake, &headers, &customer);
    Ok(axum::Json(customer))
}

async fn create_subscription(
    State(fake): State<Shared>,
    headers: HeaderMap,
    body: String,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    if let Some(replay) = front(&fake, "POST /v1/subscriptions".into(), &headers)? {
        return Ok(axum::Json(replay));
    }
    let f = form(&body);
    assert_eq!(f.get("payment_behavior").map(String::as_str), Some("default_incomplete"));
    let id = format!("sub_{}", uuid::Uuid::new_v4().simple());
    let now = crate::common::now().timestamp();
    let sub = json!({
        "id": id, "object": "subscription", "customer": f.get("customer"), "status": "incomplete",
        "current_period_start": now, "current_period_end": now + 365 * 86_400, "cancel_at_period_end": false,
        "items": {"object": "list", "data": [{"id": format!("si_{}", &id[4..12]), "price": {"id": f.get("items[0][price]")}}]},
        "default_payment_method": null,
    });
    fake.lock().expect("lock").subscriptions.insert(id.clone(), sub.clone());
    let mut reply = sub;
    reply["latest_invoice"] = json!({"id": "in_first", "payment_intent": {"id": "pi_1", "client_secret": format!("pi_1_secret_{id}")}});
    remember(&fake, &headers, &reply);
    Ok(axum::Json(reply))
}

async fn get_subscription(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    front(&fake, format!("GET /v1/subscriptions/{id}"), &headers)?;
    let f = fake.lock().expect("lock");
    f.subscriptions
        .get(&id)
        .cloned()
        .map(axum::Json)
        .ok_or((StatusCode::NOT_FOUND, axum::Json(json!({"error": {"type": "invalid_request_error", "message": "No such subscription"}}))))
}

async fn update_subscription(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: String,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    if let Some(replay) = front(&fake, format!("POST /v1/subscriptions/{id}"), &headers)? {
        return Ok(axum::Json(replay));
    }
    let f = form(&body);
    let mut fake_state = fake.lock().expect("lock");
    if f.contains_key("items[0][price]") && fake_state.decline_changes {
        return Err((
            StatusCode::PAYMENT_REQUIRED,
            axum::Json(json!({"error": {"type": "card_error", "code": "card_declined", "message": "Your card was declined."}})),
        ));
    }
    let sub = fake_state.subscriptions.get_mut(&id).expect("known subscription");
    if let Some(cancel) = f.get("cancel_at_period_end") {
        sub["cancel_at_period_end"] = json!(cancel == "true");
    }
    if let Some(price) = f.get("items[0][price]") {
        sub["items"]["data"][0]["price"]["id"] = json!(price);
    }
    let reply = sub.clone();
    drop(fake_state);
    remember(&fake, &headers, &reply);
    Ok(axum::Json(reply))
}

async fn cancel_subscription(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    if let Some(replay) = front(&fake, format!("DELETE /v1/subscriptions/{id}"), &headers)? {
        return Ok(axum::Json(replay));
    }
    let mut f = fake.lock().expect("lock");
    if f.fail_cancels {
        return Err((
            StatusCode::INTERNAL_SERVER_ERROR,
            axum::Json(json!({"error": {"type": "api_error", "message": "Something went wrong"}})),
        ));
    }
    let sub = f.subscriptions.get_mut(&id).expect("known subscription");
    sub["status"] = json!("canceled");
    let reply = sub.clone();
    drop(f);
    remember(&fake, &headers, &reply);
    Ok(axum::Json(reply))
}

async fn balance_transaction(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path(customer): Path<String>,
    body: String,
) -> Result<axum::Json<Value>, (StatusCode, axum::Json<Value>)> {
    if let Some(replay) = front(&fake, format!("POST /v1/customers/{customer}/balance_transactions"), &headers)? {
        return Ok(axum::Json(replay));
    }
    let f = form(&body);
    let amount: i64 = f.get("amount").and_then(|a| a.parse().ok()).expect("an amount");
    assert_eq!(f.get("currency").map(String::as_str), Some("usd"));
    fake.lock().expect("lock").balance.push((customer.clone(), amount));
    let reply = json!({"id": format!("cbtxn_{}", uuid::Uuid::new_v4().simple()), "object": "customer_balance_transaction",
        "customer": customer, "amount": amount, "currency": "usd"});
    remember(&fake, &headers, &reply);
    Ok(axum::Json(reply))
}

fn price_cents(price: &str) -> i64 {
    match price {
        "price_pro_m" => 4_900,
        "price_pro_y" => 47_000,
        "price_prem_m" => 14_900,
        _ => 143_000,
    }
}

struct StripeFake {
    state: Shared,
    base: String,
}

impl StripeFake {
    async fn start() -> StripeFake {
        let state: Shared = Arc::default();
        let app = axum::Router::new()
            .route("/v1/customers", post(create_customer))
            .route("/v1/subscriptions", post(create_subscription))
            .route("/v1/subscriptions/{id}", get(get_subscription).post(update_subscription).delete(cancel_subscription))
            .route("/v1/customers/{id}/balance_transactions", post(balance_transaction))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
        StripeFake { state, base }
    }

    /// The customer pays: the subscription is active with a card, its latest invoice paid.
    /// A cancelled subscription cannot be paid (`false`), as with Stripe.
    fn pay(&self, sub: &str) -> bool {
        let mut f = self.state.lock().expect("lock");
        let s = f.subscriptions.get_mut(sub).expect("subscription");
        if s["status"] != "incomplete" {
            return false;
        }
        let amount = price_cents(s["items"]["data"][0]["price"]["id"].as_str().unwrap_or_default());
        s["status"] = json!("active");
        s["default_payment_method"] = json!({"id": "pm_1", "card": {"brand": "visa", "last4": "4242"}});
        s["latest_invoice"] = json!({"id": format!("in_{}", &sub[4..12]), "status": "paid", "amount_paid": amount, "amount_due": amount});
        true
    }

    fn status(&self, sub: &str) -> String {
        self.state.lock().expect("lock").subscriptions[sub]["status"].as_str().unwrap_or_default().to_owned()
    }

    fn set(&self, sub: &str, key: &str, value: Value) {
        self.state.lock().expect("lock").subscriptions.get_mut(sub).expect("subscription")[key] = value;
    }

    fn requests(&self) -> Vec<(String, Option<String>)> {
        self.state.lock().expect("lock").requests.clone()
    }
}

async fn app_with_stripe(engine: Engine, fake: &StripeFake) -> Option<TestApp> {
    let base = fake.base.clone();
    TestApp::spawn_with(engine, move |c| {
        c.billing.provider = strikeline_server::foundation::config::PaymentProviderKind::Stripe;
        c.billing.stripe_base_url = base;
        c.billing.stripe_secret_key = Some(strikeline_server::foundation::config::Secret::new(SECRET_KEY.into()));
        c.billing.stripe_publishable_key = Some("pk_test_fake".into());
        c.billing.stripe_webhook_secret = Some(strikeline_server::foundation::config::Secret::new(WEBHOOK_SECRET.into()));
        for (name, price) in [
            ("pro_monthly", "price_pro_m"),
            ("pro_yearly", "price_pro_y"),
            ("premium_monthly", "price_prem_m"),
            ("premium_yearly", "price_prem_y"),
        ] {
            c.billing.stripe_prices.insert(name.into(), price.into());
        }
    })
    .await
}

async fn deliver(app: &TestApp, event: &Value, signed_at: i64, secret: &str) -> reqwest::Response {
    let payload = serde_json::to_vec(event).expect("json");
    let signature = format!("t={signed_at},v1={}", sign(&payload, signed_at, secret));
    reqwest::Client::new()
        .post(app.url("/api/billing/stripe/webhook"))
        .header("stripe-signature", signature)
        .header("content-type", "application/json")
        .body(payload)
        .send()
        .await
        .expect("request")
}

fn event(id: &str, kind: &str, object: Value) -> Value {
    json!({"id": id, "object": "event", "type": kind, "created": crate::common::now().timestamp(), "data": {"object": object}})
}

async fn subscription(app: &TestApp) -> Value {
    app.client.get(app.url("/api/billing/subscription")).send().await.expect("request").json().await.expect("json")
}

async fn a_stripe_checkout_is_confirmed_by_a_signed_webhook_applied_once(engine: Engine) {
    let fake = StripeFake::start().await;
    let Some(app) = app_with_stripe(engine, &fake).await else { return };
    let user = app.register().await;
    // A failing Stripe is retried with the same idempotency key.
    fake.state.lock().expect("lock").fail_next = 2;
    let started = app.post_json(&app.client, "/api/create-subscription", &json!({"plan": "premium", "billing": "yearly"})).await;
    assert_eq!(started.status(), 200);
    let started: Value = started.json().await.expect("json");
    assert_eq!((started["provider"].as_str(), started["publishableKey"].as_str()), (Some("stripe"), Some("pk_test_fake")));
    let secret = started["clientSecret"].as_str().expect("secret");
    assert!(secret.starts_with("pi_1_secret_sub_"));
    let requests = fake.requests();
    let customer_calls: Vec<_> = requests.iter().filter(|(w, _)| w == "POST /v1/customers").collect();
    assert_eq!(customer_calls.len(), 3, "two failures, then success: {requests:?}");
    assert!(customer_calls.iter().all(|(_, k)| k.as_deref() == Some(&format!("customer-{}", user["id"].as_str().expect("id")))));
    assert!(requests.iter().any(|(w, k)| w == "POST /v1/subscriptions" && k.as_deref().is_some_and(|k| k.starts_with("checkout-"))));
    let sub_id = secret.trim_start_matches("pi_1_secret_").to_owned();
    assert_eq!(subscription(&app).await["status"], "trialing", "nothing changes until Stripe says it is paid");

    assert!(fake.pay(&sub_id));
    let customer = fake.state.lock().expect("lock").customers.keys().next().cloned().expect("customer");
    let paid = event(
        "evt_paid",
        "invoice.paid",
        json!({"id": "in_1", "object": "invoice", "customer": customer, "subscription": sub_id,
        "amount_paid": 143000, "amount_due": 143000, "currency": "usd", "number": "STRIPE-0001"}),
    );
    let now = app.now().timestamp();
    // Forged and stale signatures change nothing.
    let forged = deliver(&app, &paid, now, "whsec_wrong").await;
    assert_eq!(forged.status(), 400);
    problem(forged).await;
    assert_eq!(deliver(&app, &paid, now - 301, WEBHOOK_SECRET).await.status(), 400);
    let unsigned = reqwest::Client::new().post(app.url("/api/billing/stripe/webhook")).body("{}").send().await.expect("request");
    assert_eq!(unsigned.status(), 400);
    assert_eq!(subscription(&app).await["status"], "trialing");

    let applied = deliver(&app, &paid, now, WEBHOOK_SECRET).await;
    assert_eq!(applied.status(), 200);
    assert_eq!(applied.json::<Value>().await.expect("json")["outcome"], "applied");
    let sub = subscription(&app).await;
    assert_eq!(
        (sub["plan"].as_str(), sub["status"].as_str(), sub["billing"].as_str(), sub["provider"].as_str()),
        (Some("premium"), Some("active"), Some("yearly"), Some("stripe"))
    );
    assert_eq!(sub["card"]["last4"], "4242");
    let replay = deliver(&app, &paid, now, WEBHOOK_SECRET).await;
    assert_eq!(replay.json::<Value>().await.expect("json")["outcome"], "duplicate");
    let invoices: Vec<Value> = app.client.get(app.url("/api/billing/invoices")).send().await.expect("request").json().await.expect("json");
    assert_eq!(invoices.len(), 1, "a replayed event changes nothing twice");
    assert_eq!((invoices[0]["number"].as_str(), invoices[0]["amountCents"].as_i64()), (Some("STRIPE-0001"), Some(143_000)));
    // The same invoice in another event id (Stripe resends under a new id) is still one invoice.
    let again = event("evt_paid_again", "invoice.paid", paid["data"]["object"].clone());
    assert_eq!(deliver(&app, &again, now, WEBHOOK_SECRET).await.status(), 200);
    let invoices: Vec<Value> = app.client.get(app.url("/api/billing/invoices")).send().await.expect("request").json().await.expect("json");
    assert_eq!(invoices.len(), 1);
}

async fn cancel_changes_and_late_events_follow_stripes_state(engine: Engine) {
    let fake = StripeFake::start().await;
    let Some(app) = app_with_stripe(engine, &fake).await else { return };
    app.register().await;
    let started: Value = app
        .post_json(&app.client, "/api/create-subscription", &json!({"plan": "pro", "billing": "monthly"}))
        .await
        .json()
        .await
        .expect("json");
    let sub_id = started["clientSecret"].as_str().expect("secret").trim_start_matches("pi_1_secret_").to_owned();
    assert!(fake.pay(&sub_id));
    let customer = fake.state.lock().expect("lock").customers.keys().next().cloned().expect("customer");
    let now = app.now().timestamp();
    let stale_object =
        json!({"id": sub_id, "object": "subscription", "customer": customer, "status": "incomplete", "cancel_at_period_end": false});
    assert_eq!(
        deliver(&app, &event("evt_created", "customer.subscription.updated", stale_object.clone()), now, WEBHOOK_SECRET).await.status(),
        200
    );
    assert_eq!(subscription(&app).await["status"], "active", "the state read back from Stripe, not the event's copy");

    let cancelled = app.post_json(&app.client, "/api/billing/cancel", &json!({})).await;
    assert_eq!(cancelled.status(), 200);
    assert_eq!(cancelled.json::<Value>().await.expect("json")["cancelAtPeriodEnd"], true);
    assert!(
        fake.requests().iter().any(|(w, k)| w == &format!("POST /v1/subscriptions/{sub_id}") && k.is_some()),
        "writes carry idempotency keys"
    );
    // A late event carrying the old state does not undo the cancellation.
    assert_eq!(
        deliver(&app, &event("evt_late", "customer.subscription.updated", stale_object.clone()), now, WEBHOOK_SECRET).await.status(),
        200
    );
    assert_eq!(subscription(&app).await["cancelAtPeriodEnd"], true);
    assert_eq!(app.post_json(&app.client, "/api/billing/resume", &json!({})).await.status(), 200);

    // A declined change leaves the plan as it was.
    fake.state.lock().expect("lock").decline_changes = true;
    let declined = app.post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"})).await;
    assert_eq!(declined.status(), 402);
    assert_eq!(problem(declined).await["detail"], "Your card was declined.");
    assert_eq!(subscription(&app).await["plan"], "pro");
    fake.state.lock().expect("lock").decline_changes = false;
    let changed: Value = app
        .post_json(&app.client, "/api/billing/change", &json!({"plan": "premium", "billing": "monthly"}))
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(changed["plan"], "premium");

    // Stripe ends the subscription: Free.
    fake.set(&sub_id, "status", json!("canceled"));
    assert_eq!(
        deliver(&app, &event("evt_deleted", "customer.subscription.deleted", stale_object), now, WEBHOOK_SECRET).await.status(),
        200
    );
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("free"), Some("canceled")));
    // An event for a customer that is not ours is acknowledged and ignored.
    let stranger = json!({"id": "sub_x", "object": "subscription", "customer": "cus_unknown"});
    let ignored = deliver(&app, &event("evt_other", "customer.subscription.updated", stranger), now, WEBHOOK_SECRET).await;
    assert_eq!(ignored.json::<Value>().await.expect("json")["outcome"], "ignored");
}

async fn the_webhook_is_absent_without_stripe(engine: Engine) {
    let Some(app) = TestApp::spawn(engine).await else { return };
    let response = deliver(&app, &event("evt_1", "invoice.paid", json!({})), app.now().timestamp(), WEBHOOK_SECRET).await;
    assert_eq!(response.status(), 404);
}

macro_rules! stripe_tests {
    ($($name:ident),*) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(crate::common::Engine::Sqlite).await; })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(crate::common::Engine::Postgres).await; })*
        }
    };
}

stripe_tests!(
    a_stripe_checkout_is_confirmed_by_a_signed_webhook_applied_once,
    cancel_changes_and_late_events_follow_stripes_state,
    the_webhook_is_absent_without_stripe,
    a_new_checkout_cancels_the_previous_and_a_second_live_subscription_is_cancelled_and_credited,
    deleting_the_account_cancels_the_subscription_first_or_deletes_nothing
);

async fn start(app: &TestApp, plan: &str, billing: &str) -> String {
    let response = app.post_json(&app.client, "/api/create-subscription", &json!({"plan": plan, "billing": billing})).await;
    assert_eq!(response.status(), 200);
    let started: Value = response.json().await.expect("json");
    started["clientSecret"].as_str().expect("secret").trim_start_matches("pi_1_secret_").to_owned()
}

fn paid_event(id: &str, customer: &str, sub: &str, invoice: &str, cents: i64) -> Value {
    event(
        id,
        "invoice.paid",
        json!({"id": invoice, "object": "invoice", "customer": customer, "subscription": sub,
        "amount_paid": cents, "amount_due": cents, "currency": "usd", "number": format!("STRIPE-{invoice}")}),
    )
}

/// Issue 25, row 3, with Stripe: a Pro checkout, then a Premium one, both paid.
async fn a_new_checkout_cancels_the_previous_and_a_second_live_subscription_is_cancelled_and_credited(engine: Engine) {
    let fake = StripeFake::start().await;
    let Some(app) = app_with_stripe(engine, &fake).await else { return };
    app.register().await;
    let pro = start(&app, "pro", "monthly").await;
    let premium = start(&app, "premium", "monthly").await;
    assert_ne!(pro, premium);
    assert_eq!(fake.status(&pro), "canceled", "the Premium checkout cancelled the Pro one's incomplete subscription");
    assert!(fake.requests().iter().any(|(w, _)| w == &format!("DELETE /v1/subscriptions/{pro}")));
    assert!(!fake.pay(&pro), "a cancelled subscription cannot be paid: nothing is charged");
    assert!(fake.pay(&premium));
    let customer = fake.state.lock().expect("lock").customers.keys().next().cloned().expect("customer");
    let now = app.now().timestamp();
    assert_eq!(deliver(&app, &paid_event("evt_1", &customer, &premium, "in_1", 14_900), now, WEBHOOK_SECRET).await.status(), 200);
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("premium"), Some("active")));

    // A second live subscription on the same customer (a race, or made in Stripe's dashboard).
    let second = "sub_second0000000000".to_owned();
    {
        let mut f = fake.state.lock().expect("lock");
        let mut copy = f.subscriptions[&premium].clone();
        copy["id"] = json!(second);
        copy["items"]["data"][0]["price"]["id"] = json!("price_pro_m");
        copy["latest_invoice"] = json!({"id": "in_2", "status": "paid", "amount_paid": 4_900, "amount_due": 4_900});
        f.subscriptions.insert(second.clone(), copy);
    }
    let applied = deliver(&app, &paid_event("evt_2", &customer, &second, "in_2", 4_900), now, WEBHOOK_SECRET).await;
    assert_eq!(applied.status(), 200);
    assert_eq!(fake.status(&second), "canceled", "the extra subscription is cancelled");
    assert_eq!(fake.status(&premium), "active", "the account's own stays");
    assert_eq!(fake.state.lock().expect("lock").balance, vec![(customer.clone(), -4_900)], "and what it took is credited");
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("premium"), Some("active")));
    let audit: Vec<Value> = app.client.get(app.url("/api/user/audit")).send().await.expect("request").json().await.expect("json");
    assert!(audit.iter().any(|e| e["detail"].as_str().is_some_and(|d| d.contains(&second) && d.contains("$49.00 credited"))), "{audit:?}");
    // Stripe's news of the cancellation, and a redelivery, change nothing more.
    let deleted = event("evt_3", "customer.subscription.deleted", json!({"id": second, "object": "subscription", "customer": customer}));
    assert_eq!(deliver(&app, &deleted, now, WEBHOOK_SECRET).await.status(), 200);
    let again = paid_event("evt_4", &customer, &second, "in_2", 4_900);
    assert_eq!(deliver(&app, &again, now, WEBHOOK_SECRET).await.status(), 200);
    let sub = subscription(&app).await;
    assert_eq!((sub["plan"].as_str(), sub["status"].as_str()), (Some("premium"), Some("active")));
    assert_eq!(fake.state.lock().expect("lock").balance.len(), 1, "credited once");
}

/// Issue 25, row 2, with Stripe: a paying customer deletes the account.
async fn deleting_the_account_cancels_the_subscription_first_or_deletes_nothing(engine: Engine) {
    let fake = StripeFake::start().await;
    let Some(app) = app_with_stripe(engine, &fake).await else { return };
    let id = app.register().await["id"].as_str().expect("id").to_owned();
    let sub_id = start(&app, "pro", "yearly").await;
    assert!(fake.pay(&sub_id));
    let customer = fake.state.lock().expect("lock").customers.keys().next().cloned().expect("customer");
    let now = app.now().timestamp();
    assert_eq!(deliver(&app, &paid_event("evt_1", &customer, &sub_id, "in_1", 47_000), now, WEBHOOK_SECRET).await.status(), 200);
    assert_eq!(subscription(&app).await["status"], "active");

    // Stripe cannot cancel: the deletion is refused, and nothing is deleted.
    fake.state.lock().expect("lock").fail_cancels = true;
    let refused = app.client.delete(app.url("/api/user")).json(&json!({"password": "correct-horse"})).send().await.expect("request");
    assert_eq!(refused.status(), 503);
    let body = problem(refused).await;
    assert!(body["detail"].as_str().is_some_and(|d| d.contains("could not be cancelled") && d.contains("not been deleted")), "{body}");
    assert_eq!(app.me(&app.client).await.status(), 200, "still signed in, still there");
    assert_eq!(fake.status(&sub_id), "active");

    fake.state.lock().expect("lock").fail_cancels = false;
    let deleted = app.client.delete(app.url("/api/user")).json(&json!({"password": "correct-horse"})).send().await.expect("request");
    assert_eq!(deleted.status(), 204);
    assert_eq!(fake.status(&sub_id), "canceled", "Stripe bills the card no more");
    let kept: Vec<(Option<String>, String, i64, String, String)> = strikeline_store::with_db!(app.db(), pool => {
        sqlx::query_as("SELECT user_id, number, amount_cents, plan, billing_interval FROM invoices")
            .fetch_all(pool)
            .await
            .expect("invoices")
    });
    assert_eq!(kept, vec![(None, "STRIPE-in_1".to_owned(), 47_000, "pro".to_owned(), "yearly".to_owned())], "kept, detached");
    assert!(strikeline_store::users::find_by_id(app.db(), &id).await.expect("read").is_none());
}
