//! Portfolio optimisation (issue 29, Premium; docs/optimisation.md): how many contracts of
//! which signals the user can see now would maximise expected P&L while the book stays within
//! the risk model's comfortable levels. A proposal: nothing is bought.
//!
//! - **The chance of each signal** is a checked probability: the predictive model's, given at
//!   issue; for a signal the model did not score, its strategy's win rate over its resolved
//!   signals by the same outcome rule (net P&L after costs above zero) once that rests on the
//!   track record's minimum sample: the live ones alone when they reach it, else with those
//!   replayed from history at first start (labelled so). A signal with none is left out, named.
//! - **Expected P&L per contract** is that chance times the gain to the signal's target less
//!   the rest times the loss to its stop, from today's premium, after the signal's own fill
//!   model (slippage both ways, commission in and out).
//! - **The limits** (docs/risk.md's comfortable levels, from the user's settings): premium at
//!   risk within a quarter of the capital, the open premium counted; each position within the
//!   user's maximum position size; a quarter of that budget per symbol and half per strategy;
//!   net dollar delta within ±0.5× the capital and net vega within ±0.2 % of it per volatility
//!   point, the book's own exposure counted. Where the book is already beyond a bound, the bound
//!   widens to where it stands: a proposal never makes it worse.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::portfolio::optimise::{self, Candidate, Limits, OptimiseError};
use strikeline_engine::portfolio::{PositionInput, RiskPosition, thresholds};
use strikeline_store::signals::{OutcomeCount, SignalFilter, SignalRow};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, Result};
use crate::foundation::money::{dollars, round2};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{SignalKind, TradedStrategy, stored};

/// Most contracts of one signal a proposal holds.
const MAX_CONTRACTS: u32 = 100;

/// Where a candidate's chance comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChanceSource {
    /// The predictive model's probability, given at issue.
    Model,
    /// The strategy's win rate over its resolved live signals (the track record).
    TrackRecord,
    /// The strategy's win rate over its resolved signals, those replayed from stored history
    /// at first start included (too few live ones yet).
    History,
}

/// One signal the proposal holds.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProposedPosition {
    pub signal_id: String,
    pub symbol: String,
    pub strategy: TradedStrategy,
    /// The user's custom strategy that issued it (`strategy` is then `Custom`), so the proposal
    /// names it as the signals do; `null` for the house rules (or a deleted strategy).
    pub custom_strategy_id: Option<String>,
    #[serde(rename = "type")]
    pub signal_type: SignalKind,
    pub strike_price: f64,
    pub expiration_date: NaiveDate,
    pub contracts: u32,
    /// Premium per share now.
    pub premium: f64,
    /// Dollars for all its contracts.
    pub cost: f64,
    /// The chance it reaches its target before its stop, 0–1.
    pub probability: f64,
    pub probability_source: ChanceSource,
    /// Dollars for all its contracts, after costs.
    pub expected_pnl: f64,
    /// Dollar delta and vega ($ per volatility point) of all its contracts.
    pub delta_dollars: f64,
    pub vega: f64,
}

/// A signal not considered, and why.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    pub signal_id: String,
    pub symbol: String,
    pub reason: String,
}

/// The limits the proposal keeps, in dollars.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimisationLimits {
    /// Premium the proposal may spend: a quarter of the capital less the open premium.
    pub budget: f64,
    pub max_position_cost: f64,
    pub max_per_symbol: f64,
    pub max_per_strategy: f64,
    /// Net dollar delta after the proposal: `[low, high]`.
    pub delta: [f64; 2],
    /// Net vega after the proposal ($ per volatility point): `[low, high]`.
    pub vega: [f64; 2],
}

/// `POST /api/portfolio/optimise`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Optimisation {
    pub limits: OptimisationLimits,
    /// What to hold, best first by expected P&L.
    pub positions: Vec<ProposedPosition>,
    /// Signals considered (visible, active, with a checked chance, one contract affordable).
    pub candidates: usize,
    pub left_out: Vec<LeftOut>,
    pub cost: f64,
    pub expected_pnl: f64,
    pub delta_before: f64,
    pub delta_after: f64,
    pub vega_before: f64,
    pub vega_after: f64,
    /// Whether the search proved no other whole-contract choice earns more; otherwise it
    /// stopped at its step budget with the best found (docs/optimisation.md).
    pub proven_optimal: bool,
    /// What no choice can exceed (the fractional optimum): how far from the best a proposal
    /// that is not proven optimal can be.
    pub expected_pnl_bound: f64,
}

/// Why a signal whose single contract cannot be held is left out.
pub const TOO_DEAR_FOR_POSITION: &str = "One contract costs more than your maximum position size.";
pub const TOO_DEAR_FOR_BUDGET: &str =
    "One contract costs more than the premium budget left (a quarter of your capital less your open positions).";

/// One candidate with what the view shows of it.
struct Considered {
    row: SignalRow,
    kind: SignalKind,
    strategy: TradedStrategy,
    probability: f64,
    source: ChanceSource,
    candidate: Candidate,
}

/// The proposal for `user` at `now` (Premium, through the one entitlement check).
pub async fn propose(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Optimisation> {
    let rights = Entitlements::of(user, now);
    rights.require(Capability::PortfolioOptimisation)?;
    let book = super::portfolio_valuation::book(state, user, now).await?;
    let capital = dollars(user.investment_capital_cents);
    let (delta_before, vega_before, open_premium) = exposure(&book.risk);
    let limits = limits_for(capital, dollars(user.max_position_size_cents), open_premium, delta_before, vega_before);

    let filter = SignalFilter { status: Some("active".into()), limit: i64::MAX, ..SignalFilter::default() };
    let visible = super::visibility::ranked_for(state, user, &filter, now).await?;
    let rates = win_rates(&strikeline_store::signals::outcome_counts(&state.db).await?);
    let today = state.market.today(now);
    let mut considered = Vec::new();
    let mut left_out = Vec::new();
    for (row, locked) in visible {
        if locked {
            continue;
        }
        let leave = |reason: &str| LeftOut { signal_id: row.id.clone(), symbol: row.symbol.clone(), reason: reason.to_owned() };
        let strategy: TradedStrategy = stored(&row.strategy, format_args!("signal {}", row.id))?;
        let chance = match row.model_probability.filter(|p| p.is_finite() && (0.0..=1.0).contains(p)) {
            Some(p) => Some((p, ChanceSource::Model)),
            None => rates.get(&strategy).copied(),
        };
        let Some((probability, source)) = chance else {
            left_out.push(leave("No checked chance yet: the model did not score it and its strategy has too few resolved signals."));
            continue;
        };
        if row.expiration_date <= today {
            left_out.push(leave("Expires today."));
            continue;
        }
        match candidate(state, &row, probability, limits.max_position_cost, today) {
            None => left_out.push(leave("Its premium or Greeks cannot be computed from today's prices.")),
            // Not a choice the search could make: named, so an empty proposal says why.
            Some((_, c)) if c.max_contracts == 0 => left_out.push(leave(TOO_DEAR_FOR_POSITION)),
            Some((_, c)) if limits.capital > 0.0 && c.cost > limits.capital => left_out.push(leave(TOO_DEAR_FOR_BUDGET)),
            Some((kind, candidate)) => considered.push(Considered { kind, strategy, probability, source, candidate, row }),
        }
    }

    let candidates: Vec<Candidate> = considered.iter().map(|c| c.candidate.clone()).collect();
    // The bounds were widened to the book and every input checked above: a refusal here is a
    // fault of this code, not of the user's request.
    let proposal = optimise::optimise(&candidates, &limits)
        .map_err(|e: OptimiseError| AppError::Internal(anyhow::anyhow!("portfolio optimiser: {e}")))?;
    let mut positions: Vec<ProposedPosition> = proposal
        .contracts
        .iter()
        .filter_map(|(id, contracts)| considered.iter().find(|c| &c.candidate.id == id).map(|c| view(c, *contracts)))
        .collect();
    positions.sort_by(|a, b| b.expected_pnl.total_cmp(&a.expected_pnl));
    Ok(Optimisation {
        limits: OptimisationLimits {
            budget: round2(limits.capital),
            max_position_cost: round2(limits.max_position_cost),
            max_per_symbol: round2(limits.max_per_symbol),
            max_per_strategy: round2(limits.max_per_strategy),
            delta: [round2(limits.delta.0), round2(limits.delta.1)],
            vega: [round2(limits.vega.0), round2(limits.vega.1)],
        },
        positions,
        candidates: considered.len(),
        left_out,
        cost: round2(proposal.cost),
        expected_pnl: round2(proposal.expected_pnl),
        delta_before: round2(delta_before),
        delta_after: round2(proposal.delta),
        vega_before: round2(vega_before),
        vega_after: round2(proposal.vega),
        proven_optimal: proposal.proven_optimal,
        expected_pnl_bound: round2(proposal.pnl_bound),
    })
}

/// The book's net dollar delta, net vega and premium at risk.
fn exposure(risk: &[RiskPosition]) -> (f64, f64, f64) {
    let delta = risk.iter().map(|p| p.delta_dollars).sum();
    let vega = risk.iter().map(|p| p.vega_dollars).sum();
    let premium = risk.iter().map(|p| p.cost).sum();
    (delta, vega, premium)
}

/// The risk model's comfortable levels as the optimiser's limits (see the module's doc).
fn limits_for(capital: f64, max_position: f64, open_premium: f64, delta_now: f64, vega_now: f64) -> Limits {
    let at_risk = thresholds::CAPITAL_AT_RISK.0 * capital;
    let budget = (at_risk - open_premium).max(0.0);
    let delta_bound = thresholds::NET_DELTA.0 * capital;
    // NET_VEGA is |vega| × 10 volatility points / capital: per point, a tenth of it.
    let vega_bound = thresholds::NET_VEGA.0 * capital / 10.0;
    Limits {
        capital: budget,
        max_position_cost: max_position.max(0.0),
        max_per_strategy: 0.5 * at_risk,
        max_per_symbol: thresholds::SYMBOL_CONCENTRATION.0 * at_risk,
        delta: ((-delta_bound).min(delta_now), delta_bound.max(delta_now)),
        vega: ((-vega_bound).min(vega_now), vega_bound.max(vega_now)),
        current_delta: delta_now,
        current_vega: vega_now,
    }
}

/// Each strategy's win rate (net P&L after costs above zero) over its resolved automated
/// signals, with where it comes from: the live ones once they reach the track record's minimum
/// sample, else live and replayed together once those do; a strategy with fewer has none.
fn win_rates(outcomes: &[OutcomeCount]) -> std::collections::HashMap<TradedStrategy, (f64, ChanceSource)> {
    use crate::foundation::vocab::{Provenance, Vocabulary};
    let minimum = super::track_record::calibration::MINIMUM_SAMPLE;
    let mut counts: std::collections::HashMap<TradedStrategy, [(usize, usize); 2]> = std::collections::HashMap::new();
    for count in outcomes {
        let Ok(strategy) = TradedStrategy::exact(&count.strategy) else { continue };
        let slot = match Provenance::exact(&count.provenance) {
            Ok(Provenance::Live) => 0,
            Ok(Provenance::Replayed) => 1,
            _ => continue,
        };
        let entry = &mut counts.entry(strategy).or_default()[slot];
        entry.0 += usize::try_from(count.resolved).unwrap_or(0);
        entry.1 += usize::try_from(count.won).unwrap_or(0);
    }
    counts
        .into_iter()
        .filter_map(|(strategy, [(live_n, live_wins), (replayed_n, replayed_wins)])| {
            let rate = |wins: usize, n: usize| wins as f64 / n as f64;
            if live_n >= minimum {
                Some((strategy, (rate(live_wins, live_n), ChanceSource::TrackRecord)))
            } else if live_n + replayed_n >= minimum {
                Some((strategy, (rate(live_wins + replayed_wins, live_n + replayed_n), ChanceSource::History)))
            } else {
                None
            }
        })
        .collect()
}

/// `row` as the optimiser's candidate: premium, expected P&L, dollar delta and vega per
/// contract at today's prices; `None` when they cannot be computed.
fn candidate(state: &AppState, row: &SignalRow, probability: f64, max_position: f64, today: NaiveDate) -> Option<(SignalKind, Candidate)> {
    let kind: SignalKind = row.signal_type.parse().ok()?;
    let price = dollars(row.current_option_cents);
    let spot = dollars(row.current_price_cents);
    if price <= 0.0 || spot <= 0.0 {
        return None;
    }
    let slip = row.slippage_bp as f64 / 10_000.0;
    let commission = dollars(row.commission_cents);
    let paid = price * (1.0 + slip);
    let gain = (dollars(row.target_cents) * (1.0 - slip) - paid) * 100.0;
    let loss = (paid - dollars(row.stop_cents) * (1.0 - slip)) * 100.0;
    let expected = probability * gain - (1.0 - probability) * loss - 2.0 * commission;
    let input = PositionInput {
        symbol: row.symbol.clone(),
        sector: String::new(),
        kind: kind.into(),
        strike: dollars(row.strike_cents),
        expiration: row.expiration_date,
        quantity: 1,
        entry_price: price,
        volatility: row.volatility,
        opened_on: today,
        target_price: None,
        stop_loss: None,
    };
    let valued = input.value(spot, today, state.market.assumptions, 0.0).ok()?;
    let risk = RiskPosition::from_valuation(&input, &valued, spot);
    let cost = paid * 100.0 + commission;
    let fits = if cost > 0.0 { (max_position / cost).floor() } else { 0.0 };
    let max_contracts = if fits.is_finite() && fits >= 1.0 { (fits as u32).min(MAX_CONTRACTS) } else { 0 };
    let candidate = Candidate {
        id: row.id.clone(),
        strategy: row.strategy.clone(),
        symbol: row.symbol.clone(),
        cost,
        expected_pnl: expected,
        delta: risk.delta_dollars,
        vega: risk.vega_dollars,
        max_contracts,
    };
    (candidate.cost.is_finite() && candidate.expected_pnl.is_finite() && candidate.delta.is_finite() && candidate.vega.is_finite())
        .then_some((kind, candidate))
}

fn view(c: &Considered, contracts: u32) -> ProposedPosition {
    let n = f64::from(contracts);
    ProposedPosition {
        signal_id: c.row.id.clone(),
        symbol: c.row.symbol.clone(),
        strategy: c.strategy,
        custom_strategy_id: c.row.custom_strategy_id.clone(),
        signal_type: c.kind,
        strike_price: dollars(c.row.strike_cents),
        expiration_date: c.row.expiration_date,
        contracts,
        premium: dollars(c.row.current_option_cents),
        cost: round2(c.candidate.cost * n),
        probability: (c.probability * 10_000.0).round() / 10_000.0,
        probability_source: c.source,
        expected_pnl: round2(c.candidate.expected_pnl * n),
        delta_dollars: round2(c.candidate.delta * n),
        vega: round2(c.candidate.vega * n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_are_the_risk_models_comfortable_levels() {
        let l = limits_for(100_000.0, 5_000.0, 10_000.0, 0.0, 0.0);
        assert_eq!(l.capital, 15_000.0, "a quarter of the capital less the open premium");
        assert_eq!((l.max_per_symbol, l.max_per_strategy, l.max_position_cost), (6_250.0, 12_500.0, 5_000.0));
        assert_eq!(l.delta, (-50_000.0, 50_000.0));
        assert_eq!(l.vega, (-200.0, 200.0));
        // A book already beyond a bound: the bound widens to it, never past.
        let beyond = limits_for(100_000.0, 5_000.0, 40_000.0, 80_000.0, -300.0);
        assert_eq!(beyond.capital, 0.0, "over the premium budget: nothing more to spend");
        assert_eq!(beyond.delta, (-50_000.0, 80_000.0));
        assert_eq!(beyond.vega, (-300.0, 200.0));
    }
}
