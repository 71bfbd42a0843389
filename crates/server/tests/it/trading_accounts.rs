//! Trading accounts (issue 29; docs/accounts.md): a Premium user opens up to ten, switches the
//! current one and works in it (positions, preferences); Free and Pro hold one; every field is
//! checked and nothing is stored from a refused request; another user's account id finds
//! nothing; parallel openings stop at the plan's number; and the automation opens positions in
//! every automated account the plan holds, each sized by its own preferences. A key scoped to
//! an account reads that account whatever is current; an endpoint scoped to one hears only of
//! its positions.

use chrono::Duration;
use serde_json::{Value, json};
use strikeline_store::{signals as store, users};

use crate::common::{TestApp, fields, problem, signal_row};

on_both_engines!(
    a_premium_user_opens_switches_and_works_in_accounts,
    free_and_pro_hold_one_account_and_bad_fields_are_named,
    parallel_openings_stop_at_the_plans_number,
    the_automation_works_in_each_automated_account_the_plan_holds,
);

on_both_engines_with!(local_webhooks, crate::webhooks::with_local_webhooks;
    keys_and_webhooks_scoped_to_an_account_reach_that_account_alone,
);

async fn as_plan(app: &TestApp, plan: &str) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
    id
}

async fn accounts(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/accounts")).send().await.expect("list");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn switch(app: &TestApp, client: &reqwest::Client, id: &str) -> reqwest::Response {
    client.put(app.url("/api/accounts/current")).json(&json!({"id": id})).send().await.expect("switch")
}

fn manual_position() -> Value {
    let expiration = (crate::common::today() + Duration::days(40)).format("%Y-%m-%d").to_string();
    json!({
        "symbol": "AAPL", "companyName": "Apple Inc.", "type": "CALL", "strikePrice": 250.0,
        "expirationDate": expiration, "quantity": 1, "entryPrice": 12.0, "status": "open"
    })
}

async fn manual_count(app: &TestApp, client: &reqwest::Client) -> usize {
    let list: Vec<Value> = client.get(app.url("/api/manual-positions")).send().await.expect("list").json().await.expect("json");
    list.len()
}

async fn a_premium_user_opens_switches_and_works_in_accounts(app: TestApp) {
    as_plan(&app, "premium").await;
    let first = accounts(&app, &app.client).await;
    assert_eq!(first["maxAccounts"], 10);
    let main = &first["accounts"][0];
    assert_eq!((main["name"].as_str(), main["current"].as_bool(), main["withinPlan"].as_bool()), (Some("Main"), Some(true), Some(true)));
    let main_id = main["id"].as_str().expect("id").to_owned();

    let body = json!({"name": "  IRA ", "investmentCapital": 50000, "riskTolerance": "low", "maxPositionSize": 5000,
                      "preferredStrategies": ["Volatility", "Momentum", "Volatility"], "automate": false});
    let response = app.post_json(&app.client, "/api/accounts", &body).await;
    assert_eq!(response.status(), 201);
    let ira: Value = response.json().await.expect("json");
    assert_eq!(ira["name"], "IRA", "trimmed");
    assert_eq!((ira["investmentCapital"].as_f64(), ira["maxPositionSize"].as_f64()), (Some(50_000.0), Some(5_000.0)));
    assert_eq!(ira["preferredStrategies"], json!(["Volatility", "Momentum"]), "each once, in the order given");
    assert_eq!((ira["current"].as_bool(), ira["automate"].as_bool()), (Some(false), Some(false)), "opened, not switched to");
    let ira_id = ira["id"].as_str().expect("id").to_owned();
    let taken = app.post_json(&app.client, "/api/accounts", &json!({"name": "ira"})).await;
    assert_eq!(taken.status(), 409, "a name is unique whatever its case");
    assert_eq!(fields(&problem(taken).await), ["name"]);

    // A position entered in Main stays in Main; the IRA starts empty and holds its own.
    assert_eq!(app.post_json(&app.client, "/api/manual-positions", &manual_position()).await.status(), 201);
    let switched = switch(&app, &app.client, &ira_id).await;
    assert_eq!(switched.status(), 200);
    assert_eq!(switched.json::<Value>().await.expect("json")["current"], true);
    assert_eq!(manual_count(&app, &app.client).await, 0, "the IRA's portfolio is its own");
    let me: Value = app.me(&app.client).await.json().await.expect("json");
    assert_eq!((me["investmentCapital"].as_f64(), me["riskTolerance"].as_str()), (Some(50_000.0), Some("low")), "preferences follow");
    let response = app.client.patch(app.url("/api/user/preferences")).json(&json!({"investmentCapital": 60000})).send().await;
    assert_eq!(response.expect("patch").status(), 200);
    assert_eq!(app.post_json(&app.client, "/api/manual-positions", &manual_position()).await.status(), 201);
    assert_eq!(manual_count(&app, &app.client).await, 1);
    let listed = accounts(&app, &app.client).await;
    let by_id = |id: &str| listed["accounts"].as_array().expect("list").iter().find(|a| a["id"] == id).cloned().expect("listed");
    assert_eq!(by_id(&ira_id)["investmentCapital"], 60_000.0, "Settings changed the current account");
    assert_eq!(by_id(&main_id)["investmentCapital"], 1_000.0, "and not Main");
    assert_eq!(by_id(&main_id)["current"], false);

    // The current account and one holding open positions are kept; a renamed one reads back.
    let current = app.client.delete(app.url(&format!("/api/accounts/{ira_id}"))).send().await.expect("delete");
    assert_eq!(current.status(), 409);
    assert_eq!(switch(&app, &app.client, &main_id).await.status(), 200);
    assert_eq!(manual_count(&app, &app.client).await, 1, "Main's position, not the IRA's");
    let busy = app.client.delete(app.url(&format!("/api/accounts/{ira_id}"))).send().await.expect("delete");
    assert_eq!(busy.status(), 409);
    assert!(problem(busy).await["detail"].as_str().unwrap_or_default().contains("open positions"));
    let renamed = app.client.patch(app.url(&format!("/api/accounts/{ira_id}"))).json(&json!({"name": "Roth IRA", "automate": true})).send();
    let renamed: Value = renamed.await.expect("patch").json().await.expect("json");
    assert_eq!((renamed["name"].as_str(), renamed["automate"].as_bool()), (Some("Roth IRA"), Some(true)));

    // Another user reaches nothing of it, whatever the verb.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let path = app.url(&format!("/api/accounts/{ira_id}"));
    assert_eq!(mallory.patch(&path).json(&json!({"name": "Mine"})).send().await.expect("patch").status(), 404);
    assert_eq!(mallory.delete(&path).send().await.expect("delete").status(), 404);
    assert_eq!(switch(&app, &mallory, &ira_id).await.status(), 404);
    assert_eq!(accounts(&app, &mallory).await["accounts"].as_array().map(Vec::len), Some(1), "mallory sees her own only");
    assert_eq!(accounts(&app, &app.client).await["accounts"][1]["name"], "Roth IRA", "untouched");

    // Signed out: 401.
    let anonymous = TestApp::browser(&app.base);
    assert_eq!(anonymous.get(app.url("/api/accounts")).send().await.expect("get").status(), 401);
}

async fn free_and_pro_hold_one_account_and_bad_fields_are_named(app: TestApp) {
    let id = as_plan(&app, "pro").await;
    let refused = app.post_json(&app.client, "/api/accounts", &json!({"name": "IRA"})).await;
    assert_eq!(refused.status(), 403, "Pro holds one account");
    assert!(problem(refused).await["detail"].as_str().unwrap_or_default().contains("Premium"));
    assert_eq!(accounts(&app, &app.client).await["maxAccounts"], 1);
    users::set_subscription(app.db(), &id, "premium", "active", None, app.now()).await.expect("premium");
    let long = "x".repeat(41);
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"name": long}), "name"),
        (json!({"name": "Tab\there"}), "name"),
        (json!({"name": "A", "investmentCapital": -5}), "investmentCapital"),
        (json!({"name": "A", "investmentCapital": 1e300}), "investmentCapital"),
        (json!({"name": "A", "investmentCapital": 100.001}), "investmentCapital"),
        (json!({"name": "A", "investmentCapital": 1000, "maxPositionSize": 2000}), "maxPositionSize"),
        (json!({"name": "A", "riskTolerance": "reckless"}), "riskTolerance"),
        (json!({"name": "A", "preferredStrategies": ["Nope"]}), "preferredStrategies[0]"),
        (json!({"name": 5}), "name"),
    ];
    for (body, field) in cases {
        let response = app.post_json(&app.client, "/api/accounts", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let named = fields(&problem(response).await);
        assert!(named.iter().any(|f| f == field), "{body}: {named:?}");
    }
    assert!(app.post_json(&app.client, "/api/accounts", &json!({"name": "A", "colour": "red"})).await.status().is_client_error());
    assert_eq!(accounts(&app, &app.client).await["accounts"].as_array().map(Vec::len), Some(1), "nothing stored");
    let main_id = accounts(&app, &app.client).await["accounts"][0]["id"].as_str().expect("id").to_owned();
    let path = app.url(&format!("/api/accounts/{main_id}"));
    let response = app.client.patch(&path).json(&json!({"maxPositionSize": 5000})).send().await.expect("patch");
    assert_eq!(response.status(), 422, "more than Main's $1,000 of capital");
    assert_eq!(fields(&problem(response).await), ["maxPositionSize"]);
    assert_eq!(switch(&app, &app.client, "no-such-account").await.status(), 404);
    let missing = app.client.put(app.url("/api/accounts/current")).json(&json!({})).send().await.expect("put");
    assert_eq!(missing.status(), 422);
}

async fn parallel_openings_stop_at_the_plans_number(app: TestApp) {
    as_plan(&app, "premium").await;
    let bodies: Vec<Value> = (0..14).map(|i| json!({"name": format!("Account {i}")})).collect();
    let requests = bodies.iter().map(|body| app.post_json(&app.client, "/api/accounts", body));
    let statuses: Vec<u16> = futures_util::future::join_all(requests).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 9, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 201 || *s == 409), "{statuses:?}");
    assert_eq!(accounts(&app, &app.client).await["accounts"].as_array().map(Vec::len), Some(10));
}

async fn the_automation_works_in_each_automated_account_the_plan_holds(app: TestApp) {
    let id = as_plan(&app, "premium").await;
    let main = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Momentum"});
    let response = app.client.patch(app.url("/api/user/preferences")).json(&main).send().await.expect("patch");
    assert_eq!(response.status(), 200);
    let body = json!({"name": "Aggressive", "investmentCapital": 100000, "riskTolerance": "high", "maxPositionSize": 20000,
                      "preferredStrategies": ["Momentum"]});
    let aggressive: Value = app.post_json(&app.client, "/api/accounts", &body).await.json().await.expect("json");
    let aggressive_id = aggressive["id"].as_str().expect("id").to_owned();
    let off = json!({"name": "Hands off", "preferredStrategies": ["Momentum"], "automate": false});
    assert_eq!(app.post_json(&app.client, "/api/accounts", &off).await.status(), 201);
    let today = app.today();
    let mut momentum = signal_row("MOM", 90, today, 3, None);
    momentum.strategy = "Momentum".into();
    store::issue_automated(app.db(), &[momentum]).await.expect("issue");
    let tick = || strikeline_server::services::execution::automated::execute(&app.state, app.now());
    assert_eq!(tick().await.expect("tick"), 2, "Main and Aggressive, not the account whose automation is off");
    assert_eq!(tick().await.expect("tick"), 0, "once per account and signal");
    let held = |client: &reqwest::Client| {
        let url = app.url("/api/portfolio/positions");
        let client = client.clone();
        async move { client.get(url).send().await.expect("request").json::<Vec<Value>>().await.expect("json") }
    };
    let in_main = held(&app.client).await;
    assert_eq!(in_main.len(), 1);
    assert_eq!(switch(&app, &app.client, &aggressive_id).await.status(), 200);
    let in_aggressive = held(&app.client).await;
    assert_eq!(in_aggressive.len(), 1);
    let quantity = |rows: &[Value]| rows[0]["quantity"].as_i64().expect("quantity");
    assert!(quantity(&in_aggressive) > quantity(&in_main), "each account sized by its own capital and maximum position");

    // On Pro the plan holds the oldest account only: a new signal opens in Main alone.
    users::set_subscription(app.db(), &id, "pro", "active", None, app.now()).await.expect("pro");
    let listed = accounts(&app, &app.client).await;
    let within: Vec<bool> = listed["accounts"].as_array().expect("list").iter().map(|a| a["withinPlan"].as_bool().expect("bool")).collect();
    assert_eq!(within, [true, false, false]);
    let mut next = signal_row("NXT", 90, today, 1, None);
    next.strategy = "Momentum".into();
    store::issue_automated(app.db(), &[next]).await.expect("issue");
    assert_eq!(tick().await.expect("tick"), 1, "Main only");
    assert_eq!(held(&app.client).await.len(), 1, "nothing new in Aggressive, whose positions stay");
}

async fn keys_and_webhooks_scoped_to_an_account_reach_that_account_alone(app: TestApp) {
    as_plan(&app, "premium").await;
    let main = json!({"investmentCapital": 10000, "maxPositionSize": 1000, "preferredStrategies": "Momentum"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&main).send().await.expect("patch").status(), 200);
    let body = json!({"name": "IRA", "investmentCapital": 50000, "maxPositionSize": 5000, "preferredStrategies": ["Momentum"]});
    let ira: Value = app.post_json(&app.client, "/api/accounts", &body).await.json().await.expect("json");
    let ira_id = ira["id"].as_str().expect("id").to_owned();

    // Keys: one scoped to the IRA, one following the current account (Main).
    let created = app.post_json(&app.client, "/api/api-keys", &json!({"name": "IRA bot", "accountId": ira_id})).await;
    assert_eq!(created.status(), 201);
    let scoped: Value = created.json().await.expect("json");
    assert_eq!(scoped["apiKey"]["accountId"], ira_id.as_str());
    let follows: Value = app.post_json(&app.client, "/api/api-keys", &json!({"name": "Any"})).await.json().await.expect("json");
    assert_eq!(follows["apiKey"]["accountId"], Value::Null);
    let capital_seen_by = |key: &Value| {
        let key = key["key"].as_str().expect("key").to_owned();
        let url = app.url("/api/v1/portfolio/metrics");
        async move {
            let metrics: Value =
                reqwest::Client::new().get(url).bearer_auth(key).send().await.expect("metrics").json().await.expect("json");
            metrics["summary"]["totalValue"].as_f64().expect("total value")
        }
    };
    assert_eq!(capital_seen_by(&scoped).await, 50_000.0, "the IRA, though Main is current");
    assert_eq!(capital_seen_by(&follows).await, 10_000.0, "Main, the current account");
    assert_eq!(switch(&app, &app.client, &ira_id).await.status(), 200);
    assert_eq!(capital_seen_by(&follows).await, 50_000.0, "the unscoped key follows the switch");

    // Another user's account, or none of ours, is refused by name and nothing is stored.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let theirs = app.post_json(&mallory, "/api/api-keys", &json!({"name": "Sneaky", "accountId": ira_id})).await;
    assert_eq!(theirs.status(), 422);
    assert_eq!(fields(&problem(theirs).await), ["accountId"]);
    let keys: Vec<Value> = mallory.get(app.url("/api/api-keys")).send().await.expect("keys").json().await.expect("json");
    assert!(keys.is_empty());

    // Webhooks: one for the IRA's closed positions, one for every account's.
    let (url, _) = crate::webhooks::receiver(vec![200]).await;
    let hook = |account: Option<&str>| {
        let mut body = json!({"eventType": "position_closed", "url": url});
        if let Some(id) = account {
            body["accountId"] = json!(id);
        }
        body
    };
    let response = app.post_json(&app.client, "/api/webhooks", &hook(Some(&ira_id))).await;
    assert_eq!(response.status(), 201);
    let scoped_hook = response.json::<Value>().await.expect("json")["webhookId"].as_str().expect("id").to_owned();
    let response = app.post_json(&app.client, "/api/webhooks", &hook(None)).await;
    let every_hook = response.json::<Value>().await.expect("json")["webhookId"].as_str().expect("id").to_owned();
    let refused = app.post_json(&app.client, "/api/webhooks", &hook(Some("no-such-account"))).await;
    assert_eq!(refused.status(), 422);
    assert_eq!(fields(&problem(refused).await), ["accountId"]);

    // A signal held in both accounts closes: the scoped endpoint hears of the IRA's position only.
    let mut signal = signal_row("MOM", 90, app.today(), 3, None);
    signal.strategy = "Momentum".into();
    store::issue_automated(app.db(), &[signal.clone()]).await.expect("issue");
    let opened = strikeline_server::services::execution::automated::execute(&app.state, app.now()).await;
    assert!(opened.expect("tick") >= 2, "Main and the IRA (and the simulated market's own signals)");
    let close = store::SignalMark {
        id: signal.id.clone(),
        current_option_cents: signal.entry_cents * 2,
        current_price_cents: 10_500,
        previous_close_cents: 10_000,
        pnl_cents: signal.entry_cents,
        pnl_percent: 100.0,
        close: Some(("closed".into(), "target".into())),
        net_pnl_cents: None,
        at: app.now(),
    };
    store::apply_marks(app.db(), &[close]).await.expect("close");
    strikeline_server::services::portfolio_settlement::settle_positions(&app.state, app.now()).await.expect("settle");
    let db = app.db().clone();
    let payloads = |endpoint: String| {
        let db = db.clone();
        async move {
            let sql = "SELECT payload FROM outbox WHERE endpoint_id = $1 AND topic = 'position_closed'";
            let rows: Vec<String> =
                strikeline_store::with_db!(&db, pool => sqlx::query_scalar(sql).bind(&endpoint).fetch_all(pool).await.expect("outbox"));
            rows.iter().map(|p| serde_json::from_str::<Value>(p).expect("payload")["data"]["account"]["name"].clone()).collect::<Vec<_>>()
        }
    };
    assert_eq!(payloads(scoped_hook).await, [json!("IRA")], "the scoped endpoint: the IRA's position alone");
    let mut every = payloads(every_hook).await;
    every.sort_by_key(|v| v.as_str().unwrap_or_default().to_owned());
    assert_eq!(every, [json!("IRA"), json!("Main")], "the other: both");
    let notes: Value = app.client.get(app.url("/api/notifications")).send().await.expect("notes").json().await.expect("json");
    let bodies: Vec<String> =
        notes["notifications"].as_array().expect("list").iter().map(|n| n["body"].as_str().unwrap_or_default().to_owned()).collect();
    assert!(bodies.iter().any(|b| b.contains("position in IRA closed")), "{bodies:?}");
    assert!(bodies.iter().any(|b| b.contains("position in Main closed")), "{bodies:?}");
}
