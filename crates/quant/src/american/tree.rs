//! Binomial lattices for European and American calls and puts: Cox–Ross–Rubinstein and
//! Leisen–Reimer (Peizer–Pratt inversion, method 2; second-order convergence, odd steps), with
//! a continuous dividend yield and discrete cash dividends (the escrowed model: the lattice
//! carries the spot less the present value of the dividends to expiry, and each node adds
//! back those still to come, so the exercise decision sees the real price).
//!
//! ```
//! use strikeline_quant::{OptionInputs, OptionType};
//! use strikeline_quant::american::tree::{Exercise, Lattice, binomial};
//! let inputs = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 };
//! let european = binomial(OptionType::Call, inputs, Lattice::LeisenReimer, 501, Exercise::European, &[])?;
//! let exact = strikeline_quant::BlackScholes::new(inputs)?.price(OptionType::Call);
//! assert!((european - exact).abs() < 1e-4);
//! # Ok::<(), strikeline_quant::InputError>(())
//! ```

pub use super::Exercise;
use crate::error::{Field, InputError, non_negative};
use crate::pricing::{BlackScholes, OptionInputs, OptionType};

/// Which lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lattice {
    /// `u = e^{σ√Δt}`, `d = 1/u`: first-order, oscillating convergence.
    CoxRossRubinstein,
    /// Leisen–Reimer: nodes placed so the terminal distribution matches `N(d1)`, `N(d2)`;
    /// second-order convergence (an even step count is raised to the next odd one).
    LeisenReimer,
}

/// A cash dividend of `amount` per share paid `time` years from now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CashDividend {
    /// Years from now to the ex-dividend date.
    pub time: f64,
    /// Amount per share (≥ 0).
    pub amount: f64,
}

/// The lattice value of a call, a put or both (a straddle as two options) with `steps`
/// steps (at least 1). Dividends after expiry are ignored; dividends whose present value
/// reaches the spot are refused.
///
/// ```
/// use strikeline_quant::{OptionInputs, OptionType};
/// use strikeline_quant::american::tree::{CashDividend, Exercise, Lattice, binomial};
/// let inputs = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.25, time_to_expiry: 1.0 };
/// let plain = binomial(OptionType::Call, inputs, Lattice::LeisenReimer, 301, Exercise::American, &[])?;
/// let dividend = [CashDividend { time: 0.5, amount: 4.0 }];
/// let with = binomial(OptionType::Call, inputs, Lattice::LeisenReimer, 301, Exercise::American, &dividend)?;
/// let european = binomial(OptionType::Call, inputs, Lattice::LeisenReimer, 301, Exercise::European, &dividend)?;
/// assert!(with < plain, "a dividend lowers a call");
/// assert!(with > european, "and makes exercising before it worth something");
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub fn binomial(
    kind: OptionType,
    inputs: OptionInputs,
    lattice: Lattice,
    steps: usize,
    exercise: Exercise,
    dividends: &[CashDividend],
) -> Result<f64, InputError> {
    let model = BlackScholes::new(inputs)?;
    if steps == 0 {
        return Err(InputError::TooSmall { field: Field::GridPoints, value: 0, min: 1 });
    }
    let t = model.time_to_expiry();
    let r = model.rate();
    for d in dividends {
        non_negative(Field::Premium, d.amount)?;
        non_negative(Field::TimeToExpiry, d.time)?;
    }
    let escrow: f64 = dividends.iter().filter(|d| d.time <= t).map(|d| d.amount * (-r * d.time).exp()).sum();
    let spot = model.spot() - escrow;
    if spot <= 0.0 {
        return Err(InputError::OutOfRange { field: Field::Premium, value: escrow, min: 0.0, max: model.spot() });
    }
    if t == 0.0 {
        return Ok(crate::pricing::intrinsic(kind, model.spot(), model.strike()));
    }
    let one = |kind: OptionType| value(kind, &model, spot, lattice, steps, exercise, dividends);
    Ok(match kind {
        OptionType::Straddle => one(OptionType::Call) + one(OptionType::Put),
        kind => one(kind),
    })
}

fn peizer_pratt(z: f64, n: f64) -> f64 {
    let x = z / (n + 1.0 / 3.0 + 0.1 / (n + 1.0));
    0.5 + z.signum() * 0.5 * (1.0 - (-(x * x) * (n + 1.0 / 6.0)).exp()).sqrt()
}

fn value(
    kind: OptionType,
    model: &BlackScholes,
    spot: f64,
    lattice: Lattice,
    steps: usize,
    exercise: Exercise,
    dividends: &[CashDividend],
) -> f64 {
    let (k, r, q, sigma, t) = (model.strike(), model.rate(), model.dividend_yield(), model.volatility(), model.time_to_expiry());
    let n = match lattice {
        Lattice::LeisenReimer if steps.is_multiple_of(2) => steps + 1,
        _ => steps,
    };
    let dt = t / n as f64;
    let growth = ((r - q) * dt).exp();
    let (up, down, p) = match lattice {
        Lattice::CoxRossRubinstein => {
            let u = (sigma * dt.sqrt()).exp();
            let d = 1.0 / u;
            (u, d, (growth - d) / (u - d))
        }
        Lattice::LeisenReimer => {
            let sig_sqrt_t = sigma * t.sqrt();
            let d1 = ((spot / k).ln() + (r - q + 0.5 * sigma * sigma) * t) / sig_sqrt_t;
            let d2 = d1 - sig_sqrt_t;
            let p = peizer_pratt(d2, n as f64);
            let p_bar = peizer_pratt(d1, n as f64);
            let u = growth * p_bar / p;
            (u, (growth - p * u) / (1.0 - p), p)
        }
    };
    let discount = (-r * dt).exp();
    let payoff = |s: f64| crate::pricing::intrinsic(kind, s, k);
    // Present value at time `at` of the dividends still to come before expiry.
    let to_come =
        |at: f64| -> f64 { dividends.iter().filter(|d| d.time > at && d.time <= t).map(|d| d.amount * (-r * (d.time - at)).exp()).sum() };
    let ratio = up / down;
    let mut values: Vec<f64> = Vec::with_capacity(n + 1);
    let mut s = spot * down.powi(n as i32);
    for _ in 0..=n {
        values.push(payoff(s));
        s *= ratio;
    }
    for j in (0..n).rev() {
        let add = if exercise == Exercise::American { to_come(j as f64 * dt) } else { 0.0 };
        let mut s = spot * down.powi(j as i32);
        for i in 0..=j {
            let held = discount * (p * values[i + 1] + (1.0 - p) * values[i]);
            values[i] = if exercise == Exercise::American { held.max(payoff(s + add)) } else { held };
            s *= ratio;
        }
    }
    values[0]
}
