//! Amounts in the currency a user reads them in. Every amount is computed in US dollars; a
//! sentence that states one (a risk factor, an assistant idea) formats it through a
//! [`DisplayMoney`], so the words say the same currency as the figures beside them. Contract
//! terms (strikes, per-share premiums) are never converted: [`DisplayMoney::term`].

/// A currency's symbol and how many of its units one US dollar buys.
///
/// ```
/// use strikeline_engine::DisplayMoney;
/// assert_eq!(DisplayMoney::USD.format(12_345.6), "$12,345.60");
/// assert_eq!(DisplayMoney::new("€", 0.92).format(-100.0), "-€92.00");
/// // A rate that is not a positive number shows dollars rather than nonsense.
/// assert_eq!(DisplayMoney::new("€", f64::NAN), DisplayMoney::USD);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DisplayMoney {
    symbol: &'static str,
    per_usd: f64,
}

impl Default for DisplayMoney {
    fn default() -> Self {
        Self::USD
    }
}

impl DisplayMoney {
    /// US dollars, unconverted.
    pub const USD: Self = Self { symbol: "$", per_usd: 1.0 };

    /// `symbol` at `per_usd` units per dollar; dollars when the rate is not finite and positive.
    #[must_use]
    pub fn new(symbol: &'static str, per_usd: f64) -> Self {
        if per_usd.is_finite() && per_usd > 0.0 { Self { symbol, per_usd } } else { Self::USD }
    }

    /// `usd` dollars in this currency, to the cent.
    #[must_use]
    pub fn convert(&self, usd: f64) -> f64 {
        usd * self.per_usd
    }

    /// `usd` dollars converted and written with the symbol, thousands separators and cents:
    /// `€1,234.50`, `-£40.00`.
    #[must_use]
    pub fn format(&self, usd: f64) -> String {
        grouped(self.symbol, self.convert(usd))
    }

    /// A contract term (a strike, a premium per share), in US dollars and never converted:
    /// `$105.00` to a reader of dollars, `US$105.00` to a reader of another currency, so the
    /// two cannot be confused (as the web app writes them).
    ///
    /// ```
    /// use strikeline_engine::DisplayMoney;
    /// assert_eq!(DisplayMoney::USD.term(1_630.0), "$1,630.00");
    /// assert_eq!(DisplayMoney::new("€", 0.92).term(105.0), "US$105.00");
    /// ```
    #[must_use]
    pub fn term(&self, usd: f64) -> String {
        grouped(if self.symbol == "$" { "$" } else { "US$" }, usd)
    }
}

/// `amount` with `symbol`, thousands separators and two decimals; the sign goes first.
fn grouped(symbol: &str, amount: f64) -> String {
    let cents = (amount.abs() * 100.0).round() as u64;
    let (whole, frac) = (cents / 100, cents % 100);
    let digits = whole.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 6);
    if amount < 0.0 && cents > 0 {
        out.push('-');
    }
    out.push_str(symbol);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out.push('.');
    out.push_str(&format!("{frac:02}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_grouped_signed_and_rounded_to_the_cent() {
        let eur = DisplayMoney::new("€", 0.5);
        assert_eq!(eur.format(2_000_000.0), "€1,000,000.00");
        assert_eq!(eur.format(0.004), "€0.00");
        assert_eq!(eur.format(-0.004), "€0.00", "no minus sign on a zero");
        assert_eq!(DisplayMoney::USD.format(999.999), "$1,000.00");
        assert_eq!(DisplayMoney::new("£", -1.0), DisplayMoney::USD);
        assert_eq!(DisplayMoney::new("£", 0.0), DisplayMoney::USD);
        assert_eq!(eur.term(-40.0), "-US$40.00", "a term is never converted");
    }
}
