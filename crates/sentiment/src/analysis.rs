//! What [`crate::analyse`] returns: the label, a score, a confidence and the cues behind them.

use std::ops::Range;

use crate::Sentiment;

/// The sentiment of one headline, with the evidence for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The class: positive or negative when `score` is outside the neutral band
    /// ([`crate::NEUTRAL_BAND`]), neutral inside it.
    pub label: Sentiment,
    /// From −1 (clearly bad news) to 1 (clearly good news): `tanh` of the sum of the cue
    /// weights, scaled so that a single ordinary cue lands near ±0.4.
    pub score: f64,
    /// From 0 to 1: how far the score is from the band's edge, and how much the cues agree.
    /// Text with no words at all has confidence 0.
    pub confidence: f64,
    /// The words and phrases that moved the score, in the order they appear.
    pub cues: Vec<Cue>,
}

/// A word or phrase that moved the score, so a UI can highlight and explain the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Cue {
    /// The text as written in the input, e.g. `"beats estimates"` or `"12%"`.
    pub text: String,
    /// The byte range of `text` in the input.
    pub span: Range<usize>,
    /// The lexicon's weight for the cue before modifiers.
    pub base: f64,
    /// The signed contribution to the score's sum, after every modifier.
    pub weight: f64,
    /// What changed the weight from `base`, in the order it was applied.
    pub modifiers: Vec<Modifier>,
}

/// A reason a cue's weight differs from its lexicon weight.
#[derive(Debug, Clone, PartialEq)]
pub enum Modifier {
    /// A movement describing something whose rise is bad news ("yields", "costs",
    /// "losses"), so its sign was reversed: "yields fall" is good news.
    Inverted {
        /// The subject, as written.
        by: String,
    },
    /// Flipped and damped by a negation: "fails to", "not", "avoids", "no longer".
    Negated {
        /// The negation, as written.
        by: String,
        /// The multiplier applied (negative).
        factor: f64,
    },
    /// Multiplied by an intensifier ("sharply", "record"), a dampener ("slightly") or a
    /// word that makes it hypothetical ("seeks", "may").
    Scaled {
        /// The word, as written.
        by: String,
        /// The multiplier applied.
        factor: f64,
    },
    /// Damped by a neutral marker in its clause ("unchanged", "ahead of", "in line") or by
    /// a concessive clause ("despite …").
    Hedged {
        /// The marker(s), as written.
        by: String,
        /// The multiplier applied.
        factor: f64,
    },
    /// A percentage, signed by the movement it measures ("falls 12%").
    DirectionOf {
        /// The movement, as written.
        by: String,
    },
}
