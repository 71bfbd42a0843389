//! Telling an account's owner what became of its orders: a notification (kind `order`) and the
//! `order_filled` / `order_rejected` webhooks, which endpoints scoped to another account do not
//! hear. Collected while orders are sent, and written together at the end.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use strikeline_engine::broker::Fill;
use strikeline_store::orders::StoredOrder;
use strikeline_store::signals::SignalRow;
use strikeline_store::trading_accounts::AccountRow;

use crate::foundation::error::Result;
use crate::foundation::money::{to_cents, usd};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{NotificationKind, WebhookEventType};
use crate::services::notifying::{self, Note};
use crate::services::webhooks::{Audience, Event, emit};

/// How a signal's contract reads in a notification: "AAPL CALL $190.00 (2026-12-18)".
pub fn contract_words(signal: &SignalRow) -> String {
    format!("{} {} {} ({})", signal.symbol, signal.signal_type, usd(signal.strike_cents), signal.expiration_date)
}

/// What to tell, collected.
#[derive(Default)]
pub struct Announcements {
    notes: Vec<Note>,
    /// (owner, account, event, payload).
    events: Vec<(String, String, WebhookEventType, Value)>,
}

fn account_data(account: &AccountRow) -> Value {
    json!({"id": account.id, "name": account.name})
}

impl Announcements {
    fn note(&mut self, account: &AccountRow, title: String, body: String) {
        self.notes.push(Note { user_id: account.user_id.clone(), kind: NotificationKind::Order, title, body, link: Some("/portfolio") });
    }

    fn event(&mut self, account: &AccountRow, event_type: WebhookEventType, data: Value) {
        self.events.push((account.user_id.clone(), account.id.clone(), event_type, data));
    }

    /// An order for `signal` that `account`'s limit refused before it was sent (`reason`).
    pub fn refused(&mut self, account: &AccountRow, signal: &SignalRow, order: &StoredOrder, reason: &str, now: DateTime<Utc>) {
        self.note(
            account,
            format!("Order refused: {}", contract_words(signal)),
            format!("No order was sent for this signal in {}. {reason}", account.name),
        );
        let data = json!({"rejectedAt": now, "account": account_data(account), "order": super::order_data(order), "reason": reason});
        self.event(account, WebhookEventType::OrderRejected, data);
    }

    /// An order for `signal` that the broker rejected (`reason`).
    pub fn rejected(&mut self, account: &AccountRow, signal: &SignalRow, order: &StoredOrder, reason: &str, now: DateTime<Utc>) {
        self.note(
            account,
            format!("Order rejected: {}", contract_words(signal)),
            format!("The order for this signal in {} was rejected. {reason}", account.name),
        );
        let data = json!({"rejectedAt": now, "account": account_data(account), "order": super::order_data(order), "reason": reason});
        self.event(account, WebhookEventType::OrderRejected, data);
    }

    /// An order for `signal` that filled; with a notification when `noted` (an opening: a
    /// closing is told as the position's closing).
    pub fn filled(&mut self, account: &AccountRow, signal: &SignalRow, order: &StoredOrder, fill: &Fill, noted: bool, now: DateTime<Utc>) {
        let commission: f64 = fill.legs.iter().map(|l| l.commission).sum();
        if noted {
            self.note(
                account,
                format!("Order filled: {}", contract_words(signal)),
                format!(
                    "Bought {} × {} in {} at {} a share, {} in commissions.",
                    fill.units,
                    contract_words(signal),
                    account.name,
                    usd(to_cents(fill.net_price)),
                    usd(fill.legs.iter().map(|l| to_cents(l.commission)).sum())
                ),
            );
        }
        let data = json!({
            "filledAt": now,
            "account": account_data(account),
            "order": super::order_data(order),
            "fill": {"units": fill.units, "netPrice": fill.net_price, "cashOut": fill.cash_out(), "commission": commission},
        });
        self.event(account, WebhookEventType::OrderFilled, data);
    }

    /// Writes the notifications and queues the webhooks.
    pub async fn flush(self, state: &AppState, now: DateTime<Utc>) -> Result<()> {
        notifying::notify(state, self.notes, now).await?;
        let events: Vec<Event> = self
            .events
            .iter()
            .map(|(owner, account, event_type, data)| Event {
                event_type: *event_type,
                audience: Audience::Account { owner, account },
                data: data.clone(),
            })
            .collect();
        emit(state, &events, now).await?;
        Ok(())
    }
}
