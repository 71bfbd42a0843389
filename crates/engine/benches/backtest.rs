//! Backtest throughput.
//!
//! - `backtest/four_strategies_50_symbols_10_years`: the options backtester
//!   (`strikeline_engine::backtest::run`) over 50 symbols × 2,520 daily bars (10 years of
//!   trading days), all four strategies, every open option marked with Black–Scholes on
//!   every bar. Target: under 1 s.
//! - `backtest/custom_rule_50_symbols_10_years`: the same market with a custom strategy alone
//!   (`strikeline_engine::custom`): RSI(14) below 35 and the close crossing above the lower
//!   Bollinger band, or the MACD histogram crossing above zero with EMA(20) above EMA(50); a
//!   call at 0.4 delta, +60 % / −40 %, held at most 15 days. The cost of the rule language
//!   against the built-in rules.
//! - `backtest/sma_crossover_100_symbols`: a plain long-only SMA(10/30) stock crossover
//!   over 100 symbols × 2,520 bars, reported in bars per second, to set beside vectorbt
//!   and backtesting.py (`bench/peers/sma_crossover.py` generates the very same series:
//!   same PRNG, same formulas).
//!
//! The series are geometric Brownian motions from a local PRNG (64-bit LCG + Box–Muller),
//! so the run is deterministic and needs no data files.
//!
//! Run: `cargo bench -p strikeline-engine --bench backtest -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::Duration;

use chrono::{Datelike, Days, NaiveDate, Weekday};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strikeline_engine::backtest::{BacktestConfig, SymbolSeries, run, sma_crossover};
use strikeline_engine::custom::{Condition, CustomStrategy, Direction, Exits, Indicator, Operand, StrikeRule};
use strikeline_engine::{DailyBar, SignalType, Strategy};

const YEARS_OF_BARS: usize = 2_520;
const OPTION_SYMBOLS: usize = 50;
const SMA_SYMBOLS: usize = 100;

/// The generator `bench/peers/sma_crossover.py` reproduces.
struct Lcg(u64);

impl Lcg {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// `n` weekdays from 2015-01-02.
fn trading_days(n: usize) -> Vec<NaiveDate> {
    let mut d = NaiveDate::from_ymd_opt(2015, 1, 2).unwrap_or_default();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if !matches!(d.weekday(), Weekday::Sat | Weekday::Sun) {
            out.push(d);
        }
        d = d + Days::new(1);
    }
    out
}

fn fridays(from: NaiveDate, min_days: u32) -> NaiveDate {
    let mut d = from + Days::new(u64::from(min_days));
    while d.weekday() != Weekday::Fri {
        d = d + Days::new(1);
    }
    d
}

/// GBM closes: per symbol a start price of 20–200, an annual volatility of 15–50% and a
/// 5% drift. Open = high = low = close (the crossover reads closes only).
fn sma_market() -> Vec<Vec<DailyBar>> {
    let dates = trading_days(YEARS_OF_BARS);
    let mut rng = Lcg(42);
    let dt: f64 = 1.0 / 252.0;
    (0..SMA_SYMBOLS)
        .map(|_| {
            let mut close = 20.0 + 180.0 * rng.uniform();
            let sigma = 0.15 + 0.35 * rng.uniform();
            let drift = (0.05 - 0.5 * sigma * sigma) * dt;
            let shock = sigma * dt.sqrt();
            dates
                .iter()
                .map(|&date| {
                    close *= (drift + shock * rng.normal()).exp();
                    DailyBar { date, open: close, high: close, low: close, close, volume: 1e6 }
                })
                .collect()
        })
        .collect()
}

/// GBM bars with OHLC and volume for the options backtest: per symbol a start price,
/// a base volatility that changes regime every ~6 months (calm, normal, wild: so that
/// volatility gets cheap against its own year), and the odd volume spike.
fn option_market() -> Vec<SymbolSeries> {
    let dates = trading_days(YEARS_OF_BARS);
    let mut rng = Lcg(7);
    let dt: f64 = 1.0 / 252.0;
    (0..OPTION_SYMBOLS)
        .map(|k| {
            let mut close = 20.0 + 380.0 * rng.uniform();
            let base = 0.15 + 0.30 * rng.uniform();
            let bars = dates
                .iter()
                .enumerate()
                .map(|(i, &date)| {
                    let regime = [0.5, 1.0, 1.8][(i / 126 + k) % 3];
                    let sigma = base * regime;
                    let open = close;
                    close *= ((0.06 - 0.5 * sigma * sigma) * dt + sigma * dt.sqrt() * rng.normal()).exp();
                    let daily = sigma * dt.sqrt();
                    let spike = if rng.uniform() < 0.03 { 3.0 } else { 1.0 };
                    DailyBar {
                        date,
                        open,
                        high: open.max(close) * (1.0 + 0.5 * daily * rng.uniform()),
                        low: open.min(close) * (1.0 - 0.5 * daily * rng.uniform()),
                        close,
                        volume: 1e6 * (0.5 + rng.uniform()) * spike,
                    }
                })
                .collect();
            SymbolSeries { symbol: format!("S{k:02}"), bars }
        })
        .collect()
}

/// The custom rule of the module documentation.
fn custom_rule() -> CustomStrategy {
    let now = Operand::now;
    let compare = |left, direction, right| Condition::Compare { left, direction, right };
    let crosses = |left, direction, right| Condition::Crosses { left, direction, right };
    CustomStrategy {
        entry: Condition::Any(vec![
            Condition::All(vec![
                compare(now(Indicator::Rsi14), Direction::Below, Operand::Number(35.0)),
                crosses(now(Indicator::Close), Direction::Above, now(Indicator::BollingerLower)),
            ]),
            Condition::All(vec![
                crosses(now(Indicator::MacdHistogram), Direction::Above, Operand::Number(0.0)),
                compare(now(Indicator::Ema20), Direction::Above, now(Indicator::Ema50)),
            ]),
        ]),
        opens: SignalType::Call,
        strike: StrikeRule::Delta(0.4),
        min_days: 30,
        monthly: false,
        exits: Exits { target_gain: 0.6, stop_loss: 0.4, max_days: Some(15) },
    }
}

fn bench_backtest(c: &mut Criterion) {
    let market = option_market();
    let first = market[0].bars[0].date;
    let last = market[0].bars[YEARS_OF_BARS - 1].date;
    // Every bar goes through the strategies; trades open once a symbol is warm (272 bars).
    // Capital enough that no proposal is skipped: every setup is traded and marked.
    let config = BacktestConfig { initial_capital: 1e9, ..BacktestConfig::new(first, last) };
    let sample = run(&config, &market, &fridays);
    let per_strategy: Vec<String> = sample.by_strategy.iter().map(|s| format!("{} {}", s.strategy, s.total_trades)).collect();
    eprintln!(
        "options backtest: {} symbols × {} bars = {} bars, {} trades ({}), {} option marks, {} skipped for capital, final equity {:.2}",
        OPTION_SYMBOLS,
        YEARS_OF_BARS,
        sample.bars_processed,
        sample.trades.len(),
        per_strategy.join(", "),
        sample.option_marks,
        sample.skipped_for_capital,
        sample.final_equity
    );

    let sma = sma_market();
    let bars_total = (SMA_SYMBOLS * YEARS_OF_BARS) as u64;
    let results: Vec<_> = sma.iter().map(|bars| sma_crossover(bars, 10, 30)).collect();
    let trades: usize = results.iter().map(|r| r.trades.len() + usize::from(r.open_position.is_some())).sum();
    let mean_return = results.iter().map(|r| r.total_return).sum::<f64>() / results.len() as f64;
    eprintln!(
        "SMA(10/30) crossover: {SMA_SYMBOLS} symbols × {YEARS_OF_BARS} bars, {trades} trades (open ones included), mean total return {mean_return:.6}, first close {:.6}",
        sma[0][0].close
    );

    let mut group = c.benchmark_group("backtest");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements((OPTION_SYMBOLS * YEARS_OF_BARS) as u64));
    group.bench_function("four_strategies_50_symbols_10_years", |b| {
        b.iter(|| black_box(run(black_box(&config), black_box(&market), &fridays)));
    });
    let custom = BacktestConfig { strategies: vec![Strategy::Custom], custom: Some(custom_rule()), ..config.clone() };
    let custom_sample = run(&custom, &market, &fridays);
    eprintln!("custom rule backtest: {} trades, final equity {:.2}", custom_sample.trades.len(), custom_sample.final_equity);
    group.bench_function("custom_rule_50_symbols_10_years", |b| {
        b.iter(|| black_box(run(black_box(&custom), black_box(&market), &fridays)));
    });
    group.throughput(Throughput::Elements(bars_total));
    group.sample_size(50);
    group.bench_function("sma_crossover_100_symbols", |b| {
        b.iter(|| black_box(&sma).iter().map(|bars| sma_crossover(bars, 10, 30).final_equity).sum::<f64>());
    });
    group.finish();
}

criterion_group!(benches, bench_backtest);
criterion_main!(benches);
