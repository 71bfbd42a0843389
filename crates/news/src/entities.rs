//! HTML character references: named (`&amp;`, `&rsquo;`, …) and numeric (`&#8217;`,
//! `&#x2019;`), decoded as browsers do for the ones feeds use.

/// Decodes the entity at the start of `s` (which starts with `&`): the character, if it is a
/// known entity that decodes to something, and how many bytes it spans (1 if it is not an
/// entity, so the `&` is kept as text).
pub(crate) fn decode_entity(s: &str) -> (Option<char>, usize) {
    let bytes = s.as_bytes();
    if bytes.get(1) == Some(&b'#') {
        let hex = matches!(bytes.get(2), Some(b'x' | b'X'));
        let start = if hex { 3 } else { 2 };
        let digits = bytes[start..].iter().take_while(|b| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() }).count();
        if digits == 0 {
            return (Some('&'), 1);
        }
        let end = start + digits;
        let len = if bytes.get(end) == Some(&b';') { end + 1 } else { end };
        // More than 8 digits is beyond any code point; the entity is dropped.
        let value = if digits > 8 { None } else { u32::from_str_radix(&s[start..end], if hex { 16 } else { 10 }).ok() };
        return (value.and_then(numeric_char), len);
    }
    let name_len = bytes[1..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    if name_len == 0 || bytes.get(1 + name_len) != Some(&b';') {
        return (Some('&'), 1);
    }
    match named_entity(&s[1..1 + name_len]) {
        Some(c) => (Some(c), name_len + 2),
        None => (Some('&'), 1),
    }
}

/// The character a numeric reference stands for, as browsers read it: the Windows-1252 range
/// 0x80–0x9F mapped (`&#146;` is ’), NUL, surrogates and values beyond Unicode dropped.
fn numeric_char(value: u32) -> Option<char> {
    const WINDOWS_1252: [u32; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019,
        0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    let value = match value {
        0 => return None,
        0x80..=0x9F => WINDOWS_1252[(value - 0x80) as usize],
        v => v,
    };
    char::from_u32(value).filter(|_| value != 0)
}

/// The named entities feeds use: the XML five, spaces, and the typographic and currency ones.
fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "nbsp" | "ensp" | "emsp" | "thinsp" | "hairsp" | "numsp" | "puncsp" => ' ',
        "ndash" => '–',
        "mdash" => '—',
        "minus" => '−',
        "hyphen" | "dash" => '‐',
        "lsquo" => '‘',
        "rsquo" | "rsquor" => '’',
        "sbquo" => '‚',
        "ldquo" => '“',
        "rdquo" | "rdquor" => '”',
        "bdquo" => '„',
        "laquo" => '«',
        "raquo" => '»',
        "lsaquo" => '‹',
        "rsaquo" => '›',
        "hellip" | "mldr" => '…',
        "bull" | "bullet" => '•',
        "middot" | "centerdot" => '·',
        "prime" => '′',
        "Prime" => '″',
        "dagger" => '†',
        "Dagger" => '‡',
        "sect" => '§',
        "para" => '¶',
        "copy" | "COPY" => '©',
        "reg" | "REG" => '®',
        "trade" | "TRADE" => '™',
        "deg" => '°',
        "plusmn" | "pm" => '±',
        "times" => '×',
        "divide" | "div" => '÷',
        "frac12" | "half" => '½',
        "frac14" => '¼',
        "frac34" => '¾',
        "permil" => '‰',
        "le" => '≤',
        "ge" => '≥',
        "ne" => '≠',
        "asymp" | "approx" => '≈',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "curren" => '¤',
        "iexcl" => '¡',
        "iquest" => '¿',
        "ordf" => 'ª',
        "ordm" => 'º',
        "micro" => 'µ',
        "sup1" => '¹',
        "sup2" => '²',
        "sup3" => '³',
        "acute" => '´',
        "circ" => 'ˆ',
        "tilde" => '˜',
        "eacute" => 'é',
        "Eacute" => 'É',
        "egrave" => 'è',
        "aacute" => 'á',
        "agrave" => 'à',
        "iacute" => 'í',
        "oacute" => 'ó',
        "uacute" => 'ú',
        "ntilde" => 'ñ',
        "ccedil" => 'ç',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "Auml" => 'Ä',
        "Ouml" => 'Ö',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        // Invisible: decoded to nothing-like characters the collapser drops.
        "shy" | "zwsp" | "ZeroWidthSpace" | "zwnj" | "zwj" | "lrm" | "rlm" => '\u{200B}',
        _ => return None,
    })
}
