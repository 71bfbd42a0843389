//! Which watchlist companies a text mentions.

/// A company that can be tagged: its ticker and its (legal) name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Company<'a> {
    /// The ticker, such as `"AAPL"`.
    pub symbol: &'a str,
    /// The name, legal suffix and all, such as `"Apple Inc."`.
    pub name: &'a str,
}

/// Words that end a legal name and are left out when matching it in prose.
const LEGAL_SUFFIXES: &[&str] = &[
    "inc",
    "inc.",
    "incorporated",
    "corp",
    "corp.",
    "corporation",
    "co",
    "co.",
    "company",
    "ltd",
    "ltd.",
    "limited",
    "plc",
    "plc.",
    "llc",
    "l.l.c.",
    "lp",
    "l.p.",
    "n.v.",
    "nv",
    "s.a.",
    "sa",
    "ag",
    "se",
    "&",
    "and",
];

/// Share-class wording some listings append to the name.
const SHARE_CLASS: &[&str] = &[" class a", " class b", " class c", " common stock", " ordinary shares", " capital stock"];

/// Short names that people use for companies whose legal names say more.
const KNOWN_ALIASES: &[(&str, &[&str])] = &[
    ("NVDA", &["Nvidia", "NVIDIA"]),
    ("GOOGL", &["Google", "Alphabet"]),
    ("GOOG", &["Google", "Alphabet"]),
    ("META", &["Meta", "Facebook"]),
    ("JPM", &["JPMorgan", "JP Morgan", "J.P. Morgan"]),
    ("XOM", &["Exxon", "ExxonMobil"]),
    ("JNJ", &["J&J"]),
    ("DIS", &["Disney"]),
    ("WMT", &["Walmart", "Wal-Mart"]),
    ("KO", &["Coca-Cola"]),
    ("GS", &["Goldman Sachs"]),
    ("HD", &["Home Depot"]),
    ("VZ", &["Verizon"]),
    ("T", &["AT&T"]),
    ("MA", &["Mastercard"]),
    ("V", &["Visa"]),
    ("BRK.B", &["Berkshire Hathaway"]),
];

/// Exchange names that may prefix a ticker (`NYSE:BA`, `(NASDAQ: AAPL)`).
const EXCHANGES: &[&str] = &[
    "NYSE",
    "NASDAQ",
    "AMEX",
    "ARCA",
    "NYSEARCA",
    "NYSEAMERICAN",
    "AMERICAN",
    "BATS",
    "CBOE",
    "OTC",
    "OTCMKTS",
    "TSX",
    "LSE",
    "NMS",
    "NGS",
];

/// The symbols of `companies` that `text` mentions, in order of first mention, each once.
///
/// A company is mentioned by its ticker as a whole upper-case word (`AAPL`, `$AAPL`,
/// `(NASDAQ: AAPL)`, `NYSE:BA`), or by its name without the legal suffix ("Apple Inc." is
/// matched as "Apple", "The Walt Disney Company" as "Walt Disney" or "Disney", "JPMorgan Chase &
/// Co." as "JPMorgan Chase" or "JPMorgan"), case-sensitively as whole words. One- and
/// two-letter tickers (`T`, `BA`, `KO`) count only after `$`, after an exchange prefix or in
/// parentheses, never as a bare word.
///
/// ```
/// use strikeline_news::{Company, tag_symbols};
/// let companies = [
///     Company { symbol: "AAPL", name: "Apple Inc." },
///     Company { symbol: "BA", name: "The Boeing Company" },
///     Company { symbol: "T", name: "AT&T Inc." },
/// ];
/// assert_eq!(tag_symbols("Boeing and Apple; NYSE:T", &companies), ["BA", "AAPL", "T"]);
/// assert!(tag_symbols("T-Mobile hires a BA graduate", &companies).is_empty());
/// ```
pub fn tag_symbols(text: &str, companies: &[Company<'_>]) -> Vec<String> {
    let mut found: Vec<(usize, &str)> =
        companies.iter().filter_map(|company| first_mention(text, company).map(|at| (at, company.symbol))).collect();
    found.sort_by_key(|&(at, _)| at);
    let mut symbols: Vec<String> = Vec::with_capacity(found.len());
    for (_, symbol) in found {
        if !symbols.iter().any(|s| s == symbol) {
            symbols.push(symbol.to_string());
        }
    }
    symbols
}

/// Where `company` is first mentioned in `text`, if it is.
fn first_mention(text: &str, company: &Company<'_>) -> Option<usize> {
    let symbol = company.symbol.trim();
    let by_ticker = if symbol.is_empty() { None } else { first_ticker(text, &symbol.to_uppercase()) };
    let by_name = names(company).iter().filter_map(|name| whole_words(text, name).next()).min();
    by_ticker.into_iter().chain(by_name).min()
}

/// The names a company goes by in prose: its name without "The", share class and legal
/// suffix, without ".com", and its well-known short names.
fn names(company: &Company<'_>) -> Vec<String> {
    let mut name = company.name.trim();
    name = name.strip_prefix("The ").unwrap_or(name);
    let lower = name.to_lowercase();
    if let Some(class) = SHARE_CLASS.iter().filter_map(|c| lower.find(c)).min() {
        name = name.get(..class).unwrap_or(name);
    }
    loop {
        let trimmed = name.trim_end_matches([',', ' ']);
        let last = trimmed.rsplit(' ').next().unwrap_or_default();
        if trimmed.len() > last.len() && LEGAL_SUFFIXES.contains(&last.to_lowercase().as_str()) {
            name = &trimmed[..trimmed.len() - last.len()];
        } else {
            name = trimmed;
            break;
        }
    }
    let mut names = Vec::new();
    if !name.is_empty() && !LEGAL_SUFFIXES.contains(&name.to_lowercase().as_str()) {
        names.push(name.to_string());
        if let Some(short) = name.strip_suffix(".com").filter(|s| !s.is_empty()) {
            names.push(short.to_string());
        }
    }
    let symbol = company.symbol.trim().to_uppercase();
    if let Some((_, aliases)) = KNOWN_ALIASES.iter().find(|(s, _)| *s == symbol) {
        names.extend(aliases.iter().map(|a| (*a).to_string()));
    }
    names
}

/// The first place `ticker` (upper case) stands as a ticker: a whole word, and for one- and
/// two-letter tickers only after `$`, an exchange prefix or inside parentheses.
fn first_ticker(text: &str, ticker: &str) -> Option<usize> {
    let short = ticker.chars().count() <= 2;
    whole_words(text, ticker).find(|&at| {
        let before = &text[..at];
        let after = &text[at + ticker.len()..];
        let dollar = before.ends_with('$');
        let exchange = before
            .trim_end()
            .strip_suffix(':')
            .map(|b| b.trim_end().rsplit(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default())
            .is_some_and(|word| EXCHANGES.iter().any(|e| e.eq_ignore_ascii_case(word)));
        let parenthesised = before.trim_end().ends_with('(') && after.trim_start().starts_with(')');
        dollar || exchange || parenthesised || !short
    })
}

/// Byte offsets where `word` occurs in `text` not joined to a letter, digit or hyphen on
/// either side.
fn whole_words<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let joined = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let matches = if word.is_empty() { "".match_indices("x") } else { text.match_indices(word) };
    matches.map(|(at, _)| at).filter(move |&at| {
        !text[..at].chars().next_back().is_some_and(joined) && !text[at + word.len()..].chars().next().is_some_and(joined)
    })
}
