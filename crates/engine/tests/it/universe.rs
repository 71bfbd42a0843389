//! The batch refresh: bars in, proposals and marks out, for the whole universe.

use chrono::Days;
use strikeline_engine::{
    ActiveSignal, Assumptions, BarError, DailyBar, MarkError, OpenSignal, Outcome, RefreshContext, SignalType, Strategy, Universe, mark,
    years_between,
};

use crate::common::*;

/// Symbols with their histories; the last bar of each is held back for the refresh.
fn universe() -> (Universe, Vec<Series>) {
    let series = vec![orderly_uptrend(), capitulation(), range_then(104.0, 3e6), calm()];
    let mut universe = Universe::new(["UP", "DROP", "BREAK", "CALM", "NEW"]);
    for (id, s) in series.iter().enumerate() {
        universe.load_history(id, &s.bars[..s.bars.len() - 1]).expect("valid history");
    }
    (universe, series)
}

#[test]
fn a_refresh_proposes_what_each_symbol_would_on_its_own() {
    let (mut universe, series) = universe();
    // The series have different lengths: each refreshes on its own last date.
    let new_bars: Vec<(usize, DailyBar)> = series.iter().enumerate().map(|(id, s)| (id, *s.bars.last().unwrap())).collect();
    let as_of = new_bars.iter().map(|(_, b)| b.date).max().unwrap();
    let ctx = RefreshContext { as_of, assumptions: Assumptions::default(), expiration: &fridays };
    let out = universe.refresh(&new_bars, &[], &ctx);
    assert!(out.rejected.is_empty() && out.marks.is_empty());

    for (id, s) in series.iter().enumerate() {
        let alone = s.state();
        let mut ctx = context(&alone, &fridays);
        ctx.as_of = as_of;
        ctx.symbol = universe.symbol(id);
        let expected = alone.propose(&ctx);
        let got: Vec<_> = out.proposals.iter().filter(|p| p.symbol == id).map(|p| p.proposal.clone()).collect();
        assert_eq!(got, expected, "symbol {}", universe.symbol(id));
        assert_eq!(universe.state(id).latest(), alone.latest());
    }
    let strategies: Vec<(usize, Strategy)> = out.proposals.iter().map(|p| (p.symbol, p.proposal.strategy)).collect();
    assert!(strategies.contains(&(0, Strategy::Momentum)));
    assert!(strategies.contains(&(1, Strategy::MeanReversion)));
    assert!(strategies.contains(&(2, Strategy::Breakout)));
    assert!(strategies.iter().all(|&(id, _)| id != 3), "the calm symbol proposes nothing");
    assert!(out.proposals.iter().all(|p| p.proposal.reasoning.contains(universe.symbol(p.symbol))));
}

#[test]
fn symbols_without_a_new_bar_are_not_re_evaluated() {
    let (mut universe, series) = universe();
    let last = *series[0].bars.last().unwrap();
    let ctx = RefreshContext { as_of: last.date, assumptions: Assumptions::default(), expiration: &fridays };
    let out = universe.refresh(&[(0, last)], &[], &ctx);
    assert!(out.proposals.iter().all(|p| p.symbol == 0));
    assert!(!out.proposals.is_empty());
}

#[test]
fn every_active_signal_is_marked_in_order_at_its_symbols_close() {
    let (mut universe, series) = universe();
    let last = *series[2].bars.last().unwrap(); // BREAK closes at 104
    let as_of = last.date;
    let ctx = RefreshContext { as_of, assumptions: Assumptions::default(), expiration: &fridays };
    let open = |signal_type, strike, expiration| OpenSignal {
        signal_type,
        strike,
        expiration,
        entry_price: 1.0,
        target_price: 3.0,
        stop_loss: 0.5,
        volatility: 0.2,
    };
    let in_a_month = as_of + Days::new(30);
    let active = [
        // A call bought before the breakout: through its target.
        ActiveSignal { symbol: 2, signal: open(SignalType::Call, 100.0, in_a_month) },
        // A put on the same symbol: through its stop.
        ActiveSignal {
            symbol: 2,
            signal: OpenSignal { entry_price: 3.0, target_price: 6.0, stop_loss: 1.5, ..open(SignalType::Put, 100.0, in_a_month) },
        },
        // Expiring today: intrinsic, expired.
        ActiveSignal { symbol: 2, signal: open(SignalType::Call, 101.0, as_of) },
        // Expired last week (a missed refresh): still closed at today's intrinsic.
        ActiveSignal { symbol: 2, signal: open(SignalType::Put, 110.0, as_of - Days::new(7)) },
        // A symbol with no bars yet.
        ActiveSignal { symbol: 4, signal: open(SignalType::Call, 10.0, in_a_month) },
        // Numbers the model refuses.
        ActiveSignal { symbol: 2, signal: OpenSignal { volatility: -1.0, ..open(SignalType::Call, 100.0, in_a_month) } },
    ];
    let out = universe.refresh(&[(2, last)], &active, &ctx);
    assert_eq!(out.marks.len(), active.len());
    let outcome = |i: usize| out.marks[i].as_ref().unwrap().outcome;
    assert_eq!(outcome(0), Outcome::TargetHit);
    assert_eq!(outcome(1), Outcome::StopHit);
    assert_eq!(outcome(2), Outcome::Expired);
    assert_eq!(out.marks[2].as_ref().unwrap().option_price, 3.0);
    assert_eq!(out.marks[3].as_ref().unwrap().option_price, 6.0);
    assert_eq!(outcome(3), Outcome::Expired);
    assert_eq!(out.marks[4], Err(MarkError::NoPrice));
    assert!(matches!(out.marks[5], Err(MarkError::Input(_))));
    // The same as marking one by one.
    let direct = mark(&active[0].signal, 104.0, years_between(as_of, in_a_month), false, Assumptions::default()).unwrap();
    assert_eq!(out.marks[0], Ok(direct));
}

#[test]
fn a_refused_bar_is_reported_and_the_rest_of_the_refresh_goes_on() {
    let (mut universe, series) = universe();
    let before = *universe.state(1).latest().unwrap();
    let good = *series[0].bars.last().unwrap();
    let stale = DailyBar { date: before.date, ..before_bar(&before) };
    let ctx = RefreshContext { as_of: good.date, assumptions: Assumptions::default(), expiration: &fridays };
    let out = universe.refresh(&[(0, good), (1, stale)], &[], &ctx);
    assert_eq!(out.rejected, vec![(1, BarError::OutOfOrder { date: before.date, last: before.date })]);
    assert_eq!(universe.state(1).latest(), Some(&before));
    assert!(out.proposals.iter().any(|p| p.symbol == 0));
    assert!(out.proposals.iter().all(|p| p.symbol != 1));
}

fn before_bar(s: &strikeline_engine::Snapshot) -> DailyBar {
    DailyBar { date: s.date, open: s.open, high: s.high, low: s.low, close: s.close, volume: s.volume }
}

#[test]
fn ids_follow_the_given_order() {
    let universe = Universe::new(vec!["A".to_string(), "B".to_string(), "A".to_string()]);
    assert_eq!(universe.len(), 3);
    assert_eq!(universe.id("A"), Some(0));
    assert_eq!(universe.id("B"), Some(1));
    assert_eq!(universe.id("C"), None);
    assert_eq!(universe.symbol(2), "A");
    assert!(!universe.state(0).is_warm());
}
