//! The Polygon adapter against a local fake Polygon (axum on 127.0.0.1:0) serving recorded
//! responses from `tests/fixtures/polygon`: pagination, retries, rate limits, rejected keys,
//! unknown tickers, malformed answers, timeouts, forex previous closes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{NaiveDate, TimeZone, Utc};
use strikeline_market::options::{ChainQuery, ContractGreeks, OptionRight};
use strikeline_market::polygon::{PolygonClient, PolygonConfig};
use strikeline_market::{Currency, MarketData, MarketError, Sector};

const KEY: &str = "test-key-5f0c2a9e";

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/polygon/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fake vendor: counts hits per route key and records every request line.
#[derive(Default)]
struct Fake {
    base: Mutex<String>,
    hits: Mutex<HashMap<String, usize>>,
    requests: Mutex<Vec<String>>,
    /// The fixture answering `C:USDGBP/prev` instead of the recorded one.
    forex_gbp: Mutex<Option<&'static str>>,
}

impl Fake {
    fn hit(&self, key: &str) -> usize {
        let mut hits = self.hits.lock().expect("an unpoisoned lock");
        let n = hits.entry(key.to_owned()).or_default();
        *n += 1;
        *n
    }

    fn hits(&self, key: &str) -> usize {
        self.hits.lock().expect("an unpoisoned lock").get(key).copied().unwrap_or(0)
    }

    fn json(&self, status: StatusCode, name: &str) -> Response {
        let body = fixture(name).replace("{{BASE}}", &self.base.lock().expect("an unpoisoned lock"));
        (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }

    fn rate_limited(&self, seconds: u32) -> Response {
        let mut response = self.json(StatusCode::TOO_MANY_REQUESTS, "rate_limited.json");
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        response
    }

    /// Records the request; a 401 unless it carries the right bearer key.
    fn check(&self, headers: &HeaderMap, line: String) -> Option<Response> {
        self.requests.lock().expect("an unpoisoned lock").push(line);
        let expected = format!("Bearer {KEY}");
        let authorized = headers.get(header::AUTHORIZATION).is_some_and(|v| v.as_bytes() == expected.as_bytes());
        (!authorized).then(|| self.json(StatusCode::UNAUTHORIZED, "unauthorized.json"))
    }
}

async fn aggregates(
    State(fake): State<Arc<Fake>>,
    Path((symbol, multiplier, span, from, to)): Path<(String, String, String, String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let line = format!("aggs {symbol}/{multiplier}/{span}/{from}/{to}?{}", query.unwrap_or_default());
    if let Some(denied) = fake.check(&headers, line) {
        return denied;
    }
    let n = fake.hit(&format!("aggs {symbol}"));
    match symbol.as_str() {
        "AAPL" if from == "1704430800000" => fake.json(StatusCode::OK, "aggs_aapl_page2.json"),
        "AAPL" => fake.json(StatusCode::OK, "aggs_aapl_page1.json"),
        "MSFT" => fake.json(StatusCode::OK, "aggs_msft.json"),
        "FLAKY" if n == 1 => (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
        "FLAKY" => fake.json(StatusCode::OK, "aggs_msft.json"),
        "BUSY" if n == 1 => fake.rate_limited(1),
        "BUSY" => fake.json(StatusCode::OK, "aggs_msft.json"),
        "LIMIT" => fake.rate_limited(1),
        "HOG" => fake.rate_limited(3600),
        "DOWN" => (StatusCode::SERVICE_UNAVAILABLE, "maintenance").into_response(),
        "SLOW" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            fake.json(StatusCode::OK, "aggs_msft.json")
        }
        "BRKN" => fake.json(StatusCode::OK, "malformed.json"),
        "GONE" => fake.json(StatusCode::NOT_FOUND, "not_found.json"),
        "EVIL" => {
            ([(header::CONTENT_TYPE, "application/json")], r#"{"status":"OK","results":[],"next_url":"http://203.0.113.9/v2/aggs/steal"}"#)
                .into_response()
        }
        // NOPE (unknown) and O (known, quiet range): no aggregates.
        _ => fake.json(StatusCode::OK, "aggs_empty.json"),
    }
}

async fn snapshot(State(fake): State<Arc<Fake>>, Query(params): Query<HashMap<String, String>>, headers: HeaderMap) -> Response {
    let tickers = params.get("tickers").cloned().unwrap_or_default();
    if let Some(denied) = fake.check(&headers, format!("snapshot {tickers}")) {
        return denied;
    }
    fake.hit("snapshot");
    if tickers.split(',').any(|t| t == "KO") {
        fake.json(StatusCode::OK, "snapshot_premarket.json")
    } else {
        fake.json(StatusCode::OK, "snapshot_tickers.json")
    }
}

async fn details(State(fake): State<Arc<Fake>>, Path(symbol): Path<String>, headers: HeaderMap) -> Response {
    if let Some(denied) = fake.check(&headers, format!("details {symbol}")) {
        return denied;
    }
    fake.hit(&format!("details {symbol}"));
    match symbol.as_str() {
        "AAPL" => fake.json(StatusCode::OK, "ticker_details_aapl.json"),
        "O" => fake.json(StatusCode::OK, "ticker_details_o.json"),
        "GATED" => fake.json(StatusCode::FORBIDDEN, "not_authorized.json"),
        _ => fake.json(StatusCode::NOT_FOUND, "not_found.json"),
    }
}

async fn previous_close(State(fake): State<Arc<Fake>>, Path(ticker): Path<String>, headers: HeaderMap) -> Response {
    if let Some(denied) = fake.check(&headers, format!("prev {ticker}")) {
        return denied;
    }
    fake.hit(&format!("prev {ticker}"));
    match ticker.as_str() {
        "C:USDEUR" => fake.json(StatusCode::OK, "forex_prev_usdeur.json"),
        "C:USDGBP" => {
            let name = fake.forex_gbp.lock().expect("an unpoisoned lock");
            fake.json(StatusCode::OK, name.unwrap_or("forex_prev_usdgbp.json"))
        }
        _ => fake.json(StatusCode::NOT_FOUND, "not_found.json"),
    }
}

async fn option_chain(
    State(fake): State<Arc<Fake>>,
    Path(symbol): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let query = query.unwrap_or_default();
    if let Some(denied) = fake.check(&headers, format!("options {symbol}?{query}")) {
        return denied;
    }
    match symbol.as_str() {
        "AAPL" if query.contains("cursor=") => fake.json(StatusCode::OK, "options_chain_aapl_page2.json"),
        "AAPL" => fake.json(StatusCode::OK, "options_chain_aapl_page1.json"),
        "BAD" => fake.json(StatusCode::OK, "options_chain_bad_contract.json"),
        "NOPE" => fake.json(StatusCode::NOT_FOUND, "not_found.json"),
        _ => fake.json(StatusCode::OK, "options_chain_empty.json"),
    }
}

/// Starts a fake Polygon on 127.0.0.1:0; the server lives as long as the test's runtime.
async fn fake_polygon() -> (Arc<Fake>, String) {
    let fake = Arc::new(Fake::default());
    let app = Router::new()
        .route("/v2/aggs/ticker/{symbol}/range/{multiplier}/{span}/{from}/{to}", get(aggregates))
        .route("/v2/snapshot/locale/us/markets/stocks/tickers", get(snapshot))
        .route("/v2/aggs/ticker/{symbol}/prev", get(previous_close))
        .route("/v3/reference/tickers/{symbol}", get(details))
        .route("/v3/snapshot/options/{symbol}", get(option_chain))
        .with_state(Arc::clone(&fake));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let base = format!("http://{}", listener.local_addr().expect("a local address"));
    *fake.base.lock().expect("an unpoisoned lock") = base.clone();
    tokio::spawn(async move {
        axum::serve(listener, app).await.expect("the fake server runs");
    });
    (fake, base)
}

/// Quick retries, no client-side limit, bounded waits.
fn config(base: &str) -> PolygonConfig {
    PolygonConfig {
        base_url: base.to_owned(),
        api_key: KEY.to_owned(),
        timeout: Duration::from_secs(2),
        max_retries: 2,
        requests_per_minute: 0,
        retry_base_delay: Duration::from_millis(10),
        max_retry_wait: Duration::from_secs(2),
    }
}

async fn client() -> (Arc<Fake>, PolygonClient) {
    let (fake, base) = fake_polygon().await;
    (fake, PolygonClient::new(config(&base)).expect("a client for the fake"))
}

#[tokio::test]
async fn daily_bars_follow_pagination_and_land_on_new_york_dates() {
    let (fake, polygon) = client().await;
    let bars = polygon.daily_bars("AAPL", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap();
    let dates: Vec<NaiveDate> = bars.iter().map(|b| b.date).collect();
    assert_eq!(dates, [ymd(2024, 1, 2), ymd(2024, 1, 3), ymd(2024, 1, 4), ymd(2024, 1, 5), ymd(2024, 1, 8)]);
    let first = bars[0];
    assert_eq!((first.open, first.high, first.low, first.close), (187.15, 188.44, 183.885, 185.64));
    assert_eq!(first.volume, 82_488_674);
    assert!(bars.iter().all(|b| b.is_consistent()));
    assert_eq!(fake.hits("aggs AAPL"), 2, "two pages");

    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(requests[0], "aggs AAPL/1/day/2024-01-02/2024-01-08?adjusted=true&sort=asc&limit=50000");
    assert!(requests[1].contains("cursor="), "{}", requests[1]);
    assert!(requests.iter().all(|r| !r.contains(KEY) && !r.contains("apiKey")));
}

#[tokio::test]
async fn bars_outside_the_asked_range_are_dropped() {
    let (_, polygon) = client().await;
    let bars = polygon.daily_bars("AAPL", ymd(2024, 1, 3), ymd(2024, 1, 5)).await.unwrap();
    assert_eq!(bars.len(), 3);
    assert_eq!(bars[0].date, ymd(2024, 1, 3));
    assert_eq!(bars[2].date, ymd(2024, 1, 5));
    assert!(polygon.daily_bars("AAPL", ymd(2024, 1, 5), ymd(2024, 1, 3)).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_server_error_is_retried() {
    let (fake, polygon) = client().await;
    let bars = polygon.daily_bars("FLAKY", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap();
    assert_eq!(bars.len(), 2);
    assert_eq!(fake.hits("aggs FLAKY"), 2);
}

#[tokio::test]
async fn a_429_waits_its_retry_after_then_succeeds() {
    let (fake, polygon) = client().await;
    let started = Instant::now();
    let bars = polygon.daily_bars("BUSY", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap();
    assert_eq!(bars.len(), 2);
    assert_eq!(fake.hits("aggs BUSY"), 2);
    assert!(started.elapsed() >= Duration::from_secs(1), "waited the Retry-After");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn persistent_429s_are_rate_limited() {
    let (fake, base) = fake_polygon().await;
    let polygon = PolygonClient::new(PolygonConfig { max_retries: 1, ..config(&base) }).unwrap();
    let err = polygon.daily_bars("LIMIT", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap_err();
    assert_eq!(err, MarketError::RateLimited { retry_after: Duration::from_secs(1) });
    assert_eq!(fake.hits("aggs LIMIT"), 2, "one retry within the budget");

    // A wait longer than the budget is not waited at all.
    let started = Instant::now();
    let err = polygon.daily_bars("HOG", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap_err();
    assert_eq!(err, MarketError::RateLimited { retry_after: Duration::from_secs(3600) });
    assert_eq!(fake.hits("aggs HOG"), 1);
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn a_server_that_stays_down_is_unavailable_after_the_retries() {
    let (fake, polygon) = client().await;
    let err = polygon.daily_bars("DOWN", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap_err();
    let MarketError::Unavailable(message) = err else { panic!("{err:?}") };
    assert!(message.contains("503"), "{message}");
    assert_eq!(fake.hits("aggs DOWN"), 3, "first attempt and two retries");
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let (fake, base) = fake_polygon().await;
    let polygon = PolygonClient::new(PolygonConfig { timeout: Duration::from_millis(300), max_retries: 1, ..config(&base) }).unwrap();
    let started = Instant::now();
    let err = polygon.daily_bars("SLOW", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap_err();
    let MarketError::Unavailable(message) = err else { panic!("{err:?}") };
    assert!(message.contains("timed out"), "{message}");
    assert_eq!(fake.hits("aggs SLOW"), 2);
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}

#[tokio::test]
async fn an_unreachable_server_is_unavailable() {
    // A port that was free a moment ago: nothing listens there now.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let polygon = PolygonClient::new(config(&base)).unwrap();
    let err = polygon.company("AAPL").await.unwrap_err();
    assert!(matches!(err, MarketError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn a_rejected_key_is_unavailable_and_never_shown() {
    let (_, base) = fake_polygon().await;
    let polygon = PolygonClient::new(PolygonConfig { api_key: "wrong-key-123".to_owned(), ..config(&base) }).unwrap();
    let err = polygon.daily_bars("AAPL", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap_err();
    assert_eq!(err, MarketError::Unavailable("API key rejected".to_owned()));
    assert!(!err.to_string().contains("wrong-key-123"));
    let err = polygon.quotes(&["AAPL".to_owned()], Utc::now()).await.unwrap_err();
    assert_eq!(err, MarketError::Unavailable("API key rejected".to_owned()));

    let (_, polygon) = client().await;
    let err = polygon.company("GATED").await.unwrap_err();
    let MarketError::Unavailable(message) = err else { panic!("{err:?}") };
    assert!(message.starts_with("API key rejected"), "{message}");
    assert!(message.contains("not entitled"), "{message}");
}

#[tokio::test]
async fn unknown_tickers_are_unknown_and_quiet_ranges_are_empty() {
    let (fake, polygon) = client().await;
    let err = polygon.daily_bars("NOPE", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap_err();
    assert_eq!(err, MarketError::UnknownSymbol("NOPE".to_owned()));
    assert_eq!(fake.hits("details NOPE"), 1, "asked the reference data");

    let err = polygon.daily_bars("GONE", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap_err();
    assert_eq!(err, MarketError::UnknownSymbol("GONE".to_owned()));

    let err = polygon.company("NOPE").await.unwrap_err();
    assert_eq!(err, MarketError::UnknownSymbol("NOPE".to_owned()));

    // Known ticker, no sessions in the range (a holiday weekend): an empty answer.
    let bars = polygon.daily_bars("O", ymd(2023, 12, 30), ymd(2024, 1, 1)).await.unwrap();
    assert!(bars.is_empty());

    let err = polygon.company("not a ticker").await.unwrap_err();
    assert!(matches!(err, MarketError::InvalidSymbol(_)));
}

#[tokio::test]
async fn malformed_json_is_an_invalid_response() {
    let (fake, polygon) = client().await;
    let err = polygon.daily_bars("BRKN", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap_err();
    assert!(matches!(err, MarketError::InvalidResponse(_)), "{err:?}");
    assert_eq!(fake.hits("aggs BRKN"), 1, "a bad answer is not retried");
}

#[tokio::test]
async fn next_url_is_only_followed_on_the_configured_host() {
    let (_, polygon) = client().await;
    let err = polygon.daily_bars("EVIL", ymd(2024, 1, 2), ymd(2024, 1, 8)).await.unwrap_err();
    let MarketError::InvalidResponse(message) = err else { panic!("{err:?}") };
    assert!(message.contains("another host"), "{message}");
}

#[tokio::test]
async fn quotes_come_from_the_snapshot_in_the_order_asked() {
    let (fake, polygon) = client().await;
    let asked = vec!["AAPL".to_owned(), "ZZZZ".to_owned(), "MSFT".to_owned()];
    let at = Utc.with_ymd_and_hms(2024, 1, 3, 21, 5, 0).unwrap();
    let quotes = polygon.quotes(&asked, at).await.unwrap();
    let symbols: Vec<&str> = quotes.iter().map(|q| q.symbol.as_str()).collect();
    assert_eq!(symbols, ["AAPL", "MSFT"], "unknown ZZZZ is left out");
    let apple = &quotes[0];
    assert_eq!(apple.price, 184.25);
    assert_eq!(apple.previous_close, 185.64);
    assert_eq!((apple.day_open, apple.day_high, apple.day_low), (184.22, 185.88, 183.43));
    assert_eq!(apple.volume, 51_221_432);
    assert_eq!(apple.at, Utc.with_ymd_and_hms(2024, 1, 3, 21, 0, 0).unwrap());
    assert!((apple.change() - -1.39).abs() < 1e-9);
    assert_eq!(fake.requests.lock().unwrap().as_slice(), ["snapshot AAPL,ZZZZ,MSFT"]);
    assert!(polygon.quotes(&[], at).await.unwrap().is_empty());
    assert_eq!(fake.hits("snapshot"), 1, "no request for no symbols");
}

#[tokio::test]
async fn a_pre_market_snapshot_quotes_the_previous_close() {
    let (_, polygon) = client().await;
    let at = Utc.with_ymd_and_hms(2024, 1, 4, 12, 0, 0).unwrap();
    let quotes = polygon.quotes(&["KO".to_owned()], at).await.unwrap();
    let ko = &quotes[0];
    assert_eq!(ko.price, 58.95);
    assert_eq!(ko.previous_close, 58.95);
    assert_eq!((ko.day_open, ko.day_high, ko.day_low, ko.volume), (58.95, 58.95, 58.95, 0));
    assert_eq!(ko.at, at, "no timestamp in the snapshot: the instant asked");
}

#[tokio::test]
async fn company_details_map_to_name_sector_and_size() {
    let (_, polygon) = client().await;
    let apple = polygon.company("AAPL").await.unwrap();
    assert_eq!(apple.name, "Apple Inc.");
    assert_eq!(apple.sector, Sector::Technology);
    assert_eq!(apple.market_cap, Some(2_830_140_930_000.0));
    assert_eq!(apple.shares_outstanding, Some(15_460_223_000));
    let realty = polygon.company("O").await.unwrap();
    assert_eq!(realty.sector, Sector::RealEstate);
    assert_eq!(realty.market_cap, None);
    assert_eq!(realty.shares_outstanding, Some(870_000_000));
}

#[tokio::test]
async fn it_serves_as_a_shared_trait_object() {
    let (_, polygon) = client().await;
    let market: Arc<dyn MarketData> = Arc::new(polygon);
    assert_eq!(market.provider_name(), "polygon");
    let bars = market.daily_bars("MSFT", ymd(2024, 1, 2), ymd(2024, 1, 3)).await.unwrap();
    assert_eq!(bars.len(), 2);
}

#[tokio::test]
async fn exchange_rates_come_from_the_forex_previous_closes() {
    let (fake, polygon) = client().await;
    let market: Arc<dyn MarketData> = Arc::new(polygon);
    // A live vendor answers its latest closes whatever the instant asked.
    let rates = market.exchange_rates(Utc.with_ymd_and_hms(2020, 1, 1, 0, 0, 0).unwrap()).await.unwrap();
    assert_eq!(rates.base, Currency::Usd);
    assert_eq!(rates.rates, [(Currency::Usd, 1.0), (Currency::Eur, 0.9213), (Currency::Gbp, 0.7952)]);
    assert_eq!(rates.rate(Currency::Eur), 0.9213);
    assert_eq!(rates.as_of, Utc.with_ymd_and_hms(2024, 11, 25, 0, 0, 0).unwrap());
    assert_eq!(rates.provider, "polygon");
    assert_eq!(fake.requests.lock().unwrap().as_slice(), ["prev C:USDEUR", "prev C:USDGBP"]);
}

#[tokio::test]
async fn a_bad_forex_answer_is_an_invalid_response() {
    for (fixture, why) in [
        ("forex_prev_empty.json", "no previous close"),
        ("forex_prev_non_positive.json", "not a positive number"),
        ("malformed.json", "C:USDGBP"),
        ("forex_prev_usdeur.json", "another ticker"),
    ] {
        let (fake, polygon) = client().await;
        *fake.forex_gbp.lock().unwrap() = Some(fixture);
        let err = polygon.fetch_exchange_rates().await.unwrap_err();
        let MarketError::InvalidResponse(message) = err else { panic!("{fixture}: {err:?}") };
        assert!(message.contains(why), "{fixture}: {message}");
        assert_eq!(fake.hits("prev C:USDGBP"), 1, "{fixture}: not retried");
    }
}

#[tokio::test]
async fn the_option_chain_follows_pages_and_maps_every_field() {
    let (fake, polygon) = client().await;
    let at = Utc.with_ymd_and_hms(2024, 1, 3, 21, 5, 0).unwrap();
    let query = ChainQuery {
        expiration_from: Some(ymd(2024, 1, 10)),
        expiration_to: Some(ymd(2024, 3, 15)),
        strike_from: Some(150.0),
        strike_to: Some(220.5),
    };
    let chain = polygon.option_chain("AAPL", query, at).await.unwrap();
    assert_eq!(chain.provider, "polygon");
    assert_eq!(chain.underlying_price, 184.25);
    assert_eq!(chain.as_of, Utc.timestamp_nanos(1_704_315_599_871_352_300), "the newest quote's time");
    let keys: Vec<_> = chain.contracts.iter().map(|c| (c.expiration, c.strike, c.right)).collect();
    assert_eq!(
        keys,
        [
            (ymd(2024, 1, 19), 185.0, OptionRight::Call),
            (ymd(2024, 2, 16), 190.0, OptionRight::Call),
            (ymd(2024, 2, 16), 190.0, OptionRight::Put)
        ],
        "both pages, in expiration, strike, call-then-put order"
    );
    let put = &chain.contracts[2];
    assert_eq!((put.bid, put.ask, put.last, put.open_interest), (Some(6.8), Some(6.95), Some(6.85), Some(10_452)));
    assert_eq!(put.implied_volatility, Some(0.2114));
    assert_eq!(put.greeks, Some(ContractGreeks { delta: -0.6312, gamma: 0.0371, theta: -0.0712, vega: 0.2231 }));
    let weekly = &chain.contracts[0];
    assert_eq!((weekly.greeks, weekly.implied_volatility, weekly.last), (None, None, None), "missing fields stay missing");
    assert!(weekly.mid().is_some_and(|m| (m - 3.025).abs() < 1e-12));
    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(
        requests,
        [
            "options AAPL?expiration_date.gte=2024-01-10&expiration_date.lte=2024-03-15&strike_price.gte=150&strike_price.lte=220.5&limit=250",
            "options AAPL?cursor=YXA9MTAwJmFzPSZsaW1pdD0yNTA",
        ]
    );
}

#[tokio::test]
async fn an_empty_chain_takes_the_price_from_the_stock_snapshot_and_unknown_names_are_unknown() {
    let (_, polygon) = client().await;
    let at = Utc.with_ymd_and_hms(2024, 1, 3, 21, 5, 0).unwrap();
    let quiet = polygon.option_chain("MSFT", ChainQuery::default(), at).await.unwrap();
    assert!(quiet.contracts.is_empty());
    assert_eq!((quiet.underlying_price, quiet.as_of), (370.6, at));
    assert_eq!(polygon.option_chain("ZZZZ", ChainQuery::default(), at).await, Err(MarketError::UnknownSymbol("ZZZZ".into())));
    assert_eq!(polygon.option_chain("NOPE", ChainQuery::default(), at).await, Err(MarketError::UnknownSymbol("NOPE".into())));
    assert!(
        matches!(polygon.option_chain("BAD", ChainQuery::default(), at).await, Err(MarketError::InvalidResponse(why)) if why.contains("strike"))
    );
    assert_eq!(polygon.option_chain("no good", ChainQuery::default(), at).await, Err(MarketError::InvalidSymbol("no good".into())));
}
