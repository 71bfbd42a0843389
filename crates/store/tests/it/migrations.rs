//! Upgrading a database with data in it: the enum-checks migration (which rebuilds tables on
//! SQLite) keeps every row, on both engines, and afterwards the checks hold; the trading-accounts
//! migration gives each user a first account holding their positions and daily values; the
//! order-execution migration keeps webhook endpoints, their outbox and the audit log.

use std::path::Path;

use chrono::Duration;
use strikeline_store::positions::{self, AutomatedRow, ManualRow};
use strikeline_store::sessions::{self, SessionData};
use strikeline_store::signals;
use strikeline_store::{Db, Engine, market, trading_accounts, users};

use crate::common::{TestDb, day, signal, t0};

/// The migration under test; everything before it is applied first.
const ENUM_CHECKS: i64 = 20261124000006;

/// The order-execution migration, which rebuilds `webhook_endpoints`, the outbox and the audit
/// log on SQLite.
const ORDER_EXECUTION: i64 = 20261129000029;

/// Applies the migrations before [`ENUM_CHECKS`], from a copy of those files.
async fn migrate_before_enum_checks(db: &Db) {
    migrate_before(db, ENUM_CHECKS).await;
}

/// Applies the migrations before `version`, from a copy of those files.
async fn migrate_before(db: &Db, before: i64) {
    let engine_dir = match db.engine() {
        Engine::Sqlite => "sqlite",
        Engine::Postgres => "postgres",
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(engine_dir);
    let copy = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(&source).expect("migrations") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("name").to_owned();
        let version: i64 = name.split('_').next().and_then(|v| v.parse().ok()).expect("versioned name");
        if version < before {
            std::fs::copy(&path, copy.path().join(&name)).expect("copy");
        }
    }
    let migrator = sqlx::migrate::Migrator::new(copy.path()).await.expect("migrator");
    strikeline_store::with_db!(db, pool => migrator.run(pool).await.expect("earlier migrations"));
}

/// A user stored as the schema before the enum checks had them (later migrations add
/// columns the repository now reads, so they are written and read here by hand).
struct OldUser {
    id: String,
}

const OLD_USER_COLUMNS: &str = "id, email, username, subscription_plan, subscription_status, risk_tolerance, investment_capital_cents";

async fn old_user(db: &Db, name: &str) -> OldUser {
    let id = uuid::Uuid::new_v4().to_string();
    let sql = "INSERT INTO users (id, email, username, username_key, password_hash, subscription_plan, subscription_status, created_at, updated_at) \
               VALUES ($1, $2, $3, $4, '$argon2id$test', 'pro', 'trialing', $5, $6)";
    strikeline_store::with_db!(db, pool => {
        sqlx::query(sql).bind(&id).bind(format!("{name}@example.com")).bind(name).bind(name).bind(t0()).bind(t0()).execute(pool).await.expect("insert user");
    });
    OldUser { id }
}

async fn old_users(db: &Db) -> Vec<(String, String, String, String, String, String, i64)> {
    let sql = format!("SELECT {OLD_USER_COLUMNS} FROM users ORDER BY id");
    strikeline_store::with_db!(db, pool => sqlx::query_as(&sql).fetch_all(pool).await.expect("users"))
}

/// A signal stored as the schema before the enum checks had it.
async fn old_signal(db: &Db, s: &signals::SignalRow) {
    let sql = "INSERT INTO signals (id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents, \
        target_cents, stop_cents, underlying_entry_cents, volatility, confidence, reasoning, current_option_cents, current_price_cents, \
        previous_close_cents, pnl_cents, pnl_percent, status, owner_id, issued_on, created_at, updated_at) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)";
    strikeline_store::with_db!(db, pool => {
        sqlx::query(sql)
            .bind(&s.id).bind(&s.symbol).bind(&s.company_name).bind(&s.signal_type).bind(&s.strategy).bind(s.strike_cents)
            .bind(s.expiration_date).bind(s.entry_cents).bind(s.target_cents).bind(s.stop_cents).bind(s.underlying_entry_cents)
            .bind(s.volatility).bind(s.confidence).bind(&s.reasoning).bind(s.current_option_cents).bind(s.current_price_cents)
            .bind(s.previous_close_cents).bind(s.pnl_cents).bind(s.pnl_percent).bind(&s.status).bind(&s.owner_id)
            .bind(s.issued_on).bind(s.created_at).bind(s.updated_at)
            .execute(pool)
            .await
            .expect("insert signal");
    });
}

/// An automated position stored as the schema before trading accounts had it.
async fn old_automated(db: &Db, p: &AutomatedRow) {
    let sql = "INSERT INTO portfolio_positions (id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents, \
        opened_at, closed_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
    strikeline_store::with_db!(db, pool => {
        sqlx::query(sql)
            .bind(&p.id).bind(&p.user_id).bind(&p.signal_id).bind(p.quantity).bind(p.entry_cents).bind(p.commissions_cents)
            .bind(&p.status).bind(p.exit_cents).bind(p.opened_at).bind(p.closed_at).bind(p.updated_at)
            .execute(pool)
            .await
            .expect("insert position");
    });
}

/// A manual position stored as the schema before trading accounts had it.
async fn old_manual(db: &Db, p: &ManualRow) {
    let sql = "INSERT INTO manual_positions (id, user_id, symbol, company_name, position_type, strike_cents, expiration_date, quantity, \
        entry_cents, target_cents, stop_cents, reasoning, status, current_option_cents, current_price_cents, pnl_cents, pnl_percent, \
        closed_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)";
    strikeline_store::with_db!(db, pool => {
        sqlx::query(sql)
            .bind(&p.id).bind(&p.user_id).bind(&p.symbol).bind(&p.company_name).bind(&p.position_type).bind(p.strike_cents)
            .bind(p.expiration_date).bind(p.quantity).bind(p.entry_cents).bind(p.target_cents).bind(p.stop_cents).bind(&p.reasoning)
            .bind(&p.status).bind(p.current_option_cents).bind(p.current_price_cents).bind(p.pnl_cents).bind(p.pnl_percent)
            .bind(p.closed_at).bind(p.created_at).bind(p.updated_at)
            .execute(pool)
            .await
            .expect("insert manual position");
    });
}

type OldPosition = (String, String, String, i64, i64, i64, String, Option<i64>);

/// The automated positions as both schemas spell them.
async fn old_positions(db: &Db) -> Vec<OldPosition> {
    let sql =
        "SELECT id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents FROM portfolio_positions ORDER BY id";
    strikeline_store::with_db!(db, pool => sqlx::query_as(sql).fetch_all(pool).await.expect("positions"))
}

/// A daily value stored as the schema before trading accounts had it.
async fn old_snapshot(db: &Db, user_id: &str, day: chrono::NaiveDate, cents: i64) {
    strikeline_store::with_db!(db, pool => {
        sqlx::query("INSERT INTO portfolio_snapshots (user_id, day, value_cents, taken_at) VALUES ($1, $2, $3, $4)")
            .bind(user_id).bind(day).bind(cents).bind(t0())
            .execute(pool)
            .await
            .expect("insert snapshot");
    });
}

type OldSignal = (String, String, String, i64, i64, i64, String, Option<String>, Option<String>, i64, i64);

async fn old_signals(db: &Db) -> Vec<OldSignal> {
    let sql = "SELECT id, symbol, strategy, strike_cents, entry_cents, confidence, status, close_reason, owner_id, current_option_cents, pnl_cents \
        FROM signals ORDER BY id";
    strikeline_store::with_db!(db, pool => sqlx::query_as(sql).fetch_all(pool).await.expect("signals"))
}

async fn every_row_survives_the_enum_checks_migration(db: Db) {
    migrate_before_enum_checks(&db).await;
    let ada = old_user(&db, "ada").await;
    let bob = old_user(&db, "bob").await;
    let data = SessionData { user_id: ada.id.clone(), created_at: t0(), last_seen_at: t0(), user_agent: None, ip: None };
    sessions::insert(&db, "sid-ada", &data, t0() + Duration::hours(1)).await.expect("session");
    let today = day(2026, 3, 2);
    let automated = signal("AAPL", "Momentum", 80, today, t0(), None);
    let ended = signal("MSFT", "Breakout", 70, today, t0(), None);
    let on_demand = signal("NVDA", "Volatility", 55, today, t0(), Some(&bob.id));
    // Written by hand: issuing ranks the day, and this schema predates `day_rank` and the
    // columns later migrations add.
    for row in [&automated, &ended, &on_demand] {
        old_signal(&db, row).await;
    }
    let position = AutomatedRow {
        id: "pos-1".into(),
        user_id: ada.id.clone(),
        signal_id: ended.id.clone(),
        quantity: 2,
        entry_cents: 300,
        commissions_cents: 130,
        status: "open".into(),
        exit_cents: None,
        opened_at: t0(),
        closed_at: None,
        updated_at: t0(),
        // Not stored (the schema has no accounts yet); the migration gives it ada's first.
        account_id: String::new(),
    };
    old_automated(&db, &position).await;
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("UPDATE signals SET current_option_cents = 450, pnl_cents = 150, status = 'closed', close_reason = 'target', closed_at = $1 WHERE id = $2")
            .bind(t0() + Duration::hours(1))
            .bind(&ended.id)
            .execute(pool)
            .await
            .expect("close");
    });
    // Closed as the settlement of that time closed it (by hand: today's returns the account).
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("UPDATE portfolio_positions SET status = 'closed', exit_cents = 450, commissions_cents = commissions_cents + 130, \
                     closed_at = $1, updated_at = $1 WHERE id = 'pos-1'")
            .bind(t0() + Duration::hours(1))
            .execute(pool)
            .await
            .expect("close position");
    });
    let manual = ManualRow {
        id: "man-1".into(),
        user_id: bob.id.clone(),
        symbol: "TSLA".into(),
        company_name: "Tesla".into(),
        position_type: "STRADDLE".into(),
        strike_cents: 25_000,
        expiration_date: day(2026, 6, 19),
        quantity: 1,
        entry_cents: 4_200,
        target_cents: None,
        stop_cents: None,
        reasoning: None,
        status: "open".into(),
        current_option_cents: None,
        current_price_cents: None,
        pnl_cents: 0,
        pnl_percent: 0.0,
        closed_at: None,
        created_at: t0(),
        updated_at: t0(),
        account_id: String::new(),
    };
    old_manual(&db, &manual).await;
    old_snapshot(&db, &ada.id, today, 100_500).await;
    let stock = market::StockRow {
        id: "stock-1".into(),
        symbol: "AAPL".into(),
        company_name: "Apple".into(),
        sector: "Technology".into(),
        current_price_cents: 1,
        previous_close_cents: 1,
        volume: 1,
        high_52_week_cents: 1,
        low_52_week_cents: 1,
        market_cap: None,
        added_by: Some(ada.id.clone()),
        last_updated: t0(),
        created_at: t0(),
    };
    market::insert_stock(&db, &stock).await.expect("stock");

    let before_users = old_users(&db).await;
    assert_eq!(before_users.len(), 2);
    let before_signals = old_signals(&db).await;
    assert_eq!(before_signals.len(), 3);
    let before_positions = old_positions(&db).await;
    assert_eq!(before_positions.len(), 1);
    assert_eq!(before_positions[0].6, "closed");

    db.migrate().await.expect("the enum-checks migration applies over existing data");
    let ranks = (signals::day_rank(&db, &automated).await.expect("rank"), signals::day_rank(&db, &ended).await.expect("rank"));
    assert_eq!(ranks, (1, 2), "the read-path migration ranked the existing automated signals");
    assert_eq!(signals::day_rank(&db, &on_demand).await.expect("rank"), 0);

    assert_eq!(old_users(&db).await, before_users, "users kept");
    assert_eq!(old_signals(&db).await, before_signals, "signals kept");
    for id in [&automated.id, &ended.id, &on_demand.id] {
        let kept = signals::find(&db, id).await.expect("find").expect("stored");
        assert_eq!(kept.provenance, "unrecorded", "signals stored before the track record are labelled so");
    }
    assert_eq!(strikeline_store::ledger::size(&db).await.expect("size"), 0, "nothing is logged retroactively");
    assert!(sessions::find_live(&db, "sid-ada", t0()).await.expect("find").is_some(), "sessions were not cascaded away");
    // Each user's preferences and positions became their first account, "Main", current.
    let ada_accounts = trading_accounts::for_user(&db, &ada.id).await.expect("accounts");
    assert_eq!(ada_accounts.len(), 1, "one account each");
    let ada_main = &ada_accounts[0];
    assert_eq!((ada_main.name.as_str(), ada_main.is_current, ada_main.automate), ("Main", true, true));
    assert_eq!(
        (ada_main.investment_capital_cents, ada_main.risk_tolerance.as_str(), ada_main.max_position_size_cents),
        (100_000, "medium", 10_000),
        "the preferences the user had"
    );
    let bob_main = trading_accounts::current(&db, &bob.id).await.expect("bob's account");
    assert_eq!(users::find_by_id(&db, &ada.id).await.expect("find").expect("ada").account_id, ada_main.id);
    assert_eq!(old_positions(&db).await, before_positions, "automated position kept");
    let position = positions::find_automated(&db, &ada_main.id, "pos-1").await.expect("position in ada's account");
    assert_eq!(position.account_id, ada_main.id);
    assert!(positions::find_automated(&db, &bob_main.id, "pos-1").await.is_err(), "not in bob's");
    assert_eq!(
        positions::manual_for(&db, &bob_main.id).await.expect("manual"),
        [ManualRow { account_id: bob_main.id.clone(), ..manual }],
        "manual position kept, in bob's account"
    );
    assert_eq!(positions::value_history(&db, &ada_main.id).await.expect("history"), [(today, 100_500)], "snapshot kept");
    assert_eq!(
        market::find_stock(&db, "AAPL").await.expect("stock").expect("exists").added_by,
        Some(ada.id.clone()),
        "added_by not nulled"
    );

    // The rebuilt tables still do their jobs: uniqueness, the one-active-setup index, cascades.
    assert!(matches!(
        users::insert(&db, &crate::common::new_user("ada@example.com", "x")).await,
        Err(strikeline_store::StoreError::Conflict("email"))
    ));
    let duplicate = signal("AAPL", "Momentum", 90, today, t0(), None);
    assert!(signals::issue_automated(&db, &[duplicate]).await.expect("issue").is_empty(), "one active setup still enforced");
    assert!(
        !positions::open_automated(&db, &AutomatedRow { id: "pos-2".into(), ..position.clone() }).await.expect("open"),
        "one position per signal in an account"
    );
    assert!(users::set_subscription(&db, &ada.id, "gold", "active", None, t0()).await.is_err(), "checks in force");
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("DELETE FROM users WHERE id = $1").bind(&bob.id).execute(pool).await.expect("delete bob");
    });
    assert_eq!(signals::find(&db, &on_demand.id).await.expect("find"), None, "on-demand signals still cascade with their owner");
    assert!(positions::manual_for(&db, &bob_main.id).await.expect("manual").is_empty());
    assert!(trading_accounts::for_user(&db, &bob.id).await.expect("accounts").is_empty(), "accounts cascade with their owner");

    // The custom-signals migration rebuilt `signals` on SQLite: the positions still point at it
    // (deleting a signal takes its positions), and its new checks hold.
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("DELETE FROM signals WHERE id = $1").bind(&ended.id).execute(pool).await.expect("delete signal");
    });
    assert!(positions::find_automated(&db, &ada_main.id, "pos-1").await.is_err(), "the position went with its signal");
    let unowned_custom = signal("AMD", "Custom", 60, today, t0(), None);
    assert!(signals::issue_automated(&db, &[unowned_custom]).await.is_err(), "a custom strategy's signal has an owner");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_every_row_survives_the_enum_checks_migration() {
    let test_db = TestDb::sqlite_unmigrated().await;
    every_row_survives_the_enum_checks_migration(test_db.db.clone()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_every_row_survives_the_enum_checks_migration() {
    if let Some(test_db) = TestDb::postgres_unmigrated("strikeline_store_migration").await {
        every_row_survives_the_enum_checks_migration(test_db.db.clone()).await;
        test_db.db.close().await;
    }
}

/// Webhook endpoints, their outbox messages and attempts, audit entries and notifications
/// written before the order-execution migration are all there after it, and the rebuilt tables
/// still cascade and now take the new event types.
async fn webhooks_and_the_audit_log_survive_the_order_execution_migration(db: Db) {
    migrate_before(&db, ORDER_EXECUTION).await;
    let ada = old_user(&db, "ada").await;
    let at = t0();
    strikeline_store::with_db!(&db, pool => {
        for (sql, owned) in [
            ("INSERT INTO webhook_endpoints (id, user_id, url, event_type, secret, created_at) VALUES ('ep-1', $1, 'https://hooks.example.com', 'position_closed', 'whsec_x', $2)", true),
            ("INSERT INTO outbox (id, channel, user_id, endpoint_id, topic, payload, next_attempt_at, created_at) VALUES ('msg-1', 'webhook', $1, 'ep-1', 'position_closed', '{}', $2, $2)", true),
            ("INSERT INTO outbox (id, channel, user_id, topic, payload, next_attempt_at, created_at) VALUES ('mail-1', 'email', $1, 'billing', '{}', $2, $2)", true),
            ("INSERT INTO webhook_attempts (id, message_id, endpoint_id, attempted_at, status_code, latency_ms, succeeded) VALUES ('att-1', 'msg-1', 'ep-1', $1, 500, 12, FALSE)", false),
            ("INSERT INTO audit_events (id, user_id, action, detail, at) VALUES ('aud-1', $1, 'sign_in', 'x', $2)", true),
            ("INSERT INTO notifications (id, user_id, kind, title, body, created_at) VALUES ('n-1', $1, 'billing', 't', 'b', $2)", true),
        ] {
            let query = sqlx::query(sql);
            let query = if owned { query.bind(&ada.id).bind(at) } else { query.bind(at) };
            query.execute(pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    });
    db.migrate().await.expect("the order-execution migration applies over existing data");
    let count = |table: &'static str| {
        let db = db.clone();
        async move {
            let sql = format!("SELECT COUNT(*) FROM {table}");
            strikeline_store::with_db!(&db, pool => sqlx::query_scalar::<_, i64>(&sql).fetch_one(pool).await.expect("count"))
        }
    };
    for table in ["webhook_endpoints", "webhook_attempts", "audit_events", "notifications"] {
        assert_eq!(count(table).await, 1, "{table} kept");
    }
    assert_eq!(count("outbox").await, 2, "outbox kept");
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("UPDATE webhook_endpoints SET event_type = 'order_filled' WHERE id = 'ep-1'").execute(pool).await.expect("new event type");
        assert!(sqlx::query("UPDATE webhook_endpoints SET event_type = 'order_paid' WHERE id = 'ep-1'").execute(pool).await.is_err(), "checked");
        sqlx::query("INSERT INTO audit_events (id, user_id, action, at) VALUES ('aud-2', $1, 'order_filled', $2)")
            .bind(&ada.id).bind(at).execute(pool).await.expect("new audit action");
        sqlx::query("INSERT INTO notifications (id, user_id, kind, title, body, created_at) VALUES ('n-2', $1, 'order', 't', 'b', $2)")
            .bind(&ada.id).bind(at).execute(pool).await.expect("new notification kind");
        sqlx::query("DELETE FROM webhook_endpoints WHERE id = 'ep-1'").execute(pool).await.expect("delete endpoint");
    });
    assert_eq!(count("outbox").await, 1, "the endpoint's messages still go with it; the email stays");
    assert_eq!(count("webhook_attempts").await, 0, "and its attempts");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_webhooks_and_the_audit_log_survive_the_order_execution_migration() {
    let test_db = TestDb::sqlite_unmigrated().await;
    webhooks_and_the_audit_log_survive_the_order_execution_migration(test_db.db.clone()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_webhooks_and_the_audit_log_survive_the_order_execution_migration() {
    if let Some(test_db) = TestDb::postgres_unmigrated("strikeline_store_order_migration").await {
        webhooks_and_the_audit_log_survive_the_order_execution_migration(test_db.db.clone()).await;
        test_db.db.close().await;
    }
}
