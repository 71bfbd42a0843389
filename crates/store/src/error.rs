/// Result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// What can go wrong in the store, as the layers above need to tell it apart.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row asked for does not exist (or does not belong to the caller).
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was broken; the value names the user-facing field (`email`, `username`).
    #[error("{0} is already taken")]
    Conflict(&'static str),
    /// The database could not be reached or answered with an error.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// Each unique constraint that users can run into, with the field it protects. PostgreSQL
/// reports the constraint name; SQLite reports `table.column` in its message. Map it once here.
const UNIQUE_CONSTRAINTS: &[(&str, &str, &str)] = &[
    ("users_email_key", "users.email", "email"),
    ("users_username_key", "users.username_key", "username"),
    ("stock_prices_symbol_key", "stock_prices.symbol", "symbol"),
    ("custom_strategies_user_id_name_key", "custom_strategies.name", "name"),
    ("trading_accounts_name_key", "trading_accounts.name_key", "name"),
];

impl StoreError {
    /// Whether trying again shortly may succeed: the connection broke or could not be made
    /// (a restart, a killed session, a network drop), the pool had no connection in time, the
    /// server is shutting down or starting, or the transaction lost a deadlock or a
    /// serialisation race. Nothing about the request itself was wrong.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Database(err) => match err {
                sqlx::Error::Io(_)
                | sqlx::Error::Tls(_)
                | sqlx::Error::Protocol(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::WorkerCrashed => true,
                sqlx::Error::Database(db) => db.code().is_some_and(|code| transient_code(&code)),
                _ => false,
            },
            _ => false,
        }
    }

    /// Turns a driver error into [`StoreError::Conflict`] when it is a known uniqueness violation.
    pub(crate) fn from_write(err: sqlx::Error) -> Self {
        if let sqlx::Error::Database(db) = &err
            && db.is_unique_violation()
        {
            let constraint = db.constraint().unwrap_or_default();
            let message = db.message();
            for (pg_name, sqlite_column, field) in UNIQUE_CONSTRAINTS {
                if constraint == *pg_name || message.ends_with(sqlite_column) {
                    return StoreError::Conflict(field);
                }
            }
        }
        StoreError::Database(err)
    }
}

impl StoreError {
    /// Whether the connection itself failed or could not be had: the database is unreachable
    /// for now, as opposed to a transaction that lost a race.
    pub fn is_connection_failure(&self) -> bool {
        match self {
            StoreError::Database(err) => match err {
                sqlx::Error::Io(_)
                | sqlx::Error::Tls(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::WorkerCrashed => true,
                sqlx::Error::Database(db) => db.code().is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
                _ => false,
            },
            _ => false,
        }
    }
}

/// SQLSTATEs (PostgreSQL) and result codes (SQLite) worth a retry: connection exceptions
/// (class 08), serialisation failure and deadlock (40001, 40P01), too many connections
/// (53300), the server shutting down or starting (57P01–57P03), a database not accepting
/// connections (55000 with that message is not distinguishable by code alone: left out);
/// SQLite's BUSY (5) and LOCKED (6).
fn transient_code(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "40001" | "40P01" | "53300" | "57P01" | "57P02" | "57P03" | "5" | "6")
}
