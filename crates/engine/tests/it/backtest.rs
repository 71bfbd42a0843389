//! The backtester: no look-ahead, determinism, fills and costs to the cent, exits at
//! target, stop and expiry, warm-up, and statistics that are the quant crate's.

use chrono::NaiveDate;
use strikeline_engine::backtest::{BacktestConfig, BacktestReport, Structuring, SymbolSeries, TradeOutcome, run, sma_crossover, try_run};
use strikeline_engine::{
    Assumptions, DailyBar, OpenSignal, Outcome, SignalType, Strategy, StrategyParams, WARM_UP_BARS, mark, years_between,
};
use strikeline_quant::{BlackScholes, DailyReturns, OptionInputs, OptionType, TradeStats};

use crate::common::*;

fn config(start: NaiveDate, end: NaiveDate) -> BacktestConfig {
    BacktestConfig::new(start, end)
}

fn returns_of(report: &BacktestReport) -> Vec<f64> {
    let mut previous = report.initial_capital;
    report
        .equity_curve
        .iter()
        .map(|p| {
            let r = p.equity / previous - 1.0;
            previous = p.equity;
            r
        })
        .collect()
}

#[test]
fn the_same_inputs_give_the_same_report_whatever_the_order_of_the_series() {
    let series = market(6, 700, 11);
    let c = config(day(300), day(699));
    let a = run(&c, &series, &fridays);
    assert!(a.trades.len() > 20, "the market should trade: {}", a.trades.len());
    assert_eq!(run(&c, &series, &fridays), a);
    let mut reversed = series.clone();
    reversed.reverse();
    assert_eq!(run(&c, &reversed, &fridays), a);
}

#[test]
fn changing_bars_after_day_t_changes_nothing_decided_up_to_t() {
    let series = market(5, 700, 23);
    let c = config(day(300), day(699));
    let full = run(&c, &series, &fridays);
    for t in [day(420), day(555)] {
        // A different future: prices shifted and shaken, volumes swapped around.
        let mut noise = Noise::new(99);
        let altered: Vec<SymbolSeries> = series
            .iter()
            .map(|s| SymbolSeries {
                symbol: s.symbol.clone(),
                bars: s
                    .bars
                    .iter()
                    .map(|b| {
                        if b.date <= t {
                            *b
                        } else {
                            let f = 1.3 * (0.05 * noise.normal()).exp();
                            DailyBar {
                                open: b.open * f,
                                high: b.high * f * 1.01,
                                low: b.low * f * 0.99,
                                close: b.close * f,
                                volume: b.volume * (0.2 + 3.0 * noise.uniform()),
                                ..*b
                            }
                        }
                    })
                    .collect(),
            })
            .collect();
        let other = run(&c, &altered, &fridays);
        // The run that stops at t saw nothing after it.
        let stopped = run(&config(day(300), t), &series, &fridays);

        let entered = |r: &BacktestReport| -> Vec<_> {
            let mut v: Vec<_> = r
                .trades
                .iter()
                .filter(|x| x.entry_date <= t)
                .map(|x| {
                    (
                        x.symbol.clone(),
                        x.strategy,
                        x.signal_type,
                        x.entry_date,
                        x.strike.to_bits(),
                        x.expiration,
                        x.entry_price.to_bits(),
                        x.confidence,
                    )
                })
                .collect();
            v.sort();
            v
        };
        assert!(!entered(&full).is_empty());
        assert_eq!(entered(&full), entered(&other));
        assert_eq!(entered(&full), entered(&stopped));
        // Exits decided up to t are the same trades, to the bit.
        let closed = |r: &BacktestReport| -> Vec<_> {
            r.trades.iter().filter(|x| x.exit_date <= t && x.outcome != TradeOutcome::EndOfTest).cloned().collect::<Vec<_>>()
        };
        assert!(!closed(&full).is_empty());
        assert_eq!(closed(&full), closed(&other));
        assert_eq!(closed(&full), closed(&stopped));
        // So is the equity up to the day before t (t's own point is the last of the
        // stopped run, which closes its open trades there).
        let until = |r: &BacktestReport| -> Vec<_> { r.equity_curve.iter().filter(|p| p.date < t).copied().collect::<Vec<_>>() };
        assert_eq!(until(&full), until(&other));
        assert_eq!(until(&full), until(&stopped));
        // And the altered future did change what came after.
        assert_ne!(full.trades, other.trades);
    }
}

/// The breakout of `docs/strategies.md`: on 2024-10-28 (bar 300) the Breakout CALL 105
/// expiring 2024-11-22 is proposed at 1.12, target 2.50, stop 0.67, σ 13.27%.
fn breakout_then(closes: &[f64]) -> Vec<SymbolSeries> {
    let mut s = range_then(104.0, 3e6);
    for &c in closes {
        s.push(c, 0.002, 1e6);
    }
    vec![SymbolSeries { symbol: "TEST".into(), bars: s.bars }]
}

fn breakout_config(end: NaiveDate) -> BacktestConfig {
    BacktestConfig {
        strategies: vec![Strategy::Breakout],
        contracts_per_trade: 2,
        commission_per_contract: 0.65,
        slippage: 0.01,
        ..config(day(300), end)
    }
}

fn the_signal() -> OpenSignal {
    OpenSignal {
        signal_type: SignalType::Call,
        strike: 105.0,
        expiration: NaiveDate::from_ymd_opt(2024, 11, 22).expect("a date"),
        entry_price: 1.12,
        target_price: 2.50,
        stop_loss: 0.67,
        volatility: 0.1327,
    }
}

#[test]
fn a_target_exit_pays_slippage_and_commissions_to_the_cent() {
    let series = breakout_then(&[108.0]);
    let report = run(&breakout_config(day(301)), &series, &fridays);
    assert_eq!(report.trades.len(), 1);
    let t = &report.trades[0];
    assert_eq!(day(300), NaiveDate::from_ymd_opt(2024, 10, 28).unwrap());
    assert_eq!(
        (t.strategy, t.signal_type, t.strike, t.entry_date, t.exit_date),
        (Strategy::Breakout, SignalType::Call, 105.0, day(300), day(301))
    );
    assert_eq!((t.model_entry_price, t.target_price, t.stop_loss), (1.12, 2.50, 0.67));
    // The live lifecycle's own mark on the next day: 24 days left, spot 108.
    let m = mark(&the_signal(), 108.0, years_between(day(301), the_signal().expiration), false, Assumptions::default()).unwrap();
    assert_eq!(m.outcome, Outcome::TargetHit);
    assert_eq!(m.option_price, 3.64);
    assert_eq!(t.outcome, TradeOutcome::Target);
    // Fills to the cent: entry 1.12 × 1.01 = 1.1312 → 1.13; exit 3.64 × 0.99 = 3.6036 → 3.60.
    assert!((t.entry_price - 1.13).abs() < 1e-12);
    assert!((t.exit_price - 3.60).abs() < 1e-12);
    // 2 contracts: commissions 2 × 0.65 × 2 = 2.60;
    // P&L (3.60 − 1.13) × 100 × 2 − 2.60 = 494.00 − 2.60 = 491.40.
    assert_eq!(t.contracts, 2);
    assert!((t.commissions - 2.60).abs() < 1e-12);
    assert_eq!(t.pnl, 491.4);
    assert_eq!(report.overall.total_pnl, 491.4);
    assert!((report.final_equity - 100_491.4).abs() < 1e-6);
    assert_eq!(report.total_commissions, 2.6);
    assert_eq!(report.overall.win_rate, 100.0);
    assert_eq!(report.overall.avg_holding_period, 1.0);
    // The entry day's equity is the liquidation value: 1.12 × 0.99 = 1.1088 → 1.11, × 200 − 1.30
    // against 1.13 × 200 + 1.30 paid.
    let first = report.equity_curve[0];
    let expected = 100_000.0 - (1.13 * 200.0 + 1.30) + (1.11 * 200.0 - 1.30);
    assert!((first.equity - expected).abs() < 1e-9);
}

/// A fill to the cent, as the fill model gives it.
fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[test]
fn a_stop_exit_and_the_loss() {
    let series = breakout_then(&[101.0]);
    let report = run(&breakout_config(day(301)), &series, &fridays);
    assert_eq!(report.trades.len(), 1);
    let t = &report.trades[0];
    let m = mark(&the_signal(), 101.0, years_between(day(301), the_signal().expiration), false, Assumptions::default()).unwrap();
    assert_eq!(m.outcome, Outcome::StopHit);
    assert_eq!(t.outcome, TradeOutcome::Stop);
    let exit = cents(m.option_price * 0.99);
    assert!((t.exit_price - exit).abs() < 1e-12);
    let pnl = ((exit - 1.13) * 200.0 - 2.60) * 100.0;
    assert_eq!(t.pnl, pnl.round() / 100.0);
    assert!(t.pnl < 0.0);
    assert_eq!(report.overall.win_rate, 0.0);
    // No gross profit over a loss.
    assert_eq!(report.overall.profit_factor, Some(0.0));
    assert_eq!(report.by_strategy[0].losing_trades, 1);
}

#[test]
fn a_trade_between_target_and_stop_runs_to_expiry_at_intrinsic_value() {
    // Wide levels so that only the expiry can close it; the underlying then sits at 106.
    let params = StrategyParams { target_atr: 10.0, stop_atr: 10.0, ..StrategyParams::default() };
    let expiry = NaiveDate::from_ymd_opt(2024, 11, 22).unwrap();
    let days_to_expiry = (expiry - day(300)).num_days() as usize;
    let series = breakout_then(&vec![106.0; days_to_expiry + 5]);
    let c = BacktestConfig { params, contracts_per_trade: 1, slippage: 0.0, ..breakout_config(day(300 + days_to_expiry + 5)) };
    let report = run(&c, &series, &fridays);
    let t = &report.trades[0];
    assert_eq!(t.outcome, TradeOutcome::Expiry);
    assert_eq!(t.exit_date, expiry);
    // Intrinsic value of the 105 call at 106, no slippage.
    assert_eq!(t.exit_price, 1.0);
    assert_eq!(t.entry_price, 1.12);
    // (1.00 − 1.12) × 100 − 2 × 0.65 = −13.30
    assert_eq!(t.pnl, -13.30);
    assert_eq!(t.holding_days(), days_to_expiry as i64);
    assert_eq!(report.trades.len(), 1, "a flat tape proposes no new breakout");
}

#[test]
fn trades_still_open_at_the_end_close_at_their_last_mark_and_are_flagged() {
    let series = breakout_then(&[104.5, 104.8]);
    let report = run(&breakout_config(day(302)), &series, &fridays);
    assert_eq!(report.trades.len(), 1);
    let t = &report.trades[0];
    assert_eq!((t.outcome, t.exit_date), (TradeOutcome::EndOfTest, day(302)));
    let m = mark(&the_signal(), 104.8, years_between(day(302), the_signal().expiration), false, Assumptions::default()).unwrap();
    assert_eq!(m.outcome, Outcome::Active);
    assert!((t.exit_price - cents(m.option_price * 0.99)).abs() < 1e-12);
    // The last equity point is the books after the close.
    assert!((report.final_equity - (100_000.0 + t.pnl)).abs() < 1e-9);
    assert_eq!(report.equity_curve.last().unwrap().equity, report.final_equity);
}

#[test]
fn warm_up_bars_feed_the_indicators_but_open_nothing() {
    // The breakout fires on bar 300; starting the test the day after, it is history.
    let series = breakout_then(&[104.2, 104.4]);
    let report = run(&breakout_config(day(302)).clone_with_start(day(301)), &series, &fridays);
    assert!(report.trades.is_empty());
    assert_eq!(report.equity_curve.len(), 2);
    assert_eq!(report.equity_curve[0].date, day(301));
    assert_eq!(report.bars_processed, 303);

    // Starting on the first bar: nothing can open before the state is warm.
    let series = market(3, 600, 5);
    let report = run(&config(day(0), day(599)), &series, &fridays);
    assert!(!report.trades.is_empty());
    let first_warm = day(WARM_UP_BARS - 1);
    assert!(report.trades.iter().all(|t| t.entry_date >= first_warm));
    assert_eq!(report.equity_curve.len(), 600);
    assert!(report.equity_curve[..WARM_UP_BARS - 1].iter().all(|p| p.equity == 100_000.0));
}

trait WithStart {
    fn clone_with_start(&self, start: NaiveDate) -> BacktestConfig;
}

impl WithStart for BacktestConfig {
    fn clone_with_start(&self, start: NaiveDate) -> BacktestConfig {
        BacktestConfig { start, ..self.clone() }
    }
}

#[test]
fn per_strategy_results_add_up_to_the_overall_ones() {
    let series = market(8, 900, 3);
    let report = run(&config(day(300), day(899)), &series, &fridays);
    let o = report.overall;
    let by = &report.by_strategy;
    assert_eq!(by.len(), 4);
    assert!(by.iter().all(|s| s.total_trades > 0), "{by:?}");
    assert_eq!(by.iter().map(|s| s.total_trades).sum::<usize>(), o.total_trades);
    let pnl: f64 = by.iter().map(|s| s.total_pnl).sum();
    assert!((pnl - o.total_pnl).abs() < 1e-6, "{pnl} vs {}", o.total_pnl);
    let wins: usize = by.iter().map(|s| s.winning_trades).sum();
    assert!((wins as f64 / o.total_trades as f64 * 100.0 - o.win_rate).abs() < 1e-9);
    for s in by {
        let trades: Vec<_> = report.trades.iter().filter(|t| t.strategy == s.strategy).collect();
        assert_eq!(trades.len(), s.total_trades);
        assert_eq!(trades.iter().filter(|t| t.pnl > 0.0).count(), s.winning_trades);
        assert_eq!(trades.iter().filter(|t| t.pnl < 0.0).count(), s.losing_trades);
        assert!((s.avg_pnl - s.total_pnl / s.total_trades as f64).abs() <= 0.005 + 1e-9);
    }
    // The books balance: initial capital + every trade's P&L.
    let total: f64 = report.trades.iter().map(|t| t.pnl).sum();
    assert!((report.final_equity - (100_000.0 + total)).abs() < 1e-6);
    // At most one open trade per symbol and strategy at any time.
    for a in &report.trades {
        for b in &report.trades {
            if std::ptr::eq(a, b) || a.symbol != b.symbol || a.strategy != b.strategy {
                continue;
            }
            assert!(a.exit_date <= b.entry_date || b.exit_date <= a.entry_date, "overlapping {a:?} {b:?}");
        }
    }
    // One strategy alone trades exactly that strategy's live proposals.
    let alone = run(&BacktestConfig { strategies: vec![Strategy::Volatility], ..config(day(300), day(899)) }, &series, &fridays);
    assert_eq!(alone.by_strategy.len(), 1);
    assert!(alone.trades.iter().all(|t| t.strategy == Strategy::Volatility));
    assert!(alone.trades.iter().all(|t| t.signal_type == SignalType::Straddle));
}

#[test]
fn the_statistics_are_the_quant_crates_definitions() {
    let series = market(5, 800, 8);
    let report = run(&config(day(300), day(799)), &series, &fridays);
    let returns = returns_of(&report);
    let daily = DailyReturns::new(&returns).unwrap();
    assert_eq!(report.overall.sharpe_ratio, daily.sharpe(0.0));
    assert!(report.overall.sharpe_ratio.is_some());
    assert_eq!(Some(report.overall.max_drawdown), daily.max_drawdown());
    assert_eq!(report.return_stats, daily.stats(0.0));
    let worst = report.drawdown.iter().map(|d| d.drawdown).fold(0.0, f64::min);
    assert!((worst - report.overall.max_drawdown).abs() < 1e-12);
    assert!(report.drawdown.iter().all(|d| d.drawdown <= 0.0));
    let pnls: Vec<f64> = report.trades.iter().map(|t| t.pnl).collect();
    let stats = TradeStats::new(&pnls).unwrap();
    assert_eq!(report.overall.profit_factor, stats.profit_factor);
    assert_eq!(report.overall.win_rate, stats.win_rate.unwrap() * 100.0);
    // Recovery factor: net profit over the largest dollar fall of the equity curve.
    let mut previous = 100_000.0;
    let changes: Vec<f64> = report
        .equity_curve
        .iter()
        .map(|p| {
            let c = p.equity - previous;
            previous = p.equity;
            c
        })
        .collect();
    assert_eq!(report.overall.recovery_factor, TradeStats::new(&changes).unwrap().recovery_factor);
    let holding: f64 = report.trades.iter().map(|t| t.holding_days() as f64).sum();
    assert!((report.overall.avg_holding_period - holding / pnls.len() as f64).abs() < 1e-12);
}

#[test]
fn capital_limits_the_trades_taken() {
    let series = market(8, 700, 3);
    let small = BacktestConfig { initial_capital: 1_500.0, ..config(day(300), day(699)) };
    let report = run(&small, &series, &fridays);
    assert!(report.skipped_for_capital > 0);
    assert!(report.equity_curve.iter().all(|p| p.equity >= 0.0));
    let rich = run(&config(day(300), day(699)), &series, &fridays);
    assert_eq!(rich.skipped_for_capital, 0);
    assert!(rich.trades.len() > report.trades.len());
}

#[test]
fn bad_bars_are_reported_and_skipped() {
    let mut series = market(2, 400, 4);
    series[0].bars[350].low = series[0].bars[350].high + 1.0;
    let repeat = series[1].bars[360];
    series[1].bars.insert(361, repeat);
    let report = run(&config(day(300), day(399)), &series, &fridays);
    assert_eq!(report.rejected_bars.len(), 2);
    assert_eq!(report.rejected_bars[0].symbol, "S00");
    assert_eq!(report.equity_curve.len(), 100);
}

#[test]
fn invalid_configurations_name_their_field() {
    let ok = config(day(300), day(399));
    assert!(ok.validate().is_ok());
    let cases: Vec<(BacktestConfig, &str)> = vec![
        (config(day(399), day(300)), "end"),
        (BacktestConfig { strategies: vec![], ..ok.clone() }, "strategies"),
        (BacktestConfig { contracts_per_trade: 0, ..ok.clone() }, "contracts_per_trade"),
        (BacktestConfig { commission_per_contract: -1.0, ..ok.clone() }, "commission_per_contract"),
        (BacktestConfig { commission_per_contract: f64::NAN, ..ok.clone() }, "commission_per_contract"),
        (BacktestConfig { slippage: 0.6, ..ok.clone() }, "slippage"),
        (BacktestConfig { initial_capital: 0.0, ..ok.clone() }, "initial_capital"),
        (BacktestConfig { initial_capital: f64::INFINITY, ..ok.clone() }, "initial_capital"),
        (BacktestConfig { assumptions: Assumptions { rate: 2.0, dividend_yield: 0.0 }, ..ok.clone() }, "assumptions.rate"),
        (
            BacktestConfig { params: StrategyParams { hv_rank_threshold: 70.0, ..StrategyParams::default() }, ..ok.clone() },
            "hv_rank_threshold",
        ),
    ];
    for (c, field) in cases {
        assert_eq!(c.validate().unwrap_err().field, field);
        assert_eq!(try_run(&c, &[], &fridays).unwrap_err().field, field);
    }
}

#[test]
#[should_panic(expected = "invalid backtest configuration: slippage")]
fn run_panics_on_an_invalid_configuration() {
    let c = BacktestConfig { slippage: -0.1, ..config(day(300), day(399)) };
    let _ = run(&c, &[], &fridays);
}

#[test]
fn no_series_or_no_dates_in_range_give_an_empty_report() {
    let report = run(&config(day(300), day(399)), &[], &fridays);
    assert!(report.trades.is_empty() && report.equity_curve.is_empty());
    assert_eq!((report.final_equity, report.total_return), (100_000.0, 0.0));
    assert_eq!(report.overall.sharpe_ratio, None);
    assert_eq!(report.overall.max_drawdown, 0.0);
    let series = market(1, 200, 1);
    let report = run(&config(day(300), day(399)), &series, &fridays);
    assert!(report.equity_curve.is_empty());
    assert_eq!(report.bars_processed, 200);
}

#[test]
fn custom_parameters_change_what_is_traded() {
    // The breakout came on 3× volume: a 3.5× requirement lets it pass.
    let series = breakout_then(&[108.0]);
    let strict =
        BacktestConfig { params: StrategyParams { volume_multiple: 3.5, ..StrategyParams::default() }, ..breakout_config(day(301)) };
    assert!(run(&strict, &series, &fridays).trades.is_empty());
    assert_eq!(run(&breakout_config(day(301)), &series, &fridays).trades.len(), 1);
}

#[test]
fn sma_crossover_on_a_hand_made_series() {
    // SMA(2) and SMA(3) of these closes (first values on bars 1 and 2):
    //   bar   close  sma2   sma3   side
    //   2     10     10     10     equal: none yet
    //   3      9     9.5    9.67   below
    //   4      8     8.5    9      below
    //   5     10     9      9      equal: still below
    //   6     12     11     10     above → buy at 12
    //   7     13     12.5   11.67  above
    //   8     11     12     12     equal: still above
    //   9      9     10     11     below → sell at 9
    //   10    10     9.5    10     below
    //   11    14     12     11     above → buy at 14, held to the end (last close 15)
    //   12    15     14.5   13     above
    let closes = [10.0, 10.0, 10.0, 9.0, 8.0, 10.0, 12.0, 13.0, 11.0, 9.0, 10.0, 14.0, 15.0];
    let bars: Vec<DailyBar> =
        closes.iter().enumerate().map(|(i, &c)| DailyBar { date: day(i), open: c, high: c, low: c, close: c, volume: 1.0 }).collect();
    let r = sma_crossover(&bars, 2, 3);
    assert_eq!(r.trades.len(), 1);
    let t = r.trades[0];
    assert_eq!((t.entry_date, t.entry_price, t.exit_date, t.exit_price), (day(6), 12.0, day(9), 9.0));
    assert_eq!(r.open_position, Some((day(11), 14.0)));
    let expected = 9.0 / 12.0 * (15.0 / 14.0);
    assert!((r.final_equity - expected).abs() < 1e-15);
    assert!((r.total_return - (expected - 1.0)).abs() < 1e-15);
    assert_eq!(r.bars, 13);
    assert_eq!(r.bars_in_market, 3 + 2);
    // Degenerate periods trade nothing.
    for (fast, slow) in [(0, 3), (3, 3), (5, 2)] {
        let r = sma_crossover(&bars, fast, slow);
        assert!(r.trades.is_empty() && r.open_position.is_none());
        assert_eq!(r.final_equity, 1.0);
    }
    assert_eq!(sma_crossover(&[], 10, 30).final_equity, 1.0);
}

#[test]
fn sma_crossover_follows_the_last_strict_side() {
    // A long random walk: every buy follows a bar below, every sell a bar above, and
    // buys and sells alternate.
    let mut s = Series::new();
    s.walk(2_000, 0.015, &mut Noise::new(17));
    let r = sma_crossover(&s.bars, 10, 30);
    assert!(r.trades.len() > 20);
    for pair in r.trades.windows(2) {
        assert!(pair[0].exit_date <= pair[1].entry_date);
    }
    let equity = r.trades.iter().fold(1.0, |e, t| e * t.exit_price / t.entry_price);
    let equity = match r.open_position {
        Some((_, price)) => equity * s.bars.last().unwrap().close / price,
        None => equity,
    };
    assert!((equity - r.final_equity).abs() < 1e-12);
}

#[test]
fn withheld_setups_are_traded_by_nobody_and_counted_in_no_figure() {
    use strikeline_engine::backtest::Withheld;
    let series = market(6, 700, 11);
    let open = run(&config(day(300), day(699)), &series, &fridays);
    // Withhold every trade of the first symbol's momentum setup.
    let symbol = open.trades[0].symbol.clone();
    let strategy = open.trades[0].strategy;
    let hidden: Vec<_> = open.trades.iter().filter(|t| t.symbol == symbol && t.strategy == strategy).collect();
    let withheld = hidden.iter().map(|t| Withheld { symbol: symbol.clone(), strategy, from: t.entry_date, to: t.entry_date }).collect();
    let report = run(&BacktestConfig { withheld, ..config(day(300), day(699)) }, &series, &fridays);
    // The same setups ran (one signal per setup, as live): the withheld trades are listed by
    // when they ran and nothing else, and every other trade is exactly as before.
    assert_eq!(
        report.withheld.iter().map(|w| (w.entry_date, w.exit_date)).collect::<Vec<_>>(),
        hidden.iter().map(|t| (t.entry_date, t.exit_date)).collect::<Vec<_>>()
    );
    let shown: Vec<_> = open.trades.iter().filter(|t| !(t.symbol == symbol && t.strategy == strategy)).cloned().collect();
    assert_eq!(report.trades, shown);
    // No figure includes them: the totals and the books are those of the shown trades.
    let total: f64 = shown.iter().map(|t| t.pnl).sum();
    assert_eq!(report.overall.total_trades, shown.len());
    assert!((report.overall.total_pnl - total).abs() < 0.005, "{} vs {total}", report.overall.total_pnl);
    assert!((report.final_equity - (100_000.0 + total)).abs() < 1e-6);
    let by: usize = report.by_strategy.iter().map(|s| s.total_trades).sum();
    assert_eq!(by, shown.len());
}

// ── Vertical spreads ─────────────────────────────────────────────────────────────────────

fn vertical(c: BacktestConfig, width: f64) -> BacktestConfig {
    BacktestConfig { structuring: Structuring::Vertical { width }, ..c }
}

fn call_value(strike: f64, spot: f64, years: f64, volatility: f64) -> f64 {
    let inputs = OptionInputs { spot, strike, rate: Assumptions::default().rate, dividend_yield: 0.0, volatility, time_to_expiry: years };
    BlackScholes::new(inputs).expect("valid inputs").price(OptionType::Call)
}

#[test]
fn a_call_proposal_traded_as_a_bull_call_spread_to_the_cent() {
    let series = breakout_then(&[108.0]);
    let report = run(&vertical(breakout_config(day(301)), 0.05), &series, &fridays);
    assert_eq!(report.trades.len(), 1);
    let t = &report.trades[0];
    let signal = the_signal();
    // The proposal's 105 call is the long leg; 105 × 1.05 = 110.25, up to the $2.50 grid.
    assert_eq!((t.signal_type, t.strike, t.short_strike), (SignalType::Call, 105.0, Some(112.5)));
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let entry_years = years_between(day(300), signal.expiration);
    let short_entry = round(call_value(112.5, t.entry_underlying, entry_years, signal.volatility));
    assert!(short_entry > 0.0 && short_entry < signal.entry_price);
    assert!((t.model_entry_price - (1.12 - short_entry)).abs() < 1e-12);
    // Slippage against the trader on both legs: the long bought above, the short sold below.
    assert!((t.entry_price - (round(1.12 * 1.01) - round(short_entry * 0.99))).abs() < 1e-12);
    // Next day at 108: the long leg's mark is the live lifecycle's; the short one's the model's.
    let exit_years = years_between(day(301), signal.expiration);
    let long_exit = mark(&signal, 108.0, exit_years, false, Assumptions::default()).unwrap().option_price;
    let short_exit = round(call_value(112.5, 108.0, exit_years, signal.volatility));
    let net = long_exit - short_exit;
    assert!((t.exit_price - (round(long_exit * 0.99) - round(short_exit * 1.01))).abs() < 1e-12);
    // The spread's target: its value at entry with the underlying where the call's own target
    // premium (2.50) is reached.
    let level = strikeline_engine::underlying_levels(&signal, entry_years, Assumptions::default()).unwrap().target[0];
    let target = call_value(105.0, level, entry_years, signal.volatility) - call_value(112.5, level, entry_years, signal.volatility);
    assert!((t.target_price - target).abs() < 1e-9, "{} vs {target}", t.target_price);
    assert!(t.target_price < 7.5, "below the spread's width");
    assert_eq!(t.outcome, if net >= target { TradeOutcome::Target } else { TradeOutcome::EndOfTest });
    // Two legs × two contracts, opened and closed: 4 × 2 × 0.65.
    assert!((t.commissions - 5.20).abs() < 1e-12);
    let pnl = ((t.exit_price - t.entry_price) * 200.0 - 5.20) * 100.0;
    assert_eq!(t.pnl, pnl.round() / 100.0);
    assert!((report.final_equity - (100_000.0 + t.pnl)).abs() < 1e-6);
    // The spread risks less than the call alone and gives up the gain above 112.50.
    let single = run(&breakout_config(day(301)), &series, &fridays);
    assert!(t.entry_price < single.trades[0].entry_price);
    assert!(t.pnl < single.trades[0].pnl);
}

#[test]
fn spreads_keep_their_bounds_and_the_books_balance_over_a_market() {
    let series = market(6, 700, 11);
    let c = vertical(config(day(300), day(699)), 0.05);
    let report = run(&c, &series, &fridays);
    let spreads: Vec<_> = report.trades.iter().filter(|t| t.short_strike.is_some()).collect();
    assert!(spreads.len() > 10, "{} spreads", spreads.len());
    for t in &report.trades {
        let n = f64::from(t.contracts);
        match (t.signal_type, t.short_strike) {
            (SignalType::Call, Some(short)) => assert!(short > t.strike),
            (SignalType::Put, Some(short)) => assert!(short < t.strike && short > 0.0),
            (SignalType::Straddle, None) => continue,
            other => panic!("a {other:?} trade"),
        }
        let width = (t.short_strike.unwrap() - t.strike).abs();
        // A debit spread is worth between 0 and its width; slippage moves the fills by 1% of
        // each leg at most.
        assert!(t.model_entry_price > 0.0 && t.model_entry_price < width, "{t:?}");
        assert!(t.exit_price <= width * 1.01 && t.exit_price >= -0.02 * width, "{t:?}");
        // The loss is at most what was paid and the commissions; the gain at most the width.
        assert!(t.pnl >= -(t.entry_price * 100.0 * n + t.commissions) - 0.01, "{t:?}");
        assert!(t.pnl <= (width - t.entry_price) * 100.0 * n, "{t:?}");
        assert!((t.commissions - 4.0 * 0.65 * n).abs() < 1e-9);
    }
    let total: f64 = report.trades.iter().map(|t| t.pnl).sum();
    assert!((report.final_equity - (c.initial_capital + total)).abs() < 1e-6, "{} vs {}", report.final_equity, total);
    // Deterministic, as every backtest.
    assert_eq!(run(&c, &series, &fridays), report);
    // A width outside 1%–50% is refused by name.
    let err = vertical(config(day(300), day(699)), 0.6).validate().unwrap_err();
    assert_eq!(err.field, "structuring.width");
}
