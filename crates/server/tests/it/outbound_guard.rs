//! The hardened outgoing-request guard (issue 25, item 5): a feed that redirects to a refused
//! address (loopback, the metadata address in any spelling, a local name, a port off the list,
//! another scheme, credentials) is not followed, and nothing connects there; allowed for local
//! development the same redirect is followed, and a redirect loop stops after three hops.
//! Through the application, on both engines: a configured feed's redirect is refused at the
//! first poll, and webhook URLs in the special-purpose IPv6 ranges of the attack report, or on
//! a port off `outbound.allowed_ports`, are refused at creation.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use strikeline_server::foundation::config::Config;
use strikeline_server::foundation::outbound::{Guard, MAX_REDIRECTS};
use strikeline_server::services::news::feeds;
use strikeline_store::news::FeedState;
use strikeline_store::users;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{Engine, TestApp, fields, problem};

on_both_engines!(webhook_urls_in_special_purpose_ranges_or_on_other_ports_are_refused);

/// A local HTTP server answering every request with what `answer` makes of its own port,
/// counting the requests.
struct Fake {
    url: String,
    port: u16,
    hits: Arc<AtomicUsize>,
}

async fn fake(answer: impl Fn(u16) -> String + Send + Sync + 'static) -> Fake {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let hits = Arc::new(AtomicUsize::new(0));
    let count = hits.clone();
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            let answer = answer.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let _ = socket.read(&mut buf).await;
                let _ = socket.write_all(answer(port).as_bytes()).await;
            });
        }
    });
    Fake { url: format!("http://127.0.0.1:{port}/feed.xml"), port, hits }
}

fn redirect(status: u16, location: &str) -> String {
    format!("HTTP/1.1 {status} Moved\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
}

/// What the "internal" server holds: a valid feed, so a followed redirect would be stored.
fn internal_feed() -> String {
    let body = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Internal</title>
<item><title>Instance credentials for role web-prod</title><link>https://news.example.com/secret</link>
<pubDate>Tue, 24 Nov 2026 14:00:00 GMT</pubDate><description>AccessKeyId ASIA...</description></item>
</channel></rss>"#;
    format!("HTTP/1.1 200 OK\r\ncontent-type: application/rss+xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len())
}

fn fresh(url: &str) -> FeedState {
    FeedState { url: url.to_owned(), ..FeedState::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_redirecting_to_a_refused_address_is_not_followed() {
    let internal = fake(|_| internal_feed()).await;
    let now = crate::common::now();
    // The guard the server builds from the default configuration.
    let strict = feeds::redirect_guard(&Config::default());
    let cases = [
        (302, format!("http://127.0.0.1:{}/latest/meta-data/", internal.port), "non-public"),
        (302, "/latest/meta-data/".to_owned(), "non-public"),
        (301, "http://169.254.169.254/latest/meta-data/iam/security-credentials/".to_owned(), "non-public"),
        (307, "http://[::ffff:a9fe:a9fe]/latest/meta-data/".to_owned(), "non-public"),
        (308, "http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/".to_owned(), "non-public"),
        (302, "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/".to_owned(), "non-public"),
        (302, "http://[fd00:ec2::254]/latest/meta-data/".to_owned(), "non-public"),
        (303, "http://metadata.google.internal/computeMetadata/v1/".to_owned(), "non-public"),
        (302, "http://93.184.216.34:6379/".to_owned(), "port 6379 is not allowed"),
        (302, "gopher://93.184.216.34/".to_owned(), "must use https"),
        (302, "https://admin:secret@93.184.216.34/".to_owned(), "user name or password"),
    ];
    for (status, location, why) in cases {
        let feed = fake(move |_| redirect(status, &location)).await;
        let (state, drafts) = feeds::poll(&strict, fresh(&feed.url), now).await;
        let error = state.last_error.clone().unwrap_or_default();
        assert!(drafts.is_empty(), "{status} → {error}: nothing stored");
        assert!(error.contains("refused") && error.contains(why), "{status}: {error}");
        assert_eq!(state.last_polled_at, Some(now), "the poll is recorded");
        assert_eq!(feed.hits.load(Ordering::SeqCst), 1, "the feed itself was asked once");
    }
    assert_eq!(internal.hits.load(Ordering::SeqCst), 0, "no redirect reached the internal server");

    // Positive control: with private addresses allowed (local development), the same redirect
    // is followed and the internal feed is read.
    let local = Guard { allow_private: true, ..strict.clone() };
    let to_internal = format!("http://127.0.0.1:{}/feed.xml", internal.port);
    let feed = fake(move |_| redirect(302, &to_internal)).await;
    let (state, drafts) = feeds::poll(&local, fresh(&feed.url), now).await;
    assert_eq!(state.last_error, None);
    assert_eq!(state.last_status, Some(200));
    assert_eq!(drafts.len(), 1, "the redirect was followed");
    assert_eq!(internal.hits.load(Ordering::SeqCst), 1);

    // A loop stops after three redirects: the first request and three more.
    let looping = fake(|port| redirect(302, &format!("http://127.0.0.1:{port}/again"))).await;
    let (state, drafts) = feeds::poll(&local, fresh(&looping.url), now).await;
    assert!(drafts.is_empty());
    assert_eq!(state.last_error.as_deref(), Some(format!("more than {MAX_REDIRECTS} redirects").as_str()));
    assert_eq!(looping.hits.load(Ordering::SeqCst), MAX_REDIRECTS + 1);
}

/// Through the application: the feed is polled at start-up, its redirect to a loopback
/// "metadata" server is refused and recorded, and nothing of that server is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configured_feeds_redirect_is_refused_on_both_engines() {
    for engine in [Engine::Sqlite, Engine::Postgres] {
        let internal = fake(|_| internal_feed()).await;
        let location = format!("http://127.0.0.1:{}/latest/meta-data/", internal.port);
        let feed = fake(move |_| redirect(302, &location)).await;
        let feeds = vec![feed.url.clone()];
        let Some(app) = TestApp::spawn_with(engine, move |c: &mut Config| c.news.feeds = feeds).await else { continue };
        let state = strikeline_store::news::feed_state(app.db(), &feed.url).await.expect("state").expect("polled at start-up");
        let error = state.last_error.unwrap_or_default();
        assert!(error.contains("refused") && error.contains("non-public"), "{engine:?}: {error}");
        assert!(feed.hits.load(Ordering::SeqCst) >= 1, "{engine:?}: the feed was asked");
        assert_eq!(internal.hits.load(Ordering::SeqCst), 0, "{engine:?}: the redirect was not followed");
        app.register().await;
        let items: Vec<Value> = app.client.get(app.url("/api/news?count=100")).send().await.expect("news").json().await.expect("json");
        assert!(items.iter().all(|i| i["title"] != "Instance credentials for role web-prod"), "{engine:?}: nothing stored");
    }
}

async fn webhook_urls_in_special_purpose_ranges_or_on_other_ports_are_refused(app: TestApp) {
    let user = app.register().await;
    let id = user["id"].as_str().expect("id").to_owned();
    users::set_subscription(app.db(), &id, "pro", "active", None, app.now()).await.expect("plan");
    for url in [
        "https://[::ffff:0:0]/",
        "https://[::ffff:5db8:d822]/",
        "https://[64:ff9b:1::a9fe:a9fe]/",
        "https://[64:ff9b::a9fe:a9fe]/",
        "https://[100::1]/",
        "https://[2001:2::1]/",
        "https://[2001:10::1]/",
        "https://[2002:a9fe:a9fe::1]/",
        "https://[3fff::1]/",
        "https://[5f00::1]/",
        "https://[fec0::1]/",
        "https://192.0.0.170/",
        "https://198.51.100.7/",
        "https://192.88.99.1/",
    ] {
        let response = app.post_json(&app.client, "/api/webhooks", &json!({"eventType": "new_signal", "url": url})).await;
        assert_eq!(response.status(), 422, "{url}");
        assert_eq!(fields(&problem(response).await), ["url"], "{url}");
    }
    for (url, port) in [("https://hooks.example.com:8443/x", "8443"), ("https://93.184.216.34:6379/", "6379")] {
        let response = app.post_json(&app.client, "/api/webhooks", &json!({"eventType": "new_signal", "url": url})).await;
        assert_eq!(response.status(), 422, "{url}");
        let body = problem(response).await;
        assert_eq!(fields(&body), ["url"], "{url}");
        assert!(body["errors"][0].to_string().contains(&format!("port {port} is not allowed")), "{url}: {body}");
    }
    let list: Vec<Value> = app.client.get(app.url("/api/webhooks")).send().await.expect("list").json().await.expect("json");
    assert!(list.is_empty(), "nothing was registered");
}
