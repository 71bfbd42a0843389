//! Closing automated positions through their broker: when a position's signal ends (target,
//! stop, time or expiry), a sell order for the position's contracts goes to the account's
//! broker, marked at the signal's last premium; its fill closes the position in the same
//! transaction, at the price received and with the commission paid. With the paper broker
//! that is the backtester's exit (the mark less 1% slippage, $0.65 a contract), so a trade's
//! P&L is the same in both.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use strikeline_store::signals::SignalRow;
use strikeline_store::trading_accounts::AccountRow;

use super::announce::Announcements;
use super::automated::order_for;
use super::{Effect, Sent};
use crate::foundation::error::Result;
use crate::foundation::state::AppState;
use crate::foundation::vocab::OrderSide;

/// The client order id of the order closing position `position_id` (one per position: a
/// second settler places nothing).
pub fn client_order_id(position_id: &str) -> String {
    format!("close-{position_id}")
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
        let Some(contracts) = u32::try_from(position.quantity).ok().filter(|n| *n > 0) else { continue };
        let Some(mut order) = order_for(signal, account, broker, Ok(contracts), now) else { continue };
        order.row.client_order_id = client_order_id(&position.id);
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
