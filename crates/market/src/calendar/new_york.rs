//! Eastern Time (America/New_York) without a time-zone database.
//!
//! We implement the one rule we need instead of depending on `chrono-tz`: the exchange only
//! ever needs New York, the rule has been stable since 2007, and a table of every switch from
//! 1987 to 2037 (taken from the IANA database with `zdump`) pins it in the tests.
//!
//! The rule (15 U.S.C. § 260a, as amended by the Energy Policy Act of 2005, § 110):
//!
//! - from 2007: daylight time (EDT, UTC−4) from 02:00 local on the **second Sunday of March**
//!   to 02:00 local on the **first Sunday of November**; standard time (EST, UTC−5) otherwise;
//! - 1987–2006: from the **first Sunday of April** to the **last Sunday of October**.
//!
//! Years before 1987 are given the 1987–2006 rule, which is wrong for them (the 1967–1986 rule
//! started in late April, with exceptions in 1974–75); the calendar does not claim to describe
//! those years. If Congress changes the rule again (permanent daylight time has been proposed
//! more than once), this module is the one place to change.

use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc, Weekday};

/// Eastern Standard Time, UTC−5.
const EST: FixedOffset = fixed_offset(-5 * 3600);
/// Eastern Daylight Time, UTC−4.
const EDT: FixedOffset = fixed_offset(-4 * 3600);

/// The local dates on which daylight time starts and ends in `year` (both Sundays).
fn daylight_switch_dates(year: i32) -> Option<(NaiveDate, NaiveDate)> {
    if year >= 2007 {
        Some((
            NaiveDate::from_weekday_of_month_opt(year, 3, Weekday::Sun, 2)?,
            NaiveDate::from_weekday_of_month_opt(year, 11, Weekday::Sun, 1)?,
        ))
    } else {
        Some((NaiveDate::from_weekday_of_month_opt(year, 4, Weekday::Sun, 1)?, last_weekday_of_month(year, 10, Weekday::Sun)?))
    }
}

/// The last `weekday` of a month.
pub(crate) fn last_weekday_of_month(year: i32, month: u32, weekday: Weekday) -> Option<NaiveDate> {
    let (next_year, next_month) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
    let last_day = NaiveDate::from_ymd_opt(next_year, next_month, 1)?.pred_opt()?;
    let back = (7 + last_day.weekday().num_days_from_monday() - weekday.num_days_from_monday()) % 7;
    last_day.checked_sub_signed(Duration::days(i64::from(back)))
}

/// New York's offset from UTC at an instant: −4 h during daylight time, −5 h otherwise.
///
/// Daylight time begins at 07:00 UTC (02:00 EST) on its first day and ends at 06:00 UTC
/// (02:00 EDT) on its last.
///
/// ```
/// use chrono::{TimeZone, Utc};
/// use strikeline_market::calendar::new_york_offset;
///
/// let winter = Utc.with_ymd_and_hms(2026, 1, 15, 15, 0, 0).unwrap();
/// let summer = Utc.with_ymd_and_hms(2026, 7, 15, 15, 0, 0).unwrap();
/// assert_eq!(new_york_offset(winter).local_minus_utc(), -5 * 3600);
/// assert_eq!(new_york_offset(summer).local_minus_utc(), -4 * 3600);
/// ```
pub fn new_york_offset(instant: DateTime<Utc>) -> FixedOffset {
    match daylight_switch_dates(instant.year()) {
        Some((start, end)) => {
            let starts = start.and_time(time(7, 0)).and_utc();
            let ends = end.and_time(time(6, 0)).and_utc();
            if starts <= instant && instant < ends { EDT } else { EST }
        }
        None => EST,
    }
}

/// An instant as New York wall-clock time (its `date_naive()` is the New York date).
///
/// ```
/// use chrono::{NaiveDate, TimeZone, Utc};
/// use strikeline_market::calendar::to_new_york;
///
/// // 01:30 UTC on 2 January is still the evening of 1 January in New York.
/// let late = Utc.with_ymd_and_hms(2026, 1, 2, 1, 30, 0).unwrap();
/// assert_eq!(to_new_york(late).date_naive(), NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
/// ```
pub fn to_new_york(instant: DateTime<Utc>) -> DateTime<FixedOffset> {
    instant.with_timezone(&new_york_offset(instant))
}

/// The UTC instant of a New York wall-clock time on a day, for times from 03:00 on.
///
/// The switches happen at 02:00, so from 03:00 on the offset depends on the date alone:
/// daylight time on `start <= date < end`. Session times (09:30, 13:00, 16:00) are all later.
pub(crate) fn local_to_utc(date: NaiveDate, local: NaiveTime) -> DateTime<Utc> {
    debug_assert!(local >= time(3, 0), "the date alone decides the offset only from 03:00");
    let daylight = daylight_switch_dates(date.year()).is_some_and(|(start, end)| start <= date && date < end);
    let offset = if daylight { EDT } else { EST };
    let local = NaiveDateTime::new(date, local);
    (local - Duration::seconds(i64::from(offset.local_minus_utc()))).and_utc()
}

const fn fixed_offset(seconds: i32) -> FixedOffset {
    match FixedOffset::east_opt(seconds) {
        Some(offset) => offset,
        None => panic!("offset out of range"),
    }
}

pub(crate) const fn time(hour: u32, minute: u32) -> NaiveTime {
    match NaiveTime::from_hms_opt(hour, minute, 0) {
        Some(t) => t,
        None => panic!("invalid constant time"),
    }
}
