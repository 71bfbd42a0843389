//! API keys and the public API (`/api/v1`): a key is shown once and stored only as its hash;
//! bearer keys authenticate; permissions, plans and limits gate; answers carry the same data as
//! the app's. Each on both engines.

use chrono::Utc;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use strikeline_store::signals as store;

use crate::common::{TestApp, fields, problem, signal_row};

on_both_engines!(
    a_key_is_shown_once_and_stored_only_as_its_hash,
    key_requests_are_validated_and_only_the_owner_reaches_a_key,
    bearer_keys_authenticate_and_permissions_gate,
    free_keys_read_only_and_the_101st_request_of_the_hour_is_429,
    the_signal_list_pages_by_offset_and_cursor_with_a_total,
    active_signals_stats_and_stock_prices_answer_for_a_key,
);

on_both_engines_with!(limits_raised, crate::public_api::raise_key_creation_limit;
    at_most_twenty_keys_even_when_requested_at_once,
);

on_both_engines_with!(with_market, crate::common::with_market;
    a_write_key_generates_and_creates_signals_within_the_rules,
    portfolio_metrics_answer_by_period_with_the_apps_figures,
);

pub fn raise_key_creation_limit(config: &mut strikeline_server::foundation::config::Config) {
    config
        .limits
        .insert("api_key_create".into(), strikeline_server::foundation::config::LimitOverride { quota: 1000, window_seconds: 3600 });
}

async fn create_key(app: &TestApp, client: &reqwest::Client, body: &Value) -> Value {
    let response = app.post_json(client, "/api/api-keys", body).await;
    assert_eq!(response.status(), 201, "{body}");
    response.json().await.expect("json")
}

fn bearer(app: &TestApp, key: &str, path: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new().get(app.url(path)).bearer_auth(key)
}

async fn a_key_is_shown_once_and_stored_only_as_its_hash(app: TestApp) {
    app.register().await;
    let created = create_key(&app, &app.client, &json!({"name": "  Trading bot ", "permissions": "write", "expiresIn": "90"})).await;
    let key = created["key"].as_str().expect("key").to_owned();
    assert!(key.starts_with("slk_") && key.len() == 47, "{key}");
    let shown = &created["apiKey"];
    assert_eq!(shown["name"], "Trading bot");
    assert_eq!(shown["permissions"], "write");
    assert_eq!(shown["isActive"], true);
    assert_eq!(shown["expired"], false);
    assert_eq!(shown["keyPrefix"].as_str(), Some(&key[..12]));
    let expires = chrono::DateTime::parse_from_rfc3339(shown["expiresAt"].as_str().expect("expiry")).expect("time");
    let days = (expires.with_timezone(&Utc) - app.now()).num_hours() as f64 / 24.0;
    assert!((89.9..=90.1).contains(&days), "{days}");
    // Never again: not in the list, not in the database.
    let list = app.client.get(app.url("/api/api-keys")).send().await.expect("request").text().await.expect("text");
    assert!(!list.contains(&key) && list.contains("Trading bot"));
    let hex: String = Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let stored = strikeline_store::api_keys::find_by_hash(app.db(), &hex).await.expect("read").expect("stored by its hash");
    assert_eq!(stored.0.key_prefix, &key[..12]);
    let dump = format!("{:?}", strikeline_store::api_keys::list(app.db(), &stored.1.id).await.expect("read"));
    assert!(!dump.contains(&key[12..]), "the secret part is stored nowhere");
    // Defaults: read, never expires.
    let plain = create_key(&app, &app.client, &json!({"name": "Reader"})).await;
    assert_eq!((plain["apiKey"]["permissions"].as_str(), plain["apiKey"]["expiresAt"].is_null()), (Some("read"), true));
}

async fn key_requests_are_validated_and_only_the_owner_reaches_a_key(app: TestApp) {
    app.register().await;
    for (body, field) in [
        (json!({"name": "   "}), "name"),
        (json!({"name": "x".repeat(65)}), "name"),
        (json!({"name": "ok", "permissions": "root"}), "permissions"),
        (json!({"name": "ok", "expiresIn": "7"}), "expiresIn"),
        (json!({"name": "ok", "expiresIn": 30}), "expiresIn"),
        (json!({"name": "ok", "owner": "someone"}), "owner"),
    ] {
        let response = app.post_json(&app.client, "/api/api-keys", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let problem = problem(response).await;
        assert_eq!(fields(&problem), [field], "{body}");
        if body["name"] == "   " {
            assert_eq!(problem["detail"], "Please enter a name for your API key");
        }
    }
    let list: Vec<Value> = app.client.get(app.url("/api/api-keys")).send().await.expect("request").json().await.expect("json");
    assert!(list.is_empty(), "nothing of a refused request is stored");

    let created = create_key(&app, &app.client, &json!({"name": "Mine"})).await;
    let id = created["apiKey"]["id"].as_str().expect("id");
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let toggle =
        mallory.patch(app.url(&format!("/api/api-keys/{id}/toggle"))).json(&json!({"isActive": false})).send().await.expect("request");
    assert_eq!(toggle.status(), 404);
    assert_eq!(mallory.delete(app.url(&format!("/api/api-keys/{id}"))).send().await.expect("request").status(), 404);
    let theirs: Vec<Value> = mallory.get(app.url("/api/api-keys")).send().await.expect("request").json().await.expect("json");
    assert!(theirs.is_empty());
    assert_eq!(
        bearer(&app, created["key"].as_str().expect("key"), "/api/v1/stats").send().await.expect("request").status(),
        200,
        "still works"
    );
    let signed_out = TestApp::browser(&app.base);
    assert_eq!(signed_out.get(app.url("/api/api-keys")).send().await.expect("request").status(), 401);
}

async fn at_most_twenty_keys_even_when_requested_at_once(app: TestApp) {
    app.register().await;
    let bodies: Vec<Value> = (0..30).map(|i| json!({"name": format!("key {i}")})).collect();
    let requests = bodies.iter().map(|body| app.post_json(&app.client, "/api/api-keys", body));
    let statuses: Vec<u16> = futures_util::future::join_all(requests).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 20, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 10, "{statuses:?}");
    let list: Vec<Value> = app.client.get(app.url("/api/api-keys")).send().await.expect("request").json().await.expect("json");
    assert_eq!(list.len(), 20);
}

async fn bearer_keys_authenticate_and_permissions_gate(app: TestApp) {
    app.register().await;
    let read = create_key(&app, &app.client, &json!({"name": "Reader"})).await;
    let key = read["key"].as_str().expect("key").to_owned();
    let id = read["apiKey"]["id"].as_str().expect("id").to_owned();

    let ok = bearer(&app, &key, "/api/v1/stats").send().await.expect("request");
    assert_eq!(ok.status(), 200);
    let policies: Vec<&str> = ok.headers().get_all("ratelimit-policy").iter().filter_map(|v| v.to_str().ok()).collect();
    assert_eq!(policies, ["\"api_hour_pro\";q=1000;w=3600", "\"api_stats\";q=100;w=60"], "the trial is Pro");
    let stats: Value = ok.json().await.expect("json");
    assert!(stats["activeSignals"].is_number());
    // lastUsed is recorded.
    let list: Vec<Value> = app.client.get(app.url("/api/api-keys")).send().await.expect("request").json().await.expect("json");
    assert!(list[0]["lastUsed"].is_string());

    // No key, a malformed one, an unknown one: 401 with a Bearer challenge.
    for auth in [None, Some("Basic Zm9vOmJhcg=="), Some("Bearer "), Some("Bearer slk_unknown"), Some("Bearer not-a-key")] {
        let mut request = reqwest::Client::new().get(app.url("/api/v1/stats"));
        if let Some(value) = auth {
            request = request.header("authorization", value);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status(), 401, "{auth:?}");
        assert!(response.headers().get("www-authenticate").and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("Bearer")));
        problem(response).await;
    }
    // A session cookie is not a key.
    assert_eq!(app.client.get(app.url("/api/v1/stats")).send().await.expect("request").status(), 401);

    // A read key writing: 403.
    let write = reqwest::Client::new()
        .post(app.url("/api/v1/signals/generate"))
        .bearer_auth(&key)
        .json(&json!({"symbol": "AAPL"}))
        .send()
        .await
        .expect("request");
    assert_eq!(write.status(), 403);
    assert!(problem(write).await["detail"].as_str().is_some_and(|d| d.contains("only read")));

    // Switched off: 401; on again: 200.
    let off =
        app.client.patch(app.url(&format!("/api/api-keys/{id}/toggle"))).json(&json!({"isActive": false})).send().await.expect("request");
    assert_eq!(off.status(), 200);
    assert_eq!(off.json::<Value>().await.expect("json")["isActive"], false);
    let inactive = bearer(&app, &key, "/api/v1/stats").send().await.expect("request");
    assert_eq!(inactive.status(), 401);
    assert!(problem(inactive).await["detail"].as_str().is_some_and(|d| d.contains("inactive")));
    app.client.patch(app.url(&format!("/api/api-keys/{id}/toggle"))).json(&json!({"isActive": true})).send().await.expect("request");
    assert_eq!(bearer(&app, &key, "/api/v1/stats").send().await.expect("request").status(), 200);

    // Expired: 401, shown as expired, and cannot be switched on.
    let expiring = create_key(&app, &app.client, &json!({"name": "Short", "expiresIn": "30"})).await;
    let expiring_id = expiring["apiKey"]["id"].as_str().expect("id");
    let past = app.now() - chrono::Duration::minutes(1);
    set_expiry(&app, expiring_id, past).await;
    let expired = bearer(&app, expiring["key"].as_str().expect("key"), "/api/v1/stats").send().await.expect("request");
    assert_eq!(expired.status(), 401);
    assert!(problem(expired).await["detail"].as_str().is_some_and(|d| d.contains("expired")));
    let list: Vec<Value> = app.client.get(app.url("/api/api-keys")).send().await.expect("request").json().await.expect("json");
    assert_eq!(list.iter().find(|k| k["id"] == expiring_id).expect("listed")["expired"], true);
    let toggle = app
        .client
        .patch(app.url(&format!("/api/api-keys/{expiring_id}/toggle")))
        .json(&json!({"isActive": true}))
        .send()
        .await
        .expect("request");
    assert_eq!(toggle.status(), 422);
    assert_eq!(fields(&problem(toggle).await), ["isActive"]);

    // Deleted: 401 for good.
    assert_eq!(app.client.delete(app.url(&format!("/api/api-keys/{id}"))).send().await.expect("request").status(), 204);
    assert_eq!(bearer(&app, &key, "/api/v1/stats").send().await.expect("request").status(), 401);
}

async fn set_expiry(app: &TestApp, id: &str, at: chrono::DateTime<Utc>) {
    match app.db() {
        strikeline_store::Db::Sqlite(pool) => {
            sqlx::query("UPDATE api_keys SET expires_at = $1 WHERE id = $2").bind(at).bind(id).execute(pool).await.expect("update");
        }
        strikeline_store::Db::Postgres(pool) => {
            sqlx::query("UPDATE api_keys SET expires_at = $1 WHERE id = $2").bind(at).bind(id).execute(pool).await.expect("update");
        }
    }
}

async fn free_keys_read_only_and_the_101st_request_of_the_hour_is_429(app: TestApp) {
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id");
    strikeline_store::users::set_subscription(app.db(), user_id, "free", "active", None, app.now()).await.expect("free");
    let created = create_key(&app, &app.client, &json!({"name": "Admin key", "permissions": "admin"})).await;
    let key = created["key"].as_str().expect("key").to_owned();
    let client = reqwest::Client::new();
    let generate =
        client.post(app.url("/api/v1/signals/generate")).bearer_auth(&key).json(&json!({"symbol": "AAPL"})).send().await.expect("request");
    assert_eq!(generate.status(), 403);
    assert!(problem(generate).await["detail"].as_str().is_some_and(|d| d.contains("Pro")), "names the plan");
    // The plan is judged before the fields: a bad symbol from Free is the same 403, not a 422.
    let bad = client
        .post(app.url("/api/v1/signals/generate"))
        .bearer_auth(&key)
        .json(&json!({"symbol": "not a ticker", "strategies": []}))
        .send()
        .await
        .expect("request");
    assert_eq!(bad.status(), 403);
    let metrics = bearer(&app, &key, "/api/v1/portfolio/metrics").send().await.expect("request");
    assert_eq!(metrics.status(), 403, "portfolio metrics are a Pro endpoint");
    assert!(problem(metrics).await["detail"].as_str().is_some_and(|d| d.contains("Pro")));
    // A refused write is not counted (the refused read above is): 99 reads pass, the next is refused.
    for i in 0..99 {
        let response = bearer(&app, &key, "/api/v1/stock-prices").send().await.expect("request");
        assert_eq!(response.status(), 200, "request {i}");
    }
    let refused = bearer(&app, &key, "/api/v1/stock-prices").send().await.expect("request");
    assert_eq!(refused.status(), 429);
    let retry: u64 = refused.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).expect("Retry-After");
    assert!((1..=36).contains(&retry), "{retry}");
    let policy = refused.headers().get("ratelimit-policy").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(policy, "\"api_hour_free\";q=100;w=3600");
    problem(refused).await;
}

async fn the_signal_list_pages_by_offset_and_cursor_with_a_total(app: TestApp) {
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id");
    let day = app.issue_day();
    let symbols = ["AAPL", "AAL", "MSFT", "AMZN", "AAON", "META", "AMD"];
    let rows: Vec<_> = symbols.iter().enumerate().map(|(i, s)| signal_row(s, 90 - i as i64, day, 100 - i as i64, None)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    let mine = signal_row("NVDA", 50, day, 1, Some(user_id));
    store::insert_on_demand(app.db(), &mine).await.expect("own");
    let stranger_row = signal_row("TSLA", 50, day, 2, Some("someone-else"));
    let _ = store::insert_on_demand(app.db(), &stranger_row).await;
    let key = create_key(&app, &app.client, &json!({"name": "Reader"})).await["key"].as_str().expect("key").to_owned();
    let page = |query: &str| {
        let request = bearer(&app, &key, &format!("/api/v1/signals{query}"));
        async move {
            let response = request.send().await.expect("request");
            assert_eq!(response.status(), 200);
            response.json::<Value>().await.expect("json")
        }
    };
    let first = page("?limit=3").await;
    assert_eq!((first["total"].as_i64(), first["page"].as_i64(), first["hasMore"].as_bool()), (Some(8), Some(1), Some(true)));
    let ids = |p: &Value| {
        p["signals"].as_array().expect("signals").iter().map(|s| s["id"].as_str().unwrap_or_default().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&first)[0], mine.id, "newest first, the viewer's own included");
    let second = page("?limit=3&offset=3").await;
    assert_eq!(second["page"], 2);
    let by_cursor = page(&format!("?limit=3&cursor={}", first["nextCursor"].as_str().expect("cursor"))).await;
    assert_eq!(ids(&by_cursor), ids(&second), "offset and cursor reach the same page");
    assert!(by_cursor["page"].is_null());
    let last = page("?limit=3&offset=6").await;
    assert_eq!((ids(&last).len(), last["hasMore"].as_bool(), last["nextCursor"].is_null()), (2, Some(false), true));
    let aa = page("?symbol=aa&limit=50").await;
    assert_eq!(aa["total"], 3, "AAPL, AAL and AAON");
    let all: Vec<String> = [ids(&first), ids(&second), ids(&last)].concat();
    assert!(!all.contains(&stranger_row.id), "another user's signal never shows");
    for (query, field) in [
        ("?limit=0", "limit"),
        ("?offset=-1", "offset"),
        ("?offset=2001", "offset"),
        ("?status=bogus", "status"),
        ("?colour=red", "colour"),
    ] {
        let response = bearer(&app, &key, &format!("/api/v1/signals{query}")).send().await.expect("request");
        assert_eq!(response.status(), 422, "{query}");
        assert_eq!(fields(&problem(response).await), [field], "{query}");
    }
    let both = bearer(&app, &key, &format!("/api/v1/signals?offset=3&cursor={}", first["nextCursor"].as_str().expect("cursor")))
        .send()
        .await
        .expect("request");
    assert_eq!(both.status(), 422);
}

async fn active_signals_stats_and_stock_prices_answer_for_a_key(app: TestApp) {
    app.register().await;
    let day = app.issue_day();
    store::issue_automated(app.db(), &[signal_row("AAPL", 80, day, 10, None)]).await.expect("issue");
    let mut closed = signal_row("MSFT", 70, day, 20, None);
    closed.status = "closed".into();
    store::issue_automated(app.db(), &[closed]).await.expect("issue");
    let key = create_key(&app, &app.client, &json!({"name": "Reader"})).await["key"].as_str().expect("key").to_owned();

    let active: Value = bearer(&app, &key, "/api/v1/signals/active").send().await.expect("request").json().await.expect("json");
    assert_eq!(active["totalActive"], 1);
    let first = &active["activeSignals"][0];
    assert_eq!(first["symbol"], "AAPL");
    // The row expires 30 days after its session; the server counts from today in New York,
    // which is later than the session on a weekend or a holiday.
    let left = (day + chrono::Duration::days(30) - app.today()).num_days();
    assert_eq!(first["timeRemaining"], format!("{left} days"));
    assert!(first["currentPnL"].is_number() && first["confidence"] == 80);
    let none: Value = bearer(&app, &key, "/api/v1/signals/active?symbol=ZZZ").send().await.expect("request").json().await.expect("json");
    assert_eq!(none["totalActive"], 0);
    assert_eq!(bearer(&app, &key, "/api/v1/signals/active?limit=500").send().await.expect("request").status(), 422);

    let prices = bearer(&app, &key, "/api/v1/stock-prices").send().await.expect("request");
    assert_eq!(prices.status(), 200);
    assert!(prices.json::<Value>().await.expect("json").is_array());
}

async fn a_write_key_generates_and_creates_signals_within_the_rules(app: TestApp) {
    app.register().await;
    let write =
        create_key(&app, &app.client, &json!({"name": "Writer", "permissions": "write"})).await["key"].as_str().expect("key").to_owned();
    let client = reqwest::Client::new();
    let post = |path: &str, body: Value| client.post(app.url(path)).bearer_auth(&write).json(&body).send();

    let generated =
        post("/api/v1/signals/generate", json!({"symbol": "aapl", "strategies": ["Momentum", "Breakout"]})).await.expect("request");
    assert_eq!(generated.status(), 201);
    assert!(generated.headers().get_all("ratelimit-policy").iter().any(|v| v.to_str().is_ok_and(|v| v.starts_with("\"api_generate\""))));
    let generated: Value = generated.json().await.expect("json");
    let signal = &generated["generatedSignals"][0];
    assert_eq!(signal["symbol"], "AAPL");
    assert!(["Momentum", "Breakout"].contains(&signal["strategy"].as_str().unwrap_or_default()), "{signal}");
    assert!(generated["analysisId"].is_string() && generated["generatedAt"].is_string());
    for (body, field) in [
        (json!({"symbol": ""}), "symbol"),
        (json!({"symbol": "AAPL", "strategies": []}), "strategies"),
        (json!({"symbol": "AAPL", "strategies": ["Scalping"]}), "strategies[0]"),
        (json!({"symbol": "AAPL", "riskLevel": "extreme"}), "riskLevel"),
    ] {
        let response = post("/api/v1/signals/generate", body.clone()).await.expect("request");
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }

    let expiry = (app.today() + chrono::Duration::days(60)).to_string();
    let good = json!({"symbol": "MSFT", "companyName": "Microsoft Corp.", "signalType": "PUT", "strategy": "Mean Reversion",
                      "strikePrice": 400.0, "currentPrice": 410.5, "entryPrice": 6.2, "confidence": 65, "expirationDate": expiry,
                      "rsi": 72.5, "volume": 1200000});
    let created = post("/api/v1/signals", good.clone()).await.expect("request");
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    assert_eq!(
        (created["symbol"].as_str(), created["signalType"].as_str(), created["entryPrice"].as_f64()),
        (Some("MSFT"), Some("PUT"), Some(6.2))
    );
    assert_eq!((created["targetPrice"].as_f64(), created["stopLoss"].as_f64()), (Some(9.3), Some(3.1)));
    assert_eq!(created["onDemand"], true);
    // The owner sees it in the app; another user does not.
    let mine = crate::common::signal_page(&app, &app.client, "").await;
    assert!(mine.iter().any(|s| s["id"] == created["id"]));
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    assert!(!crate::common::signal_page(&app, &other, "").await.iter().any(|s| s["id"] == created["id"]));

    let mut bad = good.clone();
    bad["confidence"] = json!(101);
    bad["strikePrice"] = json!(0);
    bad["expirationDate"] = json!("2020-01-17");
    let refused = post("/api/v1/signals", bad).await.expect("request");
    assert_eq!(refused.status(), 422);
    assert_eq!(fields(&problem(refused).await), ["strikePrice", "confidence", "expirationDate"]);
    // An entry price no one can pay (found by the contract fuzzing: its default target, 1.5 ×
    // the entry, overflowed into a 500) is refused by name.
    let mut huge = good.clone();
    huge["entryPrice"] = json!(6.4e289);
    huge["currentPrice"] = json!(-1.7e16);
    let refused = post("/api/v1/signals", huge).await.expect("request");
    assert_eq!(refused.status(), 422);
    assert_eq!(fields(&problem(refused).await), ["currentPrice", "entryPrice"]);
    let mut missing = good.clone();
    missing.as_object_mut().expect("object").remove("signalType");
    assert_eq!(fields(&problem(post("/api/v1/signals", missing).await.expect("request")).await), ["signalType"]);
    let mut unknown = good.clone();
    unknown["symbol"] = json!("1ABC");
    let unknown = post("/api/v1/signals", unknown).await.expect("request");
    assert_eq!(unknown.status(), 422);
    assert_eq!(fields(&problem(unknown).await), ["symbol"]);
}

async fn portfolio_metrics_answer_by_period_with_the_apps_figures(app: TestApp) {
    app.register().await;
    let key = create_key(&app, &app.client, &json!({"name": "Reader"})).await["key"].as_str().expect("key").to_owned();
    let expiry = (app.today() + chrono::Duration::days(60)).to_string();
    let position = json!({"symbol": "AAPL", "companyName": "Apple Inc.", "type": "CALL", "strikePrice": 190.0,
                          "expirationDate": expiry, "quantity": 2, "entryPrice": 4.25});
    assert_eq!(app.post_json(&app.client, "/api/manual-positions", &position).await.status(), 201);
    let metrics = bearer(&app, &key, "/api/v1/portfolio/metrics?period=7d").send().await.expect("request");
    assert_eq!(metrics.status(), 200);
    let metrics: Value = metrics.json().await.expect("json");
    assert!(metrics["summary"]["totalValue"].is_number() && metrics["summary"]["totalPnL"].is_number());
    assert_eq!(metrics["positions"][0]["symbol"], "AAPL");
    assert_eq!(metrics["positions"][0]["signalsCount"], 1);
    let daily = metrics["performance"]["daily"].as_array().expect("daily");
    assert_eq!(daily.len(), 1, "today's value is the only one stored");
    let app_metrics: Value = app.client.get(app.url("/api/portfolio/metrics")).send().await.expect("request").json().await.expect("json");
    assert_eq!(metrics["summary"]["totalValue"], app_metrics["summary"]["totalValue"], "the same figures as the app");
    for query in ["?period=2d", "?period=", "?window=7d"] {
        let response = bearer(&app, &key, &format!("/api/v1/portfolio/metrics{query}")).send().await.expect("request");
        assert_eq!(response.status(), 422, "{query}");
        problem(response).await;
    }
}
