//! The predictive model on the server (issue 24, item 4): training on the stored history
//! through the backtester, storing each model with its held-out evaluation, and scoring new
//! signals at issue with the newest model that beat the heuristic strength.
//!
//! Training runs the live strategies over up to ten years of stored history exactly as the
//! backtester does (the live outcome rule: target, stop or expiry, the standard costs), turns
//! each resolved trade into an example of what was known at issue, scores the last
//! [`HELD_OUT_YEARS`] years walk-forward (each year by a model that only saw what resolved
//! before it) against the strength, then fits the model to ship on everything resolved up to
//! the last session. It ships only if it beat the strength on the held-out years.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::backtest::{BacktestConfig, SymbolSeries, try_run_until};
use strikeline_engine::{EntryContext, Proposal};
use strikeline_model::{Evaluation, Model, Reason, Setup};
use strikeline_store::models::{self as store, ModelRow};
use strikeline_store::signals::SignalRow;

use crate::foundation::error::{AppError, Result};
use crate::foundation::market::engine_bar;
use crate::foundation::state::AppState;
use crate::foundation::vocab::StrategyName;

/// Years scored out of sample before a model ships.
pub const HELD_OUT_YEARS: i32 = 3;
/// Years of history a training run reads.
pub const HISTORY_YEARS: i64 = 10;
/// Bars loaded before the first day so the indicators are warm.
const WARM_UP_DAYS: i64 = 450;
/// Reasons kept in "why".
pub const WHY_REASONS: usize = 3;

/// What a training run did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trained {
    pub version: String,
    pub trained_through: NaiveDate,
    pub examples: usize,
    pub ships: bool,
    /// `null` when the history was too short to hold years out.
    pub evaluation: Option<Evaluation>,
}

/// Loads the watchlist and its history when the database has none (a fresh data directory),
/// then trains: what `strikeline model train` runs.
///
/// # Errors
/// As [`train`], or the market data provider's.
pub async fn train_from_scratch(state: &AppState, now: DateTime<Utc>) -> Result<Trained> {
    super::market_refresh::ensure_universe(state, now).await?;
    super::market_refresh::catch_up_history(state, now).await?;
    train(state, now).await
}

/// Trains a model on the stored history as of `now` and stores it.
///
/// # Errors
/// 422 naming `history` when the stored history is too short to fit a model.
pub async fn train(state: &AppState, now: DateTime<Utc>) -> Result<Trained> {
    let last = state.market.last_completed_day(now);
    let start = last - Duration::days(365 * HISTORY_YEARS);
    let stocks = strikeline_store::market::list_stocks(&state.db).await?;
    let sectors: HashMap<String, String> = stocks.iter().map(|s| (s.symbol.clone(), s.sector.clone())).collect();
    let mut series = Vec::with_capacity(stocks.len());
    for stock in &stocks {
        let bars = strikeline_store::market::bars(&state.db, &stock.symbol, start - Duration::days(WARM_UP_DAYS), last).await?;
        series.push(SymbolSeries { symbol: stock.symbol.clone(), bars: bars.iter().map(engine_bar).collect() });
    }
    let mut config = BacktestConfig::new(start, last);
    config.assumptions = state.market.assumptions;
    let market = state.market.clone();
    let trades = tokio::task::spawn_blocking(move || {
        let picker = |from: NaiveDate, min_days: u32| market.expiration(from, min_days);
        try_run_until(&config, &series, &picker, &|| false).map(|report| report.map(|r| r.trades))
    })
    .await
    .map_err(|e| AppError::Internal(anyhow::anyhow!("training backtest: {e}")))?
    .map_err(|e| AppError::Internal(anyhow::anyhow!("training backtest: {e}")))?
    .unwrap_or_default();
    let examples = strikeline_model::examples(&trades, &|symbol| sectors.get(symbol).cloned().unwrap_or_default());
    let evaluation = strikeline_model::evaluate(&examples, (last.year() - HELD_OUT_YEARS + 1)..=last.year()).ok();
    let model = strikeline_model::train(&examples, last + Duration::days(1)).map_err(|e| AppError::field("history", &e.to_string()))?;
    let ships = evaluation.as_ref().is_some_and(|e| e.beats_strength);
    // The time it was trained, and a suffix so two runs in one millisecond never collide.
    let version = format!("m{}-{}", now.format("%Y%m%dT%H%M%SZ"), &uuid::Uuid::new_v4().simple().to_string()[..6]);
    store::insert(
        &state.db,
        &ModelRow {
            version: version.clone(),
            created_at: now,
            trained_through: last,
            examples: examples.len() as i64,
            definition: to_json(&model),
            evaluation: evaluation.as_ref().map(to_json),
            ships,
        },
    )
    .await?;
    tracing::info!(%version, examples = examples.len(), ships, "predictive model trained");
    Ok(Trained { version, trained_through: last, examples: examples.len(), ships, evaluation })
}

/// A model or an evaluation as stored (plain data: serialising it cannot fail).
fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The model that scores new signals: the newest that shipped and reads this build's features.
pub async fn shipping(state: &AppState) -> Result<Option<(String, Model)>> {
    let Some(row) = store::shipping(&state.db).await? else { return Ok(None) };
    match serde_json::from_str::<Model>(&row.definition) {
        Ok(model) if model.is_current() => Ok(Some((row.version, model))),
        _ => Ok(None),
    }
}

/// The recent hit rate of each strategy as known at `now`: its last 50 resolved automated
/// signals.
pub async fn recent_hit_rates(state: &AppState, now: DateTime<Utc>) -> Result<HashMap<String, f64>> {
    let mut rates = HashMap::new();
    for strategy in StrategyName::ALL {
        let window = strikeline_model::walk_forward::HIT_RATE_WINDOW as i64;
        let (n, won) = store::recent_record(&state.db, strategy.as_str(), now, window).await?;
        if n > 0 {
            rates.insert(strategy.as_str().to_owned(), won as f64 / n as f64);
        }
    }
    Ok(rates)
}

/// The shipping model with the strategies' recent hit rates as known at a moment: what scoring
/// a batch of setups reads once.
pub struct Scoring {
    pub version: String,
    pub model: Model,
    pub hit_rates: HashMap<String, f64>,
}

impl Scoring {
    /// The shipping model and the hit rates at `now`; `None` while no model ships.
    pub async fn load(state: &AppState, now: DateTime<Utc>) -> Result<Option<Scoring>> {
        let Some((version, model)) = shipping(state).await? else { return Ok(None) };
        Ok(Some(Scoring { version, model, hit_rates: recent_hit_rates(state, now).await? }))
    }

    #[must_use]
    pub fn scorer(&self) -> Scorer<'_> {
        Scorer { version: &self.version, model: &self.model, hit_rates: &self.hit_rates }
    }
}

/// What a scorer needs besides the signal: the model, the indicators at issue, the sector and
/// the strategies' recent hit rates.
pub struct Scorer<'a> {
    pub version: &'a str,
    pub model: &'a Model,
    pub hit_rates: &'a HashMap<String, f64>,
}

impl Scorer<'_> {
    /// The model's probability (to four places) that the proposal `p`, issued on `as_of` in a
    /// stock of `sector` with the indicators `context`, wins; and why.
    #[must_use]
    pub fn judge(&self, p: &Proposal, as_of: NaiveDate, context: EntryContext, sector: &str) -> (f64, Vec<Reason>) {
        let setup = Setup {
            strategy: p.strategy,
            signal_type: p.signal_type,
            confidence: p.confidence,
            strike: p.strike,
            spot: p.underlying_price,
            premium: p.entry_price,
            volatility: p.volatility,
            days_to_expiry: (p.expiration - as_of).num_days() as f64,
            target: p.target_price,
            stop: p.stop_loss,
            context,
            sector,
            recent_hit_rate: self.hit_rates.get(p.strategy.label()).copied(),
        };
        let x = strikeline_model::encode(&setup);
        ((self.model.predict(&x) * 10_000.0).round() / 10_000.0, self.model.why(&x, WHY_REASONS))
    }

    /// Sets the model's probability, version and why on `row`, the signal about to be issued
    /// from `p` (see [`judge`](Self::judge)).
    pub fn score(&self, row: &mut SignalRow, p: &Proposal, as_of: NaiveDate, context: EntryContext, sector: &str) {
        let (probability, why) = self.judge(p, as_of, context, sector);
        row.model_probability = Some(probability);
        row.model_version = Some(self.version.to_owned());
        row.model_why = serde_json::to_string(&why).ok();
    }
}
