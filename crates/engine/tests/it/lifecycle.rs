//! The life of an issued signal: marks, target, stop, expiry, straddles, and the
//! underlying prices where target and stop lie.

use chrono::{Days, NaiveDate};
use strikeline_engine::{Assumptions, OpenSignal, Outcome, SignalType, Strategy, mark, underlying_levels, years_between};

use crate::common::*;

fn expiry() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 4, 17).expect("a valid date")
}

fn call() -> OpenSignal {
    OpenSignal {
        signal_type: SignalType::Call,
        strike: 100.0,
        expiration: expiry(),
        entry_price: 2.50,
        target_price: 4.00,
        stop_loss: 1.50,
        volatility: 0.25,
    }
}

fn with(signal_type: SignalType) -> OpenSignal {
    OpenSignal { signal_type, ..call() }
}

const A: Assumptions = Assumptions { rate: 0.04, dividend_yield: 0.0 };

#[test]
fn a_rally_closes_a_call_at_its_target() {
    let m = mark(&call(), 104.0, 25.0 / 365.0, false, A).unwrap();
    assert!(m.option_price >= 4.00);
    assert_eq!(m.outcome, Outcome::TargetHit);
    assert_eq!(m.outcome.close_reason(), Some("target"));
    assert!(m.pnl >= 150.0, "at least (4.00 − 2.50) × 100 per contract");
}

#[test]
fn a_drop_closes_a_call_at_its_stop_with_the_loss_per_contract() {
    let m = mark(&call(), 96.0, 25.0 / 365.0, false, A).unwrap();
    assert!(m.option_price <= 1.50);
    assert_eq!(m.outcome, Outcome::StopHit);
    assert_eq!(m.pnl, ((m.option_price - 2.50) * 100.0 * 100.0).round() / 100.0);
    let percent = ((m.option_price / 2.50 - 1.0) * 10_000.0).round() / 100.0;
    assert_eq!(m.pnl_percent, percent);
    assert!(m.pnl < 0.0 && m.pnl_percent < 0.0);
}

#[test]
fn between_target_and_stop_the_signal_stays_open_and_decays() {
    let early = mark(&call(), 100.0, 30.0 / 365.0, false, A).unwrap();
    let late = mark(&call(), 100.0, 10.0 / 365.0, false, A).unwrap();
    assert_eq!(early.outcome, Outcome::Active);
    assert_eq!(late.outcome, Outcome::Active);
    assert!(late.option_price < early.option_price, "time decay with the underlying unchanged");
    assert_eq!(early.outcome.close_reason(), None);
}

#[test]
fn at_expiry_the_value_is_intrinsic_and_the_outcome_expired() {
    // In the money: worth exactly spot − strike, even above the target.
    let m = mark(&call(), 107.5, 0.0, true, A).unwrap();
    assert_eq!((m.option_price, m.pnl, m.pnl_percent), (7.5, 500.0, 200.0));
    assert_eq!(m.outcome, Outcome::Expired);
    assert_eq!(m.outcome.close_reason(), Some("expiry"));
    // Out of the money: worthless, the whole premium lost.
    let m = mark(&call(), 95.0, 0.0, true, A).unwrap();
    assert_eq!((m.option_price, m.pnl, m.pnl_percent), (0.0, -250.0, -100.0));
    assert_eq!(m.outcome, Outcome::Expired);
    // A put at expiry.
    let m = mark(&with(SignalType::Put), 93.2, 0.0, true, A).unwrap();
    assert_eq!((m.option_price, m.outcome), (6.8, Outcome::Expired));
    // The caller's calendar decides: expired with time nominally left is still intrinsic,
    // and no time left means expired whatever the flag.
    assert_eq!(mark(&call(), 103.0, 0.5, true, A).unwrap().option_price, 3.0);
    let m = mark(&call(), 103.0, 0.0, false, A).unwrap();
    assert_eq!((m.option_price, m.outcome), (3.0, Outcome::Expired));
    let m = mark(&call(), 103.0, -0.01, false, A).unwrap();
    assert_eq!(m.outcome, Outcome::Expired);
}

#[test]
fn a_straddle_is_worth_its_call_plus_its_put() {
    let years = 20.0 / 365.0;
    for spot in [85.0, 97.3, 100.0, 104.2, 120.0] {
        let straddle = mark(&with(SignalType::Straddle), spot, years, false, A).unwrap();
        let c = mark(&with(SignalType::Call), spot, years, false, A).unwrap();
        let p = mark(&with(SignalType::Put), spot, years, false, A).unwrap();
        // Each leg is rounded to cents on its own.
        assert!((straddle.option_price - (c.option_price + p.option_price)).abs() <= 0.011);
        let expired = mark(&with(SignalType::Straddle), spot, 0.0, true, A).unwrap();
        assert!((expired.option_price - (spot - 100.0_f64).abs()).abs() < 1e-9);
    }
}

#[test]
fn a_straddle_profits_from_a_move_either_way() {
    let straddle =
        OpenSignal { signal_type: SignalType::Straddle, entry_price: 5.0, target_price: 7.5, stop_loss: 2.5, volatility: 0.30, ..call() };
    let years = 25.0 / 365.0;
    assert_eq!(mark(&straddle, 110.0, years, false, A).unwrap().outcome, Outcome::TargetHit);
    assert_eq!(mark(&straddle, 90.0, years, false, A).unwrap().outcome, Outcome::TargetHit);
    assert_eq!(mark(&straddle, 100.0, years, false, A).unwrap().outcome, Outcome::Active);
    // Sitting still into the last days: decay takes it to the stop.
    assert_eq!(mark(&straddle, 100.0, 2.0 / 365.0, false, A).unwrap().outcome, Outcome::StopHit);
}

#[test]
fn underlying_levels_round_trip_through_mark() {
    let years = 30.0 / 365.0;
    for signal_type in SignalType::ALL {
        let signal = OpenSignal {
            entry_price: if signal_type == SignalType::Straddle { 5.8 } else { 2.9 },
            target_price: if signal_type == SignalType::Straddle { 8.0 } else { 4.6 },
            stop_loss: if signal_type == SignalType::Straddle { 2.9 } else { 1.7 },
            signal_type,
            ..call()
        };
        let levels = underlying_levels(&signal, years, A).unwrap();
        let expected_targets = if signal_type == SignalType::Straddle { 2 } else { 1 };
        assert_eq!(levels.target.len(), expected_targets, "{signal_type}");
        assert!(levels.target.windows(2).all(|w| w[0] < w[1]));
        for &level in &levels.target {
            let m = mark(&signal, level, years, false, A).unwrap();
            assert!((m.option_price - signal.target_price).abs() <= 0.011, "{signal_type} target at {level}: {}", m.option_price);
        }
        for &level in &levels.stop {
            let m = mark(&signal, level, years, false, A).unwrap();
            assert!((m.option_price - signal.stop_loss).abs() <= 0.011, "{signal_type} stop at {level}: {}", m.option_price);
        }
        match signal_type {
            SignalType::Call => {
                assert_eq!(levels.stop.len(), 1);
                assert!(levels.stop[0] < 100.0 && levels.target[0] > 100.0);
            }
            SignalType::Put => {
                assert_eq!(levels.stop.len(), 1);
                assert!(levels.stop[0] > 100.0 && levels.target[0] < 100.0);
            }
            // A 30-day ATM straddle at σ 25% is worth about 5.7 at best: 2.90 is never
            // reached before expiry.
            SignalType::Straddle => assert!(levels.stop.is_empty()),
        }
    }
}

#[test]
fn unreachable_levels_are_left_out() {
    // A put can never be worth more than its discounted strike.
    let put = OpenSignal { signal_type: SignalType::Put, target_price: 150.0, stop_loss: 0.0, ..call() };
    let levels = underlying_levels(&put, 0.1, A).unwrap();
    assert!(levels.target.is_empty());
    assert!(levels.stop.is_empty(), "a stop of zero is never hit before expiry");
    // At expiry the levels are strike ± premium.
    let levels = underlying_levels(&call(), 0.0, A).unwrap();
    assert_eq!((levels.target.clone(), levels.stop.clone()), (vec![104.0], vec![101.5]));
    let straddle = OpenSignal { signal_type: SignalType::Straddle, ..call() };
    let levels = underlying_levels(&straddle, 0.0, A).unwrap();
    assert_eq!(levels.target, vec![96.0, 104.0]);
    assert_eq!(levels.stop, vec![98.5, 101.5]);
}

#[test]
fn a_fresh_proposal_marks_at_its_entry_and_its_levels_are_its_atr_moves() {
    let series = orderly_uptrend();
    let state = series.state();
    let s = *state.latest().unwrap();
    let ctx = context(&state, &fridays);
    let p = state.propose(&ctx).into_iter().find(|p| p.strategy == Strategy::Momentum).unwrap();
    let signal = p.open_signal();
    let years = years_between(s.date, p.expiration);
    let m = mark(&signal, s.close, years, false, A).unwrap();
    assert_eq!((m.option_price, m.pnl, m.outcome), (p.entry_price, 0.0, Outcome::Active));
    // Target and stop were read at close ± 2 / 1 ATR: solving back lands there (to
    // within the cent the premiums were rounded to).
    let atr = s.atr14.unwrap();
    let levels = underlying_levels(&signal, years, A).unwrap();
    assert!((levels.target[0] - (s.close + 2.0 * atr)).abs() < 0.05, "{levels:?}");
    assert!((levels.stop[0] - (s.close - atr)).abs() < 0.05, "{levels:?}");
    // A week on, the same underlying prices mean the premium has decayed.
    let later = years_between(s.date + Days::new(7), p.expiration);
    assert!(mark(&signal, s.close, later, false, A).unwrap().option_price < p.entry_price);
}

#[test]
fn numbers_the_model_refuses_are_errors_not_prices() {
    let bad_sigma = OpenSignal { volatility: 0.0, ..call() };
    assert!(mark(&bad_sigma, 100.0, 0.1, false, A).is_err());
    assert!(mark(&call(), 0.0, 0.1, false, A).is_err());
    assert!(mark(&call(), f64::NAN, 0.1, false, A).is_err());
    assert!(mark(&call(), 100.0, f64::NAN, false, A).is_err());
    assert!(underlying_levels(&bad_sigma, 0.1, A).is_err());
}

#[test]
fn years_are_calendar_days_over_365_never_negative() {
    let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    assert_eq!(years_between(d(1, 1), d(1, 1)), 0.0);
    assert_eq!(years_between(d(3, 20), d(4, 17)), 28.0 / 365.0);
    assert_eq!(years_between(d(4, 17), d(3, 20)), 0.0);
}
