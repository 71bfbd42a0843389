//! The store's integration tests, one binary: the schema comparison and repository-level
//! stories, each story run on SQLite and on PostgreSQL (see `common`).

mod common;

mod account;
mod automation;
mod billing;
mod iv_history;
mod ledger;
mod market;
mod migrations;
mod news;
mod orders;
mod outbox;
mod plans;
mod positions;
mod rate_limits;
mod schema;
mod sessions;
mod signals;
mod trading_accounts;
mod users;
mod webhooks;
