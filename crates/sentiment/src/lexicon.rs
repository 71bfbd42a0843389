//! The finance lexicon: weighted words and phrases, and the words that change other words.
//!
//! An entry's pattern is one or more token patterns separated by spaces; a token pattern
//! lists alternatives separated by `|`, and an alternative ending in `*` matches any token
//! starting with what precedes it. `miss|misses|missed estimates|expectations` matches
//! "missed expectations"; `downgrad*` matches "downgrade", "downgrades", "downgraded".
//! Patterns are written against the tokeniser's output (lower case, hyphenated compounds
//! split: "52-week low" is `52 week low`).
//!
//! At each position the longest matching entry wins; between equally long entries, the one
//! listed first. Weights are on a scale where 1 is a clear but ordinary cue ("beats", "cuts
//! guidance" via "cuts"), 2 an unmistakable one ("bankruptcy", "fraud").

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::tokens::Token;

/// What an entry does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    /// Carries sentiment on its own: `beats` (+), `lawsuit` (−).
    Polar(f64),
    /// A movement, signed by direction: `rises` (+), `falls` (−). Next to an [`Kind::Inverse`]
    /// subject its sign flips: "yields fall" and "cuts debt" are good news.
    Move(f64),
    /// A subject whose rise is bad news (yields, inflation, costs, losses, fears), with the
    /// sentiment it carries by itself (often none).
    Inverse(f64),
    /// Multiplies the cues that start within `window` tokens after it, in the same clause,
    /// by `factor` (negative: flips, as "fails to", "avoids"; between 0 and 1: hedges, as
    /// "seeks"). With no cue to act on it contributes `fallback` itself.
    Negator { window: usize, factor: f64, fallback: f64 },
    /// Multiplies the nearest cue (within two tokens after, else before, same clause) by
    /// `factor`: intensifiers above 1, dampeners below. With no cue in reach it
    /// contributes `fallback` itself ("posts record revenue").
    Scale { factor: f64, fallback: f64 },
    /// Damps every cue of its clause by this factor: "unchanged", "in line", "ahead of".
    Hedge(f64),
    /// Ends a clause; the next clause's cues are multiplied by the factor (`despite`: 0.5).
    Boundary(f64),
}

use Kind::{Boundary, Hedge, Inverse, Move, Polar};

const fn not(window: usize) -> Kind {
    Kind::Negator { window, factor: -0.8, fallback: 0.0 }
}

const fn flips(window: usize, fallback: f64) -> Kind {
    Kind::Negator { window, factor: -0.8, fallback }
}

const fn modal(factor: f64) -> Kind {
    Kind::Negator { window: 3, factor, fallback: 0.0 }
}

const fn scale(factor: f64) -> Kind {
    Kind::Scale { factor, fallback: 0.0 }
}

/// The lexicon. Order matters only between equally long matches.
pub(crate) static ENTRIES: &[(&str, Kind)] = &[
    // ── Results against expectations ───────────────────────────────────────────────
    ("beat|beats|beating|beaten", Polar(1.5)),
    ("top|tops|topped|topping estimates|expectations|forecasts|forecast|consensus|views", Polar(1.5)),
    ("exceed|exceeds|exceeded|exceeding|surpass|surpasses|surpassed", Polar(1.3)),
    ("miss|misses|missed|missing", Polar(-1.5)),
    ("fall|falls|fell|falling short", Polar(-1.5)),
    ("shortfall", Polar(-1.2)),
    ("disappoint|disappoints|disappointed|disappointing|disappointment", Polar(-1.5)),
    ("better|stronger than expected|feared|forecast|estimated", Polar(1.5)),
    ("worse|weaker than expected|feared|forecast|estimated", Polar(-1.5)),
    ("smaller|lower|milder|less than feared", Polar(1.2)),
    ("larger|bigger|higher|deeper|greater than feared", Polar(-1.2)),
    ("higher|larger|bigger|wider|greater|hotter|heavier than expected|forecast|estimated", Move(1.0)),
    ("lower|smaller|narrower|cooler|softer|lighter than expected|forecast|estimated", Move(-1.0)),
    ("above estimates|expectations|forecasts|consensus", Move(1.3)),
    ("ahead of estimates|expectations|forecasts|consensus|plan|schedule|target", Polar(1.2)),
    ("below estimates|expectations|forecasts|consensus", Move(-1.3)),
    ("above", Move(0.6)),
    ("below", Move(-0.6)),
    ("in line", Hedge(0.4)),
    // ── Profit and loss ───────────────────────────────────────────────────────────
    ("profit|profits", Polar(0.4)),
    ("profitable|profitability", Polar(0.6)),
    ("turn|turns|turned a profit", Polar(1.2)),
    ("swing|swings|swung to profit|black", Polar(1.3)),
    ("swing|swings|swung to loss|losses|red", Polar(-1.3)),
    ("profit warning|warnings", Polar(-2.0)),
    ("loss|losses", Inverse(-1.0)),
    ("net loss", Inverse(-1.0)),
    ("loan|credit|catastrophe losses", Inverse(-1.0)),
    ("writedown|writedowns|impairment|impairments|writeoff|writeoffs", Polar(-1.2)),
    ("write|writes|wrote|written down|off", Polar(-1.2)),
    ("restate|restates|restated|restatement", Polar(-1.5)),
    ("burn|burns|burned|burning", Polar(-0.8)),
    ("cash burn", Polar(-1.0)),
    ("record", Kind::Scale { factor: 1.5, fallback: 0.7 }),
    ("records", Kind::Scale { factor: 1.3, fallback: 0.7 }),
    // ── Guidance and analysts ─────────────────────────────────────────────────────
    ("upgrade|upgrades|upgraded", Polar(1.5)),
    ("downgrade|downgrades|downgraded", Polar(-1.5)),
    ("outperform|overweight|accumulate", Polar(1.1)),
    ("underperform|underweight", Polar(-1.1)),
    ("strong buy", Polar(1.5)),
    ("buy rating", Polar(1.2)),
    ("strong sell", Polar(-1.5)),
    ("sell rating", Polar(-1.2)),
    ("undervalued|upside", Polar(1.0)),
    ("overvalued|downside", Polar(-1.0)),
    ("warn|warns|warned|warning", Polar(-1.3)),
    ("warning letter", Polar(-1.5)),
    ("reaffirm|reaffirms|reaffirmed|reiterate|reiterates|reiterated|maintain|maintains|maintained|keeps", Hedge(0.6)),
    // ── Direction words (Move: sign is the direction) ─────────────────────────────
    ("rise|rises|rising|rose|risen", Move(0.8)),
    ("gain|gains|gained|gaining", Move(1.0)),
    ("climb|climbs|climbed|climbing", Move(1.0)),
    ("jump|jumps|jumped|jumping", Move(1.3)),
    ("surge|surges|surged|surging", Move(1.5)),
    ("soar|soars|soared|soaring|skyrocket|skyrockets", Move(1.8)),
    ("rocket|rockets|rocketed", Move(1.8)),
    ("rally|rallies|rallied|rallying", Move(1.2)),
    ("rebound|rebounds|rebounded|rebounding", Move(1.0)),
    ("recover|recovers|recovered|recovering|recovery", Move(0.8)),
    ("advance|advances|advanced", Move(0.6)),
    ("up|higher", Move(0.6)),
    ("end|ends|ended|close|closes|closed higher", Move(0.6)),
    ("end|ends|ended|close|closes|closed lower", Move(-0.6)),
    ("high|highs", Move(0.8)),
    ("highest", Move(1.0)),
    ("all time high|highs", Move(1.5)),
    ("52 week high|highs", Move(1.2)),
    ("double|doubles|doubled|triple|triples|tripled", Move(1.5)),
    ("increase|increases|increased|increasing", Move(0.6)),
    ("grow|grows|grew|growing|growth", Move(0.8)),
    ("expand|expands|expanded|expanding|expansion", Move(0.8)),
    ("accelerate|accelerates|accelerated|accelerating|reaccelerate|reaccelerates|reaccelerating", Move(0.8)),
    ("boost|boosts|boosted|boosting", Move(1.0)),
    ("lift|lifts|lifted|lifting", Move(0.9)),
    ("raise|raises|raised|raising", Move(1.0)),
    ("hike|hikes|hiked|hiking", Move(0.8)),
    ("mount|mounts|mounting|deepen|deepens|deepened|deeper|widen|widens|widened|wider", Move(0.6)),
    ("stoke|stokes|stoked|stoking|heighten|heightens|heightened", Move(0.6)),
    ("fall|falls|fell|falling", Move(-1.0)),
    ("drop|drops|dropped|dropping", Move(-1.0)),
    ("decline|declines|declined|declining", Move(-1.0)),
    ("slide|slides|slid|sliding", Move(-1.0)),
    ("slip|slips|slipped|slipping", Move(-0.6)),
    ("dip|dips|dipped|dipping", Move(-0.5)),
    ("sink|sinks|sank|sinking", Move(-1.3)),
    ("tumble|tumbles|tumbled|tumbling", Move(-1.5)),
    ("plunge|plunges|plunged|plunging|plummet|plummets|plummeted|plummeting", Move(-1.8)),
    ("crater|craters|cratered|cratering|nosedive|nosedives", Move(-1.8)),
    ("slump|slumps|slumped|slumping", Move(-1.3)),
    ("shed|sheds|shedding", Move(-1.0)),
    ("sell|sells off", Move(-1.3)),
    ("selloff|selloffs", Move(-1.3)),
    ("retreat|retreats|retreated|retreating", Move(-0.8)),
    ("down|lower", Move(-0.6)),
    ("low|lows", Move(-0.8)),
    ("lowest", Move(-1.0)),
    ("52 week low|lows", Move(-1.2)),
    ("halve|halves|halved|halving", Move(-1.5)),
    ("decrease|decreases|decreased|decreasing", Move(-0.6)),
    ("shrink|shrinks|shrank|shrinking", Move(-1.0)),
    ("contraction", Move(-1.0)),
    ("narrow|narrows|narrowed|narrowing|narrower", Move(-0.6)),
    ("narrow range", Hedge(0.4)),
    ("slow|slows|slowed|slowing|slower", Move(-0.6)),
    ("slowing|slower growth", Polar(-1.0)),
    ("growth slows|slowed|slowing", Polar(-1.0)),
    ("decelerate|decelerates|decelerated|decelerating|deceleration", Move(-0.8)),
    ("ease|eases|eased|easing", Move(-0.6)),
    ("cool|cools|cooled|cooling", Move(-0.6)),
    ("fade|fades|faded|fading", Move(-0.6)),
    ("dry|dries up", Move(-1.0)),
    ("cut|cuts|cutting", Move(-1.0)),
    ("slash|slashes|slashed|slashing", Move(-1.5)),
    ("trim|trims|trimmed|trimming", Move(-0.7)),
    ("lower|lowers|lowered|lowering", Move(-0.8)),
    ("reduce|reduces|reduced|reducing|reduction", Move(-0.6)),
    ("weaken|weakens|weakened|weakening", Move(-0.8)),
    // ── Quality words ─────────────────────────────────────────────────────────────
    ("strong|stronger|strongest|robust|blowout", Polar(1.0)),
    ("solid|healthy|resilient", Polar(0.8)),
    ("weak|weaker|weakest|weakness|sluggish|tepid", Polar(-1.0)),
    ("soft|softer|softness", Polar(-0.6)),
    ("positive|favorable|favourable|encouraging", Polar(1.0)),
    ("negative|unfavorable|unfavourable", Polar(-1.0)),
    ("upbeat|bullish|optimistic|optimism|confident", Polar(1.0)),
    ("bearish|pessimistic|gloomy|grim|bleak|dismal", Polar(-1.2)),
    ("improve|improves|improved|improving|improvement", Polar(1.0)),
    ("deteriorate|deteriorates|deteriorated|deteriorating|deterioration|worsen|worsens|worsened|worsening", Polar(-1.2)),
    ("hope|hopes|hopeful", Polar(0.5)),
    ("relief", Polar(0.6)),
    ("momentum|traction|tailwind|tailwinds", Polar(0.8)),
    ("turnaround", Polar(0.4)),
    ("success|successful|successfully", Polar(0.8)),
    ("breakthrough", Polar(1.2)),
    // ── Capital returns and financing ─────────────────────────────────────────────
    ("buyback|buybacks|repurchase|repurchases|repurchasing", Polar(1.2)),
    ("reinstate|reinstates|reinstated|resume|resumes|resumed", Polar(0.8)),
    ("suspend|suspends|suspended|suspension|suspending", Polar(-1.3)),
    ("freeze|freezes|froze|frozen", Polar(-0.8)),
    ("investment grade", Polar(1.0)),
    ("junk", Polar(-1.5)),
    ("dilution|dilutive|dilute|dilutes", Polar(-1.0)),
    ("raise|raises|raising capital|equity|cash", Polar(-0.5)),
    ("secure|secures|secured", Polar(0.8)),
    ("regain|regains|regained|regaining", Polar(0.8)),
    ("default|defaults|defaulted|defaulting", Polar(-1.5)),
    ("bankruptcy|bankrupt|insolvency|insolvent|receivership|liquidation", Polar(-2.0)),
    ("chapter 11|7", Polar(-2.0)),
    ("file|files|filed|filing for chapter 11|7", Polar(-2.2)),
    ("file|files|filed|filing for bankruptcy|insolvency", Polar(-2.2)),
    ("going concern", Inverse(-1.5)),
    ("going concern doubt|doubts", Inverse(-1.8)),
    ("delist|delists|delisted|delisting", Polar(-1.5)),
    // ── Deals, wins and losses ────────────────────────────────────────────────────
    ("win|wins|won|winning", Polar(1.2)),
    ("awarded", Polar(1.0)),
    ("lands|landed", Polar(0.6)),
    ("lose|loses|losing|lost", Polar(-1.2)),
    ("approval|approvals|approve|approves|approved", Polar(1.5)),
    ("clear|clears|cleared|clearance", Polar(1.0)),
    ("antitrust clearance|approval", Polar(1.2)),
    ("breakthrough therapy|device designation", Polar(1.4)),
    ("meet|meets|met primary|main endpoint|endpoints|goal", Polar(1.5)),
    ("meet|meets|met endpoint|endpoints", Polar(1.5)),
    ("in favor|favour", Polar(1.0)),
    ("votes|voted against", Polar(-1.2)),
    ("reject|rejects|rejected|rejection|rejecting", Polar(-1.5)),
    ("complete response letter", Polar(-1.5)),
    ("clinical hold", Polar(-1.5)),
    ("premium", Polar(0.8)),
    ("takeover|buyout", Polar(0.5)),
    ("takeover|buyout bid|offer", Polar(1.0)),
    ("to be acquired|bought", Polar(1.0)),
    ("partnership|collaboration", Polar(0.5)),
    ("extension", Polar(0.4)),
    ("collapse|collapses|collapsed", Polar(-1.5)),
    ("block|blocks|blocked|blocking", Polar(-1.2)),
    ("terminate|terminates|terminated|scrap|scraps|scrapped|abandon|abandons|abandoned", Polar(-1.0)),
    ("cancel|cancels|canceled|cancelled|cancellation", Polar(-0.8)),
    ("soft landing", Polar(1.2)),
    ("dovish", Polar(1.0)),
    ("hawkish", Polar(-1.0)),
    ("for longer", Polar(-0.5)),
    // ── Legal and regulatory ──────────────────────────────────────────────────────
    ("lawsuit|lawsuits|suit|litigation", Polar(-1.2)),
    ("class action", Polar(-0.6)),
    ("class action lawsuit|lawsuits|suit", Polar(-1.5)),
    ("sue|sues|sued|suing", Polar(-1.2)),
    ("probe|probes|investigation|investigations|inquiry|subpoena|subpoenaed", Polar(-1.2)),
    ("fraud|embezzlement|bribery", Polar(-2.0)),
    ("misconduct|scandal", Polar(-1.5)),
    ("fine|fined|fines|penalty|penalties", Polar(-1.0)),
    ("liable|guilty", Polar(-1.5)),
    ("ordered to pay", Polar(-1.5)),
    ("allegation|allegations|alleges|alleged|accuses|accused", Polar(-1.0)),
    ("short seller|sellers|report", Polar(-1.2)),
    ("antitrust", Polar(-0.6)),
    ("export restrictions|ban|controls|curbs", Polar(-1.2)),
    ("restriction|restrictions|curbs", Polar(-0.6)),
    ("ban|bans|banned|sanction|sanctions|sanctioned", Polar(-1.0)),
    ("repeal|repeals|repealed", Polar(-1.0)),
    ("generic competition", Polar(-1.0)),
    // ── Operations ────────────────────────────────────────────────────────────────
    ("recall|recalls|recalled", Polar(-1.0)),
    ("layoff|layoffs", Inverse(-1.2)),
    ("job cuts", Inverse(-1.2)),
    ("lay|lays|laying|laid off", Polar(-1.2)),
    ("halt|halts|halted|halting", Polar(-1.2)),
    ("delay|delays|delayed|delaying", Polar(-1.0)),
    ("postpone|postpones|postponed", Polar(-0.5)),
    ("push|pushes|pushed back", Polar(-0.8)),
    ("grounded|grounding", Polar(-1.2)),
    ("breach|hack|hacked|cyberattack|outage", Polar(-1.2)),
    ("strike|strikes|walkout", Polar(-0.8)),
    ("accident|explosion|spill|fire", Polar(-1.2)),
    ("deadly|fatal", Polar(-1.0)),
    ("defect|defects|defective", Polar(-1.0)),
    ("resign|resigns|resigned|resignation|ousted|fired", Polar(-0.8)),
    ("step|steps down", Polar(-0.5)),
    ("excess inventory", Polar(-0.8)),
    ("inventory glut", Inverse(-1.0)),
    ("weigh|weighs|weighed|weighing on", Polar(-1.0)),
    ("drag|drags|dragged|overhang|hurt|hurts", Polar(-0.8)),
    ("hit|hits by|with", Polar(-1.0)),
    ("stay|stays away", Polar(-0.6)),
    ("shutdown", Polar(-1.0)),
    ("loom|looms|looming", Polar(-0.5)),
    // ── Macro ─────────────────────────────────────────────────────────────────────
    ("recession|stagflation", Polar(-1.2)),
    ("slowdown|downturn", Polar(-1.0)),
    ("crisis|turmoil|panic|crash|crashes", Polar(-1.5)),
    ("hiring", Polar(0.4)),
    // ── Inverse subjects: their rise is bad news ──────────────────────────────────
    ("yield|yields|rate|rates|inflation|cpi|ppi", Inverse(0.0)),
    ("cost|costs|expenses|debt|discounting|unemployment|jobless", Inverse(0.0)),
    ("fear|fears|concern|concerns|worry|worries|doubts|jitters", Inverse(-0.5)),
    ("recession fears|worries|risk", Inverse(-0.6)),
    ("pressure|pressures|headwind|headwinds|uncertainty|volatility", Inverse(-0.5)),
    ("margin pressure", Inverse(-0.8)),
    ("vacancy|vacancies|outflow|outflows|tariff|tariffs", Inverse(-0.5)),
    // ── Negation, and words that undo what follows ────────────────────────────────
    ("not|never|no|nor|cannot", not(3)),
    ("without", not(2)),
    ("no longer", flips(4, -0.5)),
    ("not expected to", not(4)),
    ("unlikely to", not(4)),
    ("fail|fails|failed|failing to", flips(3, -1.2)),
    ("fail|fails|failed|failing|failure", Polar(-1.2)),
    ("avoid|avoids|avoided|avoiding|avert|averts|averted|averting", flips(3, 0.3)),
    ("dash|dashes|dashed|dashing", flips(3, -1.0)),
    ("ending|ends", not(3)),
    ("resolve|resolves|resolved|resolving", flips(3, 0.3)),
    ("settle|settles|settled|settling", Kind::Negator { window: 3, factor: -0.6, fallback: 0.2 }),
    ("retract|retracts|retracted|withdraw|withdraws|withdrew", not(3)),
    ("dismiss|dismisses|dismissed|dismissal", flips(3, 0.0)),
    ("overturn|overturns|overturned|reverse|reverses|reversed", not(3)),
    ("remove|removes|removing|removed", not(2)),
    // Irrealis: a cue that is sought or possible is not yet news.
    ("seek|seeks|seeking", modal(0.2)),
    ("file|files|apply|applies for", modal(0.2)),
    ("may|might|could|considers|considering|explores|exploring", modal(0.4)),
    ("expected|set|plans|aims to", modal(0.6)),
    // ── Intensifiers and dampeners ────────────────────────────────────────────────
    ("sharply|sharp|steeply|steep|significantly|dramatically|strongly|substantially", scale(1.5)),
    ("massive|huge|sweeping|big|bigger|biggest|largest", scale(1.3)),
    ("largest|biggest ever", scale(1.4)),
    ("well|far|much", scale(1.3)),
    ("surprise|unexpected|unexpectedly", scale(1.2)),
    ("slightly|slight|modestly|modest|marginally|marginal|mildly|somewhat|edge|edges|edged|inch|inches|inched", scale(0.5)),
    ("a bit|little", scale(0.5)),
    // ── Neutral markers ───────────────────────────────────────────────────────────
    ("unchanged|flat|mixed|steady|quiet", Hedge(0.4)),
    ("little changed", Hedge(0.3)),
    ("await|awaits|awaiting|before", Hedge(0.5)),
    ("ahead of", Hedge(0.5)),
    ("preview", Hedge(0.3)),
    ("what to watch", Hedge(0.3)),
    ("analysts|economists expect", Hedge(0.4)),
    ("to report|release|present|host|webcast|hold|announce", Hedge(0.4)),
    // ── Clause boundaries ─────────────────────────────────────────────────────────
    ("as|after|but|while|amid|and|on|following|whereas|because", Boundary(1.0)),
    ("despite|though|although", Boundary(0.5)),
    ("even as", Boundary(0.5)),
];

/// One alternative of a token pattern.
#[derive(Debug)]
enum Alt {
    Exact(&'static str),
    Prefix(&'static str),
}

impl Alt {
    fn parse(alt: &'static str) -> Self {
        alt.strip_suffix('*').map_or(Self::Exact(alt), Self::Prefix)
    }

    fn matches(&self, token: &str) -> bool {
        match self {
            Self::Exact(text) => *text == token,
            Self::Prefix(stem) => token.starts_with(stem),
        }
    }
}

/// An entry compiled for matching: one list of alternatives per token.
#[derive(Debug)]
struct Pattern {
    tokens: Vec<Vec<Alt>>,
    kind: Kind,
}

/// The compiled lexicon, indexed by the alternatives of each entry's first token.
#[derive(Debug)]
pub(crate) struct Lexicon {
    patterns: Vec<Pattern>,
    by_first: HashMap<&'static str, Vec<usize>>,
    by_prefix: Vec<(&'static str, usize)>,
}

/// A lexicon entry found in the token stream: tokens `first..end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Found {
    pub kind: Kind,
    pub len: usize,
}

impl Lexicon {
    /// The lexicon, compiled on first use.
    pub fn get() -> &'static Self {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(|| Self::compile(ENTRIES))
    }

    fn compile(entries: &'static [(&'static str, Kind)]) -> Self {
        let mut by_first: HashMap<&'static str, Vec<usize>> = HashMap::new();
        let mut by_prefix = Vec::new();
        let patterns: Vec<Pattern> = entries
            .iter()
            .enumerate()
            .map(|(index, &(pattern, kind))| {
                let tokens: Vec<Vec<Alt>> = pattern.split_whitespace().map(|token| token.split('|').map(Alt::parse).collect()).collect();
                for alt in tokens.first().into_iter().flatten() {
                    match *alt {
                        Alt::Exact(text) => by_first.entry(text).or_default().push(index),
                        Alt::Prefix(stem) => by_prefix.push((stem, index)),
                    }
                }
                Pattern { tokens, kind }
            })
            .collect();
        for indices in by_first.values_mut() {
            indices.dedup();
        }
        Self { patterns, by_first, by_prefix }
    }

    /// The longest entry matching `tokens` from its start; `usable(i)` says whether
    /// `tokens[i]` may be part of a match.
    pub fn longest_at(&self, tokens: &[Token], usable: impl Fn(usize) -> bool) -> Option<Found> {
        let first = tokens.first()?;
        if !usable(0) {
            return None;
        }
        let exact = self.by_first.get(first.text.as_str()).into_iter().flatten().copied();
        let prefixed = self.by_prefix.iter().filter(|(stem, _)| first.text.starts_with(stem)).map(|&(_, index)| index);
        let mut best: Option<(usize, usize)> = None; // (len, entry index)
        for index in exact.chain(prefixed) {
            let pattern = &self.patterns[index];
            let len = pattern.tokens.len();
            let fits = len <= tokens.len()
                && pattern
                    .tokens
                    .iter()
                    .zip(tokens)
                    .enumerate()
                    .all(|(i, (alts, token))| usable(i) && alts.iter().any(|alt| alt.matches(&token.text)));
            let better = best.is_none_or(|(best_len, best_index)| len > best_len || (len == best_len && index < best_index));
            if fits && better {
                best = Some((len, index));
            }
        }
        best.map(|(len, index)| Found { kind: self.patterns[index].kind, len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::tokenize;

    fn found(text: &str) -> Option<Found> {
        let tokens = tokenize(text);
        Lexicon::get().longest_at(&tokens, |_| true)
    }

    #[test]
    fn every_entry_is_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for &(pattern, kind) in ENTRIES {
            assert!(!pattern.trim().is_empty(), "empty pattern");
            assert_eq!(pattern, pattern.to_lowercase(), "{pattern}: patterns are lower case");
            assert!(pattern.split_whitespace().all(|t| t.split('|').all(|a| !a.is_empty() && a != "*")), "{pattern}: empty alternative");
            assert!(seen.insert(pattern), "{pattern}: listed twice");
            let weight = match kind {
                Kind::Polar(w) | Kind::Move(w) | Kind::Inverse(w) => w,
                Kind::Negator { factor, fallback, .. } => {
                    assert!((-1.0..=1.0).contains(&factor), "{pattern}: factor");
                    fallback
                }
                Kind::Scale { factor, fallback } => {
                    assert!(factor > 0.0, "{pattern}: factor");
                    fallback
                }
                Kind::Hedge(f) | Kind::Boundary(f) => {
                    assert!((0.0..=1.0).contains(&f), "{pattern}: factor");
                    0.0
                }
            };
            assert!((-3.0..=3.0).contains(&weight), "{pattern}: weight out of range");
        }
    }

    #[test]
    fn the_longest_phrase_wins() {
        assert_eq!(found("files for chapter 11"), Some(Found { kind: Polar(-2.2), len: 4 }));
        assert_eq!(found("fails to beat"), Some(Found { kind: flips(3, -1.2), len: 2 }));
        assert_eq!(found("fails"), Some(Found { kind: Polar(-1.2), len: 1 }));
        assert_eq!(found("52-week low"), Some(Found { kind: Move(-1.2), len: 3 }));
    }

    #[test]
    fn a_trailing_star_matches_a_prefix() {
        let stem = Alt::parse("downgrad*");
        assert!(stem.matches("downgrade") && stem.matches("downgraded"));
        assert!(!stem.matches("upgrade"));
        assert!(Alt::parse("cut").matches("cut") && !Alt::parse("cut").matches("cuts"));
    }

    #[test]
    fn unknown_words_match_nothing() {
        assert_eq!(found("northwind"), None);
        assert_eq!(found(""), None);
    }
}
