//! Closing automated positions through their broker: when a position's signal ends (target,
//! stop, time or expiry), a sell order for the position's contracts goes to the account's
//! broker, marked at the signal's last premium; its fill closes the position in the same
//! transaction, at the price received and with the commission paid. With the paper broker
//! that is the backtester's exit (the mark less 1% slippage, $0.65 a contract), so a trade's
//! P&L is the same in both.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use strikeline_store::orders::StoredOrder;
use strikeline_store::signals::SignalRow;
use strikeline_store::trading_accounts::AccountRow;

use super::announce::Announcements;
use super::automated::order_for;
use super::{Effect, Sent};
use crate::foundation::error::Result;
use crate::foundation::state::AppState;
use crate::foundation::vocab::OrderSide;

/// How many orders may try to close one position: a broker that cancels or refuses each
/// leaves the position open (the reconciliation with the broker shows it) rather than sending
/// orders without end.
pub const MAX_ATTEMPTS: usize = 3;

/// The client order id of attempt `attempt` (1, 2, …) at closing position `position_id`:
/// `close-<id>`, then `close-<id>-r2`, … Every settler counts the same earlier attempts, so two
/// at once place one order.
pub fn client_order_id(position_id: &str, attempt: usize) -> String {
    if attempt <= 1 { format!("close-{position_id}") } else { format!("close-{position_id}-r{attempt}") }
}

/// The position a closing order's client order id names (`None` for any other order).
pub fn position_of(client_order_id: &str) -> Option<&str> {
    let rest = client_order_id.strip_prefix("close-")?;
    // A retry's suffix: ids are UUIDs, whose hex never holds an `r`.
    Some(match rest.rsplit_once("-r") {
        Some((position, attempt)) if !attempt.is_empty() && attempt.chars().all(|c| c.is_ascii_digit()) => position,
        _ => rest,
    })
}

/// What the attempts at closing a position before `order` sold: units, and their fills summed.
/// A first attempt has none before it, and reads nothing.
pub(super) async fn sold_before(state: &AppState, position_id: &str, order: &StoredOrder) -> Result<super::FilledSoFar> {
    if order.row.client_order_id == client_order_id(position_id, 1) {
        return Ok(super::FilledSoFar::default());
    }
    let (account_id, except) = (&order.row.account_id, &order.row.id);
    let earlier: Vec<String> = strikeline_store::orders::attempts(&state.db, account_id, &client_order_id(position_id, 1))
        .await?
        .into_iter()
        .filter(|o| o.row.id != *except && o.row.filled_units > 0)
        .map(|o| o.row.id)
        .collect();
    Ok(super::FilledSoFar::of(&strikeline_store::orders::fills_of(&state.db, &earlier).await?))
}

/// Closes every open automated position whose signal has ended with a sell order; returns the
/// `(owner, account, signal)` of each position closed now. A position whose order the broker
/// leaves standing or rejects stays open, and the next settlement resumes its order.
pub async fn close_ended(state: &AppState, now: DateTime<Utc>) -> Result<Vec<(String, String, String)>> {
    let ending = strikeline_store::positions::ending(&state.db).await?;
    let mut signals: HashMap<String, Option<SignalRow>> = HashMap::new();
    // Each account with its broker, read once however many of its positions close.
    let mut accounts: HashMap<String, Option<(AccountRow, &'static str)>> = HashMap::new();
    let mut announcements = Announcements::default();
    let mut closed = Vec::new();
    for strikeline_store::positions::Ending { position, ended_as } in ending {
        if !signals.contains_key(&position.signal_id) {
            let signal = strikeline_store::signals::find(&state.db, &position.signal_id).await?;
            signals.insert(position.signal_id.clone(), signal);
        }
        if !accounts.contains_key(&position.account_id) {
            let account = match strikeline_store::trading_accounts::find(&state.db, &position.user_id, &position.account_id).await {
                Ok(account) => {
                    let broker = super::broker_of(state, &account.id).await?;
                    Some((account, broker))
                }
                Err(strikeline_store::StoreError::NotFound) => None,
                Err(other) => return Err(other.into()),
            };
            accounts.insert(position.account_id.clone(), account);
        }
        let (Some(Some(signal)), Some(Some((account, broker)))) = (signals.get(&position.signal_id), accounts.get(&position.account_id))
        else {
            continue;
        };
        // Earlier attempts: one still standing (a crash may have left it unsent) is resumed
        // under its own id; what ended ones sold is not sold again.
        let earlier = strikeline_store::orders::attempts(&state.db, &account.id, &client_order_id(&position.id, 1)).await?;
        let standing = earlier.iter().find(|o| !super::is_final(o));
        if standing.is_none() && earlier.len() >= MAX_ATTEMPTS {
            continue;
        }
        let sold: i64 = earlier.iter().filter(|o| super::is_final(o)).map(|o| o.row.filled_units).sum();
        let Some(contracts) = u32::try_from(position.quantity - sold).ok().filter(|n| *n > 0) else { continue };
        let Some(mut order) = order_for(signal, account, broker, Ok(contracts), now) else { continue };
        order.row.client_order_id =
            standing.map_or_else(|| client_order_id(&position.id, earlier.len() + 1), |o| o.row.client_order_id.clone());
        // An expired contract's closing is booked on its expiration day, the last day it
        // traded: the signal's last mark is its value then.
        order.row.placed_on = order.row.placed_on.min(signal.expiration_date);
        for leg in &mut order.legs {
            leg.side = OrderSide::Sell.as_str().to_owned();
        }
        let why = "to close the position as its signal ended";
        let (stored, _) = super::place(state, account, signal, &order, why, &mut announcements, now).await?;
        let effect = Effect::Closes { position_id: position.id.clone(), status: ended_as };
        if let Sent::Filled(_) = super::dispatch(state, account, signal, &stored, &effect, &mut announcements, now).await? {
            closed.push((position.user_id.clone(), position.account_id.clone(), position.signal_id.clone()));
        }
    }
    announcements.flush(state, now).await?;
    Ok(closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_attempt_has_its_id_and_every_id_names_its_position() {
        let id = "6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab";
        assert_eq!(client_order_id(id, 1), format!("close-{id}"));
        assert_eq!(client_order_id(id, 3), format!("close-{id}-r3"));
        for attempt in 1..=MAX_ATTEMPTS {
            assert_eq!(position_of(&client_order_id(id, attempt)), Some(id));
        }
        assert_eq!(position_of(&format!("signal-{id}")), None);
        assert_eq!(position_of("close-p-1-rx"), Some("p-1-rx"), "not a retry's suffix");
    }
}
