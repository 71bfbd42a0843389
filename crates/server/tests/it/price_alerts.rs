//! Price alerts: set on a watchlist symbol, triggered once by the price refresh, only ever the
//! owner's, validated field by field, at most 50 active per user. Each on both engines.

use serde_json::{Value, json};

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(with_market, crate::common::with_market;
    alerts_trigger_once_when_the_refresh_finds_the_price_beyond_the_target,
    alerts_are_validated_capped_and_only_the_owners,
);

async fn alerts(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    client.get(app.url("/api/price-alerts")).send().await.expect("request").json().await.expect("json")
}

async fn set(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    app.post_json(client, "/api/price-alerts", body).await
}

async fn alerts_trigger_once_when_the_refresh_finds_the_price_beyond_the_target(app: TestApp) {
    app.register().await;
    for (direction, target) in [("above", 0.01), ("below", 999_999.0), ("above", 999_999.0)] {
        let response = set(&app, &app.client, &json!({"symbol": "aapl", "direction": direction, "targetPrice": target})).await;
        assert_eq!(response.status(), 201);
    }
    let before = alerts(&app, &app.client).await;
    assert!(before.iter().all(|a| a["status"] == "active" && a["symbol"] == "AAPL"));

    assert_eq!(app.post_json(&app.client, "/api/update-stock-prices", &json!({})).await.status(), 200);
    let after = alerts(&app, &app.client).await;
    let triggered: Vec<&Value> = after.iter().filter(|a| a["status"] == "triggered").collect();
    assert_eq!(triggered.len(), 2, "{after:?}");
    assert!(triggered.iter().all(|a| a["triggeredPrice"].as_f64().is_some_and(|p| p > 0.01 && p < 999_999.0)));
    let bell: Value = app.client.get(app.url("/api/notifications")).send().await.expect("request").json().await.expect("json");
    let alerts_rung: Vec<&Value> = bell["notifications"].as_array().expect("list").iter().filter(|n| n["kind"] == "price_alert").collect();
    assert_eq!(alerts_rung.len(), 2, "{bell}");
    assert!(alerts_rung.iter().any(|n| n["title"] == "AAPL is above $0.01"));
    let still = after.iter().find(|a| a["status"] == "active").expect("the unreached one waits");
    assert_eq!((still["direction"].as_str(), still["targetPrice"].as_f64()), (Some("above"), Some(999_999.0)));

    // Once: another refresh changes nothing about the triggered ones.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(app.post_json(&app.client, "/api/update-stock-prices", &json!({})).await.status(), 200);
    let again = alerts(&app, &app.client).await;
    for alert in triggered {
        let now = again.iter().find(|a| a["id"] == alert["id"]).expect("still listed");
        assert_eq!(now["triggeredAt"], alert["triggeredAt"]);
    }
}

async fn alerts_are_validated_capped_and_only_the_owners(app: TestApp) {
    app.register().await;
    for (body, field) in [
        (json!({"symbol": "ZZZZ", "direction": "above", "targetPrice": 10.0}), "symbol"),
        (json!({"symbol": "1AB", "direction": "above", "targetPrice": 10.0}), "symbol"),
        (json!({"symbol": "AAPL", "direction": "sideways", "targetPrice": 10.0}), "direction"),
        (json!({"symbol": "AAPL", "direction": "above", "targetPrice": 0}), "targetPrice"),
        (json!({"symbol": "AAPL", "direction": "above", "targetPrice": 10.005}), "targetPrice"),
        (json!({"symbol": "AAPL", "direction": "above"}), "targetPrice"),
    ] {
        let response = set(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    assert!(alerts(&app, &app.client).await.is_empty());
    for i in 0..50 {
        let response = set(&app, &app.client, &json!({"symbol": "MSFT", "direction": "above", "targetPrice": 1000.0 + f64::from(i)})).await;
        assert_eq!(response.status(), 201);
    }
    let over = set(&app, &app.client, &json!({"symbol": "MSFT", "direction": "above", "targetPrice": 5000.0})).await;
    assert_eq!(over.status(), 409);
    let id = alerts(&app, &app.client).await[0]["id"].as_str().expect("id").to_owned();
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    assert!(alerts(&app, &mallory).await.is_empty());
    assert_eq!(mallory.delete(app.url(&format!("/api/price-alerts/{id}"))).send().await.expect("request").status(), 404);
    assert_eq!(app.client.delete(app.url(&format!("/api/price-alerts/{id}"))).send().await.expect("request").status(), 204);
    assert_eq!(alerts(&app, &app.client).await.len(), 49);
}
