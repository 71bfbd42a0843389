//! Issue 26, database faults: PostgreSQL sessions killed under the server, and a database that
//! goes silent. Broken pooled connections are a 503 with `Retry-After`, never a 500; `/readyz`
//! says the database is unreachable within its bound instead of waiting out the pool, and the
//! API then refuses at once (a circuit breaker) until the database answers again.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use sqlx::Connection;

use crate::common::{Engine, TestApp};

on_both_engines_with!(market, crate::common::with_market;
    concurrent_creates_and_refreshes_never_deadlock,
);

/// A connection to the server's `postgres` database, to act on the test's database from outside.
async fn admin() -> sqlx::PgConnection {
    let url = format!("{}/postgres", strikeline_store::test_support::pg_base());
    sqlx::PgConnection::connect(&url).await.expect("admin connection")
}

/// Ends every session of `database` but the admin's own: what a crashed pooler or an operator's
/// `pg_terminate_backend` does.
async fn kill_sessions(admin: &mut sqlx::PgConnection, database: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) k",
    )
    .bind(database)
    .fetch_one(admin)
    .await
    .expect("terminate")
}

const PATHS: [&str; 4] = ["/api/auth/me", "/api/signals?limit=5", "/api/stats", "/api/notifications"];

async fn statuses(app: &TestApp, rounds: usize) -> Vec<(u16, Option<String>, String)> {
    let requests = (0..rounds).flat_map(|_| PATHS).map(|path| async move {
        let response = app.client.get(app.url(path)).send().await.expect("request");
        let status = response.status().as_u16();
        let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        (status, retry, kind)
    });
    join_all(requests).await
}

/// Waits (at most 5 s) until the API answers again after a fault.
async fn healed(app: &TestApp) {
    for _ in 0..50 {
        if statuses(app, 1).await.iter().all(|(status, ..)| *status == 200) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the API did not recover within 5 s");
}

#[tokio::test]
async fn killed_sessions_answer_503_with_retry_after_or_succeed_never_500() {
    let Some(app) = TestApp::spawn(Engine::Postgres).await else { return };
    app.register().await;
    let database = app.pg_database.clone().expect("a PostgreSQL test database");
    let mut admin = admin().await;
    // Fill the pool, then kill every one of its connections, three times over.
    for round in 0..3 {
        healed(&app).await;
        assert!(statuses(&app, 4).await.iter().all(|(status, ..)| *status == 200), "round {round}: warm");
        assert!(kill_sessions(&mut admin, &database).await > 0, "round {round}: the pool had connections to kill");
        for (status, retry, kind) in statuses(&app, 6).await {
            assert_ne!(status, 500, "round {round}: a broken connection is never a 500");
            if status == 503 {
                assert!(retry.is_some(), "a 503 says when to retry");
                assert_eq!(kind, "application/problem+json");
            } else {
                assert_eq!(status, 200);
            }
        }
    }
    // The pool heals: every request succeeds again.
    healed(&app).await;
    assert!(statuses(&app, 2).await.iter().all(|(status, ..)| *status == 200));
    assert_eq!(app.client.get(app.url("/readyz")).send().await.expect("ready").status(), 200);
}

/// A TCP proxy in front of PostgreSQL that the test can cut: `Forward` passes connections
/// through, `Blackhole` accepts them and never answers (a hung network or a stopped host), and
/// `cut` breaks every connection it carries.
struct PgProxy {
    addr: std::net::SocketAddr,
    blackhole: std::sync::Arc<std::sync::atomic::AtomicBool>,
    carried: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl PgProxy {
    async fn start() -> PgProxy {
        use std::sync::atomic::Ordering;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let blackhole = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let carried: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = std::sync::Arc::default();
        let upstream = strikeline_store::test_support::pg_base().rsplit('@').next().unwrap_or("127.0.0.1:5432").to_owned();
        let (hole, list) = (blackhole.clone(), carried.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let upstream = upstream.clone();
                let swallow = hole.load(Ordering::SeqCst);
                let task = tokio::spawn(async move {
                    if swallow {
                        // Hold the socket open, say nothing.
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        drop(client);
                        return;
                    }
                    if let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                list.lock().expect("lock").push(task);
            }
        });
        PgProxy { addr, blackhole, carried }
    }

    /// Breaks every connection carried so far; new ones are swallowed while `blackhole`.
    fn cut(&self, blackhole: bool) {
        self.blackhole.store(blackhole, std::sync::atomic::Ordering::SeqCst);
        for task in self.carried.lock().expect("lock").drain(..) {
            task.abort();
        }
    }
}

#[tokio::test]
async fn readyz_says_quickly_that_an_unreachable_database_is_unreachable() {
    let proxy = PgProxy::start().await;
    let through = proxy.addr;
    let Some(app) = TestApp::spawn_with(Engine::Postgres, move |config| {
        if let Some(url) = config.database_url.as_ref().map(|u| u.expose().clone()) {
            let (head, tail) = url.split_once('@').expect("url with a host");
            let path = tail.split_once('/').map(|(_, p)| p).unwrap_or_default();
            config.database_url = Some(strikeline_server::foundation::config::Secret::new(format!("{head}@{through}/{path}")));
        }
    })
    .await
    else {
        return;
    };
    assert_eq!(app.client.get(app.url("/readyz")).send().await.expect("ready").status(), 200);
    // The database host goes silent: pooled connections break, new ones are never answered.
    // The first checks find broken connections at once; the later ones need new connections,
    // which the silent host never answers.
    proxy.cut(true);
    for attempt in 0..4 {
        let began = Instant::now();
        let ready = app.client.get(app.url("/readyz")).send().await.expect("ready");
        let took = began.elapsed();
        assert_eq!((ready.status().as_u16(), ready.headers().get("retry-after").is_some()), (503, true), "attempt {attempt}");
        // The bound is 100 ms; a loaded two-core test machine gets some slack, never the pool's 5 s.
        eprintln!("readyz with the database silent, attempt {attempt}: {took:?}");
        assert!(took < Duration::from_secs(1), "attempt {attempt} answered in {took:?}");
    }
    // The API refuses at once instead of each request waiting out the pool.
    for path in PATHS {
        let began = Instant::now();
        let response = app.client.get(app.url(path)).send().await.expect("request");
        let took = began.elapsed();
        assert_eq!((response.status().as_u16(), response.headers().get("retry-after").is_some()), (503, true), "{path}");
        eprintln!("{path} with the breaker open: {took:?}");
        assert!(took < Duration::from_millis(500), "{path} answered in {took:?}");
    }
    assert_eq!(app.client.get(app.url("/healthz")).send().await.expect("health").status(), 200, "the process is alive");
    // Back: ready again.
    proxy.cut(false);
    let mut ready_again = false;
    for _ in 0..100 {
        if app.client.get(app.url("/readyz")).send().await.expect("ready").status() == 200 {
            ready_again = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready_again, "ready again once the database answers");
    let mut served = false;
    for _ in 0..40 {
        // Served again (this visitor is not signed in: 401, not 503).
        if app.client.get(app.url("/api/stats")).send().await.expect("stats").status() == 401 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served, "the breaker closes once the database answers its probe");
}

/// Issue 26, row 1: concurrent work by one user and concurrent refreshes lock rows in one
/// order, so none of them fails (before: `deadlock detected` answered 500 on PostgreSQL).
async fn concurrent_creates_and_refreshes_never_deadlock(app: TestApp) {
    use strikeline_store::signals as store;
    app.register().await;
    // Signals to mark, on watchlist symbols, so every refresh writes many rows.
    let stocks = strikeline_store::market::list_stocks(app.db()).await.expect("stocks");
    let day = app.issue_day();
    let rows: Vec<_> =
        stocks.iter().take(30).enumerate().map(|(i, s)| crate::common::signal_row(&s.symbol, 60 + i as i64, day, i as i64, None)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    let expiration = (app.today() + chrono::Duration::days(40)).format("%Y-%m-%d").to_string();
    for round in 0..3 {
        // Twelve positions at once, each marking the user's book as it is created.
        let creates = (0..12).map(|i| {
            let body = serde_json::json!({
                "symbol": stocks[i % stocks.len()].symbol, "companyName": "X", "type": "call", "strikePrice": 100.0 + i as f64,
                "expirationDate": expiration, "quantity": 1, "entryPrice": 2.5, "status": "open"
            });
            let app = &app;
            async move { app.post_json(&app.client, "/api/manual-positions", &body).await.status().as_u16() }
        });
        let statuses = join_all(creates).await;
        assert!(statuses.iter().all(|s| *s == 201), "round {round}: {statuses:?}");
        // Ten refreshes at once (the service itself: the limiter admits ten a minute).
        let refreshes = (0..10).map(|_| {
            let state = app.state.clone();
            async move {
                let now = state.clock.now();
                let quotes = strikeline_server::services::market_refresh::refresh_prices(&state, now).await?;
                strikeline_server::services::signal_issuing::mark_signals(&state, &quotes, now).await?;
                strikeline_server::services::portfolio_settlement::mark_manual_positions(&state, None, now).await
            }
        });
        for outcome in join_all(refreshes).await {
            assert!(outcome.is_ok(), "round {round}: {outcome:?}");
        }
    }
}

/// Issue 26, row 4: two instances started at once over one empty database do the first-start
/// work once (before: the replay ran twice and doubled the closed and expired signals).
#[tokio::test]
async fn two_instances_started_at_once_replay_the_history_once() {
    let Ok((url, name)) = strikeline_store::test_support::create_pg_database("strikeline_test", true).await else {
        assert!(!strikeline_store::test_support::pg_required(), "PostgreSQL is required");
        return;
    };
    let tweak = |url: String| {
        move |config: &mut strikeline_server::foundation::config::Config| {
            crate::common::with_market(config);
            config.market.replay_days = 8;
            config.database_url = Some(strikeline_server::foundation::config::Secret::new(url));
        }
    };
    let (a, b) =
        tokio::join!(TestApp::spawn_with(Engine::Sqlite, tweak(url.clone())), TestApp::spawn_with(Engine::Sqlite, tweak(url.clone())));
    let (a, b) = (a.expect("first instance"), b.expect("second instance"));
    let signals = strikeline_store::signals::resolved_automated(a.db()).await.expect("signals");
    let mut seen = std::collections::HashSet::new();
    let doubled = signals.iter().filter(|s| !seen.insert((s.symbol.clone(), s.strategy.clone(), s.created_at))).count();
    assert!(!signals.is_empty(), "the replay issued and resolved signals");
    assert_eq!(doubled, 0, "{} of {} resolved signals issued twice", doubled, signals.len());
    drop((a, b));
    strikeline_store::test_support::drop_pg_database(name);
}

/// Issue 26, row 7: a shutdown with live-event streams open says goodbye on each (a
/// `reconnect` event with a one-second retry, so the browser reconnects, to another instance
/// behind a proxy) and ends them at once, instead of waiting out the drain and cutting them.
#[tokio::test]
async fn shutdown_ends_event_streams_with_a_goodbye_at_once() {
    use futures_util::StreamExt;
    let Some(mut app) = TestApp::spawn(Engine::Sqlite).await else { return };
    app.register().await;
    let mut streams = Vec::new();
    for _ in 0..3 {
        let response = app.client.get(app.url("/api/events")).send().await.expect("stream");
        assert_eq!(response.status(), 200);
        streams.push(tokio::spawn(async move {
            let mut body = response.bytes_stream();
            let mut text = String::new();
            while let Some(Ok(chunk)) = body.next().await {
                text.push_str(&String::from_utf8_lossy(&chunk));
            }
            (text, Instant::now())
        }));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let began = Instant::now();
    app.begin_shutdown();
    for stream in streams {
        let (text, ended) = tokio::time::timeout(Duration::from_secs(10), stream).await.expect("the stream ended").expect("read");
        assert!(text.contains("event: reconnect") && text.contains("retry: 1000"), "a goodbye before the end: {text:?}");
        let took = ended.duration_since(began);
        eprintln!("stream ended {took:?} after shutdown began");
        assert!(took < Duration::from_secs(1), "ended {took:?} after shutdown began (the drain is 5 s)");
    }
}

/// Issue 26, item 2 (a rolling restart behind a proxy): with `drain_seconds`, a SIGTERM first
/// fails readiness while every other request is still answered, so the proxy's health check
/// takes the instance out of rotation before its listener closes.
#[tokio::test]
async fn a_draining_instance_fails_readiness_and_still_serves_until_the_drain_ends() {
    let Some(mut app) = TestApp::spawn_with(Engine::Sqlite, |c| c.drain_seconds = 2).await else { return };
    app.register().await;
    let ready = app.client.get(app.url("/readyz")).send().await.expect("readyz");
    assert_eq!(ready.status(), 200, "ready before the signal");
    let began = Instant::now();
    app.begin_shutdown();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let draining = app.client.get(app.url("/readyz")).send().await.expect("readyz while draining");
    assert_eq!(draining.status(), 503, "a load balancer hears that this instance is going");
    let body = crate::common::problem(draining).await;
    assert_eq!(body["detail"], "The server is shutting down.");
    let served = app.client.get(app.url("/api/stock-prices")).send().await.expect("a request while draining");
    assert_eq!(served.status(), 200, "requests still in rotation are answered");
    // After the drain the listener closes.
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if app.client.get(app.url("/healthz")).send().await.is_err() {
                return began.elapsed();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the listener closes after the drain");
    assert!(closed >= Duration::from_secs(2), "closed {closed:?} after the signal, before the 2 s drain ended");
}
