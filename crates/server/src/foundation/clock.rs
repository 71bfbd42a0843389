//! The one clock: every handler, service, job, limiter and the billing schedule read the time
//! from the [`Clock`] in the application state, never from the wall clock directly.
//!
//! A clock is the system time shifted by an offset (zero by default), or a frozen instant that
//! moves only when told. Tests pin the whole server to one instant (`STRIKELINE_TEST_NOW`, or
//! `clock_start` in the configuration); the administrators' billing test clock
//! (`POST /api/admin/billing/run`) moves this clock forward. Durations that
//! only measure elapsed work (timeouts, cache ages, back-off sleeps) use the monotonic
//! `Instant`, which is not a date.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};

#[derive(Clone, Debug)]
pub struct Clock {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// Frozen: `millis` is the instant itself. Running: `millis` is added to the system time.
    frozen: AtomicBool,
    millis: AtomicI64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl Clock {
    /// The system time.
    pub fn system() -> Clock {
        Clock::with(false, 0)
    }

    /// Runs forward in real time from `start`.
    pub fn starting_at(start: DateTime<Utc>) -> Clock {
        Clock::with(false, (start - system_time()).num_milliseconds())
    }

    /// Stands still at `at` until it is set or advanced.
    pub fn frozen_at(at: DateTime<Utc>) -> Clock {
        Clock::with(true, at.timestamp_millis())
    }

    /// The system clock, or one running from `start` when given.
    pub fn from_start(start: Option<DateTime<Utc>>) -> Clock {
        start.map_or_else(Clock::system, Clock::starting_at)
    }

    fn with(frozen: bool, millis: i64) -> Clock {
        Clock { inner: Arc::new(Inner { frozen: AtomicBool::new(frozen), millis: AtomicI64::new(millis) }) }
    }

    /// The current time, to the millisecond (what the API shows and the database keeps).
    pub fn now(&self) -> DateTime<Utc> {
        let millis = self.inner.millis.load(Ordering::Acquire);
        if self.inner.frozen.load(Ordering::Acquire) {
            DateTime::from_timestamp_millis(millis).unwrap_or_default()
        } else {
            (system_time() + TimeDelta::milliseconds(millis)).trunc_subsecs(3)
        }
    }

    /// Moves the clock by `by` (forward or back); every holder of this clock sees it.
    pub fn advance(&self, by: TimeDelta) {
        self.inner.millis.fetch_add(by.num_milliseconds(), Ordering::AcqRel);
    }
}

/// The one reading of the wall clock in the server.
fn system_time() -> DateTime<Utc> {
    Utc::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).expect("instant").with_timezone(&Utc)
    }

    #[test]
    fn a_frozen_clock_moves_only_when_told_and_all_holders_see_it() {
        let clock = Clock::frozen_at(at("2026-11-28T15:00:00.123456Z"));
        let shared = clock.clone();
        assert_eq!(clock.now(), at("2026-11-28T15:00:00.123Z"), "to the millisecond");
        assert_eq!(clock.now(), clock.now());
        clock.advance(TimeDelta::days(2));
        assert_eq!(shared.now(), at("2026-11-30T15:00:00.123Z"));
        clock.advance(TimeDelta::hours(-1));
        assert_eq!(clock.now(), at("2026-11-30T14:00:00.123Z"), "a test may step back too");
    }

    #[test]
    fn a_started_clock_runs_from_its_start() {
        let clock = Clock::starting_at(at("2026-03-08T06:59:00Z"));
        let read = clock.now();
        assert!(read >= at("2026-03-08T06:58:59Z") && read < at("2026-03-08T07:01:00Z"), "{read}");
        assert!(clock.now() >= read, "runs forward");
        clock.advance(TimeDelta::hours(1));
        assert!(clock.now() >= at("2026-03-08T07:58:59Z"));
    }

    #[test]
    fn the_system_clock_reads_the_system_time() {
        let clock = Clock::system();
        let before = system_time().trunc_subsecs(3);
        let read = clock.now();
        assert!(read >= before && read <= system_time(), "{before} ≤ {read}");
        let unset = Clock::from_start(None).now();
        assert!(unset >= read && unset <= system_time(), "no start: the system time");
    }
}
