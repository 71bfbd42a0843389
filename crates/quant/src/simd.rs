//! SIMD `f64` arithmetic for the batch (structure-of-arrays) kernels of
//! [`crate::pricing::batch`] and [`crate::iv::batch`], in safe Rust.
//!
//! ## How it is vectorised without `unsafe`
//! The kernels are written once, generic over a [`pulp::Simd`] instruction set, with the
//! vector type [`V`] (and the lane mask [`M`]): operators and methods that are each one
//! vector instruction, no branch (conditions become masks and selects) and no call (the
//! exponential, logarithm and normal distribution below are polynomial and rational
//! approximations built from `+ − × ÷ √`, comparisons and bit operations).
//!
//! [`dispatch`] then runs the kernel compiled for the best instruction set this CPU has,
//! detected at run time by the `pulp` crate (which owns the `unsafe` of feature detection
//! and of calling `#[target_feature]` code, so that this crate keeps
//! `forbid(unsafe_code)`): AVX-512 (`x86-64-v4`, eight lanes per register), AVX2 + FMA
//! (`x86-64-v3`, four lanes), NEON on 64-bit ARM, or else (x86-64 without AVX2) the
//! kernel's scalar fallback, the scalar API row by row. No `RUSTFLAGS` or `target-cpu` are
//! needed, so the binary stays portable; where the CPU has FMA, multiply–adds are fused,
//! so results may differ from the scalar API's in the last bits.
//!
//! ## Accuracy
//! [`exp`] and [`ln`] are within 2 ulps and 1 ulp of the standard library's (range reduction
//! with a two-part `ln 2`; a degree-13 Taylor polynomial for `e^r`; fdlibm's minimax
//! polynomial for `ln`). [`cdf_pairs`] is Cody's `erfc` exactly as in [`crate::normal`],
//! with the three intervals evaluated side by side and selected per lane. The unit tests
//! below hold them to a few ulps of the scalar functions over dense grids, on every
//! instruction set this CPU has.

#![expect(clippy::excessive_precision, reason = "coefficients as published by fdlibm")]

use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

use pulp::Simd;

use crate::normal::{A, B, C, D, ERFC_UNDERFLOW, FRAC_1_SQRT_PI, P, Q};

/// Registers per [`V`]: each operation is issued on two independent registers, which gives
/// the CPU two dependency chains to overlap (the kernels are long chains of dependent
/// operations, so one register at a time leaves the floating-point units idle).
const UNROLL: usize = 2;

/// The most lanes a [`V`] has with any instruction set (AVX-512: 2 × 8 doubles). Buffers of
/// this size hold one [`V`] of any of them.
pub(crate) const MAX_LANES: usize = 16;

/// Lanes of one [`V`] with instruction set `S`.
#[inline(always)]
pub(crate) const fn lanes<S: Simd>() -> usize {
    UNROLL * S::F64_LANES
}

/// A vector of `f64` ([`lanes`] of them), with the instruction-set token that lets it be
/// operated on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct V<S: Simd> {
    simd: S,
    v: [S::f64s; UNROLL],
}

/// Per-lane conditions (the result of a comparison).
#[derive(Debug, Clone, Copy)]
pub(crate) struct M<S: Simd> {
    simd: S,
    m: [S::m64s; UNROLL],
}

impl<S: Simd> V<S> {
    #[inline(always)]
    fn map(self, f: impl Fn(S, S::f64s) -> S::f64s) -> Self {
        let simd = self.simd;
        V { simd, v: std::array::from_fn(|i| f(simd, self.v[i])) }
    }

    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(S, S::f64s, S::f64s) -> S::f64s) -> Self {
        let simd = self.simd;
        V { simd, v: std::array::from_fn(|i| f(simd, self.v[i], other.v[i])) }
    }

    #[inline(always)]
    fn compare(self, other: Self, f: impl Fn(S, S::f64s, S::f64s) -> S::m64s) -> M<S> {
        let simd = self.simd;
        M { simd, m: std::array::from_fn(|i| f(simd, self.v[i], other.v[i])) }
    }

    #[inline(always)]
    pub(crate) fn splat(simd: S, x: f64) -> Self {
        let v = simd.splat_f64s(x);
        V { simd, v: [v; UNROLL] }
    }

    /// `x` in every lane, with `self`'s instruction set.
    #[inline(always)]
    pub(crate) fn constant(self, x: f64) -> Self {
        V::splat(self.simd, x)
    }

    /// The first [`lanes`] values of `slice` (which must hold at least that many).
    #[inline(always)]
    pub(crate) fn load(simd: S, slice: &[f64]) -> Self {
        let (head, _) = S::as_simd_f64s(&slice[..lanes::<S>()]);
        V { simd, v: std::array::from_fn(|i| head[i]) }
    }

    /// Writes the lanes to the first [`lanes`] places of `slice`.
    #[inline(always)]
    pub(crate) fn store(self, slice: &mut [f64]) {
        let (head, _) = S::as_mut_simd_f64s(&mut slice[..lanes::<S>()]);
        head[..UNROLL].copy_from_slice(&self.v);
    }

    /// From a buffer whose first [`lanes`] values are used.
    #[inline(always)]
    pub(crate) fn from_lanes(simd: S, lanes: &[f64; MAX_LANES]) -> Self {
        V::load(simd, lanes)
    }

    /// The lanes, in the first [`lanes`] places of the buffer (the rest are 0).
    #[inline(always)]
    pub(crate) fn to_lanes(self) -> [f64; MAX_LANES] {
        let mut out = [0.0; MAX_LANES];
        self.store(&mut out);
        out
    }

    /// `self·b + c`, fused (one rounding) where the instruction set has FMA.
    #[inline(always)]
    pub(crate) fn mul_add(self, b: Self, c: Self) -> Self {
        let simd = self.simd;
        V { simd, v: std::array::from_fn(|i| simd.mul_add_e_f64s(self.v[i], b.v[i], c.v[i])) }
    }

    #[inline(always)]
    pub(crate) fn sqrt(self) -> Self {
        self.map(|simd, a| simd.sqrt_f64s(a))
    }

    #[inline(always)]
    pub(crate) fn abs(self) -> Self {
        self.map(|simd, a| simd.abs_f64s(a))
    }

    /// The larger of the two, lane by lane; `other` where either is NaN (one compare and
    /// one select, unlike `f64::max`).
    #[inline(always)]
    pub(crate) fn max(self, other: Self) -> Self {
        self.gt(other).select(self, other)
    }

    /// The smaller of the two, lane by lane; `other` where either is NaN.
    #[inline(always)]
    pub(crate) fn min(self, other: Self) -> Self {
        self.lt(other).select(self, other)
    }

    /// `f64::max`: the larger of the two, or the one that is not NaN.
    #[inline(always)]
    pub(crate) fn max_num(self, other: Self) -> Self {
        (other.gt(self) | self.is_nan()).select(other, self)
    }

    /// `f64::min`: the smaller of the two, or the one that is not NaN.
    #[inline(always)]
    pub(crate) fn min_num(self, other: Self) -> Self {
        (other.lt(self) | self.is_nan()).select(other, self)
    }

    #[inline(always)]
    pub(crate) fn is_nan(self) -> M<S> {
        !self.eq(self)
    }

    /// Lanes that are neither infinite nor NaN.
    #[inline(always)]
    pub(crate) fn is_finite(self) -> M<S> {
        self.abs().lt(self.constant(f64::INFINITY))
    }

    #[inline(always)]
    pub(crate) fn lt(self, other: Self) -> M<S> {
        self.compare(other, |simd, a, b| simd.less_than_f64s(a, b))
    }

    #[inline(always)]
    pub(crate) fn le(self, other: Self) -> M<S> {
        self.compare(other, |simd, a, b| simd.less_than_or_equal_f64s(a, b))
    }

    #[inline(always)]
    pub(crate) fn gt(self, other: Self) -> M<S> {
        self.compare(other, |simd, a, b| simd.greater_than_f64s(a, b))
    }

    #[inline(always)]
    pub(crate) fn ge(self, other: Self) -> M<S> {
        self.compare(other, |simd, a, b| simd.greater_than_or_equal_f64s(a, b))
    }

    #[inline(always)]
    pub(crate) fn eq(self, other: Self) -> M<S> {
        self.compare(other, |simd, a, b| simd.equal_f64s(a, b))
    }

    /// Bitwise AND of the representations with `mask`.
    #[inline(always)]
    fn and_bits(self, mask: u64) -> Self {
        self.map(|simd, a| simd.transmute_f64s_u64s(simd.and_u64s(simd.transmute_u64s_f64s(a), simd.splat_u64s(mask))))
    }

    /// Bitwise OR of the representations with `bits`.
    #[inline(always)]
    fn or_bits(self, bits: u64) -> Self {
        self.map(|simd, a| simd.transmute_f64s_u64s(simd.or_u64s(simd.transmute_u64s_f64s(a), simd.splat_u64s(bits))))
    }

    /// Applies `f` to the representation of every lane (the instruction-set abstraction has
    /// no 64-bit shifts; through a buffer, the compiler turns the loop back into vector
    /// instructions).
    #[inline(always)]
    fn map_bits(self, f: impl Fn(u64) -> u64) -> Self {
        let mut buffer = self.to_lanes();
        for lane in &mut buffer[..lanes::<S>()] {
            *lane = f64::from_bits(f(lane.to_bits()));
        }
        V::from_lanes(self.simd, &buffer)
    }
}

impl<S: Simd> M<S> {
    #[inline(always)]
    pub(crate) fn splat(simd: S, condition: bool) -> Self {
        let zero = V::splat(simd, 0.0);
        if condition { zero.eq(zero) } else { !zero.eq(zero) }
    }

    /// Whether any lane's condition holds.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        let either = self.m[1..].iter().fold(self.m[0], |acc, &m| self.simd.or_m64s(acc, m));
        self.simd.first_true_m64s(either) < S::F64_LANES
    }

    /// The conditions, in the first [`lanes`] places (the rest are `false`).
    #[inline(always)]
    pub(crate) fn to_lanes(self) -> [bool; MAX_LANES] {
        let ones = self.select(V::splat(self.simd, 1.0), V::splat(self.simd, 0.0)).to_lanes();
        let mut out = [false; MAX_LANES];
        for (o, one) in out.iter_mut().zip(ones) {
            *o = one != 0.0;
        }
        out
    }

    /// `if_true` where the lane's condition holds, else `if_false`.
    #[inline(always)]
    pub(crate) fn select(self, if_true: V<S>, if_false: V<S>) -> V<S> {
        let simd = self.simd;
        V { simd, v: std::array::from_fn(|i| simd.select_f64s(self.m[i], if_true.v[i], if_false.v[i])) }
    }

    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(S, S::m64s, S::m64s) -> S::m64s) -> Self {
        let simd = self.simd;
        M { simd, m: std::array::from_fn(|i| f(simd, self.m[i], other.m[i])) }
    }
}

impl<S: Simd> BitAnd for M<S> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, rhs: Self) -> Self {
        self.zip(rhs, |simd, a, b| simd.and_m64s(a, b))
    }
}

impl<S: Simd> BitOr for M<S> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, rhs: Self) -> Self {
        self.zip(rhs, |simd, a, b| simd.or_m64s(a, b))
    }
}

impl<S: Simd> Not for M<S> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let simd = self.simd;
        M { simd, m: std::array::from_fn(|i| simd.not_m64s(self.m[i])) }
    }
}

impl<S: Simd> Neg for V<S> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(|simd, a| simd.neg_f64s(a))
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $simd_method:ident) => {
        impl<S: Simd> $trait for V<S> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                self.zip(rhs, |simd, a, b| simd.$simd_method(a, b))
            }
        }
        impl<S: Simd> $trait<f64> for V<S> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: f64) -> Self {
                self.$method(self.constant(rhs))
            }
        }
        impl<S: Simd> $trait<V<S>> for f64 {
            type Output = V<S>;
            #[inline(always)]
            fn $method(self, rhs: V<S>) -> V<S> {
                rhs.constant(self).$method(rhs)
            }
        }
    };
}
binary_op!(Add, add, add_f64s);
binary_op!(Sub, sub, sub_f64s);
binary_op!(Mul, mul, mul_f64s);
binary_op!(Div, div, div_f64s);

/// `c[0]·x^{N−1} + c[1]·x^{N−2} + … + c[N−1]` by Horner's rule (highest degree first).
#[inline(always)]
pub(crate) fn horner<S: Simd, const N: usize>(x: V<S>, c: [f64; N]) -> V<S> {
    let mut acc = x.constant(c[0]);
    for &coefficient in &c[1..] {
        acc = acc.mul_add(x, x.constant(coefficient));
    }
    acc
}

/// `ln 2` in two parts: the high part has 32 trailing zero bits, so `n·LN2_HI` is exact
/// for every exponent `n` (fdlibm's split).
const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-01;
const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
/// `1.5·2^52`: adding it rounds a double of magnitude below 2^51 to an integer, which
/// then sits in the low bits of the sum's representation.
const ROUNDING_SHIFT: f64 = 6_755_399_441_055_744.0;
/// Below this `exp` returns 0 (the true value is below half the smallest subnormal).
const EXP_MIN: f64 = -745.2;
/// Below this the result is subnormal: `2^n` is built as `2^{n+54}·2^{−54}`.
const EXP_SUBNORMAL: f64 = -708.0;
const TWO_POW_MINUS_54: f64 = 5.551_115_123_125_783e-17;
/// Above this `exp` returns `+∞` (exactly: from about 709.78).
const EXP_MAX: f64 = 709.0;

/// `1/k!` for k = 13 down to 0: Taylor's series of `e^r`, whose truncation error on
/// `|r| ≤ ln2/2` is below `0.35^{14}/14!·√2 ≈ 6e-18` relative.
const EXP_TAYLOR: [f64; 14] = [
    1.605_904_383_682_161_3e-10,
    2.087_675_698_786_81e-9,
    2.505_210_838_544_172e-8,
    2.755_731_922_398_589e-7,
    2.755_731_922_398_589_3e-6,
    2.480_158_730_158_73e-5,
    1.984_126_984_126_984e-4,
    1.388_888_888_888_889e-3,
    8.333_333_333_333_333e-3,
    4.166_666_666_666_666_4e-2,
    1.666_666_666_666_666_6e-1,
    0.5,
    1.0,
    1.0,
];

/// `e^x`, within about 1 ulp of `f64::exp` for `−708 ≤ x ≤ 709` (and to within one unit
/// of the last place of a subnormal result down to −745); 0 below, `+∞` above, NaN for NaN.
///
/// `x = n·ln 2 + r` with `n` the nearest integer to `x/ln 2` and `|r| ≤ ln2/2`; then
/// `e^x = 2^n·e^r`, with `2^n` built in the exponent bits.
#[inline(always)]
pub(crate) fn exp<S: Simd>(x: V<S>) -> V<S> {
    let too_small = x.lt(x.constant(EXP_MIN));
    let too_large = x.gt(x.constant(EXP_MAX));
    let xc = too_small.select(x.constant(EXP_MIN), too_large.select(x.constant(EXP_MAX), x));
    let shifted = xc.mul_add(x.constant(std::f64::consts::LOG2_E), x.constant(ROUNDING_SHIFT));
    let n = shifted - ROUNDING_SHIFT;
    let r = (-n).mul_add(x.constant(LN2_HI), xc);
    let r = (-n).mul_add(x.constant(LN2_LO), r);
    let p = horner(r, EXP_TAYLOR);
    // The low bits of `shifted` hold n (two's complement, wrapping): (n + 1023) << 52 is
    // the double 2^n. For a subnormal result, 2^{n+54} (normal) and a final 2^{−54}.
    let subnormal = x.lt(x.constant(EXP_SUBNORMAL));
    let shifted = shifted + subnormal.select(x.constant(54.0), x.constant(0.0));
    let scale = shifted.map_bits(|b| b.wrapping_add(1023) << 52);
    let result = p * scale * subnormal.select(x.constant(TWO_POW_MINUS_54), x.constant(1.0));
    too_small.select(x.constant(0.0), too_large.select(x.constant(f64::INFINITY), result))
}

// fdlibm's e_log.c (Sun Microsystems, 1993: "Permission to use, copy, modify, and
// distribute this software is freely granted, provided that this notice is preserved"):
// minimax coefficients of (ln(1+f) − 2s − s·…)/… in s = f/(2+f), error below 2^−58.45.
const LG1: f64 = 6.666_666_666_666_735_130e-01;
const LG2: f64 = 3.999_999_999_940_941_908e-01;
const LG3: f64 = 2.857_142_874_366_239_149e-01;
const LG4: f64 = 2.222_219_843_214_978_396e-01;
const LG5: f64 = 1.818_357_216_161_805_012e-01;
const LG6: f64 = 1.531_383_769_920_937_332e-01;
const LG7: f64 = 1.479_819_860_511_658_591e-01;
const MANTISSA_MASK: u64 = (1 << 52) - 1;
const EXPONENT_ONE: u64 = 0x3ff0_0000_0000_0000;
/// The double `2^52`: OR-ing an integer below 2^52 into its mantissa gives `2^52 + i`.
const TWO_POW_52_BITS: u64 = 0x4330_0000_0000_0000;
const TWO_POW_52: f64 = 4_503_599_627_370_496.0;
const TWO_POW_54: f64 = 18_014_398_509_481_984.0;

/// The natural logarithm, within about 1 ulp of `f64::ln` (fdlibm's algorithm without its
/// branches): `x = 2^k·m` with `√½ ≤ m < √2`, `f = m − 1`, `s = f/(2+f)` and
/// `ln m = 2·atanh s` by a minimax polynomial in `s²`. Subnormals are scaled first;
/// `ln 0 = −∞`, `ln ∞ = ∞`, NaN for negative numbers and NaN.
#[inline(always)]
pub(crate) fn ln<S: Simd>(x: V<S>) -> V<S> {
    let subnormal = x.lt(x.constant(f64::MIN_POSITIVE));
    let xs = subnormal.select(x * TWO_POW_54, x);
    let mantissa = xs.and_bits(MANTISSA_MASK).or_bits(EXPONENT_ONE); // [1, 2)
    let exponent = xs.map_bits(|b| TWO_POW_52_BITS | (b >> 52)) - (TWO_POW_52 + 1023.0);
    let above = mantissa.gt(x.constant(std::f64::consts::SQRT_2));
    let m = above.select(mantissa * 0.5, mantissa);
    let k = exponent + above.select(x.constant(1.0), x.constant(0.0)) - subnormal.select(x.constant(54.0), x.constant(0.0));
    let f = m - 1.0;
    let hfsq = 0.5 * f * f;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * horner(w, [LG6, LG4, LG2]);
    let t2 = z * horner(w, [LG7, LG5, LG3, LG1]);
    let r = t2 + t1;
    let result = k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f);
    let regular = x.gt(x.constant(0.0)) & x.lt(x.constant(f64::INFINITY));
    regular.select(
        result,
        x.eq(x.constant(0.0))
            .select(x.constant(f64::NEG_INFINITY), x.eq(x.constant(f64::INFINITY)).select(x.constant(f64::INFINITY), x.constant(f64::NAN))),
    )
}

/// Cody's rational approximation for one argument, up to its final division: which
/// interval each lane is in, and the numerator and denominator of the quotient.
struct ErfcParts<S: Simd> {
    /// `|y| ≤ 0.46875`: the quotient is `erf(y)`.
    small: M<S>,
    /// `y < 0`, i.e. `x > 0`.
    negative: M<S>,
    /// `|y| < 26.543`: `erfc(|y|)` has not underflowed.
    live: M<S>,
    numerator: V<S>,
    denominator: V<S>,
}

/// `y = −x/√2`, and Cody's three intervals side by side (see [`crate::normal`]):
/// `erf(y) = y·A(y²)/B(y²)` for `|y| ≤ 0.46875`, `erfc(|y|)·e^{y²} = C(|y|)/D(|y|)` up to 4
/// and `(1/√π − z·P(z)/Q(z))/|y|` with `z = 1/y²` beyond (rewritten over a common
/// denominator with the polynomials reversed in `y²`, so that each interval is one
/// quotient).
#[inline(always)]
fn erfc_parts<S: Simd>(x: V<S>) -> ErfcParts<S> {
    let y = x * -std::f64::consts::FRAC_1_SQRT_2;
    let ay = y.abs();
    let small = ay.le(x.constant(0.468_75));
    let middle = ay.le(x.constant(4.0));
    let z = y * y;
    let small_num = y * horner(z, [A[4], A[0], A[1], A[2], A[3]]);
    let small_den = horner(z, [1.0, B[0], B[1], B[2], B[3]]);
    let middle_num = horner(ay, [C[8], C[0], C[1], C[2], C[3], C[4], C[5], C[6], C[7]]);
    let middle_den = horner(ay, [1.0, D[0], D[1], D[2], D[3], D[4], D[5], D[6], D[7]]);
    // Beyond 26.543 the result is 0; clamping keeps the polynomials finite.
    let ay_tail = ay.min(x.constant(27.0));
    let w = ay_tail * ay_tail;
    let tail_num = horner(w, [P[4], P[3], P[2], P[1], P[0], P[5]]);
    let tail_den = w * horner(w, [Q[4], Q[3], Q[2], Q[1], Q[0], 1.0]);
    let large_num = tail_den * FRAC_1_SQRT_PI - tail_num;
    let large_den = tail_den * ay_tail;
    ErfcParts {
        small,
        negative: y.lt(x.constant(0.0)),
        live: ay.lt(x.constant(ERFC_UNDERFLOW)),
        numerator: small.select(small_num, middle.select(middle_num, large_num)),
        denominator: small.select(small_den, middle.select(middle_den, large_den)),
    }
}

/// `(Φ(x), Φ(−x))` from the finished quotient of [`erfc_parts`] and `e^{−x²/2}`, as
/// [`crate::normal`]'s `cdf_and_complement_with_gaussian` computes them.
#[inline(always)]
fn erfc_finish<S: Simd>(parts: &ErfcParts<S>, quotient: V<S>, gaussian: V<S>) -> (V<S>, V<S>) {
    let half = parts.live.select(0.5 * gaussian * quotient, quotient.constant(0.0));
    let upper = 1.0 - half;
    let p = parts.negative.select(upper, half);
    let q = parts.negative.select(half, upper);
    (parts.small.select(0.5 * (1.0 - quotient), p), parts.small.select(0.5 * (1.0 + quotient), q))
}

/// `(Φ(x), Φ(−x))`.
pub(crate) type CdfPair<S> = (V<S>, V<S>);

/// `((Φ(x1), Φ(−x1)), (Φ(x2), Φ(−x2)))` given `gaussian_k = e^{−x_k²/2}`: Cody's `erfc`
/// for both arguments with one division between them. Each result agrees with
/// `normal::cdf_and_complement_with_gaussian` to a few ulps (relative in either tail).
#[inline(always)]
pub(crate) fn cdf_pairs<S: Simd>(x1: V<S>, gaussian1: V<S>, x2: V<S>, gaussian2: V<S>) -> (CdfPair<S>, CdfPair<S>) {
    let first = erfc_parts(x1);
    let second = erfc_parts(x2);
    // Both denominators are between 1e3 and 1e16: their product neither overflows nor
    // underflows, so one reciprocal serves both quotients.
    let inverse = 1.0 / (first.denominator * second.denominator);
    let q1 = first.numerator * second.denominator * inverse;
    let q2 = second.numerator * first.denominator * inverse;
    (erfc_finish(&first, q1, gaussian1), erfc_finish(&second, q2, gaussian2))
}

/// A kernel to compile for each instruction set and run with the best one available.
pub(crate) trait Kernel {
    type Output;
    /// Runs the kernel; implementations must be `#[inline(always)]` (and so must all that
    /// they call) for the body to be compiled with the instruction set's features.
    fn run<S: Simd>(self, simd: S) -> Self::Output;
    /// The same with the scalar API, row by row: what [`dispatch`] runs where the CPU has
    /// no SIMD instruction set that `pulp` supports (one-lane vector code, branch-free,
    /// would be no faster than the scalar code).
    fn run_scalar(self) -> Self::Output;
}

struct Dispatched<K>(K);

impl<K: Kernel> pulp::WithSimd for Dispatched<K> {
    type Output = K::Output;
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> K::Output {
        if S::IS_SCALAR { self.0.run_scalar() } else { self.0.run(simd) }
    }
}

/// Runs `kernel` compiled for the best instruction set this CPU has (see the module
/// documentation).
#[inline]
pub(crate) fn dispatch<K: Kernel>(kernel: K) -> K::Output {
    pulp::Arch::new().dispatch(Dispatched(kernel))
}

/// Runs `kernel`'s vector code with a given instruction set (for tests of each of them,
/// the one-lane scalar set included).
#[cfg(test)]
pub(crate) fn run_on<S: Simd, K: Kernel>(simd: S, kernel: K) -> K::Output {
    struct Vector<K>(K);
    impl<K: Kernel> pulp::WithSimd for Vector<K> {
        type Output = K::Output;
        #[inline(always)]
        fn with_simd<S: Simd>(self, simd: S) -> K::Output {
            self.0.run(simd)
        }
    }
    simd.vectorize(Vector(kernel))
}

/// An instruction set a test can run a kernel with.
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(crate) enum InstructionSet {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

#[cfg(test)]
impl InstructionSet {
    /// Those this CPU has, the portable scalar one first.
    pub(crate) fn available() -> Vec<InstructionSet> {
        #[cfg_attr(not(target_arch = "x86_64"), expect(unused_mut, reason = "only x86-64 adds SIMD sets"))]
        let mut sets = vec![InstructionSet::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if pulp::x86::V3::try_new().is_some() {
                sets.push(InstructionSet::Avx2);
            }
            if pulp::x86::V4::try_new().is_some() {
                sets.push(InstructionSet::Avx512);
            }
        }
        sets
    }

    /// Runs `kernel` compiled for this instruction set.
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        match self {
            InstructionSet::Scalar => run_on(pulp::Scalar::new(), kernel),
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2 => match pulp::x86::V3::try_new() {
                Some(simd) => run_on(simd, kernel),
                None => unreachable!("AVX2 is not available"),
            },
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => match pulp::x86::V4::try_new() {
                Some(simd) => run_on(simd, kernel),
                None => unreachable!("AVX-512 is not available"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normal::{cdf, cdf_and_complement_with_gaussian};

    /// Applies a vector function to many scalars, one vector at a time, with every
    /// instruction set available.
    struct Each<'a, F> {
        xs: &'a [f64],
        f: F,
    }

    trait VectorFn {
        fn apply<S: Simd>(&self, x: V<S>) -> V<S>;
    }

    #[derive(Clone, Copy)]
    struct Exp;
    impl VectorFn for Exp {
        #[inline(always)]
        fn apply<S: Simd>(&self, x: V<S>) -> V<S> {
            exp(x)
        }
    }

    #[derive(Clone, Copy)]
    struct Ln;
    impl VectorFn for Ln {
        #[inline(always)]
        fn apply<S: Simd>(&self, x: V<S>) -> V<S> {
            ln(x)
        }
    }

    impl<F: VectorFn> Kernel for Each<'_, F> {
        type Output = Vec<f64>;
        fn run_scalar(self) -> Vec<f64> {
            unreachable!("tests run the vector code")
        }
        #[inline(always)]
        fn run<S: Simd>(self, simd: S) -> Vec<f64> {
            self.xs
                .chunks(lanes::<S>())
                .flat_map(|chunk| {
                    let mut buffer = [1.0; MAX_LANES];
                    buffer[..chunk.len()].copy_from_slice(chunk);
                    let y = self.f.apply(V::from_lanes(simd, &buffer)).to_lanes();
                    y[..chunk.len()].to_vec()
                })
                .collect()
        }
    }

    fn each<F: VectorFn>(set: InstructionSet, xs: &[f64], f: F) -> Vec<f64> {
        set.run(Each { xs, f })
    }

    fn ulps(a: f64, b: f64) -> f64 {
        if a == b {
            return 0.0;
        }
        (a - b).abs() / (f64::EPSILON * b.abs().max(f64::MIN_POSITIVE))
    }

    fn grid(lo: f64, hi: f64, n: usize) -> Vec<f64> {
        (0..=n).map(|i| lo + (hi - lo) * (i as f64) / (n as f64)).collect()
    }

    #[test]
    fn exp_matches_std_to_two_ulps() {
        let mut xs = grid(-708.0, 709.0, 200_000);
        let subnormal = grid(-745.0, -708.0, 10_000);
        xs.extend(grid(-1.0, 1.0, 20_001));
        xs.extend([0.0, -0.0, 1e-300, -1e-300, 0.346_573_590_279_972_6, -0.346_573_590_279_972_6]);
        for set in InstructionSet::available() {
            let got = each(set, &xs, Exp);
            let worst = xs.iter().zip(&got).map(|(&x, &g)| ulps(g, x.exp())).fold(0.0, f64::max);
            assert!(worst <= 2.0, "{set:?} exp: worst {worst} ulps");
            // Subnormal results: within two units of the smallest subnormal.
            for (&x, g) in subnormal.iter().zip(each(set, &subnormal, Exp)) {
                assert!((g - x.exp()).abs() <= 1e-323, "{set:?} exp({x}) = {g:e}");
            }
            let special = each(set, &[-746.0, -1e4, 710.0, f64::INFINITY, f64::NEG_INFINITY], Exp);
            assert_eq!(special, [0.0, 0.0, f64::INFINITY, f64::INFINITY, 0.0], "{set:?}");
            assert!(each(set, &[f64::NAN], Exp)[0].is_nan(), "{set:?}");
        }
    }

    #[test]
    fn ln_matches_std_to_one_ulp() {
        let mut xs: Vec<f64> = grid(-700.0, 700.0, 100_000).iter().map(|e| e.exp()).collect();
        xs.extend(grid(0.5, 2.0, 100_000));
        xs.extend(grid(1.0 - 1e-6, 1.0 + 1e-6, 10_000));
        xs.extend([1.0, f64::MIN_POSITIVE, 1e-310, 5e-324, f64::MAX, std::f64::consts::FRAC_1_SQRT_2, std::f64::consts::SQRT_2]);
        for set in InstructionSet::available() {
            let got = each(set, &xs, Ln);
            let worst = xs
                .iter()
                .zip(&got)
                .map(|(&x, &g)| {
                    // Near x = 1 compare absolutely, as ln's own accuracy is (|ln x| ≪ 1).
                    let expected = x.ln();
                    (g - expected).abs() / (f64::EPSILON * expected.abs().max(1.0))
                })
                .fold(0.0, f64::max);
            assert!(worst <= 1.0, "{set:?} ln: worst {worst} ulps");
            let special = each(set, &[0.0, f64::INFINITY], Ln);
            assert_eq!(special, [f64::NEG_INFINITY, f64::INFINITY], "{set:?}");
            assert!(each(set, &[-1.0], Ln)[0].is_nan(), "{set:?}");
            assert!(each(set, &[f64::NAN], Ln)[0].is_nan(), "{set:?}");
        }
    }

    /// `(Φ(a), Φ(−a), Φ(b), Φ(−b))` for pairs of arguments, with `cdf_pairs`.
    struct CdfPairs<'a> {
        a: &'a [f64],
        b: &'a [f64],
    }

    impl Kernel for CdfPairs<'_> {
        type Output = Vec<[f64; 4]>;
        fn run_scalar(self) -> Vec<[f64; 4]> {
            unreachable!("tests run the vector code")
        }
        #[inline(always)]
        fn run<S: Simd>(self, simd: S) -> Vec<[f64; 4]> {
            let mut out = Vec::with_capacity(self.a.len());
            for (a, b) in self.a.chunks(lanes::<S>()).zip(self.b.chunks(lanes::<S>())) {
                let (mut ba, mut bb) = ([0.0; MAX_LANES], [0.0; MAX_LANES]);
                ba[..a.len()].copy_from_slice(a);
                bb[..b.len()].copy_from_slice(b);
                let (va, vb) = (V::from_lanes(simd, &ba), V::from_lanes(simd, &bb));
                let ((pa, qa), (pb, qb)) = cdf_pairs(va, exp(-0.5 * va * va), vb, exp(-0.5 * vb * vb));
                let (pa, qa, pb, qb) = (pa.to_lanes(), qa.to_lanes(), pb.to_lanes(), qb.to_lanes());
                for lane in 0..a.len() {
                    out.push([pa[lane], qa[lane], pb[lane], qb[lane]]);
                }
            }
            out
        }
    }

    #[test]
    fn cdf_pairs_match_the_scalar_normal_distribution() {
        let mut a = grid(-40.0, 40.0, 160_000);
        a.extend(grid(-1.0, 1.0, 20_000));
        // Interval edges of Cody's approximation, in x = −√2·y.
        for edge in [0.46875, 4.0, 26.543] {
            let x = edge * std::f64::consts::SQRT_2;
            for k in -4..=4 {
                let v = x + f64::from(k) * 1e-15 * x;
                a.extend([v, -v]);
            }
        }
        // The second argument runs the other way, so that every pair of intervals meets.
        let b: Vec<f64> = a.iter().rev().map(|x| -0.75 * x).collect();
        for set in InstructionSet::available() {
            let got = set.run(CdfPairs { a: &a, b: &b });
            let mut worst: f64 = 0.0;
            for (i, r) in got.iter().enumerate() {
                for (x, p, q) in [(a[i], r[0], r[1]), (b[i], r[2], r[3])] {
                    let (ep, eq) = cdf_and_complement_with_gaussian(x, (-0.5 * x * x).exp());
                    // The same as the scalar to a few ulps, relative in each tail (where the
                    // exponential's own error, up to two ulps, is magnified by its slope).
                    let tolerance = 4.0 + 0.5 * x * x;
                    worst = worst.max(ulps(p, ep) / tolerance).max(ulps(q, eq) / tolerance);
                    assert!((p - cdf(x)).abs() <= 2e-16 + 1e-13 * cdf(x), "{set:?} Φ({x}) = {p}");
                }
            }
            assert!(worst <= 1.0, "{set:?} Φ: worst {worst} of tolerance");
        }
    }

    #[test]
    fn dispatch_runs_a_kernel() {
        struct Double(f64);
        impl Kernel for Double {
            type Output = f64;
            fn run_scalar(self) -> f64 {
                2.0 * self.0
            }
            #[inline(always)]
            fn run<S: Simd>(self, simd: S) -> f64 {
                (V::splat(simd, self.0) * 2.0).to_lanes()[0]
            }
        }
        assert_eq!(dispatch(Double(1.5)), 3.0);
        for set in InstructionSet::available() {
            assert_eq!(set.run(Double(1.5)), 3.0);
        }
    }
}
