//! An account's holdings as fills change them: contracts held per contract (negative: written),
//! their cost, the cash, the P&L realised when a holding shrinks, and the commissions paid. And
//! the reconciliation of these holdings with another view of them (a broker's).

use std::collections::BTreeMap;

use super::order::{Contract, Side};
use super::paper::Fill;

/// One contract held.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Holding {
    /// Contracts: positive long, negative short.
    pub contracts: i64,
    /// Dollars paid for what is held (negative: received for what is written).
    pub cost: f64,
}

/// An account's holdings and cash, in dollars.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Holdings {
    pub cash: f64,
    pub held: BTreeMap<Contract, Holding>,
    /// P&L realised by closing, before commissions.
    pub realised: f64,
    pub commissions: f64,
}

impl Holdings {
    /// An account holding `cash` dollars and nothing else.
    #[must_use]
    pub fn with_cash(cash: f64) -> Holdings {
        Holdings { cash, ..Holdings::default() }
    }

    /// Takes `fill` in: cash moves by what it paid and received and its commissions; each
    /// leg adds to its holding or, trading against it, closes part or all of it at its average
    /// cost (and what goes beyond opens the other way).
    pub fn apply(&mut self, fill: &Fill) {
        self.cash -= fill.cash_out();
        for leg in &fill.legs {
            self.commissions += leg.commission;
            let traded = leg.side.sign() * leg.contracts;
            let holding = self.held.entry(leg.contract.clone()).or_default();
            let against = holding.contracts != 0 && holding.contracts.signum() != traded.signum();
            if against {
                let closed = traded.abs().min(holding.contracts.abs());
                // What each contract held cost (long) or brought in (short), unsigned.
                let average = holding.cost / holding.contracts as f64;
                // Per contract: a long sold brings its price back against its cost; a short
                // bought back costs its price against what writing it brought in.
                let per_contract = match leg.side {
                    Side::Sell => leg.price * 100.0 - average,
                    Side::Buy => average - leg.price * 100.0,
                };
                self.realised += per_contract * closed as f64;
                holding.cost -= average * (holding.contracts.signum() * closed) as f64;
                holding.contracts += traded.signum() * closed;
                let beyond = traded.abs() - closed;
                if beyond > 0 {
                    holding.contracts += traded.signum() * beyond;
                    holding.cost += traded.signum() as f64 * leg.price * 100.0 * beyond as f64;
                }
            } else {
                holding.contracts += traded;
                holding.cost += traded as f64 * leg.price * 100.0;
            }
            if holding.contracts == 0 {
                self.held.remove(&leg.contract);
            }
        }
    }

    /// Contracts held per contract.
    #[must_use]
    pub fn positions(&self) -> BTreeMap<Contract, i64> {
        self.held.iter().map(|(c, h)| (c.clone(), h.contracts)).collect()
    }
}

/// A contract the two views hold differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub contract: Contract,
    /// What these holdings say.
    pub ours: i64,
    /// What the other view says.
    pub theirs: i64,
}

/// Where `ours` and `theirs` (contracts per contract) differ, in contract order; empty when
/// they agree.
#[must_use]
pub fn reconcile(ours: &BTreeMap<Contract, i64>, theirs: &BTreeMap<Contract, i64>) -> Vec<Difference> {
    let mut contracts: Vec<&Contract> = ours.keys().chain(theirs.keys()).collect();
    contracts.sort();
    contracts.dedup();
    contracts
        .into_iter()
        .filter_map(|c| {
            let (a, b) = (ours.get(c).copied().unwrap_or(0), theirs.get(c).copied().unwrap_or(0));
            (a != b).then(|| Difference { contract: c.clone(), ours: a, theirs: b })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Costs;
    use crate::broker::order::{Leg, Order, OrderType, Right, TimeInForce};
    use crate::broker::paper::PaperBroker;
    use chrono::NaiveDate;

    fn contract(right: Right, strike_cents: i64) -> Contract {
        Contract { underlying: "AAPL".into(), right, strike_cents, expiration: NaiveDate::from_ymd_opt(2026, 12, 18).expect("date") }
    }

    fn fill(legs: &[(Right, i64, Side)], quantity: u32, marks: &[f64]) -> Fill {
        let legs = legs.iter().map(|(r, k, s)| Leg { contract: contract(*r, *k), side: *s, ratio: 1 }).collect();
        let placed = NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
        let order = Order::new("o", legs, quantity, OrderType::Market, TimeInForce::Day, placed).expect("order");
        let marks: Vec<Option<f64>> = marks.iter().map(|m| Some(*m)).collect();
        PaperBroker { costs: Costs::STANDARD }.try_fill(&order, &marks).expect("marks").expect("fill")
    }

    #[test]
    fn a_round_trip_realises_the_backtests_pnl_and_leaves_nothing_held() {
        let mut book = Holdings::with_cash(10_000.0);
        book.apply(&fill(&[(Right::Call, 20_000, Side::Buy)], 2, &[3.0]));
        assert_eq!(book.positions().into_values().collect::<Vec<_>>(), [2]);
        book.apply(&fill(&[(Right::Call, 20_000, Side::Sell)], 1, &[4.0]));
        book.apply(&fill(&[(Right::Call, 20_000, Side::Sell)], 1, &[4.0]));
        assert!(book.held.is_empty());
        let net = book.realised - book.commissions;
        assert_eq!((net * 100.0).round() / 100.0, Costs::STANDARD.net_pnl(3.0, 4.0, 2.0));
        assert!((book.cash - (10_000.0 + net)).abs() < 1e-9, "cash is what it was plus the net P&L");
    }

    #[test]
    fn a_spread_is_held_leg_by_leg_and_a_sale_beyond_a_holding_writes_the_rest() {
        let mut book = Holdings::with_cash(5_000.0);
        book.apply(&fill(&[(Right::Call, 20_000, Side::Buy), (Right::Call, 21_000, Side::Sell)], 3, &[5.0, 2.0]));
        let held = book.positions();
        assert_eq!(held.get(&contract(Right::Call, 20_000)), Some(&3));
        assert_eq!(held.get(&contract(Right::Call, 21_000)), Some(&-3));
        // Selling five of the three held closes three and writes two.
        book.apply(&fill(&[(Right::Call, 20_000, Side::Sell)], 5, &[6.0]));
        assert_eq!(book.positions().get(&contract(Right::Call, 20_000)), Some(&-2));
        let written = &book.held[&contract(Right::Call, 20_000)];
        assert!((written.cost - -(2.0 * 6.0 * 0.99 * 100.0)).abs() < 1e-9, "received for the two written: {}", written.cost);
    }

    #[test]
    fn a_written_contract_bought_back_cheaper_realises_a_gain() {
        let mut book = Holdings::with_cash(5_000.0);
        book.apply(&fill(&[(Right::Put, 19_000, Side::Sell)], 2, &[4.0]));
        book.apply(&fill(&[(Right::Put, 19_000, Side::Buy)], 2, &[1.0]));
        assert!(book.held.is_empty());
        // Written at 3.96, bought back at 1.01: 2.95 a share on 200 shares.
        assert!((book.realised - 590.0).abs() < 1e-9, "{}", book.realised);
        assert!((book.cash - (5_000.0 + 590.0 - 4.0 * 0.65)).abs() < 1e-9);
    }

    #[test]
    fn reconciliation_names_every_contract_the_views_disagree_on() {
        let a = contract(Right::Call, 20_000);
        let b = contract(Right::Put, 19_000);
        let c = contract(Right::Put, 18_000);
        let ours = BTreeMap::from([(a.clone(), 2), (b.clone(), -1)]);
        let theirs = BTreeMap::from([(a.clone(), 2), (b.clone(), -2), (c.clone(), 1)]);
        assert_eq!(
            reconcile(&ours, &theirs),
            [Difference { contract: c, ours: 0, theirs: 1 }, Difference { contract: b, ours: -1, theirs: -2 }]
        );
        assert!(reconcile(&ours, &ours).is_empty());
    }
}
