//! Fills and exits: proposals bought at the model premium plus slippage, open trades
//! marked and closed at target, stop, expiry or the end of the test, cash and
//! commissions kept (see "Money" in the module documentation of [`backtest`](super)).

use chrono::NaiveDate;

use super::report::{Trade, TradeOutcome, WithheldTrade};
use super::simulation::{Position, Simulation, strategy_bit};
use crate::lifecycle::{Outcome, mark, years_between};
use crate::proposal::ProposalContext;
use crate::state::EntryContext;

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
                if let Ok(m) = mark(&position.signal, spot, years_between(date, expiry), date >= expiry, assumptions) {
                    position.mark = m.option_price;
                    position.underlying = spot;
                    close = match m.outcome {
                        Outcome::Active => None,
                        Outcome::TargetHit => Some(TradeOutcome::Target),
                        Outcome::StopHit => Some(TradeOutcome::Stop),
                        Outcome::Expired => Some(TradeOutcome::Expiry),
                    };
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
        let exit_fill = costs.exit_fill(position.mark);
        let commissions = costs.commissions(n);
        let pnl = costs.pnl_of_fills(position.entry_fill, exit_fill, n);
        // The opening paid entry_fill·100·n + c·n; the books now hold that plus the P&L.
        self.cash += position.entry_fill * 100.0 * n + c * n + pnl;
        self.closing_reserve -= c * n;
        self.open_bits[position.symbol] &= !strategy_bit(position.strategy);
        let signal = position.signal;
        self.trades.push(Trade {
            symbol: self.series[position.symbol].symbol.clone(),
            strategy: position.strategy,
            signal_type: signal.signal_type,
            strike: signal.strike,
            expiration: signal.expiration,
            entry_date: position.entry_date,
            exit_date: date,
            entry_price: position.entry_fill,
            exit_price: exit_fill,
            contracts: self.config.contracts_per_trade,
            commissions,
            pnl,
            outcome,
            confidence: position.confidence,
            context: position.context,
            model_entry_price: signal.entry_price,
            target_price: signal.target_price,
            stop_loss: signal.stop_loss,
            volatility: signal.volatility,
            entry_underlying: position.entry_underlying,
            exit_underlying: position.underlying,
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
            for proposal in self.states[i].propose(&ctx) {
                let bit = strategy_bit(proposal.strategy);
                if self.selected_bits & bit == 0 || self.open_bits[i] & bit != 0 {
                    continue;
                }
                let entry_fill = self.config.costs().entry_fill(proposal.entry_price);
                let withheld = self.is_withheld(i, bit, date);
                let cost = entry_fill * 100.0 * n + c * n;
                if !withheld && self.cash - cost < self.closing_reserve + c * n {
                    self.skipped_for_capital += 1;
                    continue;
                }
                if !withheld {
                    self.cash -= cost;
                    self.closing_reserve += c * n;
                }
                self.open_bits[i] |= bit;
                self.open.push(Position {
                    symbol: i,
                    strategy: proposal.strategy,
                    signal: proposal.open_signal(),
                    entry_date: date,
                    entry_fill,
                    confidence: proposal.confidence,
                    context: self.states[i].latest().map(EntryContext::of).unwrap_or_default(),
                    entry_underlying: spot,
                    mark: proposal.entry_price,
                    underlying: spot,
                    withheld,
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
                .map(|p| costs.exit_fill(p.mark) * 100.0 * n - costs.commission_per_contract * n)
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
