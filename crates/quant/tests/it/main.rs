//! The quant crate's integration tests, one binary (one link) for all of them.

mod american;
mod analytics_stats;
mod batch;
mod calibration;
mod indicators;
mod pricing;
mod rng;
mod structure;
mod talib_reference;
