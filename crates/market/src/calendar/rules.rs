//! The NYSE's scheduled holidays and early closes, as pure functions of the year.
//!
//! Source: NYSE Rule 7.2 ("Holidays") and the holiday calendars NYSE Group publishes each year
//! (for example "NYSE Group Announces 2026, 2027 and 2028 Holiday and Early Closings
//! Calendar", 23 December 2025). `docs/calendar.md` lists every rule with its source.

use std::borrow::Cow;

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use super::new_york::{last_weekday_of_month, time};
use super::{EarlyClose, Holiday, HolidayKind};

/// Local close on the scheduled early-close days: 13:00 Eastern.
pub(crate) const EARLY_CLOSE: chrono::NaiveTime = time(13, 0);

/// Easter Sunday in the Gregorian calendar, by the anonymous algorithm
/// (Meeus/Jones/Butcher; Jean Meeus, *Astronomical Algorithms*, 2nd ed., ch. 8).
///
/// With `a = Y mod 19`, `b = Y div 100`, `c = Y mod 100`, `d = b div 4`, `e = b mod 4`,
/// `f = (b + 8) div 25`, `g = (b − f + 1) div 3`, `h = (19a + b − d − g + 15) mod 30`,
/// `i = c div 4`, `k = c mod 4`, `l = (32 + 2e + 2i − h − k) mod 7`,
/// `m = (a + 11h + 22l) div 451`: the month is `(h + l − 7m + 114) div 31` and the day is
/// `(h + l − 7m + 114) mod 31 + 1`. Valid for every Gregorian year; `None` only outside the
/// range `NaiveDate` can represent.
///
/// ```
/// use chrono::NaiveDate;
/// use strikeline_market::calendar::easter_sunday;
///
/// assert_eq!(easter_sunday(2025), NaiveDate::from_ymd_opt(2025, 4, 20));
/// assert_eq!(easter_sunday(2026), NaiveDate::from_ymd_opt(2026, 4, 5));
/// ```
pub fn easter_sunday(year: i32) -> Option<NaiveDate> {
    let y = i64::from(year);
    let a = y.rem_euclid(19);
    let b = y.div_euclid(100);
    let c = y.rem_euclid(100);
    let d = b.div_euclid(4);
    let e = b.rem_euclid(4);
    let f = (b + 8).div_euclid(25);
    let g = (b - f + 1).div_euclid(3);
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c.div_euclid(4);
    let k = c.rem_euclid(4);
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l).div_euclid(451);
    let n = h + l - 7 * m + 114;
    // n lies in 3 * 31 ..= 4 * 31 + 30, so month is 3 or 4 and day 1..=31.
    let month = u32::try_from(n.div_euclid(31)).ok()?;
    let day = u32::try_from(n.rem_euclid(31) + 1).ok()?;
    NaiveDate::from_ymd_opt(year, month, day)
}

/// The scheduled full-day holidays of `year`, in date order, each on a weekday.
///
/// Every observed date stays inside its own year (the only holiday that could move across a
/// year end, New Year's Day on a Saturday, is not observed at all).
pub(crate) fn holidays(year: i32) -> impl Iterator<Item = Holiday> {
    let fixed = |month, day| NaiveDate::from_ymd_opt(year, month, day);
    let nth = |month, weekday, n| NaiveDate::from_weekday_of_month_opt(year, month, weekday, n);
    [
        new_years_day(year),
        (year >= 1998).then(|| nth(1, Weekday::Mon, 3)).flatten().map(|d| regular(d, "Martin Luther King, Jr. Day")),
        nth(2, Weekday::Mon, 3).map(|d| regular(d, "Washington's Birthday")),
        easter_sunday(year).and_then(|d| d.checked_sub_signed(Duration::days(2))).map(|d| regular(d, "Good Friday")),
        last_weekday_of_month(year, 5, Weekday::Mon).map(|d| regular(d, "Memorial Day")),
        (year >= 2022).then(|| fixed(6, 19)).flatten().and_then(|d| observed(d, "Juneteenth National Independence Day")),
        fixed(7, 4).and_then(|d| observed(d, "Independence Day")),
        nth(9, Weekday::Mon, 1).map(|d| regular(d, "Labor Day")),
        nth(11, Weekday::Thu, 4).map(|d| regular(d, "Thanksgiving Day")),
        fixed(12, 25).and_then(|d| observed(d, "Christmas Day")),
    ]
    .into_iter()
    .flatten()
}

/// The scheduled 13:00 early closes of `year`, in date order.
///
/// - July 3, when it falls Monday to Thursday (so July 4 is a weekday holiday). A Friday
///   July 3 is itself the observed Independence Day, and NYSE does not move the early close
///   to Thursday July 2 (2015, 2020, 2026 had none).
/// - The Friday after Thanksgiving.
/// - December 24, when it falls Monday to Thursday. A Friday December 24 is the observed
///   Christmas Day, and NYSE does not move the early close to Thursday December 23 (2021).
pub(crate) fn early_closes(year: i32) -> impl Iterator<Item = EarlyClose> {
    let mon_to_thu = |d: &NaiveDate| d.weekday().num_days_from_monday() <= 3;
    let early = |date, name| EarlyClose { date, name: Cow::Borrowed(name), close: EARLY_CLOSE };
    [
        NaiveDate::from_ymd_opt(year, 7, 3).filter(mon_to_thu).map(|d| early(d, "Day before Independence Day")),
        NaiveDate::from_weekday_of_month_opt(year, 11, Weekday::Thu, 4)
            .and_then(|d| d.succ_opt())
            .map(|d| early(d, "Day after Thanksgiving")),
        NaiveDate::from_ymd_opt(year, 12, 24).filter(mon_to_thu).map(|d| early(d, "Christmas Eve")),
    ]
    .into_iter()
    .flatten()
}

/// New Year's Day: a Sunday is observed on Monday January 2; a Saturday is not observed at
/// all, because NYSE Rule 7.2 does not move a Saturday holiday to a Friday that ends a
/// monthly or yearly accounting period (here December 31).
fn new_years_day(year: i32) -> Option<Holiday> {
    let day = NaiveDate::from_ymd_opt(year, 1, 1)?;
    match day.weekday() {
        Weekday::Sat => None,
        _ => observed(day, "New Year's Day"),
    }
}

/// A fixed-date holiday: Saturday is observed on the preceding Friday, Sunday on the following
/// Monday (NYSE Rule 7.2).
fn observed(day: NaiveDate, name: &'static str) -> Option<Holiday> {
    let (date, kind) = match day.weekday() {
        Weekday::Sat => (day.pred_opt()?, HolidayKind::Observed),
        Weekday::Sun => (day.succ_opt()?, HolidayKind::Observed),
        _ => (day, HolidayKind::Regular),
    };
    Some(Holiday { date, name: Cow::Borrowed(name), kind })
}

fn regular(date: NaiveDate, name: &'static str) -> Holiday {
    Holiday { date, name: Cow::Borrowed(name), kind: HolidayKind::Regular }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn easter_matches_published_dates_including_the_extremes() {
        // The earliest possible Easter (March 22) and the latest (April 25) included.
        let known = [
            (1818, 3, 22),
            (1886, 4, 25),
            (1943, 4, 25),
            (1961, 4, 2),
            (2000, 4, 23),
            (2008, 3, 23),
            (2011, 4, 24),
            (2016, 3, 27),
            (2019, 4, 21),
            (2024, 3, 31),
            (2025, 4, 20),
            (2026, 4, 5),
            (2027, 3, 28),
            (2028, 4, 16),
            (2038, 4, 25),
            (2285, 3, 22),
        ];
        for (y, m, d) in known {
            assert_eq!(easter_sunday(y), Some(ymd(y, m, d)), "{y}");
        }
    }

    #[test]
    fn easter_is_always_a_sunday_between_march_22_and_april_25() {
        for year in 1583..=4100 {
            let easter = easter_sunday(year).unwrap();
            assert_eq!(easter.weekday(), Weekday::Sun, "{year}");
            assert!(easter >= ymd(year, 3, 22) && easter <= ymd(year, 4, 25), "{year}");
        }
    }

    #[test]
    fn rule_holidays_are_sorted_weekdays_inside_their_year() {
        for year in 1900..=2300 {
            let days: Vec<_> = holidays(year).collect();
            assert!(days.windows(2).all(|w| w[0].date < w[1].date), "{year}");
            for h in &days {
                assert_eq!(h.date.year(), year);
                assert!(h.date.weekday().num_days_from_monday() < 5, "{year} {}", h.name);
            }
        }
    }

    #[test]
    fn years_outside_chronos_range_have_no_holidays_instead_of_panicking() {
        assert_eq!(holidays(i32::MAX).count(), 0);
        assert_eq!(early_closes(i32::MIN).count(), 0);
        assert_eq!(easter_sunday(i32::MAX), None);
    }
}
