//! Each strategy on fixed synthetic series: the setups it must catch, and the ones it
//! must leave alone.

use chrono::{Datelike, Weekday};
use strikeline_engine::{Assumptions, Proposal, SignalType, Strategy, SymbolState, strike_increment, years_between};
use strikeline_quant::{BlackScholes, OptionInputs, OptionType};

use crate::common::*;

fn proposals(series: &Series) -> (SymbolState, Vec<Proposal>) {
    let state = series.state();
    let found = state.propose(&context(&state, &fridays));
    (state, found)
}

fn by(found: &[Proposal], strategy: Strategy) -> Option<&Proposal> {
    found.iter().find(|p| p.strategy == strategy)
}

/// What every proposal must satisfy for a trader to act on it.
fn assert_tradeable(state: &SymbolState, p: &Proposal) {
    let latest = state.latest().expect("a warm state");
    let spot = latest.close;
    assert!((50..=95).contains(&p.confidence), "a firing rule reads 50–95: {}", p.confidence);
    assert!(
        p.target_price > p.entry_price && p.entry_price > p.stop_loss && p.stop_loss >= 0.0,
        "target {} > entry {} > stop {}",
        p.target_price,
        p.entry_price,
        p.stop_loss
    );
    for price in [p.entry_price, p.target_price, p.stop_loss, p.strike] {
        assert_eq!((price * 100.0).round() / 100.0, price, "{price} is in cents");
    }
    let step = strike_increment(spot);
    assert!(((p.strike / step).round() * step - p.strike).abs() < 1e-9, "strike {} on the {step} grid", p.strike);
    let min_days = i64::from(p.strategy.min_days_to_expiry());
    assert!((p.expiration - latest.date).num_days() >= min_days);
    assert_eq!(p.expiration.weekday(), Weekday::Fri, "a listed expiration");
    assert_eq!(p.underlying_price, (spot * 100.0).round() / 100.0);
    assert_eq!(p.rsi, latest.rsi14.map(|rsi| (rsi * 10.0).round() / 10.0));
    assert_eq!(p.volume, Some(latest.volume.round() as u64));
    // The entry is the model premium at the quoted σ.
    let bs = BlackScholes::new(OptionInputs {
        spot,
        strike: p.strike,
        rate: 0.04,
        dividend_yield: 0.0,
        volatility: p.volatility,
        time_to_expiry: years_between(latest.date, p.expiration),
    })
    .expect("valid model inputs");
    let model = bs.price(p.signal_type.option_type());
    assert!((model - p.entry_price).abs() <= 0.005 + 1e-9);
    assert!(p.volatility >= 0.10);
    // The reasoning names the trade and its numbers.
    assert!(p.reasoning.contains(p.strategy.label()));
    assert!(p.reasoning.contains(p.signal_type.as_str()));
    assert!(p.reasoning.contains(&format!("{:.2}", p.strike)));
    assert!(p.reasoning.contains(&format!("{:.2}", p.entry_price)));
    assert!(p.reasoning.contains(&format!("Confidence {}/100", p.confidence)));
}

#[test]
fn momentum_buys_a_call_in_an_orderly_uptrend() {
    let (state, found) = proposals(&orderly_uptrend());
    let p = by(&found, Strategy::Momentum).expect("momentum fires");
    assert_eq!(p.signal_type, SignalType::Call);
    assert_tradeable(&state, p);
    let s = state.latest().unwrap();
    // First strike above the spot.
    assert!(p.strike > s.close && p.strike - s.close <= strike_increment(s.close));
    let rsi = s.rsi14.unwrap();
    assert!(rsi > 50.0 && rsi < 70.0);
    assert!(p.reasoning.contains(&format!("RSI {rsi:.1} within 50–70")));
    assert!(p.reasoning.contains(&format!("EMA20 {:.2} above EMA50 {:.2}", s.ema20.unwrap(), s.ema50.unwrap())));
    assert!(p.reasoning.contains("histogram rising"));
}

#[test]
fn momentum_buys_a_put_in_the_mirror_downtrend() {
    let (state, found) = proposals(&orderly_uptrend().mirrored());
    let p = by(&found, Strategy::Momentum).expect("momentum fires");
    assert_eq!(p.signal_type, SignalType::Put);
    assert_tradeable(&state, p);
    let s = state.latest().unwrap();
    assert!(p.strike < s.close && s.close - p.strike <= strike_increment(s.close));
    assert!(p.reasoning.contains("below EMA50") && p.reasoning.contains("histogram falling"));
}

#[test]
fn momentum_does_not_chase_an_overbought_run() {
    let (state, found) = proposals(&overbought_run());
    assert!(state.latest().unwrap().rsi14.unwrap() > 70.0);
    assert!(by(&found, Strategy::Momentum).is_none());
}

#[test]
fn mean_reversion_buys_a_call_after_a_capitulation() {
    let (state, found) = proposals(&capitulation());
    let p = by(&found, Strategy::MeanReversion).expect("mean reversion fires");
    assert_eq!(p.signal_type, SignalType::Call);
    assert_tradeable(&state, p);
    let s = state.latest().unwrap();
    let (rsi, lower) = (s.rsi14.unwrap(), s.bollinger.unwrap().lower);
    assert!(rsi < 30.0 && s.close < lower);
    // At the money: the nearest listed strike.
    assert!((p.strike - s.close).abs() <= strike_increment(s.close) / 2.0);
    assert!(p.reasoning.contains(&format!("RSI {rsi:.1} below 30; close {:.2} under the lower Bollinger band {lower:.2}", s.close)));
    // No momentum call into a falling knife, and no put either: RSI is below 30.
    assert!(by(&found, Strategy::Momentum).is_none());
}

#[test]
fn mean_reversion_buys_a_put_after_a_blow_off() {
    let (state, found) = proposals(&capitulation().mirrored());
    let p = by(&found, Strategy::MeanReversion).expect("mean reversion fires");
    assert_eq!(p.signal_type, SignalType::Put);
    assert_tradeable(&state, p);
    assert!(p.reasoning.contains("over the upper Bollinger band"));
}

#[test]
fn mean_reversion_leaves_an_orderly_decline_alone() {
    // RSI is pinned under 30, but the price walks down inside its bands: nothing is
    // stretched, so there is no snap-back to trade.
    let (state, found) = proposals(&orderly_decline());
    let s = state.latest().unwrap();
    assert!(s.rsi14.unwrap() < 30.0);
    assert!(s.close > s.bollinger.unwrap().lower);
    assert!(by(&found, Strategy::MeanReversion).is_none());
}

#[test]
fn breakout_buys_a_call_above_the_range_on_heavy_volume() {
    let (state, found) = proposals(&range_then(104.0, 3e6));
    let p = by(&found, Strategy::Breakout).expect("breakout fires");
    assert_eq!(p.signal_type, SignalType::Call);
    assert_tradeable(&state, p);
    let s = state.latest().unwrap();
    assert_eq!(p.strike, 105.0, "first OTM strike on the $2.50 grid above 104");
    assert!(p.reasoning.contains(&format!("close 104.00 above the prior 20-day high {:.2}", s.prior_high20.unwrap())));
    assert!(p.reasoning.contains("volume 3.00M above 1.5× the 20-day average 1.00M (3.0×)"));
    // The close is also over the upper band with RSI above 70, so Mean Reversion's PUT
    // rule fires too; the weaker, contradicting direction is not proposed.
    assert!(s.rsi14.unwrap() > 70.0 && s.close > s.bollinger.unwrap().upper);
    assert!(found.iter().all(|p| p.signal_type == SignalType::Call), "{found:?}");
}

#[test]
fn breakout_buys_a_put_below_the_range_on_heavy_volume() {
    let (state, found) = proposals(&range_then(96.0, 2.5e6));
    let p = by(&found, Strategy::Breakout).expect("breakout fires");
    assert_eq!(p.signal_type, SignalType::Put);
    assert_tradeable(&state, p);
    assert_eq!(p.strike, 95.0, "first OTM strike on the $1 grid below 96");
}

#[test]
fn breakout_needs_volume_and_a_close_beyond_the_range() {
    // Beyond the range on ordinary volume: not confirmed.
    let (_, found) = proposals(&range_then(104.0, 1.2e6));
    assert!(by(&found, Strategy::Breakout).is_none());
    // Heavy volume inside the range: nothing broke.
    let (_, found) = proposals(&range_then(100.5, 4e6));
    assert!(by(&found, Strategy::Breakout).is_none());
}

#[test]
fn volatility_buys_a_straddle_when_volatility_is_cheap() {
    let (state, found) = proposals(&volatility_crush());
    let p = by(&found, Strategy::Volatility).expect("volatility fires");
    assert_eq!(p.signal_type, SignalType::Straddle);
    assert_tradeable(&state, p);
    let s = state.latest().unwrap();
    assert!(s.hv_rank.unwrap() < 20.0 && s.hv_percentile.unwrap() < 25.0);
    // At the money, 30+ days, and the premium is a call plus a put.
    assert!((p.strike - s.close).abs() <= strike_increment(s.close) / 2.0);
    assert!((p.expiration - s.date).num_days() >= 30);
    let bs = BlackScholes::new(OptionInputs {
        spot: s.close,
        strike: p.strike,
        rate: Assumptions::default().rate,
        dividend_yield: 0.0,
        volatility: p.volatility,
        time_to_expiry: years_between(s.date, p.expiration),
    })
    .unwrap();
    let legs = bs.price(OptionType::Call) + bs.price(OptionType::Put);
    assert!((legs - p.entry_price).abs() <= 0.005 + 1e-9);
    // The stop is half the premium.
    assert_eq!(p.stop_loss, ((p.entry_price * 50.0).round()) / 100.0);
    // HV under the 10% floor is priced at the floor, and the reasoning says so.
    assert!(s.hv20.unwrap() < 0.10);
    assert_eq!(p.volatility, 0.10);
    assert!(p.reasoning.contains("floored"));
}

#[test]
fn volatility_does_not_buy_expanding_volatility() {
    let (state, found) = proposals(&volatility_expansion());
    assert!(state.latest().unwrap().hv_rank.unwrap() > 50.0);
    assert!(by(&found, Strategy::Volatility).is_none());
}

#[test]
fn a_calm_trendless_market_proposes_nothing_and_says_so_on_demand() {
    let (state, found) = proposals(&calm());
    assert!(found.is_empty(), "{found:?}");
    let best = state.propose_best(&context(&state, &fridays)).unwrap();
    assert!(best.confidence < 50);
    assert!(best.reasoning.starts_with("Weak setup: no strategy's rule fully triggers"));
    assert!(best.target_price > best.entry_price && best.entry_price > best.stop_loss);
}

#[test]
fn on_demand_prefers_a_firing_rule() {
    for series in [orderly_uptrend(), capitulation(), range_then(104.0, 3e6), volatility_crush()] {
        let (state, found) = proposals(&series);
        let best = state.propose_best(&context(&state, &fridays)).unwrap();
        let strongest = found.iter().max_by_key(|p| p.confidence).unwrap();
        assert_eq!(best.confidence, strongest.confidence);
        assert!(found.contains(&best));
        assert!(!best.reasoning.starts_with("Weak"));
    }
}

#[test]
fn at_most_one_proposal_per_strategy() {
    for series in
        [orderly_uptrend(), overbought_run(), capitulation(), capitulation().mirrored(), range_then(104.0, 3e6), volatility_crush()]
    {
        let (_, found) = proposals(&series);
        for strategy in Strategy::ALL {
            assert!(found.iter().filter(|p| p.strategy == strategy).count() <= 1);
        }
        // In Strategy::ALL order.
        assert!(found.windows(2).all(|w| w[0].strategy < w[1].strategy));
    }
}
