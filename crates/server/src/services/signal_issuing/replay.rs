//! First start: the last few weeks replayed through the engine at each day's close, so a new
//! deployment shows the signals the strategies issued recently and how each one ended, from
//! the same code and the same stored history as the live refresh.

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use strikeline_engine::{ProposalContext, SymbolState};
use strikeline_store::market;
use strikeline_store::signals::{self as store, SignalRow};

use super::{mark_row, signal_row};
use crate::foundation::error::Result;
use crate::foundation::market::{WARM_UP_LOAD, engine_bar};
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::Provenance;

/// Replays the last `market.replay_days` sessions when no automated signal exists yet.
/// Returns how many signals it issued.
pub async fn replay_recent(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let days = i64::from(state.config.market.replay_days);
    if days == 0 || store::issued_since(&state.db, DateTime::UNIX_EPOCH).await? > 0 {
        return Ok(0);
    }
    let through = state.market.last_completed_day(now);
    let calendar = &state.market.calendar;
    let mut first = through;
    for _ in 1..days {
        first = calendar.previous_trading_day(first);
    }
    let picker = |from: NaiveDate, min_days: u32| state.market.expiration(from, min_days);
    let mut rows: Vec<SignalRow> = Vec::new();
    for stock in market::list_stocks(&state.db).await? {
        let bars = market::bars(&state.db, &stock.symbol, first - Duration::days(WARM_UP_LOAD * 2), through).await?;
        let mut engine = SymbolState::new();
        let mut active: HashMap<strikeline_engine::Strategy, usize> = HashMap::new();
        let mut previous_close = None;
        for bar in &bars {
            let day = engine_bar(bar);
            if engine.update(&day).is_err() {
                continue;
            }
            if bar.day >= first {
                let close_at = session_close(state, bar.day);
                // Mark what is open at this close, then let the strategies speak.
                let spot = dollars(bar.close_cents);
                let prior = previous_close.unwrap_or(spot);
                active.retain(|_, index| {
                    let row = &mut rows[*index];
                    let Some(m) = mark_row(state, row, spot, prior, close_at) else { return true };
                    row.current_option_cents = m.current_option_cents;
                    row.current_price_cents = m.current_price_cents;
                    row.previous_close_cents = m.previous_close_cents;
                    row.pnl_cents = m.pnl_cents;
                    row.pnl_percent = m.pnl_percent;
                    row.updated_at = close_at;
                    match m.close {
                        Some((status, reason)) => {
                            row.status = status;
                            row.close_reason = Some(reason);
                            row.closed_at = Some(close_at);
                            row.net_pnl_cents = m.net_pnl_cents;
                            false
                        }
                        None => true,
                    }
                });
                let ctx = ProposalContext {
                    symbol: &stock.symbol,
                    as_of: bar.day,
                    spot,
                    assumptions: state.market.assumptions,
                    expiration: &picker,
                };
                for proposal in engine.propose(&ctx) {
                    let strategy = proposal.strategy;
                    if active.contains_key(&strategy) {
                        continue;
                    }
                    let mut row = signal_row(state, &proposal, &stock, None, None, bar.day, close_at);
                    row.provenance = Provenance::Replayed.as_str().to_owned();
                    row.previous_close_cents = previous_close.map_or(bar.close_cents, to_cents);
                    active.insert(strategy, rows.len());
                    rows.push(row);
                }
            }
            previous_close = Some(dollars(bar.close_cents));
        }
    }
    let issued = store::issue_automated_at(&state.db, &rows, now).await?;
    tracing::info!(signals = issued.len(), from = %first, through = %through, "recent sessions replayed");
    Ok(issued.len())
}

/// A minute before the close of `day`'s session (when the replay "issues" at the close).
fn session_close(state: &AppState, day: NaiveDate) -> DateTime<Utc> {
    state.market.calendar.session(day).map_or(day.and_time(NaiveTime::MIN).and_utc(), |s| s.close - Duration::minutes(1))
}
