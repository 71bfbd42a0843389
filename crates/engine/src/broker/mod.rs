//! Orders and the paper broker (issue 29, item 3; docs/execution.md): what an order is (one to
//! four option legs, market or limit, day or good-till-cancelled), the states it moves through
//! and the only moves allowed between them, how the built-in paper broker fills it (the
//! backtester's fill model: the mark plus slippage on what is bought, less slippage on what is
//! sold, the commission per contract), and an account's cash and holdings as fills change them,
//! with the reconciliation of two views of the holdings. Pure: marks, dates and ids are inputs.

mod book;
mod order;
mod paper;
mod status;

pub use book::{Difference, Holding, Holdings, reconcile};
pub use order::{Contract, Leg, Order, OrderError, OrderType, Right, Side, TimeInForce};
pub use paper::{Fill, LegFill, PaperBroker, Refusal};
pub use status::{OrderEvent, OrderProgress, OrderStatus, TransitionError};
