//! Market notes: short, sourced statements computed from daily bars, never news reports.

use chrono::NaiveDate;

/// A daily bar as the notes need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// The session's date.
    pub date: NaiveDate,
    /// The session's high.
    pub high: f64,
    /// The session's low.
    pub low: f64,
    /// The closing price.
    pub close: f64,
    /// Shares traded.
    pub volume: f64,
}

/// What a [`MarketNote`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A close-to-close change well beyond the usual daily move.
    LargeMove,
    /// Volume well above the recent average.
    VolumeSpike,
    /// A close above every close of the previous year (or of the history there is).
    High52Week,
    /// A close below every close of the previous year (or of the history there is).
    Low52Week,
}

/// A statement about one session, computed from the bars alone; its summary says how.
#[derive(Clone, Debug, PartialEq)]
pub struct MarketNote {
    /// What it is about.
    pub kind: NoteKind,
    /// The session it is about.
    pub date: NaiveDate,
    /// A headline, such as "Apple (AAPL) jumps 4.8%, its largest move in 87 sessions".
    pub title: String,
    /// What was computed from what, with the numbers.
    pub summary: String,
    /// The session's close-to-close change, in percent.
    pub change_percent: f64,
}

/// Daily changes a large move is measured against.
const MOVE_WINDOW: usize = 60;
/// How many standard deviations make a move large.
const MOVE_SIGMAS: f64 = 2.5;
/// The smallest change that counts as a large move.
const MOVE_MIN: f64 = 0.03;
/// Sessions whose average volume a spike is measured against.
const VOLUME_WINDOW: usize = 20;
/// How many times the average volume makes a spike.
const VOLUME_TIMES: f64 = 2.5;
/// Sessions in a year, before the session itself.
const YEAR_WINDOW: usize = 251;
/// The least history a high or low is claimed over.
const YEAR_MIN: usize = 120;
/// A large move's title calls it the largest in N sessions only from this many on.
const LARGEST_MIN: usize = 10;

const PRICE_SOURCE: &str = "Computed by Strikeline from daily closing prices; not a news report.";
const VOLUME_SOURCE: &str = "Computed by Strikeline from daily volumes and closing prices; not a news report.";

/// Notes about the last bar of `bars` (oldest first), computed from the bars alone:
///
/// - [`NoteKind::LargeMove`]: the close-to-close change is beyond 2.5 standard deviations of
///   the previous 60 daily changes, and at least 3%;
/// - [`NoteKind::VolumeSpike`]: volume at least 2.5 times the previous 20 sessions' average;
/// - [`NoteKind::High52Week`] / [`NoteKind::Low52Week`]: a close above (below) every close of
///   the previous 251 sessions, or of all previous sessions when there are at least 120.
///
/// Each summary says what it was computed from, with the numbers; money has two decimals. A
/// note that lacks history (or meets a non-finite or non-positive price in it) is left out, so
/// a short series gives nothing.
pub fn market_notes(symbol: &str, company: &str, bars: &[Bar]) -> Vec<MarketNote> {
    let Some((last, earlier)) = bars.split_last() else {
        return Vec::new();
    };
    let Some(previous) = earlier.last() else {
        return Vec::new();
    };
    if !valid_price(last.close) || !valid_price(previous.close) {
        return Vec::new();
    }
    let day = Day {
        symbol,
        name: if company.trim().is_empty() { symbol.to_string() } else { format!("{} ({symbol})", company.trim()) },
        last,
        previous,
        change: last.close / previous.close - 1.0,
    };
    [large_move(&day, bars), volume_spike(&day, earlier), year_extreme(&day, earlier)].into_iter().flatten().collect()
}

/// The session the notes are about.
struct Day<'a> {
    symbol: &'a str,
    /// "Apple (AAPL)", or the symbol alone.
    name: String,
    last: &'a Bar,
    previous: &'a Bar,
    /// Close-to-close, as a fraction.
    change: f64,
}

impl Day<'_> {
    fn note(&self, kind: NoteKind, title: String, summary: String) -> MarketNote {
        MarketNote { kind, date: self.last.date, title, summary, change_percent: self.change * 100.0 }
    }

    /// "AAPL closed at $191.24 on 2026-11-24, up 4.8% from $182.49."
    fn close_sentence(&self) -> String {
        format!(
            "{} closed at {} on {}, {} {:.1}% from {}.",
            self.symbol,
            money(self.last.close),
            self.last.date,
            if self.change >= 0.0 { "up" } else { "down" },
            self.change.abs() * 100.0,
            money(self.previous.close),
        )
    }
}

fn large_move(day: &Day<'_>, bars: &[Bar]) -> Option<MarketNote> {
    // Today's change and the 60 before it need 62 closes.
    if bars.len() < MOVE_WINDOW + 2 || day.change.abs() < MOVE_MIN {
        return None;
    }
    let changes = daily_changes(bars)?;
    let (today, before) = changes.split_last()?;
    let window = &before[before.len() - MOVE_WINDOW..];
    let sigma = standard_deviation(window);
    if today.abs() <= MOVE_SIGMAS * sigma {
        return None;
    }
    let sessions = before.iter().rev().take_while(|c| c.abs() < today.abs()).count() + 1;
    let verb = if *today > 0.0 { "jumps" } else { "falls" };
    let mut title = format!("{} {verb} {:.1}%", day.name, today.abs() * 100.0);
    if sessions >= LARGEST_MIN {
        title.push_str(&format!(", its largest move in {sessions} sessions"));
    }
    let typical = if sigma > 0.0 {
        format!(
            "That is {:.1} times its typical daily move (standard deviation {:.1}% over the previous {MOVE_WINDOW} sessions).",
            today.abs() / sigma,
            sigma * 100.0
        )
    } else {
        format!("Its close had not changed in the previous {MOVE_WINDOW} sessions.")
    };
    let summary = format!("{} {typical} {PRICE_SOURCE}", day.close_sentence());
    Some(day.note(NoteKind::LargeMove, title, summary))
}

fn volume_spike(day: &Day<'_>, earlier: &[Bar]) -> Option<MarketNote> {
    if earlier.len() < VOLUME_WINDOW || !day.last.volume.is_finite() {
        return None;
    }
    let window = &earlier[earlier.len() - VOLUME_WINDOW..];
    if window.iter().any(|b| !b.volume.is_finite() || b.volume < 0.0) {
        return None;
    }
    let average = window.iter().map(|b| b.volume).sum::<f64>() / VOLUME_WINDOW as f64;
    if average <= 0.0 || day.last.volume < VOLUME_TIMES * average {
        return None;
    }
    let times = day.last.volume / average;
    let title = format!("{} volume {times:.1}× its {VOLUME_WINDOW}-day average", day.name);
    let summary = format!(
        "{} traded {} shares on {}, {times:.1} times its average of {} over the previous {VOLUME_WINDOW} sessions. It closed at {}, {} {:.1}% from {}. {VOLUME_SOURCE}",
        day.symbol,
        count(day.last.volume),
        day.last.date,
        count(average),
        money(day.last.close),
        if day.change >= 0.0 { "up" } else { "down" },
        day.change.abs() * 100.0,
        money(day.previous.close),
    );
    Some(day.note(NoteKind::VolumeSpike, title, summary))
}

fn year_extreme(day: &Day<'_>, earlier: &[Bar]) -> Option<MarketNote> {
    if earlier.len() < YEAR_MIN {
        return None;
    }
    let window = &earlier[earlier.len().saturating_sub(YEAR_WINDOW)..];
    if window.iter().any(|b| !valid_price(b.close)) {
        return None;
    }
    let highest = window.iter().rev().max_by(|a, b| a.close.total_cmp(&b.close))?;
    let lowest = window.iter().rev().min_by(|a, b| a.close.total_cmp(&b.close))?;
    let close = day.last.close;
    let (kind, extreme, word, comparison) = if close > highest.close {
        (NoteKind::High52Week, highest, "high", "above")
    } else if close < lowest.close {
        (NoteKind::Low52Week, lowest, "low", "below")
    } else {
        return None;
    };
    let sessions = window.len();
    let title = if sessions >= YEAR_WINDOW {
        format!("{} closes at a 52-week {word}", day.name)
    } else {
        let superlative = if word == "high" { "highest" } else { "lowest" };
        format!("{} closes at its {superlative} in {sessions} sessions", day.name)
    };
    let summary = format!(
        "{} That is {comparison} every close of the previous {sessions} sessions; the previous {word} was {} on {}. {PRICE_SOURCE}",
        day.close_sentence(),
        money(extreme.close),
        extreme.date,
    );
    Some(day.note(kind, title, summary))
}

/// Close-to-close changes as fractions, or `None` if a close is not a positive number.
fn daily_changes(bars: &[Bar]) -> Option<Vec<f64>> {
    if bars.iter().any(|b| !valid_price(b.close)) {
        return None;
    }
    Some(bars.windows(2).map(|w| w[1].close / w[0].close - 1.0).collect())
}

/// Sample standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    variance.sqrt()
}

fn valid_price(price: f64) -> bool {
    price.is_finite() && price > 0.0
}

/// "$1,234.56".
fn money(amount: f64) -> String {
    let cents = format!("{amount:.2}");
    let (whole, fraction) = cents.split_once('.').unwrap_or((&cents, "00"));
    format!("${}.{fraction}", group_thousands(whole))
}

/// "12,345,678" (rounded to a whole number).
fn count(amount: f64) -> String {
    group_thousands(&format!("{:.0}", amount.max(0.0)))
}

fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(money(191.236), "$191.24");
        assert_eq!(money(1234567.5), "$1,234,567.50");
        assert_eq!(money(0.5), "$0.50");
        assert_eq!(count(12_345_678.4), "12,345,678");
        assert_eq!(count(999.0), "999");
    }
}
