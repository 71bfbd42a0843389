//! The bundled sample articles.

use std::collections::BTreeSet;

use strikeline_news::{Company, sample_articles, tag_symbols};

const WATCHLIST: &[(&str, &str)] = &[
    ("AAPL", "Apple Inc."),
    ("MSFT", "Microsoft Corporation"),
    ("NVDA", "NVIDIA Corporation"),
    ("AMZN", "Amazon.com, Inc."),
    ("TSLA", "Tesla, Inc."),
    ("GOOGL", "Alphabet Inc."),
    ("META", "Meta Platforms, Inc."),
    ("JPM", "JPMorgan Chase & Co."),
    ("XOM", "Exxon Mobil Corporation"),
    ("JNJ", "Johnson & Johnson"),
    ("AMD", "Advanced Micro Devices, Inc."),
    ("NFLX", "Netflix, Inc."),
    ("DIS", "The Walt Disney Company"),
    ("BA", "The Boeing Company"),
    ("WMT", "Walmart Inc."),
    ("KO", "The Coca-Cola Company"),
    ("PFE", "Pfizer Inc."),
    ("CAT", "Caterpillar Inc."),
];

#[test]
fn thirty_labelled_samples_covering_the_watchlist() {
    let articles = sample_articles();
    assert!(articles.len() >= 30, "{} samples", articles.len());
    let known: BTreeSet<&str> = WATCHLIST.iter().map(|(s, _)| *s).collect();
    let mut covered = BTreeSet::new();
    let mut titles = BTreeSet::new();
    for a in &articles {
        assert_eq!(a.source, "Strikeline sample", "{}", a.title);
        assert!((1..=96).contains(&a.hours_ago), "{}", a.title);
        assert!(!a.title.is_empty() && a.title.len() <= 120, "{}", a.title);
        let sentences = a.summary.matches(". ").count() + 1;
        assert!((2..=3).contains(&sentences) && a.summary.ends_with('.'), "{}", a.summary);
        assert!(titles.insert(a.title.as_str()), "duplicate {}", a.title);
        for s in &a.symbols {
            assert!(known.contains(s.as_str()), "unknown symbol {s} in {}", a.title);
            covered.insert(s.as_str());
        }
    }
    assert_eq!(covered, known, "every watchlist symbol has a sample");
    assert!(articles.iter().filter(|a| a.symbols.is_empty()).count() >= 3, "market-wide samples");
    assert!(articles.windows(2).all(|w| w[0].hours_ago <= w[1].hours_ago), "newest first");
    assert!(articles.iter().any(|a| a.hours_ago <= 2) && articles.iter().any(|a| a.hours_ago >= 90));
}

#[test]
fn the_tagger_finds_each_samples_symbols() {
    let companies: Vec<Company<'_>> = WATCHLIST.iter().map(|&(symbol, name)| Company { symbol, name }).collect();
    for a in sample_articles() {
        let tagged = tag_symbols(&format!("{} {}", a.title, a.summary), &companies);
        let mut tagged_sorted = tagged.clone();
        tagged_sorted.sort();
        let mut want = a.symbols.clone();
        want.sort();
        assert_eq!(tagged_sorted, want, "{}", a.title);
    }
}
