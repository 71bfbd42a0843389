//! The rule that decides which signals a user's automated paper portfolio takes.

use super::CONTRACT_MULTIPLIER;
use crate::types::Strategy;

/// A user's risk tolerance: `low`, `medium` or `high` (shown as Conservative,
/// Moderate, Aggressive).
///
/// ```
/// use strikeline_engine::portfolio::RiskTolerance;
/// assert_eq!(RiskTolerance::parse("HIGH"), Some(RiskTolerance::High));
/// assert_eq!(RiskTolerance::Medium.confidence_floor(), 65);
/// assert_eq!(RiskTolerance::Low.as_str(), "low");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RiskTolerance {
    /// Conservative.
    Low,
    /// Moderate (the default).
    #[default]
    Medium,
    /// Aggressive.
    High,
}

impl RiskTolerance {
    /// From `low`, `medium` or `high`, any case.
    ///
    /// ```
    /// use strikeline_engine::portfolio::RiskTolerance;
    /// assert_eq!(RiskTolerance::parse(" Low "), Some(RiskTolerance::Low));
    /// assert_eq!(RiskTolerance::parse("aggressive"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "low" => Some(RiskTolerance::Low),
            "medium" => Some(RiskTolerance::Medium),
            "high" => Some(RiskTolerance::High),
            _ => None,
        }
    }

    /// The stored form.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskTolerance::Medium.as_str(), "medium");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RiskTolerance::Low => "low",
            RiskTolerance::Medium => "medium",
            RiskTolerance::High => "high",
        }
    }

    /// The lowest signal confidence the automated portfolio takes: 75 for low, 65 for
    /// medium, 50 (every signal whose rule fired) for high.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskTolerance::High.confidence_floor(), 50);
    /// ```
    #[must_use]
    pub fn confidence_floor(self) -> u8 {
        match self {
            RiskTolerance::Low => 75,
            RiskTolerance::Medium => 65,
            RiskTolerance::High => 50,
        }
    }
}

/// A new signal, as the allocation rule sees it.
///
/// ```
/// use strikeline_engine::Strategy;
/// use strikeline_engine::portfolio::{Allocation, AllocationSignal, InvestmentPreferences, RiskTolerance, automated_allocation};
/// let s = AllocationSignal { strategy: Strategy::Breakout, confidence: 74, entry_price: 0.85 };
/// let prefs = InvestmentPreferences { preferred_strategies: vec![Strategy::Breakout],
///     risk_tolerance: RiskTolerance::Medium, capital: 1_000.0, max_position_size: 200.0 };
/// // $0.85 a share is $85 a contract: a $200 position holds two.
/// assert_eq!(automated_allocation(&s, &prefs, 0.0), Allocation::Contracts(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AllocationSignal {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its confidence, 0–100.
    pub confidence: u8,
    /// Its entry premium per share.
    pub entry_price: f64,
}

/// A user's investment preferences.
///
/// ```
/// use strikeline_engine::{Strategy, portfolio::{InvestmentPreferences, RiskTolerance}};
/// // The defaults of a new user.
/// let prefs = InvestmentPreferences { preferred_strategies: vec![Strategy::Momentum, Strategy::Breakout],
///     risk_tolerance: RiskTolerance::default(), capital: 1_000.0, max_position_size: 100.0 };
/// assert_eq!(prefs.risk_tolerance, RiskTolerance::Medium);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct InvestmentPreferences {
    /// Strategies the user wants traded (default Momentum and Breakout).
    pub preferred_strategies: Vec<Strategy>,
    /// Risk tolerance (default medium).
    pub risk_tolerance: RiskTolerance,
    /// Investment capital, dollars (default 1,000).
    pub capital: f64,
    /// Maximum premium per position, dollars (default 100).
    pub max_position_size: f64,
}

/// Why an account's rules took a signal but no order can follow: the limit one contract
/// would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeLimit {
    /// One contract costs more than the account's maximum position size.
    MaxPositionSize,
    /// One contract costs more than the capital left beside the open positions.
    Capital,
    /// The premium is not a usable price (zero, negative or not a number).
    Premium,
}

/// What the automation does with a signal for one account ([`automated_allocation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// The account's rules do not take it (another strategy, or under the confidence floor).
    NotTaken,
    /// The rules take it, but a limit refuses even one contract: logged, with the reason.
    Refused(SizeLimit),
    /// This many contracts (at least one).
    Contracts(u32),
}

impl Allocation {
    /// The contracts to open, if any.
    #[must_use]
    pub fn contracts(self) -> Option<u32> {
        match self {
            Allocation::Contracts(n) => Some(n),
            Allocation::NotTaken | Allocation::Refused(_) => None,
        }
    }
}

/// Whether a user's automated portfolio takes `signal`, and with how many contracts.
/// `open_cost` is the premium already paid for the account's open automated positions. The
/// rule (`docs/risk.md`):
///
/// 1. the signal's strategy is one of the user's preferred strategies;
/// 2. its confidence is at least the tolerance's floor
///    ([`RiskTolerance::confidence_floor`]: 75 low, 65 medium, 50 high);
/// 3. contracts = ⌊max position size / (premium × 100)⌋: at least 1, else refused (one
///    contract would exceed the user's maximum);
/// 4. never beyond capital: at most ⌊(capital − open_cost) / (premium × 100)⌋ contracts;
///    0 is refused.
///
/// Commissions are not part of the sizing. The first two decide whether the rules take the
/// signal ([`Allocation::NotTaken`]); the last two are limits ([`Allocation::Refused`]).
///
/// ```
/// use strikeline_engine::Strategy;
/// use strikeline_engine::portfolio::{Allocation, AllocationSignal, InvestmentPreferences, RiskTolerance, SizeLimit, automated_allocation};
/// let prefs = InvestmentPreferences {
///     preferred_strategies: vec![Strategy::Momentum, Strategy::Breakout],
///     risk_tolerance: RiskTolerance::Medium, capital: 1_000.0, max_position_size: 300.0,
/// };
/// let signal = AllocationSignal { strategy: Strategy::Momentum, confidence: 72, entry_price: 1.40 };
/// assert_eq!(automated_allocation(&signal, &prefs, 0.0), Allocation::Contracts(2));     // ⌊300 / 140⌋
/// assert_eq!(automated_allocation(&signal, &prefs, 800.0), Allocation::Contracts(1));   // $200 left
/// assert_eq!(automated_allocation(&signal, &prefs, 900.0), Allocation::Refused(SizeLimit::Capital)); // $100 left
/// let weak = AllocationSignal { confidence: 60, ..signal };
/// assert_eq!(automated_allocation(&weak, &prefs, 0.0), Allocation::NotTaken);          // under 65
/// let dear = AllocationSignal { entry_price: 3.50, ..signal };
/// assert_eq!(automated_allocation(&dear, &prefs, 0.0), Allocation::Refused(SizeLimit::MaxPositionSize)); // $350 > $300
/// ```
#[must_use]
pub fn automated_allocation(signal: &AllocationSignal, prefs: &InvestmentPreferences, open_cost: f64) -> Allocation {
    if !prefs.preferred_strategies.contains(&signal.strategy) || signal.confidence < prefs.risk_tolerance.confidence_floor() {
        return Allocation::NotTaken;
    }
    let per_contract = signal.entry_price * CONTRACT_MULTIPLIER;
    if !(per_contract.is_finite() && per_contract > 0.0) {
        return Allocation::Refused(SizeLimit::Premium);
    }
    // A hair of tolerance so that 300 / (1.50 × 100) is 2, not 1.999….
    let whole = |budget: f64| {
        if budget.is_finite() && budget > 0.0 { (budget / per_contract + 1e-9).floor().min(f64::from(u32::MAX)) } else { 0.0 }
    };
    let by_size = whole(prefs.max_position_size);
    if by_size < 1.0 {
        return Allocation::Refused(SizeLimit::MaxPositionSize);
    }
    let by_capital = whole(prefs.capital - open_cost.max(0.0));
    if by_capital < 1.0 {
        return Allocation::Refused(SizeLimit::Capital);
    }
    Allocation::Contracts(by_size.min(by_capital) as u32)
}
