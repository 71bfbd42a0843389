//! What the API shows of a signal, and how a plan's quota locks some of them.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::signals::SignalRow;
use utoipa::ToSchema;

use crate::foundation::error::Result;
use crate::foundation::money::{dollars, percent_change, round2};
use crate::foundation::vocab::{CloseReason, SignalKind, SignalStatus, TradedStrategy, stored};

/// A signal as the client sees it. Option prices (`entryPrice`, `currentOptionPrice`,
/// `targetPrice`, `stopLoss`) are per share; a contract is 100 shares, and `pnl` is per
/// contract. A signal beyond the plan's daily quota comes back `locked` with only its id,
/// symbol, company, strategy and creation time: every other field is left out.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Signal {
    #[schema(format = "uuid")]
    pub id: String,
    #[schema(example = "AAPL")]
    pub symbol: String,
    #[schema(example = "Apple Inc.")]
    pub company_name: String,
    /// One of the four house rules, or `Custom`: one of the viewer's own custom strategies
    /// (`customStrategyId`), whose signals only their owner sees.
    pub strategy: TradedStrategy,
    /// The viewer's custom strategy that issued it; absent for the house rules and once that
    /// strategy has been deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uuid")]
    pub custom_strategy_id: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Beyond the plan's daily quota.
    pub locked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal_type: Option<SignalKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strike_price: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiration_date: Option<NaiveDate>,
    /// The option's premium per share when issued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_price: Option<f64>,
    /// The option's premium per share now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_option_price: Option<f64>,
    /// The underlying now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_price: Option<f64>,
    /// The underlying's change since the previous close.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_change: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_change_percent: Option<f64>,
    /// The underlying when the signal was issued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underlying_entry_price: Option<f64>,
    /// Heuristic strength 0–100 of the strategy's conditions; not a probability. Calibrated
    /// outcomes are published at /api/public/track-record. How it is scored: docs/strategies.md.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rsi: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<i64>,
    /// Per contract, in dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pnl: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pnl_percent: Option<f64>,
    /// Premium per share at which the signal closes with a profit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_price: Option<f64>,
    /// Premium per share at which the signal closes with a loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_loss: Option<f64>,
    /// The annual volatility used to price the option.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SignalStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_active: Option<bool>,
    /// Set once the signal has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_reason: Option<CloseReason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<DateTime<Utc>>,
    /// Generated on request by the signed-in user (a custom strategy's signal is not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_demand: Option<bool>,
    /// The predictive model's estimate, given at issue: through the public API for Premium
    /// keys (the app shows it in the signal's detail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelEstimate>,
}

/// The predictive model's estimate of one signal.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelEstimate {
    /// Calibrated probability that the signal wins (0–1), checked on the track record.
    pub probability: f64,
    /// The model version that scored it.
    pub version: String,
    /// The features that moved it most against an average signal, largest first.
    pub why: Vec<ModelReason>,
}

/// One feature behind a model estimate.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelReason {
    pub feature: String,
    /// What a trader reads, e.g. "RSI(14)".
    pub label: String,
    /// Its effect on the log-odds: above zero raises the chance.
    pub effect: f64,
}

/// The model estimate stored on `row`, if any.
pub fn model_estimate(row: &SignalRow) -> Option<ModelEstimate> {
    Some(ModelEstimate {
        probability: row.model_probability?,
        version: row.model_version.clone()?,
        why: row.model_why.as_deref().and_then(|w| serde_json::from_str(w).ok()).unwrap_or_default(),
    })
}

impl Signal {
    /// The client view of `row`; `locked` leaves out everything but what identifies it. A
    /// stored value outside the vocabulary is an internal error naming the signal.
    pub fn from_row(row: SignalRow, locked: bool) -> Result<Signal> {
        let what = format!("signal {}", row.id);
        let mut signal = Signal {
            id: row.id.clone(),
            symbol: row.symbol.clone(),
            company_name: row.company_name.clone(),
            strategy: stored(&row.strategy, &what)?,
            custom_strategy_id: row.custom_strategy_id.clone(),
            created_at: row.created_at,
            locked,
            signal_type: None,
            strike_price: None,
            expiration_date: None,
            entry_price: None,
            current_option_price: None,
            current_price: None,
            price_change: None,
            price_change_percent: None,
            underlying_entry_price: None,
            confidence: None,
            rsi: None,
            volume: None,
            pnl: None,
            pnl_percent: None,
            target_price: None,
            stop_loss: None,
            volatility: None,
            reasoning: None,
            status: None,
            is_active: None,
            close_reason: None,
            closed_at: None,
            on_demand: None,
            model: None,
        };
        if locked {
            return Ok(signal);
        }
        let status: SignalStatus = stored(&row.status, &what)?;
        signal.on_demand = Some(row.counts_against_quota());
        let (price_change, price_change_percent) = percent_change(row.current_price_cents, row.previous_close_cents);
        signal.signal_type = Some(stored(&row.signal_type, &what)?);
        signal.strike_price = Some(dollars(row.strike_cents));
        signal.expiration_date = Some(row.expiration_date);
        signal.entry_price = Some(dollars(row.entry_cents));
        signal.current_option_price = Some(dollars(row.current_option_cents));
        signal.current_price = Some(dollars(row.current_price_cents));
        signal.price_change = Some(price_change);
        signal.price_change_percent = Some(price_change_percent);
        signal.underlying_entry_price = Some(dollars(row.underlying_entry_cents));
        signal.confidence = Some(row.confidence);
        signal.rsi = row.rsi.map(|r| (r * 10.0).round() / 10.0);
        signal.volume = row.volume;
        signal.pnl = Some(dollars(row.pnl_cents));
        signal.pnl_percent = Some(round2(row.pnl_percent));
        signal.target_price = Some(dollars(row.target_cents));
        signal.stop_loss = Some(dollars(row.stop_cents));
        signal.volatility = Some((row.volatility * 10_000.0).round() / 10_000.0);
        signal.reasoning = Some(row.reasoning);
        signal.is_active = Some(status == SignalStatus::Active);
        signal.status = Some(status);
        signal.close_reason = row.close_reason.as_deref().map(|r| stored(r, &what)).transpose()?;
        signal.closed_at = row.closed_at;
        Ok(signal)
    }
}
