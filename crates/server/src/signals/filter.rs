//! The filters of `GET /api/signals`, read from the query string and checked field by field.

use strikeline_store::signals::SignalFilter;
use utoipa::IntoParams;

use crate::error::{AppError, FieldError};
use crate::input::Symbol;
use crate::vocab::{SignalKind, SignalStatus, StrategyName, Vocabulary};

/// Most signals one list answers with (newest first).
pub const MAX_RESULTS: i64 = 500;

/// The query of `GET /api/signals`. Each filter is optional; `all` (any case) or an empty
/// value is the same as leaving it out.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct SignalQuery {
    /// Symbol prefix, case-insensitive (`AA` matches AAPL and AAL).
    symbol: Option<String>,
    /// `Momentum`, `Mean Reversion`, `Breakout` or `Volatility`.
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
    /// At most this many signals (1–500, default 500).
    limit: Option<i64>,
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

/// Reads the filters from a raw query string.
pub fn parse(raw: Option<&str>) -> Result<SignalFilter, AppError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| AppError::MalformedBody("The query string is not valid.".into()))?;
    let mut filter = SignalFilter { limit: MAX_RESULTS, ..SignalFilter::default() };
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
            "strategy" => filter.strategy = one_of::<StrategyName>("strategy", value, &mut errors),
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
            "riskLevel" => match value.to_ascii_lowercase().as_str() {
                "low" => filter.confidence_max = Some(29),
                "medium" => (filter.confidence_min, filter.confidence_max) = (Some(30), Some(70)),
                "high" => filter.confidence_min = Some(71),
                _ => errors.push(FieldError::new("riskLevel", "Must be one of: low, medium, high")),
            },
            "limit" => match value.parse::<i64>() {
                Ok(n) if (1..=MAX_RESULTS).contains(&n) => filter.limit = n,
                _ => errors.push(FieldError::new("limit", format!("A whole number from 1 to {MAX_RESULTS}"))),
            },
            other => errors.push(FieldError::new(other, "Unknown filter")),
        }
    }
    if errors.is_empty() { Ok(filter) } else { Err(AppError::Validation(errors)) }
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
        assert_eq!(all, SignalFilter { limit: MAX_RESULTS, ..SignalFilter::default() });
    }

    #[test]
    fn bad_values_and_unknown_keys_name_their_field() {
        let err = parse(Some("strategy=Scalping&maxCost=cheap&riskLevel=extreme&symbol=%25&colour=red")).expect_err("invalid");
        assert_eq!(fields(err), ["strategy", "maxCost", "riskLevel", "symbol", "colour"]);
        assert_eq!(fields(parse(Some("limit=0")).expect_err("invalid")), ["limit"]);
    }
}
