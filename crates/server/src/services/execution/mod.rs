//! Orders for trading accounts (docs/execution.md): sending one to its broker, its deadline,
//! cancelling it, and the kill switches (one per account, one for the administrator). What the
//! automation sends is [`automated`].
//!
//! Every change of an order's state goes through the engine's state machine
//! ([`OrderProgress::apply`]) and is stored as a compare-and-set on the state read
//! ([`orders::advance`]): a restart or a second instance resuming the same order changes it
//! once, and a fill is stored with the position it opens in one transaction.

pub mod alpaca;
pub mod announce;
pub mod automated;
pub mod broker;
pub mod closing;
pub mod proposal;
pub mod reconciliation;
pub mod remote;

use chrono::{DateTime, Duration, Utc};
use strikeline_engine::broker::{Contract, Fill, Leg, Order, OrderEvent, OrderProgress, OrderType, Side, TimeInForce};
use strikeline_store::orders::{self, Advance, FillRow, StoredOrder};
use strikeline_store::positions::{AutomatedRow, Closing};

use crate::foundation::audit::{self, Origin};
use crate::foundation::error::Result;
use crate::foundation::money::{to_cents, usd};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AuditAction, OptionRight, OrderDuration, OrderKind, OrderSide, OrderState, PositionStatus, Vocabulary};
use announce::Announcements;
use broker::{Broker, Submission};
use strikeline_store::signals::SignalRow;
use strikeline_store::trading_accounts::AccountRow;

/// How long an order may stand unfilled before it is cancelled.
pub const DEADLINE: Duration = Duration::minutes(30);

/// The administrator's kill switch, kept with the scheduler's shared settings.
const HALT_SETTING: &str = "orders_halted";

/// Where a stored order stands, as the engine's state machine sees it; `None` for a spelling
/// the store's checks never let in.
fn progress_of(order: &StoredOrder) -> Option<OrderProgress> {
    let status = OrderState::exact(&order.row.status).ok()?.into();
    let quantity = u32::try_from(order.row.quantity).ok()?;
    let filled = u32::try_from(order.row.filled_units).ok()?;
    Some(OrderProgress { status, filled, quantity })
}

/// Whether a stored order has ended (filled, cancelled, rejected); one whose state cannot be
/// read counts as ended, as nothing can move it.
fn is_final(order: &StoredOrder) -> bool {
    progress_of(order).is_none_or(|p| p.status.is_final())
}

/// The engine's order for a stored one; `None` when its stored terms are not an order the
/// engine accepts (which the store's checks and [`Order::new`] keep from happening).
pub fn engine_order(order: &StoredOrder) -> Option<Order> {
    let legs = order
        .legs
        .iter()
        .map(|leg| {
            Some(Leg {
                contract: Contract {
                    underlying: order.row.underlying.clone(),
                    right: OptionRight::exact(&leg.option_right).ok()?.into(),
                    strike_cents: leg.strike_cents,
                    expiration: leg.expiration_date,
                },
                side: match OrderSide::exact(&leg.side).ok()? {
                    OrderSide::Buy => Side::Buy,
                    OrderSide::Sell => Side::Sell,
                },
                ratio: u32::try_from(leg.ratio).ok()?,
            })
        })
        .collect::<Option<Vec<Leg>>>()?;
    let order_type = match OrderKind::exact(&order.row.order_type).ok()? {
        OrderKind::Market => OrderType::Market,
        OrderKind::Limit => OrderType::Limit { price: order.row.limit_price? },
    };
    let time_in_force = match OrderDuration::exact(&order.row.time_in_force).ok()? {
        OrderDuration::Day => TimeInForce::Day,
        OrderDuration::Gtc => TimeInForce::GoodTillCancelled,
    };
    let quantity = u32::try_from(order.row.quantity).ok()?;
    Order::new(order.row.client_order_id.clone(), legs, quantity, order_type, time_in_force, order.row.placed_on).ok()
}

/// What is stored with a change of state: the position a fill opens or closes, the broker's
/// id for the order.
#[derive(Clone, Copy, Default)]
struct Effects<'a> {
    opens: Option<&'a AutomatedRow>,
    closes: Option<&'a Closing>,
    broker_order_id: Option<&'a str>,
}

/// A change of state, checked by the engine and stored if the order is still as read. `None`
/// when the engine refuses the move or another sender moved the order first.
async fn step(
    state: &AppState,
    order: &StoredOrder,
    event: OrderEvent,
    reason: Option<&str>,
    fill: Option<&FillRow>,
    effects: Effects<'_>,
    now: DateTime<Utc>,
) -> Result<Option<OrderProgress>> {
    let Some(from) = progress_of(order) else { return Ok(None) };
    let Ok(to) = from.apply(event) else { return Ok(None) };
    let logged = match event {
        OrderEvent::Accept => None,
        OrderEvent::Reject => Some((AuditAction::OrderRejected, format!("{} rejected: {}", order_words(order), reason.unwrap_or("")))),
        OrderEvent::Cancel => Some((AuditAction::OrderCancelled, format!("{} cancelled: {}", order_words(order), reason.unwrap_or("")))),
        OrderEvent::Fill { units } => Some((
            AuditAction::OrderFilled,
            format!(
                "{} filled {units} at {} a share, {} in commissions",
                order_words(order),
                fill.map_or_else(String::new, |f| format!("${:.2}", f.net_price)),
                usd(fill.map_or(0, |f| f.commission_cents))
            ),
        )),
    };
    let audit = logged.map(|(action, detail)| audit::event(Some(&order.row.user_id), None, action, Some(detail), &Origin::default(), now));
    let change = Advance {
        id: &order.row.id,
        from: (from.status.as_str(), i64::from(from.filled)),
        to: (to.status.as_str(), i64::from(to.filled)),
        reason,
        broker_order_id: effects.broker_order_id,
        fill,
        opens: effects.opens,
        closes: effects.closes,
        audit: audit.as_ref(),
        at: now,
    };
    Ok(orders::advance(&state.db, &change).await?.then_some(to))
}

/// What sending an order came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Sent {
    /// It filled (and the position it opens is stored with the fill).
    Filled(Fill),
    /// The broker holds it until it fills, is cancelled or reaches its deadline.
    Standing,
    /// The broker refused it, for this reason.
    Rejected(String),
    /// Another sender moved it first, or it was no longer waiting to be sent.
    Unchanged,
}

/// What an order's fill does to the account's automated positions, in the same transaction.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Opens the position of the signal the order executes.
    Opens,
    /// Closes this position (its status after: `closed` or `expired`, as its signal ended).
    Closes { position_id: String, status: String },
}

/// Sends a stored order that is new (or accepted but not yet filled, as a restart finds it)
/// to its broker, with its legs marked at `marks`, and stores what came of it, with the
/// fill's `effect` on the account's positions.
pub async fn send(state: &AppState, order: &StoredOrder, marks: &[Option<f64>], effect: &Effect, now: DateTime<Utc>) -> Result<Sent> {
    if order.row.broker == remote::ALPACA {
        return remote::send(state, order, effect, now).await;
    }
    let (Some(progress), Some(engine), Some(broker)) = (progress_of(order), engine_order(order), Broker::named(&order.row.broker)) else {
        return Ok(Sent::Unchanged);
    };
    if progress.status.is_final() {
        return Ok(Sent::Unchanged);
    }
    let submission = broker.submit(&engine, marks);
    let mut order = order.clone();
    if progress.status == strikeline_engine::broker::OrderStatus::New {
        let (event, reason) = match &submission {
            Submission::Rejected(reason) => (OrderEvent::Reject, Some(reason.as_str())),
            Submission::Filled(_) | Submission::Standing => (OrderEvent::Accept, None),
        };
        let Some(moved) = step(state, &order, event, reason, None, Effects::default(), now).await? else { return Ok(Sent::Unchanged) };
        order.row.status = moved.status.as_str().to_owned();
    }
    match submission {
        Submission::Rejected(reason) => Ok(Sent::Rejected(reason)),
        Submission::Standing => Ok(Sent::Standing),
        Submission::Filled(fill) => record_fill(state, &order, fill, Some(effect), now).await,
    }
}

/// The automated position an order executing a signal opens: `units` at `average` a share
/// with `commissions` cents paid; `None` for an order executing no signal.
fn opening(order: &StoredOrder, units: i64, average: f64, commissions: i64, now: DateTime<Utc>) -> Option<AutomatedRow> {
    Some(AutomatedRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: order.row.user_id.clone(),
        signal_id: order.row.signal_id.clone()?,
        quantity: units,
        entry_cents: to_cents(average),
        commissions_cents: commissions,
        status: PositionStatus::Open.as_str().to_owned(),
        exit_cents: None,
        opened_at: now,
        closed_at: None,
        updated_at: now,
        account_id: order.row.account_id.clone(),
    })
}

/// The position an order's fills so far open, when it ends part filled (an opening order
/// cancelled after some units filled keeps them as its position).
async fn opening_of_fills(state: &AppState, order: &StoredOrder, now: DateTime<Utc>) -> Result<Option<AutomatedRow>> {
    if order.row.filled_units == 0 {
        return Ok(None);
    }
    let so_far = FilledSoFar::of(&orders::fills(&state.db, &order.row.id).await?);
    if so_far.units == 0 {
        return Ok(None);
    }
    Ok(opening(order, so_far.units, so_far.paid / so_far.units as f64, so_far.commission_cents, now))
}

/// What an order's stored fills add up to: units, the net paid (price × units, per share) and
/// the commissions in cents.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct FilledSoFar {
    units: i64,
    paid: f64,
    commission_cents: i64,
}

impl FilledSoFar {
    fn of(fills: &[FillRow]) -> FilledSoFar {
        fills.iter().fold(FilledSoFar::default(), |sum, f| FilledSoFar {
            units: sum.units + f.units,
            paid: sum.paid + f.net_price * f.units as f64,
            commission_cents: sum.commission_cents + f.commission_cents,
        })
    }
}

/// Stores `fill` of an accepted (or partly filled) order, with its `effect` on the account's
/// positions when it is given (the fill that completes the order).
async fn record_fill(state: &AppState, order: &StoredOrder, fill: Fill, effect: Option<&Effect>, now: DateTime<Utc>) -> Result<Sent> {
    let fill_row = FillRow {
        id: uuid::Uuid::new_v4().to_string(),
        order_id: order.row.id.clone(),
        user_id: order.row.user_id.clone(),
        units: i64::from(fill.units),
        net_price: fill.net_price,
        cash_out: fill.cash_out(),
        commission_cents: fill.legs.iter().map(|l| to_cents(l.commission)).sum(),
        filled_at: now,
    };
    // The position takes every unit filled, at their average net price.
    let filled = order.row.filled_units + i64::from(fill.units);
    let earlier = FilledSoFar::of(&if order.row.filled_units > 0 { orders::fills(&state.db, &order.row.id).await? } else { Vec::new() });
    let paid = earlier.paid + fill.net_price * f64::from(fill.units);
    let average = if filled > 0 { paid / filled as f64 } else { fill.net_price };
    let commissions = earlier.commission_cents + fill_row.commission_cents;
    let opens = if effect == Some(&Effect::Opens) { opening(order, filled, average, commissions, now) } else { None };
    let closes = match effect {
        Some(Effect::Closes { position_id, status }) => {
            // With what earlier attempts at closing it sold (cancelled part filled).
            let before = closing::sold_before(state, position_id, order).await?;
            let units = filled + before.units;
            Some(Closing {
                position_id: position_id.clone(),
                status: status.clone(),
                // A sale's net price is negative (received).
                exit_cents: to_cents(-(paid + before.paid) / units.max(1) as f64),
                commission_cents: commissions + before.commission_cents,
            })
        }
        Some(Effect::Opens) | None => None,
    };
    let event = OrderEvent::Fill { units: fill.units };
    let effects = Effects { opens: opens.as_ref(), closes: closes.as_ref(), broker_order_id: None };
    Ok(match step(state, order, event, None, Some(&fill_row), effects, now).await? {
        Some(_) => Sent::Filled(fill),
        None => Sent::Unchanged,
    })
}

/// An order in words, for the audit log: "MOM buy call $100.00 2026-12-29, 3 units
/// (signal-…)".
pub fn order_words(order: &StoredOrder) -> String {
    let legs: Vec<String> = order
        .legs
        .iter()
        .map(|leg| {
            let ratio = if leg.ratio == 1 { String::new() } else { format!("{}× ", leg.ratio) };
            format!("{} {ratio}{} {} {}", leg.side, leg.option_right, usd(leg.strike_cents), leg.expiration_date)
        })
        .collect();
    format!("{} {}, {} units ({})", order.row.underlying, legs.join(" + "), order.row.quantity, order.row.client_order_id)
}

/// An order as webhooks carry it: its terms and where it stands.
pub fn order_data(order: &StoredOrder) -> serde_json::Value {
    let legs: Vec<serde_json::Value> = order
        .legs
        .iter()
        .map(|leg| {
            serde_json::json!({
                "right": leg.option_right,
                "side": leg.side,
                "strike": crate::foundation::money::dollars(leg.strike_cents),
                "expiration": leg.expiration_date,
                "ratio": leg.ratio,
            })
        })
        .collect();
    serde_json::json!({
        "id": order.row.id,
        "clientOrderId": order.row.client_order_id,
        "signalId": order.row.signal_id,
        "underlying": order.row.underlying,
        "quantity": order.row.quantity,
        "orderType": order.row.order_type,
        "timeInForce": order.row.time_in_force,
        "broker": order.row.broker,
        "legs": legs,
    })
}

/// Places `order` for `signal` in `account`: new, or already rejected by one of the account's
/// limits (its reason says which). The audit entry ("placed {by}", or "refused") is stored with
/// it, and a refusal is announced. Returns the order as stored (the earlier one when this
/// account has ordered the signal already) and whether this call placed it.
pub async fn place(
    state: &AppState,
    account: &AccountRow,
    signal: &SignalRow,
    order: &StoredOrder,
    by: &str,
    announcements: &mut Announcements,
    now: DateTime<Utc>,
) -> Result<(StoredOrder, bool)> {
    let (action, detail) = match &order.row.reason {
        Some(reason) => (AuditAction::OrderRejected, format!("{} refused: {reason}", order_words(order))),
        None => (AuditAction::OrderPlaced, format!("{} placed {by}", order_words(order))),
    };
    let audit = audit::event(Some(&account.user_id), None, action, Some(detail), &Origin::default(), now);
    let (stored, placed) = orders::place_audited(&state.db, &order.row, &order.legs, Some(&audit)).await?;
    if placed && let Some(reason) = &stored.row.reason {
        announcements.refused(account, signal, &stored, reason, now);
    }
    Ok((stored, placed))
}

/// Sends a placed order for `signal` while it waits to be sent (new, or accepted as a restart
/// finds it), marked at the signal's premium, with its fill's `effect`, and announces a fill or
/// a rejection (a closing fill by webhook only: the position's closing is the notification).
pub async fn dispatch(
    state: &AppState,
    account: &AccountRow,
    signal: &SignalRow,
    order: &StoredOrder,
    effect: &Effect,
    announcements: &mut Announcements,
    now: DateTime<Utc>,
) -> Result<Sent> {
    if !matches!(OrderState::exact(&order.row.status), Ok(OrderState::New | OrderState::Accepted)) {
        return Ok(Sent::Unchanged);
    }
    let sent = send(state, order, &automated::signal_marks(state, signal, now), effect, now).await?;
    match &sent {
        Sent::Filled(fill) => announcements.filled(account, signal, order, fill, *effect == Effect::Opens, now),
        Sent::Rejected(reason) => announcements.rejected(account, signal, order, reason, now),
        Sent::Standing | Sent::Unchanged => {}
    }
    Ok(sent)
}

/// The broker `account_id`'s orders go to: Alpaca when it is connected, else the paper broker.
pub async fn broker_of(state: &AppState, account_id: &str) -> Result<&'static str> {
    Ok(if strikeline_store::broker_connections::find(&state.db, account_id).await?.is_some() { remote::ALPACA } else { Broker::PAPER })
}

/// What a stored order's fill does to the account's positions: a closing order's client order
/// id names the position (`close-<id>`), which closes as its signal ended; any other opens.
pub async fn effect_of(state: &AppState, order: &StoredOrder) -> Result<Effect> {
    let Some(position_id) = closing::position_of(&order.row.client_order_id) else { return Ok(Effect::Opens) };
    let status = match &order.row.signal_id {
        Some(id) => strikeline_store::signals::find(&state.db, id).await?.map(|s| s.status),
        None => None,
    };
    Ok(Effect::Closes { position_id: position_id.to_owned(), status: status.unwrap_or_else(|| "closed".to_owned()) })
}

/// Cancels a standing order, keeping what filled: `true` if this call cancelled it. An order
/// not yet sent (new) is rejected instead, with the same reason. An order Alpaca holds is
/// cancelled there first.
pub async fn cancel(state: &AppState, order: &StoredOrder, reason: &str, now: DateTime<Utc>) -> Result<bool> {
    if order.row.broker == remote::ALPACA && order.row.status != "new" {
        return remote::cancel(state, order, reason, now).await;
    }
    let Some(progress) = progress_of(order) else { return Ok(false) };
    let event = if progress.status == strikeline_engine::broker::OrderStatus::New { OrderEvent::Reject } else { OrderEvent::Cancel };
    Ok(step(state, order, event, Some(reason), None, Effects::default(), now).await?.is_some())
}

/// Cancels every standing order whose deadline has passed; how many.
pub async fn cancel_overdue(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let mut cancelled = 0;
    for order in orders::overdue(&state.db, now).await? {
        let reason = format!("Not filled within {} minutes.", DEADLINE.num_minutes());
        if cancel(state, &order, &reason, now).await? {
            cancelled += 1;
        }
    }
    Ok(cancelled)
}

/// Cancels every standing order of `account_id`; how many.
pub async fn cancel_standing_in(state: &AppState, account_id: &str, reason: &str, now: DateTime<Utc>) -> Result<usize> {
    let mut cancelled = 0;
    for order in orders::standing_in(&state.db, account_id).await? {
        if cancel(state, &order, reason, now).await? {
            cancelled += 1;
        }
    }
    Ok(cancelled)
}

/// Whether the administrator's kill switch stops every new order.
pub async fn halted(state: &AppState) -> Result<bool> {
    Ok(strikeline_store::automation::get(&state.db, HALT_SETTING).await?.as_deref() == Some("true"))
}

/// Sets the administrator's kill switch; setting it cancels every standing order. Returns how
/// many were cancelled.
pub async fn set_halted(state: &AppState, halted: bool, now: DateTime<Utc>) -> Result<usize> {
    strikeline_store::automation::set(&state.db, HALT_SETTING, if halted { "true" } else { "false" }, now).await?;
    if !halted {
        return Ok(0);
    }
    let mut cancelled = 0;
    for order in orders::standing(&state.db).await? {
        if cancel(state, &order, "Stopped by the administrator's kill switch.", now).await? {
            cancelled += 1;
        }
    }
    Ok(cancelled)
}
