//! One full refresh of a 500-symbol universe: one new daily bar per symbol through every
//! indicator, all four strategies evaluated (and priced where they fire), 1,000 active
//! signals marked. The 300-bar warm-up of each symbol happens once, outside the measured
//! loop; each measured iteration refreshes a fresh clone of the warmed universe (the
//! clone is made in criterion's untimed setup).
//!
//! Run: `cargo bench -p strikeline-engine --bench refresh -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::Duration;

use chrono::{Datelike, Days, NaiveDate, Weekday};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use strikeline_engine::{ActiveSignal, Assumptions, DailyBar, OpenSignal, RefreshContext, SignalType, Strategy, Universe};

const SYMBOLS: usize = 500;
const WARM_UP: usize = 300;
const ACTIVE: usize = 1_000;

struct Lcg(u64);

impl Lcg {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 1, 2).unwrap_or_default()
}

fn fridays(from: NaiveDate, min_days: u32) -> NaiveDate {
    let mut d = from + Days::new(u64::from(min_days));
    while d.weekday() != Weekday::Fri {
        d = d + Days::new(1);
    }
    d
}

/// `WARM_UP + 1` bars per symbol: random walks with a per-symbol volatility and the odd
/// volume spike, so every strategy fires somewhere.
fn market() -> Vec<Vec<DailyBar>> {
    let mut rng = Lcg(42);
    (0..SYMBOLS)
        .map(|_| {
            let mut close = 10.0 + 490.0 * rng.uniform();
            let vol = 0.005 + 0.03 * rng.uniform();
            (0..=WARM_UP)
                .map(|i| {
                    let open = close;
                    close *= 1.0 + (rng.uniform() - 0.5) * 2.0 * vol * 1.7;
                    let spike = if rng.uniform() < 0.03 { 3.0 } else { 1.0 };
                    DailyBar {
                        date: start() + Days::new(i as u64),
                        open,
                        high: open.max(close) * (1.0 + rng.uniform() * vol * 0.5),
                        low: open.min(close) * (1.0 - rng.uniform() * vol * 0.5),
                        close,
                        volume: 1e6 * (0.5 + rng.uniform()) * spike,
                    }
                })
                .collect()
        })
        .collect()
}

fn bench_refresh(c: &mut Criterion) {
    let market = market();
    let names: Vec<String> = (0..SYMBOLS).map(|i| format!("S{i:03}")).collect();
    let mut universe = Universe::new(names);
    for (id, bars) in market.iter().enumerate() {
        universe.load_history(id, &bars[..WARM_UP]).unwrap_or_else(|e| panic!("warm-up of symbol {id}: {e}"));
    }
    let as_of = start() + Days::new(WARM_UP as u64);
    let new_bars: Vec<(usize, DailyBar)> = market.iter().enumerate().map(|(id, bars)| (id, bars[WARM_UP])).collect();
    let kinds = [SignalType::Call, SignalType::Put, SignalType::Straddle];
    let active: Vec<ActiveSignal> = (0..ACTIVE)
        .map(|i| {
            let id = i % SYMBOLS;
            let spot = market[id][WARM_UP - 1].close;
            ActiveSignal {
                symbol: id,
                signal: OpenSignal {
                    signal_type: kinds[i % 3],
                    strike: (spot / 5.0).round().max(1.0) * 5.0,
                    expiration: as_of + Days::new(5 + (i % 40) as u64),
                    entry_price: spot * 0.03,
                    target_price: spot * 0.05,
                    stop_loss: spot * 0.015,
                    volatility: 0.2 + 0.3 * (i % 7) as f64 / 7.0,
                },
            }
        })
        .collect();
    let ctx = RefreshContext { as_of, assumptions: Assumptions::default(), expiration: &fridays };

    let sample = universe.clone().refresh(&new_bars, &active, &ctx);
    let marked = sample.marks.iter().filter(|m| m.is_ok()).count();
    let per_strategy: Vec<String> = Strategy::ALL
        .iter()
        .map(|&s| {
            let n = sample.proposals.iter().filter(|p| p.proposal.strategy == s).count();
            format!("{s} {n}")
        })
        .collect();
    eprintln!(
        "refresh of {SYMBOLS} symbols: {} proposals ({}), {marked}/{ACTIVE} signals marked, {} bars refused",
        sample.proposals.len(),
        per_strategy.join(", "),
        sample.rejected.len()
    );

    let mut group = c.benchmark_group("refresh");
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("500_symbols_1000_active", |b| {
        b.iter_batched(|| universe.clone(), |mut fresh| black_box(fresh.refresh(&new_bars, &active, &ctx)), BatchSize::LargeInput);
    });
    // The intraday path: clone one warmed state and push today's partial bar into it.
    group.bench_function("clone_state_and_push_partial_bar", |b| {
        let state = universe.state(0);
        let partial = new_bars[0].1;
        b.iter(|| {
            let mut intraday = state.clone();
            black_box(intraday.update(black_box(&partial)))
        });
    });
    group.finish();
}

criterion_group!(benches, bench_refresh);
criterion_main!(benches);
