//! American prices per second on one core (issue 28: at least 100,000), beside the European
//! formula; `make bench` also runs the peers' script with QuantLib's engines.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use strikeline_quant::american::American;
use strikeline_quant::american::tree::{Exercise, Lattice, binomial};
use strikeline_quant::{OptionInputs, OptionType};

fn cases() -> Vec<OptionInputs> {
    // A spread of moneyness, expiries and volatilities, deterministic.
    (0..64)
        .map(|i| {
            let f = f64::from(i) / 64.0;
            OptionInputs {
                spot: 60.0 + 80.0 * f,
                strike: 100.0,
                rate: 0.01 + 0.08 * ((7.0 * f) % 1.0),
                dividend_yield: 0.09 * ((3.0 * f) % 1.0),
                volatility: 0.1 + 0.8 * ((5.0 * f) % 1.0),
                time_to_expiry: 0.05 + 2.5 * ((11.0 * f) % 1.0),
            }
        })
        .collect()
}

fn american(c: &mut Criterion) {
    let inputs = cases();
    let engines: Vec<American> = inputs.iter().map(|i| American::new(*i).expect("valid")).collect();
    let mut group = c.benchmark_group("american");
    group.throughput(Throughput::Elements(engines.len() as u64));
    for kind in [OptionType::Put, OptionType::Call] {
        group.bench_with_input(BenchmarkId::new("alo", kind), &engines, |b, engines| {
            b.iter(|| engines.iter().map(|e| e.price(kind)).sum::<f64>());
        });
    }
    group.bench_with_input(BenchmarkId::new("european", "put"), &engines, |b, engines| {
        b.iter(|| engines.iter().map(|e| e.european().price(OptionType::Put)).sum::<f64>());
    });
    group.sample_size(10);
    group.bench_with_input(BenchmarkId::new("leisen-reimer-1001", "put"), &inputs, |b, inputs| {
        b.iter(|| {
            inputs
                .iter()
                .map(|i| binomial(OptionType::Put, *i, Lattice::LeisenReimer, 1001, Exercise::American, &[]).unwrap_or(0.0))
                .sum::<f64>()
        });
    });
    group.finish();
}

criterion_group!(benches, american);
criterion_main!(benches);
