//! `dedupe_key`: what counts as the same article.

use strikeline_news::dedupe_key;

#[test]
fn urls_that_are_the_same_article() {
    let base = dedupe_key(Some("https://news.example.com/markets/apple"), "Apple");
    assert_eq!(base, "url:https://news.example.com/markets/apple");
    for variant in [
        "https://news.example.com/markets/apple/",
        "https://www.news.example.com/markets/apple",
        "HTTPS://News.Example.COM/markets/apple",
        "http://news.example.com/markets/apple",
        "https://news.example.com:443/markets/apple",
        "https://news.example.com/markets/apple#comments",
        "https://news.example.com/markets/apple?utm_source=rss&utm_medium=feed&utm_campaign=x",
        "https://news.example.com/markets/apple/?UTM_Source=twitter#top",
        "https://news.example.com/markets/apple?fbclid=IwAR0abc",
        "https://news.example.com/markets/apple?gclid=xyz&utm_term=a",
        "  https://www.news.example.com/markets/apple/?#  ",
    ] {
        assert_eq!(dedupe_key(Some(variant), "A different title"), base, "{variant}");
    }
}

#[test]
fn urls_that_are_different_articles() {
    let base = dedupe_key(Some("https://news.example.com/markets/apple?id=1"), "Apple");
    assert_eq!(base, dedupe_key(Some("https://news.example.com/markets/apple?utm_source=x&id=1"), "Apple"));
    for other in [
        "https://news.example.com/markets/apple?id=2",
        "https://news.example.com/markets/apple",
        "https://news.example.com/markets/Apple?id=1",
        "https://other.example.com/markets/apple?id=1",
        "https://news.example.com/markets/apple/1?id=1",
        "https://news.example.com:8443/markets/apple?id=1",
    ] {
        assert_ne!(dedupe_key(Some(other), "Apple"), base, "{other}");
    }
}

#[test]
fn titles_when_there_is_no_web_address() {
    let key = dedupe_key(None, "Apple’s iPhone: sales   rise 5%!");
    assert_eq!(key, "title:apple s iphone sales rise 5");
    assert_eq!(dedupe_key(None, "APPLE'S iPhone -- sales rise 5%"), key);
    assert_eq!(dedupe_key(Some(""), "apple s iphone sales rise 5"), key);
    assert_eq!(dedupe_key(Some("javascript:alert(1)"), "Apple's iPhone sales rise 5"), key);
    assert_eq!(dedupe_key(Some("https://"), "Apple's iPhone sales rise 5"), key);
    assert_ne!(dedupe_key(None, "Apple iPhone sales rise 6%"), key);
    assert_ne!(dedupe_key(Some("https://e.com/apple-s-iphone-sales-rise-5"), "Apple's iPhone sales rise 5"), key);
}
