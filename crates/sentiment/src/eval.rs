//! Measuring the analyser against labelled headlines: accuracy, macro-F1, per-class
//! precision/recall/F1 and the confusion matrix.
//!
//! ```
//! use strikeline_sentiment::{Sentiment, evaluate};
//! let report = evaluate(&[
//!     (Sentiment::Positive, "Northwind beats estimates and raises outlook"),
//!     (Sentiment::Negative, "Northwind misses estimates and cuts outlook"),
//!     (Sentiment::Neutral, "Northwind to report earnings on Thursday"),
//! ]);
//! assert_eq!(report.n, 3);
//! assert_eq!(report.accuracy, 1.0);
//! println!("{report}"); // Markdown tables
//! ```

use std::fmt;

use crate::{Sentiment, analyse};

/// Precision, recall and F1 of one class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassMetrics {
    /// The class.
    pub class: Sentiment,
    /// Of the headlines predicted as this class, the share that are (0 when none are predicted).
    pub precision: f64,
    /// Of the headlines labelled as this class, the share predicted so (0 when none are labelled).
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
    /// How many headlines carry this label.
    pub support: usize,
}

/// The analyser's results on a labelled set.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Number of headlines evaluated.
    pub n: usize,
    /// Share of headlines whose predicted label equals the given one (0 for an empty set).
    pub accuracy: f64,
    /// Unweighted mean of the three classes' F1.
    pub macro_f1: f64,
    /// Per-class metrics, in [`Sentiment::ALL`] order.
    pub classes: [ClassMetrics; 3],
    /// `confusion[actual][predicted]`, indexed by [`Sentiment::index`].
    pub confusion: [[usize; 3]; 3],
}

fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 { 0.0 } else { numerator as f64 / denominator as f64 }
}

/// Runs [`analyse`] on every headline and compares its label with the given one.
#[must_use]
pub fn evaluate(rows: &[(Sentiment, &str)]) -> Report {
    let mut confusion = [[0usize; 3]; 3];
    for &(actual, text) in rows {
        confusion[actual.index()][analyse(text).label.index()] += 1;
    }
    let correct: usize = (0..3).map(|i| confusion[i][i]).sum();
    let classes = Sentiment::ALL.map(|class| {
        let c = class.index();
        let predicted: usize = (0..3).map(|a| confusion[a][c]).sum();
        let support: usize = confusion[c].iter().sum();
        let precision = ratio(confusion[c][c], predicted);
        let recall = ratio(confusion[c][c], support);
        let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        ClassMetrics { class, precision, recall, f1, support }
    });
    let macro_f1 = classes.iter().map(|m| m.f1).sum::<f64>() / 3.0;
    Report { n: rows.len(), accuracy: ratio(correct, rows.len()), macro_f1, classes, confusion }
}

impl fmt::Display for Report {
    /// Markdown: a summary line, the per-class table and the confusion matrix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "n = {}, accuracy = {:.3}, macro-F1 = {:.3}", self.n, self.accuracy, self.macro_f1)?;
        writeln!(f)?;
        writeln!(f, "| class | precision | recall | F1 | support |")?;
        writeln!(f, "|---|---:|---:|---:|---:|")?;
        for m in &self.classes {
            writeln!(f, "| {} | {:.3} | {:.3} | {:.3} | {} |", m.class, m.precision, m.recall, m.f1, m.support)?;
        }
        writeln!(f)?;
        writeln!(f, "| actual \\ predicted | positive | negative | neutral |")?;
        writeln!(f, "|---|---:|---:|---:|")?;
        for class in Sentiment::ALL {
            let [p, n, u] = self.confusion[class.index()];
            writeln!(f, "| {class} | {p} | {n} | {u} |")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_set_scores_zero_without_dividing_by_zero() {
        let report = evaluate(&[]);
        assert_eq!(report.n, 0);
        assert_eq!(report.accuracy, 0.0);
        assert_eq!(report.macro_f1, 0.0);
        assert_eq!(report.confusion, [[0; 3]; 3]);
    }

    #[test]
    fn metrics_follow_the_confusion_matrix() {
        // Two positives (one called neutral), one neutral called neutral.
        let report = evaluate(&[
            (Sentiment::Positive, "Northwind beats estimates"),
            (Sentiment::Positive, "Northwind to report earnings on Thursday"),
            (Sentiment::Neutral, "Northwind names new chief financial officer"),
        ]);
        assert_eq!(report.confusion, [[1, 0, 1], [0, 0, 0], [0, 0, 1]]);
        let [pos, neg, neu] = report.classes;
        assert_eq!((pos.precision, pos.recall, pos.support), (1.0, 0.5, 2));
        assert!((pos.f1 - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!((neg.precision, neg.recall, neg.f1, neg.support), (0.0, 0.0, 0.0, 0));
        assert_eq!((neu.precision, neu.recall), (0.5, 1.0));
        assert!((report.accuracy - 2.0 / 3.0).abs() < 1e-12);
        assert!((report.macro_f1 - (2.0 / 3.0 + 0.0 + 2.0 / 3.0) / 3.0).abs() < 1e-12);
        let shown = report.to_string();
        assert!(shown.contains("| positive | 1 | 0 | 1 |"), "{shown}");
    }
}
