//! The exchange calendar against NYSE's published holiday and early-close lists.
//!
//! Sources: "NYSE Group Announces 2022, 2023 and 2024 Holiday and Early Closings Calendar"
//! (27 December 2021), "… 2025, 2026 and 2027 …" (8 November 2024), "… 2026, 2027 and 2028 …"
//! (23 December 2025), the 2021–2023 one (28 December 2020), NYSE's 2014–2016 calendar, and
//! NYSE's announcement of the 9 January 2025 closure for President Carter's National Day of
//! Mourning.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use proptest::prelude::*;
use strikeline_market::calendar::{Calendar, CalendarError, HolidayKind};

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).single().expect("a valid instant")
}

fn holidays(calendar: &Calendar, year: i32) -> Vec<(NaiveDate, String)> {
    calendar.holidays(year).into_iter().map(|h| (h.date, h.name.into_owned())).collect()
}

fn early_closes(calendar: &Calendar, year: i32) -> Vec<NaiveDate> {
    calendar.early_closes(year).into_iter().map(|e| e.date).collect()
}

fn named(list: &[((u32, u32), &str)], year: i32) -> Vec<(NaiveDate, String)> {
    list.iter().map(|&((m, d), name)| (ymd(year, m, d), name.to_owned())).collect()
}

/// A year, its holiday dates and its early-close dates, as (month, day).
type PublishedYear = (i32, &'static [(u32, u32)], &'static [(u32, u32)]);

const NEW_YEAR: &str = "New Year's Day";
const MLK: &str = "Martin Luther King, Jr. Day";
const WASHINGTON: &str = "Washington's Birthday";
const GOOD_FRIDAY: &str = "Good Friday";
const MEMORIAL: &str = "Memorial Day";
const JUNETEENTH: &str = "Juneteenth National Independence Day";
const INDEPENDENCE: &str = "Independence Day";
const LABOR: &str = "Labor Day";
const THANKSGIVING: &str = "Thanksgiving Day";
const CHRISTMAS: &str = "Christmas Day";
const CARTER: &str = "National Day of Mourning for President Jimmy Carter";

#[test]
fn holidays_2025_match_the_published_nyse_list_with_the_carter_closure() {
    let expected = named(
        &[
            ((1, 1), NEW_YEAR),
            ((1, 9), CARTER),
            ((1, 20), MLK),
            ((2, 17), WASHINGTON),
            ((4, 18), GOOD_FRIDAY),
            ((5, 26), MEMORIAL),
            ((6, 19), JUNETEENTH),
            ((7, 4), INDEPENDENCE),
            ((9, 1), LABOR),
            ((11, 27), THANKSGIVING),
            ((12, 25), CHRISTMAS),
        ],
        2025,
    );
    assert_eq!(holidays(&Calendar::nyse(), 2025), expected);
    assert_eq!(early_closes(&Calendar::nyse(), 2025), [ymd(2025, 7, 3), ymd(2025, 11, 28), ymd(2025, 12, 24)]);
}

#[test]
fn the_carter_closure_is_not_a_rule_holiday_but_can_be_added_as_an_extra_closure() {
    let day = ymd(2025, 1, 9);
    let rules_only = Calendar::rules_only();
    assert!(rules_only.is_trading_day(day));
    assert_eq!(holidays(&rules_only, 2025).len(), 10);

    let configured = rules_only.with_extra_closures([(day, CARTER.to_owned())]).unwrap();
    assert!(!configured.is_trading_day(day));
    assert_eq!(configured.session(day), None);
    let holiday = configured.holiday(day).unwrap();
    assert_eq!((holiday.name.as_ref(), holiday.kind), (CARTER, HolidayKind::Special));
    // Calendar::nyse() carries the same entry built in.
    assert!(Calendar::nyse().extra_closures().contains(&holiday));
    // The trading day count for time to expiry skips it too.
    assert_eq!(configured.trading_days_between(ymd(2025, 1, 8), ymd(2025, 1, 10)), 1);
    assert_eq!(Calendar::rules_only().trading_days_between(ymd(2025, 1, 8), ymd(2025, 1, 10)), 2);
}

#[test]
fn holidays_2026_match_the_published_nyse_list() {
    let expected = named(
        &[
            ((1, 1), NEW_YEAR),
            ((1, 19), MLK),
            ((2, 16), WASHINGTON),
            ((4, 3), GOOD_FRIDAY),
            ((5, 25), MEMORIAL),
            ((6, 19), JUNETEENTH),
            ((7, 3), INDEPENDENCE),
            ((9, 7), LABOR),
            ((11, 26), THANKSGIVING),
            ((12, 25), CHRISTMAS),
        ],
        2026,
    );
    assert_eq!(holidays(&Calendar::nyse(), 2026), expected);
    assert_eq!(Calendar::nyse().holiday(ymd(2026, 7, 3)).unwrap().kind, HolidayKind::Observed);
    assert_eq!(early_closes(&Calendar::nyse(), 2026), [ymd(2026, 11, 27), ymd(2026, 12, 24)]);
}

#[test]
fn july_2_2026_is_a_full_day_because_the_early_close_does_not_move_off_an_observed_july_3() {
    let session = Calendar::nyse().session(ymd(2026, 7, 2)).unwrap();
    assert!(!session.early_close);
    assert_eq!(session.close, utc(2026, 7, 2, 20, 0));
}

#[test]
fn holidays_2027_include_a_friday_christmas_eve_holiday_and_no_christmas_eve_early_close() {
    let expected = named(
        &[
            ((1, 1), NEW_YEAR),
            ((1, 18), MLK),
            ((2, 15), WASHINGTON),
            ((3, 26), GOOD_FRIDAY),
            ((5, 31), MEMORIAL),
            ((6, 18), JUNETEENTH),
            ((7, 5), INDEPENDENCE),
            ((9, 6), LABOR),
            ((11, 25), THANKSGIVING),
            ((12, 24), CHRISTMAS),
        ],
        2027,
    );
    assert_eq!(holidays(&Calendar::nyse(), 2027), expected);
    assert_eq!(early_closes(&Calendar::nyse(), 2027), [ymd(2027, 11, 26)]);
    // Nor does the early close move to Thursday December 23.
    assert!(!Calendar::nyse().session(ymd(2027, 12, 23)).unwrap().early_close);
}

#[test]
fn new_year_2028_on_a_saturday_is_not_observed_on_friday_december_31_2027() {
    let nyse = Calendar::nyse();
    assert!(nyse.is_trading_day(ymd(2027, 12, 31)));
    let expected = named(
        &[
            ((1, 17), MLK),
            ((2, 21), WASHINGTON),
            ((4, 14), GOOD_FRIDAY),
            ((5, 29), MEMORIAL),
            ((6, 19), JUNETEENTH),
            ((7, 4), INDEPENDENCE),
            ((9, 4), LABOR),
            ((11, 23), THANKSGIVING),
            ((12, 25), CHRISTMAS),
        ],
        2028,
    );
    assert_eq!(holidays(&nyse, 2028), expected);
    assert_eq!(early_closes(&nyse, 2028), [ymd(2028, 7, 3), ymd(2028, 11, 24)]);
}

#[test]
fn holiday_dates_2021_to_2024_match_the_published_nyse_lists() {
    let published: [PublishedYear; 4] = [
        // 2021: Juneteenth not yet a holiday; July 4 Sunday → Monday 5; Christmas Saturday →
        // Friday 24.
        (2021, &[(1, 1), (1, 18), (2, 15), (4, 2), (5, 31), (7, 5), (9, 6), (11, 25), (12, 24)], &[(11, 26)]),
        // 2022: New Year on a Saturday, not observed; Juneteenth Sunday → Monday 20.
        (2022, &[(1, 17), (2, 21), (4, 15), (5, 30), (6, 20), (7, 4), (9, 5), (11, 24), (12, 26)], &[(11, 25)]),
        (2023, &[(1, 2), (1, 16), (2, 20), (4, 7), (5, 29), (6, 19), (7, 4), (9, 4), (11, 23), (12, 25)], &[(7, 3), (11, 24)]),
        (2024, &[(1, 1), (1, 15), (2, 19), (3, 29), (5, 27), (6, 19), (7, 4), (9, 2), (11, 28), (12, 25)], &[(7, 3), (11, 29), (12, 24)]),
    ];
    let nyse = Calendar::nyse();
    for (year, closed, early) in published {
        let dates: Vec<_> = nyse.holidays(year).into_iter().map(|h| h.date).collect();
        let expected: Vec<_> = closed.iter().map(|&(m, d)| ymd(year, m, d)).collect();
        assert_eq!(dates, expected, "{year} holidays");
        let expected: Vec<_> = early.iter().map(|&(m, d)| ymd(year, m, d)).collect();
        assert_eq!(early_closes(&nyse, year), expected, "{year} early closes");
    }
}

#[test]
fn holiday_dates_2014_to_2016_match_the_published_nyse_lists() {
    let published: [PublishedYear; 3] = [
        (2014, &[(1, 1), (1, 20), (2, 17), (4, 18), (5, 26), (7, 4), (9, 1), (11, 27), (12, 25)], &[(7, 3), (11, 28), (12, 24)]),
        // July 4 on a Saturday: Friday July 3 closed and no early close on Thursday July 2.
        (2015, &[(1, 1), (1, 19), (2, 16), (4, 3), (5, 25), (7, 3), (9, 7), (11, 26), (12, 25)], &[(11, 27), (12, 24)]),
        (2016, &[(1, 1), (1, 18), (2, 15), (3, 25), (5, 30), (7, 4), (9, 5), (11, 24), (12, 26)], &[(11, 25)]),
    ];
    let nyse = Calendar::nyse();
    for (year, closed, early) in published {
        let dates: Vec<_> = nyse.holidays(year).into_iter().map(|h| h.date).collect();
        let expected: Vec<_> = closed.iter().map(|&(m, d)| ymd(year, m, d)).collect();
        assert_eq!(dates, expected, "{year} holidays");
        let expected: Vec<_> = early.iter().map(|&(m, d)| ymd(year, m, d)).collect();
        assert_eq!(early_closes(&nyse, year), expected, "{year} early closes");
    }
}

#[test]
fn juneteenth_is_a_holiday_from_2022_and_mlk_day_from_1998() {
    let nyse = Calendar::nyse();
    assert!(nyse.is_trading_day(ymd(2021, 6, 18)));
    assert!(!nyse.is_trading_day(ymd(2022, 6, 20)));
    assert!(nyse.is_trading_day(ymd(1997, 1, 20)));
    assert!(!nyse.is_trading_day(ymd(1998, 1, 19)));
}

#[test]
fn a_closure_on_a_weekend_or_an_existing_holiday_is_refused() {
    let saturday = ymd(2025, 1, 11);
    assert_eq!(Calendar::rules_only().with_extra_closures([(saturday, "typo")]), Err(CalendarError::ClosureOnWeekend(saturday)));
    let christmas = ymd(2025, 12, 25);
    assert_eq!(Calendar::rules_only().with_extra_closures([(christmas, "again")]), Err(CalendarError::DuplicateClosure(christmas)));
    let day = ymd(2025, 1, 9);
    assert_eq!(Calendar::rules_only().with_extra_closures([(day, "once"), (day, "twice")]), Err(CalendarError::DuplicateClosure(day)));
    assert_eq!(Calendar::nyse().with_extra_closures([(day, CARTER)]), Err(CalendarError::DuplicateClosure(day)));
}

#[test]
fn an_extra_closure_on_an_early_close_day_removes_the_early_close() {
    let calendar = Calendar::rules_only().with_extra_closures([(ymd(2025, 12, 24), "Christmas Eve closure")]).unwrap();
    assert_eq!(early_closes(&calendar, 2025), [ymd(2025, 7, 3), ymd(2025, 11, 28)]);
}

#[test]
fn sessions_open_at_0930_and_close_at_1600_new_york_time_in_utc() {
    let nyse = Calendar::nyse();
    let winter = nyse.session(ymd(2026, 1, 15)).unwrap();
    assert_eq!((winter.open, winter.close, winter.early_close), (utc(2026, 1, 15, 14, 30), utc(2026, 1, 15, 21, 0), false));
    let summer = nyse.session(ymd(2026, 7, 15)).unwrap();
    assert_eq!((summer.open, summer.close), (utc(2026, 7, 15, 13, 30), utc(2026, 7, 15, 20, 0)));
    let early = nyse.session(ymd(2025, 11, 28)).unwrap();
    assert_eq!((early.open, early.close, early.early_close), (utc(2025, 11, 28, 14, 30), utc(2025, 11, 28, 18, 0), true));
    let july_3 = nyse.session(ymd(2025, 7, 3)).unwrap();
    assert_eq!((july_3.close, july_3.early_close), (utc(2025, 7, 3, 17, 0), true));
    assert_eq!(nyse.session(ymd(2026, 1, 17)), None, "Saturday");
    assert_eq!(nyse.session(ymd(2026, 1, 19)), None, "MLK Day");
}

#[test]
fn sessions_around_the_daylight_switches_move_by_an_hour_in_utc() {
    let nyse = Calendar::nyse();
    // March 8, 2026: clocks go forward. Friday before at 14:30Z (EST), Monday after 13:30Z (EDT).
    assert_eq!(nyse.session(ymd(2026, 3, 6)).unwrap().open, utc(2026, 3, 6, 14, 30));
    assert_eq!(nyse.session(ymd(2026, 3, 9)).unwrap().open, utc(2026, 3, 9, 13, 30));
    // November 1, 2026: clocks go back. Friday before at 13:30Z (EDT), Monday after 14:30Z (EST).
    assert_eq!(nyse.session(ymd(2026, 10, 30)).unwrap().open, utc(2026, 10, 30, 13, 30));
    assert_eq!(nyse.session(ymd(2026, 11, 2)).unwrap().open, utc(2026, 11, 2, 14, 30));
    assert_eq!(nyse.session(ymd(2026, 11, 2)).unwrap().close, utc(2026, 11, 2, 21, 0));
    // 2025: March 9 and November 2.
    assert_eq!(nyse.session(ymd(2025, 3, 10)).unwrap().open, utc(2025, 3, 10, 13, 30));
    assert_eq!(nyse.session(ymd(2025, 11, 3)).unwrap().open, utc(2025, 11, 3, 14, 30));
}

#[test]
fn is_open_includes_the_open_and_excludes_the_close() {
    let nyse = Calendar::nyse();
    assert!(!nyse.is_open(utc(2026, 1, 15, 14, 29)));
    assert!(nyse.is_open(utc(2026, 1, 15, 14, 30)));
    assert!(nyse.is_open(utc(2026, 1, 15, 20, 59)));
    assert!(!nyse.is_open(utc(2026, 1, 15, 21, 0)));
    assert!(!nyse.is_open(utc(2025, 11, 28, 18, 0)), "early close");
    assert!(!nyse.is_open(utc(2025, 12, 25, 15, 0)), "Christmas");
    assert!(!nyse.is_open(utc(2026, 1, 17, 15, 0)), "Saturday");
}

#[test]
fn next_open_and_next_close_skip_weekends_and_holidays() {
    let nyse = Calendar::nyse();
    // Wednesday Christmas Eve 2025 after its 13:00 close → Friday December 26.
    let after_early_close = utc(2025, 12, 24, 19, 0);
    assert_eq!(nyse.next_open(after_early_close), utc(2025, 12, 26, 14, 30));
    assert_eq!(nyse.next_close(after_early_close), utc(2025, 12, 26, 21, 0));
    // During the session: next close is today's, next open tomorrow's.
    let midday = utc(2025, 12, 24, 15, 0);
    assert_eq!(nyse.next_close(midday), utc(2025, 12, 24, 18, 0));
    assert_eq!(nyse.next_open(midday), utc(2025, 12, 26, 14, 30));
    // Exactly at the open, the next open is the following session's (strictly after).
    assert_eq!(nyse.next_open(utc(2026, 4, 2, 13, 30)), utc(2026, 4, 6, 13, 30));
    // Friday evening before MLK Day → Tuesday.
    assert_eq!(nyse.next_open(utc(2026, 1, 16, 23, 0)), utc(2026, 1, 20, 14, 30));
    // Late evening New York time is already the next UTC date.
    assert_eq!(nyse.next_open(utc(2026, 1, 21, 2, 0)), utc(2026, 1, 21, 14, 30));
}

#[test]
fn previous_and_next_trading_day_are_strict_and_skip_closures() {
    let nyse = Calendar::nyse();
    assert_eq!(nyse.next_trading_day(ymd(2025, 4, 17)), ymd(2025, 4, 21));
    assert_eq!(nyse.previous_trading_day(ymd(2025, 4, 21)), ymd(2025, 4, 17));
    assert_eq!(nyse.next_trading_day(ymd(2025, 1, 8)), ymd(2025, 1, 10));
    assert_eq!(nyse.previous_trading_day(ymd(2026, 1, 2)), ymd(2025, 12, 31));
    assert_eq!(nyse.next_trading_day(ymd(2001, 9, 10)), ymd(2001, 9, 17));
}

#[test]
fn trading_days_in_2025_and_2026_are_the_published_totals() {
    let nyse = Calendar::nyse();
    // 261 weekdays − 10 holidays − the Carter closure; 261 − 10 in 2026.
    assert_eq!(nyse.trading_days_between(ymd(2024, 12, 31), ymd(2025, 12, 31)), 250);
    assert_eq!(nyse.trading_days_between(ymd(2025, 12, 31), ymd(2026, 12, 31)), 251);
    assert_eq!(nyse.trading_days_between(ymd(2026, 12, 31), ymd(2025, 12, 31)), -251);
    assert_eq!(nyse.trading_days_between(ymd(2026, 3, 2), ymd(2026, 3, 2)), 0);
}

fn brute_force_trading_days(calendar: &Calendar, from: NaiveDate, to: NaiveDate) -> i64 {
    from.iter_days().skip(1).take_while(|d| *d <= to).filter(|d| calendar.is_trading_day(*d)).count() as i64
}

fn any_date() -> impl Strategy<Value = NaiveDate> {
    // 1998-01-01 ..= 2100-12-31
    (0i64..37_620).prop_map(|n| ymd(1998, 1, 1) + Duration::days(n))
}

fn any_instant() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..3_250_000_000).prop_map(|s| utc(1998, 1, 1, 0, 0) + Duration::seconds(s))
}

proptest! {
    #[test]
    fn next_open_is_a_sessions_open_strictly_after_the_input_with_none_skipped(t in any_instant()) {
        let nyse = Calendar::nyse();
        let open = nyse.next_open(t);
        prop_assert!(open > t);
        let session = nyse.session(open.date_naive()).expect("next_open is on a trading day");
        prop_assert_eq!(session.open, open);
        // No session opens in (t, open): the previous trading day's open is at or before t.
        let previous = nyse.previous_trading_day(open.date_naive());
        prop_assert!(nyse.session(previous).unwrap().open <= t);
    }

    #[test]
    fn next_close_is_a_sessions_close_strictly_after_the_input(t in any_instant()) {
        let nyse = Calendar::nyse();
        let close = nyse.next_close(t);
        prop_assert!(close > t);
        let session = nyse.session(close.date_naive()).expect("next_close is on a trading day");
        prop_assert_eq!(session.close, close);
        prop_assert!(nyse.session(nyse.previous_trading_day(close.date_naive())).unwrap().close <= t);
        // Open now means the next close is this session's.
        if nyse.is_open(t) {
            prop_assert_eq!(close.date_naive(), t.date_naive());
        }
    }

    #[test]
    fn is_open_agrees_with_the_sessions_of_the_new_york_date(t in any_instant()) {
        let nyse = Calendar::nyse();
        let local_date = strikeline_market::calendar::to_new_york(t).date_naive();
        let expected = nyse.session(local_date).is_some_and(|s| s.open <= t && t < s.close);
        prop_assert_eq!(nyse.is_open(t), expected);
    }

    #[test]
    fn sessions_open_at_0930_and_close_at_1600_or_1300_in_new_york(d in any_date()) {
        if let Some(s) = Calendar::nyse().session(d) {
            let open = strikeline_market::calendar::to_new_york(s.open);
            let close = strikeline_market::calendar::to_new_york(s.close);
            prop_assert_eq!(open.date_naive(), d);
            prop_assert_eq!(s.open.date_naive(), d);
            prop_assert_eq!(open.format("%H:%M").to_string(), "09:30");
            prop_assert_eq!(close.format("%H:%M").to_string(), if s.early_close { "13:00" } else { "16:00" });
        }
    }

    #[test]
    fn trading_days_between_counts_like_walking_day_by_day(a in any_date(), span in 0i64..800) {
        let nyse = Calendar::nyse();
        let b = a + Duration::days(span);
        let counted = nyse.trading_days_between(a, b);
        prop_assert_eq!(counted, brute_force_trading_days(&nyse, a, b));
        prop_assert_eq!(nyse.trading_days_between(b, a), -counted);
    }

    #[test]
    fn next_and_previous_trading_day_are_inverse_on_trading_days(d in any_date()) {
        let nyse = Calendar::nyse();
        let next = nyse.next_trading_day(d);
        prop_assert!(next > d && nyse.is_trading_day(next));
        prop_assert_eq!(nyse.trading_days_between(d, next), 1);
        if nyse.is_trading_day(d) {
            prop_assert_eq!(nyse.previous_trading_day(next), d);
        }
    }

    #[test]
    fn every_year_has_between_246_and_253_trading_days_on_weekdays_only(year in 1999i32..2200) {
        let nyse = Calendar::nyse();
        let days = nyse.trading_days_between(ymd(year - 1, 12, 31), ymd(year, 12, 31));
        // 2001 lost four extra days (September 11–14).
        prop_assert!((246..=253).contains(&days), "{} has {}", year, days);
        let holidays = nyse.holidays(year);
        prop_assert!(holidays.iter().all(|h| !matches!(h.date.weekday(), Weekday::Sat | Weekday::Sun)));
    }
}
