//! PDF reports (docs/reports.md): which brand a report carries, the account's own brand
//! (white-label, Premium) with its checks, the number formats reports share, and rendering.
//!
//! A report is gathered by the feature it reports on (the portfolio, a backtest, the track
//! record) as a [`Report`] and rendered here with [`render`]: in-process, by
//! `strikeline-reports`, on a blocking thread.

pub mod monthly;
pub mod portfolio;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use strikeline_reports::{Brand, Logo, Report, Rgb};
use strikeline_store::report_brands::{self as store, BrandFields, ReportBrand};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::input::has_control_characters;
use crate::foundation::state::AppState;

/// Longest brand name, in characters.
pub const NAME_MAX: usize = 80;
/// Longest footer, in characters.
pub const FOOTER_MAX: usize = 300;
/// Largest logo accepted, in bytes of PNG.
pub const LOGO_MAX_BYTES: usize = 512 * 1024;

/// The brand `user`'s reports carry at `now`: their own when their plan includes white-label
/// reports and they saved one, else the house brand.
pub async fn brand_for(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Brand> {
    if !Entitlements::of(user, now).allows(Capability::WhiteLabelReports) {
        return Ok(Brand::strikeline());
    }
    Ok(match store::get(&state.db, &user.id).await? {
        Some(saved) => own_brand(&saved)?,
        None => Brand::strikeline(),
    })
}

/// A saved brand as the renderer takes it. What was stored was checked on the way in; a row
/// that no longer reads is a server fault, not the user's.
fn own_brand(saved: &ReportBrand) -> Result<Brand> {
    let colour = |hex: &str| Rgb::parse_hex(hex).ok_or_else(|| AppError::Internal(anyhow::anyhow!("stored brand colour {hex:?}")));
    let logo = match &saved.logo_png {
        Some(b64) => {
            let png = base64::engine::general_purpose::STANDARD.decode(b64).map_err(|e| AppError::Internal(e.into()))?;
            Some(Logo::from_png(&png).map_err(|e| AppError::Internal(anyhow::anyhow!("stored logo: {e}")))?)
        }
        None => None,
    };
    Ok(Brand {
        name: saved.name.clone(),
        primary: colour(&saved.primary_color)?,
        accent: colour(&saved.accent_color)?,
        footer: saved.footer.clone(),
        logo,
    })
}

/// `PUT /api/reports/brand`: what a user sets for their brand (the logo apart).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportBrandInput {
    /// The name at the top of every page, e.g. your firm's.
    #[schema(min_length = 1, max_length = 80)]
    pub name: String,
    /// Headings, rules and the first chart series: `#rrggbb`.
    #[schema(pattern = r"^#[0-9A-Fa-f]{6}$")]
    pub primary_color: String,
    /// Positive bars and the second chart series: `#rrggbb`.
    #[schema(pattern = r"^#[0-9A-Fa-f]{6}$")]
    pub accent_color: String,
    /// The line at the foot of every page (a disclaimer, an address); may be empty.
    #[schema(max_length = 300)]
    pub footer: String,
    /// Email the portfolio report at the start of each month.
    pub monthly_email: bool,
}

/// Saves `user`'s brand (Premium, through the one entitlement check) after checking every
/// field: a 422 names each field at fault.
pub async fn save_brand(state: &AppState, user: &UserRecord, input: &ReportBrandInput, now: DateTime<Utc>) -> Result<()> {
    Entitlements::of(user, now).require(Capability::WhiteLabelReports)?;
    let mut errors = Vec::new();
    let name = input.name.trim();
    if name.is_empty() {
        errors.push(FieldError::new("name", "Enter the name your reports carry"));
    } else if name.chars().count() > NAME_MAX {
        errors.push(FieldError::new("name", format!("At most {NAME_MAX} characters")));
    } else if has_control_characters(name) || name.contains(['\n', '\r', '\t']) {
        errors.push(FieldError::new("name", "One line, without control characters"));
    }
    for (field, value) in [("primaryColor", &input.primary_color), ("accentColor", &input.accent_color)] {
        if !is_hex_colour(value) {
            errors.push(FieldError::new(field, "A colour as #rrggbb, e.g. #1d4ed8"));
        }
    }
    let footer = input.footer.trim();
    if footer.chars().count() > FOOTER_MAX {
        errors.push(FieldError::new("footer", format!("At most {FOOTER_MAX} characters")));
    } else if has_control_characters(footer) {
        errors.push(FieldError::new("footer", "Control characters are not allowed"));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let fields = BrandFields {
        name,
        primary_color: &input.primary_color.to_ascii_lowercase(),
        accent_color: &input.accent_color.to_ascii_lowercase(),
        footer,
        monthly_email: input.monthly_email,
    };
    store::save(&state.db, &user.id, &fields, &month_of(now), now).await?;
    Ok(())
}

/// The New York month of `now`, `YYYY-MM`.
pub fn month_of(now: DateTime<Utc>) -> String {
    strikeline_market::calendar::to_new_york(now).format("%Y-%m").to_string()
}

/// `#rrggbb`.
pub fn is_hex_colour(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Sets `user`'s logo from `png` (Premium): a PNG of at most [`LOGO_MAX_BYTES`] that decodes,
/// at most 2000 px a side. The brand must be saved first (409).
pub async fn set_logo(state: &AppState, user: &UserRecord, png: &[u8], now: DateTime<Utc>) -> Result<()> {
    Entitlements::of(user, now).require(Capability::WhiteLabelReports)?;
    if png.len() > LOGO_MAX_BYTES {
        return Err(AppError::field("logo", &format!("The logo may be at most {} KB", LOGO_MAX_BYTES / 1024)));
    }
    Logo::from_png(png).map_err(|e| AppError::field("logo", &e.to_string()))?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(png);
    if store::set_logo(&state.db, &user.id, Some(&encoded), now).await? {
        Ok(())
    } else {
        Err(AppError::Conflict(FieldError::new("name", "Save your brand's name and colours before its logo")))
    }
}

/// The line under a report's title saying when its figures were taken.
pub fn generated_line(now: DateTime<Utc>) -> String {
    format!("Generated {} New York time", strikeline_market::calendar::to_new_york(now).format("%Y-%m-%d %H:%M"))
}

/// Renders `report` in `brand` to PDF bytes, on a blocking thread (pages are CPU work).
pub async fn render(report: Report, brand: Brand) -> Result<Vec<u8>> {
    tokio::task::spawn_blocking(move || strikeline_reports::render(&report, &brand))
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("rendering a report: {e}")))
}

/// A chart's labels under its axis: the first, middle and last of `points`' dates (none when
/// there are none).
pub fn axis_labels<T: std::fmt::Display>(dates: &[T]) -> Vec<String> {
    match (dates.first(), dates.get(dates.len() / 2), dates.last()) {
        (Some(first), Some(middle), Some(last)) => vec![first.to_string(), middle.to_string(), last.to_string()],
        _ => Vec::new(),
    }
}

/// A percentage to two decimals: `12.34%`.
pub fn percent(value: f64) -> String {
    format!("{value:.2}%")
}

/// A number to `decimals` places, or an em dash when there is none.
pub fn number_or_dash(value: Option<f64>, decimals: usize) -> String {
    value.filter(|v| v.is_finite()).map_or_else(|| "—".to_owned(), |v| format!("{v:.decimals$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_a_trader_writes_them() {
        assert_eq!(percent(12.345), "12.35%");
        assert_eq!(number_or_dash(None, 2), "—");
        assert_eq!(number_or_dash(Some(f64::NAN), 2), "—");
        assert_eq!(number_or_dash(Some(1.234), 2), "1.23");
    }

    #[test]
    fn colours_are_hash_and_six_hex_digits() {
        assert!(is_hex_colour("#1d4ED8"));
        for bad in ["1d4ed8", "#1d4ed", "#1d4ed8a", "#gggggg", "#1d4éd8", ""] {
            assert!(!is_hex_colour(bad), "{bad}");
        }
    }
}
