//! A trained model: L2-regularised logistic regression over standardised features, then the
//! isotonic map fitted on a later slice; and why it says what it says.

use serde::{Deserialize, Serialize};
use smartcore::linalg::basic::arrays::Array;
use smartcore::linalg::basic::matrix::DenseMatrix;
use smartcore::linear::logistic_regression::{LogisticRegression, LogisticRegressionParameters};

use crate::features::FEATURES;
use crate::isotonic::Isotonic;

/// Names the stored format.
pub const MODEL_FORMAT: &str = "strikeline/model/v1";

/// The L2 penalty on the standardised coefficients (scikit-learn's `C = 1 / alpha`).
pub const ALPHA: f64 = 1.0;

/// Why a fit failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// Too few examples, or all of one outcome, to fit or calibrate.
    NotEnoughData(String),
    /// The learner refused the data.
    Fit(String),
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::NotEnoughData(why) => write!(f, "not enough resolved history: {why}"),
            ModelError::Fit(why) => write!(f, "the model could not be fitted: {why}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// A logistic regression over standardised features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logistic {
    pub means: Vec<f64>,
    pub scales: Vec<f64>,
    pub coefficients: Vec<f64>,
    pub intercept: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Logistic {
    /// Fits rows `x` (each [`FEATURES`] long) to outcomes `y` with penalty [`ALPHA`].
    ///
    /// # Errors
    /// [`ModelError::NotEnoughData`] without both outcomes; [`ModelError::Fit`] when the learner fails.
    pub fn fit(x: &[Vec<f64>], y: &[bool]) -> Result<Logistic, ModelError> {
        if !(y.contains(&true) && y.contains(&false)) {
            return Err(ModelError::NotEnoughData("the examples need both wins and losses".into()));
        }
        let width = FEATURES.len();
        let n = x.len() as f64;
        let means: Vec<f64> = (0..width).map(|j| x.iter().map(|r| r[j]).sum::<f64>() / n).collect();
        let scales: Vec<f64> = (0..width)
            .map(|j| {
                let var = x.iter().map(|r| (r[j] - means[j]).powi(2)).sum::<f64>() / n;
                if var > 1e-24 { var.sqrt() } else { 1.0 }
            })
            .collect();
        let standard: Vec<Vec<f64>> = x.iter().map(|r| r.iter().enumerate().map(|(j, v)| (v - means[j]) / scales[j]).collect()).collect();
        let matrix = DenseMatrix::from_2d_vec(&standard).map_err(|e| ModelError::Fit(e.to_string()))?;
        let labels: Vec<i32> = y.iter().map(|&won| i32::from(won)).collect();
        let parameters = LogisticRegressionParameters::default().with_alpha(ALPHA);
        let fitted = LogisticRegression::fit(&matrix, &labels, parameters).map_err(|e| ModelError::Fit(e.to_string()))?;
        let coefficients: Vec<f64> = fitted.coefficients().iterator(0).copied().collect();
        let intercept = fitted.intercept().iterator(0).copied().next().unwrap_or(0.0);
        if coefficients.len() != width || coefficients.iter().chain([&intercept]).any(|c| !c.is_finite()) {
            return Err(ModelError::Fit("the coefficients are not finite".into()));
        }
        Ok(Logistic { means, scales, coefficients, intercept })
    }

    /// Each feature's contribution to the log-odds against the average training example.
    #[must_use]
    pub fn contributions(&self, x: &[f64]) -> Vec<f64> {
        x.iter().enumerate().map(|(j, v)| self.coefficients[j] * (v - self.means[j]) / self.scales[j]).collect()
    }

    /// The uncalibrated probability.
    #[must_use]
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.intercept + self.contributions(x).iter().sum::<f64>())
    }
}

/// One reason in "why": a feature and how much it moved the log-odds (positive raises the
/// chance against an average signal).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reason {
    pub feature: String,
    pub label: String,
    pub effect: f64,
}

/// A stored model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub format: String,
    /// Feature names, in order: a stored model is only used with the same features.
    pub features: Vec<String>,
    pub logistic: Logistic,
    pub calibration: Isotonic,
}

impl Model {
    /// A model from a fitted regression and the isotonic map of its scores on a later slice.
    #[must_use]
    pub fn new(logistic: Logistic, calibration: Isotonic) -> Model {
        Model { format: MODEL_FORMAT.into(), features: FEATURES.iter().map(|f| f.name.to_owned()).collect(), logistic, calibration }
    }

    /// Whether this model reads exactly the features this build computes.
    #[must_use]
    pub fn is_current(&self) -> bool {
        self.format == MODEL_FORMAT && self.features.iter().map(String::as_str).eq(FEATURES.iter().map(|f| f.name))
    }

    /// The calibrated probability that a signal with features `x` wins.
    #[must_use]
    pub fn predict(&self, x: &[f64]) -> f64 {
        self.calibration.predict(self.logistic.probability(x)).clamp(0.0, 1.0)
    }

    /// The `k` features that moved this signal's score most, largest first.
    #[must_use]
    pub fn why(&self, x: &[f64], k: usize) -> Vec<Reason> {
        let mut reasons: Vec<Reason> = self
            .logistic
            .contributions(x)
            .into_iter()
            .zip(FEATURES.iter())
            .filter(|(effect, _)| effect.abs() > 1e-9)
            .map(|(effect, f)| Reason { feature: f.name.into(), label: f.label.into(), effect })
            .collect();
        reasons.sort_by(|a, b| b.effect.abs().total_cmp(&a.effect.abs()));
        reasons.truncate(k);
        reasons
    }
}
