//! The streaming state: warm-up, determinism, no look-ahead, intraday clones, bar
//! validation, strikes and the context's edge cases.

use chrono::{Days, NaiveDate};
use strikeline_engine::{
    Assumptions, BarError, DailyBar, ProposalContext, SignalType, Strategy, StrikeChoice, SymbolState, WARM_UP_BARS, pick_strike,
    strike_increment,
};

use crate::common::*;

#[test]
fn nothing_is_proposed_before_the_state_is_warm() {
    // The capitulation fires Mean Reversion on its last bar; the same last five days
    // after too short a history must not.
    let full = capitulation();
    let short: Vec<DailyBar> = full.bars[full.bars.len() - (WARM_UP_BARS - 1)..].to_vec();
    let state = state_of(&short);
    assert_eq!(state.bars_seen(), WARM_UP_BARS - 1);
    assert!(!state.is_warm());
    let ctx = context(&state, &fridays);
    assert!(state.propose(&ctx).is_empty());
    assert!(state.propose_best(&ctx).is_none());
    // Every indicator except the volatility history is already there: the wait is for
    // the 252-day rank and percentile.
    let s = state.latest().unwrap();
    assert!(s.rsi14.is_some() && s.ema50.is_some() && s.macd.is_some() && s.hv20.is_some());
    assert!(s.hv_rank.is_none() && s.hv_percentile.is_none());

    // One more bar of history and the same setup is judged.
    let longer = &full.bars[full.bars.len() - WARM_UP_BARS..];
    let state = state_of(longer);
    assert!(state.is_warm());
    let s = state.latest().unwrap();
    assert!(s.hv_rank.is_some() && s.hv_percentile.is_some());
    assert!(state.propose_best(&context(&state, &fridays)).is_some());
}

#[test]
fn the_same_bars_always_give_the_same_proposals() {
    for series in [orderly_uptrend(), capitulation(), range_then(104.0, 3e6), volatility_crush(), calm()] {
        let (a, b) = (series.state(), series.state());
        let (ca, cb) = (context(&a, &fridays), context(&b, &fridays));
        assert_eq!(a.propose(&ca), b.propose(&cb));
        assert_eq!(a.propose_best(&ca), b.propose_best(&cb));
        assert_eq!(a.latest(), b.latest());
    }
}

#[test]
fn a_proposal_at_bar_t_does_not_change_when_later_bars_arrive() {
    // Two histories identical up to t and opposite afterwards.
    let base = capitulation();
    let t = base.bars.len() - 1;
    let mut rally = capitulation();
    let mut crash = capitulation();
    for _ in 0..20 {
        rally.step(0.03, 2e6);
        crash.step(-0.03, 2e6);
    }

    let at_t = state_of(&base.bars);
    let expected = at_t.propose(&context(&at_t, &fridays));
    assert!(!expected.is_empty());

    for future in [&rally, &crash] {
        // Streaming through the longer history, the state at t proposes what the state
        // that never saw the future did: same indicator values, same proposals.
        let mut state = SymbolState::new();
        for (i, bar) in future.bars.iter().enumerate() {
            state.update(bar).unwrap();
            if i == t {
                let frozen = state.clone();
                assert_eq!(frozen.latest(), at_t.latest());
                assert_eq!(frozen.propose(&context(&frozen, &fridays)), expected);
            }
        }
        // …and the full history, judged at its own last bar, is a different story.
        assert_ne!(state.propose(&context(&state, &fridays)), expected);
    }
}

#[test]
fn each_bar_evaluates_like_a_fresh_replay_of_its_history() {
    // Walk-forward at every bar of the last 30, against a replay of bars[..=t].
    let series = overbought_run();
    let mut streaming = SymbolState::new();
    for (t, bar) in series.bars.iter().enumerate() {
        streaming.update(bar).unwrap();
        if t + 30 >= series.bars.len() {
            let replay = state_of(&series.bars[..=t]);
            assert_eq!(streaming.latest(), replay.latest());
            let (a, b) = (context(&streaming, &fridays), context(&replay, &fridays));
            assert_eq!(streaming.propose(&a), replay.propose(&b));
        }
    }
}

#[test]
fn an_intraday_clone_leaves_the_end_of_day_state_untouched() {
    let series = range();
    let state = series.state();
    let before = state.propose_best(&context(&state, &fridays));
    let snapshot = *state.latest().unwrap();

    let mut intraday = state.clone();
    let today = snapshot.date + Days::new(1);
    intraday.update(&DailyBar { date: today, open: 100.0, high: 104.5, low: 99.9, close: 104.2, volume: 2.4e6 }).unwrap();
    let live = intraday.propose(&context(&intraday, &fridays));
    assert!(live.iter().any(|p| p.strategy == Strategy::Breakout && p.signal_type == SignalType::Call));

    // The original still stands at yesterday's close and can take the real close.
    assert_eq!(state.latest(), Some(&snapshot));
    assert_eq!(state.propose_best(&context(&state, &fridays)), before);
    let mut end_of_day = state.clone();
    end_of_day.update(&DailyBar { date: today, open: 100.0, high: 100.9, low: 99.6, close: 100.4, volume: 1e6 }).unwrap();
    assert!(end_of_day.propose(&context(&end_of_day, &fridays)).iter().all(|p| p.strategy != Strategy::Breakout));
}

#[test]
fn bad_or_repeated_bars_are_refused_without_touching_the_state() {
    let series = range();
    let mut state = series.state();
    let latest = *state.latest().unwrap();
    let next = latest.date + Days::new(1);
    let good = DailyBar { date: next, open: 100.0, high: 101.0, low: 99.0, close: 100.5, volume: 1e6 };
    let cases = [
        (DailyBar { close: f64::NAN, ..good }, BarError::NotFinite { date: next }),
        (DailyBar { volume: f64::INFINITY, ..good }, BarError::NotFinite { date: next }),
        (DailyBar { low: 0.0, ..good }, BarError::NotPositive { date: next }),
        (DailyBar { high: 98.0, ..good }, BarError::HighBelowLow { date: next }),
        (DailyBar { volume: -1.0, ..good }, BarError::NegativeVolume { date: next }),
        // Yesterday again (a double-fed day would count twice in every average).
        (DailyBar { date: latest.date, ..good }, BarError::OutOfOrder { date: latest.date, last: latest.date }),
        (
            DailyBar { date: latest.date - Days::new(5), ..good },
            BarError::OutOfOrder { date: latest.date - Days::new(5), last: latest.date },
        ),
    ];
    for (bar, error) in cases {
        assert_eq!(state.update(&bar), Err(error));
        assert_eq!(state.latest(), Some(&latest));
        assert_eq!(state.bars_seen(), series.bars.len());
    }
    assert_eq!(state.update(&good), Ok(()));
    assert_eq!(state.bars_seen(), series.bars.len() + 1);
}

#[test]
fn strikes_sit_on_the_listed_grid() {
    let cases = [
        // spot, increment, ATM, first OTM call, first OTM put
        (12.34, 0.5, 12.5, 12.5, 12.0),
        (24.99, 0.5, 25.0, 25.0, 24.5),
        (25.0, 1.0, 25.0, 26.0, 24.0),
        (73.60, 1.0, 74.0, 74.0, 73.0),
        (99.99, 1.0, 100.0, 100.0, 99.0),
        (100.0, 2.5, 100.0, 102.5, 97.5),
        (182.10, 2.5, 182.5, 182.5, 180.0),
        (201.0, 5.0, 200.0, 205.0, 200.0),
        (499.0, 5.0, 500.0, 500.0, 495.0),
        (500.0, 10.0, 500.0, 510.0, 490.0),
        (1234.5, 10.0, 1230.0, 1240.0, 1230.0),
        (0.30, 0.5, 0.5, 0.5, 0.5), // never a zero strike
    ];
    for (spot, step, atm, call, put) in cases {
        assert_eq!(strike_increment(spot), step, "increment at {spot}");
        assert_eq!(pick_strike(spot, SignalType::Call, StrikeChoice::AtTheMoney), atm, "ATM at {spot}");
        assert_eq!(pick_strike(spot, SignalType::Straddle, StrikeChoice::FirstOutOfTheMoney), atm, "straddle at {spot}");
        assert_eq!(pick_strike(spot, SignalType::Call, StrikeChoice::FirstOutOfTheMoney), call, "OTM call at {spot}");
        assert_eq!(pick_strike(spot, SignalType::Put, StrikeChoice::FirstOutOfTheMoney), put, "OTM put at {spot}");
    }
}

#[test]
fn a_proposal_priced_at_the_live_quote_uses_that_quote() {
    let series = range_then(104.0, 3e6);
    let state = series.state();
    let mut ctx = context(&state, &fridays);
    ctx.spot = 105.3;
    let p = state.propose(&ctx).into_iter().find(|p| p.strategy == Strategy::Breakout).unwrap();
    assert_eq!(p.underlying_price, 105.3);
    assert_eq!(p.strike, 107.5, "first OTM strike above the live quote");
}

#[test]
fn an_unpriceable_context_proposes_nothing() {
    let state = capitulation().state();
    let good = context(&state, &fridays);
    assert!(!state.propose(&good).is_empty());
    for spot in [0.0, -5.0, f64::NAN] {
        let ctx = ProposalContext { spot, ..good };
        assert!(state.propose(&ctx).is_empty());
        assert!(state.propose_best(&ctx).is_none());
    }
    // A picker that returns the evaluation day itself leaves no time to price.
    let same_day = |from: NaiveDate, _: u32| from;
    let ctx = ProposalContext { expiration: &same_day, ..good };
    assert!(state.propose(&ctx).is_empty());
}

#[test]
fn the_picker_is_asked_for_the_documented_minimum_days() {
    let asked = std::cell::RefCell::new(Vec::new());
    let picker = |from: NaiveDate, min: u32| {
        asked.borrow_mut().push(min);
        fridays(from, min)
    };
    for series in [orderly_uptrend(), volatility_crush()] {
        let state = series.state();
        let ctx = ProposalContext {
            symbol: "X",
            as_of: state.latest().unwrap().date,
            spot: state.latest().unwrap().close,
            assumptions: Assumptions::default(),
            expiration: &picker,
        };
        for p in state.propose(&ctx) {
            let expected = if p.signal_type == SignalType::Straddle { 30 } else { 21 };
            assert!(asked.borrow().contains(&expected));
        }
    }
}
