//! Custom strategies (issue 29; docs/strategies.md §11): saved by name for their owner only,
//! Premium to save and to judge, every mistake named by its path in the document, the cap kept
//! under parallel saves, and the preview judging the rule on each tracked symbol's bars.

use serde_json::{Value, json};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

on_both_engines!(
    saved_strategies_belong_to_their_owner_and_premium_saves_them,
    wrong_documents_are_refused_by_their_path_and_nothing_is_stored,
    parallel_saves_stop_at_the_cap_and_names_stay_unique,
);

on_both_engines_with!(market, crate::common::with_market;
    the_preview_judges_the_rule_on_every_tracked_symbol,
    a_switched_on_strategy_issues_signals_to_its_owner_alone,
    a_live_signal_ends_at_its_rules_time_limit_as_in_a_backtest,
    a_custom_ai_strategy_issues_only_what_the_model_clears,
);

/// RSI(14) below `level` opens an at-the-money call.
fn dip(level: f64) -> Value {
    json!({
        "version": 1,
        "entry": {"all": [{"compare": {"left": {"indicator": {"name": "rsi14", "barsAgo": 0}}, "is": "below", "right": {"number": level}}}]},
        "opens": "CALL",
        "strike": {"offset": 0},
        "minDays": 30,
        "exits": {"targetGain": 0.5, "stopLoss": 0.4, "maxDays": null}
    })
}

async fn as_plan(app: &TestApp, plan: &str) -> String {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
    id
}

async fn save(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    app.post_json(client, "/api/strategies/custom", body).await
}

async fn list(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/strategies/custom")).send().await.expect("list");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn saved_strategies_belong_to_their_owner_and_premium_saves_them(app: TestApp) {
    let id = as_plan(&app, "premium").await;
    let response = save(&app, &app.client, &json!({"name": "  Dip buyer ", "document": dip(30.0)})).await;
    assert_eq!(response.status(), 201);
    let saved: Value = response.json().await.expect("json");
    let sid = saved["id"].as_str().expect("id").to_owned();
    assert_eq!(saved["name"], "Dip buyer", "trimmed");
    assert_eq!(saved["document"], dip(30.0), "read back as written");
    let path = format!("/api/strategies/custom/{sid}");

    // Renamed and changed; read back.
    let response = app.client.put(app.url(&path)).json(&json!({"name": "Deeper dip", "document": dip(25.0)})).send().await.expect("put");
    assert_eq!(response.status(), 200);
    let got: Value = app.client.get(app.url(&path)).send().await.expect("get").json().await.expect("json");
    assert_eq!((got["name"].as_str(), &got["document"]), (Some("Deeper dip"), &dip(25.0)));
    assert_eq!(list(&app, &app.client).await.as_array().map(Vec::len), Some(1));
    // Listed by name whatever its case.
    for name in ["Zeta", "alpha"] {
        assert_eq!(save(&app, &app.client, &json!({"name": name, "document": dip(30.0)})).await.status(), 201);
    }
    let names: Vec<String> =
        list(&app, &app.client).await.as_array().expect("list").iter().map(|s| s["name"].as_str().unwrap_or_default().to_owned()).collect();
    assert_eq!(names, ["alpha", "Deeper dip", "Zeta"]);

    // Another user's id is not found, whatever the verb; the owner's strategy is untouched.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let mallory_id = users::find_by_email(app.db(), "mallory@example.com").await.expect("query").expect("user").id;
    users::set_subscription(app.db(), &mallory_id, "premium", "active", None, app.now()).await.expect("premium");
    assert_eq!(mallory.get(app.url(&path)).send().await.expect("get").status(), 404);
    let body = json!({"name": "Mine now", "document": dip(20.0)});
    assert_eq!(mallory.put(app.url(&path)).json(&body).send().await.expect("put").status(), 404);
    assert_eq!(mallory.delete(app.url(&path)).send().await.expect("delete").status(), 404);
    assert_eq!(list(&app, &mallory).await, json!([]));
    assert_eq!(app.client.get(app.url(&path)).send().await.expect("get").json::<Value>().await.expect("json")["name"], "Deeper dip");

    // Free and Pro save nothing, whatever they send: the plan is judged before the fields.
    for plan in ["free", "pro"] {
        users::set_subscription(app.db(), &mallory_id, plan, "active", None, app.now()).await.expect("plan");
        for body in [
            json!({"name": "x", "document": dip(30.0)}),
            json!({"name": "", "document": {"version": 1, "entry": {"any": []}, "opens": "CALL", "strike": {}, "minDays": 0, "exits": {"targetGain": 0, "stopLoss": 0}}}),
        ] {
            let response = save(&app, &mallory, &body).await;
            assert_eq!(response.status(), 403, "{plan}");
            assert!(problem(response).await["detail"].as_str().is_some_and(|d| d.contains("Premium")));
        }
    }
    // A downgraded owner still reads and deletes what they saved, and cannot change it.
    users::set_subscription(app.db(), &id, "pro", "active", None, app.now()).await.expect("pro");
    assert_eq!(list(&app, &app.client).await.as_array().map(Vec::len), Some(3));
    let response = app.client.put(app.url(&path)).json(&json!({"name": "Changed", "document": dip(25.0)})).send().await.expect("put");
    assert_eq!(response.status(), 403);
    assert_eq!(app.client.delete(app.url(&path)).send().await.expect("delete").status(), 204);
    assert_eq!(app.client.get(app.url(&path)).send().await.expect("get").status(), 404);
    assert_eq!(reqwest::Client::new().get(app.url("/api/strategies/custom")).send().await.expect("anonymous").status(), 401);

    // The rule language is the same for everyone: each indicator with its kind, and the limits.
    let language: Value =
        reqwest::Client::new().get(app.url("/api/strategies/custom/language")).send().await.expect("language").json().await.expect("json");
    assert_eq!((language["version"].as_u64(), language["maxGroup"].as_u64(), language["maxDepth"].as_u64()), (Some(1), Some(8), Some(3)));
    let rsi = language["indicators"].as_array().and_then(|list| list.iter().find(|i| i["name"] == "rsi14")).cloned();
    assert_eq!(rsi, Some(json!({"name": "rsi14", "label": "RSI(14)", "kind": "points"})));
    assert_eq!(language["maxName"], 60);
    assert_eq!(
        language["ranges"],
        json!({"offset": [-10, 10], "delta": [0.05, 0.95], "days": [1, 365], "targetGain": [0.05, 10.0], "stopLoss": [0.05, 0.95]})
    );
}

async fn wrong_documents_are_refused_by_their_path_and_nothing_is_stored(app: TestApp) {
    as_plan(&app, "premium").await;
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut doc = dip(30.0);
        edit(&mut doc);
        json!({"name": "Rule", "document": doc})
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&|d| d["entry"]["all"][0]["compare"]["right"] = json!({"indicator": {"name": "close"}})),
            "document.entry.all[0].compare.right",
        ),
        (with(&|d| d["entry"] = json!({"any": []})), "document.entry.any"),
        (
            with(&|d| d["entry"]["all"][0]["compare"]["left"]["indicator"]["barsAgo"] = json!(11)),
            "document.entry.all[0].compare.left.indicator.barsAgo",
        ),
        (with(&|d| d["strike"] = json!({"offset": 1, "delta": 0.3})), "document.strike"),
        (with(&|d| d["strike"] = json!({"delta": 0.99})), "document.strike.delta"),
        (with(&|d| d["minDays"] = json!(0)), "document.minDays"),
        (with(&|d| d["exits"]["stopLoss"] = json!(0.99)), "document.exits.stopLoss"),
        (with(&|d| d["exits"]["maxDays"] = json!(400)), "document.exits.maxDays"),
        (with(&|d| d["version"] = json!(2)), "document.version"),
        (json!({"name": "", "document": dip(30.0)}), "name"),
        (json!({"name": "x".repeat(61), "document": dip(30.0)}), "name"),
        (json!({"name": "bell\u{7}", "document": dip(30.0)}), "name"),
    ];
    for (body, field) in cases {
        let response = save(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let named = fields(&problem(response).await);
        assert!(named.iter().any(|f| f == field), "{field} in {named:?} for {body}");
    }
    // Not even JSON of the right shape: a 422, never a 500.
    for (body, field) in [
        (json!({"name": "x", "document": {"entry": 1}}), "document.entry"),
        (json!({"name": "x", "document": dip(30.0), "extra": true}), "extra"),
        (json!([]), "body"),
    ] {
        let response = save(&app, &app.client, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    assert_eq!(list(&app, &app.client).await, json!([]), "nothing refused was stored");
}

async fn parallel_saves_stop_at_the_cap_and_names_stay_unique(app: TestApp) {
    as_plan(&app, "premium").await;
    let cap = strikeline_server::services::custom_rules::MAX_STRATEGIES as usize;
    let bodies: Vec<Value> = (0..cap + 5).map(|i| json!({"name": format!("Rule {i:02}"), "document": dip(30.0)})).collect();
    let requests = bodies.iter().map(|body| save(&app, &app.client, body));
    let statuses: Vec<u16> = futures_util::future::join_all(requests).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), cap, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 5, "{statuses:?}");
    let listed = list(&app, &app.client).await;
    assert_eq!(listed.as_array().map(Vec::len), Some(cap));
    // The cap refuses the request as a whole, not its name.
    let response = save(&app, &app.client, &json!({"name": "One more", "document": dip(30.0)})).await;
    assert_eq!(response.status(), 409);
    assert_eq!(fields(&problem(response).await), ["body"]);

    // One name, ten parallel saves under a fresh account: one is stored, the rest are 409 on `name`.
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "other@example.com", "other", "correct-horse").await.status(), 201);
    let other_id = users::find_by_email(app.db(), "other@example.com").await.expect("query").expect("user").id;
    users::set_subscription(app.db(), &other_id, "premium", "active", None, app.now()).await.expect("premium");
    let body = json!({"name": "Same", "document": dip(30.0)});
    let requests = (0..10).map(|_| save(&app, &other, &body));
    let responses = futures_util::future::join_all(requests).await;
    let statuses: Vec<u16> = responses.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 9, "{statuses:?}");
    // Renaming onto a taken name is a 409 on `name` too.
    let second: Value = save(&app, &other, &json!({"name": "Second", "document": dip(30.0)})).await.json().await.expect("json");
    let path = format!("/api/strategies/custom/{}", second["id"].as_str().expect("id"));
    let response = other.put(app.url(&path)).json(&body).send().await.expect("put");
    assert_eq!(response.status(), 409);
    assert_eq!(fields(&problem(response).await), ["name"]);
}

async fn the_preview_judges_the_rule_on_every_tracked_symbol(app: TestApp) {
    as_plan(&app, "premium").await;
    let app = &app;
    let preview = |document: Value| async move {
        let body = json!({"document": document});
        app.post_json(&app.client, "/api/strategies/custom/preview", &body).await
    };
    // A rule that always holds fires on every symbol with a year of history, each priced.
    let mut always = dip(30.0);
    always["entry"] = json!({"compare": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"number": 0.01}}});
    // With `monthly`, each opens the first monthly expiration (third Friday) 30 days away or more.
    let mut monthly = always.clone();
    monthly["monthly"] = json!(true);
    let by_month: Value = preview(monthly).await.json().await.expect("json");
    for s in by_month["symbols"].as_array().expect("symbols") {
        let day: chrono::NaiveDate = s["proposal"]["expirationDate"].as_str().expect("expiration").parse().expect("date");
        assert!(strikeline_engine::custom::is_monthly_expiration(day), "{s}");
        let as_of: chrono::NaiveDate = s["asOf"].as_str().expect("as of").parse().expect("date");
        assert!((day - as_of).num_days() >= 30, "{s}");
    }
    let response = preview(always).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.expect("json");
    let symbols = answer["symbols"].as_array().expect("symbols");
    assert!(symbols.len() >= 3, "{answer}");
    assert_eq!(answer["firing"].as_u64(), Some(symbols.len() as u64));
    for s in symbols {
        assert_eq!(s["triggered"], true);
        let confidence = s["confidence"].as_u64().expect("confidence");
        assert!((50..=95).contains(&confidence), "{s}");
        let p = &s["proposal"];
        assert_eq!(p["signalType"], "CALL");
        let (entry, target, stop) =
            (p["entryPrice"].as_f64().expect("entry"), p["targetPrice"].as_f64().expect("target"), p["stopLoss"].as_f64().expect("stop"));
        assert!((target - (entry * 1.5 * 100.0).round() / 100.0).abs() < 0.011, "{p}");
        assert!((stop - (entry * 0.6 * 100.0).round() / 100.0).abs() < 0.011, "{p}");
        assert!(s["conditions"][0]["text"].as_str().is_some_and(|t| t.starts_with("close ") && t.contains(" above 0.01")), "{s}");
    }
    // One that never holds fires nowhere, and each condition says why, with the value read.
    let response = preview(dip(0.5)).await;
    let answer: Value = response.json().await.expect("json");
    assert_eq!(answer["firing"], 0);
    for s in answer["symbols"].as_array().expect("symbols") {
        assert_eq!((s["triggered"].as_bool(), s["proposal"].is_null()), (Some(false), true));
        assert!(s["confidence"].as_u64().expect("confidence") <= 49);
        assert_eq!(s["conditions"][0]["holds"], false);
        assert!(s["conditions"][0]["text"].as_str().is_some_and(|t| t.starts_with("RSI(14) ") && t.contains("not below 0.5")), "{s}");
    }
    // Chosen symbols only; an unknown one and a wrong rule are named.
    let response = app.post_json(&app.client, "/api/strategies/custom/preview", &json!({"document": dip(30.0), "symbols": ["aapl"]})).await;
    let answer: Value = response.json().await.expect("json");
    assert_eq!(answer["symbols"].as_array().map(|s| s.iter().map(|x| x["symbol"].clone()).collect::<Vec<_>>()), Some(vec![json!("AAPL")]));
    let response = app.post_json(&app.client, "/api/strategies/custom/preview", &json!({"document": dip(30.0), "symbols": ["NOPE"]})).await;
    assert_eq!(fields(&problem(response).await), ["symbols"]);
    let mut wrong = dip(30.0);
    wrong["minDays"] = json!(0);
    assert_eq!(fields(&problem(preview(wrong).await).await), ["document.minDays"]);
    // Pro is refused.
    let pro = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&pro, "pro@example.com", "pro", "correct-horse").await.status(), 201);
    let response = app.post_json(&pro, "/api/strategies/custom/preview", &json!({"document": dip(30.0)})).await;
    assert_eq!(response.status(), 403);
}

/// Runs the scheduler's issuing step once, at the app's clock.
async fn issue(app: &TestApp) {
    use strikeline_server::services::{market_refresh, signal_issuing};
    let quotes = market_refresh::refresh_prices(&app.state, app.now()).await.expect("quotes");
    signal_issuing::issue_signals(&app.state, &quotes, app.now()).await.expect("issue");
}

async fn custom_signals(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client.get(app.url("/api/signals?strategy=Custom&limit=100")).send().await.expect("signals");
    assert_eq!(response.status(), 200);
    let page: Value = response.json().await.expect("json");
    page["signals"].as_array().expect("signals").clone()
}

async fn a_switched_on_strategy_issues_signals_to_its_owner_alone(app: TestApp) {
    let owner = as_plan(&app, "premium").await;
    // A rule that always holds: it fires on every tracked symbol once switched on.
    let mut always = dip(30.0);
    always["entry"] = json!({"compare": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"number": 0.01}}});
    let saved: Value = save(&app, &app.client, &json!({"name": "Always", "document": always})).await.json().await.expect("json");
    let sid = saved["id"].as_str().expect("id").to_owned();
    assert_eq!(saved["active"], false, "saved switched off");
    let switch = format!("/api/strategies/custom/{sid}/active");

    // Off: nothing is issued.
    issue(&app).await;
    assert!(custom_signals(&app, &app.client).await.is_empty());

    // Another Premium user can neither switch it nor see it; a wrong body is named.
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let mallory_id = users::find_by_email(app.db(), "mallory@example.com").await.expect("find").expect("mallory").id;
    users::set_subscription(app.db(), &mallory_id, "premium", "active", None, app.now()).await.expect("premium");
    let response = mallory.put(app.url(&switch)).json(&json!({"active": true})).send().await.expect("put");
    assert_eq!(response.status(), 404);
    let response = app.client.put(app.url(&switch)).json(&json!({"active": "yes"})).send().await.expect("put");
    assert_eq!(fields(&problem(response).await), ["active"]);

    let response = app.client.put(app.url(&switch)).json(&json!({"active": true})).send().await.expect("put");
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.expect("json")["active"], true);
    issue(&app).await;
    let signals = custom_signals(&app, &app.client).await;
    assert!(signals.len() >= 3, "one a tracked symbol: {signals:?}");
    for s in &signals {
        assert_eq!((s["strategy"].as_str(), s["customStrategyId"].as_str()), (Some("Custom"), Some(sid.as_str())), "{s}");
        assert_eq!((s["locked"].as_bool(), s["onDemand"].as_bool(), s["signalType"].as_str()), (Some(false), Some(false), Some("CALL")));
    }
    // The owner is told, once for the run, naming the rule; nobody else is.
    let bell: Value = app.client.get(app.url("/api/notifications")).send().await.expect("bell").json().await.expect("json");
    let told: Vec<&Value> = bell["notifications"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|n| n["title"].as_str().is_some_and(|t| t.starts_with("Your custom strateg")))
        .collect();
    assert_eq!(told.len(), 1, "{bell}");
    assert_eq!(told[0]["title"], format!("Your custom strategies issued {} new signals", signals.len()));
    assert!(told[0]["body"].as_str().is_some_and(|b| b.starts_with("Always: ")), "{}", told[0]);
    let theirs: Value = mallory.get(app.url("/api/notifications")).send().await.expect("bell").json().await.expect("json");
    assert!(!theirs.to_string().contains("Your custom strateg"), "{theirs}");
    // A second run issues no second active signal per symbol.
    issue(&app).await;
    assert_eq!(custom_signals(&app, &app.client).await.len(), signals.len());
    // Not generated on demand: they leave the owner's daily quota alone.
    let today = app.today();
    assert!(strikeline_store::signals::on_demand_counts(app.db(), &owner, today).await.expect("counts").is_empty());
    // Only the owner sees them, in the list and in the detail.
    assert!(custom_signals(&app, &mallory).await.is_empty());
    let one = signals[0]["id"].as_str().expect("id");
    let analysis = format!("/api/signals/{one}/analysis");
    assert_eq!(mallory.get(app.url(&analysis)).send().await.expect("get").status(), 404);
    let detail: Value = app.client.get(app.url(&analysis)).send().await.expect("get").json().await.expect("json");
    assert_eq!((detail["decileRecord"]["strategy"].as_str(), detail["decileRecord"]["n"].as_i64()), (Some("Custom"), Some(0)), "{detail}");

    // Automated: the owner's automation opens paper positions from its signals, sized by their
    // preferences (no house rule preferred here), and nobody else's takes them.
    let response = app.client.put(app.url(&switch)).json(&json!({"active": false, "automate": true})).send().await.expect("put");
    assert_eq!(fields(&problem(response).await), ["automate"]);
    let response = app.client.put(app.url(&switch)).json(&json!({"active": true, "automate": true})).send().await.expect("put");
    assert_eq!(response.json::<Value>().await.expect("json")["automate"], true);
    for id in [&owner, &mallory_id] {
        users::set_investment_preferences(app.db(), id, 10_000_000, "low", 5_000_000, "", app.now()).await.expect("preferences");
    }
    let open = || strikeline_server::services::execution::automated::execute(&app.state, app.now());
    let opened = open().await.expect("open");
    assert!(opened > 0 && opened <= signals.len(), "{opened} of {}", signals.len());
    let rows: Vec<Value> = app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert_eq!(rows.len(), opened);
    let detail: Value = app
        .client
        .get(app.url(&format!("/api/portfolio/position/{}", rows[0]["id"].as_str().expect("id"))))
        .send()
        .await
        .expect("detail")
        .json()
        .await
        .expect("json");
    assert_eq!(detail["signal"]["strategy"], "Custom", "{detail}");
    assert_eq!(open().await.expect("open"), 0, "nothing opened twice");
    let theirs: Vec<Value> = mallory.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert!(theirs.is_empty());

    // A downgraded owner cannot switch it on again, and its signals stop while the plan lacks it.
    let response = app.client.put(app.url(&switch)).json(&json!({"active": false})).send().await.expect("put");
    assert_eq!(response.status(), 200);
    users::set_subscription(app.db(), &owner, "pro", "active", None, app.now()).await.expect("pro");
    let response = app.client.put(app.url(&switch)).json(&json!({"active": true})).send().await.expect("put");
    assert_eq!(response.status(), 403);
    strikeline_store::custom_strategies::set_active(app.db(), &owner, &sid, true, false, app.now()).await.expect("left on");
    let before = custom_signals(&app, &app.client).await.len();
    strikeline_store::with_db!(app.db(), pool => {
        sqlx::query("UPDATE signals SET status = 'closed', close_reason = 'target', closed_at = $1 WHERE strategy = 'Custom'")
            .bind(app.now()).execute(pool).await.expect("close");
    });
    issue(&app).await;
    assert_eq!(custom_signals(&app, &app.client).await.len(), before, "nothing new issued for a Pro owner");

    // Deleting the strategy keeps its signals' record, named Custom without the pointer.
    assert_eq!(app.client.delete(app.url(&format!("/api/strategies/custom/{sid}"))).send().await.expect("delete").status(), 204);
    let kept = custom_signals(&app, &app.client).await;
    assert_eq!(kept.len(), before);
    assert!(kept.iter().all(|s| s["strategy"] == "Custom" && s["customStrategyId"].is_null()));
}

async fn a_live_signal_ends_at_its_rules_time_limit_as_in_a_backtest(app: TestApp) {
    use strikeline_server::services::{market_refresh, signal_issuing};
    as_plan(&app, "premium").await;
    // Always fires; a target and a stop no week reaches; held two calendar days at most.
    let mut document = dip(30.0);
    document["entry"] = json!({"compare": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"number": 0.01}}});
    document["exits"] = json!({"targetGain": 10.0, "stopLoss": 0.95, "maxDays": 2});
    let saved: Value = save(&app, &app.client, &json!({"name": "Two days", "document": document})).await.json().await.expect("json");
    let switch = format!("/api/strategies/custom/{}/active", saved["id"].as_str().expect("id"));
    assert_eq!(app.client.put(app.url(&switch)).json(&json!({"active": true})).send().await.expect("put").status(), 200);
    issue(&app).await;
    let issued = custom_signals(&app, &app.client).await;
    assert!(!issued.is_empty());
    assert!(issued.iter().all(|s| s["reasoning"].as_str().is_some_and(|r| r.contains("Closed after 2 days"))));

    let mark_at = |at: chrono::DateTime<chrono::Utc>| {
        let state = app.state.clone();
        async move {
            let quotes = market_refresh::refresh_prices(&state, at).await.expect("quotes");
            signal_issuing::mark_signals(&state, &quotes, at).await.expect("marks")
        }
    };
    // Marked the same day: still active.
    mark_at(app.now()).await;
    assert!(custom_signals(&app, &app.client).await.iter().all(|s| s["status"] == "active"));
    // The first mark after the close of the last session it may be held ends every one: at
    // its time limit, unless the move since reached its stop or target first.
    let row = strikeline_store::signals::find(app.db(), issued[0]["id"].as_str().expect("id")).await.expect("find").expect("stored");
    let last = row.close_after.expect("a time limit is stored");
    // Counted from the session the rule read, as a backtest counts from its entry bar.
    let quotes = market_refresh::refresh_prices(&app.state, app.now()).await.expect("quotes");
    let (_, as_of, _) =
        app.state.market.state_now(app.db(), &row.symbol, quotes.get(&row.symbol), app.now()).await.expect("state").expect("history");
    assert_eq!(last, as_of + chrono::Days::new(2), "two calendar days from the session the rule read");
    let later = (1..=7)
        .map(|d| app.now() + chrono::Duration::days(d))
        .find(|at| app.state.market.last_completed_day(*at) >= last)
        .expect("the limit's session closes within a week");
    let ended = mark_at(later).await;
    assert!(ended >= issued.len(), "{ended} ended (the house rules' included)");
    let reasons: Vec<String> = custom_signals(&app, &app.client)
        .await
        .iter()
        .map(|s| {
            assert_eq!(s["status"], "closed", "{s}");
            s["closeReason"].as_str().expect("reason").to_owned()
        })
        .collect();
    assert!(reasons.iter().all(|r| ["time", "stop", "target"].contains(&r.as_str())), "{reasons:?}");
    assert!(reasons.iter().any(|r| r == "time"), "{reasons:?}");
}

/// Ships a model that gives every setup a `0.5` chance: a flat regression calibrated to
/// itself, so what the threshold lets through is known.
async fn ship_even_model(app: &TestApp) {
    use strikeline_model::{FEATURES, Isotonic, Logistic, Model};
    let n = FEATURES.len();
    let logistic = Logistic { means: vec![0.0; n], scales: vec![1.0; n], coefficients: vec![0.0; n], intercept: 0.0 };
    let model = Model::new(logistic, Isotonic { x: vec![0.0, 1.0], y: vec![0.0, 1.0] });
    let row = strikeline_store::models::ModelRow {
        version: "even-for-test".into(),
        created_at: app.now(),
        trained_through: app.today(),
        examples: 0,
        definition: serde_json::to_string(&model).expect("json"),
        evaluation: None,
        ships: true,
    };
    strikeline_store::models::insert(app.db(), &row).await.expect("model");
}

/// A custom AI strategy: the rule fires, and the model's probability must also reach the
/// user's threshold. Without a shipping model it issues nothing; the preview shows each
/// setup's probability and whether it clears.
async fn a_custom_ai_strategy_issues_only_what_the_model_clears(app: TestApp) {
    as_plan(&app, "premium").await;
    let mut rule = dip(30.0);
    rule["entry"] = json!({"compare": {"left": {"indicator": {"name": "close"}}, "is": "above", "right": {"number": 0.01}}});
    // The threshold is checked with the rest of the document.
    for bad in [json!(0.0), json!(0.96), json!("high")] {
        let mut wrong = rule.clone();
        wrong["minProbability"] = bad.clone();
        let response = save(&app, &app.client, &json!({"name": "Wrong", "document": wrong})).await;
        assert_eq!(response.status(), 422, "{bad}");
        let named = fields(&problem(response).await);
        assert!(named.iter().any(|f| f.ends_with("minProbability")), "{bad}: {named:?}");
    }
    let mut strict = rule.clone();
    strict["minProbability"] = json!(0.6);
    let mut lenient = rule.clone();
    lenient["minProbability"] = json!(0.45);
    let mut ids = Vec::new();
    for (name, document) in [("Strict", &strict), ("Lenient", &lenient)] {
        let saved: Value = save(&app, &app.client, &json!({"name": name, "document": document})).await.json().await.expect("json");
        assert_eq!(saved["document"]["minProbability"], document["minProbability"], "kept as written");
        let id = saved["id"].as_str().expect("id").to_owned();
        let on = app.client.put(app.url(&format!("/api/strategies/custom/{id}/active"))).json(&json!({"active": true})).send().await;
        assert_eq!(on.expect("put").status(), 200);
        ids.push(id);
    }
    let issued_by = |signals: &[Value], id: &str| signals.iter().filter(|s| s["customStrategyId"] == id).count();

    // No model ships: the rule fires everywhere, but neither issues anything.
    issue(&app).await;
    assert!(custom_signals(&app, &app.client).await.is_empty());
    let preview: Value =
        app.post_json(&app.client, "/api/strategies/custom/preview", &json!({"document": lenient})).await.json().await.expect("json");
    assert!(preview["modelVersion"].is_null() && preview["firing"].as_u64() >= Some(3), "{preview}");
    assert!(
        preview["symbols"]
            .as_array()
            .expect("symbols")
            .iter()
            .all(|s| s["proposal"]["modelProbability"].is_null() && s["proposal"]["clearsThreshold"] == false)
    );

    // A model that gives every setup a 50% chance: the 45% threshold lets each through, 60% none.
    ship_even_model(&app).await;
    issue(&app).await;
    let signals = custom_signals(&app, &app.client).await;
    assert_eq!(issued_by(&signals, &ids[0]), 0, "below the 60% threshold");
    assert!(issued_by(&signals, &ids[1]) >= 3, "{signals:?}");
    for s in &signals {
        let analysis: Value = app
            .client
            .get(app.url(&format!("/api/signals/{}/analysis", s["id"].as_str().expect("id"))))
            .send()
            .await
            .expect("analysis")
            .json()
            .await
            .expect("json");
        // The model's figure is not a checked chance for a custom rule: not stored on its signal.
        assert!(analysis["model"].is_null(), "{analysis}");
    }
    for (document, clears) in [(&strict, false), (&lenient, true), (&rule, true)] {
        let preview: Value =
            app.post_json(&app.client, "/api/strategies/custom/preview", &json!({"document": document})).await.json().await.expect("json");
        assert_eq!(preview["modelVersion"], "even-for-test");
        for s in preview["symbols"].as_array().expect("symbols") {
            assert_eq!(
                (s["proposal"]["modelProbability"].as_f64(), s["proposal"]["clearsThreshold"].as_bool()),
                (Some(0.5), Some(clears)),
                "{s}"
            );
        }
    }
}
