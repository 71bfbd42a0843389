//! News: offline, a first start shows the bundled samples with sentiment and an analysis that
//! cites the symbol's real prices; feeds are polled conditionally (ETag / Last-Modified),
//! stored once, tagged and stripped of HTML; the public API filters by sentiment and symbols;
//! the analysis is Pro and up.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use strikeline_server::services::news;
use strikeline_store::users;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(with_market, crate::common::with_market;
    a_first_start_shows_samples_with_sentiment_and_grounded_analysis,
    the_public_api_filters_news_and_the_free_plan_sees_no_analysis,
);

async fn news_page(app: &TestApp, client: &reqwest::Client, count: u32) -> Vec<Value> {
    let response = client.get(app.url(&format!("/api/news?count={count}"))).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn a_first_start_shows_samples_with_sentiment_and_grounded_analysis(app: TestApp) {
    app.register().await;
    // Server::bind ran the bootstrap: samples and market notes are there already.
    let items = news_page(&app, &app.client, 100).await;
    let samples: Vec<&Value> = items.iter().filter(|i| i["origin"] == "sample").collect();
    assert!(samples.len() >= 30, "{} samples", samples.len());
    assert!(samples.iter().all(|i| i["source"] == "Strikeline sample"), "labelled as samples");
    for sentiment in ["bullish", "bearish", "neutral"] {
        assert!(items.iter().any(|i| i["sentiment"] == sentiment), "some {sentiment} news");
    }
    assert_eq!(news_page(&app, &app.client, 5).await.len(), 5);

    // The new account's trial is Pro: analyses are shown, built in, grounded in real prices.
    let apple = items.iter().find(|i| i["symbol"] == "AAPL" && i["origin"] == "sample").expect("an Apple sample");
    assert_eq!(apple["companyName"], "Apple Inc.");
    let analysis = &apple["aiAnalysis"];
    assert_eq!((analysis["analyzer"].as_str(), apple["analysisLocked"].as_bool()), (Some("builtin"), Some(false)));
    assert!(["CALL", "PUT", "STRADDLE", "HOLD"].contains(&analysis["signalRecommendation"].as_str().expect("idea")));
    assert!(["LOW", "MEDIUM", "HIGH"].contains(&analysis["riskLevel"].as_str().expect("risk")));
    let close = strikeline_store::market::find_stock(app.db(), "AAPL").await.expect("read").expect("AAPL");
    let reasoning = analysis["reasoning"].as_str().expect("reasoning");
    let last_bar = strikeline_store::market::last_bars(app.db(), "AAPL", app.today(), 1).await.expect("bars");
    let cited = format!("AAPL closed at ${:.2}", last_bar[0].close_cents as f64 / 100.0);
    assert!(reasoning.contains(&cited), "{reasoning} should cite {cited} (quote {})", close.current_price_cents);
    assert!(reasoning.contains("RSI(14)"));

    // Counts other than the page's are refused, naming the field; strangers get nothing.
    let bad = app.client.get(app.url("/api/news?count=7")).send().await.expect("request");
    assert_eq!(fields(&problem(bad).await), ["count"]);
    assert_eq!(reqwest::get(app.url("/api/news")).await.expect("request").status(), 401);

    // A second refresh adds nothing twice.
    let again = news::refresh(&app.state, app.now()).await.expect("refresh");
    assert_eq!(again.articles, 0, "the samples are stored once");
}

async fn the_public_api_filters_news_and_the_free_plan_sees_no_analysis(app: TestApp) {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id");
    users::set_subscription(app.db(), id, "free", "active", None, app.now()).await.expect("free");
    let locked = news_page(&app, &app.client, 20).await;
    assert!(locked.iter().all(|i| i["aiAnalysis"].is_null() && i["analysisLocked"] == true));
    assert!(locked.iter().all(|i| i["sentiment"].is_string()), "sentiment is for everyone");

    let created = app.post_json(&app.client, "/api/api-keys", &json!({"name": "news"})).await;
    assert_eq!(created.status(), 201);
    let key = created.json::<Value>().await.expect("json")["key"].as_str().expect("key").to_owned();
    let get = |path: &str| reqwest::Client::new().get(app.url(path)).bearer_auth(&key).send();
    let bullish: Value = get("/api/v1/news?sentiment=bullish&limit=100").await.expect("request").json().await.expect("json");
    let list = bullish["news"].as_array().expect("news");
    assert!(!list.is_empty() && list.iter().all(|i| i["sentiment"] == "bullish"));
    assert_eq!(bullish["total"].as_u64(), Some(list.len() as u64));
    let apple: Value = get("/api/v1/news?symbols=aapl,MSFT&limit=3").await.expect("request").json().await.expect("json");
    let list = apple["news"].as_array().expect("news");
    assert!(!list.is_empty() && list.len() <= 3);
    assert!(list.iter().all(|i| i["symbols"].as_array().expect("symbols").iter().any(|s| s == "AAPL" || s == "MSFT")));
    for (query, field) in [
        ("sentiment=happy", "sentiment"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("symbols=1AB", "symbols"),
        ("colour=red", "colour"),
    ] {
        let response = get(&format!("/api/v1/news?{query}")).await.expect("request");
        assert_eq!(response.status(), 422, "{query}");
        assert_eq!(fields(&problem(response).await), [field], "{query}");
    }
}

/// One answer the fake feed server gives: status, headers and body.
type Answer = (u16, Vec<(&'static str, String)>, String);

/// A local feed server answering in turn; it records each request's head.
async fn feed_server(answers: Vec<Answer>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://127.0.0.1:{}/feed.xml", listener.local_addr().expect("addr").port());
    let heads = Arc::new(Mutex::new(Vec::new()));
    let kept = heads.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = vec![0u8; 8192];
            let n = socket.read(&mut buf).await.unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).to_string();
            let (status, headers, body) = {
                let mut all = kept.lock().expect("lock");
                all.push(head);
                answers.get(all.len() - 1).or(answers.last()).cloned().expect("an answer")
            };
            let mut response = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
            for (name, value) in headers {
                response.push_str(&format!("{name}: {value}\r\n"));
            }
            response.push_str("\r\n");
            response.push_str(&body);
            let _ = socket.write_all(response.as_bytes()).await;
        }
    });
    (url, heads)
}

const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Wire &amp; Co</title>
<item><title>Apple beats estimates as iPhone sales surge</title>
<link>https://news.example.com/apple-beats?utm_source=rss</link>
<guid>a1</guid><pubDate>Tue, 24 Nov 2026 14:00:00 GMT</pubDate>
<description><![CDATA[<p>Shares of <b>Apple</b> rose after results.</p><script>alert(1)</script><img src="https://img.example.com/a.png">]]></description></item>
<item><title>Exxon Mobil cuts outlook as oil slumps</title><link>https://news.example.com/exxon</link>
<pubDate>Tue, 24 Nov 2026 13:00:00 GMT</pubDate><description>Energy shares fell &amp; the outlook was cut.</description></item>
</channel></rss>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feeds_are_polled_conditionally_stored_once_and_tagged() {
    let (url, heads) = feed_server(vec![
        (
            200,
            vec![
                ("etag", "\"v1\"".into()),
                ("last-modified", "Tue, 24 Nov 2026 14:05:00 GMT".into()),
                ("content-type", "application/rss+xml".into()),
            ],
            RSS.into(),
        ),
        (304, vec![("etag", "\"v1\"".into())], String::new()),
    ])
    .await;
    let (broken, _) = feed_server(vec![(500, vec![], "down".into())]).await;
    let feeds = vec![url.clone(), broken];
    let app = TestApp::spawn_with(crate::common::Engine::Sqlite, move |c: &mut strikeline_server::foundation::config::Config| {
        crate::common::with_market(c);
        c.news.feeds = feeds;
    })
    .await
    .expect("app");
    app.register().await;
    // The bootstrap polled once: a broken feed does not stop the other.
    let items = news_page(&app, &app.client, 100).await;
    assert!(items.iter().all(|i| i["origin"] != "sample"), "feeds configured: no samples");
    let apple = items.iter().find(|i| i["title"] == "Apple beats estimates as iPhone sales surge").expect("stored");
    assert_eq!(
        (apple["symbol"].as_str(), apple["source"].as_str(), apple["sentiment"].as_str()),
        (Some("AAPL"), Some("Wire & Co"), Some("bullish"))
    );
    assert_eq!(apple["summary"], "Shares of Apple rose after results.", "HTML stripped, script dropped");
    assert_eq!(apple["imageUrl"], "https://img.example.com/a.png");
    let exxon = items.iter().find(|i| i["title"] == "Exxon Mobil cuts outlook as oil slumps").expect("stored");
    assert_eq!((exxon["symbol"].as_str(), exxon["sentiment"].as_str()), (Some("XOM"), Some("bearish")));

    // Not due yet: no request. Due: a conditional request, answered 304, nothing stored twice.
    let before = heads.lock().expect("lock").len();
    news::refresh(&app.state, app.now() + chrono::Duration::minutes(5)).await.expect("refresh");
    assert_eq!(heads.lock().expect("lock").len(), before, "polled at most every 15 minutes");
    let done = news::refresh(&app.state, app.now() + chrono::Duration::minutes(16)).await.expect("refresh");
    assert_eq!(done.articles, 0);
    let last = heads.lock().expect("lock").last().cloned().expect("polled").to_lowercase();
    assert!(last.contains("if-none-match: \"v1\"") && last.contains("if-modified-since: tue, 24 nov 2026 14:05:00 gmt"), "{last}");
    assert_eq!(news_page(&app, &app.client, 100).await.len(), items.len());
}
