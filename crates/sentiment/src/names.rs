//! Recognising company and place names, so "Advance Auto Parts" or "Summit Gains Capital"
//! does not read as good news.
//!
//! In a sentence-case headline (most news wires), two or more capitalised words in a row
//! are a name: their words are kept out of the lexicon. All-capitals words (`FDA`, `CPI`)
//! and single capitalised words (the headline's first word) are not names. In a title-case
//! headline ("Northwind Beats Estimates, Raises Outlook") capitals carry no information, so
//! nothing is masked.

use crate::tokens::{Case, Token, TokenKind};

/// Share of the longer words (four letters or more) that must be capitalised for a headline
/// to count as title case.
const TITLE_CASE_SHARE: f64 = 0.75;

fn is_capitalised_word(token: &Token) -> bool {
    token.kind == TokenKind::Word && token.case == Case::Capitalised
}

/// Whether each token is part of a proper name.
pub(crate) fn mask(tokens: &[Token]) -> Vec<bool> {
    let mut masked = vec![false; tokens.len()];
    let long_words: Vec<&Token> = tokens.iter().filter(|t| t.kind == TokenKind::Word && t.text.chars().count() >= 4).collect();
    let capitalised = long_words.iter().filter(|t| is_capitalised_word(t)).count();
    let title_case = !long_words.is_empty() && capitalised as f64 / long_words.len() as f64 >= TITLE_CASE_SHARE;
    if title_case {
        return masked;
    }
    let mut i = 0;
    while i < tokens.len() {
        let run = tokens[i..].iter().take_while(|t| is_capitalised_word(t)).count();
        if run >= 2 {
            masked[i..i + run].fill(true);
        }
        i += run.max(1);
    }
    masked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::tokenize;

    fn names(text: &str) -> Vec<String> {
        let tokens = tokenize(text);
        let masked = mask(&tokens);
        tokens.into_iter().zip(masked).filter(|(_, m)| *m).map(|(t, _)| t.text).collect()
    }

    #[test]
    fn runs_of_capitalised_words_are_names() {
        assert_eq!(names("Advance Auto Parts beats estimates"), ["advance", "auto", "parts"]);
        assert_eq!(names("Jury clears Clearwater Pharma in opioid case"), ["clearwater", "pharma"]);
    }

    #[test]
    fn acronyms_and_the_first_word_are_not_names() {
        assert!(names("Stocks rally as FDA approves drug").is_empty());
        assert!(names("Short seller targets lender").is_empty());
    }

    #[test]
    fn title_case_headlines_mask_nothing() {
        assert!(names("Northwind Semiconductor Beats Estimates, Raises Outlook").is_empty());
    }
}
