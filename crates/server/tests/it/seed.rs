//! `strikeline seed`: generated benchmark data, on both engines. The small scale fills every
//! table with rows that hold the schema's and the application's invariants (ranks per day,
//! positions on signals that exist and fit their status, one password hash), the benchmark
//! account signs in and sees signals, and a seeded (or already used) database is refused.

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_market::calendar::to_new_york;
use strikeline_server::cli::seed::{self, BENCH_EMAIL, BENCH_PASSWORD, Scale, SeedError};
use strikeline_store::seed::table_counts;
use strikeline_store::signals as signal_store;
use strikeline_store::with_db;

use crate::common::{TestApp, signal_row};

on_both_engines!(
    the_small_scale_fills_every_table_with_consistent_rows,
    the_bench_account_signs_in_and_lists_its_signals,
    a_seeded_database_is_not_seeded_again,
    a_database_with_signals_is_refused,
);

/// A signal as the invariants need it.
type SignalFacts =
    (String, Option<String>, String, Option<String>, Option<DateTime<Utc>>, NaiveDate, NaiveDate, DateTime<Utc>, i64, i64, i64);

async fn signals(app: &TestApp) -> Vec<SignalFacts> {
    with_db!(app.db(), pool => {
        sqlx::query_as::<_, SignalFacts>(
            "SELECT id, owner_id, status, close_reason, closed_at, issued_on, expiration_date, created_at, day_rank, confidence, entry_cents \
             FROM signals",
        )
        .fetch_all(pool)
        .await
        .expect("signals")
    })
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    with_db!(app.db(), pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await.expect(sql))
}

async fn the_small_scale_fills_every_table_with_consistent_rows(app: TestApp) {
    let sizes = Scale::Small.sizes();
    let summary = seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await.expect("seed");

    // What was asked for (automated signals and positions may fall a little short when the
    // rules leave too few candidates).
    let tables = table_counts(app.db()).await.expect("counts");
    assert_eq!(tables.users, i64::try_from(sizes.users).expect("size"));
    assert_eq!(tables.on_demand_signals, i64::try_from(sizes.on_demand_signals).expect("size"));
    assert_eq!(tables.manual_positions, i64::try_from(sizes.manual_positions).expect("size"));
    let automated = usize::try_from(tables.automated_signals).expect("count");
    assert!((sizes.automated_signals * 9 / 10..=sizes.automated_signals).contains(&automated), "{automated} automated signals");
    let positions = usize::try_from(tables.automated_positions).expect("count");
    assert!((sizes.automated_positions * 9 / 10..=sizes.automated_positions).contains(&positions), "{positions} automated positions");
    assert_eq!(summary.written.signals, u64::try_from(automated + sizes.on_demand_signals).expect("n"));
    assert_eq!(summary.trading_days, sizes.trading_days);
    assert!(tables.stocks >= 50, "the default watchlist is tracked");

    // The benchmark account: Pro, a handful of open and closed automated positions, five
    // manual ones, a value for every session.
    let bench = strikeline_store::users::find_by_email(app.db(), BENCH_EMAIL).await.expect("query").expect("bench account");
    assert_eq!(
        (bench.subscription_plan.as_str(), bench.subscription_status.as_str(), bench.subscription_expires_at),
        ("pro", "active", None)
    );
    assert!(summary.bench_open_positions >= 1 && summary.bench_closed_positions >= 1, "{summary:?}");
    assert_eq!(summary.bench_manual_positions, 5);
    assert_eq!(summary.bench_snapshots, sizes.trading_days);
    let bench_values = strikeline_store::positions::value_history(app.db(), &bench.account_id).await.expect("values");
    assert_eq!(bench_values.len(), sizes.trading_days);
    assert_eq!((bench_values[0].0, bench_values[bench_values.len() - 1].0), (summary.first_day, summary.last_day));

    // Trading accounts: one current account per user, and every row's account is its owner's.
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM trading_accounts WHERE is_current").await, tables.users);
    for table in ["portfolio_positions", "manual_positions", "portfolio_snapshots"] {
        let foreign = format!("SELECT COUNT(*) FROM {table} t JOIN trading_accounts a ON a.id = t.account_id WHERE a.user_id <> t.user_id");
        assert_eq!(scalar(&app, &foreign).await, 0, "{table} rows in another user's account");
    }

    // Users: unique emails (the constraint), all three plans, one password hash for everyone.
    assert_eq!(scalar(&app, "SELECT COUNT(DISTINCT password_hash) FROM users").await, 1);
    assert_eq!(scalar(&app, "SELECT COUNT(DISTINCT subscription_plan) FROM users").await, 3);
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM users WHERE email LIKE '%@seed.strikeline.test'").await, tables.users - 1);

    // Signals: automated ones ranked 1..n in their day without gaps, on-demand ones 0; issued
    // on the New York date they were created, inside the window; ended ones say how and when.
    let rows = signals(&app).await;
    let mut per_day: std::collections::BTreeMap<NaiveDate, Vec<i64>> = Default::default();
    for (id, owner, status, reason, closed_at, issued_on, expiration, created_at, rank, confidence, entry) in &rows {
        match owner {
            None => per_day.entry(*issued_on).or_default().push(*rank),
            Some(_) => assert_eq!(*rank, 0, "on-demand signal {id} is not ranked"),
        }
        assert_eq!(to_new_york(*created_at).date_naive(), *issued_on, "signal {id}");
        assert!((summary.first_day..=summary.last_day).contains(issued_on), "signal {id} on {issued_on}");
        assert!(expiration > issued_on, "signal {id} expires after its issue");
        assert!((20..=95).contains(confidence) && *entry > 0, "signal {id}");
        match status.as_str() {
            "active" => assert!(reason.is_none() && closed_at.is_none(), "signal {id}"),
            "closed" => {
                assert!(matches!(reason.as_deref(), Some("target" | "stop")) && closed_at.is_some_and(|t| t > *created_at), "signal {id}")
            }
            "expired" => assert!(reason.as_deref() == Some("expiry") && closed_at.is_some_and(|t| t > *created_at), "signal {id}"),
            other => panic!("signal {id} has status {other}"),
        }
    }
    assert_eq!(per_day.values().map(Vec::len).sum::<usize>(), automated);
    for (day, mut ranks) in per_day {
        ranks.sort_unstable();
        let expected: Vec<i64> = (1..=i64::try_from(ranks.len()).expect("n")).collect();
        assert_eq!(ranks, expected, "ranks of {day}");
    }
    assert!(rows.iter().any(|r| r.1.is_none() && r.2 == "active"), "the newest automated signals are active");
    assert!(rows.iter().any(|r| r.1.is_none() && r.2 != "active"), "older automated signals have ended");
    // On demand: only Pro and Premium accounts generate signals.
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM signals s JOIN users u ON u.id = s.owner_id WHERE u.subscription_plan = 'free'").await,
        0
    );

    // Automated positions: on automated signals that exist, one per user and signal, open only
    // on active signals, closed ones with their signal's outcome, exit and close time.
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM portfolio_positions p LEFT JOIN signals s ON s.id = p.signal_id WHERE s.id IS NULL OR s.owner_id IS NOT NULL").await,
        0
    );
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM (SELECT DISTINCT user_id, signal_id FROM portfolio_positions) pairs").await,
        tables.automated_positions
    );
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id WHERE p.status = 'open' AND s.status <> 'active'").await,
        0
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM portfolio_positions p JOIN signals s ON s.id = p.signal_id WHERE p.status <> 'open' \
             AND (p.status <> s.status OR p.exit_cents IS NULL OR p.closed_at IS NULL OR p.closed_at < p.opened_at)"
        )
        .await,
        0
    );
    assert!(scalar(&app, "SELECT COUNT(*) FROM portfolio_positions WHERE status = 'open'").await > 0);
    assert!(scalar(&app, "SELECT COUNT(*) FROM portfolio_positions WHERE status <> 'open'").await > 0);
    // Nobody holds a position opened before they joined.
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM portfolio_positions p JOIN users u ON u.id = p.user_id WHERE p.opened_at < u.created_at").await,
        0
    );

    // Manual positions: ended ones say when; open ones have a mark.
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM manual_positions WHERE (status = 'open') = (closed_at IS NOT NULL)").await, 0);
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM manual_positions WHERE current_option_cents IS NULL OR current_price_cents IS NULL").await,
        0
    );
}

async fn the_bench_account_signs_in_and_lists_its_signals(app: TestApp) {
    seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await.expect("seed");
    let response = app.login_with(&app.client, BENCH_EMAIL, BENCH_PASSWORD).await;
    assert_eq!(response.status(), 200, "the benchmark account signs in");
    let response = app.client.get(app.url("/api/signals?limit=50")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.expect("json");
    let listed = body["signals"].as_array().expect("signals");
    assert!(!listed.is_empty(), "the seeded signals are listed: {body}");
    // Every generated account shares the password.
    let other = TestApp::browser(&app.base);
    let response = app.login_with(&other, "user00001@seed.strikeline.test", BENCH_PASSWORD).await;
    assert_eq!(response.status(), 200, "a generated account signs in with the shared password");
}

async fn a_seeded_database_is_not_seeded_again(app: TestApp) {
    seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await.expect("first seed");
    let before = table_counts(app.db()).await.expect("counts");
    match seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await {
        Err(SeedError::AlreadySeeded) => {}
        other => panic!("a second seed must be refused, got {other:?}"),
    }
    assert_eq!(table_counts(app.db()).await.expect("counts"), before, "nothing was added");
}

async fn a_database_with_signals_is_refused(app: TestApp) {
    let today = app.today();
    signal_store::issue_automated(app.db(), &[signal_row("AAPL", 70, today, 5, None)]).await.expect("issue");
    match seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await {
        Err(SeedError::NotEmpty(1)) => {}
        other => panic!("a database with signals must be refused, got {other:?}"),
    }
    assert_eq!(strikeline_store::users::count(app.db()).await.expect("count"), 0, "nothing was seeded");
}
