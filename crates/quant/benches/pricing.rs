//! Throughput of pricing + Greeks and of implied volatility, over a batch of random
//! options (the same distribution as bench/peers/peers.py uses for NumPy), one core:
//! the scalar API over an array of structs (`value_into`, `implied_volatility_into`) and
//! the SIMD batch kernels over columns (`pricing::batch`, `iv::batch`).
//! Run: `cargo bench -p strikeline-quant --bench pricing`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strikeline_quant::iv::batch::IvBatchInputs;
use strikeline_quant::iv::{batch, implied_volatility_into};
use strikeline_quant::pricing::batch::{BatchInputs, BatchOutputs, price_greeks_into};
use strikeline_quant::pricing::value_into;
use strikeline_quant::{BlackScholes, IvError, IvInputs, OptionInputs, OptionType, Valuation};

const OPTIONS: usize = 100_000;

/// A small deterministic generator (no extra dependency).
struct Lcg(u64);
impl Lcg {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// S in [50, 150], K within ±30% of S, σ 10–80%, T from 1 day to 2 years, r 0–6%, q 0–3%.
fn options() -> Vec<BlackScholes> {
    let mut rng = Lcg(7);
    (0..OPTIONS)
        .map(|_| {
            let spot = rng.uniform(50.0, 150.0);
            BlackScholes::new(OptionInputs {
                spot,
                strike: spot * rng.uniform(0.7, 1.3),
                rate: rng.uniform(0.0, 0.06),
                dividend_yield: rng.uniform(0.0, 0.03),
                volatility: rng.uniform(0.1, 0.8),
                time_to_expiry: rng.uniform(1.0, 730.0) / 365.0,
            })
            .expect("valid inputs")
        })
        .collect()
}

fn pricing(c: &mut Criterion) {
    let options = options();
    let mut out = vec![Valuation::default(); options.len()];
    let mut group = c.benchmark_group("bsm");
    group.throughput(Throughput::Elements(options.len() as u64));
    group.bench_function("price_and_5_greeks/call", |b| {
        b.iter(|| {
            value_into(black_box(&options), OptionType::Call, &mut out);
            black_box(&out);
        });
    });
    group.bench_function("price_and_5_greeks/put", |b| {
        b.iter(|| {
            value_into(black_box(&options), OptionType::Put, &mut out);
            black_box(&out);
        });
    });

    // The same options as columns, through the SIMD batch kernel.
    let column = |f: fn(&OptionInputs) -> f64| options.iter().map(|o| f(&o.inputs())).collect::<Vec<f64>>();
    let (spot, strike, rate) = (column(|i| i.spot), column(|i| i.strike), column(|i| i.rate));
    let (dividend_yield, volatility, years) = (column(|i| i.dividend_yield), column(|i| i.volatility), column(|i| i.time_to_expiry));
    let batch_inputs = BatchInputs::new(&spot, &strike, &rate, &dividend_yield, &volatility, &years).expect("valid inputs");
    let mut columns = vec![vec![0.0; options.len()]; 6];
    for (name, kind) in [("call", OptionType::Call), ("put", OptionType::Put)] {
        group.bench_function(format!("price_and_5_greeks/batch_simd/{name}"), |b| {
            b.iter(|| {
                let [price, delta, gamma, vega, theta, rho] = &mut columns[..] else { unreachable!() };
                price_greeks_into(kind, black_box(&batch_inputs), &mut BatchOutputs { price, delta, gamma, vega, theta, rho });
                black_box(&columns);
            });
        });
    }
    group.finish();

    let inputs: Vec<IvInputs> = options
        .iter()
        .map(|o| {
            let i = o.inputs();
            IvInputs {
                price: o.price(OptionType::Call),
                spot: i.spot,
                strike: i.strike,
                rate: i.rate,
                dividend_yield: i.dividend_yield,
                time_to_expiry: i.time_to_expiry,
            }
        })
        .collect();
    let mut ivs: Vec<Result<f64, IvError>> = vec![Ok(0.0); inputs.len()];
    let mut group = c.benchmark_group("implied_volatility");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("call", |b| {
        b.iter(|| {
            implied_volatility_into(OptionType::Call, black_box(&inputs), &mut ivs);
            black_box(&ivs);
        });
    });
    let prices: Vec<f64> = inputs.iter().map(|i| i.price).collect();
    let iv_inputs = IvBatchInputs::new(&prices, &spot, &strike, &rate, &dividend_yield, &years).expect("same lengths");
    let mut sigmas = vec![0.0; prices.len()];
    group.bench_function("batch_simd/call", |b| {
        b.iter(|| {
            let failed = batch::implied_volatility_into(OptionType::Call, black_box(&iv_inputs), &mut sigmas);
            black_box((failed, &sigmas));
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = pricing
}
criterion_main!(benches);
