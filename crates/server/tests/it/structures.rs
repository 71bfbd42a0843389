//! The strategy builder's API: templates on a tracked stock, the analysis of a multi-leg
//! position (figures by hand from the answer's own prices), the Premium gate before any field,
//! and every refused field named by its path. Each on both engines.

use serde_json::{Value, json};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

on_both_engines!(
    a_bull_call_spread_is_analysed_as_by_hand,
    a_calendar_spans_two_expirations_and_peaks_at_its_strike,
    only_premium_reaches_the_builder_whatever_it_sends,
    bad_legs_are_refused_by_their_path,
    parallel_analyses_all_answer,
    american_exercise_is_the_default_and_worth_more_deep_in_the_money,
);

async fn premium(app: &TestApp) -> reqwest::Client {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id");
    users::set_subscription(app.db(), id, "premium", "active", None, app.now()).await.expect("premium");
    app.client.clone()
}

async fn template(app: &TestApp, client: &reqwest::Client, body: Value) -> Value {
    let response = app.post_json(client, "/api/structures/template", &body).await;
    assert_eq!(response.status(), 200, "{body}");
    response.json().await.expect("json")
}

async fn analyse(app: &TestApp, client: &reqwest::Client, body: &Value) -> Value {
    let response = app.post_json(client, "/api/structures/analysis", body).await;
    assert_eq!(response.status(), 200, "{body}");
    response.json().await.expect("json")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

async fn a_bull_call_spread_is_analysed_as_by_hand(app: TestApp) {
    let client = premium(&app).await;
    let built = template(&app, &client, json!({"symbol": "aapl", "template": "bull-call-spread", "width": 5})).await;
    let legs = built["legs"].as_array().expect("legs").clone();
    assert_eq!(legs.len(), 2);
    assert_eq!((legs[0]["side"].as_str(), legs[1]["side"].as_str()), (Some("long"), Some("short")));
    let (low, high) = (num(&legs[0]["strike"]), num(&legs[1]["strike"]));
    assert!((high - low - 5.0).abs() < 1e-9);
    let debit = num(&legs[0]["entryPrice"]) - num(&legs[1]["entryPrice"]);
    assert!(debit > 0.0 && debit < 5.0, "a debit spread: {debit}");

    let answer = analyse(&app, &client, &json!({"symbol": "AAPL", "legs": legs})).await;
    assert_eq!(answer["symbol"], "AAPL");
    assert!((num(&answer["netPremium"]) - debit * 100.0).abs() < 0.005);
    let expiry = &answer["atExpiry"];
    assert_eq!(expiry["maxProfit"]["unbounded"], false);
    assert!((num(&expiry["maxProfit"]["pnl"]) - (5.0 - debit) * 100.0).abs() < 0.005, "{expiry}");
    assert!((num(&expiry["maxLoss"]["pnl"]) + debit * 100.0).abs() < 0.005, "{expiry}");
    let breakevens = expiry["breakevens"].as_array().expect("breakevens");
    assert_eq!(breakevens.len(), 1);
    assert!((num(&breakevens[0]) - (low + debit)).abs() < 1e-6, "{breakevens:?}");
    let p = num(&expiry["probabilityOfProfit"]);
    assert!(p > 0.0 && p < 1.0);
    assert_eq!(expiry["profitableRanges"][0]["to"], Value::Null, "profitable above the breakeven");

    // The payoff chart at expiry: flat at the loss below the low strike, at the gain above.
    let payoff = answer["payoff"].as_array().expect("payoff");
    assert_eq!(payoff.len(), 81);
    let first = &payoff[0];
    assert!(num(&first["spot"]) < low);
    assert!((num(&first["atExpiry"]) + debit * 100.0).abs() < 0.01);
    assert!((num(&payoff[80]["atExpiry"]) - (5.0 - debit) * 100.0).abs() < 0.01);
    // Today the spread is worth about what was paid: the line passes near zero at the spot.
    let greeks = &answer["greeks"];
    assert!(num(&greeks["delta"]) > 0.0 && num(&greeks["delta"]) < 100.0, "{greeks}");
    let scenarios = &answer["scenarios"];
    assert_eq!(scenarios["spots"].as_array().map(Vec::len), Some(7));
    assert_eq!(scenarios["pnl"].as_array().map(Vec::len), Some(7));
    let shifts = scenarios["volatilityShifts"].as_array().expect("shifts").len();
    assert!(scenarios["pnl"].as_array().expect("rows").iter().all(|row| row.as_array().map(Vec::len) == Some(shifts)));
    // Every leg's model price today is given; entry prices stay as sent.
    for (view, sent) in answer["legs"].as_array().expect("legs").iter().zip(&legs) {
        assert_eq!(view["entryPrice"], sent["entryPrice"]);
        assert!(num(&view["modelPrice"]) > 0.0);
    }

    // At the first expiration, the horizon line is the expiry line.
    let at_expiry_date =
        analyse(&app, &client, &json!({"symbol": "AAPL", "legs": legs, "horizonDate": answer["firstExpiration"], "volatilityShift": 0.1}))
            .await;
    for point in at_expiry_date["payoff"].as_array().expect("payoff") {
        assert_eq!(point["atExpiry"], point["atHorizon"], "{point}");
    }
    // Without entry prices the legs are bought at the model's price.
    let unpriced: Vec<Value> = legs
        .iter()
        .map(|l| {
            let mut l = l.clone();
            l.as_object_mut().expect("leg").remove("entryPrice");
            l
        })
        .collect();
    let modelled = analyse(&app, &client, &json!({"symbol": "AAPL", "legs": unpriced})).await;
    for view in modelled["legs"].as_array().expect("legs") {
        assert_eq!(view["entryPrice"], view["modelPrice"]);
    }
}

async fn a_calendar_spans_two_expirations_and_peaks_at_its_strike(app: TestApp) {
    let client = premium(&app).await;
    let built = template(&app, &client, json!({"symbol": "MSFT", "template": "calendar"})).await;
    let legs = built["legs"].as_array().expect("legs").clone();
    let (near, far) = (legs[0]["expirationDate"].as_str().expect("near"), legs[1]["expirationDate"].as_str().expect("far"));
    assert!(near < far, "{near} {far}");
    assert_eq!(legs[0]["strike"], legs[1]["strike"]);
    let answer = analyse(&app, &client, &json!({"symbol": "MSFT", "legs": legs})).await;
    assert_eq!(answer["firstExpiration"], near);
    let max = &answer["atExpiry"]["maxProfit"];
    assert_eq!(max["unbounded"], false);
    assert_eq!(num(&max["spot"]), num(&legs[0]["strike"]), "a calendar peaks at its strike");
    assert_eq!(answer["atExpiry"]["breakevens"].as_array().map(Vec::len), Some(2));
    // A date after the first expiration is refused, naming the field.
    let later = chrono::NaiveDate::parse_from_str(near, "%Y-%m-%d").expect("date") + chrono::Duration::days(1);
    let response = app.post_json(&client, "/api/structures/analysis", &json!({"symbol": "MSFT", "legs": legs, "horizonDate": later})).await;
    assert_eq!(response.status(), 422);
    assert_eq!(fields(&problem(response).await), ["horizonDate"]);
}

async fn only_premium_reaches_the_builder_whatever_it_sends(app: TestApp) {
    let anonymous = reqwest::Client::new();
    let body = json!({"symbol": "AAPL", "legs": []});
    assert_eq!(anonymous.post(app.url("/api/structures/analysis")).json(&body).send().await.expect("request").status(), 401);
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    for plan in ["free", "pro"] {
        users::set_subscription(app.db(), &id, plan, "active", None, app.now()).await.expect("plan");
        for (path, body) in [
            ("/api/structures/analysis", json!({"symbol": "not a ticker", "legs": []})),
            ("/api/structures/template", json!({"symbol": "AAPL", "template": "iron-condor", "width": -1})),
        ] {
            let response = app.post_json(&app.client, path, &body).await;
            assert_eq!(response.status(), 403, "{plan} {path}");
            assert!(problem(response).await["detail"].as_str().is_some_and(|d| d.contains("Premium")));
        }
    }
    // The user's capabilities say so too.
    users::set_subscription(app.db(), &id, "premium", "active", None, app.now()).await.expect("premium");
    let me: Value = app.client.get(app.url("/api/auth/me")).send().await.expect("me").json().await.expect("json");
    let listed = me.to_string();
    assert!(listed.contains("strategyBuilder"), "{listed}");
}

async fn bad_legs_are_refused_by_their_path(app: TestApp) {
    let client = premium(&app).await;
    let built = template(&app, &client, json!({"symbol": "AAPL", "template": "covered-call"})).await;
    let legs = built["legs"].as_array().expect("legs").clone();
    assert_eq!(legs[0]["instrument"], "stock");
    assert_eq!(legs[0]["quantity"], 100);
    let call = legs[1].clone();
    let with = |index: usize, key: &str, value: Value| {
        let mut legs = legs.clone();
        legs[index][key] = value;
        json!({"symbol": "AAPL", "legs": legs})
    };
    // The day after a weekly expiration (a Friday, or a Thursday before a holiday) is no session.
    let expiration = chrono::NaiveDate::parse_from_str(legs[1]["expirationDate"].as_str().expect("date"), "%Y-%m-%d").expect("date");
    let day_after = json!(expiration + chrono::Duration::days(1));
    let cases = [
        (with(1, "expirationDate", day_after), "legs[1].expirationDate"),
        (json!({"symbol": "AAPL", "legs": []}), "legs"),
        (json!({"symbol": "AAPL", "legs": vec![call.clone(); 9]}), "legs"),
        (json!({"symbol": "ZZZZZ", "legs": [call]}), "symbol"),
        (json!({"symbol": "", "legs": [call]}), "symbol"),
        (json!({"symbol": "AAPL", "legs": [legs[0]]}), "legs"),
        (with(1, "strike", json!(-5)), "legs[1].strike"),
        (with(1, "strike", json!(1e308)), "legs[1].strike"),
        (with(1, "strike", json!(101.001)), "legs[1].strike"),
        (with(1, "expirationDate", json!("2001-01-19")), "legs[1].expirationDate"),
        (with(1, "expirationDate", json!("2099-01-16")), "legs[1].expirationDate"),
        (with(1, "expirationDate", Value::Null), "legs[1].expirationDate"),
        (with(1, "quantity", json!(0)), "legs[1].quantity"),
        (with(1, "quantity", json!(10_001)), "legs[1].quantity"),
        (with(1, "volatility", json!(0)), "legs[1].volatility"),
        (with(1, "entryPrice", json!(0)), "legs[1].entryPrice"),
        (with(0, "strike", json!(100)), "legs[0].strike"),
        (with(0, "volatility", json!(0.3)), "legs[0].volatility"),
        (json!({"symbol": "AAPL", "legs": legs, "volatilityShift": 0.9}), "volatilityShift"),
        (json!({"symbol": "AAPL", "legs": legs, "horizonDate": "2001-01-01"}), "horizonDate"),
    ];
    for (body, field) in cases {
        let response = app.post_json(&client, "/api/structures/analysis", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let problem = problem(response).await;
        assert!(fields(&problem).iter().any(|f| f == field), "{field}: {problem}");
    }
    // A wrong type or an unknown field is the extractor's 422, naming it.
    let response = app.post_json(&client, "/api/structures/analysis", &with(1, "side", json!("sideways"))).await;
    assert_eq!(response.status(), 422);
    // Templates refuse what cannot be built.
    for (body, field) in [
        (json!({"symbol": "AAPL", "template": "iron-condor", "width": 100_000}), "width"),
        (json!({"symbol": "AAPL", "template": "straddle", "contracts": 0}), "contracts"),
        (json!({"symbol": "AAPL", "template": "straddle", "expirationDate": "2001-01-19"}), "expirationDate"),
    ] {
        let response = app.post_json(&client, "/api/structures/template", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field]);
    }
    let response = app.post_json(&client, "/api/structures/template", &json!({"symbol": "AAPL", "template": "butterfly-effect"})).await;
    assert_eq!(response.status(), 422);
}

async fn parallel_analyses_all_answer(app: TestApp) {
    let client = premium(&app).await;
    let built = template(&app, &client, json!({"symbol": "AAPL", "template": "iron-condor"})).await;
    let body = json!({"symbol": "AAPL", "legs": built["legs"]});
    let requests = (0..30).map(|_| app.post_json(&client, "/api/structures/analysis", &body));
    let answers = futures_util::future::join_all(requests).await;
    for response in answers {
        assert_eq!(response.status(), 200);
        let answer: Value = response.json().await.expect("json");
        assert_eq!(answer["atExpiry"]["breakevens"].as_array().map(Vec::len), Some(2), "an iron condor has two breakevens");
    }
}

async fn american_exercise_is_the_default_and_worth_more_deep_in_the_money(app: TestApp) {
    let client = premium(&app).await;
    let built = template(&app, &client, json!({"symbol": "AAPL", "template": "long-put"})).await;
    let mut put = built["legs"][0].clone();
    let strike = num(&put["strike"]);
    // Deep in the money, a year out: early exercise is worth something (r > 0).
    put["strike"] = json!((strike * 1.6).round());
    put["expirationDate"] = Value::Null;
    let expiration = (app.now() + chrono::Duration::days(365)).date_naive();
    // The next trading day on or after a year from now (a weekend or holiday is not a session).
    let mut answers = Vec::new();
    for offset in 0..5 {
        put["expirationDate"] = json!(expiration + chrono::Duration::days(offset));
        let legs = json!([{ "instrument": "put", "side": "long", "quantity": 1, "strike": put["strike"], "expirationDate": put["expirationDate"] }]);
        let american = app.post_json(&client, "/api/structures/analysis", &json!({"symbol": "AAPL", "legs": legs})).await;
        if american.status() == 200 {
            let european = analyse(&app, &client, &json!({"symbol": "AAPL", "legs": legs, "exercise": "european"})).await;
            answers.push((american.json::<Value>().await.expect("json"), european));
            break;
        }
    }
    let (american, european) = answers.pop().expect("a session within five days");
    assert_eq!(american["exercise"], "american");
    assert_eq!(european["exercise"], "european");
    let (a, e) = (num(&american["legs"][0]["modelPrice"]), num(&european["legs"][0]["modelPrice"]));
    assert!(a > e, "American {a} vs European {e}");
    // Bought at the model's price, today's P&L at the spot is about zero either way.
    assert!(num(&american["netPremium"]) > num(&european["netPremium"]));
}
