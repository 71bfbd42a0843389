//! The three classes a headline can fall in, with their stable names.
//!
//! ```
//! use strikeline_sentiment::Sentiment;
//! assert_eq!("negative".parse::<Sentiment>(), Ok(Sentiment::Negative));
//! assert_eq!(Sentiment::Neutral.as_str(), "neutral");
//! assert!("bullish".parse::<Sentiment>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// The sentiment of a headline for the company's shareholders (or, for macro news, for the
/// equity market as a whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sentiment {
    /// Good news: likely to lift the share price.
    Positive,
    /// Bad news: likely to weigh on the share price.
    Negative,
    /// Scheduling, housekeeping, in-line results, or news whose direction is unclear.
    Neutral,
}

impl Sentiment {
    /// Every class, in the order used by [`crate::Report`]'s tables and confusion matrix.
    pub const ALL: [Self; 3] = [Self::Positive, Self::Negative, Self::Neutral];

    /// The stable lower-case name: `"positive"`, `"negative"` or `"neutral"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Positive => "positive",
            Self::Negative => "negative",
            Self::Neutral => "neutral",
        }
    }

    /// The position of this class in [`Sentiment::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Self::Positive => 0,
            Self::Negative => 1,
            Self::Neutral => 2,
        }
    }
}

impl fmt::Display for Sentiment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Sentiment`] from anything but its three names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSentimentError(String);

impl fmt::Display for ParseSentimentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown sentiment {:?}: expected positive, negative or neutral", self.0)
    }
}

impl std::error::Error for ParseSentimentError {}

impl FromStr for Sentiment {
    type Err = ParseSentimentError;

    /// Parses the names [`Sentiment::as_str`] returns, ignoring case and surrounding space.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim();
        Self::ALL.into_iter().find(|class| class.as_str().eq_ignore_ascii_case(name)).ok_or_else(|| ParseSentimentError(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for class in Sentiment::ALL {
            assert_eq!(class.as_str().parse::<Sentiment>(), Ok(class));
            assert_eq!(class.to_string(), class.as_str());
            assert_eq!(Sentiment::ALL[class.index()], class);
        }
        assert_eq!(" Positive ".parse::<Sentiment>(), Ok(Sentiment::Positive));
    }

    #[test]
    fn unknown_names_are_an_error_that_says_what_was_expected() {
        let err = "mixed".parse::<Sentiment>().unwrap_err();
        assert!(err.to_string().contains("\"mixed\""));
        assert!(err.to_string().contains("positive, negative or neutral"));
    }
}
