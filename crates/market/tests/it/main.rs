//! The market crate's integration tests, one binary (one link) for all of them.

mod calendar;
mod csv_import;
mod expirations;
mod new_york;
mod options;
mod polygon;
mod simulated;
