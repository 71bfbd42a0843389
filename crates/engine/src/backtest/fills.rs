//! Fills and exits: proposals bought at the model premium plus slippage, open trades
//! marked and closed at target, stop, expiry or the end of the test, cash and
//! commissions kept (see "Money" in the module documentation of [`backtest`](super)).

use chrono::NaiveDate;

use super::config::Structuring;
use super::report::{Trade, TradeOutcome, WithheldTrade};
use super::simulation::{Position, ShortLeg, Simulation, legs, strategy_bit};
use crate::lifecycle::{Costs, OpenSignal, Outcome, mark, model, underlying_levels, years_between};
use crate::proposal::{ProposalContext, round_cents, strike_increment};
use crate::state::EntryContext;
use crate::types::{Assumptions, SignalType, Strategy};

/// The short strike of a vertical on `signal` (a CALL or PUT) `width` × its strike further
/// out of the money, on the listed grid, at least one step away; `None` for a straddle.
pub(super) fn short_strike(signal: &OpenSignal, width: f64) -> Option<f64> {
    let step = strike_increment(signal.strike);
    match signal.signal_type {
        SignalType::Call => Some(((signal.strike * (1.0 + width) / step).ceil() * step).max(signal.strike + step)),
        SignalType::Put => {
            let strike = ((signal.strike * (1.0 - width) / step).floor() * step).min(signal.strike - step);
            (strike > 0.0).then_some(strike)
        }
        SignalType::Straddle => None,
    }
}

/// A vertical's short leg at entry: its model premium, the spread's fill and its exits at the
/// underlying levels of the proposal's own target and stop. `None` when the spread cannot be
/// priced (the trade is then taken as proposed).
fn open_spread(signal: &OpenSignal, width: f64, spot: f64, years: f64, assumptions: Assumptions, costs: Costs) -> Option<ShortLeg> {
    // The short leg's terms: the proposal's contract at the further strike.
    let sold = OpenSignal { strike: short_strike(signal, width)?, ..*signal };
    let short = mark(&sold, spot, years, false, assumptions).ok()?.option_price;
    let kind = signal.signal_type.option_type();
    let spread_at = |level: f64| -> Option<f64> {
        Some(model(signal, level, years, assumptions).ok()?.price(kind) - model(&sold, level, years, assumptions).ok()?.price(kind))
    };
    let levels = underlying_levels(signal, years, assumptions).ok()?;
    let target = spread_at(*levels.target.first()?)?;
    let stop = match levels.stop.first() {
        Some(&level) => Some(spread_at(level)?),
        None => None,
    };
    Some(ShortLeg {
        signal: sold,
        mark: short,
        entry_net: signal.entry_price - short,
        entry_net_fill: costs.entry_fill(signal.entry_price) - costs.exit_fill(short),
        target,
        stop,
    })
}

impl Position {
    /// What closing at the latest marks brings per share, after slippage: the long leg sold
    /// below its mark and, for a spread, the short one bought back above its own.
    fn exit_fill(&self, costs: Costs) -> f64 {
        match &self.spread {
            Some(short) => costs.exit_fill(self.mark) - costs.entry_fill(short.mark),
            None => costs.exit_fill(self.mark),
        }
    }

    /// What opening cost per share, after slippage.
    fn entry_net_fill(&self) -> f64 {
        self.spread.as_ref().map_or(self.entry_fill, |s| s.entry_net_fill)
    }
}

impl Simulation<'_> {
    /// Marks every open trade that has a price today; closes those at target, stop or
    /// expiry.
    pub(super) fn mark_open(&mut self, date: NaiveDate) {
        let assumptions = self.config.assumptions;
        let mut k = 0;
        while k < self.open.len() {
            let position = &mut self.open[k];
            let expiry = position.signal.expiration;
            let spot = match self.today[position.symbol] {
                Some(close) => Some(close),
                // No bar today: only an expiry needs a price (the last close).
                None if date >= expiry => self.last_close[position.symbol],
                None => None,
            };
            let mut close = None;
            if let Some(spot) = spot {
                self.option_marks += 1;
                let (years, expired) = (years_between(date, expiry), date >= expiry);
                if let Ok(m) = mark(&position.signal, spot, years, expired, assumptions) {
                    position.mark = m.option_price;
                    position.underlying = spot;
                    close = match position.spread.as_mut() {
                        None => match m.outcome {
                            Outcome::Active => None,
                            Outcome::TargetHit => Some(TradeOutcome::Target),
                            Outcome::StopHit => Some(TradeOutcome::Stop),
                            Outcome::Expired => Some(TradeOutcome::Expiry),
                        },
                        // A spread's own exits, on its net premium.
                        Some(short) => {
                            if let Ok(s) = mark(&short.signal, spot, years, expired, assumptions) {
                                short.mark = s.option_price;
                            }
                            let net = position.mark - short.mark;
                            if expired {
                                Some(TradeOutcome::Expiry)
                            } else if net >= short.target {
                                Some(TradeOutcome::Target)
                            } else if short.stop.is_some_and(|stop| net <= stop) {
                                Some(TradeOutcome::Stop)
                            } else {
                                None
                            }
                        }
                    };
                }
                if close.is_none() && position.exit_after.is_some_and(|after| date >= after) {
                    close = Some(TradeOutcome::TimeLimit);
                }
            }
            match close {
                Some(outcome) => {
                    let position = self.open.remove(k);
                    self.close(position, date, outcome);
                }
                None => k += 1,
            }
        }
    }

    fn close(&mut self, position: Position, date: NaiveDate, outcome: TradeOutcome) {
        if position.withheld {
            self.open_bits[position.symbol] &= !strategy_bit(position.strategy);
            self.withheld.push(WithheldTrade {
                symbol: self.series[position.symbol].symbol.clone(),
                strategy: position.strategy,
                entry_date: position.entry_date,
                exit_date: date,
            });
            return;
        }
        let n = self.contracts();
        let c = self.config.commission_per_contract;
        let costs = self.config.costs();
        // Per contract of each leg: a spread trades two.
        let units = n * position.legs();
        let exit_fill = position.exit_fill(costs);
        let entry_fill = position.entry_net_fill();
        let commissions = costs.commissions(units);
        let pnl = round_cents((exit_fill - entry_fill) * 100.0 * n - commissions);
        // The opening paid entry_fill·100·n + c·units; the books now hold that plus the P&L.
        self.cash += entry_fill * 100.0 * n + c * units + pnl;
        self.closing_reserve -= c * units;
        self.open_bits[position.symbol] &= !strategy_bit(position.strategy);
        let signal = position.signal;
        let spread = position.spread.as_ref();
        self.trades.push(Trade {
            symbol: self.series[position.symbol].symbol.clone(),
            strategy: position.strategy,
            signal_type: signal.signal_type,
            strike: signal.strike,
            expiration: signal.expiration,
            entry_date: position.entry_date,
            exit_date: date,
            entry_price: entry_fill,
            exit_price: exit_fill,
            contracts: self.config.contracts_per_trade,
            commissions,
            pnl,
            outcome,
            confidence: position.confidence,
            context: position.context,
            model_entry_price: spread.map_or(signal.entry_price, |s| s.entry_net),
            model_exit_price: spread.map_or(position.mark, |s| position.mark - s.mark),
            target_price: spread.map_or(signal.target_price, |s| s.target),
            stop_loss: spread.map_or(signal.stop_loss, |s| s.stop.unwrap_or(0.0)),
            volatility: signal.volatility,
            entry_underlying: position.entry_underlying,
            exit_underlying: position.underlying,
            short_strike: spread.map(|s| s.signal.strike),
        });
    }

    pub(super) fn open_new(&mut self, date: NaiveDate, expiration: &dyn Fn(NaiveDate, u32) -> NaiveDate) {
        let n = self.contracts();
        let c = self.config.commission_per_contract;
        for idx in 0..self.order.len() {
            let i = self.order[idx];
            let Some(spot) = self.today[i] else {
                continue;
            };
            // Every selected setup already has an open trade: nothing to evaluate.
            if self.selected_bits & !self.open_bits[i] == 0 || !self.states[i].is_warm() {
                continue;
            }
            let ctx =
                ProposalContext { symbol: &self.series[i].symbol, as_of: date, spot, assumptions: self.config.assumptions, expiration };
            let custom_bit = strategy_bit(Strategy::Custom);
            let mut proposals =
                if self.selected_bits & !custom_bit & !self.open_bits[i] != 0 { self.states[i].propose(&ctx) } else { Vec::new() };
            if let Some(custom) = &self.config.custom
                && self.selected_bits & custom_bit != 0
                && self.open_bits[i] & custom_bit == 0
            {
                proposals.extend(custom.propose(&self.states[i], &ctx));
            }
            for proposal in proposals {
                let bit = strategy_bit(proposal.strategy);
                if self.selected_bits & bit == 0 || self.open_bits[i] & bit != 0 {
                    continue;
                }
                let costs = self.config.costs();
                let entry_fill = costs.entry_fill(proposal.entry_price);
                let signal = proposal.open_signal();
                let spread = match self.config.structuring {
                    Structuring::Single => None,
                    Structuring::Vertical { width } => {
                        open_spread(&signal, width, spot, years_between(date, signal.expiration), self.config.assumptions, costs)
                    }
                };
                let withheld = self.is_withheld(i, bit, date);
                let units = n * legs(spread.as_ref());
                let cost = spread.as_ref().map_or(entry_fill, |s| s.entry_net_fill) * 100.0 * n + c * units;
                if !withheld && self.cash - cost < self.closing_reserve + c * units {
                    self.skipped_for_capital += 1;
                    continue;
                }
                if !withheld {
                    self.cash -= cost;
                    self.closing_reserve += c * units;
                }
                self.open_bits[i] |= bit;
                self.open.push(Position {
                    symbol: i,
                    strategy: proposal.strategy,
                    signal,
                    entry_date: date,
                    entry_fill,
                    confidence: proposal.confidence,
                    context: self.states[i].latest().map(EntryContext::of).unwrap_or_default(),
                    entry_underlying: spot,
                    mark: proposal.entry_price,
                    underlying: spot,
                    withheld,
                    spread,
                    exit_after: match (proposal.strategy, &self.config.custom) {
                        (Strategy::Custom, Some(custom)) => custom.exits.max_days.map(|days| date + chrono::Days::new(u64::from(days))),
                        _ => None,
                    },
                });
            }
        }
    }

    /// Cash plus what closing every open trade at its latest mark would bring.
    pub(super) fn equity(&self) -> f64 {
        let n = self.contracts();
        let costs = self.config.costs();
        self.cash
            + self
                .open
                .iter()
                .filter(|p| !p.withheld)
                .map(|p| p.exit_fill(costs) * 100.0 * n - costs.commission_per_contract * n * p.legs())
                .sum::<f64>()
    }

    pub(super) fn close_all_at_end(&mut self, date: NaiveDate) {
        let open = std::mem::take(&mut self.open);
        for position in open {
            self.close(position, date, TradeOutcome::EndOfTest);
        }
        // The last point already valued the trades at their liquidation value; make it
        // the books' exact figure after the (cent-rounded) closes.
        if let Some(point) = self.equity_curve.last_mut() {
            point.equity = self.cash;
        }
    }
}
