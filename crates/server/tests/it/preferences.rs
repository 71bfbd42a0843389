//! Investment preferences: saved exactly as entered, validated field by field (nothing stored
//! from a refused request), only ever the caller's own, and followed by the automation from the
//! next tick on.

use serde_json::{Value, json};
use strikeline_store::signals as store;

use crate::common::{TestApp, fields, problem, signal_row};

on_both_engines!(
    preferences_read_back_exactly_as_entered,
    bad_preferences_are_422_naming_the_field_and_change_nothing,
    automated_positions_follow_saved_preferences_from_the_next_tick,
);

async fn patch(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    client.patch(app.url("/api/user/preferences")).json(body).send().await.expect("request")
}

async fn me(app: &TestApp) -> Value {
    app.me(&app.client).await.json().await.expect("json")
}

async fn preferences_read_back_exactly_as_entered(app: TestApp) {
    app.register().await;
    let body = json!({"investmentCapital": 12345.67, "riskTolerance": "high", "maxPositionSize": 1234.5, "preferredStrategies": " breakout, MOMENTUM ,breakout"});
    let response = patch(&app, &app.client, &body).await;
    assert_eq!(response.status(), 200);
    let saved: Value = response.json().await.expect("json");
    for user in [saved, me(&app).await] {
        assert_eq!(user["investmentCapital"], 12345.67);
        assert_eq!(user["maxPositionSize"], 1234.5);
        assert_eq!(user["riskTolerance"], "high");
        assert_eq!(user["preferredStrategies"], "Breakout,Momentum", "canonical spelling, in the order given, once each");
    }
    // A partial update keeps the rest; an empty list means none.
    assert_eq!(patch(&app, &app.client, &json!({"preferredStrategies": ""})).await.status(), 200);
    let user = me(&app).await;
    assert_eq!((user["preferredStrategies"].as_str(), user["investmentCapital"].as_f64()), (Some(""), Some(12345.67)));
    // Signed out: 401, and the route never takes another user's id.
    let stranger = TestApp::browser(&app.base);
    assert_eq!(patch(&app, &stranger, &json!({"investmentCapital": 1.0})).await.status(), 401);
}

async fn bad_preferences_are_422_naming_the_field_and_change_nothing(app: TestApp) {
    app.register().await;
    assert_eq!(patch(&app, &app.client, &json!({"investmentCapital": 5000, "maxPositionSize": 500})).await.status(), 200);
    let before = me(&app).await;
    for (body, field) in [
        (json!({"investmentCapital": 0}), "investmentCapital"),
        (json!({"investmentCapital": -10}), "investmentCapital"),
        (json!({"investmentCapital": 10.005}), "investmentCapital"),
        (json!({"investmentCapital": 1e12}), "investmentCapital"),
        (json!({"maxPositionSize": 5000.01}), "maxPositionSize"),
        (json!({"investmentCapital": 100}), "investmentCapital"),
        (json!({"preferredStrategies": "Momentum,Scalping"}), "preferredStrategies"),
        (json!({"riskTolerance": "reckless"}), "riskTolerance"),
        (json!({"investmentCapital": "lots"}), "investmentCapital"),
    ] {
        let response = patch(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    let unknown = patch(&app, &app.client, &json!({"colour": "red"})).await;
    assert!(unknown.status().is_client_error(), "unknown fields are refused");
    assert_eq!(me(&app).await, before, "nothing stored from a refused request");
}

async fn automated_positions_follow_saved_preferences_from_the_next_tick(app: TestApp) {
    app.register().await;
    let body = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Breakout"});
    assert_eq!(patch(&app, &app.client, &body).await.status(), 200);
    let today = app.today();
    let mut momentum = signal_row("MOM", 90, today, 3, None);
    momentum.strategy = "Momentum".into();
    let mut breakout = signal_row("BRK", 90, today, 2, None);
    breakout.strategy = "Breakout".into();
    store::issue_automated(app.db(), &[momentum.clone(), breakout.clone()]).await.expect("issue");
    let tick = || strikeline_server::services::execution::automated::execute(&app.state, app.now());
    assert_eq!(tick().await.expect("tick"), 1, "only the preferred strategy");
    let held = |rows: &[Value]| rows.iter().map(|r| r["signal"]["symbol"].as_str().expect("symbol").to_owned()).collect::<Vec<_>>();
    let rows: Vec<Value> = app.client.get(app.url("/api/portfolio/positions")).send().await.expect("request").json().await.expect("json");
    assert_eq!(held(&rows), ["BRK"]);
    let cost = rows[0]["quantity"].as_f64().expect("qty") * rows[0]["entryPrice"].as_f64().expect("entry") * 100.0;
    assert!(cost <= 1000.0 && cost > 0.0, "within the maximum position size: {cost}");
    // New preferences apply from the next tick on; what is open stays.
    assert_eq!(patch(&app, &app.client, &json!({"preferredStrategies": "Momentum"})).await.status(), 200);
    assert_eq!(tick().await.expect("tick"), 1);
    let rows: Vec<Value> = app.client.get(app.url("/api/portfolio/positions")).send().await.expect("request").json().await.expect("json");
    let mut symbols = held(&rows);
    symbols.sort();
    assert_eq!(symbols, ["BRK", "MOM"]);
}
