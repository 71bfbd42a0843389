//! RSS and Atom feeds to plain-text items.

use chrono::{DateTime, Utc};
use feed_rs::model::{Entry, Link, MediaObject};

use crate::text::{first_img_src, plain_text};

/// The longest title kept, in characters.
pub const TITLE_MAX_CHARS: usize = 300;
/// The longest summary kept, in characters.
pub const SUMMARY_MAX_CHARS: usize = 1_000;
/// The longest source name kept, in characters.
const SOURCE_MAX_CHARS: usize = 200;
/// The longest web address kept.
const URL_MAX_BYTES: usize = 2_048;

/// One article from a feed, as plain text.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedItem {
    /// The feed's own identifier for the item (RSS `guid`, Atom `id`), if it gave one.
    pub guid: Option<String>,
    /// Plain text, at most 300 characters, never empty.
    pub title: String,
    /// Plain text from the description, summary or content, at most 1,000 characters (cut at
    /// a word, with "…"); may be empty.
    pub summary: String,
    /// The item's first http(s) link; other schemes (`javascript:`, `data:`) are dropped.
    pub url: Option<String>,
    /// An http(s) image: `media:thumbnail`, `media:content` or an image enclosure, else the
    /// first `<img src>` in the item's HTML.
    pub image_url: Option<String>,
    /// When it was published, else when it was last updated.
    pub published_at: Option<DateTime<Utc>>,
    /// The feed's title, plain text, or "" if it has none.
    pub source: String,
}

/// Why a feed could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    /// The bytes are not a feed feed-rs can read.
    #[error("not an RSS or Atom feed: {0}")]
    Parse(String),
}

/// The items of an RSS 0.9x/2.0, RSS 1.0 or Atom feed (JSON Feed is read too), in feed order,
/// as plain text. Items without a title are skipped. `bytes` are the feed as received: its XML
/// prolog names the encoding.
///
/// # Errors
///
/// [`FeedError::Parse`] when the bytes are not a well-formed feed.
///
/// ```
/// let rss = br#"<rss version="2.0"><channel><title>Wire</title>
///   <item><title>Apple &amp; Microsoft</title><link>javascript:alert(1)</link>
///   <description>&lt;p&gt;Up &lt;b&gt;3%&lt;/b&gt;&lt;/p&gt;</description></item>
/// </channel></rss>"#;
/// let items = strikeline_news::parse_feed(rss).unwrap();
/// assert_eq!(items[0].title, "Apple & Microsoft");
/// assert_eq!(items[0].summary, "Up 3%");
/// assert_eq!(items[0].url, None);
/// assert_eq!(items[0].source, "Wire");
/// ```
pub fn parse_feed(bytes: &[u8]) -> Result<Vec<FeedItem>, FeedError> {
    // No invented identifiers: an item without one keeps `guid: None`.
    let parser = feed_rs::parser::Builder::new().id_generator(|_, _, _| String::new()).build();
    let feed = parser.parse(bytes).map_err(|e| FeedError::Parse(e.to_string()))?;
    let source = feed.title.as_ref().map(|t| plain_text(&t.content, SOURCE_MAX_CHARS)).unwrap_or_default();
    Ok(feed.entries.iter().filter_map(|entry| item(entry, &source)).collect())
}

/// One entry as an item, or `None` if it has no title.
fn item(entry: &Entry, source: &str) -> Option<FeedItem> {
    let title = plain_text(&entry.title.as_ref()?.content, TITLE_MAX_CHARS);
    if title.is_empty() {
        return None;
    }
    let summary_html = entry.summary.as_ref().map(|s| s.content.as_str()).filter(|s| !s.trim().is_empty());
    let content_html = entry.content.as_ref().and_then(|c| c.body.as_deref()).filter(|s| !s.trim().is_empty());
    let mut summary = summary_html.map(|html| plain_text(html, SUMMARY_MAX_CHARS)).unwrap_or_default();
    if summary.is_empty() {
        summary = content_html.map(|html| plain_text(html, SUMMARY_MAX_CHARS)).unwrap_or_default();
    }
    let image_url = media_image(&entry.media)
        .or_else(|| enclosure_link_image(&entry.links))
        .or_else(|| summary_html.into_iter().chain(content_html).find_map(|html| first_img_src(html).and_then(|src| web_address(&src))));
    let guid = Some(entry.id.trim()).filter(|id| !id.is_empty()).map(str::to_string);
    Some(FeedItem {
        guid,
        title,
        summary,
        url: article_link(&entry.links),
        image_url,
        published_at: entry.published.or(entry.updated),
        source: source.to_string(),
    })
}

/// The first http(s) link to the article itself (no `rel`, or `rel="alternate"`), else the
/// first http(s) link that is not an enclosure, the feed itself or its comments.
fn article_link(links: &[Link]) -> Option<String> {
    let rel = |link: &Link| link.rel.as_deref().map(str::to_ascii_lowercase);
    let first = |wanted: &dyn Fn(Option<String>) -> bool| {
        links.iter().filter(|l| l.target.is_none() && wanted(rel(l))).find_map(|l| web_address(&l.href))
    };
    first(&|r| r.is_none_or(|r| r == "alternate"))
        .or_else(|| first(&|r| r.is_some_and(|r| !matches!(r.as_str(), "enclosure" | "self" | "edit" | "hub"))))
}

/// An image from Media RSS (`media:thumbnail`, `media:content` of an image type) or an RSS
/// image `<enclosure>`. (feed-rs 3 keeps a `media:thumbnail` only alongside a `media:content`
/// or inside a `media:group`; a lone one is lost, and the HTML's `<img>` is used instead.)
fn media_image(media: &[MediaObject]) -> Option<String> {
    let thumbnails = media.iter().flat_map(|m| &m.thumbnails).map(|t| t.image.uri.as_str());
    let contents = media.iter().flat_map(|m| &m.content).filter_map(|c| {
        let url = c.url.as_ref()?.as_str();
        let is_image = match &c.content_type {
            Some(mime) => mime.ty().as_str().eq_ignore_ascii_case("image"),
            None => looks_like_image(url),
        };
        is_image.then_some(url)
    });
    thumbnails.chain(contents).find_map(web_address)
}

/// An Atom `<link rel="enclosure">` of an image type.
fn enclosure_link_image(links: &[Link]) -> Option<String> {
    links
        .iter()
        .filter(|l| l.rel.as_deref().is_some_and(|r| r.eq_ignore_ascii_case("enclosure")))
        .filter(|l| match &l.media_type {
            Some(t) => t.to_ascii_lowercase().starts_with("image/"),
            None => looks_like_image(&l.href),
        })
        .find_map(|l| web_address(&l.href))
}

/// Whether a web address's path ends in an image file extension.
fn looks_like_image(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or_default().to_ascii_lowercase();
    [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"].iter().any(|ext| path.ends_with(ext))
}

/// `address` if it is an absolute http(s) address with a host and nothing that could break
/// out of an attribute; protocol-relative `//host/…` is taken as https.
pub(crate) fn web_address(address: &str) -> Option<String> {
    let address = address.trim();
    let address = match address.strip_prefix("//") {
        Some(rest) => format!("https://{rest}"),
        None => address.to_string(),
    };
    let lower = address.get(..8).unwrap_or(&address).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &address[8..]
    } else if lower.starts_with("http://") {
        &address[7..]
    } else {
        return None;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let ok = !host.is_empty()
        && address.len() <= URL_MAX_BYTES
        && !address.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\' | '`'));
    ok.then_some(address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_web_addresses() {
        assert_eq!(web_address(" https://e.com/a ").as_deref(), Some("https://e.com/a"));
        assert_eq!(web_address("HTTP://e.com").as_deref(), Some("HTTP://e.com"));
        assert_eq!(web_address("//cdn.e.com/i.png").as_deref(), Some("https://cdn.e.com/i.png"));
        for bad in [
            "javascript:alert(1)",
            "data:image/png;base64,xx",
            "https://",
            "/relative",
            "ftp://e.com",
            "https://e.com/a b",
            "https://e.com/\"><script>",
            "é",
        ] {
            assert_eq!(web_address(bad), None, "{bad}");
        }
    }
}
