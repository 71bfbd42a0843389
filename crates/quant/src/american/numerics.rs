//! Gauss–Legendre quadrature and Chebyshev interpolation for the exercise-boundary engine.

/// Nodes and weights of the `n`-point Gauss–Legendre rule on `[−1, 1]` (Newton's method on
/// the Legendre polynomial from the classical first guess, to the last bit).
pub(crate) fn gauss_legendre(n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut nodes = vec![0.0; n];
    let mut weights = vec![0.0; n];
    for i in 0..n.div_ceil(2) {
        let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
        let mut derivative = 1.0;
        for _ in 0..100 {
            // P_n(x) and P_n'(x) by the three-term recurrence.
            let (mut p0, mut p1) = (1.0, x);
            for k in 2..=n {
                let k = k as f64;
                (p0, p1) = (p1, ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k);
            }
            let p = if n == 0 { 1.0 } else { p1 };
            let previous = if n == 1 { 1.0 } else { p0 };
            derivative = n as f64 * (x * p - previous) / (x * x - 1.0);
            let step = p / derivative;
            x -= step;
            if step.abs() <= 1e-16 {
                break;
            }
        }
        let w = 2.0 / ((1.0 - x * x) * derivative * derivative);
        nodes[i] = -x;
        nodes[n - 1 - i] = x;
        weights[i] = w;
        weights[n - 1 - i] = w;
    }
    (nodes, weights)
}

/// A Chebyshev interpolant on `[−1, 1]` through values at the `n + 1` extrema
/// `z_k = cos(kπ/n)`.
#[derive(Debug, Clone)]
pub(crate) struct Chebyshev {
    coefficients: Vec<f64>,
}

impl Chebyshev {
    /// The extrema `cos(kπ/n)`, `k = 0..=n` (from 1 down to −1).
    pub(crate) fn nodes(n: usize) -> Vec<f64> {
        (0..=n).map(|k| (std::f64::consts::PI * k as f64 / n as f64).cos()).collect()
    }

    /// The interpolant through `values[k]` at `nodes(n)[k]`.
    #[cfg(test)]
    pub(crate) fn fit(values: &[f64]) -> Chebyshev {
        Chebyshev::fit_with(&Chebyshev::fitting_matrix(values.len() - 1), values)
    }

    /// The matrix that turns values at the `n + 1` extrema into coefficients (computed once
    /// per `n`; a fit is then a matrix-vector product).
    pub(crate) fn fitting_matrix(n: usize) -> Vec<Vec<f64>> {
        (0..=n)
            .map(|j| {
                let outer = if j == 0 || j == n { 0.5 } else { 1.0 } * 2.0 / n as f64;
                (0..=n)
                    .map(|k| {
                        let inner = if k == 0 || k == n { 0.5 } else { 1.0 };
                        outer * inner * (std::f64::consts::PI * (j * k) as f64 / n as f64).cos()
                    })
                    .collect()
            })
            .collect()
    }

    /// The interpolant through `values` with a [`Chebyshev::fitting_matrix`] of their size.
    pub(crate) fn fit_with(matrix: &[Vec<f64>], values: &[f64]) -> Chebyshev {
        Chebyshev { coefficients: matrix.iter().map(|row| row.iter().zip(values).map(|(m, v)| m * v).sum()).collect() }
    }

    /// The value at `z` (Clenshaw's recurrence).
    pub(crate) fn at(&self, z: f64) -> f64 {
        let (mut b1, mut b2) = (0.0, 0.0);
        for &c in self.coefficients.iter().skip(1).rev() {
            (b1, b2) = (2.0 * z * b1 - b2 + c, b1);
        }
        z * b1 - b2 + self.coefficients[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials_exactly() {
        for n in [1, 2, 5, 8, 16, 31] {
            let (x, w) = gauss_legendre(n);
            assert!((w.iter().sum::<f64>() - 2.0).abs() < 1e-14, "{n}");
            // x^(2n−2) integrates to 2/(2n−1) exactly.
            let degree = 2 * n as i32 - 2;
            let integral: f64 = x.iter().zip(&w).map(|(x, w)| w * x.powi(degree)).sum();
            assert!((integral - 2.0 / f64::from(degree + 1)).abs() < 1e-13, "{n}: {integral}");
        }
    }

    #[test]
    fn chebyshev_reproduces_a_smooth_function() {
        let n = 16;
        let values: Vec<f64> = Chebyshev::nodes(n).iter().map(|z| (1.5 * z).exp()).collect();
        let c = Chebyshev::fit(&values);
        for i in 0..=40 {
            let z = -1.0 + f64::from(i) / 20.0;
            assert!((c.at(z) - (1.5 * z).exp()).abs() < 1e-13, "{z}");
        }
    }
}
