//! The read path every open dashboard polls: the signal list pages by cursor (every signal
//! reachable, none twice, a forged cursor refused), answers are tagged and revalidate to 304
//! until something changes, large answers go out compressed, and a poll of the portfolio
//! analysis does not write.

use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, ETAG, IF_NONE_MATCH};
use serde_json::Value;
use strikeline_server::foundation::events::Topic;
use strikeline_store::signals as store;

use crate::common::{TestApp, fields, problem, signal_page, signal_row};

on_both_engines!(
    pages_reach_every_signal_once_and_forged_cursors_are_refused,
    a_cursor_from_another_users_signal_only_positions_the_list,
    polled_answers_revalidate_to_304_until_something_changes,
    large_answers_are_compressed_and_small_ones_are_not,
    polling_the_portfolio_analysis_writes_only_when_the_value_moves,
    the_daily_valuation_of_everyone_matches_each_users_own,
    pages_from_the_shared_window_equal_pages_from_the_database,
);

/// 120 automated signals over two creation times (so pages must break ties), plus `owner`'s
/// own on-demand signal.
async fn issue_many(app: &TestApp) -> Vec<String> {
    let today = app.today();
    let rows: Vec<_> = (0..120).map(|i| signal_row(&format!("S{i:03}"), 30 + i % 60, today, i64::from(i % 2 == 0), None)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    rows.into_iter().map(|r| r.id).collect()
}

async fn page(app: &TestApp, query: &str) -> (reqwest::StatusCode, Value) {
    let response = app.client.get(app.url(&format!("/api/signals{query}"))).send().await.expect("request");
    (response.status(), response.json().await.expect("json"))
}

async fn pages_reach_every_signal_once_and_forged_cursors_are_refused(app: TestApp) {
    app.register().await;
    let issued = issue_many(&app).await;
    let (status, first) = page(&app, "").await;
    assert_eq!(status, 200);
    assert_eq!(first["signals"].as_array().expect("signals").len(), 50, "a page of 50 unless asked otherwise");
    let mut seen = Vec::new();
    let mut query = "?limit=50".to_owned();
    let mut pages = 0;
    loop {
        let (status, body) = page(&app, &query).await;
        assert_eq!(status, 200, "{query}");
        pages += 1;
        seen.extend(body["signals"].as_array().expect("signals").iter().map(|s| s["id"].as_str().expect("id").to_owned()));
        match body["nextCursor"].as_str() {
            Some(cursor) => query = format!("?limit=50&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(pages, 3, "120 signals in pages of 50");
    let mut sorted_seen = seen.clone();
    sorted_seen.sort();
    sorted_seen.dedup();
    let mut sorted_issued = issued.clone();
    sorted_issued.sort();
    assert_eq!(sorted_seen, sorted_issued, "every signal once");
    assert_eq!(seen.len(), issued.len(), "no signal twice");
    assert_eq!(signal_page(&app, &app.client, "?strategy=Momentum").await.len(), 120, "filters page too");

    for (query, field) in
        [("?cursor=bm9wZQ", "cursor"), ("?cursor=%27%20OR%201%3D1%20--", "cursor"), ("?limit=201", "limit"), ("?limit=-1", "limit")]
    {
        let response = app.client.get(app.url(&format!("/api/signals{query}"))).send().await.expect("request");
        assert_eq!(response.status(), 422, "{query}");
        assert_eq!(fields(&problem(response).await), [field], "{query}");
    }
}

async fn a_cursor_from_another_users_signal_only_positions_the_list(app: TestApp) {
    app.register().await;
    let bob = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&bob, "bob@example.com", "bob", "correct horse battery").await.status(), 201);
    let bob_id = strikeline_store::users::find_by_email(app.db(), "bob@example.com").await.expect("query").expect("bob").id;
    let today = app.today();
    let older = signal_row("OLD", 70, today, 30, None);
    let bobs = signal_row("BOB", 70, today, 20, Some(&bob_id));
    store::issue_automated(app.db(), std::slice::from_ref(&older)).await.expect("issue");
    store::insert_on_demand(app.db(), &bobs).await.expect("bob's");
    // Bob's page ends at his own signal; its cursor, replayed by Ada, starts her list there.
    let bob_page: Value = bob.get(app.url("/api/signals?limit=1")).send().await.expect("request").json().await.expect("json");
    assert_eq!(bob_page["signals"][0]["symbol"], "BOB");
    let cursor = bob_page["nextCursor"].as_str().expect("more after Bob's signal");
    let (status, ada_page) = page(&app, &format!("?cursor={cursor}")).await;
    assert_eq!(status, 200);
    let symbols: Vec<&str> =
        ada_page["signals"].as_array().expect("signals").iter().map(|s| s["symbol"].as_str().expect("symbol")).collect();
    assert_eq!(symbols, ["OLD"], "what comes after that point in Ada's own list, never Bob's signal");
}

async fn polled_answers_revalidate_to_304_until_something_changes(app: TestApp) {
    app.register().await;
    issue_many(&app).await;
    for path in ["/api/signals", "/api/stats", "/api/stock-prices", "/api/portfolio/positions", "/api/portfolio/metrics"] {
        let first = app.client.get(app.url(path)).send().await.expect("request");
        assert_eq!(first.status(), 200, "{path}");
        assert_eq!(first.headers()[CACHE_CONTROL], "private, no-cache", "{path}: only the user's browser keeps it, and asks again");
        let tag = first.headers()[ETAG].to_str().expect("tag").to_owned();
        assert!(tag.starts_with("W/\""), "{path}: {tag}");
        let again = app.client.get(app.url(path)).header(IF_NONE_MATCH, &tag).send().await.expect("request");
        assert_eq!(again.status(), 304, "{path}: unchanged");
        assert_eq!(again.headers()[ETAG], tag.as_str());
        assert!(again.bytes().await.expect("body").is_empty(), "{path}: a 304 has no body");
    }
    let tag = app.client.get(app.url("/api/signals")).send().await.expect("request").headers()[ETAG].to_str().expect("tag").to_owned();
    store::issue_automated(app.db(), &[signal_row("NEW", 99, app.today(), 0, None)]).await.expect("issue");
    app.state.events.publish(Topic::Signals);
    let changed = app.client.get(app.url("/api/signals")).header(IF_NONE_MATCH, &tag).send().await.expect("request");
    assert_eq!(changed.status(), 200, "a new signal changes the list");
    assert_ne!(changed.headers()[ETAG].to_str().expect("tag"), tag);
    let me = app.client.get(app.url("/api/auth/me")).send().await.expect("request");
    assert_eq!(me.status(), 200);
    assert!(me.headers().get(ETAG).is_none(), "account answers are not tagged");
    assert_eq!(me.headers()[CACHE_CONTROL], "no-store");
}

async fn large_answers_are_compressed_and_small_ones_are_not(app: TestApp) {
    app.register().await;
    issue_many(&app).await;
    // A browser that decodes nothing itself, so the encoding on the wire shows.
    let mut origin = reqwest::header::HeaderMap::new();
    origin.insert(reqwest::header::ORIGIN, app.base.parse().expect("origin"));
    let raw = reqwest::Client::builder().no_gzip().cookie_store(true).default_headers(origin).build().expect("client");
    assert_eq!(app.login_with(&raw, "ada@example.com", "correct-horse").await.status(), 200);
    for (encoding, expected) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let response = raw.get(app.url("/api/signals")).header(ACCEPT_ENCODING, encoding).send().await.expect("request");
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers().get(CONTENT_ENCODING).map(|v| v.to_str().expect("ascii")), Some(expected), "{encoding}");
        let wire = response.bytes().await.expect("body").len();
        assert!(wire < 50 * 400, "{encoding}: 50 signals in {wire} bytes on the wire");
    }
    let small = raw.get(app.url("/api/stats")).header(ACCEPT_ENCODING, "gzip").send().await.expect("request");
    assert_eq!(small.status(), 200);
    assert!(small.headers().get(CONTENT_ENCODING).is_none(), "bodies under 1 KB go out as they are");
    assert!(small.bytes().await.expect("body").len() < 1024);
}

async fn polling_the_portfolio_analysis_writes_only_when_the_value_moves(app: TestApp) {
    app.register().await;
    let metrics = || async { app.client.get(app.url("/api/portfolio/metrics")).send().await.expect("request").status() };
    assert_eq!(metrics().await, 200);
    let user = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let taken_at = || async {
        strikeline_store::with_db!(app.db(), pool => {
            sqlx::query_scalar::<_, String>("SELECT CAST(taken_at AS TEXT) FROM portfolio_snapshots WHERE user_id = $1")
                .bind(&user.id)
                .fetch_all(pool)
                .await
                .expect("snapshots")
        })
    };
    let first = taken_at().await;
    assert_eq!(first.len(), 1, "today's value recorded by the first look");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(metrics().await, 200);
    assert_eq!(metrics().await, 200);
    assert_eq!(taken_at().await, first, "an unchanged value is not written again");
}

async fn the_daily_valuation_of_everyone_matches_each_users_own(app: TestApp) {
    use strikeline_server::services::portfolio_valuation;
    app.register().await;
    let grace = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&grace, "grace@example.com", "grace", "correct-horse").await.status(), 201);
    let ada = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    strikeline_store::users::set_investment_preferences(app.db(), &ada.id, 5_000_000, "high", 500_000, "Momentum", app.now())
        .await
        .expect("prefs");
    let today = app.today();
    store::issue_automated(app.db(), &[signal_row("AAA", 90, today, 5, None), signal_row("BBB", 85, today, 4, None)]).await.expect("issue");
    let now = app.now();
    assert!(strikeline_server::services::execution::automated::execute(&app.state, now).await.expect("tick") > 0);
    assert_eq!(portfolio_valuation::snapshot_all(&app.state, now).await.expect("snapshot"), 2);
    for email in ["ada@example.com", "grace@example.com"] {
        let user = strikeline_store::users::find_by_email(app.db(), email).await.expect("query").expect("user");
        let own = portfolio_valuation::value_and_history(&app.state, &user, now).await.expect("value").0;
        let stored = strikeline_store::positions::value_history(app.db(), &user.account_id).await.expect("history");
        let (_, cents) = stored.last().copied().expect("today's value stored");
        assert_eq!(cents, strikeline_server::foundation::money::to_cents(own), "{email}: the batch valuation equals the user's own");
    }
}

/// The first pages come from the shared window of rendered automated signals merged with the
/// viewer's own; every page must be byte for byte what the database query gives, locks
/// included, whatever the page size and however ties in creation time fall.
async fn pages_from_the_shared_window_equal_pages_from_the_database(app: TestApp) {
    use strikeline_server::handlers::signals::window;
    let me = app.register().await;
    let email = me["email"].as_str().expect("email");
    let user = strikeline_store::users::find_by_email(app.db(), email).await.expect("query").expect("user");
    let today = app.today();
    let yesterday = today - chrono::Duration::days(1);
    // Two days of 60 automated signals, three to a creation time, confidences shuffled so the
    // day ranks do not follow the list order; the viewer's own signals on both days.
    let mut rows = Vec::new();
    for i in 0..120_i64 {
        let (day, minutes_ago) = if i < 60 { (yesterday, 1_500 + i / 3) } else { (today, (i - 60) / 3) };
        rows.push(signal_row(&format!("W{i:03}"), 20 + (i * 37) % 79, day, minutes_ago, None));
    }
    store::issue_automated(app.db(), &rows).await.expect("issue");
    for (symbol, day, minutes_ago) in [("OWNA", yesterday, 1_505), ("OWNB", yesterday, 1_530), ("OWNC", today, 4), ("OWND", today, 4)] {
        store::insert_on_demand(app.db(), &signal_row(symbol, 60, day, minutes_ago, Some(&user.id))).await.expect("own");
    }
    let now = app.now();
    for size in [7_i64, 50] {
        let mut filter = strikeline_server::handlers::signals::filter::parse(Some(&format!("limit={size}"))).expect("filter");
        let (mut from_window, mut pages, mut locked) = (0, 0, 0);
        loop {
            let expected = window::from_database(&app.state, &user, &filter, now).await.expect("database page");
            if let Some(body) = window::from_window(&app.state, &user, &filter, now).await.expect("window page") {
                assert_eq!(body, expected, "page {pages} of {size}");
                from_window += 1;
            }
            assert_eq!(window::page_json(&app.state, &user, &filter, now).await.expect("page"), expected);
            let page: Value = serde_json::from_str(&expected).expect("json");
            locked += page["signals"].as_array().expect("signals").iter().filter(|s| s["locked"] == true).count();
            pages += 1;
            match page["nextCursor"].as_str() {
                Some(cursor) => filter.after = strikeline_server::handlers::signals::filter::decode_cursor(cursor),
                None => break,
            }
        }
        assert_eq!(pages, (124 + size - 1) / size, "pages of {size}");
        assert!(from_window >= pages - 1, "all but the last page come from the window ({from_window} of {pages})");
        assert!(locked >= 10, "the plan's quota locks some ({locked})");
    }
    let filtered = strikeline_server::handlers::signals::filter::parse(Some("strategy=Momentum")).expect("filter");
    assert!(window::from_window(&app.state, &user, &filtered, now).await.expect("window").is_none(), "a filter reads the database");
}
