//! Resolved history as examples, and training that never sees the future.
//!
//! For a cut-off `c`, the regression is fitted on signals **resolved** before `c − 1 year`, and
//! the isotonic map on the scores of signals issued in the year before `c` and resolved
//! before `c`: a later slice than the fit. Evaluating year `Y` uses `c = 1 January Y` and scores
//! every signal issued in `Y`; the held-out figures pool the years evaluated.

use chrono::{Datelike, Months, NaiveDate};
use serde::{Deserialize, Serialize};
use strikeline_engine::backtest::{Trade, TradeOutcome};
use strikeline_quant::calibration::{Binning, Forecast, brier, brier_skill_score, expected_calibration_error, reliability_bins};

use crate::features::{Setup, encode};
use crate::isotonic::Isotonic;
use crate::model::{Logistic, Model, ModelError};

/// Trades a strategy's recent hit rate is measured over.
pub const HIT_RATE_WINDOW: usize = 50;
/// The fewest examples a fit and a calibration take.
pub const MIN_FIT: usize = 200;
pub const MIN_CALIBRATION: usize = 50;

/// One resolved signal.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub issued: NaiveDate,
    pub resolved: NaiveDate,
    pub features: Vec<f64>,
    /// The heuristic strength read as a probability, `confidence / 100`.
    pub strength: f64,
    pub won: bool,
}

/// The examples of a backtest's trades: every trade its own rule resolved (target, stop or
/// expiry; those still open at the end of the test are left out), won when its net P&L is
/// above zero, with the strategy's hit rate over its last [`HIT_RATE_WINDOW`] trades resolved
/// before it was issued.
#[must_use]
pub fn examples(trades: &[Trade], sector_of: &dyn Fn(&str) -> String) -> Vec<Example> {
    let resolved: Vec<&Trade> = trades.iter().filter(|t| t.outcome != TradeOutcome::EndOfTest).collect();
    // Per strategy: exit dates in order with the running count of wins.
    let mut by_strategy: std::collections::HashMap<_, Vec<(NaiveDate, bool)>> = std::collections::HashMap::new();
    for t in &resolved {
        by_strategy.entry(t.strategy).or_default().push((t.exit_date, t.pnl > 0.0));
    }
    let mut prefix = std::collections::HashMap::new();
    for (strategy, exits) in &mut by_strategy {
        exits.sort_by_key(|e| e.0);
        let mut wins = vec![0usize];
        for (_, won) in exits.iter() {
            wins.push(wins[wins.len() - 1] + usize::from(*won));
        }
        prefix.insert(*strategy, wins);
    }
    let mut out: Vec<Example> = resolved
        .iter()
        .map(|t| {
            let exits = &by_strategy[&t.strategy];
            let wins = &prefix[&t.strategy];
            let known = exits.partition_point(|(day, _)| *day < t.entry_date);
            let window = known.min(HIT_RATE_WINDOW);
            let recent_hit_rate = (window > 0).then(|| (wins[known] - wins[known - window]) as f64 / window as f64);
            let sector = sector_of(&t.symbol);
            let setup = Setup {
                strategy: t.strategy,
                signal_type: t.signal_type,
                confidence: t.confidence,
                strike: t.strike,
                spot: t.entry_underlying,
                premium: t.model_entry_price,
                volatility: t.volatility,
                days_to_expiry: (t.expiration - t.entry_date).num_days() as f64,
                target: t.target_price,
                stop: t.stop_loss,
                context: t.context,
                sector: &sector,
                recent_hit_rate,
            };
            Example {
                issued: t.entry_date,
                resolved: t.exit_date,
                features: encode(&setup),
                strength: f64::from(t.confidence) / 100.0,
                won: t.pnl > 0.0,
            }
        })
        .collect();
    out.sort_by_key(|e| (e.issued, e.resolved));
    out
}

fn year_before(day: NaiveDate) -> NaiveDate {
    day.checked_sub_months(Months::new(12)).unwrap_or(NaiveDate::MIN)
}

/// The model as of `cut`: fitted on what resolved before a year earlier, calibrated on the
/// year before `cut`.
///
/// # Errors
/// [`ModelError::NotEnoughData`] when either slice is too small or one-sided.
pub fn train(examples: &[Example], cut: NaiveDate) -> Result<Model, ModelError> {
    let fit_cut = year_before(cut);
    let fit: Vec<&Example> = examples.iter().filter(|e| e.resolved < fit_cut).collect();
    let calibrate: Vec<&Example> = examples.iter().filter(|e| e.issued >= fit_cut && e.resolved < cut).collect();
    if fit.len() < MIN_FIT {
        return Err(ModelError::NotEnoughData(format!("{} signals resolved before {fit_cut}, {MIN_FIT} needed", fit.len())));
    }
    if calibrate.len() < MIN_CALIBRATION {
        return Err(ModelError::NotEnoughData(format!(
            "{} signals issued from {fit_cut} and resolved before {cut}, {MIN_CALIBRATION} needed",
            calibrate.len()
        )));
    }
    let x: Vec<Vec<f64>> = fit.iter().map(|e| e.features.clone()).collect();
    let y: Vec<bool> = fit.iter().map(|e| e.won).collect();
    let logistic = Logistic::fit(&x, &y)?;
    let scores: Vec<(f64, bool)> = calibrate.iter().map(|e| (logistic.probability(&e.features), e.won)).collect();
    let calibration = Isotonic::fit(&scores).ok_or_else(|| ModelError::NotEnoughData("no calibration scores".into()))?;
    Ok(Model::new(logistic, calibration))
}

/// Held-out scores of one forecaster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scores {
    pub brier: f64,
    /// Against always forecasting the base rate.
    pub skill: Option<f64>,
    /// Over ten equal-width bins.
    pub ece: f64,
    /// `(mean forecast, observed frequency, n)` per non-empty equal-width bin.
    pub reliability: Vec<(f64, f64, usize)>,
}

fn scores(forecasts: &[Forecast]) -> Option<Scores> {
    let bins = reliability_bins(forecasts, Binning::UNIFORM_10);
    Some(Scores {
        brier: brier(forecasts)?,
        skill: brier_skill_score(forecasts),
        ece: expected_calibration_error(&bins)?,
        reliability: bins.iter().filter_map(|b| Some((b.mean_forecast?, b.observed_frequency?, b.count))).collect(),
    })
}

/// The model against the heuristic strength on later years it never saw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// The years scored, each by the model as of 1 January of that year.
    pub years: Vec<i32>,
    pub n: usize,
    pub base_rate: f64,
    pub model: Scores,
    pub strength: Scores,
    /// `1 − BS(model) / BS(strength)`: above 0 when the model beats the heuristic.
    pub skill_over_strength: f64,
    /// Whether the model beats the heuristic on the held-out years (what decides whether it ships).
    pub beats_strength: bool,
}

/// Scores every signal issued in `years` with the model as of the start of its year.
///
/// # Errors
/// [`ModelError::NotEnoughData`] when no year could be scored.
pub fn evaluate(examples: &[Example], years: std::ops::RangeInclusive<i32>) -> Result<Evaluation, ModelError> {
    let mut model_forecasts = Vec::new();
    let mut strength_forecasts = Vec::new();
    let mut scored = Vec::new();
    for year in years {
        let Some(cut) = NaiveDate::from_ymd_opt(year, 1, 1) else { continue };
        let Ok(model) = train(examples, cut) else { continue };
        let test: Vec<&Example> = examples.iter().filter(|e| e.issued.year() == year).collect();
        if test.is_empty() {
            continue;
        }
        for e in test {
            let m = Forecast::new(model.predict(&e.features), e.won).map_err(|err| ModelError::Fit(err.to_string()))?;
            let s = Forecast::new(e.strength.clamp(0.0, 1.0), e.won).map_err(|err| ModelError::Fit(err.to_string()))?;
            model_forecasts.push(m);
            strength_forecasts.push(s);
        }
        scored.push(year);
    }
    let n = model_forecasts.len();
    let (Some(model), Some(strength)) = (scores(&model_forecasts), scores(&strength_forecasts)) else {
        return Err(ModelError::NotEnoughData("no year had enough history before it to score".into()));
    };
    let base_rate = model_forecasts.iter().filter(|f| f.outcome()).count() as f64 / n as f64;
    let skill_over_strength = if strength.brier > 0.0 { 1.0 - model.brier / strength.brier } else { 0.0 };
    Ok(Evaluation { years: scored, n, base_rate, beats_strength: model.brier < strength.brier, model, strength, skill_over_strength })
}
