//! Response shapes more than one feature answers with.

use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::foundation::money::dollars;

/// One point of the payoff chart: P&L per contract at `price`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayoffPoint {
    pub price: f64,
    /// At expiry.
    pub expiry: f64,
    /// Today, with the time left now, valued as American options (equals `expiry` once
    /// expired).
    pub today: f64,
}

/// The payoff chart of a single-leg position (a call, a put, or a straddle of both) bought at
/// `entry` per share, `scale` shares (100 × contracts): at expiry, and today with the time
/// `inputs` leaves, valued as American options (US equity options are; a call without a
/// dividend equals its European value, a put is worth its early-exercise premium more), over
/// `grid`. Points in dollars, rounded to cents; `inputs.spot` is not used.
pub fn payoff_points(
    inputs: strikeline_quant::OptionInputs,
    kind: strikeline_quant::OptionType,
    entry: f64,
    scale: f64,
    grid: &strikeline_quant::PriceGrid,
) -> Result<Vec<PayoffPoint>, strikeline_quant::InputError> {
    let curve = strikeline_quant::american::American::new(inputs)?.curve(kind);
    let expiry = |spot: f64| strikeline_quant::pricing::intrinsic(kind, spot, inputs.strike);
    Ok(grid
        .prices()
        .map(|spot| PayoffPoint {
            price: crate::foundation::money::round2(spot),
            expiry: crate::foundation::money::round2((expiry(spot) - entry) * scale),
            today: crate::foundation::money::round2((curve.price(spot) - entry) * scale),
        })
        .collect())
}

/// One day of a stock's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryBar {
    pub date: NaiveDate,
    pub open: f64,
    pub high: f64,
    pub low: f64,
    pub close: f64,
    pub volume: i64,
}

impl From<strikeline_store::market::BarRow> for HistoryBar {
    fn from(b: strikeline_store::market::BarRow) -> Self {
        HistoryBar {
            date: b.day,
            open: dollars(b.open_cents),
            high: dollars(b.high_cents),
            low: dollars(b.low_cents),
            close: dollars(b.close_cents),
            volume: b.volume,
        }
    }
}

#[cfg(test)]
mod tests {
    use strikeline_quant::{BlackScholes, OptionInputs, OptionType, PriceGrid};

    use super::payoff_points;

    #[test]
    fn the_line_today_is_american_never_below_exercising_now() {
        let inputs = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.3, time_to_expiry: 0.25 };
        let grid = PriceGrid::around(100.0, 0.3, 61).expect("grid");
        let points = payoff_points(inputs, OptionType::Put, 4.0, 100.0, &grid).expect("payoff");
        assert_eq!(points.len(), 61);
        for p in &points {
            assert!(p.today >= p.expiry - 0.01, "{p:?}");
        }
        // Deep in the money the European put is worth less than exercising; the line is not.
        let deep = &points[0];
        let european = BlackScholes::new(OptionInputs { spot: deep.price, ..inputs }).expect("model").price(OptionType::Put);
        assert!(deep.today > ((european - 4.0) * 100.0) + 1.0, "{deep:?} vs European {european}");
        // A call without a dividend is never exercised early: the two lines agree.
        let calls = payoff_points(inputs, OptionType::Call, 4.0, 100.0, &grid).expect("payoff");
        let mid = &calls[30];
        let european = BlackScholes::new(OptionInputs { spot: mid.price, ..inputs }).expect("model").price(OptionType::Call);
        assert!((mid.today - ((european - 4.0) * 100.0)).abs() < 0.02, "{mid:?}");
    }
}

/// A file's bytes as a request or response body (a PDF report, a PNG logo): the document
/// states it as a binary string in its media type, not as a JSON array of numbers.
#[derive(Debug, ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct FileBytes(pub Vec<u8>);

/// A PDF answered as a download: `<what>-<New York date>.pdf`.
#[derive(Debug)]
pub struct PdfDownload {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

impl PdfDownload {
    /// `bytes` named for `what` (ASCII, e.g. `portfolio-report`) on the New York date of `now`.
    pub fn new(what: &str, now: chrono::DateTime<chrono::Utc>, bytes: Vec<u8>) -> Self {
        let day = strikeline_market::calendar::to_new_york(now).date_naive();
        PdfDownload { file_name: format!("{what}-{day}.pdf"), bytes }
    }
}

impl axum::response::IntoResponse for PdfDownload {
    fn into_response(self) -> axum::response::Response {
        use axum::http::header;
        let disposition = format!("attachment; filename=\"{}\"", self.file_name);
        ([(header::CONTENT_TYPE, "application/pdf".to_owned()), (header::CONTENT_DISPOSITION, disposition)], self.bytes).into_response()
    }
}
