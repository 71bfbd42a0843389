//! The filters of `GET /api/signals`, read from the query string and checked field by field,
//! and the opaque cursor that pages through the list.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use strikeline_store::signals::{ListPosition, SignalFilter};
use utoipa::IntoParams;

use crate::foundation::error::{AppError, FieldError};
use crate::foundation::input::Symbol;
use crate::foundation::vocab::{SignalKind, SignalRiskLevel, SignalStatus, TradedStrategy, Vocabulary};

/// Signals a page holds unless `limit` says otherwise.
pub const DEFAULT_PAGE: i64 = 50;
/// Most signals one page holds.
pub const MAX_PAGE: i64 = 200;

/// The query of `GET /api/signals`. Each filter is optional; `all` (any case) or an empty
/// value is the same as leaving it out.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[expect(dead_code, reason = "describes the query in the OpenAPI document; the handler parses it by hand")]
pub struct SignalQuery {
    /// Symbol prefix, case-insensitive (`AA` matches AAPL and AAL).
    symbol: Option<String>,
    /// `Momentum`, `Mean Reversion`, `Breakout`, `Volatility`, or `Custom`: the signals of the
    /// caller's own custom strategies (docs/strategies.md §11).
    strategy: Option<String>,
    /// `CALL`, `PUT` or `STRADDLE`.
    #[param(rename = "signalType")]
    signal_type: Option<String>,
    /// `active`, `closed` or `expired`.
    status: Option<String>,
    /// Cost of one contract (entry premium × 100): `under-50`, `50-100`, `100-250`, `250-500`, `over-500`.
    #[param(rename = "maxCost")]
    max_cost: Option<String>,
    /// By confidence: `low` (under 30), `medium` (30–70), `high` (over 70).
    #[param(rename = "riskLevel")]
    risk_level: Option<String>,
    /// Signals per page (1–200, default 50).
    limit: Option<i64>,
    /// Where the page starts: the `nextCursor` of the previous page; leave out for the newest.
    cursor: Option<String>,
}

/// The cursor of the page that starts after `position`.
pub fn encode_cursor(position: &ListPosition) -> String {
    let nanos = position.created_at.timestamp_nanos_opt().unwrap_or(i64::MAX);
    URL_SAFE_NO_PAD.encode(format!("{nanos}:{}", position.id))
}

/// The position a cursor from [`encode_cursor`] names; `None` for anything else.
pub fn decode_cursor(cursor: &str) -> Option<ListPosition> {
    if cursor.len() > 200 {
        return None;
    }
    let text = String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()?;
    let (nanos, id) = text.split_once(':')?;
    let valid_id = !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let created_at = DateTime::<Utc>::from_timestamp_nanos(nanos.parse().ok()?);
    valid_id.then(|| ListPosition { created_at, id: id.to_owned() })
}

/// `value` as one of `T`'s spellings (any case), in the stored spelling the store filters by.
fn one_of<T: Vocabulary>(field: &str, value: &str, errors: &mut Vec<FieldError>) -> Option<String> {
    match T::lenient(value) {
        Ok(found) => Some(found.spelling().to_owned()),
        Err(unknown) => {
            errors.push(FieldError::new(field, unknown.must_be()));
            None
        }
    }
}

/// Whole dollars in cents.
const fn dollars(d: i64) -> i64 {
    d * 100
}

/// Deepest `offset` the public API pages to; beyond it, `cursor` pages at the same cost.
pub const MAX_OFFSET: i64 = 2_000;

/// Reads the filters from a raw query string.
pub fn parse(raw: Option<&str>) -> Result<SignalFilter, AppError> {
    parse_paged(raw, false).map(|(filter, _)| filter)
}

/// Reads the filters of the public API's list, which may also page by `offset`.
pub fn parse_public(raw: Option<&str>) -> Result<(SignalFilter, i64), AppError> {
    parse_paged(raw, true)
}

fn parse_paged(raw: Option<&str>, with_offset: bool) -> Result<(SignalFilter, i64), AppError> {
    let mut offset = 0;
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(raw.unwrap_or("")).map_err(|_| AppError::MalformedBody("The query string is not valid.".into()))?;
    let mut filter = SignalFilter { limit: DEFAULT_PAGE, ..SignalFilter::default() };
    let mut errors = Vec::new();
    for (key, value) in pairs {
        let value = value.trim();
        if value.is_empty() || value.eq_ignore_ascii_case("all") {
            continue;
        }
        match key.as_str() {
            // A prefix of a ticker is itself a well-formed ticker, so it parses as one.
            "symbol" => match Symbol::parse(value) {
                Ok(prefix) => filter.symbol_prefix = Some(prefix.into_string()),
                Err(error) => errors.push(error.on("symbol")),
            },
            "strategy" => filter.strategy = one_of::<TradedStrategy>("strategy", value, &mut errors),
            "signalType" | "type" => filter.signal_type = one_of::<SignalKind>("signalType", value, &mut errors),
            "status" => filter.status = one_of::<SignalStatus>("status", value, &mut errors),
            "maxCost" => match value {
                "under-50" => filter.cost_at_most_cents = Some(dollars(50)),
                "50-100" => (filter.cost_above_cents, filter.cost_at_most_cents) = (Some(dollars(50)), Some(dollars(100))),
                "100-250" => (filter.cost_above_cents, filter.cost_at_most_cents) = (Some(dollars(100)), Some(dollars(250))),
                "250-500" => (filter.cost_above_cents, filter.cost_at_most_cents) = (Some(dollars(250)), Some(dollars(500))),
                "over-500" => filter.cost_above_cents = Some(dollars(500)),
                _ => errors.push(FieldError::new("maxCost", "Must be one of: under-50, 50-100, 100-250, 250-500, over-500")),
            },
            "riskLevel" => match SignalRiskLevel::lenient(value) {
                Ok(level) => {
                    let (low, high) = level.confidence_range();
                    filter.confidence_min = (low > 0).then_some(i64::from(low));
                    filter.confidence_max = (high < 100).then_some(i64::from(high));
                }
                Err(unknown) => errors.push(FieldError::new("riskLevel", unknown.must_be())),
            },
            "limit" => match value.parse::<i64>() {
                Ok(n) if (1..=MAX_PAGE).contains(&n) => filter.limit = n,
                _ => errors.push(FieldError::new("limit", format!("A whole number from 1 to {MAX_PAGE}"))),
            },
            "cursor" => match decode_cursor(value) {
                Some(position) => filter.after = Some(position),
                None => errors.push(FieldError::new("cursor", "Not a cursor this list gave out; start again without one")),
            },
            "offset" if with_offset => match value.parse::<i64>() {
                Ok(n) if (0..=MAX_OFFSET).contains(&n) => offset = n,
                _ => errors.push(FieldError::new("offset", format!("A whole number from 0 to {MAX_OFFSET}; page deeper with `cursor`"))),
            },
            other => errors.push(FieldError::new(other, "Unknown filter")),
        }
    }
    if offset > 0 && filter.after.is_some() {
        errors.push(FieldError::new("offset", "Page with either `offset` or `cursor`, not both"));
    }
    if errors.is_empty() { Ok((filter, offset)) } else { Err(AppError::Validation(errors)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(err: AppError) -> Vec<String> {
        match err {
            AppError::Validation(errors) => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn filters_map_to_ranges_and_all_means_no_filter() {
        let f = parse(Some("symbol=aa&strategy=mean%20reversion&signalType=call&status=active&maxCost=100-250&riskLevel=medium"))
            .expect("valid");
        assert_eq!(f.symbol_prefix.as_deref(), Some("AA"));
        assert_eq!(f.strategy.as_deref(), Some("Mean Reversion"));
        assert_eq!(f.signal_type.as_deref(), Some("CALL"));
        assert_eq!(f.status.as_deref(), Some("active"));
        assert_eq!((f.cost_above_cents, f.cost_at_most_cents), (Some(10_000), Some(25_000)));
        assert_eq!((f.confidence_min, f.confidence_max), (Some(30), Some(70)));
        let all = parse(Some("strategy=all&status=&riskLevel=All")).expect("valid");
        assert_eq!(all, SignalFilter { limit: DEFAULT_PAGE, ..SignalFilter::default() });
    }

    #[test]
    fn bad_values_and_unknown_keys_name_their_field() {
        let err = parse(Some("strategy=Scalping&maxCost=cheap&riskLevel=extreme&symbol=%25&colour=red")).expect_err("invalid");
        assert_eq!(fields(err), ["strategy", "maxCost", "riskLevel", "symbol", "colour"]);
        assert_eq!(fields(parse(Some("limit=0")).expect_err("invalid")), ["limit"]);
        assert_eq!(fields(parse(Some("limit=201")).expect_err("invalid")), ["limit"]);
    }

    #[test]
    fn cursors_round_trip_to_the_nanosecond_and_forgeries_are_refused() {
        let at = DateTime::<Utc>::from_timestamp_nanos(1_795_000_000_123_456_789);
        let position = ListPosition { created_at: at, id: "0b0e9f1c-6a1e-4a55-8d43-2d1c7a9e0001".into() };
        let cursor = encode_cursor(&position);
        assert_eq!(decode_cursor(&cursor), Some(position.clone()));
        assert_eq!(parse(Some(&format!("cursor={cursor}"))).expect("valid").after, Some(position));
        for forged in ["", "%%%", "bm90LWEtY3Vyc29y", &URL_SAFE_NO_PAD.encode("12:x' OR 1=1 --"), &"A".repeat(300)] {
            assert_eq!(decode_cursor(forged), None, "{forged}");
        }
        assert_eq!(fields(parse(Some("cursor=zzz")).expect_err("invalid")), ["cursor"]);
    }
}
