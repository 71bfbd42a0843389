//! Portfolios and backtests: manual positions (validation, exact money, ownership), automated
//! positions from signals, the analysis, and backtests within the plan's limits.

use crate::common::{TestApp, fields, problem};
use chrono::Duration;
use serde_json::{Value, json};
use strikeline_store::users;

on_both_engines_with!(market, crate::common::with_market;
    a_manual_position_is_valued_read_back_exactly_and_owned,
    automated_positions_follow_the_users_preferences,
    backtests_run_the_live_strategies_within_the_plan,
    a_premium_backtest_trades_calls_and_puts_as_vertical_spreads,
    a_premium_backtest_trades_a_custom_strategy,
);

on_both_engines!(manual_positions_reject_bad_input_field_by_field);

fn position(expiration: &str) -> Value {
    json!({
        "symbol": "aapl", "companyName": "Apple Inc.", "type": "call", "strikePrice": 250.0,
        "expirationDate": expiration, "quantity": 2, "entryPrice": 12.34, "targetPrice": 20.5,
        "reasoning": "Earnings run-up", "status": "open"
    })
}

fn in_days(days: i64) -> String {
    (crate::common::today() + Duration::days(days)).format("%Y-%m-%d").to_string()
}

async fn a_manual_position_is_valued_read_back_exactly_and_owned(app: TestApp) {
    app.register().await;
    let response = app.post_json(&app.client, "/api/manual-positions", &position(&in_days(40))).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.expect("json");
    assert_eq!(created["symbol"], "AAPL");
    assert_eq!(created["type"], "CALL");
    assert_eq!(created["entryPrice"], 12.34, "money reads back exactly as entered");
    assert_eq!(created["targetPrice"], 20.5);
    assert_eq!(created["status"], "open");
    assert!(created["stopLoss"].is_null());
    let current = created["currentPrice"].as_f64().expect("valued at once");
    assert!(current > 0.0);
    let expected_pnl = ((current - 12.34) * 200.0 * 100.0).round() / 100.0;
    assert!((created["pnl"].as_f64().expect("pnl") - expected_pnl).abs() < 0.02, "P&L per contract × 100 × quantity");
    let id = created["id"].as_str().expect("id").to_owned();
    let list: Vec<Value> = app.client.get(app.url("/api/manual-positions")).send().await.expect("request").json().await.expect("json");
    assert_eq!(list.len(), 1);
    // The detail: Greeks of the whole position, risk and payoff.
    let detail: Value =
        app.client.get(app.url(&format!("/api/manual-positions/{id}"))).send().await.expect("request").json().await.expect("json");
    assert_eq!(detail["kind"], "manual");
    assert_eq!(detail["totalCost"], 2468.0, "12.34 × 100 × 2");
    assert_eq!(detail["riskMetrics"]["maxLoss"], 2468.0);
    assert!(detail["riskMetrics"]["maxGain"].is_null(), "a long call's gain is unlimited");
    let delta = detail["greeks"]["delta"].as_f64().expect("delta");
    assert!(delta > 0.0 && delta <= 200.0, "two calls: between 0 and 200 shares of delta, got {delta}");
    assert!(detail["payoff"].as_array().expect("payoff").len() > 20);
    // Another user sees none of it.
    let other = TestApp::browser(&app.base);
    app.register_with(&other, "grace@example.com", "grace", "correct-horse").await;
    for request in
        [other.get(app.url(&format!("/api/manual-positions/{id}"))), other.delete(app.url(&format!("/api/manual-positions/{id}")))]
    {
        assert_eq!(request.send().await.expect("request").status(), 404);
    }
    let theirs: Vec<Value> = other.get(app.url("/api/manual-positions")).send().await.expect("request").json().await.expect("json");
    assert!(theirs.is_empty());
    // The analysis covers it.
    let analysis: Value = app.client.get(app.url("/api/portfolio/metrics")).send().await.expect("request").json().await.expect("json");
    assert_eq!(analysis["summary"]["openPositions"], 1);
    assert!(["low", "moderate", "high"].contains(&analysis["riskAssessment"]["riskLevel"].as_str().expect("level")));
    assert!(!analysis["riskAssessment"]["riskFactors"].as_array().expect("factors").is_empty());
    assert_eq!(analysis["history"].as_array().expect("history").len(), 1, "today's value is recorded");
    // Deleting is for good.
    assert_eq!(app.client.delete(app.url(&format!("/api/manual-positions/{id}"))).send().await.expect("request").status(), 204);
    assert_eq!(app.client.get(app.url(&format!("/api/manual-positions/{id}"))).send().await.expect("request").status(), 404);
}

async fn manual_positions_reject_bad_input_field_by_field(app: TestApp) {
    app.register().await;
    let bad = json!({
        "symbol": "1BAD", "companyName": " ", "type": "collar", "strikePrice": -5, "expirationDate": "2020-01-01",
        "quantity": 0, "entryPrice": 1.234, "stopLoss": 0, "status": "closed"
    });
    let response = app.post_json(&app.client, "/api/manual-positions", &bad).await;
    assert_eq!(response.status(), 422);
    let mut named = fields(&problem(response).await);
    named.sort();
    assert_eq!(named, ["companyName", "entryPrice", "expirationDate", "quantity", "status", "stopLoss", "strikePrice", "symbol", "type"]);
    for (patch, field) in [
        (json!({"expirationDate": "2026-02-30"}), "expirationDate"),
        (json!({"quantity": 1.5}), "quantity"),
        (json!({"strikePrice": "ten"}), "strikePrice"),
    ] {
        let mut body = position(&in_days(30));
        for (k, v) in patch.as_object().expect("object") {
            body[k] = v.clone();
        }
        let response = app.post_json(&app.client, "/api/manual-positions", &body).await;
        assert_eq!(response.status(), 422, "{patch}");
        assert_eq!(fields(&problem(response).await), [field], "{patch}");
    }
    let listed: Vec<Value> = app.client.get(app.url("/api/manual-positions")).send().await.expect("request").json().await.expect("json");
    assert!(listed.is_empty(), "nothing is stored from a rejected request");
    assert_eq!(
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("request").json::<Vec<Value>>().await.expect("json").len(),
        0
    );
    // A position on a symbol with no price yet is kept, and its detail says why it cannot be
    // valued: a 409 naming the symbol, not a server fault.
    let mut unpriced = position(&in_days(40));
    unpriced["symbol"] = json!("ZZZQ");
    let created = app.post_json(&app.client, "/api/manual-positions", &unpriced).await;
    assert_eq!(created.status(), 201);
    let id = created.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_owned();
    let detail = app.client.get(app.url(&format!("/api/manual-positions/{id}"))).send().await.expect("request");
    assert_eq!(detail.status(), 409);
    assert!(problem(detail).await["detail"].as_str().is_some_and(|d| d.contains("No price for ZZZQ")));
}

async fn automated_positions_follow_the_users_preferences(app: TestApp) {
    app.register().await;
    let user = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user");
    // A broad taste: every strategy, aggressive, room for any contract.
    users::set_investment_preferences(
        app.db(),
        &user.id,
        10_000_000,
        "high",
        5_000_000,
        "Momentum,Mean Reversion,Breakout,Volatility",
        app.now(),
    )
    .await
    .expect("preferences");
    let opened = strikeline_server::services::execution::automated::execute(&app.state, app.now()).await.expect("open");
    assert!(opened > 0, "some active signal clears a 50 confidence floor");
    let rows: Vec<Value> = app.client.get(app.url("/api/portfolio/positions")).send().await.expect("request").json().await.expect("json");
    assert_eq!(rows.len(), opened);
    let row = &rows[0];
    assert_eq!(row["status"], "open");
    assert!(row["quantity"].as_i64().expect("qty") >= 1);
    // Opening again takes nothing twice.
    assert_eq!(strikeline_server::services::execution::automated::execute(&app.state, app.now()).await.expect("open"), 0);
    let id = row["id"].as_str().expect("id");
    let detail: Value =
        app.client.get(app.url(&format!("/api/portfolio/position/{id}"))).send().await.expect("request").json().await.expect("json");
    assert_eq!(detail["kind"], "automated");
    assert!(detail["signal"]["strategy"].is_string() && detail["signal"]["confidence"].as_i64().expect("c") >= 50);
    let pop = detail["riskMetrics"]["probabilityOfProfit"].as_f64().expect("pop");
    assert!((0.0..=1.0).contains(&pop));
    // The opening commission is what the orders' fills paid: $0.65 per contract of each leg.
    let analysis: Value = app.client.get(app.url("/api/portfolio/metrics")).send().await.expect("request").json().await.expect("json");
    let orders: Vec<Value> = app.client.get(app.url("/api/orders")).send().await.expect("request").json().await.expect("json");
    let paid: f64 =
        orders.iter().flat_map(|o| o["fills"].as_array().expect("fills").iter()).map(|f| f["commission"].as_f64().expect("c")).sum();
    let legs: i64 = orders
        .iter()
        .filter(|o| o["status"] == "filled")
        .map(|o| o["quantity"].as_i64().expect("q") * o["legs"].as_array().expect("legs").len() as i64)
        .sum();
    assert!((paid - 0.65 * legs as f64).abs() < 0.01, "{paid} for {legs} contracts");
    assert!((analysis["summary"]["totalCommissions"].as_f64().expect("commissions") - paid).abs() < 0.01);
    // Another user with the default (narrow) preferences is untouched by this user's positions.
    let other = TestApp::browser(&app.base);
    app.register_with(&other, "grace@example.com", "grace", "correct-horse").await;
    let response = other.get(app.url(&format!("/api/portfolio/position/{id}"))).send().await.expect("request");
    assert_eq!(response.status(), 404);
}

async fn backtests_run_the_live_strategies_within_the_plan(app: TestApp) {
    app.register().await;
    let response = app.client.post(app.url("/api/backtest")).send().await.expect("request");
    assert_eq!(response.status(), 200, "no body at all is a default backtest");
    let overall: Value = response.json().await.expect("json");
    let trades = overall["trades"].as_array().expect("trades");
    assert_eq!(overall["totalTrades"].as_u64().expect("total") as usize, trades.len());
    assert!(!trades.is_empty(), "two years of 50 names give the strategies something to trade");
    let summed: f64 = trades.iter().map(|t| t["pnl"].as_f64().expect("pnl")).sum();
    assert!((overall["totalPnl"].as_f64().expect("total pnl") - summed).abs() < 0.05 * trades.len() as f64 + 0.5);
    assert!(!overall["equityCurve"].as_array().expect("curve").is_empty());
    assert!(overall["maxDrawdown"].as_f64().expect("dd") <= 0.0, "drawdowns are fractions at or below zero");
    // The same inputs give the same result.
    let again: Value = app.post_json(&app.client, "/api/backtest", &json!({})).await.json().await.expect("json");
    assert_eq!(again["totalPnl"], overall["totalPnl"]);
    assert_eq!(again["trades"], overall["trades"]);
    // By strategy, one result per strategy.
    let response = app
        .post_json(
            &app.client,
            "/api/backtest/strategy",
            &json!({"strategies": ["Momentum", "Breakout"], "symbols": ["AAPL", "MSFT", "NVDA"]}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let per: Vec<Value> = response.json().await.expect("json");
    assert_eq!(per.iter().map(|r| r["strategy"].as_str().expect("s")).collect::<Vec<_>>(), ["Momentum", "Breakout"]);
    // Bad input names the field; parameters need Premium.
    let response = app.post_json(&app.client, "/api/backtest", &json!({"startDate": "yesterday", "strategies": ["Scalping"]})).await;
    let mut named = fields(&problem(response).await);
    named.sort();
    assert_eq!(named, ["startDate", "strategies"]);
    let response = app.post_json(&app.client, "/api/backtest", &json!({"params": {"oversoldRsi": 25}})).await;
    assert_eq!(response.status(), 403);
    // The Free plan: overall over the last year only.
    let user = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user");
    users::set_subscription(app.db(), &user.id, "free", "active", None, app.now()).await.expect("free");
    assert_eq!(app.client.post(app.url("/api/backtest/strategy")).send().await.expect("request").status(), 403);
    let two_years_ago = (app.today() - Duration::days(730)).format("%Y-%m-%d").to_string();
    let response = app.post_json(&app.client, "/api/backtest", &json!({"startDate": two_years_ago})).await;
    assert_eq!(response.status(), 403);
    assert_eq!(app.client.post(app.url("/api/backtest")).send().await.expect("request").status(), 200);
    // Premium may tune the strategies; out-of-range values name the parameter.
    users::set_subscription(app.db(), &user.id, "premium", "active", None, app.now()).await.expect("premium");
    let response = app.post_json(&app.client, "/api/backtest", &json!({"symbols": ["AAPL"], "params": {"oversoldRsi": 250}})).await;
    assert_eq!(fields(&problem(response).await), ["params.oversoldRsi"]);
    let response = app.post_json(&app.client, "/api/backtest", &json!({"symbols": ["AAPL"], "params": {"oversoldRsi": 35}})).await;
    assert_eq!(response.status(), 200);
}

/// A buy-the-dip rule: RSI(14) below `level` opens an at-the-money call, +50% / −40%, held at
/// most five days.
fn dip_rule(level: f64) -> Value {
    json!({
        "version": 1,
        "entry": {"all": [{"compare": {"left": {"indicator": {"name": "rsi14"}}, "is": "below", "right": {"number": level}}}]},
        "opens": "CALL",
        "strike": {"offset": 0},
        "minDays": 30,
        "exits": {"targetGain": 0.5, "stopLoss": 0.4, "maxDays": 5}
    })
}

async fn a_premium_backtest_trades_a_custom_strategy(app: TestApp) {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    // Pro is refused before the document's rules are judged.
    users::set_subscription(app.db(), &id, "pro", "active", None, app.now()).await.expect("pro");
    let mut future = dip_rule(45.0);
    future["version"] = json!(9);
    let response = app.post_json(&app.client, "/api/backtest", &json!({"customStrategy": future})).await;
    assert_eq!(response.status(), 403);
    users::set_subscription(app.db(), &id, "premium", "active", None, app.now()).await.expect("premium");

    // Mistakes are named by their path in the document, all of them, and nothing runs.
    let mut wrong = dip_rule(45.0);
    wrong["entry"]["all"][0]["compare"]["right"] = json!({"indicator": {"name": "close"}});
    wrong["exits"]["stopLoss"] = json!(1.5);
    wrong["strike"] = json!({"offset": 1, "delta": 0.3});
    let response = app.post_json(&app.client, "/api/backtest", &json!({"symbols": ["AAPL"], "customStrategy": wrong})).await;
    assert_eq!(
        fields(&problem(response).await),
        ["customStrategy.strike", "customStrategy.entry.all[0].compare.right", "customStrategy.exits.stopLoss"]
    );
    let mut unknown = dip_rule(45.0);
    unknown["entry"]["all"][0]["compare"]["left"]["indicator"]["name"] = json!("stochastic");
    let response = app.post_json(&app.client, "/api/backtest", &json!({"customStrategy": unknown})).await;
    assert_eq!(response.status(), 422);

    // Alone: every trade is the rule's, and its time exit closes some.
    let body = json!({"symbols": ["AAPL", "MSFT", "NVDA"], "customStrategy": dip_rule(45.0)});
    let response = app.post_json(&app.client, "/api/backtest", &body).await;
    assert_eq!(response.status(), 200);
    let alone: Value = response.json().await.expect("json");
    let trades = alone["trades"].as_array().expect("trades");
    assert!(trades.len() >= 3, "two years of three symbols dip below RSI 45: {}", trades.len());
    assert!(trades.iter().all(|t| t["strategy"] == "Custom" && t["signalType"] == "CALL"), "{alone}");
    assert!(trades.iter().any(|t| t["outcome"] == "time"), "some reach their five days");
    let summed: f64 = trades.iter().map(|t| t["pnl"].as_f64().expect("pnl")).sum();
    assert!((alone["totalPnl"].as_f64().expect("total") - summed).abs() < 0.01 * trades.len() as f64 + 0.01);
    // Beside a house strategy, and by strategy.
    let body = json!({"symbols": ["AAPL", "MSFT", "NVDA"], "strategies": ["Momentum"], "customStrategy": dip_rule(45.0)});
    let both: Value = app.post_json(&app.client, "/api/backtest/strategy", &body).await.json().await.expect("json");
    let names: Vec<&str> = both.as_array().expect("results").iter().filter_map(|r| r["strategy"].as_str()).collect();
    assert_eq!(names, ["Momentum", "Custom"], "{both}");
    assert_eq!(both[1]["summary"]["totalTrades"].as_u64(), Some(trades.len() as u64), "the same trades as alone");
}

async fn a_premium_backtest_trades_calls_and_puts_as_vertical_spreads(app: TestApp) {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    // Multi-leg positions are Premium: Pro is refused before the width is judged.
    users::set_subscription(app.db(), &id, "pro", "active", None, app.now()).await.expect("pro");
    let response = app.post_json(&app.client, "/api/backtest", &json!({"spreadWidth": 0.9})).await;
    assert_eq!(response.status(), 403);
    users::set_subscription(app.db(), &id, "premium", "active", None, app.now()).await.expect("premium");
    for width in [0.0, 0.9, -0.1] {
        let response = app.post_json(&app.client, "/api/backtest", &json!({"spreadWidth": width})).await;
        assert_eq!(fields(&problem(response).await), ["spreadWidth"], "{width}");
    }
    let single: Value = app.post_json(&app.client, "/api/backtest", &json!({})).await.json().await.expect("json");
    let spreads: Value = app.post_json(&app.client, "/api/backtest", &json!({"spreadWidth": 0.05})).await.json().await.expect("json");
    let trades = spreads["trades"].as_array().expect("trades");
    assert!(!trades.is_empty());
    let mut verticals = 0;
    for t in trades {
        let (strike, short) = (t["strike"].as_f64().expect("strike"), t["shortStrike"].as_f64());
        match t["signalType"].as_str() {
            Some("CALL") => assert!(short.is_some_and(|s| s > strike), "{t}"),
            Some("PUT") => assert!(short.is_some_and(|s| s < strike), "{t}"),
            _ => assert_eq!(t["shortStrike"], Value::Null, "{t}"),
        }
        if let Some(short) = short {
            verticals += 1;
            // A debit spread: paid less than its width; commissions for both legs.
            let entry = t["entryPrice"].as_f64().expect("entry");
            assert!(entry > 0.0 && entry < (short - strike).abs() * 1.01, "{t}");
            let contracts = t["contracts"].as_f64().expect("contracts");
            assert!((t["commissions"].as_f64().expect("commissions") - 4.0 * 0.65 * contracts).abs() < 0.01, "{t}");
        }
    }
    assert!(verticals > 0, "calls and puts were traded");
    assert!(single["trades"].as_array().expect("trades").iter().all(|t| t["shortStrike"].is_null()));
    let summed: f64 = trades.iter().map(|t| t["pnl"].as_f64().expect("pnl")).sum();
    assert!((spreads["totalPnl"].as_f64().expect("total") - summed).abs() < 0.05 * trades.len() as f64 + 0.5);
}

/// `strikeline backtest` prints the same result as JSON, and a bad strategy is an error that
/// names it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_backtest_command_prints_json() {
    let app = TestApp::spawn_with(crate::common::Engine::Sqlite, crate::common::with_market).await.expect("app");
    let run = |args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_strikeline"));
        command.arg("backtest").arg("--data-dir").arg(app.data_dir()).args(args).env_remove("DATABASE_URL");
        command.env("STRIKELINE_CLOCK_START", app.now().to_rfc3339());
        command.output().expect("runs")
    };
    let out = run(&["--symbols", "AAPL,MSFT"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(report["symbols"], 2);
    assert_eq!(report["totalTrades"].as_u64().expect("trades") as usize, report["trades"].as_array().expect("list").len());
    let out = run(&["--strategies", "Scalping"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("strategies"));
    // A custom strategy from a file: its trades are the rule's; a wrong one names the path.
    let file = app.data_dir().join("dip.json");
    std::fs::write(&file, dip_rule(45.0).to_string()).expect("write");
    let out = run(&["--symbols", "AAPL,MSFT", "--custom", file.to_str().expect("path")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let trades = report["trades"].as_array().expect("trades");
    assert!(!trades.is_empty() && trades.iter().all(|t| t["strategy"] == "Custom"), "{report}");
    let mut wrong = dip_rule(45.0);
    wrong["exits"]["maxDays"] = json!(0);
    std::fs::write(&file, wrong.to_string()).expect("write");
    let out = run(&["--custom", file.to_str().expect("path")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("customStrategy.exits.maxDays"), "{}", String::from_utf8_lossy(&out.stderr));
}
