//! Text messages against a local fake of Twilio's Messages API: a Pro user's number is verified
//! by the code texted to it, then gets the kinds chosen, held through quiet hours; STOP posted to
//! the inbound webhook (signed as Twilio signs, written out here) opts the number out, START back
//! in, and the provider's own "unsubscribed" answer does the same. Setting a number is Pro and
//! up, validated by field, codes are limited and their wrong tries counted under parallel
//! guesses.

use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, StatusCode};
use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use strikeline_server::foundation::vocab::NotificationKind;
use strikeline_server::services::{delivering, notifying};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

/// Each test once on SQLite and once on PostgreSQL, with the fake started first so the
/// configuration can name it.
macro_rules! with_fake_twilio {
    ($($name:ident),* $(,)?) => {
        mod twilio {
            mod sqlite {
                $(
                    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                    async fn $name() {
                        let (app, fake) = super::super::spawn(crate::common::Engine::Sqlite).await.expect("sqlite app");
                        super::super::$name(app, fake).await;
                    }
                )*
            }
            mod postgres {
                $(
                    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                    async fn $name() {
                        if let Some((app, fake)) = super::super::spawn(crate::common::Engine::Postgres).await {
                            super::super::$name(app, fake).await;
                        }
                    }
                )*
            }
        }
    };
}

with_fake_twilio!(
    a_verified_number_gets_what_it_chose_outside_quiet_hours_until_it_says_stop,
    numbers_are_pro_validated_and_codes_limited_under_parallel_guesses,
);

const SID: &str = "AC0123456789abcdef0123456789abcdef";
const TOKEN: &str = "twilio-test-token";
const FROM: &str = "+15005550006";
const INBOUND: &str = "https://strikeline.test/api/sms/twilio/inbound";

fn with_twilio(config: &mut strikeline_server::foundation::config::Config, base: String) {
    config.sms.transport = strikeline_server::foundation::config::SmsTransport::Twilio;
    config.sms.twilio_base_url = base;
    config.sms.twilio_account_sid = Some(SID.into());
    config.sms.twilio_auth_token = Some(serde_json::from_value(json!(TOKEN)).expect("secret"));
    config.sms.twilio_from = Some(FROM.into());
    config.sms.inbound_url = Some(INBOUND.into());
    config.delivery.retry_seconds = vec![60];
}

/// One message the fake was asked to send.
#[derive(Clone, Debug)]
struct Sent {
    to: String,
    from: String,
    body: String,
}

/// Twilio's Messages API on 127.0.0.1: checks the account in the path and the basic
/// authentication, keeps the form, and answers 201 or, while `unsubscribed` is set, Twilio's
/// 21610 error.
struct FakeTwilio {
    sent: Arc<Mutex<Vec<Sent>>>,
    unsubscribed: Arc<Mutex<bool>>,
}

async fn fake_twilio() -> (String, FakeTwilio) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://127.0.0.1:{}", listener.local_addr().expect("addr").port());
    let sent: Arc<Mutex<Vec<Sent>>> = Arc::default();
    let unsubscribed: Arc<Mutex<bool>> = Arc::default();
    let (kept, refuse) = (sent.clone(), unsubscribed.clone());
    let app = axum::Router::new().route(
        "/2010-04-01/Accounts/{sid}/Messages.json",
        axum::routing::post(move |axum::extract::Path(sid): axum::extract::Path<String>, headers: HeaderMap, body: String| {
            let (kept, refuse) = (kept.clone(), refuse.clone());
            async move {
                let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{SID}:{TOKEN}")));
                if sid != SID || headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
                    return (StatusCode::UNAUTHORIZED, axum::Json(json!({"code": 20003, "message": "Authenticate", "status": 401})));
                }
                let form: Vec<(String, String)> = form_urlencoded::parse(body.as_bytes()).into_owned().collect();
                let field = |name: &str| form.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or_default();
                if *refuse.lock().expect("lock") {
                    let error = json!({"code": 21610, "message": "Attempt to send to unsubscribed recipient", "status": 400});
                    return (StatusCode::BAD_REQUEST, axum::Json(error));
                }
                kept.lock().expect("lock").push(Sent { to: field("To"), from: field("From"), body: field("Body") });
                (StatusCode::CREATED, axum::Json(json!({"sid": "SM0123", "status": "queued"})))
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, FakeTwilio { sent, unsubscribed })
}

/// Twilio's signature over `url` and `params`, written out as its documentation gives it.
fn twilio_signature(url: &str, params: &[(&str, &str)]) -> String {
    let mut sorted = params.to_vec();
    sorted.sort();
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(TOKEN.as_bytes()).expect("key");
    mac.update(url.as_bytes());
    for (name, value) in sorted {
        mac.update(format!("{name}{value}").as_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

async fn inbound(app: &TestApp, params: &[(&str, &str)], signature: &str) -> reqwest::Response {
    let body: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
    reqwest::Client::new()
        .post(app.url("/api/sms/twilio/inbound"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-twilio-signature", signature)
        .body(body)
        .send()
        .await
        .expect("inbound")
}

async fn sms(app: &TestApp, client: &reqwest::Client) -> Value {
    client.get(app.url("/api/sms")).send().await.expect("get").json().await.expect("json")
}

fn code_in(text: &str) -> String {
    regex::Regex::new(r"\b(\d{6})\b").expect("regex").captures(text).expect("a code")[1].to_owned()
}

async fn on_plan(app: &TestApp, plan: &str) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
    id
}

fn note(user_id: &str, kind: NotificationKind, title: &str) -> notifying::Note {
    notifying::Note { user_id: user_id.to_owned(), kind, title: title.to_owned(), body: "AAPL crossed $200.00.".to_owned(), link: None }
}

/// Starts the fake, then the app configured to send through it.
async fn spawn(engine: crate::common::Engine) -> Option<(TestApp, FakeTwilio)> {
    let (base, fake) = fake_twilio().await;
    TestApp::spawn_with(engine, |config| with_twilio(config, base)).await.map(|app| (app, fake))
}

async fn a_verified_number_gets_what_it_chose_outside_quiet_hours_until_it_says_stop(app: TestApp, fake: FakeTwilio) {
    let user_id = on_plan(&app, "pro").await;
    let before = sms(&app, &app.client).await;
    assert_eq!((before["offered"].as_bool(), before["phone"].is_null()), (Some(true), true));

    let set = app.client.put(app.url("/api/sms/phone")).json(&json!({"phone": "+1 (202) 555-0143"})).send().await.expect("put");
    assert_eq!(set.status(), 202);
    let set: Value = set.json().await.expect("json");
    assert_eq!(
        (set["phone"].as_str(), set["verified"].as_bool(), set["codePending"].as_bool()),
        (Some("+12025550143"), Some(false), Some(true))
    );
    let now = app.now();
    delivering::run_due(&app.state, now).await.expect("deliver");
    let code = {
        let sent = fake.sent.lock().expect("lock");
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!((sent[0].to.as_str(), sent[0].from.as_str()), ("+12025550143", FROM));
        code_in(&sent[0].body)
    };
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let refused = app.post_json(&app.client, "/api/sms/phone/verify", &json!({"code": wrong})).await;
    assert_eq!(refused.status(), 422);
    let refused = problem(refused).await;
    assert_eq!(fields(&refused), ["code"]);
    assert!(refused.to_string().contains("4 tries left"), "{refused}");
    let verified = app.post_json(&app.client, "/api/sms/phone/verify", &json!({"code": code})).await;
    assert_eq!(verified.status(), 200);
    assert_eq!(verified.json::<Value>().await.expect("json")["verified"], true);

    // Price alerts only: the billing note is not texted.
    let saved = app
        .client
        .put(app.url("/api/sms/preferences"))
        .json(&json!({"events": ["price_alert"], "quietHours": null}))
        .send()
        .await
        .expect("put");
    assert_eq!(saved.status(), 200);
    let notes = vec![
        note(&user_id, NotificationKind::PriceAlert, "AAPL above $200"),
        note(&user_id, NotificationKind::Billing, "Payment received"),
    ];
    notifying::notify(&app.state, notes, now).await.expect("notify");
    delivering::run_due(&app.state, now).await.expect("deliver");
    {
        let sent = fake.sent.lock().expect("lock");
        assert_eq!(sent.len(), 2, "{sent:?}");
        assert_eq!(sent[1].body, "Strikeline: AAPL above $200. AAPL crossed $200.00.");
    }

    // Quiet hours around now (New York time): held until they end.
    let local = strikeline_market::calendar::to_new_york(now);
    let minute = i32::try_from(chrono::Timelike::hour(&local) * 60 + chrono::Timelike::minute(&local)).expect("minute");
    let clock = |m: i32| format!("{:02}:{:02}", m.rem_euclid(1440) / 60, m.rem_euclid(1440) % 60);
    let quiet = json!({"events": ["price_alert"], "quietHours": {"start": clock(minute - 60), "end": clock(minute + 60)}});
    assert_eq!(app.client.put(app.url("/api/sms/preferences")).json(&quiet).send().await.expect("put").status(), 200);
    notifying::notify(&app.state, vec![note(&user_id, NotificationKind::PriceAlert, "AAPL above $205")], now).await.expect("notify");
    delivering::run_due(&app.state, now).await.expect("deliver");
    assert_eq!(fake.sent.lock().expect("lock").len(), 2, "held in quiet hours");
    delivering::run_due(&app.state, now + chrono::Duration::minutes(61)).await.expect("deliver");
    assert_eq!(fake.sent.lock().expect("lock").len(), 3, "sent when they end");

    // STOP, signed as Twilio signs: no more texts. A forged one is refused.
    let stop = [("From", "+12025550143"), ("To", FROM), ("Body", "Stop"), ("MessageSid", "SM99")];
    let forged = inbound(&app, &stop, "bm90IGEgc2lnbmF0dXJl").await;
    assert_eq!(forged.status(), 403);
    assert_eq!(sms(&app, &app.client).await["optedOut"], false);
    let answered = inbound(&app, &stop, &twilio_signature(INBOUND, &stop)).await;
    assert_eq!(answered.status(), 200);
    assert!(answered.text().await.expect("twiml").contains("<Response/>"));
    assert_eq!(sms(&app, &app.client).await["optedOut"], true);
    let no_quiet = json!({"events": ["price_alert"], "quietHours": null});
    assert_eq!(app.client.put(app.url("/api/sms/preferences")).json(&no_quiet).send().await.expect("put").status(), 200);
    notifying::notify(&app.state, vec![note(&user_id, NotificationKind::PriceAlert, "AAPL above $210")], now).await.expect("notify");
    delivering::run_due(&app.state, now + chrono::Duration::hours(2)).await.expect("deliver");
    assert_eq!(fake.sent.lock().expect("lock").len(), 3, "nothing after STOP");

    // START: texts again. Then the provider itself says the number unsubscribed.
    let start = [("From", "+12025550143"), ("To", FROM), ("Body", "START")];
    assert_eq!(inbound(&app, &start, &twilio_signature(INBOUND, &start)).await.status(), 200);
    assert_eq!(sms(&app, &app.client).await["optedOut"], false);
    *fake.unsubscribed.lock().expect("lock") = true;
    notifying::notify(&app.state, vec![note(&user_id, NotificationKind::PriceAlert, "AAPL above $215")], now).await.expect("notify");
    delivering::run_due(&app.state, now + chrono::Duration::hours(2)).await.expect("deliver");
    assert_eq!(sms(&app, &app.client).await["optedOut"], true, "the provider's 21610 marks the number opted out");
}

async fn numbers_are_pro_validated_and_codes_limited_under_parallel_guesses(app: TestApp, fake: FakeTwilio) {
    let user_id = on_plan(&app, "free").await;
    let refused = app.client.put(app.url("/api/sms/phone")).json(&json!({"phone": "+12025550143"})).send().await.expect("put");
    assert_eq!(refused.status(), 403);
    users::set_subscription(app.db(), &user_id, "pro", "active", None, app.now()).await.expect("plan");

    let bad = app.client.put(app.url("/api/sms/phone")).json(&json!({"phone": "202-555-0143"})).send().await.expect("put");
    assert_eq!(bad.status(), 422);
    assert_eq!(fields(&problem(bad).await), ["phone"]);
    let none = app.client.put(app.url("/api/sms/preferences")).json(&json!({"events": []})).send().await.expect("put");
    assert_eq!(none.status(), 404, "no number yet");

    assert_eq!(app.client.put(app.url("/api/sms/phone")).json(&json!({"phone": "+442079460958"})).send().await.expect("put").status(), 202);
    delivering::run_due(&app.state, app.now()).await.expect("deliver");
    let code = code_in(&fake.sent.lock().expect("lock")[0].body);
    let malformed = app.post_json(&app.client, "/api/sms/phone/verify", &json!({"code": "12ab56"})).await;
    assert_eq!(fields(&problem(malformed).await), ["code"]);
    let bad_quiet = json!({"events": ["billing"], "quietHours": {"start": "25:00", "end": "7"}});
    let bad_quiet = app.client.put(app.url("/api/sms/preferences")).json(&bad_quiet).send().await.expect("put");
    assert_eq!(bad_quiet.status(), 422);
    let mut named = fields(&problem(bad_quiet).await);
    named.sort();
    assert_eq!(named, ["quietHours.end", "quietHours.start"]);

    // Twelve wrong guesses at once: at most five count, and the code is then used up.
    let wrong: Vec<String> = (0..12).map(|i| format!("{:06}", (code.parse::<u32>().expect("digits") + 1 + i) % 1_000_000)).collect();
    let bodies: Vec<Value> = wrong.iter().map(|guess| json!({ "code": guess })).collect();
    let guesses = bodies.iter().map(|body| app.post_json(&app.client, "/api/sms/phone/verify", body));
    for answer in futures_util::future::join_all(guesses).await {
        assert_eq!(answer.status(), 422);
    }
    let late = app.post_json(&app.client, "/api/sms/phone/verify", &json!({"code": code})).await;
    assert_eq!(late.status(), 422, "the right code after five wrong ones is refused");
    assert!(problem(late).await.to_string().contains("Send a new code"));
    assert_eq!(sms(&app, &app.client).await["verified"], false);

    // Five codes an hour: the sixth request is refused (one was sent above).
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            app.client.put(app.url("/api/sms/phone")).json(&json!({"phone": "+442079460958"})).send().await.expect("put").status().as_u16(),
        );
    }
    assert_eq!(statuses, [202, 202, 202, 202, 429]);
    // Removing the number is for every plan, and leaves nothing.
    users::set_subscription(app.db(), &user_id, "free", "active", None, app.now()).await.expect("plan");
    assert_eq!(app.client.delete(app.url("/api/sms/phone")).send().await.expect("delete").status(), 204);
    assert!(sms(&app, &app.client).await["phone"].is_null());
}
