//! The predictive model on the server: trained walk-forward on the stored history through the
//! backtester and stored as a version; the shipping model scores new signals at issue; Premium
//! sees its probability and why, in the app and through the API; other plans do not.

use serde_json::{Value, json};
use strikeline_server::services::predicting;
use strikeline_store::models::{self, ModelRow};
use strikeline_store::users;

use crate::common::TestApp;

/// Four years of simulated history: enough resolved signals to fit and to hold a year out.
fn with_history(config: &mut strikeline_server::foundation::config::Config) {
    config.market.history_years = 4;
}

on_both_engines_with!(history, crate::predicting::with_history;
    a_trained_model_is_stored_and_premium_sees_its_probability_and_why,
);

async fn json_of(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn a_trained_model_is_stored_and_premium_sees_its_probability_and_why(app: TestApp) {
    let trained = predicting::train(&app.state, app.now()).await.expect("trained");
    assert!(trained.examples >= 200, "{} examples", trained.examples);
    let stored = models::latest(app.db()).await.expect("read").expect("stored");
    assert_eq!(
        (stored.version.as_str(), stored.ships, stored.examples as usize),
        (trained.version.as_str(), trained.ships, trained.examples)
    );
    assert_eq!(stored.trained_through, app.state.market.last_completed_day(app.now()));
    // It ships exactly when it beat the strength on the held-out years.
    assert_eq!(trained.ships, trained.evaluation.as_ref().is_some_and(|e| e.beats_strength));
    if let Some(evaluation) = &trained.evaluation {
        assert!(evaluation.n > 0 && (0.0..=1.0).contains(&evaluation.model.brier));
        assert_eq!(evaluation.beats_strength, evaluation.model.brier < evaluation.strength.brier);
    }
    // The track record publishes the newest model and its held-out figures, whether it ships or not.
    let summary = json_of(app.client.get(app.url("/api/public/track-record")).send().await.expect("request")).await;
    assert_eq!(summary["model"]["version"], trained.version.as_str());
    assert_eq!(summary["model"]["ships"], trained.ships);

    // Make this model the shipping one whatever it scored, to see how a shipping model serves.
    let forced = ModelRow { version: "forced-for-test".into(), created_at: app.now(), ships: true, ..stored };
    models::insert(app.db(), &forced).await.expect("insert");
    let ada = app.register().await;
    let ada_id = ada["user"]["id"].as_str().or(ada["id"].as_str()).map(str::to_owned);
    let ada = match ada_id {
        Some(id) => id,
        None => users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user").id,
    };
    users::set_subscription(app.db(), &ada, "premium", "active", None, app.now()).await.expect("premium");
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": "MSFT"})).await;
    assert_eq!(response.status(), 201);
    let signal: Value = response.json().await.expect("json");
    let id = signal["id"].as_str().expect("id").to_owned();
    let analysis = json_of(app.client.get(app.url(&format!("/api/signals/{id}/analysis"))).send().await.expect("request")).await;
    assert_eq!(analysis["modelIncluded"], true);
    let model = &analysis["model"];
    assert_eq!(model["version"], "forced-for-test", "the version that scored it is kept");
    let p = model["probability"].as_f64().expect("probability");
    assert!((0.0..=1.0).contains(&p));
    let why = model["why"].as_array().expect("why");
    assert!(!why.is_empty() && why.len() <= predicting::WHY_REASONS, "{why:?}");
    assert!(why.iter().all(|r| r["label"].is_string() && r["effect"].is_number()));
    let effects: Vec<f64> = why.iter().map(|r| r["effect"].as_f64().unwrap_or(0.0).abs()).collect();
    assert!(effects.windows(2).all(|w| w[0] >= w[1]), "largest first: {effects:?}");

    // Pro: the same signal's detail leaves the model out.
    users::set_subscription(app.db(), &ada, "pro", "active", None, app.now()).await.expect("pro");
    let analysis = json_of(app.client.get(app.url(&format!("/api/signals/{id}/analysis"))).send().await.expect("request")).await;
    assert_eq!(analysis["modelIncluded"], false);
    assert!(analysis["model"].is_null());
}
