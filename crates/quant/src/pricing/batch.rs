//! Prices and Greeks of many options at once, in structure-of-arrays form: one slice per
//! input and one per output, for option chains, screens and risk runs.
//!
//! [`price_greeks_into`] computes exactly what [`BlackScholes::valuation`] computes for each
//! row (same formulas, same conventions, intrinsic value at `T = 0`), with SIMD
//! instructions chosen at run time: on x86-64, AVX-512 (sixteen options per step, as two
//! registers of eight) or AVX2 + FMA (eight per step); NEON on 64-bit ARM; elsewhere the
//! scalar code row by row (see the crate's `simd` module). Results agree with the scalar
//! API to about 1e-15 relative: the exponential, logarithm and normal distribution are
//! branch-free vector versions of the scalar ones, and fused multiply–adds round
//! differently.
//!
//! ```
//! use strikeline_quant::OptionType;
//! use strikeline_quant::pricing::batch::{BatchInputs, BatchOutputs, price_greeks_into};
//! let spot = [100.0, 100.0, 100.0];
//! let strike = [90.0, 100.0, 110.0];
//! let (rate, dividend_yield, volatility, years) = ([0.05; 3], [0.01; 3], [0.2; 3], [0.25; 3]);
//! let inputs = BatchInputs::new(&spot, &strike, &rate, &dividend_yield, &volatility, &years)?;
//! let (mut price, mut delta, mut gamma) = ([0.0; 3], [0.0; 3], [0.0; 3]);
//! let (mut vega, mut theta, mut rho) = ([0.0; 3], [0.0; 3], [0.0; 3]);
//! let mut out = BatchOutputs { price: &mut price, delta: &mut delta, gamma: &mut gamma, vega: &mut vega, theta: &mut theta, rho: &mut rho };
//! price_greeks_into(OptionType::Call, &inputs, &mut out);
//! let scalar = inputs.get(1).unwrap().valuation(OptionType::Call);
//! assert!((price[1] - scalar.price).abs() < 1e-12);
//! assert!((delta[1] - scalar.greeks.delta).abs() < 1e-14);
//! # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
//! ```

use std::fmt;

use crate::error::{Field, InputError, MAX_PRICE, MAX_RATE, MAX_VOLATILITY, MAX_YEARS, MIN_PRICE};
use crate::normal::FRAC_1_SQRT_2PI;
use crate::pricing::{BlackScholes, OptionInputs, OptionType};
use pulp::Simd;

use crate::simd::{Kernel, M, MAX_LANES, V, cdf_pairs, dispatch, exp, lanes, ln};

/// Why a batch could not be built.
///
/// ```
/// use strikeline_quant::{Field, InputError};
/// use strikeline_quant::pricing::batch::{BatchError, BatchInputs};
/// let err = BatchInputs::new(&[100.0, 100.0], &[100.0], &[0.0; 2], &[0.0; 2], &[0.2; 2], &[1.0; 2]).unwrap_err();
/// assert_eq!(err, BatchError::LengthMismatch { field: Field::Strike, expected: 2, found: 1 });
/// let err = BatchInputs::new(&[100.0, -5.0], &[100.0; 2], &[0.0; 2], &[0.0; 2], &[0.2; 2], &[1.0; 2]).unwrap_err();
/// assert!(matches!(err, BatchError::Input { index: 1, error: InputError::NotPositive { field: Field::Spot, .. } }));
/// assert_eq!(err.to_string(), "row 1: spot must be greater than 0, got -5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum BatchError {
    /// A column does not have as many rows as the first one.
    LengthMismatch {
        /// The column.
        field: Field,
        /// Rows in the first column.
        expected: usize,
        /// Rows in this one.
        found: usize,
    },
    /// A row's value is invalid, as [`BlackScholes::new`] would report it.
    Input {
        /// The row (from 0).
        index: usize,
        /// What is wrong with it.
        error: InputError,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::LengthMismatch { field, expected, found } => {
                write!(f, "the {field} column has {found} rows, expected {expected} like the first column")
            }
            BatchError::Input { index, error } => write!(f, "row {index}: {error}"),
        }
    }
}

impl std::error::Error for BatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Input { error, .. } => Some(error),
            BatchError::LengthMismatch { .. } => None,
        }
    }
}

/// Checks that every column has `expected` rows.
pub(crate) fn check_lengths(expected: usize, columns: &[(Field, usize)]) -> Result<(), BatchError> {
    for &(field, found) in columns {
        if found != expected {
            return Err(BatchError::LengthMismatch { field, expected, found });
        }
    }
    Ok(())
}

/// Validated columns of Black–Scholes–Merton inputs (row `i` is one option): the batch
/// counterpart of [`BlackScholes`]. Construction checks every row as
/// [`BlackScholes::new`] does (a fast vectorised pass, then the scalar check to name the
/// first bad row); pricing after that cannot fail.
///
/// ```
/// use strikeline_quant::pricing::batch::BatchInputs;
/// let inputs = BatchInputs::new(&[42.0], &[40.0], &[0.10], &[0.0], &[0.20], &[0.5])?;
/// assert_eq!(inputs.len(), 1);
/// assert_eq!(inputs.get(0).unwrap().strike(), 40.0);
/// # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BatchInputs<'a> {
    spot: &'a [f64],
    strike: &'a [f64],
    rate: &'a [f64],
    dividend_yield: &'a [f64],
    volatility: &'a [f64],
    time_to_expiry: &'a [f64],
}

/// Rows checked at a time by the fast validation pass.
const VALIDATION_BLOCK: usize = 256;

impl<'a> BatchInputs<'a> {
    /// Validates the columns: all of the same length, and every row valid for
    /// [`BlackScholes::new`] (`S, K` in `[1e-12, 1e12]`, `|r|, |q| ≤ 1`, `0 < σ ≤ 10`,
    /// `0 ≤ T ≤ 100`). The error names the first offending column or row.
    ///
    /// ```
    /// use strikeline_quant::pricing::batch::{BatchError, BatchInputs};
    /// let ok = BatchInputs::new(&[100.0; 4], &[95.0, 100.0, 105.0, 110.0], &[0.03; 4], &[0.0; 4], &[0.25; 4], &[0.5; 4]);
    /// assert!(ok.is_ok());
    /// let bad = BatchInputs::new(&[100.0; 2], &[100.0; 2], &[0.03; 2], &[0.0; 2], &[0.25, 0.0], &[0.5; 2]);
    /// assert!(matches!(bad, Err(BatchError::Input { index: 1, .. })));
    /// ```
    pub fn new(
        spot: &'a [f64],
        strike: &'a [f64],
        rate: &'a [f64],
        dividend_yield: &'a [f64],
        volatility: &'a [f64],
        time_to_expiry: &'a [f64],
    ) -> Result<Self, BatchError> {
        check_lengths(
            spot.len(),
            &[
                (Field::Strike, strike.len()),
                (Field::Rate, rate.len()),
                (Field::DividendYield, dividend_yield.len()),
                (Field::Volatility, volatility.len()),
                (Field::TimeToExpiry, time_to_expiry.len()),
            ],
        )?;
        let inputs = BatchInputs { spot, strike, rate, dividend_yield, volatility, time_to_expiry };
        let n = spot.len();
        let mut start = 0;
        while start < n {
            let end = (start + VALIDATION_BLOCK).min(n);
            // Branch-free range checks (NaN fails every comparison), the same conditions
            // as the scalar validators.
            let mut valid = true;
            for i in start..end {
                valid &= (spot[i] >= MIN_PRICE)
                    & (spot[i] <= MAX_PRICE)
                    & (strike[i] >= MIN_PRICE)
                    & (strike[i] <= MAX_PRICE)
                    & (rate[i] >= -MAX_RATE)
                    & (rate[i] <= MAX_RATE)
                    & (dividend_yield[i] >= -MAX_RATE)
                    & (dividend_yield[i] <= MAX_RATE)
                    & (volatility[i] > 0.0)
                    & (volatility[i] <= MAX_VOLATILITY)
                    & (time_to_expiry[i] >= 0.0)
                    & (time_to_expiry[i] <= MAX_YEARS);
            }
            if !valid {
                for index in start..end {
                    BlackScholes::new(inputs.row(index)).map_err(|error| BatchError::Input { index, error })?;
                }
            }
            start = end;
        }
        Ok(inputs)
    }

    /// Number of rows.
    ///
    /// ```
    /// # use strikeline_quant::pricing::batch::BatchInputs;
    /// assert_eq!(BatchInputs::new(&[1.0; 3], &[1.0; 3], &[0.0; 3], &[0.0; 3], &[0.1; 3], &[1.0; 3])?.len(), 3);
    /// # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.spot.len()
    }

    /// Whether there are no rows.
    ///
    /// ```
    /// # use strikeline_quant::pricing::batch::BatchInputs;
    /// assert!(BatchInputs::new(&[], &[], &[], &[], &[], &[])?.is_empty());
    /// # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.spot.is_empty()
    }

    /// Row `index` as a scalar model (`None` past the end): the batch kernels compute what
    /// its methods compute.
    ///
    /// ```
    /// # use strikeline_quant::pricing::batch::BatchInputs;
    /// let inputs = BatchInputs::new(&[49.0], &[50.0], &[0.05], &[0.0], &[0.2], &[0.3846])?;
    /// assert_eq!(inputs.get(0).unwrap().spot(), 49.0);
    /// assert!(inputs.get(1).is_none());
    /// # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
    /// ```
    #[must_use]
    pub fn get(&self, index: usize) -> Option<BlackScholes> {
        (index < self.len()).then(|| BlackScholes::from_validated(self.row(index)))
    }

    fn row(&self, i: usize) -> OptionInputs {
        OptionInputs {
            spot: self.spot[i],
            strike: self.strike[i],
            rate: self.rate[i],
            dividend_yield: self.dividend_yield[i],
            volatility: self.volatility[i],
            time_to_expiry: self.time_to_expiry[i],
        }
    }
}

/// Where [`price_greeks_into`] writes: one slice per output, each as long as the inputs.
/// Conventions are those of [`crate::Greeks`] (vega per 1.00 of volatility, theta per year,
/// rho per 1.00 of rate).
///
/// ```
/// use strikeline_quant::pricing::batch::BatchOutputs;
/// let (mut price, mut delta, mut gamma, mut vega, mut theta, mut rho) = ([0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2]);
/// let out = BatchOutputs { price: &mut price, delta: &mut delta, gamma: &mut gamma, vega: &mut vega, theta: &mut theta, rho: &mut rho };
/// assert_eq!(out.price.len(), 2);
/// ```
#[derive(Debug)]
pub struct BatchOutputs<'a> {
    /// Model value per unit of the underlying.
    pub price: &'a mut [f64],
    /// ∂V/∂S.
    pub delta: &'a mut [f64],
    /// ∂²V/∂S².
    pub gamma: &'a mut [f64],
    /// ∂V/∂σ per 1.00 of volatility.
    pub vega: &'a mut [f64],
    /// −∂V/∂T per year.
    pub theta: &'a mut [f64],
    /// ∂V/∂r per 1.00 of rate.
    pub rho: &'a mut [f64],
}

/// Price and the five Greeks of every row of `inputs`, as `kind`, into `out`: row `i` of
/// each output is what `inputs.get(i).unwrap().valuation(kind)` returns, to about 1e-15
/// relative (see the [module documentation](self)). Runs on the calling thread, one SIMD
/// step per eight or sixteen options.
///
/// # Panics
/// If an output slice's length differs from `inputs.len()`.
///
/// ```
/// use strikeline_quant::OptionType;
/// use strikeline_quant::pricing::batch::{BatchInputs, BatchOutputs, price_greeks_into};
/// // Hull's example 15.6 call and put, and one at expiry.
/// let inputs = BatchInputs::new(&[42.0, 42.0], &[40.0, 40.0], &[0.1; 2], &[0.0; 2], &[0.2; 2], &[0.5, 0.0])?;
/// let (mut price, mut delta, mut gamma, mut vega, mut theta, mut rho) = ([0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2]);
/// let mut out = BatchOutputs { price: &mut price, delta: &mut delta, gamma: &mut gamma, vega: &mut vega, theta: &mut theta, rho: &mut rho };
/// price_greeks_into(OptionType::Put, &inputs, &mut out);
/// assert!((price[0] - 0.81).abs() < 0.005);
/// assert_eq!((price[1], delta[1], gamma[1]), (0.0, 0.0, 0.0)); // intrinsic value at T = 0
/// # Ok::<(), strikeline_quant::pricing::batch::BatchError>(())
/// ```
pub fn price_greeks_into(kind: OptionType, inputs: &BatchInputs<'_>, out: &mut BatchOutputs<'_>) {
    let n = inputs.len();
    for (name, len) in [
        ("price", out.price.len()),
        ("delta", out.delta.len()),
        ("gamma", out.gamma.len()),
        ("vega", out.vega.len()),
        ("theta", out.theta.len()),
        ("rho", out.rho.len()),
    ] {
        assert_eq!(len, n, "price_greeks_into: the {name} output has {len} rows for {n} inputs");
    }
    dispatch(PriceGreeks { kind, inputs, out });
}

struct PriceGreeks<'i, 'o, 'a, 'b> {
    kind: OptionType,
    inputs: &'i BatchInputs<'a>,
    out: &'o mut BatchOutputs<'b>,
}

impl Kernel for PriceGreeks<'_, '_, '_, '_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, simd: S) {
        price_greeks(simd, self.kind, self.inputs, self.out);
    }

    fn run_scalar(self) {
        for i in 0..self.inputs.len() {
            write_scalar(self.kind, self.inputs, self.out, i);
        }
    }
}

/// One vector of options' inputs.
struct Lanes<S: Simd> {
    spot: V<S>,
    strike: V<S>,
    rate: V<S>,
    dividend_yield: V<S>,
    volatility: V<S>,
    time_to_expiry: V<S>,
}

/// One vector of options' results.
struct Values<S: Simd> {
    price: V<S>,
    delta: V<S>,
    gamma: V<S>,
    vega: V<S>,
    theta: V<S>,
    rho: V<S>,
}

#[inline(always)]
fn price_greeks<S: Simd>(simd: S, kind: OptionType, inputs: &BatchInputs<'_>, out: &mut BatchOutputs<'_>) {
    let width = lanes::<S>();
    let n = inputs.len();
    let full = n - n % width;
    let mut start = 0;
    while start < full {
        let lanes = Lanes {
            spot: V::load(simd, &inputs.spot[start..]),
            strike: V::load(simd, &inputs.strike[start..]),
            rate: V::load(simd, &inputs.rate[start..]),
            dividend_yield: V::load(simd, &inputs.dividend_yield[start..]),
            volatility: V::load(simd, &inputs.volatility[start..]),
            time_to_expiry: V::load(simd, &inputs.time_to_expiry[start..]),
        };
        let expired = lanes.time_to_expiry.eq(V::splat(simd, 0.0));
        let values = value_lanes(simd, kind, &lanes);
        values.price.store(&mut out.price[start..]);
        values.delta.store(&mut out.delta[start..]);
        values.gamma.store(&mut out.gamma[start..]);
        values.vega.store(&mut out.vega[start..]);
        values.theta.store(&mut out.theta[start..]);
        values.rho.store(&mut out.rho[start..]);
        if expired.any() {
            for (lane, &at_expiry) in expired.to_lanes()[..width].iter().enumerate() {
                if at_expiry {
                    write_scalar(kind, inputs, out, start + lane);
                }
            }
        }
        start += width;
    }
    // The last rows, fewer than a vector, priced with the vector code too (so that every
    // row gets the same arithmetic), padded with a harmless option.
    if full < n {
        let rest = n - full;
        let pad = |column: &[f64], filler: f64| {
            let mut buffer = [filler; MAX_LANES];
            buffer[..rest].copy_from_slice(&column[full..]);
            V::from_lanes(simd, &buffer)
        };
        let lanes = Lanes {
            spot: pad(inputs.spot, 1.0),
            strike: pad(inputs.strike, 1.0),
            rate: pad(inputs.rate, 0.0),
            dividend_yield: pad(inputs.dividend_yield, 0.0),
            volatility: pad(inputs.volatility, 0.2),
            time_to_expiry: pad(inputs.time_to_expiry, 1.0),
        };
        let values = value_lanes(simd, kind, &lanes);
        for (column, value) in [
            (&mut *out.price, values.price),
            (&mut *out.delta, values.delta),
            (&mut *out.gamma, values.gamma),
            (&mut *out.vega, values.vega),
            (&mut *out.theta, values.theta),
            (&mut *out.rho, values.rho),
        ] {
            column[full..].copy_from_slice(&value.to_lanes()[..rest]);
        }
        for i in full..n {
            if inputs.time_to_expiry[i] == 0.0 {
                write_scalar(kind, inputs, out, i);
            }
        }
    }
}

/// Row `i` by the scalar code (used for options at expiry, whose value is intrinsic, and
/// where the CPU has no SIMD instruction set).
fn write_scalar(kind: OptionType, inputs: &BatchInputs<'_>, out: &mut BatchOutputs<'_>, i: usize) {
    let v = BlackScholes::from_validated(inputs.row(i)).valuation(kind);
    out.price[i] = v.price;
    out.delta[i] = v.greeks.delta;
    out.gamma[i] = v.greeks.gamma;
    out.vega[i] = v.greeks.vega;
    out.theta[i] = v.greeks.theta;
    out.rho[i] = v.greeks.rho;
}

/// [`BlackScholes::valuation`] for one vector of options with `T > 0` (lanes with `T = 0`
/// come out as garbage and are overwritten by the caller). The formulas are the scalar
/// ones; the exponentials are arranged so that none is needed beyond `e^{−rT}`,
/// `e^{(r−q)T}` and `e^{−d1²/2}`: `e^{−qT} = e^{−rT}·e^{(r−q)T}` and
/// `e^{−d2²/2} = e^{−d1²/2}·(S/K)·e^{(r−q)T}`.
#[inline(always)]
fn value_lanes<S: Simd>(simd: S, kind: OptionType, x: &Lanes<S>) -> Values<S> {
    let zero = V::splat(simd, 0.0);
    let (spot, strike, rate, q, sigma, t) = (x.spot, x.strike, x.rate, x.dividend_yield, x.volatility, x.time_to_expiry);
    let sqrt_t = t.sqrt();
    let sig_sqrt_t = sigma * sqrt_t;
    let inv_sig_sqrt_t = 1.0 / sig_sqrt_t;
    // One division for both S/K and 1/S (S·K is within [1e-24, 1e24]).
    let inv_spot_strike = 1.0 / (spot * strike);
    let moneyness = spot * spot * inv_spot_strike;
    let inv_spot = strike * inv_spot_strike;
    let d1 = (ln(moneyness) + (rate - q + 0.5 * sigma * sigma) * t) * inv_sig_sqrt_t;
    let d2 = d1 - sig_sqrt_t;
    let df_r = exp(-rate * t);
    let carry = exp((rate - q) * t);
    let df_q = df_r * carry;
    let spot_df = spot * df_q;
    let strike_df = strike * df_r;
    let gaussian_d1 = exp(-0.5 * d1 * d1);
    let gaussian_d2 = gaussian_d1 * (moneyness * carry);
    let ((nd1, n_minus_d1), (nd2, n_minus_d2)) = cdf_pairs(d1, gaussian_d1, d2, gaussian_d2);
    let pdf = FRAC_1_SQRT_2PI * gaussian_d1;
    let spot_df_pdf = spot_df * pdf;
    let gamma = df_q * pdf * inv_sig_sqrt_t * inv_spot;
    let vega = spot_df_pdf * sqrt_t;
    let decay = -0.5 * spot_df_pdf * sigma * sigma * inv_sig_sqrt_t;

    let call_price = (spot_df * nd1 - strike_df * nd2).max(zero);
    let call_delta = df_q * nd1;
    let call_theta = decay - rate * strike_df * nd2 + q * spot_df * nd1;
    let call_rho = t * strike_df * nd2;
    let put_price = (strike_df * n_minus_d2 - spot_df * n_minus_d1).max(zero);
    let put_delta = -df_q * n_minus_d1;
    let put_theta = decay + rate * strike_df * n_minus_d2 - q * spot_df * n_minus_d1;
    let put_rho = -t * strike_df * n_minus_d2;
    // The kind is the same for every lane: selecting (rather than branching) keeps one
    // copy of the kernel for all three.
    let call = M::splat(simd, kind == OptionType::Call);
    let put = M::splat(simd, kind == OptionType::Put);
    let pick = |c: V<S>, p: V<S>| call.select(c, put.select(p, c + p));
    Values {
        price: pick(call_price, put_price),
        delta: pick(call_delta, put_delta),
        gamma: call.select(gamma, put.select(gamma, 2.0 * gamma)),
        vega: call.select(vega, put.select(vega, 2.0 * vega)),
        theta: pick(call_theta, put_theta),
        rho: pick(call_rho, put_rho),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::InstructionSet;

    /// Runs the kernel with one instruction set.
    fn run_with(set: InstructionSet, kind: OptionType, inputs: &BatchInputs<'_>) -> Vec<[f64; 6]> {
        let n = inputs.len();
        let mut cols = vec![vec![0.0; n]; 6];
        let [price, delta, gamma, vega, theta, rho] = &mut cols[..] else { unreachable!() };
        let mut out = BatchOutputs { price, delta, gamma, vega, theta, rho };
        set.run(PriceGreeks { kind, inputs, out: &mut out });
        (0..n).map(|i| [cols[0][i], cols[1][i], cols[2][i], cols[3][i], cols[4][i], cols[5][i]]).collect()
    }

    #[test]
    fn the_fallback_is_the_scalar_code() {
        let inputs = BatchInputs::new(&[42.0, 49.0], &[40.0, 50.0], &[0.1, 0.05], &[0.0; 2], &[0.2; 2], &[0.5, 0.0])
            .unwrap_or_else(|e| panic!("{e}"));
        let (mut price, mut delta, mut gamma) = ([0.0; 2], [0.0; 2], [0.0; 2]);
        let (mut vega, mut theta, mut rho) = ([0.0; 2], [0.0; 2], [0.0; 2]);
        let mut out =
            BatchOutputs { price: &mut price, delta: &mut delta, gamma: &mut gamma, vega: &mut vega, theta: &mut theta, rho: &mut rho };
        PriceGreeks { kind: OptionType::Put, inputs: &inputs, out: &mut out }.run_scalar();
        for i in 0..2 {
            let v = inputs.get(i).unwrap_or_else(|| unreachable!()).valuation(OptionType::Put);
            assert_eq!(
                [price[i], delta[i], gamma[i], vega[i], theta[i], rho[i]],
                [v.price, v.greeks.delta, v.greeks.gamma, v.greeks.vega, v.greeks.theta, v.greeks.rho]
            );
        }
    }

    #[test]
    fn every_flavour_agrees_with_the_scalar_code() {
        let mut columns = vec![Vec::new(); 6];
        let mut seed = 1u64;
        let mut uniform = |lo: f64, hi: f64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
        };
        for i in 0..2003 {
            let spot = uniform(1.0, 1000.0);
            columns[0].push(spot);
            columns[1].push(spot * uniform(-1.5, 1.5).exp());
            columns[2].push(uniform(-0.05, 0.2));
            columns[3].push(uniform(0.0, 0.1));
            columns[4].push(uniform(0.01, 3.0));
            columns[5].push(if i % 97 == 0 { 0.0 } else { uniform(0.5, 3650.0) / 365.0 });
        }
        let inputs = BatchInputs::new(&columns[0], &columns[1], &columns[2], &columns[3], &columns[4], &columns[5])
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in OptionType::ALL {
            let results: Vec<_> = InstructionSet::available().into_iter().map(|set| run_with(set, kind, &inputs)).collect();
            for i in 0..inputs.len() {
                let bs = inputs.get(i).unwrap_or_else(|| unreachable!());
                let v = bs.valuation(kind);
                let expected = [v.price, v.greeks.delta, v.greeks.gamma, v.greeks.vega, v.greeks.theta, v.greeks.rho];
                let scale = bs.spot() + bs.strike();
                for got in results.iter().map(|r| &r[i]) {
                    assert!((got[0] - expected[0]).abs() <= 1e-14 * scale, "price {} vs {} for {kind} {bs:?}", got[0], expected[0]);
                    for g in 1..6 {
                        assert!(
                            (got[g] - expected[g]).abs() <= 1e-11 * expected[g].abs() + 1e-14 * scale * (1.0 + bs.time_to_expiry()),
                            "output {g}: {} vs {} for {kind} {bs:?}",
                            got[g],
                            expected[g]
                        );
                    }
                }
            }
        }
    }
}
