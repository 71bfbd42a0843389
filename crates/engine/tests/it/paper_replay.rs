//! The paper broker replays a backtest trade by trade (issue 29, item 3; docs/execution.md):
//! each trade's entry mark bought through a market order and its exit mark sold through
//! another, and the account's books give every trade the backtest's P&L to the cent.

use strikeline_engine::backtest::{BacktestConfig, run};
use strikeline_engine::broker::{Contract, Holdings, Leg, Order, OrderType, PaperBroker, Right, Side, TimeInForce};
use strikeline_engine::{Costs, SignalType, Strategy};

use crate::common::*;

#[test]
fn the_paper_broker_gives_every_momentum_backtest_trade_its_pnl_to_the_cent() {
    let series = market(6, 700, 11);
    let config = BacktestConfig { strategies: vec![Strategy::Momentum], contracts_per_trade: 3, ..BacktestConfig::new(day(300), day(699)) };
    let report = run(&config, &series, &fridays);
    assert!(report.trades.len() >= 10, "the market should trade: {}", report.trades.len());
    let broker = PaperBroker { costs: Costs { slippage: config.slippage, commission_per_contract: config.commission_per_contract } };
    let mut book = Holdings::with_cash(config.initial_capital);
    for (i, t) in report.trades.iter().enumerate() {
        let right = match t.signal_type {
            SignalType::Call => Right::Call,
            SignalType::Put => Right::Put,
            SignalType::Straddle => panic!("Momentum trades single legs: {t:?}"),
        };
        let contract =
            Contract { underlying: t.symbol.clone(), right, strike_cents: (t.strike * 100.0).round() as i64, expiration: t.expiration };
        let order = |id: String, side: Side, on| {
            Order::new(id, vec![Leg { contract: contract.clone(), side, ratio: 1 }], t.contracts, OrderType::Market, TimeInForce::Day, on)
                .expect("order")
        };
        let before = book.realised - book.commissions;
        let open = broker.try_fill(&order(format!("open-{i}"), Side::Buy, t.entry_date), &[Some(t.model_entry_price)]).expect("priced");
        let open = open.expect("a market order fills");
        assert!((open.net_price - t.entry_price).abs() < 1e-9, "trade {i}: paid {} against {}", open.net_price, t.entry_price);
        book.apply(&open);
        let close = broker.try_fill(&order(format!("close-{i}"), Side::Sell, t.exit_date), &[Some(t.model_exit_price)]).expect("priced");
        let close = close.expect("a market order fills");
        assert!((-close.net_price - t.exit_price).abs() < 1e-9, "trade {i}: received {} against {}", -close.net_price, t.exit_price);
        book.apply(&close);
        let paper = ((book.realised - book.commissions - before) * 100.0).round() / 100.0;
        assert_eq!(paper, t.pnl, "trade {i}: {t:?}");
    }
    assert!(book.held.is_empty(), "every trade closed: {:?}", book.held);
    // The books end where the backtest's do.
    assert!((book.cash - report.final_equity).abs() < 1e-6, "{} against {}", book.cash, report.final_equity);
}
