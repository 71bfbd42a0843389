//! The market outside Strikeline: exchange calendar, option expirations, market data.
//!
//! Everything here is pure: functions take the dates and instants they reason about and never
//! read the clock or do I/O; only the scheduler and the HTTP layer know what time it is.

pub mod calendar;
