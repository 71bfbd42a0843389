//! Command-line tools on top of the library crates.

pub mod backup;
pub mod import;
pub mod quant;
pub mod seed;
pub mod verify;
