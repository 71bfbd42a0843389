//! When each automation job is due, from the exchange calendar and the configured intervals.
//! Pure: the time and the last runs are inputs.

use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Utc, Weekday};
use serde::Serialize;
use strikeline_market::calendar::{Calendar, new_york_offset, to_new_york};
use utoipa::ToSchema;

use crate::foundation::config::ScheduleConfig;

/// The scheduler's jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Job {
    /// Before the open: history caught up to the last session, quotes primed.
    PreMarket,
    /// While open: quotes refreshed and active signals marked to market.
    SignalUpdates,
    /// While open: the strategies run for new signals.
    NewSignals,
    /// The dashboard figures recomputed and today's snapshot stored.
    PortfolioStats,
    /// After the close: the day's bars stored, signals marked at the close and expired.
    EndOfDay,
    /// Saturday morning: history gaps filled and old counters pruned.
    Weekend,
}

impl Job {
    pub const ALL: [Job; 6] = [Job::PreMarket, Job::SignalUpdates, Job::NewSignals, Job::PortfolioStats, Job::EndOfDay, Job::Weekend];

    /// The key its last run is stored under.
    pub fn key(self) -> &'static str {
        match self {
            Job::PreMarket => "last:preMarket",
            Job::SignalUpdates => "last:signalUpdates",
            Job::NewSignals => "last:newSignals",
            Job::PortfolioStats => "last:portfolioStats",
            Job::EndOfDay => "last:endOfDay",
            Job::Weekend => "last:weekend",
        }
    }
}

/// When each job runs next.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NextSchedules {
    pub signal_updates: DateTime<Utc>,
    pub new_signals: DateTime<Utc>,
    pub portfolio_stats: DateTime<Utc>,
    pub end_of_day: DateTime<Utc>,
    pub pre_market: DateTime<Utc>,
    pub weekend: DateTime<Utc>,
}

/// The scheduler's clock-free view: calendar plus intervals.
pub struct Schedule<'a> {
    pub calendar: &'a Calendar,
    pub config: &'a ScheduleConfig,
}

/// Saturday 10:00 New York time of the week containing `date` (weeks start on Monday).
fn saturday_morning(date: chrono::NaiveDate) -> DateTime<Utc> {
    let saturday = date - Duration::days(i64::from(date.weekday().num_days_from_monday())) + Duration::days(5);
    let local = saturday.and_time(NaiveTime::from_hms_opt(10, 0, 0).unwrap_or_default());
    // The offset at noon UTC of that day is the day's New York offset (DST never changes on a Saturday morning).
    let noon = Utc.from_utc_datetime(&saturday.and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap_or_default()));
    let offset = new_york_offset(noon);
    Utc.from_utc_datetime(&(local - Duration::seconds(i64::from(offset.local_minus_utc()))))
}

impl Schedule<'_> {
    fn interval(&self, job: Job) -> Option<Duration> {
        let secs = match job {
            Job::SignalUpdates => self.config.signal_refresh_seconds,
            Job::NewSignals => self.config.new_signal_seconds,
            Job::PortfolioStats => self.config.portfolio_stats_seconds,
            _ => return None,
        };
        Some(Duration::seconds(i64::try_from(secs).unwrap_or(i64::MAX / 2)))
    }

    /// The most recent calendar anchor of `job` at or before `now`, for anchored jobs.
    fn last_anchor(&self, job: Job, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let today = to_new_york(now).date_naive();
        match job {
            Job::PreMarket => {
                let session = self.calendar.session(today)?;
                let at = session.open - Duration::minutes(self.config.pre_market_minutes);
                (at <= now && now < session.close).then_some(at)
            }
            Job::EndOfDay => {
                let day = self.calendar.trading_day_on_or_before(today);
                let at = self.calendar.session(day)?.close + Duration::minutes(self.config.end_of_day_minutes);
                if at <= now {
                    Some(at)
                } else {
                    let before = self.calendar.previous_trading_day(day);
                    Some(self.calendar.session(before)?.close + Duration::minutes(self.config.end_of_day_minutes))
                }
            }
            Job::Weekend => {
                let at = saturday_morning(today);
                Some(if at <= now { at } else { at - Duration::days(7) })
            }
            _ => None,
        }
    }

    /// Whether `job` should run at `now`, given when it last ran.
    pub fn is_due(&self, job: Job, now: DateTime<Utc>, last: Option<DateTime<Utc>>) -> bool {
        match self.interval(job) {
            Some(every) => {
                let open_needed = job != Job::PortfolioStats;
                (!open_needed || self.calendar.is_open(now)) && last.is_none_or(|l| now - l >= every)
            }
            // An anchored job runs once per anchor, and only for the latest one.
            None => self.last_anchor(job, now).is_some_and(|anchor| last.is_none_or(|l| l < anchor)),
        }
    }

    /// When `job` runs next after `now`.
    pub fn next_run(&self, job: Job, now: DateTime<Utc>, last: Option<DateTime<Utc>>) -> DateTime<Utc> {
        if let Some(every) = self.interval(job) {
            let earliest = last.map_or(now, |l| (l + every).max(now));
            if job == Job::PortfolioStats || self.calendar.is_open(earliest) {
                return earliest;
            }
            return self.calendar.next_open(earliest);
        }
        match job {
            Job::PreMarket => {
                let mut open = self.calendar.next_open(now);
                loop {
                    let at = open - Duration::minutes(self.config.pre_market_minutes);
                    if at > now {
                        return at;
                    }
                    open = self.calendar.next_open(open + Duration::minutes(1));
                }
            }
            Job::EndOfDay => {
                let mut close = self.calendar.next_close(now - Duration::minutes(self.config.end_of_day_minutes));
                loop {
                    let at = close + Duration::minutes(self.config.end_of_day_minutes);
                    if at > now {
                        return at;
                    }
                    close = self.calendar.next_close(close + Duration::minutes(1));
                }
            }
            _ => {
                let this_week = saturday_morning(to_new_york(now).date_naive());
                if this_week > now { this_week } else { this_week + Duration::days(7) }
            }
        }
    }

    /// Every job's next run.
    pub fn next_schedules(&self, now: DateTime<Utc>, last: impl Fn(Job) -> Option<DateTime<Utc>>) -> NextSchedules {
        NextSchedules {
            signal_updates: self.next_run(Job::SignalUpdates, now, last(Job::SignalUpdates)),
            new_signals: self.next_run(Job::NewSignals, now, last(Job::NewSignals)),
            portfolio_stats: self.next_run(Job::PortfolioStats, now, last(Job::PortfolioStats)),
            end_of_day: self.next_run(Job::EndOfDay, now, last(Job::EndOfDay)),
            pre_market: self.next_run(Job::PreMarket, now, last(Job::PreMarket)),
            weekend: self.next_run(Job::Weekend, now, last(Job::Weekend)),
        }
    }
}

/// Whether `now` falls on a weekend in New York.
pub fn is_weekend(now: DateTime<Utc>) -> bool {
    matches!(to_new_york(now).weekday(), Weekday::Sat | Weekday::Sun)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).expect("instant").with_timezone(&Utc)
    }

    fn schedule<'a>(calendar: &'a Calendar, config: &'a ScheduleConfig) -> Schedule<'a> {
        Schedule { calendar, config }
    }

    #[test]
    fn interval_jobs_run_only_while_the_exchange_is_open() {
        let (cal, cfg) = (Calendar::nyse(), ScheduleConfig::default());
        let s = schedule(&cal, &cfg);
        // Tue 24 Nov 2026, 10:00 New York (15:00 UTC): open.
        let open = at("2026-11-24T15:00:00Z");
        assert!(s.is_due(Job::SignalUpdates, open, None));
        assert!(!s.is_due(Job::SignalUpdates, open, Some(open - Duration::seconds(60))), "ran a minute ago");
        assert!(s.is_due(Job::SignalUpdates, open, Some(open - Duration::seconds(300))));
        // Thanksgiving, Thu 26 Nov 2026: closed all day.
        let holiday = at("2026-11-26T15:00:00Z");
        assert!(!s.is_due(Job::SignalUpdates, holiday, None));
        assert_eq!(s.next_run(Job::SignalUpdates, holiday, None), at("2026-11-27T14:30:00Z"));
        // Portfolio figures are recomputed whatever the market does.
        assert!(s.is_due(Job::PortfolioStats, holiday, None));
    }

    #[test]
    fn end_of_day_follows_early_closes_and_runs_once() {
        let (cal, cfg) = (Calendar::nyse(), ScheduleConfig::default());
        let s = schedule(&cal, &cfg);
        // Fri 27 Nov 2026 closes at 13:00 New York (18:00 UTC); end of day 10 minutes later.
        let before = at("2026-11-27T17:00:00Z");
        assert_eq!(s.next_run(Job::EndOfDay, before, None), at("2026-11-27T18:10:00Z"));
        let after = at("2026-11-27T18:15:00Z");
        assert!(s.is_due(Job::EndOfDay, after, Some(at("2026-11-25T21:10:00Z"))));
        assert!(!s.is_due(Job::EndOfDay, after, Some(at("2026-11-27T18:11:00Z"))), "already ran after this close");
        // Next one after that: Monday 30 Nov, 16:10 New York (21:10 UTC).
        assert_eq!(s.next_run(Job::EndOfDay, after, None), at("2026-11-30T21:10:00Z"));
    }

    #[test]
    fn pre_market_and_weekend_are_anchored_in_new_york_time() {
        let (cal, cfg) = (Calendar::nyse(), ScheduleConfig::default());
        let s = schedule(&cal, &cfg);
        // Sat 28 Nov 2026 08:00 New York: the next pre-market is Monday 09:00 New York (14:00 UTC).
        let saturday = at("2026-11-28T13:00:00Z");
        assert_eq!(s.next_run(Job::PreMarket, saturday, None), at("2026-11-30T14:00:00Z"));
        assert_eq!(s.next_run(Job::Weekend, saturday, None), at("2026-11-28T15:00:00Z"));
        assert!(!s.is_due(Job::Weekend, saturday, Some(at("2026-11-21T15:00:00Z"))), "not yet 10:00");
        assert!(s.is_due(Job::Weekend, at("2026-11-28T15:30:00Z"), Some(at("2026-11-21T15:00:00Z"))));
        // In summer New York is UTC−4: Saturday 10:00 is 14:00 UTC.
        assert_eq!(s.next_run(Job::Weekend, at("2026-07-01T12:00:00Z"), None), at("2026-07-04T14:00:00Z"));
        assert!(is_weekend(saturday));
    }
}
