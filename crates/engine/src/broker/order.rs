//! What an order says: its legs (each an option contract bought or sold in a ratio), how many
//! units, market or limit, and how long it stands.

use chrono::NaiveDate;

/// Call or put.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Right {
    Call,
    Put,
}

/// Buying or selling (to open or to close: the holdings say which).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Buy,
    Sell,
}

impl Side {
    /// +1 for a purchase, −1 for a sale: the sign of what it adds to a holding.
    #[must_use]
    pub fn sign(self) -> i64 {
        match self {
            Side::Buy => 1,
            Side::Sell => -1,
        }
    }
}

/// One listed option contract (100 shares of `underlying`). The strike is in cents: contract
/// terms are exact and never change currency.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Contract {
    pub underlying: String,
    pub right: Right,
    pub strike_cents: i64,
    pub expiration: NaiveDate,
}

/// One leg: a contract, bought or sold, `ratio` contracts per unit of the order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    pub contract: Contract,
    pub side: Side,
    pub ratio: u32,
}

/// Market, or a limit on the net price per unit in dollars per share: positive is the most to
/// pay (a debit), negative the least to receive (a credit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OrderType {
    Market,
    Limit { price: f64 },
}

/// How long an order stands: to the end of the session it was placed in, or until it fills or
/// is cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeInForce {
    Day,
    GoodTillCancelled,
}

/// An order as placed. Build it with [`Order::new`], which checks it.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// The caller's id for it, unique per account: sending it twice places it once.
    pub client_order_id: String,
    pub legs: Vec<Leg>,
    /// Units of the order (each leg trades `ratio` × this many contracts).
    pub quantity: u32,
    pub order_type: OrderType,
    pub time_in_force: TimeInForce,
    /// The session it was placed in (a day order ends with it).
    pub placed_on: NaiveDate,
}

/// Why an order is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    #[error("an order has one to four legs")]
    Legs,
    #[error("a leg trades at least one contract per unit")]
    Ratio,
    #[error("the quantity is at least one unit")]
    Quantity,
    #[error("a limit price is a finite number of dollars, not zero")]
    LimitPrice,
    #[error("a strike is more than zero")]
    Strike,
    #[error("the legs are on one underlying")]
    Underlying,
    #[error("one contract appears in two legs")]
    RepeatedContract,
    #[error("a leg expires before the order is placed")]
    Expired,
    #[error("the client order id is 1 to 64 characters")]
    ClientOrderId,
}

/// The most legs an order has (a condor's four).
pub const MAX_LEGS: usize = 4;

impl Order {
    /// A checked order.
    pub fn new(
        client_order_id: impl Into<String>,
        legs: Vec<Leg>,
        quantity: u32,
        order_type: OrderType,
        time_in_force: TimeInForce,
        placed_on: NaiveDate,
    ) -> Result<Order, OrderError> {
        let client_order_id = client_order_id.into();
        if client_order_id.is_empty() || client_order_id.chars().count() > 64 {
            return Err(OrderError::ClientOrderId);
        }
        if legs.is_empty() || legs.len() > MAX_LEGS {
            return Err(OrderError::Legs);
        }
        if quantity == 0 {
            return Err(OrderError::Quantity);
        }
        if let OrderType::Limit { price } = order_type
            && (!price.is_finite() || price == 0.0)
        {
            return Err(OrderError::LimitPrice);
        }
        for (i, leg) in legs.iter().enumerate() {
            if leg.ratio == 0 {
                return Err(OrderError::Ratio);
            }
            if leg.contract.strike_cents <= 0 {
                return Err(OrderError::Strike);
            }
            if leg.contract.underlying != legs[0].contract.underlying {
                return Err(OrderError::Underlying);
            }
            if leg.contract.expiration < placed_on {
                return Err(OrderError::Expired);
            }
            if legs[..i].iter().any(|other| other.contract == leg.contract) {
                return Err(OrderError::RepeatedContract);
            }
        }
        Ok(Order { client_order_id, legs, quantity, order_type, time_in_force, placed_on })
    }

    /// Contracts of `leg` for the whole order.
    #[must_use]
    pub fn contracts(&self, leg: &Leg) -> i64 {
        i64::from(leg.ratio) * i64::from(self.quantity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, d).expect("date")
    }

    pub(crate) fn leg(right: Right, strike_cents: i64, side: Side) -> Leg {
        Leg { contract: Contract { underlying: "AAPL".into(), right, strike_cents, expiration: day(18) }, side, ratio: 1 }
    }

    #[test]
    fn an_order_is_checked_before_it_exists() {
        let ok = |legs: Vec<Leg>, quantity: u32, order_type: OrderType| {
            Order::new("sig-1/acct-1", legs, quantity, order_type, TimeInForce::Day, day(1))
        };
        let call = leg(Right::Call, 20_000, Side::Buy);
        assert!(ok(vec![call.clone()], 1, OrderType::Market).is_ok());
        assert_eq!(ok(vec![], 1, OrderType::Market), Err(OrderError::Legs));
        assert_eq!(ok(vec![call.clone(); 5], 1, OrderType::Market), Err(OrderError::Legs));
        assert_eq!(ok(vec![call.clone()], 0, OrderType::Market), Err(OrderError::Quantity));
        for price in [0.0, f64::NAN, f64::INFINITY] {
            assert_eq!(ok(vec![call.clone()], 1, OrderType::Limit { price }), Err(OrderError::LimitPrice));
        }
        assert!(ok(vec![call.clone()], 1, OrderType::Limit { price: -1.25 }).is_ok(), "a credit limit");
        assert_eq!(ok(vec![Leg { ratio: 0, ..call.clone() }], 1, OrderType::Market), Err(OrderError::Ratio));
        assert_eq!(ok(vec![leg(Right::Put, 0, Side::Buy)], 1, OrderType::Market), Err(OrderError::Strike));
        assert_eq!(ok(vec![call.clone(), call.clone()], 1, OrderType::Market), Err(OrderError::RepeatedContract));
        let mut other = leg(Right::Call, 21_000, Side::Sell);
        other.contract.underlying = "MSFT".into();
        assert_eq!(ok(vec![call.clone(), other], 1, OrderType::Market), Err(OrderError::Underlying));
        let mut old = call.clone();
        old.contract.expiration = NaiveDate::from_ymd_opt(2026, 11, 20).expect("date");
        assert_eq!(ok(vec![old], 1, OrderType::Market), Err(OrderError::Expired));
        let long_id = "x".repeat(65);
        assert_eq!(Order::new(long_id, vec![call], 1, OrderType::Market, TimeInForce::Day, day(1)), Err(OrderError::ClientOrderId));
    }
}
