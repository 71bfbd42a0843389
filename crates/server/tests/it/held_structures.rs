//! Multi-leg positions held in the portfolio: saved from the builder's legs (Premium), valued
//! now with their Greeks and expiry analysis, counted in the portfolio's summary, kept from
//! other users, capped under parallel saves, and settled at their first expiration with the
//! P&L the payoff says. Each on both engines.

use serde_json::{Value, json};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

on_both_engines!(
    a_held_iron_condor_is_valued_and_counted_in_the_portfolio,
    held_structures_belong_to_their_owner_and_premium_saves_them,
    bad_held_positions_are_refused_by_their_path,
    parallel_saves_stop_at_the_open_cap,
    a_held_spread_settles_at_its_first_expiration_as_its_payoff_says,
);

async fn premium(app: &TestApp) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, "premium", "active", None, app.now()).await.expect("premium");
    id
}

async fn template(app: &TestApp, body: Value) -> Vec<Value> {
    let response = app.post_json(&app.client, "/api/structures/template", &body).await;
    assert_eq!(response.status(), 200, "{body}");
    let built: Value = response.json().await.expect("json");
    built["legs"].as_array().expect("legs").clone()
}

async fn save(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    app.post_json(client, "/api/portfolio/structures", body).await
}

async fn get(app: &TestApp, client: &reqwest::Client, path: &str) -> reqwest::Response {
    client.get(app.url(path)).send().await.expect("request")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

async fn summary(app: &TestApp) -> Value {
    let metrics: Value = get(app, &app.client, "/api/portfolio/metrics").await.json().await.expect("json");
    metrics["summary"].clone()
}

async fn a_held_iron_condor_is_valued_and_counted_in_the_portfolio(app: TestApp) {
    premium(&app).await;
    let before = summary(&app).await;
    let legs = template(&app, json!({"symbol": "AAPL", "template": "iron-condor"})).await;
    let response = save(&app, &app.client, &json!({"symbol": "aapl", "template": "iron-condor", "legs": legs})).await;
    assert_eq!(response.status(), 201);
    let held: Value = response.json().await.expect("json");
    assert_eq!((held["symbol"].as_str(), held["name"].as_str()), (Some("AAPL"), Some("AAPL iron condor")));
    assert_eq!((held["status"].as_str(), held["exercise"].as_str()), (Some("open"), Some("american")));
    assert_eq!(held["legs"].as_array().map(Vec::len), Some(4));
    // The entry prices are the template's, kept to the cent; an iron condor is opened for a credit.
    let credit: f64 = legs.iter().map(|l| num(&l["entryPrice"]) * if l["side"] == "short" { 100.0 } else { -100.0 }).sum();
    assert!((num(&held["netPremium"]) + credit).abs() < 0.005, "{held}");
    assert!(credit > 0.0);
    // Bought at the model's prices, it is worth about what it was opened for: within the legs'
    // rounding to the cent (half a cent × 100 shares × 4 legs) and a day's decay (the builder
    // prices to the expiration's close, the portfolio in calendar days, as every position).
    let theta = num(&held["greeks"]["theta"]);
    assert!(num(&held["pnl"]).abs() <= 2.0 + theta.abs(), "{held}");
    let expiry = &held["atExpiry"];
    assert_eq!(expiry["breakevens"].as_array().map(Vec::len), Some(2), "{expiry}");
    assert_eq!(expiry["maxLoss"]["unbounded"], false);
    assert!((num(&held["capitalAtRisk"]) + num(&expiry["maxLoss"]["pnl"])).abs() < 0.01, "{held}");
    assert!((num(&expiry["maxProfit"]["pnl"]) - credit).abs() < 0.01, "{held}");
    let greeks = &held["greeks"];
    assert!(num(&greeks["theta"]) > 0.0 && num(&greeks["vega"]) < 0.0, "short premium: {greeks}");
    let p = num(&expiry["probabilityOfProfit"]);
    assert!(p > 0.0 && p < 1.0);

    // Listed, read alone, and part of the portfolio's summary.
    let listed: Value = get(&app, &app.client, "/api/portfolio/structures").await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert_eq!(listed[0]["id"], held["id"]);
    let id = held["id"].as_str().expect("id");
    let one: Value = get(&app, &app.client, &format!("/api/portfolio/structures/{id}")).await.json().await.expect("json");
    assert_eq!(one["netPremium"], held["netPremium"]);
    let after = summary(&app).await;
    assert_eq!(num(&after["openPositions"]), num(&before["openPositions"]) + 1.0);
    assert!((num(&after["netPnl"]) - num(&before["netPnl"]) - num(&held["pnl"])).abs() < 0.02, "{before} {after} {held}");

    // Deleted, it is gone from the list and the summary.
    let deleted = app.client.delete(app.url(&format!("/api/portfolio/structures/{id}"))).send().await.expect("delete");
    assert_eq!(deleted.status(), 204);
    assert_eq!(get(&app, &app.client, &format!("/api/portfolio/structures/{id}")).await.status(), 404);
    assert_eq!(summary(&app).await["openPositions"], before["openPositions"]);
}

async fn held_structures_belong_to_their_owner_and_premium_saves_them(app: TestApp) {
    premium(&app).await;
    let legs = template(&app, json!({"symbol": "MSFT", "template": "bull-call-spread"})).await;
    let held: Value = save(&app, &app.client, &json!({"symbol": "MSFT", "legs": legs})).await.json().await.expect("json");
    let id = held["id"].as_str().expect("id");
    assert_eq!(held["name"], "MSFT custom (2 legs)");

    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    // Another user's id is not found, whatever the verb; the owner's position is untouched.
    assert_eq!(get(&app, &mallory, &format!("/api/portfolio/structures/{id}")).await.status(), 404);
    assert_eq!(mallory.delete(app.url(&format!("/api/portfolio/structures/{id}"))).send().await.expect("delete").status(), 404);
    let theirs: Value = get(&app, &mallory, "/api/portfolio/structures").await.json().await.expect("json");
    assert_eq!(theirs, json!([]));
    assert_eq!(get(&app, &app.client, &format!("/api/portfolio/structures/{id}")).await.status(), 200);
    // A Free or Pro plan saves nothing, whatever it sends; the plan is judged before the fields.
    for body in [json!({"symbol": "MSFT", "legs": legs}), json!({"symbol": "not a ticker", "legs": []})] {
        let response = save(&app, &mallory, &body).await;
        assert_eq!(response.status(), 403);
        assert!(problem(response).await["detail"].as_str().is_some_and(|d| d.contains("Premium")));
    }
    assert_eq!(reqwest::Client::new().get(app.url("/api/portfolio/structures")).send().await.expect("anonymous").status(), 401);
}

async fn bad_held_positions_are_refused_by_their_path(app: TestApp) {
    premium(&app).await;
    let legs = template(&app, json!({"symbol": "AAPL", "template": "straddle"})).await;
    let today = app.today().to_string();
    let mut expiring = legs.clone();
    expiring[1]["expirationDate"] = json!(today);
    let long_name = "x".repeat(81);
    let cases = [
        (json!({"symbol": "AAPL", "legs": expiring}), "legs[1].expirationDate"),
        (json!({"symbol": "AAPL", "name": "  ", "legs": legs}), "name"),
        (json!({"symbol": "AAPL", "name": long_name, "legs": legs}), "name"),
        (json!({"symbol": "AAPL", "legs": [{"instrument": "stock", "side": "long", "quantity": 100}]}), "legs"),
        (json!({"symbol": "AAPL", "legs": []}), "legs"),
        (json!({"symbol": "ZZZZ", "legs": legs}), "symbol"),
        (
            json!({"symbol": "AAPL", "legs": [{"instrument": "call", "side": "long", "quantity": 0, "strike": 100, "expirationDate": legs[0]["expirationDate"]}]}),
            "legs[0].quantity",
        ),
    ];
    for (body, field) in cases {
        let response = save(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let named = fields(&problem(response).await);
        assert!(named.iter().any(|f| f == field), "{field} in {named:?} for {body}");
    }
    // Nothing refused was stored.
    let listed: Value = get(&app, &app.client, "/api/portfolio/structures").await.json().await.expect("json");
    assert_eq!(listed, json!([]));
}

async fn parallel_saves_stop_at_the_open_cap(app: TestApp) {
    premium(&app).await;
    let legs = template(&app, json!({"symbol": "AAPL", "template": "long-call"})).await;
    let body = json!({"symbol": "AAPL", "legs": legs});
    let cap = strikeline_server::handlers::structures::MAX_OPEN_STRUCTURES as usize;
    let requests = (0..cap + 12).map(|_| save(&app, &app.client, &body));
    let statuses: Vec<u16> = futures_util::future::join_all(requests).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), cap, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 12, "{statuses:?}");
    let listed: Value = get(&app, &app.client, "/api/portfolio/structures").await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(cap));
}

async fn a_held_spread_settles_at_its_first_expiration_as_its_payoff_says(app: TestApp) {
    premium(&app).await;
    let legs = template(&app, json!({"symbol": "AAPL", "template": "bull-call-spread", "exercise": "european"})).await;
    let held: Value =
        save(&app, &app.client, &json!({"symbol": "AAPL", "legs": legs, "exercise": "european"})).await.json().await.expect("json");
    let id = held["id"].as_str().expect("id");
    let expiration: chrono::NaiveDate = held["firstExpiration"].as_str().expect("date").parse().expect("date");
    let settle = strikeline_server::services::portfolio_settlement::settle_structures;
    // Not before the expiration's close.
    assert_eq!(settle(&app.state, app.now()).await.expect("settle"), 0);
    let after_close = app.state.market.calendar.session(expiration).expect("a session").close + chrono::Duration::minutes(1);
    assert_eq!(settle(&app.state, after_close).await.expect("settle"), 1);
    assert_eq!(settle(&app.state, after_close).await.expect("settle again"), 0, "settled once");

    let settled: Value = get(&app, &app.client, &format!("/api/portfolio/structures/{id}")).await.json().await.expect("json");
    assert_eq!(settled["status"], "expired");
    assert_eq!((settled["greeks"].clone(), settled["atExpiry"].clone()), (Value::Null, Value::Null));
    let spot = num(&settled["settledPrice"]);
    let (low, high) = (num(&legs[0]["strike"]), num(&legs[1]["strike"]));
    let debit = num(&legs[0]["entryPrice"]) - num(&legs[1]["entryPrice"]);
    let payoff = ((spot - low).max(0.0) - (spot - high).max(0.0) - debit) * 100.0;
    assert!((num(&settled["pnl"]) - payoff).abs() < 0.015, "{settled} vs {payoff}");
    // A closed trade in the summary, and the owner is told.
    assert_eq!(summary(&app).await["closedPositions"], 1);
    let bell: Value = get(&app, &app.client, "/api/notifications").await.json().await.expect("json");
    let note = &bell["notifications"][0];
    assert_eq!(note["kind"], "position_closed");
    assert!(note["title"].as_str().is_some_and(|t| t.contains("settled at expiry")), "{note}");
}
