//! The risk assessment: measurable exposures scored against the thresholds of
//! [`thresholds`], with a sentence and a recommendation per factor.

use std::fmt::Write;

use super::thresholds;
use super::valuation::{PositionInput, PositionValuation};

/// One open position as the risk model sees it.
///
/// ```
/// let p = strikeline_engine::portfolio::RiskPosition {
///     symbol: "AAPL".into(), sector: "Technology".into(), cost: 500.0, market_value: 620.0,
///     delta_dollars: 9_300.0, vega_dollars: 14.0, days_to_expiry: 21,
/// };
/// assert!(p.market_value > p.cost);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RiskPosition {
    /// Ticker.
    pub symbol: String,
    /// Sector.
    pub sector: String,
    /// Premium paid, dollars (the most it can lose).
    pub cost: f64,
    /// Market value now, dollars.
    pub market_value: f64,
    /// Dollar delta: share-equivalent delta × the underlying's price.
    pub delta_dollars: f64,
    /// Dollars gained per volatility point.
    pub vega_dollars: f64,
    /// Calendar days to expiration.
    pub days_to_expiry: i64,
}

impl RiskPosition {
    /// The risk view of a valued position at the underlying price `spot`.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_engine::{Assumptions, SignalType, portfolio::{PositionInput, RiskPosition}};
    /// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    /// let p = PositionInput { symbol: "MSFT".into(), sector: "Technology".into(), kind: SignalType::Call,
    ///     strike: 400.0, expiration: d(4, 17), quantity: 1, entry_price: 8.0, volatility: 0.25,
    ///     opened_on: d(3, 2), target_price: None, stop_loss: None };
    /// let v = p.value(400.0, d(3, 2), Assumptions::default(), 20_000.0)?;
    /// let r = RiskPosition::from_valuation(&p, &v, 400.0);
    /// assert_eq!(r.cost, 800.0);
    /// assert!((r.delta_dollars - v.greeks.delta * 400.0).abs() < 1e-9);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn from_valuation(input: &PositionInput, valuation: &PositionValuation, spot: f64) -> Self {
        RiskPosition {
            symbol: input.symbol.clone(),
            sector: input.sector.clone(),
            cost: valuation.total_cost,
            market_value: valuation.current_value,
            delta_dollars: valuation.greeks.delta * spot,
            vega_dollars: valuation.greeks.vega,
            days_to_expiry: valuation.days_to_expiry,
        }
    }
}

/// What the risk assessment reads.
///
/// ```
/// let inputs = strikeline_engine::portfolio::RiskInputs { capital: 1_000.0, max_position_size: 100.0, ..Default::default() };
/// assert!(inputs.positions.is_empty() && inputs.drawdown == 0.0);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiskInputs {
    /// The user's investment capital, dollars.
    pub capital: f64,
    /// The user's maximum position size, dollars.
    pub max_position_size: f64,
    /// The open positions.
    pub positions: Vec<RiskPosition>,
    /// Current drawdown of the account's equity from its peak, a fraction ≤ 0 (from the
    /// daily snapshots; 0 when at a peak or unknown).
    pub drawdown: f64,
    /// The currency the sentences state amounts in (dollars by default).
    pub money: crate::DisplayMoney,
}

/// The risk level shown on the badge.
///
/// ```
/// use strikeline_engine::portfolio::RiskLevel;
/// assert_eq!(RiskLevel::Moderate.as_str(), "moderate");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RiskLevel {
    /// Score under 35 and no factor at its alarm level.
    Low,
    /// Score 35–64, or a lower score with a factor at its alarm level.
    Moderate,
    /// Score 65–84.
    High,
    /// Score 85 and over: most exposures at or near their alarm levels together.
    VeryHigh,
}

impl RiskLevel {
    /// `low`, `moderate`, `high` or `very_high`.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::portfolio::RiskLevel::High.as_str(), "high");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::Low => "low",
            RiskLevel::Moderate => "moderate",
            RiskLevel::High => "high",
            RiskLevel::VeryHigh => "very_high",
        }
    }
}

/// One measured exposure of the risk model (see `docs/risk.md`).
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1_000.0, max_position_size: 100.0, drawdown: -0.15, ..Default::default() });
/// let drawdown = a.factors.iter().find(|f| f.name == "drawdown").unwrap();
/// // (0.15 − 0.05) / (0.25 − 0.05) = 50
/// assert!((drawdown.score - 50.0).abs() < 1e-9);
/// assert_eq!(drawdown.weight, 15.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RiskFactor {
    /// `symbol_concentration`, `sector_concentration`, `net_delta`, `net_vega`,
    /// `near_expiry`, `position_size`, `capital_at_risk` or `drawdown`.
    pub name: &'static str,
    /// The measured value (a fraction or a multiple, as documented).
    pub value: f64,
    /// Where it sits between its comfortable level (0) and its alarm level (100).
    pub score: f64,
    /// Its weight in the risk score (the weights add up to 100).
    pub weight: f64,
}

/// The Risk Assessment card.
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, RiskLevel, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1_000.0, max_position_size: 100.0, drawdown: -0.15, ..Default::default() });
/// assert_eq!((a.risk_score, a.risk_level), (8, RiskLevel::Low)); // 50 × 15 / 100 = 7.5 → 8
/// assert_eq!(a.risk_factors, vec!["The portfolio is 15.0% below its peak value."]);
/// assert_eq!(a.factors.len(), 8);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RiskAssessment {
    /// Low, moderate or high.
    pub risk_level: RiskLevel,
    /// 0–100: the weighted mean of the factor scores, rounded half up.
    pub risk_score: u8,
    /// One sentence per factor above its comfortable level, the largest contribution
    /// first.
    pub risk_factors: Vec<String>,
    /// One recommendation per such factor, in the same order.
    pub recommendations: Vec<String>,
    /// Every factor, in model order (for transparency and tests).
    pub factors: Vec<RiskFactor>,
}

fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// 0 at `comfortable`, 100 at `alarm`, linear between, clamped.
fn scale(value: f64, comfortable: f64, alarm: f64) -> f64 {
    if !value.is_finite() {
        return 0.0;
    }
    ((value - comfortable) / (alarm - comfortable) * 100.0).clamp(0.0, 100.0)
}

/// Largest key's share of the total by `key`, with the key and its amount.
fn largest_share<'a>(
    positions: &'a [RiskPosition],
    key: impl Fn(&'a RiskPosition) -> &'a str,
    amount: impl Fn(&RiskPosition) -> f64,
) -> Option<(&'a str, f64, f64, usize)> {
    let mut totals: Vec<(&str, f64, usize)> = Vec::new();
    for p in positions {
        let k = key(p);
        match totals.iter_mut().find(|(name, _, _)| *name == k) {
            Some(entry) => {
                entry.1 += amount(p);
                entry.2 += 1;
            }
            None => totals.push((k, amount(p), 1)),
        }
    }
    let total: f64 = totals.iter().map(|t| t.1).sum();
    if total <= 0.0 {
        return None;
    }
    // The largest; on a tie the first in alphabetical order.
    totals.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    totals.first().map(|&(k, v, n)| (k, v, total, n))
}

/// The Risk Assessment of a portfolio from measurable exposures (the model, its
/// thresholds and weights are documented in `docs/risk.md`):
///
/// | factor | measure | comfortable → alarm | weight |
/// |---|---|---|---|
/// | symbol concentration | largest symbol's share of the open value | 25% → 75% | 15 |
/// | sector concentration | largest sector's share of the open value | 40% → 90% | 10 |
/// | net delta | \|Σ dollar delta\| / capital | 0.5× → 2× | 15 |
/// | net vega | \|Σ vega\| × 10 points / capital | 2% → 10% | 10 |
/// | near expiry | share of the open value expiring within 7 days | 0% → 50% | 10 |
/// | position size | largest cost / maximum position size | 1× → 2× | 10 |
/// | capital at risk | Σ premium paid / capital | 25% → 75% | 15 |
/// | drawdown | \|drawdown\| of the equity | 5% → 25% | 15 |
///
/// Each factor scores 0 at or below its comfortable level and 100 at or beyond its alarm
/// level, linearly between. The risk score is the weighted mean, rounded. The level is
/// high from 65, moderate from 35, low below, but at least moderate when any factor is at
/// its alarm level. Shares use the market value, or the cost when everything is worth
/// nothing; ratios to the capital (and to the maximum position size) score 0 when that
/// is not positive.
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, RiskLevel, RiskPosition, risk_assessment};
/// let position = |symbol: &str, sector: &str, value: f64| RiskPosition {
///     symbol: symbol.into(), sector: sector.into(), cost: value, market_value: value,
///     delta_dollars: 0.0, vega_dollars: 0.0, days_to_expiry: 30,
/// };
/// let inputs = RiskInputs {
///     capital: 10_000.0, max_position_size: 1_000.0, drawdown: 0.0,
///     positions: vec![position("AAPL", "Technology", 550.0), position("XOM", "Energy", 450.0)],
///     money: Default::default(),
/// };
/// let a = risk_assessment(&inputs);
/// // AAPL is 55% of the value: (0.55 − 0.25)/(0.75 − 0.25) = 60 → 15 × 0.60 = 9;
/// // Technology 55%: (0.55 − 0.40)/(0.90 − 0.40) = 30 → 10 × 0.30 = 3. Nothing else.
/// assert_eq!(a.risk_score, 12);
/// assert_eq!(a.risk_level, RiskLevel::Low);
/// assert_eq!(a.risk_factors[0], "AAPL is 55.0% of the open positions' value ($550.00 of $1,000.00); above 25.0% a single symbol drives the portfolio.");
/// assert_eq!(a.recommendations[0], "Keep any one symbol under 25.0% of the open value: trim AAPL by about $400.00 or add positions in other symbols.");
/// ```
#[must_use]
pub fn risk_assessment(inputs: &RiskInputs) -> RiskAssessment {
    use thresholds as t;
    let positions = &inputs.positions;
    let capital = inputs.capital;
    let money = |usd: f64| inputs.money.format(usd);
    let total_value: f64 = positions.iter().map(|p| p.market_value).sum();
    let by_value = total_value > 0.0;
    let amount = move |p: &RiskPosition| if by_value { p.market_value } else { p.cost };
    let total_amount: f64 = positions.iter().map(amount).sum();
    let basis = if by_value { "value" } else { "cost" };

    // (factor, sentence, recommendation)
    let mut found: Vec<(RiskFactor, Option<(String, String)>)> = Vec::with_capacity(8);
    let mut push = |name: &'static str, value: f64, (comfortable, alarm, weight): (f64, f64, f64), text: &dyn Fn() -> (String, String)| {
        let score = scale(value, comfortable, alarm);
        let factor = RiskFactor { name, value, score, weight };
        found.push((factor, (score > 0.0).then(text)));
    };

    // 1. Symbol concentration.
    let symbol = largest_share(positions, |p| p.symbol.as_str(), amount);
    let share = symbol.map_or(0.0, |(_, v, total, _)| v / total);
    push("symbol_concentration", share, t::SYMBOL_CONCENTRATION, &|| {
        let (name, v, total, _) = symbol.unwrap_or(("", 0.0, 0.0, 0));
        let limit = t::SYMBOL_CONCENTRATION.0;
        let others = total - v;
        let recommendation = if others > 0.0 {
            // Trim to others·limit/(1 − limit) so that it is `limit` of the new total.
            let trim = v - others * limit / (1.0 - limit);
            format!(
                "Keep any one symbol under {} of the open {basis}: trim {name} by about {} or add positions in other symbols.",
                percent(limit),
                money(trim)
            )
        } else {
            format!("Spread new positions over other symbols so that {name} falls under {} of the open {basis}.", percent(limit))
        };
        (
            format!(
                "{name} is {} of the open positions' {basis} ({} of {}); above {} a single symbol drives the portfolio.",
                percent(share),
                money(v),
                money(total),
                percent(limit)
            ),
            recommendation,
        )
    });

    // 2. Sector concentration.
    let sector = largest_share(positions, |p| p.sector.as_str(), amount);
    let sector_share = sector.map_or(0.0, |(_, v, total, _)| v / total);
    push("sector_concentration", sector_share, t::SECTOR_CONCENTRATION, &|| {
        let (name, v, _, count) = sector.unwrap_or(("", 0.0, 0.0, 0));
        let limit = t::SECTOR_CONCENTRATION.0;
        let plural = if count == 1 { "" } else { "s" };
        (
            format!(
                "The {name} sector is {} of the open {basis} ({} in {count} position{plural}); one sector's news moves most of the portfolio.",
                percent(sector_share),
                money(v)
            ),
            format!("Open new positions outside {name} until it is under {} of the open {basis}.", percent(limit)),
        )
    });

    // 3. Net delta.
    let net_delta: f64 = positions.iter().map(|p| p.delta_dollars).sum();
    let delta_ratio = if capital > 0.0 { net_delta.abs() / capital } else { 0.0 };
    push("net_delta", delta_ratio, t::NET_DELTA, &|| {
        let side = if net_delta >= 0.0 { "long" } else { "short" };
        let limit = t::NET_DELTA.0;
        (
            format!(
                "Net delta is {} ({side}), {:.2}× your {} capital: a 1% move of the underlyings changes the portfolio by about {}.",
                money(net_delta),
                delta_ratio,
                money(capital),
                money(net_delta.abs() * 0.01)
            ),
            format!(
                "Bring net delta under {limit}× capital ({}): close part of the {side} exposure or add positions in the other direction.",
                money(limit * capital)
            ),
        )
    });

    // 4. Net vega.
    let net_vega: f64 = positions.iter().map(|p| p.vega_dollars).sum();
    let vega_ratio = if capital > 0.0 { net_vega.abs() * 10.0 / capital } else { 0.0 };
    push("net_vega", vega_ratio, t::NET_VEGA, &|| {
        let way = if net_vega >= 0.0 { "fall" } else { "rise" };
        let limit = t::NET_VEGA.0;
        (
            format!(
                "Net vega is {} per volatility point: a 10-point {way} in volatility would cost about {}, {} of capital.",
                money(net_vega),
                money(net_vega.abs() * 10.0),
                percent(vega_ratio)
            ),
            format!(
                "Keep net vega under {} per point (a 10-point move costing under {} of capital): fewer straddles or smaller long-volatility positions.",
                money(limit * capital / 10.0),
                percent(limit)
            ),
        )
    });

    // 5. Near expiry.
    let near: Vec<&RiskPosition> = positions.iter().filter(|p| p.days_to_expiry <= t::NEAR_EXPIRY_DAYS).collect();
    let near_amount: f64 = near.iter().map(|p| amount(p)).sum();
    let near_share = if total_amount > 0.0 { near_amount / total_amount } else { 0.0 };
    push("near_expiry", near_share, t::NEAR_EXPIRY, &|| {
        let mut symbols: Vec<&str> = near.iter().map(|p| p.symbol.as_str()).collect();
        symbols.sort_unstable();
        symbols.dedup();
        (
            format!(
                "{} of {} positions ({} of the open {basis}) expire within {} days, where time decay and gamma are steepest.",
                near.len(),
                positions.len(),
                percent(near_share),
                t::NEAR_EXPIRY_DAYS
            ),
            format!(
                "Close or roll the positions expiring within {} days ({}) before their time value runs out.",
                t::NEAR_EXPIRY_DAYS,
                symbols.join(", ")
            ),
        )
    });

    // 6. Position size against the user's maximum.
    let largest = positions.iter().fold(None::<&RiskPosition>, |best, p| match best {
        Some(b) if b.cost >= p.cost => Some(b),
        _ => Some(p),
    });
    let max_size = inputs.max_position_size;
    let size_ratio = match largest {
        Some(p) if max_size > 0.0 => p.cost / max_size,
        _ => 0.0,
    };
    push("position_size", size_ratio, t::POSITION_SIZE, &|| {
        let (name, cost) = largest.map_or(("", 0.0), |p| (p.symbol.as_str(), p.cost));
        (
            format!(
                "The largest position, {name}, cost {}: {:.2}× your {} maximum position size.",
                money(cost),
                size_ratio,
                money(max_size)
            ),
            format!(
                "Size new positions at or under {}, and consider trimming {name} by about {}.",
                money(max_size),
                money(cost - max_size)
            ),
        )
    });

    // 7. Capital at risk.
    let at_risk: f64 = positions.iter().map(|p| p.cost).sum();
    let at_risk_ratio = if capital > 0.0 { at_risk / capital } else { 0.0 };
    push("capital_at_risk", at_risk_ratio, t::CAPITAL_AT_RISK, &|| {
        let limit = t::CAPITAL_AT_RISK.0;
        (
            format!(
                "{} of premium is at risk in open positions, {} of your {} capital; long options can expire worthless.",
                money(at_risk),
                percent(at_risk_ratio),
                money(capital)
            ),
            format!(
                "Keep the premium at risk under {} of capital ({}): hold off new positions until closes bring it down.",
                percent(limit),
                money(limit * capital)
            ),
        )
    });

    // 8. Drawdown.
    let drawdown = inputs.drawdown.min(0.0).abs();
    push("drawdown", drawdown, t::DRAWDOWN, &|| {
        (
            format!("The portfolio is {} below its peak value.", percent(drawdown)),
            format!(
                "Trade smaller until the drawdown is back within {}, and check the stops of the open positions.",
                percent(t::DRAWDOWN.0)
            ),
        )
    });

    let weighted: f64 = found.iter().map(|(f, _)| f.score * f.weight).sum::<f64>() / 100.0;
    // Half up, with a hair of tolerance so that a score of exactly x.5 in decimal (such
    // as 7.5 = 15 × 0.5) is not rounded down by binary floating point.
    let risk_score = (weighted + 1e-9).round().clamp(0.0, 100.0) as u8;
    let alarm = found.iter().any(|(f, _)| f.score >= 100.0);
    let risk_level = if risk_score >= t::VERY_HIGH_SCORE {
        RiskLevel::VeryHigh
    } else if risk_score >= t::HIGH_SCORE {
        RiskLevel::High
    } else if risk_score >= t::MODERATE_SCORE || alarm {
        RiskLevel::Moderate
    } else {
        RiskLevel::Low
    };
    let factors: Vec<RiskFactor> = found.iter().map(|(f, _)| *f).collect();
    let mut texts: Vec<(f64, usize, String, String)> =
        found.into_iter().enumerate().filter_map(|(i, (f, text))| text.map(|(a, b)| (f.score * f.weight, i, a, b))).collect();
    texts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let (risk_factors, recommendations) = texts.into_iter().map(|(_, _, a, b)| (a, b)).unzip();
    RiskAssessment { risk_level, risk_score, risk_factors, recommendations, factors }
}

/// Writes a one-line description of an assessment (for logs and the CLI).
///
/// ```
/// use strikeline_engine::portfolio::{RiskInputs, describe, risk_assessment};
/// let a = risk_assessment(&RiskInputs { capital: 1000.0, max_position_size: 100.0, ..Default::default() });
/// assert_eq!(describe(&a), "risk low (0/100): no factor above its comfortable level");
/// ```
#[must_use]
pub fn describe(assessment: &RiskAssessment) -> String {
    let mut out = format!("risk {} ({}/100): ", assessment.risk_level.as_str(), assessment.risk_score);
    if assessment.risk_factors.is_empty() {
        out.push_str("no factor above its comfortable level");
    } else {
        let _ = write!(out, "{}", assessment.risk_factors.join(" "));
    }
    out
}
