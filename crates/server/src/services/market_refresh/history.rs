//! Daily history: caught up from the provider to the last completed session.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use strikeline_market::DailyBar;
use strikeline_store::market::{self, BarRow};

use crate::foundation::error::{AppError, Result};
use crate::foundation::money::to_cents;
use crate::foundation::state::AppState;

/// A provider bar in cents.
pub fn bar_row(bar: &DailyBar) -> BarRow {
    BarRow {
        day: bar.date,
        open_cents: to_cents(bar.open),
        high_cents: to_cents(bar.high),
        low_cents: to_cents(bar.low),
        close_cents: to_cents(bar.close),
        volume: i64::try_from(bar.volume).unwrap_or(i64::MAX),
    }
}

/// Where the history of a symbol with no stored bars starts.
pub fn history_start(state: &AppState, through: NaiveDate) -> NaiveDate {
    let years = i64::from(state.config.market.history_years);
    // Enough to warm the engine even when little history is asked for.
    through - Duration::days((years * 365).max(420))
}

/// Fetches and stores the missing bars of `symbol` up to `through`; returns how many.
pub async fn catch_up_symbol(state: &AppState, symbol: &str, through: NaiveDate) -> Result<usize> {
    let from = match market::latest_bar_day(&state.db, symbol).await? {
        Some(last) if last >= through => return Ok(0),
        Some(last) => last + Duration::days(1),
        None => history_start(state, through),
    };
    let bars = state.market.provider.daily_bars(symbol, from, through).await.map_err(|e| AppError::upstream("Market data", e))?;
    let rows: Vec<(String, BarRow)> = bars.iter().filter(|b| b.is_consistent()).map(|b| (symbol.to_owned(), bar_row(b))).collect();
    market::upsert_bars(&state.db, &rows).await?;
    Ok(rows.len())
}

/// Brings every tracked symbol's history up to the last completed session. A symbol the
/// provider cannot serve now is logged and left for the next run.
pub async fn catch_up_history(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    if state.config.market.history_years == 0 {
        return Ok(0);
    }
    let through = state.market.last_completed_day(now);
    let mut total = 0;
    for stock in market::list_stocks(&state.db).await? {
        match catch_up_symbol(state, &stock.symbol, through).await {
            Ok(n) => total += n,
            Err(err) => tracing::warn!(symbol = %stock.symbol, error = %err, "history not caught up"),
        }
    }
    if total > 0 {
        tracing::info!(bars = total, through = %through, "history caught up");
    }
    Ok(total)
}
