//! Automated execution (issue 29; docs/execution.md): each signal an automated account's rules
//! take becomes one order for that account, sent to the paper broker, whose fill (with the
//! backtester's slippage and commission) opens the position; parallel ticks send it once; a
//! limit refuses it with the reason logged; the account's and the administrator's kill switches
//! stop new orders; an order standing past its deadline is cancelled; and one user cannot see
//! or cancel another's orders.

use chrono::Duration;
use serde_json::{Value, json};
use strikeline_store::orders::{self, OrderLegRow, OrderRow};
use strikeline_store::{signals as store, users};

use crate::common::{TestApp, signal_row};

on_both_engines!(
    a_signal_becomes_one_filled_order_whose_fill_opens_the_position,
    a_limit_refuses_the_order_and_says_why,
    a_straddle_is_sent_as_two_legs,
    standing_orders_are_cancelled_by_the_user_or_their_deadline,
    an_optimiser_proposal_is_sent_as_orders_once,
    a_position_closes_through_a_sell_order_at_the_backtesters_exit,
    two_instances_and_a_crash_mid_send_place_each_order_once,
);

on_both_engines_with!(admin, crate::common::with_admin;
    kill_switches_stop_new_orders,
);

on_both_engines_with!(local_webhooks, crate::webhooks::with_local_webhooks;
    fills_and_refusals_reach_the_accounts_webhooks,
);

/// Ada, with room for three $300 contracts of a Momentum signal.
async fn trader(app: &TestApp) -> String {
    let user = app.register().await;
    let prefs = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Momentum"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&prefs).send().await.expect("patch").status(), 200);
    user["id"].as_str().expect("id").to_owned()
}

async fn issue(app: &TestApp, symbol: &str, signal_type: &str) -> store::SignalRow {
    let mut signal = signal_row(symbol, 90, app.today(), 3, None);
    signal.signal_type = signal_type.into();
    store::issue_automated(app.db(), &[signal.clone()]).await.expect("issue");
    signal
}

async fn orders_of(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client.get(app.url("/api/orders")).send().await.expect("orders");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

fn for_signal<'a>(orders: &'a [Value], signal: &store::SignalRow) -> Vec<&'a Value> {
    orders.iter().filter(|o| o["signalId"] == signal.id.as_str()).collect()
}

async fn tick(app: &TestApp) -> usize {
    strikeline_server::services::execution::automated::execute(&app.state, app.now()).await.expect("tick")
}

async fn a_signal_becomes_one_filled_order_whose_fill_opens_the_position(app: TestApp) {
    trader(&app).await;
    let signal = issue(&app, "MOM", "CALL").await;
    // Four ticks at once (a restart, a second instance): one order, one fill, one position.
    let ticks = futures_util::future::join_all((0..4).map(|_| tick(&app))).await;
    assert_eq!(ticks.iter().sum::<usize>(), 1, "{ticks:?}");
    assert_eq!(tick(&app).await, 0, "once per signal and account");

    let listed = orders_of(&app, &app.client).await;
    let mine = for_signal(&listed, &signal);
    assert_eq!(mine.len(), 1);
    let order = mine[0];
    assert_eq!(order["clientOrderId"], format!("signal-{}", signal.id));
    assert_eq!(
        (order["status"].as_str(), order["orderType"].as_str(), order["broker"].as_str()),
        (Some("filled"), Some("market"), Some("paper"))
    );
    // ⌊$1,000 / $300⌋ contracts, bought at the $3.00 premium plus the backtester's 1%.
    assert_eq!(order["quantity"], 3);
    assert_eq!(order["filledUnits"], 3);
    assert_eq!(order["legs"], json!([{"right": "call", "side": "buy", "strike": 100.0, "expiration": signal.expiration_date, "ratio": 1}]));
    let fill = &order["fills"][0];
    assert!((fill["netPrice"].as_f64().expect("price") - 3.03).abs() < 1e-9, "{fill}");
    assert!((fill["commission"].as_f64().expect("commission") - 1.95).abs() < 1e-9, "{fill}");
    assert!((fill["cashOut"].as_f64().expect("cash") - (909.0 + 1.95)).abs() < 1e-6, "{fill}");

    // The position is the fill: its entry, contracts and commission.
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let held: Vec<&Value> = positions.iter().filter(|p| p["signal"]["symbol"] == "MOM").collect();
    assert_eq!(held.len(), 1, "{positions:?}");
    assert_eq!(held[0]["quantity"], 3);
    assert!((held[0]["entryPrice"].as_f64().expect("entry") - 3.03).abs() < 1e-9, "{}", held[0]);
    // The account's cash: its $10,000 capital less what the fill paid.
    let accounts: Value = app.client.get(app.url("/api/accounts")).send().await.expect("accounts").json().await.expect("json");
    assert_eq!(accounts["accounts"][0]["investmentCapital"], 10_000.0);
    assert_eq!(accounts["accounts"][0]["cash"], 10_000.0 - 909.0 - 1.95, "{accounts}");

    // The owner is told, and nobody else sees the order.
    let notes: Value = app.client.get(app.url("/api/notifications")).send().await.expect("notes").json().await.expect("json");
    let titles: Vec<&str> = notes["notifications"].as_array().expect("list").iter().filter_map(|n| n["title"].as_str()).collect();
    assert!(titles.iter().any(|t| t.starts_with("Order filled: MOM CALL $100.00")), "{titles:?}");
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    assert!(for_signal(&orders_of(&app, &mallory).await, &signal).is_empty());
    let id = order["id"].as_str().expect("id");
    let theirs = mallory.post(app.url(&format!("/api/orders/{id}/cancel"))).send().await.expect("cancel");
    assert_eq!(theirs.status(), 404);
    let filled = app.client.post(app.url(&format!("/api/orders/{id}/cancel"))).send().await.expect("cancel");
    assert_eq!(filled.status(), 409, "a filled order is no longer standing");

    // The audit log has the order placed and filled, once each.
    let log = audit_log(&app, &app.client).await;
    let placed: Vec<&(String, String)> = log.iter().filter(|(action, _)| action == "order_placed").collect();
    assert_eq!(placed.len(), 1, "{log:?}");
    assert!(placed[0].1.starts_with("MOM buy call $100.00"), "{log:?}");
    let fills: Vec<&(String, String)> = log.iter().filter(|(action, _)| action == "order_filled").collect();
    assert_eq!(fills.len(), 1, "{log:?}");
    assert!(fills[0].1.contains("filled 3 at $3.03 a share, $1.95 in commissions"), "{log:?}");
}

/// The user's audit log as (action, detail), newest first.
async fn audit_log(app: &TestApp, client: &reqwest::Client) -> Vec<(String, String)> {
    let entries: Vec<Value> = client.get(app.url("/api/user/audit")).send().await.expect("audit").json().await.expect("json");
    entries
        .iter()
        .map(|e| (e["action"].as_str().expect("action").to_owned(), e["detail"].as_str().unwrap_or_default().to_owned()))
        .collect()
}

async fn a_limit_refuses_the_order_and_says_why(app: TestApp) {
    app.register().await;
    let prefs = json!({"riskTolerance": "high", "maxPositionSize": 100, "preferredStrategies": "Momentum"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&prefs).send().await.expect("patch").status(), 200);
    let signal = issue(&app, "DEAR", "CALL").await;
    assert_eq!(tick(&app).await, 0);
    assert_eq!(tick(&app).await, 0);
    let listed = orders_of(&app, &app.client).await;
    let mine = for_signal(&listed, &signal);
    assert_eq!(mine.len(), 1, "logged once");
    assert_eq!(mine[0]["status"], "rejected");
    assert_eq!(mine[0]["reason"], "One contract costs $303.00, more than Main's maximum position size of $100.00.");
    assert_eq!(mine[0]["fills"], json!([]));
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert!(positions.is_empty(), "{positions:?}");
    let notes: Value = app.client.get(app.url("/api/notifications")).send().await.expect("notes").json().await.expect("json");
    let log = audit_log(&app, &app.client).await;
    assert_eq!(log.iter().filter(|(action, _)| action == "order_rejected").count(), 1, "{log:?}");
    assert!(!log.iter().any(|(action, _)| action == "order_placed"), "{log:?}");
    let refused = notes["notifications"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|n| n["title"] == "Order refused: DEAR CALL $100.00 (".to_owned() + &signal.expiration_date.to_string() + ")")
        .count();
    assert_eq!(refused, 1);
}

async fn a_straddle_is_sent_as_two_legs(app: TestApp) {
    trader(&app).await;
    let signal = issue(&app, "VOL", "STRADDLE").await;
    assert_eq!(tick(&app).await, 1);
    let listed = orders_of(&app, &app.client).await;
    let order = for_signal(&listed, &signal)[0];
    let rights: Vec<&str> = order["legs"].as_array().expect("legs").iter().map(|l| l["right"].as_str().expect("right")).collect();
    assert_eq!(rights, ["call", "put"]);
    let fill = &order["fills"][0];
    // The straddle's net price is its premium plus 1%, however it splits between the legs; each
    // leg's contracts pay the commission.
    assert!((fill["netPrice"].as_f64().expect("price") - 3.03).abs() < 1e-6, "{fill}");
    assert!((fill["commission"].as_f64().expect("commission") - 2.0 * 0.65 * 3.0).abs() < 1e-9, "{fill}");
}

/// A limit order the paper broker leaves standing, placed straight into `account_id`.
async fn standing_order(app: &TestApp, user_id: &str, account_id: &str, client_order_id: &str, expires_in: Duration) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    let now = app.now();
    let row = OrderRow {
        id: id.clone(),
        user_id: user_id.to_owned(),
        account_id: account_id.to_owned(),
        client_order_id: client_order_id.to_owned(),
        signal_id: None,
        underlying: "AAPL".into(),
        quantity: 2,
        order_type: "limit".into(),
        limit_price: Some(0.05),
        time_in_force: "gtc".into(),
        status: "accepted".into(),
        filled_units: 0,
        reason: None,
        placed_on: app.today(),
        created_at: now,
        updated_at: now,
        broker: "paper".into(),
        broker_order_id: None,
        expires_at: Some(now + expires_in),
    };
    let leg = OrderLegRow {
        order_id: id.clone(),
        user_id: user_id.to_owned(),
        leg_index: 0,
        option_right: "call".into(),
        strike_cents: 25_000,
        expiration_date: app.today() + Duration::days(30),
        side: "buy".into(),
        ratio: 1,
    };
    assert!(orders::place(app.db(), &row, &[leg]).await.expect("place").1);
    id
}

async fn standing_orders_are_cancelled_by_the_user_or_their_deadline(app: TestApp) {
    let user_id = trader(&app).await;
    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let mine = standing_order(&app, &user_id, &ada.account_id, "mine-1", Duration::hours(1)).await;
    let mallory = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    assert_eq!(mallory.post(app.url(&format!("/api/orders/{mine}/cancel"))).send().await.expect("cancel").status(), 404);
    // Parallel cancels: one wins, the others find it no longer standing.
    let cancels =
        futures_util::future::join_all((0..5).map(|_| app.client.post(app.url(&format!("/api/orders/{mine}/cancel"))).send())).await;
    let codes: Vec<u16> = cancels.into_iter().map(|r| r.expect("cancel").status().as_u16()).collect();
    assert_eq!(codes.iter().filter(|c| **c == 200).count(), 1, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| **c == 409).count(), 4, "{codes:?}");
    let cancelled = orders::find(app.db(), &ada.account_id, &mine).await.expect("order");
    assert_eq!((cancelled.row.status.as_str(), cancelled.row.reason.as_deref()), ("cancelled", Some("Cancelled by you.")));

    // Past its deadline, the next tick cancels it; one still in time stands.
    let late = standing_order(&app, &user_id, &ada.account_id, "late-1", Duration::minutes(-1)).await;
    let fresh = standing_order(&app, &user_id, &ada.account_id, "fresh-1", Duration::minutes(30)).await;
    assert_eq!(strikeline_server::services::execution::cancel_overdue(&app.state, app.now()).await.expect("overdue"), 1);
    let late = orders::find(app.db(), &ada.account_id, &late).await.expect("order");
    assert_eq!((late.row.status.as_str(), late.row.reason.as_deref()), ("cancelled", Some("Not filled within 30 minutes.")));
    let log = audit_log(&app, &app.client).await;
    let cancels: Vec<&String> = log.iter().filter(|(action, _)| action == "order_cancelled").map(|(_, detail)| detail).collect();
    assert_eq!(cancels.len(), 2, "the user's cancel and the deadline's, once each: {log:?}");
    assert!(cancels[0].ends_with("cancelled: Not filled within 30 minutes."), "{cancels:?}");
    assert_eq!(orders::find(app.db(), &ada.account_id, &fresh).await.expect("order").row.status, "accepted");
}

async fn kill_switches_stop_new_orders(app: TestApp) {
    trader(&app).await;
    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    // The account's switch: no order while on, and its standing orders are cancelled.
    let standing = standing_order(&app, &ada.id, &ada.account_id, "gtc-1", Duration::days(5)).await;
    let halt = |on: bool| app.client.patch(app.url(&format!("/api/accounts/{}", ada.account_id))).json(&json!({"ordersHalted": on})).send();
    let halted: Value = halt(true).await.expect("halt").json().await.expect("json");
    assert_eq!(halted["ordersHalted"], true);
    let log = audit_log(&app, &app.client).await;
    assert!(log.contains(&("orders_halted".to_owned(), "Kill switch on for Main (1 standing order cancelled)".to_owned())), "{log:?}");
    assert_eq!(orders::find(app.db(), &ada.account_id, &standing).await.expect("order").row.status, "cancelled");
    let first = issue(&app, "ONE", "CALL").await;
    assert_eq!(tick(&app).await, 0);
    assert!(for_signal(&orders_of(&app, &app.client).await, &first).is_empty(), "nothing sent, nothing logged");
    assert_eq!(halt(false).await.expect("resume").status(), 200);
    assert_eq!(tick(&app).await, 1, "sent once the switch is off");

    // The administrator's switch: only an administrator turns it, and it stops every account.
    let refused = app.client.put(app.url("/api/automation/orders")).json(&json!({"halted": true})).send().await.expect("put");
    assert_eq!(refused.status(), 403);
    let admin = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&admin, "admin@example.com", "admin", "correct-horse").await.status(), 201);
    let bad = admin.put(app.url("/api/automation/orders")).json(&json!({"halted": "yes"})).send().await.expect("put");
    assert_eq!(bad.status(), 422);
    let status: Value =
        admin.put(app.url("/api/automation/orders")).json(&json!({"halted": true})).send().await.expect("put").json().await.expect("json");
    assert_eq!(status["ordersHalted"], true);
    let second = issue(&app, "TWO", "CALL").await;
    assert_eq!(tick(&app).await, 0);
    assert!(for_signal(&orders_of(&app, &app.client).await, &second).is_empty());
    let status: Value =
        admin.put(app.url("/api/automation/orders")).json(&json!({"halted": false})).send().await.expect("put").json().await.expect("json");
    assert_eq!(status["ordersHalted"], false);
    assert_eq!(tick(&app).await, 1);
}

async fn fills_and_refusals_reach_the_accounts_webhooks(app: TestApp) {
    let user_id = trader(&app).await;
    users::set_subscription(app.db(), &user_id, "premium", "active", None, app.now()).await.expect("plan");
    let body = json!({"name": "IRA", "investmentCapital": 50000, "maxPositionSize": 100, "preferredStrategies": ["Momentum"], "riskTolerance": "high"});
    let ira: Value = app.post_json(&app.client, "/api/accounts", &body).await.json().await.expect("json");
    let ira_id = ira["id"].as_str().expect("id").to_owned();
    let (url, _) = crate::webhooks::receiver(vec![200]).await;
    let mut hooks = Vec::new();
    for (event_type, account) in [("order_filled", None), ("order_filled", Some(ira_id.as_str())), ("order_rejected", None)] {
        let mut body = json!({"eventType": event_type, "url": url});
        if let Some(id) = account {
            body["accountId"] = json!(id);
        }
        let response = app.post_json(&app.client, "/api/webhooks", &body).await;
        assert_eq!(response.status(), 201, "{event_type}");
        hooks.push(response.json::<Value>().await.expect("json")["webhookId"].as_str().expect("id").to_owned());
    }
    // Main fills three contracts; the IRA's $100 maximum refuses the $300 contract.
    let signal = issue(&app, "MOM", "CALL").await;
    assert!(tick(&app).await >= 1, "Main's (and the simulated market's own signals')");
    let db = app.db().clone();
    let id = signal.id.clone();
    let payloads = |endpoint: String, topic: &'static str| {
        let db = db.clone();
        let id = id.clone();
        async move {
            let sql = "SELECT payload FROM outbox WHERE endpoint_id = $1 AND topic = $2";
            let rows: Vec<String> = strikeline_store::with_db!(&db, pool => sqlx::query_scalar(sql).bind(&endpoint).bind(topic).fetch_all(pool).await.expect("outbox"));
            rows.iter()
                .map(|p| serde_json::from_str::<Value>(p).expect("payload")["data"].clone())
                .filter(|data| data["order"]["signalId"] == id.as_str())
                .collect::<Vec<_>>()
        }
    };
    let every = payloads(hooks[0].clone(), "order_filled").await;
    assert_eq!(every.len(), 1, "{every:?}");
    assert_eq!(every[0]["account"]["name"], "Main");
    assert_eq!(every[0]["order"]["signalId"], signal.id.as_str());
    assert_eq!(every[0]["order"]["legs"][0]["right"], "call");
    assert_eq!(every[0]["fill"]["units"], 3);
    assert!((every[0]["fill"]["netPrice"].as_f64().expect("price") - 3.03).abs() < 1e-9);
    assert!(payloads(hooks[1].clone(), "order_filled").await.is_empty(), "the IRA's endpoint hears nothing of Main's fill");
    let refused = payloads(hooks[2].clone(), "order_rejected").await;
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0]["account"]["name"], "IRA");
    assert_eq!(refused[0]["reason"], "One contract costs $303.00, more than IRA's maximum position size of $100.00.");
}

async fn an_optimiser_proposal_is_sent_as_orders_once(app: TestApp) {
    let user_id = trader(&app).await;
    let first = issue(&app, "ONE", "CALL").await;
    let second = issue(&app, "TWO", "PUT").await;
    let send = |body: Value| app.client.post(app.url("/api/orders/proposal")).json(&body).send();
    let position = |signal: &store::SignalRow, contracts: i64| json!({"signalId": signal.id, "contracts": contracts});
    // The optimiser's plan rule: Premium.
    let refused = send(json!({"positions": [position(&first, 1)]})).await.expect("send");
    assert_eq!(refused.status(), 403);
    users::set_subscription(app.db(), &user_id, "premium", "active", None, app.now()).await.expect("plan");

    // Every position is checked, each bad one named, and nothing is placed.
    for (body, field) in [
        (json!({"positions": []}), "positions"),
        (json!({"positions": [position(&first, 0)]}), "positions[0].contracts"),
        (json!({"positions": [position(&first, -3)]}), "positions[0].contracts"),
        (json!({"positions": [{"signalId": "no-such-signal", "contracts": 1}]}), "positions[0].signalId"),
        (json!({"positions": [position(&first, 1), position(&first, 1)]}), "positions[1].signalId"),
        // Four $303 contracts (the $3.00 premium plus 1%) are more than the $1,000 maximum position.
        (json!({"positions": [position(&first, 1), position(&second, 4)]}), "positions[1].contracts"),
    ] {
        let response = send(body.clone()).await.expect("send");
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(crate::common::fields(&crate::common::problem(response).await), [field], "{body}");
    }
    assert!(orders_of(&app, &app.client).await.is_empty(), "a refused send places nothing");

    let sent: Value =
        send(json!({"positions": [position(&first, 3), position(&second, 2)]})).await.expect("send").json().await.expect("json");
    assert_eq!(sent["placed"], 2);
    let statuses: Vec<(&str, i64)> = sent["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| (o["status"].as_str().expect("status"), o["filledUnits"].as_i64().expect("units")))
        .collect();
    assert_eq!(statuses, [("filled", 3), ("filled", 2)]);
    assert_eq!(sent["orders"][1]["legs"][0]["right"], "put");
    // Sent again (or taken by the automation): the same orders, none placed twice.
    let again: Value = send(json!({"positions": [position(&first, 3)]})).await.expect("send").json().await.expect("json");
    assert_eq!(again["placed"], 0);
    assert_eq!(again["orders"][0]["id"], sent["orders"][0]["id"]);
    assert_eq!(tick(&app).await, 0, "the automation finds them ordered");
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert_eq!(positions.len(), 2);

    // Parallel sends of a new signal place one order.
    let third = issue(&app, "THR", "CALL").await;
    let body = json!({"positions": [position(&third, 1)]});
    let parallel = futures_util::future::join_all((0..5).map(|_| send(body.clone()))).await;
    let mut placed = 0;
    for response in parallel {
        let response = response.expect("send");
        assert_eq!(response.status(), 200);
        placed += response.json::<Value>().await.expect("json")["placed"].as_i64().expect("placed");
    }
    assert_eq!(placed, 1);

    // The capital left: $10,000 less what is held ($3.03 × 100 × 6) is $8,182; a new $300
    // position fits, but not once the capital is cut to what is held.
    let fourth = issue(&app, "FOU", "CALL").await;
    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let cut = json!({"investmentCapital": 1900});
    assert_eq!(
        app.client.patch(app.url(&format!("/api/accounts/{}", ada.account_id))).json(&cut).send().await.expect("patch").status(),
        200
    );
    let response = send(json!({"positions": [position(&fourth, 1)]})).await.expect("send");
    assert_eq!(response.status(), 422);
    let problem = crate::common::problem(response).await;
    assert_eq!(crate::common::fields(&problem), ["positions"]);

    // A kill switch stops sends.
    let halt = json!({"ordersHalted": true, "investmentCapital": 10000});
    assert_eq!(
        app.client.patch(app.url(&format!("/api/accounts/{}", ada.account_id))).json(&halt).send().await.expect("patch").status(),
        200
    );
    assert_eq!(send(json!({"positions": [position(&fourth, 1)]})).await.expect("send").status(), 409);
}

async fn a_position_closes_through_a_sell_order_at_the_backtesters_exit(app: TestApp) {
    trader(&app).await;
    let signal = issue(&app, "MOM", "CALL").await;
    assert_eq!(tick(&app).await, 1);
    // The signal reaches its target at a $4.50 premium.
    store::apply_marks(app.db(), &[crate::common::target_reached(&signal.id, 450, app.now())]).await.expect("close");
    let settle = || strikeline_server::services::portfolio_settlement::settle_positions(&app.state, app.now());
    // Two settlers at once: one sell order, one closing.
    let (a, b) = tokio::join!(settle(), settle());
    a.expect("settle");
    b.expect("settle");
    settle().await.expect("settle again");

    let listed = orders_of(&app, &app.client).await;
    let mine = for_signal(&listed, &signal);
    assert_eq!(mine.len(), 2, "the opening buy and the closing sale: {mine:?}");
    let sale = mine.iter().find(|o| o["legs"][0]["side"] == "sell").expect("sale");
    assert!(sale["clientOrderId"].as_str().is_some_and(|id| id.starts_with("close-")), "{sale}");
    assert_eq!((sale["status"].as_str(), sale["filledUnits"].as_i64()), (Some("filled"), Some(3)));
    let fill = &sale["fills"][0];
    let received = strikeline_engine::Costs::STANDARD.exit_fill(4.50);
    assert!((received - 4.46).abs() < 1e-9 || (received - 4.45).abs() < 1e-9, "4.455 to the cent: {received}");
    assert!((fill["netPrice"].as_f64().expect("price") + received).abs() < 1e-9, "the mark less 1%, received: {fill}");
    assert!((fill["commission"].as_f64().expect("commission") - 1.95).abs() < 1e-9);

    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let id = positions.iter().find(|p| p["signal"]["symbol"] == "MOM").expect("held")["id"].as_str().expect("id").to_owned();
    let closed = strikeline_store::positions::find_automated(app.db(), &ada.account_id, &id).await.expect("position");
    assert_eq!(closed.status, "closed");
    assert_eq!(closed.commissions_cents, 390, "opening and closing commissions, $0.65 a contract each way");
    // The fills' prices, to the cent as the fill model gives them: $3.03 paid, 4.455 received.
    assert_eq!((closed.entry_cents, closed.exit_cents), (303, Some(strikeline_server::foundation::money::to_cents(received))));
    // The backtester's P&L of the same trade, to the cent.
    let backtest = strikeline_engine::Costs::STANDARD.net_pnl(3.00, 4.50, 3.0);
    let paper = ((closed.exit_cents.expect("exit") - closed.entry_cents) * 100 * 3 - closed.commissions_cents) as f64 / 100.0;
    assert_eq!(paper, backtest, "paper against backtest");
    // The cash: the capital, less the opening, plus the sale, both with their commissions.
    let accounts: Value = app.client.get(app.url("/api/accounts")).send().await.expect("accounts").json().await.expect("json");
    let cash = accounts["accounts"][0]["cash"].as_f64().expect("cash");
    assert!((cash - (10_000.0 + paper)).abs() < 1e-9, "{cash} against {}", 10_000.0 + paper);
    let log = audit_log(&app, &app.client).await;
    assert_eq!(log.iter().filter(|(action, detail)| action == "order_placed" && detail.contains("sell call")).count(), 1, "{log:?}");
}

/// A second instance over the same database (another replica, or the server restarted), and
/// every point a `kill -9` could stop a send at: after placing (new), after the broker took it
/// (accepted). Each order is sent once, and each resumed order fills once.
async fn two_instances_and_a_crash_mid_send_place_each_order_once(app: TestApp) {
    trader(&app).await;
    let url = app.database_url.clone();
    let engine = if url.starts_with("postgres") { crate::common::Engine::Postgres } else { crate::common::Engine::Sqlite };
    let second = TestApp::spawn_with(engine, |config| config.database_url = Some(strikeline_server::foundation::config::Secret::new(url)))
        .await
        .expect("second instance");
    let signals = [issue(&app, "ONE", "CALL").await, issue(&app, "TWO", "PUT").await, issue(&app, "THR", "STRADDLE").await];
    // The two instances run the automation at once, three times over.
    for _ in 0..3 {
        let (a, b) = tokio::join!(
            strikeline_server::services::execution::automated::execute(&app.state, app.now()),
            strikeline_server::services::execution::automated::execute(&second.state, app.now())
        );
        a.expect("first instance");
        b.expect("second instance");
    }
    let listed = orders_of(&app, &app.client).await;
    for signal in &signals {
        let mine = for_signal(&listed, signal);
        assert_eq!(mine.len(), 1, "one order for {}", signal.symbol);
        assert_eq!(mine[0]["fills"].as_array().expect("fills").len(), 1, "filled once: {}", mine[0]);
    }
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert_eq!(positions.len(), 3);

    // A crash after placing (new) and one after the broker took the order (accepted): the
    // other instance's next tick finishes each, once.
    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let account = strikeline_store::trading_accounts::find(app.db(), &ada.id, &ada.account_id).await.expect("account");
    let mut left = Vec::new();
    for (symbol, status) in [("NEW", "new"), ("ACC", "accepted")] {
        let signal = issue(&app, symbol, "CALL").await;
        let mut order =
            strikeline_server::services::execution::automated::order_for(&signal, &account, "paper", Ok(2), app.now()).expect("order");
        order.row.status = status.into();
        assert!(orders::place(app.db(), &order.row, &order.legs).await.expect("place").1);
        left.push(signal);
    }
    let (a, b) = tokio::join!(
        strikeline_server::services::execution::automated::execute(&app.state, app.now()),
        strikeline_server::services::execution::automated::execute(&second.state, app.now())
    );
    assert_eq!(a.expect("first") + b.expect("second"), 2, "both resumed orders filled, once each");
    let listed = orders_of(&app, &app.client).await;
    for signal in &left {
        let mine = for_signal(&listed, signal);
        assert_eq!(mine.len(), 1);
        assert_eq!((mine[0]["status"].as_str(), mine[0]["filledUnits"].as_i64()), (Some("filled"), Some(2)), "{}", mine[0]);
        assert_eq!(mine[0]["fills"].as_array().expect("fills").len(), 1);
    }
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    assert_eq!(positions.len(), 5);
}
