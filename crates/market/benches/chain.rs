//! The simulated market's option chain (docs/options.md): one expiration as the chain screen
//! asks for it, the whole chain, and the implied-volatility recorder's reading (two
//! expirations either side of 30 days, strikes near the money, then the interpolation).

use chrono::{Days, NaiveDate, TimeZone, Utc};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strikeline_market::SimulatedMarket;
use strikeline_market::options::{ChainQuery, constant_maturity_atm, listed_expirations};

fn chain(c: &mut Criterion) {
    let market = SimulatedMarket::new(20_140_102);
    let at = Utc.with_ymd_and_hms(2026, 3, 10, 20, 0, 0).single().expect("an instant");
    let today = NaiveDate::from_ymd_opt(2026, 3, 10).expect("a date");
    let listed = listed_expirations(market.calendar(), today);
    let month = *listed.iter().find(|e| (**e - today).num_days() >= 28).expect("a month out");
    let spot = market.quote("AAPL", at).expect("a quote").price;

    let mut group = c.benchmark_group("option_chain");
    let one = ChainQuery::expiration(month);
    let contracts = market.option_chain("AAPL", &one, at).expect("a chain").contracts.len();
    group.throughput(Throughput::Elements(contracts as u64));
    group.bench_function(format!("one_expiration_{contracts}_contracts"), |b| b.iter(|| market.option_chain("AAPL", &one, at)));

    let whole = ChainQuery::default();
    let contracts = market.option_chain("AAPL", &whole, at).expect("a chain").contracts.len();
    group.throughput(Throughput::Elements(contracts as u64));
    group.sample_size(10);
    group.bench_function(format!("whole_chain_{contracts}_contracts"), |b| b.iter(|| market.option_chain("AAPL", &whole, at)));

    let reading = ChainQuery {
        expiration_from: listed.iter().rev().find(|e| **e <= today + Days::new(30)).copied(),
        expiration_to: listed.iter().find(|e| **e >= today + Days::new(30)).copied(),
        strike_from: Some(spot * 0.95),
        strike_to: Some(spot * 1.05),
    };
    group.throughput(Throughput::Elements(1));
    group.sample_size(50);
    group.bench_function("atm_30_day_reading", |b| {
        b.iter(|| {
            let chain = market.option_chain("AAPL", &reading, at).expect("a chain");
            constant_maturity_atm(&chain, today, 30).expect("a reading")
        });
    });
    group.finish();
}

criterion_group!(benches, chain);
criterion_main!(benches);
