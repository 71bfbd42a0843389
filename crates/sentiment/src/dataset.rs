//! The committed labelled set, `data/headlines.tsv`, compiled into the crate.
//!
//! Tab-separated `label<TAB>headline` with a header line; labels are `positive`,
//! `negative` or `neutral`. The headlines were written and labelled by the project (the
//! companies are fictitious), so figures measured on them are indicative, not a benchmark
//! (see docs/sentiment.md).
//!
//! The split is fixed: row `i` (0-based, header excluded) is in the held-out TEST split
//! when `i % 4 == 3` and in DEV otherwise. Tune the lexicon on DEV only.

use crate::Sentiment;

const HEADLINES_TSV: &str = include_str!("../data/headlines.tsv");

/// Every row of the labelled set, in file order. Lines that do not parse (there are none in
/// the committed file; a test checks) are skipped.
#[must_use]
pub fn labelled_set() -> Vec<(Sentiment, &'static str)> {
    HEADLINES_TSV
        .lines()
        .skip(1)
        .filter_map(|line| {
            let (label, headline) = line.split_once('\t')?;
            let headline = headline.trim();
            (!headline.is_empty()).then_some(())?;
            Some((label.parse().ok()?, headline))
        })
        .collect()
}

/// Whether row `index` of [`labelled_set`] belongs to the TEST split.
#[must_use]
pub const fn is_test_row(index: usize) -> bool {
    index % 4 == 3
}

/// The DEV split: every row not in TEST (three in four).
#[must_use]
pub fn dev_split() -> Vec<(Sentiment, &'static str)> {
    split(false)
}

/// The held-out TEST split: rows 3, 7, 11, … (one in four).
#[must_use]
pub fn test_split() -> Vec<(Sentiment, &'static str)> {
    split(true)
}

fn split(test: bool) -> Vec<(Sentiment, &'static str)> {
    labelled_set().into_iter().enumerate().filter(|&(i, _)| is_test_row(i) == test).map(|(_, row)| row).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_file_parses() {
        let lines = HEADLINES_TSV.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!(HEADLINES_TSV.lines().next(), Some("label\theadline"));
        assert_eq!(labelled_set().len(), lines - 1);
    }

    #[test]
    fn the_splits_partition_the_set() {
        let (dev, test, all) = (dev_split(), test_split(), labelled_set());
        assert_eq!(dev.len() + test.len(), all.len());
        assert_eq!(test.first(), all.get(3));
        assert_eq!(test.get(1), all.get(7));
    }

    #[test]
    fn headlines_are_unique() {
        let all = labelled_set();
        let unique: std::collections::HashSet<&str> = all.iter().map(|(_, h)| *h).collect();
        assert_eq!(unique.len(), all.len());
    }
}
