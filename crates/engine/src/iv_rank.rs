//! IV rank and IV percentile: where today's 30-day at-the-money implied volatility stands in
//! its own last year.
//!
//! - The lookback is today's session and the [`LOOKBACK_SESSIONS`] sessions before it (a year
//!   of trading days), taken from the exchange calendar by the caller.
//! - **IV rank** = (today − the lookback's low) / (the lookback's high − its low), today
//!   included, in 0–1 (0.5 when the high equals the low).
//! - **IV percentile** = the share of the recorded prior sessions of the lookback whose
//!   reading is strictly below today's.
//! - A session of the lookback without a reading is **missing**: reported by date, never
//!   filled in. Below [`MIN_SESSIONS`] recorded sessions the figures are hidden, with why.

use chrono::NaiveDate;

/// Sessions before today in the lookback (about 52 weeks).
pub const LOOKBACK_SESSIONS: usize = 252;
/// Recorded sessions needed before the figures are shown.
pub const MIN_SESSIONS: usize = 200;

/// One session's reading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IvReading {
    pub date: NaiveDate,
    /// Per year, as a fraction.
    pub iv: f64,
}

/// Where today's reading stands.
#[derive(Debug, Clone, PartialEq)]
pub struct IvStanding {
    pub current: IvReading,
    /// 0–1.
    pub rank: f64,
    /// 0–1.
    pub percentile: f64,
    pub high: IvReading,
    pub low: IvReading,
    /// Sessions of the lookback with a reading, today included.
    pub sessions: usize,
}

/// The lookback of one symbol: its readings and the sessions without one.
#[derive(Debug, Clone, PartialEq)]
pub struct IvLookback {
    /// The first and last session of the lookback.
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// The readings inside it, oldest first.
    pub readings: Vec<IvReading>,
    /// Its sessions without a reading, oldest first.
    pub missing: Vec<NaiveDate>,
    /// The figures, or why they are hidden.
    pub standing: Result<IvStanding, IvHidden>,
}

/// Why the figures are hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IvHidden {
    /// The last session has no reading.
    #[error("No implied-volatility reading for the last session ({0}).")]
    NoCurrentReading(NaiveDate),
    /// Too short a history to rank against.
    #[error("IV rank needs {needed} recorded sessions in the last year; {recorded} recorded so far.")]
    TooFewSessions { recorded: usize, needed: usize },
}

/// The lookback over `sessions` (the calendar's sessions, oldest first, the last one being
/// "today"; only the last [`LOOKBACK_SESSIONS`] + 1 are used) from `readings` (any order;
/// readings on other dates are ignored, a date given twice counts once, the later wins).
/// `None` when `sessions` is empty.
pub fn lookback(sessions: &[NaiveDate], readings: &[IvReading]) -> Option<IvLookback> {
    let window = &sessions[sessions.len().saturating_sub(LOOKBACK_SESSIONS + 1)..];
    let (&from, &to) = (window.first()?, window.last()?);
    let mut inside: Vec<IvReading> =
        readings.iter().filter(|r| r.iv.is_finite() && r.iv > 0.0 && window.binary_search(&r.date).is_ok()).copied().collect();
    inside.sort_by_key(|r| r.date);
    inside.dedup_by(|later, earlier| {
        let same = later.date == earlier.date;
        if same {
            *earlier = *later;
        }
        same
    });
    let missing: Vec<NaiveDate> = window.iter().filter(|d| inside.binary_search_by_key(d, |r| &r.date).is_err()).copied().collect();
    let standing = standing(&inside, to);
    Some(IvLookback { from, to, readings: inside, missing, standing })
}

fn standing(readings: &[IvReading], today: NaiveDate) -> Result<IvStanding, IvHidden> {
    let Some(&current) = readings.last().filter(|r| r.date == today) else {
        return Err(IvHidden::NoCurrentReading(today));
    };
    if readings.len() < MIN_SESSIONS {
        return Err(IvHidden::TooFewSessions { recorded: readings.len(), needed: MIN_SESSIONS });
    }
    let high = *readings.iter().max_by(|a, b| a.iv.total_cmp(&b.iv).then(b.date.cmp(&a.date))).unwrap_or(&current);
    let low = *readings.iter().min_by(|a, b| a.iv.total_cmp(&b.iv).then(a.date.cmp(&b.date))).unwrap_or(&current);
    let rank = if high.iv > low.iv { (current.iv - low.iv) / (high.iv - low.iv) } else { 0.5 };
    let prior = &readings[..readings.len() - 1];
    let below = prior.iter().filter(|r| r.iv < current.iv).count();
    let percentile = below as f64 / prior.len() as f64;
    Ok(IvStanding { current, rank, percentile, high, low, sessions: readings.len() })
}

#[cfg(test)]
mod tests {
    use chrono::Days;

    use super::*;

    fn days(n: usize) -> Vec<NaiveDate> {
        let start = NaiveDate::from_ymd_opt(2025, 1, 1).expect("a date");
        (0..n).map(|i| start + Days::new(i as u64)).collect()
    }

    #[test]
    fn rank_and_percentile_by_hand() {
        let sessions = days(253);
        // 252 prior readings 0.20, 0.21, …; today 0.30.
        let mut readings: Vec<IvReading> =
            sessions[..252].iter().enumerate().map(|(i, d)| IvReading { date: *d, iv: 0.20 + 0.001 * i as f64 }).collect();
        readings.push(IvReading { date: sessions[252], iv: 0.30 });
        let lookback = lookback(&sessions, &readings).expect("a lookback");
        let s = lookback.standing.expect("shown");
        // Low 0.20 on day 0, high 0.451 on day 251.
        assert_eq!((s.low.date, s.high.date), (sessions[0], sessions[251]));
        assert!((s.rank - (0.30 - 0.20) / (0.451 - 0.20)).abs() < 1e-12);
        // 0.200…0.299 are below 0.30: 100 of 252 (0.300 itself is not strictly below).
        assert!((s.percentile - 100.0 / 252.0).abs() < 1e-12, "{}", s.percentile);
        assert_eq!((s.sessions, lookback.missing.len()), (253, 0));
    }

    #[test]
    fn missing_sessions_are_reported_not_filled_and_short_histories_hidden() {
        let sessions = days(300);
        let readings: Vec<IvReading> = sessions
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 != 0)
            .map(|(i, d)| IvReading { date: *d, iv: 0.2 + 0.0001 * i as f64 })
            .collect();
        let lookback = lookback(&sessions, &readings).expect("a lookback");
        assert_eq!(lookback.from, sessions[300 - 253]);
        assert_eq!(lookback.missing.len() + lookback.readings.len(), 253);
        assert!(lookback.missing.iter().all(|d| !readings.iter().any(|r| r.date == *d)));
        // Sessions 47–299; every fourth (48, 52, …, 296) has no reading: 63 missing, 190 recorded.
        assert_eq!(lookback.missing.len(), 63);
        assert_eq!(lookback.standing, Err(IvHidden::TooFewSessions { recorded: 190, needed: MIN_SESSIONS }));
        let without_today: Vec<IvReading> = readings.iter().filter(|r| r.date != sessions[299]).copied().collect();
        assert_eq!(lookback_of(&sessions, &without_today), Err(IvHidden::NoCurrentReading(sessions[299])));
    }

    fn lookback_of(sessions: &[NaiveDate], readings: &[IvReading]) -> Result<IvStanding, IvHidden> {
        lookback(sessions, readings).expect("a lookback").standing
    }

    #[test]
    fn a_flat_history_ranks_in_the_middle_and_bounds_hold() {
        let sessions = days(253);
        let flat: Vec<IvReading> = sessions.iter().map(|d| IvReading { date: *d, iv: 0.25 }).collect();
        let s = lookback_of(&sessions, &flat).expect("shown");
        assert_eq!((s.rank, s.percentile), (0.5, 0.0));
        // Today the year's high: rank 1, percentile 1.
        let mut rising = flat.clone();
        rising.last_mut().expect("today").iv = 0.5;
        let s = lookback_of(&sessions, &rising).expect("shown");
        assert_eq!((s.rank, s.percentile), (1.0, 1.0));
        assert!(lookback(&[], &flat).is_none());
    }
}
