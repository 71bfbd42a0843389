//! Issuing signals from the strategies, and marking active ones to market.

pub mod replay;

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_engine::{Costs, EntryContext, OpenSignal, Proposal, ProposalContext, mark};
use strikeline_market::Quote;
use strikeline_quant::{BlackScholes, Drift, OptionInputs, TradeAnalysis};
use strikeline_store::market::{self, StockRow};
use strikeline_store::signals::{self as store, SignalMark, SignalRow};

use crate::foundation::error::{AppError, Result};
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{CloseReason, Provenance, SignalKind, SignalStatus, Vocabulary};
use crate::services::{custom_rules, notifying, predicting};

/// The outcome rule's standard fill model as stored on a signal ([`Costs::STANDARD`]): 1%
/// slippage, $0.65 a contract.
pub const STANDARD_SLIPPAGE_BP: i64 = 100;
pub const STANDARD_COMMISSION_CENTS: i64 = 65;

/// The stored form of an issued proposal: live, resolved with the standard costs, with the
/// risk-neutral probability of profit as known at `at`.
pub fn signal_row(
    state: &AppState,
    p: &Proposal,
    stock: &StockRow,
    quote: Option<&Quote>,
    owner: Option<&str>,
    issued_on: NaiveDate,
    at: DateTime<Utc>,
) -> SignalRow {
    let previous_close = quote.map_or(stock.previous_close_cents, |q| to_cents(q.previous_close));
    let mut row = SignalRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: stock.symbol.clone(),
        company_name: stock.company_name.clone(),
        signal_type: SignalKind::from(p.signal_type).as_str().to_owned(),
        // The engine's label is the wire name (foundation::vocab's tests).
        strategy: p.strategy.label().to_owned(),
        strike_cents: to_cents(p.strike),
        expiration_date: p.expiration,
        entry_cents: to_cents(p.entry_price),
        target_cents: to_cents(p.target_price),
        stop_cents: to_cents(p.stop_loss),
        underlying_entry_cents: to_cents(p.underlying_price),
        volatility: p.volatility,
        confidence: i64::from(p.confidence),
        rsi: p.rsi,
        volume: p.volume.and_then(|v| i64::try_from(v).ok()),
        reasoning: p.reasoning.clone(),
        current_option_cents: to_cents(p.entry_price),
        current_price_cents: to_cents(p.underlying_price),
        previous_close_cents: previous_close,
        pnl_cents: 0,
        pnl_percent: 0.0,
        status: SignalStatus::Active.as_str().to_owned(),
        close_reason: None,
        closed_at: None,
        owner_id: owner.map(str::to_owned),
        issued_on,
        created_at: at,
        updated_at: at,
        provenance: Provenance::Live.as_str().to_owned(),
        slippage_bp: STANDARD_SLIPPAGE_BP,
        commission_cents: STANDARD_COMMISSION_CENTS,
        issue_probability: None,
        net_pnl_cents: None,
        model_probability: None,
        model_version: None,
        model_why: None,
        custom_strategy_id: None,
        close_after: None,
    };
    row.issue_probability = probability_of_profit(state, &row, at);
    row
}

/// The costs a stored signal's outcome is resolved with.
pub fn costs(row: &SignalRow) -> Costs {
    stored_costs(row.slippage_bp, row.commission_cents)
}

fn stored_costs(slippage_bp: i64, commission_cents: i64) -> Costs {
    Costs { slippage: slippage_bp as f64 / 10_000.0, commission_per_contract: dollars(commission_cents) }
}

/// The risk-neutral probability that a stored signal's position is profitable at expiry, as
/// known at `at` (spot at the underlying's price at issue), to four decimals; `None` when the
/// model refuses its numbers.
pub fn probability_of_profit(state: &AppState, row: &SignalRow, at: DateTime<Utc>) -> Option<f64> {
    let open = open_signal(row)?;
    let model = BlackScholes::new(OptionInputs {
        spot: dollars(row.underlying_entry_cents),
        strike: open.strike,
        rate: state.market.assumptions.rate,
        dividend_yield: state.market.assumptions.dividend_yield,
        volatility: open.volatility,
        time_to_expiry: state.market.years_to_expiry(row.expiration_date, at),
    })
    .ok()?;
    let trade = TradeAnalysis::new(model, open.signal_type.option_type(), open.entry_price).ok()?;
    let p = trade.summary(Drift::RISK_NEUTRAL).probability_of_profit;
    p.is_finite().then(|| (p.clamp(0.0, 1.0) * 10_000.0).round() / 10_000.0)
}

/// The engine's view of a stored signal; `None` when its stored type is none of the spellings.
pub fn open_signal(row: &SignalRow) -> Option<OpenSignal> {
    Some(OpenSignal {
        signal_type: SignalKind::exact(&row.signal_type).ok()?.into(),
        strike: dollars(row.strike_cents),
        expiration: row.expiration_date,
        entry_price: dollars(row.entry_cents),
        target_price: dollars(row.target_cents),
        stop_loss: dollars(row.stop_cents),
        volatility: row.volatility,
    })
}

/// The mark of `row` at `spot` and `now`, with how it ends if it does.
pub fn mark_row(state: &AppState, row: &SignalRow, spot: f64, previous_close: f64, now: DateTime<Utc>) -> Option<SignalMark> {
    let open = open_signal(row)?;
    let years = state.market.years_to_expiry(row.expiration_date, now);
    let expired = state.market.has_expired(row.expiration_date, now);
    let m = mark(&open, spot, years, expired, state.market.assumptions).ok()?;
    // A custom strategy's time limit ends it once its last session has closed, when nothing
    // else has.
    let timed_out = row.close_after.is_some_and(|last| state.market.last_completed_day(now) >= last);
    let close = CloseReason::of(m.outcome).or(timed_out.then_some((SignalStatus::Closed, CloseReason::Time)));
    let net_pnl_cents = close.map(|_| to_cents(costs(row).net_pnl(open.entry_price, m.option_price, 1.0)));
    Some(SignalMark {
        id: row.id.clone(),
        current_option_cents: to_cents(m.option_price),
        current_price_cents: to_cents(spot),
        previous_close_cents: to_cents(previous_close),
        pnl_cents: to_cents(m.pnl),
        pnl_percent: m.pnl_percent,
        close: close.map(|(status, reason)| (status.as_str().to_owned(), reason.as_str().to_owned())),
        net_pnl_cents,
        at: now,
    })
}

/// Marks every active signal to its symbol's quote; signals reaching their target or stop
/// close, and those past expiry expire at intrinsic value. Returns how many ended.
pub async fn mark_signals(state: &AppState, quotes: &HashMap<String, Quote>, now: DateTime<Utc>) -> Result<usize> {
    let active = store::active(&state.db).await?;
    let marks: Vec<SignalMark> = active
        .iter()
        .filter_map(|row| {
            let quote = quotes.get(&row.symbol)?;
            mark_row(state, row, quote.price, quote.previous_close, now)
        })
        .collect();
    let ended: Vec<&str> = marks.iter().filter(|m| m.close.is_some()).map(|m| m.id.as_str()).collect();
    // The rank of each automated signal in its day decides which plans are told it closed.
    let ranks: HashMap<String, i64> = if ended.is_empty() {
        HashMap::new()
    } else {
        store::active_automated(&state.db).await?.into_iter().map(|r| (r.signal.id, r.day_rank)).collect()
    };
    store::apply_marks(&state.db, &marks).await?;
    announce_closed(state, &ended, &ranks, now).await?;
    Ok(ended.len())
}

/// Queues `signal_closed` webhooks for the signals that just ended.
async fn announce_closed(state: &AppState, ended: &[&str], ranks: &HashMap<String, i64>, now: DateTime<Utc>) -> Result<()> {
    use crate::services::webhooks::{Audience, Event, emit, signal_data};
    let mut closed = Vec::with_capacity(ended.len());
    for id in ended {
        if let Some(row) = store::find(&state.db, id).await? {
            closed.push(row);
        }
    }
    let events: Vec<Event> = closed
        .iter()
        .filter_map(|row| {
            let audience = match (&row.owner_id, ranks.get(&row.id)) {
                (Some(owner), _) => Audience::Owner(owner),
                (None, Some(rank)) => Audience::Signal { day: row.issued_on, rank: *rank },
                (None, None) => return None,
            };
            Some(Event { event_type: crate::foundation::vocab::WebhookEventType::SignalClosed, audience, data: signal_data(row) })
        })
        .collect();
    emit(state, &events, now).await?;
    Ok(())
}

/// Runs the four strategies over every tracked symbol and issues what they propose, and each
/// switched-on custom strategy of an entitled owner, whose signals go to that owner alone. A
/// symbol and strategy with an active signal already is skipped (the store refuses
/// duplicates). Returns the ids of the house rules' signals issued.
pub async fn issue_signals(state: &AppState, quotes: &HashMap<String, Quote>, now: DateTime<Utc>) -> Result<Vec<String>> {
    let stocks = market::list_stocks(&state.db).await?;
    let issued_on = state.market.issue_day(now);
    let picker = |from: NaiveDate, min_days: u32| state.market.expiration(from, min_days);
    let scoring = predicting::Scoring::load(state, now).await?;
    let scorer = scoring.as_ref().map(predicting::Scoring::scorer);
    let custom = custom_rules::live(state, now).await?;
    let mut custom_rows = Vec::new();
    let mut rows = Vec::new();
    let mut volatilities = Vec::new();
    for stock in &stocks {
        let quote = quotes.get(&stock.symbol);
        let Some((engine, as_of, spot)) = state.market.state_now(&state.db, &stock.symbol, quote, now).await? else { continue };
        if let Some(hv20) = engine.latest().and_then(|l| l.hv20) {
            volatilities.push((stock.symbol.clone(), strikeline_engine::pricing_volatility(hv20)));
        }
        let context = engine.latest().map(EntryContext::of).unwrap_or_default();
        let ctx = ProposalContext { symbol: &stock.symbol, as_of, spot, assumptions: state.market.assumptions, expiration: &picker };
        for proposal in engine.propose(&ctx) {
            let mut row = signal_row(state, &proposal, stock, quote, None, issued_on, now);
            if let Some(scorer) = &scorer {
                scorer.score(&mut row, &proposal, as_of, context, &stock.sector);
            }
            rows.push(row);
        }
        for strategy in &custom {
            if let Some(proposal) = strategy.rule.propose(&engine, &ctx) {
                let mut row = signal_row(state, &proposal, stock, quote, Some(&strategy.owner), issued_on, now);
                // A custom AI strategy's threshold on the model's figure for the setup. The figure
                // is not stored on the signal: the track record checks it for the house
                // strategies only, so it is no chance a user is shown (docs/decisions.md §20).
                if strategy.min_probability.is_some() {
                    let figure = scorer.as_ref().map(|s| s.judge(&proposal, as_of, context, &stock.sector).0);
                    if !custom_rules::clears(strategy.min_probability, figure) {
                        continue;
                    }
                }
                row.custom_strategy_id = Some(strategy.id.clone());
                // Held at most `maxDays` calendar days from the session it was issued on, as the
                // backtest holds it.
                row.close_after = strategy.rule.exits.max_days.map(|days| as_of + chrono::Days::new(u64::from(days)));
                custom_rows.push(row);
            }
        }
    }
    market::set_volatilities(&state.db, &volatilities).await?;
    let issued = store::issue_automated_at(&state.db, &rows, now).await?;
    if !issued.is_empty() {
        tracing::info!(count = issued.len(), "signals issued");
    }
    let issued_custom = store::issue_custom(&state.db, &custom_rows).await?;
    if !issued_custom.is_empty() {
        tracing::info!(count = issued_custom.len(), "custom strategies' signals issued");
        let name_of = |id: &Option<String>| custom.iter().find(|s| Some(&s.id) == id.as_ref()).map_or("", |s| s.name.as_str());
        let announced: Vec<(&SignalRow, &str)> =
            custom_rows.iter().filter(|row| issued_custom.contains(&row.id)).map(|row| (row, name_of(&row.custom_strategy_id))).collect();
        notifying::custom_signals(state, &announced, now).await?;
    }
    Ok(issued)
}

/// Which setups an on-demand generation may return: from these strategies, with a confidence
/// in this range (inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerationChoice {
    pub strategies: Vec<strikeline_engine::Strategy>,
    pub confidence: (u8, u8),
}

impl Default for GenerationChoice {
    /// The four strategies, any confidence.
    fn default() -> Self {
        GenerationChoice { strategies: strikeline_engine::Strategy::ALL.to_vec(), confidence: (0, 100) }
    }
}

/// The strongest setup `choice` allows in `stock` now, as a signal owned by `owner`;
/// `None` when `owner` already has `quota` signals of their own today (checked atomically).
pub async fn generate_for_symbol(
    state: &AppState,
    stock: &StockRow,
    owner: &str,
    quota: Option<u32>,
    choice: &GenerationChoice,
    now: DateTime<Utc>,
) -> Result<Option<SignalRow>> {
    let symbols = [stock.symbol.clone()];
    let quote = state.market.provider.quotes(&symbols, now).await.map_err(|e| AppError::upstream("Market data", e))?.into_iter().next();
    let no_history = || AppError::field("symbol", "There is not enough price history for this symbol yet");
    let (engine, as_of, spot) = state.market.state_now(&state.db, &stock.symbol, quote.as_ref(), now).await?.ok_or_else(no_history)?;
    let proposals = {
        // The context borrows a `dyn Fn` (not `Sync`): keep it out of the awaits.
        let picker = |from: NaiveDate, min_days: u32| state.market.expiration(from, min_days);
        let ctx = ProposalContext { symbol: &stock.symbol, as_of, spot, assumptions: state.market.assumptions, expiration: &picker };
        engine.ranked_proposals(&ctx, &choice.strategies)
    };
    if proposals.is_empty() {
        return Err(no_history());
    }
    let (low, high) = choice.confidence;
    let proposal = proposals
        .into_iter()
        .find(|p| (low..=high).contains(&p.confidence))
        .ok_or_else(|| AppError::field("riskLevel", &format!("No setup for {} falls in that risk level now", stock.symbol)))?;
    let mut row = signal_row(state, &proposal, stock, quote.as_ref(), Some(owner), state.market.issue_day(now), now);
    if let Some(scoring) = predicting::Scoring::load(state, now).await? {
        let context = engine.latest().map(EntryContext::of).unwrap_or_default();
        scoring.scorer().score(&mut row, &proposal, as_of, context, &stock.sector);
    }
    Ok(store::insert_on_demand_within(&state.db, &row, quota).await?.then_some(row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_standard_costs_are_the_backtesters() {
        assert_eq!(stored_costs(STANDARD_SLIPPAGE_BP, STANDARD_COMMISSION_CENTS), Costs::STANDARD);
    }
}
