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
    /// Today, with the time left now (equals `expiry` once expired).
    pub today: f64,
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
