//! The built-in test payment provider: the embedded default, working with no network. It
//! takes card details on Strikeline's own form, accepts only the payment industry's test card
//! numbers (so nobody types a real card into it), and charges nothing real.
//!
//! | card | result |
//! |---|---|
//! | 4242 4242 4242 4242 | succeeds, and renewals succeed |
//! | 4000 0000 0000 0341 | succeeds, and every later charge (renewal, change) is declined |
//! | 4000 0000 0000 0002 | declined: "Your card was declined." |
//! | 4000 0000 0000 9995 | declined: "Your card has insufficient funds." |
//!
//! Any expiry date in the future and any 3-digit CVC.
//!
//! It keeps its own books, as a real provider's dashboard would: every amount it took and gave
//! back, per account ([`taken`]). Billing reconciles against them in tests: the money taken
//! from an account is the sum of its paid invoices.

use chrono::{DateTime, Datelike, Utc};

use crate::foundation::error::FieldError;

/// A card the test provider took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCard {
    pub brand: &'static str,
    pub last4: String,
}

/// What charging a card came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Charge {
    Paid { reference: String },
    Declined { message: String },
}

/// Last four digits of the card whose later charges are declined.
pub const DECLINES_LATER: &str = "0341";

/// The card's details checked field by field: a 422 names `cardNumber`, `expMonth`/`expYear`
/// or `cvc`. A well-formed test card that declines is not an error here: see [`first_charge`].
pub fn read_card(number: &str, exp_month: u32, exp_year: u32, cvc: &str, now: DateTime<Utc>) -> Result<String, Vec<FieldError>> {
    let mut errors = Vec::new();
    let digits: String = number.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    if digits.len() != 16 || !digits.bytes().all(|b| b.is_ascii_digit()) || !luhn(&digits) {
        errors.push(FieldError::new("cardNumber", "Your card number is incomplete or invalid."));
    } else if !matches!(digits.as_str(), "4242424242424242" | "4000000000000341" | "4000000000000002" | "4000000000009995") {
        errors.push(FieldError::new(
            "cardNumber",
            "This is the built-in test payment provider: no real card is charged. Use the test card 4242 4242 4242 4242.",
        ));
    }
    let this_month = (now.year(), now.month());
    if !(1..=12).contains(&exp_month) {
        errors.push(FieldError::new("expMonth", "The expiry month is 1 to 12."));
    } else if !(2000..=2100).contains(&exp_year) || (i32::try_from(exp_year).unwrap_or(0), exp_month) < this_month {
        errors.push(FieldError::new("expYear", "Your card's expiration date is in the past."));
    }
    if !(cvc.len() == 3 || cvc.len() == 4) || !cvc.bytes().all(|b| b.is_ascii_digit()) {
        errors.push(FieldError::new("cvc", "Your card's security code is incomplete."));
    }
    if errors.is_empty() { Ok(digits) } else { Err(errors) }
}

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 { if d * 2 > 9 { d * 2 - 9 } else { d * 2 } } else { d }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// The first charge of `cents` to `account` on a card read by [`read_card`], and the card kept
/// on file when it succeeds.
pub fn first_charge(digits: &str, account: &str, cents: i64, reference: String) -> (Charge, Option<TestCard>) {
    match digits {
        "4000000000000002" => (Charge::Declined { message: "Your card was declined.".into() }, None),
        "4000000000009995" => (Charge::Declined { message: "Your card has insufficient funds.".into() }, None),
        _ => {
            book(account, &reference, cents);
            (Charge::Paid { reference }, Some(TestCard { brand: "visa", last4: digits[12..].to_owned() }))
        }
    }
}

/// A later charge of `cents` to `account` (a renewal, a change of plan) on the card on file.
pub fn later_charge(last4: Option<&str>, account: &str, cents: i64, reference: String) -> Charge {
    match last4 {
        Some(DECLINES_LATER) => Charge::Declined { message: "Your card was declined.".into() },
        Some(_) => {
            book(account, &reference, cents);
            Charge::Paid { reference }
        }
        None => Charge::Declined { message: "There is no card on file.".into() },
    }
}

/// Gives back in full a charge whose effect could not be written (the subscription changed in
/// the meantime), so nothing is taken for it.
pub fn refund(account: &str, charge: &Charge) {
    if let Charge::Paid { reference } = charge {
        let cents: i64 = entries(account).iter().filter(|e| e.reference == *reference).map(|e| e.cents).sum();
        if cents > 0 {
            book(account, reference, -cents);
        }
    }
}

/// One line of the test provider's books: `cents` taken (negative: given back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub account: String,
    pub reference: String,
    pub cents: i64,
}

/// The books are kept in memory and bounded: the oldest lines go first.
const BOOK_LINES: usize = 100_000;
static BOOKS: std::sync::Mutex<std::collections::VecDeque<Entry>> = std::sync::Mutex::new(std::collections::VecDeque::new());

fn book(account: &str, reference: &str, cents: i64) {
    if cents == 0 {
        return;
    }
    let mut books = BOOKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if books.len() >= BOOK_LINES {
        books.pop_front();
    }
    books.push_back(Entry { account: account.to_owned(), reference: reference.to_owned(), cents });
}

fn entries(account: &str) -> Vec<Entry> {
    BOOKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter().filter(|e| e.account == account).cloned().collect()
}

/// What the test provider has taken from `account`, net of what it gave back, in cents.
pub fn taken(account: &str) -> i64 {
    entries(account).iter().map(|e| e.cents).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).single().expect("time")
    }

    fn fields(result: Result<String, Vec<FieldError>>) -> Vec<String> {
        result.err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn only_test_cards_with_a_future_expiry_and_a_cvc_are_read() {
        assert_eq!(read_card("4242 4242 4242 4242", 12, 2030, "123", now()), Ok("4242424242424242".into()));
        assert_eq!(read_card("4242-4242-4242-4242", 11, 2026, "1234", now()), Ok("4242424242424242".into()), "this month still counts");
        assert_eq!(fields(read_card("4242 4242 4242 4241", 12, 2030, "123", now())), ["cardNumber"], "Luhn");
        assert_eq!(fields(read_card("5555 5555 5555 4444", 12, 2030, "123", now())), ["cardNumber"], "a real-looking card is refused");
        assert_eq!(fields(read_card("4242", 13, 2030, "12", now())), ["cardNumber", "expMonth", "cvc"]);
        assert_eq!(fields(read_card("4242424242424242", 10, 2026, "123", now())), ["expYear"]);
    }

    #[test]
    fn test_cards_succeed_decline_or_decline_later() {
        let a = "account-test-cards";
        assert!(
            matches!(first_charge("4242424242424242", a, 100, "r1".into()), (Charge::Paid { .. }, Some(TestCard { last4, .. })) if last4 == "4242")
        );
        assert!(matches!(first_charge("4000000000000341", a, 10, "r2".into()), (Charge::Paid { .. }, Some(_))));
        assert_eq!(
            first_charge("4000000000000002", a, 1000, "r".into()),
            (Charge::Declined { message: "Your card was declined.".into() }, None)
        );
        assert!(
            matches!(first_charge("4000000000009995", a, 1000, "r".into()).0, Charge::Declined { message } if message.contains("insufficient"))
        );
        assert!(matches!(later_charge(Some("4242"), a, 1, "r3".into()), Charge::Paid { .. }));
        assert!(matches!(later_charge(Some(DECLINES_LATER), a, 1000, "r".into()), Charge::Declined { .. }));
        assert!(matches!(later_charge(None, a, 1000, "r".into()), Charge::Declined { .. }));
        assert_eq!(taken(a), 111, "only what was paid is on the books");
        refund(a, &Charge::Paid { reference: "r2".into() });
        refund(a, &Charge::Paid { reference: "r2".into() });
        assert_eq!(taken(a), 101, "a refund gives a charge back once");
    }
}
