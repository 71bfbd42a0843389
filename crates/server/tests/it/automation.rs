//! Automation: admin-only start and stop that survive a restart, one scheduler per database,
//! jobs chosen by the exchange calendar, and the rate-limited manual update.

use crate::common::{Engine, TestApp, problem};
use chrono::{DateTime, Duration, NaiveTime, Utc};
use serde_json::Value;
use strikeline_market::calendar::Calendar;
use strikeline_server::services::scheduling::{self as automation, schedule::Job};

on_both_engines_with!(admin, crate::common::with_admin;
    only_administrators_start_and_stop_and_the_choice_survives_a_restart,
    one_instance_runs_the_jobs_the_calendar_makes_due,
    anyone_may_run_a_manual_update_within_limits,
);

/// 10:00 New York on the first trading day at least two days from now: later than any lease
/// the background loops hold, and with the exchange open.
fn next_open_morning() -> DateTime<Utc> {
    let calendar = Calendar::nyse();
    let day = calendar.next_trading_day(crate::common::today() + Duration::days(1));
    let session = calendar.session(day).expect("a trading day has a session");
    session.open + Duration::minutes(30)
}

async fn status(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/automation/status")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn only_administrators_start_and_stop_and_the_choice_survives_a_restart(app: TestApp) {
    app.register().await;
    let before = status(&app, &app.client).await;
    assert_eq!(before["isRunning"], false, "tests start with automation stopped");
    for key in ["signalUpdates", "newSignals", "portfolioStats", "endOfDay", "preMarket", "weekend"] {
        assert!(before["nextSchedules"][key].is_string(), "{key}");
    }
    let response = app.client.post(app.url("/api/automation/start")).send().await.expect("request");
    assert_eq!(response.status(), 403);
    problem(response).await;
    let admin = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&admin, "admin@example.com", "admin", "correct-horse").await.status(), 201);
    let started: Value = admin.post(app.url("/api/automation/start")).send().await.expect("request").json().await.expect("json");
    assert_eq!(started["isRunning"], true);
    assert_eq!(status(&app, &app.client).await["isRunning"], true, "every user sees the status");
    // A second instance over the same database (a restart, or another replica) agrees.
    let url = app.database_url.clone();
    let engine = if url.starts_with("postgres") { Engine::Postgres } else { Engine::Sqlite };
    let second = TestApp::spawn_with(engine, |config| config.database_url = Some(strikeline_server::foundation::config::Secret::new(url)))
        .await
        .expect("second");
    assert!(automation::is_running(&second.state).await.expect("status"));
    let stopped: Value = admin.post(app.url("/api/automation/stop")).send().await.expect("request").json().await.expect("json");
    assert_eq!(stopped["isRunning"], false);
    assert!(!automation::is_running(&second.state).await.expect("status"));
}

async fn one_instance_runs_the_jobs_the_calendar_makes_due(app: TestApp) {
    let now = next_open_morning();
    // Stopped: nothing runs, whoever leads.
    let report = automation::tick(&app.state, now).await.expect("tick");
    assert!(report.ran.is_empty());
    strikeline_store::automation::set(app.db(), "running", "true", now).await.expect("start");
    let report = automation::tick(&app.state, now).await.expect("tick");
    assert!(report.leader);
    for job in [Job::PreMarket, Job::SignalUpdates, Job::NewSignals, Job::PortfolioStats] {
        assert!(report.ran.contains(&job), "{job:?} is due at 10:00 New York on a trading day: {report:?}");
    }
    // Nothing is due again a minute later; the marks run again after their interval.
    let report = automation::tick(&app.state, now + Duration::minutes(1)).await.expect("tick");
    assert!(report.ran.is_empty(), "{report:?}");
    let report = automation::tick(&app.state, now + Duration::minutes(5)).await.expect("tick");
    assert_eq!(report.ran, [Job::SignalUpdates]);
    // A second instance over the same database does not run the jobs while the lease is held.
    let url = app.database_url.clone();
    let engine = if url.starts_with("postgres") { Engine::Postgres } else { Engine::Sqlite };
    let second = TestApp::spawn_with(engine, |config| config.database_url = Some(strikeline_server::foundation::config::Secret::new(url)))
        .await
        .expect("second");
    let report = automation::tick(&second.state, now + Duration::minutes(5) + Duration::seconds(10)).await.expect("tick");
    assert!(!report.leader && report.ran.is_empty(), "{report:?}");
    // When the leader goes quiet past its lease, the other takes over.
    let report = automation::tick(&second.state, now + Duration::minutes(20)).await.expect("tick");
    assert!(report.leader, "{report:?}");
    // After the close, the end-of-day job runs once.
    let close = now.date_naive().and_time(NaiveTime::from_hms_opt(23, 0, 0).expect("time")).and_utc();
    let report = automation::tick(&second.state, close).await.expect("tick");
    assert!(report.ran.contains(&Job::EndOfDay), "{report:?}");
    let report = automation::tick(&second.state, close + Duration::minutes(30)).await.expect("tick");
    assert!(!report.ran.contains(&Job::EndOfDay));
    let shown = automation::current_status(&second.state, close).await.expect("status");
    assert!(shown.next_schedules.end_of_day > close && shown.last_run_at.is_some());
}

async fn anyone_may_run_a_manual_update_within_limits(app: TestApp) {
    assert_eq!(app.client.post(app.url("/api/automation/update")).send().await.expect("request").status(), 401);
    app.register().await;
    let mut statuses = Vec::new();
    for _ in 0..13 {
        statuses.push(app.client.post(app.url("/api/automation/update")).send().await.expect("request").status().as_u16());
    }
    assert!(statuses[..12].iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(statuses[12], 429);
}
