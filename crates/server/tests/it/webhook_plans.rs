//! Issue 25, row 6: a trial user creates webhooks, then drops to Free. Webhooks follow the plan
//! in force, asked of the one entitlement check each time: a Free owner's endpoints are kept
//! but paused (listed as not active), their test sends are 403 and nothing is queued, no event
//! is queued for them, and a message queued before the drop is not sent. After an upgrade the
//! same endpoints work again, without being created again. A local receiver on 127.0.0.1
//! counts what arrives.

use serde_json::{Value, json};
use strikeline_server::foundation::vocab::WebhookEventType;
use strikeline_server::services::delivering;
use strikeline_server::services::webhooks::{Audience, Event, emit};
use strikeline_store::{outbox, users};

use crate::common::{TestApp, problem};
use crate::webhooks::{receiver, verify};

on_both_engines_with!(local_receivers, crate::webhook_plans::with_local_receivers;
    webhooks_pause_when_the_plan_drops_to_free_and_resume_after_an_upgrade,
);

/// Webhooks to the local receiver (plain http on 127.0.0.1) and short retries.
pub(crate) fn with_local_receivers(config: &mut strikeline_server::foundation::config::Config) {
    config.delivery.allow_http = true;
    config.delivery.allow_private = true;
    config.delivery.retry_seconds = vec![60, 60];
}

/// The webhook messages in the outbox, newest first.
async fn queued(app: &TestApp) -> Vec<outbox::Message> {
    outbox::newest(app.db(), "webhook", 100).await.expect("outbox")
}

async fn listed(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client.get(app.url("/api/webhooks")).send().await.expect("list");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn v1_listed(app: &TestApp, key: &str) -> Vec<Value> {
    let response = reqwest::Client::new().get(app.url("/api/v1/webhooks")).bearer_auth(key).send().await.expect("list");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn v1_test(app: &TestApp, key: &str, id: &str) -> reqwest::Response {
    reqwest::Client::new().post(app.url(&format!("/api/v1/webhooks/{id}/test"))).bearer_auth(key).send().await.expect("test")
}

/// A price alert of `owner`'s and a new automated signal ranked first of the day.
fn events(owner: &str) -> [Event<'_>; 2] {
    [
        Event {
            event_type: WebhookEventType::PriceAlert,
            audience: Audience::Owner(owner),
            data: json!({"alertId": "alert-1", "symbol": "AAPL", "direction": "above", "targetPrice": 1.0, "price": 2.0}),
        },
        Event {
            event_type: WebhookEventType::NewSignal,
            audience: Audience::Signal { day: chrono::NaiveDate::from_ymd_opt(2026, 11, 24).expect("date"), rank: 1 },
            data: json!({"id": "signal-1"}),
        },
    ]
}

async fn webhooks_pause_when_the_plan_drops_to_free_and_resume_after_an_upgrade(app: TestApp) {
    // A new account is on its Pro trial: it registers two endpoints and a write key.
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id").to_owned();
    assert_eq!((user["subscriptionPlan"].as_str(), user["subscriptionStatus"].as_str()), (Some("pro"), Some("trialing")));
    let (url, got) = receiver(vec![200]).await;
    let mut endpoints = Vec::new();
    for event_type in ["price_alert", "new_signal"] {
        let created = app.post_json(&app.client, "/api/webhooks", &json!({"eventType": event_type, "url": url})).await;
        assert_eq!(created.status(), 201, "{event_type}");
        let created: Value = created.json().await.expect("json");
        endpoints.push((created["webhookId"].as_str().expect("id").to_owned(), created["secret"].as_str().expect("secret").to_owned()));
    }
    let (alert_id, alert_secret) = endpoints[0].clone();
    let key = app.post_json(&app.client, "/api/api-keys", &json!({"name": "bot", "permissions": "write"})).await;
    assert_eq!(key.status(), 201);
    let key = key.json::<Value>().await.expect("json")["key"].as_str().expect("key").to_owned();

    // On the trial a test send is delivered.
    let test = app.post_json(&app.client, &format!("/api/webhooks/{alert_id}/test"), &json!({})).await;
    assert_eq!(test.status(), 200);
    assert_eq!(test.json::<Value>().await.expect("json")["succeeded"], true);
    assert_eq!(got.lock().expect("lock").len(), 1);
    // An event is queued while the trial runs, and the plan drops before the worker sends it.
    assert_eq!(emit(&app.state, &events(&user_id)[..1], app.now()).await.expect("emit"), 1);
    let in_flight = queued(&app).await.into_iter().find(|m| m.topic == "price_alert").expect("queued");
    assert_eq!(in_flight.status, "pending");

    users::set_subscription(app.db(), &user_id, "free", "active", None, app.now()).await.expect("free");

    // Free: the endpoints are kept, listed as not active (paused, not switched off for failing).
    for list in [listed(&app, &app.client).await, v1_listed(&app, &key).await] {
        assert_eq!(list.len(), 2);
        for endpoint in &list {
            assert_eq!(endpoint["isActive"], false, "{endpoint}");
            assert_eq!(endpoint["pausedForPlan"], true, "{endpoint}");
            assert!(endpoint["disabledAt"].is_null() && endpoint["failingSince"].is_null(), "{endpoint}");
        }
    }
    // A test send is refused with the plan named, nothing queued, nothing sent.
    let before = queued(&app).await.len();
    let refused = app.post_json(&app.client, &format!("/api/webhooks/{alert_id}/test"), &json!({})).await;
    assert_eq!(refused.status(), 403);
    let refused = problem(refused).await;
    assert!(refused["detail"].as_str().is_some_and(|d| d.contains("Pro")), "{refused}");
    let refused = v1_test(&app, &key, &alert_id).await;
    assert_eq!(refused.status(), 403);
    let refused = problem(refused).await;
    assert!(refused["detail"].as_str().is_some_and(|d| d.contains("Pro")), "{refused}");
    // Switching on is refused as well.
    assert_eq!(app.post_json(&app.client, &format!("/api/webhooks/{alert_id}/enable"), &json!({})).await.status(), 403);
    // Events that would go to them are not queued.
    assert_eq!(emit(&app.state, &events(&user_id), app.now()).await.expect("emit"), 0, "nothing queued for a Free owner");
    assert_eq!(queued(&app).await.len(), before, "nothing queued");
    // The message queued before the drop is not sent: it is given up with the plan as reason,
    // and the endpoint is not counted as failing.
    delivering::run_due(&app.state, app.now()).await.expect("pass");
    delivering::run_due(&app.state, app.now() + chrono::Duration::hours(2)).await.expect("later pass");
    let dropped = outbox::get(app.db(), &in_flight.id).await.expect("read").expect("kept");
    assert_eq!(dropped.status, "failed", "{dropped:?}");
    assert!(dropped.last_error.as_deref().is_some_and(|e| e.contains("Pro")), "{dropped:?}");
    assert_eq!(got.lock().expect("lock").len(), 1, "nothing more was delivered");
    assert!(listed(&app, &app.client).await.iter().all(|e| e["failingSince"].is_null() && e["disabledAt"].is_null()));

    // A trial that has run out reads as Free too.
    users::set_subscription(app.db(), &user_id, "pro", "trialing", Some(app.now() - chrono::Duration::minutes(1)), app.now())
        .await
        .expect("lapsed trial");
    assert!(listed(&app, &app.client).await.iter().all(|e| e["isActive"] == false));
    assert_eq!(app.post_json(&app.client, &format!("/api/webhooks/{alert_id}/test"), &json!({})).await.status(), 403);
    assert_eq!(emit(&app.state, &events(&user_id), app.now()).await.expect("emit"), 0);

    // Pro again: the same endpoints work, without being created again.
    users::set_subscription(app.db(), &user_id, "pro", "active", None, app.now()).await.expect("pro");
    assert!(listed(&app, &app.client).await.iter().all(|e| e["isActive"] == true && e["pausedForPlan"] == false));
    let test = app.post_json(&app.client, &format!("/api/webhooks/{alert_id}/test"), &json!({})).await;
    assert_eq!(test.status(), 200);
    assert_eq!(test.json::<Value>().await.expect("json")["succeeded"], true);
    let test = v1_test(&app, &key, &alert_id).await;
    assert_eq!(test.status(), 200);
    assert_eq!(test.json::<Value>().await.expect("json")["succeeded"], true);
    assert_eq!(emit(&app.state, &events(&user_id), app.now()).await.expect("emit"), 2, "one for each endpoint");
    assert_eq!(delivering::run_due(&app.state, app.now()).await.expect("pass"), 2);
    let received = got.lock().expect("lock").clone();
    let types: Vec<String> =
        received.iter().map(|r| serde_json::from_str::<Value>(&r.body).expect("json")["type"].as_str().expect("type").to_owned()).collect();
    assert_eq!(types.len(), 5, "{types:?}");
    assert_eq!(types.iter().filter(|t| *t == "webhook.test").count(), 3, "{types:?}");
    assert!(types.contains(&"price_alert".to_owned()) && types.contains(&"new_signal".to_owned()), "{types:?}");
    let alert = received.iter().zip(&types).find(|(_, t)| *t == "price_alert").map(|(r, _)| r).expect("alert delivered");
    assert!(verify(&alert_secret, alert), "signed with the endpoint's secret, kept through the pause");
}
