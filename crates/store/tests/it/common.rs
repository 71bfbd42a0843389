//! A fresh, migrated database per story, on either engine.
//!
//! PostgreSQL stories use `STRIKELINE_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432`)
//! and create one database each, dropped afterwards. When PostgreSQL cannot be reached they are
//! skipped with a notice, unless `STRIKELINE_REQUIRE_PG=1` (set by CI), where that is a failure.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use sqlx::Connection;
use strikeline_store::Db;
use strikeline_store::signals::SignalRow;
use strikeline_store::users::{self, NewUser, UserRecord};

pub fn pg_base() -> String {
    std::env::var("STRIKELINE_TEST_PG_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

pub fn pg_required() -> bool {
    std::env::var("STRIKELINE_REQUIRE_PG").is_ok_and(|v| v == "1" || v == "true")
}

/// A migrated database that cleans up after itself: the SQLite file lives in a temporary
/// directory; the PostgreSQL database is dropped when this is.
pub struct TestDb {
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
    pg_database: Option<String>,
}

impl TestDb {
    /// A fresh SQLite database in a temporary directory.
    pub async fn sqlite() -> TestDb {
        let test_db = TestDb::sqlite_unmigrated().await;
        test_db.db.migrate().await.expect("sqlite migrations");
        test_db
    }

    /// A fresh, empty SQLite database (no migrations applied).
    pub async fn sqlite_unmigrated() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Db::connect(&Db::sqlite_url_in(dir.path())).await.expect("sqlite");
        TestDb { db, _dir: Some(dir), pg_database: None }
    }

    /// A fresh PostgreSQL database; `None` only when PostgreSQL is unreachable and not required.
    pub async fn postgres(prefix: &str) -> Option<TestDb> {
        let test_db = TestDb::postgres_unmigrated(prefix).await?;
        test_db.db.migrate().await.expect("postgres migrations");
        Some(test_db)
    }

    /// A fresh, empty PostgreSQL database (no migrations applied); `None` as for [`postgres`](Self::postgres).
    pub async fn postgres_unmigrated(prefix: &str) -> Option<TestDb> {
        let admin_url = format!("{}/postgres", pg_base());
        let mut admin = match sqlx::PgConnection::connect(&admin_url).await {
            Ok(conn) => conn,
            Err(err) if !pg_required() => {
                eprintln!("SKIPPED: PostgreSQL is not reachable ({err}); set STRIKELINE_REQUIRE_PG=1 to fail instead");
                return None;
            }
            Err(err) => panic!("PostgreSQL is required (STRIKELINE_REQUIRE_PG=1) but not reachable: {err}"),
        };
        let name = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
        sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&mut admin).await.expect("create database");
        admin.close().await.ok();
        let db = match Db::connect(&format!("{}/{name}", pg_base())).await {
            Ok(db) => db,
            Err(err) => {
                drop_pg_database(name);
                panic!("connecting to the test database: {err}");
            }
        };
        // From here on, Drop removes the database, also when the story panics.
        Some(TestDb { db, _dir: None, pg_database: Some(name) })
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(name) = self.pg_database.take() {
            drop_pg_database(name);
        }
    }
}

/// Drops a test database. Usable from `Drop`, which cannot await: a thread of its own with a
/// runtime of its own. `WITH (FORCE)` ends any connection still open.
fn drop_pg_database(name: String) {
    let admin_url = format!("{}/postgres", pg_base());
    let _ = std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        runtime.block_on(async move {
            if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url).await {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).execute(&mut conn).await;
            }
        });
    })
    .join();
}

/// Runs each listed `async fn(Db)` once on SQLite and once on PostgreSQL, each on a fresh database.
#[macro_export]
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let test_db = $crate::common::TestDb::sqlite().await;
                    super::$name(test_db.db.clone()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(test_db) = $crate::common::TestDb::postgres("strikeline_store_test").await {
                        super::$name(test_db.db.clone()).await;
                        test_db.db.close().await;
                    }
                }
            )*
        }
    };
}

/// A fixed instant, whole seconds, so what is stored reads back equal on both engines.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 15, 0, 0).single().expect("valid instant")
}

pub fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("valid day")
}

/// Registration as the server does it: Pro on trial.
pub fn new_user(email: &str, username: &str) -> NewUser {
    NewUser {
        id: uuid::Uuid::new_v4().to_string(),
        email: email.into(),
        username: username.into(),
        password_hash: "$argon2id$test".into(),
        first_name: Some("Ada".into()),
        last_name: None,
        subscription_plan: "pro".into(),
        subscription_status: "trialing".into(),
        subscription_expires_at: Some(t0() + Duration::days(14)),
        created_at: t0(),
    }
}

/// Inserts a user named after `name` (`{name}@example.com`).
pub async fn user(db: &Db, name: &str) -> UserRecord {
    users::insert(db, &new_user(&format!("{name}@example.com"), name)).await.expect("insert user")
}

/// An active signal as the engine issues it: automated when `owner` is `None`.
pub fn signal(
    symbol: &str,
    strategy: &str,
    confidence: i64,
    issued_on: NaiveDate,
    created_at: DateTime<Utc>,
    owner: Option<&str>,
) -> SignalRow {
    SignalRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: symbol.into(),
        company_name: format!("{symbol} Inc."),
        signal_type: "CALL".into(),
        strategy: strategy.into(),
        strike_cents: 10_000,
        expiration_date: issued_on + Duration::days(30),
        entry_cents: 300,
        target_cents: 450,
        stop_cents: 200,
        underlying_entry_cents: 9_900,
        volatility: 0.3,
        confidence,
        rsi: Some(55.0),
        volume: Some(1_000_000),
        reasoning: "test".into(),
        current_option_cents: 300,
        current_price_cents: 9_900,
        previous_close_cents: 9_800,
        pnl_cents: 0,
        pnl_percent: 0.0,
        status: "active".into(),
        close_reason: None,
        closed_at: None,
        owner_id: owner.map(str::to_owned),
        issued_on,
        created_at,
        updated_at: created_at,
    }
}
