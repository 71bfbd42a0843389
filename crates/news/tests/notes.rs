//! `market_notes` on synthetic daily bars.

use chrono::{Days, NaiveDate};
use strikeline_news::{Bar, NoteKind, market_notes};

/// `n` calm sessions: closes cycle 100, 101, 102, 101 (moves of about 1%), a steady 1,000,000
/// shares a day; the last close is 101.
fn calm(n: usize) -> Vec<Bar> {
    let start = NaiveDate::from_ymd_opt(2025, 1, 2).expect("date");
    (0..n)
        .map(|i| {
            let close = [101.0, 102.0, 101.0, 100.0][(n - 1 - i) % 4];
            Bar { date: start + Days::new(i as u64), high: close + 0.5, low: close - 0.5, close, volume: 1_000_000.0 }
        })
        .collect()
}

fn push(bars: &mut Vec<Bar>, close: f64, volume: f64) {
    let last = bars.last().copied().expect("a bar");
    bars.push(Bar { date: last.date + Days::new(1), high: close, low: close, close, volume });
}

fn kinds(bars: &[Bar]) -> Vec<NoteKind> {
    market_notes("AAPL", "Apple", bars).iter().map(|n| n.kind).collect()
}

#[test]
fn a_quiet_series_gives_no_notes() {
    assert_eq!(kinds(&calm(300)), []);
    assert_eq!(calm(300).last().map(|b| b.close), Some(101.0));
}

#[test]
fn a_six_percent_day_after_calm_is_a_large_move() {
    let mut bars = calm(100);
    push(&mut bars, 107.06, 1_000_000.0);
    let notes = market_notes("AAPL", "Apple", &bars);
    assert_eq!(notes.len(), 1, "{notes:#?}");
    let note = &notes[0];
    assert_eq!(note.kind, NoteKind::LargeMove);
    assert_eq!(note.date, bars[100].date);
    assert!((note.change_percent - 6.0).abs() < 1e-9, "{}", note.change_percent);
    assert_eq!(note.title, "Apple (AAPL) jumps 6.0%, its largest move in 100 sessions");
    let date = bars[100].date;
    assert_eq!(
        note.summary,
        format!(
            "AAPL closed at $107.06 on {date}, up 6.0% from $101.00. That is 6.0 times its typical daily move \
             (standard deviation 1.0% over the previous 60 sessions). Computed by Strikeline from daily closing prices; \
             not a news report."
        )
    );
}

#[test]
fn a_six_percent_fall_is_a_large_move_down() {
    let mut bars = calm(100);
    push(&mut bars, 94.94, 1_000_000.0);
    let notes = market_notes("AAPL", "Apple", &bars);
    assert_eq!(notes.iter().map(|n| n.kind).collect::<Vec<_>>(), [NoteKind::LargeMove]);
    assert!(notes[0].title.starts_with("Apple (AAPL) falls 6.0%"), "{}", notes[0].title);
    assert!(notes[0].summary.contains("down 6.0% from $101.00"), "{}", notes[0].summary);
    assert!(notes[0].change_percent < -5.9);
}

#[test]
fn a_move_under_three_percent_is_not_large_even_if_unusual() {
    // A series whose daily changes are about 0.1%, then +2.9%.
    let start = NaiveDate::from_ymd_opt(2025, 1, 2).expect("date");
    let mut bars: Vec<Bar> = (0..100)
        .map(|i| {
            let close = if i % 2 == 0 { 100.0 } else { 100.1 };
            Bar { date: start + Days::new(i), high: close, low: close, close, volume: 1_000.0 }
        })
        .collect();
    push(&mut bars, 100.1 * 1.029, 1_000.0);
    assert_eq!(kinds(&bars), []);
}

#[test]
fn triple_volume_is_a_spike() {
    let mut bars = calm(30);
    push(&mut bars, 101.0, 3_000_000.0);
    let notes = market_notes("AAPL", "Apple", &bars);
    assert_eq!(notes.iter().map(|n| n.kind).collect::<Vec<_>>(), [NoteKind::VolumeSpike]);
    assert_eq!(notes[0].title, "Apple (AAPL) volume 3.0× its 20-day average");
    let date = bars[30].date;
    assert_eq!(
        notes[0].summary,
        format!(
            "AAPL traded 3,000,000 shares on {date}, 3.0 times its average of 1,000,000 over the previous 20 sessions. \
             It closed at $101.00, up 0.0% from $101.00. Computed by Strikeline from daily volumes and closing prices; not a news report."
        )
    );
    let mut twice = calm(30);
    push(&mut twice, 101.0, 2_000_000.0);
    assert_eq!(kinds(&twice), []);
}

#[test]
fn a_new_max_close_is_a_52_week_high_and_a_new_min_a_low() {
    let mut high = calm(300);
    push(&mut high, 102.5, 1_000_000.0);
    let notes = market_notes("AAPL", "Apple", &high);
    assert_eq!(notes.iter().map(|n| n.kind).collect::<Vec<_>>(), [NoteKind::High52Week]);
    assert_eq!(notes[0].title, "Apple (AAPL) closes at a 52-week high");
    assert!(notes[0].summary.contains("closed at $102.50"), "{}", notes[0].summary);
    assert!(
        notes[0].summary.contains("above every close of the previous 251 sessions; the previous high was $102.00 on "),
        "{}",
        notes[0].summary
    );

    let mut low = calm(300);
    push(&mut low, 99.5, 1_000_000.0);
    let notes = market_notes("AAPL", "Apple", &low);
    assert_eq!(notes.iter().map(|n| n.kind).collect::<Vec<_>>(), [NoteKind::Low52Week]);
    assert_eq!(notes[0].title, "Apple (AAPL) closes at a 52-week low");
    assert!(
        notes[0].summary.contains("below every close of the previous 251 sessions; the previous low was $100.00"),
        "{}",
        notes[0].summary
    );

    // With 150 sessions of history the claim is limited to those sessions.
    let mut shorter = calm(150);
    push(&mut shorter, 102.5, 1_000_000.0);
    let notes = market_notes("AAPL", "Apple", &shorter);
    assert_eq!(notes.iter().map(|n| n.kind).collect::<Vec<_>>(), [NoteKind::High52Week]);
    assert_eq!(notes[0].title, "Apple (AAPL) closes at its highest in 150 sessions");
}

#[test]
fn several_notes_at_once_in_a_fixed_order() {
    let mut bars = calm(300);
    push(&mut bars, 110.0, 5_000_000.0);
    assert_eq!(kinds(&bars), [NoteKind::LargeMove, NoteKind::VolumeSpike, NoteKind::High52Week]);
}

#[test]
fn too_little_history_gives_nothing() {
    assert_eq!(kinds(&[]), []);
    assert_eq!(kinds(&calm(1)), []);
    let mut short = calm(10);
    push(&mut short, 150.0, 50_000_000.0);
    assert_eq!(kinds(&short), []);
    let mut under_year_minimum = calm(100);
    push(&mut under_year_minimum, 102.5, 1_000_000.0);
    assert_eq!(kinds(&under_year_minimum), [], "a new high over 100 sessions is not claimed");
}

#[test]
fn bad_prices_give_nothing_rather_than_nonsense() {
    let mut bars = calm(300);
    bars[200].close = f64::NAN;
    push(&mut bars, 110.0, 1_000_000.0);
    assert_eq!(kinds(&bars), []);
    let mut zero = calm(300);
    push(&mut zero, 0.0, 5_000_000.0);
    assert_eq!(kinds(&zero), []);
}

#[test]
fn no_company_name_uses_the_symbol() {
    let mut bars = calm(30);
    push(&mut bars, 101.0, 3_000_000.0);
    assert_eq!(market_notes("AAPL", " ", &bars)[0].title, "AAPL volume 3.0× its 20-day average");
}
