//! Who a report is from: the name, colours, footer and logo on every page.

use crate::color::Rgb;
use crate::logo::Logo;

/// The branding of a report: Strikeline's own ([`Brand::strikeline`]) or a white label's.
///
/// The name is the header's wordmark and the PDF's author, creator and producer; nothing
/// else names the maker, so a white-label report mentions only its brand.
#[derive(Debug, Clone, PartialEq)]
pub struct Brand {
    /// The brand's name, shown in every page header.
    pub name: String,
    /// Header name, rules, table header tint, figure cards and the first chart series.
    pub primary: Rgb,
    /// Positive bars and the second chart series.
    pub accent: Rgb,
    /// The footer line of every page (wrapped when long; three lines at most).
    pub footer: String,
    /// A logo shown left of the name, at most 36 pt high.
    pub logo: Option<Logo>,
}

impl Brand {
    /// The house brand.
    #[must_use]
    pub fn strikeline() -> Brand {
        Brand {
            name: "Strikeline".to_owned(),
            primary: Rgb::new(0x25, 0x63, 0xeb),
            accent: Rgb::new(0x16, 0xa3, 0x4a),
            footer: "Strikeline · Signals and risk analytics for options traders. Not investment advice.".to_owned(),
            logo: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_brand() {
        let b = Brand::strikeline();
        assert_eq!(b.name, "Strikeline");
        assert_eq!(b.primary, Rgb::parse_hex("#2563eb").unwrap());
        assert_eq!(b.accent, Rgb::parse_hex("#16a34a").unwrap());
        // The middle dot is in WinAnsi (0xB7): the footer prints without a '?'.
        assert!(!crate::text::encode(&b.footer).contains(&b'?'));
        assert!(b.logo.is_none());
    }
}
