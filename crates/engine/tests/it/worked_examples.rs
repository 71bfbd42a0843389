//! The worked examples of docs/strategies.md, number for number: if a rule or the pricing
//! changes, this fails until the document is brought up to date.

use chrono::NaiveDate;
use strikeline_engine::{Proposal, SignalType, Strategy};

use crate::common::*;

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

fn proposal(series: &Series, strategy: Strategy) -> Proposal {
    let state = series.state();
    state.propose(&context(&state, &fridays)).into_iter().find(|p| p.strategy == strategy).expect("the documented proposal")
}

/// (signal type, strike, expiration, σ, entry, target, stop, confidence)
type Figures = (SignalType, f64, NaiveDate, f64, f64, f64, f64, u8);

fn figures(p: &Proposal) -> Figures {
    (p.signal_type, p.strike, p.expiration, p.volatility, p.entry_price, p.target_price, p.stop_loss, p.confidence)
}

#[test]
fn momentum_example() {
    let p = proposal(&orderly_uptrend(), Strategy::Momentum);
    assert_eq!(figures(&p), (SignalType::Call, 145.0, ymd(2024, 11, 8), 0.1625, 1.49, 3.51, 0.87, 87));
    assert_eq!(
        p.reasoning,
        "TEST Momentum CALL: EMA20 139.64 above EMA50 135.95; close 142.84 above EMA20 139.64; \
         MACD histogram 0.078 positive; histogram rising (0.023 → 0.078); RSI 61.4 within 50–70. \
         Buy the 145.00 call expiring 2024-11-08 for 1.49 a share at 142.84 (σ 16.2% from 20-day \
         historical volatility, 22 days). Target 3.51 with the underlying at 146.74 (2 ATR of 1.95); \
         stop 0.87 at 140.88 (1 ATR against). Volume 1.00M. Confidence 87/100."
    );
}

#[test]
fn mean_reversion_example() {
    let p = proposal(&capitulation(), Strategy::MeanReversion);
    assert_eq!(figures(&p), (SignalType::Call, 84.0, ymd(2024, 11, 15), 0.2222, 2.16, 4.73, 1.28, 77));
    assert!(p.reasoning.contains("Target 4.73 with the underlying back at 87.98"));
}

#[test]
fn breakout_example() {
    let p = proposal(&range_then(104.0, 3e6), Strategy::Breakout);
    assert_eq!(figures(&p), (SignalType::Call, 105.0, ymd(2024, 11, 22), 0.1327, 1.12, 2.5, 0.67, 95));
}

#[test]
fn volatility_example() {
    let p = proposal(&volatility_crush(), Strategy::Volatility);
    assert_eq!(figures(&p), (SignalType::Straddle, 180.0, ymd(2024, 11, 22), 0.10, 4.59, 5.6, 2.3, 95));
}

#[test]
fn weak_setup_example() {
    let state = calm().state();
    let p = state.propose_best(&context(&state, &fridays)).expect("warm");
    assert_eq!(figures(&p), (SignalType::Call, 95.0, ymd(2024, 11, 8), 0.1577, 1.42, 3.06, 0.86, 43));
    assert!(p.reasoning.starts_with("Weak setup: no strategy's rule fully triggers; this is the closest. TEST Momentum CALL: "));
    assert!(p.reasoning.contains("histogram not rising (0.638 → 0.621); RSI 70.5 not within 50–70"));
}
