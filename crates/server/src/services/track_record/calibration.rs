//! How often each kind of call was right: the calibration of resolved live signals, per
//! strategy and pooled (docs/track-record.md defines every figure).
//!
//! Two forecasts are checked against what happened:
//! - the signal's **strength** read as a probability (`confidence / 100`) against its outcome
//!   (won: net P&L after its stated costs above zero, exits as its rule says);
//! - the **risk-neutral probability of profit** at issue against the event it forecasts: the
//!   position held to expiry ends in profit (intrinsic value at the expiration day's close above
//!   the premium paid), whatever the signal's own exit did.
//!
//! Only live automated signals count. Replayed ones (recomputed at first start) and those
//! stored before the record existed are counted and left out, and the answer says how many.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Serialize;
use strikeline_quant::calibration::{
    Binning, DatedForecast, Forecast, ReliabilityBin, brier, brier_skill_score, expected_calibration_error, murphy, reliability_bins,
    rolling_brier,
};
use strikeline_quant::pricing::intrinsic;
use strikeline_store::signals::SignalRow;
use utoipa::ToSchema;

use crate::foundation::error::Result;
use crate::foundation::money::dollars;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{Provenance, StrategyName, Vocabulary};
use crate::services::signal_issuing::open_signal;

/// Below this many resolved signals a group shows its n and no figure.
pub const MINIMUM_SAMPLE: usize = 30;
/// The published targets.
pub const ECE_TARGET: f64 = 0.05;
pub const SKILL_TARGET: f64 = 0.0;
/// The rolling Brier score's window, in days.
pub const ROLLING_DAYS: usize = 90;

/// One bin of a reliability diagram.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Bin {
    pub lower: f64,
    pub upper: f64,
    /// Forecasts in the bin.
    pub n: usize,
    /// How many of them won.
    pub wins: usize,
    /// Mean forecast; `null` for an empty bin.
    pub mean_forecast: Option<f64>,
    /// Share that won; `null` for an empty bin.
    pub observed_frequency: Option<f64>,
    /// 95% Wilson score interval of the observed frequency.
    pub wilson_low: Option<f64>,
    pub wilson_high: Option<f64>,
}

impl From<&ReliabilityBin> for Bin {
    fn from(b: &ReliabilityBin) -> Self {
        Bin {
            lower: b.lower,
            upper: b.upper,
            n: b.count,
            wins: b.positives,
            mean_forecast: b.mean_forecast,
            observed_frequency: b.observed_frequency,
            wilson_low: b.wilson.map(|w| w.0),
            wilson_high: b.wilson.map(|w| w.1),
        }
    }
}

/// The Brier score over the trailing window ending on `day`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RollingPoint {
    pub day: NaiveDate,
    pub n: usize,
    pub brier: f64,
}

/// The headline figures of a group with enough resolved signals.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// Mean forecast.
    pub mean_forecast: f64,
    /// Share that happened (the base rate).
    pub base_rate: f64,
    /// `(1/N) Σ (p − y)²`.
    pub brier: f64,
    /// `1 − BS / (ō(1 − ō))`; `null` when every one won or every one lost.
    pub skill: Option<f64>,
    /// Murphy decomposition over the ten equal-width bins (with the within-bin terms that
    /// make it exact: `BS = REL − RES + UNC + WBV − 2·WBC`).
    pub reliability: f64,
    pub resolution: f64,
    pub uncertainty: f64,
    pub within_bin_variance: f64,
    pub within_bin_covariance: f64,
    /// Expected calibration error over 10 equal-width bins and over 10 equal-count bins.
    pub ece_equal_width: f64,
    pub ece_equal_count: f64,
    /// Whether ECE (equal-width) ≤ 0.05 and skill > 0: the published targets.
    pub meets_ece_target: bool,
    pub meets_skill_target: bool,
    /// Reliability diagrams.
    pub bins_equal_width: Vec<Bin>,
    pub bins_equal_count: Vec<Bin>,
    /// Brier score over the trailing 90 days, per resolution day.
    pub rolling_brier: Vec<RollingPoint>,
}

/// One group's calibration.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Calibration {
    /// Resolved signals in the group.
    pub n: usize,
    /// How many of them the event happened for.
    pub wins: usize,
    /// First and last resolution day.
    pub first_day: Option<NaiveDate>,
    pub last_day: Option<NaiveDate>,
    /// `null` under the minimum sample: the group shows its n and no figure.
    pub figures: Option<Figures>,
}

/// One strategy's calibration.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StrategyCalibration {
    pub strategy: StrategyName,
    pub strength: Calibration,
}

/// Resolved signals left out of the figures, by why.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Excluded {
    /// Recomputed from stored history at first start, not issued live.
    pub replayed: usize,
    /// Stored before the track record existed, with no outcome rule recorded at issue.
    pub unrecorded: usize,
    /// Live but without a recorded net outcome.
    pub without_outcome: usize,
}

/// The published calibration.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackRecordSummary {
    pub generated_at: DateTime<Utc>,
    pub minimum_sample: usize,
    pub ece_target: f64,
    pub skill_target: f64,
    pub rolling_window_days: usize,
    /// Strength (`confidence / 100`) against the signal's own outcome, every live signal.
    pub pooled: Calibration,
    /// The same per strategy, in the order Momentum, Mean Reversion, Breakout, Volatility.
    pub strategies: Vec<StrategyCalibration>,
    /// The risk-neutral probability of profit at issue against the position held to expiry
    /// ending in profit, for live signals whose series has expired.
    pub risk_neutral: Calibration,
    /// The predictive model's probability at issue against the signal's outcome, for the live
    /// signals a model scored.
    pub model_live: Calibration,
    /// The newest trained model and its held-out comparison with the strength; `null` before
    /// the first training.
    pub model: Option<PublishedModel>,
    pub excluded: Excluded,
}

/// One forecaster's scores on the held-out years.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldOutScores {
    pub brier: f64,
    /// Against the base rate; `null` when every signal won or every one lost.
    pub skill: Option<f64>,
    /// Over ten equal-width bins.
    pub ece: f64,
    /// Non-empty equal-width bins: mean forecast, observed frequency, n.
    pub reliability: Vec<HeldOutBin>,
}

/// One reliability bin of a held-out score.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldOutBin {
    pub mean_forecast: f64,
    pub observed_frequency: f64,
    pub n: usize,
}

impl From<&strikeline_model::Scores> for HeldOutScores {
    fn from(s: &strikeline_model::Scores) -> Self {
        HeldOutScores {
            brier: s.brier,
            skill: s.skill,
            ece: s.ece,
            reliability: s.reliability.iter().map(|&(m, o, n)| HeldOutBin { mean_forecast: m, observed_frequency: o, n }).collect(),
        }
    }
}

/// The model against the strength on years it never saw (each scored by the model as of the
/// start of that year).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldOutEvaluation {
    pub years: Vec<i32>,
    pub n: usize,
    pub base_rate: f64,
    pub model: HeldOutScores,
    pub strength: HeldOutScores,
    /// `1 − BS(model) / BS(strength)`.
    pub skill_over_strength: f64,
    pub beats_strength: bool,
}

/// The newest trained model.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedModel {
    pub version: String,
    pub created_at: DateTime<Utc>,
    pub trained_through: NaiveDate,
    /// Resolved backtested signals in the history it read.
    pub examples: i64,
    /// Whether it scores new signals (it beat the strength on the held-out years).
    pub ships: bool,
    /// `null` when the history was too short to hold years out.
    pub evaluation: Option<HeldOutEvaluation>,
}

async fn published_model(state: &AppState) -> Result<Option<PublishedModel>> {
    let Some(row) = strikeline_store::models::latest(&state.db).await? else { return Ok(None) };
    let evaluation =
        row.evaluation.as_deref().and_then(|e| serde_json::from_str::<strikeline_model::Evaluation>(e).ok()).map(|e| HeldOutEvaluation {
            years: e.years.clone(),
            n: e.n,
            base_rate: e.base_rate,
            model: HeldOutScores::from(&e.model),
            strength: HeldOutScores::from(&e.strength),
            skill_over_strength: e.skill_over_strength,
            beats_strength: e.beats_strength,
        });
    Ok(Some(PublishedModel {
        version: row.version,
        created_at: row.created_at,
        trained_through: row.trained_through,
        examples: row.examples,
        ships: row.ships,
        evaluation,
    }))
}

/// One resolved forecast with its resolution day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    pub day: NaiveDate,
    pub forecast: Forecast,
}

/// The calibration of `forecasts` (any order).
#[must_use]
pub fn calibrate(forecasts: &[Resolved]) -> Calibration {
    let n = forecasts.len();
    let wins = forecasts.iter().filter(|f| f.forecast.outcome()).count();
    let first_day = forecasts.iter().map(|f| f.day).min();
    let last_day = forecasts.iter().map(|f| f.day).max();
    let figures = (n >= MINIMUM_SAMPLE).then(|| figures(forecasts)).flatten();
    Calibration { n, wins, first_day, last_day, figures }
}

fn figures(resolved: &[Resolved]) -> Option<Figures> {
    let forecasts: Vec<Forecast> = resolved.iter().map(|r| r.forecast).collect();
    let n = forecasts.len() as f64;
    let uniform = reliability_bins(&forecasts, Binning::UNIFORM_10);
    let quantile = reliability_bins(&forecasts, Binning::QUANTILE_10);
    let decomposition = murphy(&forecasts, Binning::UNIFORM_10)?;
    let skill = brier_skill_score(&forecasts);
    let ece_equal_width = expected_calibration_error(&uniform)?;
    let dated: Vec<DatedForecast> =
        resolved.iter().map(|r| DatedForecast { day: i64::from(r.day.num_days_from_ce()), forecast: r.forecast }).collect();
    let rolling = rolling_brier(&dated, ROLLING_DAYS).ok()?;
    Some(Figures {
        mean_forecast: forecasts.iter().map(Forecast::probability).sum::<f64>() / n,
        base_rate: decomposition.base_rate,
        brier: brier(&forecasts)?,
        skill,
        reliability: decomposition.reliability,
        resolution: decomposition.resolution,
        uncertainty: decomposition.uncertainty,
        within_bin_variance: decomposition.within_bin_variance,
        within_bin_covariance: decomposition.within_bin_covariance,
        ece_equal_width,
        ece_equal_count: expected_calibration_error(&quantile)?,
        meets_ece_target: ece_equal_width <= ECE_TARGET,
        meets_skill_target: skill.is_some_and(|s| s > SKILL_TARGET),
        bins_equal_width: uniform.iter().map(Bin::from).collect(),
        bins_equal_count: quantile.iter().map(Bin::from).collect(),
        rolling_brier: rolling
            .iter()
            .filter_map(|r| {
                let day = NaiveDate::from_num_days_from_ce_opt(i32::try_from(r.day).ok()?)?;
                Some(RollingPoint { day, n: r.n, brier: r.brier })
            })
            .collect(),
    })
}

/// The strength forecast of a resolved live signal: `confidence / 100` and whether it won.
fn strength_forecast(row: &SignalRow) -> Option<Resolved> {
    let won = row.net_pnl_cents? > 0;
    let day = row.closed_at?.date_naive();
    Some(Resolved { day, forecast: Forecast::new(row.confidence as f64 / 100.0, won).ok()? })
}

/// The position's P&L per share held to expiry with the underlying at `spot`.
fn held_to_expiry_pnl(row: &SignalRow, spot: f64) -> Option<f64> {
    let open = open_signal(row)?;
    Some(intrinsic(open.signal_type.option_type(), spot, open.strike) - open.entry_price)
}

/// The calibration of every resolved live signal, as of `now`.
pub async fn summary(state: &AppState, now: DateTime<Utc>) -> Result<TrackRecordSummary> {
    let rows = strikeline_store::signals::resolved_automated(&state.db).await?;
    let mut excluded = Excluded::default();
    let mut live = Vec::new();
    for row in &rows {
        match Provenance::exact(&row.provenance) {
            Ok(Provenance::Live) if row.net_pnl_cents.is_some() => live.push(row),
            Ok(Provenance::Live) => excluded.without_outcome += 1,
            Ok(Provenance::Replayed) => excluded.replayed += 1,
            _ => excluded.unrecorded += 1,
        }
    }
    let strength: Vec<(StrategyName, Resolved)> =
        live.iter().filter_map(|row| Some((StrategyName::exact(&row.strategy).ok()?, strength_forecast(row)?))).collect();
    let pooled = calibrate(&strength.iter().map(|(_, r)| *r).collect::<Vec<_>>());
    let strategies = StrategyName::ALL
        .iter()
        .map(|&name| StrategyCalibration {
            strategy: name,
            strength: calibrate(&strength.iter().filter(|(s, _)| *s == name).map(|(_, r)| *r).collect::<Vec<_>>()),
        })
        .collect();
    let risk_neutral = calibrate(&risk_neutral_forecasts(state, &live, now).await?);
    let model_live = calibrate(
        &live
            .iter()
            .filter_map(|row| {
                let won = row.net_pnl_cents? > 0;
                Some(Resolved { day: row.closed_at?.date_naive(), forecast: Forecast::new(row.model_probability?, won).ok()? })
            })
            .collect::<Vec<_>>(),
    );
    Ok(TrackRecordSummary {
        generated_at: now,
        minimum_sample: MINIMUM_SAMPLE,
        ece_target: ECE_TARGET,
        skill_target: SKILL_TARGET,
        rolling_window_days: ROLLING_DAYS,
        pooled,
        strategies,
        risk_neutral,
        model_live,
        model: published_model(state).await?,
        excluded,
    })
}

/// The risk-neutral probability at issue against "held to expiry, in profit", for the signals
/// whose expiration day has a stored close.
async fn risk_neutral_forecasts(state: &AppState, live: &[&SignalRow], now: DateTime<Utc>) -> Result<Vec<Resolved>> {
    let through = state.market.last_completed_day(now);
    let mut by_symbol: HashMap<&str, Vec<&SignalRow>> = HashMap::new();
    for row in live.iter().filter(|r| r.issue_probability.is_some() && r.expiration_date <= through) {
        by_symbol.entry(row.symbol.as_str()).or_default().push(row);
    }
    let mut out = Vec::new();
    for (symbol, rows) in by_symbol {
        let Some(from) = rows.iter().map(|r| r.expiration_date).min() else { continue };
        let to = rows.iter().map(|r| r.expiration_date).max().unwrap_or(from);
        let closes: HashMap<NaiveDate, i64> =
            strikeline_store::market::bars(&state.db, symbol, from, to).await?.into_iter().map(|b| (b.day, b.close_cents)).collect();
        for row in rows {
            let Some(close) = closes.get(&row.expiration_date) else { continue };
            let Some(pnl) = held_to_expiry_pnl(row, dollars(*close)) else { continue };
            let Some(p) = row.issue_probability else { continue };
            if let Ok(forecast) = Forecast::new(p, pnl > 0.0) {
                out.push(Resolved { day: row.expiration_date, forecast });
            }
        }
    }
    Ok(out)
}
