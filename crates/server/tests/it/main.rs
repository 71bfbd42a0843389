//! The server's integration tests, one binary: the real application on port 0 over a fresh
//! database, each scenario on SQLite and on PostgreSQL (see `common`).

#[macro_use]
mod common;

mod account;
mod ai;
mod alpaca;
mod auth;
mod automation;
mod backup;
mod billing;
mod billing_invariants;
mod caps;
mod custom_strategies;
mod data_export;
mod delivery_concurrency;
mod email;
mod faults;
mod gates;
mod held_structures;
mod http;
mod idempotency;
mod import;
mod layers;
mod news;
mod notifications;
mod observability;
mod openapi_snapshot;
mod operations;
mod optimise;
mod options;
mod orders;
mod outbound;
mod outbound_guard;
mod portfolio;
mod predicting;
mod preferences;
mod price_alerts;
mod public_api;
mod read_path;
mod reports;
mod retention;
mod seed;
mod signals;
mod site;
mod sms;
mod stripe;
mod structures;
mod track_record;
mod trading_accounts;
mod verified_accounts;
mod visibility;
mod web_push;
mod webhook_plans;
mod webhooks;
