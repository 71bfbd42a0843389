//! The foundation every layer stands on: configuration, the one error type, the clock, state,
//! extractors, the limiter, the entitlement check, money and the vocabulary. It imports no
//! handler and no service.

pub mod api_access;
pub mod audit;
pub mod breaker;
pub mod cache;
pub mod capacity;
pub mod clock;
pub mod config;
pub mod credentials;
pub mod entitlements;
pub mod error;
pub mod events;
pub mod extract;
pub mod input;
pub mod limits;
pub mod llm;
pub mod market;
pub mod metrics;
pub mod money;
pub mod outbound;
pub mod plans;
pub mod session;
pub mod state;
pub mod subscription;
pub mod views;
pub mod vocab;
pub mod web_push;
