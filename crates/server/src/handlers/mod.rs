//! Handlers, one module per feature: parse the request, ask the entitlement check, read or write
//! one aggregate through the store or call a service, and shape the answer.

pub mod ai;
pub mod api_keys;
pub mod auth;
pub mod automation;
pub mod backtest;
pub mod billing;
pub mod custom_strategies;
pub mod email;
pub mod health;
pub mod live;
pub mod news;
pub mod notifications;
pub mod options;
pub mod orders;
pub mod portfolio;
pub mod push;
pub mod reports;
pub mod signals;
pub mod site;
pub mod sms;
pub mod stocks;
pub mod structures;
pub mod track_record;
pub mod trading_accounts;
pub mod webhooks;
