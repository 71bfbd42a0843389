//! An order's states and the only moves between them:
//!
//! ```text
//! new ──accept──► accepted ──fill (part)──► partially filled ──fill (rest)──► filled
//!  │                 │  └──────────fill (all)──────────────────────────────────┘
//!  └──reject──► rejected                 cancel (by the user, the kill switch, or the end
//!                    accepted / partially filled ──────► cancelled   of a day order's session)
//! ```
//!
//! Filled, cancelled and rejected are final. A fill never exceeds what is left, and a
//! partially filled order that is cancelled keeps what filled.

/// Where an order stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderStatus {
    New,
    Accepted,
    PartiallyFilled,
    Filled,
    Cancelled,
    Rejected,
}

impl OrderStatus {
    /// Whether nothing more can happen to it.
    #[must_use]
    pub fn is_final(self) -> bool {
        matches!(self, OrderStatus::Filled | OrderStatus::Cancelled | OrderStatus::Rejected)
    }

    /// The spelling stored and shown: `new`, `accepted`, `partially_filled`, `filled`,
    /// `cancelled`, `rejected`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::New => "new",
            OrderStatus::Accepted => "accepted",
            OrderStatus::PartiallyFilled => "partially_filled",
            OrderStatus::Filled => "filled",
            OrderStatus::Cancelled => "cancelled",
            OrderStatus::Rejected => "rejected",
        }
    }
}

/// What happens to an order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OrderEvent {
    /// The broker takes it.
    Accept,
    /// The broker refuses it.
    Reject,
    /// `units` more units fill.
    Fill { units: u32 },
    /// It is withdrawn (by the user, a kill switch, or the end of a day order's session).
    Cancel,
}

/// An order's progress: its status and how many of its units have filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderProgress {
    pub status: OrderStatus,
    pub filled: u32,
    pub quantity: u32,
}

/// A move the states do not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("an order {from} cannot take {event}")]
pub struct TransitionError {
    pub from: &'static str,
    pub event: &'static str,
}

impl OrderProgress {
    /// A new order of `quantity` units.
    #[must_use]
    pub fn new(quantity: u32) -> OrderProgress {
        OrderProgress { status: OrderStatus::New, filled: 0, quantity }
    }

    /// Units still to fill.
    #[must_use]
    pub fn remaining(self) -> u32 {
        self.quantity - self.filled
    }

    /// The progress after `event`, or why the states refuse it (and nothing changes).
    pub fn apply(self, event: OrderEvent) -> Result<OrderProgress, TransitionError> {
        use OrderStatus::*;
        let refused = |name: &'static str| TransitionError { from: self.status.as_str(), event: name };
        match (self.status, event) {
            (New, OrderEvent::Accept) => Ok(OrderProgress { status: Accepted, ..self }),
            (New, OrderEvent::Reject) => Ok(OrderProgress { status: Rejected, ..self }),
            (Accepted | PartiallyFilled, OrderEvent::Fill { units }) => {
                if units == 0 || units > self.remaining() {
                    return Err(refused("a fill larger than what is left"));
                }
                let filled = self.filled + units;
                Ok(OrderProgress { status: if filled == self.quantity { Filled } else { PartiallyFilled }, filled, ..self })
            }
            (Accepted | PartiallyFilled, OrderEvent::Cancel) => Ok(OrderProgress { status: Cancelled, ..self }),
            (_, OrderEvent::Accept) => Err(refused("accept")),
            (_, OrderEvent::Reject) => Err(refused("reject")),
            (_, OrderEvent::Fill { .. }) => Err(refused("fill")),
            (_, OrderEvent::Cancel) => Err(refused("cancel")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderEvent::*;

    fn run(events: &[OrderEvent]) -> Result<OrderProgress, TransitionError> {
        events.iter().try_fold(OrderProgress::new(5), |p, e| p.apply(*e))
    }

    #[test]
    fn orders_move_only_as_the_states_allow() {
        assert_eq!(run(&[Accept, Fill { units: 5 }]).map(|p| p.status), Ok(OrderStatus::Filled));
        let partial = run(&[Accept, Fill { units: 2 }]).expect("partial");
        assert_eq!((partial.status, partial.filled, partial.remaining()), (OrderStatus::PartiallyFilled, 2, 3));
        assert_eq!(run(&[Accept, Fill { units: 2 }, Fill { units: 3 }]).map(|p| p.status), Ok(OrderStatus::Filled));
        let cancelled = run(&[Accept, Fill { units: 2 }, Cancel]).expect("cancel");
        assert_eq!((cancelled.status, cancelled.filled), (OrderStatus::Cancelled, 2), "keeps what filled");
        assert_eq!(run(&[Reject]).map(|p| p.status), Ok(OrderStatus::Rejected));
        // Refused moves change nothing.
        assert!(run(&[Fill { units: 1 }]).is_err(), "not before it is accepted");
        assert!(run(&[Accept, Fill { units: 6 }]).is_err(), "never more than the order");
        assert!(run(&[Accept, Fill { units: 0 }]).is_err());
        assert!(run(&[Accept, Accept]).is_err());
        assert!(run(&[Accept, Reject]).is_err());
        assert!(run(&[Cancel]).is_err(), "a new order is rejected, not cancelled");
        for done in [vec![Accept, Fill { units: 5 }], vec![Reject], vec![Accept, Cancel]] {
            let end = run(&done).expect("final");
            assert!(end.status.is_final());
            for event in [Accept, Reject, Fill { units: 1 }, Cancel] {
                assert!(end.apply(event).is_err(), "{:?} after {:?}", event, end.status);
            }
        }
    }
}
