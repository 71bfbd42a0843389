//! The gates, tried as an attacker would: the limiter, the entitlement check, sign-in under
//! abuse, bounded work and hostile input. Every scenario runs on SQLite and on PostgreSQL.

use std::collections::HashMap;

use crate::common::{TestApp, fields, problem};
use chrono::Utc;
use futures_util::future::join_all;
use serde_json::{Value, json};
use strikeline_server::foundation::config::{Config, LimitOverride};
use strikeline_store::users;

on_both_engines!(
    parallel_registrations_are_throttled_per_address,
    sixty_parallel_wrong_passwords_give_at_most_five_401s,
    five_wrong_passwords_then_the_right_one_waits_seconds_not_minutes,
    thirty_parallel_refreshes_let_exactly_ten_through,
    the_daily_quota_holds_under_concurrent_generation,
    locked_signals_carry_only_what_identifies_them,
    event_streams_are_capped_per_user_and_end_at_sign_out,
    api_answers_are_not_cached_and_errors_name_no_internals,
    watchlist_writes_are_limited_and_names_cleaned,
);

on_both_engines_with!(many_addresses, crate::gates::with_open_registration;
    password_hashing_runs_two_at_a_time_and_overflow_is_a_503,
);

on_both_engines_with!(slow_clients, crate::gates::with_tight_connections;
    slow_headers_are_cut_off_and_connections_per_address_are_capped,
);

on_both_engines_with!(redis_buckets, crate::gates::with_redis;
    with_redis_the_limits_hold_across_instances_too,
);

on_both_engines_with!(https, crate::gates::with_https;
    over_https_the_cookie_is_host_prefixed_and_hsts_is_sent,
);

on_both_engines_with!(market, crate::gates::with_replayed_market;
    a_free_backtest_is_held_to_the_last_year_and_hostile_dates_are_422,
    a_backtest_never_reveals_a_trade_the_plan_locks,
);

/// Registration as if from many addresses: the per-address limit out of the way.
fn with_open_registration(config: &mut Config) {
    config.limits.insert("register".into(), LimitOverride { quota: 10_000, window_seconds: 3600 });
    config.capacity.password_queue = 8;
}

fn with_tight_connections(config: &mut Config) {
    config.capacity.header_read_seconds = 1;
    config.capacity.connections_per_address = 3;
}

/// The limiter's buckets in the local Redis, under a prefix of this test's own. Without a
/// reachable Redis the test is skipped with a notice (CI, where Redis runs, requires it).
fn with_redis(config: &mut Config) {
    let reachable =
        std::net::TcpStream::connect_timeout(&"127.0.0.1:6379".parse().expect("addr"), std::time::Duration::from_secs(1)).is_ok();
    let required = std::env::var("STRIKELINE_REQUIRE_PG").is_ok_and(|v| v == "1" || v == "true");
    assert!(reachable || !required, "Redis is required (STRIKELINE_REQUIRE_PG=1) but 127.0.0.1:6379 is not reachable");
    if reachable {
        config.redis_url = Some(strikeline_server::foundation::config::Secret::new("redis://127.0.0.1:6379".into()));
        config.redis_prefix = format!("strikeline-test-{}", uuid::Uuid::new_v4().simple());
    } else {
        eprintln!("SKIPPED: Redis is not reachable on 127.0.0.1:6379; the limiter runs on the database");
    }
}

fn with_https(config: &mut Config) {
    config.public_url = Some("https://strikeline.example.com".into());
}

/// Two years of history and a few replayed sessions, so there are signals to lock.
fn with_replayed_market(config: &mut Config) {
    crate::common::with_market(config);
    config.market.replay_days = 15;
}

async fn statuses(responses: Vec<reqwest::Response>) -> HashMap<u16, usize> {
    let mut counts = HashMap::new();
    for r in responses {
        *counts.entry(r.status().as_u16()).or_insert(0) += 1;
    }
    counts
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response.headers().get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>().join(", ")
}

async fn make_free(app: &TestApp, email: &str) {
    let user = users::find_by_email(app.db(), email).await.expect("query").expect("user");
    users::set_subscription(app.db(), &user.id, "free", "active", None, app.now()).await.expect("free");
}

async fn parallel_registrations_are_throttled_per_address(app: TestApp) {
    let attempts = (0..300).map(|i| {
        let client = TestApp::browser(&app.base);
        let base = app.base.clone();
        async move {
            let body = json!({"email": format!("user{i}@example.com"), "username": format!("user{i}"), "password": "correct-horse"});
            client.post(format!("{base}/api/auth/register")).json(&body).send().await
        }
    });
    // Beyond the per-address connection cap a connection is closed at the door (no status).
    let mut counts: HashMap<u16, usize> = HashMap::new();
    let mut refused = None;
    for result in join_all(attempts).await {
        let status = result.as_ref().map_or(0, |r| r.status().as_u16());
        *counts.entry(status).or_insert(0) += 1;
        if let Ok(r) = result
            && status == 429
        {
            refused = Some((header(&r, "retry-after"), header(&r, "ratelimit-policy")));
        }
    }
    assert_eq!(counts.get(&201), Some(&10), "ten accounts an hour from one address: {counts:?}");
    assert_eq!(counts.get(&429).copied().unwrap_or(0) + counts.get(&0).copied().unwrap_or(0), 290, "{counts:?}");
    assert!(counts.get(&0).copied().unwrap_or(0) <= 300 - 128, "only connections beyond the cap are closed: {counts:?}");
    let (retry_after, policy) = refused.expect("a refusal");
    assert!(retry_after.parse::<u64>().is_ok_and(|s| s > 0), "{retry_after}");
    assert_eq!(policy, "\"register\";q=10;w=3600");
    assert!(app.state.capacity.hashing.peak() <= 2, "at most two hashes at once");
}

async fn password_hashing_runs_two_at_a_time_and_overflow_is_a_503(app: TestApp) {
    let attempts = (0..60).map(|i| {
        let client = TestApp::browser(&app.base);
        let app = &app;
        async move { app.register_with(&client, &format!("user{i}@example.com"), &format!("user{i}"), "correct-horse").await }
    });
    let responses = join_all(attempts).await;
    for r in &responses {
        assert!(matches!(r.status().as_u16(), 201 | 503), "only created or busy, got {}", r.status());
        if r.status() == 503 {
            assert!(header(r, "retry-after").parse::<u64>().is_ok(), "a 503 says when to retry");
        }
    }
    let counts = statuses(responses).await;
    assert!(counts.get(&201).copied().unwrap_or(0) >= 2, "{counts:?}");
    assert_eq!(app.state.capacity.hashing.peak(), 2, "hashing never ran more than two at once");
    // Memory stays bounded: two 19 MiB hashes at a time, not sixty (which would be over 1.1 GiB
    // on their own). The bound leaves room for the debug build, the runtime's threads and the
    // allocator keeping freed pages (334 MiB seen once on PostgreSQL).
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        let peak_kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0);
        assert!(peak_kib < 512 * 1024, "peak RSS {peak_kib} KiB");
    }
    // Other routes answer meanwhile and after.
    assert_eq!(app.client.get(app.url("/api/plans")).send().await.expect("request").status(), 200);
}

async fn sixty_parallel_wrong_passwords_give_at_most_five_401s(app: TestApp) {
    app.register().await;
    let attempts = (0..60).map(|_| {
        let client = TestApp::browser(&app.base);
        let app = &app;
        async move { app.login_with(&client, "ada@example.com", "wrong-horse").await }
    });
    let counts = statuses(join_all(attempts).await).await;
    assert_eq!(counts.get(&401), Some(&5), "attempts are counted before the hash is checked: {counts:?}");
    assert_eq!(counts.get(&429), Some(&55), "{counts:?}");
}

async fn five_wrong_passwords_then_the_right_one_waits_seconds_not_minutes(app: TestApp) {
    app.register().await;
    let browser = TestApp::browser(&app.base);
    for attempt in 1..=5 {
        assert_eq!(app.login_with(&browser, "ada@example.com", "wrong-horse").await.status(), 401, "attempt {attempt}");
    }
    let waiting = app.login_with(&browser, "ada@example.com", "correct-horse").await;
    assert_eq!(waiting.status(), 429, "a short wait after five failures");
    let retry: u64 = header(&waiting, "retry-after").parse().expect("seconds");
    assert!((1..=2).contains(&retry), "a growing delay, not a lockout: {retry}");
    problem(waiting).await;
    tokio::time::sleep(std::time::Duration::from_millis(retry * 1000 + 100)).await;
    let signed_in = app.login_with(&browser, "ada@example.com", "correct-horse").await;
    assert_eq!(signed_in.status(), 200, "the owner gets in once the wait is over");
    assert!(header(&signed_in, "ratelimit-policy").contains("\"login_ip\";q=20;w=600"));
    // The success cleared the back-off: a mistake now is an ordinary 401.
    assert_eq!(app.login_with(&browser, "ada@example.com", "wrong-horse").await.status(), 401);
}

async fn thirty_parallel_refreshes_let_exactly_ten_through(app: TestApp) {
    app.register().await;
    let attempts = (0..30).map(|_| app.client.post(app.url("/api/refresh")).send());
    let started = std::time::Instant::now();
    let responses: Vec<reqwest::Response> = join_all(attempts).await.into_iter().map(|r| r.expect("request")).collect();
    // A refused request read the clock when it arrived, possibly before the last one let
    // through took its place: its wait is one interval (6 s) plus at most the burst's own length.
    let skew = started.elapsed().as_secs() + 1;
    for r in &responses {
        assert_eq!(header(r, "ratelimit-policy"), "\"refresh\";q=10;w=60", "every limited answer names its policy");
        assert!(header(r, "ratelimit").starts_with("\"refresh\";r="), "{}", header(r, "ratelimit"));
    }
    let refused = responses.iter().find(|r| r.status() == 429).map(|r| header(r, "retry-after"));
    let counts = statuses(responses).await;
    assert_eq!(counts.get(&202), Some(&10), "{counts:?}");
    assert_eq!(counts.get(&429), Some(&20), "{counts:?}");
    let retry = refused.expect("refused");
    assert!(retry.parse::<u64>().is_ok_and(|s| (1..=6 + skew).contains(&s)), "Retry-After {retry} beyond 6 s + {skew} s");
    // Across instances: a second server over the same database sees the same bucket.
    let second = TestApp::spawn_with(engine_of(&app), |c| {
        c.database_url = Some(strikeline_server::foundation::config::Secret::new(app.database_url.clone()))
    })
    .await
    .expect("second instance");
    let response = app.client.post(second.url("/api/refresh")).header("origin", &second.base).send().await.expect("request");
    assert_eq!(response.status(), 429, "the shared bucket is empty on the other instance too");
}

fn engine_of(app: &TestApp) -> crate::common::Engine {
    if app.database_url.starts_with("postgres") { crate::common::Engine::Postgres } else { crate::common::Engine::Sqlite }
}

async fn the_daily_quota_holds_under_concurrent_generation(app: TestApp) {
    use strikeline_store::signals as store;
    app.register().await;
    let user = users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user");
    let today = app.issue_day();
    let rows: Vec<_> = (0..20i64).map(|i| crate::common::signal_row("AAPL", 50 + i, today, i, Some(&user.id))).collect();
    let inserts = rows.iter().map(|row| store::insert_on_demand_within(app.db(), row, Some(7)));
    let stored = join_all(inserts).await.into_iter().map(|r| r.expect("no error under contention")).filter(|ok| *ok).count();
    assert_eq!(stored, 7, "exactly the quota, however many ask at once");
    let counts = store::on_demand_counts(app.db(), &user.id, today).await.expect("counts");
    assert_eq!(counts, vec![(today, 7)]);
}

async fn locked_signals_carry_only_what_identifies_them(app: TestApp) {
    use strikeline_store::signals as store;
    app.register().await;
    let today = app.today();
    let rows: Vec<_> = (0..8i64).map(|i| crate::common::signal_row(&format!("S{i}"), 40 + i * 5, today, i, None)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    make_free(&app, "ada@example.com").await;
    let listed = crate::common::signal_page(&app, &app.client, "").await;
    let locked: Vec<&Value> = listed.iter().filter(|s| s["locked"] == true).collect();
    assert_eq!(locked.len(), 3);
    for s in locked {
        let mut keys: Vec<&str> = s.as_object().expect("object").keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["companyName", "createdAt", "id", "locked", "strategy", "symbol"], "{s}");
    }
}

async fn event_streams_are_capped_per_user_and_end_at_sign_out(app: TestApp) {
    app.register().await;
    let mut open = Vec::new();
    for _ in 0..5 {
        let response = app.client.get(app.url("/api/events")).send().await.expect("stream");
        assert_eq!(response.status(), 200);
        open.push(response);
    }
    let sixth = app.client.get(app.url("/api/events")).send().await.expect("request");
    assert_eq!(sixth.status(), 429, "five streams per account");
    problem(sixth).await;
    assert_eq!(app.post_json(&app.client, "/api/auth/logout", &json!({})).await.status(), 204);
    for mut stream in open {
        let ended =
            tokio::time::timeout(std::time::Duration::from_secs(5), async { while let Ok(Some(_)) = stream.chunk().await {} }).await;
        assert!(ended.is_ok(), "a stream ends when its session does");
    }
}

async fn api_answers_are_not_cached_and_errors_name_no_internals(app: TestApp) {
    app.register().await;
    let me = app.me(&app.client).await;
    assert_eq!(header(&me, "cache-control"), "no-store");
    let missing = app.client.get(app.url("/api/nothing-here")).send().await.expect("request");
    assert_eq!(header(&missing, "cache-control"), "no-store");
    // Over plain http there is no HSTS, and the cookie keeps its plain name.
    assert!(me.headers().get("strict-transport-security").is_none());
}

async fn over_https_the_cookie_is_host_prefixed_and_hsts_is_sent(app: TestApp) {
    let client = reqwest::Client::new();
    let response = client
        .post(app.url("/api/auth/register"))
        .header("origin", "https://strikeline.example.com")
        .json(&json!({"email": "ada@example.com", "username": "ada", "password": "correct-horse"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 201);
    let cookie = header(&response, "set-cookie");
    assert!(cookie.starts_with("__Host-strikeline_session="), "{cookie}");
    assert!(cookie.contains("; Secure") && cookie.contains("; Path=/") && !cookie.contains("Domain"), "{cookie}");
    assert!(header(&response, "strict-transport-security").starts_with("max-age="));
    // The defaults: 30 minutes idle, 12 hours absolute.
    assert!(cookie.contains("Max-Age=43200"), "{cookie}");
    assert_eq!(app.state.config.session.idle_minutes, 30);
}

async fn watchlist_writes_are_limited_and_names_cleaned(app: TestApp) {
    app.register().await;
    let body = json!({"symbols": [{"symbol": "1BAD", "companyName": "Evil\u{202E}gnp.exe\u{0007} Corp"}]});
    let mut last = None;
    for _ in 0..21 {
        last = Some(app.post_json(&app.client, "/api/stock-prices/bulk-add", &body).await);
    }
    let last = last.expect("answers");
    assert_eq!(last.status(), 429, "twenty watchlist writes an hour per user");
    assert_eq!(header(&last, "ratelimit-policy"), "\"watchlist_write\";q=20;w=3600");
    let cleaned = strikeline_server::foundation::input::clean_text("Evil\u{202E}gnp.exe\u{0007} Corp");
    assert_eq!(cleaned, "Evilgnp.exe Corp");
    // An oversized list is refused before anything is looked up.
    let many: Vec<Value> = (0..51).map(|i| json!({"symbol": format!("A{i}")})).collect();
    let response = app.post_json(&app.client, "/api/stock-prices/bulk-add", &json!({"symbols": many})).await;
    assert!(matches!(response.status().as_u16(), 422 | 429));
}

async fn a_free_backtest_is_held_to_the_last_year_and_hostile_dates_are_422(app: TestApp) {
    app.register().await;
    make_free(&app, "ada@example.com").await;
    let post = |body: Value| {
        let app = &app;
        async move { app.post_json(&app.client, "/api/backtest", &body).await }
    };
    let old = post(json!({"startDate": "2019-01-02", "endDate": "2019-12-31"})).await;
    assert_eq!(old.status(), 403, "Free's window ends at the last session, whatever endDate says");
    problem(old).await;
    for (body, field) in [
        (json!({"endDate": "-262143-01-01"}), "endDate"),
        (json!({"startDate": "+262142-12-31"}), "startDate"),
        (json!({"startDate": "1900-01-01"}), "startDate"),
        (json!({"strategies": ["Momentum", "Momentum", "Momentum"]}), ""),
    ] {
        let response = post(body.clone()).await;
        if field.is_empty() {
            assert!(response.status().is_success() || response.status() == 429, "{body}: {}", response.status());
            continue;
        }
        assert_eq!(response.status(), 422, "{body}");
        assert_eq!(fields(&problem(response).await), [field], "{body}");
    }
    let by_strategy = app.post_json(&app.client, "/api/backtest/strategy", &json!({})).await;
    assert_eq!(by_strategy.status(), 403, "by strategy is Pro and up");
    let by_strategy = app.post_json(&app.client, "/api/backtest/strategy", &json!({"startDate": "1900-01-01"})).await;
    assert_eq!(by_strategy.status(), 403, "the plan is the answer before any field is judged");
}

async fn a_backtest_never_reveals_a_trade_the_plan_locks(app: TestApp) {
    app.register().await;
    make_free(&app, "ada@example.com").await;
    let listed = crate::common::signal_page(&app, &app.client, "").await;
    let locked: Vec<(String, String, chrono::NaiveDate)> = listed
        .iter()
        .filter(|s| s["locked"] == true)
        .map(|s| {
            let created: chrono::DateTime<Utc> = s["createdAt"].as_str().expect("created").parse().expect("time");
            (s["symbol"].as_str().expect("symbol").to_owned(), s["strategy"].as_str().expect("strategy").to_owned(), created.date_naive())
        })
        .collect();
    assert!(!locked.is_empty(), "the replay issued more than five signals on some day");
    let response = app.post_json(&app.client, "/api/backtest", &json!({})).await;
    assert_eq!(response.status(), 200);
    let report: Value = response.json().await.expect("json");
    let trades = report["trades"].as_array().expect("trades");
    let mut masked = 0;
    for t in trades {
        let symbol = t["symbol"].as_str().expect("symbol");
        let strategy = t["strategy"].as_str().expect("strategy");
        let entry: chrono::NaiveDate = t["entryDate"].as_str().expect("entry").parse().expect("date");
        let near_locked = locked.iter().any(|(s, st, day)| s == symbol && st == strategy && (entry - *day).num_days().abs() <= 1);
        if t["locked"] == true {
            masked += 1;
            for hidden in ["signalType", "strike", "expiration", "entryPrice", "exitPrice", "pnl"] {
                assert!(t[hidden].is_null(), "{hidden} of a locked trade: {t}");
            }
        } else {
            assert!(!near_locked, "an unlocked trade matches a locked signal: {t}");
        }
    }
    assert!(masked > 0, "the trades of locked signals are there, masked");
    // And no figure counts them: the totals are the shown trades' alone, so nothing about a
    // locked trade can be read off them.
    assert_eq!(report["lockedTrades"], masked);
    let shown: Vec<&Value> = trades.iter().filter(|t| t["locked"] == false).collect();
    assert_eq!(report["totalTrades"], shown.len());
    let pnl: f64 = shown.iter().map(|t| t["pnl"].as_f64().expect("pnl")).sum();
    let total = report["totalPnl"].as_f64().expect("total");
    assert!((total - pnl).abs() < 0.01 * shown.len() as f64 + 0.01, "{total} vs {pnl}");
    let final_equity = report["finalEquity"].as_f64().expect("final");
    let initial = report["initialCapital"].as_f64().expect("initial");
    assert!((final_equity - initial - total).abs() < 0.01 * shown.len() as f64 + 0.01, "{final_equity} − {initial} vs {total}");
}

async fn slow_headers_are_cut_off_and_connections_per_address_are_capped(app: TestApp) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // Slowloris: headers that never finish are cut off after the header-read timeout.
    let mut slow = tokio::net::TcpStream::connect(app.addr).await.expect("connect");
    slow.write_all(b"GET /api/plans HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.expect("write");
    let mut buf = [0u8; 512];
    let closed = tokio::time::timeout(std::time::Duration::from_secs(4), async {
        loop {
            match slow.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "a client that never finishes its headers is disconnected");
    drop(slow);
    // Three idle connections from one address are allowed; a fourth is closed at once.
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut c = tokio::net::TcpStream::connect(app.addr).await.expect("connect");
        c.write_all(b"GET /api/plans HTTP/1.1\r\nHost: x\r\n\r\n").await.expect("write");
        let n = c.read(&mut buf).await.expect("read");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
        held.push(c);
    }
    let mut fourth = tokio::net::TcpStream::connect(app.addr).await.expect("connect");
    let _ = fourth.write_all(b"GET /api/plans HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let answer = tokio::time::timeout(std::time::Duration::from_secs(2), fourth.read(&mut buf)).await.expect("no hang");
    assert!(matches!(answer, Ok(0) | Err(_)), "the fourth connection is refused");
    drop(held);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let fresh = reqwest::Client::new().get(app.url("/api/plans")).send().await.expect("request");
    assert_eq!(fresh.status(), 200, "closing connections frees their places");
}

async fn with_redis_the_limits_hold_across_instances_too(app: TestApp) {
    let Some(redis_url) = app.state.config.redis_url.clone() else { return };
    assert!(matches!(app.state.buckets, strikeline_server::foundation::limits::Buckets::Redis(_)));
    app.register().await;
    let attempts = (0..30).map(|_| app.client.post(app.url("/api/refresh")).send());
    let responses: Vec<reqwest::Response> = join_all(attempts).await.into_iter().map(|r| r.expect("request")).collect();
    assert!(responses.iter().all(|r| header(r, "ratelimit-policy") == "\"refresh\";q=10;w=60"));
    let counts = statuses(responses).await;
    assert_eq!((counts.get(&202), counts.get(&429)), (Some(&10), Some(&20)), "{counts:?}");
    let prefix = app.state.config.redis_prefix.clone();
    let database_url = app.database_url.clone();
    let second = TestApp::spawn_with(engine_of(&app), move |c| {
        c.database_url = Some(strikeline_server::foundation::config::Secret::new(database_url));
        c.redis_url = Some(redis_url);
        c.redis_prefix = prefix;
    })
    .await
    .expect("second instance");
    let response = app.client.post(second.url("/api/refresh")).header("origin", &second.base).send().await.expect("request");
    assert_eq!(response.status(), 429, "the other instance shares the Redis bucket");
    // Sign-in back-off in Redis: five 401s out of sixty.
    let attempts = (0..60).map(|_| {
        let client = TestApp::browser(&app.base);
        let app = &app;
        async move { app.login_with(&client, "ada@example.com", "wrong-horse").await }
    });
    let counts = statuses(join_all(attempts).await).await;
    assert_eq!(counts.get(&401), Some(&5), "{counts:?}");
}
