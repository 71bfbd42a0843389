//! Issue 25, item 3 and row 5: one visibility rule for every outlet. A Pro user who generates
//! their day's 50 signals on demand has every automated signal of that day locked, and no
//! outlet shows one's terms: the signal list and detail, `/api/v1`, AI trade ideas,
//! notifications (and so their emails) and webhooks. A second Pro user with no signals of
//! their own sees and receives the same signals, so the test is not vacuous.

use serde_json::{Value, json};
use strikeline_server::services::notifying;
use strikeline_store::{outbox, signals as store, users};

use crate::common::{TestApp, signal_page, signal_row};

on_both_engines_with!(local_receivers, crate::webhook_plans::with_local_receivers;
    a_user_whose_own_signals_use_the_quota_sees_no_locked_terms_anywhere,
);

/// Registers `email` on its own client (a Pro trial), with a `new_signal` webhook and a read key.
async fn pro_with_outlets(app: &TestApp, email: &str, username: &str) -> (reqwest::Client, String, String, String) {
    let client = TestApp::browser(&app.base);
    let response = app.register_with(&client, email, username, "correct-horse").await;
    assert_eq!(response.status(), 201);
    let user: Value = app.me(&client).await.json().await.expect("json");
    assert_eq!(user["subscriptionPlan"], "pro");
    let created = app.post_json(&client, "/api/webhooks", &json!({"eventType": "new_signal", "url": "http://127.0.0.1:9/hook"})).await;
    assert_eq!(created.status(), 201);
    let endpoint = created.json::<Value>().await.expect("json")["webhookId"].as_str().expect("id").to_owned();
    let key = app.post_json(&client, "/api/api-keys", &json!({"name": "bot", "permissions": "read"})).await;
    assert_eq!(key.status(), 201);
    let key = key.json::<Value>().await.expect("json")["key"].as_str().expect("key").to_owned();
    (client, user["id"].as_str().expect("id").to_owned(), endpoint, key)
}

async fn a_user_whose_own_signals_use_the_quota_sees_no_locked_terms_anywhere(app: TestApp) {
    let (ada, ada_id, ada_endpoint, ada_key) = pro_with_outlets(&app, "ada@example.com", "ada").await;
    let (bob, _, bob_endpoint, bob_key) = pro_with_outlets(&app, "bob@example.com", "bob").await;
    let day = app.issue_day();
    // Ada uses her whole day on signals of her own.
    for i in 0..50 {
        let own = signal_row("ZZZZ", 60, day, 100 + i, Some(&ada_id));
        assert!(store::insert_on_demand_within(app.db(), &own, Some(50)).await.expect("insert"));
    }
    // Then the engine issues eight automated signals on watchlist symbols.
    let stocks = strikeline_store::market::list_stocks(app.db()).await.expect("stocks");
    assert!(stocks.len() >= 8, "the watchlist is seeded");
    let rows: Vec<_> = stocks.iter().take(8).enumerate().map(|(i, s)| signal_row(&s.symbol, 70 + i as i64, day, i as i64, None)).collect();
    let automated: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let symbols: Vec<String> = rows.iter().map(|r| r.symbol.clone()).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    notifying::new_signals(&app.state, &automated, app.now()).await.expect("announce");

    // The signal list: every automated signal locked for Ada, none for Bob.
    for (client, locked) in [(&ada, true), (&bob, false)] {
        let listed = signal_page(&app, client, "").await;
        for s in listed.iter().filter(|s| automated.iter().any(|id| s["id"] == id.as_str())) {
            assert_eq!(s["locked"], locked, "{s}");
            assert_eq!(s.get("strikePrice").is_some(), !locked, "{s}");
        }
    }
    // The detail: 403 for Ada, 200 for Bob.
    let detail = |client: &reqwest::Client| client.get(app.url(&format!("/api/signals/{}/analysis", automated[0]))).send();
    assert_eq!(detail(&ada).await.expect("detail").status(), 403);
    assert_eq!(detail(&bob).await.expect("detail").status(), 200);

    // /api/v1: Ada's key lists no automated signal's terms, Bob's lists all eight.
    for (key, expected) in [(&ada_key, 0), (&bob_key, 8)] {
        for path in ["/api/v1/signals", "/api/v1/signals/active"] {
            let response = reqwest::Client::new().get(app.url(path)).bearer_auth(key).send().await.expect("v1");
            assert_eq!(response.status(), 200, "{path}");
            let body: Value = response.json().await.expect("json");
            let list: Vec<Value> = match body.get("activeSignals") {
                Some(active) => active.as_array().expect("active").clone(),
                None => body["signals"].as_array().expect("signals").clone(),
            };
            let with_terms = list
                .iter()
                .filter(|s| automated.iter().any(|id| s["id"] == id.as_str()))
                .filter(|s| s.get("strikePrice").is_some_and(|v| !v.is_null()))
                .count();
            assert_eq!(with_terms, expected, "{path}: {body}");
        }
    }

    // AI trade ideas: none of the locked signals for Ada; Bob gets ideas from them.
    let ideas = |client: &reqwest::Client| client.get(app.url("/api/ai/recommendations?type=trade")).send();
    let ada_ideas: Vec<Value> = ideas(&ada).await.expect("ideas").json().await.expect("json");
    assert!(ada_ideas.iter().all(|r| !symbols.iter().any(|s| r["symbol"] == s.as_str())), "{ada_ideas:?}");
    let bob_ideas: Vec<Value> = ideas(&bob).await.expect("ideas").json().await.expect("json");
    // (Ideas on a symbol; "no idea fits your maximum position size" names none.)
    let bob_ideas: Vec<&Value> = bob_ideas.iter().filter(|r| !r["symbol"].is_null()).collect();
    assert!(!bob_ideas.is_empty() && bob_ideas.iter().all(|r| symbols.iter().any(|s| r["symbol"] == s.as_str())), "{bob_ideas:?}");

    // Webhooks: nothing queued for Ada's endpoint, eight new_signal messages for Bob's.
    let queued = outbox::newest(app.db(), "webhook", 100).await.expect("outbox");
    let to = |endpoint: &str| queued.iter().filter(|m| m.endpoint_id.as_deref() == Some(endpoint) && m.topic == "new_signal").count();
    assert_eq!((to(&ada_endpoint), to(&bob_endpoint)), (0, 8));

    // Notifications (and the emails made from them): none for Ada, one for Bob.
    let ada_user = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let bob_user = users::find_by_email(app.db(), "bob@example.com").await.expect("query").expect("bob");
    let ada_notes = strikeline_store::notifications::list(app.db(), &ada_user.id, 50).await.expect("notifications");
    assert!(ada_notes.iter().all(|n| n.kind != "new_signals"), "{ada_notes:?}");
    let bob_notes = strikeline_store::notifications::list(app.db(), &bob_user.id, 50).await.expect("notifications");
    assert_eq!(bob_notes.iter().filter(|n| n.kind == "new_signals").count(), 1);
    let mails = outbox::newest(app.db(), "email", 100).await.expect("outbox");
    assert!(mails.iter().all(|m| m.user_id != ada_user.id || m.topic != "new_signals"));
}
