use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};

use crate::StoreResult;

/// How long a PostgreSQL connection may sit idle in the pool before it is checked with a ping
/// when next taken.
const PING_IDLE_AFTER: Duration = Duration::from_secs(10);

/// Until when (milliseconds after [`since_start`]'s origin) every PostgreSQL connection taken
/// from a pool is pinged first: after the database was found unreachable, the pool may still
/// hold connections that broke, and each would otherwise fail one request.
static SUSPECT_UNTIL_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn since_start() -> u64 {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    u64::try_from(ORIGIN.get_or_init(std::time::Instant::now).elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Pings every pooled connection before use for `window` (the database was just unreachable:
/// connections that broke are found and replaced before a request gets them).
pub fn suspect_connections(window: Duration) {
    let until = since_start().saturating_add(u64::try_from(window.as_millis()).unwrap_or(u64::MAX));
    SUSPECT_UNTIL_MS.fetch_max(until, std::sync::atomic::Ordering::AcqRel);
}

fn connections_suspect() -> bool {
    since_start() < SUSPECT_UNTIL_MS.load(std::sync::atomic::Ordering::Acquire)
}

/// A connection pool on one of the two supported engines.
#[derive(Clone, Debug)]
pub enum Db {
    /// Embedded SQLite (WAL mode, foreign keys on).
    Sqlite(SqlitePool),
    /// PostgreSQL, chosen by a `postgres://` URL.
    Postgres(PgPool),
}

/// Which engine a [`Db`] runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// Inside an open transaction `$tx` of a function answering `StoreResult<bool>`: locks the
/// user's row (PostgreSQL locks it, SQLite takes the database's write lock), counts what the
/// user holds with `$count_sql` (`$1` = the user id) and, when `$max` are held already, rolls
/// back and returns `Ok(false)`. What follows in the transaction is within the cap, however
/// many requests race.
#[macro_export]
macro_rules! return_if_at_cap {
    ($tx:ident, $user_id:expr, $count_sql:expr, $max:expr) => {{
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind($user_id).execute(&mut *$tx).await?;
        let held: i64 = sqlx::query_scalar($count_sql).bind($user_id).fetch_one(&mut *$tx).await?;
        if held >= i64::from($max) {
            $tx.rollback().await?;
            return Ok(false);
        }
    }};
}

/// Expands `$body` once per engine with `$pool` bound to that engine's pool.
#[macro_export]
macro_rules! with_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::Db::Sqlite($pool) => $body,
            $crate::Db::Postgres($pool) => $body,
        }
    };
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
pub(crate) static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The newest migration this build knows (the same on both engines): a database migrated
/// further was made by a newer Strikeline.
pub fn migrations_known() -> i64 {
    SQLITE_MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0)
}

impl Db {
    /// Connects to `url` (`sqlite://path` or `postgres://…`), creating an SQLite file if needed.
    pub async fn connect(url: &str) -> StoreResult<Db> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)?;
            // A connection in steady use is not pinged before each query (sqlx's default):
            // the ping is a round trip to the server, as costly as a small read. One that sat
            // idle for a while is, so a database restart costs no failed request.
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .test_before_acquire(false)
                .before_acquire(|conn, meta| {
                    Box::pin(async move {
                        if meta.idle_for >= PING_IDLE_AFTER || connections_suspect() {
                            sqlx::Connection::ping(conn).await?;
                        }
                        Ok(true)
                    })
                })
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options)
                .await?;
            Ok(Db::Postgres(pool))
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5));
            // An embedded database cannot hang up, so a connection taken from the pool is not
            // pinged first: that ping is a round trip to the connection's worker thread and,
            // on a read of one small row, about a third of the query's cost.
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .test_before_acquire(false)
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options)
                .await?;
            Ok(Db::Sqlite(pool))
        } else {
            Err(sqlx::Error::Configuration(
                format!("unsupported database URL scheme in {:?}; use sqlite:// or postgres://", redact(url)).into(),
            )
            .into())
        }
    }

    /// The SQLite URL for a database file in `data_dir`.
    pub fn sqlite_url_in(data_dir: &Path) -> String {
        format!("sqlite://{}", data_dir.join("strikeline.db").display())
    }

    /// Applies every migration not yet applied.
    pub async fn migrate(&self) -> StoreResult<()> {
        match self {
            Db::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Db::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        Ok(())
    }

    /// After a bulk load on PostgreSQL, refreshes what its planner knows (`ANALYZE`: row
    /// counts and value spreads) and the visibility map that lets an index answer without
    /// visiting the table (`VACUUM`); a server with autovacuum on does this by itself in time,
    /// a freshly loaded database has not had that time. SQLite is left alone: its planner
    /// needs no statistics for the read path's index lookups, and statistics taken now (an
    /// empty `sessions` table) would steer it to scans once that table has grown.
    pub async fn refresh_statistics(&self) -> StoreResult<()> {
        if let Db::Postgres(pool) = self {
            sqlx::query("VACUUM (ANALYZE)").execute(pool).await?;
        }
        Ok(())
    }

    /// Succeeds when the database answers a trivial query.
    pub async fn ping(&self) -> StoreResult<()> {
        with_db!(self, pool => { sqlx::query("SELECT 1").execute(pool).await?; });
        Ok(())
    }

    /// The engine behind this pool.
    pub fn engine(&self) -> Engine {
        match self {
            Db::Sqlite(_) => Engine::Sqlite,
            Db::Postgres(_) => Engine::Postgres,
        }
    }

    /// Closes every connection; later queries fail.
    /// The pool's connections: open, idle, and its bound.
    pub fn pool_stats(&self) -> (u32, u32, u32) {
        with_db!(self, pool => (pool.size(), u32::try_from(pool.num_idle()).unwrap_or(u32::MAX), pool.options().get_max_connections()))
    }

    pub async fn close(&self) {
        with_db!(self, pool => pool.close().await);
    }
}

/// A database URL with any password replaced, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{}:[redacted]{}", &url[..scheme_end + 3], user, &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// How a statement spells its placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placeholders {
    /// `$1, $2, …`: what PostgreSQL needs.
    Numbered,
    /// `?, ?, …`: bound in order. SQLite looks a named or numbered placeholder (`$1`) up in a
    /// list when it parses the statement and again for each value sqlx binds, so thousands of
    /// them in one statement cost time quadratic in their number; plain `?` costs nothing.
    Anonymous,
}

impl Placeholders {
    pub(crate) fn of(db: &Db) -> Placeholders {
        match db.engine() {
            Engine::Postgres => Placeholders::Numbered,
            Engine::Sqlite => Placeholders::Anonymous,
        }
    }

    /// Appends the placeholder of the statement's `index`th value (counting from 1).
    pub(crate) fn push(self, sql: &mut String, index: usize) {
        match self {
            Placeholders::Numbered => {
                sql.push('$');
                sql.push_str(&index.to_string());
            }
            Placeholders::Anonymous => sql.push('?'),
        }
    }
}

/// How many columns a comma-separated column list names.
pub(crate) fn column_count(columns: &str) -> usize {
    columns.split(',').count()
}

/// `INSERT INTO table (columns) VALUES ($1, …), (…), …` for `rows` rows.
pub(crate) fn insert_sql(table: &str, columns: &str, rows: usize, style: Placeholders) -> String {
    let n = column_count(columns);
    let mut sql = String::with_capacity(64 + rows * n * 7);
    sql.push_str("INSERT INTO ");
    sql.push_str(table);
    sql.push_str(" (");
    sql.push_str(columns);
    sql.push_str(") VALUES ");
    let mut param = 0;
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..n {
            if column > 0 {
                sql.push_str(", ");
            }
            param += 1;
            style.push(&mut sql, param);
        }
        sql.push(')');
    }
    sql
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_redacted_from_urls() {
        assert_eq!(redact("postgres://app:s3cret@db:5432/x"), "postgres://app:[redacted]@db:5432/x");
        assert_eq!(redact("postgres://app@db/x"), "postgres://app@db/x");
        assert_eq!(redact("sqlite://data/x.db"), "sqlite://data/x.db");
    }
}
