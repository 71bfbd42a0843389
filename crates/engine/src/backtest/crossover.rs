//! A plain stock SMA crossover, the speed yardstick against other backtesters.

use chrono::NaiveDate;
use strikeline_quant::indicators::{Next, Sma};

use crate::types::DailyBar;

/// One round trip of [`sma_crossover`].
///
/// ```
/// use chrono::NaiveDate;
/// let d = |day| NaiveDate::from_ymd_opt(2024, 1, day).unwrap();
/// let t = strikeline_engine::backtest::CrossoverTrade { entry_date: d(2), exit_date: d(9), entry_price: 50.0, exit_price: 55.0 };
/// assert!((t.exit_price / t.entry_price - 1.0 - 0.1).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossoverTrade {
    /// Bought at this day's close.
    pub entry_date: NaiveDate,
    /// Sold at this day's close.
    pub exit_date: NaiveDate,
    /// The entry close.
    pub entry_price: f64,
    /// The exit close.
    pub exit_price: f64,
}

/// The result of [`sma_crossover`].
///
/// ```
/// let r = strikeline_engine::backtest::sma_crossover(&[], 10, 30);
/// assert_eq!((r.trades.len(), r.open_position, r.final_equity, r.bars), (0, None, 1.0, 0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CrossoverResult {
    /// Closed round trips.
    pub trades: Vec<CrossoverTrade>,
    /// The position still held after the last bar: entry date and price.
    pub open_position: Option<(NaiveDate, f64)>,
    /// Equity after the last bar, starting from 1.0 (an open position valued at the last
    /// close).
    pub final_equity: f64,
    /// `final_equity − 1`.
    pub total_return: f64,
    /// Bars read.
    pub bars: usize,
    /// Bars on which the position was held (at the close).
    pub bars_in_market: usize,
}

/// A plain long-only stock SMA crossover, the yardstick of the side-by-side speed
/// comparison with vectorbt and backtesting.py (`bench/peers/sma_crossover.py`):
///
/// - `SMA(fast)` and `SMA(slow)` of the closes ([`Sma`], TA-Lib's definition, first
///   values at bars `fast` and `slow`);
/// - a **cross above** on bar `t`: `SMA_fast(t) > SMA_slow(t)` while the last bar on which
///   the two differed had `SMA_fast < SMA_slow` (equal values keep the previous side,
///   as vectorbt's `crossed_above`); a **cross below** is the mirror. The first bar on
///   which both averages exist only sets the side: it is not a cross;
/// - buy with all the equity at the close of a cross above (fractional shares), sell at
///   the close of a cross below; no costs, no shorting;
/// - equity starts at 1.0; a position still open after the last bar is valued at the
///   last close.
///
/// Degenerate periods (`fast` 0, or `fast ≥ slow`) trade nothing.
///
/// ```
/// use chrono::{Days, NaiveDate};
/// use strikeline_engine::DailyBar;
/// use strikeline_engine::backtest::sma_crossover;
/// let first = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
/// let closes = [10.0, 10.0, 10.0, 9.0, 8.0, 9.0, 11.0, 12.0, 11.0, 9.0, 8.0];
/// let bars: Vec<DailyBar> = closes.iter().enumerate().map(|(i, &c)| DailyBar {
///     date: first + Days::new(i as u64), open: c, high: c, low: c, close: c, volume: 1.0,
/// }).collect();
/// let r = sma_crossover(&bars, 2, 3);
/// // SMA2 < SMA3 from bar 3; SMA2 crosses above on bar 6 (10.0 > 9.33), below on bar 9 (10.0 < 10.67).
/// assert_eq!(r.trades.len(), 1);
/// assert_eq!((r.trades[0].entry_price, r.trades[0].exit_price), (11.0, 9.0));
/// assert!((r.total_return - (9.0 / 11.0 - 1.0)).abs() < 1e-12);
/// ```
#[must_use]
pub fn sma_crossover(bars: &[DailyBar], fast: usize, slow: usize) -> CrossoverResult {
    let mut result = CrossoverResult {
        trades: Vec::new(),
        open_position: None,
        final_equity: 1.0,
        total_return: 0.0,
        bars: bars.len(),
        bars_in_market: 0,
    };
    let (Ok(mut fast_sma), Ok(mut slow_sma)) = (Sma::new(fast), Sma::new(slow)) else {
        return result;
    };
    if fast >= slow {
        return result;
    }
    // Side of the last bar on which the averages differed: 1 above, -1 below, 0 unknown.
    let mut side: i8 = 0;
    let mut equity = 1.0;
    let mut holding: Option<(NaiveDate, f64)> = None;
    for bar in bars {
        let close = bar.close;
        let (f, s) = (fast_sma.next(close), slow_sma.next(close));
        if let (Some(f), Some(s)) = (f, s) {
            if f > s {
                if side == -1 && holding.is_none() {
                    holding = Some((bar.date, close));
                }
                side = 1;
            } else if f < s {
                if side == 1
                    && let Some((entry_date, entry_price)) = holding.take()
                {
                    equity *= close / entry_price;
                    result.trades.push(CrossoverTrade { entry_date, exit_date: bar.date, entry_price, exit_price: close });
                }
                side = -1;
            }
        }
        if holding.is_some() {
            result.bars_in_market += 1;
        }
    }
    if let (Some((date, price)), Some(last)) = (holding, bars.last()) {
        equity *= last.close / price;
        result.open_position = Some((date, price));
    }
    result.final_equity = equity;
    result.total_return = equity - 1.0;
    result
}
