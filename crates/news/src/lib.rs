//! Strikeline's news handling, pure: no I/O, no async, no clock. The server fetches feeds and
//! bars; this crate turns them into what the news page shows.
//!
//! - [`parse_feed`] reads an RSS 0.9x/2.0, RSS 1.0 or Atom feed (through feed-rs) into
//!   [`FeedItem`]s of plain text, with only http(s) links and images.
//! - [`plain_text`] turns HTML, or text with entities, into plain text (our own small
//!   extractor: tags, comments, scripts and invisible characters dropped, entities decoded,
//!   cut at a word).
//! - [`tag_symbols`] finds which watchlist [`Company`]s a text mentions, by ticker or name.
//! - [`dedupe_key`] gives the key two copies of one article share (normalised URL, else title).
//! - [`sample_articles`] are the bundled, clearly labelled sample articles (the offline
//!   default).
//! - [`market_notes`] states what the last daily [`Bar`] did that stands out (a large move, a
//!   volume spike, a 52-week high or low), computed from the bars alone and saying so.
//!
//! ```
//! use strikeline_news::{Company, dedupe_key, parse_feed, tag_symbols};
//! let rss = br#"<rss version="2.0"><channel><title>Wire</title><item>
//!   <title>Apple shares rise</title><link>https://www.example.com/a?utm_source=rss</link>
//!   <description><![CDATA[<p>Apple Inc. (NASDAQ: AAPL) rose.</p>]]></description>
//! </item></channel></rss>"#;
//! let items = parse_feed(rss).unwrap();
//! let apple = [Company { symbol: "AAPL", name: "Apple Inc." }];
//! assert_eq!(tag_symbols(&items[0].summary, &apple), ["AAPL"]);
//! assert_eq!(dedupe_key(items[0].url.as_deref(), &items[0].title), "url:https://example.com/a");
//! ```

mod dedupe;
mod entities;
mod feed;
mod notes;
mod samples;
mod tagging;
mod text;

pub use dedupe::dedupe_key;
pub use feed::{FeedError, FeedItem, SUMMARY_MAX_CHARS, TITLE_MAX_CHARS, parse_feed};
pub use notes::{Bar, MarketNote, NoteKind, market_notes};
pub use samples::{SampleArticle, sample_articles};
pub use tagging::{Company, tag_symbols};
pub use text::plain_text;
