//! Throughput of RSI(14), EMA(20), Bollinger(20, 2), MACD(12, 26, 9) and ATR(14) together
//! over 1,000 symbols × 2,520 daily bars (ten years), and of each alone, the workload
//! bench/peers/peers.py gives TA-Lib. Run: `cargo bench -p strikeline-quant --bench indicators`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strikeline_quant::indicators::{Atr, Bar, Bollinger, Ema, IndicatorSet, IndicatorValues, Macd, Next, Rsi};

const SYMBOLS: usize = 1_000;
const BARS: usize = 2_520;

fn market() -> Vec<Vec<Bar>> {
    let mut state: u64 = 11;
    let mut uniform = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..SYMBOLS)
        .map(|_| {
            let mut close = 20.0 + 200.0 * uniform();
            (0..BARS)
                .map(|_| {
                    let open = close * (1.0 + (uniform() - 0.5) * 0.01);
                    close *= 1.0 + (uniform() - 0.5) * 0.04;
                    let high = open.max(close) * (1.0 + uniform() * 0.01);
                    let low = open.min(close) * (1.0 - uniform() * 0.01);
                    Bar { open, high, low, close, volume: 1e6 * (1.0 + uniform()) }
                })
                .collect()
        })
        .collect()
}

fn indicators(c: &mut Criterion) {
    let market = market();
    let mut out = vec![IndicatorValues::default(); BARS];
    let mut group = c.benchmark_group("indicators_1000x2520");
    group.throughput(Throughput::Elements((SYMBOLS * BARS) as u64));
    group.sample_size(10);
    group.bench_function("rsi+ema+bbands+macd+atr", |b| {
        b.iter(|| {
            for bars in &market {
                let mut set = IndicatorSet::standard();
                set.compute_into(black_box(bars), &mut out);
                black_box(&out);
            }
        });
    });
    macro_rules! alone {
        ($name:literal, $make:expr) => {
            group.bench_function($name, |b| {
                b.iter(|| {
                    for bars in &market {
                        let mut indicator = $make;
                        for bar in bars {
                            black_box(indicator.next(black_box(bar)));
                        }
                    }
                });
            });
        };
    }
    alone!("rsi", Rsi::new(14).expect("period"));
    alone!("ema", Ema::new(20).expect("period"));
    alone!("bbands", Bollinger::new(20, 2.0).expect("period"));
    alone!("macd", Macd::new(12, 26, 9).expect("period"));
    alone!("atr", Atr::new(14).expect("period"));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = indicators
}
criterion_main!(benches);
