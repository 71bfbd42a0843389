//! American calls and puts on an underlying paying a continuous dividend yield, priced by the
//! exercise-boundary fixed point of Andersen, Lake and Offengenden ("High-performance American
//! option pricing", 2016), with Greeks, the early-exercise premium, the critical price and
//! implied volatility. [`tree`] holds the binomial lattices (Cox–Ross–Rubinstein and
//! Leisen–Reimer, with discrete cash dividends) the engine is checked against.
//!
//! ## Method
//! A put's value is the European value plus the early-exercise premium, an integral over the
//! exercise boundary `B(u)` (`u` the time left to expiry):
//!
//! ```text
//! V(τ, S) = v_E(τ, S) + ∫₀^τ [ rK e^{−r(τ−u)} N(−d₋(τ−u, S/B(u))) − qS e^{−q(τ−u)} N(−d₊(τ−u, S/B(u))) ] du
//! d±(t, z) = (ln z + (r − q ± σ²/2)·t) / (σ√t)
//! ```
//!
//! The boundary solves `B(τ) = K e^{−(r−q)τ} N(τ, B) / D(τ, B)` (the paper's "FP-B" form, from
//! smooth pasting), iterated from the Barone-Adesi–Whaley critical price. It is held as a
//! Chebyshev interpolant of `H = ln(B/X)²` in `z = 2√(τ/T) − 1`, where `X = K·min(1, r/q)` is
//! its limit at expiry; the integrals use Gauss–Legendre rules after a change of variable that
//! removes the square-root singularities. A call is a put with the spot and strike, and the
//! rate and yield, exchanged (McDonald–Schroder symmetry). Without a reason to exercise early (a
//! put at `r ≤ 0`, a call at `q ≤ 0`) the value is the European one.
//!
//! Accuracy (checked in the tests against a Leisen–Reimer lattice, and in `make bench` on
//! 5,000 random cases against 10,001 steps): within 1e-4 absolute or relative.

mod numerics;
pub mod tree;

use crate::error::{Field, InputError};
use crate::iv::{IvError, IvInputs};
use crate::normal::{cdf, cdf_and_complement_with_gaussian, pdf};
use crate::pricing::{BlackScholes, Greeks, OptionInputs, OptionType, Valuation, intrinsic};

use numerics::{Chebyshev, gauss_legendre};

/// The engine's resolution: Chebyshev nodes, quadrature points of the boundary integrals,
/// fixed-point iterations and quadrature points of the price integral (per half).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scheme {
    nodes: usize,
    boundary_points: usize,
    iterations: usize,
    price_points: usize,
}

/// At least the scheme's fixed-point iterations, then until `ln B` moves less than this
/// at every node (slow cases: low volatility over years with a high yield), at most
/// `MAX_ITERATIONS`.
const BOUNDARY_TOLERANCE: f64 = 1e-4;
const MAX_ITERATIONS: usize = 24;

const SCHEME: Scheme = Scheme { nodes: 5, boundary_points: 8, iterations: 2, price_points: 10 };

/// Where the drift dwarfs the variance (`|r − q| > 2σ²`: low volatility with a high rate or
/// yield) the boundary's integrands are sharp: twice the boundary points, more nodes.
const FINE: Scheme = Scheme { nodes: 10, boundary_points: 16, iterations: 3, price_points: 16 };

/// Quadrature rules, computed once.
#[derive(Debug)]
struct Rules {
    scheme: Scheme,
    boundary: (Vec<f64>, Vec<f64>),
    price: (Vec<f64>, Vec<f64>),
    chebyshev: Vec<f64>,
    fitting: Vec<Vec<f64>>,
    /// For node i and boundary point j, the weights that give the interpolant at the point's
    /// `u` from the node values (interpolation is linear in them, and `u/T` depends on the
    /// scheme alone).
    at_points: Vec<Vec<Vec<f64>>>,
}

fn rules(fine: bool) -> &'static Rules {
    static COARSE_RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    static FINE_RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    if fine { FINE_RULES.get_or_init(|| Rules::of(FINE)) } else { COARSE_RULES.get_or_init(|| Rules::of(SCHEME)) }
}

impl Rules {
    fn of(scheme: Scheme) -> Rules {
        let boundary = gauss_legendre(scheme.boundary_points);
        let chebyshev = Chebyshev::nodes(scheme.nodes);
        let fitting = Chebyshev::fitting_matrix(scheme.nodes);
        let at_points = chebyshev
            .iter()
            .map(|z_node| {
                let tau_over_t = (1.0 + z_node) * (1.0 + z_node) / 4.0;
                boundary
                    .0
                    .iter()
                    .map(|y| {
                        let a = 0.5 * (1.0 + y);
                        let z_u = (2.0 * (tau_over_t * (1.0 - a * a)).sqrt() - 1.0).min(1.0);
                        // The interpolant's value is Σ_j c_j T_j(z) with c = fitting · h, so the
                        // weight of node k is Σ_j fitting[j][k] · T_j(z).
                        let basis: Vec<f64> = (0..=scheme.nodes).map(|j| (j as f64 * z_u.clamp(-1.0, 1.0).acos()).cos()).collect();
                        (0..=scheme.nodes).map(|k| (0..=scheme.nodes).map(|j| fitting[j][k] * basis[j]).sum()).collect()
                    })
                    .collect()
            })
            .collect();
        Rules { scheme, price: gauss_legendre(scheme.price_points), boundary, chebyshev, fitting, at_points }
    }
}

/// When an option may be exercised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Exercise {
    /// At expiry only.
    #[default]
    European,
    /// At any time up to expiry.
    American,
}

impl Exercise {
    /// The value per unit of the underlying of an option of this style on `inputs`:
    /// Black–Scholes–Merton for European, the [`American`] engine for American (which also
    /// refuses a negative rate or yield).
    ///
    /// ```
    /// use strikeline_quant::american::Exercise;
    /// use strikeline_quant::{OptionInputs, OptionType};
    /// let inputs = OptionInputs { spot: 80.0, strike: 100.0, rate: 0.06, dividend_yield: 0.0, volatility: 0.3, time_to_expiry: 1.0 };
    /// assert!(Exercise::American.price(inputs, OptionType::Put)? > Exercise::European.price(inputs, OptionType::Put)?);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn price(self, inputs: OptionInputs, kind: OptionType) -> Result<f64, InputError> {
        match self {
            Exercise::European => Ok(BlackScholes::new(inputs)?.price(kind)),
            Exercise::American => Ok(American::new(inputs)?.price(kind)),
        }
    }
}

/// A validated American option market: the same inputs as [`BlackScholes`], with the rate and
/// the dividend yield at least 0.
///
/// ```
/// use strikeline_quant::{OptionInputs, OptionType, american::American};
/// let inputs = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 };
/// let put = American::new(inputs)?;
/// let european = put.european().price(OptionType::Put);
/// assert!(put.price(OptionType::Put) > european, "early exercise is worth something");
/// assert_eq!(put.price(OptionType::Call), put.european().price(OptionType::Call), "no dividend: never exercise a call early");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct American {
    model: BlackScholes,
}

impl American {
    /// Validates as [`BlackScholes::new`] does, and refuses a negative rate or yield (the
    /// boundary is then not the one this engine solves).
    pub fn new(inputs: OptionInputs) -> Result<American, InputError> {
        let model = BlackScholes::new(inputs)?;
        for (field, value) in [(Field::Rate, inputs.rate), (Field::DividendYield, inputs.dividend_yield)] {
            if value < 0.0 {
                return Err(InputError::OutOfRange { field, value, min: 0.0, max: crate::error::MAX_RATE });
            }
        }
        Ok(American { model })
    }

    /// From a model already validated, with a rate and yield of at least 0 (crate-internal).
    pub(crate) fn from_validated(model: BlackScholes) -> American {
        debug_assert!(model.rate() >= 0.0 && model.dividend_yield() >= 0.0);
        American { model }
    }

    /// The European option on the same inputs.
    #[must_use]
    pub fn european(&self) -> BlackScholes {
        self.model
    }

    /// The value per unit of the underlying: a call, a put, or both (a straddle of two
    /// separately exercisable options).
    #[must_use]
    pub fn price(&self, kind: OptionType) -> f64 {
        self.curve(kind).price(self.model.spot())
    }

    /// The value as a function of the spot, for these terms (the exercise boundary is solved
    /// once): for charts and grids.
    ///
    /// ```
    /// use strikeline_quant::{OptionInputs, OptionType, american::American};
    /// let a = American::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.01, volatility: 0.3, time_to_expiry: 0.5 })?;
    /// let curve = a.curve(OptionType::Put);
    /// assert_eq!(curve.price(100.0), a.price(OptionType::Put));
    /// assert!(curve.price(90.0) > curve.price(110.0));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn curve(&self, kind: OptionType) -> Curve {
        let m = &self.model;
        let (k, r, q, v, t) = (m.strike(), m.rate(), m.dividend_yield(), m.volatility(), m.time_to_expiry());
        // McDonald–Schroder symmetry: a call is the put with spot and strike, rate and yield
        // exchanged; without a yield it is never exercised early (the European formula).
        let put = matches!(kind, OptionType::Put | OptionType::Straddle).then(|| PutCurve::new(k, r, q, v, t));
        let call = matches!(kind, OptionType::Call | OptionType::Straddle).then(|| (q > 0.0).then(|| PutCurve::new(k, q, r, v, t)));
        Curve { model: self.model, put, call }
    }

    /// The American value minus the European one (never negative).
    ///
    /// ```
    /// use strikeline_quant::{OptionInputs, OptionType, american::American};
    /// let a = American::new(OptionInputs { spot: 90.0, strike: 100.0, rate: 0.08, dividend_yield: 0.0, volatility: 0.3, time_to_expiry: 2.0 })?;
    /// assert!(a.early_exercise_premium(OptionType::Put) > 0.5);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn early_exercise_premium(&self, kind: OptionType) -> f64 {
        (self.price(kind) - self.model.price(kind)).max(0.0)
    }

    /// The price of the underlying at which exercising now is optimal: a put is exercised at
    /// or below it, a call at or above it; `None` when early exercise never pays (a put at
    /// `r = 0`, a call at `q = 0`) or for a straddle.
    ///
    /// ```
    /// use strikeline_quant::{OptionInputs, OptionType, american::American};
    /// let a = American::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// let b = a.critical_price(OptionType::Put).expect("a put pays to exercise");
    /// assert!(b > 70.0 && b < 100.0);
    /// assert!(a.price(OptionType::Put) > 0.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn critical_price(&self, kind: OptionType) -> Option<f64> {
        let m = &self.model;
        let (k, r, q, v, t) = (m.strike(), m.rate(), m.dividend_yield(), m.volatility(), m.time_to_expiry());
        match kind {
            OptionType::Put => Boundary::solve(k, r, q, v, t).map(|b| b.at(t)),
            // McDonald–Schroder: the call's boundary is K²/B of the put with r and q exchanged.
            OptionType::Call => Boundary::solve(k, q, r, v, t).map(|b| k * k / b.at(t)),
            OptionType::Straddle => None,
        }
    }

    /// Price and Greeks (per unit, the crate's conventions: vega per 1.00 of volatility,
    /// theta per year, rho per 1.00 of rate) by central differences of the engine.
    #[must_use]
    pub fn valuation(&self, kind: OptionType) -> Valuation {
        let curve = self.curve(kind);
        let m = self.model.inputs();
        let price = curve.price(m.spot);
        let at = |inputs: OptionInputs| American { model: BlackScholes::from_validated(inputs) }.price(kind);
        let h = 1e-3 * m.spot;
        let (up, down) = (curve.price(m.spot + h), curve.price(m.spot - h));
        let delta = (up - down) / (2.0 * h);
        let gamma = (up - 2.0 * price + down) / (h * h);
        let dv = 1e-4;
        let vega = (at(OptionInputs { volatility: m.volatility + dv, ..m })
            - at(OptionInputs { volatility: (m.volatility - dv).max(1e-6), ..m }))
            / (m.volatility + dv - (m.volatility - dv).max(1e-6));
        let dt = (1e-4_f64).min(0.5 * m.time_to_expiry);
        let theta = if m.time_to_expiry > 0.0 {
            (at(OptionInputs { time_to_expiry: m.time_to_expiry - dt, ..m })
                - at(OptionInputs { time_to_expiry: m.time_to_expiry + dt, ..m }))
                / (2.0 * dt)
        } else {
            0.0
        };
        let dr = 1e-4;
        let rho = (at(OptionInputs { rate: m.rate + dr, ..m }) - at(OptionInputs { rate: (m.rate - dr).max(0.0), ..m }))
            / (m.rate + dr - (m.rate - dr).max(0.0));
        Valuation { price, greeks: Greeks { delta, gamma, vega, theta, rho } }
    }
}

/// `d±(t, z)` for log-moneyness `ln z`.
#[inline]
fn d_pm(ln_z: f64, t: f64, r: f64, q: f64, sigma: f64) -> (f64, f64) {
    let s = sigma * t.sqrt();
    let d_plus = (ln_z + (r - q + 0.5 * sigma * sigma) * t) / s;
    (d_plus, d_plus - s)
}

/// An American option's value as a function of the spot for fixed terms (see
/// [`American::curve`]).
#[derive(Debug, Clone)]
pub struct Curve {
    model: BlackScholes,
    put: Option<PutCurve>,
    /// `Some(None)`: a call never exercised early.
    call: Option<Option<PutCurve>>,
}

impl Curve {
    /// The value at `spot` (> 0).
    #[must_use]
    pub fn price(&self, spot: f64) -> f64 {
        let k = self.model.strike();
        let put = self.put.as_ref().map_or(0.0, |p| p.value(spot, k));
        let call = match &self.call {
            None => 0.0,
            Some(Some(symmetric)) => symmetric.value(k, spot),
            Some(None) => self.model.with_spot_unchecked(spot).price(OptionType::Call),
        };
        put + call
    }

    /// `∂V/∂S` at `spot`, by a central difference.
    #[must_use]
    pub fn delta(&self, spot: f64) -> f64 {
        let h = 1e-4 * spot;
        (self.price(spot + h) - self.price(spot - h)) / (2.0 * h)
    }
}

/// An American put's value for any spot and strike, from one boundary solved at strike
/// `k_ref` (the boundary scales with the strike).
#[derive(Debug, Clone)]
struct PutCurve {
    k_ref: f64,
    r: f64,
    q: f64,
    sigma: f64,
    t: f64,
    boundary: Option<Boundary>,
}

impl PutCurve {
    fn new(k_ref: f64, r: f64, q: f64, sigma: f64, t: f64) -> PutCurve {
        PutCurve { k_ref, r, q, sigma, t, boundary: Boundary::solve(k_ref, r, q, sigma, t) }
    }

    fn value(&self, s: f64, k: f64) -> f64 {
        let (r, q, sigma, t) = (self.r, self.q, self.sigma, self.t);
        if t <= 0.0 {
            return intrinsic(OptionType::Put, s, k);
        }
        let european = BlackScholes::from_validated(OptionInputs {
            spot: s,
            strike: k,
            rate: r,
            dividend_yield: q,
            volatility: sigma,
            time_to_expiry: t,
        })
        .price(OptionType::Put);
        let Some(boundary) = &self.boundary else { return european };
        let shift = (k / self.k_ref).ln();
        let ln_s = s.ln();
        if ln_s <= boundary.ln_at(t) + shift {
            return k - s;
        }
        // The premium's integral over u in [0, T], in two halves with the square-root change
        // of variable at each end: u = (T/2)·w² near 0, T − u = (T/2)·w² near T.
        let (xs, ws) = &boundary.rules.price;
        let integrand = |u: f64| {
            let left = t - u;
            if left <= 0.0 {
                return 0.0;
            }
            let ln_z = ln_s - boundary.ln_at(u) - shift;
            let (dp, dm) = d_pm(ln_z, left, r, q, sigma);
            // One exponential for both tails: e^{−d₋²/2} = e^{−d₊²/2}·z·e^{(r−q)(T−u)}.
            let gaussian_p = (-0.5 * dp * dp).exp();
            let gaussian_m = gaussian_p * (ln_z + (r - q) * left).exp();
            let (_, below_p) = cdf_and_complement_with_gaussian(dp, gaussian_p);
            let (_, below_m) = cdf_and_complement_with_gaussian(dm, gaussian_m);
            r * k * (-r * left).exp() * below_m - q * s * (-q * left).exp() * below_p
        };
        let half = 0.5 * t;
        let mut premium = 0.0;
        for (x, w) in xs.iter().zip(ws) {
            let w01 = 0.5 * (x + 1.0); // in [0, 1]; du = half·2w·dw and dw = dx/2
            premium += w * half * w01 * (integrand(half * w01 * w01) + integrand(t - half * w01 * w01));
        }
        (european + premium).max(intrinsic(OptionType::Put, s, k)).max(european)
    }
}

/// A put's exercise boundary over time left `0..=T`.
#[derive(Debug, Clone)]
struct Boundary {
    ln_x: f64,
    t: f64,
    h: Chebyshev,
    rules: &'static Rules,
}

impl Boundary {
    /// `None` when early exercise never pays (`r ≤ 0`).
    fn solve(k: f64, r: f64, q: f64, sigma: f64, t: f64) -> Option<Boundary> {
        if r <= 0.0 || t <= 0.0 {
            return None;
        }
        let x = if q > r { k * r / q } else { k };
        let ln_x = x.ln();
        let rules = rules((r - q).abs() > 2.0 * sigma * sigma);
        let taus: Vec<f64> = rules.chebyshev.iter().map(|z| t * (1.0 + z) * (1.0 + z) / 4.0).collect();
        // H = ln(B/X)² at each node, starting from Barone-Adesi–Whaley's critical prices (the
        // nodes run from τ = T down to 0: each Newton solve starts from the previous one's).
        let mut start = k;
        let mut h: Vec<f64> = taus
            .iter()
            .map(|&tau| {
                if tau <= 0.0 {
                    return 0.0;
                }
                start = baw_critical_put(k, r, q, sigma, tau, start).min(x);
                (start.ln() - ln_x).powi(2)
            })
            .collect();
        let (ys, ws) = &rules.boundary;
        let ln_k = k.ln();
        // Everything but the boundary is fixed across iterations: for node i and point j,
        // τ − u = τ·a² with a = (1 + y)/2, and the 1/√(τ − u) cancels against du = τ·a·dy.
        struct Point {
            sig_sqrt_v: f64,
            drift_v: f64,
            /// The N integrand's factor, with φ(d₋) = φ(d₊)·(B(τ)/B(u))·e^{(r−q)(τ−u)} folded
            /// in: w·r·e^{ru}·e^{(r−q)v}·√τ/(σ√2π) = w·r·e^{rτ − qv}·√τ/(σ√2π).
            c_n: f64,
            c_cdf: f64,
            c_pdf: f64,
        }
        let sqrt_2pi = (2.0 * std::f64::consts::PI).sqrt();
        let m = ys.len();
        let mut points: Vec<Point> = Vec::with_capacity(taus.len() * m);
        for &tau in &taus {
            let sqrt_tau = tau.sqrt();
            let (growth_r, growth_q) = ((r * tau).exp(), (q * tau).exp());
            for (y, w) in ys.iter().zip(ws) {
                let a = 0.5 * (1.0 + y);
                let v = tau * a * a;
                // One exponential per point: e^{qu} = e^{qτ}·e^{−qv}.
                let decay_q = (-q * v).exp();
                points.push(Point {
                    sig_sqrt_v: sigma * sqrt_tau * a,
                    drift_v: (r - q + 0.5 * sigma * sigma) * v,
                    c_n: w * r * growth_r * decay_q * sqrt_tau / sigma / sqrt_2pi,
                    c_cdf: w * tau * a * q * growth_q * decay_q,
                    c_pdf: w * q * growth_q * decay_q * sqrt_tau / sigma / sqrt_2pi,
                });
            }
        }
        let mut previous = h.clone();
        let mut eta = 1.0;
        let mut last_change = f64::INFINITY;
        for iteration in 0..MAX_ITERATIONS {
            // Jacobi: every node's update reads the previous iteration's boundary.
            previous.copy_from_slice(&h);
            let mut largest_change = 0.0_f64;
            for (i, &tau) in taus.iter().enumerate() {
                if tau <= 0.0 {
                    continue;
                }
                // At a node the interpolant is the node's value.
                let ln_b = ln_x - previous[i].max(0.0).sqrt();
                let sig_sqrt_tau = sigma * tau.sqrt();
                let (dp, dm) = d_pm(ln_b - ln_k, tau, r, q, sigma);
                let mut n = pdf(dm) / sig_sqrt_tau;
                let mut d = pdf(dp) / sig_sqrt_tau + cdf(dp);
                for (p, weights) in points[i * m..(i + 1) * m].iter().zip(&rules.at_points[i]) {
                    let h_u: f64 = weights.iter().zip(&previous).map(|(w, h)| w * h).sum();
                    let ln_bu = ln_x - h_u.max(0.0).sqrt();
                    let ln_z = ln_b - ln_bu;
                    let dp = (ln_z + p.drift_v) / p.sig_sqrt_v;
                    let gaussian = (-0.5 * dp * dp).exp();
                    let (cdf_dp, _) = cdf_and_complement_with_gaussian(dp, gaussian);
                    // φ(d₋) = φ(d₊)·(B(τ)/B(u))·e^{(r−q)(τ−u)}.
                    n += p.c_n * gaussian * ln_z.exp();
                    d += p.c_cdf * cdf_dp + p.c_pdf * gaussian;
                }
                let b = (k * (-(r - q) * tau).exp() * n / d).min(x);
                // Damped once the iteration stops contracting (it can oscillate at low
                // volatility over years with a high rate): ln B moves a fraction `eta` of the way.
                let ln_next = ln_b + eta * (b.ln() - ln_b);
                let next = (ln_next.min(ln_x) - ln_x).powi(2);
                largest_change = largest_change.max((next.sqrt() - previous[i].max(0.0).sqrt()).abs());
                h[i] = next;
            }
            // The change of ln B: 1e-7 is a relative change of the boundary below 1e-7.
            if iteration + 1 >= rules.scheme.iterations && largest_change < BOUNDARY_TOLERANCE {
                break;
            }
            if largest_change > 0.5 * last_change {
                eta = (0.5 * eta).max(1.0 / 16.0);
            }
            last_change = largest_change;
        }
        Some(Boundary { ln_x, t, h: Chebyshev::fit_with(&rules.fitting, &h), rules })
    }

    /// `ln B(u)`.
    fn ln_at(&self, u: f64) -> f64 {
        if u <= 0.0 {
            return self.ln_x;
        }
        let z = 2.0 * (u / self.t).sqrt() - 1.0;
        self.ln_x - self.h.at(z.min(1.0)).max(0.0).sqrt()
    }

    /// `B(u)`.
    fn at(&self, u: f64) -> f64 {
        self.ln_at(u).exp()
    }
}

/// Barone-Adesi–Whaley's critical price of a put with time left `tau` (Newton's method from
/// `start`).
fn baw_critical_put(k: f64, r: f64, q: f64, sigma: f64, tau: f64, start: f64) -> f64 {
    let var = sigma * sigma;
    let m = 2.0 * r / var;
    let nn = 2.0 * (r - q) / var;
    let h = 1.0 - (-r * tau).exp();
    let q1 = 0.5 * (-(nn - 1.0) - ((nn - 1.0) * (nn - 1.0) + 4.0 * m / h).sqrt());
    let sqrt_tau = tau.sqrt();
    let dq = (-q * tau).exp();
    let mut s = start;
    for _ in 0..20 {
        let (d1, _) = d_pm((s / k).ln(), tau, r, q, sigma);
        let european = BlackScholes::from_validated(OptionInputs {
            spot: s,
            strike: k,
            rate: r,
            dividend_yield: q,
            volatility: sigma,
            time_to_expiry: tau,
        })
        .price(OptionType::Put);
        let n_minus = cdf(-d1);
        let g = k - s - european + (1.0 - dq * n_minus) * s / q1;
        let slope = -1.0 + dq * n_minus + (1.0 - dq * n_minus) / q1 + dq * pdf(d1) / (sigma * sqrt_tau * q1);
        let next = (s - g / slope).clamp(1e-6 * k, k);
        // A first guess for the fixed point: four digits are plenty.
        if (next - s).abs() <= 1e-4 * k {
            return next;
        }
        s = next;
    }
    s
}

/// The volatility at which the American price equals `inputs.price`, by bisection with the
/// secant step (Illinois) on `σ` in `[1e-4, 10]`, to 1e-10 of the price. A price at or below
/// the exercise value, or at or above the most an option can be worth (the strike for a put,
/// the spot for a call), has none: the error names the bound.
///
/// ```
/// use strikeline_quant::{IvInputs, OptionInputs, OptionType, american::{American, implied_volatility}};
/// let inputs = OptionInputs { spot: 95.0, strike: 100.0, rate: 0.05, dividend_yield: 0.01, volatility: 0.35, time_to_expiry: 0.75 };
/// let price = American::new(inputs)?.price(OptionType::Put);
/// let iv = implied_volatility(OptionType::Put, IvInputs { price, spot: 95.0, strike: 100.0, rate: 0.05, dividend_yield: 0.01, time_to_expiry: 0.75 })?;
/// assert!((iv - 0.35).abs() < 1e-7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn implied_volatility(kind: OptionType, inputs: IvInputs) -> Result<f64, IvError> {
    let market = |volatility: f64| OptionInputs {
        spot: inputs.spot,
        strike: inputs.strike,
        rate: inputs.rate,
        dividend_yield: inputs.dividend_yield,
        volatility,
        time_to_expiry: inputs.time_to_expiry,
    };
    // The same validation as pricing (the volatility is the solver's).
    American::new(market(0.2))?;
    let price = crate::error::finite(Field::Price, inputs.price)?;
    if inputs.time_to_expiry == 0.0 {
        return Err(IvError::Expired);
    }
    let exercise = intrinsic(kind, inputs.spot, inputs.strike);
    let ceiling = match kind {
        OptionType::Call => inputs.spot,
        OptionType::Put => inputs.strike,
        OptionType::Straddle => inputs.spot.max(inputs.strike),
    };
    let (mut lo, mut hi) = (1e-4, 10.0);
    let value = |sigma: f64| American { model: BlackScholes::from_validated(market(sigma)) }.price(kind) - price;
    let (mut f_lo, mut f_hi) = (value(lo), value(hi));
    if price <= exercise || f_lo > 0.0 {
        return Err(IvError::BelowLowerBound { kind, price, bound: (price - f_lo).max(exercise) });
    }
    if price >= ceiling || f_hi < 0.0 {
        return Err(IvError::AboveUpperBound { kind, price, bound: (price + f_hi.max(0.0)).min(ceiling) });
    }
    let mut side = 0;
    for _ in 0..200 {
        let mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        let mid = if mid.is_finite() && mid > lo && mid < hi { mid } else { 0.5 * (lo + hi) };
        let f_mid = value(mid);
        if f_mid.abs() <= 1e-10 * price.max(1e-8) || hi - lo <= 1e-14 {
            return Ok(mid);
        }
        if f_mid < 0.0 {
            lo = mid;
            f_lo = f_mid;
            if side == -1 {
                f_hi *= 0.5;
            }
            side = -1;
        } else {
            hi = mid;
            f_hi = f_mid;
            if side == 1 {
                f_lo *= 0.5;
            }
            side = 1;
        }
    }
    Ok(0.5 * (lo + hi))
}
