//! The SIMD batch kernels (`pricing::batch`, `iv::batch`) against the scalar API: the
//! published textbook values again, then properties over thousands of random batches
//! (proptest): every row of a batch agrees with the scalar result (price to 1e-12, Greeks to
//! 1e-10 relative, implied volatility to 1e-10 in σ), and the implied-volatility round trips
//! of tests/it/pricing.rs (deep strikes, one-day expiries, bounds) hold on the batch path
//! too.

#![expect(clippy::unwrap_used, reason = "tests")]

use proptest::prelude::*;
use strikeline_quant::iv::batch::{IvBatchInputs, implied_volatility_into};
use strikeline_quant::pricing::batch::{BatchError, BatchInputs, BatchOutputs, price_greeks_into};
use strikeline_quant::{BlackScholes, Field, InputError, IvInputs, OptionInputs, OptionType, Valuation, implied_volatility};

/// Rows as columns.
struct Columns {
    spot: Vec<f64>,
    strike: Vec<f64>,
    rate: Vec<f64>,
    dividend_yield: Vec<f64>,
    volatility: Vec<f64>,
    time_to_expiry: Vec<f64>,
}

impl Columns {
    fn of(rows: &[OptionInputs]) -> Self {
        let column = |f: fn(&OptionInputs) -> f64| rows.iter().map(f).collect();
        Columns {
            spot: column(|r| r.spot),
            strike: column(|r| r.strike),
            rate: column(|r| r.rate),
            dividend_yield: column(|r| r.dividend_yield),
            volatility: column(|r| r.volatility),
            time_to_expiry: column(|r| r.time_to_expiry),
        }
    }

    fn inputs(&self) -> Result<BatchInputs<'_>, BatchError> {
        BatchInputs::new(&self.spot, &self.strike, &self.rate, &self.dividend_yield, &self.volatility, &self.time_to_expiry)
    }

    fn iv_inputs<'a>(&'a self, prices: &'a [f64]) -> IvBatchInputs<'a> {
        IvBatchInputs::new(prices, &self.spot, &self.strike, &self.rate, &self.dividend_yield, &self.time_to_expiry).unwrap()
    }
}

/// Prices and Greeks of every row through the batch kernel.
fn batch_valuations(kind: OptionType, rows: &[OptionInputs]) -> Vec<Valuation> {
    let columns = Columns::of(rows);
    let inputs = columns.inputs().unwrap();
    let n = rows.len();
    let mut out = vec![vec![0.0; n]; 6];
    let [price, delta, gamma, vega, theta, rho] = &mut out[..] else { unreachable!() };
    price_greeks_into(kind, &inputs, &mut BatchOutputs { price, delta, gamma, vega, theta, rho });
    (0..n)
        .map(|i| Valuation {
            price: out[0][i],
            greeks: strikeline_quant::Greeks { delta: out[1][i], gamma: out[2][i], vega: out[3][i], theta: out[4][i], rho: out[5][i] },
        })
        .collect()
}

fn batch_valuation(kind: OptionType, row: OptionInputs) -> Valuation {
    batch_valuations(kind, &[row])[0]
}

/// Implied volatilities of every row through the batch kernel (NaN where none).
fn batch_ivs(kind: OptionType, rows: &[OptionInputs], prices: &[f64]) -> Vec<f64> {
    let columns = Columns::of(rows);
    let mut out = vec![0.0; rows.len()];
    let failed = implied_volatility_into(kind, &columns.iv_inputs(prices), &mut out);
    assert_eq!(failed, out.iter().filter(|s| s.is_nan()).count());
    out
}

fn row(spot: f64, strike: f64, rate: f64, dividend_yield: f64, volatility: f64, time_to_expiry: f64) -> OptionInputs {
    OptionInputs { spot, strike, rate, dividend_yield, volatility, time_to_expiry }
}

fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

#[test]
fn hull_and_haug_values_on_the_batch_path() {
    // Hull, example 15.6, and his Greeks example (chapter 19).
    let hull = row(42.0, 40.0, 0.10, 0.0, 0.20, 0.5);
    assert_eq!(rounded(batch_valuation(OptionType::Call, hull).price, 2), 4.76);
    assert_eq!(rounded(batch_valuation(OptionType::Put, hull).price, 2), 0.81);
    let g = batch_valuation(OptionType::Call, row(49.0, 50.0, 0.05, 0.0, 0.20, 0.3846)).greeks;
    assert_eq!(rounded(g.delta, 3), 0.522);
    assert_eq!(rounded(g.gamma, 3), 0.066);
    assert_eq!(rounded(g.vega, 1), 12.1);
    assert_eq!(rounded(g.theta, 2), -4.31);
    assert_eq!(rounded(g.rho, 2), 8.91);
    // Haug, chapters 1 and 2, all in one batch.
    let rows = [
        row(60.0, 65.0, 0.08, 0.0, 0.30, 0.25),
        row(100.0, 95.0, 0.10, 0.05, 0.20, 0.5),
        row(19.0, 19.0, 0.10, 0.10, 0.28, 0.75),
        row(1.56, 1.60, 0.06, 0.08, 0.12, 0.5),
        row(75.0, 70.0, 0.10, 0.05, 0.35, 0.5),
        row(105.0, 100.0, 0.10, 0.10, 0.36, 0.5),
        row(55.0, 60.0, 0.10, 0.0, 0.30, 0.75),
        row(430.0, 405.0, 0.07, 0.05, 0.20, 0.0833),
        row(72.0, 75.0, 0.09, 0.0, 0.19, 1.0),
    ];
    let calls = batch_valuations(OptionType::Call, &rows);
    let puts = batch_valuations(OptionType::Put, &rows);
    assert_eq!(rounded(calls[0].price, 4), 2.1334);
    assert_eq!(rounded(puts[1].price, 4), 2.4648);
    assert_eq!(rounded(calls[2].price, 4), 1.7011);
    assert_eq!(rounded(puts[2].price, 4), 1.7011);
    assert_eq!(rounded(calls[3].price, 4), 0.0291);
    assert_eq!(rounded(puts[4].price, 4), 4.0870);
    assert_eq!(rounded(calls[5].greeks.delta, 4), 0.5946);
    assert_eq!(rounded(puts[5].greeks.delta, 4), -0.3566);
    assert_eq!(rounded(calls[6].greeks.gamma, 4), 0.0278);
    assert_eq!(rounded(calls[6].greeks.vega, 4), 18.9358);
    assert_eq!(rounded(puts[7].greeks.theta, 4), -31.1924);
    assert_eq!(rounded(calls[8].greeks.rho, 4), 38.7325);
}

#[test]
fn expiry_and_invalid_rows() {
    let rows = [90.0, 100.0, 110.0].map(|spot| row(spot, 100.0, 0.05, 0.02, 0.3, 0.0));
    for kind in OptionType::ALL {
        for (r, v) in rows.iter().zip(batch_valuations(kind, &rows)) {
            assert_eq!(v, BlackScholes::new(*r).unwrap().valuation(kind), "{kind} {r:?}");
        }
    }
    let mut columns = Columns::of(&[row(100.0, 100.0, 0.05, 0.0, 0.2, 1.0); 40]);
    columns.volatility[37] = -0.2;
    assert!(matches!(
        columns.inputs(),
        Err(BatchError::Input { index: 37, error: InputError::NotPositive { field: Field::Volatility, .. } })
    ));
    columns.volatility[37] = 0.2;
    columns.time_to_expiry[3] = f64::NAN;
    assert!(matches!(
        columns.inputs(),
        Err(BatchError::Input { index: 3, error }) if error.field() == Field::TimeToExpiry
    ));
    columns.time_to_expiry.pop();
    assert_eq!(columns.inputs().unwrap_err(), BatchError::LengthMismatch { field: Field::TimeToExpiry, expected: 40, found: 39 });
}

#[test]
fn rows_without_an_implied_volatility_are_nan() {
    let base = row(100.0, 100.0, 0.0, 0.0, 0.2, 1.0);
    let rows = [base, OptionInputs { time_to_expiry: 0.0, ..base }, OptionInputs { spot: -1.0, ..base }, base, base];
    let prices = [7.965_567_455_405_804, 1.0, 5.0, 150.0, -1.0];
    let ivs = batch_ivs(OptionType::Call, &rows, &prices);
    assert!((ivs[0] - 0.2).abs() < 1e-12);
    assert!(ivs[1..].iter().all(|s| s.is_nan()), "{ivs:?}");
    let columns = Columns::of(&rows);
    let inputs = columns.iv_inputs(&prices);
    for (i, sigma) in ivs.iter().enumerate() {
        assert_eq!(sigma.is_nan(), implied_volatility(OptionType::Call, inputs.get(i).unwrap()).is_err());
    }
}

/// The benchmark's options (benches/pricing.rs, bench/peers/peers.py): S 50–150, K within
/// ±30% of S, σ 10–80%, T one day to two years, r 0–6%, q 0–3%.
fn benchmark_options(n: usize) -> Vec<OptionInputs> {
    let mut state = 7u64;
    let mut uniform = |lo: f64, hi: f64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    };
    (0..n)
        .map(|_| {
            let spot = uniform(50.0, 150.0);
            OptionInputs {
                spot,
                strike: spot * uniform(0.7, 1.3),
                rate: uniform(0.0, 0.06),
                dividend_yield: uniform(0.0, 0.03),
                volatility: uniform(0.1, 0.8),
                time_to_expiry: uniform(1.0, 730.0) / 365.0,
            }
        })
        .collect()
}

#[test]
fn benchmark_workload_agrees_with_the_scalar_api() {
    let rows = benchmark_options(20_000);
    let (mut price, mut greek, mut sigma) = (0.0_f64, 0.0_f64, 0.0_f64);
    for k in OptionType::ALL {
        let got = batch_valuations(k, &rows);
        let prices: Vec<f64> = got.iter().map(|v| v.price).collect();
        let ivs = batch_ivs(k, &rows, &prices);
        for ((r, v), iv) in rows.iter().zip(&got).zip(&ivs) {
            let model = BlackScholes::new(*r).unwrap();
            let e = model.valuation(k);
            price = price.max((v.price - e.price).abs());
            for (g, x) in [
                (v.greeks.delta, e.greeks.delta),
                (v.greeks.gamma, e.greeks.gamma),
                (v.greeks.vega, e.greeks.vega),
                (v.greeks.theta, e.greeks.theta),
                (v.greeks.rho, e.greeks.rho),
            ] {
                if x.abs() > 1e-300 && k != OptionType::Straddle {
                    greek = greek.max(((g - x) / x).abs());
                }
            }
            let scalar = implied_volatility(
                k,
                IvInputs {
                    price: v.price,
                    spot: r.spot,
                    strike: r.strike,
                    rate: r.rate,
                    dividend_yield: r.dividend_yield,
                    time_to_expiry: r.time_to_expiry,
                },
            );
            if well_determined(r, e.greeks.vega) {
                sigma = sigma.max((iv - scalar.unwrap()).abs()).max((iv - r.volatility).abs());
            }
        }
    }
    eprintln!(
        "benchmark workload, batch vs scalar: price {price:.1e} absolute, Greeks {greek:.1e} relative (calls and puts), σ {sigma:.1e}"
    );
    assert!(price <= 1e-12 && greek <= 1e-10 && sigma <= 1e-10);
}

/// Random but sensible market inputs, as in tests/it/pricing.rs: S in [1, 1000], K within
/// e^{±1} of S, σ from 1% to 200%, T from one day to 5 years, r from −2% to 15%, q from 0
/// to 10%.
fn market() -> impl Strategy<Value = OptionInputs> {
    (1.0f64..1000.0, -1.0f64..1.0, 0.01f64..2.0, 1.0f64..1826.0, -0.02f64..0.15, 0.0f64..0.10).prop_map(
        |(spot, log_moneyness, volatility, days, rate, dividend_yield)| OptionInputs {
            spot,
            strike: spot * log_moneyness.exp(),
            rate,
            dividend_yield,
            volatility,
            time_to_expiry: days / 365.0,
        },
    )
}

/// Batches of 1 to 40 rows: shorter and longer than one vector, with a ragged tail.
fn batch() -> impl Strategy<Value = Vec<OptionInputs>> {
    prop::collection::vec(market(), 1..40)
}

fn kind() -> impl Strategy<Value = OptionType> {
    prop_oneof![Just(OptionType::Call), Just(OptionType::Put), Just(OptionType::Straddle)]
}

/// Whether σ is determined by the price to better than 1e-11 (see tests/it/pricing.rs: the
/// price is known to about one rounding of S + K, which fixes σ to that over vega).
fn well_determined(inputs: &OptionInputs, vega: f64) -> bool {
    4.0 * f64::EPSILON * (inputs.spot + inputs.strike) / vega < 1e-11
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn batch_prices_and_greeks_match_the_scalar_api(rows in batch(), k in kind()) {
        let got = batch_valuations(k, &rows);
        for (r, v) in rows.iter().zip(&got) {
            let model = BlackScholes::new(*r).unwrap();
            let expected = model.valuation(k);
            // 1e-12 absolute for prices up to about 100 (S + K ≤ 200); beyond, prices of
            // hundreds or thousands are known to a few ulps of S + K, so 5e-15 of that.
            let price_tolerance = 1e-12_f64.max(5e-15 * (r.spot + r.strike));
            prop_assert!((v.price - expected.price).abs() <= price_tolerance, "price {} vs {} for {k} {r:?}", v.price, expected.price);
            // Greeks agree to 1e-10 relative. Where a Greek is a sum of terms that cancel (a
            // straddle's delta and rho, call plus put; theta, the time decay against the
            // carry terms) "relative" is to the size of those terms, which is what rounding
            // (in either implementation) is relative to. Subnormal values (below 2.2e-308)
            // carry fewer significant bits and are compared absolutely.
            let (call, put) = (model.greeks(OptionType::Call), model.greeks(OptionType::Put));
            let legs = if k == OptionType::Straddle { 2.0 } else { 1.0 };
            let theta_terms = legs * (call.vega * r.volatility / (2.0 * r.time_to_expiry)
                + r.rate.abs() * r.strike * (-r.rate * r.time_to_expiry).exp()
                + r.dividend_yield.abs() * r.spot * (-r.dividend_yield * r.time_to_expiry).exp());
            let checks = [
                ("delta", v.greeks.delta, expected.greeks.delta, call.delta.abs() + put.delta.abs()),
                ("gamma", v.greeks.gamma, expected.greeks.gamma, expected.greeks.gamma.abs()),
                ("vega", v.greeks.vega, expected.greeks.vega, expected.greeks.vega.abs()),
                ("theta", v.greeks.theta, expected.greeks.theta, theta_terms),
                ("rho", v.greeks.rho, expected.greeks.rho, call.rho.abs() + put.rho.abs()),
            ];
            for (name, got, expected, scale) in checks {
                let scale = if k == OptionType::Straddle || name == "theta" { scale } else { expected.abs() };
                prop_assert!((got - expected).abs() <= 1e-10 * scale + f64::MIN_POSITIVE, "{name} {got} vs {expected} for {k} {r:?}");
            }
        }
    }

    #[test]
    fn batch_implied_volatilities_round_trip_and_match_the_scalar_solver(rows in batch(), k in kind()) {
        let prices: Vec<f64> = rows.iter().map(|r| BlackScholes::new(*r).unwrap().price(k)).collect();
        let ivs = batch_ivs(k, &rows, &prices);
        for ((r, &price), &sigma) in rows.iter().zip(&prices).zip(&ivs) {
            let vega = BlackScholes::new(*r).unwrap().valuation(k).greeks.vega;
            let scalar = implied_volatility(k, IvInputs { price, spot: r.spot, strike: r.strike, rate: r.rate, dividend_yield: r.dividend_yield, time_to_expiry: r.time_to_expiry });
            if well_determined(r, vega) {
                prop_assert!((sigma - r.volatility).abs() <= 1e-10, "σ {} recovered as {sigma} for {k} {r:?}", r.volatility);
                prop_assert!((sigma - scalar.unwrap()).abs() <= 1e-10, "batch {sigma} vs scalar {scalar:?}");
            } else if sigma.is_finite() {
                // Vega is negligible: σ is not determined by the price, but repricing at the
                // answer must give the price back.
                let repriced = BlackScholes::new(OptionInputs { volatility: sigma, ..*r }).unwrap().price(k);
                prop_assert!((repriced - price).abs() <= 1e-12 * (r.spot + r.strike));
            }
        }
    }

    #[test]
    fn batch_implied_volatility_for_one_day_and_deep_strikes(
        cases in prop::collection::vec((10.0f64..500.0, prop_oneof![-0.6f64..-0.2, 0.2f64..0.6], 0.05f64..3.0, 1u32..10), 1..40),
        k in kind(),
    ) {
        let rows: Vec<OptionInputs> = cases.iter().map(|&(spot, log_moneyness, volatility, days)| OptionInputs {
            spot, strike: spot * log_moneyness.exp(), rate: 0.04, dividend_yield: 0.01, volatility, time_to_expiry: f64::from(days) / 365.0,
        }).collect();
        let prices: Vec<f64> = rows.iter().map(|r| BlackScholes::new(*r).unwrap().price(k)).collect();
        let ivs = batch_ivs(k, &rows, &prices);
        for ((r, &price), &sigma) in rows.iter().zip(&prices).zip(&ivs) {
            let vega = BlackScholes::new(*r).unwrap().valuation(k).greeks.vega;
            if well_determined(r, vega) {
                prop_assert!((sigma - r.volatility).abs() <= 1e-10, "σ {} recovered as {sigma} for {k} {r:?}", r.volatility);
            } else if sigma.is_finite() {
                let repriced = BlackScholes::new(OptionInputs { volatility: sigma, ..*r }).unwrap().price(k);
                prop_assert!((repriced - price).abs() <= 1e-12 * (r.spot + r.strike));
            }
        }
    }

    #[test]
    fn batch_prices_outside_the_bounds_have_no_implied_volatility(rows in batch(), k in kind(), excess in 1e-6f64..10.0) {
        let bounds: Vec<(f64, f64)> = rows.iter().map(|r| {
            let t = r.time_to_expiry;
            let spot_df = r.spot * (-r.dividend_yield * t).exp();
            let strike_df = r.strike * (-r.rate * t).exp();
            match k {
                OptionType::Call => ((spot_df - strike_df).max(0.0), spot_df),
                OptionType::Put => ((strike_df - spot_df).max(0.0), strike_df),
                OptionType::Straddle => ((spot_df - strike_df).abs(), spot_df + strike_df),
            }
        }).collect();
        let above: Vec<f64> = bounds.iter().map(|b| b.1 * (1.0 + excess)).collect();
        let below: Vec<f64> = bounds.iter().map(|b| b.0 - excess).collect();
        prop_assert!(batch_ivs(k, &rows, &above).iter().all(|s| s.is_nan()));
        prop_assert!(batch_ivs(k, &rows, &below).iter().all(|s| s.is_nan()));
    }
}
