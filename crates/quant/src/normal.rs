//! The standard normal distribution: density, cumulative distribution and the
//! complementary error function, to double precision.
//!
//! The cumulative distribution is `Φ(x) = ½·erfc(−x/√2)`, and `erfc` is W. J. Cody's
//! rational Chebyshev approximation ("Rational Chebyshev approximations for the error
//! function", *Mathematics of Computation* 23 (1969), 631–637; the SPECFUN `CALERF`
//! routine). Its relative error is below about 1e-16 in each of its three intervals
//! (`|x| ≤ 0.46875`, `≤ 4`, `> 4`), so `Φ` is accurate to about 1e-15 absolute over the
//! whole line (and relative in the lower tail, to about `x²·1e-16`), unlike the
//! 1e-7 Abramowitz–Stegun formula often seen in option calculators.
//!
//! ```
//! use strikeline_quant::normal::{cdf, erfc, pdf};
//! assert!((cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-15);
//! assert!((2.0 * cdf(-1.0) - erfc(std::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-16);
//! assert!(pdf(0.0) > pdf(1.0));
//! ```

// Cody's coefficients are kept at their published precision (more digits than f64 holds).
#![expect(clippy::excessive_precision, reason = "coefficients as published by Cody (1969)")]

/// `1/√(2π)`, the peak of the standard normal density.
///
/// ```
/// use strikeline_quant::normal::FRAC_1_SQRT_2PI;
/// // The density integrates to 1 because its peak times √(2π) is 1.
/// assert!((FRAC_1_SQRT_2PI * (2.0 * std::f64::consts::PI).sqrt() - 1.0).abs() < 1e-15);
/// ```
pub const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_677_939_946_059_934_4;

pub(crate) const FRAC_1_SQRT_PI: f64 = 5.641_895_835_477_562_869_5e-1;

// erf on |x| ≤ 0.46875
pub(crate) const A: [f64; 5] =
    [3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02, 3.20937758913846947e03, 1.85777706184603153e-1];
pub(crate) const B: [f64; 4] = [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03];
// erfc on 0.46875 < |x| ≤ 4
pub(crate) const C: [f64; 9] = [
    5.64188496988670089e-1,
    8.88314979438837594e00,
    6.61191906371416295e01,
    2.98635138197400131e02,
    8.81952221241769090e02,
    1.71204761263407058e03,
    2.05107837782607147e03,
    1.23033935479799725e03,
    2.15311535474403846e-8,
];
pub(crate) const D: [f64; 8] = [
    1.57449261107098347e01,
    1.17693950891312499e02,
    5.37181101862009858e02,
    1.62138957456669019e03,
    3.29079923573345963e03,
    4.36261909014324716e03,
    3.43936767414372164e03,
    1.23033935480374942e03,
];
// erfc on |x| > 4 (asymptotic form)
pub(crate) const P: [f64; 6] = [
    3.05326634961232344e-1,
    3.60344899949804439e-1,
    1.25781726111229246e-1,
    1.60837851487422766e-2,
    6.58749161529837803e-4,
    1.63153871373020978e-2,
];
pub(crate) const Q: [f64; 5] =
    [2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1, 6.05183413124413191e-2, 2.33520497626869185e-3];

/// Beyond this `erfc(x)` underflows to zero.
pub(crate) const ERFC_UNDERFLOW: f64 = 26.543;

/// `erf(x)·/x` core for `|x| ≤ 0.46875`: returns `erf(x)`.
#[inline]
fn erf_small(x: f64) -> f64 {
    let z = x * x;
    let num = (((A[4] * z + A[0]) * z + A[1]) * z + A[2]) * z + A[3];
    let den = (((z + B[0]) * z + B[1]) * z + B[2]) * z + B[3];
    x * num / den
}

/// `exp(−y²)`, with `y²` split so that the rounding of the square does not leak into
/// the exponent (Cody's device): `y² = ŷ² + (y − ŷ)(y + ŷ)` with `ŷ = ⌊16y⌋/16`.
#[inline]
fn exp_minus_square(y: f64) -> f64 {
    let ysq = (16.0 * y).trunc() / 16.0;
    let del = (y - ysq) * (y + ysq);
    (-ysq * ysq - del).exp()
}

/// `erfc(y)·e^{y²}` for `y > 0.46875` (Cody's rational part; 0 where erfc underflows).
#[inline]
fn erfc_scaled_large(y: f64) -> f64 {
    if y <= 4.0 {
        let num = (((((((C[8] * y + C[0]) * y + C[1]) * y + C[2]) * y + C[3]) * y + C[4]) * y + C[5]) * y + C[6]) * y + C[7];
        let den = (((((((y + D[0]) * y + D[1]) * y + D[2]) * y + D[3]) * y + D[4]) * y + D[5]) * y + D[6]) * y + D[7];
        num / den
    } else if y < ERFC_UNDERFLOW {
        let z = 1.0 / (y * y);
        let num = ((((P[5] * z + P[0]) * z + P[1]) * z + P[2]) * z + P[3]) * z + P[4];
        let den = ((((z + Q[0]) * z + Q[1]) * z + Q[2]) * z + Q[3]) * z + Q[4];
        (FRAC_1_SQRT_PI - z * num / den) / y
    } else {
        0.0
    }
}

/// `erfc(y)` for `y > 0.46875`.
#[inline]
fn erfc_large(y: f64) -> f64 {
    let r = erfc_scaled_large(y);
    if r == 0.0 { 0.0 } else { exp_minus_square(y) * r }
}

/// The complementary error function `erfc(x) = (2/√π)·∫ₓ^∞ e^{−t²} dt`, by Cody's
/// rational Chebyshev approximation (relative error ≲ 1e-16 for `x ≥ 0`; for `x < 0`
/// it is computed as `2 − erfc(−x)`).
///
/// ```
/// use strikeline_quant::normal::erfc;
/// assert!((erfc(0.5) - 0.479_500_122_186_953_5).abs() < 1e-16);
/// assert!((erfc(5.0) / 1.537_459_794_428_034_8e-12 - 1.0).abs() < 1e-14);
/// assert_eq!(erfc(0.0), 1.0);
/// ```
#[must_use]
#[inline]
pub fn erfc(x: f64) -> f64 {
    let y = x.abs();
    if y <= 0.46875 {
        return 1.0 - erf_small(x);
    }
    let r = erfc_large(y);
    if x < 0.0 { 2.0 - r } else { r }
}

/// The standard normal density `φ(x) = e^{−x²/2}/√(2π)`.
///
/// ```
/// use strikeline_quant::normal::pdf;
/// assert!((pdf(0.0) - 0.398_942_280_401_432_7).abs() < 1e-16);
/// assert!((pdf(1.0) - 0.241_970_724_519_143_37).abs() < 1e-16);
/// ```
#[must_use]
#[inline]
pub fn pdf(x: f64) -> f64 {
    FRAC_1_SQRT_2PI * (-0.5 * x * x).exp()
}

/// The standard normal cumulative distribution `Φ(x) = P(Z ≤ x) = ½·erfc(−x/√2)`,
/// accurate to about 1e-15 (absolute everywhere, and relative in the lower tail).
///
/// ```
/// use strikeline_quant::normal::cdf;
/// assert_eq!(cdf(0.0), 0.5);
/// assert!((cdf(1.0) - 0.841_344_746_068_542_9).abs() < 1e-15);
/// // The lower tail keeps its relative accuracy:
/// assert!((cdf(-10.0) / 7.619_853_024_160_527e-24 - 1.0).abs() < 1e-13);
/// ```
#[must_use]
#[inline]
pub fn cdf(x: f64) -> f64 {
    0.5 * erfc(-x * std::f64::consts::FRAC_1_SQRT_2)
}

/// `(Φ(x), Φ(−x))` from one evaluation, each accurate in its own tail (the smaller of
/// the two is never computed as `1 − larger`). Pricing uses this for `N(d)` and `N(−d)`.
///
/// ```
/// use strikeline_quant::normal::{cdf, cdf_and_complement};
/// let (p, q) = cdf_and_complement(-9.0);
/// assert_eq!(p, cdf(-9.0));
/// assert_eq!(q, cdf(9.0));
/// assert!(p > 0.0 && p < 1e-18);
/// ```
#[must_use]
#[inline]
pub fn cdf_and_complement(x: f64) -> (f64, f64) {
    let y = -x * std::f64::consts::FRAC_1_SQRT_2;
    let ay = y.abs();
    if ay <= 0.46875 {
        let e = erf_small(y);
        (0.5 * (1.0 - e), 0.5 * (1.0 + e))
    } else {
        let half = 0.5 * erfc_large(ay);
        if y < 0.0 { (1.0 - half, half) } else { (half, 1.0 - half) }
    }
}

/// [`cdf_and_complement`] given `gaussian = e^{−x²/2}` already computed (the pricing and
/// implied-volatility kernels need that exponential anyway, for the density, and derive
/// the one for `d2` from the one for `d1`): saves an exponential per call. Accuracy is
/// that of the exponential passed in (a few ulps relative), i.e. ~1e-15 absolute.
#[inline]
pub(crate) fn cdf_and_complement_with_gaussian(x: f64, gaussian: f64) -> (f64, f64) {
    let y = -x * std::f64::consts::FRAC_1_SQRT_2;
    let ay = y.abs();
    if ay <= 0.46875 {
        let e = erf_small(y);
        (0.5 * (1.0 - e), 0.5 * (1.0 + e))
    } else {
        let half = 0.5 * gaussian * erfc_scaled_large(ay);
        if y < 0.0 { (1.0 - half, half) } else { (half, 1.0 - half) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values of erfc from Python's `math.erfc` (glibc, correctly rounded to
    /// within one ulp), printed with `repr`.
    const ERFC_REFERENCE: [(f64, f64); 12] = [
        (-3.0, 1.9999779095030015),
        (-1.0, 1.842700792949715),
        (-0.25, 1.276326390168237),
        (0.1, 0.8875370839817152),
        (0.46875, 0.507386526782062),
        (0.5, 0.4795001221869535),
        (1.0, 0.15729920705028513),
        (2.0, 0.004677734981047265),
        (3.9, 3.479224859723177e-08),
        (4.5, 1.9661604415428873e-10),
        (10.0, 2.088487583762545e-45),
        (26.0, 5.663192408856143e-296),
    ];

    #[test]
    fn erfc_matches_reference_values_to_a_few_ulps() {
        for (x, expected) in ERFC_REFERENCE {
            let got = erfc(x);
            assert!(((got - expected) / expected).abs() < 4e-16, "erfc({x}) = {got}, expected {expected}");
        }
    }

    #[test]
    fn cdf_is_symmetric_and_monotone() {
        let mut previous = 0.0;
        for i in -4000..=4000 {
            let x = f64::from(i) / 100.0;
            let p = cdf(x);
            assert!(p >= previous, "Φ not monotone at {x}");
            assert!((p + cdf(-x) - 1.0).abs() < 2e-16);
            previous = p;
        }
    }

    #[test]
    fn cdf_and_complement_agree_with_cdf() {
        for i in -3000..=3000 {
            let x = f64::from(i) / 80.0;
            let (p, q) = cdf_and_complement(x);
            assert_eq!(p, cdf(x), "Φ({x})");
            assert_eq!(q, cdf(-x), "Φ(−{x})");
        }
    }

    #[test]
    fn cdf_with_a_precomputed_gaussian_agrees_with_cdf() {
        for i in -3000..=3000 {
            let x = f64::from(i) / 80.0;
            let (p, q) = cdf_and_complement_with_gaussian(x, (-0.5 * x * x).exp());
            let (ep, eq) = cdf_and_complement(x);
            assert!((p - ep).abs() <= 1e-16 + 1e-14 * ep, "Φ({x}): {p} vs {ep}");
            assert!((q - eq).abs() <= 1e-16 + 1e-14 * eq, "Φ(−{x}): {q} vs {eq}");
        }
    }

    #[test]
    fn cdf_tail_values() {
        // Φ(−x) for integer x (Abramowitz & Stegun table 26.1 / 26.2, to the digits shown).
        let table = [
            (1.0, 0.158_655_253_931_457_05),
            (2.0, 0.022_750_131_948_179_2),
            (3.0, 0.001_349_898_031_630_095),
            (5.0, 2.866_515_718_791_939e-7),
            (8.0, 6.220_960_574_271_785e-16),
        ];
        for (x, expected) in table {
            let got = cdf(-x);
            assert!(((got - expected) / expected).abs() < 1e-14, "Φ(−{x}) = {got}");
        }
        assert_eq!(cdf(-40.0), 0.0);
        assert_eq!(cdf(40.0), 1.0);
    }
}
