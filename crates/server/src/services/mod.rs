//! Application services: what the endpoints and the scheduler do, named for what it is, with
//! the time as an argument. A service reads and writes through the store and computes through
//! the engine; it never builds an HTTP answer and never calls a handler module.

pub mod account_scope;
pub mod accounts;
pub mod advising;
pub mod billing;
pub mod custom_rules;
pub mod delivering;
pub mod execution;
pub mod figures;
pub mod implied_volatility;
pub mod mailing;
pub mod market_refresh;
pub mod news;
pub mod notifying;
pub mod optimising;
pub mod portfolio_analysis;
pub mod portfolio_settlement;
pub mod portfolio_valuation;
pub mod predicting;
pub mod pushing;
pub mod reporting;
pub mod retention;
pub mod scheduling;
pub mod signal_issuing;
pub mod structuring;
pub mod summaries;
pub mod texting;
pub mod track_record;
pub mod visibility;
pub mod webhooks;
