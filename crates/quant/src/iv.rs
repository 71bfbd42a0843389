//! Implied volatility: the `σ` at which the Black–Scholes–Merton price of
//! [`crate::pricing`] equals a given price.
//!
//! ## Method
//! The problem is first normalised (as in Jäckel, "Let's Be Rational", 2015): with the
//! forward `F = S·e^{(r−q)T}`, discount factor `D = e^{−rT}`, log-moneyness
//! `x = ln(F/K)` and total volatility `s = σ√T`, a call is worth
//! `D·√(FK)·b(x, s)` where
//!
//! ```text
//! b(x, s) = e^{x/2}·N(x/s + s/2) − e^{−x/2}·N(x/s − s/2)
//! ```
//!
//! A put is `b(−x, s)` and an in-the-money option is its out-of-the-money twin plus
//! intrinsic value (put–call parity), so every case reduces to an out-of-the-money call
//! (`x ≤ 0`) with a target `0 < β < e^{x/2}`. A straddle is two out-of-the-money
//! calls plus `|e^{x/2} − e^{−x/2}|`, so straddles are solved exactly the same way.
//!
//! `b` is increasing in `s`, convex below the inflection point `s_c = √(2|x|)` and
//! concave above it, with `∂b/∂s = e^{−x²/(2s²) − s²/8}/√(2π)`. The solver runs
//! Halley's method on an objective chosen for each side so that it is close to linear:
//! `ln b(s) − ln β` below `s_c` (where `b` vanishes like `e^{−x²/(2s²)}`, deep
//! out-of-the-money and short expiries), and `ln(e^{x/2} − β) − ln(e^{x/2} − b(s))`
//! above it (where `b` approaches its upper bound, deep in-the-money or very high
//! volatility). The starting point comes from the asymptotic form of `b` on each
//! side, or from the tangent at `s_c` near the inflection point. Every step is kept
//! inside a bracket that is known to contain the root, falling back to bisection, so the
//! iteration always converges. Each evaluation of `b`, `∂b/∂s` and the two normal
//! probabilities costs one exponential. It stops once a Halley step is below 1e-5
//! relative: Halley converges cubically, so the error left after that step is of order
//! (1e-5)³, below rounding; typically after 1–3 steps (2–4 evaluations counting the one at
//! the inflection point). `σ` is recovered to about 1e-13 relative wherever vega is not
//! negligible.
//!
//! ## Bounds
//! A call is worth between `D·max(F−K, 0)` and `D·F = S·e^{−qT}`; a put between
//! `D·max(K−F, 0)` and `D·K`; a straddle between `D·|F−K|` and `D·(F+K)`. A price at or
//! outside these bounds has no implied volatility and is reported as
//! [`IvError::BelowLowerBound`] or [`IvError::AboveUpperBound`].

use std::fmt;

use crate::error::{Field, InputError, finite, price_level, rate as valid_rate, years};
use crate::normal::{FRAC_1_SQRT_2PI, cdf_and_complement_with_gaussian};
use crate::pricing::OptionType;

pub mod batch;

/// The market inputs of an implied-volatility calculation: everything the pricer needs
/// except the volatility, plus the observed option price (per unit of the underlying).
///
/// ```
/// use strikeline_quant::{IvInputs, OptionType, implied_volatility};
/// // Hull's example 15.6 call, priced at 4.7594 with σ = 20%.
/// let iv = implied_volatility(OptionType::Call, IvInputs { price: 4.759422392871532, spot: 42.0, strike: 40.0, rate: 0.10, dividend_yield: 0.0, time_to_expiry: 0.5 })?;
/// assert!((iv - 0.20).abs() < 1e-12);
/// # Ok::<(), strikeline_quant::IvError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IvInputs {
    /// Observed price of the option (for a straddle, of the call plus the put).
    pub price: f64,
    /// Price of the underlying, `S > 0`.
    pub spot: f64,
    /// Strike, `K > 0`.
    pub strike: f64,
    /// Continuously compounded risk-free rate `r`.
    pub rate: f64,
    /// Continuous dividend yield `q`.
    pub dividend_yield: f64,
    /// Time to expiry in years, `T > 0`.
    pub time_to_expiry: f64,
}

/// Why no implied volatility could be found.
///
/// ```
/// use strikeline_quant::{IvError, IvInputs, OptionType, implied_volatility};
/// // A call can never be worth more than the underlying.
/// let err = implied_volatility(OptionType::Call, IvInputs { price: 101.0, spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, time_to_expiry: 1.0 }).unwrap_err();
/// assert!(matches!(err, IvError::AboveUpperBound { .. }));
/// assert_eq!(err.to_string(), "price 101 is at or above the no-arbitrage upper bound 100 for this call: no volatility produces it");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum IvError {
    /// An input was not a valid number (see [`InputError`]).
    Input(InputError),
    /// At expiry (`T = 0`) the price is intrinsic value whatever the volatility.
    Expired,
    /// The price is at or below the lower no-arbitrage bound (the discounted intrinsic
    /// value against the forward): no positive volatility produces it.
    BelowLowerBound {
        /// The option type.
        kind: OptionType,
        /// The price given.
        price: f64,
        /// The bound.
        bound: f64,
    },
    /// The price is at or above the upper no-arbitrage bound (`S·e^{−qT}` for a call,
    /// `K·e^{−rT}` for a put, their sum for a straddle).
    AboveUpperBound {
        /// The option type.
        kind: OptionType,
        /// The price given.
        price: f64,
        /// The bound.
        bound: f64,
    },
}

impl fmt::Display for IvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IvError::Input(e) => e.fmt(f),
            IvError::Expired => f.write_str("the option is at expiry (time to expiry is 0): its price does not depend on volatility"),
            IvError::BelowLowerBound { kind, price, bound } => write!(
                f,
                "price {price} is at or below the no-arbitrage lower bound {bound} (discounted intrinsic value) for this {kind}: no volatility produces it"
            ),
            IvError::AboveUpperBound { kind, price, bound } => {
                write!(f, "price {price} is at or above the no-arbitrage upper bound {bound} for this {kind}: no volatility produces it")
            }
        }
    }
}

impl std::error::Error for IvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IvError::Input(e) => Some(e),
            _ => None,
        }
    }
}

impl From<InputError> for IvError {
    fn from(e: InputError) -> Self {
        IvError::Input(e)
    }
}

/// The implied volatility (per year) of a call, put or straddle price. See the
/// [module documentation](self) for the method and the bounds. The market inputs are
/// validated as by [`crate::BlackScholes::new`].
///
/// ```
/// use strikeline_quant::{BlackScholes, IvInputs, OptionInputs, OptionType, implied_volatility};
/// // A deep out-of-the-money put one day before expiry.
/// let (spot, strike, rate, q, t) = (100.0, 80.0, 0.05, 0.0, 1.0 / 365.0);
/// let price = BlackScholes::new(OptionInputs { spot, strike, rate, dividend_yield: q, volatility: 1.2, time_to_expiry: t })?.price(OptionType::Put);
/// let iv = implied_volatility(OptionType::Put, IvInputs { price, spot, strike, rate, dividend_yield: q, time_to_expiry: t })?;
/// assert!((iv - 1.2).abs() < 1e-10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn implied_volatility(kind: OptionType, inputs: IvInputs) -> Result<f64, IvError> {
    let spot = price_level(Field::Spot, inputs.spot)?;
    let strike = price_level(Field::Strike, inputs.strike)?;
    let rate = valid_rate(Field::Rate, inputs.rate)?;
    let dividend_yield = valid_rate(Field::DividendYield, inputs.dividend_yield)?;
    let t = years(Field::TimeToExpiry, inputs.time_to_expiry)?;
    let price = finite(Field::Price, inputs.price)?;
    if t == 0.0 {
        return Err(IvError::Expired);
    }
    let discount = (-rate * t).exp();
    let x = (spot / strike).ln() + (rate - dividend_yield) * t;
    let forward = strike * x.exp();
    // √(FK) = K·e^{x/2}
    let scale = discount * strike * (0.5 * x).exp();
    let beta = price / scale;
    let half = (0.5 * x).exp();
    let intrinsic_abs = (half - 1.0 / half).abs();
    // Reduce to an out-of-the-money call with x ≤ 0.
    let otm_beta = match kind {
        OptionType::Call if x > 0.0 => beta - intrinsic_abs,
        OptionType::Put if x < 0.0 => beta - intrinsic_abs,
        OptionType::Call | OptionType::Put => beta,
        OptionType::Straddle => 0.5 * (beta - intrinsic_abs),
    };
    let xm = -x.abs();
    let b_max = (0.5 * xm).exp();
    let lower = || match kind {
        OptionType::Call => discount * (forward - strike).max(0.0),
        OptionType::Put => discount * (strike - forward).max(0.0),
        OptionType::Straddle => discount * (forward - strike).abs(),
    };
    let upper = || match kind {
        OptionType::Call => spot * (-dividend_yield * t).exp(),
        OptionType::Put => discount * strike,
        OptionType::Straddle => spot * (-dividend_yield * t).exp() + discount * strike,
    };
    // (`otm_beta` is finite here: the validated inputs keep every exponential in range.)
    if otm_beta <= 0.0 || price <= lower() {
        return Err(IvError::BelowLowerBound { kind, price, bound: lower() });
    }
    if otm_beta >= b_max || price >= upper() {
        return Err(IvError::AboveUpperBound { kind, price, bound: upper() });
    }
    let (s, _) = solve_otm_call(xm, otm_beta);
    Ok(s / t.sqrt())
}

/// Implied volatilities of many prices into `out` (`out[i]` for `inputs[i]`), for option
/// chains. Each result is the same as [`implied_volatility`] would return.
///
/// # Panics
/// If `out.len() != inputs.len()`.
///
/// ```
/// use strikeline_quant::{IvInputs, OptionType, iv::implied_volatility_into};
/// let base = IvInputs { price: 0.0, spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, time_to_expiry: 1.0 };
/// let inputs = [IvInputs { price: 7.965567455405804, ..base }, IvInputs { price: 150.0, ..base }];
/// let mut out = [Ok(0.0); 2];
/// implied_volatility_into(OptionType::Call, &inputs, &mut out);
/// assert!((out[0].unwrap() - 0.2).abs() < 1e-12);
/// assert!(out[1].is_err());
/// ```
pub fn implied_volatility_into(kind: OptionType, inputs: &[IvInputs], out: &mut [Result<f64, IvError>]) {
    assert_eq!(inputs.len(), out.len(), "implied_volatility_into: output slice length must equal the number of inputs");
    for (input, slot) in inputs.iter().zip(out.iter_mut()) {
        *slot = implied_volatility(kind, *input);
    }
}

const MAX_ITERATIONS: u32 = 100;
const STEP_TOLERANCE: f64 = 1e-5;
const UPPER_ASYMPTOTIC_RANGE: f64 = 3.0;

/// Normalised out-of-the-money call value, its distance from the upper bound and its
/// derivative in `s`: `(b(x, s), e^{x/2} − b(x, s), ∂b/∂s)`, from one exponential
/// (`e^{−d2²/2} = e^{−d1²/2}·e^{x}` and `∂b/∂s = e^{−d1²/2}·e^{x/2}/√(2π)`).
#[inline]
fn normalised_call(x: f64, s: f64, half: f64, inv_half: f64) -> (f64, f64, f64) {
    let d1 = x / s + 0.5 * s;
    let d2 = d1 - s;
    let gaussian_d1 = (-0.5 * d1 * d1).exp();
    let (n_d1, n_minus_d1) = cdf_and_complement_with_gaussian(d1, gaussian_d1);
    let (n_d2, _) = cdf_and_complement_with_gaussian(d2, gaussian_d1 * half * half);
    (half * n_d1 - inv_half * n_d2, half * n_minus_d1 + inv_half * n_d2, FRAC_1_SQRT_2PI * gaussian_d1 * half)
}

/// Solves `b(x, s) = beta` for `s > 0`, given `x ≤ 0` and `0 < beta < e^{x/2}`.
/// Returns the total volatility and the number of Halley steps taken.
pub(crate) fn solve_otm_call(x: f64, beta: f64) -> (f64, u32) {
    debug_assert!(x <= 0.0 && beta > 0.0);
    let half = (0.5 * x).exp();
    let inv_half = 1.0 / half;
    let b_max = half;
    let x2 = x * x;
    let s_c = (2.0 * -x).sqrt();
    let (b_c, _, vega_c) = if s_c > 0.0 { normalised_call(x, s_c, half, inv_half) } else { (0.0, b_max, FRAC_1_SQRT_2PI) };
    let lower_branch = beta < b_c;

    // Bracket [lo, hi] and a starting point.
    let (mut lo, mut hi) = if lower_branch { (0.0, s_c) } else { (s_c, f64::INFINITY) };
    let tangent_guess = s_c + (beta - b_c) / vega_c;
    // Corrado–Miller's near-the-money approximation, in normalised units.
    // It is `None` outside its domain (far out of the money).
    let corrado_miller = {
        let sum = half + inv_half;
        let diff = half - inv_half;
        let a = beta - 0.5 * diff;
        let radicand = a * a - diff * diff / std::f64::consts::PI;
        (radicand >= 0.0).then(|| std::f64::consts::TAU.sqrt() / sum * (a + radicand.sqrt()))
    };
    let mut s = if lower_branch {
        // Asymptotic lower branch: b ≈ b'(s)·s³/x², i.e.
        // ln β ≈ −x²/(2s²) − s²/8 + ln(s³/(x²√(2π))), solved by fixed-point steps.
        let ln_beta = beta.ln();
        let mut g = (-x / (-2.0 * ln_beta).sqrt()).min(s_c);
        for _ in 0..2 {
            let rhs = (g * g * g * FRAC_1_SQRT_2PI / x2).ln() - 0.125 * g * g - ln_beta;
            if rhs > 0.0 {
                g = -x / (2.0 * rhs).sqrt();
            }
        }
        // Outside its regime the asymptotic form underestimates; Corrado–Miller is then
        // the better start.
        let g = corrado_miller.map_or(g, |cm| g.max(cm));
        // b is convex below s_c, so its tangent at s_c reaches β at or beyond the root.
        if tangent_guess > 0.0 { g.min(tangent_guess) } else { g }
    } else {
        // Asymptotic upper branch: e^{x/2} − b ≈ b'(s)·s/(s²/4 − x²/s²).
        let ln_c = (b_max - beta).ln();
        let mut g = (-8.0 * ln_c).sqrt().max(s_c);
        for _ in 0..2 {
            let denom = 0.25 * g * g - x2 / (g * g);
            if denom > 0.0 {
                let rhs = (FRAC_1_SQRT_2PI * g / denom).ln() - 0.5 * x2 / (g * g) - ln_c;
                if rhs > 0.0 {
                    g = (8.0 * rhs).sqrt();
                }
            }
        }
        let g = if g > UPPER_ASYMPTOTIC_RANGE { g } else { corrado_miller.unwrap_or(g) };
        // b is concave above s_c, so its tangent at s_c reaches β at or before the root.
        g.max(tangent_guess)
    };
    if !(s > lo && s < hi && s.is_finite()) {
        s = if hi.is_finite() { 0.5 * (lo + hi) } else { (2.0 * lo).max(1.0) };
    }
    let ln_target = if lower_branch { beta.ln() } else { (b_max - beta).ln() };

    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let (b, c, vega) = normalised_call(x, s, half, inv_half);
        // h = b''/b'
        let h = x2 / (s * s * s) - 0.25 * s;
        // Objective value f, first derivative f1 and the ratio f2/f1.
        let (f, f1, f2_over_f1) = if lower_branch {
            if b <= 0.0 {
                (f64::NEG_INFINITY, 0.0, 0.0)
            } else {
                let f1 = vega / b;
                (b.ln() - ln_target, f1, h - f1)
            }
        } else if c <= 0.0 {
            (f64::INFINITY, 0.0, 0.0)
        } else {
            let f1 = vega / c;
            (ln_target - c.ln(), f1, h + f1)
        };
        if f > 0.0 {
            hi = s;
        } else if f < 0.0 {
            lo = s;
        } else {
            return (s, iterations);
        }
        let mut next = f64::NAN;
        if f1 > 0.0 && f.is_finite() {
            let newton = f / f1;
            let denom = 1.0 - 0.5 * newton * f2_over_f1;
            let step = if denom > 0.5 { newton / denom } else { newton };
            if step.abs() <= STEP_TOLERANCE * s {
                // Converged: with cubic convergence the error left after this step is of
                // the order of its cube, far below rounding.
                return ((s - step).clamp(lo, hi), iterations);
            }
            next = s - step;
        }
        if !(next > lo && next < hi) {
            next = if hi.is_finite() { 0.5 * (lo + hi) } else { 2.0 * s };
        }
        s = next;
        if hi - lo <= 4.0 * f64::EPSILON * s {
            break;
        }
    }
    (s, iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalised_vega(x: f64, s: f64) -> f64 {
        let r = x / s;
        FRAC_1_SQRT_2PI * (-0.5 * (r * r + 0.25 * s * s)).exp()
    }

    fn b(x: f64, s: f64) -> f64 {
        let half = (0.5 * x).exp();
        normalised_call(x, s, half, 1.0 / half).0
    }

    #[test]
    fn solver_recovers_total_volatility_over_a_wide_grid() {
        let mut histogram = [0u32; 12];
        let mut worst: f64 = 0.0;
        let mut worst_at = (0.0, 0.0);
        for xi in 0..=60 {
            let x = -(f64::from(xi) / 6.0).powi(2) / 4.0; // 0 … −25
            for si in 0..=92 {
                let s = 0.002 * (1.1f64).powi(si); // 0.002 … ~12
                let beta = b(x, s);
                if beta <= 1e-280 || beta >= (0.5 * x).exp() * (1.0 - 1e-15) {
                    continue;
                }
                // The price itself is only known to rounding (relative to the larger of the
                // two terms of b, and Φ(d) far in its tail only to about d²·ε relative), which
                // limits how well s is determined: allow for that condition number on top of
                // the solver's own tolerance.
                let d1 = x / s + 0.5 * s;
                let larger_term = (0.5 * x).exp() * crate::normal::cdf(d1);
                let vega = normalised_vega(x, s);
                let tolerance = 1e-13 + 16.0 * (1.0 + d1 * d1) * f64::EPSILON * larger_term / (vega * s);
                let (got, it) = solve_otm_call(x, beta);
                histogram[(it as usize).min(11)] += 1;
                let err = (got - s).abs() / s / tolerance;
                if err > worst {
                    worst = err;
                    worst_at = (x, s);
                }
            }
        }
        eprintln!("evaluations histogram {histogram:?}, worst error/tolerance {worst} at {worst_at:?}");
        // Most solves take one or two Halley steps plus the evaluation that confirms convergence.
        let slow: u32 = histogram[7..].iter().sum();
        assert_eq!(slow, 0, "{histogram:?}");
        assert!(worst <= 1.0, "worst error/tolerance {worst} at {worst_at:?}");
    }
}
