//! The broker an order goes to. Every order names one (`orders.broker`); the built-in paper
//! broker is the default and needs nothing outside this process. A real broker (Alpaca,
//! docs/execution.md) joins as another variant.

use strikeline_engine::Costs;
use strikeline_engine::broker::{Fill, Order, PaperBroker};

/// What a broker answered to an order sent to it.
#[derive(Clone, Debug, PartialEq)]
pub enum Submission {
    /// Filled whole, now.
    Filled(Fill),
    /// Accepted, and standing until it fills, is cancelled or reaches its deadline.
    Standing,
    /// Refused, with the broker's reason in words.
    Rejected(String),
}

/// A broker orders are sent to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Broker {
    /// Fills at the marks given with the backtester's fill model.
    Paper(PaperBroker),
}

impl Broker {
    /// The paper broker's name, as orders store it.
    pub const PAPER: &'static str = "paper";

    /// The built-in paper broker, with the backtester's standard fill model.
    pub const fn paper() -> Broker {
        Broker::Paper(PaperBroker { costs: Costs::STANDARD })
    }

    /// The broker named `name` (as an order stores it): `None` for one this build does not have.
    pub fn named(name: &str) -> Option<Broker> {
        (name == Self::PAPER).then_some(Self::paper())
    }

    /// Its name, as orders store it.
    pub fn name(self) -> &'static str {
        match self {
            Broker::Paper(_) => Self::PAPER,
        }
    }

    /// What buying at a premium marked at `mark` is expected to cost a share, to the cent a
    /// position keeps it to: what the account's limits size an order by, so a fill stays within
    /// them.
    pub fn expected_entry(self, mark: f64) -> f64 {
        let fill = match self {
            Broker::Paper(paper) => paper.costs.entry_fill(mark),
        };
        crate::foundation::money::dollars(crate::foundation::money::to_cents(fill))
    }

    /// [`Broker::expected_entry`] of a premium in cents, per contract (× 100), in cents.
    pub fn expected_contract_cents(self, premium_cents: i64) -> i64 {
        crate::foundation::money::to_cents(self.expected_entry(crate::foundation::money::dollars(premium_cents)) * 100.0)
    }

    /// Sends `order`, whose legs are marked at `marks` (dollars per share, one per leg).
    pub fn submit(self, order: &Order, marks: &[Option<f64>]) -> Submission {
        match self {
            Broker::Paper(paper) => match paper.try_fill(order, marks) {
                Ok(Some(fill)) => Submission::Filled(fill),
                Ok(None) => Submission::Standing,
                Err(refusal) => Submission::Rejected(format!("The paper broker refused it: {refusal}.")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use strikeline_engine::broker::{Contract, Leg, OrderType, Right, Side, TimeInForce};

    fn order(order_type: OrderType) -> Order {
        let day = NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
        let contract =
            Contract { underlying: "AAPL".into(), right: Right::Call, strike_cents: 20_000, expiration: day + chrono::Days::new(17) };
        Order::new("o-1", vec![Leg { contract, side: Side::Buy, ratio: 1 }], 2, order_type, TimeInForce::Day, day).expect("order")
    }

    #[test]
    fn the_paper_broker_is_the_one_named_paper() {
        let paper = Broker::named("paper").expect("paper");
        assert_eq!(paper.name(), "paper");
        assert_eq!(Broker::named("alpaca"), None, "not in this build yet");
    }

    #[test]
    fn the_paper_broker_fills_stands_or_refuses() {
        let paper = Broker::named(Broker::PAPER).expect("paper");
        match paper.submit(&order(OrderType::Market), &[Some(2.0)]) {
            Submission::Filled(fill) => assert!((fill.net_price - 2.02).abs() < 1e-9, "the backtester's 1% slippage"),
            other => panic!("expected a fill, got {other:?}"),
        }
        assert_eq!(paper.submit(&order(OrderType::Limit { price: 1.5 }), &[Some(2.0)]), Submission::Standing);
        assert_eq!(
            paper.submit(&order(OrderType::Market), &[None]),
            Submission::Rejected("The paper broker refused it: leg 0 has no price to fill at.".into())
        );
    }
}
