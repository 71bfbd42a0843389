//! Strikeline's headline sentiment: a pure, offline, explainable analyser of financial
//! news headlines, and the labelled set it is measured on. No I/O, no clock, no
//! dependencies beyond `std`.
//!
//! - [`analyse`] reads one headline and returns an [`Analysis`]: a [`Sentiment`] label, a
//!   score in −1..1, a confidence in 0..1 and the [`Cue`]s (words and phrases with their
//!   signed weights and what modified them) that produced it, so a UI can explain the result.
//! - [`evaluate`] measures it on labelled headlines ([`Report`]: accuracy, macro-F1,
//!   per-class precision/recall/F1, confusion matrix).
//! - [`labelled_set`], [`dev_split`] and [`test_split`] give the committed set,
//!   `data/headlines.tsv`.
//!
//! How it works: a tokeniser (`tokens.rs`) keeps percentages and tickers
//! and splits hyphenated compounds; capitalised runs are recognised as company names and
//! kept out of the lexicon (`names.rs`); a finance lexicon of weighted words
//! and phrases (`lexicon.rs`) is matched longest-first; then a handful of
//! rules (`score.rs`) relate the matches: negation, inverse subjects ("yields
//! fall" is good news), intensifiers and dampeners, signed percentages and neutral markers.
//!
//! ```
//! use strikeline_sentiment::{Sentiment, analyse};
//! let a = analyse("Polaris Biosciences cancer drug fails to meet primary endpoint");
//! assert_eq!(a.label, Sentiment::Negative);
//! assert_eq!(a.cues[0].text, "meet primary endpoint"); // flipped by "fails to"
//! assert!(a.cues[0].weight < 0.0);
//!
//! assert_eq!(analyse("Stocks climb as 10-year yield falls to three-month low").label, Sentiment::Positive);
//! assert_eq!(analyse("Northwind Semiconductor to report earnings on Thursday").label, Sentiment::Neutral);
//! ```

mod analysis;
mod dataset;
mod eval;
mod lexicon;
mod names;
mod score;
mod sentiment;
mod tokens;

pub use analysis::{Analysis, Cue, Modifier};
pub use dataset::{dev_split, is_test_row, labelled_set, test_split};
pub use eval::{ClassMetrics, Report, evaluate};
pub use score::{MAX_INPUT_BYTES, NEUTRAL_BAND};
pub use sentiment::{ParseSentimentError, Sentiment};

/// Analyses the sentiment of one headline for the company's shareholders (for macro news,
/// for the equity market). Deterministic and infallible: empty or meaningless text is
/// neutral with confidence 0, and only the first [`MAX_INPUT_BYTES`] bytes are read.
///
/// ```
/// use strikeline_sentiment::{Sentiment, analyse};
/// let a = analyse("Solace Pharma avoids bankruptcy after lenders agree to extend debt");
/// assert_eq!(a.label, Sentiment::Positive);
/// assert!(a.score > 0.0 && a.confidence > 0.5);
/// ```
#[must_use]
pub fn analyse(text: &str) -> Analysis {
    score::analyse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str) -> Sentiment {
        analyse(text).label
    }

    fn score(text: &str) -> f64 {
        analyse(text).score
    }

    #[test]
    fn negation_flips_the_cue_it_governs() {
        assert_eq!(label("Northwind beats estimates"), Sentiment::Positive);
        assert_eq!(label("Northwind fails to beat estimates"), Sentiment::Negative);
        assert_eq!(label("Solace Pharma avoids bankruptcy"), Sentiment::Positive);
        assert_eq!(label("Solace Pharma files for bankruptcy"), Sentiment::Negative);
        assert_eq!(label("Harbor Point no longer expects a dividend cut"), Sentiment::Positive);
        assert_eq!(label("Budget deal averts government shutdown"), Sentiment::Positive);
        assert_eq!(label("Kestrel Motors not expected to turn a profit until 2027"), Sentiment::Negative);
        assert_eq!(label("Wexford Pharma doesn't expect delisting"), Sentiment::Positive);
    }

    #[test]
    fn negation_dampens_as_well_as_flips() {
        let plain = score("Northwind misses estimates");
        let negated = score("Northwind never misses estimates");
        assert!(negated > 0.0 && negated < -plain, "{plain} {negated}");
    }

    #[test]
    fn negation_does_not_reach_across_a_clause() {
        // "not" belongs to the first clause; "plunge" stays bad news.
        assert_eq!(label("Northwind did not comment, shares plunge 20%"), Sentiment::Negative);
    }

    #[test]
    fn intensifiers_raise_and_dampeners_lower_the_score() {
        let plain = score("Northwind shares fall");
        let sharp = score("Northwind shares fall sharply");
        let slight = score("Northwind shares fall slightly");
        assert!(sharp < plain && plain < slight && slight < 0.0, "{sharp} {plain} {slight}");
        assert!(score("Lumen Grove reports record revenue growth") > score("Lumen Grove reports revenue growth"));
        let up = score("Atlas Freight shares soar");
        assert!(up > score("Atlas Freight shares rise"));
    }

    #[test]
    fn larger_percentages_weigh_more_and_take_the_sign_of_the_move() {
        let small = score("Cinder Labs stock falls 2%");
        let large = score("Cinder Labs stock falls 25%");
        assert!(large < small && small < 0.0, "{small} {large}");
        assert!(score("Cinder Labs up 8%") > score("Cinder Labs up"));
        assert_eq!(label("Cinder Labs shares -12% premarket"), Sentiment::Negative);
        assert_eq!(label("Cinder Labs shares +12% premarket"), Sentiment::Positive);
    }

    #[test]
    fn inverse_subjects_reverse_movements() {
        assert_eq!(label("Treasury yields fall as inflation cools"), Sentiment::Positive);
        assert_eq!(label("Treasury yields jump to 16-year high"), Sentiment::Negative);
        assert_eq!(label("Cobalt Ridge cuts debt by half"), Sentiment::Positive);
        assert_eq!(label("Tidewater posts wider-than-expected loss"), Sentiment::Negative);
    }

    #[test]
    fn scheduling_and_housekeeping_headlines_are_neutral() {
        for text in [
            "Northwind Semiconductor to report earnings on Thursday",
            "Halvorsen Therapeutics shares unchanged ahead of FDA decision",
            "Atlas Freight schedules third-quarter earnings call for Oct. 24",
            "Pinecrest Retail names new chief financial officer",
            "Stocks little changed ahead of Fed decision",
            "Granite Peak Mining results in line with estimates",
        ] {
            let a = analyse(text);
            assert_eq!(a.label, Sentiment::Neutral, "{text}: {a:?}");
            assert!(a.confidence >= 0.5, "{text}: {a:?}");
        }
    }

    #[test]
    fn cues_explain_the_result() {
        let text = "Evergreen Devices misses estimates, shares fall sharply";
        let a = analyse(text);
        assert_eq!(a.label, Sentiment::Negative);
        let shown: Vec<&str> = a.cues.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(shown, ["misses", "fall"]);
        for cue in &a.cues {
            assert_eq!(&text[cue.span.clone()], cue.text);
            assert!(cue.weight < 0.0);
        }
        assert_eq!(a.cues[1].modifiers, [Modifier::Scaled { by: "sharply".into(), factor: 1.5 }]);
        let sum: f64 = a.cues.iter().map(|c| c.weight).sum();
        assert!((a.score - (sum / 2.0).tanh()).abs() < 1e-12);

        let a = analyse("Nasdaq rebounds as Treasury yields retreat");
        let retreat = a.cues.iter().find(|c| c.text == "retreat").unwrap();
        assert!(retreat.base < 0.0 && retreat.weight > 0.0);
        assert_eq!(retreat.modifiers, [Modifier::Inverted { by: "yields".into() }]);
    }

    #[test]
    fn company_names_are_not_read_as_sentiment() {
        assert_eq!(label("Advance Auto Parts names new finance chief"), Sentiment::Neutral);
        assert_eq!(label("Summit Gains Capital to report results on Friday"), Sentiment::Neutral);
    }

    #[test]
    fn scores_and_confidences_stay_in_range() {
        for (_, text) in labelled_set() {
            let a = analyse(text);
            assert!((-1.0..=1.0).contains(&a.score), "{text}");
            assert!((0.0..=1.0).contains(&a.confidence), "{text}");
            assert_eq!(a.label == Sentiment::Neutral, a.score.abs() < NEUTRAL_BAND, "{text}");
        }
        let strong = analyse("Atlas Freight soars 30% after record profit, beats estimates and raises outlook");
        assert!(strong.confidence > analyse("Atlas Freight edges higher").confidence);
    }

    #[test]
    fn empty_garbage_long_and_unicode_input_is_neutral_and_never_panics() {
        let long_garbage = "qzx vwt plok ".repeat(10_000);
        let long_unicode = "日本株 ß∂ƒ 📈📉 — ".repeat(5_000);
        for text in [
            "",
            "   \t\n",
            "!!!???",
            "%%% $$$ +-+- 12,,,3...",
            "asdf qwer zxcv",
            "'n't ’ — – -",
            "\u{0}\u{202e}\u{feff}",
            "日本株は横ばい",
            long_garbage.as_str(),
            long_unicode.as_str(),
        ] {
            let a = analyse(text);
            assert_eq!(a.label, Sentiment::Neutral, "{:?}", text.get(..40));
            assert!(a.cues.is_empty());
        }
        assert_eq!(analyse("").confidence, 0.0);
        // Long text is capped but still analysed: a bad headline followed by noise.
        let long = format!("Atlas Freight plunges 20% {}", "zz ".repeat(100_000));
        assert_eq!(label(&long), Sentiment::Negative);
        // A multi-byte character across the cap does not split.
        let edge = format!("{}é{}", "a".repeat(MAX_INPUT_BYTES - 1), "b".repeat(10));
        let _ = analyse(&edge);
    }

    #[test]
    fn it_is_deterministic() {
        let text = "Stocks rally as cooler-than-expected CPI fuels rate-cut hopes";
        assert_eq!(analyse(text), analyse(text));
    }
}
