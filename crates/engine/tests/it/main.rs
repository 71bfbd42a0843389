//! The engine's integration tests, one binary (one link) for all of them; `common` holds
//! the synthetic series they share.

mod backtest;
mod common;
mod custom;
mod lifecycle;
mod paper_replay;
mod params;
mod portfolio;
mod state;
mod strategies;
mod universe;
mod worked_examples;
