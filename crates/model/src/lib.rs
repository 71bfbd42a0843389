//! The predictive model (issue 24, item 4): for every new signal, the probability that it
//! wins, from what was known when it was issued.
//!
//! - [`features`]: the signal's terms (strategy, type, strength, moneyness, days to expiry,
//!   volatility, premium, target and stop), the indicators at issue (RSI, trend, volatility
//!   rank), the symbol's sector and the strategy's recent hit rate.
//! - [`model`]: L2-regularised logistic regression over standardised features, fitted with
//!   smartcore (L-BFGS on the penalised log-loss), then an [`Isotonic`] map fitted on a later
//!   slice than the regression; "why" lists the features that moved a signal's log-odds most.
//! - [`walk_forward`]: resolved history as examples, training as of a cut-off date that never
//!   reads a signal resolved after it, and the held-out comparison with the heuristic strength
//!   that decides whether a model ships.
//!
//! Pure: trades and dates are inputs; the server stores versioned models and scores signals.

pub mod features;
pub mod isotonic;
pub mod model;
pub mod walk_forward;

pub use features::{FEATURES, Feature, SECTORS, Setup, encode};
pub use isotonic::Isotonic;
pub use model::{Logistic, MODEL_FORMAT, Model, ModelError, Reason};
pub use walk_forward::{Evaluation, Example, Scores, evaluate, examples, train};
