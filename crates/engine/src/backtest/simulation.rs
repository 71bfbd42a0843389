//! The simulation loop: the timeline of dates, each symbol's bars pushed into its
//! [`SymbolState`], and the order of the day's steps (see the module documentation of
//! [`backtest`](super)).

use chrono::NaiveDate;

use super::config::{BacktestConfig, SymbolSeries};
use super::report::{BacktestReport, EquityPoint, RejectedBar, Trade, WithheldTrade};
use crate::lifecycle::OpenSignal;
use crate::state::SymbolState;
use crate::types::{BarError, Strategy};

/// An open position of the simulation.
pub(super) struct Position {
    pub(super) symbol: usize,
    pub(super) strategy: Strategy,
    pub(super) signal: OpenSignal,
    pub(super) entry_date: NaiveDate,
    pub(super) entry_fill: f64,
    pub(super) confidence: u8,
    pub(super) context: crate::state::EntryContext,
    pub(super) entry_underlying: f64,
    /// Latest mark (premium per share) and the underlying then.
    pub(super) mark: f64,
    pub(super) underlying: f64,
    /// A withheld setup's trade: held, marked and closed, but no cash moves.
    pub(super) withheld: bool,
    /// A vertical spread's short leg, when trades are spreads; `mark` is then the long leg's.
    pub(super) spread: Option<ShortLeg>,
    /// A custom strategy's time exit: closed at the first close on or after this date.
    pub(super) exit_after: Option<NaiveDate>,
}

/// The short leg of a vertical spread and the spread's exits (net premiums per share).
pub(super) struct ShortLeg {
    /// Its terms: the proposal's contract at the short strike (same type, expiry and σ).
    pub(super) signal: OpenSignal,
    /// Its latest mark.
    pub(super) mark: f64,
    /// The model's net premium at entry (long − short).
    pub(super) entry_net: f64,
    /// What the spread was filled at (long fill − short fill).
    pub(super) entry_net_fill: f64,
    pub(super) target: f64,
    pub(super) stop: Option<f64>,
}

/// Commissions are charged per contract of each leg traded: two for a spread, one otherwise (a
/// straddle is charged as one contract, as every live signal's rule does).
pub(super) fn legs(spread: Option<&ShortLeg>) -> f64 {
    if spread.is_some() { 2.0 } else { 1.0 }
}

impl Position {
    /// See [`legs`].
    pub(super) fn legs(&self) -> f64 {
        legs(self.spread.as_ref())
    }
}

pub(super) fn strategy_bit(strategy: Strategy) -> u8 {
    match strategy {
        Strategy::Momentum => 1,
        Strategy::MeanReversion => 2,
        Strategy::Breakout => 4,
        Strategy::Volatility => 8,
        Strategy::Custom => 16,
    }
}

pub(super) struct Simulation<'a> {
    pub(super) config: &'a BacktestConfig,
    pub(super) series: &'a [SymbolSeries],
    /// Symbol indices in symbol order (then input order).
    pub(super) order: Vec<usize>,
    pub(super) states: Vec<SymbolState>,
    pub(super) cursors: Vec<usize>,
    /// Close of the symbol's bar today, if it has one and it was accepted.
    pub(super) today: Vec<Option<f64>>,
    /// Latest accepted close.
    pub(super) last_close: Vec<Option<f64>>,
    /// Strategies with an open trade, as bits, per symbol.
    pub(super) open_bits: Vec<u8>,
    pub(super) selected_bits: u8,
    pub(super) open: Vec<Position>,
    pub(super) trades: Vec<Trade>,
    pub(super) withheld: Vec<WithheldTrade>,
    /// Withheld date ranges per (symbol index, strategy bit).
    pub(super) withheld_ranges: std::collections::HashMap<(usize, u8), Vec<(NaiveDate, NaiveDate)>>,
    pub(super) cash: f64,
    /// Commissions owed on closing every open trade.
    pub(super) closing_reserve: f64,
    pub(super) equity_curve: Vec<EquityPoint>,
    pub(super) skipped_for_capital: usize,
    pub(super) rejected_bars: Vec<RejectedBar>,
    pub(super) bars_processed: usize,
    pub(super) option_marks: usize,
}

impl<'a> Simulation<'a> {
    pub(super) fn new(config: &'a BacktestConfig, series: &'a [SymbolSeries]) -> Self {
        let n = series.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| series[a].symbol.cmp(&series[b].symbol).then(a.cmp(&b)));
        // Validated by `config.validate()`.
        let state = SymbolState::with_params(config.params).unwrap_or_default();
        let selected_bits = config.strategies.iter().fold(0, |bits, &s| bits | strategy_bit(s));
        let mut withheld_ranges: std::collections::HashMap<(usize, u8), Vec<(NaiveDate, NaiveDate)>> = std::collections::HashMap::new();
        for w in &config.withheld {
            for (i, _) in series.iter().enumerate().filter(|(_, s)| s.symbol == w.symbol) {
                withheld_ranges.entry((i, strategy_bit(w.strategy))).or_default().push((w.from, w.to));
            }
        }
        Simulation {
            config,
            series,
            order,
            states: vec![state; n],
            cursors: vec![0; n],
            today: vec![None; n],
            last_close: vec![None; n],
            open_bits: vec![0; n],
            selected_bits,
            open: Vec::new(),
            trades: Vec::new(),
            withheld: Vec::new(),
            withheld_ranges,
            cash: config.initial_capital,
            closing_reserve: 0.0,
            equity_curve: Vec::new(),
            skipped_for_capital: 0,
            rejected_bars: Vec::new(),
            bars_processed: 0,
            option_marks: 0,
        }
    }

    /// Whether a proposal of the setup (`symbol` index, strategy `bit`) on `date` is withheld.
    pub(super) fn is_withheld(&self, symbol: usize, bit: u8, date: NaiveDate) -> bool {
        self.withheld_ranges.get(&(symbol, bit)).is_some_and(|ranges| ranges.iter().any(|(from, to)| (*from..=*to).contains(&date)))
    }

    pub(super) fn contracts(&self) -> f64 {
        f64::from(self.config.contracts_per_trade)
    }

    /// The next date of the timeline after `after`, skipping (and rejecting) bars that
    /// are not after the last date already processed.
    fn next_date(&mut self, after: Option<NaiveDate>) -> Option<NaiveDate> {
        let mut next: Option<NaiveDate> = None;
        for i in 0..self.series.len() {
            let bars = &self.series[i].bars;
            while let Some(bar) = bars.get(self.cursors[i]) {
                match after {
                    Some(last) if bar.date <= last => {
                        self.rejected_bars.push(RejectedBar {
                            symbol: self.series[i].symbol.clone(),
                            error: BarError::OutOfOrder { date: bar.date, last },
                        });
                        self.cursors[i] += 1;
                    }
                    _ => break,
                }
            }
            if let Some(bar) = bars.get(self.cursors[i])
                && bar.date <= self.config.end
            {
                next = Some(next.map_or(bar.date, |d: NaiveDate| d.min(bar.date)));
            }
        }
        next
    }

    /// Runs to the end, or returns `None` as soon as `stop` says so (checked once per date).
    pub(super) fn run(mut self, expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate, stop: &dyn Fn() -> bool) -> Option<BacktestReport> {
        let mut last: Option<NaiveDate> = None;
        while let Some(date) = self.next_date(last) {
            if stop() {
                return None;
            }
            last = Some(date);
            self.push_bars(date);
            if date < self.config.start {
                continue;
            }
            self.mark_open(date);
            self.open_new(date, expiration);
            let equity = self.equity();
            self.equity_curve.push(EquityPoint { date, equity });
        }
        if let Some(date) = last.filter(|&d| d >= self.config.start) {
            self.close_all_at_end(date);
        }
        Some(self.report())
    }

    fn push_bars(&mut self, date: NaiveDate) {
        for i in 0..self.series.len() {
            self.today[i] = None;
            let Some(bar) = self.series[i].bars.get(self.cursors[i]) else {
                continue;
            };
            if bar.date != date {
                continue;
            }
            self.cursors[i] += 1;
            match self.states[i].update(bar) {
                Ok(()) => {
                    self.bars_processed += 1;
                    self.today[i] = Some(bar.close);
                    self.last_close[i] = Some(bar.close);
                }
                Err(error) => self.rejected_bars.push(RejectedBar { symbol: self.series[i].symbol.clone(), error }),
            }
        }
    }
}
