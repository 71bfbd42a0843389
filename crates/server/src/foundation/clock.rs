//! The one clock: every handler, service, job, limiter and the billing schedule read the time
//! from the [`Clock`] in the application state, never from the wall clock directly.
//!
//! A clock is the system time shifted by an offset (zero by default), or a frozen instant that
//! moves only when told. Tests pin the whole server to one instant (`STRIKELINE_TEST_NOW`, or
//! `clock_start` in the configuration); the billing test clock moves it forward. Durations that
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
        Clock::with(false, (start - Utc::now()).num_milliseconds())
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
            (Utc::now() + TimeDelta::milliseconds(millis)).trunc_subsecs(3)
        }
    }

    /// Moves the clock by `by` (forward or back); every holder of this clock sees it.
    pub fn advance(&self, by: TimeDelta) {
        self.inner.millis.fetch_add(by.num_milliseconds(), Ordering::AcqRel);
    }

    /// Moves the clock forward to `at`; an instant already past leaves it where it is.
    /// Returns the time afterwards.
    pub fn advance_to(&self, at: DateTime<Utc>) -> DateTime<Utc> {
        let ahead = at - self.now();
        if ahead > TimeDelta::zero() {
            self.advance(ahead);
        }
        self.now()
    }

    /// Whether this clock reads the system time unshifted.
    pub fn is_system(&self) -> bool {
        !self.inner.frozen.load(Ordering::Acquire) && self.inner.millis.load(Ordering::Acquire) == 0
    }
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
        assert_eq!(clock.advance_to(at("2026-11-01T00:00:00Z")), at("2026-11-30T15:00:00.123Z"), "never back");
        assert_eq!(clock.advance_to(at("2026-12-31T23:30:00Z")), at("2026-12-31T23:30:00Z"));
        assert!(!clock.is_system());
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
        let before = Utc::now().trunc_subsecs(3);
        let read = clock.now();
        assert!(read >= before && read <= Utc::now(), "{before} ≤ {read}");
        assert!(clock.is_system());
        assert!(Clock::from_start(None).is_system());
    }
}
