//! Trade analytics and performance statistics against hand-computed cases.

#![expect(clippy::unwrap_used, reason = "tests")]

use strikeline_quant::normal::cdf;
use strikeline_quant::stats::DailyReturns;
use strikeline_quant::{BlackScholes, Drift, OptionInputs, OptionType, PriceGrid, TradeAnalysis, TradeStats};

fn model(spot: f64, strike: f64, volatility: f64, time_to_expiry: f64) -> BlackScholes {
    BlackScholes::new(OptionInputs { spot, strike, rate: 0.05, dividend_yield: 0.01, volatility, time_to_expiry }).unwrap()
}

/// P(S_T > level) under the lognormal model with drift mu, written out by hand.
fn prob_above(spot: f64, level: f64, mu: f64, sigma: f64, t: f64) -> f64 {
    cdf(((spot / level).ln() + (mu - 0.5 * sigma * sigma) * t) / (sigma * t.sqrt()))
}

#[test]
fn long_call_figures() {
    let m = model(100.0, 105.0, 0.30, 0.25);
    let call = TradeAnalysis::new(m, OptionType::Call, 2.5).unwrap();
    assert_eq!(call.breakevens(), vec![107.5]);
    assert_eq!(call.max_loss(), 2.5);
    assert_eq!(call.max_gain(), None);
    let mu = 0.05 - 0.01;
    let expected = prob_above(100.0, 107.5, mu, 0.30, 0.25);
    assert!((call.probability_of_profit(Drift::RISK_NEUTRAL) - expected).abs() < 1e-15);
    let real_world = prob_above(100.0, 107.5, 0.12, 0.30, 0.25);
    assert!((call.probability_of_profit(Drift::annual(0.12).unwrap()) - real_world).abs() < 1e-15);
    assert!((call.expected_move() - 100.0 * 0.30 * 0.5).abs() < 1e-12);
    assert_eq!(call.pnl_at_expiry(120.0), 12.5);
    assert_eq!(call.pnl_at_expiry(90.0), -2.5);
}

#[test]
fn long_put_figures() {
    let m = model(100.0, 95.0, 0.25, 0.5);
    let put = TradeAnalysis::new(m, OptionType::Put, 3.0).unwrap();
    assert_eq!(put.breakevens(), vec![92.0]);
    assert_eq!(put.max_loss(), 3.0);
    assert_eq!(put.max_gain(), Some(92.0));
    let expected = 1.0 - prob_above(100.0, 92.0, 0.04, 0.25, 0.5);
    assert!((put.probability_of_profit(Drift::RISK_NEUTRAL) - expected).abs() < 1e-15);
}

#[test]
fn long_straddle_figures() {
    let m = model(100.0, 100.0, 0.20, 30.0 / 365.0);
    let straddle = TradeAnalysis::new(m, OptionType::Straddle, 5.0).unwrap();
    assert_eq!(straddle.breakevens(), vec![95.0, 105.0]);
    assert_eq!(straddle.max_loss(), 5.0);
    assert_eq!(straddle.max_gain(), None);
    let t = 30.0 / 365.0;
    let expected = (1.0 - prob_above(100.0, 95.0, 0.04, 0.2, t)) + prob_above(100.0, 105.0, 0.04, 0.2, t);
    assert!((straddle.probability_of_profit(Drift::RISK_NEUTRAL) - expected).abs() < 1e-15);
    // A straddle bought for more than the strike only profits above the upper breakeven.
    let dear = TradeAnalysis::new(m, OptionType::Straddle, 150.0).unwrap();
    assert_eq!(dear.breakevens(), vec![250.0]);
}

#[test]
fn probabilities_at_expiry_are_certain() {
    let m = model(110.0, 100.0, 0.20, 0.0);
    assert_eq!(TradeAnalysis::new(m, OptionType::Call, 5.0).unwrap().probability_of_profit(Drift::RISK_NEUTRAL), 1.0);
    assert_eq!(TradeAnalysis::new(m, OptionType::Call, 15.0).unwrap().probability_of_profit(Drift::RISK_NEUTRAL), 0.0);
    assert_eq!(TradeAnalysis::new(m, OptionType::Put, 1.0).unwrap().probability_of_profit(Drift::RISK_NEUTRAL), 0.0);
}

#[test]
fn pnl_curves_before_and_at_expiry() {
    let m = model(100.0, 100.0, 0.25, 0.5);
    let straddle = TradeAnalysis::at_model_price(m, OptionType::Straddle);
    let grid = PriceGrid::new(80.0, 120.0, 41).unwrap();
    let at_expiry = straddle.pnl_curve(&grid, 0.0).unwrap();
    assert_eq!(at_expiry.len(), 41);
    assert_eq!(at_expiry[0].spot, 80.0);
    assert_eq!(at_expiry[40].spot, 120.0);
    for p in &at_expiry {
        assert!((p.pnl - ((p.spot - 100.0).abs() - straddle.premium())).abs() < 1e-12);
    }
    let midway = straddle.pnl_curve(&grid, 0.25).unwrap();
    for (p, e) in midway.iter().zip(&at_expiry) {
        let value = m.with_spot(p.spot).unwrap().with_time_to_expiry(0.25).unwrap().price(OptionType::Straddle);
        assert!((p.pnl - (value - straddle.premium())).abs() < 1e-12);
        if (p.spot - 100.0).abs() <= 10.0 {
            // Near the strike time value is positive (deep in the money a European put
            // can be worth less than intrinsic when rates are positive).
            assert!(p.pnl > e.pnl, "time value at {}", p.spot);
        }
    }
    // Today, at today's spot, a position bought at the model price has no P&L.
    assert!(straddle.pnl_at(100.0, 0.5).unwrap().abs() < 1e-12);
    assert!(straddle.pnl_curve(&grid, 0.6).is_err());
    assert!(straddle.pnl_curve(&grid, -0.1).is_err());
}

#[test]
fn return_statistics_by_hand() {
    // Equity: 1 → 1.10 → 0.99 → 1.0395 → 0.93555
    let r = DailyReturns::new(&[0.10, -0.10, 0.05, -0.10]).unwrap();
    let mean = (0.10 - 0.10 + 0.05 - 0.10) / 4.0;
    let deviations = [0.10 - mean, -0.10 - mean, 0.05 - mean, -0.10 - mean];
    let sample_var = deviations.iter().map(|d| d * d).sum::<f64>() / 3.0;
    let sharpe = mean / sample_var.sqrt() * 252f64.sqrt();
    assert!((r.sharpe(0.0).unwrap() - sharpe).abs() < 1e-12);
    // Downside deviation over all four periods: √((0.01 + 0.01)/4)
    let downside = (0.02f64 / 4.0).sqrt();
    assert!((r.sortino(0.0).unwrap() - mean / downside * 252f64.sqrt()).abs() < 1e-12);
    // Peak 1.10, trough 0.93555: 0.93555/1.10 − 1
    assert!((r.max_drawdown().unwrap() - (0.93555 / 1.10 - 1.0)).abs() < 1e-12);
    assert!((r.cumulative_return() - (0.93555 - 1.0)).abs() < 1e-12);
    let cagr = 0.93555f64.powf(252.0 / 4.0) - 1.0;
    assert!((r.cagr().unwrap() - cagr).abs() < 1e-12);
    assert!((r.calmar().unwrap() - cagr / (1.0 - 0.93555 / 1.10)).abs() < 1e-12);
    assert!((r.annualized_volatility().unwrap() - (sample_var * 252.0).sqrt()).abs() < 1e-12);

    // A risk-free rate of 2.52% a year is 0.01% a day off every return.
    let rf = 0.0252;
    let excess_mean = mean - 0.0001;
    assert!((r.sharpe(rf).unwrap() - excess_mean / sample_var.sqrt() * 252f64.sqrt()).abs() < 1e-12);
    let excess: Vec<f64> = [0.10, -0.10, 0.05, -0.10].iter().map(|x| x - 0.0001).collect();
    let dd = (excess.iter().map(|e: &f64| e.min(0.0).powi(2)).sum::<f64>() / 4.0).sqrt();
    assert!((r.sortino(rf).unwrap() - excess_mean / dd * 252f64.sqrt()).abs() < 1e-12);
}

#[test]
fn first_day_loss_is_a_drawdown_from_the_starting_value() {
    let r = DailyReturns::new(&[-0.2, 0.1]).unwrap();
    assert!((r.max_drawdown().unwrap() - (-0.2)).abs() < 1e-15);
}

#[test]
fn undefined_return_statistics_are_none() {
    let empty = DailyReturns::new(&[]).unwrap().stats(0.0);
    assert_eq!(
        (empty.sharpe, empty.sortino, empty.max_drawdown, empty.cagr, empty.calmar, empty.annualized_volatility),
        (None, None, None, None, None, None)
    );
    let flat = DailyReturns::new(&[0.01, 0.01, 0.01]).unwrap();
    assert_eq!(flat.sharpe(0.0), None, "zero deviation");
    assert_eq!(flat.sortino(0.0), None, "no downside");
    assert_eq!(flat.calmar(), None, "no drawdown");
    assert_eq!(DailyReturns::new(&[0.01]).unwrap().sharpe(0.0), None, "one return");
    assert_eq!(DailyReturns::new(&[-1.5]).unwrap().cagr(), None, "equity below zero");
    assert!(DailyReturns::new(&[0.01, f64::NAN]).is_err());
}

#[test]
fn trade_statistics_by_hand() {
    // Cumulative: 100, 50, 250, 225, 200, 200, 500, 400
    let s = TradeStats::new(&[100.0, -50.0, 200.0, -25.0, -25.0, 0.0, 300.0, -100.0]).unwrap();
    assert_eq!((s.trades, s.wins, s.losses), (8, 3, 4));
    assert_eq!(s.win_rate, Some(3.0 / 8.0));
    assert_eq!(s.gross_profit, 600.0);
    assert_eq!(s.gross_loss, -200.0);
    assert_eq!(s.net_profit, 400.0);
    assert_eq!(s.profit_factor, Some(3.0));
    assert_eq!(s.max_drawdown, -100.0); // 500 → 400 (and 250 → 200 before it)
    assert_eq!(s.recovery_factor, Some(4.0));
    assert_eq!(s.largest_win, Some(300.0));
    assert_eq!(s.largest_loss, Some(-100.0));
    assert_eq!(s.average_win, Some(200.0));
    assert_eq!(s.average_loss, Some(-50.0));
    assert_eq!(s.expectancy, Some(50.0));
    let (w, l): (f64, f64) = (3.0 / 8.0, 4.0 / 8.0);
    assert!((w * 200.0 + l * -50.0 - 50.0).abs() < 1e-12, "expectancy = win rate × average win + loss rate × average loss");
    assert_eq!(s.longest_winning_streak, 1);
    assert_eq!(s.longest_losing_streak, 2);
}

#[test]
fn drawdown_in_currency_counts_the_zero_start_as_a_peak() {
    let s = TradeStats::new(&[-30.0, -20.0, 100.0]).unwrap();
    assert_eq!(s.max_drawdown, -50.0);
    assert_eq!(s.longest_losing_streak, 2);
    assert_eq!(s.recovery_factor, Some(1.0));
}

#[test]
fn undefined_trade_statistics_are_none() {
    let none = TradeStats::new(&[]).unwrap();
    assert_eq!((none.win_rate, none.expectancy, none.profit_factor, none.recovery_factor), (None, None, None, None));
    assert_eq!((none.largest_win, none.largest_loss), (None, None));
    assert_eq!(none.max_drawdown, 0.0);
    let all_wins = TradeStats::new(&[10.0, 20.0]).unwrap();
    assert_eq!(all_wins.profit_factor, None, "no losses");
    assert_eq!(all_wins.recovery_factor, None, "no drawdown");
    assert_eq!(all_wins.longest_winning_streak, 2);
    assert!(TradeStats::new(&[f64::INFINITY]).is_err());
}
