//! The portfolio analysis: one position in depth (`detail`: Greeks, risk, performance, payoff)
//! and the whole book (`metrics`: summary, risk metrics from the daily values, the risk
//! assessment). The portfolio endpoints answer them; the portfolio report prints them.

pub mod detail;
pub mod metrics;
