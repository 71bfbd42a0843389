//! `strikeline backup FILE` and `strikeline restore FILE` (docs/reliability.md, "Backups and restore").
//!
//! - SQLite: the backup is `VACUUM INTO`, a consistent copy taken inside one read transaction
//!   while the server keeps serving; it is checked (`PRAGMA integrity_check`) before it is
//!   called done. A restore checks the file the same way, refuses one made by a newer
//!   Strikeline (migrations this binary does not know), keeps the database it replaces beside
//!   it, and moves the copy into place with a rename, so a crash midway leaves either the old
//!   database or the new one.
//! - PostgreSQL: `pg_dump --format=custom` (checked by `pg_restore --list`), restored with
//!   `pg_restore --single-transaction`, so a failed restore changes nothing.
//!
//! Either way the summary lists every table with its row count, for the operator to compare.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail, ensure};
use chrono::{DateTime, Utc};
use strikeline_store::Db;

/// Every table and its rows, in name order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub tables: Vec<(String, i64)>,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (table, rows) in &self.tables {
            writeln!(f, "  {table}: {rows} rows")?;
        }
        Ok(())
    }
}

/// The file of an SQLite URL (`sqlite://path`, `sqlite:path`, with or without `?options`).
pub fn sqlite_path(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// The tables of an SQLite database, the migrations' own bookkeeping included.
const SQLITE_TABLES: &str = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name";
/// The tables of a PostgreSQL database.
const POSTGRES_TABLES: &str = "SELECT tablename::TEXT FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename";

/// Every table `$list` names on the connection `$conn` (a `&mut` one of either engine), with
/// its row count: one body for both engines' connection types.
macro_rules! count_tables {
    ($conn:expr, $list:expr) => {{
        let conn = $conn;
        let names: Vec<String> = sqlx::query_scalar($list).fetch_all(&mut *conn).await?;
        let mut tables = Vec::with_capacity(names.len());
        for name in names {
            let sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM \"{}\"", name.replace('"', "\"\""));
            let rows: i64 = sqlx::query_scalar(&sql).fetch_one(&mut *conn).await?;
            tables.push((name, rows));
        }
        Summary { tables }
    }};
}

/// Every table of `db` with its row count.
pub async fn summary(db: &Db) -> anyhow::Result<Summary> {
    Ok(match db {
        Db::Sqlite(pool) => count_tables!(&mut *pool.acquire().await?, SQLITE_TABLES),
        Db::Postgres(pool) => count_tables!(&mut *pool.acquire().await?, POSTGRES_TABLES),
    })
}

/// An SQLite file, opened read-only and checked: `integrity_check` answers ok. Its newest
/// migration, and the summary of its tables.
async fn checked_sqlite(file: &Path) -> anyhow::Result<(Option<i64>, Summary)> {
    use sqlx::Connection;
    ensure!(file.is_file(), "{} is not a file", file.display());
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(file).read_only(true);
    let mut conn = sqlx::SqliteConnection::connect_with(&options).await.with_context(|| format!("opening {}", file.display()))?;
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut conn).await.context("not an SQLite database")?;
    ensure!(verdict == "ok", "{} fails SQLite's integrity check: {verdict}", file.display());
    let newest: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations").fetch_one(&mut conn).await.context("not a Strikeline database")?;
    let summary = count_tables!(&mut conn, SQLITE_TABLES);
    conn.close().await.ok();
    Ok((newest, summary))
}

/// Backs the database at `url` up to `file`, which must not exist.
pub async fn backup(url: &str, file: &Path) -> anyhow::Result<Summary> {
    ensure!(!file.exists(), "{} already exists: choose a new file, a backup never overwrites one", file.display());
    if is_postgres(url) {
        run(Command::new("pg_dump").args(["--format=custom", "--no-owner", "--file"]).arg(file).arg(url), "pg_dump")?;
        run(Command::new("pg_restore").arg("--list").arg(file), "pg_restore --list (checking the dump)")?;
        let db = Db::connect(url).await?;
        let taken = summary(&db).await;
        db.close().await;
        return taken;
    }
    let source = sqlite_path(url).with_context(|| format!("not a database file: {}", strikeline_store::redact(url)))?;
    ensure!(source.is_file(), "no database at {}", source.display());
    let db = Db::connect(url).await?;
    let Db::Sqlite(pool) = &db else { bail!("not an SQLite database") };
    let target = file.to_str().context("the backup's path is not UTF-8")?;
    sqlx::query("VACUUM INTO $1").bind(target).execute(pool).await.with_context(|| format!("writing {}", file.display()))?;
    db.close().await;
    Ok(checked_sqlite(file).await?.1)
}

/// Restores `file` into the database at `url`. An existing database with accounts is replaced
/// only with `force` (an SQLite one is kept beside it as `….before-restore-<time>`). The
/// restored database is migrated to this binary's schema. Stop the server first.
pub async fn restore(url: &str, file: &Path, force: bool, now: DateTime<Utc>) -> anyhow::Result<Summary> {
    ensure!(file.is_file(), "{} is not a file", file.display());
    if is_postgres(url) {
        run(Command::new("pg_restore").arg("--list").arg(file), "pg_restore --list (checking the dump)")?;
        let db = Db::connect(url).await?;
        let has_accounts = match &db {
            Db::Postgres(pool) => {
                let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = 'users'")
                    .fetch_optional(pool)
                    .await?;
                found.is_some() && sqlx::query_scalar::<_, i64>("SELECT CAST(COUNT(*) AS BIGINT) FROM users").fetch_one(pool).await? > 0
            }
            Db::Sqlite(_) => false,
        };
        db.close().await;
        ensure!(!has_accounts || force, "the database already holds accounts: pass --force to replace it with the backup");
        run(
            Command::new("pg_restore")
                .args(["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", "--dbname"])
                .arg(url)
                .arg(file),
            "pg_restore",
        )?;
        return migrated_summary(url).await;
    }
    let target = sqlite_path(url).with_context(|| format!("not a database file: {}", strikeline_store::redact(url)))?;
    let (newest_in_backup, _) = checked_sqlite(file).await?;
    let newest_known = strikeline_store::migrations_known();
    ensure!(
        newest_in_backup.is_some_and(|v| v <= newest_known),
        "the backup was made by a newer Strikeline (migration {} > {newest_known}): restore it with that version",
        newest_in_backup.unwrap_or_default()
    );
    if target.exists() {
        ensure!(force, "{} exists: pass --force to replace it (it is kept beside the restored one)", target.display());
    }
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // Copy beside the target, flush it to disk, then swap names.
    let incoming = target.with_extension("db.restoring");
    std::fs::copy(file, &incoming).with_context(|| format!("copying {} to {}", file.display(), incoming.display()))?;
    std::fs::File::open(&incoming)?.sync_all()?;
    if target.exists() {
        let kept = target.with_extension(format!("db.before-restore-{}", now.format("%Y%m%dT%H%M%SZ")));
        std::fs::rename(&target, &kept).with_context(|| format!("keeping the current database as {}", kept.display()))?;
        for side in ["-wal", "-shm"] {
            let mut old = target.clone().into_os_string();
            old.push(side);
            let old = PathBuf::from(old);
            if old.exists() {
                let mut moved = kept.clone().into_os_string();
                moved.push(side);
                std::fs::rename(&old, PathBuf::from(moved))?;
            }
        }
        println!("the database it replaces is kept as {}", kept.display());
    }
    std::fs::rename(&incoming, &target).with_context(|| format!("moving the backup into {}", target.display()))?;
    migrated_summary(url).await
}

async fn migrated_summary(url: &str) -> anyhow::Result<Summary> {
    let db = Db::connect(url).await?;
    db.migrate().await.context("applying this version's migrations to the restored database")?;
    let restored = summary(&db).await;
    db.close().await;
    restored
}

fn run(command: &mut Command, what: &str) -> anyhow::Result<()> {
    let output = command.output().with_context(|| format!("running {what} (is the PostgreSQL client installed?)"))?;
    ensure!(output.status.success(), "{what} failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    Ok(())
}
