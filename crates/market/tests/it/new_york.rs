//! Our hand-written America/New_York rule against every switch from 1987 to 2037 in the IANA
//! time-zone database (generated once with `zdump -v America/New_York`).

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use strikeline_market::calendar::{new_york_offset, to_new_york};

type MonthDay = (u32, u32);

/// (year, (month, day) daylight time starts, (month, day) it ends), New York local dates.
const SWITCHES: &[(i32, MonthDay, MonthDay)] = &[
    (1987, (4, 5), (10, 25)),
    (1988, (4, 3), (10, 30)),
    (1989, (4, 2), (10, 29)),
    (1990, (4, 1), (10, 28)),
    (1991, (4, 7), (10, 27)),
    (1992, (4, 5), (10, 25)),
    (1993, (4, 4), (10, 31)),
    (1994, (4, 3), (10, 30)),
    (1995, (4, 2), (10, 29)),
    (1996, (4, 7), (10, 27)),
    (1997, (4, 6), (10, 26)),
    (1998, (4, 5), (10, 25)),
    (1999, (4, 4), (10, 31)),
    (2000, (4, 2), (10, 29)),
    (2001, (4, 1), (10, 28)),
    (2002, (4, 7), (10, 27)),
    (2003, (4, 6), (10, 26)),
    (2004, (4, 4), (10, 31)),
    (2005, (4, 3), (10, 30)),
    (2006, (4, 2), (10, 29)),
    (2007, (3, 11), (11, 4)),
    (2008, (3, 9), (11, 2)),
    (2009, (3, 8), (11, 1)),
    (2010, (3, 14), (11, 7)),
    (2011, (3, 13), (11, 6)),
    (2012, (3, 11), (11, 4)),
    (2013, (3, 10), (11, 3)),
    (2014, (3, 9), (11, 2)),
    (2015, (3, 8), (11, 1)),
    (2016, (3, 13), (11, 6)),
    (2017, (3, 12), (11, 5)),
    (2018, (3, 11), (11, 4)),
    (2019, (3, 10), (11, 3)),
    (2020, (3, 8), (11, 1)),
    (2021, (3, 14), (11, 7)),
    (2022, (3, 13), (11, 6)),
    (2023, (3, 12), (11, 5)),
    (2024, (3, 10), (11, 3)),
    (2025, (3, 9), (11, 2)),
    (2026, (3, 8), (11, 1)),
    (2027, (3, 14), (11, 7)),
    (2028, (3, 12), (11, 5)),
    (2029, (3, 11), (11, 4)),
    (2030, (3, 10), (11, 3)),
    (2031, (3, 9), (11, 2)),
    (2032, (3, 14), (11, 7)),
    (2033, (3, 13), (11, 6)),
    (2034, (3, 12), (11, 5)),
    (2035, (3, 11), (11, 4)),
    (2036, (3, 9), (11, 2)),
    (2037, (3, 8), (11, 1)),
];

const EST: i32 = -5 * 3600;
const EDT: i32 = -4 * 3600;

fn utc(year: i32, (month, day): (u32, u32), hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, hour, 0, 0).single().expect("a valid instant")
}

fn offset(instant: DateTime<Utc>) -> i32 {
    new_york_offset(instant).local_minus_utc()
}

#[test]
fn daylight_time_starts_and_ends_at_the_instants_the_tz_database_gives() {
    let second = Duration::seconds(1);
    for &(year, start, end) in SWITCHES {
        // Starts at 02:00 EST = 07:00 UTC; ends at 02:00 EDT = 06:00 UTC.
        let starts = utc(year, start, 7);
        let ends = utc(year, end, 6);
        assert_eq!(offset(starts - second), EST, "{year} before start");
        assert_eq!(offset(starts), EDT, "{year} start");
        assert_eq!(offset(ends - second), EDT, "{year} before end");
        assert_eq!(offset(ends), EST, "{year} end");
        assert_eq!(offset(utc(year, (1, 15), 12)), EST, "{year} January");
        assert_eq!(offset(utc(year, (7, 15), 12)), EDT, "{year} July");
        assert_eq!(offset(utc(year, (12, 31), 23)), EST, "{year} December");
    }
}

#[test]
fn the_new_york_date_of_an_evening_instant_is_the_day_before_its_utc_date() {
    let instant = Utc.with_ymd_and_hms(2026, 7, 1, 2, 0, 0).unwrap();
    let local = to_new_york(instant);
    assert_eq!(local.date_naive(), NaiveDate::from_ymd_opt(2026, 6, 30).unwrap());
    assert_eq!(local.naive_local().format("%H:%M").to_string(), "22:00");
}
