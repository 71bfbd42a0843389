//! What the API shows of a signal, and how a plan's quota locks some of them.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_store::signals::SignalRow;
use utoipa::ToSchema;

use crate::auth::model::dollars;

/// A signal as the client sees it. Option prices (`entryPrice`, `currentOptionPrice`,
/// `targetPrice`, `stopLoss`) are per share; a contract is 100 shares, and `pnl` is per
/// contract. A signal beyond the plan's daily quota comes back `locked`, with what it
/// recommends (type, strike, expiry, prices, reasoning) left out.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Signal {
    #[schema(format = "uuid")]
    pub id: String,
    #[schema(example = "AAPL")]
    pub symbol: String,
    #[schema(example = "Apple Inc.")]
    pub company_name: String,
    /// `CALL`, `PUT` or `STRADDLE`.
    #[schema(example = "CALL")]
    pub signal_type: Option<String>,
    /// `Momentum`, `Mean Reversion`, `Breakout` or `Volatility`.
    #[schema(example = "Momentum")]
    pub strategy: String,
    pub strike_price: Option<f64>,
    pub expiration_date: Option<NaiveDate>,
    /// The option's premium per share when issued.
    pub entry_price: Option<f64>,
    /// The option's premium per share now.
    pub current_option_price: Option<f64>,
    /// The underlying now.
    pub current_price: f64,
    /// The underlying's change since the previous close.
    pub price_change: f64,
    pub price_change_percent: f64,
    /// The underlying when the signal was issued.
    pub underlying_entry_price: f64,
    /// 0–100; see docs/strategies.md for what it means.
    pub confidence: i64,
    pub rsi: Option<f64>,
    pub volume: Option<i64>,
    /// Per contract, in dollars.
    pub pnl: Option<f64>,
    pub pnl_percent: Option<f64>,
    /// Premium per share at which the signal closes with a profit.
    pub target_price: Option<f64>,
    /// Premium per share at which the signal closes with a loss.
    pub stop_loss: Option<f64>,
    /// The annual volatility used to price the option.
    pub volatility: Option<f64>,
    pub reasoning: Option<String>,
    /// `active`, `closed` or `expired`.
    #[schema(example = "active")]
    pub status: String,
    pub is_active: bool,
    /// `target`, `stop` or `expiry` once the signal has ended.
    pub close_reason: Option<String>,
    pub closed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// Generated on request by the signed-in user.
    pub on_demand: bool,
    /// Beyond the plan's daily quota.
    pub locked: bool,
}

/// Rounds to cents for display.
pub fn cents_to_percent_change(current: i64, previous: i64) -> (f64, f64) {
    let change = dollars(current - previous);
    let percent = if previous > 0 { round2((current - previous) as f64 * 100.0 / previous as f64) } else { 0.0 };
    (change, percent)
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Signal {
    /// The client view of `row`; `locked` hides what the signal recommends.
    pub fn from_row(row: SignalRow, locked: bool) -> Signal {
        let (price_change, price_change_percent) = cents_to_percent_change(row.current_price_cents, row.previous_close_cents);
        let show = |v: f64| (!locked).then_some(v);
        Signal {
            signal_type: (!locked).then(|| row.signal_type.clone()),
            strike_price: show(dollars(row.strike_cents)),
            expiration_date: (!locked).then_some(row.expiration_date),
            entry_price: show(dollars(row.entry_cents)),
            current_option_price: show(dollars(row.current_option_cents)),
            current_price: dollars(row.current_price_cents),
            price_change,
            price_change_percent,
            underlying_entry_price: dollars(row.underlying_entry_cents),
            confidence: row.confidence,
            rsi: row.rsi.map(|r| (r * 10.0).round() / 10.0),
            volume: row.volume,
            pnl: show(dollars(row.pnl_cents)),
            pnl_percent: show(round2(row.pnl_percent)),
            target_price: show(dollars(row.target_cents)),
            stop_loss: show(dollars(row.stop_cents)),
            volatility: show((row.volatility * 10_000.0).round() / 10_000.0),
            reasoning: (!locked).then(|| row.reasoning.clone()),
            is_active: row.status == "active",
            status: row.status,
            close_reason: row.close_reason,
            closed_at: row.closed_at,
            created_at: row.created_at,
            on_demand: row.owner_id.is_some(),
            locked,
            id: row.id,
            symbol: row.symbol,
            company_name: row.company_name,
            strategy: row.strategy,
        }
    }
}
