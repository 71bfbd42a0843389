//! HTML (or text with entities) to plain text, without an HTML parser.
//!
//! A small forgiving tokeniser in the spirit of the HTML5 one: tags and comments are dropped,
//! the content of `<script>`, `<style>`, `<iframe>` (and a few other non-text elements) is
//! dropped with them, entities are decoded, whitespace is collapsed, and characters that are
//! invisible or reorder text (controls, bidi overrides, zero-width) are removed. It works on
//! any input: an unclosed tag runs to the end of the input and is dropped, a `<` that cannot
//! start a tag (`a < b`, `<3`) is kept as text.

use crate::entities::decode_entity;

/// Elements whose whole content is dropped along with the tags.
const SKIPPED_ELEMENTS: &[&str] = &["script", "style", "iframe", "noscript", "template", "svg", "math", "object", "head"];

/// Inline elements: their tags join the text around them ("un<b>believ</b>able"); every other
/// tag separates words ("one<br>two", "</p><p>").
const INLINE_ELEMENTS: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark", "q", "s", "samp",
    "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
];

/// `html` as plain text of at most `max_chars` characters: tags, comments and the content of
/// `<script>`, `<style>` and `<iframe>` dropped; named (`&amp;`, `&nbsp;`, `&rsquo;`, …) and
/// numeric (`&#8217;`, `&#x2019;`) entities decoded; whitespace collapsed to single spaces;
/// control, bidi-override and zero-width characters removed; longer text cut at a word
/// boundary and ended with "…" (the "…" counts towards `max_chars`).
///
/// Text whose entities themselves spell out tags (a feed that escaped its HTML twice, such as
/// `&lt;b&gt;Hi&lt;/b&gt;`) is stripped again, so the result never contains a `<` that starts
/// a tag or comment, whatever the input. Never panics.
///
/// ```
/// use strikeline_news::plain_text;
/// let html = "<p>Apple&#8217;s <b>iPhone</b> &amp; more<script>alert(1)</script></p><p>Next</p>";
/// assert_eq!(plain_text(html, 100), "Apple’s iPhone & more Next");
/// assert_eq!(plain_text("one two three four", 12), "one two…");
/// ```
pub fn plain_text(html: &str, max_chars: usize) -> String {
    let mut text = strip(html, false);
    for _ in 0..2 {
        if !has_tag(&text) {
            break;
        }
        text = strip(&text, true);
    }
    if has_tag(&text) {
        text = neutralise(&text);
    }
    truncate(&text, max_chars)
}

/// `text` without any `<` that starts markup, or that is followed by another `<` (dropping
/// that one could join the first to a tag name). Only for hostile input that survived
/// repeated stripping (`<<<i></i>i></i>b`).
fn neutralise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        let here = &text[at..];
        if c == '<' && (here[1..].starts_with('<') || starts_markup(here)) {
            continue;
        }
        out.push(c);
    }
    out
}

/// The `src` of the first `<img>` in `html`, entity-decoded and trimmed (not yet checked to be
/// a web address).
pub(crate) fn first_img_src(html: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        match read_markup(&rest[at..], usize::MAX) {
            Markup::Tag { name, closing: false, attrs, len, .. } => {
                if name.eq_ignore_ascii_case("img")
                    && let Some(src) = attribute(attrs, "src")
                {
                    return Some(src);
                }
                rest = &rest[at + len..];
            }
            Markup::Tag { len, .. } | Markup::Skip { len } => rest = &rest[at + len..],
            Markup::Cdata { len, .. } => rest = &rest[at + len..],
            Markup::Text => rest = &rest[at + 1..],
        }
    }
    None
}

/// Whether `text` contains something that would be read as a tag or comment.
fn has_tag(text: &str) -> bool {
    text.match_indices('<').any(|(at, _)| starts_markup(&text[at..]))
}

/// One pass: markup dropped, entities decoded, whitespace collapsed, invisible characters
/// removed. An unclosed tag runs to the end of the input, as in a browser, unless `lenient`
/// (text whose tags came from entities): then its `<` is left for [`neutralise`], so that
/// "&lt;not a tag" does not swallow the rest.
fn strip(html: &str, lenient: bool) -> String {
    let mut out = Collapser::with_capacity(html.len());
    let last_gt = html.rfind('>');
    let mut rest = html;
    while let Some(at) = rest.find(['<', '&']) {
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        if here.starts_with('&') {
            let (decoded, len) = decode_entity(here);
            if let Some(c) = decoded {
                out.push(c);
            }
            rest = &here[len..];
            continue;
        }
        // Entity-made markup with no `>` after it cannot close: its `<` stays text, found in
        // constant time.
        let unclosable = lenient && last_gt.is_none_or(|gt| gt < html.len() - here.len());
        let limit = if lenient { LENIENT_TAG_BYTES } else { usize::MAX };
        let markup = if unclosable { Markup::Text } else { read_markup(here, limit) };
        match markup {
            Markup::Text => {
                out.push('<');
                rest = &here[1..];
            }
            Markup::Skip { len } => {
                out.space();
                rest = &here[len..];
            }
            Markup::Cdata { body, len } => {
                out.push_str(body);
                rest = &here[len..];
            }
            Markup::Tag { closed: false, .. } if lenient => {
                out.push('<');
                rest = &here[1..];
            }
            Markup::Tag { name, closing, len, .. } => {
                rest = &here[len..];
                let inline = INLINE_ELEMENTS.iter().any(|e| name.eq_ignore_ascii_case(e));
                if !inline {
                    out.space();
                }
                if !closing && let Some(skipped) = SKIPPED_ELEMENTS.iter().find(|e| name.eq_ignore_ascii_case(e)) {
                    rest = after_closing_tag(rest, skipped);
                }
            }
        }
    }
    out.push_str(rest);
    out.finish()
}

/// What a `<` starts.
enum Markup<'a> {
    /// Not markup: a literal `<`.
    Text,
    /// A comment, doctype or processing instruction, `len` bytes long (to the end of the input
    /// if unclosed).
    Skip { len: usize },
    /// `<![CDATA[ … ]]>`: its body is text.
    Cdata { body: &'a str, len: usize },
    /// A start or end tag, `len` bytes long (to the end of the input if not `closed`).
    Tag { name: &'a str, closing: bool, attrs: &'a str, len: usize, closed: bool },
}

/// The longest tag looked for in text whose tags came from entities; a longer one is text.
/// (This keeps hostile input such as `<a"<a"<a"…>` linear.)
const LENIENT_TAG_BYTES: usize = 1_024;

/// Whether the `<` at the start of `s` starts markup, that is, whether [`read_markup`] would
/// not answer [`Markup::Text`], without reading to the markup's end.
fn starts_markup(s: &str) -> bool {
    let bytes = s.as_bytes();
    match bytes.get(1) {
        Some(b'!' | b'?') => true,
        Some(b'/') => bytes.len() > 2,
        Some(c) => c.is_ascii_alphabetic(),
        None => false,
    }
}

/// Reads the markup at the start of `s`, which starts with `<`; a tag not closed within
/// `limit` bytes counts as unclosed.
fn read_markup(s: &str, limit: usize) -> Markup<'_> {
    let bytes = s.as_bytes();
    let next = bytes.get(1).copied();
    match next {
        Some(b'!') => {
            if let Some(body) = s.strip_prefix("<![CDATA[") {
                return match body.find("]]>") {
                    Some(end) => Markup::Cdata { body: &body[..end], len: 9 + end + 3 },
                    None => Markup::Cdata { body, len: s.len() },
                };
            }
            if let Some(body) = s.strip_prefix("<!--") {
                let len = body.find("-->").map_or(s.len(), |end| 4 + end + 3);
                return Markup::Skip { len };
            }
            Markup::Skip { len: s.find('>').map_or(s.len(), |end| end + 1) }
        }
        Some(b'?') => Markup::Skip { len: s.find('>').map_or(s.len(), |end| end + 1) },
        Some(b'/') if bytes.get(2).is_some_and(u8::is_ascii_alphabetic) => read_tag(s, 2, true, limit),
        // "</>" and "</ …>" are dropped like comments, as browsers do; "</" at the end is text.
        Some(b'/') if bytes.len() > 2 => Markup::Skip { len: s.find('>').map_or(s.len(), |end| end + 1) },
        Some(c) if c.is_ascii_alphabetic() => read_tag(s, 1, false, limit),
        _ => Markup::Text,
    }
}

/// Reads a tag whose name starts at byte `from`, skipping quoted attribute values, to its `>`.
fn read_tag(s: &str, from: usize, closing: bool, limit: usize) -> Markup<'_> {
    let mut end = s.len().min(limit.max(from));
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    let bytes = &s.as_bytes()[..end];
    let mut i = from;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' && bytes[i] != b'/' {
        i += 1;
    }
    let name = &s[from..i];
    let attrs_start = i;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => {
                return Markup::Tag { name, closing, attrs: &s[attrs_start..i], len: i + 1, closed: true };
            }
            None => {}
        }
        i += 1;
    }
    Markup::Tag { name, closing, attrs: &s[attrs_start..end], len: s.len(), closed: false }
}

/// The rest of `s` after `</name …>` (case-insensitive), or nothing if it never closes.
fn after_closing_tag<'a>(s: &'a str, name: &str) -> &'a str {
    let mut from = 0;
    while let Some(found) = s[from..].find("</") {
        let at = from + found;
        let after = &s[at + 2..];
        let matches = after.get(..name.len()).is_some_and(|n| n.eq_ignore_ascii_case(name))
            && after[name.len()..].bytes().next().is_none_or(|b| b == b'>' || b == b'/' || b.is_ascii_whitespace());
        if matches {
            let tail = &s[at..];
            return tail.find('>').map_or("", |end| &tail[end + 1..]);
        }
        from = at + 2;
    }
    ""
}

/// The value of attribute `wanted` in a tag's attribute text, entity-decoded and trimmed.
fn attribute(attrs: &str, wanted: &str) -> Option<String> {
    let bytes = attrs.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'=' | b'/') {
            i += 1;
        }
        let name = &attrs[name_start..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = None;
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let (start, end, next) = match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let end = attrs[i + 1..].find(q as char).map_or(attrs.len(), |e| i + 1 + e);
                    (i + 1, end, end + 1)
                }
                _ => {
                    let end = attrs[i..].find(|c: char| c.is_ascii_whitespace()).map_or(attrs.len(), |e| i + e);
                    (i, end, end)
                }
            };
            value = Some(&attrs[start..end]);
            i = next;
        }
        if name.eq_ignore_ascii_case(wanted) {
            return value.map(|v| strip_entities_only(v).trim().to_string());
        }
        if name.is_empty() && value.is_none() {
            i += 1;
        }
    }
    None
}

/// Entities decoded, nothing else touched (for attribute values).
fn strip_entities_only(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let (decoded, len) = decode_entity(&rest[at..]);
        out.extend(decoded);
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// Characters removed outright: controls other than whitespace, bidi marks and overrides,
/// zero-width characters, the soft hyphen, the byte-order mark and noncharacters.
fn is_invisible(c: char) -> bool {
    (c.is_control() && !c.is_whitespace())
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{FDD0}'..='\u{FDEF}'
        )
        || (c as u32 & 0xFFFE) == 0xFFFE
}

/// Builds the output: whitespace runs become one space, invisible characters vanish, no
/// leading or trailing space.
struct Collapser {
    out: String,
    pending_space: bool,
}

impl Collapser {
    fn with_capacity(capacity: usize) -> Self {
        Self { out: String::with_capacity(capacity), pending_space: false }
    }

    fn push(&mut self, c: char) {
        if c.is_whitespace() {
            self.pending_space = true;
        } else if !is_invisible(c) {
            if self.pending_space && !self.out.is_empty() {
                self.out.push(' ');
            }
            self.pending_space = false;
            self.out.push(c);
        }
    }

    fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    fn space(&mut self) {
        self.pending_space = true;
    }

    fn finish(self) -> String {
        self.out
    }
}

/// `text` cut to at most `max_chars` characters: at the last space that keeps at least half of
/// the room (else mid-word), trailing punctuation dropped, with "…".
pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    let Some((cut, _)) = text.char_indices().nth(max_chars) else {
        return text.to_string();
    };
    if max_chars == 0 {
        return String::new();
    }
    // Room for the ellipsis.
    let room_end = text.char_indices().nth(max_chars - 1).map_or(cut, |(i, _)| i);
    let room = &text[..room_end];
    let at_word = if text[room_end..].starts_with(' ') {
        room
    } else {
        match room.rfind(' ') {
            Some(space) if room[..space].chars().count() * 2 >= max_chars - 1 => &room[..space],
            _ => room,
        }
    };
    let kept = at_word.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '–' | '—'));
    let mut out = String::with_capacity(kept.len() + 3);
    out.push_str(kept);
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_entities() {
        assert_eq!(plain_text("AT&amp;T &lt;b&gt; &quot;x&quot; &apos;y&#39;", 100), "AT&T \"x\" 'y'");
        assert_eq!(plain_text("Apple&#8217;s &#x2019; &#146; &rsquo;", 100), "Apple’s ’ ’ ’");
        assert_eq!(plain_text("a&nbsp;&nbsp;b &mdash; c&hellip;", 100), "a b — c…");
        assert_eq!(plain_text("AT&T &unknown; & &#; &#xZZ;", 100), "AT&T &unknown; & &#; &#xZZ;");
        assert_eq!(plain_text("x&#99999999999;y &#0;z &#xD800;w", 100), "xy z w");
    }

    #[test]
    fn truncates_at_a_word() {
        assert_eq!(truncate("one two three", 13), "one two three");
        assert_eq!(truncate("one two three", 12), "one two…");
        assert_eq!(truncate("one two three", 8), "one two…");
        assert_eq!(truncate("one two, three", 10), "one two…");
        assert_eq!(truncate("abcdefghij", 5), "abcd…");
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(truncate("abc", 1), "…");
        assert_eq!(truncate("ééé ééé", 5), "ééé…");
    }

    #[test]
    fn reads_img_src() {
        assert_eq!(
            first_img_src(r#"<p>x</p><IMG alt="a>b" SRC='https://e.com/a.png?x=1&amp;y=2'>"#).as_deref(),
            Some("https://e.com/a.png?x=1&y=2")
        );
        assert_eq!(first_img_src("<img src=https://e.com/b.jpg width=3>").as_deref(), Some("https://e.com/b.jpg"));
        assert_eq!(first_img_src("<img alt=x>"), None);
        assert_eq!(first_img_src("<img src"), None);
        assert_eq!(first_img_src("<imgsrc='x'>"), None);
    }
}
