//! The built-in paper broker: it fills with the backtester's fill model, so a trade costs the
//! same in paper trading as in a backtest. A leg bought fills at its mark plus the slippage, a
//! leg sold at its mark less it, and each contract pays the commission
//! ([`crate::Costs::entry_fill`], [`crate::Costs::exit_fill`]). A market order fills whole at
//! the marks it is given; a limit order fills whole once the net price per unit is within its
//! limit, and otherwise stands. The paper broker never fills part of an order (a real broker's
//! partial fills reach the same [`super::OrderProgress`]).

use super::order::{Contract, Order, OrderType, Side, TimeInForce};
use crate::Costs;

/// The paper broker: its fill model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperBroker {
    pub costs: Costs,
}

/// One leg as filled.
#[derive(Clone, Debug, PartialEq)]
pub struct LegFill {
    pub contract: Contract,
    pub side: Side,
    /// Contracts traded (the leg's ratio × the units filled).
    pub contracts: i64,
    /// Dollars per share, after slippage.
    pub price: f64,
    /// Dollars, for this leg's contracts.
    pub commission: f64,
}

/// A fill of an order.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    /// Units of the order filled.
    pub units: u32,
    pub legs: Vec<LegFill>,
    /// Dollars per share per unit: positive paid (a debit), negative received (a credit).
    pub net_price: f64,
}

impl Fill {
    /// Dollars this fill takes from cash (negative: brings in), commissions included.
    #[must_use]
    pub fn cash_out(&self) -> f64 {
        self.legs.iter().map(|l| l.side.sign() as f64 * l.price * 100.0 * l.contracts as f64 + l.commission).sum()
    }
}

/// Why the paper broker cannot fill an order now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A leg has no usable mark (none given, not finite, or below zero).
    #[error("leg {0} has no price to fill at")]
    NoPrice(usize),
    /// The marks given are not one per leg.
    #[error("one mark per leg is needed")]
    Marks,
}

impl PaperBroker {
    /// What `order` would fill at with the legs marked at `marks` (dollars per share, one per
    /// leg), whether or not its limit allows it.
    pub fn quote(&self, order: &Order, marks: &[Option<f64>]) -> Result<Fill, Refusal> {
        if marks.len() != order.legs.len() {
            return Err(Refusal::Marks);
        }
        let mut legs = Vec::with_capacity(order.legs.len());
        let mut net_price = 0.0;
        for (i, (leg, mark)) in order.legs.iter().zip(marks).enumerate() {
            let Some(mark) = mark.filter(|m| m.is_finite() && *m >= 0.0) else { return Err(Refusal::NoPrice(i)) };
            let price = match leg.side {
                Side::Buy => self.costs.entry_fill(mark),
                Side::Sell => self.costs.exit_fill(mark),
            };
            net_price += leg.side.sign() as f64 * f64::from(leg.ratio) * price;
            let contracts = order.contracts(leg);
            legs.push(LegFill {
                contract: leg.contract.clone(),
                side: leg.side,
                contracts,
                price,
                commission: self.costs.commission_per_contract * contracts as f64,
            });
        }
        Ok(Fill { units: order.quantity, legs, net_price })
    }

    /// The fill of `order` now, with the legs marked at `marks`: `Some` for a market order, and
    /// for a limit order whose net price is within its limit; `None` while a limit order stands.
    pub fn try_fill(&self, order: &Order, marks: &[Option<f64>]) -> Result<Option<Fill>, Refusal> {
        let fill = self.quote(order, marks)?;
        Ok(match order.order_type {
            OrderType::Market => Some(fill),
            // Within a cent's fraction: a limit at the quoted price fills.
            OrderType::Limit { price } => (fill.net_price <= price + 1e-9).then_some(fill),
        })
    }

    /// Whether an order still standing ends on `today`: a day order once its session has passed.
    #[must_use]
    pub fn expires(order: &Order, today: chrono::NaiveDate) -> bool {
        order.time_in_force == TimeInForce::Day && today > order.placed_on
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::order::{Leg, Right};
    use chrono::NaiveDate;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, d).expect("date")
    }

    fn leg(right: Right, strike_cents: i64, side: Side, ratio: u32) -> Leg {
        Leg { contract: Contract { underlying: "AAPL".into(), right, strike_cents, expiration: day(18) }, side, ratio }
    }

    fn order(legs: Vec<Leg>, quantity: u32, order_type: OrderType) -> Order {
        Order::new("o-1", legs, quantity, order_type, TimeInForce::Day, day(1)).expect("order")
    }

    const BROKER: PaperBroker = PaperBroker { costs: Costs::STANDARD };

    #[test]
    fn a_market_order_fills_at_the_mark_with_the_backtests_slippage_and_commission() {
        let buy = order(vec![leg(Right::Call, 20_000, Side::Buy, 1)], 3, OrderType::Market);
        let fill = BROKER.try_fill(&buy, &[Some(2.0)]).expect("marks").expect("filled");
        assert_eq!(fill.units, 3);
        assert_eq!(fill.legs[0].price, Costs::STANDARD.entry_fill(2.0));
        assert_eq!(fill.legs[0].contracts, 3);
        assert!((fill.cash_out() - (2.02 * 300.0 + 3.0 * 0.65)).abs() < 1e-9, "{}", fill.cash_out());
        let sell = order(vec![leg(Right::Call, 20_000, Side::Sell, 1)], 3, OrderType::Market);
        let out = BROKER.try_fill(&sell, &[Some(2.5)]).expect("marks").expect("filled");
        // The same round trip as a backtest trade: the one P&L function, to the cent.
        let paper = -(fill.cash_out() + out.cash_out());
        assert_eq!((paper * 100.0).round() / 100.0, Costs::STANDARD.net_pnl(2.0, 2.5, 3.0));
    }

    #[test]
    fn a_limit_order_fills_only_within_its_limit_and_a_spread_nets_its_legs() {
        // A bull call spread: buy the 200 call at 5.00, sell the 210 at 2.00: 5.05 − 1.98 = 3.07.
        let legs = vec![leg(Right::Call, 20_000, Side::Buy, 1), leg(Right::Call, 21_000, Side::Sell, 1)];
        let marks = [Some(5.0), Some(2.0)];
        let tight = order(legs.clone(), 2, OrderType::Limit { price: 3.0 });
        assert_eq!(BROKER.try_fill(&tight, &marks).expect("marks"), None, "stands below the price");
        let loose = order(legs.clone(), 2, OrderType::Limit { price: 3.07 });
        let fill = BROKER.try_fill(&loose, &marks).expect("marks").expect("fills at its limit");
        assert!((fill.net_price - 3.07).abs() < 1e-9);
        assert!((fill.cash_out() - (3.07 * 200.0 + 4.0 * 0.65)).abs() < 1e-9);
        // A credit spread: sell the 200, buy the 210: receives 4.95 − 2.02 = 2.93 a share.
        let credit = vec![leg(Right::Call, 20_000, Side::Sell, 1), leg(Right::Call, 21_000, Side::Buy, 1)];
        let want_more = order(credit.clone(), 1, OrderType::Limit { price: -3.0 });
        assert_eq!(BROKER.try_fill(&want_more, &marks).expect("marks"), None, "asks for more credit than is there");
        let fair = order(credit, 1, OrderType::Limit { price: -2.9 });
        assert!(BROKER.try_fill(&fair, &marks).expect("marks").is_some());
        // A ratio leg trades its ratio of contracts.
        let ratio = order(vec![leg(Right::Put, 19_000, Side::Buy, 2)], 3, OrderType::Market);
        assert_eq!(BROKER.quote(&ratio, &[Some(1.0)]).expect("quote").legs[0].contracts, 6);
    }

    #[test]
    fn no_price_no_fill_and_day_orders_end_with_their_session() {
        let buy = order(vec![leg(Right::Call, 20_000, Side::Buy, 1)], 1, OrderType::Market);
        for mark in [None, Some(f64::NAN), Some(-0.5)] {
            assert_eq!(BROKER.try_fill(&buy, &[mark]), Err(Refusal::NoPrice(0)));
        }
        assert_eq!(BROKER.try_fill(&buy, &[]), Err(Refusal::Marks));
        assert!(!PaperBroker::expires(&buy, day(1)));
        assert!(PaperBroker::expires(&buy, day(2)));
        let gtc = Order { time_in_force: TimeInForce::GoodTillCancelled, ..buy };
        assert!(!PaperBroker::expires(&gtc, day(2)));
    }
}
