//! Strikeline's signal engine: pure functions and state machines over daily bars. No
//! I/O, no async, no clock: dates, prices and the expiration calendar are arguments.
//!
//! - [`SymbolState`]: one symbol's streaming indicators, fed one completed daily bar at a
//!   time ([`DailyBar`]); warm after [`WARM_UP_BARS`] bars. Cheap to clone, so the server
//!   evaluates today's partial bar on a clone.
//! - [`SymbolState::propose`] / [`SymbolState::propose_best`]: the four strategies
//!   ([`Strategy`]) turned into priced [`Proposal`]s: strike on the listed grid, a listed
//!   expiration from the caller's picker ([`ProposalContext`]), Black–Scholes premium,
//!   target and stop on the premium, a confidence 0–100 and the reasoning with its
//!   numbers. The rules are documented in `docs/strategies.md`.
//! - [`mark`], [`underlying_levels`], [`years_between`]: the lifecycle of an issued
//!   signal ([`OpenSignal`] → [`Mark`] with an [`Outcome`]).
//! - [`Universe`]: every symbol's state, refreshed in one call ([`Universe::refresh`]).
//! - [`StrategyParams`]: the rules' tunable thresholds ([`SymbolState::with_params`]);
//!   the default is the documented live engine.
//! - [`backtest`]: historical bars fed one at a time to the same strategy code, options
//!   filled at the model price and closed like live signals ([`backtest::run`]); and a
//!   plain stock SMA crossover for speed comparisons ([`backtest::sma_crossover`]).
//! - [`custom`]: a user's own strategy, a rule over the indicators and what it opens, scored,
//!   priced and backtested like the four.
//! - [`broker`]: orders (legs, market or limit, day or good-till-cancelled), their states, the
//!   paper broker that fills them with the backtester's fill model, and an account's holdings.
//! - [`iv_rank`]: IV rank and IV percentile of a symbol's daily at-the-money implied
//!   volatility over its last year, with the sessions that have no reading.
//! - [`portfolio`]: positions valued with their Greeks and risk figures, performance
//!   metrics, the portfolio summary, the risk assessment (`docs/risk.md`) and the
//!   automated paper portfolio's allocation rule.
//!
//! ```
//! use chrono::{Days, NaiveDate};
//! use strikeline_engine::{Assumptions, DailyBar, ProposalContext, SymbolState, mark, years_between};
//!
//! let mut state = SymbolState::new();
//! let mut date = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
//! for i in 0..300 {
//!     let close = 100.0 + (i as f64 * 0.7).sin();
//!     state.update(&DailyBar { date, open: close, high: close + 0.3, low: close - 0.3, close, volume: 1e6 })?;
//!     date = date + Days::new(1);
//! }
//! // Today's close breaks out of the range on triple volume.
//! state.update(&DailyBar { date, open: 100.5, high: 104.2, low: 100.4, close: 104.0, volume: 3e6 })?;
//!
//! let picker = |from: NaiveDate, min_days: u32| from + Days::new(u64::from(min_days) + 2);
//! let ctx = ProposalContext { symbol: "XYZ", as_of: date, spot: 104.0, assumptions: Assumptions::default(), expiration: &picker };
//! for proposal in state.propose(&ctx) {
//!     println!("{} {} {} @ {}: {}", proposal.strategy, proposal.signal_type, proposal.strike, proposal.entry_price, proposal.reasoning);
//!     // A week later, the underlying unchanged: time decay only.
//!     let later = date + Days::new(7);
//!     let m = mark(&proposal.open_signal(), 104.0, years_between(later, proposal.expiration), false, Assumptions::default())?;
//!     assert!(m.option_price <= proposal.entry_price);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod backtest;
pub mod broker;
pub mod custom;
pub mod iv_rank;
mod lifecycle;
mod money;
mod params;
pub mod portfolio;
mod proposal;
mod state;
mod strategies;
mod types;
mod universe;

pub use lifecycle::{Costs, Levels, Mark, OpenSignal, Outcome, mark, underlying_levels, years_between};
pub use money::DisplayMoney;
pub use params::{ParamError, StrategyParams};
pub use proposal::{
    MAX_VOLATILITY, MIN_VOLATILITY, Proposal, ProposalContext, StrikeChoice, pick_strike, pricing_volatility, round_cents, strike_choice,
    strike_increment,
};
pub use state::{EntryContext, MAX_LOOKBACK, Snapshot, SymbolState, WARM_UP_BARS};
pub use strikeline_quant::InputError;
pub use types::{Assumptions, BarError, DailyBar, MIN_DAYS_DIRECTIONAL, MIN_DAYS_STRADDLE, ParseError, SignalType, Strategy};
pub use universe::{ActiveSignal, MarkError, RefreshContext, RefreshOutcome, SymbolProposal, Universe};
