//! Outbound webhooks: a local receiver checks every delivery's signature with the Standard
//! Webhooks algorithm (written out here, not the server's code); a failed delivery is retried
//! with the same `webhook-id` and logged; an endpoint failing for a day is switched off and its
//! owner told; hostile URLs are refused at creation; endpoints are capped and private; and a
//! server killed between attempts delivers after it restarts.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use strikeline_server::services::delivering;
use strikeline_store::users;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{Killed, TestApp, fields, problem};

on_both_engines_with!(local_webhooks, crate::webhooks::with_local_webhooks;
    deliveries_are_signed_retried_with_the_same_id_and_logged,
    an_endpoint_failing_for_a_day_is_switched_off_and_its_owner_told,
    endpoints_are_validated_capped_and_only_the_owners,
    a_test_send_whose_endpoint_is_deleted_meanwhile_still_answers,
);

/// Webhooks to the local receiver (plain http on 127.0.0.1, as in local development), a
/// market for price alerts, and short retries.
pub fn with_local_webhooks(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_market(config);
    config.delivery.allow_http = true;
    config.delivery.allow_private = true;
    config.delivery.retry_seconds = vec![60, 60];
}

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A local HTTP receiver that answers the statuses in `answers` in turn (the last one from
/// then on) and keeps what it was sent.
pub async fn receiver(answers: Vec<u16>) -> (String, Arc<Mutex<Vec<Received>>>) {
    receiver_holding(answers, None).await
}

/// [`receiver`], keeping each answer back until `release` is notified, when given.
async fn receiver_holding(answers: Vec<u16>, release: Option<Arc<tokio::sync::Notify>>) -> (String, Arc<Mutex<Vec<Received>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://127.0.0.1:{}/hooks/strikeline", listener.local_addr().expect("addr").port());
    let got = Arc::new(Mutex::new(Vec::new()));
    let kept = got.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let Some(request) = read_request(&mut socket).await else { continue };
            let status = {
                let mut all = kept.lock().expect("lock");
                all.push(request);
                answers.get(all.len() - 1).or(answers.last()).copied().unwrap_or(200)
            };
            if let Some(release) = &release {
                release.notified().await;
            }
            let _ = socket.write_all(format!("HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok").as_bytes()).await;
        }
    });
    (url, got)
}

pub async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Received> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let headers: Vec<(String, String)> =
        head.lines().skip(1).filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned())).collect();
    let length: usize = headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    while buf.len() < head_end + 4 + length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(Received { headers, body: String::from_utf8_lossy(&buf[head_end + 4..]).to_string() })
}

/// Checks a delivery as a Standard Webhooks receiver does: HMAC-SHA256 over
/// `{webhook-id}.{webhook-timestamp}.{body}` with the base64 key after `whsec_`, compared with
/// each `v1,` signature in the header.
pub fn verify(secret: &str, received: &Received) -> bool {
    let (Some(id), Some(timestamp), Some(signatures)) =
        (received.header("webhook-id"), received.header("webhook-timestamp"), received.header("webhook-signature"))
    else {
        return false;
    };
    let Ok(key) = STANDARD.decode(secret.trim_start_matches("whsec_")) else { return false };
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("key");
    mac.update(format!("{id}.{timestamp}.{}", received.body).as_bytes());
    let expected = STANDARD.encode(mac.finalize().into_bytes());
    signatures.split(' ').any(|s| s.strip_prefix("v1,") == Some(expected.as_str()))
}

async fn signed_up_on(app: &TestApp, plan: &str) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
    id
}

async fn create(app: &TestApp, client: &reqwest::Client, event_type: &str, url: &str) -> reqwest::Response {
    app.post_json(client, "/api/webhooks", &json!({"eventType": event_type, "url": url})).await
}

async fn deliveries_are_signed_retried_with_the_same_id_and_logged(app: TestApp) {
    signed_up_on(&app, "pro").await;
    let (url, got) = receiver(vec![500, 200]).await;
    let created = create(&app, &app.client, "price_alert", &url).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    let secret = created["secret"].as_str().expect("secret shown once").to_owned();
    let id = created["webhookId"].as_str().expect("id").to_owned();
    assert!(secret.starts_with("whsec_"));
    let listed: Vec<Value> = app.client.get(app.url("/api/webhooks")).send().await.expect("list").json().await.expect("json");
    assert_eq!(listed.len(), 1);
    assert!(listed[0].get("secret").is_none(), "the secret is never shown again");
    assert_eq!((listed[0]["eventType"].as_str(), listed[0]["isActive"].as_bool()), (Some("price_alert"), Some(true)));

    // A price alert that the next refresh triggers: one message for the endpoint.
    let alert =
        app.post_json(&app.client, "/api/price-alerts", &json!({"symbol": "AAPL", "direction": "above", "targetPrice": 0.01})).await;
    assert_eq!(alert.status(), 201);
    assert_eq!(app.post_json(&app.client, "/api/update-stock-prices", &json!({})).await.status(), 200);

    let now = app.now();
    assert_eq!(
        delivering::run_due(&app.state, now).await.expect("first pass"),
        3,
        "the webhook, the alert's email and the confirmation email"
    );
    assert_eq!(delivering::run_due(&app.state, now + chrono::Duration::seconds(30)).await.expect("too early"), 0, "waits for its retry");
    assert_eq!(delivering::run_due(&app.state, now + chrono::Duration::seconds(61)).await.expect("retry"), 1);
    assert_eq!(delivering::run_due(&app.state, now + chrono::Duration::seconds(200)).await.expect("done"), 0, "delivered once is done");

    let received = got.lock().expect("lock").clone();
    assert_eq!(received.len(), 2);
    assert!(received.iter().all(|r| verify(&secret, r)), "every attempt is signed with the endpoint's secret");
    assert!(!verify("whsec_d3Jvbmcgc2VjcmV0IGtleSBvZiAzMiBieXRlcyEh", &received[0]), "a wrong secret does not verify");
    assert_eq!(received[0].header("webhook-id"), received[1].header("webhook-id"), "a retry carries the same id");
    assert!(received[0].header("webhook-id").is_some_and(|id| id.starts_with("msg_")));
    let body: Value = serde_json::from_str(&received[1].body).expect("JSON body");
    assert_eq!(body["type"], "price_alert");
    assert_eq!(
        (body["data"]["symbol"].as_str(), body["data"]["direction"].as_str(), body["data"]["targetPrice"].as_f64()),
        (Some("AAPL"), Some("above"), Some(0.01))
    );

    // The log: newest first, with status, latency and time.
    let log: Vec<Value> =
        app.client.get(app.url(&format!("/api/webhooks/{id}/deliveries"))).send().await.expect("log").json().await.expect("json");
    assert_eq!(
        log.iter().map(|a| (a["statusCode"].as_u64(), a["succeeded"].as_bool())).collect::<Vec<_>>(),
        [(Some(200), Some(true)), (Some(500), Some(false))]
    );
    assert!(log.iter().all(|a| a["latencyMs"].as_i64().is_some_and(|ms| ms >= 0) && a["attemptedAt"].is_string()));

    // Send test: delivered now, signed, logged, answered.
    let test = app.post_json(&app.client, &format!("/api/webhooks/{id}/test"), &json!({})).await;
    assert_eq!(test.status(), 200);
    let test: Value = test.json().await.expect("json");
    assert_eq!((test["succeeded"].as_bool(), test["statusCode"].as_u64()), (Some(true), Some(200)));
    let last = got.lock().expect("lock").last().cloned().expect("test received");
    assert!(verify(&secret, &last));
    assert_eq!(serde_json::from_str::<Value>(&last.body).expect("json")["type"], "webhook.test");
}

async fn an_endpoint_failing_for_a_day_is_switched_off_and_its_owner_told(app: TestApp) {
    signed_up_on(&app, "premium").await;
    let (url, got) = receiver(vec![503]).await;
    let created: Value = create(&app, &app.client, "price_alert", &url).await.json().await.expect("json");
    let id = created["webhookId"].as_str().expect("id").to_owned();
    for target in [0.01, 0.02] {
        let alert =
            app.post_json(&app.client, "/api/price-alerts", &json!({"symbol": "MSFT", "direction": "above", "targetPrice": target})).await;
        assert_eq!(alert.status(), 201);
    }
    assert_eq!(app.post_json(&app.client, "/api/update-stock-prices", &json!({})).await.status(), 200);

    let start = app.now();
    assert_eq!(delivering::run_due(&app.state, start).await.expect("pass"), 5, "two webhooks, two alert emails and the confirmation email");
    let endpoint: Vec<Value> = app.client.get(app.url("/api/webhooks")).send().await.expect("list").json().await.expect("json");
    assert!(endpoint[0]["failingSince"].is_string() && endpoint[0]["isActive"] == true, "failing, still on");
    // The retries a day later fail as well: the endpoint is switched off, the rest given up.
    assert!(delivering::run_due(&app.state, start + chrono::Duration::hours(25)).await.expect("pass") >= 1);
    let endpoint: Vec<Value> = app.client.get(app.url("/api/webhooks")).send().await.expect("list").json().await.expect("json");
    assert_eq!(endpoint[0]["isActive"], false);
    assert!(endpoint[0]["disabledAt"].is_string());
    let sent = got.lock().expect("lock").len();
    delivering::run_due(&app.state, start + chrono::Duration::hours(30)).await.expect("pass");
    assert_eq!(got.lock().expect("lock").len(), sent, "nothing more is sent to it");
    assert!((3..=4).contains(&sent), "two first attempts and the retries before switching off: {sent}");

    let bell: Value = app.client.get(app.url("/api/notifications")).send().await.expect("bell").json().await.expect("json");
    let told: Vec<&Value> = bell["notifications"].as_array().expect("list").iter().filter(|n| n["kind"] == "webhook").collect();
    assert_eq!(told.len(), 1, "told once: {bell}");
    assert!(told[0]["body"].as_str().is_some_and(|b| b.contains(&url)));

    // Switched off: a test send is refused; switched on again, deliveries resume.
    let refused = app.post_json(&app.client, &format!("/api/webhooks/{id}/test"), &json!({})).await;
    assert_eq!(refused.status(), 422);
    let enabled = app.post_json(&app.client, &format!("/api/webhooks/{id}/enable"), &json!({})).await;
    assert_eq!(enabled.status(), 200);
    let enabled: Value = enabled.json().await.expect("json");
    assert_eq!((enabled["isActive"].as_bool(), enabled["failingSince"].is_null()), (Some(true), true));
}

async fn endpoints_are_validated_capped_and_only_the_owners(app: TestApp) {
    // Free: not included.
    signed_up_on(&app, "free").await;
    let free = create(&app, &app.client, "new_signal", "https://hooks.example.com/x").await;
    assert_eq!(free.status(), 403);

    let owner = TestApp::browser(&app.base);
    let response = app.register_with(&owner, "owner@example.com", "owner", "password123").await;
    let owner_id = response.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &owner_id, "pro", "active", None, app.now()).await.expect("plan");
    for (body, field) in [
        (json!({"eventType": "new_signal", "url": "not a url"}), "url"),
        (json!({"eventType": "new_signal", "url": "ftp://example.com/"}), "url"),
        (json!({"eventType": "new_signal", "url": "https://user:pw@example.com/"}), "url"),
        (json!({"eventType": "new_signal", "url": "https://example.invalid/"}), "url"),
        (json!({"eventType": "new_signal", "url": "x".repeat(3000)}), "url"),
        (json!({"eventType": "everything", "url": "https://example.com/"}), "eventType"),
        (json!({"url": "https://example.com/"}), "eventType"),
    ] {
        let response = app.post_json(&owner, "/api/webhooks", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }

    // 30 at once: exactly 10 stored (the cap holds under a row lock), the rest 409.
    let (url, _) = receiver(vec![200]).await;
    let attempts = (0..30).map(|_| create(&app, &owner, "new_signal", &url));
    let statuses: Vec<u16> = futures_util::future::join_all(attempts).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 10, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 201 || *s == 409 || *s == 429), "{statuses:?}");
    let listed: Vec<Value> = owner.get(app.url("/api/webhooks")).send().await.expect("list").json().await.expect("json");
    assert_eq!(listed.len(), 10);

    // Another user's id is not found, whatever the verb.
    let theirs = listed[0]["id"].as_str().expect("id");
    let stranger = TestApp::browser(&app.base);
    let response = app.register_with(&stranger, "stranger@example.com", "stranger", "password123").await;
    let stranger_id = response.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &stranger_id, "premium", "active", None, app.now()).await.expect("plan");
    assert_eq!(stranger.delete(app.url(&format!("/api/webhooks/{theirs}"))).send().await.expect("delete").status(), 404);
    assert_eq!(app.post_json(&stranger, &format!("/api/webhooks/{theirs}/test"), &json!({})).await.status(), 404);
    assert_eq!(app.post_json(&stranger, &format!("/api/webhooks/{theirs}/enable"), &json!({})).await.status(), 404);
    assert_eq!(stranger.get(app.url(&format!("/api/webhooks/{theirs}/deliveries"))).send().await.expect("log").status(), 404);
    assert_eq!(owner.delete(app.url(&format!("/api/webhooks/{theirs}"))).send().await.expect("delete").status(), 204);
    assert_eq!(owner.get(app.url("/api/webhooks")).send().await.expect("list").json::<Vec<Value>>().await.expect("json").len(), 9);
}

/// The owner deletes an endpoint while its test send is in flight (two tabs, or a fuzzer's
/// two workers): the send still answers what came of it, not a 500, and nothing of the
/// endpoint is left behind.
async fn a_test_send_whose_endpoint_is_deleted_meanwhile_still_answers(app: TestApp) {
    signed_up_on(&app, "pro").await;
    let release = Arc::new(tokio::sync::Notify::new());
    let (url, got) = receiver_holding(vec![200], Some(release.clone())).await;
    let created: Value = create(&app, &app.client, "new_signal", &url).await.json().await.expect("json");
    let id = created["webhookId"].as_str().expect("id").to_owned();

    let sending = {
        let (client, url) = (app.client.clone(), app.url(&format!("/api/webhooks/{id}/test")));
        tokio::spawn(async move { client.post(url).json(&json!({})).send().await.expect("send") })
    };
    for _ in 0..500 {
        if !got.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(got.lock().expect("lock").len(), 1, "the receiver has the test message");
    assert_eq!(app.client.delete(app.url(&format!("/api/webhooks/{id}"))).send().await.expect("delete").status(), 204);
    release.notify_one();

    let answered = sending.await.expect("task");
    assert_eq!(answered.status(), 200);
    let answered: Value = answered.json().await.expect("json");
    assert_eq!((answered["succeeded"].as_bool(), answered["statusCode"].as_u64()), (Some(true), Some(200)));
    assert_eq!(app.client.get(app.url(&format!("/api/webhooks/{id}/deliveries"))).send().await.expect("log").status(), 404);
    assert!(app.client.get(app.url("/api/webhooks")).send().await.expect("list").json::<Vec<Value>>().await.expect("json").is_empty());
}

/// The default guard (https only, public addresses only) refuses internal targets at creation
/// with a 422 naming `url`, and nothing connects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_webhook_urls_are_refused_at_creation() {
    let app = TestApp::spawn(crate::common::Engine::Sqlite).await.expect("app");
    signed_up_on(&app, "pro").await;
    let (port_url, got) = receiver(vec![200]).await;
    let port = port_url.rsplit(':').next().and_then(|p| p.split('/').next()).expect("port").to_owned();
    for url in [
        port_url.clone(),
        format!("https://127.0.0.1:{port}/"),
        format!("https://2130706433:{port}/"),
        format!("https://0x7f.1:{port}/"),
        format!("https://[::ffff:127.0.0.1]:{port}/"),
        format!("https://localhost:{port}/"),
        "https://169.254.169.254/latest/meta-data/".to_owned(),
        "https://[fd00:ec2::254]/".to_owned(),
        "https://10.0.0.1/".to_owned(),
        "https://100.64.0.1/".to_owned(),
    ] {
        let response = create(&app, &app.client, "new_signal", &url).await;
        assert_eq!(response.status(), 422, "{url}");
        assert_eq!(fields(&problem(response).await), ["url"], "{url}");
    }
    assert!(got.lock().expect("lock").is_empty(), "no connection was made");
}

/// A real process killed between attempts: the message waits in the outbox and the restarted
/// server delivers it, with the same id and a valid signature.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_survives_the_server_being_killed_between_attempts() {
    use strikeline_store::{Db, outbox, webhooks};
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).expect("data dir");
    let db_url = format!("sqlite://{}", data.join("restart.db").display());
    let (url, got) = receiver(vec![500, 200]).await;
    let secret = strikeline_server::foundation::outbound::standard_webhooks::new_secret();
    {
        let db = Db::connect(&db_url).await.expect("db");
        db.migrate().await.expect("migrate");
        let now = crate::common::now();
        let user = users::insert(
            &db,
            &users::NewUser {
                id: uuid::Uuid::new_v4().to_string(),
                email: "kill@example.com".into(),
                username: "kill".into(),
                password_hash: "x".into(),
                first_name: None,
                last_name: None,
                subscription_plan: "pro".into(),
                subscription_status: "active".into(),
                subscription_expires_at: None,
                created_at: now,
            },
        )
        .await
        .expect("user");
        strikeline_store::accounts::mark_confirmed(&db, &user.id, now).await.expect("confirmed");
        let endpoint = webhooks::Endpoint {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: user.id.clone(),
            url: url.clone(),
            event_type: "new_signal".into(),
            secret: secret.clone(),
            is_active: true,
            failing_since: None,
            disabled_at: None,
            created_at: now,
            account_id: None,
        };
        assert!(webhooks::insert_within(&db, &endpoint, 10).await.expect("endpoint"));
        let message = outbox::Message::pending(
            "msg_restart".into(),
            "webhook",
            &user.id,
            Some(&endpoint.id),
            "new_signal",
            r#"{"type":"new_signal","data":{}}"#.into(),
            now,
        );
        outbox::enqueue(&db, &[message]).await.expect("queued");
        db.close().await;
    }
    let start = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_strikeline"))
            .arg("serve")
            .env_remove("DATABASE_URL")
            .env_remove("REDIS_URL")
            .env("STRIKELINE_DATABASE_URL", &db_url)
            .env("STRIKELINE_PORT", "0")
            .env("STRIKELINE_DATA_DIR", &data)
            .env("STRIKELINE_WEB_DIR", dir.path())
            .env("STRIKELINE_MARKET__HISTORY_YEARS", "0")
            .env("STRIKELINE_MARKET__REPLAY_DAYS", "0")
            .env("STRIKELINE_SCHEDULE__START_RUNNING", "false")
            .env("STRIKELINE_DELIVERY__ALLOW_HTTP", "true")
            .env("STRIKELINE_DELIVERY__ALLOW_PRIVATE", "true")
            .env("STRIKELINE_DELIVERY__POLL_SECONDS", "1")
            .env("STRIKELINE_DELIVERY__RETRY_SECONDS", "[3]")
            .env("STRIKELINE_LOG", "warn")
            // The server's clock reads the suite's time (pinned or not), as the queued message did.
            .env("STRIKELINE_CLOCK_START", crate::common::now().to_rfc3339())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(Killed)
            .expect("server starts")
    };
    let wait_for = |count: usize, within: Duration| {
        let got = got.clone();
        async move {
            let deadline = tokio::time::Instant::now() + within;
            while got.lock().expect("lock").len() < count {
                assert!(tokio::time::Instant::now() < deadline, "no delivery #{count} within {within:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    // Each attempt's outcome is written after its answer arrives: the test waits for it, so a
    // kill lands between attempts (a kill mid-attempt leaves a claim to lapse, another story).
    let written = |done: fn(&outbox::Message) -> bool| {
        let db_url = db_url.clone();
        async move {
            let db = Db::connect(&db_url).await.expect("db");
            let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
            while !done(&outbox::get(&db, "msg_restart").await.expect("read").expect("kept")) {
                assert!(tokio::time::Instant::now() < deadline, "the attempt's outcome is never written");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            db.close().await;
        }
    };
    let mut first = start();
    wait_for(1, Duration::from_secs(60)).await;
    written(|m| m.last_error.is_some()).await;
    first.kill_9();
    assert_eq!(got.lock().expect("lock").len(), 1, "killed before the retry");

    let mut second = start();
    wait_for(2, Duration::from_secs(60)).await;
    written(|m| m.status != "pending").await;
    second.kill_9();
    let received = got.lock().expect("lock").clone();
    assert!(received.iter().all(|r| verify(&secret, r) && r.header("webhook-id") == Some("msg_restart")));
    let db = Db::connect(&db_url).await.expect("db");
    let stored = outbox::get(&db, "msg_restart").await.expect("read").expect("kept");
    assert_eq!((stored.status.as_str(), stored.attempts), ("delivered", 2));
}
