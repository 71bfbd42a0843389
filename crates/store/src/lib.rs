//! Strikeline's persistence: one schema on two engines.
//!
//! [`Db`] is either an SQLite pool (the embedded default) or a PostgreSQL pool. Repository
//! functions are written once; the [`with_db!`] macro expands a query body for each engine, so
//! the same SQL text (with `$1` placeholders, which both engines accept) runs on both drivers,
//! and each driver encodes and decodes the Rust values in its native types (`TIMESTAMPTZ`/
//! `JSONB` on PostgreSQL, `TEXT` on SQLite). Placeholders must appear in the SQL in numeric
//! order.
//!
//! The queries are runtime `sqlx::query` calls, not compile-time checked macros: nothing checks
//! the SQL against a schema when the crate builds. Drift is caught by the tests instead: the
//! schema test (`tests/it/schema.rs`) compares the two engines' migrations (tables, columns,
//! nullability, type families, CHECK constraints, indexes), and the story tests run every
//! repository function against both engines.
//!
//! Errors stay boring ([`StoreError`]): not found, a named uniqueness conflict, or anything else.
//! The HTTP layer decides what status each becomes.

pub mod accounts;
pub mod api_keys;
pub mod audit;
pub mod automation;
pub mod billing;
pub mod broker_connections;
pub mod broker_fees;
pub mod custom_strategies;
mod db;
mod error;
pub mod export;
pub mod idempotency;
pub mod inbox;
pub mod iv_history;
pub mod ledger;
pub mod market;
pub mod models;
pub mod news;
pub mod notifications;
pub mod orders;
pub mod outbox;
pub mod plans;
pub mod positions;
pub mod price_alerts;
pub mod push;
pub mod rate_limits;
pub mod report_brands;
pub mod retention;
pub mod seed;
pub mod sessions;
pub mod signals;
pub mod sms;
pub mod snapshots;
pub mod structures;
#[cfg(feature = "test-support")]
pub mod test_support;
pub mod trading_accounts;
pub mod users;
pub mod webhooks;

pub use db::{Db, Engine, migrations_known, redact, suspect_connections};
pub use error::{StoreError, StoreResult};
