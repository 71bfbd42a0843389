//! Custom strategy parameters: the defaults are the live engine to the bit, each
//! parameter moves what it should, and out-of-range values are named.

use strikeline_engine::{DailyBar, Proposal, SignalType, Strategy, StrategyParams, SymbolState};

use crate::common::*;

fn state_with(params: StrategyParams, bars: &[DailyBar]) -> SymbolState {
    let mut state = SymbolState::with_params(params).expect("valid parameters");
    for bar in bars {
        state.update(bar).expect("a valid bar");
    }
    state
}

fn proposals(params: StrategyParams, series: &Series) -> Vec<Proposal> {
    let state = state_with(params, &series.bars);
    state.propose(&context(&state, &fridays))
}

fn find(list: &[Proposal], strategy: Strategy) -> Option<&Proposal> {
    list.iter().find(|p| p.strategy == strategy)
}

fn fixtures() -> Vec<Series> {
    vec![
        orderly_uptrend(),
        overbought_run(),
        capitulation(),
        orderly_decline(),
        range_then(104.0, 3e6),
        volatility_crush(),
        volatility_expansion(),
        calm(),
    ]
}

#[test]
fn the_default_parameters_are_the_live_engine_exactly() {
    for series in fixtures() {
        let live = series.state();
        let custom = state_with(StrategyParams::default(), &series.bars);
        assert_eq!(live.latest(), custom.latest());
        assert_eq!(live.params(), custom.params());
        let ctx = context(&live, &fridays);
        assert_eq!(live.propose(&ctx), custom.propose(&ctx));
        assert_eq!(live.propose_best(&ctx), custom.propose_best(&ctx));
    }
}

#[test]
fn rsi_and_band_thresholds_move_mean_reversion() {
    // Capitulation: RSI 23.0, close under the lower 2σ band → CALL, confidence 77.
    let series = capitulation();
    let base = proposals(StrategyParams::default(), &series);
    assert_eq!(find(&base, Strategy::MeanReversion).unwrap().confidence, 77);
    let strict_rsi = StrategyParams { oversold_rsi: 20.0, ..StrategyParams::default() };
    assert!(find(&proposals(strict_rsi, &series), Strategy::MeanReversion).is_none());
    let loose_rsi = StrategyParams { oversold_rsi: 35.0, ..StrategyParams::default() };
    let loose = proposals(loose_rsi, &series);
    let p = find(&loose, Strategy::MeanReversion).unwrap();
    assert!(p.reasoning.contains("RSI 23.0 below 35"), "{}", p.reasoning);
    // Wider bands: the close is no longer outside them.
    let wide = StrategyParams { bollinger_multiplier: 3.5, ..StrategyParams::default() };
    let state = state_with(wide, &series.bars);
    let b = state.latest().unwrap().bollinger.unwrap();
    let m = series.state().latest().unwrap().bollinger.unwrap();
    assert!((b.middle - m.middle).abs() < 1e-9);
    assert!(((b.upper - b.middle) / (m.upper - m.middle) - 3.5 / 2.0).abs() < 1e-9);
    assert!(find(&proposals(wide, &series), Strategy::MeanReversion).is_none());
}

#[test]
fn breakout_lookback_and_volume_multiple() {
    let series = range_then(104.0, 3e6);
    let strict = StrategyParams { volume_multiple: 3.5, ..StrategyParams::default() };
    assert!(find(&proposals(strict, &series), Strategy::Breakout).is_none());
    let short = StrategyParams { breakout_lookback: 10, volume_multiple: 2.0, ..StrategyParams::default() };
    let list = proposals(short, &series);
    let p = find(&list, Strategy::Breakout).unwrap();
    assert!(p.reasoning.contains("above the prior 10-day high"), "{}", p.reasoning);
    assert!(p.reasoning.contains("above 2× the 10-day average"), "{}", p.reasoning);
}

#[test]
fn exits_and_expirations_follow_the_parameters() {
    let series = range_then(104.0, 3e6);
    let base = proposals(StrategyParams::default(), &series);
    let base = find(&base, Strategy::Breakout).unwrap().clone();
    let far = StrategyParams { target_atr: 3.0, stop_atr: 0.5, min_days_directional: 45, ..StrategyParams::default() };
    let list = proposals(far, &series);
    let p = find(&list, Strategy::Breakout).unwrap();
    assert_eq!((p.strike, p.signal_type), (base.strike, SignalType::Call));
    assert!(p.expiration > base.expiration);
    assert!((p.expiration - series.bars.last().unwrap().date).num_days() >= 45);
    assert!(p.target_price > base.target_price);
    assert!(p.stop_loss > base.stop_loss * (p.entry_price / base.entry_price));
    assert!(p.reasoning.contains("(3 ATR of"), "{}", p.reasoning);
    assert!(p.reasoning.contains("(0.5 ATR against)"), "{}", p.reasoning);

    // Straddle stop as a fraction of the premium.
    let series = volatility_crush();
    let custom =
        StrategyParams { straddle_stop_fraction: 0.4, hv_rank_threshold: 10.0, min_days_straddle: 60, ..StrategyParams::default() };
    let list = proposals(custom, &series);
    let p = find(&list, Strategy::Volatility).unwrap();
    assert_eq!(p.stop_loss, (p.entry_price * 0.4 * 100.0).round() / 100.0);
    assert!(p.reasoning.contains("60% of the premium lost"), "{}", p.reasoning);
    assert!(p.reasoning.contains("below 10"), "{}", p.reasoning);
    assert!((p.expiration - series.bars.last().unwrap().date).num_days() >= 60);
    // HV rank 3.0 is under 10 too, but not under 2.
    let cheaper = StrategyParams { hv_rank_threshold: 2.0, ..StrategyParams::default() };
    assert!(find(&proposals(cheaper, &series), Strategy::Volatility).is_none());
}

#[test]
fn the_momentum_zone_moves_with_its_bounds() {
    // Orderly uptrend: RSI 61.4 within 50–70 → confidence 87.
    let series = orderly_uptrend();
    let base = proposals(StrategyParams::default(), &series);
    assert_eq!(find(&base, Strategy::Momentum).unwrap().confidence, 87);
    let narrow = StrategyParams { momentum_rsi_low: 62.0, ..StrategyParams::default() };
    assert!(find(&proposals(narrow, &series), Strategy::Momentum).is_none());
    let shifted = StrategyParams { momentum_rsi_low: 55.0, momentum_rsi_high: 75.0, ..StrategyParams::default() };
    let list = proposals(shifted, &series);
    let p = find(&list, Strategy::Momentum).unwrap();
    assert!(p.reasoning.contains("within 55–75"), "{}", p.reasoning);
    // Centred at 65 instead of 60: the RSI degree falls from 0.928 to 0.82.
    assert!(p.confidence < 87);
}

#[test]
fn out_of_range_parameters_are_named() {
    let d = StrategyParams::default;
    let cases = [
        (StrategyParams { momentum_rsi_low: 0.0, ..d() }, "momentum_rsi_low"),
        (StrategyParams { momentum_rsi_high: 50.5, ..d() }, "momentum_rsi_high"),
        (StrategyParams { oversold_rsi: 55.0, ..d() }, "oversold_rsi"),
        (StrategyParams { overbought_rsi: 45.0, ..d() }, "overbought_rsi"),
        (StrategyParams { bollinger_multiplier: 0.0, ..d() }, "bollinger_multiplier"),
        (StrategyParams { breakout_lookback: 4, ..d() }, "breakout_lookback"),
        (StrategyParams { volume_multiple: 1.0, ..d() }, "volume_multiple"),
        (StrategyParams { hv_rank_threshold: 0.0, ..d() }, "hv_rank_threshold"),
        (StrategyParams { hv_percentile_threshold: 51.0, ..d() }, "hv_percentile_threshold"),
        (StrategyParams { target_atr: 11.0, ..d() }, "target_atr"),
        (StrategyParams { stop_atr: f64::NAN, ..d() }, "stop_atr"),
        (StrategyParams { straddle_stop_fraction: 1.0, ..d() }, "straddle_stop_fraction"),
        (StrategyParams { min_days_directional: 0, ..d() }, "min_days_directional"),
        (StrategyParams { min_days_straddle: 400, ..d() }, "min_days_straddle"),
    ];
    for (params, field) in cases {
        let err = params.validate().unwrap_err();
        assert_eq!(err.field, field);
        assert!(err.to_string().starts_with(field));
        assert_eq!(SymbolState::with_params(params).unwrap_err().field, field);
    }
    // The range bounds are inclusive.
    let edges = StrategyParams {
        momentum_rsi_low: 1.0,
        momentum_rsi_high: 99.0,
        oversold_rsi: 50.0,
        overbought_rsi: 50.0,
        bollinger_multiplier: 4.0,
        breakout_lookback: 250,
        volume_multiple: 5.0,
        hv_rank_threshold: 50.0,
        hv_percentile_threshold: 1.0,
        target_atr: 0.25,
        stop_atr: 10.0,
        straddle_stop_fraction: 0.05,
        min_days_directional: 365,
        min_days_straddle: 1,
    };
    assert!(edges.validate().is_ok());
}
