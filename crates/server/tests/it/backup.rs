//! `strikeline backup` and `strikeline restore` (issue 26, item 3): a seeded database backed up
//! while the server runs and restored elsewhere holds every row of every table; a restore
//! never overwrites a database unasked, and a damaged file changes nothing.

use strikeline_server::cli::backup::{backup, restore, sqlite_path};
use strikeline_server::cli::seed::{self, Scale};
use strikeline_store::Db;

use crate::common::{Engine, TestApp};

/// A running app on `engine` over a seeded database (50 users, their signals, positions,
/// values), or `None` without PostgreSQL when it is not required.
async fn seeded(engine: Engine) -> Option<TestApp> {
    let app = TestApp::spawn(engine).await?;
    seed::seed(app.db(), &app.state.config, Scale::Small, app.now()).await.expect("seed");
    Some(app)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sqlite_backup_taken_while_serving_restores_every_row() {
    let app = seeded(Engine::Sqlite).await.expect("sqlite app");
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("strikeline-backup.db");
    let taken = backup(&app.database_url, &file).await.expect("backup");
    let rows = |table: &str| taken.tables.iter().find(|(t, _)| t == table).map(|(_, n)| *n).unwrap_or(0);
    assert!(rows("users") >= 50 && rows("signals") > 0 && rows("manual_positions") > 0, "{taken}");
    assert!(backup(&app.database_url, &file).await.is_err(), "a backup never overwrites a file");

    // Restored into another data directory: the same tables and counts, and the same rows.
    let target = dir.path().join("restored").join("strikeline.db");
    let url = format!("sqlite://{}", target.display());
    let restored = restore(&url, &file, false, app.now()).await.expect("restore");
    assert_eq!(restored, taken);
    let original = sqlite_path(&app.database_url).expect("path");
    let Db::Sqlite(pool) = Db::connect(&format!("sqlite://{}", original.display())).await.expect("open") else { unreachable!() };
    let mut conn = pool.acquire().await.expect("conn");
    sqlx::query("ATTACH DATABASE $1 AS restored").bind(target.to_str().expect("utf-8")).execute(&mut *conn).await.expect("attach");
    for (table, _) in &taken.tables {
        for (a, b) in [("main", "restored"), ("restored", "main")] {
            let sql = format!("SELECT COUNT(*) FROM (SELECT * FROM {a}.\"{table}\" EXCEPT SELECT * FROM {b}.\"{table}\")");
            let differing: i64 = sqlx::query_scalar(&sql).fetch_one(&mut *conn).await.expect("compare");
            assert_eq!(differing, 0, "{table}: rows of {a} missing from {b}");
        }
    }
    drop(conn);

    // Not over an existing database unasked; with --force, the one it replaces is kept.
    let refused = restore(&url, &file, false, app.now()).await.expect_err("exists");
    assert!(refused.to_string().contains("--force"), "{refused}");
    restore(&url, &file, true, app.now()).await.expect("forced restore");
    let kept: Vec<_> = std::fs::read_dir(target.parent().expect("dir"))
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("before-restore") && !name.ends_with("-wal") && !name.ends_with("-shm"))
        .collect();
    assert_eq!(kept.len(), 1, "the replaced database is kept beside it (with its WAL files): {kept:?}");

    // A damaged backup is refused before anything is touched.
    let damaged = dir.path().join("damaged.db");
    let mut bytes = std::fs::read(&file).expect("read");
    let middle = bytes.len() / 2;
    bytes.truncate(middle);
    std::fs::write(&damaged, &bytes).expect("write");
    assert!(restore(&url, &damaged, true, app.now()).await.is_err(), "a truncated file is not a backup");
    let garbage = dir.path().join("garbage.db");
    std::fs::write(&garbage, b"not a database at all").expect("write");
    assert!(restore(&url, &garbage, true, app.now()).await.is_err());
    let after = restore(&url, &file, true, app.now()).await.expect("still restorable");
    assert_eq!(after, taken, "the failed restores left the database as it was");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_dump_restores_every_row_into_an_empty_database() {
    let Some(app) = seeded(Engine::Postgres).await else { return };
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("strikeline.dump");
    let taken = backup(&app.database_url, &file).await.expect("pg_dump backup");
    assert!(taken.tables.iter().any(|(t, n)| t == "users" && *n >= 50), "{taken}");

    let (url, name) = strikeline_store::test_support::create_pg_database("strikeline_restore", false).await.expect("empty database");
    let restored = restore(&url, &file, false, app.now()).await.expect("pg_restore");
    assert_eq!(restored, taken);
    // Every row: a digest of each table's rows, in one order, on both sides.
    let before = digest(&app.database_url, &taken.tables).await;
    let after = digest(&url, &taken.tables).await;
    assert_eq!(before, after);
    let refused = restore(&url, &file, false, app.now()).await.expect_err("holds accounts now");
    assert!(refused.to_string().contains("--force"), "{refused}");
    strikeline_store::test_support::drop_pg_database(name);
}

/// A digest of every row of each of `tables` in the PostgreSQL database at `url`.
async fn digest(url: &str, tables: &[(String, i64)]) -> Vec<(String, String)> {
    let Db::Postgres(pool) = Db::connect(url).await.expect("connect") else { unreachable!() };
    let mut digests = Vec::new();
    for (table, _) in tables {
        let sql = format!("SELECT COALESCE(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM \"{table}\" t");
        digests.push((table.clone(), sqlx::query_scalar::<_, String>(&sql).fetch_one(&pool).await.expect("digest")));
    }
    pool.close().await;
    digests
}
