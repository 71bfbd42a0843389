//! Your account: settings saved on each change, exchange rates, the password (current one
//! needed, other sessions ended), signed-in sessions and revoking them, the audit log, and
//! deleting the account with its data. Each on both engines; another user's ids change nothing.

use serde_json::{Value, json};

use crate::common::{TestApp, fields, instant, problem};

on_both_engines!(
    settings_are_saved_field_by_field_and_read_back,
    bad_settings_are_422_naming_the_field,
    exchange_rates_come_from_the_market_data_provider,
    a_password_change_needs_the_current_one_and_ends_other_sessions,
    sessions_are_listed_and_revoked_only_by_their_owner,
    the_audit_log_records_sign_ins_failures_and_key_actions_for_its_owner_only,
    deleting_the_account_needs_the_password_and_removes_its_data,
);

async fn settings(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/user/preferences")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn put(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    client.put(app.url("/api/user/preferences")).json(body).send().await.expect("request")
}

async fn settings_are_saved_field_by_field_and_read_back(app: TestApp) {
    app.register().await;
    let defaults = settings(&app, &app.client).await;
    assert_eq!(
        defaults,
        json!({"theme": "system", "currency": "USD", "emailNotifications": true, "signalAlerts": true, "portfolioSummary": true,
               "autoUpdateSignals": true, "highRiskAlerts": false, "riskTolerance": "medium",
               "pushEvents": ["new_signals", "position_closed", "price_alert", "billing", "webhook"]})
    );
    let response = put(&app, &app.client, &json!({"theme": "dark"})).await;
    assert_eq!(response.status(), 200);
    let saved: Value = response.json().await.expect("json");
    assert_eq!((saved["theme"].as_str(), saved["currency"].as_str()), (Some("dark"), Some("USD")), "the rest keeps its value");
    // Changes to different settings sent at once all stay (each is one field-wise update).
    let changes = [
        json!({"currency": "EUR"}),
        json!({"emailNotifications": false}),
        json!({"signalAlerts": false}),
        json!({"portfolioSummary": false}),
        json!({"autoUpdateSignals": false}),
        json!({"highRiskAlerts": true}),
        json!({"riskTolerance": "high"}),
        json!({"pushEvents": ["webhook", "price_alert", "price_alert"]}),
    ];
    let sent = changes.iter().map(|body| put(&app, &app.client, body));
    for response in futures_util::future::join_all(sent).await {
        assert_eq!(response.status(), 200);
    }
    let after = settings(&app, &app.client).await;
    assert_eq!(
        after,
        json!({"theme": "dark", "currency": "EUR", "emailNotifications": false, "signalAlerts": false, "portfolioSummary": false,
               "autoUpdateSignals": false, "highRiskAlerts": true, "riskTolerance": "high",
               "pushEvents": ["price_alert", "webhook"]})
    );
    // The investment preferences see the same risk tolerance.
    let me: Value = app.me(&app.client).await.json().await.expect("json");
    assert_eq!((me["riskTolerance"].as_str(), me["emailNotifications"].as_bool()), (Some("high"), Some(false)));
    let stranger = TestApp::browser(&app.base);
    assert_eq!(stranger.get(app.url("/api/user/preferences")).send().await.expect("request").status(), 401);
    assert_eq!(put(&app, &stranger, &json!({"theme": "light"})).await.status(), 401);
}

async fn bad_settings_are_422_naming_the_field(app: TestApp) {
    app.register().await;
    let before = settings(&app, &app.client).await;
    for (body, field) in [
        (json!({"theme": "blue"}), "theme"),
        (json!({"currency": "JPY"}), "currency"),
        (json!({"currency": "eur"}), "currency"),
        (json!({"emailNotifications": "yes"}), "emailNotifications"),
        (json!({"riskTolerance": "reckless"}), "riskTolerance"),
        (json!({"theme": "dark", "colour": "red"}), "colour"),
    ] {
        let response = put(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    assert_eq!(settings(&app, &app.client).await, before, "nothing of a refused request is stored");
}

async fn exchange_rates_come_from_the_market_data_provider(app: TestApp) {
    app.register().await;
    let response = app.client.get(app.url("/api/exchange-rates")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let fx: Value = response.json().await.expect("json");
    assert_eq!(fx["base"], "USD");
    assert_eq!(fx["provider"], "simulated");
    let rate = |code: &str| {
        fx["rates"].as_array().expect("rates").iter().find(|r| r["currency"] == code).and_then(|r| r["perUsd"].as_f64()).expect(code)
    };
    assert_eq!(rate("USD"), 1.0);
    assert!((0.7..1.2).contains(&rate("EUR")), "{fx}");
    assert!((0.6..1.0).contains(&rate("GBP")), "{fx}");
    // Kept between requests: the same answer again.
    let again: Value = app.client.get(app.url("/api/exchange-rates")).send().await.expect("request").json().await.expect("json");
    assert_eq!(again, fx);
    assert_eq!(TestApp::browser(&app.base).get(app.url("/api/exchange-rates")).send().await.expect("request").status(), 401);
}

async fn change_password(app: &TestApp, client: &reqwest::Client, current: &str, new: &str) -> reqwest::Response {
    app.post_json(client, "/api/user/password", &json!({"currentPassword": current, "newPassword": new})).await
}

async fn a_password_change_needs_the_current_one_and_ends_other_sessions(app: TestApp) {
    app.register().await;
    let laptop = TestApp::browser(&app.base);
    assert_eq!(app.login_with(&laptop, "ada@example.com", "correct-horse").await.status(), 200);

    let wrong = change_password(&app, &app.client, "not-my-password", "battery-staple").await;
    assert_eq!(wrong.status(), 422);
    assert_eq!(fields(&problem(wrong).await), ["currentPassword"]);
    let short = change_password(&app, &app.client, "correct-horse", "12345").await;
    assert_eq!(short.status(), 422);
    assert_eq!(fields(&problem(short).await), ["newPassword"]);
    assert_eq!(app.me(&laptop).await.status(), 200, "a refused change ends nothing");

    assert_eq!(change_password(&app, &app.client, "correct-horse", "battery-staple").await.status(), 204);
    assert_eq!(app.me(&app.client).await.status(), 200, "the session that changed it stays signed in");
    assert_eq!(app.me(&laptop).await.status(), 401, "every other session has ended");
    let other = TestApp::browser(&app.base);
    assert_eq!(app.login_with(&other, "ada@example.com", "correct-horse").await.status(), 401);
    assert_eq!(app.login_with(&other, "ada@example.com", "battery-staple").await.status(), 200);
    assert_eq!(change_password(&app, &TestApp::browser(&app.base), "battery-staple", "x-y-z-w").await.status(), 401);
}

async fn sessions(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client.get(app.url("/api/user/sessions")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn sessions_are_listed_and_revoked_only_by_their_owner(app: TestApp) {
    app.register().await;
    let phone = TestApp::browser(&app.base);
    let response = phone
        .post(app.url("/api/auth/login"))
        .header("user-agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")
        .json(&json!({"email": "ada@example.com", "password": "correct-horse"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let listed = sessions(&app, &app.client).await;
    assert_eq!(listed.len(), 2);
    assert_eq!(listed.iter().filter(|s| s["current"] == true).count(), 1, "{listed:?}");
    let phone_session = listed.iter().find(|s| s["current"] == false).expect("the phone's session");
    assert!(phone_session["userAgent"].as_str().is_some_and(|ua| ua.contains("iPhone")));
    assert!(phone_session["ip"].as_str().is_some());
    let id = phone_session["id"].as_str().expect("id").to_owned();
    assert_eq!(id.len(), 24, "an id derived from the stored sid, not the sid itself");

    // Another account cannot revoke it.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let theirs = mallory.delete(app.url(&format!("/api/user/sessions/{id}"))).send().await.expect("request");
    assert_eq!(theirs.status(), 404);
    problem(theirs).await;
    assert_eq!(app.me(&phone).await.status(), 200);

    let own = listed.iter().find(|s| s["current"] == true).and_then(|s| s["id"].as_str()).expect("own id").to_owned();
    let refused = app.client.delete(app.url(&format!("/api/user/sessions/{own}"))).send().await.expect("request");
    assert_eq!(refused.status(), 422, "the current session ends by signing out");
    assert_eq!(fields(&problem(refused).await), ["id"]);
    assert_eq!(app.me(&app.client).await.status(), 200);
    assert_eq!(app.client.delete(app.url(&format!("/api/user/sessions/{id}"))).send().await.expect("request").status(), 204);
    assert_eq!(app.me(&phone).await.status(), 401, "the revoked browser is signed out");
    assert_eq!(sessions(&app, &app.client).await.len(), 1);
    assert_eq!(app.client.delete(app.url(&format!("/api/user/sessions/{id}"))).send().await.expect("request").status(), 404);
    assert_eq!(app.client.delete(app.url("/api/user/sessions/..%2F..%2Fetc")).send().await.expect("request").status(), 404);
}

async fn audit(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client.get(app.url("/api/user/audit")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn the_audit_log_records_sign_ins_failures_and_key_actions_for_its_owner_only(app: TestApp) {
    app.register().await;
    let attacker = TestApp::browser(&app.base);
    let failed = attacker
        .post(app.url("/api/auth/login"))
        .header("user-agent", "curl/8.0")
        .json(&json!({"email": "ada@example.com", "password": "guess-guess"}))
        .send()
        .await
        .expect("request");
    assert_eq!(failed.status(), 401);
    assert_eq!(app.login_with(&app.client, "ada@example.com", "correct-horse").await.status(), 200);
    let created = app.post_json(&app.client, "/api/api-keys", &json!({"name": "Bot"})).await;
    assert_eq!(created.status(), 201);
    let key: Value = created.json().await.expect("json");
    let id = key["apiKey"]["id"].as_str().expect("id");
    let toggled =
        app.client.patch(app.url(&format!("/api/api-keys/{id}/toggle"))).json(&json!({"isActive": false})).send().await.expect("request");
    assert_eq!(toggled.status(), 200);
    assert_eq!(app.client.delete(app.url(&format!("/api/api-keys/{id}"))).send().await.expect("request").status(), 204);

    let log = audit(&app, &app.client).await;
    let actions: Vec<&str> = log.iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(
        actions,
        ["api_key_deleted", "api_key_toggled", "api_key_created", "sign_in", "sign_in_failed", "plan_changed"],
        "newest first, the trial's start on confirming the address first of all: {log:?}"
    );
    let failure = log.iter().find(|e| e["action"] == "sign_in_failed").expect("failure");
    assert_eq!(failure["userAgent"], "curl/8.0");
    assert!(failure["ip"].as_str().is_some_and(|ip| ip.starts_with("127.")));
    assert_eq!(log[0]["detail"], "Bot");
    assert!(log.iter().all(|e| e["byAdministrator"] == false));
    // Paging: older than the third entry.
    let before = log[2]["at"].as_str().expect("at");
    let older: Vec<Value> =
        app.client.get(app.url("/api/user/audit")).query(&[("before", before)]).send().await.expect("request").json().await.expect("json");
    assert!(!older.is_empty() && older.iter().all(|e| instant(&e["at"]) < instant(&log[2]["at"])), "{older:?}");
    // Another user sees only their own.
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    let theirs = audit(&app, &other).await;
    let actions: Vec<&str> = theirs.iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["plan_changed"], "only Bob's own trial start: {theirs:?}");
    let bad = app.client.get(app.url("/api/user/audit?before=yesterday")).send().await.expect("request");
    assert_eq!(bad.status(), 422);
    assert_eq!(fields(&problem(bad).await), ["before"]);
}

async fn deleting_the_account_needs_the_password_and_removes_its_data(app: TestApp) {
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id").to_owned();
    let laptop = TestApp::browser(&app.base);
    assert_eq!(app.login_with(&laptop, "ada@example.com", "correct-horse").await.status(), 200);
    assert_eq!(app.post_json(&app.client, "/api/api-keys", &json!({"name": "Bot"})).await.status(), 201);
    let position = json!({"symbol": "AAPL", "companyName": "Apple Inc.", "type": "CALL", "strikePrice": 190.0,
                          "expirationDate": "2099-01-16", "quantity": 1, "entryPrice": 4.25});
    assert_eq!(app.post_json(&app.client, "/api/manual-positions", &position).await.status(), 201);

    let wrong = app.client.delete(app.url("/api/user")).json(&json!({"password": "nope-nope"})).send().await.expect("request");
    assert_eq!(wrong.status(), 422);
    assert_eq!(fields(&problem(wrong).await), ["password"]);
    assert_eq!(app.me(&app.client).await.status(), 200, "a refused deletion deletes nothing");

    let response = app.client.delete(app.url("/api/user")).json(&json!({"password": "correct-horse"})).send().await.expect("request");
    assert_eq!(response.status(), 204);
    let cookie = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert!(cookie.contains("Max-Age=0"), "the cookie is cleared: {cookie}");
    assert_eq!(app.me(&app.client).await.status(), 401);
    assert_eq!(app.me(&laptop).await.status(), 401, "every session has ended");
    assert_eq!(app.login_with(&TestApp::browser(&app.base), "ada@example.com", "correct-horse").await.status(), 401);
    assert!(strikeline_store::users::find_by_id(app.db(), &user_id).await.expect("read").is_none());
    assert!(strikeline_store::api_keys::list(app.db(), &user_id).await.expect("read").is_empty());
    assert!(strikeline_store::positions::manual_for(app.db(), &user_id).await.expect("read").is_empty());
    let recent = strikeline_store::audit::recent(app.db(), 10).await.expect("read");
    let deletion = recent.iter().find(|e| e.action == "account_deleted").expect("the deletion is recorded");
    assert_eq!(deletion.user_id, None);
    assert_eq!(deletion.detail.as_deref(), Some(format!("account {user_id}").as_str()));
    // The email can be registered again.
    assert_eq!(app.register_with(&TestApp::browser(&app.base), "ada@example.com", "ada", "correct-horse").await.status(), 201);
}
