//! Test databases and sample rows shared by the store's and the server's tests (feature
//! `test-support`; never in the server binary).
//!
//! PostgreSQL databases are made from `STRIKELINE_TEST_PG_URL` (default
//! `postgres://postgres@127.0.0.1:5432`), one per test, dropped afterwards. Migrated ones are
//! copies of a template migrated once per set of migrations (`strikeline_tpl_<fingerprint>`),
//! so a test pays for a file copy, not for every migration. When PostgreSQL cannot be reached
//! the tests are skipped with a notice, unless `STRIKELINE_REQUIRE_PG=1` (set by CI), where that
//! is a failure.

use std::hash::{Hash, Hasher};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use sqlx::Connection;

use crate::Db;
use crate::signals::SignalRow;

pub fn pg_base() -> String {
    std::env::var("STRIKELINE_TEST_PG_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

pub fn pg_required() -> bool {
    std::env::var("STRIKELINE_REQUIRE_PG").is_ok_and(|v| v == "1" || v == "true")
}

/// The template's name: changes whenever a PostgreSQL migration is added or edited.
fn template_name() -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for migration in crate::db::POSTGRES_MIGRATIONS.iter() {
        migration.version.hash(&mut hasher);
        migration.checksum.hash(&mut hasher);
    }
    format!("strikeline_tpl_{:016x}", hasher.finish())
}

/// Makes the migrated template unless it exists. Built under another name and renamed when
/// complete, so a template that exists is whole; an advisory lock keeps two test processes
/// from building it at once.
async fn ensure_template(admin: &mut sqlx::PgConnection) -> Result<String, String> {
    let name = template_name();
    let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_optional(&mut *admin)
        .await
        .map_err(|e| e.to_string())?;
    if found.is_some() {
        return Ok(name);
    }
    sqlx::query("SELECT pg_advisory_lock(727001)").execute(&mut *admin).await.map_err(|e| e.to_string())?;
    let built = async {
        let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
            .bind(&name)
            .fetch_optional(&mut *admin)
            .await
            .map_err(|e| e.to_string())?;
        if found.is_some() {
            return Ok(());
        }
        // Under PostgreSQL's 63-byte limit on names (a longer one is silently cut, and then
        // matches nothing in `pg_stat_activity`).
        let building = format!("{name}_b{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        sqlx::query(&format!("CREATE DATABASE \"{building}\"")).execute(&mut *admin).await.map_err(|e| e.to_string())?;
        let db = Db::connect(&format!("{}/{building}", pg_base())).await.map_err(|e| e.to_string())?;
        let migrated = db.migrate().await.map_err(|e| e.to_string());
        db.close().await;
        migrated?;
        rename_when_free(&mut *admin, &building, &name).await
    }
    .await;
    sqlx::query("SELECT pg_advisory_unlock(727001)").execute(&mut *admin).await.map_err(|e| e.to_string())?;
    built.map(|()| name)
}

/// Renames `from` to `to` once no session is left on it. A closed pool's server processes end
/// a moment after the client lets go, and until then PostgreSQL refuses the rename ("being
/// accessed by other users", after waiting up to 5 s itself). A pooled connection can also
/// outlive `close()` (one still being handed back when the pool closed): the database is only
/// ever ours, so any session left on it is ended first.
async fn rename_when_free(admin: &mut sqlx::PgConnection, from: &str, to: &str) -> Result<(), String> {
    let mut attempts = 0;
    loop {
        sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()")
            .bind(from)
            .execute(&mut *admin)
            .await
            .map_err(|e| e.to_string())?;
        match sqlx::query(&format!("ALTER DATABASE \"{from}\" RENAME TO \"{to}\"")).execute(&mut *admin).await {
            Ok(_) => return Ok(()),
            Err(error) if attempts < 200 && error.to_string().contains("being accessed by other users") => {
                attempts += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(error) => return Err(error.to_string()),
        }
    }
}

/// Creates an empty (or, with `migrated`, a fully migrated) PostgreSQL database named after
/// `prefix`: its URL and name, or why it cannot be made.
pub async fn create_pg_database(prefix: &str, migrated: bool) -> Result<(String, String), String> {
    let admin_url = format!("{}/postgres", pg_base());
    let mut admin = sqlx::PgConnection::connect(&admin_url).await.map_err(|e| format!("{admin_url}: {e}"))?;
    let name = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
    let template = if migrated { format!(" TEMPLATE \"{}\"", ensure_template(&mut admin).await?) } else { String::new() };
    sqlx::query(&format!("CREATE DATABASE \"{name}\"{template}")).execute(&mut admin).await.map_err(|e| e.to_string())?;
    admin.close().await.ok();
    Ok((format!("{}/{name}", pg_base()), name))
}

/// Drops a test database. Usable from `Drop`, which cannot await: a thread of its own with a
/// runtime of its own. `WITH (FORCE)` ends any connection still open.
pub fn drop_pg_database(name: String) {
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

/// A database that cleans up after itself: the SQLite file lives in a temporary directory; the
/// PostgreSQL database is dropped when this is.
pub struct TestDb {
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
    pg_database: Option<String>,
}

impl TestDb {
    /// A fresh, migrated SQLite database in a temporary directory.
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

    /// A fresh, migrated PostgreSQL database; `None` only when PostgreSQL is unreachable and
    /// not required.
    pub async fn postgres(prefix: &str) -> Option<TestDb> {
        TestDb::postgres_with(prefix, true).await
    }

    /// A fresh, empty PostgreSQL database (no migrations applied); `None` as for
    /// [`postgres`](Self::postgres).
    pub async fn postgres_unmigrated(prefix: &str) -> Option<TestDb> {
        TestDb::postgres_with(prefix, false).await
    }

    async fn postgres_with(prefix: &str, migrated: bool) -> Option<TestDb> {
        let (url, name) = match create_pg_database(prefix, migrated).await {
            Ok(made) => made,
            Err(why) if !pg_required() => {
                eprintln!("SKIPPED: PostgreSQL is not reachable ({why}); set STRIKELINE_REQUIRE_PG=1 to fail instead");
                return None;
            }
            Err(why) => panic!("PostgreSQL is required (STRIKELINE_REQUIRE_PG=1) but not reachable: {why}"),
        };
        match Db::connect(&url).await {
            // From here on, Drop removes the database, also when the test panics.
            Ok(db) => Some(TestDb { db, _dir: None, pg_database: Some(name) }),
            Err(err) => {
                drop_pg_database(name);
                panic!("connecting to the test database: {err}");
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(name) = self.pg_database.take() {
            drop_pg_database(name);
        }
    }
}

/// An active CALL signal as the engine issues it: automated when `owner` is `None`; it expires
/// 30 days after `issued_on`.
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
        provenance: "live".into(),
        slippage_bp: 100,
        commission_cents: 65,
        issue_probability: Some(0.42),
        net_pnl_cents: None,
        model_probability: None,
        model_version: None,
        model_why: None,
        custom_strategy_id: None,
        close_after: None,
    }
}
