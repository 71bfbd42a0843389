//! `Idempotency-Key` on POSTs (issue 26, row 5): a retry of a write whose answer was lost gets
//! the first answer back instead of writing twice, in the app and in the public API; the same
//! key with another request is 422; 20 parallel sends of one key write once; keys are each
//! caller's own; answers that set a session are never replayed.

use serde_json::{Value, json};

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(market, crate::common::with_market;
    a_retried_post_is_answered_once_and_written_once,
    twenty_parallel_sends_of_one_key_write_once,
);

on_both_engines!(keys_are_each_callers_own_and_public_api_writes_are_idempotent_too, hostile_keys_and_sessions_are_refused_or_not_replayed,);

fn position(quantity: i64) -> Value {
    let expiry = (crate::common::today() + chrono::Duration::days(40)).format("%Y-%m-%d").to_string();
    json!({
        "symbol": "AAPL", "companyName": "Apple Inc.", "type": "call", "strikePrice": 250.0,
        "expirationDate": expiry, "quantity": quantity, "entryPrice": 2.5, "status": "open"
    })
}

async fn send(app: &TestApp, client: &reqwest::Client, key: &str, body: &Value) -> reqwest::Response {
    client.post(app.url("/api/manual-positions")).header("Idempotency-Key", key).json(body).send().await.expect("request")
}

async fn positions(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    client.get(app.url("/api/manual-positions")).send().await.expect("request").json().await.expect("json")
}

fn replayed(response: &reqwest::Response) -> bool {
    response.headers().get("idempotent-replayed").is_some_and(|v| v == "true")
}

async fn a_retried_post_is_answered_once_and_written_once(app: TestApp) {
    app.register().await;
    let first = send(&app, &app.client, "retry-1", &position(2)).await;
    assert_eq!(first.status(), 201);
    assert!(!replayed(&first));
    let first: Value = first.json().await.expect("json");

    let again = send(&app, &app.client, "retry-1", &position(2)).await;
    assert_eq!(again.status(), 201, "the first answer, again");
    assert!(replayed(&again));
    assert_eq!(again.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("application/json"));
    assert_eq!(again.json::<Value>().await.expect("json"), first, "byte for byte the first answer");
    assert_eq!(positions(&app, &app.client).await.len(), 1, "written once");

    // The same key with another body: refused, naming the header; nothing written.
    let other = send(&app, &app.client, "retry-1", &position(3)).await;
    assert_eq!(other.status(), 422);
    assert_eq!(fields(&problem(other).await), ["Idempotency-Key"]);
    assert_eq!(positions(&app, &app.client).await.len(), 1);

    // A refusal is an answer too: replayed, and the bad request still writes nothing.
    let bad = json!({"symbol": "", "quantity": 0});
    let refused = send(&app, &app.client, "retry-2", &bad).await;
    assert_eq!(refused.status(), 422);
    let again = send(&app, &app.client, "retry-2", &bad).await;
    assert_eq!(again.status(), 422);
    assert!(replayed(&again));

    // Without a key, nothing changes: two sends, two positions.
    for _ in 0..2 {
        assert_eq!(app.post_json(&app.client, "/api/manual-positions", &position(1)).await.status(), 201);
    }
    assert_eq!(positions(&app, &app.client).await.len(), 3);
}

async fn twenty_parallel_sends_of_one_key_write_once(app: TestApp) {
    app.register().await;
    let body = position(1);
    let answers = futures_util::future::join_all((0..20).map(|_| send(&app, &app.client, "parallel-1", &body))).await;
    let mut created = 0;
    for answer in &answers {
        match answer.status().as_u16() {
            201 => created += 1,
            409 => assert_eq!(answer.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"), "still being answered"),
            other => panic!("unexpected {other}"),
        }
    }
    assert!(created >= 1, "at least the first is answered");
    assert_eq!(positions(&app, &app.client).await.len(), 1, "twenty sends, one position");
    let retry = send(&app, &app.client, "parallel-1", &body).await;
    assert_eq!((retry.status().as_u16(), replayed(&retry)), (201, true), "once answered, every retry replays");
}

async fn keys_are_each_callers_own_and_public_api_writes_are_idempotent_too(app: TestApp) {
    app.register().await;
    // Another user with the same key gets their own answer, not Ada's.
    let bob = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&bob, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    let key = "shared-key";
    let create = |client: &reqwest::Client, name: &str| {
        client.post(app.url("/api/api-keys")).header("Idempotency-Key", key).json(&json!({"name": name, "permissions": "write"})).send()
    };
    let ada_key = create(&app.client, "Ada's").await.expect("request");
    assert_eq!(ada_key.status(), 201);
    let ada_key: Value = ada_key.json().await.expect("json");
    let bob_key = create(&bob, "Bob's").await.expect("request");
    assert_eq!(bob_key.status(), 201, "Bob's own request, not a replay of Ada's");
    assert!(!replayed(&bob_key));
    let bob_key: Value = bob_key.json().await.expect("json");
    assert_ne!(ada_key["key"], bob_key["key"]);
    assert_eq!(bob_key["apiKey"]["name"], "Bob's");

    // The public API: a write key's retried create is one signal.
    let secret = ada_key["key"].as_str().expect("key").to_owned();
    let expiry = (app.today() + chrono::Duration::days(60)).to_string();
    let signal = json!({"symbol": "MSFT", "companyName": "Microsoft Corp.", "signalType": "PUT", "strategy": "Mean Reversion",
                        "strikePrice": 400.0, "currentPrice": 410.5, "entryPrice": 6.2, "confidence": 65, "expirationDate": expiry});
    let client = reqwest::Client::new();
    let post = || client.post(app.url("/api/v1/signals")).bearer_auth(&secret).header("Idempotency-Key", key).json(&signal).send();
    let first = post().await.expect("request");
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.expect("json");
    let again = post().await.expect("request");
    assert_eq!((again.status().as_u16(), replayed(&again)), (201, true));
    assert_eq!(again.json::<Value>().await.expect("json")["id"], first["id"], "the same signal, not a second");
}

async fn hostile_keys_and_sessions_are_refused_or_not_replayed(app: TestApp) {
    app.register().await;
    let long = "k".repeat(256);
    for key in ["", " ", "with space", "tab\tkey", long.as_str()] {
        let response = app
            .client
            .post(app.url("/api/manual-positions"))
            .header("Idempotency-Key", key)
            .json(&position(1))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 422, "{key:?}");
        assert_eq!(fields(&problem(response).await), ["Idempotency-Key"], "{key:?}");
    }
    let non_ascii = reqwest::header::HeaderValue::from_bytes("clé".as_bytes()).expect("header");
    let response = app
        .client
        .post(app.url("/api/manual-positions"))
        .header("Idempotency-Key", non_ascii)
        .json(&position(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 422);
    assert!(positions(&app, &app.client).await.is_empty(), "nothing written by a refused key");

    // Signing in sets a session: never replayed to whoever sends the same key again.
    let login = json!({"email": "ada@example.com", "password": "correct-horse"});
    let client = TestApp::browser(&app.base);
    for _ in 0..2 {
        let response =
            client.post(app.url("/api/auth/login")).header("Idempotency-Key", "login-1").json(&login).send().await.expect("request");
        assert!(!replayed(&response), "a session is handed out by a sign-in, never by a replay");
        assert!(response.headers().get("set-cookie").is_some() || response.status() != 200, "{}", response.status());
    }
}
