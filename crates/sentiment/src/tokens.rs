//! Splitting a headline into lower-case tokens that remember where they came from.
//!
//! - Words are lower-cased; `'s` possessives and trailing apostrophes are dropped, and
//!   `n't` becomes its own `not` token (`doesn't` → `does`, `not`; `won't` → `will`, `not`).
//!   Straight and curly apostrophes are treated alike.
//! - Hyphenated compounds are split into their parts (`higher-than-expected` → `higher`,
//!   `than`, `expected`; `52-week` → `52`, `week`), so the lexicon's multi-word phrases
//!   match them; a dash with space around it, or an en/em dash, is punctuation.
//! - Numbers keep their sign, thousands separators and decimals (`-12%`, `+5%`, `1,200`,
//!   `$1.2`); a number followed by `%`, `percent` or `pct` is a [`TokenKind::Percent`].
//! - `$ABC` and an all-capitals word in parentheses, `(ABC)`, are [`TokenKind::Ticker`]s,
//!   which never carry sentiment.
//! - Clause punctuation (`,` `;` `:` `.` `!` `?` `(` `)` `|` dashes) is kept as
//!   [`TokenKind::Punct`], because negation and intensifiers do not reach across it.
//!
//! Every token records the byte range of the input it covers, so cues can point back at
//! the original text.

use std::ops::Range;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TokenKind {
    /// Letters (and digits or `&` inside a word, as in `q3` or `s&p`).
    Word,
    /// A number without a percent sign: `2025`, `1,200`, `$1.2`.
    Number,
    /// A signed percentage, in percent: `-12%` is `Percent(-12.0)`. `explicit_sign` says
    /// whether the text carried a `+` or `-`.
    Percent { value: f64, explicit_sign: bool },
    /// A ticker symbol such as `$ABC` or `(ABC)`; the text is lower-cased, without `$`.
    Ticker,
    /// Clause punctuation; the text is the character itself.
    Punct,
}

/// How a word was capitalised in the input, used to recognise company names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// No upper-case letter, or not a word.
    Lower,
    /// First letter upper-case, some other letter lower-case: `Northwind`.
    Capitalised,
    /// Two or more letters, all upper-case: `FDA`, `CPI`.
    Upper,
}

/// One token: normalised text, kind, capitalisation and the byte range it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub text: String,
    pub kind: TokenKind,
    pub case: Case,
    pub span: Range<usize>,
}

impl Token {
    /// Whether the token can be part of a lexicon entry (words and plain numbers).
    pub fn is_lexical(&self) -> bool {
        matches!(self.kind, TokenKind::Word | TokenKind::Number)
    }
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}' | '\u{2212}')
}

fn is_clause_punct(c: char) -> bool {
    matches!(c, ',' | ';' | ':' | '.' | '!' | '?' | '(' | ')' | '[' | ']' | '|' | '\u{2013}' | '\u{2014}')
}

/// Splits `text` into tokens. Never fails: characters that mean nothing here (quotes,
/// symbols, emoji) are skipped.
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&(start, c)) = chars.get(i) {
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let prev = i.checked_sub(1).and_then(|p| chars.get(p)).map(|&(_, p)| p);
        let starts_signed_number = matches!(c, '+') || is_dash(c);
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit()
            || (starts_signed_number && next.is_some_and(|n| n.is_ascii_digit()) && prev.is_none_or(|p| p.is_whitespace() || p == '('))
        {
            i = number(&chars, i, text, &mut tokens);
        } else if c == '$' && next.is_some_and(|n| n.is_ascii_digit()) {
            // A dollar amount: the `$` belongs to the number's span.
            let at = tokens.len();
            i = number(&chars, i + 1, text, &mut tokens);
            if let Some(token) = tokens.get_mut(at) {
                token.span.start = start;
            }
        } else if c == '$' && next.is_some_and(char::is_alphabetic) {
            let mut j = i + 1;
            while chars.get(j).is_some_and(|&(_, n)| n.is_alphanumeric() || n == '.') {
                j += 1;
            }
            let symbol: String = chars[i + 1..j].iter().map(|&(_, n)| n).collect();
            tokens.push(Token {
                text: symbol.trim_end_matches('.').to_lowercase(),
                kind: TokenKind::Ticker,
                case: Case::Upper,
                span: start..end_of(j),
            });
            i = j;
        } else if c.is_alphabetic() {
            i = word(&chars, i, text, &mut tokens);
        } else if is_clause_punct(c) || (is_dash(c) && !next.is_some_and(char::is_alphanumeric)) {
            tokens.push(Token { text: c.to_string(), kind: TokenKind::Punct, case: Case::Lower, span: start..end_of(i + 1) });
            i += 1;
        } else {
            // Hyphens inside compounds, quotes, `%` on its own, symbols, emoji.
            i += 1;
        }
    }
    mark_parenthesised_tickers(&mut tokens);
    tokens
}

/// Reads a number starting at `chars[i]` (optionally signed) and pushes it; returns the
/// index after it.
fn number(chars: &[(usize, char)], mut i: usize, text: &str, tokens: &mut Vec<Token>) -> usize {
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
    let start = end_of(i);
    let mut digits = String::new();
    let mut explicit_sign = false;
    if let Some(&(_, c)) = chars.get(i)
        && (c == '+' || is_dash(c))
    {
        explicit_sign = true;
        if c != '+' {
            digits.push('-');
        }
        i += 1;
    }
    while let Some(&(_, c)) = chars.get(i) {
        let digit_follows = chars.get(i + 1).is_some_and(|&(_, n)| n.is_ascii_digit());
        if c.is_ascii_digit() {
            digits.push(c);
        } else if c == '.' && digit_follows {
            digits.push('.');
        } else if c == ',' && digit_follows {
            // A thousands separator: `1,200`.
        } else {
            break;
        }
        i += 1;
    }
    let percent_sign = chars.get(i).is_some_and(|&(_, c)| c == '%');
    if percent_sign {
        i += 1;
    }
    let value: f64 = digits.parse().unwrap_or(0.0);
    let kind = if percent_sign { TokenKind::Percent { value, explicit_sign } } else { TokenKind::Number };
    tokens.push(Token { text: digits.trim_start_matches('-').to_owned(), kind, case: Case::Lower, span: start..end_of(i) });
    i
}

/// Reads a word starting at `chars[i]` and pushes it (and a `not` for `n't`); returns the
/// index after it.
fn word(chars: &[(usize, char)], mut i: usize, text: &str, tokens: &mut Vec<Token>) -> usize {
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
    let first = i;
    while let Some(&(_, c)) = chars.get(i) {
        let letter_follows = chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphabetic());
        let part_of_word = c.is_alphanumeric()
            || ((is_apostrophe(c) || c == '&') && letter_follows)
            // Inner dots of abbreviations: `U.S.`.
            || (c == '.' && letter_follows && chars.get(i + 2).is_some_and(|&(_, n)| n == '.'));
        if !part_of_word {
            break;
        }
        i += 1;
    }
    // The closing dot of an abbreviation such as `U.S.`.
    if chars.get(i).is_some_and(|&(_, c)| c == '.') && chars[first..i].iter().any(|&(_, c)| c == '.') {
        i += 1;
    }
    let raw: String = chars[first..i].iter().map(|&(_, c)| c).collect();
    let span = end_of(first)..end_of(i);
    let case = case_of(&raw);
    let lower: String = raw.to_lowercase().chars().map(|c| if is_apostrophe(c) { '\'' } else { c }).filter(|&c| c != '.').collect();
    if let Some(stem) = lower.strip_suffix("n't").filter(|stem| !stem.is_empty()) {
        let stem = match stem {
            "wo" => "will",
            "ca" => "can",
            "sha" => "shall",
            other => other,
        };
        // The `n't` is the word's last three characters.
        let split = if i - first > 3 { end_of(i - 3) } else { span.start };
        tokens.push(Token { text: stem.to_owned(), kind: TokenKind::Word, case, span: span.start..split });
        tokens.push(Token { text: "not".to_owned(), kind: TokenKind::Word, case: Case::Lower, span: split..span.end });
    } else {
        let text = lower.strip_suffix("'s").unwrap_or(&lower).replace('\'', "");
        tokens.push(Token { text, kind: TokenKind::Word, case, span });
    }
    i
}

fn case_of(word: &str) -> Case {
    let letters = || word.chars().filter(|c| c.is_alphabetic());
    let upper = letters().filter(|c| c.is_uppercase()).count();
    let total = letters().count();
    if total >= 2 && upper == total {
        Case::Upper
    } else if word.chars().next().is_some_and(char::is_uppercase) {
        Case::Capitalised
    } else {
        Case::Lower
    }
}

/// `(ABC)`: an all-capitals word alone in parentheses is a ticker symbol.
fn mark_parenthesised_tickers(tokens: &mut [Token]) {
    for i in 1..tokens.len().saturating_sub(1) {
        let opens = tokens[i - 1].kind == TokenKind::Punct && tokens[i - 1].text == "(";
        let closes = tokens[i + 1].kind == TokenKind::Punct && tokens[i + 1].text == ")";
        if opens && closes && tokens[i].kind == TokenKind::Word && tokens[i].case == Case::Upper {
            tokens[i].kind = TokenKind::Ticker;
        }
    }
}

/// Turns `12 percent` / `12 pct` into one percent token.
pub(crate) fn merge_percent_words(tokens: Vec<Token>) -> Vec<Token> {
    let mut merged: Vec<Token> = Vec::with_capacity(tokens.len());
    for token in tokens {
        let is_percent_word = token.kind == TokenKind::Word && matches!(token.text.as_str(), "percent" | "pct");
        if let Some(last) = merged.last_mut()
            && is_percent_word
            && last.kind == TokenKind::Number
        {
            let value: f64 = last.text.parse().unwrap_or(0.0);
            last.kind = TokenKind::Percent { value, explicit_sign: false };
            last.span.end = token.span.end;
            continue;
        }
        merged.push(token);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        merge_percent_words(tokenize(text)).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn lower_cases_and_splits_hyphenated_compounds() {
        assert_eq!(texts("Higher-than-expected CPI hits 52-week low"), ["higher", "than", "expected", "cpi", "hits", "52", "week", "low"]);
    }

    #[test]
    fn handles_possessives_and_contractions_with_either_apostrophe() {
        assert_eq!(texts("Driftwood Games' new title"), ["driftwood", "games", "new", "title"]);
        assert_eq!(texts("this week's meeting"), ["this", "week", "meeting"]);
        assert_eq!(texts("Fed doesn’t cut; it won't"), ["fed", "does", "not", "cut", ";", "it", "will", "not"]);
    }

    #[test]
    fn keeps_signed_percentages_and_numbers() {
        let tokens = merge_percent_words(tokenize("shares +5% then -12% and up 3.5 percent, $1,200.50"));
        let percents: Vec<(f64, bool)> = tokens
            .iter()
            .filter_map(|t| match t.kind {
                TokenKind::Percent { value, explicit_sign } => Some((value, explicit_sign)),
                _ => None,
            })
            .collect();
        assert_eq!(percents, [(5.0, true), (-12.0, true), (3.5, false)]);
        let money = tokens.last().unwrap();
        assert_eq!((money.text.as_str(), money.kind), ("1200.50", TokenKind::Number));
    }

    #[test]
    fn spans_point_back_at_the_input() {
        let text = "Zenith (ZNTH) jumps 12% — $ABC falls";
        let tokens = tokenize(text);
        let shown: Vec<&str> = tokens.iter().map(|t| &text[t.span.clone()]).collect();
        assert_eq!(shown, ["Zenith", "(", "ZNTH", ")", "jumps", "12%", "—", "$ABC", "falls"]);
        assert_eq!(tokens[2].kind, TokenKind::Ticker);
        assert_eq!(tokens[7].kind, TokenKind::Ticker);
        assert_eq!(tokens[6].kind, TokenKind::Punct);
    }

    #[test]
    fn abbreviations_keep_their_letters() {
        assert_eq!(texts("U.S. stocks and S&P 500 rally."), ["us", "stocks", "and", "s&p", "500", "rally", "."]);
    }

    #[test]
    fn odd_input_never_panics() {
        for text in ["", "   ", "-", "+", "$", "%%%", "'", "n't", "—–-", "ß∂ƒ 日本株 📈📉", "1,", "1.", "$.", "(", ")"] {
            let _ = merge_percent_words(tokenize(text));
        }
    }
}
