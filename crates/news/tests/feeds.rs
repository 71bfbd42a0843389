//! `parse_feed` on RSS 2.0, Atom and RSS 1.0 fixtures, and on input that is not a feed.

use chrono::{DateTime, Utc};
use strikeline_news::{FeedError, FeedItem, parse_feed};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn items(name: &str) -> Vec<FeedItem> {
    parse_feed(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn at(rfc3339: &str) -> Option<DateTime<Utc>> {
    Some(DateTime::parse_from_rfc3339(rfc3339).expect("valid date").with_timezone(&Utc))
}

fn assert_plain(item: &FeedItem) {
    for text in [&item.title, &item.summary, &item.source] {
        for bad in ["<", "&amp;", "&lt;", "alert", "javascript", "color: red", "fallback", "hidden comment"] {
            assert!(!text.contains(bad), "{bad:?} in {text:?}");
        }
    }
    assert!(!item.title.is_empty() && item.title.chars().count() <= 300);
    assert!(item.summary.chars().count() <= 1_000);
    for url in [&item.url, &item.image_url].into_iter().flatten() {
        assert!(url.starts_with("https://") || url.starts_with("http://"), "{url}");
    }
}

#[test]
fn rss2_items_are_plain_text_with_safe_links() {
    let items = items("rss2.xml");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Apple’s iPhone & Mac sales rise 5%", "Tesla cuts prices", "Boeing update", "Exxon Mobil enclosure", "Caterpillar long read"],
        "the untitled and blank-titled items are skipped"
    );
    items.iter().for_each(assert_plain);
    assert!(items.iter().all(|i| i.source == "Example & Co Markets"));

    let apple = &items[0];
    assert_eq!(apple.guid.as_deref(), Some("apple-1"));
    assert_eq!(apple.summary, "Apple Inc. (NASDAQ: AAPL) said “demand is strong”. More to come…");
    assert_eq!(apple.url.as_deref(), Some("https://www.news.example.com/markets/apple-iphone/?utm_source=rss&utm_medium=feed"));
    // feed-rs drops a media:thumbnail that has no media:content; the HTML's <img> is used.
    assert_eq!(apple.image_url.as_deref(), Some("https://img.example.com/apple.jpg?w=600&h=400"));
    assert_eq!(apple.published_at, at("2026-11-24T14:30:00Z"));

    let tesla = &items[1];
    assert_eq!(tesla.guid, None);
    assert_eq!(tesla.summary, "Tesla, Inc. trimmed prices.");
    assert_eq!(tesla.url.as_deref(), Some("https://news.example.com/tesla#comments"));
    assert_eq!(tesla.image_url.as_deref(), Some("https://img.example.com/tesla-media.jpg"), "media:content before <img>");
    assert_eq!(tesla.published_at, at("2026-11-23T14:00:00Z"));

    let boeing = &items[2];
    assert_eq!(boeing.url, None, "javascript: link dropped, comments link not taken instead");
    assert_eq!(boeing.image_url, None, "data: image dropped");
    assert_eq!(boeing.published_at, None);
    assert_eq!(boeing.summary, "No date on this one. Click");

    let exxon = &items[3];
    assert_eq!(exxon.summary, "Only content here: Exxon Mobil Corporation (NYSE: XOM).", "content:encoded when no description");
    assert_eq!(exxon.image_url.as_deref(), Some("https://img.example.com/exxon.jpeg"), "image enclosure");
    assert_eq!(exxon.published_at, at("2026-11-20T08:15:00Z"), "dc:date");

    let cat = &items[4];
    assert!(cat.summary.ends_with("for…"), "{}", cat.summary);
    assert!(cat.summary.chars().count() <= 1_000 && cat.summary.chars().count() > 900);
    assert_eq!(cat.url.as_deref(), Some("http://news.example.com/cat"));
    assert_eq!(cat.image_url, None, "an audio enclosure is not an image");
}

#[test]
fn atom_entries() {
    let items = items("atom.xml");
    assert_eq!(items.len(), 3, "the untitled entry is skipped");
    items.iter().for_each(assert_plain);
    assert!(items.iter().all(|i| i.source == "Atom & Example"));

    let nvda = &items[0];
    assert_eq!(nvda.guid.as_deref(), Some("tag:atom.example.com,2026:nvda-1"));
    assert_eq!(nvda.title, "NVIDIA beats estimates");
    assert_eq!(nvda.summary, "NVIDIA Corporation ’s data-center revenue grew.");
    assert_eq!(nvda.url.as_deref(), Some("https://atom.example.com/nvda?fbclid=abc"));
    assert_eq!(nvda.image_url.as_deref(), Some("https://atom.example.com/nvda.png"), "enclosure link");
    assert_eq!(nvda.published_at, at("2026-11-24T10:00:00Z"), "published wins over updated");

    let msft = &items[1];
    assert_eq!(msft.guid, None);
    assert_eq!(msft.summary, "Microsoft content body.", "content when there is no summary");
    assert_eq!(msft.url.as_deref(), Some("https://atom.example.com/msft"), "javascript: skipped");
    assert_eq!(msft.image_url.as_deref(), Some("https://atom.example.com/msft.jpg"));
    assert_eq!(msft.published_at, at("2026-11-22T15:45:00Z"), "updated when not published");

    let plain = &items[2];
    assert_eq!((plain.summary.as_str(), plain.url.as_deref(), plain.published_at), ("", None, None));
}

#[test]
fn rss1_items() {
    let items = items("rss1.xml");
    items.iter().for_each(assert_plain);
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(titles, ["JPMorgan Chase & Co. reports", "The Coca-Cola Company (NYSE: KO) dividend"]);
    assert_eq!(items[0].summary, "JPMorgan said net interest income rose — again.");
    assert_eq!(items[0].url.as_deref(), Some("https://rdf.example.com/jpm"));
    assert_eq!(items[0].published_at, at("2026-11-21T13:00:00Z"));
    assert_eq!(items[1].published_at, None);
    assert!(items.iter().all(|i| i.source == "RDF Wire"));
}

#[test]
fn not_a_feed_is_an_error() {
    for bytes in [&b""[..], b"hello", b"<html><body><p>Hi</p></body></html>", b"{\"not\": \"a feed\"}", b"\xff\xfe<"] {
        match parse_feed(bytes) {
            Err(e @ FeedError::Parse(_)) => {
                assert!(e.to_string().starts_with("not an RSS or Atom feed: "))
            }
            Ok(items) => panic!("{:?} parsed as {items:?}", String::from_utf8_lossy(bytes)),
        }
    }
}

#[test]
fn truncated_and_damaged_feeds_never_panic() {
    for name in ["rss2.xml", "atom.xml", "rss1.xml"] {
        let bytes = fixture(name);
        for end in (0..bytes.len()).step_by(7) {
            let _ = parse_feed(&bytes[..end]);
            let mut damaged = bytes.clone();
            damaged[end] = b'<';
            let _ = parse_feed(&damaged);
        }
    }
}
