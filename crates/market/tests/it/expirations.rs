//! Option expirations: third Fridays and Fridays, moved to the preceding trading day when the
//! Friday is an exchange holiday.

use chrono::{Datelike, Duration, Month, NaiveDate, Weekday};
use proptest::prelude::*;
use strikeline_market::calendar::{Calendar, ExpirationKind};

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

#[test]
fn the_april_2025_monthly_expiration_moves_to_thursday_because_of_good_friday() {
    assert_eq!(Calendar::nyse().monthly_expiration(2025, Month::April), ymd(2025, 4, 17));
}

#[test]
fn monthly_expirations_on_juneteenth_move_to_thursday() {
    let nyse = Calendar::nyse();
    // 2026: June 19 is the third Friday. 2027: observed Friday June 18 is the third Friday.
    assert_eq!(nyse.monthly_expiration(2026, Month::June), ymd(2026, 6, 18));
    assert_eq!(nyse.monthly_expiration(2027, Month::June), ymd(2027, 6, 17));
}

#[test]
fn monthly_expirations_2026_are_the_third_fridays_except_june() {
    let nyse = Calendar::nyse();
    let expected = [
        (Month::January, 16),
        (Month::February, 20),
        (Month::March, 20),
        (Month::April, 17),
        (Month::May, 15),
        (Month::June, 18),
        (Month::July, 17),
        (Month::August, 21),
        (Month::September, 18),
        (Month::October, 16),
        (Month::November, 20),
        (Month::December, 18),
    ];
    for (month, day) in expected {
        assert_eq!(nyse.monthly_expiration(2026, month), ymd(2026, month.number_from_month(), day), "{month:?}");
    }
}

#[test]
fn weekly_expirations_are_fridays_or_the_thursday_before_a_holiday_friday() {
    let nyse = Calendar::nyse();
    assert_eq!(
        nyse.weekly_expirations_between(ymd(2025, 4, 1), ymd(2025, 4, 30)),
        [ymd(2025, 4, 4), ymd(2025, 4, 11), ymd(2025, 4, 17), ymd(2025, 4, 25)]
    );
    // Both ends inclusive; a Thursday expiration counts when only Thursday is in range.
    assert_eq!(nyse.weekly_expirations_between(ymd(2025, 4, 17), ymd(2025, 4, 17)), [ymd(2025, 4, 17)]);
    assert_eq!(nyse.weekly_expirations_between(ymd(2025, 4, 18), ymd(2025, 4, 24)), []);
    assert_eq!(nyse.weekly_expirations_between(ymd(2025, 4, 30), ymd(2025, 4, 1)), []);
    // 2026: Good Friday April 3, Independence Day observed Friday July 3, Christmas Friday.
    assert_eq!(nyse.weekly_expirations_between(ymd(2026, 4, 1), ymd(2026, 4, 3)), [ymd(2026, 4, 2)]);
    assert_eq!(nyse.weekly_expirations_between(ymd(2026, 6, 29), ymd(2026, 7, 5)), [ymd(2026, 7, 2)]);
    assert_eq!(nyse.weekly_expirations_between(ymd(2026, 12, 21), ymd(2026, 12, 27)), [ymd(2026, 12, 24)]);
}

#[test]
fn next_expiration_at_least_counts_calendar_days_from_the_given_date() {
    let nyse = Calendar::nyse();
    let monday = ymd(2026, 1, 5);
    use ExpirationKind::{Monthly, Weekly};
    // Zero days: the same day counts when it is an expiration.
    assert_eq!(nyse.next_expiration_at_least(ymd(2026, 1, 16), 0, Monthly), ymd(2026, 1, 16));
    assert_eq!(nyse.next_expiration_at_least(monday, 0, Weekly), ymd(2026, 1, 9));
    assert_eq!(nyse.next_expiration_at_least(monday, 4, Weekly), ymd(2026, 1, 9));
    assert_eq!(nyse.next_expiration_at_least(monday, 5, Weekly), ymd(2026, 1, 16));
    assert_eq!(nyse.next_expiration_at_least(monday, 11, Monthly), ymd(2026, 1, 16));
    assert_eq!(nyse.next_expiration_at_least(monday, 12, Monthly), ymd(2026, 2, 20));
    // 30 to 45 days out, as the signal engine asks.
    assert_eq!(nyse.next_expiration_at_least(ymd(2026, 5, 15), 30, Monthly), ymd(2026, 6, 18));
    assert_eq!(nyse.next_expiration_at_least(ymd(2026, 11, 20), 30, Monthly), ymd(2027, 1, 15));
    // The moved expiration is what must be far enough away: April 17, 2025 is 1 day after
    // April 16, so asking for 2 days skips past it to the next Friday.
    assert_eq!(nyse.next_expiration_at_least(ymd(2025, 4, 16), 1, Weekly), ymd(2025, 4, 17));
    assert_eq!(nyse.next_expiration_at_least(ymd(2025, 4, 16), 2, Weekly), ymd(2025, 4, 25));
    assert_eq!(nyse.next_expiration_at_least(ymd(2025, 4, 16), 2, Monthly), ymd(2025, 5, 16));
}

fn any_date() -> impl Strategy<Value = NaiveDate> {
    (0i64..37_620).prop_map(|n| ymd(1998, 1, 1) + Duration::days(n))
}

proptest! {
    #[test]
    fn every_expiration_is_a_trading_day_in_its_fridays_week(from in any_date(), min_days in 0i64..120) {
        let nyse = Calendar::nyse();
        for kind in [ExpirationKind::Weekly, ExpirationKind::Monthly] {
            let expiration = nyse.next_expiration_at_least(from, min_days, kind);
            prop_assert!(nyse.is_trading_day(expiration));
            prop_assert!((expiration - from).num_days() >= min_days);
            // Friday, or a weekday before a closed Friday of the same week.
            let friday = expiration + Duration::days(i64::from(4 - expiration.weekday().num_days_from_monday()));
            prop_assert_eq!(friday.weekday(), Weekday::Fri);
            prop_assert!(expiration == friday || !nyse.is_trading_day(friday));
            if kind == ExpirationKind::Monthly {
                prop_assert!((15..=21).contains(&friday.day()), "third Friday: {}", friday);
            }
        }
    }

    #[test]
    fn next_expiration_at_least_is_the_first_weekly_expiration_in_range(from in any_date(), min_days in 0i64..60) {
        let nyse = Calendar::nyse();
        let earliest = from + Duration::days(min_days);
        let found = nyse.next_expiration_at_least(from, min_days, ExpirationKind::Weekly);
        let listed = nyse.weekly_expirations_between(earliest, earliest + Duration::days(14));
        prop_assert_eq!(listed.first(), Some(&found));
    }

    #[test]
    fn every_monthly_expiration_is_also_a_weekly_one(year in 1998i32..2100, month in 1u32..=12) {
        let nyse = Calendar::nyse();
        let month = Month::try_from(u8::try_from(month).unwrap()).unwrap();
        let monthly = nyse.monthly_expiration(year, month);
        prop_assert_eq!(nyse.weekly_expirations_between(monthly, monthly), vec![monthly]);
    }
}
