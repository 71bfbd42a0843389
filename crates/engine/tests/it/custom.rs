//! Custom strategies: a user's rule fires on the bars its conditions describe, reads like the
//! built-in rules (confidence 50–95 only when it fires), buys the strike and sets the exits it
//! asks for, is refused part by part when wrong, and backtests through the same loop.

use strikeline_engine::backtest::{BacktestConfig, TradeOutcome, run};
use strikeline_engine::custom::{Condition, CustomStrategy, Direction, Exits, Indicator, Operand, StrikeRule};
use strikeline_engine::{Assumptions, ProposalContext, SignalType, Strategy, SymbolState, WARM_UP_BARS};
use strikeline_quant::{BlackScholes, OptionInputs, OptionType};

use crate::common::*;

fn compare(left: Operand, direction: Direction, right: Operand) -> Condition {
    Condition::Compare { left, direction, right }
}

fn now(i: Indicator) -> Operand {
    Operand::now(i)
}

fn rule(entry: Condition, opens: SignalType) -> CustomStrategy {
    CustomStrategy {
        entry,
        opens,
        strike: StrikeRule::Offset(0),
        min_days: 30,
        monthly: false,
        exits: Exits { target_gain: 0.5, stop_loss: 0.3, max_days: None },
    }
}

/// Every warm bar of `series`, the state after it.
fn warm_states(bars: &[strikeline_engine::DailyBar]) -> Vec<SymbolState> {
    let mut state = SymbolState::new();
    let mut out = Vec::new();
    for bar in bars {
        state.update(bar).expect("bar");
        if state.is_warm() {
            out.push(state.clone());
        }
    }
    out
}

#[test]
fn a_rule_written_like_mean_reversion_fires_on_the_same_bars() {
    let oversold = rule(
        Condition::All(vec![
            compare(now(Indicator::Rsi14), Direction::Below, Operand::Number(30.0)),
            compare(now(Indicator::Close), Direction::Below, now(Indicator::BollingerLower)),
        ]),
        SignalType::Call,
    );
    let mut fired = 0;
    for series in market(4, 900, 7) {
        for state in warm_states(&series.bars) {
            let ctx = context(&state, &fridays);
            let built_in = state.ranked_proposals(&ctx, &[Strategy::MeanReversion]);
            let mean_reversion_call = built_in.first().is_some_and(|p| p.signal_type == SignalType::Call && p.confidence >= 50);
            let custom = oversold.propose(&state, &ctx);
            assert_eq!(custom.is_some(), mean_reversion_call, "{} on {:?}", series.symbol, ctx.as_of);
            if let Some(p) = custom {
                fired += 1;
                assert_eq!((p.strategy, p.signal_type), (Strategy::Custom, SignalType::Call));
                assert!((50..=95).contains(&p.confidence));
                assert!(p.reasoning.starts_with("TEST Custom CALL: RSI(14) "), "{}", p.reasoning);
            }
        }
    }
    assert!(fired >= 3, "the market must give the rule something to find: {fired}");
}

#[test]
fn confidence_reads_like_a_built_in_rule_fired_or_not() {
    // Any of two, and a cross: every shape of the language.
    let shapes = rule(
        Condition::All(vec![
            Condition::Any(vec![
                compare(now(Indicator::Ema20), Direction::Above, now(Indicator::Ema50)),
                compare(now(Indicator::MacdHistogram), Direction::Above, Operand::Number(0.0)),
            ]),
            Condition::Crosses { left: now(Indicator::Close), direction: Direction::Above, right: now(Indicator::Sma20) },
            compare(now(Indicator::Volume), Direction::Above, now(Indicator::PriorVolumeAverage)),
        ]),
        SignalType::Call,
    );
    let (mut fired, mut quiet) = (0, 0);
    for series in market(3, 700, 11) {
        for state in warm_states(&series.bars) {
            let judgement = shapes.judge(&state).expect("warm");
            assert_eq!(judgement.conditions.len(), 3);
            assert_eq!(judgement.triggered, judgement.conditions.iter().all(|(_, holds)| *holds));
            if judgement.triggered {
                fired += 1;
                assert!((50..=95).contains(&judgement.confidence), "{judgement:?}");
            } else {
                quiet += 1;
                assert!(judgement.confidence <= 49, "{judgement:?}");
            }
        }
    }
    assert!(fired > 0 && quiet > 0, "{fired} fired, {quiet} quiet");
    // Before the state is warm the rule says nothing, nor does a rule that is not valid.
    assert!(shapes.judge(&SymbolState::new()).is_none());
    let state = orderly_uptrend().state();
    assert!(shapes.judge(&state).is_some());
    let empty = rule(Condition::All(Vec::new()), SignalType::Call);
    assert!(empty.judge(&state).is_none() && empty.propose(&state, &context(&state, &fridays)).is_none());
}

#[test]
fn a_cross_fires_on_the_bar_it_happens_and_a_comparison_while_it_lasts() {
    // A quiet year, then three closes well above the prior range.
    let mut series = range();
    let n = series.bars.len();
    series.step(0.06, 3e6).step(0.01, 2e6).step(0.01, 2e6);
    let crosses = rule(
        Condition::Crosses { left: now(Indicator::Close), direction: Direction::Above, right: now(Indicator::PriorHigh) },
        SignalType::Call,
    );
    let above = rule(compare(now(Indicator::Close), Direction::Above, now(Indicator::PriorHigh)), SignalType::Call);
    let states = warm_states(&series.bars);
    let last_three = &states[states.len() - 3..];
    let fired: Vec<bool> = last_three.iter().map(|s| crosses.judge(s).expect("warm").triggered).collect();
    assert_eq!(fired, [true, false, false], "only the bar of the cross");
    let held: Vec<bool> = last_three.iter().map(|s| above.judge(s).expect("warm").triggered).collect();
    assert_eq!(held, [true, true, true]);
    let text = &crosses.judge(&last_three[0]).expect("warm").conditions[0].0;
    assert!(text.starts_with("close ") && text.contains(" crossed above prior 20-day high "), "{text}");
    assert!(n > WARM_UP_BARS);
}

#[test]
fn bars_ago_reads_the_bar_it_names() {
    let five_day_high = rule(
        compare(now(Indicator::Close), Direction::Above, Operand::Indicator { indicator: Indicator::Close, bars_ago: 5 }),
        SignalType::Call,
    );
    let bars = &market(1, 400, 3)[0].bars;
    let mut state = SymbolState::new();
    for (i, bar) in bars.iter().enumerate() {
        state.update(bar).expect("bar");
        if state.is_warm() {
            let expected = bar.close > bars[i - 5].close;
            assert_eq!(five_day_high.judge(&state).expect("warm").triggered, expected, "bar {i}");
        }
    }
}

fn call_delta(spot: f64, strike: f64, sigma: f64, years: f64) -> f64 {
    let a = Assumptions::default();
    let bs = BlackScholes::new(OptionInputs {
        spot,
        strike,
        rate: a.rate,
        dividend_yield: a.dividend_yield,
        volatility: sigma,
        time_to_expiry: years,
    })
    .expect("inputs");
    bs.greeks(OptionType::Call).delta
}

#[test]
fn the_strike_and_the_exits_are_the_ones_asked_for() {
    let always = compare(now(Indicator::Close), Direction::Above, Operand::Number(0.01));
    let state = orderly_uptrend().state();
    let ctx = context(&state, &fridays);
    let spot = ctx.spot;
    let step = strikeline_engine::strike_increment(spot);
    let atm = (spot / step).round() * step;

    let two_out = CustomStrategy { strike: StrikeRule::Offset(2), ..rule(always.clone(), SignalType::Call) };
    let call = two_out.propose(&state, &ctx).expect("fires");
    assert!((call.strike - (atm + 2.0 * step)).abs() < 1e-9, "{} vs ATM {atm}", call.strike);
    let put = CustomStrategy { opens: SignalType::Put, ..two_out.clone() }.propose(&state, &ctx).expect("fires");
    assert!((put.strike - (atm - 2.0 * step)).abs() < 1e-9);
    // Exits: +50% and −30% of the premium, in cents.
    assert_eq!(call.target_price, ((call.entry_price * 1.5) * 100.0).round() / 100.0);
    assert_eq!(call.stop_loss, ((call.entry_price * 0.7) * 100.0).round() / 100.0);
    assert!(call.reasoning.contains("Target") && call.reasoning.contains("(+50% of the premium); stop"), "{}", call.reasoning);
    let days = (call.expiration - ctx.as_of).num_days();
    assert!(days >= 30, "at least the 30 days asked for: {days}");

    // The first monthly expiration (a third Friday) at least 30 days away, instead of the first
    // listed Friday: the same or later, and never a later monthly than needed.
    let monthly = CustomStrategy { monthly: true, ..two_out.clone() }.propose(&state, &ctx).expect("fires");
    assert!(strikeline_engine::custom::is_monthly_expiration(monthly.expiration), "{}", monthly.expiration);
    assert!(monthly.expiration >= call.expiration && (monthly.expiration - ctx.as_of).num_days() >= 30);
    assert!((monthly.expiration - call.expiration).num_days() < 35, "the first monthly from there: {}", monthly.expiration);
    for (day, is) in [("2026-12-18", true), ("2026-12-11", false), ("2026-12-25", false), ("2025-04-17", true), ("2026-12-10", false)] {
        let date: chrono::NaiveDate = day.parse().expect("date");
        assert_eq!(strikeline_engine::custom::is_monthly_expiration(date), is, "{day}");
    }

    // A 0.30-delta call: no listed strike's delta is nearer 0.30.
    let by_delta = CustomStrategy { strike: StrikeRule::Delta(0.3), ..rule(always, SignalType::Call) };
    let p = by_delta.propose(&state, &ctx).expect("fires");
    let years = strikeline_engine::years_between(ctx.as_of, p.expiration);
    let gap = |k: f64| (call_delta(spot, k, p.volatility, years) - 0.3).abs();
    assert!(p.strike > spot, "an out-of-the-money call");
    assert!(gap(p.strike) <= gap(p.strike + step) && gap(p.strike) <= gap(p.strike - step), "strike {}", p.strike);
    // A 0.30-delta put: below the price, and no listed strike nearer (|Δ| of a put is Δ(call) − e^(−qT)).
    let put = CustomStrategy { opens: SignalType::Put, ..by_delta }.propose(&state, &ctx).expect("fires");
    let q = Assumptions::default().dividend_yield;
    let put_gap = |k: f64| ((call_delta(spot, k, put.volatility, years) - (-q * years).exp()).abs() - 0.3).abs();
    assert!(put.strike < spot, "an out-of-the-money put: {}", put.strike);
    assert!(
        put_gap(put.strike) <= put_gap(put.strike + step) && put_gap(put.strike) <= put_gap(put.strike - step),
        "strike {}",
        put.strike
    );
}

#[test]
fn a_wrong_rule_is_refused_part_by_part() {
    let bad = CustomStrategy {
        entry: Condition::All(vec![
            compare(now(Indicator::Rsi14), Direction::Above, now(Indicator::Close)),
            compare(Operand::Number(1.0), Direction::Above, Operand::Number(2.0)),
            Condition::Any(vec![]),
            Condition::Crosses {
                left: Operand::Indicator { indicator: Indicator::Close, bars_ago: 10 },
                direction: Direction::Above,
                right: Operand::Number(f64::NAN),
            },
        ]),
        opens: SignalType::Straddle,
        strike: StrikeRule::Offset(2),
        min_days: 0,
        monthly: false,
        exits: Exits { target_gain: 0.0, stop_loss: 1.0, max_days: Some(400) },
    };
    let errors = bad.validate().expect_err("wrong in many ways");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "entry.all[0].compare.right",
            "entry.all[1].compare",
            "entry.all[2].any",
            "entry.all[3].crosses.left.indicator.barsAgo",
            "entry.all[3].crosses.right.number",
            "strike.offset",
            "minDays",
            "exits.targetGain",
            "exits.stopLoss",
            "exits.maxDays",
        ]
    );
    assert_eq!(errors[0].message, "RSI(14) is a 0–100 reading, close is a price: they cannot be compared.");
    // Too deep and too wide.
    let mut deep = compare(now(Indicator::Close), Direction::Above, Operand::Number(1.0));
    for _ in 0..4 {
        deep = Condition::All(vec![deep]);
    }
    let errors = rule(deep, SignalType::Call).validate().expect_err("too deep");
    assert_eq!(errors[0].path, "entry.all[0].all[0].all[0].all");
    let wide = Condition::Any(vec![compare(now(Indicator::Close), Direction::Above, Operand::Number(1.0)); 9]);
    assert_eq!(rule(wide, SignalType::Call).validate().expect_err("too wide")[0].path, "entry.any");
}

#[test]
fn a_custom_strategy_backtests_through_the_same_loop_with_its_time_exit() {
    let series = market(4, 800, 5);
    let dip = CustomStrategy {
        exits: Exits { target_gain: 0.8, stop_loss: 0.5, max_days: Some(7) },
        ..rule(compare(now(Indicator::Rsi14), Direction::Below, Operand::Number(40.0)), SignalType::Call)
    };
    let mut config = BacktestConfig::new(day(WARM_UP_BARS), day(799));
    config.strategies = vec![Strategy::Custom, Strategy::Momentum];
    config.custom = Some(dip.clone());
    let report = run(&config, &series, &fridays);
    let custom: Vec<_> = report.trades.iter().filter(|t| t.strategy == Strategy::Custom).collect();
    assert!(custom.len() >= 5, "{} custom trades", custom.len());
    for t in &custom {
        let held = (t.exit_date - t.entry_date).num_days();
        match t.outcome {
            TradeOutcome::TimeLimit => assert!((7..=10).contains(&held), "closed at the first close 7 days on: {held}"),
            TradeOutcome::EndOfTest => {}
            _ => assert!(held <= 7, "{:?} after {held} days", t.outcome),
        }
    }
    assert!(custom.iter().any(|t| t.outcome == TradeOutcome::TimeLimit));
    let by: Vec<Strategy> = report.by_strategy.iter().map(|s| s.strategy).collect();
    assert_eq!(by, [Strategy::Momentum, Strategy::Custom]);
    let custom_total: f64 = custom.iter().map(|t| t.pnl).sum();
    let row = report.by_strategy.iter().find(|s| s.strategy == Strategy::Custom).expect("row");
    assert!((row.total_pnl - custom_total).abs() < 0.01);

    // Custom selected without its rules, or with wrong ones: named.
    let mut missing = config.clone();
    missing.custom = None;
    assert_eq!(missing.validate().expect_err("missing").field, "custom");
    let mut wrong = config;
    wrong.custom = Some(CustomStrategy { min_days: 0, ..dip });
    let err = wrong.validate().expect_err("wrong");
    assert_eq!((err.field, err.reason.starts_with("minDays:")), ("custom", true));
}

#[test]
fn the_same_bars_give_the_same_proposal() {
    let state = orderly_uptrend().state();
    let ctx: ProposalContext<'_> = context(&state, &fridays);
    let r = rule(compare(now(Indicator::Ema20), Direction::Above, now(Indicator::Ema50)), SignalType::Call);
    assert_eq!(r.propose(&state, &ctx), r.propose(&state.clone(), &ctx));
    assert!(r.propose(&state, &ctx).is_some(), "an orderly uptrend has EMA(20) above EMA(50)");
}
