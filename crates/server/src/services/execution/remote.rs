//! Orders of an account connected to Alpaca (docs/execution.md): sent with the account's keys,
//! read back by client order id until final (each part fill stored as it comes; the fill that
//! completes the order opens or closes the position at the average price of all of them), and
//! cancelled at Alpaca before they are marked cancelled here.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use strikeline_engine::broker::{Fill, LegFill, OrderEvent, OrderStatus, Side};
use strikeline_store::orders::{self, StoredOrder};

use super::alpaca::{AlpacaClient, AlpacaError, AlpacaOrder, Answer, Intent};
use super::{Effect, Effects, Sent, engine_order, progress_of, record_fill, step};
use crate::foundation::credentials::SealingKey;
use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// The broker name orders and connections store for Alpaca.
pub const ALPACA: &str = "alpaca";

/// The client for `account_id`'s Alpaca connection; `None` when it has none, or its secret
/// cannot be opened (no operator key, or another key).
pub async fn client_for(state: &AppState, account_id: &str) -> Result<Option<AlpacaClient>> {
    let Some(connection) = strikeline_store::broker_connections::find(&state.db, account_id).await? else { return Ok(None) };
    let Some(secret) = SealingKey::configured(&state.config).and_then(|key| key.open(account_id, &connection.secret_sealed)) else {
        return Ok(None);
    };
    let brokers = &state.config.brokers;
    let base = if connection.endpoint == "live" { &brokers.alpaca_live_url } else { &brokers.alpaca_paper_url };
    let wait = StdDuration::from_millis(brokers.alpaca_max_wait_ms);
    Ok(AlpacaClient::new(base, &connection.key_id, &secret, wait, state.clock.clone()).ok())
}

/// The intent of an order with this effect.
fn intent_of(effect: &Effect) -> Intent {
    match effect {
        Effect::Opens => Intent::Open,
        Effect::Closes { .. } => Intent::Close,
    }
}

/// Sends an order that is new, or reads back one Alpaca holds, and stores what came of it.
pub async fn send(state: &AppState, order: &StoredOrder, effect: &Effect, now: DateTime<Utc>) -> Result<Sent> {
    let (Some(progress), Some(engine)) = (progress_of(order), engine_order(order)) else { return Ok(Sent::Unchanged) };
    if progress.status.is_final() {
        return Ok(Sent::Unchanged);
    }
    let Some(client) = client_for(state, &order.row.account_id).await? else {
        let reason = "The account's Alpaca keys cannot be read: connect it to Alpaca again.";
        return reject_or_leave(state, order, progress.status, reason, now).await;
    };
    let answer = if progress.status == OrderStatus::New {
        client.submit(&engine, intent_of(effect)).await
    } else {
        client.by_client_order_id(&order.row.client_order_id).await.map(Answer::Placed)
    };
    match answer {
        Ok(Answer::Placed(reported)) => {
            let mut order = order.clone();
            if progress.status == OrderStatus::New {
                let effects = Effects { broker_order_id: Some(&reported.id), ..Effects::default() };
                if step(state, &order, OrderEvent::Accept, None, None, effects, now).await?.is_none() {
                    return Ok(Sent::Unchanged);
                }
                order = orders::find(&state.db, &order.row.account_id, &order.row.id).await?;
            }
            apply_report(state, &order, &reported, effect, now).await
        }
        Ok(Answer::Rejected(reason)) => reject_or_leave(state, order, progress.status, &reason, now).await,
        Err(AlpacaError::Unauthorized) => {
            reject_or_leave(state, order, progress.status, "Alpaca refused the account's keys: connect it again.", now).await
        }
        Err(error) => {
            // Unreachable or rate limited: the order stays as it is and the next tick resumes it.
            tracing::warn!(%error, order = %order.row.id, "Alpaca did not answer; the order is resumed later");
            Ok(Sent::Unchanged)
        }
    }
}

/// Rejects an order not yet sent; one Alpaca may hold is left to be read back.
async fn reject_or_leave(state: &AppState, order: &StoredOrder, status: OrderStatus, reason: &str, now: DateTime<Utc>) -> Result<Sent> {
    if status != OrderStatus::New {
        return Ok(Sent::Unchanged);
    }
    Ok(match step(state, order, OrderEvent::Reject, Some(reason), None, Effects::default(), now).await? {
        Some(_) => Sent::Rejected(reason.to_owned()),
        None => Sent::Unchanged,
    })
}

/// A part fill of `units` at `net_price` a share (Alpaca charges no commission on options).
fn fill_of(order: &StoredOrder, units: u32, net_price: f64) -> Fill {
    let Some(engine) = engine_order(order) else { return Fill { units, legs: Vec::new(), net_price } };
    // The net price is the order's; the first leg carries it (what the cash moved is right for
    // a single leg and for legs all bought or all sold).
    let legs = engine
        .legs
        .iter()
        .enumerate()
        .map(|(i, leg)| LegFill {
            contract: leg.contract.clone(),
            side: leg.side,
            contracts: i64::from(leg.ratio) * i64::from(units),
            price: if i == 0 { net_price.abs() } else { 0.0 },
            commission: 0.0,
        })
        .collect();
    Fill { units, legs, net_price }
}

/// Stores what Alpaca reports of an accepted order: the units filled since we last looked (at
/// the price that brings the average to Alpaca's), the position with the fill that completes
/// it, or its end (cancelled, expired, rejected) keeping what filled.
pub async fn apply_report(
    state: &AppState,
    order: &StoredOrder,
    reported: &AlpacaOrder,
    effect: &Effect,
    now: DateTime<Utc>,
) -> Result<Sent> {
    let quantity = u32::try_from(order.row.quantity).unwrap_or(0);
    let ours = u32::try_from(order.row.filled_units).unwrap_or(0);
    let theirs = reported.filled_units().min(quantity);
    let sign = match engine_order(order).and_then(|o| o.legs.first().map(|l| l.side)) {
        Some(Side::Sell) => -1.0,
        _ => 1.0,
    };
    let mut sent = Sent::Standing;
    if theirs > ours {
        let Some(average) = reported.average_price() else { return Ok(Sent::Standing) };
        let earlier = super::FilledSoFar::of(&orders::fills(&state.db, &order.row.id).await?).paid;
        let delta = theirs - ours;
        let price = (sign * average * f64::from(theirs) - earlier) / f64::from(delta);
        let completes = theirs == quantity;
        sent = record_fill(state, order, fill_of(order, delta, price), completes.then_some(effect), now).await?;
        if completes || matches!(sent, Sent::Unchanged) {
            return Ok(sent);
        }
    }
    if matches!(reported.status.as_str(), "canceled" | "expired" | "rejected" | "done_for_day") {
        let order = orders::find(&state.db, &order.row.account_id, &order.row.id).await?;
        let reason = format!("Alpaca reports it {}.", reported.status.replace('_', " "));
        let event = if order.row.status == "new" { OrderEvent::Reject } else { OrderEvent::Cancel };
        // What filled before it ended is the account's position (an opening order's).
        let opens = if *effect == Effect::Opens { super::opening_of_fills(state, &order, now).await? } else { None };
        let effects = Effects { opens: opens.as_ref(), ..Effects::default() };
        return Ok(match step(state, &order, event, Some(&reason), None, effects, now).await? {
            Some(_) => Sent::Rejected(reason),
            None => Sent::Unchanged,
        });
    }
    Ok(if matches!(sent, Sent::Filled(_)) { Sent::Standing } else { sent })
}

/// Asks Alpaca to cancel a standing order, then reads it back: `true` when it ended
/// cancelled (what filled first is stored), `false` when it filled or Alpaca did not answer.
pub async fn cancel(state: &AppState, order: &StoredOrder, reason: &str, now: DateTime<Utc>) -> Result<bool> {
    let Some(client) = client_for(state, &order.row.account_id).await? else { return Ok(false) };
    if let Some(id) = &order.row.broker_order_id
        && client.cancel(id).await.is_err()
    {
        return Ok(false);
    }
    match client.by_client_order_id(&order.row.client_order_id).await {
        Ok(reported) => {
            let effect = super::effect_of(state, order).await?;
            apply_report(state, order, &reported, &effect, now).await?;
            let after = orders::find(&state.db, &order.row.account_id, &order.row.id).await?;
            if after.row.status == "cancelled" || after.row.status == "rejected" {
                return Ok(true);
            }
            if after.row.status == "filled" {
                return Ok(false);
            }
            let opens = if effect == Effect::Opens { super::opening_of_fills(state, &after, now).await? } else { None };
            let effects = Effects { opens: opens.as_ref(), ..Effects::default() };
            Ok(step(state, &after, OrderEvent::Cancel, Some(reason), None, effects, now).await?.is_some())
        }
        Err(AlpacaError::NotFound) => {
            Ok(step(state, order, OrderEvent::Reject, Some(reason), None, Effects::default(), now).await?.is_some())
        }
        Err(_) => Ok(false),
    }
}

/// Reads back every standing order Alpaca holds and stores what changed; the owners are told
/// of fills and rejections. Returns how many orders completed.
pub async fn poll_standing(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let mut announcements = super::announce::Announcements::default();
    let mut completed = 0;
    for order in orders::standing(&state.db).await? {
        if order.row.broker != ALPACA || order.row.status == "new" {
            continue;
        }
        let effect = super::effect_of(state, &order).await?;
        let sent = send(state, &order, &effect, now).await?;
        let (Some(signal_id), Sent::Filled(_) | Sent::Rejected(_)) = (&order.row.signal_id, &sent) else { continue };
        completed += 1;
        let Some(signal) = strikeline_store::signals::find(&state.db, signal_id).await? else { continue };
        let Ok(account) = strikeline_store::trading_accounts::find(&state.db, &order.row.user_id, &order.row.account_id).await else {
            continue;
        };
        match &sent {
            Sent::Filled(fill) => announcements.filled(&account, &signal, &order, fill, effect == Effect::Opens, now),
            Sent::Rejected(reason) => announcements.rejected(&account, &signal, &order, reason, now),
            Sent::Standing | Sent::Unchanged => {}
        }
    }
    announcements.flush(state, now).await?;
    Ok(completed)
}
