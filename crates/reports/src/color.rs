//! Colours: parsing brand colours and the fixed palette of the report chrome.

/// An sRGB colour, 8 bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Rgb {
    /// A colour from its three channels.
    #[must_use]
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// Parses a CSS-style hex colour: `#rrggbb` or the short `#rgb`, with or without the
    /// `#`, in either case, surrounding whitespace ignored. Anything else is `None`.
    ///
    /// ```
    /// use strikeline_reports::Rgb;
    /// assert_eq!(Rgb::parse_hex("#1a2B3c"), Some(Rgb { r: 0x1a, g: 0x2b, b: 0x3c }));
    /// assert_eq!(Rgb::parse_hex("#fa0"), Some(Rgb { r: 0xff, g: 0xaa, b: 0x00 }));
    /// assert_eq!(Rgb::parse_hex("blue"), None);
    /// ```
    #[must_use]
    pub fn parse_hex(text: &str) -> Option<Rgb> {
        let text = text.trim();
        let digits = text.strip_prefix('#').unwrap_or(text);
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let nibble = |i: usize| digits.get(i..=i).and_then(|d| u8::from_str_radix(d, 16).ok());
        let byte = |i: usize| digits.get(i..i + 2).and_then(|d| u8::from_str_radix(d, 16).ok());
        match digits.len() {
            6 => Some(Rgb { r: byte(0)?, g: byte(2)?, b: byte(4)? }),
            3 => Some(Rgb { r: nibble(0)? * 17, g: nibble(1)? * 17, b: nibble(2)? * 17 }),
            _ => None,
        }
    }

    /// The colour as `#rrggbb`, lower case.
    #[must_use]
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// This colour moved towards white: `amount` 0 keeps it, 1 is white.
    #[must_use]
    pub(crate) fn tint(self, amount: f32) -> Rgb {
        let amount = amount.clamp(0.0, 1.0);
        let mix = |c: u8| {
            let c = f32::from(c);
            // In 0..=255 by construction; the cast cannot truncate meaningfully.
            (c + (255.0 - c) * amount).round() as u8
        };
        Rgb { r: mix(self.r), g: mix(self.g), b: mix(self.b) }
    }

    /// The three channels in 0..=1, as PDF colour operators take them.
    pub(crate) fn unit(self) -> (f32, f32, f32) {
        (f32::from(self.r) / 255.0, f32::from(self.g) / 255.0, f32::from(self.b) / 255.0)
    }
}

/// Headings, figures' values: near black.
pub(crate) const INK: Rgb = Rgb::new(0x11, 0x18, 0x27);
/// Body text and table cells.
pub(crate) const BODY: Rgb = Rgb::new(0x37, 0x41, 0x51);
/// Labels, captions, footer.
pub(crate) const MUTED: Rgb = Rgb::new(0x6b, 0x72, 0x80);
/// Chart axes.
pub(crate) const AXIS: Rgb = Rgb::new(0x9c, 0xa3, 0xaf);
/// Gridlines and hairline rules.
pub(crate) const RULE: Rgb = Rgb::new(0xe5, 0xe7, 0xeb);
/// Alternate table rows.
pub(crate) const ZEBRA: Rgb = Rgb::new(0xf6, 0xf7, 0xf9);
/// Negative bars.
pub(crate) const NEGATIVE: Rgb = Rgb::new(0xdc, 0x26, 0x26);
/// Chart series after the brand's primary and accent colours.
pub(crate) const SERIES_GREYS: [Rgb; 4] =
    [Rgb::new(0x4b, 0x55, 0x63), Rgb::new(0x9c, 0xa3, 0xaf), Rgb::new(0x1f, 0x29, 0x37), Rgb::new(0xd1, 0xd5, 0xdb)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_long_and_short_hex() {
        assert_eq!(Rgb::parse_hex("#2563eb"), Some(Rgb::new(0x25, 0x63, 0xeb)));
        assert_eq!(Rgb::parse_hex("2563EB"), Some(Rgb::new(0x25, 0x63, 0xeb)));
        assert_eq!(Rgb::parse_hex("  #16a34a\n"), Some(Rgb::new(0x16, 0xa3, 0x4a)));
        assert_eq!(Rgb::parse_hex("#fff"), Some(Rgb::new(255, 255, 255)));
        assert_eq!(Rgb::parse_hex("#000000"), Some(Rgb::new(0, 0, 0)));
    }

    #[test]
    fn refuses_malformed_hex() {
        for bad in ["", "#", "#12345", "#1234567", "#12345g", "##123456", "rgb(1,2,3)", "#+12345", "#ééé", "#12 456"] {
            assert_eq!(Rgb::parse_hex(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn hex_round_trips() {
        let c = Rgb::new(0x1a, 0x2b, 0x3c);
        assert_eq!(c.to_hex(), "#1a2b3c");
        assert_eq!(Rgb::parse_hex(&c.to_hex()), Some(c));
    }

    #[test]
    fn tint_moves_towards_white() {
        let c = Rgb::new(0x25, 0x63, 0xeb);
        assert_eq!(c.tint(0.0), c);
        assert_eq!(c.tint(1.0), Rgb::new(255, 255, 255));
        let half = c.tint(0.5);
        assert!(half.r > c.r && half.g > c.g && half.b > c.b);
        assert_eq!(half.r, 0x92);
    }
}
