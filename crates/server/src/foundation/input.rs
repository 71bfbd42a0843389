//! Parsing hostile input into bounded values at the edge, so nothing downstream can overflow
//! or be tricked by invisible characters.

use chrono::NaiveDate;

use crate::foundation::error::FieldError;

/// The earliest date any request may name (long before any stored market history).
pub const EARLIEST_DATE: NaiveDate = match NaiveDate::from_ymd_opt(1970, 1, 1) {
    Some(d) => d,
    None => panic!("valid date"),
};
/// The latest date any request may name.
pub const LATEST_DATE: NaiveDate = match NaiveDate::from_ymd_opt(2100, 12, 31) {
    Some(d) => d,
    None => panic!("valid date"),
};

/// A `YYYY-MM-DD` date between [`EARLIEST_DATE`] and [`LATEST_DATE`]; date arithmetic on it
/// cannot overflow. The error names `field`.
pub fn date(field: &str, raw: &str) -> Result<NaiveDate, FieldError> {
    let raw = raw.trim();
    let well_formed =
        raw.len() == 10 && raw.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    let parsed = well_formed.then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()).flatten();
    match parsed {
        Some(d) if (EARLIEST_DATE..=LATEST_DATE).contains(&d) => Ok(d),
        Some(_) => Err(FieldError::new(field, "A date between 1970-01-01 and 2100-12-31")),
        None => Err(FieldError::new(field, "A real date as YYYY-MM-DD")),
    }
}

/// A ticker symbol: 1–10 characters, an upper-case ASCII letter first, then upper-case
/// letters, digits, `.` or `-` (the market's [`strikeline_market::is_valid_symbol`]).
/// [`Symbol::parse`] is the only way in, so a `Symbol` is always one the providers accept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(String);

/// Why a text is not a [`Symbol`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SymbolError {
    /// Nothing but blanks.
    #[error("This field is required")]
    Blank,
    /// Not a ticker.
    #[error("Use letters, digits, '.' or '-' (at most 10), starting with a letter")]
    Malformed,
}

impl SymbolError {
    /// This error on `field`, in its own words.
    pub fn on(self, field: &str) -> FieldError {
        FieldError::new(field, self.to_string())
    }
}

impl Symbol {
    /// User input made a ticker: trimmed and upper-cased, then checked.
    pub fn parse(raw: &str) -> Result<Symbol, SymbolError> {
        let symbol = raw.trim().to_ascii_uppercase();
        if symbol.is_empty() {
            Err(SymbolError::Blank)
        } else if strikeline_market::is_valid_symbol(&symbol) {
            Ok(Symbol(symbol))
        } else {
            Err(SymbolError::Malformed)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Symbol {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// What [`Symbol::parse`] accepts, for the API document: a letter, then up to nine letters,
/// digits, `.` or `-` (either case: the server upper-cases). Surrounding blanks, which the
/// server trims, are left out of the pattern. The request types state it as a literal (an
/// annotation cannot name a constant); a test holds them to this one.
pub const SYMBOL_PATTERN: &str = r"^[A-Za-z][A-Za-z0-9.-]{0,9}$";

/// What [`date`] accepts, for the API document: `YYYY-MM-DD` from 1970 to 2100 (the pattern
/// cannot tell 02-30 from a real date; the server answers that 422). Stated as a literal, like
/// [`SYMBOL_PATTERN`].
pub const DATE_PATTERN: &str = r"^(19[7-9][0-9]|20[0-9][0-9]|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";

/// What [`parse_email`] accepts, for the API document: a dot-atom local part, `@`, a host name
/// of two or more labels (letters, digits, inner hyphens). Surrounding spaces, which the server
/// trims, and a local part over 64 characters are left out of the pattern.
pub const EMAIL_PATTERN: &str = r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

/// Whether free text holds a control character other than a tab or a line break: what a
/// message's fields refuse ("Control characters are not allowed").
pub fn has_control_characters(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// What an optional free-text field accepts, for the API document: no control character but
/// tabs and line breaks ([`has_control_characters`]). Stated as a literal in the annotations;
/// a test holds them to this one.
pub const TEXT_PATTERN: &str = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$";

/// What a required free-text field accepts: as [`TEXT_PATTERN`], with at least one character
/// that is not a space (the server trims, and refuses what is left blank).
pub const NON_BLANK_TEXT_PATTERN: &str =
    r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$";

/// The schema of every email-address field a request takes (`#[schema(schema_with = …)]`), so
/// the document states the rules [`parse_email`] checks.
pub fn email_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(254))
        .pattern(Some(EMAIL_PATTERN))
        .examples([serde_json::json!("ada@example.com")])
        .build()
}

/// Lower-cases and checks an email address: one `@`, a non-empty local part, a dotted domain,
/// no spaces, at most 254 characters.
pub fn parse_email(raw: &str) -> Result<String, FieldError> {
    let email = raw.trim().to_lowercase();
    let invalid = || FieldError::new("email", "Invalid email address");
    if email.len() > 254 {
        return Err(invalid());
    }
    let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
    if !is_dot_atom(local) || local.len() > 64 || !is_host_name(domain) {
        return Err(invalid());
    }
    Ok(email)
}

/// An `addr-spec` local part in the dot-atom form of RFC 5322: `atext` runs joined by single
/// dots. No quoted strings, comments, spaces, angle brackets or display names.
fn is_dot_atom(local: &str) -> bool {
    const SPECIALS: &str = "!#$%&'*+-/=?^_`{|}~";
    !local.is_empty()
        && local.split('.').all(|atom| !atom.is_empty() && atom.chars().all(|c| c.is_ascii_alphanumeric() || SPECIALS.contains(c)))
}

/// A DNS host name of at least two labels: letters, digits and inner hyphens, each label at
/// most 63 characters (internationalised names in their `xn--` form).
fn is_host_name(domain: &str) -> bool {
    domain.len() <= 253
        && domain.contains('.')
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// Whether `c` reorders or hides text: the Unicode bidirectional controls (which can make a
/// name display differently from what it is) and zero-width characters.
fn is_invisible_control(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
}

/// Longest free text a name field keeps, in characters.
pub const NAME_MAX_CHARS: usize = 100;

/// A display name as stored: control, bidirectional and zero-width characters removed, runs of
/// whitespace made one space, trimmed, and cut to [`NAME_MAX_CHARS`] characters.
pub fn clean_text(raw: &str) -> String {
    let visible: String = raw.chars().map(|c| if c.is_control() { ' ' } else { c }).filter(|c| !is_invisible_control(*c)).collect();
    visible.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(NAME_MAX_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern the API document states for email fields and the parser agree.
    #[test]
    fn the_documented_email_pattern_agrees_with_the_parser() {
        let pattern = regex::Regex::new(EMAIL_PATTERN).expect("the pattern compiles");
        for ok in ["ada@example.com", "a.b+c@sub.example.co", "x_y@a-b.io", "o'brien@example.com", "ADA@EXAMPLE.COM"] {
            assert!(pattern.is_match(ok), "the pattern refuses {ok}");
            assert!(parse_email(ok).is_ok(), "the parser refuses {ok}");
        }
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a..b@example.com",
            ".a@example.com",
            "ada@-x.com",
            "ada@x-.com",
            "a b@example.com",
            "ada@exa mple.com",
            "ada@@example.com",
            "ada@example..com",
        ] {
            assert!(!pattern.is_match(bad), "the pattern accepts {bad:?}");
            assert!(parse_email(bad).is_err(), "the parser accepts {bad:?}");
        }
    }

    #[test]
    fn the_documented_text_patterns_agree_with_the_checks() {
        let text = regex::Regex::new(TEXT_PATTERN).expect("the pattern compiles");
        let non_blank = regex::Regex::new(NON_BLANK_TEXT_PATTERN).expect("the pattern compiles");
        for ok in ["Ada", "two\nlines\tand a tab\r\n", "  spaced  ", "Zoë — ünïcode"] {
            assert!(!has_control_characters(ok), "the check refuses {ok:?}");
            assert!(text.is_match(ok) && non_blank.is_match(ok), "a pattern refuses {ok:?}");
        }
        for bad in ["bell\u{7}", "\u{0}", "esc\u{1b}[0m", "del\u{7f}", "c1\u{85}x", "\u{9f}"] {
            assert!(has_control_characters(bad), "the check accepts {bad:?}");
            assert!(!text.is_match(bad) && !non_blank.is_match(bad), "a pattern accepts {bad:?}");
        }
        for blank in ["", "   ", "\n\t"] {
            assert!(text.is_match(blank), "optional text refuses {blank:?}");
            assert!(!non_blank.is_match(blank), "required text accepts {blank:?}");
        }
    }

    #[test]
    fn the_documented_symbol_and_date_patterns_agree_with_the_parsers() {
        let symbol = regex::Regex::new(SYMBOL_PATTERN).expect("the pattern compiles");
        for ok in ["AAPL", "brk.b", "BF-B", "A", "ABCDEFGHIJ"] {
            assert!(symbol.is_match(ok), "the pattern refuses {ok:?}");
            assert!(Symbol::parse(ok).is_ok(), "the parser refuses {ok:?}");
        }
        for bad in ["", "   ", "1AB", ".A", "ABCDEFGHIJK", "A B", "A_B", "Ä"] {
            assert!(!symbol.is_match(bad), "the pattern accepts {bad:?}");
            assert!(Symbol::parse(bad).is_err(), "the parser accepts {bad:?}");
        }
        let date_pattern = regex::Regex::new(DATE_PATTERN).expect("the pattern compiles");
        for ok in ["2026-12-18", "1970-01-01", "2100-12-31", "2024-02-29"] {
            assert!(date_pattern.is_match(ok), "the pattern refuses {ok:?}");
            assert!(date("d", ok).is_ok(), "the parser refuses {ok:?}");
        }
        for bad in ["1969-12-31", "2101-01-01", "2024-1-05", "2024-13-01", "2024-00-10", "20240105", "", "2024-01-05T00:00"] {
            assert!(!date_pattern.is_match(bad), "the pattern accepts {bad:?}");
            assert!(date("d", bad).is_err(), "the parser accepts {bad:?}");
        }
    }

    #[test]
    fn dates_are_bounded_and_strictly_formatted() {
        assert_eq!(date("d", "2024-02-29"), Ok(NaiveDate::from_ymd_opt(2024, 2, 29).expect("date")));
        for bad in ["-262143-01-01", "+262142-12-31", "2023-02-29", "2024-1-05", "20240105", "", "2024-01-05T00:00"] {
            assert!(date("endDate", bad).is_err_and(|e| e.field == "endDate"), "{bad}");
        }
        assert_eq!(date("d", "1969-12-31").unwrap_err().message, "A date between 1970-01-01 and 2100-12-31");
    }

    #[test]
    fn symbols_are_trimmed_upper_cased_and_checked() {
        assert_eq!(Symbol::parse("  brk.b ").map(|s| s.to_string()), Ok("BRK.B".to_owned()));
        assert_eq!(Symbol::parse(" \t").unwrap_err(), SymbolError::Blank);
        for bad in ["1BAD", "-X", "TOOLONGSYMB", "A B", "A$", "Ä"] {
            assert_eq!(Symbol::parse(bad), Err(SymbolError::Malformed), "{bad}");
        }
        assert_eq!(SymbolError::Blank.on("symbol"), FieldError::new("symbol", "This field is required"));
    }

    #[test]
    fn names_lose_controls_and_bidi_overrides() {
        assert_eq!(clean_text("  Acme\u{202E}gnp.exe\u{0007}  Corp "), "Acmegnp.exe Corp");
        assert_eq!(clean_text("a\u{200B}b\tc\nd"), "ab c d");
        assert_eq!(clean_text(&"x".repeat(500)).chars().count(), NAME_MAX_CHARS);
    }
}
