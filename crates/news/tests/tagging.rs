//! `tag_symbols`: tickers and company names, and what must not be tagged.

use strikeline_news::{Company, tag_symbols};

const WATCHLIST: &[(&str, &str)] = &[
    ("AAPL", "Apple Inc."),
    ("MSFT", "Microsoft Corporation"),
    ("NVDA", "NVIDIA Corporation"),
    ("GOOGL", "Alphabet Inc."),
    ("META", "Meta Platforms, Inc."),
    ("JPM", "JPMorgan Chase & Co."),
    ("JNJ", "Johnson & Johnson"),
    ("XOM", "Exxon Mobil Corporation"),
    ("DIS", "The Walt Disney Company"),
    ("KO", "The Coca-Cola Company"),
    ("BA", "The Boeing Company"),
    ("T", "AT&T Inc."),
    ("MA", "Mastercard Incorporated"),
    ("GS", "The Goldman Sachs Group, Inc."),
    ("HD", "The Home Depot, Inc."),
    ("VZ", "Verizon Communications Inc."),
    ("AMZN", "Amazon.com, Inc."),
];

fn tag(text: &str) -> Vec<String> {
    let companies: Vec<Company<'_>> = WATCHLIST.iter().map(|&(symbol, name)| Company { symbol, name }).collect();
    tag_symbols(text, &companies)
}

#[test]
fn tickers_in_their_usual_forms() {
    let cases: &[(&str, &[&str])] = &[
        ("AAPL rallies", &["AAPL"]),
        ("Buying $AAPL and $MSFT", &["AAPL", "MSFT"]),
        ("Shares of the iPhone maker (NASDAQ: AAPL) rose", &["AAPL"]),
        ("NYSE:BA slides", &["BA"]),
        ("The carrier (NYSE: T) and $VZ", &["T", "VZ"]),
        ("Beverage maker (KO) steady", &["KO"]),
        ("Nasdaq: GS? No, NYSE: GS", &["GS"]),
        ("NYSE American:MA", &["MA"]),
        ("AAPL's results; XOM, JNJ.", &["AAPL", "XOM", "JNJ"]),
    ];
    for (text, want) in cases {
        assert_eq!(tag(text), *want, "{text:?}");
    }
}

#[test]
fn company_names_without_legal_suffixes() {
    let cases: &[(&str, &[&str])] = &[
        ("Apple unveils a new phone", &["AAPL"]),
        ("Meta Platforms and Microsoft talk AI", &["META", "MSFT"]),
        ("Walt Disney parks; Disney+ subscribers", &["DIS"]),
        ("Disney and The Coca-Cola Company", &["DIS", "KO"]),
        ("JPMorgan economists and JPMorgan Chase", &["JPM"]),
        ("Johnson & Johnson talc ruling", &["JNJ"]),
        ("Exxon Mobil and NVIDIA", &["XOM", "NVDA"]),
        ("Google, a unit of Alphabet", &["GOOGL"]),
        ("Amazon.com sales; Amazon Prime", &["AMZN"]),
        ("AT&T and Verizon", &["T", "VZ"]),
        ("Goldman Sachs upgrades Home Depot", &["GS", "HD"]),
    ];
    for (text, want) in cases {
        assert_eq!(tag(text), *want, "{text:?}");
    }
}

#[test]
fn first_mention_order_without_duplicates() {
    assert_eq!(tag("Microsoft beats; Apple lags; MSFT up, AAPL down, $MSFT again"), ["MSFT", "AAPL"]);
    assert_eq!(tag("NVDA then Exxon Mobil then NVIDIA"), ["NVDA", "XOM"]);
}

#[test]
fn what_is_not_a_mention() {
    for text in [
        "T-Mobile cuts prices",
        "She has a BA degree",
        "MA in prose, GS and HD video, a KO punch, VZ",
        "T is a letter. BA. KO!",
        "apple pie and pineapple",
        "Pineapple Express, Applebee's, Snapple",
        "aapl lower case, AAPLX fund, XAAPL",
        "meta analysis, Meta-analysis, metaverse",
        "Disneyland-style", // not "Disney" as a whole word
        "Coca cola",
        "",
    ] {
        assert_eq!(tag(text), Vec::<String>::new(), "{text:?}");
    }
}

#[test]
fn empty_companies_and_odd_entries() {
    assert!(tag_symbols("Apple AAPL", &[]).is_empty());
    let odd = [Company { symbol: "", name: "" }, Company { symbol: " ", name: "Inc." }];
    assert!(tag_symbols("Apple AAPL Inc.", &odd).is_empty());
}
