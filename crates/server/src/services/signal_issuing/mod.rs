//! Issuing signals from the strategies, and marking active ones to market.

pub mod replay;

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_engine::{DailyBar, OpenSignal, Proposal, ProposalContext, SymbolState, mark};
use strikeline_market::Quote;
use strikeline_store::market::{self, StockRow};
use strikeline_store::signals::{self as store, SignalMark, SignalRow};

use crate::foundation::error::{AppError, Result};
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{CloseReason, SignalKind, SignalStatus, StrategyName, Vocabulary};

/// The stored form of an issued proposal.
pub fn signal_row(
    p: &Proposal,
    stock: &StockRow,
    quote: Option<&Quote>,
    owner: Option<&str>,
    issued_on: NaiveDate,
    at: DateTime<Utc>,
) -> SignalRow {
    let previous_close = quote.map_or(stock.previous_close_cents, |q| to_cents(q.previous_close));
    SignalRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: stock.symbol.clone(),
        company_name: stock.company_name.clone(),
        signal_type: SignalKind::from(p.signal_type).as_str().to_owned(),
        strategy: StrategyName::from(p.strategy).as_str().to_owned(),
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
    }
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
    let close = CloseReason::of(m.outcome);
    Some(SignalMark {
        id: row.id.clone(),
        current_option_cents: to_cents(m.option_price),
        current_price_cents: to_cents(spot),
        previous_close_cents: to_cents(previous_close),
        pnl_cents: to_cents(m.pnl),
        pnl_percent: m.pnl_percent,
        close: close.map(|(status, reason)| (status.as_str().to_owned(), reason.as_str().to_owned())),
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
                (None, Some(rank)) => Audience::SignalOfRank(*rank),
                (None, None) => return None,
            };
            Some(Event { event_type: crate::foundation::vocab::WebhookEventType::SignalClosed, audience, data: signal_data(row) })
        })
        .collect();
    emit(state, &events, now).await?;
    Ok(())
}

/// The engine state of `stock` at `now`: warmed through the last completed session, plus the
/// session in progress (from its quote) while the exchange is open.
async fn state_now(
    state: &AppState,
    symbol: &str,
    quote: Option<&Quote>,
    now: DateTime<Utc>,
) -> Result<Option<(SymbolState, NaiveDate, f64)>> {
    let through = state.market.last_completed_day(now);
    let Some(mut engine) = state.market.warm_state(&state.db, symbol, through).await? else { return Ok(None) };
    let Some(latest) = engine.latest().map(|s| (s.date, s.close)) else { return Ok(None) };
    let today = state.market.today(now);
    match quote {
        Some(q) if state.market.calendar.is_open(now) && today > latest.0 => {
            let partial =
                DailyBar { date: today, open: q.day_open, high: q.day_high, low: q.day_low, close: q.price, volume: q.volume as f64 };
            if engine.update(&partial).is_ok() {
                return Ok(Some((engine, today, q.price)));
            }
            Ok(Some((engine, latest.0, latest.1)))
        }
        Some(q) => Ok(Some((engine, latest.0, q.price))),
        None => Ok(Some((engine, latest.0, latest.1))),
    }
}

/// Runs the four strategies over every tracked symbol and issues what they propose. A symbol
/// and strategy with an active signal already is skipped (the store refuses duplicates).
/// Returns the ids issued.
pub async fn issue_signals(state: &AppState, quotes: &HashMap<String, Quote>, now: DateTime<Utc>) -> Result<Vec<String>> {
    let stocks = market::list_stocks(&state.db).await?;
    let issued_on = state.market.issue_day(now);
    let picker = |from: NaiveDate, min_days: u32| state.market.expiration(from, min_days);
    let mut rows = Vec::new();
    let mut volatilities = Vec::new();
    for stock in &stocks {
        let quote = quotes.get(&stock.symbol);
        let Some((engine, as_of, spot)) = state_now(state, &stock.symbol, quote, now).await? else { continue };
        if let Some(hv20) = engine.latest().and_then(|l| l.hv20) {
            volatilities.push((stock.symbol.clone(), strikeline_engine::pricing_volatility(hv20)));
        }
        let ctx = ProposalContext { symbol: &stock.symbol, as_of, spot, assumptions: state.market.assumptions, expiration: &picker };
        for proposal in engine.propose(&ctx) {
            rows.push(signal_row(&proposal, stock, quote, None, issued_on, now));
        }
    }
    market::set_volatilities(&state.db, &volatilities).await?;
    let issued = store::issue_automated(&state.db, &rows).await?;
    if !issued.is_empty() {
        tracing::info!(count = issued.len(), "signals issued");
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
    let (engine, as_of, spot) = state_now(state, &stock.symbol, quote.as_ref(), now).await?.ok_or_else(no_history)?;
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
    let row = signal_row(&proposal, stock, quote.as_ref(), Some(owner), state.market.issue_day(now), now);
    Ok(store::insert_on_demand_within(&state.db, &row, quota).await?.then_some(row))
}
