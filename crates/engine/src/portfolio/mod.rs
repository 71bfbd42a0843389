//! Portfolio analytics for `/api/portfolio/*`: a position valued at today's price
//! ([`PositionInput::value`]), performance metrics of daily portfolio snapshots
//! ([`performance_metrics`]), the portfolio summary ([`summary`]), the risk assessment
//! ([`risk_assessment`], documented in `docs/risk.md`) and the rule that decides which
//! signals a user's automated paper portfolio takes ([`automated_allocation`]),
//! multi-leg positions held from the strategy builder ([`StructureHolding::value`]), and
//! the optimiser that proposes how many contracts of which signals to hold within the
//! account's limits ([`optimise::optimise`]).
//!
//! Every figure reuses the quant crate: Black–Scholes prices and Greeks
//! ([`BlackScholes`]), breakevens, maximum loss and gain and probability of profit
//! ([`TradeAnalysis`]), return and trade statistics ([`DailyReturns`], [`TradeStats`]).
//! A STRADDLE is one call plus one put at the same strike and expiry: its price and Greeks
//! are the sums, its maximum loss the premium, its maximum gain unlimited, and it has two
//! breakevens.
//!
//! Units: option prices are premiums **per share**; one contract is 100 shares; money is
//! in dollars. Fields named `…_percent` and the position's `performance` are percentages
//! (12.5 = 12.5%); [`Metrics`] are fractions like the quant crate's (−0.08 = −8%).
//!
//! [`BlackScholes`]: strikeline_quant::BlackScholes
//! [`TradeAnalysis`]: strikeline_quant::TradeAnalysis
//! [`DailyReturns`]: strikeline_quant::DailyReturns
//! [`TradeStats`]: strikeline_quant::TradeStats

mod allocation;
pub mod optimise;
mod performance;
mod risk;
mod structure;
pub mod thresholds;
mod valuation;

pub use allocation::{Allocation, AllocationSignal, InvestmentPreferences, RiskTolerance, SizeLimit, automated_allocation};
pub use performance::{ClosedTrade, Metrics, OpenMark, PortfolioSummary, performance_metrics, summary};
pub use risk::{RiskAssessment, RiskFactor, RiskInputs, RiskLevel, RiskPosition, describe, risk_assessment};
pub use structure::{HeldLeg, StructureHolding, StructureValuation};
pub use valuation::{PositionGreeks, PositionInput, PositionPerformance, PositionRisk, PositionValuation};

/// Shares per contract: premiums are quoted per share, so a position costs and is worth
/// `premium × 100 × contracts` (see [`PositionInput::value`]).
pub const CONTRACT_MULTIPLIER: f64 = 100.0;

fn round_to(x: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (x * factor).round() / factor
}
