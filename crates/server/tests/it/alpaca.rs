//! The Alpaca client (docs/execution.md) against a local fake that speaks Alpaca's trading API:
//! the keys in their headers, options orders placed under our client order id (a second send
//! of one id reads the first back), fills that arrive in parts, a buying-power rejection, a
//! rate limit waited out (and one that outlasts every attempt), refused keys, cancelling. Then
//! a Premium account connected to the fake: its automated orders go there, fill in parts and
//! open the position at the average price; a rejection and the kill switch's cancel reach it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use chrono::NaiveDate;
use serde_json::{Value, json};
use strikeline_engine::broker::{Contract, Leg, Order, OrderType, Right, Side, TimeInForce};
use strikeline_server::foundation::clock::Clock;
use strikeline_server::services::execution::alpaca::{AlpacaClient, AlpacaError, Answer, Intent};

const KEY: &str = "PKTEST12345678";
const SECRET: &str = "shh-a-secret-key-0001";

/// What the fake holds and how it misbehaves.
#[derive(Default)]
struct Fake {
    /// Orders by client order id: (Alpaca's id, qty, filled, status, the request).
    orders: HashMap<String, (String, u32, u32, String, Value)>,
    /// 429s still to answer before serving anything.
    rate_limited: u32,
    /// Every request's method and path, in order.
    seen: Vec<String>,
    /// Orders are taken (as Alpaca took them) but never answered: the sender waits forever.
    hang_after_placing: bool,
    /// What `GET /v2/positions` lists.
    positions: Vec<Value>,
}

type Shared = Arc<Mutex<Fake>>;

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("APCA-API-KEY-ID").is_some_and(|v| v == KEY) && headers.get("APCA-API-SECRET-KEY").is_some_and(|v| v == SECRET)
}

/// The fake's answer before the route's own: 401 without the keys, 429 while rate limited.
fn gate(fake: &mut Fake, headers: &HeaderMap, what: String) -> Option<Response> {
    fake.seen.push(what);
    if !authorised(headers) {
        return Some(
            (StatusCode::UNAUTHORIZED, axum::Json(json!({"code": 40110000, "message": "request is not authorized"}))).into_response(),
        );
    }
    if fake.rate_limited > 0 {
        fake.rate_limited -= 1;
        return Some((StatusCode::TOO_MANY_REQUESTS, [("retry-after", "0")], "rate limit exceeded").into_response());
    }
    None
}

fn order_json(client_order_id: &str, (id, qty, filled, status, _): &(String, u32, u32, String, Value)) -> Value {
    json!({
        "id": id, "client_order_id": client_order_id, "status": status, "qty": qty.to_string(),
        "filled_qty": filled.to_string(), "filled_avg_price": if *filled > 0 { Some("1.25") } else { None },
    })
}

async fn place(State(fake): State<Shared>, headers: HeaderMap, axum::Json(body): axum::Json<Value>) -> Response {
    let (answer, hang) = take(&fake, &headers, &body);
    if hang {
        std::future::pending::<()>().await;
    }
    answer
}

/// Alpaca's handling of a new order; whether the fake then leaves the sender waiting.
fn take(fake: &Shared, headers: &HeaderMap, body: &Value) -> (Response, bool) {
    let answer = place_now(&mut fake.lock().expect("fake"), headers, body);
    (answer, fake.lock().expect("fake").hang_after_placing)
}

fn place_now(fake: &mut Fake, headers: &HeaderMap, body: &Value) -> Response {
    if let Some(answer) = gate(fake, headers, "POST /v2/orders".into()) {
        return answer;
    }
    let client_order_id = body["client_order_id"].as_str().unwrap_or_default().to_owned();
    if fake.orders.contains_key(&client_order_id) {
        return (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(json!({"code": 40010001, "message": "client_order_id must be unique"})))
            .into_response();
    }
    let qty: u32 = body["qty"].as_str().and_then(|q| q.parse().ok()).unwrap_or(0);
    // Twenty contracts or more is beyond the fake account's buying power.
    if qty >= 20 {
        return (StatusCode::FORBIDDEN, axum::Json(json!({"code": 40310000, "message": "insufficient options buying power"})))
            .into_response();
    }
    let id = format!("alpaca-{}", fake.orders.len() + 1);
    let order = (id, qty, 0, "accepted".to_owned(), body.clone());
    let answer = order_json(&client_order_id, &order);
    fake.orders.insert(client_order_id, order);
    (StatusCode::OK, axum::Json(answer)).into_response()
}

/// Each read fills two more units, until the order is filled.
async fn by_client_id(State(fake): State<Shared>, headers: HeaderMap, Query(query): Query<HashMap<String, String>>) -> Response {
    let mut fake = fake.lock().expect("fake");
    if let Some(answer) = gate(&mut fake, &headers, "GET /v2/orders:by_client_order_id".into()) {
        return answer;
    }
    let id = query.get("client_order_id").cloned().unwrap_or_default();
    let Some(order) = fake.orders.get_mut(&id) else {
        return (StatusCode::NOT_FOUND, axum::Json(json!({"code": 40410000, "message": "order not found"}))).into_response();
    };
    if order.3 == "accepted" || order.3 == "partially_filled" {
        order.2 = (order.2 + 2).min(order.1);
        order.3 = if order.2 == order.1 { "filled".into() } else { "partially_filled".into() };
    }
    let answer = order_json(&id, order);
    (StatusCode::OK, axum::Json(answer)).into_response()
}

async fn cancel(State(fake): State<Shared>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let mut fake = fake.lock().expect("fake");
    if let Some(answer) = gate(&mut fake, &headers, format!("DELETE /v2/orders/{id}")) {
        return answer;
    }
    match fake.orders.values_mut().find(|o| o.0 == id) {
        Some(order) if order.3 == "filled" => (StatusCode::UNPROCESSABLE_ENTITY, "order is not cancelable").into_response(),
        Some(order) => {
            order.3 = "canceled".into();
            StatusCode::NO_CONTENT.into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn positions(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let mut fake = fake.lock().expect("fake");
    if let Some(answer) = gate(&mut fake, &headers, "GET /v2/positions".into()) {
        return answer;
    }
    (StatusCode::OK, axum::Json(Value::Array(fake.positions.clone()))).into_response()
}

async fn account(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let mut fake = fake.lock().expect("fake");
    if let Some(answer) = gate(&mut fake, &headers, "GET /v2/account".into()) {
        return answer;
    }
    let body = json!({"id": "acct-1", "status": "ACTIVE", "currency": "USD", "cash": "8123.45", "options_buying_power": "7000.5"});
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// The account's fees: two, on one page.
async fn fees(State(fake): State<Shared>, headers: HeaderMap, Query(query): Query<HashMap<String, String>>) -> Response {
    let mut fake = fake.lock().expect("fake");
    let what = format!("GET /v2/account/activities/FEE after={}", query.get("after").cloned().unwrap_or_default());
    if let Some(answer) = gate(&mut fake, &headers, what) {
        return answer;
    }
    let body = json!([
        {"id": "20261201000000000::fee-1", "activity_type": "FEE", "activity_sub_type": "ORF", "net_amount": "-0.03", "date": "2026-12-01"},
        {"id": "20261201000000000::fee-2", "activity_type": "FEE", "activity_sub_type": "TAF", "net_amount": "-0.02", "date": "2026-12-01"}
    ]);
    (StatusCode::OK, axum::Json(body)).into_response()
}

async fn fake_alpaca() -> (String, Shared) {
    let fake: Shared = Arc::default();
    let app = axum::Router::new()
        .route("/v2/orders", post(place))
        .route("/v2/orders:by_client_order_id", get(by_client_id))
        .route("/v2/orders/{id}", delete(cancel))
        .route("/v2/positions", get(positions))
        .route("/v2/account", get(account))
        .route("/v2/account/activities/FEE", get(fees))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    (base, fake)
}

fn client(base: &str, secret: &str) -> AlpacaClient {
    AlpacaClient::new(base, KEY, secret, StdDuration::from_millis(20), Clock::system()).expect("client")
}

fn order(client_order_id: &str, legs: &[(Right, Side)], quantity: u32) -> Order {
    let day = NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
    let expiration = NaiveDate::from_ymd_opt(2026, 12, 18).expect("date");
    let legs = legs
        .iter()
        .map(|(right, side)| Leg {
            contract: Contract { underlying: "AAPL".into(), right: *right, strike_cents: 19_000, expiration },
            side: *side,
            ratio: 1,
        })
        .collect();
    Order::new(client_order_id, legs, quantity, OrderType::Market, TimeInForce::Day, day).expect("order")
}

#[tokio::test]
async fn an_order_is_placed_once_and_fills_in_parts() {
    let (base, fake) = fake_alpaca().await;
    let alpaca = client(&base, SECRET);
    let buy = order("signal-1", &[(Right::Call, Side::Buy)], 5);
    let Answer::Placed(placed) = alpaca.submit(&buy, Intent::Open).await.expect("submit") else { panic!("not placed") };
    assert_eq!((placed.client_order_id.as_str(), placed.status.as_str(), placed.filled_units()), ("signal-1", "accepted", 0));
    let sent = fake.lock().expect("fake").orders["signal-1"].4.clone();
    assert_eq!(sent["symbol"], "AAPL261218C00190000");
    assert_eq!(
        (sent["side"].as_str(), sent["position_intent"].as_str(), sent["qty"].as_str()),
        (Some("buy"), Some("buy_to_open"), Some("5"))
    );

    // The answer was lost and the order sent again: Alpaca holds one, which is read back.
    let Answer::Placed(again) = alpaca.submit(&buy, Intent::Open).await.expect("submit") else { panic!("not placed") };
    assert_eq!(again.id, placed.id);
    assert_eq!(fake.lock().expect("fake").orders.len(), 1);

    // The fake fills two units a read (the read-back was one): partly filled, then whole.
    assert_eq!((again.status.as_str(), again.filled_units()), ("partially_filled", 2));
    let part = alpaca.by_client_order_id("signal-1").await.expect("status");
    assert_eq!((part.status.as_str(), part.filled_units()), ("partially_filled", 4));
    assert_eq!(part.average_price(), Some(1.25));
    let whole = alpaca.by_client_order_id("signal-1").await.expect("status");
    assert_eq!((whole.status.as_str(), whole.filled_units()), ("filled", 5));
    // A filled order is not cancelled; Alpaca's 422 there is no failure.
    alpaca.cancel(&whole.id).await.expect("cancel a filled order");
}

#[tokio::test]
async fn a_straddle_is_one_multi_leg_order_and_cancels() {
    let (base, fake) = fake_alpaca().await;
    let alpaca = client(&base, SECRET);
    let straddle = order("signal-2", &[(Right::Call, Side::Buy), (Right::Put, Side::Buy)], 3);
    let Answer::Placed(placed) = alpaca.submit(&straddle, Intent::Open).await.expect("submit") else { panic!("not placed") };
    let sent = fake.lock().expect("fake").orders["signal-2"].4.clone();
    assert_eq!(sent["order_class"], "mleg");
    assert_eq!(sent["legs"][1]["symbol"], "AAPL261218P00190000");
    alpaca.cancel(&placed.id).await.expect("cancel");
    assert_eq!(fake.lock().expect("fake").orders["signal-2"].3, "canceled");
}

#[tokio::test]
async fn rejections_rate_limits_and_refused_keys_are_told_apart() {
    let (base, fake) = fake_alpaca().await;
    let alpaca = client(&base, SECRET);
    // Beyond the account's buying power: a rejection with Alpaca's reason, nothing placed.
    let big = order("signal-3", &[(Right::Put, Side::Buy)], 25);
    assert_eq!(
        alpaca.submit(&big, Intent::Open).await.expect("submit"),
        Answer::Rejected("Alpaca refused it: insufficient options buying power.".into())
    );
    // Two 429s are waited out.
    fake.lock().expect("fake").rate_limited = 2;
    let small = order("signal-4", &[(Right::Put, Side::Buy)], 1);
    assert!(matches!(alpaca.submit(&small, Intent::Open).await.expect("submit"), Answer::Placed(_)));
    assert_eq!(
        fake.lock().expect("fake").seen.iter().filter(|s| *s == "POST /v2/orders").count(),
        4,
        "two refused, then the big one and this"
    );
    // A limit that outlasts every attempt leaves the order unsent, to resume later.
    fake.lock().expect("fake").rate_limited = 10;
    let later = order("signal-5", &[(Right::Put, Side::Buy)], 1);
    assert_eq!(alpaca.submit(&later, Intent::Open).await, Err(AlpacaError::RateLimited));
    assert!(!fake.lock().expect("fake").orders.contains_key("signal-5"));
    fake.lock().expect("fake").rate_limited = 0;
    // Wrong keys; an order nobody placed.
    assert_eq!(client(&base, "wrong").submit(&later, Intent::Open).await, Err(AlpacaError::Unauthorized));
    assert_eq!(alpaca.by_client_order_id("never-sent").await, Err(AlpacaError::NotFound));
    // Good-till-cancelled options orders are refused before anything is sent.
    let day = NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
    let gtc = Order::new("gtc-1", small.legs.clone(), 1, OrderType::Market, TimeInForce::GoodTillCancelled, day).expect("order");
    assert_eq!(
        alpaca.submit(&gtc, Intent::Open).await.expect("submit"),
        Answer::Rejected("Alpaca takes options orders for the day only.".into())
    );
}

/// The app with a credentials key and Alpaca's endpoints at the fake.
async fn app_with_alpaca(engine: crate::common::Engine, base: &str) -> Option<crate::common::TestApp> {
    let base = base.to_owned();
    crate::common::TestApp::spawn_with(engine, move |config| {
        config.brokers.credentials_key =
            Some(strikeline_server::foundation::config::Secret::new("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=".into()));
        config.brokers.alpaca_paper_url = base.clone();
        config.brokers.alpaca_live_url = base;
        config.brokers.alpaca_max_wait_ms = 20;
    })
    .await
}

async fn premium_connected_account_trades_through_alpaca(engine: crate::common::Engine) {
    let (base, fake) = fake_alpaca().await;
    let Some(app) = app_with_alpaca(engine, &base).await else { return };
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id").to_owned();
    let prefs = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Momentum"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&prefs).send().await.expect("patch").status(), 200);
    let ada = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let connect = |body: Value| app.client.put(app.url(&format!("/api/accounts/{}/broker", ada.account_id))).json(&body).send();
    let good = json!({"broker": "alpaca", "endpoint": "paper", "keyId": KEY, "secretKey": SECRET});
    // Premium only; every field checked; nothing stored from a refusal.
    assert_eq!(connect(good.clone()).await.expect("connect").status(), 403);
    strikeline_store::users::set_subscription(app.db(), &user_id, "premium", "active", None, app.now()).await.expect("plan");
    let bad = connect(json!({"broker": "alpaca", "endpoint": "paper", "keyId": "no", "secretKey": "short"})).await.expect("connect");
    assert_eq!(bad.status(), 422);
    assert_eq!(crate::common::fields(&crate::common::problem(bad).await), ["keyId", "secretKey"]);
    let connected: Value = connect(good).await.expect("connect").json().await.expect("json");
    assert_eq!(connected["broker"], json!({"name": "alpaca", "endpoint": "paper", "keyHint": "…5678"}));
    let stored = strikeline_store::broker_connections::find(app.db(), &ada.account_id).await.expect("find").expect("connected");
    assert!(!stored.secret_sealed.contains(SECRET), "the secret is stored sealed");
    let mallory = crate::common::TestApp::browser(&app.base);
    assert_eq!(app.register_with(&mallory, "mallory@example.com", "mallory", "correct-horse").await.status(), 201);
    let theirs = mallory
        .put(app.url(&format!("/api/accounts/{}/broker", ada.account_id)))
        .json(&json!({"broker": "alpaca", "endpoint": "live", "keyId": "PKMALLORY1", "secretKey": "mallory-secret-key"}))
        .send()
        .await
        .expect("put");
    assert!(matches!(theirs.status().as_u16(), 403 | 404), "{}", theirs.status());

    // The automation's order goes to Alpaca (three contracts), which fills two a read.
    let mut signal = crate::common::signal_row("MOM", 90, app.today(), 3, None);
    signal.strategy = "Momentum".into();
    strikeline_store::signals::issue_automated(app.db(), &[signal.clone()]).await.expect("issue");
    let tick = || strikeline_server::services::execution::automated::execute(&app.state, app.now());
    assert_eq!(tick().await.expect("tick"), 0, "sent and accepted, not filled yet");
    let sent = fake.lock().expect("fake").orders.get(&format!("signal-{}", signal.id)).cloned().expect("at Alpaca");
    assert_eq!(sent.4["symbol"].as_str().map(|s| s.starts_with("MOM")), Some(true));
    assert_eq!(sent.4["qty"], "3");
    let order = |app: &crate::common::TestApp| {
        let db = app.db().clone();
        let account = ada.account_id.clone();
        let client_id = format!("signal-{}", signal.id);
        async move { strikeline_store::orders::by_client_id(&db, &account, &client_id).await.expect("order") }
    };
    let placed = order(&app).await;
    assert_eq!((placed.row.broker.as_str(), placed.row.status.as_str()), ("alpaca", "accepted"));
    assert_eq!(placed.row.broker_order_id.as_deref(), Some(sent.0.as_str()));
    let poll = || strikeline_server::services::execution::remote::poll_standing(&app.state, app.now());
    poll().await.expect("poll");
    let part = order(&app).await;
    assert_eq!((part.row.status.as_str(), part.row.filled_units), ("partially_filled", 2));
    assert!(strikeline_store::positions::find_automated(app.db(), &ada.account_id, "none").await.is_err());
    assert_eq!(poll().await.expect("poll"), 1, "filled");
    let whole = order(&app).await;
    assert_eq!((whole.row.status.as_str(), whole.row.filled_units), ("filled", 3));
    let fills = strikeline_store::orders::fills(app.db(), &whole.row.id).await.expect("fills");
    assert_eq!(fills.iter().map(|f| f.units).collect::<Vec<_>>(), [2, 1]);
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let held: Vec<&Value> = positions.iter().filter(|p| p["signal"]["symbol"] == "MOM").collect();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0]["quantity"], 3);
    assert!((held[0]["entryPrice"].as_f64().expect("entry") - 1.25).abs() < 1e-9, "Alpaca's average price: {}", held[0]);
    assert_eq!(tick().await.expect("tick"), 0, "not sent twice");
    assert_eq!(fake.lock().expect("fake").seen.iter().filter(|s| *s == "POST /v2/orders").count(), 1);

    // A standing order, two of its three units filled, is cancelled at Alpaca by the kill
    // switch: what filled is the account's position.
    let mut second = crate::common::signal_row("TWO", 90, app.today(), 2, None);
    second.strategy = "Momentum".into();
    strikeline_store::signals::issue_automated(app.db(), &[second.clone()]).await.expect("issue");
    tick().await.expect("tick");
    poll().await.expect("poll");
    let halt = app
        .client
        .patch(app.url(&format!("/api/accounts/{}", ada.account_id)))
        .json(&json!({"ordersHalted": true}))
        .send()
        .await
        .expect("halt");
    assert_eq!(halt.status(), 200);
    let at_alpaca = fake.lock().expect("fake").orders.get(&format!("signal-{}", second.id)).cloned().expect("at Alpaca");
    assert_eq!(at_alpaca.3, "canceled", "cancelled at Alpaca");
    let cancelled =
        strikeline_store::orders::by_client_id(app.db(), &ada.account_id, &format!("signal-{}", second.id)).await.expect("order");
    assert_eq!((cancelled.row.status.as_str(), cancelled.row.filled_units), ("cancelled", 2));
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let kept: Vec<&Value> = positions.iter().filter(|p| p["signal"]["symbol"] == "TWO").collect();
    assert_eq!(kept.len(), 1, "the part filled is held");
    assert_eq!(kept[0]["quantity"], 2);

    // Reconciled with Alpaca's positions: MOM agrees, TWO is one short there, Alpaca holds a
    // put we never traded and some stock, which is not compared.
    let (mom, two) = (sent.4["symbol"].clone(), at_alpaca.4["symbol"].clone());
    fake.lock().expect("fake").positions = vec![
        json!({"symbol": mom, "qty": "3", "side": "long", "asset_class": "us_option"}),
        json!({"symbol": two, "qty": "1", "side": "long", "asset_class": "us_option"}),
        json!({"symbol": "XYZ261218P00050000", "qty": "-4", "side": "short", "asset_class": "us_option"}),
        json!({"symbol": "AAPL", "qty": "10", "side": "long", "asset_class": "us_equity"}),
    ];
    let cash = || async {
        let accounts: Value = app.client.get(app.url("/api/accounts")).send().await.expect("accounts").json().await.expect("json");
        let ours = accounts["accounts"].as_array().expect("list").iter().find(|a| a["id"] == ada.account_id.as_str()).cloned();
        (ours.expect("the account")["cash"].as_f64().expect("cash") * 100.0).round() as i64
    };
    let cash_before = cash().await;
    let check = format!("/api/accounts/{}/broker/reconciliation", ada.account_id);
    let response = app.client.get(app.url(&check)).send().await.expect("check");
    assert_eq!(response.status(), 200);
    let checked: Value = response.json().await.expect("json");
    assert_eq!((checked["brokerCash"].as_f64(), checked["brokerOptionsBuyingPower"].as_f64()), (Some(8123.45), Some(7000.5)));
    // Alpaca's fees since the account was connected: $0.03 and $0.02, booked into the cash once.
    assert_eq!((checked["brokerFees"].as_f64(), checked["feesBooked"].as_u64()), (Some(0.05), Some(2)), "{checked}");
    assert_eq!(cash().await, cash_before - 5, "the fees come out of the account's cash");
    let again: Value = app.client.get(app.url(&check)).send().await.expect("check").json().await.expect("json");
    assert_eq!((again["brokerFees"].as_f64(), again["feesBooked"].as_u64()), (Some(0.05), Some(0)), "read again, booked once");
    assert_eq!(cash().await, cash_before - 5);
    let kinds: Vec<Option<String>> =
        strikeline_store::broker_fees::of_account(app.db(), &ada.account_id).await.expect("fees").into_iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [Some("TAF".to_owned()), Some("ORF".to_owned())]);
    let connected_at = stored.created_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    assert!(
        fake.lock().expect("fake").seen.contains(&format!("GET /v2/account/activities/FEE after={connected_at}")),
        "fees after the connection"
    );
    assert_eq!((checked["matched"].as_u64(), checked["otherHoldings"].as_u64()), (Some(1), Some(1)), "{checked}");
    let differences: Vec<(String, i64, i64)> = checked["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .map(|d| {
            (d["symbol"].as_str().unwrap_or_default().to_owned(), d["ours"].as_i64().unwrap_or(99), d["theirs"].as_i64().unwrap_or(99))
        })
        .collect();
    assert_eq!(differences, [(two.as_str().unwrap_or_default().to_owned(), 2, 1), ("XYZ261218P00050000".to_owned(), 0, -4)]);
    let xyz = &checked["differences"][1];
    assert_eq!((xyz["underlying"].as_str(), xyz["right"].as_str(), xyz["strikePrice"].as_f64()), (Some("XYZ"), Some("put"), Some(50.0)));
    // The end of day's check tells the owner, naming the contracts.
    let daily = strikeline_server::services::execution::reconciliation::daily(&app.state, app.now()).await.expect("daily");
    assert_eq!(daily, 1);
    assert_eq!(cash().await, cash_before - 5, "the end of day books no fee twice");
    let bell: Value = app.client.get(app.url("/api/notifications")).send().await.expect("bell").json().await.expect("json");
    let told: Vec<&Value> = bell["notifications"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|n| n["title"].as_str().is_some_and(|t| t.ends_with(": our books and Alpaca's differ on 2 contracts")))
        .collect();
    assert_eq!(told.len(), 1, "{bell}");
    assert!(
        told[0]["body"].as_str().is_some_and(|b| b.contains(&format!("{}: ours 2, Alpaca 1", two.as_str().unwrap_or_default()))),
        "{}",
        told[0]
    );
    // Another Premium user's account is not theirs to check; Alpaca down is a 503, never a 500.
    let mallory_id = strikeline_store::users::find_by_email(app.db(), "mallory@example.com").await.expect("query").expect("mallory").id;
    strikeline_store::users::set_subscription(app.db(), &mallory_id, "premium", "active", None, app.now()).await.expect("plan");
    assert_eq!(mallory.get(app.url(&check)).send().await.expect("check").status(), 404);
    fake.lock().expect("fake").rate_limited = 100;
    let busy = app.client.get(app.url(&check)).send().await.expect("check");
    assert_eq!(busy.status(), 503);
    fake.lock().expect("fake").rate_limited = 0;
    // Nothing to reconcile once disconnected; a Pro plan may not check.
    assert_eq!(
        app.client.delete(app.url(&format!("/api/accounts/{}/broker", ada.account_id))).send().await.expect("disconnect").status(),
        200
    );
    let paper = app.client.get(app.url(&check)).send().await.expect("check");
    assert_eq!(paper.status(), 409);
    assert_eq!(crate::common::fields(&crate::common::problem(paper).await), ["broker"]);
    strikeline_store::users::set_subscription(app.db(), &user_id, "pro", "active", None, app.now()).await.expect("plan");
    assert_eq!(app.client.get(app.url(&check)).send().await.expect("check").status(), 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_premium_connected_account_trades_through_alpaca() {
    premium_connected_account_trades_through_alpaca(crate::common::Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_premium_connected_account_trades_through_alpaca() {
    premium_connected_account_trades_through_alpaca(crate::common::Engine::Postgres).await;
}

/// Ada on Premium with room for three contracts, her account connected to the fake Alpaca,
/// and an active Momentum signal on MOM (a $3.00 premium) for her automation.
async fn connected_with_a_signal(
    app: &crate::common::TestApp,
) -> (strikeline_store::users::UserRecord, strikeline_store::signals::SignalRow) {
    let user = app.register().await;
    let user_id = user["id"].as_str().expect("id").to_owned();
    strikeline_store::users::set_subscription(app.db(), &user_id, "premium", "active", None, app.now()).await.expect("plan");
    let prefs = json!({"investmentCapital": 10000, "riskTolerance": "high", "maxPositionSize": 1000, "preferredStrategies": "Momentum"});
    assert_eq!(app.client.patch(app.url("/api/user/preferences")).json(&prefs).send().await.expect("patch").status(), 200);
    let ada = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let good = json!({"broker": "alpaca", "endpoint": "paper", "keyId": KEY, "secretKey": SECRET});
    let connect = app.client.put(app.url(&format!("/api/accounts/{}/broker", ada.account_id))).json(&good).send().await.expect("connect");
    assert_eq!(connect.status(), 200);
    let mut signal = crate::common::signal_row("MOM", 90, app.today(), 3, None);
    signal.strategy = "Momentum".into();
    strikeline_store::signals::issue_automated(app.db(), &[signal.clone()]).await.expect("issue");
    (ada, signal)
}

/// A real server process sends a connected account's order to Alpaca and is killed (SIGKILL)
/// before Alpaca's answer arrives, so Alpaca holds the order and our store still says "new".
/// The restarted server sends it again under the same client order id and reads Alpaca's one
/// order back: one order at Alpaca, one in the store, one position.
async fn an_order_in_flight_survives_kill_9_of_the_server(engine: crate::common::Engine) {
    let (base, fake) = fake_alpaca().await;
    let Some(app) = app_with_alpaca(engine, &base).await else { return };
    let (ada, signal) = connected_with_a_signal(&app).await;
    let client_id = format!("signal-{}", signal.id);
    fake.lock().expect("fake").hang_after_placing = true;

    let logs = app.dir.path().join("killed-server.log");
    let start = || {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&logs).expect("log");
        std::process::Command::new(env!("CARGO_BIN_EXE_strikeline"))
            .arg("serve")
            .env_remove("DATABASE_URL")
            .env_remove("REDIS_URL")
            .env("STRIKELINE_DATABASE_URL", &app.database_url)
            .env("STRIKELINE_PORT", "0")
            .env("STRIKELINE_DATA_DIR", app.dir.path().join("process"))
            .env("STRIKELINE_WEB_DIR", app.dir.path())
            .env("STRIKELINE_MARKET__HISTORY_YEARS", "0")
            .env("STRIKELINE_MARKET__REPLAY_DAYS", "0")
            .env("STRIKELINE_SCHEDULE__START_RUNNING", "false")
            .env("STRIKELINE_BROKERS__CREDENTIALS_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
            .env("STRIKELINE_BROKERS__ALPACA_PAPER_URL", &base)
            .env("STRIKELINE_BROKERS__ALPACA_LIVE_URL", &base)
            .env("STRIKELINE_BROKERS__ALPACA_MAX_WAIT_MS", "20")
            .env("STRIKELINE_LOG", "warn")
            .env("STRIKELINE_CLOCK_START", app.now().to_rfc3339())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .map(crate::common::Killed)
            .expect("server starts")
    };
    let stored = || async { strikeline_store::orders::by_client_id(app.db(), &ada.account_id, &client_id).await.ok() };
    let posts = || fake.lock().expect("fake").seen.iter().filter(|s| *s == "POST /v2/orders").count();

    // The first server starts, catches up and sends the order; Alpaca takes it and never answers.
    let mut first = start();
    let deadline = std::time::Instant::now() + StdDuration::from_secs(120);
    while posts() == 0 {
        assert!(std::time::Instant::now() < deadline, "no order reached Alpaca: {}", std::fs::read_to_string(&logs).unwrap_or_default());
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    first.kill_9();
    let in_flight = stored().await.expect("placed before it was sent");
    assert_eq!((in_flight.row.status.as_str(), in_flight.row.broker_order_id.as_deref()), ("new", None), "killed mid-send");
    assert!(fake.lock().expect("fake").orders.contains_key(&client_id), "Alpaca holds it");

    // The second server sends it again; Alpaca refuses the duplicate id and ours reads its order.
    fake.lock().expect("fake").hang_after_placing = false;
    let mut second = start();
    let deadline = std::time::Instant::now() + StdDuration::from_secs(120);
    while stored().await.is_none_or(|o| o.row.broker_order_id.is_none()) {
        assert!(std::time::Instant::now() < deadline, "never resent: {}", std::fs::read_to_string(&logs).unwrap_or_default());
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    second.kill_9();
    let alpaca_id = fake.lock().expect("fake").orders[&client_id].0.clone();
    let accepted = stored().await.expect("order");
    assert_eq!(accepted.row.broker_order_id.as_deref(), Some(alpaca_id.as_str()), "Alpaca's one order");
    assert_eq!(fake.lock().expect("fake").orders.len(), 1, "one order at Alpaca");
    assert_eq!(posts(), 2, "the lost send and the resend, refused as a duplicate");

    // Read back until filled: one order, one position of three contracts.
    for _ in 0..3 {
        strikeline_server::services::execution::remote::poll_standing(&app.state, app.now()).await.expect("poll");
    }
    let filled = stored().await.expect("order");
    assert_eq!((filled.row.status.as_str(), filled.row.filled_units), ("filled", 3));
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let held: Vec<&Value> = positions.iter().filter(|p| p["signal"]["symbol"] == "MOM").collect();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0]["quantity"], 3);
    let orders: Value = app.client.get(app.url("/api/orders")).send().await.expect("orders").json().await.expect("json");
    let mine = orders.as_array().map_or(0, |list| list.iter().filter(|o| o["clientOrderId"] == client_id.as_str()).count());
    assert_eq!(mine, 1, "{orders}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_an_order_in_flight_survives_kill_9_of_the_server() {
    an_order_in_flight_survives_kill_9_of_the_server(crate::common::Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_an_order_in_flight_survives_kill_9_of_the_server() {
    an_order_in_flight_survives_kill_9_of_the_server(crate::common::Engine::Postgres).await;
}

/// A closing order Alpaca cancels part filled: the position stays open for what is left, the
/// next settlement sends a second attempt for the rest only, and its fill closes the position
/// at the average of every closing fill.
async fn a_closing_order_cancelled_part_filled_is_retried_for_the_rest(engine: crate::common::Engine) {
    let (base, fake) = fake_alpaca().await;
    let Some(app) = app_with_alpaca(engine, &base).await else { return };
    let (ada, signal) = connected_with_a_signal(&app).await;
    let poll = || strikeline_server::services::execution::remote::poll_standing(&app.state, app.now());
    strikeline_server::services::execution::automated::execute(&app.state, app.now()).await.expect("tick");
    poll().await.expect("poll");
    poll().await.expect("poll");
    let positions: Vec<Value> =
        app.client.get(app.url("/api/portfolio/positions")).send().await.expect("positions").json().await.expect("json");
    let position_id = positions.iter().find(|p| p["signal"]["symbol"] == "MOM").expect("held")["id"].as_str().expect("id").to_owned();

    // The signal ends: a closing order for the three contracts, two of which fill before it is cancelled.
    strikeline_store::signals::apply_marks(app.db(), &[crate::common::target_reached(&signal.id, 450, app.now())]).await.expect("ended");
    let settle = || strikeline_server::services::portfolio_settlement::settle_positions(&app.state, app.now());
    settle().await.expect("settle");
    let first = format!("close-{position_id}");
    let closing = strikeline_store::orders::by_client_id(app.db(), &ada.account_id, &first).await.expect("closing order");
    assert_eq!((closing.row.quantity, closing.row.status.as_str()), (3, "accepted"));
    // A settlement while it stands resumes it under its own id (reading it back: two filled).
    settle().await.expect("settle");
    let resumed = strikeline_store::orders::attempts(app.db(), &ada.account_id, &first).await.expect("attempts");
    assert_eq!(resumed.iter().map(|o| (o.row.client_order_id.as_str(), o.row.filled_units)).collect::<Vec<_>>(), [(first.as_str(), 2)]);
    let cancel = app.client.post(app.url(&format!("/api/orders/{}/cancel", closing.row.id))).send().await.expect("cancel");
    assert_eq!(cancel.status(), 200, "{}", cancel.text().await.unwrap_or_default());
    let cancelled = strikeline_store::orders::by_client_id(app.db(), &ada.account_id, &first).await.expect("closing order");
    assert_eq!((cancelled.row.status.as_str(), cancelled.row.filled_units), ("cancelled", 2));
    let open = strikeline_store::positions::find_automated(app.db(), &ada.account_id, &position_id).await.expect("position");
    assert_eq!((open.status.as_str(), open.quantity), ("open", 3), "open until every contract is sold");

    // The next settlements: one second attempt, for the one contract left, whose fill closes it.
    let (a, b) = tokio::join!(settle(), settle());
    a.expect("settle");
    b.expect("settle");
    let retry = strikeline_store::orders::by_client_id(app.db(), &ada.account_id, &format!("{first}-r2")).await.expect("second attempt");
    assert_eq!(retry.row.quantity, 1);
    assert_eq!(fake.lock().expect("fake").orders.get(&format!("{first}-r2")).map(|o| o.1), Some(1), "one contract sent");
    poll().await.expect("poll");
    settle().await.expect("settle");
    let closed = strikeline_store::positions::find_automated(app.db(), &ada.account_id, &position_id).await.expect("position");
    assert_eq!((closed.status.as_str(), closed.quantity), ("closed", 3));
    assert_eq!(closed.exit_cents, Some(125), "the average of every closing fill (Alpaca's $1.25)");
    let closings = strikeline_store::orders::attempts(app.db(), &ada.account_id, &first).await.expect("attempts");
    assert_eq!(closings.len(), 2, "no third attempt once closed");
    assert_eq!(fake.lock().expect("fake").orders.keys().filter(|k| k.starts_with("close-")).count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_closing_order_cancelled_part_filled_is_retried_for_the_rest() {
    a_closing_order_cancelled_part_filled_is_retried_for_the_rest(crate::common::Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_closing_order_cancelled_part_filled_is_retried_for_the_rest() {
    a_closing_order_cancelled_part_filled_is_retried_for_the_rest(crate::common::Engine::Postgres).await;
}
