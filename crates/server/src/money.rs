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

/// The change from `previous` to `current` cents: in dollars, and in percent (two decimals;
/// 0 when there is no previous amount).
pub fn percent_change(current: i64, previous: i64) -> (f64, f64) {
    let change = dollars(current - previous);
    let percent = if previous > 0 { round2((current - previous) as f64 * 100.0 / previous as f64) } else { 0.0 };
    (change, percent)
}

#[cfg(test)]
mod tests {
    use super::*;

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
