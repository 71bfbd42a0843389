//! Calibration of probability forecasts: how far stated probabilities are from observed
//! frequencies.
//!
//! A [`Forecast`] is a probability `p ∈ [0, 1]` that an event happens and the outcome
//! `y ∈ {0, 1}` (`true` = it happened). Over `N` forecasts:
//!
//! - [`brier`]: the Brier score `(1/N) Σ (p_i − y_i)²`; [`base_rate`] `ō = (1/N) Σ y_i`;
//!   [`brier_skill_score`] `1 − brier / (ō(1 − ō))`, the improvement on always forecasting `ō`.
//! - [`reliability_bins`]: forecasts grouped by [`Binning`] (equal-width or equal-count
//!   bins, as scikit-learn's `calibration_curve`), each [`ReliabilityBin`] with its mean
//!   forecast, observed frequency and a Wilson interval for that frequency ([`wilson`]).
//! - [`expected_calibration_error`] over those bins, and [`murphy`]'s decomposition of the
//!   Brier score into reliability, resolution and uncertainty ([`MurphyDecomposition`]).
//! - [`rolling_brier`]: the Brier score over a trailing window of resolution days.
//!
//! Forecasts are validated once, by [`Forecast::new`]; after that nothing fails. An empty
//! input gives `None` (or an empty list), never NaN.
//!
//! Bins follow scikit-learn (`sklearn.calibration.calibration_curve`) exactly: edges
//! `e_0 ≤ … ≤ e_K` are `numpy.linspace(0, 1, K + 1)` (uniform) or
//! `numpy.percentile(p, linspace(0, 1, K + 1) · 100)` (quantile), and a forecast goes to
//! bin `k = #{j ∈ 1..K : e_j < p}` (`numpy.searchsorted(edges[1:-1], p)`, `side="left"`):
//! bin `k` holds `e_k < p ≤ e_{k+1}`, and the first bin also holds `p = e_0`. A forecast on
//! an inner edge therefore belongs to the bin *below* it. The edges are numpy's doubles
//! (`3 · 0.1 = 0.30000000000000004`, so a forecast of exactly `0.3` is in bin 2, `(0.2, 0.3]`).
//!
//! ```
//! use strikeline_quant::calibration::{Binning, Forecast, brier, expected_calibration_error, reliability_bins};
//! let forecasts = Forecast::from_pairs(&[(0.8, true), (0.3, false), (0.75, false), (0.2, false)])?;
//! assert!((brier(&forecasts).unwrap() - (0.04 + 0.09 + 0.5625 + 0.04) / 4.0).abs() < 1e-15);
//! let bins = reliability_bins(&forecasts, Binning::UNIFORM_10);
//! assert_eq!(bins.iter().map(|b| b.count).collect::<Vec<_>>(), [0, 1, 1, 0, 0, 0, 0, 2, 0, 0]);
//! let ece = expected_calibration_error(&bins).unwrap();
//! assert!((ece - (0.2 + 0.3 + 2.0 * (0.775 - 0.5)) / 4.0).abs() < 1e-15);
//! # Ok::<(), strikeline_quant::InputError>(())
//! ```

use crate::error::{Field, InputError, at_least, in_range, non_negative};

/// The two-sided 95% normal quantile `Φ⁻¹(0.975)`, the `z` of a 95% Wilson interval.
pub const Z_95: f64 = 1.959963984540054;

/// A probability forecast and what happened: `p = probability()`, `y = outcome()`
/// (`true` = 1, the event happened).
///
/// ```
/// use strikeline_quant::{Field, calibration::Forecast};
/// let f = Forecast::new(0.7, true)?;
/// assert_eq!((f.probability(), f.outcome()), (0.7, true));
/// assert_eq!(Forecast::new(1.2, true).unwrap_err().field(), Field::Probability);
/// assert!(Forecast::new(f64::NAN, false).is_err());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forecast {
    probability: f64,
    outcome: bool,
}

impl Forecast {
    /// Checks that `probability` is a number in `[0, 1]` (NaN is
    /// [`InputError::NotFinite`], anything else outside is [`InputError::OutOfRange`],
    /// both for [`Field::Probability`]). `-0.0` is stored as `0.0`.
    pub fn new(probability: f64, outcome: bool) -> Result<Self, InputError> {
        let probability = in_range(Field::Probability, probability, 0.0, 1.0)?;
        Ok(Forecast { probability: probability + 0.0, outcome })
    }

    /// Validates `(p, y)` pairs; the first invalid probability is the error.
    ///
    /// ```
    /// use strikeline_quant::calibration::Forecast;
    /// assert_eq!(Forecast::from_pairs(&[(0.1, false), (0.9, true)])?.len(), 2);
    /// assert!(Forecast::from_pairs(&[(0.1, false), (-0.5, true)]).is_err());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn from_pairs(pairs: &[(f64, bool)]) -> Result<Vec<Forecast>, InputError> {
        pairs.iter().map(|&(p, y)| Forecast::new(p, y)).collect()
    }

    /// The forecast probability `p`.
    #[must_use]
    pub fn probability(&self) -> f64 {
        self.probability
    }

    /// The outcome `y`: `true` when the event happened.
    #[must_use]
    pub fn outcome(&self) -> bool {
        self.outcome
    }

    /// `y` as a number, 0 or 1.
    fn y(&self) -> f64 {
        if self.outcome { 1.0 } else { 0.0 }
    }

    /// `(p − y)²`.
    fn squared_error(&self) -> f64 {
        let e = self.probability - self.y();
        e * e
    }
}

/// The Brier score `(1/N) Σ (p_i − y_i)²`: 0 is perfect, 0.25 is always saying 50%.
/// `None` with no forecasts.
///
/// ```
/// use strikeline_quant::calibration::{Forecast, brier};
/// let f = Forecast::from_pairs(&[(0.8, true), (0.3, false)])?;
/// assert!((brier(&f).unwrap() - (0.04 + 0.09) / 2.0).abs() < 1e-16);
/// assert_eq!(brier(&[]), None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[must_use]
pub fn brier(forecasts: &[Forecast]) -> Option<f64> {
    mean(forecasts.iter().map(Forecast::squared_error), forecasts.len())
}

/// The base rate `ō = (1/N) Σ y_i`, the fraction of events that happened. `None` with no
/// forecasts.
///
/// ```
/// use strikeline_quant::calibration::{Forecast, base_rate};
/// assert_eq!(base_rate(&Forecast::from_pairs(&[(0.8, true), (0.3, false)])?), Some(0.5));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[must_use]
pub fn base_rate(forecasts: &[Forecast]) -> Option<f64> {
    let positives = forecasts.iter().filter(|f| f.outcome).count();
    (!forecasts.is_empty()).then(|| positives as f64 / forecasts.len() as f64)
}

/// The Brier skill score against the base rate: `1 − brier / (ō(1 − ō))`, where
/// `ō(1 − ō)` is the Brier score of always forecasting `ō`. 1 is perfect, 0 no better
/// than the base rate, negative worse. `None` with no forecasts, or when every outcome is
/// the same (`ō` is 0 or 1, so the reference score is 0).
///
/// ```
/// use strikeline_quant::calibration::{Forecast, brier_skill_score};
/// let f = Forecast::from_pairs(&[(0.8, true), (0.3, false)])?; // brier 0.065, ō = 0.5
/// assert!((brier_skill_score(&f).unwrap() - (1.0 - 0.065 / 0.25)).abs() < 1e-15);
/// assert_eq!(brier_skill_score(&Forecast::from_pairs(&[(0.2, false)])?), None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[must_use]
pub fn brier_skill_score(forecasts: &[Forecast]) -> Option<f64> {
    let o = base_rate(forecasts)?;
    let uncertainty = o * (1.0 - o);
    (uncertainty > 0.0).then(|| 1.0 - brier(forecasts).unwrap_or(0.0) / uncertainty)
}

/// How bin edges are chosen (scikit-learn's `strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinStrategy {
    /// `K` equal-width bins on `[0, 1]`: edges `e_k = k · (1/K)`, `e_K = 1`
    /// (`numpy.linspace(0, 1, K + 1)`, bit for bit).
    Uniform,
    /// `K` bins holding about `N/K` forecasts each: edges are the forecasts' percentiles
    /// at `100 · k/K` (numpy's default linear interpolation), from the smallest forecast
    /// to the largest. Equal forecasts can make edges coincide; the bins between equal
    /// edges are then empty.
    Quantile,
}

/// A validated binning: a [`BinStrategy`] and a number of bins `K ≥ 1`.
///
/// ```
/// use strikeline_quant::calibration::{BinStrategy, Binning};
/// assert_eq!(Binning::new(BinStrategy::Quantile, 10)?, Binning::QUANTILE_10);
/// assert!(Binning::new(BinStrategy::Uniform, 0).is_err());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binning {
    strategy: BinStrategy,
    bins: usize,
}

impl Binning {
    /// Ten equal-width bins (deciles of `[0, 1]`).
    pub const UNIFORM_10: Binning = Binning { strategy: BinStrategy::Uniform, bins: 10 };
    /// Ten equal-count bins.
    pub const QUANTILE_10: Binning = Binning { strategy: BinStrategy::Quantile, bins: 10 };

    /// `bins` must be at least 1 ([`InputError::TooSmall`] for [`Field::Bins`]).
    pub fn new(strategy: BinStrategy, bins: usize) -> Result<Self, InputError> {
        Ok(Binning { strategy, bins: at_least(Field::Bins, bins, 1)? })
    }

    /// How edges are chosen.
    #[must_use]
    pub fn strategy(&self) -> BinStrategy {
        self.strategy
    }

    /// The number of bins `K`.
    #[must_use]
    pub fn bins(&self) -> usize {
        self.bins
    }
}

/// One bin of a reliability diagram. With `n = count` forecasts in the bin:
///
/// ```
/// use strikeline_quant::calibration::{Binning, Forecast, Z_95, reliability_bins, wilson};
/// let f = Forecast::from_pairs(&[(0.62, true), (0.68, false), (0.7, true), (0.05, false)])?;
/// let bins = reliability_bins(&f, Binning::UNIFORM_10);
/// let b = &bins[6]; // (0.6, 0.7]: 0.62, 0.68 and 0.7
/// assert_eq!((b.count, b.positives), (3, 2));
/// assert!((b.lower - 0.6).abs() < 1e-15 && (b.upper - 0.7).abs() < 1e-15);
/// assert!((b.mean_forecast.unwrap() - 2.0 / 3.0).abs() < 1e-15);
/// assert_eq!(b.observed_frequency, Some(2.0 / 3.0));
/// assert_eq!(b.wilson, wilson(2, 3, Z_95)?);
/// assert_eq!((bins[5].count, bins[5].mean_forecast, bins[5].wilson), (0, None, None));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReliabilityBin {
    /// Lower edge `e_k`. The bin holds forecasts `p` with `e_k < p ≤ e_{k+1}`; the first
    /// bin also holds `p = e_0`.
    pub lower: f64,
    /// Upper edge `e_{k+1}` (included).
    pub upper: f64,
    /// Number of forecasts in the bin, `n_k` (0 for an empty bin, which scikit-learn's
    /// `calibration_curve` leaves out).
    pub count: usize,
    /// Number of them whose event happened, `Σ_{i∈k} y_i`.
    pub positives: usize,
    /// Mean forecast `p̄_k = (1/n_k) Σ_{i∈k} p_i` (sklearn's `prob_pred`); `None` when empty.
    pub mean_forecast: Option<f64>,
    /// Observed frequency `ō_k = positives / n_k` (sklearn's `prob_true`); `None` when empty.
    pub observed_frequency: Option<f64>,
    /// 95% Wilson score interval `(lo, hi)` for the observed frequency,
    /// `wilson(positives, count, Z_95)`; `None` when empty.
    pub wilson: Option<(f64, f64)>,
}

/// Bin edges and, for each forecast, its bin. `None` with no forecasts.
struct Assignment {
    edges: Vec<f64>,
    bin_of: Vec<usize>,
}

/// `numpy.percentile(sorted, percent)` with the default linear method, reproducing numpy's
/// arithmetic: `q = percent/100`, virtual index `v = (N − 1)·q`, and the interpolation
/// between the neighbours `a ≤ b` done as `a + (b − a)·γ` for `γ < 0.5` and
/// `b − (b − a)·(1 − γ)` otherwise. `sorted` is non-empty and ascending.
fn percentile(sorted: &[f64], percent: f64) -> f64 {
    let last = sorted.len() - 1;
    let virtual_index = last as f64 * (percent / 100.0);
    if virtual_index >= last as f64 {
        return sorted[last];
    }
    let previous = virtual_index.floor();
    let gamma = virtual_index - previous;
    let i = previous as usize;
    let (a, b) = (sorted[i], sorted[i + 1]);
    let diff = b - a;
    if gamma >= 0.5 { b - diff * (1.0 - gamma) } else { a + diff * gamma }
}

fn assign(forecasts: &[Forecast], binning: Binning) -> Option<Assignment> {
    if forecasts.is_empty() {
        return None;
    }
    let k = binning.bins;
    // numpy.linspace(0, 1, k + 1): i · (1/k), the last exactly 1.
    let step = 1.0 / k as f64;
    let grid = (0..=k).map(|i| if i == k { 1.0 } else { i as f64 * step });
    let edges: Vec<f64> = match binning.strategy {
        BinStrategy::Uniform => grid.collect(),
        BinStrategy::Quantile => {
            let mut sorted: Vec<f64> = forecasts.iter().map(Forecast::probability).collect();
            sorted.sort_by(f64::total_cmp);
            // sklearn passes `linspace · 100` to numpy.percentile, which divides by 100 again.
            grid.map(|q| percentile(&sorted, q * 100.0)).collect()
        }
    };
    let inner = &edges[1..k];
    let bin_of = forecasts.iter().map(|f| inner.partition_point(|&e| e < f.probability)).collect();
    Some(Assignment { edges, bin_of })
}

/// Per-bin count, positives and sum of forecasts, summed in input order (as `numpy.bincount`).
#[derive(Clone, Copy, Default)]
struct BinSums {
    count: usize,
    positives: usize,
    sum: f64,
}

impl BinSums {
    fn mean_forecast(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    fn observed_frequency(&self) -> Option<f64> {
        (self.count > 0).then(|| self.positives as f64 / self.count as f64)
    }
}

fn bin_sums(forecasts: &[Forecast], assignment: &Assignment) -> Vec<BinSums> {
    let mut sums = vec![BinSums::default(); assignment.edges.len() - 1];
    for (f, &k) in forecasts.iter().zip(&assignment.bin_of) {
        let s = &mut sums[k];
        s.count += 1;
        s.positives += usize::from(f.outcome);
        s.sum += f.probability;
    }
    sums
}

/// The reliability diagram: all `K` bins of `binning`, in order, empty ones included
/// (`count` 0, no means); an empty list with no forecasts. Over the non-empty bins,
/// `observed_frequency` and `mean_forecast` are the `prob_true` and `prob_pred` of
/// scikit-learn's `calibration_curve(y, p, n_bins=K, strategy=…)`.
///
/// ```
/// use strikeline_quant::calibration::{Binning, Forecast, reliability_bins};
/// // Equal-count bins: the 30th to 70th percentiles are all 0.5, so bins 3 to 7 are empty
/// // (0.5, on the edge 0.5, is in bin 2); no forecast lies between the 10th and 20th.
/// let f = Forecast::from_pairs(&[(0.1, false), (0.5, true), (0.5, false), (0.5, true), (0.9, true)])?;
/// let counts: Vec<usize> = reliability_bins(&f, Binning::QUANTILE_10).iter().map(|b| b.count).collect();
/// assert_eq!(counts, [1, 0, 3, 0, 0, 0, 0, 0, 0, 1]);
/// assert!(reliability_bins(&[], Binning::UNIFORM_10).is_empty());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[must_use]
pub fn reliability_bins(forecasts: &[Forecast], binning: Binning) -> Vec<ReliabilityBin> {
    let Some(assignment) = assign(forecasts, binning) else {
        return Vec::new();
    };
    bin_sums(forecasts, &assignment)
        .iter()
        .zip(assignment.edges.windows(2))
        .map(|(s, edge)| ReliabilityBin {
            lower: edge[0],
            upper: edge[1],
            count: s.count,
            positives: s.positives,
            mean_forecast: s.mean_forecast(),
            observed_frequency: s.observed_frequency(),
            wilson: (s.count > 0).then(|| wilson_interval(s.positives, s.count, Z_95)),
        })
        .collect()
}

/// The expected calibration error of a reliability diagram:
/// `ECE = Σ_k (n_k/N) |ō_k − p̄_k|` over the non-empty bins, `N = Σ_k n_k`. `None` when
/// every bin is empty (no forecasts).
///
/// ```
/// use strikeline_quant::calibration::{Binning, Forecast, expected_calibration_error, reliability_bins};
/// let f = Forecast::from_pairs(&[(0.9, true), (0.9, false), (0.1, false)])?;
/// let ece = expected_calibration_error(&reliability_bins(&f, Binning::UNIFORM_10)).unwrap();
/// assert!((ece - (2.0 / 3.0 * 0.4 + 1.0 / 3.0 * 0.1)).abs() < 1e-15);
/// assert_eq!(expected_calibration_error(&[]), None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[must_use]
pub fn expected_calibration_error(bins: &[ReliabilityBin]) -> Option<f64> {
    let n: usize = bins.iter().map(|b| b.count).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let terms = bins.iter().filter_map(|b| Some(b.count as f64 / n * (b.observed_frequency? - b.mean_forecast?).abs()));
    Some(terms.sum())
}

/// The Murphy (1973) decomposition of the Brier score over a binning, with the two
/// within-bin terms of Stephenson, Coelho & Jolliffe (2008). Notation: `N` forecasts,
/// bin `k` holding `n_k` of them with mean forecast `p̄_k` and observed frequency `ō_k`,
/// base rate `ō`.
///
/// Writing `p_i − y_i = (p_i − p̄_k) + (p̄_k − ō_k) + (ō_k − y_i)` and summing squares,
/// the cross terms with `p̄_k − ō_k` vanish (`Σ_{i∈k} (p_i − p̄_k) = Σ_{i∈k} (y_i − ō_k) = 0`),
/// `Σ_{i∈k} (y_i − ō_k)² = n_k ō_k(1 − ō_k)` because `y` is 0 or 1, and by the law of total
/// variance `(1/N) Σ_k n_k ō_k(1 − ō_k) = uncertainty − resolution`. Hence, exactly:
///
/// `brier = reliability − resolution + uncertainty + within_bin_variance − 2·within_bin_covariance`
///
/// The classic three-term identity `brier = reliability − resolution + uncertainty` holds
/// only when the forecasts within each bin are equal (then both within-bin terms are 0).
///
/// ```
/// use strikeline_quant::calibration::{Binning, Forecast, murphy};
/// let f = Forecast::from_pairs(&[(0.05, false), (0.12, true), (0.45, false), (0.5, true), (0.93, true)])?;
/// let m = murphy(&f, Binning::UNIFORM_10).unwrap();
/// let sum = m.reliability - m.resolution + m.uncertainty + m.within_bin_variance - 2.0 * m.within_bin_covariance;
/// assert!((sum - m.brier).abs() < 1e-15);
/// assert_eq!(murphy(&[], Binning::UNIFORM_10), None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MurphyDecomposition {
    /// Number of forecasts `N`.
    pub n: usize,
    /// Brier score `(1/N) Σ_i (p_i − y_i)²`.
    pub brier: f64,
    /// Base rate `ō = (1/N) Σ_i y_i`.
    pub base_rate: f64,
    /// Reliability (lower is better): `(1/N) Σ_k n_k (p̄_k − ō_k)²`.
    pub reliability: f64,
    /// Resolution (higher is better): `(1/N) Σ_k n_k (ō_k − ō)²`.
    pub resolution: f64,
    /// Uncertainty of the outcomes: `ō(1 − ō)`.
    pub uncertainty: f64,
    /// Within-bin variance of the forecasts: `(1/N) Σ_k Σ_{i∈k} (p_i − p̄_k)²`.
    pub within_bin_variance: f64,
    /// Within-bin covariance of forecasts and outcomes:
    /// `(1/N) Σ_k Σ_{i∈k} (p_i − p̄_k)(y_i − ō_k)`. It enters the identity **twice**
    /// (Stephenson et al. call `2 ×` this the WBC term).
    pub within_bin_covariance: f64,
}

/// The [`MurphyDecomposition`] of the Brier score over `binning`'s bins (the same bins
/// as [`reliability_bins`]). `None` with no forecasts.
#[must_use]
pub fn murphy(forecasts: &[Forecast], binning: Binning) -> Option<MurphyDecomposition> {
    let assignment = assign(forecasts, binning)?;
    let sums = bin_sums(forecasts, &assignment);
    let count = forecasts.len();
    let n = count as f64;
    let o = base_rate(forecasts)?;
    let means: Vec<(f64, f64)> = sums.iter().map(|s| (s.mean_forecast().unwrap_or(0.0), s.observed_frequency().unwrap_or(0.0))).collect();
    let (mut reliability, mut resolution) = (0.0, 0.0);
    for (s, &(p_k, o_k)) in sums.iter().zip(&means) {
        let n_k = s.count as f64;
        reliability += n_k * (p_k - o_k) * (p_k - o_k);
        resolution += n_k * (o_k - o) * (o_k - o);
    }
    let (mut variance, mut covariance) = (0.0, 0.0);
    for (f, &k) in forecasts.iter().zip(&assignment.bin_of) {
        let (p_k, o_k) = means[k];
        let dp = f.probability - p_k;
        variance += dp * dp;
        covariance += dp * (f.y() - o_k);
    }
    Some(MurphyDecomposition {
        n: count,
        brier: brier(forecasts)?,
        base_rate: o,
        reliability: reliability / n,
        resolution: resolution / n,
        uncertainty: o * (1.0 - o),
        within_bin_variance: variance / n,
        within_bin_covariance: covariance / n,
    })
}

/// The Wilson score interval for a binomial proportion: with `p̂ = successes/n`,
///
/// `(p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)`,
///
/// computed as `(2s + z² ± z·√(z² + 4s(n − s)/n)) / (2(n + z²))` (exactly 0 when `s = 0`)
/// and clamped to `[0, 1]`. `z` is the normal quantile: [`Z_95`] for 95%.
///
/// `Ok(None)` when `n = 0`. Errors: `successes > n` ([`InputError::OutOfRange`] for
/// [`Field::Successes`]); `z` negative or not finite (for [`Field::Multiplier`]).
///
/// ```
/// use strikeline_quant::calibration::{Z_95, wilson};
/// let (lo, hi) = wilson(8, 10, 1.96)?.unwrap();
/// assert!((lo - 0.490_156_846_720_723_4).abs() < 1e-15 && (hi - 0.943_319_052_019_306_7).abs() < 1e-15);
/// assert_eq!(wilson(0, 0, Z_95)?, None);
/// assert!(wilson(11, 10, Z_95).is_err());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn wilson(successes: usize, n: usize, z: f64) -> Result<Option<(f64, f64)>, InputError> {
    let z = non_negative(Field::Multiplier, z)?;
    if successes > n {
        return Err(InputError::OutOfRange { field: Field::Successes, value: successes as f64, min: 0.0, max: n as f64 });
    }
    Ok((n > 0).then(|| wilson_interval(successes, n, z)))
}

/// [`wilson`] for `n > 0`, `successes ≤ n`, `z ≥ 0`.
fn wilson_interval(successes: usize, n: usize, z: f64) -> (f64, f64) {
    let (s, n) = (successes as f64, n as f64);
    let z2 = z * z;
    let root = z * (z2 + 4.0 * s * (n - s) / n).sqrt();
    let denominator = 2.0 * (n + z2);
    let centre = 2.0 * s + z2;
    (((centre - root) / denominator).clamp(0.0, 1.0), ((centre + root) / denominator).clamp(0.0, 1.0))
}

/// A forecast with the day it resolved on, as a day number (days since any fixed epoch,
/// e.g. days since 1970-01-01).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DatedForecast {
    /// Resolution day.
    pub day: i64,
    /// The forecast and its outcome.
    pub forecast: Forecast,
}

/// The Brier score over a trailing window ending on `day`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RollingBrier {
    /// The window's last day `d`; the window is the days `(d − window, d]`.
    pub day: i64,
    /// Number of forecasts resolved in the window (at least 1: those of `d` itself).
    pub n: usize,
    /// Their Brier score `(1/n) Σ (p_i − y_i)²`.
    pub brier: f64,
}

/// For each distinct resolution day `d`, in ascending order, the Brier score of the
/// forecasts resolved in `(d − window_days, d]` (a window of 1 is the day alone). The
/// input need not be sorted; an empty input gives an empty list. `window_days` must be at
/// least 1 ([`InputError::TooSmall`] for [`Field::Window`]). Each window's squares are
/// summed afresh (no running sum, so no drift), in order of day then input.
///
/// ```
/// use strikeline_quant::calibration::{DatedForecast, Forecast, RollingBrier, rolling_brier};
/// let at = |day, p, y| Ok::<_, strikeline_quant::InputError>(DatedForecast { day, forecast: Forecast::new(p, y)? });
/// let f = [at(3, 0.5, true)?, at(1, 0.9, true)?, at(1, 0.2, true)?];
/// let r = rolling_brier(&f, 2)?;
/// assert_eq!((r[0].day, r[0].n), (1, 2));
/// assert!((r[0].brier - (0.01 + 0.64) / 2.0).abs() < 1e-15);
/// assert_eq!(r[1], RollingBrier { day: 3, n: 1, brier: 0.25 }); // day 1 is outside (1, 3]
/// assert!(rolling_brier(&f, 0).is_err());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn rolling_brier(forecasts: &[DatedForecast], window_days: usize) -> Result<Vec<RollingBrier>, InputError> {
    let window = at_least(Field::Window, window_days, 1)? as i128;
    let mut sorted: Vec<(i64, f64)> = forecasts.iter().map(|f| (f.day, f.forecast.squared_error())).collect();
    sorted.sort_by_key(|&(day, _)| day);
    let mut out = Vec::new();
    let (mut start, mut end) = (0, 0);
    while end < sorted.len() {
        let day = sorted[end].0;
        while end < sorted.len() && sorted[end].0 == day {
            end += 1;
        }
        while i128::from(day) - i128::from(sorted[start].0) >= window {
            start += 1;
        }
        let in_window = &sorted[start..end];
        let brier = in_window.iter().map(|&(_, e)| e).sum::<f64>() / in_window.len() as f64;
        out.push(RollingBrier { day, n: in_window.len(), brier });
    }
    Ok(out)
}

fn mean(values: impl Iterator<Item = f64>, n: usize) -> Option<f64> {
    (n > 0).then(|| values.sum::<f64>() / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: &[(f64, bool)]) -> Vec<Forecast> {
        Forecast::from_pairs(p).expect("valid forecasts")
    }

    /// SplitMix64: a deterministic source of test data.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn uniform(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn random_forecasts(rng: &mut Rng, n: usize, ties: bool) -> Vec<Forecast> {
        (0..n)
            .map(|_| {
                let raw = rng.uniform();
                // With ties: forecasts on a 0.05 grid, so bins hold repeated values.
                let p = if ties { (raw * 20.0).round() / 20.0 } else { raw };
                let y = rng.uniform() < p * p; // miscalibrated: the truth is p².
                Forecast::new(p, y).expect("p in [0, 1]")
            })
            .collect()
    }

    #[test]
    fn brier_by_hand() {
        let f = pairs(&[(0.8, true), (0.3, false)]);
        // (0.8 − 1)² + (0.3 − 0)² over 2; 0.8 − 1 is not exactly −0.2 in binary.
        assert!((brier(&f).expect("non-empty") - (0.04 + 0.09) / 2.0).abs() < 1e-16);
        assert_eq!(brier(&pairs(&[(1.0, true), (0.0, false)])), Some(0.0));
        assert_eq!(brier(&pairs(&[(1.0, false)])), Some(1.0));
        assert_eq!(base_rate(&f), Some(0.5));
        let skill = brier_skill_score(&f).expect("both outcomes present");
        assert!((skill - (1.0 - 0.065 / 0.25)).abs() < 1e-15);
    }

    #[test]
    fn empty_input_gives_none_or_empty() {
        assert_eq!(brier(&[]), None);
        assert_eq!(base_rate(&[]), None);
        assert_eq!(brier_skill_score(&[]), None);
        assert!(reliability_bins(&[], Binning::UNIFORM_10).is_empty());
        assert!(reliability_bins(&[], Binning::QUANTILE_10).is_empty());
        assert_eq!(expected_calibration_error(&[]), None);
        assert_eq!(murphy(&[], Binning::QUANTILE_10), None);
        assert_eq!(rolling_brier(&[], 7), Ok(Vec::new()));
        assert_eq!(wilson(0, 0, Z_95), Ok(None));
    }

    #[test]
    fn skill_score_needs_both_outcomes() {
        assert_eq!(brier_skill_score(&pairs(&[(0.2, false), (0.4, false)])), None);
        assert_eq!(brier_skill_score(&pairs(&[(0.2, true), (0.4, true)])), None);
    }

    #[test]
    fn invalid_inputs_are_errors() {
        for p in [-0.1, 1.000_000_1, f64::INFINITY, f64::NEG_INFINITY] {
            let err = Forecast::new(p, true).expect_err("outside [0, 1]");
            assert_eq!(err.field(), Field::Probability);
        }
        assert!(matches!(Forecast::new(f64::NAN, false), Err(InputError::NotFinite { field: Field::Probability, .. })));
        assert!(matches!(Forecast::new(1.5, false), Err(InputError::OutOfRange { field: Field::Probability, min: 0.0, max: 1.0, .. })));
        assert!(Forecast::from_pairs(&[(0.5, true), (f64::NAN, true)]).is_err());
        assert_eq!(Forecast::new(-0.0, false).map(|f| f.probability().is_sign_positive()), Ok(true));
        assert_eq!(Binning::new(BinStrategy::Uniform, 0).map_err(|e| e.field()), Err(Field::Bins));
        assert_eq!(rolling_brier(&[], 0).map_err(|e| e.field()), Err(Field::Window));
        assert_eq!(wilson(3, 2, Z_95).map_err(|e| e.field()), Err(Field::Successes));
        assert_eq!(wilson(1, 2, -1.0).map_err(|e| e.field()), Err(Field::Multiplier));
        assert_eq!(wilson(1, 2, f64::NAN).map_err(|e| e.field()), Err(Field::Multiplier));
        assert_eq!(wilson(3, 2, Z_95).map_err(|e| e.to_string()), Err("successes must be between 0 and 2, got 3".to_owned()));
    }

    #[test]
    fn wilson_known_values() {
        // 8 of 10 at z = 1.96, in 50-digit decimal arithmetic: 0.4901568467207233912512… and
        // 0.9433190520193066630777…, here rounded to the nearest double.
        let (lo, hi) = wilson(8, 10, 1.96).expect("valid").expect("n > 0");
        assert!((lo - 0.490_156_846_720_723_4).abs() < 1e-15, "{lo}");
        assert!((hi - 0.943_319_052_019_306_7).abs() < 1e-15, "{hi}");
        // The textbook form agrees.
        let (k, n, z) = (37.0, 250.0, Z_95);
        let phat: f64 = k / n;
        let centre = (phat + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (phat * (1.0 - phat) / n + z * z / (4.0 * n * n)).sqrt();
        let (lo, hi) = wilson(37, 250, Z_95).expect("valid").expect("n > 0");
        assert!((lo - (centre - half)).abs() < 1e-15 && (hi - (centre + half)).abs() < 1e-15);
        // Ends: 0 successes starts at 0, all successes ends at 1; z = 0 is the point p̂.
        assert_eq!(wilson(0, 10, Z_95).expect("valid").map(|(lo, _)| lo), Some(0.0));
        assert_eq!(wilson(10, 10, Z_95).expect("valid").map(|(_, hi)| hi), Some(1.0));
        assert_eq!(wilson(3, 4, 0.0), Ok(Some((0.75, 0.75))));
    }

    #[test]
    fn uniform_bins_put_edge_forecasts_below() {
        // sklearn: searchsorted(edges[1:-1], p, side="left"), edges = linspace(0, 1, 11).
        let f = pairs(&[(0.0, false), (0.1, false), (0.3, true), (0.5, true), (0.7, true), (1.0, true)]);
        let bins = reliability_bins(&f, Binning::UNIFORM_10);
        assert_eq!(bins.len(), 10);
        let counts: Vec<usize> = bins.iter().map(|b| b.count).collect();
        assert_eq!(counts, [2, 0, 1, 0, 1, 0, 1, 0, 0, 1]);
        assert_eq!(bins[2].upper, 0.300_000_000_000_000_04);
        assert_eq!(bins[6].upper, 0.700_000_000_000_000_1);
        assert_eq!((bins[0].lower, bins[9].upper), (0.0, 1.0));
        assert_eq!(bins[0].mean_forecast, Some(0.05));
        assert_eq!(bins[0].observed_frequency, Some(0.0));
        assert_eq!(bins[1].wilson, None);
    }

    #[test]
    fn quantile_edges_follow_numpy_percentile() {
        // numpy.percentile([0.1, 0.2, 0.4, 0.8], [0, 25, 50, 75, 100]) = [0.1, 0.175, 0.3, 0.5, 0.8]
        let f = pairs(&[(0.8, true), (0.1, false), (0.4, true), (0.2, false)]);
        let bins = reliability_bins(&f, Binning::new(BinStrategy::Quantile, 4).expect("4 bins"));
        let edges: Vec<f64> = bins.iter().map(|b| b.lower).chain([bins[3].upper]).collect();
        let expected = [0.1, 0.175, 0.3, 0.5, 0.8];
        for (e, x) in edges.iter().zip(expected) {
            assert!((e - x).abs() < 1e-15, "{edges:?}");
        }
        assert_eq!(bins.iter().map(|b| b.count).collect::<Vec<_>>(), [1, 1, 1, 1]);
        // One forecast: every edge is that forecast, which lands in the first bin.
        let one = reliability_bins(&pairs(&[(0.4, true)]), Binning::QUANTILE_10);
        assert!(one.iter().all(|b| b.lower == 0.4 && b.upper == 0.4));
        assert_eq!(one.iter().map(|b| b.count).sum::<usize>(), 1);
        assert_eq!(one[0].count, 1);
    }

    #[test]
    fn ece_by_hand() {
        let f = pairs(&[(0.15, true), (0.15, false), (0.85, true), (0.95, true)]);
        let bins = reliability_bins(&f, Binning::UNIFORM_10);
        let ece = expected_calibration_error(&bins).expect("non-empty");
        // (0.1, 0.2]: p̄ 0.15, ō 0.5; (0.8, 0.9]: 0.85 vs 1; (0.9, 1]: 0.95 vs 1.
        let expected = 0.5 * 0.35 + 0.25 * 0.15 + 0.25 * 0.05;
        assert!((ece - expected).abs() < 1e-15, "{ece}");
    }

    #[test]
    fn murphy_identity_on_random_data() {
        let mut rng = Rng(0x5EED);
        for case in 0..60 {
            let n = 1 + (rng.next() % 2000) as usize;
            let forecasts = random_forecasts(&mut rng, n, case % 3 == 0);
            for strategy in [BinStrategy::Uniform, BinStrategy::Quantile] {
                let bins = 1 + (rng.next() % 20) as usize;
                let m = murphy(&forecasts, Binning::new(strategy, bins).expect("≥ 1 bin")).expect("non-empty");
                let sum = m.reliability - m.resolution + m.uncertainty + m.within_bin_variance - 2.0 * m.within_bin_covariance;
                assert!((sum - m.brier).abs() < 1e-12, "case {case}: {sum} vs {}", m.brier);
                assert_eq!(m.brier, brier(&forecasts).expect("non-empty"));
                assert!(m.reliability >= 0.0 && m.resolution >= 0.0 && m.within_bin_variance >= 0.0);
            }
        }
    }

    #[test]
    fn murphy_three_terms_exact_when_bins_hold_equal_forecasts() {
        let f = pairs(&[(0.25, true), (0.25, false), (0.25, false), (0.75, true), (0.75, true), (0.75, false)]);
        let m = murphy(&f, Binning::UNIFORM_10).expect("non-empty");
        assert_eq!((m.within_bin_variance, m.within_bin_covariance), (0.0, 0.0));
        assert!((m.reliability - m.resolution + m.uncertainty - m.brier).abs() < 1e-15);
        // ō = 1/2; bins: (0.25, 1/3) and (0.75, 2/3).
        assert!((m.reliability - (1.0f64 / 12.0).powi(2)).abs() < 1e-16);
        assert!((m.resolution - (1.0f64 / 6.0).powi(2)).abs() < 1e-16);
        assert_eq!(m.uncertainty, 0.25);
    }

    #[test]
    fn murphy_matches_reliability_bins() {
        let mut rng = Rng(42);
        let f = random_forecasts(&mut rng, 500, false);
        let bins = reliability_bins(&f, Binning::QUANTILE_10);
        let m = murphy(&f, Binning::QUANTILE_10).expect("non-empty");
        let n = f.len() as f64;
        let reliability: f64 =
            bins.iter().filter_map(|b| Some(b.count as f64 * (b.mean_forecast? - b.observed_frequency?).powi(2))).sum::<f64>() / n;
        assert!((reliability - m.reliability).abs() < 1e-15);
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), f.len());
    }

    #[test]
    fn rolling_brier_against_direct_windows() {
        let mut rng = Rng(7);
        let dated: Vec<DatedForecast> = random_forecasts(&mut rng, 400, true)
            .into_iter()
            .map(|forecast| DatedForecast { day: (rng.next() % 60) as i64 - 30, forecast })
            .collect();
        for window in [1usize, 3, 7, 30, 1000] {
            let rolled = rolling_brier(&dated, window).expect("window ≥ 1");
            let mut days: Vec<i64> = dated.iter().map(|d| d.day).collect();
            days.sort_unstable();
            days.dedup();
            assert_eq!(rolled.iter().map(|r| r.day).collect::<Vec<_>>(), days);
            for r in &rolled {
                let inside: Vec<Forecast> =
                    dated.iter().filter(|d| d.day > r.day - window as i64 && d.day <= r.day).map(|d| d.forecast).collect();
                assert_eq!(r.n, inside.len());
                let direct = brier(&inside).expect("the day's own forecasts");
                assert!((r.brier - direct).abs() < 1e-15, "window {window} day {}", r.day);
            }
        }
        // Extreme days and windows do not overflow: (MAX − (2⁶⁴ − 1), MAX] = (MIN, MAX].
        let f = Forecast::new(0.5, true).expect("valid");
        let far = [DatedForecast { day: i64::MIN + 1, forecast: f }, DatedForecast { day: i64::MAX, forecast: f }];
        let r = rolling_brier(&far, usize::MAX).expect("window ≥ 1");
        assert_eq!(r.iter().map(|r| r.n).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(rolling_brier(&far, 1).expect("window ≥ 1").iter().map(|r| r.n).collect::<Vec<_>>(), [1, 1]);
    }
}
