//! A structure at its first expiry: extremes, breakevens, profitable ranges and the
//! probability of profit.
//!
//! At the first expiry the legs that expire then are worth their intrinsic value, so the
//! P&L is piecewise linear in the underlying's price with kinks at their strikes; legs that
//! expire later (calendars, diagonals) add a smooth Black–Scholes value.
//!
//! - **Same expiry for every option leg.** The extremes of a piecewise-linear function are
//!   at its kinks or its ends, so the maximum and minimum are taken exactly over the P&L
//!   as the price falls to zero, the P&L at each strike, and the right tail's slope (the
//!   net number of calls and shares): a positive slope is an unbounded profit, a negative
//!   one an unbounded loss. Breakevens are the exact zeros of each linear piece.
//! - **Later expiries too.** Between strikes the P&L is smooth; each piece is sampled at
//!   96 points to bracket the zeros of the P&L (breakevens) and of the position's delta
//!   (interior extremes), which are then bisected to 1e-10. Beyond the last strike the
//!   curve approaches a line whose slope (calls count `e^{−qτ}` each) decides boundedness;
//!   a flat tail's limit counts as an extreme approached, not reached (`spot: None`).
//!
//! The probability of profit is the risk-neutral probability (drift `r − q`, the
//! underlying's volatility) that the price at the first expiry lies in a profitable range.

use crate::normal::cdf;

use super::Structure;

/// The largest profit or loss: reached at a price (`spot`: `Some(0.0)` as the price falls
/// to zero, `None` approached as it rises without limit), or unbounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Extreme {
    /// A finite extreme.
    At {
        /// The P&L there (negative for a loss).
        pnl: f64,
        /// Where it is reached.
        spot: Option<f64>,
    },
    /// No limit: the P&L grows (or falls) without bound as the price rises.
    Unbounded,
}

impl Extreme {
    /// The P&L when finite.
    #[must_use]
    pub fn pnl(&self) -> Option<f64> {
        match self {
            Extreme::At { pnl, .. } => Some(*pnl),
            Extreme::Unbounded => None,
        }
    }
}

/// Prices at the first expiry where the P&L is positive: from `from` to `to` (`None`: no
/// upper end).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProfitRange {
    /// Lower end (0: every price below `to`).
    pub from: f64,
    /// Upper end, or `None`.
    pub to: Option<f64>,
}

/// The figures at the first expiry. Amounts are for the whole position.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpiryAnalysis {
    /// Years from now to the first expiry.
    pub horizon: f64,
    /// The largest profit.
    pub max_profit: Extreme,
    /// The largest loss (a negative P&L).
    pub max_loss: Extreme,
    /// Prices where the P&L crosses or touches zero, ascending.
    pub breakevens: Vec<f64>,
    /// Where the P&L is positive, ascending.
    pub profitable: Vec<ProfitRange>,
    /// Risk-neutral probability that the price at the first expiry lies in `profitable`.
    pub probability_of_profit: f64,
}

/// Samples per smooth piece.
const SAMPLES: usize = 96;

/// The P&L's shape away from the strikes: its limit as the price falls to zero, and the
/// line `slope·S + intercept` it approaches as the price rises.
struct Ends {
    at_zero: f64,
    slope: f64,
    intercept: f64,
}

fn ends(structure: &Structure) -> Ends {
    let (r, q) = (structure.underlying.rate, structure.underlying.dividend_yield);
    let horizon = structure.first_expiry;
    let mut e = Ends { at_zero: 0.0, slope: 0.0, intercept: 0.0 };
    for p in structure.priced() {
        e.at_zero -= p.units * p.entry_price;
        e.intercept -= p.units * p.entry_price;
        let Some(o) = p.option else {
            e.slope += p.units;
            continue;
        };
        let tau = (o.expiry - horizon).max(0.0);
        // An American leg still alive is exercised at the extremes: a put for K as the price
        // falls to zero (with r > 0), a call for S − K as it rises (with q > 0).
        let american = structure.exercise == crate::american::Exercise::American;
        match o.kind {
            crate::OptionType::Put => {
                let discount = if american && r > 0.0 { 1.0 } else { (-r * tau).exp() };
                e.at_zero += p.units * o.strike * discount;
            }
            _ => {
                let exercised = american && q > 0.0;
                e.slope += p.units * if exercised { 1.0 } else { (-q * tau).exp() };
                e.intercept -= p.units * o.strike * if exercised { 1.0 } else { (-r * tau).exp() };
            }
        }
    }
    e
}

pub(super) fn analyse(structure: &Structure) -> ExpiryAnalysis {
    let horizon = structure.first_expiry;
    let at = structure.at(horizon, 0.0);
    let f = |s: f64| at.pnl(s);
    let ends = ends(structure);
    let size: f64 = structure.priced().iter().map(|p| p.units.abs()).sum();
    let mut knots: Vec<f64> =
        structure.priced().iter().filter_map(|p| p.option).filter(|o| o.expiry <= horizon).map(|o| o.strike).collect();
    knots.sort_by(f64::total_cmp);
    knots.dedup();
    let top = knots.last().copied().unwrap_or(structure.underlying.spot).max(structure.underlying.spot);
    // Tolerances scale with the position: the P&L's size and the tail's slope per share.
    let eps = 1e-12 * size * top;
    let slope_eps = 1e-9 * size;
    let smooth = structure.priced().iter().any(|p| p.option.is_some_and(|o| o.expiry > horizon));

    let mut candidates: Vec<(f64, Option<f64>)> = vec![(ends.at_zero, Some(0.0))];
    let mut roots = Vec::new();
    if smooth {
        smooth_pieces(structure, &at, &knots, &ends, &mut candidates, &mut roots);
    } else {
        let mut previous = (0.0, ends.at_zero);
        for &k in &knots {
            let fk = f(k);
            candidates.push((fk, Some(k)));
            let (a, fa) = previous;
            if fk.abs() <= eps {
                roots.push(k);
            } else if fa.abs() > eps && fa.signum() != fk.signum() {
                roots.push(a + (k - a) * fa / (fa - fk));
            }
            previous = (k, fk);
        }
        let (last, f_last) = previous;
        if f_last.abs() > eps && ends.slope.abs() > slope_eps && f_last.signum() != ends.slope.signum() {
            roots.push(last - f_last / ends.slope);
        }
    }
    roots.sort_by(f64::total_cmp);
    roots.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs().max(1.0));

    let flat_tail = ends.slope.abs() <= slope_eps;
    if smooth && flat_tail {
        candidates.push((ends.intercept, None));
    }
    let best = |better: fn(f64, f64) -> bool| {
        candidates.iter().copied().reduce(|x, y| if better(y.0, x.0) { y } else { x }).map(|(pnl, spot)| Extreme::At { pnl, spot })
    };
    let max_profit =
        if ends.slope > slope_eps { Extreme::Unbounded } else { best(|a, b| a > b).unwrap_or(Extreme::At { pnl: 0.0, spot: None }) };
    let max_loss =
        if ends.slope < -slope_eps { Extreme::Unbounded } else { best(|a, b| a < b).unwrap_or(Extreme::At { pnl: 0.0, spot: None }) };

    let profitable = profit_ranges(&roots, &knots, |s| f(s) > eps);
    let probability_of_profit = probability(structure, &profitable);
    ExpiryAnalysis { horizon, max_profit, max_loss, breakevens: roots, profitable, probability_of_profit }
}

/// Breakevens and interior extremes of a P&L with legs alive after the first expiry.
fn smooth_pieces(
    structure: &Structure,
    at: &super::Valuer<'_>,
    knots: &[f64],
    ends: &Ends,
    candidates: &mut Vec<(f64, Option<f64>)>,
    roots: &mut Vec<f64>,
) {
    let horizon = structure.first_expiry;
    let f = |s: f64| at.pnl(s);
    let delta = |s: f64| at.delta(s);
    // Far enough that every remaining leg is within 1e-15 of its asymptote.
    let spread =
        structure.priced().iter().filter_map(|p| p.option).map(|o| o.volatility * (o.expiry - horizon).max(0.0).sqrt()).fold(0.0, f64::max);
    let first = knots.first().copied().unwrap_or(structure.underlying.spot);
    let last = knots.last().copied().unwrap_or(structure.underlying.spot).max(structure.underlying.spot);
    let low = first * (-9.0 * spread).exp().min(1e-3);
    let high = last * (9.0 * spread).exp().max(4.0);

    let mut bounds = vec![low];
    bounds.extend(knots.iter().copied().filter(|&k| k > low && k < high));
    bounds.push(high);
    for &k in knots {
        candidates.push((f(k), Some(k)));
        if f(k) == 0.0 {
            roots.push(k);
        }
    }
    let mut previous: Option<(f64, f64)> = None;
    for piece in bounds.windows(2) {
        let (a, b) = (piece[0], piece[1]);
        // Just inside the piece: a strike's own delta is the step's midpoint.
        let (a_in, b_in) = (a * (1.0 + 1e-12), b * (1.0 - 1e-12));
        let ratio = (b_in / a_in).powf(1.0 / SAMPLES as f64);
        let mut x0 = a_in;
        let (mut f0, mut d0) = (f(x0), delta(x0));
        // A sign change across the strike between two pieces.
        if let Some((x, fx)) = previous
            && fx != 0.0
            && f0 != 0.0
            && fx.signum() != f0.signum()
        {
            roots.push(bisect(&f, x, x0));
        }
        for i in 1..=SAMPLES {
            let x1 = if i == SAMPLES { b_in } else { x0 * ratio };
            let (f1, d1) = (f(x1), delta(x1));
            if f0 != 0.0 && f1 != 0.0 && f0.signum() != f1.signum() {
                roots.push(bisect(&f, x0, x1));
            }
            if d0 != 0.0 && d1 != 0.0 && d0.signum() != d1.signum() {
                let x = bisect(&delta, x0, x1);
                candidates.push((f(x), Some(x)));
            }
            (x0, f0, d0) = (x1, f1, d1);
        }
        previous = Some((x0, f0));
    }
    // Beyond `high` the P&L is its asymptote's line: a zero there is bracketed by doubling.
    let f_high = f(high);
    if f_high != 0.0 && ends.slope != 0.0 && f_high.signum() != ends.slope.signum() {
        let mut far = high * 2.0;
        for _ in 0..64 {
            if f(far).signum() != f_high.signum() {
                roots.push(bisect(&f, high, far));
                break;
            }
            far *= 2.0;
        }
    }
}

/// A zero of `g` between `a` and `b`, where `g` changes sign, to 1e-10 (or the last bit).
fn bisect(g: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let ga = g(a).signum();
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if b - a <= 1e-10 || m <= a || m >= b {
            break;
        }
        let gm = g(m);
        if gm == 0.0 {
            return m;
        }
        if gm.signum() == ga {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// The ranges between consecutive breakevens where the P&L is positive, joined where a
/// breakeven only touches zero.
fn profit_ranges(roots: &[f64], knots: &[f64], profitable: impl Fn(f64) -> bool) -> Vec<ProfitRange> {
    let mut ranges: Vec<ProfitRange> = Vec::new();
    let mut from = 0.0;
    let last_knot = knots.last().copied().unwrap_or(1.0);
    for end in roots.iter().copied().map(Some).chain(std::iter::once(None)) {
        let probe = match end {
            Some(to) if from > 0.0 => (from * to).sqrt(),
            Some(to) => to / 2.0,
            None => from.max(last_knot) * 2.0,
        };
        if profitable(probe) {
            match ranges.last_mut() {
                Some(previous) if previous.to == Some(from) => previous.to = end,
                _ => ranges.push(ProfitRange { from, to: end }),
            }
        }
        if let Some(to) = end {
            from = to;
        }
    }
    ranges
}

/// `P(a < S_T < b)` summed over the ranges, with `S_T` lognormal at the first expiry.
fn probability(structure: &Structure, ranges: &[ProfitRange]) -> f64 {
    let u = structure.underlying;
    let t = structure.first_expiry;
    let sig_sqrt_t = u.volatility * t.sqrt();
    let below = |x: f64| cdf(((x / u.spot).ln() - (u.rate - u.dividend_yield - 0.5 * u.volatility * u.volatility) * t) / sig_sqrt_t);
    let total: f64 = ranges.iter().map(|r| r.to.map_or(1.0, below) - if r.from > 0.0 { below(r.from) } else { 0.0 }).sum();
    total.clamp(0.0, 1.0)
}
