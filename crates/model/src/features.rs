//! What the model reads of a signal: only what was known when it was issued.

use strikeline_engine::{EntryContext, SignalType, Strategy};

/// The sectors a symbol can be in (the product's labels); Technology is the baseline of the
/// one-hot encoding.
pub const SECTORS: [&str; 10] = [
    "Technology",
    "Healthcare",
    "Financial",
    "Consumer",
    "Energy",
    "Industrial",
    "Utilities",
    "Real Estate",
    "Materials",
    "Communications",
];

/// A signal as issued, with what the market looked like then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setup<'a> {
    pub strategy: Strategy,
    pub signal_type: SignalType,
    /// The heuristic strength, 0–100.
    pub confidence: u8,
    pub strike: f64,
    /// The underlying at issue.
    pub spot: f64,
    /// The premium per share at issue (the model's mark).
    pub premium: f64,
    /// σ it was priced with (from the 20-day historical volatility: the simulated market has
    /// no quoted implied volatility, so this is both the realised and the implied figure).
    pub volatility: f64,
    /// Calendar days to expiry.
    pub days_to_expiry: f64,
    /// The target and stop premiums.
    pub target: f64,
    pub stop: f64,
    pub context: EntryContext,
    /// The symbol's sector label.
    pub sector: &'a str,
    /// The share of the strategy's last resolved signals that won, as known at issue.
    pub recent_hit_rate: Option<f64>,
}

/// One feature: its name in stored models and the words a trader reads in "why".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Feature {
    pub name: &'static str,
    pub label: &'static str,
}

const fn feature(name: &'static str, label: &'static str) -> Feature {
    Feature { name, label }
}

/// Every feature, in the order of [`encode`]'s vector.
pub const FEATURES: [Feature; 28] = [
    feature("strategy_momentum", "Momentum strategy"),
    feature("strategy_mean_reversion", "Mean Reversion strategy"),
    feature("strategy_breakout", "Breakout strategy"),
    feature("type_call", "a call"),
    feature("type_put", "a put"),
    feature("strength", "the strength score"),
    feature("log_moneyness", "strike against spot"),
    feature("days_to_expiry", "days to expiry"),
    feature("volatility", "volatility"),
    feature("premium_to_spot", "premium against spot"),
    feature("target_multiple", "target against premium"),
    feature("stop_multiple", "stop against premium"),
    feature("rsi", "RSI(14)"),
    feature("rsi_known", "RSI known"),
    feature("trend", "trend (EMA 20 over EMA 50)"),
    feature("trend_known", "trend known"),
    feature("volatility_rank", "volatility rank within the year"),
    feature("volatility_rank_known", "volatility rank known"),
    feature("recent_hit_rate", "the strategy's recent hit rate"),
    feature("recent_hit_rate_known", "recent hit rate known"),
    feature("sector_healthcare", "Healthcare sector"),
    feature("sector_financial", "Financial sector"),
    feature("sector_consumer", "Consumer sector"),
    feature("sector_energy", "Energy sector"),
    feature("sector_industrial", "Industrial sector"),
    feature("sector_utilities", "Utilities sector"),
    feature("sector_real_estate", "Real Estate sector"),
    feature("sector_other", "Materials or Communications sector"),
];

fn flag(on: bool) -> f64 {
    if on { 1.0 } else { 0.0 }
}

/// `value` when known and finite, with the flag that says so; `(fallback, 0)` otherwise.
fn known(value: Option<f64>, fallback: f64) -> (f64, f64) {
    match value.filter(|v| v.is_finite()) {
        Some(v) => (v, 1.0),
        None => (fallback, 0.0),
    }
}

/// The feature vector of a setup, in [`FEATURES`] order. Ratios of non-positive prices are 0.
#[must_use]
pub fn encode(s: &Setup<'_>) -> Vec<f64> {
    let ratio = |a: f64, b: f64| if a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite() { a / b } else { 0.0 };
    let log_moneyness = if s.strike > 0.0 && s.spot > 0.0 { (s.strike / s.spot).ln() } else { 0.0 };
    let (rsi, rsi_known) = known(s.context.rsi14.map(|r| r / 100.0), 0.5);
    let (trend, trend_known) = known(s.context.trend, 0.0);
    let (rank, rank_known) = known(s.context.hv_rank.map(|r| r / 100.0), 0.5);
    let (hit, hit_known) = known(s.recent_hit_rate, 0.5);
    let sector = |name: &str| flag(s.sector == name);
    vec![
        flag(s.strategy == Strategy::Momentum),
        flag(s.strategy == Strategy::MeanReversion),
        flag(s.strategy == Strategy::Breakout),
        flag(s.signal_type == SignalType::Call),
        flag(s.signal_type == SignalType::Put),
        f64::from(s.confidence) / 100.0,
        log_moneyness,
        s.days_to_expiry.max(0.0) / 30.0,
        if s.volatility.is_finite() { s.volatility } else { 0.0 },
        ratio(s.premium, s.spot),
        ratio(s.target, s.premium),
        ratio(s.stop, s.premium),
        rsi,
        rsi_known,
        trend,
        trend_known,
        rank,
        rank_known,
        hit,
        hit_known,
        sector("Healthcare"),
        sector("Financial"),
        sector("Consumer"),
        sector("Energy"),
        sector("Industrial"),
        sector("Utilities"),
        sector("Real Estate"),
        flag(s.sector == "Materials" || s.sector == "Communications"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_has_a_value_and_unknowns_are_flagged() {
        let setup = Setup {
            strategy: Strategy::Breakout,
            signal_type: SignalType::Put,
            confidence: 80,
            strike: 95.0,
            spot: 100.0,
            premium: 2.0,
            volatility: 0.3,
            days_to_expiry: 45.0,
            target: 3.0,
            stop: 1.0,
            context: EntryContext { rsi14: Some(70.0), trend: None, hv_rank: Some(40.0) },
            sector: "Energy",
            recent_hit_rate: None,
        };
        let x = encode(&setup);
        assert_eq!(x.len(), FEATURES.len());
        let at = |name: &str| x[FEATURES.iter().position(|f| f.name == name).expect(name)];
        assert_eq!((at("strategy_breakout"), at("strategy_momentum"), at("type_put"), at("type_call")), (1.0, 0.0, 1.0, 0.0));
        assert_eq!((at("strength"), at("rsi"), at("rsi_known")), (0.8, 0.7, 1.0));
        assert_eq!((at("trend"), at("trend_known"), at("recent_hit_rate_known")), (0.0, 0.0, 0.0));
        assert_eq!((at("days_to_expiry"), at("target_multiple"), at("stop_multiple")), (1.5, 1.5, 0.5));
        assert!((at("log_moneyness") - (0.95f64).ln()).abs() < 1e-15);
        assert_eq!((at("sector_energy"), at("sector_healthcare")), (1.0, 0.0));
    }
}
