//! Portfolio analytics against hand-computed fixtures. The option figures were computed
//! independently (Python, `math.erf`) from the Black–Scholes formulas of
//! `crates/quant/src/pricing.rs`; the risk scores by hand from `docs/risk.md`.

use chrono::{Days, NaiveDate};
use strikeline_engine::portfolio::{
    Allocation, AllocationSignal, ClosedTrade, HeldLeg, InvestmentPreferences, OpenMark, PositionInput, RiskInputs, RiskLevel,
    RiskPosition, RiskTolerance, SizeLimit, StructureHolding, automated_allocation, performance_metrics, risk_assessment, summary,
};
use strikeline_engine::{Assumptions, DisplayMoney, SignalType, Strategy};
use strikeline_quant::DailyReturns;
use strikeline_quant::american::Exercise;
use strikeline_quant::structure::{Instrument, Side};

fn as_of() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 10).expect("a date")
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1.0)
}

fn position(kind: SignalType, strike: f64, entry: f64, volatility: f64, days: u64) -> PositionInput {
    PositionInput {
        symbol: "TEST".into(),
        sector: "Technology".into(),
        kind,
        strike,
        expiration: as_of() + Days::new(days),
        quantity: 1,
        entry_price: entry,
        volatility,
        opened_on: as_of() - Days::new(10),
        target_price: None,
        stop_loss: None,
    }
}

#[test]
fn a_call_valued_greeks_risk_and_performance() {
    // S 100, K 105, r 4%, σ 25%, T = 73/365 = 0.2: call 2.768306 → 2.77.
    let call =
        PositionInput { quantity: 3, target_price: Some(3.50), stop_loss: Some(1.20), ..position(SignalType::Call, 105.0, 2.00, 0.25, 73) };
    let v = call.value(100.0, as_of(), Assumptions::default(), 20_000.0).unwrap();
    assert_eq!(v.current_price, 2.77);
    assert_eq!(v.current_value, 831.0);
    assert_eq!(v.total_cost, 600.0);
    assert_eq!(v.unrealized_pnl, 231.0);
    assert_eq!(v.unrealized_pnl_percent, 38.5);
    assert_eq!((v.days_held, v.days_to_expiry, v.expired), (10, 73, false));
    let g = v.greeks;
    assert!(close(g.delta, 113.605_460_939, 1e-9));
    assert!(close(g.gamma, 10.205_901_742, 1e-9));
    assert!(close(g.theta, -9.891_908_142, 1e-9));
    assert!(close(g.vega, 51.029_508_712, 1e-9));
    assert!(close(g.rho, 21.060_108_860, 1e-9));
    let r = &v.risk;
    assert_eq!((r.max_loss, r.max_gain), (600.0, None));
    assert_eq!(r.breakevens, vec![107.0]);
    assert_eq!(r.position_size_percent, Some(3.0));
    // P(S_T > 107) under the risk-neutral drift from today's 100.
    assert!(close(r.probability_of_profit, 0.277_761_322, 1e-8));
    // (3.50 − 2.00) / (2.00 − 1.20)
    assert!(close(r.risk_reward_ratio.unwrap(), 1.875, 1e-12));
    let p = v.performance;
    assert_eq!(p.total_return, 38.5);
    assert!(close(p.daily_return.unwrap(), 3.310_622_247, 1e-9));
    assert!(close(p.annualized_return.unwrap(), 14_551_700.400_934_737, 1e-9));
    // |Δ·S/V|·σ with the unrounded model price.
    assert!(close(p.volatility.unwrap(), 341.982_544_525, 1e-9));
    assert_eq!(p.sharpe_ratio, None);
}

#[test]
fn a_put_has_a_bounded_gain_and_its_ratio() {
    // S 48, K 50, σ 35%, T = 146/365 = 0.4: put 4.913356 → 4.91. Bought at 3.10.
    let put = position(SignalType::Put, 50.0, 3.10, 0.35, 146);
    let v = put.value(48.0, as_of(), Assumptions::default(), 0.0).unwrap();
    assert_eq!(v.current_price, 4.91);
    assert_eq!((v.current_value, v.total_cost, v.unrealized_pnl), (491.0, 310.0, 181.0));
    assert!(close(v.greeks.delta, -50.058_031_040, 1e-9));
    assert!(close(v.greeks.theta, -1.134_499_798, 1e-9));
    assert!(close(v.greeks.rho, -11.576_484_273, 1e-9));
    assert_eq!(v.risk.max_gain, Some(4_690.0)); // (50 − 3.10) × 100
    assert_eq!(v.risk.breakevens, vec![46.9]);
    assert!(close(v.risk.risk_reward_ratio.unwrap(), 4_690.0 / 310.0, 1e-12));
    assert!(close(v.risk.probability_of_profit, 0.473_556_535, 1e-8));
    assert_eq!(v.risk.position_size_percent, None); // no capital given
}

#[test]
fn a_straddle_is_a_call_plus_a_put() {
    // S = K = 200, σ 30%, T 0.2: straddle 21.346024 → 21.35. Bought at 14.00.
    let straddle = position(SignalType::Straddle, 200.0, 14.0, 0.30, 73);
    let v = straddle.value(200.0, as_of(), Assumptions::default(), 10_000.0).unwrap();
    assert_eq!(v.current_price, 21.35);
    assert!(close(v.greeks.delta, 10.083_047_979, 1e-9));
    assert!(close(v.greeks.gamma, 2.949_764_833, 1e-9));
    assert!(close(v.greeks.theta, -14.533_854_763, 1e-9));
    assert!(close(v.greeks.vega, 70.794_355_993, 1e-9));
    assert!(close(v.greeks.rho, -0.235_985_557, 1e-8));
    assert_eq!(v.risk.breakevens, vec![186.0, 214.0]);
    assert_eq!((v.risk.max_loss, v.risk.max_gain), (1_400.0, None));
    assert_eq!(v.risk.risk_reward_ratio, None);
    // P(S_T < 186) + P(S_T > 214).
    assert!(close(v.risk.probability_of_profit, 0.601_271_347, 1e-8));
}

#[test]
fn an_expired_position_is_worth_its_intrinsic_value() {
    let call = PositionInput { quantity: 2, ..position(SignalType::Call, 100.0, 2.50, 0.3, 0) };
    let v = call.value(103.0, as_of(), Assumptions::default(), 1_000.0).unwrap();
    assert!(v.expired);
    assert_eq!((v.current_price, v.current_value, v.unrealized_pnl), (3.0, 600.0, 100.0));
    assert_eq!((v.greeks.delta, v.greeks.gamma, v.greeks.vega), (200.0, 0.0, 0.0));
    assert_eq!(v.risk.probability_of_profit, 1.0); // 103 > 102.50 already
    assert_eq!(v.performance.volatility, None);
    // After expiry too (a day late).
    let later = call.value(99.0, as_of() + Days::new(1), Assumptions::default(), 1_000.0).unwrap();
    assert_eq!((later.current_price, later.days_to_expiry), (0.0, 0));
    // Bad inputs are refused by the model.
    assert!(call.value(-1.0, as_of(), Assumptions::default(), 1.0).is_err());
    let bad = PositionInput { volatility: 0.0, ..call.clone() };
    assert!(bad.value(100.0, as_of() - Days::new(5), Assumptions::default(), 1.0).is_err());
}

#[test]
fn performance_metrics_of_daily_snapshots() {
    let values = [1000.0, 1020.0, 1010.0, 1050.0, 990.0, 1030.0];
    // Any order: sorted by date.
    let mut snapshots: Vec<(NaiveDate, f64)> = values.iter().enumerate().map(|(i, &v)| (as_of() + Days::new(i as u64), v)).collect();
    snapshots.reverse();
    let m = performance_metrics(&snapshots);
    assert!(close(m.sharpe_ratio.unwrap(), 2.556_393_189_590_348, 1e-12));
    assert!(close(m.volatility.unwrap(), 0.651_811_153_327_407, 1e-12));
    assert!(close(m.max_drawdown.unwrap(), 990.0 / 1050.0 - 1.0, 1e-12));
    assert!(close(m.calmar_ratio.unwrap(), 60.130_820_047_727_58, 1e-9));
    assert!(close(m.recovery_factor.unwrap(), 0.5, 1e-12)); // +30 over a 60 fall
    // The quant crate's definitions, exactly.
    let returns: Vec<f64> = values.windows(2).map(|w| w[1] / w[0] - 1.0).collect();
    let daily = DailyReturns::new(&returns).unwrap();
    assert_eq!(m.sharpe_ratio, daily.sharpe(0.0));
    assert_eq!(m.calmar_ratio, daily.calmar());
    // Undefined cases.
    assert_eq!(performance_metrics(&[]), Default::default());
    let flat = [(as_of(), 100.0), (as_of() + Days::new(1), 100.0), (as_of() + Days::new(2), 100.0)];
    let m = performance_metrics(&flat);
    assert_eq!((m.sharpe_ratio, m.calmar_ratio, m.recovery_factor), (None, None, None));
    assert_eq!(m.max_drawdown, Some(0.0));
}

#[test]
fn the_summary_covers_closed_and_open_positions() {
    let d = |day| NaiveDate::from_ymd_opt(2026, 2, day).unwrap();
    let closed = [
        ClosedTrade { pnl: 50.0, commissions: 1.30, opened_on: d(1), closed_on: d(3) },
        ClosedTrade { pnl: 30.0, commissions: 1.30, opened_on: d(2), closed_on: d(4) },
        ClosedTrade { pnl: -20.0, commissions: 1.30, opened_on: d(2), closed_on: d(9) },
        ClosedTrade { pnl: 40.0, commissions: 1.30, opened_on: d(5), closed_on: d(10) },
        ClosedTrade { pnl: 60.0, commissions: 1.30, opened_on: d(6), closed_on: d(11) },
        ClosedTrade { pnl: 10.0, commissions: 1.30, opened_on: d(10), closed_on: d(12) },
        ClosedTrade { pnl: -25.0, commissions: 1.30, opened_on: d(10), closed_on: d(20) },
    ];
    // One open call worth 600 against 500 paid (expired today, so exactly intrinsic).
    let open_call = PositionInput { quantity: 2, ..position(SignalType::Call, 100.0, 2.50, 0.3, 0) };
    let open = [open_call.value(103.0, as_of(), Assumptions::default(), 2_500.0).unwrap()];
    let s = summary(&closed, &open.iter().map(OpenMark::from).collect::<Vec<_>>(), 1.30, 2_500.0);
    // Realised 145, unrealised 100, less 1.30 paid to open: 243.70.
    assert_eq!((s.realized_pnl, s.unrealized_pnl, s.net_pnl), (145.0, 100.0, 243.70));
    assert_eq!((s.total_value, s.total_pnl_percent), (2_743.70, 9.75));
    assert_eq!(s.open_value, 600.0);
    assert!(close(s.win_rate.unwrap(), 500.0 / 7.0, 1e-12));
    assert_eq!((s.open_positions, s.closed_positions), (1, 7));
    // Holding 2 + 2 + 7 + 5 + 5 + 2 + 10 = 33 days over 7.
    assert!(close(s.avg_holding_period.unwrap(), 33.0 / 7.0, 1e-12));
    assert!(close(s.profit_factor.unwrap(), 190.0 / 45.0, 1e-12));
    assert_eq!((s.largest_win, s.largest_loss), (Some(60.0), Some(-25.0)));
    // In closing order: W W L W W W L → 3.
    assert_eq!(s.consecutive_wins, 3);
    assert_eq!(s.total_commissions, 10.40);
    // Nothing at all.
    let empty = summary(&[], &[], 0.0, 1_000.0);
    assert_eq!((empty.total_value, empty.net_pnl), (1_000.0, 0.0));
    assert_eq!((empty.win_rate, empty.profit_factor, empty.avg_holding_period), (None, None, None));
}

fn risk_position(
    symbol: &str,
    sector: &str,
    cost: f64,
    market_value: f64,
    delta_dollars: f64,
    vega_dollars: f64,
    days_to_expiry: i64,
) -> RiskPosition {
    RiskPosition { symbol: symbol.into(), sector: sector.into(), cost, market_value, delta_dollars, vega_dollars, days_to_expiry }
}

#[test]
fn a_risk_assessment_computed_by_hand() {
    let inputs = RiskInputs {
        capital: 10_000.0,
        max_position_size: 1_000.0,
        drawdown: -0.10,
        positions: vec![
            risk_position("AAPL", "Technology", 1_500.0, 1_800.0, 9_000.0, 40.0, 5),
            risk_position("MSFT", "Technology", 800.0, 600.0, 6_000.0, 30.0, 20),
            risk_position("XOM", "Energy", 700.0, 600.0, -3_000.0, 30.0, 40),
        ],
        money: DisplayMoney::USD,
    };
    let a = risk_assessment(&inputs);
    // factor             value   score   weight  contribution
    // symbol (AAPL)      0.60    70      15      10.5
    // sector (Tech)      0.80    80      10       8
    // net delta          1.20    46.67   15       7
    // net vega           0.10    100     10      10
    // near expiry        0.60    100     10      10
    // position size      1.50    50      10       5
    // capital at risk    0.30    10      15       1.5
    // drawdown           0.10    25      15       3.75
    // total                                      55.75 → 56, moderate
    let scores: Vec<(&str, f64)> = a.factors.iter().map(|f| (f.name, f.score)).collect();
    let expected = [
        ("symbol_concentration", 70.0),
        ("sector_concentration", 80.0),
        ("net_delta", 700.0 / 15.0),
        ("net_vega", 100.0),
        ("near_expiry", 100.0),
        ("position_size", 50.0),
        ("capital_at_risk", 10.0),
        ("drawdown", 25.0),
    ];
    for ((name, score), (want_name, want)) in scores.iter().zip(expected) {
        assert_eq!(*name, want_name);
        assert!(close(*score, want, 1e-9), "{name}: {score} vs {want}");
    }
    assert_eq!(a.factors.iter().map(|f| f.weight).sum::<f64>(), 100.0);
    assert_eq!(a.risk_score, 56);
    assert_eq!(a.risk_level, RiskLevel::Moderate);
    assert_eq!(
        a.risk_factors,
        vec![
            "AAPL is 60.0% of the open positions' value ($1,800.00 of $3,000.00); above 25.0% a single symbol drives the portfolio.",
            "Net vega is $100.00 per volatility point: a 10-point fall in volatility would cost about $1,000.00, 10.0% of capital.",
            "1 of 3 positions (60.0% of the open value) expire within 7 days, where time decay and gamma are steepest.",
            "The Technology sector is 80.0% of the open value ($2,400.00 in 2 positions); one sector's news moves most of the portfolio.",
            "Net delta is $12,000.00 (long), 1.20× your $10,000.00 capital: a 1% move of the underlyings changes the portfolio by about $120.00.",
            "The largest position, AAPL, cost $1,500.00: 1.50× your $1,000.00 maximum position size.",
            "The portfolio is 10.0% below its peak value.",
            "$3,000.00 of premium is at risk in open positions, 30.0% of your $10,000.00 capital; long options can expire worthless.",
        ]
    );
    // The sentences of docs/risk.md, section 4.
    assert_eq!(
        a.recommendations,
        vec![
            "Keep any one symbol under 25.0% of the open value: trim AAPL by about $1,400.00 or add positions in other symbols.",
            "Keep net vega under $20.00 per point (a 10-point move costing under 2.0% of capital): fewer straddles or smaller long-volatility positions.",
            "Close or roll the positions expiring within 7 days (AAPL) before their time value runs out.",
            "Open new positions outside Technology until it is under 40.0% of the open value.",
            "Bring net delta under 0.5× capital ($5,000.00): close part of the long exposure or add positions in the other direction.",
            "Size new positions at or under $1,000.00, and consider trimming AAPL by about $500.00.",
            "Trade smaller until the drawdown is back within 5.0%, and check the stops of the open positions.",
            "Keep the premium at risk under 25.0% of capital ($2,500.00): hold off new positions until closes bring it down.",
        ]
    );
}

#[test]
fn risk_sentences_state_amounts_in_the_readers_currency() {
    let position = risk_position("TSLA", "Consumer", 900.0, 900.0, 0.0, 0.0, 30);
    let inputs = |money| RiskInputs { capital: 1_000.0, max_position_size: 100.0, drawdown: 0.0, positions: vec![position.clone()], money };
    let dollars = risk_assessment(&inputs(DisplayMoney::USD));
    let euros = risk_assessment(&inputs(DisplayMoney::new("€", 0.5)));
    assert_eq!(dollars.risk_score, euros.risk_score, "the currency changes the words, not the figures");
    let size = |a: &strikeline_engine::portfolio::RiskAssessment| {
        a.risk_factors.iter().find(|f| f.contains("maximum position size")).cloned().expect("the position-size factor")
    };
    assert!(size(&dollars).contains("$900.00") && size(&dollars).contains("$100.00"), "{}", size(&dollars));
    assert!(size(&euros).contains("€450.00") && size(&euros).contains("€50.00"), "{}", size(&euros));
    assert!(euros.risk_factors.iter().chain(&euros.recommendations).all(|s| !s.contains('$')), "{euros:?}");
}

#[test]
fn one_oversized_expiring_position_is_very_high_risk() {
    let inputs = RiskInputs {
        capital: 1_000.0,
        max_position_size: 100.0,
        drawdown: -0.30,
        positions: vec![risk_position("TSLA", "Consumer", 900.0, 900.0, 5_000.0, 20.0, 3)],
        money: DisplayMoney::USD,
    };
    let a = risk_assessment(&inputs);
    assert!(a.factors.iter().all(|f| f.score == 100.0));
    assert_eq!((a.risk_score, a.risk_level), (100, RiskLevel::VeryHigh));
    assert_eq!(a.recommendations[0], "Spread new positions over other symbols so that TSLA falls under 25.0% of the open value.");
}

#[test]
fn a_calm_book_is_low_risk_and_one_alarm_makes_it_moderate() {
    let calm = RiskInputs {
        capital: 100_000.0,
        max_position_size: 2_000.0,
        drawdown: -0.01,
        positions: ["A", "B", "C", "D", "E"]
            .iter()
            .zip(["Tech", "Energy", "Health", "Finance", "Utilities"])
            .map(|(s, sector)| risk_position(s, sector, 1_000.0, 1_000.0, 5_000.0, 20.0, 30))
            .collect(),
        money: DisplayMoney::USD,
    };
    let a = risk_assessment(&calm);
    assert_eq!((a.risk_score, a.risk_level), (0, RiskLevel::Low));
    assert!(a.risk_factors.is_empty() && a.recommendations.is_empty());
    // A 25% drawdown alone: 15 points, but at its alarm level.
    let hurt = RiskInputs { drawdown: -0.25, ..calm };
    let a = risk_assessment(&hurt);
    assert_eq!((a.risk_score, a.risk_level), (15, RiskLevel::Moderate));
    assert_eq!(a.risk_factors, vec!["The portfolio is 25.0% below its peak value."]);
    // Nothing open, no capital: nothing to divide by, nothing scored.
    let a = risk_assessment(&RiskInputs::default());
    assert_eq!((a.risk_score, a.risk_level), (0, RiskLevel::Low));
}

#[test]
fn a_valued_position_feeds_the_risk_model() {
    let call = PositionInput { quantity: 3, ..position(SignalType::Call, 105.0, 2.00, 0.25, 73) };
    let v = call.value(100.0, as_of(), Assumptions::default(), 20_000.0).unwrap();
    let r = RiskPosition::from_valuation(&call, &v, 100.0);
    assert_eq!((r.cost, r.market_value, r.days_to_expiry), (600.0, 831.0, 73));
    assert!(close(r.delta_dollars, 11_360.546_093_897, 1e-9));
    assert!(close(r.vega_dollars, 51.029_508_712, 1e-9));
}

#[test]
fn the_allocation_rule() {
    let prefs = InvestmentPreferences {
        preferred_strategies: vec![Strategy::Momentum, Strategy::Breakout],
        risk_tolerance: RiskTolerance::Medium,
        capital: 1_000.0,
        max_position_size: 100.0,
    };
    let signal = AllocationSignal { strategy: Strategy::Breakout, confidence: 65, entry_price: 0.95 };
    // The defaults (capital 1,000, maximum 100): one contract of a $0.95 option.
    assert_eq!(automated_allocation(&signal, &prefs, 0.0), Allocation::Contracts(1));
    // $1.49 a share is $149 a contract: over the $100 maximum.
    let dear = AllocationSignal { entry_price: 1.49, ..signal };
    assert_eq!(automated_allocation(&dear, &prefs, 0.0), Allocation::Refused(SizeLimit::MaxPositionSize));
    // Not a preferred strategy.
    let other = AllocationSignal { strategy: Strategy::Volatility, ..signal };
    assert_eq!(automated_allocation(&other, &prefs, 0.0), Allocation::NotTaken);
    // The floor is inclusive, and depends on the tolerance.
    let below = AllocationSignal { confidence: 64, ..signal };
    assert_eq!(automated_allocation(&below, &prefs, 0.0), Allocation::NotTaken);
    let aggressive = InvestmentPreferences { risk_tolerance: RiskTolerance::High, ..prefs.clone() };
    assert_eq!(automated_allocation(&below, &aggressive, 0.0), Allocation::Contracts(1));
    let conservative = InvestmentPreferences { risk_tolerance: RiskTolerance::Low, ..prefs.clone() };
    assert_eq!(automated_allocation(&signal, &conservative, 0.0), Allocation::NotTaken);
    // Several contracts, capped by the capital left.
    let big = InvestmentPreferences { max_position_size: 500.0, ..prefs.clone() };
    let cheap = AllocationSignal { entry_price: 0.50, ..signal };
    assert_eq!(automated_allocation(&cheap, &big, 0.0), Allocation::Contracts(10));
    assert_eq!(automated_allocation(&cheap, &big, 850.0), Allocation::Contracts(3));
    assert_eq!(automated_allocation(&cheap, &big, 960.0), Allocation::Refused(SizeLimit::Capital));
    // Exactly at the limits.
    let exact = AllocationSignal { entry_price: 1.00, ..signal };
    assert_eq!(automated_allocation(&exact, &prefs, 900.0), Allocation::Contracts(1));
    // Nonsense prices are skipped.
    for entry_price in [0.0, -1.0, f64::NAN] {
        assert_eq!(automated_allocation(&AllocationSignal { entry_price, ..signal }, &prefs, 0.0), Allocation::Refused(SizeLimit::Premium));
    }
}

#[test]
fn very_high_starts_at_85_and_high_at_65() {
    // Every factor at its alarm level but the drawdown (15 points): exactly 85.
    let book = |drawdown: f64, days: i64| RiskInputs {
        capital: 1_000.0,
        max_position_size: 100.0,
        drawdown,
        positions: vec![risk_position("TSLA", "Consumer", 900.0, 900.0, 5_000.0, 20.0, days)],
        money: DisplayMoney::USD,
    };
    let a = risk_assessment(&book(0.0, 3));
    assert_eq!((a.risk_score, a.risk_level), (85, RiskLevel::VeryHigh));
    assert_eq!(a.risk_level.as_str(), "very_high");
    // Nothing near expiry either (10 points fewer): 75, high.
    let a = risk_assessment(&book(0.0, 30));
    assert_eq!((a.risk_score, a.risk_level), (75, RiskLevel::High));
}

// ── Held multi-leg positions ─────────────────────────────────────────────────────────────

fn option_leg(instrument: Instrument, side: Side, strike: f64, expiration: NaiveDate, entry_price: f64) -> HeldLeg {
    HeldLeg { instrument, side, quantity: 1, strike: Some(strike), expiration: Some(expiration), volatility: None, entry_price }
}

fn held(legs: Vec<HeldLeg>, opened_on: NaiveDate) -> StructureHolding {
    StructureHolding { symbol: "TEST".into(), sector: "Technology".into(), legs, exercise: Exercise::European, opened_on }
}

#[test]
fn a_held_straddle_is_valued_as_the_single_leg_straddle_is() {
    let expiration = as_of() + Days::new(40);
    let opened = as_of() - Days::new(5);
    let legs = vec![
        option_leg(Instrument::Call, Side::Long, 100.0, expiration, 3.0),
        option_leg(Instrument::Put, Side::Long, 100.0, expiration, 2.5),
    ];
    let structure = held(legs, opened).value(104.0, as_of(), 0.3, Assumptions::default()).unwrap();
    let single = PositionInput { expiration, opened_on: opened, ..position(SignalType::Straddle, 100.0, 5.5, 0.3, 0) }
        .value(104.0, as_of(), Assumptions::default(), 10_000.0)
        .unwrap();
    assert_eq!(structure.net_premium, single.total_cost);
    // The single-leg path rounds its premium to the cent before multiplying by 100.
    assert!(
        close(structure.current_value, single.current_value, 1.0 / single.current_value),
        "{} vs {}",
        structure.current_value,
        single.current_value
    );
    for (a, b) in [
        (structure.greeks.delta, single.greeks.delta),
        (structure.greeks.gamma, single.greeks.gamma),
        (structure.greeks.theta, single.greeks.theta),
        (structure.greeks.vega, single.greeks.vega),
        (structure.greeks.rho, single.greeks.rho),
    ] {
        assert!(close(a, b, 1e-9), "{a} vs {b}");
    }
    assert_eq!((structure.days_held, structure.days_to_expiry, structure.expired), (5, 40, false));
    let expiry = structure.at_expiry.expect("analysed before expiry");
    assert_eq!(expiry.breakevens, vec![94.5, 105.5]);
    assert_eq!(structure.capital_at_risk, 550.0);
}

#[test]
fn a_calendar_is_settled_at_its_first_expiration_with_the_far_leg_at_the_model() {
    let near = as_of() + Days::new(10);
    let far = as_of() + Days::new(45);
    let legs = vec![option_leg(Instrument::Call, Side::Short, 100.0, near, 1.8), option_leg(Instrument::Call, Side::Long, 100.0, far, 4.0)];
    // Valued two days after the near leg expired, with the stock at 103.
    let v = held(legs, as_of()).value(103.0, near + Days::new(2), 0.25, Assumptions::default()).unwrap();
    assert!(v.expired && v.at_expiry.is_none());
    assert_eq!(v.days_to_expiry, 0);
    let far_left = strikeline_quant::BlackScholes::new(strikeline_quant::OptionInputs {
        spot: 103.0,
        strike: 100.0,
        rate: Assumptions::default().rate,
        dividend_yield: 0.0,
        volatility: 0.25,
        time_to_expiry: 35.0 / 365.0,
    })
    .unwrap()
    .price(strikeline_quant::OptionType::Call);
    let by_hand = (-3.0 + 1.8 + far_left - 4.0) * 100.0;
    assert!((v.unrealized_pnl - by_hand).abs() <= 0.01, "{} vs {by_hand}", v.unrealized_pnl);
    assert_eq!(v.net_premium, 220.0);
}

#[test]
fn an_unbounded_loss_is_at_risk_as_the_loss_if_the_stock_doubles() {
    let expiration = as_of() + Days::new(30);
    let naked = held(vec![option_leg(Instrument::Call, Side::Short, 100.0, expiration, 2.0)], as_of());
    let v = naked.value(100.0, as_of(), 0.3, Assumptions::default()).unwrap();
    // At expiry with the stock at 200: −(200 − 100) + 2 = −98 a share.
    assert_eq!(v.capital_at_risk, 9_800.0);
    assert_eq!(v.net_premium, -200.0);
    let risk = naked.risk_position(&v, 100.0);
    assert_eq!((risk.cost, risk.market_value), (9_800.0, v.current_value));
    assert!(risk.delta_dollars < 0.0 && risk.vega_dollars < 0.0);
    // Closing a short costs money: the value is negative, and the summary counts it so.
    let s = summary(&[], &[OpenMark::from(&v)], 0.0, 10_000.0);
    assert_eq!(s.unrealized_pnl, v.unrealized_pnl);
    assert_eq!(s.open_value, v.current_value);
}

#[test]
fn a_structure_without_an_option_leg_is_refused() {
    let stock = HeldLeg {
        instrument: Instrument::Stock,
        side: Side::Long,
        quantity: 100,
        strike: None,
        expiration: None,
        volatility: None,
        entry_price: 50.0,
    };
    assert!(held(vec![stock], as_of()).value(50.0, as_of(), 0.3, Assumptions::default()).is_err());
}
