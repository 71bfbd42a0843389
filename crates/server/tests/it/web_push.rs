//! Web Push against a local push-service fake: a Pro browser's subscription gets each
//! notification it chose, encrypted to its keys (decrypted here as a browser does, RFC 8291 and
//! RFC 8188 written out independently of the server's code) and authorised with a VAPID token
//! the fake verifies against the key the app handed the browser; a 410 removes the
//! subscription. Subscriptions are Pro and up, validated field by field, capped under parallel
//! requests, and private to their owner.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::{aead, agreement, hkdf, rand::SecureRandom, rand::SystemRandom, signature};
use serde_json::{Value, json};
use strikeline_server::foundation::vocab::NotificationKind;
use strikeline_server::services::{delivering, notifying};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(local_push, crate::web_push::with_local_push;
    a_pro_browser_gets_what_it_chose_encrypted_and_signed_and_a_410_removes_it,
    subscriptions_are_pro_validated_capped_and_only_the_owners,
);

/// Push endpoints on the local fake (plain http on 127.0.0.1), no retries to wait for.
fn with_local_push(config: &mut strikeline_server::foundation::config::Config) {
    config.delivery.allow_http = true;
    config.delivery.allow_private = true;
    config.delivery.retry_seconds = vec![60];
    config.push.subject = Some("mailto:ops@strikeline.test".into());
}

/// What the fake push service was sent.
#[derive(Clone, Debug)]
struct Pushed {
    path: String,
    headers: HeaderMap,
    body: Bytes,
}

/// A push service on 127.0.0.1 answering the statuses in `answers` in turn (the last from then
/// on); its base URL and what it got.
async fn push_service(answers: Vec<u16>) -> (String, Arc<Mutex<Vec<Pushed>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://127.0.0.1:{}", listener.local_addr().expect("addr").port());
    let got: Arc<Mutex<Vec<Pushed>>> = Arc::default();
    let kept = got.clone();
    let app = axum::Router::new().route(
        "/push/{id}",
        axum::routing::post(move |uri: axum::http::Uri, headers: HeaderMap, body: Bytes| {
            let kept = kept.clone();
            let answers = answers.clone();
            async move {
                let mut all = kept.lock().expect("lock");
                all.push(Pushed { path: uri.path().to_owned(), headers, body });
                StatusCode::from_u16(answers.get(all.len() - 1).or(answers.last()).copied().unwrap_or(201)).expect("status")
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, got)
}

/// A browser's side of a subscription: its ECDH key (ring's keys are single-use, so each
/// browser here decrypts one message) and its authentication secret.
struct Browser {
    key: agreement::EphemeralPrivateKey,
    public: Vec<u8>,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        let rng = SystemRandom::new();
        let key = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).expect("key");
        let public = key.compute_public_key().expect("public").as_ref().to_vec();
        let mut auth = [0u8; 16];
        rng.fill(&mut auth).expect("random");
        Browser { key, public, auth }
    }

    fn subscription(&self, endpoint: &str) -> Value {
        json!({"endpoint": endpoint, "expirationTime": null, "keys": {"p256dh": URL_SAFE_NO_PAD.encode(&self.public), "auth": URL_SAFE_NO_PAD.encode(self.auth)}})
    }

    /// Reads an `aes128gcm` body as the browser does: header, ECDH with the sender's key, the
    /// two HKDF stages, AES-128-GCM, then the padding delimiter.
    fn decrypt(self, body: &[u8]) -> Vec<u8> {
        let (salt, rest) = body.split_at(16);
        let record_size = u32::from_be_bytes(rest[..4].try_into().expect("rs"));
        let id_len = usize::from(rest[4]);
        let sender = &rest[5..5 + id_len];
        let ciphertext = &rest[5 + id_len..];
        assert_eq!(id_len, 65, "the key id is the sender's uncompressed P-256 key");
        assert!(ciphertext.len() <= record_size as usize, "one record");
        let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, sender);
        let ecdh: Vec<u8> = agreement::agree_ephemeral(self.key, &peer, |s| s.to_vec()).expect("agreement");
        struct Len(usize);
        impl hkdf::KeyType for Len {
            fn len(&self) -> usize {
                self.0
            }
        }
        let expand = |prk: &hkdf::Prk, info: &[u8], n: usize| {
            let mut out = vec![0u8; n];
            prk.expand(&[info], Len(n)).expect("expand").fill(&mut out).expect("fill");
            out
        };
        let mut key_info = b"WebPush: info\x00".to_vec();
        key_info.extend_from_slice(&self.public);
        key_info.extend_from_slice(sender);
        let ikm = expand(&hkdf::Salt::new(hkdf::HKDF_SHA256, &self.auth).extract(&ecdh), &key_info, 32);
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(&ikm);
        let cek = expand(&prk, b"Content-Encoding: aes128gcm\x00", 16);
        let nonce: [u8; 12] = expand(&prk, b"Content-Encoding: nonce\x00", 12).try_into().expect("12");
        let key = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).expect("cek"));
        let mut data = ciphertext.to_vec();
        let plain = key.open_in_place(aead::Nonce::assume_unique_for_key(nonce), aead::Aad::empty(), &mut data).expect("authentic");
        let end = plain.iter().rposition(|b| *b != 0).expect("delimiter");
        assert_eq!(plain[end], 2, "the last record ends with 0x02");
        plain[..end].to_vec()
    }
}

fn b64(text: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(text).expect("base64url")
}

/// Checks a request's VAPID authorisation as a push service does (RFC 8292): the key is the
/// one the app gave the browser, the ES256 signature verifies with it, the audience is the
/// service's origin and the token expires within a day.
fn verify_vapid(pushed: &Pushed, public_key: &str, origin: &str, now: chrono::DateTime<chrono::Utc>) {
    let header = pushed.headers.get("authorization").and_then(|v| v.to_str().ok()).expect("authorization");
    let (token, key) = header.strip_prefix("vapid t=").and_then(|r| r.split_once(", k=")).expect("vapid t=…, k=…");
    assert_eq!(key, public_key, "signed with the key browsers subscribe with");
    let parts: Vec<&str> = token.split('.').collect();
    let jwt_header: Value = serde_json::from_slice(&b64(parts[0])).expect("header");
    assert_eq!(jwt_header["alg"], "ES256");
    signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, b64(key))
        .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &b64(parts[2]))
        .expect("the token's signature verifies");
    let claims: Value = serde_json::from_slice(&b64(parts[1])).expect("claims");
    assert_eq!(claims["aud"], origin);
    assert_eq!(claims["sub"], "mailto:ops@strikeline.test");
    let exp = claims["exp"].as_i64().expect("exp");
    assert!(exp > now.timestamp() && exp <= (now + chrono::Duration::hours(24)).timestamp(), "exp {exp}");
}

async fn on_plan(app: &TestApp, plan: &str) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
    id
}

fn note(user_id: &str, kind: NotificationKind, title: &str) -> notifying::Note {
    notifying::Note {
        user_id: user_id.to_owned(),
        kind,
        title: title.to_owned(),
        body: "AAPL crossed $200.00.".to_owned(),
        link: Some("/signals"),
    }
}

async fn a_pro_browser_gets_what_it_chose_encrypted_and_signed_and_a_410_removes_it(app: TestApp) {
    let stored = strikeline_store::ledger::key(app.db(), "vapid-p256").await.expect("read").expect("generated at first start");
    let user_id = on_plan(&app, "pro").await;
    let (base, got) = push_service(vec![201, 410]).await;
    let devices: Value = app.client.get(app.url("/api/push/subscriptions")).send().await.expect("list").json().await.expect("json");
    let public_key = devices["publicKey"].as_str().expect("key").to_owned();
    assert_eq!(public_key, stored.1, "the key made at start is the one browsers subscribe with");
    assert_eq!(b64(&public_key).len(), 65, "an uncompressed P-256 key");
    assert_eq!(devices["subscriptions"], json!([]));

    let browser = Browser::new();
    let created = app
        .client
        .post(app.url("/api/push/subscriptions"))
        .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36")
        .json(&browser.subscription(&format!("{base}/push/one")))
        .send()
        .await
        .expect("subscribe");
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    assert_eq!(created["label"], "Chrome on Linux");
    assert_eq!(created["service"], "127.0.0.1");

    // Only the kinds chosen are pushed: billing is not among them now.
    let saved = app
        .client
        .put(app.url("/api/user/preferences"))
        .json(&json!({"pushEvents": ["price_alert", "new_signals"]}))
        .send()
        .await
        .expect("put");
    assert_eq!(saved.status(), 200);
    let saved: Value = saved.json().await.expect("json");
    assert_eq!(saved["pushEvents"], json!(["new_signals", "price_alert"]), "stored in the vocabulary's order");

    let now = app.now();
    let notes = vec![
        note(&user_id, NotificationKind::PriceAlert, "AAPL above $200"),
        note(&user_id, NotificationKind::Billing, "Payment received"),
    ];
    notifying::notify(&app.state, notes, now).await.expect("notify");
    delivering::run_due(&app.state, now).await.expect("deliver");
    let first = {
        let pushed = got.lock().expect("lock");
        assert_eq!(pushed.len(), 1, "the price alert only: {pushed:?}");
        pushed[0].clone()
    };
    assert_eq!(first.path, "/push/one");
    let header = |name: &str| first.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header("content-encoding").as_deref(), Some("aes128gcm"));
    assert_eq!(header("content-type").as_deref(), Some("application/octet-stream"));
    assert_eq!(header("ttl").as_deref(), Some("86400"));
    assert_eq!(header("urgency").as_deref(), Some("high"), "a price alert is urgent");
    verify_vapid(&first, &public_key, &base, now);
    let shown: Value = serde_json::from_slice(&browser.decrypt(&first.body)).expect("the plaintext is JSON");
    assert_eq!(shown["title"], "AAPL above $200");
    assert_eq!(shown["body"], "AAPL crossed $200.00.");
    assert_eq!(shown["url"], "/signals");
    assert_eq!(shown["kind"], "price_alert");

    let listed: Value = app.client.get(app.url("/api/push/subscriptions")).send().await.expect("list").json().await.expect("json");
    assert!(listed["subscriptions"][0]["lastDeliveredAt"].is_string(), "{listed}");

    // The browser unsubscribed: the push service answers 410 and the subscription goes.
    notifying::notify(&app.state, vec![note(&user_id, NotificationKind::NewSignals, "1 new signal")], now).await.expect("notify");
    delivering::run_due(&app.state, now).await.expect("deliver");
    assert_eq!(got.lock().expect("lock").len(), 2);
    let listed: Value = app.client.get(app.url("/api/push/subscriptions")).send().await.expect("list").json().await.expect("json");
    assert_eq!(listed["subscriptions"], json!([]), "a 410 removes the subscription");
    // Nothing is retried to a gone browser.
    delivering::run_due(&app.state, now + chrono::Duration::minutes(5)).await.expect("deliver");
    assert_eq!(got.lock().expect("lock").len(), 2);

    // A downgraded account is not pushed to, and its browsers stay listed for it to remove.
    let again = Browser::new();
    let created = app.post_json(&app.client, "/api/push/subscriptions", &again.subscription(&format!("{base}/push/two"))).await;
    assert_eq!(created.status(), 201);
    users::set_subscription(app.db(), &user_id, "free", "active", None, now).await.expect("plan");
    notifying::notify(&app.state, vec![note(&user_id, NotificationKind::PriceAlert, "AAPL above $210")], now).await.expect("notify");
    delivering::run_due(&app.state, now).await.expect("deliver");
    assert_eq!(got.lock().expect("lock").len(), 2, "Free is not pushed to");
    let listed: Value = app.client.get(app.url("/api/push/subscriptions")).send().await.expect("list").json().await.expect("json");
    let id = listed["subscriptions"][0]["id"].as_str().expect("still listed").to_owned();
    let removed = app.client.delete(app.url(&format!("/api/push/subscriptions/{id}"))).send().await.expect("delete");
    assert_eq!(removed.status(), 204, "removing is for every plan");
}

async fn subscriptions_are_pro_validated_capped_and_only_the_owners(app: TestApp) {
    // Free: refused before anything else is looked at.
    on_plan(&app, "free").await;
    let refused = app.post_json(&app.client, "/api/push/subscriptions", &Browser::new().subscription("ftp://nowhere")).await;
    assert_eq!(refused.status(), 403);
    assert!(problem(refused).await["detail"].as_str().is_some_and(|d| d.contains("Pro")));

    let owner = TestApp::browser(&app.url(""));
    app.register_with(&owner, "pushowner@example.com", "pushowner", "correct-horse-battery").await;
    let owner_id = users::find_by_email(app.db(), "pushowner@example.com").await.expect("find").expect("user").id;
    users::set_subscription(app.db(), &owner_id, "pro", "active", None, app.now()).await.expect("plan");

    // Each bad part is named.
    let browser = Browser::new();
    let mut bad = browser.subscription("ftp://push.example.net/x");
    bad["keys"]["p256dh"] = json!("not-a-key");
    bad["keys"]["auth"] = json!("c2hvcnQ");
    let refused = app.post_json(&owner, "/api/push/subscriptions", &bad).await;
    assert_eq!(refused.status(), 422);
    let mut named = fields(&problem(refused).await);
    named.sort();
    assert_eq!(named, ["endpoint", "keys.p256dh"], "the key is judged first; the secret after it");
    let mut bad_auth = browser.subscription("http://127.0.0.1:9/push/x");
    bad_auth["keys"]["auth"] = json!("c2hvcnQ");
    let refused = app.post_json(&owner, "/api/push/subscriptions", &bad_auth).await;
    assert_eq!(fields(&problem(refused).await), ["keys.auth"]);
    let unknown =
        app.post_json(&owner, "/api/push/subscriptions", &json!({"endpoint": "http://127.0.0.1:9/p", "keys": {}, "extra": 1})).await;
    assert_eq!(unknown.status(), 422);
    assert!(users::find_by_id(app.db(), &owner_id).await.expect("user").is_some());
    assert!(strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list").is_empty(), "nothing stored");

    // Twelve browsers at once: exactly the cap is stored.
    let attempts = (0..12).map(|i| {
        let body = Browser::new().subscription(&format!("http://127.0.0.1:9/push/{i}"));
        let owner = owner.clone();
        let app = &app;
        async move { app.post_json(&owner, "/api/push/subscriptions", &body).await.status().as_u16() }
    });
    let mut statuses = futures_util::future::join_all(attempts).await;
    statuses.sort_unstable();
    assert_eq!(statuses, [[201; 10].as_slice(), &[409; 2]].concat());
    assert_eq!(strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list").len(), 10);
    // The same browser subscribing again (one of the ten that won) replaces its row: no cap hit,
    // still ten.
    let stored = strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list")[0].endpoint.clone();
    let again = app.post_json(&owner, "/api/push/subscriptions", &Browser::new().subscription(&stored)).await;
    assert_eq!(again.status(), 201);
    assert_eq!(strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list").len(), 10);

    // Another user cannot remove them, or see them.
    let theirs = strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list")[0].id.clone();
    let stranger = app.client.delete(app.url(&format!("/api/push/subscriptions/{theirs}"))).send().await.expect("delete");
    assert_eq!(stranger.status(), 404);
    let seen: Value = app.client.get(app.url("/api/push/subscriptions")).send().await.expect("list").json().await.expect("json");
    assert_eq!(seen["subscriptions"], json!([]));
    let own = owner.delete(app.url(&format!("/api/push/subscriptions/{theirs}"))).send().await.expect("delete");
    assert_eq!(own.status(), 204);
    assert_eq!(strikeline_store::push::for_user(app.db(), &owner_id).await.expect("list").len(), 9);
}
