//! Indicators against independent, naive implementations, plus one contract test run
//! over every indicator.
//!
//! The naive versions below recompute each value at bar `t` from the whole input slice
//! `x[..=t]` with the textbook formula, written differently from the streaming code:
//! windows are slices summed afresh, standard deviations are two-pass, EMAs are closed-form
//! weighted sums (`seed·(1−α)^k + Σ α(1−α)^j x_{t−j}`), Wilder averages use the
//! "add (new − old)/n" form. They share no code with the crate, so agreement (to 1e-9
//! relative: the two orders of floating-point operations differ) checks the formulas,
//! the seeding and the lookback.

use std::fmt::{Debug, Display};

use strikeline_quant::indicators::{
    Atr, Bar, Bollinger, Ema, HighestHigh, HistoricalVolatility, IndicatorSet, IvPercentile, IvRank, LowestLow, Macd, Next, Reset, Rsi,
    Sma, VolumeAverage,
};

/// A deterministic, bumpy OHLCV series with a flat stretch.
fn bars(n: usize, seed: u64) -> Vec<Bar> {
    let mut state = seed;
    let mut uniform = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut close: f64 = 50.0;
    (0..n)
        .map(|i| {
            if (40..50).contains(&i) {
                return Bar { open: close, high: close, low: close, close, volume: 1000.0 };
            }
            let open = close * (1.0 + (uniform() - 0.5) * 0.01);
            close = (close * (1.0 + (uniform() - 0.5) * 0.04)).max(1.0);
            let high = open.max(close) * (1.0 + uniform() * 0.01);
            let low = open.min(close) * (1.0 - uniform() * 0.01);
            Bar { open, high, low, close, volume: 1000.0 + uniform() * 500.0 }
        })
        .collect()
}

fn close_enough(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn assert_series(name: &str, ours: &[Option<f64>], naive: &[Option<f64>]) {
    for (t, (a, b)) in ours.iter().zip(naive).enumerate() {
        match (a, b) {
            (None, None) => {}
            (Some(a), Some(b)) if close_enough(*a, *b) => {}
            _ => panic!("{name} at bar {t}: streaming {a:?}, naive {b:?}"),
        }
    }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn naive_sma(x: &[f64], n: usize) -> Vec<Option<f64>> {
    (0..x.len()).map(|t| (t + 1 >= n).then(|| mean(&x[t + 1 - n..=t]))).collect()
}

/// EMA seeded with the mean of `x[start+1−n ..= start]` at bar `start`, in closed form.
fn naive_ema_from(x: &[f64], n: usize, start: usize) -> Vec<Option<f64>> {
    let alpha = 2.0 / (n as f64 + 1.0);
    let seed = mean(&x[start + 1 - n..=start]);
    (0..x.len())
        .map(|t| {
            (t >= start).then(|| {
                let k = (t - start) as i32;
                let mut value = seed * (1.0 - alpha).powi(k);
                for j in 0..k {
                    value += alpha * (1.0 - alpha).powi(j) * x[t - j as usize];
                }
                value
            })
        })
        .collect()
}

fn naive_wilder(values: &[f64], n: usize, first: usize) -> Vec<Option<f64>> {
    // values[i] defined for i ≥ 1; the first average is the mean of values[1..=n] at bar `first` = n.
    let mut out = vec![None; values.len()];
    if values.len() <= first {
        return out;
    }
    let mut average = mean(&values[1..=n]);
    out[first] = Some(average);
    for t in first + 1..values.len() {
        average += (values[t] - average) / n as f64;
        out[t] = Some(average);
    }
    out
}

fn naive_rsi(x: &[f64], n: usize) -> Vec<Option<f64>> {
    let gains: Vec<f64> = (0..x.len()).map(|t| if t == 0 { 0.0 } else { (x[t] - x[t - 1]).max(0.0) }).collect();
    let losses: Vec<f64> = (0..x.len()).map(|t| if t == 0 { 0.0 } else { (x[t - 1] - x[t]).max(0.0) }).collect();
    let g = naive_wilder(&gains, n, n);
    let l = naive_wilder(&losses, n, n);
    g.iter()
        .zip(&l)
        .map(|(g, l)| match (g, l) {
            (Some(g), Some(l)) => Some(if g + l < 1e-8 { 0.0 } else { 100.0 * g / (g + l) }),
            _ => None,
        })
        .collect()
}

fn naive_atr(bars: &[Bar], n: usize) -> Vec<Option<f64>> {
    let tr: Vec<f64> = (0..bars.len())
        .map(|t| {
            if t == 0 {
                return 0.0;
            }
            let (h, l, pc) = (bars[t].high, bars[t].low, bars[t - 1].close);
            h.max(pc) - l.min(pc)
        })
        .collect();
    naive_wilder(&tr, n, n)
}

#[test]
fn sma_ema_and_volume_average_match_naive_formulas() {
    let bars = bars(300, 7);
    let closes: Vec<f64> = bars.iter().map(|b| b.close).collect();
    let volumes: Vec<f64> = bars.iter().map(|b| b.volume).collect();
    for n in [1, 2, 5, 20, 50] {
        let mut sma = Sma::new(n).unwrap();
        assert_series("SMA", &closes.iter().map(|&c| sma.next(c)).collect::<Vec<_>>(), &naive_sma(&closes, n));
        let mut ema = Ema::new(n).unwrap();
        let naive: Vec<_> = naive_ema_from(&closes, n, n - 1);
        assert_series("EMA", &closes.iter().map(|&c| ema.next(c)).collect::<Vec<_>>(), &naive);
        let mut avg = VolumeAverage::new(n).unwrap();
        assert_series("VolumeAverage", &bars.iter().map(|b| avg.next(b)).collect::<Vec<_>>(), &naive_sma(&volumes, n));
    }
}

#[test]
fn rsi_and_atr_match_naive_wilder_averages() {
    let bars = bars(300, 11);
    let closes: Vec<f64> = bars.iter().map(|b| b.close).collect();
    for n in [1, 2, 14, 30] {
        let mut rsi = Rsi::new(n).unwrap();
        assert_series("RSI", &closes.iter().map(|&c| rsi.next(c)).collect::<Vec<_>>(), &naive_rsi(&closes, n));
        let mut atr = Atr::new(n).unwrap();
        assert_series("ATR", &bars.iter().map(|b| atr.next(b)).collect::<Vec<_>>(), &naive_atr(&bars, n));
    }
}

#[test]
fn macd_matches_naive_emas_with_talib_seeding() {
    let bars = bars(200, 3);
    let x: Vec<f64> = bars.iter().map(|b| b.close).collect();
    for (fast, slow, signal) in [(12, 26, 9), (3, 10, 4), (5, 5, 1)] {
        let fast_ema = naive_ema_from(&x, fast, slow - 1);
        let slow_ema = naive_ema_from(&x, slow, slow - 1);
        let line: Vec<f64> = (0..x.len()).map(|t| if t + 1 >= slow { fast_ema[t].unwrap() - slow_ema[t].unwrap() } else { 0.0 }).collect();
        let signal_line = naive_ema_from(&line, signal, slow - 1 + signal - 1);
        let mut macd = Macd::new(fast, slow, signal).unwrap();
        for (t, bar) in bars.iter().enumerate() {
            let ours = macd.next(bar);
            match (ours, signal_line[t]) {
                (None, None) => {}
                (Some(v), Some(s)) => {
                    assert!(close_enough(v.macd, line[t]), "MACD line at {t}");
                    assert!(close_enough(v.signal, s), "signal at {t}");
                    assert!(close_enough(v.histogram, line[t] - s), "histogram at {t}");
                }
                (a, b) => panic!("MACD({fast}, {slow}, {signal}) at {t}: {a:?} vs {b:?}"),
            }
        }
    }
}

#[test]
fn bollinger_matches_two_pass_population_deviation() {
    // Prices drifting far from where they started stress the running sums.
    let mut series: Vec<f64> = bars(400, 5).iter().map(|b| b.close).collect();
    series.extend((0..400).map(|i| 1000.0 + f64::from(i) * 3.0 + (f64::from(i) * 0.7).sin()));
    for (n, k) in [(20, 2.0), (5, 1.5), (1, 2.0)] {
        let mut bb = Bollinger::new(n, k).unwrap();
        for (t, &x) in series.iter().enumerate() {
            let ours = bb.next(x);
            if t + 1 < n {
                assert_eq!(ours, None);
                continue;
            }
            let window = &series[t + 1 - n..=t];
            let m = mean(window);
            let variance = window.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n as f64;
            let sd = if variance < 1e-8 { 0.0 } else { variance.sqrt() };
            let b = ours.unwrap();
            assert!(close_enough(b.middle, m), "middle at {t}");
            assert!((b.upper - (m + k * sd)).abs() <= 1e-9 * m, "upper at {t}: {} vs {}", b.upper, m + k * sd);
            assert!((b.lower - (m - k * sd)).abs() <= 1e-9 * m, "lower at {t}");
        }
    }
}

#[test]
fn extremes_historical_volatility_and_iv_statistics_match_slices() {
    let bars = bars(600, 9);
    let closes: Vec<f64> = bars.iter().map(|b| b.close).collect();
    for n in [1, 3, 20] {
        let mut hh = HighestHigh::new(n).unwrap();
        let mut ll = LowestLow::new(n).unwrap();
        for (t, bar) in bars.iter().enumerate() {
            let (h, l) = (hh.next(bar), ll.next(bar));
            if t + 1 < n {
                assert_eq!((h, l), (None, None));
            } else {
                let w = &bars[t + 1 - n..=t];
                assert_eq!(h, Some(w.iter().map(|b| b.high).fold(f64::MIN, f64::max)));
                assert_eq!(l, Some(w.iter().map(|b| b.low).fold(f64::MAX, f64::min)));
            }
        }
    }
    for n in [2, 20] {
        let mut hv = HistoricalVolatility::new(n).unwrap();
        for (t, &c) in closes.iter().enumerate() {
            let ours = hv.next(c);
            if t < n {
                assert_eq!(ours, None);
                continue;
            }
            let r: Vec<f64> = (t + 1 - n..=t).map(|i| (closes[i] / closes[i - 1]).ln()).collect();
            let m = mean(&r);
            let sample_var = r.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1) as f64;
            assert!(close_enough(ours.unwrap(), (sample_var * 252.0).sqrt()), "HV at {t}");
        }
    }
    // Implied volatility series: a slow oscillation with repeats.
    let iv: Vec<f64> = (0..600).map(|i| 0.2 + 0.1 * (f64::from(i) * 0.05).sin().round() / 2.0 + 0.01 * f64::from(i % 7)).collect();
    for n in [2, 10, 252] {
        let mut rank = IvRank::new(n).unwrap();
        let mut pct = IvPercentile::new(n).unwrap();
        for (t, &v) in iv.iter().enumerate() {
            let (r, p) = (rank.next(v), pct.next(v));
            if t + 1 < n {
                assert_eq!((r, p), (None, None));
                continue;
            }
            let w = &iv[t + 1 - n..=t];
            let (lo, hi) = (w.iter().copied().fold(f64::MAX, f64::min), w.iter().copied().fold(f64::MIN, f64::max));
            assert_eq!(r, (hi > lo).then(|| 100.0 * (v - lo) / (hi - lo)), "IV rank at {t}");
            let below = w[..n - 1].iter().filter(|&&x| x < v).count();
            assert_eq!(p, Some(100.0 * below as f64 / (n - 1) as f64), "IV percentile at {t}");
        }
    }
}

#[test]
fn periods_of_zero_are_rejected() {
    assert!(Sma::new(0).is_err());
    assert!(Ema::new(0).is_err());
    assert!(Rsi::new(0).is_err());
    assert!(Macd::new(0, 26, 9).is_err());
    assert!(Macd::new(12, 0, 9).is_err());
    assert!(Macd::new(12, 26, 0).is_err());
    assert!(Bollinger::new(0, 2.0).is_err());
    assert!(Bollinger::new(20, 0.0).is_err());
    assert!(Atr::new(0).is_err());
    assert!(HighestHigh::new(0).is_err());
    assert!(LowestLow::new(0).is_err());
    assert!(VolumeAverage::new(0).is_err());
    assert!(HistoricalVolatility::new(0).is_err());
    assert!(IvRank::new(0).is_err());
    assert!(IvPercentile::new(0).is_err());
}

/// The contract every indicator keeps:
/// 1. `reset` returns it to its initial state: a second run after `reset` reproduces the
///    first run exactly;
/// 2. no look-ahead: the value at bar `t` is the same whatever bars come after `t`;
/// 3. it displays its parameters, e.g. `RSI(14)`.
fn check_contract<I, O>(name: &str, make: impl Fn() -> I, step: impl Fn(&mut I, &Bar) -> O)
where
    I: Reset + Display,
    O: PartialEq + Debug,
{
    let series = bars(320, 42);
    let mut indicator = make();
    let first: Vec<O> = series.iter().map(|b| step(&mut indicator, b)).collect();
    indicator.reset();
    let second: Vec<O> = series.iter().map(|b| step(&mut indicator, b)).collect();
    assert_eq!(first, second, "{name}: reset does not reproduce the first run");

    for cut in [0, 1, 13, 14, 25, 33, 34, 100, 251, 252, 300] {
        let mut altered = series.clone();
        let tail = bars(series.len() - cut - 1, 1000 + cut as u64);
        altered[cut + 1..].copy_from_slice(&tail);
        let mut fresh = make();
        let outputs: Vec<O> = altered.iter().map(|b| step(&mut fresh, b)).collect();
        assert_eq!(first[..=cut], outputs[..=cut], "{name}: the value at bar {cut} depends on later bars");
    }

    let shown = make().to_string();
    assert!(shown.contains('(') && shown.ends_with(')'), "{name} displays as {shown:?}");
}

macro_rules! contract {
    ($($name:literal => $make:expr, $step:expr;)+) => {
        #[test]
        fn every_indicator_keeps_the_streaming_contract() {
            $(check_contract($name, || $make.unwrap(), $step);)+
        }
    };
}

contract! {
    "SMA" => Sma::new(20), |i: &mut Sma, b: &Bar| i.next(b);
    "EMA" => Ema::new(20), |i: &mut Ema, b: &Bar| i.next(b);
    "RSI" => Rsi::new(14), |i: &mut Rsi, b: &Bar| i.next(b);
    "MACD" => Macd::new(12, 26, 9), |i: &mut Macd, b: &Bar| i.next(b);
    "Bollinger" => Bollinger::new(20, 2.0), |i: &mut Bollinger, b: &Bar| i.next(b);
    "ATR" => Atr::new(14), |i: &mut Atr, b: &Bar| i.next(b);
    "HighestHigh" => HighestHigh::new(20), |i: &mut HighestHigh, b: &Bar| i.next(b);
    "LowestLow" => LowestLow::new(20), |i: &mut LowestLow, b: &Bar| i.next(b);
    "VolumeAverage" => VolumeAverage::new(20), |i: &mut VolumeAverage, b: &Bar| i.next(b);
    "HistoricalVolatility" => HistoricalVolatility::new(20), |i: &mut HistoricalVolatility, b: &Bar| i.next(b);
    "IvRank" => IvRank::new(252), |i: &mut IvRank, b: &Bar| i.next(b.close / 100.0);
    "IvPercentile" => IvPercentile::new(252), |i: &mut IvPercentile, b: &Bar| i.next(b.close / 100.0);
    "IndicatorSet" => Ok::<_, ()>(IndicatorSet::standard()), |i: &mut IndicatorSet, b: &Bar| i.next(b);
}
