//! Equity option expirations.
//!
//! Standard (monthly) equity options expire on the **third Friday** of the month; weekly
//! options on **every Friday**. When that Friday is an exchange holiday (Good Friday, or
//! Juneteenth as on 2026-06-19), the last trading day and expiration move to the **preceding
//! business day**, normally Thursday (OCC and Cboe rules on expiration dates; see
//! `docs/calendar.md`). Dates returned here are the last trading day of the series.
//!
//! Not modelled: Monday/Wednesday expirations on index and ETF products, quarterlies, and
//! the pre-2015 convention of naming the following Saturday as the expiration date.

use chrono::{Datelike, Days, Month, Months, NaiveDate, Weekday};

use super::Calendar;

/// Which expiration cycle to look in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExpirationKind {
    /// Third Friday of each month.
    Monthly,
    /// Every Friday (the monthly expirations included).
    Weekly,
}

impl Calendar {
    /// The monthly expiration of `month` in `year`: its third Friday, or the trading day
    /// before it when that Friday is a holiday.
    ///
    /// ```
    /// use chrono::{Month, NaiveDate};
    /// use strikeline_market::calendar::Calendar;
    ///
    /// // The third Friday of April 2025 is Good Friday, April 18.
    /// let expiry = Calendar::nyse().monthly_expiration(2025, Month::April);
    /// assert_eq!(expiry, NaiveDate::from_ymd_opt(2025, 4, 17).unwrap());
    /// ```
    ///
    /// # Panics
    ///
    /// Only for a year outside the range `NaiveDate` can hold.
    pub fn monthly_expiration(&self, year: i32, month: Month) -> NaiveDate {
        self.monthly_expiration_of(year, month.number_from_month())
    }

    fn monthly_expiration_of(&self, year: i32, month: u32) -> NaiveDate {
        let third_friday = NaiveDate::from_weekday_of_month_opt(year, month, Weekday::Fri, 3).expect("a year inside NaiveDate's range");
        self.trading_day_on_or_before(third_friday)
    }

    /// Every weekly expiration in `[from, to]` (both inclusive), in date order: each Friday,
    /// or the trading day before it when the Friday is a holiday. Empty when `to < from`.
    pub fn weekly_expirations_between(&self, from: NaiveDate, to: NaiveDate) -> Vec<NaiveDate> {
        let mut expirations: Vec<NaiveDate> = Vec::new();
        let mut friday = friday_on_or_after(from);
        // An expiration lies on or before its Friday, so the Friday on or after `to` is the
        // last one whose expiration can still fall inside the range.
        let last_friday = friday_on_or_after(to);
        while friday <= last_friday {
            let expiration = self.trading_day_on_or_before(friday);
            // A fully closed week would repeat the week before's expiration.
            if from <= expiration && expiration <= to && expirations.last() != Some(&expiration) {
                expirations.push(expiration);
            }
            friday = friday + Days::new(7);
        }
        expirations
    }

    /// The first expiration of `kind` at least `min_days` calendar days after `from`, i.e. on
    /// or after `from + min_days`. The signal engine picks expirations with this.
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use strikeline_market::calendar::{Calendar, ExpirationKind};
    ///
    /// let nyse = Calendar::nyse();
    /// let from = NaiveDate::from_ymd_opt(2025, 3, 24).unwrap();
    /// // 24 days on is April 17: Thursday, the moved April monthly expiration.
    /// let monthly = nyse.next_expiration_at_least(from, 24, ExpirationKind::Monthly);
    /// assert_eq!(monthly, NaiveDate::from_ymd_opt(2025, 4, 17).unwrap());
    /// let weekly = nyse.next_expiration_at_least(from, 5, ExpirationKind::Weekly);
    /// // 5 days on is Saturday March 29; the next Friday is April 4.
    /// assert_eq!(weekly, NaiveDate::from_ymd_opt(2025, 4, 4).unwrap());
    /// ```
    ///
    /// # Panics
    ///
    /// Only if `from + min_days` or the search leaves the range `NaiveDate` can hold.
    pub fn next_expiration_at_least(&self, from: NaiveDate, min_days: i64, kind: ExpirationKind) -> NaiveDate {
        let earliest = from.checked_add_signed(chrono::Duration::days(min_days)).expect("from + min_days inside NaiveDate's range");
        match kind {
            ExpirationKind::Monthly => {
                let mut month_start = earliest.with_day(1).expect("every month has a day 1");
                loop {
                    let expiration = self.monthly_expiration_of(month_start.year(), month_start.month());
                    if expiration >= earliest {
                        return expiration;
                    }
                    month_start = month_start + Months::new(1);
                }
            }
            ExpirationKind::Weekly => {
                let mut friday = friday_on_or_after(earliest);
                loop {
                    let expiration = self.trading_day_on_or_before(friday);
                    if expiration >= earliest {
                        return expiration;
                    }
                    friday = friday + Days::new(7);
                }
            }
        }
    }
}

fn friday_on_or_after(date: NaiveDate) -> NaiveDate {
    let ahead = (7 + Weekday::Fri.num_days_from_monday() - date.weekday().num_days_from_monday()) % 7;
    date + Days::new(u64::from(ahead))
}
