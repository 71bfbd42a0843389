//! Indicators against TA-Lib's own output over a fixed series.
//!
//! The fixture (`tests/fixtures/talib_reference.rs`) was produced by
//! `bench/peers/make_talib_fixture.py`, which runs Python TA-Lib over a deterministic OHLCV
//! random walk and pastes the results (NaN during TA-Lib's lookback becomes `None`).
//! Our values must be `None` exactly where TA-Lib's are NaN and agree to 1e-12 relative
//! elsewhere (in practice they are bit-identical or within an ulp or two).

mod fixtures {
    include!("../fixtures/talib_reference.rs");
}

use fixtures::*;
use strikeline_quant::indicators::{Atr, Bar, Bollinger, Ema, HighestHigh, LowestLow, Macd, Next, Rsi, Sma, VolumeAverage};

fn bars() -> Vec<Bar> {
    BARS.iter().map(|&[open, high, low, close, volume]| Bar { open, high, low, close, volume }).collect()
}

fn assert_matches(name: &str, ours: &[Option<f64>], talib: &[Option<f64>]) {
    assert_eq!(ours.len(), talib.len());
    let mut worst: f64 = 0.0;
    for (i, (a, b)) in ours.iter().zip(talib).enumerate() {
        match (a, b) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                let err = (a - b).abs() / b.abs().max(1.0);
                worst = worst.max(err);
                assert!(err <= 1e-12, "{name}[{i}]: ours {a}, TA-Lib {b}");
            }
            _ => panic!("{name}[{i}]: ours {a:?}, TA-Lib {b:?} (lookback differs)"),
        }
    }
    eprintln!("{name}: worst relative difference from TA-Lib {worst:e}");
}

fn run<I: for<'a> Next<&'a Bar, Output = Option<f64>>>(mut indicator: I) -> Vec<Option<f64>> {
    bars().iter().map(|b| indicator.next(b)).collect()
}

#[test]
fn sma_matches_talib() {
    assert_matches("SMA(20)", &run(Sma::new(20).unwrap()), &SMA_20);
}

#[test]
fn ema_matches_talib() {
    assert_matches("EMA(20)", &run(Ema::new(20).unwrap()), &EMA_20);
    assert_matches("EMA(5)", &run(Ema::new(5).unwrap()), &EMA_5);
}

#[test]
fn rsi_matches_talib() {
    assert_matches("RSI(14)", &run(Rsi::new(14).unwrap()), &RSI_14);
    assert_matches("RSI(5)", &run(Rsi::new(5).unwrap()), &RSI_5);
}

#[test]
fn macd_matches_talib() {
    let mut macd = Macd::new(12, 26, 9).unwrap();
    let out: Vec<_> = bars().iter().map(|b| macd.next(b)).collect();
    assert_matches("MACD line", &out.iter().map(|v| v.map(|m| m.macd)).collect::<Vec<_>>(), &MACD_LINE);
    assert_matches("MACD signal", &out.iter().map(|v| v.map(|m| m.signal)).collect::<Vec<_>>(), &MACD_SIGNAL);
    assert_matches("MACD histogram", &out.iter().map(|v| v.map(|m| m.histogram)).collect::<Vec<_>>(), &MACD_HIST);
}

#[test]
fn bollinger_matches_talib() {
    let mut bb = Bollinger::new(20, 2.0).unwrap();
    let out: Vec<_> = bars().iter().map(|b| bb.next(b)).collect();
    assert_matches("BB upper", &out.iter().map(|v| v.map(|b| b.upper)).collect::<Vec<_>>(), &BB_UPPER);
    assert_matches("BB middle", &out.iter().map(|v| v.map(|b| b.middle)).collect::<Vec<_>>(), &BB_MIDDLE);
    assert_matches("BB lower", &out.iter().map(|v| v.map(|b| b.lower)).collect::<Vec<_>>(), &BB_LOWER);
}

#[test]
fn atr_matches_talib() {
    assert_matches("ATR(14)", &run(Atr::new(14).unwrap()), &ATR_14);
}

#[test]
fn rolling_extremes_and_volume_average_match_talib() {
    assert_matches("MAX(high, 20)", &run(HighestHigh::new(20).unwrap()), &MAX_HIGH_20);
    assert_matches("MIN(low, 20)", &run(LowestLow::new(20).unwrap()), &MIN_LOW_20);
    assert_matches("SMA(volume, 20)", &run(VolumeAverage::new(20).unwrap()), &SMA_VOLUME_20);
}
