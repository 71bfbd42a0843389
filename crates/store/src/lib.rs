//! Strikeline's persistence: one schema on two engines.
//!
//! [`Db`] is either an SQLite pool (the embedded default) or a PostgreSQL pool. Repository
//! functions are written once; the [`with_db!`] macro expands a query body for each engine, so
//! the same SQL (with `$1` placeholders, which both engines accept) is type-checked against both
//! drivers and can use each driver's native types (`TIMESTAMPTZ`/`JSONB` on PostgreSQL,
//! `TEXT` on SQLite). Placeholders must appear in the SQL in numeric order.
//!
//! Errors stay boring ([`StoreError`]): not found, a named uniqueness conflict, or anything else.
//! The HTTP layer decides what status each becomes.

pub mod automation;
mod db;
mod error;
pub mod inbox;
pub mod market;
pub mod positions;
pub mod rate_limits;
pub mod sessions;
pub mod signals;
pub mod snapshots;
pub mod users;

pub use db::{Db, Engine, redact};
pub use error::{StoreError, StoreResult};
