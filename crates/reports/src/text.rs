//! Text for the standard-14 Helvetica fonts: encoding to WinAnsi bytes, measuring,
//! truncating to a width and word wrapping.
//!
//! Everything works on encoded bytes (one byte per glyph), so what is measured is exactly
//! what is shown.

use pdf_writer::Name;

use crate::metrics::{HELVETICA, HELVETICA_BOLD};

/// One of the two faces the reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Font {
    /// Helvetica.
    Regular,
    /// Helvetica-Bold.
    Bold,
}

impl Font {
    /// Both faces, in resource order.
    pub(crate) const ALL: [Font; 2] = [Font::Regular, Font::Bold];

    /// The name of the font in a page's resources.
    pub(crate) fn resource(self) -> Name<'static> {
        match self {
            Font::Regular => Name(b"F1"),
            Font::Bold => Name(b"F2"),
        }
    }

    /// The PostScript name of the standard-14 font.
    pub(crate) fn base_font(self) -> Name<'static> {
        match self {
            Font::Regular => Name(b"Helvetica"),
            Font::Bold => Name(b"Helvetica-Bold"),
        }
    }

    fn widths(self) -> &'static [u16; 224] {
        match self {
            Font::Regular => &HELVETICA,
            Font::Bold => &HELVETICA_BOLD,
        }
    }

    /// The advance width of one encoded byte, in thousandths of an em.
    fn advance(self, byte: u8) -> u16 {
        byte.checked_sub(32).and_then(|i| self.widths().get(usize::from(i))).copied().unwrap_or(0)
    }
}

/// Height of a capital letter in Helvetica, as a fraction of the font size (718/1000).
pub(crate) const CAP_HEIGHT: f32 = 0.718;

/// The WinAnsiEncoding byte for a character: printable ASCII and Latin-1 map to
/// themselves, the typographic characters of 0x80–0x9F (€, dashes, curly quotes, …) to
/// their code; tab and line breaks become a space, everything else `?`.
pub(crate) fn win_ansi(c: char) -> u8 {
    match c {
        // Both ranges are below 256: the casts keep every bit.
        ' '..='~' | '\u{a0}'..='\u{ff}' => c as u8,
        '\t' | '\n' | '\r' => b' ',
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8a,
        '‹' => 0x8b,
        'Œ' => 0x8c,
        'Ž' => 0x8e,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9a,
        '›' => 0x9b,
        'œ' => 0x9c,
        'ž' => 0x9e,
        'Ÿ' => 0x9f,
        // A few look-alikes that WinAnsi lacks but that have an honest stand-in.
        '\u{2010}' | '\u{2011}' | '\u{2212}' => b'-',
        '\u{2007}' | '\u{2009}' | '\u{202f}' => b' ',
        _ => b'?',
    }
}

/// A string as WinAnsi bytes, one per character.
pub(crate) fn encode(text: &str) -> Vec<u8> {
    text.chars().map(win_ansi).collect()
}

/// The width of encoded text at `size` points.
pub(crate) fn width(bytes: &[u8], font: Font, size: f32) -> f32 {
    let units: u32 = bytes.iter().map(|&b| u32::from(font.advance(b))).sum();
    // Sums of at most a few thousand glyphs: exact in an f32.
    units as f32 * size / 1000.0
}

/// The width of a string at `size` points.
pub(crate) fn text_width(text: &str, font: Font, size: f32) -> f32 {
    width(&encode(text), font, size)
}

/// Slack for rounding when comparing widths.
const EPSILON: f32 = 1e-3;

const ELLIPSIS: &[u8] = b"...";

/// The encoded text, cut to fit `max` points with a trailing `...` when it is wider.
/// When not even the dots fit, as many dots as fit.
pub(crate) fn fit(text: &str, font: Font, size: f32, max: f32) -> Vec<u8> {
    fit_bytes(encode(text), font, size, max)
}

/// [`fit`] for already encoded text.
pub(crate) fn fit_bytes(mut bytes: Vec<u8>, font: Font, size: f32, max: f32) -> Vec<u8> {
    if width(&bytes, font, size) <= max + EPSILON {
        return bytes;
    }
    let dots = width(ELLIPSIS, font, size);
    if dots > max + EPSILON {
        let dot = width(b".", font, size);
        let n = if dot > 0.0 { (max / dot).floor().max(0.0) as usize } else { 0 };
        return vec![b'.'; n.min(3)];
    }
    let mut used = 0.0;
    let mut keep = 0;
    for &b in &bytes {
        let w = width(&[b], font, size);
        if used + w + dots > max + EPSILON {
            break;
        }
        used += w;
        keep += 1;
    }
    bytes.truncate(keep);
    while bytes.last() == Some(&b' ') {
        bytes.pop();
    }
    bytes.extend_from_slice(ELLIPSIS);
    bytes
}

/// Word-wraps text into lines no wider than `max` points. Line breaks in the text are
/// kept (an empty line stays empty); runs of spaces collapse; a word wider than a line is
/// broken between characters.
pub(crate) fn wrap(text: &str, font: Font, size: f32, max: f32) -> Vec<Vec<u8>> {
    let space = width(b" ", font, size);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let encoded = encode(paragraph);
        let mut line: Vec<u8> = Vec::new();
        let mut line_w = 0.0;
        for word in encoded.split(|&b| b == b' ').filter(|w| !w.is_empty()) {
            let word_w = width(word, font, size);
            if !line.is_empty() && line_w + space + word_w <= max + EPSILON {
                line.push(b' ');
                line.extend_from_slice(word);
                line_w += space + word_w;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if word_w <= max + EPSILON {
                line = word.to_vec();
                line_w = word_w;
                continue;
            }
            // Too long for any line: hard-break it, keeping the remainder as the open line.
            line_w = 0.0;
            for &b in word {
                let w = width(&[b], font, size);
                if !line.is_empty() && line_w + w > max + EPSILON {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                line.push(b);
                line_w += w;
            }
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_and_latin1_map_to_themselves() {
        assert_eq!(encode("Az09 ~"), b"Az09 ~".to_vec());
        assert_eq!(encode("é·ü"), vec![0xe9, 0xb7, 0xfc]);
        assert_eq!(win_ansi('\u{a0}'), 0xa0);
    }

    #[test]
    fn typographic_characters_use_the_0x80_block() {
        assert_eq!(encode("€—–…“”‘’•™"), vec![0x80, 0x97, 0x96, 0x85, 0x93, 0x94, 0x91, 0x92, 0x95, 0x99]);
        assert_eq!(encode("ŠšŽžŒœŸƒ"), vec![0x8a, 0x9a, 0x8e, 0x9e, 0x8c, 0x9c, 0x9f, 0x83]);
    }

    #[test]
    fn characters_outside_win_ansi_become_question_marks() {
        assert_eq!(encode("日本 ✓ 😀 Ā"), b"?? ? ? ?".to_vec());
        // Control characters other than whitespace too, and whitespace becomes a space.
        assert_eq!(encode("a\u{7}b\tc\nd\u{7f}"), b"a?b c d?".to_vec());
        // The minus sign has an honest stand-in.
        assert_eq!(encode("\u{2212}5"), b"-5".to_vec());
    }

    #[test]
    fn every_mapped_byte_has_a_width() {
        for c in (' '..='~').chain('\u{a0}'..='\u{ff}').chain("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ".chars())
        {
            let b = win_ansi(c);
            assert!(b != b'?' || c == '?', "{c:?}");
            assert!(width(&[b], Font::Regular, 1000.0) > 0.0, "{c:?}");
            assert!(width(&[b], Font::Bold, 1000.0) > 0.0, "{c:?}");
        }
    }

    #[test]
    fn widths_follow_the_afm_metrics() {
        // Helvetica: H 722, e 556, l 222, o 556 → 2278 units.
        assert!((text_width("Hello", Font::Regular, 10.0) - 22.78).abs() < 1e-4);
        // Helvetica-Bold: H 722, e 556, l 278, o 611 → 2445 units.
        assert!((text_width("Hello", Font::Bold, 10.0) - 24.45).abs() < 1e-4);
        // Digits are tabular in both faces.
        assert_eq!(text_width("1111", Font::Regular, 12.0), text_width("8888", Font::Regular, 12.0));
        assert!((text_width("€", Font::Regular, 1000.0) - 556.0).abs() < 1e-3);
        assert!((text_width("—", Font::Bold, 1000.0) - 1000.0).abs() < 1e-3);
        assert_eq!(text_width("", Font::Regular, 10.0), 0.0);
    }

    #[test]
    fn fit_keeps_text_that_fits() {
        let w = text_width("AAPL 190C", Font::Regular, 9.0);
        assert_eq!(fit("AAPL 190C", Font::Regular, 9.0, w), b"AAPL 190C".to_vec());
    }

    #[test]
    fn fit_truncates_with_dots_within_the_width() {
        let text = "A rather long description of a position";
        let max = 60.0;
        let out = fit(text, Font::Regular, 9.0, max);
        assert!(out.ends_with(b"..."), "{}", String::from_utf8_lossy(&out));
        assert!(width(&out, Font::Regular, 9.0) <= max);
        let kept = &out[..out.len() - 3];
        assert!(text.as_bytes().starts_with(kept));
        // As many characters as possible: one more would overflow.
        let one_more = [&text.as_bytes()[..kept.len() + 1], b"..."].concat();
        assert!(width(&one_more, Font::Regular, 9.0) > max || text.as_bytes()[kept.len()] == b' ');
        // Trailing spaces are dropped before the dots.
        assert_ne!(kept.last(), Some(&b' '));
    }

    #[test]
    fn fit_in_a_tiny_box_gives_dots_or_nothing() {
        assert_eq!(fit("Hello", Font::Regular, 10.0, 6.0), b"..".to_vec());
        assert_eq!(fit("Hello", Font::Regular, 10.0, 0.0), Vec::<u8>::new());
    }

    #[test]
    fn wrap_breaks_at_spaces_within_the_width() {
        let text = "Signals and risk analytics for options traders, with a great many words in it.";
        let lines = wrap(text, Font::Regular, 10.0, 120.0);
        assert!(lines.len() > 2);
        for line in &lines {
            assert!(width(line, Font::Regular, 10.0) <= 120.0 + 1e-3);
            assert!(!line.starts_with(b" ") && !line.ends_with(b" "));
        }
        let joined = lines.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect::<Vec<_>>().join(" ");
        assert_eq!(joined, text);
        // Greedy: the next word would not have fitted on each line.
        for pair in lines.windows(2) {
            let next_word = pair[1].split(|&b| b == b' ').next().unwrap_or_default();
            let longer = [pair[0].as_slice(), b" ", next_word].concat();
            assert!(width(&longer, Font::Regular, 10.0) > 120.0);
        }
    }

    #[test]
    fn wrap_keeps_line_breaks_and_breaks_long_words() {
        let lines = wrap("one\n\ntwo", Font::Regular, 10.0, 100.0);
        assert_eq!(lines, vec![b"one".to_vec(), Vec::new(), b"two".to_vec()]);
        let long = "x".repeat(50);
        let lines = wrap(&long, Font::Regular, 10.0, 50.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.concat(), long.as_bytes().to_vec());
        assert!(lines.iter().all(|l| width(l, Font::Regular, 10.0) <= 50.0 + 1e-3));
        assert_eq!(wrap("", Font::Regular, 10.0, 50.0), vec![Vec::<u8>::new()]);
        assert_eq!(wrap("  a   b  ", Font::Regular, 10.0, 500.0), vec![b"a b".to_vec()]);
    }
}
