//! Signals from the simulated market: listing with filters, plan quotas, on-demand generation,
//! the detail analysis, the lifecycle, the dashboard figures and live events.

use crate::common::{TestApp, fields, instant, problem};
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};
use strikeline_store::signals::{self as store, SignalRow};
use strikeline_store::{snapshots, users};

on_both_engines_with!(market, crate::common::with_market;
    the_simulated_market_yields_signals_that_the_filters_narrow,
    generating_for_a_symbol_gives_an_owned_signal_with_an_analysis,
    a_refresh_marks_signals_and_tells_open_pages,
);

on_both_engines!(
    the_free_plan_sees_five_signals_a_day_and_the_rest_locked,
    generation_is_for_paid_plans_and_counts_toward_the_quota,
    bad_filters_and_symbols_are_422_naming_the_field,
    signals_close_at_target_or_stop_and_expire_at_expiry,
    stat_changes_compare_with_stored_snapshots,
    the_event_stream_needs_a_session,
);

async fn signals(app: &TestApp, query: &str) -> Vec<Value> {
    crate::common::signal_page(app, &app.client, query).await
}

async fn the_simulated_market_yields_signals_that_the_filters_narrow(app: TestApp) {
    app.register().await;
    let all = signals(&app, "").await;
    assert!(!all.is_empty(), "the strategies find setups among 50 names");
    for s in &all {
        assert_eq!(s["locked"], false, "a Pro trial sees every signal");
        assert!(["CALL", "PUT", "STRADDLE"].contains(&s["signalType"].as_str().expect("type")));
        let entry = s["entryPrice"].as_f64().expect("entry");
        assert!(entry > 0.0 && s["targetPrice"].as_f64().expect("target") > entry && s["stopLoss"].as_f64().expect("stop") < entry, "{s}");
        assert!((0..=100).contains(&s["confidence"].as_i64().expect("confidence")));
        assert!(s["reasoning"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(s["expirationDate"].as_str().expect("expiry") > s["createdAt"].as_str().expect("created"));
    }
    let strategy = all[0]["strategy"].as_str().expect("strategy").to_owned();
    let same = signals(&app, &format!("?strategy={}", strategy.replace(' ', "%20"))).await;
    assert!(!same.is_empty() && same.iter().all(|s| s["strategy"] == strategy.as_str()));
    for s in signals(&app, "?riskLevel=high").await {
        assert!(s["confidence"].as_i64().expect("confidence") > 70);
    }
    for s in signals(&app, "?maxCost=under-50").await {
        assert!(s["entryPrice"].as_f64().expect("entry") * 100.0 <= 50.0);
    }
    let symbol = all[0]["symbol"].as_str().expect("symbol").to_owned();
    let by_symbol = signals(&app, &format!("?symbol={}", symbol.to_lowercase())).await;
    assert!(by_symbol.iter().all(|s| s["symbol"].as_str().expect("symbol").starts_with(&symbol)));
    assert!(signals(&app, "?status=expired").await.is_empty(), "nothing has expired on a fresh market");
    // The watchlist holds the 50 names with live quotes and a 52-week range around them.
    let stocks: Vec<Value> = app.client.get(app.url("/api/stock-prices")).send().await.expect("request").json().await.expect("json");
    assert_eq!(stocks.len(), 50);
    for s in &stocks {
        let (price, high, low) =
            (s["currentPrice"].as_f64().expect("p"), s["high52Week"].as_f64().expect("h"), s["low52Week"].as_f64().expect("l"));
        assert!(low <= price && price <= high, "{s}");
    }
    let response = app.client.post(app.url("/api/update-stock-prices")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let updated: Vec<Value> = response.json().await.expect("json");
    assert_eq!(updated.len(), 50);
    assert!(updated.iter().all(|s| instant(&s["lastUpdated"]) >= instant(&stocks[0]["lastUpdated"])));
}

async fn generating_for_a_symbol_gives_an_owned_signal_with_an_analysis(app: TestApp) {
    app.register().await;
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": " msft "})).await;
    assert_eq!(response.status(), 201);
    let signal: Value = response.json().await.expect("json");
    assert_eq!(signal["symbol"], "MSFT");
    assert_eq!(signal["companyName"], "Microsoft Corporation");
    assert_eq!(signal["onDemand"], true);
    let id = signal["id"].as_str().expect("id");
    // Another user never sees it.
    let other = TestApp::browser(&app.base);
    app.register_with(&other, "grace@example.com", "grace", "correct-horse").await;
    let theirs = crate::common::signal_page(&app, &other, "").await;
    assert!(theirs.iter().all(|s| s["id"] != id));
    assert_eq!(other.get(app.url(&format!("/api/signals/{id}/analysis"))).send().await.expect("request").status(), 404);
    // The owner gets the charts: 90 sessions of history, a payoff across prices, breakevens.
    let analysis: Value =
        app.client.get(app.url(&format!("/api/signals/{id}/analysis"))).send().await.expect("request").json().await.expect("json");
    assert_eq!(analysis["history"].as_array().expect("history").len(), 90);
    let payoff = analysis["payoff"].as_array().expect("payoff");
    assert!(payoff.len() > 50);
    let max_loss = analysis["maxLoss"].as_f64().expect("max loss");
    assert!((max_loss - signal["entryPrice"].as_f64().expect("entry") * 100.0).abs() < 0.02, "max loss is the premium paid");
    assert!(
        payoff.iter().all(|p| p["expiry"].as_f64().expect("pnl") >= -max_loss - 0.01),
        "a long option never loses more than its premium"
    );
    // Today's line is American: never below what exercising now would bring.
    assert!(payoff.iter().all(|p| p["today"].as_f64().expect("today") >= p["expiry"].as_f64().expect("expiry") - 0.01), "{payoff:?}");
    let pop = analysis["probabilityOfProfit"].as_f64().expect("pop");
    assert!((0.0..=1.0).contains(&pop));
    let breakevens = analysis["breakevens"].as_array().expect("breakevens").len();
    assert_eq!(breakevens, if signal["signalType"] == "STRADDLE" { 2 } else { 1 });
    // A symbol the watchlist did not track is added on the way.
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": "PLTR"})).await;
    assert_eq!(response.status(), 201);
    let stocks: Vec<Value> = app.client.get(app.url("/api/stock-prices")).send().await.expect("request").json().await.expect("json");
    assert!(stocks.iter().any(|s| s["symbol"] == "PLTR"));
    // History for charts, bounded.
    let bars: Vec<Value> =
        app.client.get(app.url("/api/stock-prices/MSFT/history?days=10")).send().await.expect("request").json().await.expect("json");
    assert_eq!(bars.len(), 10);
    assert_eq!(app.client.get(app.url("/api/stock-prices/ZZZZ/history")).send().await.expect("request").status(), 404);
    let response = app.client.get(app.url("/api/stock-prices/MSFT/history?days=0")).send().await.expect("request");
    assert_eq!(fields(&problem(response).await), ["days"]);
}

async fn a_refresh_marks_signals_and_tells_open_pages(app: TestApp) {
    app.register().await;
    let mut events = app.client.get(app.url("/api/events")).send().await.expect("stream");
    assert_eq!(events.status(), 200);
    assert!(events.headers()["content-type"].to_str().unwrap_or("").starts_with("text/event-stream"));
    let response = app.client.post(app.url("/api/refresh")).send().await.expect("request");
    assert_eq!(response.status(), 202);
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    // Both topics arrive, in either order (on PostgreSQL each travels as its own NOTIFY).
    while !(seen.contains("event: signals") && seen.contains("event: prices")) {
        match tokio::time::timeout_at(deadline, events.chunk()).await {
            Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            other => panic!("no signals and prices events within 5 s (got {seen:?}, {other:?})"),
        }
    }
    // Refreshing is rate limited per user.
    let mut last = 202;
    for _ in 0..12 {
        last = app.client.post(app.url("/api/refresh")).send().await.expect("request").status().as_u16();
    }
    assert_eq!(last, 429);
}

/// An automated signal issued on `day` with `confidence`, priced simply.
fn automated(symbol: &str, confidence: i64, day: NaiveDate, minutes_ago: i64) -> SignalRow {
    crate::common::signal_row(symbol, confidence, day, minutes_ago, None)
}

async fn make_free(app: &TestApp, email: &str) {
    let user = users::find_by_email(app.db(), email).await.expect("query").expect("user");
    users::set_subscription(app.db(), &user.id, "free", "active", None, app.now()).await.expect("free");
}

async fn the_free_plan_sees_five_signals_a_day_and_the_rest_locked(app: TestApp) {
    app.register().await;
    let today = app.today();
    let rows: Vec<SignalRow> = (0..8).map(|i| automated(&format!("S{i}"), 40 + i * 5, today, i)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    // A Pro trial sees all eight.
    assert!(signals(&app, "").await.iter().all(|s| s["locked"] == false));
    make_free(&app, "ada@example.com").await;
    let listed = signals(&app, "").await;
    let unlocked: Vec<i64> = listed.iter().filter(|s| s["locked"] == false).map(|s| s["confidence"].as_i64().expect("c")).collect();
    let mut sorted = unlocked.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [55, 60, 65, 70, 75], "the five highest-confidence signals of the day");
    let locked: Vec<&Value> = listed.iter().filter(|s| s["locked"] == true).collect();
    assert_eq!(locked.len(), 3);
    for s in &locked {
        assert!(s["strikePrice"].is_null() && s["signalType"].is_null() && s["reasoning"].is_null() && s["entryPrice"].is_null(), "{s}");
        assert!(s["symbol"].is_string() && s["confidence"].is_null(), "{s}");
    }
    // Filtering never unlocks more: the lowest-confidence signal stays locked when alone.
    let risky = signals(&app, "?riskLevel=medium").await;
    assert!(risky.iter().filter(|s| s["confidence"].as_i64() == Some(40)).all(|s| s["locked"] == true));
    let id = locked[0]["id"].as_str().expect("id");
    let response = app.client.get(app.url(&format!("/api/signals/{id}/analysis"))).send().await.expect("request");
    assert_eq!(response.status(), 403);
    problem(response).await;
}

async fn generation_is_for_paid_plans_and_counts_toward_the_quota(app: TestApp) {
    app.register().await;
    let user = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user");
    // Fifty on-demand signals already today: the Pro quota is used up.
    let today = app.issue_day();
    for i in 0..50 {
        let mut row = automated("AAPL", 50, today, i);
        row.owner_id = Some(user.id.clone());
        store::insert_on_demand(app.db(), &row).await.expect("insert");
    }
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": "AAPL"})).await;
    assert_eq!(response.status(), 429);
    assert!(problem(response).await["detail"].as_str().unwrap_or("").contains("50"));
    make_free(&app, "ada@example.com").await;
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": "AAPL"})).await;
    assert_eq!(response.status(), 403);
    problem(response).await;
    // The plan is the answer whatever the symbol: a Free caller is not taught the symbol rules.
    let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &json!({"symbol": "1BAD"})).await;
    assert_eq!(response.status(), 403);
    problem(response).await;
}

async fn bad_filters_and_symbols_are_422_naming_the_field(app: TestApp) {
    let anonymous = app.client.get(app.url("/api/signals")).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
    app.register().await;
    for (query, field) in [
        ("?strategy=Scalping", "strategy"),
        ("?maxCost=cheap", "maxCost"),
        ("?riskLevel=yolo", "riskLevel"),
        ("?colour=red", "colour"),
        ("?symbol=%24%24", "symbol"),
    ] {
        let response = app.client.get(app.url(&format!("/api/signals{query}"))).send().await.expect("request");
        assert_eq!(response.status(), 422, "{query}");
        assert_eq!(fields(&problem(response).await), [field], "{query}");
    }
    for body in [json!({"symbol": "   "}), json!({"symbol": "1BAD"}), json!({"symbol": 7})] {
        let response = app.post_json(&app.client, "/api/signals/generate-for-symbol", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), ["symbol"], "{body}");
    }
    // Bulk add: each entry on its own, with a reason.
    let body = json!({"symbols": [{"symbol": "pltr", "companyName": "Palantir Technologies", "sector": "Technology"}, {"symbol": "1BAD"}, {"symbol": "AAPL"}, {"symbol": "SNOW", "sector": "Space"}]});
    let response = app.post_json(&app.client, "/api/stock-prices/bulk-add", &body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.expect("json");
    assert_eq!(answer["summary"], json!({"successful": 1, "failed": 3}));
    let reasons: Vec<(&str, &str)> = answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["ok"] == false)
        .map(|r| (r["symbol"].as_str().unwrap_or(""), r["reason"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        reasons,
        [("1BAD", "Not a valid ticker symbol"), ("AAPL", "Already in the watchlist"), ("SNOW", "Unknown sector \"Space\"")]
    );
    assert_eq!(answer["results"][0]["stock"]["companyName"], "Palantir Technologies");
    for body in [json!({"symbols": []}), json!({"symbols": [{"symbol": " "}]})] {
        let response = app.post_json(&app.client, "/api/stock-prices/bulk-add", &body).await;
        assert_eq!(fields(&problem(response).await), ["symbols"], "{body}");
    }
}

async fn signals_close_at_target_or_stop_and_expire_at_expiry(app: TestApp) {
    use strikeline_market::Quote;
    let today = app.today();
    let mut target = automated("TGT", 60, today, 3);
    target.strategy = "Breakout".into();
    let stop = automated("STP", 60, today, 2);
    let mut expired = automated("EXP", 60, today - Duration::days(60), 1);
    expired.expiration_date = today - Duration::days(3);
    store::issue_automated(app.db(), &[target.clone(), stop.clone(), expired.clone()]).await.expect("issue");
    let quote = |symbol: &str, price: f64| {
        (
            symbol.to_owned(),
            Quote {
                symbol: symbol.into(),
                price,
                previous_close: 99.0,
                day_open: 99.0,
                day_high: price.max(99.0),
                day_low: price.min(99.0),
                volume: 1,
                at: app.now(),
            },
        )
    };
    let quotes = [quote("TGT", 120.0), quote("STP", 80.0), quote("EXP", 104.0)].into_iter().collect();
    let ended = strikeline_server::services::signal_issuing::mark_signals(&app.state, &quotes, app.now()).await.expect("mark");
    assert_eq!(ended, 3);
    let find = |id: String| {
        let db = app.db().clone();
        async move { store::find(&db, &id).await.expect("query").expect("row") }
    };
    let t = find(target.id).await;
    assert_eq!((t.status.as_str(), t.close_reason.as_deref()), ("closed", Some("target")));
    assert!(t.pnl_cents > 0 && t.current_option_cents >= t.target_cents);
    let s = find(stop.id).await;
    assert_eq!((s.status.as_str(), s.close_reason.as_deref()), ("closed", Some("stop")));
    assert!(s.pnl_cents < 0);
    let e = find(expired.id).await;
    assert_eq!((e.status.as_str(), e.close_reason.as_deref()), ("expired", Some("expiry")));
    assert_eq!(e.current_option_cents, 400, "a call struck at 100 expires worth its intrinsic value at 104");
    assert_eq!(e.pnl_cents, 10_000, "(4.00 − 3.00) × 100 per contract");
    // What was issued is never overwritten, and an ended signal is not marked again.
    assert_eq!((e.entry_cents, e.strike_cents, e.target_cents), (300, 10_000, 450));
    let quotes = [quote("EXP", 200.0)].into_iter().collect();
    strikeline_server::services::signal_issuing::mark_signals(&app.state, &quotes, app.now()).await.expect("mark");
    assert_eq!(find(e.id).await.current_option_cents, 400);
}

async fn stat_changes_compare_with_stored_snapshots(app: TestApp) {
    app.register().await;
    let today = app.today();
    store::issue_automated(app.db(), &[automated("AAA", 80, today, 2), automated("BBB", 60, today, 1)]).await.expect("issue");
    let stats: Value = app.client.get(app.url("/api/stats")).send().await.expect("request").json().await.expect("json");
    assert_eq!(stats["activeSignals"], 2);
    assert_eq!(stats["avgConfidence"], 70.0);
    assert!(stats["winRate"].is_null(), "no closed signals yet");
    assert!(stats["changes"]["activeSignals"]["value"].is_null(), "no snapshot to compare with: the card shows —");
    assert_eq!(stats["changes"]["activeSignals"]["label"], "vs yesterday");
    let ny_today = strikeline_market::calendar::to_new_york(app.now()).date_naive();
    let snapshot = |day: NaiveDate, active: i64, confidence: f64| snapshots::Snapshot {
        day,
        active_signals: active,
        win_rate: None,
        avg_confidence: Some(confidence),
        taken_at: app.now(),
    };
    snapshots::upsert(app.db(), &snapshot(ny_today - Duration::days(1), 4, 70.0)).await.expect("snapshot");
    snapshots::upsert(app.db(), &snapshot(ny_today - Duration::days(8), 1, 65.5)).await.expect("snapshot");
    // Every writer announces its change; that is what drops the shared figures' cache.
    app.state.events.publish(strikeline_server::foundation::events::Topic::Stats);
    let stats: Value = app.client.get(app.url("/api/stats")).send().await.expect("request").json().await.expect("json");
    assert_eq!(stats["changes"]["activeSignals"]["value"], -50.0, "2 now against 4 yesterday");
    assert_eq!(stats["changes"]["avgConfidence"]["value"], 4.5, "70.0 now against 65.5 a week ago, in points");
    // Updating the figures stores today's snapshot.
    let response = app.client.post(app.url("/api/update-stats")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let stored = snapshots::on_or_before(app.db(), ny_today).await.expect("query").expect("snapshot");
    assert_eq!((stored.day, stored.active_signals), (ny_today, 2));
}

async fn the_event_stream_needs_a_session(app: TestApp) {
    let response = app.client.get(app.url("/api/events")).send().await.expect("request");
    assert_eq!(response.status(), 401);
    problem(response).await;
}

/// On PostgreSQL a change published by one instance reaches the open pages of every instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_reach_every_instance_sharing_a_postgres_database() {
    use strikeline_server::foundation::events::Topic;
    let Some(first) = TestApp::spawn(crate::common::Engine::Postgres).await else { return };
    let url = first.database_url.clone();
    let second = TestApp::spawn_with(crate::common::Engine::Postgres, |c| {
        c.database_url = Some(strikeline_server::foundation::config::Secret::new(url))
    })
    .await
    .expect("second instance");
    let mut on_second = second.state.events.subscribe();
    // The listener connects in the background; publish until it hears (bounded).
    let heard = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            // Automation is a topic no start-up work publishes (the scheduler is stopped in tests).
            first.state.events.publish(Topic::Automation);
            match tokio::time::timeout(std::time::Duration::from_millis(300), on_second.recv()).await {
                Ok(Ok((Topic::Automation, _))) => return Topic::Automation,
                _ => continue,
            }
        }
    })
    .await
    .expect("the second instance hears the first within 10 s");
    assert_eq!(heard, Topic::Automation);
}
