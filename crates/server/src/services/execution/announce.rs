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

/// The most order notes one user gets from one flush before they are summed up in one.
pub const MAX_NOTES_EACH: usize = 3;

/// `notes`, with each user's beyond [`MAX_NOTES_EACH`] summed up in one: "12 orders: 9 filled,
/// 3 refused", naming the first few.
fn summed_up(notes: Vec<Note>) -> Vec<Note> {
    let mut by_user: Vec<(String, Vec<Note>)> = Vec::new();
    for note in notes {
        match by_user.iter_mut().find(|(user, _)| *user == note.user_id) {
            Some((_, list)) => list.push(note),
            None => by_user.push((note.user_id.clone(), vec![note])),
        }
    }
    let mut out = Vec::new();
    for (user_id, list) in by_user {
        if list.len() <= MAX_NOTES_EACH {
            out.extend(list);
            continue;
        }
        let count = |prefix: &str| list.iter().filter(|n| n.title.starts_with(prefix)).count();
        let (filled, refused, rejected) = (count("Order filled"), count("Order refused"), count("Order rejected"));
        let mut parts = vec![format!("{filled} filled")];
        if refused > 0 {
            parts.push(format!("{refused} refused by a limit"));
        }
        if rejected > 0 {
            parts.push(format!("{rejected} rejected"));
        }
        let named: Vec<&str> = list.iter().take(MAX_NOTES_EACH).map(|n| n.title.as_str()).collect();
        out.push(Note {
            user_id,
            kind: NotificationKind::Order,
            title: format!("{} orders: {}", list.len(), parts.join(", ")),
            body: format!(
                "{}; and {} more. The Orders list on the Portfolio page has each one.",
                named.join("; "),
                list.len() - named.len()
            ),
            link: Some("/portfolio"),
        });
    }
    out
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

    /// Writes the notifications and queues the webhooks. A user with more than
    /// [`MAX_NOTES_EACH`] orders to hear about gets one note summing them up, so a busy tick is
    /// one notification (and one email) each, not one per order; webhooks stay one per order.
    pub async fn flush(self, state: &AppState, now: DateTime<Utc>) -> Result<()> {
        notifying::notify(state, summed_up(self.notes), now).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn note(user: &str, title: &str) -> Note {
        Note { user_id: user.into(), kind: NotificationKind::Order, title: title.into(), body: String::new(), link: Some("/portfolio") }
    }

    #[test]
    fn a_busy_tick_is_one_note_each_and_a_quiet_one_is_each_order() {
        let mut notes: Vec<Note> = (0..5).map(|i| note("ada", &format!("Order filled: S{i} CALL"))).collect();
        notes.push(note("ada", "Order refused: R CALL"));
        notes.push(note("bob", "Order filled: B CALL"));
        let out = summed_up(notes);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].title, "6 orders: 5 filled, 1 refused by a limit");
        assert!(out[0].body.starts_with("Order filled: S0 CALL; Order filled: S1 CALL; Order filled: S2 CALL; and 3 more."));
        assert_eq!(out[1].title, "Order filled: B CALL", "a user with few orders hears of each");
    }
}
