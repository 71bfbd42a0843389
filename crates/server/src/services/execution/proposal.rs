//! The optimiser's proposal sent as orders (docs/execution.md): each chosen signal and its
//! contracts become one order for the current account, checked against the account's limits
//! and kill switches first. An order for a signal the account has ordered already (by the
//! automation or an earlier send) is not placed twice: the client order id is the same,
//! `signal-<id>`.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use strikeline_store::orders::StoredOrder;
use strikeline_store::signals::SignalFilter;
use strikeline_store::users::UserRecord;

use super::announce::Announcements;
use super::automated::{client_order_id, order_for};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::money::usd;
use crate::foundation::state::AppState;

/// The most positions one send places.
pub const MAX_POSITIONS: usize = 50;
/// The most contracts of one position.
pub const MAX_CONTRACTS: u32 = 10_000;

/// One position to send: a signal and how many contracts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub signal_id: String,
    pub contracts: u32,
}

/// What one send came to: each position's order (as placed now, or as placed before) and
/// whether this send placed it.
pub struct SentProposal {
    pub orders: Vec<(StoredOrder, bool)>,
}

/// Sends `chosen` as orders for `user`'s current account (Premium: the optimiser's plan
/// rule). Refused whole, with each bad position named, when a position is not an active signal
/// the user may trade, one costs more than the account's maximum position size, or the new
/// ones together more than its capital left; refused (409) while a kill switch is on.
pub async fn send(state: &AppState, user: &UserRecord, chosen: &[Chosen], now: DateTime<Utc>) -> Result<SentProposal> {
    Entitlements::of(user, now).require(Capability::PortfolioOptimisation)?;
    let account = strikeline_store::trading_accounts::find(&state.db, &user.id, &user.account_id).await?;
    if account.orders_halted || super::halted(state).await? {
        return Err(AppError::Conflict(FieldError::new(
            "positions",
            "Orders are stopped for this account: a kill switch is on. Turn it off to send orders.",
        )));
    }
    let mut errors = Vec::new();
    if chosen.is_empty() || chosen.len() > MAX_POSITIONS {
        errors.push(FieldError::new("positions", format!("Send 1 to {MAX_POSITIONS} positions.")));
    }
    let filter = SignalFilter { status: Some("active".into()), limit: i64::MAX, ..SignalFilter::default() };
    let tradable: HashMap<String, strikeline_store::signals::SignalRow> =
        crate::services::visibility::ranked_for(state, user, &filter, now)
            .await?
            .into_iter()
            .filter(|(_, locked)| !locked)
            .map(|(row, _)| (row.id.clone(), row))
            .collect();
    let mut seen = HashSet::new();
    let mut new_cost_cents = 0_i64;
    let mut sent_before = HashMap::new();
    for (i, position) in chosen.iter().enumerate() {
        if !seen.insert(position.signal_id.as_str()) {
            errors.push(FieldError::new(format!("positions[{i}].signalId"), "This signal is listed twice."));
            continue;
        }
        let Some(signal) = tradable.get(&position.signal_id) else {
            errors.push(FieldError::new(format!("positions[{i}].signalId"), "Not an active signal you can trade."));
            continue;
        };
        if !(1..=MAX_CONTRACTS).contains(&position.contracts) {
            errors.push(FieldError::new(format!("positions[{i}].contracts"), format!("Send 1 to {MAX_CONTRACTS} contracts.")));
            continue;
        }
        // At the expected fill, so the fill stays within the limits.
        let cost = super::broker::Broker::paper().expected_contract_cents(signal.current_option_cents) * i64::from(position.contracts);
        if cost > account.max_position_size_cents {
            errors.push(FieldError::new(
                format!("positions[{i}].contracts"),
                format!(
                    "{} contracts cost {}, more than {}'s maximum position size of {}.",
                    position.contracts,
                    usd(cost),
                    account.name,
                    usd(account.max_position_size_cents)
                ),
            ));
            continue;
        }
        match strikeline_store::orders::by_client_id(&state.db, &account.id, &client_order_id(&signal.id)).await {
            Ok(order) => {
                sent_before.insert(signal.id.clone(), order);
            }
            Err(strikeline_store::StoreError::NotFound) => new_cost_cents += cost,
            Err(other) => return Err(other.into()),
        }
    }
    let left_cents = account.investment_capital_cents - strikeline_store::positions::open_cost_of(&state.db, &account.id).await?;
    if errors.is_empty() && new_cost_cents > left_cents {
        errors.push(FieldError::new(
            "positions",
            format!(
                "Together they cost {}, more than the {} left of {}'s capital.",
                usd(new_cost_cents),
                usd(left_cents.max(0)),
                account.name
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }

    let broker = super::broker_of(state, &account.id).await?;
    let mut announcements = Announcements::default();
    let mut orders = Vec::with_capacity(chosen.len());
    for position in chosen {
        let signal = &tradable[&position.signal_id];
        if let Some(order) = sent_before.remove(&signal.id) {
            orders.push((order, false));
            continue;
        }
        let Some(order) = order_for(signal, &account, broker, Ok(position.contracts), now) else { continue };
        let (stored, placed) = super::place(state, &account, signal, &order, "from the optimiser", &mut announcements, now).await?;
        super::dispatch(state, &account, signal, &stored, &super::Effect::Opens, &mut announcements, now).await?;
        orders.push((stored, placed));
    }
    announcements.flush(state, now).await?;
    // Read back: what sending made of each.
    let mut read = Vec::with_capacity(orders.len());
    for (order, placed) in orders {
        read.push((strikeline_store::orders::find(&state.db, &account.id, &order.row.id).await?, placed));
    }
    Ok(SentProposal { orders: read })
}
