//! The US equity exchange calendar (NYSE rules) and equity option expirations.
//!
//! Pure: every function takes the dates or instants it reasons about; nothing here reads the
//! clock or does I/O. Dates ([`NaiveDate`]) are New York trading dates; instants are UTC.
//!
//! - Regular session: 09:30–16:00 America/New_York; 13:00 close on the scheduled early-close
//!   days. Sessions are half-open, `[open, close)`.
//! - Holidays are computed by rule for any year ([`Calendar::holidays`]); unscheduled closures
//!   (national days of mourning, storms) cannot be, so they are data: [`Calendar::nyse`]
//!   carries the ones NYSE has had since 1998, and [`Calendar::with_extra_closures`] adds
//!   more (from configuration, say) without a release.
//! - Option expirations: [`Calendar::monthly_expiration`], [`Calendar::weekly_expirations_between`],
//!   [`Calendar::next_expiration_at_least`].
//!
//! `docs/calendar.md` lists every rule with its source.
//!
//! ```
//! use chrono::{NaiveDate, TimeZone, Utc};
//! use strikeline_market::calendar::Calendar;
//!
//! let nyse = Calendar::nyse();
//! let good_friday = NaiveDate::from_ymd_opt(2026, 4, 3).unwrap();
//! assert!(!nyse.is_trading_day(good_friday));
//!
//! // Thursday evening before Good Friday: the next open is Monday 09:30 EDT.
//! let thursday_evening = Utc.with_ymd_and_hms(2026, 4, 2, 22, 0, 0).unwrap();
//! assert_eq!(nyse.next_open(thursday_evening), Utc.with_ymd_and_hms(2026, 4, 6, 13, 30, 0).unwrap());
//! ```

mod expiration;
mod new_york;
mod rules;

use std::borrow::Cow;
use std::fmt;

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Utc, Weekday};

pub use expiration::ExpirationKind;
pub use new_york::{new_york_offset, to_new_york};
pub use rules::easter_sunday;

use new_york::{local_to_utc, time};

/// Regular open, New York time.
pub const REGULAR_OPEN: NaiveTime = time(9, 30);
/// Regular close, New York time.
pub const REGULAR_CLOSE: NaiveTime = time(16, 0);
/// Close on the scheduled early-close days, New York time.
pub const EARLY_CLOSE: NaiveTime = rules::EARLY_CLOSE;

/// Unscheduled full-day NYSE closures since 1998 (NYSE's "Holidays and Trading Hours" history
/// and its closing announcements). Not computable by any rule, so kept as data.
const NYSE_SPECIAL_CLOSURES: &[(i32, u32, u32, &str)] = &[
    (2001, 9, 11, "September 11 attacks"),
    (2001, 9, 12, "September 11 attacks"),
    (2001, 9, 13, "September 11 attacks"),
    (2001, 9, 14, "September 11 attacks"),
    (2004, 6, 11, "National Day of Mourning for President Ronald Reagan"),
    (2007, 1, 2, "National Day of Mourning for President Gerald R. Ford"),
    (2012, 10, 29, "Hurricane Sandy"),
    (2012, 10, 30, "Hurricane Sandy"),
    (2018, 12, 5, "National Day of Mourning for President George H. W. Bush"),
    (2025, 1, 9, "National Day of Mourning for President Jimmy Carter"),
];

/// A day on which the exchange is closed all day.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Holiday {
    /// The day the exchange is closed (the observed date, not the nominal one).
    pub date: NaiveDate,
    /// The name NYSE publishes, e.g. "Washington's Birthday"; for a special closure, the
    /// name it was given.
    pub name: Cow<'static, str>,
    /// Regular, observed (moved off a weekend) or special (unscheduled).
    pub kind: HolidayKind,
}

/// Why a [`Holiday`] falls where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HolidayKind {
    /// A rule holiday on its own date.
    Regular,
    /// A fixed-date rule holiday moved off a weekend (Saturday → Friday, Sunday → Monday).
    Observed,
    /// An unscheduled closure from a list (national day of mourning, storm, …).
    Special,
}

/// A trading day that closes early.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EarlyClose {
    /// The New York trading date.
    pub date: NaiveDate,
    /// e.g. "Day after Thanksgiving".
    pub name: Cow<'static, str>,
    /// Close, New York time (13:00 for every scheduled early close).
    pub close: NaiveTime,
}

/// One regular trading session, `[open, close)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Session {
    /// The New York trading date.
    pub date: NaiveDate,
    /// 09:30 New York time.
    pub open: DateTime<Utc>,
    /// 16:00 New York time, or 13:00 on an early-close day; the first instant it is closed.
    pub close: DateTime<Utc>,
    /// Closes at 13:00 New York time instead of 16:00.
    pub early_close: bool,
}

impl Session {
    /// Whether `instant` falls in `[open, close)`.
    pub fn contains(&self, instant: DateTime<Utc>) -> bool {
        self.open <= instant && instant < self.close
    }
}

/// A closure list the calendar refuses, with the offending date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CalendarError {
    /// The exchange never opens on a weekend, so a closure there is a mistake in the list.
    ClosureOnWeekend(NaiveDate),
    /// The date is already a holiday by rule, or listed twice.
    DuplicateClosure(NaiveDate),
}

impl fmt::Display for CalendarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ClosureOnWeekend(date) => write!(f, "extra closure {date} falls on a weekend"),
            Self::DuplicateClosure(date) => {
                write!(f, "extra closure {date} is already a holiday or listed twice")
            }
        }
    }
}

impl std::error::Error for CalendarError {}

/// The US equity exchange calendar: NYSE rule holidays plus a list of extra closures.
///
/// Cheap to clone; holds only the extra closures, sorted by date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calendar {
    extra_closures: Vec<Holiday>,
}

impl Default for Calendar {
    /// [`Calendar::nyse`].
    fn default() -> Self {
        Self::nyse()
    }
}

impl Calendar {
    /// Rule holidays only: no unscheduled closures at all.
    pub fn rules_only() -> Self {
        Self { extra_closures: Vec::new() }
    }

    /// Rule holidays plus every unscheduled full-day NYSE closure since 1998 (September 11–14
    /// 2001; the national days of mourning for Presidents Reagan 2004-06-11, Ford 2007-01-02,
    /// G. H. W. Bush 2018-12-05 and Carter 2025-01-09; Hurricane Sandy 2012-10-29/30).
    pub fn nyse() -> Self {
        let special = NYSE_SPECIAL_CLOSURES.iter().filter_map(|&(y, m, d, name)| Some((NaiveDate::from_ymd_opt(y, m, d)?, name)));
        Self::rules_only().with_extra_closures(special).expect("the built-in special closures are weekdays and not rule holidays")
    }

    /// Adds unscheduled full-day closures, e.g. a national day of mourning announced next
    /// week, read from configuration.
    ///
    /// # Errors
    ///
    /// [`CalendarError::ClosureOnWeekend`] for a Saturday or Sunday and
    /// [`CalendarError::DuplicateClosure`] for a date that is already closed, by rule or by
    /// an earlier entry: both are mistakes in the list, not closures.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_market::calendar::Calendar;
    ///
    /// let day = NaiveDate::from_ymd_opt(2025, 1, 9).unwrap();
    /// assert!(Calendar::rules_only().is_trading_day(day));
    /// let calendar = Calendar::rules_only()
    ///     .with_extra_closures([(day, "National Day of Mourning for President Jimmy Carter")])
    ///     .unwrap();
    /// assert!(!calendar.is_trading_day(day));
    /// ```
    pub fn with_extra_closures<I, N>(mut self, closures: I) -> Result<Self, CalendarError>
    where
        I: IntoIterator<Item = (NaiveDate, N)>,
        N: Into<Cow<'static, str>>,
    {
        for (date, name) in closures {
            if is_weekend(date) {
                return Err(CalendarError::ClosureOnWeekend(date));
            }
            if self.holiday(date).is_some() {
                return Err(CalendarError::DuplicateClosure(date));
            }
            let at = self.extra_closures.partition_point(|h| h.date < date);
            let holiday = Holiday { date, name: name.into(), kind: HolidayKind::Special };
            self.extra_closures.insert(at, holiday);
        }
        Ok(self)
    }

    /// The unscheduled closures this calendar carries, in date order.
    pub fn extra_closures(&self) -> &[Holiday] {
        &self.extra_closures
    }

    /// The holiday on `date`, if the exchange is closed all day for one (weekends are not
    /// holidays).
    pub fn holiday(&self, date: NaiveDate) -> Option<Holiday> {
        self.extra_closure(date).cloned().or_else(|| rules::holidays(date.year()).find(|h| h.date == date))
    }

    /// Every full-day closure on a weekday in `year`, in date order: the rule holidays (NYSE
    /// Rule 7.2) and this calendar's extra closures.
    pub fn holidays(&self, year: i32) -> Vec<Holiday> {
        let mut all: Vec<Holiday> =
            rules::holidays(year).chain(self.extra_closures.iter().filter(|h| h.date.year() == year).cloned()).collect();
        all.sort_by_key(|h| h.date);
        all
    }

    /// The scheduled 13:00 early closes in `year` that are trading days on this calendar, in
    /// date order: July 3 (Monday–Thursday only), the day after Thanksgiving, and December 24
    /// (Monday–Thursday only).
    pub fn early_closes(&self, year: i32) -> Vec<EarlyClose> {
        rules::early_closes(year).filter(|e| self.extra_closure(e.date).is_none()).collect()
    }

    /// Whether the exchange holds a regular session on `date`: a weekday that is neither a
    /// rule holiday nor an extra closure.
    pub fn is_trading_day(&self, date: NaiveDate) -> bool {
        // Not via `holiday`, which clones the name: this runs once per day in every search.
        !is_weekend(date) && self.extra_closure(date).is_none() && rules::holidays(date.year()).all(|h| h.date != date)
    }

    /// The regular session on `date`, or `None` when the exchange is closed.
    ///
    /// Sessions always fall inside their own UTC date (13:30–21:00 UTC at the widest).
    pub fn session(&self, date: NaiveDate) -> Option<Session> {
        if !self.is_trading_day(date) {
            return None;
        }
        let early = rules::early_closes(date.year()).find(|e| e.date == date);
        let close = early.as_ref().map_or(REGULAR_CLOSE, |e| e.close);
        Some(Session { date, open: local_to_utc(date, REGULAR_OPEN), close: local_to_utc(date, close), early_close: early.is_some() })
    }

    /// Whether the regular session is open at `instant` (open inclusive, close exclusive).
    pub fn is_open(&self, instant: DateTime<Utc>) -> bool {
        // A session lies inside its UTC date, so only that date's session can contain it.
        self.session(instant.date_naive()).is_some_and(|s| s.contains(instant))
    }

    /// The first session open strictly after `after`.
    ///
    /// # Panics
    ///
    /// Only if the search runs past the last date `NaiveDate` can hold (year 262 142).
    pub fn next_open(&self, after: DateTime<Utc>) -> DateTime<Utc> {
        self.next_session_where(after.date_naive(), |s| s.open > after).open
    }

    /// The first session close strictly after `after`: today's close while the session is
    /// open, otherwise the next session's.
    ///
    /// # Panics
    ///
    /// Only if the search runs past the last date `NaiveDate` can hold (year 262 142).
    pub fn next_close(&self, after: DateTime<Utc>) -> DateTime<Utc> {
        self.next_session_where(after.date_naive(), |s| s.close > after).close
    }

    /// The last trading day strictly before `date`.
    ///
    /// # Panics
    ///
    /// Only if the search runs past the first date `NaiveDate` can hold.
    pub fn previous_trading_day(&self, date: NaiveDate) -> NaiveDate {
        let mut day = date;
        loop {
            day = day.pred_opt().expect("a trading day before the start of NaiveDate's range");
            if self.is_trading_day(day) {
                return day;
            }
        }
    }

    /// The first trading day strictly after `date`.
    ///
    /// # Panics
    ///
    /// Only if the search runs past the last date `NaiveDate` can hold.
    pub fn next_trading_day(&self, date: NaiveDate) -> NaiveDate {
        let mut day = date;
        loop {
            day = day.succ_opt().expect("a trading day before the end of NaiveDate's range");
            if self.is_trading_day(day) {
                return day;
            }
        }
    }

    /// `date` itself when it is a trading day, otherwise the last trading day before it.
    pub fn trading_day_on_or_before(&self, date: NaiveDate) -> NaiveDate {
        if self.is_trading_day(date) { date } else { self.previous_trading_day(date) }
    }

    /// The last `count` trading days on or before `to`, oldest first.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_market::calendar::Calendar;
    ///
    /// let d = |m, d| NaiveDate::from_ymd_opt(2025, m, d).unwrap();
    /// // Good Friday, April 18, is closed; Sunday the 20th is no session.
    /// assert_eq!(Calendar::nyse().sessions_back(d(4, 20), 3), [d(4, 15), d(4, 16), d(4, 17)]);
    /// ```
    pub fn sessions_back(&self, to: NaiveDate, count: usize) -> Vec<NaiveDate> {
        let mut days = Vec::with_capacity(count);
        let mut day = to;
        while days.len() < count {
            day = self.trading_day_on_or_before(day);
            days.push(day);
            day = self.previous_trading_day(day);
        }
        days.reverse();
        days
    }

    /// The number of trading days in `(from, to]`: after `from`, up to and including `to`.
    ///
    /// For time to expiry, pass today as `from` and the expiration as `to`: the count is the
    /// sessions still to come, the expiration day's included, today's not. Zero when
    /// `from == to`; negative (−count of `(to, from]`) when `to < from`, so that
    /// `between(a, b) + between(b, c) == between(a, c)`.
    ///
    /// Counts weekdays arithmetically and subtracts the closures, so the cost grows with the
    /// number of years spanned, not days.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_market::calendar::Calendar;
    ///
    /// let d = |m, d| NaiveDate::from_ymd_opt(2025, m, d).unwrap();
    /// // Wed Apr 16 → Mon Apr 21, 2025: Thu 17 and Mon 21 (Good Friday 18 is closed).
    /// assert_eq!(Calendar::nyse().trading_days_between(d(4, 16), d(4, 21)), 2);
    /// ```
    pub fn trading_days_between(&self, from: NaiveDate, to: NaiveDate) -> i64 {
        if to < from {
            return -self.trading_days_between(to, from);
        }
        let weekdays = weekdays_through(to) - weekdays_through(from);
        let in_range = |d: &NaiveDate| from < *d && *d <= to;
        let rule_closures = (from.year()..=to.year()).flat_map(rules::holidays).filter(|h| in_range(&h.date)).count();
        // Extra closures are validated to be weekdays and not rule holidays: no double count.
        let extra = self.extra_closures.iter().filter(|h| in_range(&h.date)).count();
        // Both counts are at most a few per year; usize → i64 cannot truncate.
        weekdays - (rule_closures + extra) as i64
    }

    fn extra_closure(&self, date: NaiveDate) -> Option<&Holiday> {
        self.extra_closures.binary_search_by_key(&date, |h| h.date).ok().and_then(|i| self.extra_closures.get(i))
    }

    fn next_session_where(&self, from: NaiveDate, accept: impl Fn(&Session) -> bool) -> Session {
        let mut day = from;
        loop {
            if let Some(session) = self.session(day)
                && accept(&session)
            {
                return session;
            }
            day = day.succ_opt().expect("a session before the end of NaiveDate's range");
        }
    }
}

fn is_weekend(date: NaiveDate) -> bool {
    matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

/// A running count of weekdays: `weekdays_through(d) - weekdays_through(d - 1)` is 1 exactly
/// when `d` is Monday–Friday. Day 1 of the common era (0001-01-01) is a Monday, so with
/// `n = d.num_days_from_ce()` the count is `5 ⌊n / 7⌋ + min(n mod 7, 5)`.
fn weekdays_through(date: NaiveDate) -> i64 {
    let n = i64::from(date.num_days_from_ce());
    5 * n.div_euclid(7) + n.rem_euclid(7).min(5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weekday_count_steps_by_one_exactly_on_weekdays() {
        let mut day = NaiveDate::from_ymd_opt(1, 1, 1).unwrap();
        assert_eq!(day.weekday(), Weekday::Mon);
        day = NaiveDate::from_ymd_opt(-3, 12, 20).unwrap();
        for _ in 0..3000 {
            let next = day.succ_opt().unwrap();
            let step = weekdays_through(next) - weekdays_through(day);
            assert_eq!(step, i64::from(!is_weekend(next)), "{next}");
            day = next;
        }
    }

    #[test]
    fn the_built_in_special_closures_are_all_accepted() {
        assert_eq!(Calendar::nyse().extra_closures().len(), NYSE_SPECIAL_CLOSURES.len());
    }
}
