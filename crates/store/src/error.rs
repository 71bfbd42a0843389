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
];

impl StoreError {
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
