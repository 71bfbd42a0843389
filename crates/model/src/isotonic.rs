//! Isotonic calibration: the non-decreasing map from a score to a probability that fits the
//! outcomes best in squared error (pool adjacent violators), predicting by linear
//! interpolation between the fitted points and clipping outside them, as scikit-learn's
//! `IsotonicRegression(out_of_bounds="clip")` does.

use serde::{Deserialize, Serialize};

/// A fitted isotonic map: increasing `x`, non-decreasing `y`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Isotonic {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

impl Isotonic {
    /// Fits `(score, outcome)` pairs; `None` without a finite pair.
    ///
    /// ```
    /// use strikeline_model::Isotonic;
    /// // A violation (0.2 won, 0.3 lost) is pooled into one level of 0.5.
    /// let f = Isotonic::fit(&[(0.1, false), (0.2, true), (0.3, false), (0.4, true)]).unwrap();
    /// assert_eq!(f.y, [0.0, 0.5, 0.5, 1.0]);
    /// assert_eq!(f.predict(0.25), 0.5);
    /// assert!((f.predict(0.35) - 0.75).abs() < 1e-12); // halfway between 0.3 (0.5) and 0.4 (1.0)
    /// assert_eq!((f.predict(-1.0), f.predict(2.0)), (0.0, 1.0)); // clipped
    /// ```
    #[must_use]
    pub fn fit(pairs: &[(f64, bool)]) -> Option<Isotonic> {
        let mut sorted: Vec<(f64, f64)> =
            pairs.iter().filter(|(s, _)| s.is_finite()).map(|&(s, y)| (s, if y { 1.0 } else { 0.0 })).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Equal scores become one point, weighted by how many.
        let mut points: Vec<(f64, f64, f64)> = Vec::new(); // (x, mean y, weight)
        for (x, y) in sorted {
            match points.last_mut() {
                Some(last) if last.0 == x => {
                    last.1 = (last.1 * last.2 + y) / (last.2 + 1.0);
                    last.2 += 1.0;
                }
                _ => points.push((x, y, 1.0)),
            }
        }
        if points.is_empty() {
            return None;
        }
        // Pool adjacent violators over blocks (value, weight, how many points).
        let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(points.len());
        for &(_, y, w) in &points {
            blocks.push((y, w, 1));
            while blocks.len() > 1 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
                let (v2, w2, n2) = blocks.pop().unwrap_or_default();
                if let Some(last) = blocks.last_mut() {
                    let w = last.1 + w2;
                    *last = ((last.0 * last.1 + v2 * w2) / w, w, last.2 + n2);
                }
            }
        }
        let y: Vec<f64> = blocks.iter().flat_map(|&(v, _, n)| std::iter::repeat_n(v, n)).collect();
        Some(Isotonic { x: points.iter().map(|p| p.0).collect(), y })
    }

    /// The calibrated probability of `score`.
    #[must_use]
    pub fn predict(&self, score: f64) -> f64 {
        let (Some(&first), Some(&last)) = (self.x.first(), self.x.last()) else { return 0.5 };
        if score.is_nan() {
            return self.y[0];
        }
        if score <= first {
            return self.y[0];
        }
        if score >= last {
            return self.y[self.y.len() - 1];
        }
        let i = self.x.partition_point(|&x| x <= score);
        let (x0, x1, y0, y1) = (self.x[i - 1], self.x[i], self.y[i - 1], self.y[i]);
        y0 + (y1 - y0) * (score - x0) / (x1 - x0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_is_monotone_and_minimises_squared_error_against_brute_force() {
        // Every monotone fit of 6 points with levels on a grid of 1/12 is no better.
        let pairs = [(0.9, false), (0.1, true), (0.5, true), (0.3, false), (0.7, true), (0.2, false)];
        let f = Isotonic::fit(&pairs).expect("fit");
        assert!(f.y.windows(2).all(|w| w[0] <= w[1]));
        let mut sorted = pairs.to_vec();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let sse = |levels: &[f64]| sorted.iter().zip(levels).map(|((_, y), l)| (l - f64::from(u8::from(*y))).powi(2)).sum::<f64>();
        let fitted = sse(&f.y);
        let grid: Vec<f64> = (0..=12).map(|k| f64::from(k) / 12.0).collect();
        let mut best = f64::INFINITY;
        let mut levels = vec![0.0; 6];
        fn search(i: usize, min: usize, grid: &[f64], levels: &mut Vec<f64>, best: &mut f64, sse: &dyn Fn(&[f64]) -> f64) {
            if i == levels.len() {
                *best = best.min(sse(levels));
                return;
            }
            for k in min..grid.len() {
                levels[i] = grid[k];
                search(i + 1, k, grid, levels, best, sse);
            }
        }
        search(0, 0, &grid, &mut levels, &mut best, &sse);
        assert!(fitted <= best + 1e-12, "PAV {fitted} vs grid {best}");
    }

    #[test]
    fn ties_are_pooled_and_nothing_finite_is_no_fit() {
        let f = Isotonic::fit(&[(0.5, true), (0.5, false), (0.5, true)]).expect("fit");
        assert_eq!(f.x, [0.5]);
        assert!((f.predict(0.1) - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(Isotonic::fit(&[(f64::NAN, true)]), None);
    }
}
