//! Money: amounts are stored and computed as whole cents (`i64`) and become dollars (`f64`)
//! only at the edges, so what a user enters (12.34) reads back exactly. The one place for the
//! conversions.

/// Whole cents as dollars; exact for every amount with two decimals.
pub fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// Dollars as whole cents, rounded half away from zero; saturates at the `i64` range.
pub fn to_cents(dollars: f64) -> i64 {
    (dollars * 100.0).round() as i64
}

/// Rounded to cents, for display.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Rounded to one decimal, for figures shown to a tenth (IV rank and percentile).
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The change from `previous` to `current` cents: in dollars, and in percent (two decimals;
/// 0 when there is no previous amount).
pub fn percent_change(current: i64, previous: i64) -> (f64, f64) {
    let change = dollars(current - previous);
    let percent = if previous > 0 { round2((current - previous) as f64 * 100.0 / previous as f64) } else { 0.0 };
    (change, percent)
}

/// Cents as US dollars for sentences and documents: `$1430.00`, `-$2.50`.
pub fn usd(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}${}.{:02}", cents.unsigned_abs() / 100, cents.unsigned_abs() % 100)
}

/// How `user` reads amounts: their display currency at the market-data provider's rate (the
/// rates `GET /api/exchange-rates` gives the web, from the same cache). Dollars when the user
/// reads dollars, or when the provider has no rates now (the web falls back to dollars too).
pub async fn display_money(
    state: &crate::foundation::state::AppState,
    user: &strikeline_store::users::UserRecord,
) -> strikeline_engine::DisplayMoney {
    use strikeline_market::Currency;
    let currency = user.currency.parse::<Currency>().unwrap_or(Currency::Usd);
    let symbol = match currency {
        Currency::Usd => return strikeline_engine::DisplayMoney::USD,
        Currency::Eur => "€",
        Currency::Gbp => "£",
    };
    match crate::foundation::cache::exchange_rates(state).await {
        Ok(rates) => strikeline_engine::DisplayMoney::new(symbol, rates.rate(currency)),
        Err(error) => {
            tracing::warn!(%error, "no exchange rates: sentences state dollars");
            strikeline_engine::DisplayMoney::USD
        }
    }
}

/// The largest price a request may state (a strike, a premium, an underlying's price, an alert's
/// target), dollars. The API document states it as each such field's `maximum`, with `minimum`
/// 0.01 and `multipleOf` 0.01: [`entered_cents`]'s rules.
pub const MAX_PRICE: f64 = 1_000_000.0;

/// Whole cents of an amount a user entered: positive, at most `max` dollars, at most two
/// decimals; otherwise a problem naming `field` is added to `errors` (and the cents returned
/// are not to be used).
pub fn entered_cents(field: &str, value: f64, max: f64, errors: &mut Vec<crate::foundation::error::FieldError>) -> i64 {
    use crate::foundation::error::FieldError;
    let scaled = value * 100.0;
    let problem = if !value.is_finite() || value <= 0.0 {
        Some("Must be greater than 0".to_owned())
    } else if value > max {
        Some(format!("Must be at most {}", thousands(max)))
    } else if (scaled - scaled.round()).abs() > 1e-6 {
        Some("At most two decimals".to_owned())
    } else if scaled.round() < 1.0 {
        // So small it rounds to no cents at all (1e-9): not a price anyone can pay.
        Some("Must be at least 0.01".to_owned())
    } else {
        None
    };
    match problem {
        Some(message) => {
            errors.push(FieldError::new(field, message));
            // Refused: a placeholder that no arithmetic on it can overflow (the caller answers
            // the errors before it uses any amount).
            0
        }
        None => scaled.round() as i64,
    }
}

/// A whole dollar amount with thousands separators (1000000 → "1,000,000").
fn thousands(amount: f64) -> String {
    let digits = format!("{}", amount.trunc() as i64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The largest capital (and so position size) an account can state, in dollars.
pub const MAX_CAPITAL: f64 = 1_000_000_000.0;

/// The capital and maximum position size to store (cents), each entered or kept, checked
/// against each other: the one rule for every account form (trading accounts and `PATCH /api/user/preferences`).
pub fn checked_sizes(
    capital: Option<f64>,
    max_position: Option<f64>,
    stored: (i64, i64),
    errors: &mut Vec<crate::foundation::error::FieldError>,
) -> (i64, i64) {
    let before = errors.len();
    let capital_cents = capital.map_or(stored.0, |v| entered_cents("investmentCapital", v, MAX_CAPITAL, errors));
    let max_cents = max_position.map_or(stored.1, |v| entered_cents("maxPositionSize", v, MAX_CAPITAL, errors));
    if errors.len() == before && max_cents > capital_cents {
        let field = if max_position.is_some() { "maxPositionSize" } else { "investmentCapital" };
        errors
            .push(crate::foundation::error::FieldError::new(field, "The maximum position size cannot be more than the investment capital"));
    }
    (capital_cents, max_cents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_amount_that_rounds_to_no_cents_is_refused() {
        let mut errors = Vec::new();
        entered_cents("targetPrice", 1e-9, 1_000_000.0, &mut errors);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "Must be at least 0.01");
        let mut ok = Vec::new();
        assert_eq!(entered_cents("targetPrice", 0.01, 1_000_000.0, &mut ok), 1);
        assert!(ok.is_empty());
    }

    #[test]
    fn entered_amounts_become_exact_cents_or_name_their_field() {
        let mut errors = Vec::new();
        assert_eq!(entered_cents("capital", 12.34, 1_000_000.0, &mut errors), 1234);
        assert_eq!(entered_cents("capital", 0.1 + 0.2, 1_000_000.0, &mut errors), 30);
        assert!(errors.is_empty());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1.234, 1_000_000.01] {
            entered_cents("capital", bad, 1_000_000.0, &mut errors);
        }
        assert_eq!(errors.len(), 6);
        assert!(errors.iter().all(|e| e.field == "capital"));
        assert_eq!(errors[5].message, "Must be at most 1,000,000");
        // A refused amount is never a number arithmetic on it could overflow with.
        assert_eq!(entered_cents("entryPrice", 6.4e289, 1_000_000.0, &mut errors), 0);
    }

    #[test]
    fn cents_read_back_exactly() {
        assert_eq!(dollars(1234).to_string(), "12.34");
        assert_eq!(dollars(100000).to_string(), "1000");
        for cents in [1, 10, 1234, 99_999, 123_456_789] {
            assert_eq!(to_cents(dollars(cents)), cents);
        }
        assert_eq!(to_cents(0.1 + 0.2), 30);
        assert_eq!(to_cents(f64::MAX), i64::MAX, "saturates instead of wrapping");
    }

    #[test]
    fn changes_are_in_dollars_and_percent() {
        assert_eq!(percent_change(10_500, 10_000), (5.0, 5.0));
        assert_eq!(percent_change(9_000, 0), (90.0, 0.0));
    }
}
