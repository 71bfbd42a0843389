//! The public site's endpoints: plans, live figures, contact form, newsletter, admin inbox.

use crate::common::{Engine, TestApp, fields, problem};
use serde_json::{Value, json};

on_both_engines!(
    the_plan_catalogue_has_prices_limits_and_the_most_popular_plan,
    public_stats_are_live_and_say_when_data_is_too_thin,
    a_contact_message_is_stored_and_a_repeat_is_not_duplicated,
    contact_fields_are_validated_and_nothing_is_stored_on_failure,
    one_address_sending_too_many_messages_is_throttled,
    newsletter_sign_up_is_idempotent,
    only_administrators_read_the_inbox,
);

async fn the_plan_catalogue_has_prices_limits_and_the_most_popular_plan(app: TestApp) {
    let catalogue: Value = app.client.get(app.url("/api/plans")).send().await.expect("request").json().await.expect("json");
    let plans = catalogue["plans"].as_array().expect("plans");
    let summary: Vec<_> = plans
        .iter()
        .map(|p| (p["id"].as_str().unwrap_or_default(), p["monthlyPrice"].as_u64(), p["yearlyPrice"].as_u64(), p["signalsPerDay"].as_u64()))
        .collect();
    assert_eq!(
        summary,
        [("free", Some(0), Some(0), Some(5)), ("pro", Some(49), Some(470), Some(50)), ("premium", Some(149), Some(1430), None)]
    );
    assert_eq!(plans[1]["mostPopular"], true);
    assert_eq!(catalogue["yearlyDiscountPercent"], 20);
    assert_eq!(catalogue["trialDays"], 14);
    // No phone line configured: none is sold, none is shown.
    assert!(catalogue["supportPhone"].is_null());
    assert!(!catalogue["plans"].to_string().contains("hone"), "{catalogue}");
}

on_both_engines_with!(with_phone, crate::site::with_phone;
    a_configured_phone_line_is_sold_with_premium_and_shown,
);

fn with_phone(config: &mut strikeline_server::foundation::config::Config) {
    config.support.phone = Some("+1 212 555 0100".into());
    config.support.phone_hours = Some("Every day, around the clock".into());
}

async fn a_configured_phone_line_is_sold_with_premium_and_shown(app: TestApp) {
    let catalogue: Value = app.client.get(app.url("/api/plans")).send().await.expect("request").json().await.expect("json");
    assert_eq!(catalogue["supportPhone"], json!({"number": "+1 212 555 0100", "hours": "Every day, around the clock"}));
    let with_phone: Vec<&str> = catalogue["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .filter(|p| p["features"].as_array().expect("features").iter().any(|f| f.as_str().is_some_and(|f| f.starts_with("Phone support"))))
        .map(|p| p["id"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(with_phone, ["premium"]);
}

async fn public_stats_are_live_and_say_when_data_is_too_thin(app: TestApp) {
    let stats = |app: &TestApp| {
        let request = app.client.get(app.url("/api/public/stats"));
        async move { request.send().await.expect("request").json::<Value>().await.expect("json") }
    };
    let before = stats(&app).await;
    assert_eq!(before["registeredUsers"], 0);
    app.register().await;
    let after = stats(&app).await;
    assert_eq!(after["registeredUsers"], 1, "counted from the database, not typed in");
    assert_eq!(after["winRate"]["value"], Value::Null, "no win rate without enough closed signals");
    assert_eq!(after["winRate"]["minimumSample"], 30);
    assert_eq!(after["signalRefreshSeconds"], 300);
    assert_eq!(after["priceRefreshSeconds"], 60);
    // Issue 27 item 3: where the prices come from, here and in the served API document.
    assert_eq!(after["marketData"], "simulated");
    let document: Value = app.client.get(app.url("/api/openapi.json")).send().await.expect("doc").json().await.expect("json");
    assert_eq!(document["info"]["x-market-data"], "simulated");
}

fn landing_message() -> Value {
    json!({"name": "Grace Hopper", "email": "Grace@Example.com", "company": "Navy", "message": "How are signals priced?", "source": "landing"})
}

async fn inbox(app: &TestApp) -> Value {
    let admin = TestApp::browser(&app.base);
    let response = app.register_with(&admin, "admin@example.com", "admin", "admin-password").await;
    assert_eq!(response.status(), 201);
    let response = admin.get(app.url("/api/admin/messages")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn admin_app(engine: Engine) -> Option<TestApp> {
    TestApp::spawn_with(engine, |config| config.admin_emails = vec!["admin@example.com".into()]).await
}

async fn a_contact_message_is_stored_and_a_repeat_is_not_duplicated(app: TestApp) {
    let engine = if app.database_url.starts_with("postgres") { Engine::Postgres } else { Engine::Sqlite };
    drop(app);
    let Some(app) = admin_app(engine).await else { return };
    let first = app.post_json(&app.client, "/api/contact", &landing_message()).await;
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.expect("json");
    let repeat = app.post_json(&app.client, "/api/contact", &landing_message()).await;
    assert_eq!(repeat.status(), 200, "a double submit is stored once");
    let repeat: Value = repeat.json().await.expect("json");
    assert_eq!(first["id"], repeat["id"]);
    let help = json!({"name": "Grace", "email": "grace@example.com", "subject": "Billing", "message": "Invoice please", "source": "help"});
    assert_eq!(app.post_json(&app.client, "/api/contact", &help).await.status(), 201);

    let inbox = inbox(&app).await;
    let messages = inbox["contactMessages"].as_array().expect("messages");
    assert_eq!(messages.len(), 2);
    let landing = messages.iter().find(|m| m["source"] == "landing").expect("landing message");
    assert_eq!(landing["email"], "grace@example.com");
    assert_eq!(landing["company"], "Navy");
    assert_eq!(landing["message"], "How are signals priced?");
}

async fn contact_fields_are_validated_and_nothing_is_stored_on_failure(app: TestApp) {
    let cases = [
        (json!({"name": " ", "email": "x@y.co", "message": "hi", "source": "landing"}), vec!["name"]),
        (json!({"name": "A", "email": "nope", "message": "", "source": "landing"}), vec!["email", "message"]),
        (json!({"name": "A", "email": "x@y.co", "message": "hi", "source": "help"}), vec!["subject"]),
        (json!({"name": "A", "email": "x@y.co", "message": "m".repeat(5001), "source": "landing"}), vec!["message"]),
        (json!({"name": "A", "email": "x@y.co", "message": "hi", "source": "fax"}), vec!["source"]),
        (json!({"name": "A", "email": "x@y.co", "message": "hi"}), vec!["source"]),
    ];
    for (body, expected) in cases {
        let response = app.post_json(&app.client, "/api/contact", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), expected, "{body}");
    }
    assert!(strikeline_store::inbox::recent_contacts(app.db(), 10).await.expect("query").is_empty());
}

async fn one_address_sending_too_many_messages_is_throttled(app: TestApp) {
    for i in 0..5 {
        let body = json!({"name": "A", "email": "x@y.co", "message": format!("message {i}"), "source": "landing"});
        assert_eq!(app.post_json(&app.client, "/api/contact", &body).await.status(), 201);
    }
    let body = json!({"name": "A", "email": "x@y.co", "message": "one more", "source": "landing"});
    let response = app.post_json(&app.client, "/api/contact", &body).await;
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
    problem(response).await;
    assert_eq!(strikeline_store::inbox::recent_contacts(app.db(), 10).await.expect("query").len(), 5);
}

async fn newsletter_sign_up_is_idempotent(app: TestApp) {
    let first = app.post_json(&app.client, "/api/newsletter", &json!({"email": "Reader@Example.com"})).await;
    assert_eq!(first.status(), 201);
    let again = app.post_json(&app.client, "/api/newsletter", &json!({"email": "reader@example.com"})).await;
    assert_eq!(again.status(), 200);
    let body: Value = again.json().await.expect("json");
    assert_eq!(body["subscribed"], true);
    let subscribers = strikeline_store::inbox::recent_subscribers(app.db(), 10).await.expect("query");
    assert_eq!(subscribers.len(), 1);
    assert_eq!(subscribers[0].email, "reader@example.com");
    let bad = app.post_json(&app.client, "/api/newsletter", &json!({"email": "not an email"})).await;
    assert_eq!(bad.status(), 422);
    assert_eq!(fields(&problem(bad).await), ["email"]);
}

async fn only_administrators_read_the_inbox(app: TestApp) {
    let anonymous = app.client.get(app.url("/api/admin/messages")).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
    app.register().await;
    let member = app.client.get(app.url("/api/admin/messages")).send().await.expect("request");
    assert_eq!(member.status(), 403);
    problem(member).await;
}
