//! The analyser measured on the committed labelled set (`data/headlines.tsv`).
//!
//! `cargo test -p strikeline-sentiment -- --nocapture evaluation` prints the figures that
//! docs/sentiment.md reports. The thresholds sit a little under the measured figures (DEV
//! 0.987 accuracy; TEST 0.948 accuracy, 0.947 macro-F1), well above the 0.70 / 0.65 floor
//! the analyser was specified against, so a change that makes it worse fails here. The set
//! was written by the same project as the lexicon, so these figures are optimistic; see
//! docs/sentiment.md.

use strikeline_sentiment::{Sentiment, dev_split, evaluate, labelled_set, test_split};

#[test]
fn evaluation_labelled_set_is_large_and_covers_every_class() {
    let all = labelled_set();
    assert!(all.len() >= 200, "{} rows", all.len());
    for class in Sentiment::ALL {
        let count = all.iter().filter(|(label, _)| *label == class).count();
        println!("{class}: {count} rows");
        assert!(count >= all.len() / 5, "{class}: only {count} rows");
    }
    assert!(test_split().len() >= 50);
}

#[test]
fn evaluation_dev_split() {
    let report = evaluate(&dev_split());
    println!("DEV\n{report}");
    assert!(report.accuracy >= 0.96, "DEV accuracy {:.3}", report.accuracy);
}

#[test]
fn evaluation_test_split() {
    let report = evaluate(&test_split());
    println!("TEST\n{report}");
    for class in Sentiment::ALL {
        assert!(report.classes[class.index()].support > 0, "no {class} rows in TEST");
    }
    assert!(report.accuracy >= 0.92, "TEST accuracy {:.3}", report.accuracy);
    assert!(report.macro_f1 >= 0.92, "TEST macro-F1 {:.3}", report.macro_f1);
}

/// `data/fresh.tsv`: 60 headlines written and labelled after the lexicon was frozen, in
/// different wording, never used for tuning. The closest thing here to unseen text: its figure
/// (0.867 accuracy when frozen) is the one to quote, not TEST's.
#[test]
fn evaluation_fresh_set_written_after_the_lexicon_was_frozen() {
    let rows: Vec<(Sentiment, &str)> = include_str!("../data/fresh.tsv")
        .lines()
        .skip(1)
        .filter_map(|line| {
            let (label, headline) = line.split_once('\t')?;
            Some((label.parse().ok()?, headline.trim()))
        })
        .collect();
    assert_eq!(rows.len(), 60);
    let report = evaluate(&rows);
    println!("FRESH\n{report}");
    assert!(report.accuracy >= 0.83, "FRESH accuracy {:.3}", report.accuracy);
}
