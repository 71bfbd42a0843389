//! From tokens to an [`Analysis`]: find the lexicon's entries, apply the rules that relate
//! them, add up the cues.
//!
//! The rules, in the order they apply:
//!
//! 1. **Clauses.** Punctuation and words such as "as", "after", "amid", "despite" split the
//!    headline into clauses; every rule below stays within one clause.
//! 2. **Inverse subjects.** A movement after a subject whose rise is bad news (anywhere
//!    earlier in the clause), or just before one ("cuts debt", "raising recession fears"),
//!    changes sign.
//! 3. **Negation.** A negator flips and damps (× −0.8) the cues that start within its
//!    window; a hypothetical ("seeks", "may") only damps them. A negator with nothing to act
//!    on may carry a weight of its own ("fails to" is bad news by itself).
//! 4. **Intensifiers and dampeners** multiply the nearest cue, within two tokens.
//! 5. **Percentages** take the sign of the movement just before them ("falls 12%"), or
//!    their own explicit sign (`-12%`), and weigh more the larger they are.
//! 6. **Neutral markers** ("unchanged", "in line", "ahead of") and concessive clauses damp
//!    the whole clause.
//!
//! The score is `tanh(sum / 2)`; the label is neutral inside [`NEUTRAL_BAND`].

use std::ops::Range;

use crate::analysis::{Analysis, Cue, Modifier};
use crate::lexicon::{Kind, Lexicon};
use crate::tokens::{Token, TokenKind, merge_percent_words, tokenize};
use crate::{Sentiment, names};

/// Scores with an absolute value below this are neutral.
pub const NEUTRAL_BAND: f64 = 0.2;

/// The sum of cue weights that maps to a score of `tanh(1)` ≈ 0.76.
const SCORE_SCALE: f64 = 2.0;

/// Only this many bytes of the input are read; headlines are far shorter, and the cap
/// keeps the cost of pathological input bounded.
pub const MAX_INPUT_BYTES: usize = 4096;

/// A percentage's weight: `PERCENT_BASE + |p| / PERCENT_DIVISOR`, at most `PERCENT_CAP`.
const PERCENT_BASE: f64 = 0.25;
const PERCENT_DIVISOR: f64 = 20.0;
const PERCENT_CAP: f64 = 1.25;

/// An entry of the lexicon (or a percentage) found at tokens `first..end`.
#[derive(Debug, Clone, Copy)]
struct Hit {
    kind: HitKind,
    first: usize,
    end: usize,
    clause: usize,
}

#[derive(Debug, Clone, Copy)]
enum HitKind {
    Lexicon(Kind),
    Percent { value: f64, explicit_sign: bool },
}

/// A cue under construction.
#[derive(Debug)]
struct Draft {
    first: usize,
    end: usize,
    clause: usize,
    base: f64,
    weight: f64,
    movement: bool,
    modifiers: Vec<Modifier>,
}

/// What damps a clause: the markers found in it and their combined factor.
#[derive(Debug)]
struct ClauseHedge {
    factor: f64,
    by: Vec<Range<usize>>,
}

impl Default for ClauseHedge {
    fn default() -> Self {
        Self { factor: 1.0, by: Vec::new() }
    }
}

/// The headline's tokens and the text they came from.
struct Source<'a> {
    text: &'a str,
    tokens: Vec<Token>,
}

impl Source<'_> {
    /// The input text of tokens `first..end`.
    fn span(&self, first: usize, end: usize) -> Range<usize> {
        let start = self.tokens.get(first).map_or(0, |t| t.span.start);
        let stop = end.checked_sub(1).and_then(|last| self.tokens.get(last)).map_or(start, |t| t.span.end);
        start..stop.max(start)
    }

    fn words(&self, first: usize, end: usize) -> String {
        self.text.get(self.span(first, end)).unwrap_or_default().to_owned()
    }
}

/// Cuts `text` to at most [`MAX_INPUT_BYTES`], on a character boundary.
fn capped(text: &str) -> &str {
    if text.len() <= MAX_INPUT_BYTES {
        return text;
    }
    let mut end = MAX_INPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Analyses one headline. See the [module documentation](self) for the rules.
pub(crate) fn analyse(text: &str) -> Analysis {
    let text = capped(text);
    let source = Source { text, tokens: merge_percent_words(tokenize(text)) };
    let masked = names::mask(&source.tokens);
    let (hits, hedges) = scan(&source.tokens, &masked);

    let mut drafts = seed(&hits);
    invert(&source, &hits, &mut drafts);
    negate(&source, &hits, &mut drafts);
    intensify(&source, &hits, &mut drafts);
    percentages(&source, &hits, &mut drafts);
    hedge(&source, &hedges, &mut drafts);

    drafts.retain(|d| d.weight.abs() > 1e-9);
    drafts.sort_by_key(|d| d.first);
    let cues: Vec<Cue> = drafts
        .into_iter()
        .map(|d| Cue {
            text: source.words(d.first, d.end),
            span: source.span(d.first, d.end),
            base: d.base,
            weight: d.weight,
            modifiers: d.modifiers,
        })
        .collect();
    let has_words = source.tokens.iter().any(|t| t.kind == TokenKind::Word);
    conclude(cues, has_words)
}

/// Finds the lexicon's entries and the clause boundaries.
fn scan(tokens: &[Token], masked: &[bool]) -> (Vec<Hit>, Vec<ClauseHedge>) {
    let lexicon = Lexicon::get();
    let mut hits = Vec::new();
    let mut clauses = vec![ClauseHedge::default()];
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        let clause = clauses.len() - 1;
        match token.kind {
            TokenKind::Punct => {
                clauses.push(ClauseHedge::default());
                i += 1;
                continue;
            }
            TokenKind::Percent { value, explicit_sign } => {
                let kind = HitKind::Percent { value, explicit_sign };
                hits.push(Hit { kind, first: i, end: i + 1, clause });
                i += 1;
                continue;
            }
            TokenKind::Ticker => {
                i += 1;
                continue;
            }
            TokenKind::Word | TokenKind::Number => {}
        }
        let usable = |j: usize| tokens[i + j].is_lexical() && !masked[i + j];
        let Some(found) = lexicon.longest_at(&tokens[i..], usable) else {
            i += 1;
            continue;
        };
        let (first, end) = (i, i + found.len);
        match found.kind {
            Kind::Boundary(factor) => {
                let mut next = ClauseHedge::default();
                if factor < 1.0 {
                    next.factor = factor;
                    next.by.push(first..end);
                }
                clauses.push(next);
            }
            Kind::Hedge(factor) => {
                if let Some(current) = clauses.last_mut() {
                    current.factor *= factor;
                    current.by.push(first..end);
                }
            }
            kind => hits.push(Hit { kind: HitKind::Lexicon(kind), first, end, clause }),
        }
        i = end;
    }
    (hits, clauses)
}

/// One draft per entry that carries sentiment by itself.
fn seed(hits: &[Hit]) -> Vec<Draft> {
    hits.iter()
        .filter_map(|hit| {
            let (weight, movement) = match hit.kind {
                HitKind::Lexicon(Kind::Polar(w) | Kind::Inverse(w)) => (w, false),
                HitKind::Lexicon(Kind::Move(w)) => (w, true),
                _ => return None,
            };
            (weight != 0.0).then(|| Draft {
                first: hit.first,
                end: hit.end,
                clause: hit.clause,
                base: weight,
                weight,
                movement,
                modifiers: Vec::new(),
            })
        })
        .collect()
}

fn is_inverse(hit: &Hit) -> bool {
    matches!(hit.kind, HitKind::Lexicon(Kind::Inverse(_)))
}

/// Rule 2: movements of inverse subjects change sign.
fn invert(source: &Source<'_>, hits: &[Hit], drafts: &mut [Draft]) {
    for draft in drafts.iter_mut().filter(|d| d.movement) {
        let subject_before =
            hits.iter().filter(|h| is_inverse(h) && h.clause == draft.clause && h.end <= draft.first).max_by_key(|h| h.end);
        let object_after =
            || hits.iter().find(|h| is_inverse(h) && h.clause == draft.clause && h.first >= draft.end && h.first - draft.end <= 2);
        if let Some(subject) = subject_before.or_else(object_after) {
            draft.weight = -draft.weight;
            draft.modifiers.push(Modifier::Inverted { by: source.words(subject.first, subject.end) });
        }
    }
}

/// Rule 3: negators flip (or, for hypotheticals, damp) the cues in their window.
fn negate(source: &Source<'_>, hits: &[Hit], drafts: &mut Vec<Draft>) {
    for hit in hits {
        let HitKind::Lexicon(Kind::Negator { window, factor, fallback }) = hit.kind else {
            continue;
        };
        let by = source.words(hit.first, hit.end);
        let mut acted = false;
        for draft in drafts.iter_mut().filter(|d| d.clause == hit.clause && d.first >= hit.end && d.first < hit.end + window) {
            draft.weight *= factor;
            draft.modifiers.push(if factor < 0.0 {
                Modifier::Negated { by: by.clone(), factor }
            } else {
                Modifier::Scaled { by: by.clone(), factor }
            });
            acted = true;
        }
        if !acted && fallback != 0.0 {
            drafts.push(Draft {
                first: hit.first,
                end: hit.end,
                clause: hit.clause,
                base: fallback,
                weight: fallback,
                movement: false,
                modifiers: Vec::new(),
            });
        }
    }
}

/// Rule 4: intensifiers and dampeners multiply the nearest cue.
fn intensify(source: &Source<'_>, hits: &[Hit], drafts: &mut Vec<Draft>) {
    for hit in hits {
        let HitKind::Lexicon(Kind::Scale { factor, fallback }) = hit.kind else {
            continue;
        };
        let after = drafts
            .iter()
            .enumerate()
            .filter(|(_, d)| d.clause == hit.clause && d.first >= hit.end && d.first - hit.end < 2)
            .min_by_key(|(_, d)| d.first)
            .map(|(i, _)| i);
        let before = || {
            drafts
                .iter()
                .enumerate()
                .filter(|(_, d)| d.clause == hit.clause && d.end <= hit.first && hit.first - d.end < 2)
                .max_by_key(|(_, d)| d.end)
                .map(|(i, _)| i)
        };
        if let Some(target) = after.or_else(before).and_then(|i| drafts.get_mut(i)) {
            target.weight *= factor;
            target.modifiers.push(Modifier::Scaled { by: source.words(hit.first, hit.end), factor });
        } else if fallback != 0.0 {
            drafts.push(Draft {
                first: hit.first,
                end: hit.end,
                clause: hit.clause,
                base: fallback,
                weight: fallback,
                movement: false,
                modifiers: Vec::new(),
            });
        }
    }
}

/// Rule 5: percentages signed by the movement they measure.
fn percentages(source: &Source<'_>, hits: &[Hit], drafts: &mut Vec<Draft>) {
    for hit in hits {
        let HitKind::Percent { value, explicit_sign } = hit.kind else {
            continue;
        };
        let movement = drafts
            .iter()
            .filter(|d| d.movement && d.clause == hit.clause && d.end <= hit.first && hit.first - d.end <= 3)
            .max_by_key(|d| d.end);
        let (sign, modifiers) = match movement {
            Some(m) => (m.weight.signum(), vec![Modifier::DirectionOf { by: source.words(m.first, m.end) }]),
            None if explicit_sign => (value.signum(), Vec::new()),
            None => continue,
        };
        let magnitude = (PERCENT_BASE + value.abs() / PERCENT_DIVISOR).min(PERCENT_CAP);
        drafts.push(Draft {
            first: hit.first,
            end: hit.end,
            clause: hit.clause,
            base: magnitude,
            weight: sign * magnitude,
            movement: false,
            modifiers,
        });
    }
}

/// Rule 6: neutral markers and concessive clauses damp their clause.
fn hedge(source: &Source<'_>, hedges: &[ClauseHedge], drafts: &mut [Draft]) {
    for draft in drafts.iter_mut() {
        let Some(clause) = hedges.get(draft.clause) else {
            continue;
        };
        if clause.by.is_empty() {
            continue;
        }
        draft.weight *= clause.factor;
        let by: Vec<String> = clause.by.iter().map(|r| source.words(r.start, r.end)).collect();
        draft.modifiers.push(Modifier::Hedged { by: by.join(", "), factor: clause.factor });
    }
}

/// Sums the cues into a score, a label and a confidence.
fn conclude(cues: Vec<Cue>, has_words: bool) -> Analysis {
    let sum: f64 = cues.iter().map(|c| c.weight).sum();
    let mass: f64 = cues.iter().map(|c| c.weight.abs()).sum();
    let score = (sum / SCORE_SCALE).tanh();
    let agreement = if mass > 0.0 { sum.abs() / mass } else { 1.0 };
    let label = if score >= NEUTRAL_BAND {
        Sentiment::Positive
    } else if score <= -NEUTRAL_BAND {
        Sentiment::Negative
    } else {
        Sentiment::Neutral
    };
    let confidence = match label {
        Sentiment::Neutral if !has_words => 0.0,
        Sentiment::Neutral => {
            // Confident when nothing moved the score; less so when strong cues cancelled out.
            let centred = 1.0 - score.abs() / NEUTRAL_BAND;
            let conflict = (1.0 - agreement) * mass / (mass + 1.0);
            (0.5 + 0.4 * centred) * (1.0 - 0.5 * conflict)
        }
        Sentiment::Positive | Sentiment::Negative => {
            let margin = (score.abs() - NEUTRAL_BAND) / (1.0 - NEUTRAL_BAND);
            (0.5 + 0.5 * margin.max(0.0).sqrt()) * (0.5 + 0.5 * agreement)
        }
    };
    Analysis { label, score, confidence: confidence.clamp(0.0, 1.0), cues }
}
