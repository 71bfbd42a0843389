//! The bell: notifications for new signals matching preferences, positions closed at their
//! target, and billing, with read, read-all and another user's id. Each on both engines.

use serde_json::{Value, json};
use strikeline_store::signals::{self as store, SignalMark};

use crate::common::{TestApp, signal_row};

on_both_engines!(
    matching_new_signals_and_closed_positions_notify_and_are_read,
    signal_alerts_off_means_no_new_signal_notifications,
    a_trial_is_reminded_once_before_it_ends_and_told_once_when_it_has,
    high_risk_alerts_name_the_long_shots_only_to_those_who_asked,
);

async fn bell(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/notifications")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn matching_new_signals_and_closed_positions_notify_and_are_read(app: TestApp) {
    app.register().await;
    let prefs = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Breakout"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&prefs).send().await.expect("request").status(), 200);
    let today = app.today();
    let mut momentum = signal_row("MOM", 90, today, 3, None);
    momentum.strategy = "Momentum".into();
    let mut breakout = signal_row("BRK", 90, today, 2, None);
    breakout.strategy = "Breakout".into();
    let issued = store::issue_automated(app.db(), &[momentum.clone(), breakout.clone()]).await.expect("issue");
    let now = app.now();
    strikeline_server::services::notifying::new_signals(&app.state, &issued, now).await.expect("notify");
    let first = bell(&app, &app.client).await;
    assert_eq!(first["unreadCount"], 1);
    let note = &first["notifications"][0];
    assert_eq!(
        (note["kind"].as_str(), note["title"].as_str(), note["body"].as_str()),
        (Some("new_signals"), Some("1 new signal matches your preferences"), Some("New: BRK."))
    );
    assert_eq!(note["link"], "/signals");

    // The automation opens the Breakout position; the signal hits its target; the position
    // closes and says so.
    strikeline_server::services::execution::automated::execute(&app.state, now).await.expect("tick");
    let filled = bell(&app, &app.client).await;
    assert_eq!(filled["unreadCount"], 2);
    let orders: Vec<&Value> = filled["notifications"].as_array().expect("list").iter().filter(|n| n["kind"] == "order").collect();
    assert_eq!(orders.len(), 1, "{filled}");
    assert!(orders[0]["title"].as_str().is_some_and(|t| t.starts_with("Order filled: BRK CALL")), "{filled}");
    let mark = SignalMark {
        id: breakout.id.clone(),
        current_option_cents: 450,
        current_price_cents: 10_500,
        previous_close_cents: 9_900,
        pnl_cents: 15_000,
        pnl_percent: 50.0,
        close: Some(("closed".into(), "target".into())),
        net_pnl_cents: None,
        at: now,
    };
    store::apply_marks(app.db(), &[mark]).await.expect("mark");
    let later = now + chrono::Duration::seconds(1);
    strikeline_server::services::portfolio_settlement::settle_positions(&app.state, later).await.expect("settle");
    let second = bell(&app, &app.client).await;
    assert_eq!(second["unreadCount"], 3);
    let closed = &second["notifications"][0];
    assert_eq!(closed["kind"], "position_closed");
    assert!(closed["body"].as_str().is_some_and(|b| b.contains("BRK") && b.contains("at its target")), "{closed}");

    // Read one, then all; another user reaches none of them.
    let id = closed["id"].as_str().expect("id");
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    assert_eq!(bell(&app, &mallory).await["notifications"], json!([]));
    assert_eq!(app.post_json(&mallory, &format!("/api/notifications/{id}/read"), &json!({})).await.status(), 404);
    assert_eq!(app.post_json(&app.client, &format!("/api/notifications/{id}/read"), &json!({})).await.status(), 204);
    assert_eq!(bell(&app, &app.client).await["unreadCount"], 2);
    let all: Value = app.post_json(&app.client, "/api/notifications/read-all", &json!({})).await.json().await.expect("json");
    assert_eq!(all["updated"], 2);
    let after = bell(&app, &app.client).await;
    assert_eq!(after["unreadCount"], 0);
    assert!(after["notifications"].as_array().expect("list").iter().all(|n| n["read"] == true));
    assert_eq!(TestApp::browser(&app.base).get(app.url("/api/notifications")).send().await.expect("request").status(), 401);
}

async fn signal_alerts_off_means_no_new_signal_notifications(app: TestApp) {
    app.register().await;
    assert_eq!(
        app.client.put(app.url("/api/user/preferences")).json(&json!({"signalAlerts": false})).send().await.expect("request").status(),
        200
    );
    let today = app.today();
    let issued = store::issue_automated(app.db(), &[signal_row("MOM", 90, today, 3, None)]).await.expect("issue");
    strikeline_server::services::notifying::new_signals(&app.state, &issued, app.now()).await.expect("notify");
    assert_eq!(bell(&app, &app.client).await["unreadCount"], 0);
}

async fn a_trial_is_reminded_once_before_it_ends_and_told_once_when_it_has(app: TestApp) {
    use chrono::Duration;
    use strikeline_server::services::billing::run_due;
    app.register().await;
    let titles = |bell: &Value| -> Vec<String> {
        bell["notifications"]
            .as_array()
            .expect("list")
            .iter()
            .filter(|n| n["kind"] == "billing")
            .filter_map(|n| n["title"].as_str().map(str::to_owned))
            .collect()
    };
    let now = app.now();
    run_due(&app.state, now + Duration::days(5)).await.expect("run");
    assert!(titles(&bell(&app, &app.client).await).is_empty(), "nothing nine days out");
    run_due(&app.state, now + Duration::days(12)).await.expect("run");
    run_due(&app.state, now + Duration::days(12) + Duration::hours(12)).await.expect("run");
    assert_eq!(titles(&bell(&app, &app.client).await), ["Your Pro trial ends soon"], "reminded once");
    run_due(&app.state, now + Duration::days(14) + Duration::hours(1)).await.expect("run");
    run_due(&app.state, now + Duration::days(14) + Duration::hours(5)).await.expect("run");
    assert_eq!(titles(&bell(&app, &app.client).await), ["Your Pro trial has ended", "Your Pro trial ends soon"], "told once it ended");
}

/// "High-Risk Signal Alerts": a user who switched them on hears of the new signals they can see
/// whose chance of profit at issue is under 30%, the least likely named; a user who did not,
/// nothing; a signal at 42% is not high risk.
async fn high_risk_alerts_name_the_long_shots_only_to_those_who_asked(app: TestApp) {
    app.register().await;
    // Signal alerts off, so only the high-risk note can appear.
    let body = json!({"signalAlerts": false, "highRiskAlerts": true});
    assert_eq!(app.client.put(app.url("/api/user/preferences")).json(&body).send().await.expect("request").status(), 200);
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "calm@example.com", "calm", "correct-horse").await.status(), 201);
    let off = json!({"signalAlerts": false});
    assert_eq!(other.put(app.url("/api/user/preferences")).json(&off).send().await.expect("request").status(), 200);

    let today = app.today();
    let mut long_shot = signal_row("LNG", 90, today, 1, None);
    long_shot.issue_probability = Some(0.18);
    let mut risky = signal_row("RSK", 85, today, 2, None);
    risky.issue_probability = Some(0.27);
    let fair = signal_row("FAIR", 80, today, 3, None); // 42%
    let issued = store::issue_automated(app.db(), &[long_shot, risky, fair]).await.expect("issue");
    strikeline_server::services::notifying::new_signals(&app.state, &issued, app.now()).await.expect("notify");

    let bell_of_asker = bell(&app, &app.client).await;
    assert_eq!(bell_of_asker["unreadCount"], 1);
    let note = &bell_of_asker["notifications"][0];
    assert_eq!(
        (note["title"].as_str(), note["body"].as_str(), note["link"].as_str()),
        (Some("2 new high-risk signals"), Some("Lowest: LNG CALL, a 18% chance of profit at issue."), Some("/signals"))
    );
    assert_eq!(bell(&app, &other).await["unreadCount"], 0, "switched off: nothing");
}
