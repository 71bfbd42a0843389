//! The simulated market's option chain: what is listed, quotes that hold together (bid ≤
//! ask, Greeks' signs, American bounds), an implied volatility that is a market of its own
//! (skewed, term-structured, moving with realised volatility, not the listing's parameter),
//! the query's bounds, determinism; and the 30-day at-the-money reading taken from it.

use chrono::{DateTime, Datelike, Days, NaiveDate, TimeZone, Utc};
use strikeline_market::calendar::{Calendar, to_new_york};
use strikeline_market::options::{ChainQuery, OptionChain, OptionRight, constant_maturity_atm, listed_expirations, strike_increment};
use strikeline_market::simulated::OPTIONS_RATE;
use strikeline_market::{MarketData, SimulatedMarket};
use strikeline_quant::{IvInputs, OptionType, implied_volatility};

fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).single().expect("an instant")
}

fn chain(market: &SimulatedMarket, symbol: &str, query: ChainQuery, when: DateTime<Utc>) -> OptionChain {
    market.option_chain(symbol, &query, when).expect("a chain")
}

fn years_to(expiration: NaiveDate, when: DateTime<Utc>) -> f64 {
    let close = Calendar::nyse().session(expiration).expect("a session").close;
    (close - when).num_seconds() as f64 / (365.0 * 86_400.0)
}

#[test]
fn every_listed_expiration_is_quoted_on_the_strike_grid_in_order() {
    let market = SimulatedMarket::new(42);
    let when = at(2026, 3, 10, 15, 0); // a Tuesday, mid-session
    let chain = chain(&market, "AAPL", ChainQuery::default(), when);
    let listed = listed_expirations(market.calendar(), to_new_york(when).date_naive());
    assert_eq!(chain.expirations(), listed);
    assert_eq!(chain.provider, "simulated");
    assert_eq!(chain.underlying_price, market.quote("AAPL", when).expect("a quote").price);
    let step = strike_increment(chain.underlying_price);
    for contract in &chain.contracts {
        let steps = contract.strike / step;
        assert!((steps - steps.round()).abs() < 1e-9, "{} off the {step} grid", contract.strike);
    }
    let keys: Vec<_> = chain.contracts.iter().map(|c| (c.expiration, (c.strike * 100.0) as i64, c.right)).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "ordered by expiration, strike, call before put, without repeats");
    // Strikes on both sides of the money, wider for later expirations.
    let width = |date: NaiveDate| chain.contracts.iter().filter(|c| c.expiration == date).count();
    assert!(width(listed[0]) >= 2 * 9, "at least the ±10% band");
    assert!(width(*listed.last().expect("a year out")) > width(listed[0]));
}

#[test]
fn quotes_hold_together() {
    let market = SimulatedMarket::new(42);
    let when = at(2026, 3, 10, 15, 0);
    let chain = chain(&market, "MSFT", ChainQuery::default(), when);
    let spot = chain.underlying_price;
    for c in &chain.contracts {
        let (bid, ask) = (c.bid.expect("a bid"), c.ask.expect("an ask"));
        assert!(0.0 <= bid && bid < ask, "{c:?}");
        let g = c.greeks.expect("Greeks");
        assert!(g.gamma >= -1e-9 && g.vega >= -1e-9, "{c:?}");
        match c.right {
            OptionRight::Call => assert!((0.0..=1.0).contains(&g.delta), "{c:?}"),
            OptionRight::Put => assert!((-1.0..=0.0).contains(&g.delta), "{c:?}"),
        }
        let iv = c.implied_volatility.expect("an IV");
        assert!((0.03..3.0).contains(&iv), "{c:?}");
    }
    // American bounds per strike: S − K ≤ C − P ≤ S − K·e^{−rT} (mids, within the spreads).
    for pair in chain.contracts.chunks(2) {
        let (call, put) = (&pair[0], &pair[1]);
        assert_eq!(
            (call.right, put.right, call.strike, call.expiration),
            (OptionRight::Call, OptionRight::Put, put.strike, put.expiration)
        );
        let t = years_to(call.expiration, when);
        let spread = call.ask.unwrap() - call.bid.unwrap() + put.ask.unwrap() - put.bid.unwrap();
        let difference = call.mid().unwrap() - put.mid().unwrap();
        assert!(difference >= spot - call.strike - spread, "{call:?} {put:?}");
        assert!(difference <= spot - call.strike * (-OPTIONS_RATE * t).exp() + spread, "{call:?} {put:?}");
    }
}

#[test]
fn a_call_mid_implies_the_quoted_volatility() {
    let market = SimulatedMarket::new(42);
    let when = at(2026, 3, 10, 15, 0);
    let chain = chain(&market, "NVDA", ChainQuery::default(), when);
    let mut checked = 0;
    for c in chain.contracts.iter().filter(|c| c.right == OptionRight::Call && c.mid().is_some_and(|m| m > 1.0)) {
        let greeks = c.greeks.expect("Greeks");
        if greeks.vega < 0.05 {
            continue; // deep in the money: a cent moves the IV a lot
        }
        let inputs = IvInputs {
            price: c.mid().expect("a mid"),
            spot: chain.underlying_price,
            strike: c.strike,
            rate: OPTIONS_RATE,
            dividend_yield: 0.0,
            time_to_expiry: years_to(c.expiration, when),
        };
        let implied = implied_volatility(OptionType::Call, inputs).expect("an IV");
        let quoted = c.implied_volatility.expect("an IV");
        // The mid is the model price within rounding to the cent: half a cent over vega.
        assert!((implied - quoted).abs() <= 0.005 / (100.0 * greeks.vega) + 1e-6, "{c:?}: {implied} vs {quoted}");
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn the_surface_has_a_skew_and_a_term_structure() {
    let market = SimulatedMarket::new(42);
    let when = at(2026, 3, 10, 15, 0);
    let chain = chain(&market, "JPM", ChainQuery::default(), when);
    let spot = chain.underlying_price;
    let expiration = chain.expirations()[4];
    let iv_at = |strike_ratio: f64| {
        chain
            .contracts
            .iter()
            .filter(|c| c.expiration == expiration && c.right == OptionRight::Put)
            .min_by(|a, b| (a.strike - spot * strike_ratio).abs().total_cmp(&(b.strike - spot * strike_ratio).abs()))
            .and_then(|c| c.implied_volatility)
            .expect("a strike")
    };
    assert!(
        iv_at(0.9) > iv_at(1.0) && iv_at(1.0) > iv_at(1.08),
        "downside strikes are dearer: {} {} {}",
        iv_at(0.9),
        iv_at(1.0),
        iv_at(1.08)
    );
    // Term structure: near-dated and year-out at-the-money readings differ.
    let today = to_new_york(when).date_naive();
    let near = constant_maturity_atm(&chain, today, 14).expect("14 days");
    let far = constant_maturity_atm(&chain, today, 40).expect("40 days");
    assert!((near.volatility - far.volatility).abs() > 1e-4, "{near:?} {far:?}");
}

#[test]
fn implied_volatility_is_a_market_of_its_own() {
    let market = SimulatedMarket::new(42);
    let listing = market.listing("AAPL").expect("a listing");
    let calendar = Calendar::nyse();
    let mut day = NaiveDate::from_ymd_opt(2025, 6, 2).expect("a date");
    let mut readings = Vec::new();
    while readings.len() < 120 {
        if let Some(session) = calendar.session(day) {
            let when = session.close - chrono::Duration::minutes(5);
            let spot = market.quote("AAPL", when).expect("a quote").price;
            let query = ChainQuery {
                expiration_from: Some(day + Days::new(7)),
                expiration_to: Some(day + Days::new(70)),
                strike_from: Some(spot * 0.9),
                strike_to: Some(spot * 1.1),
            };
            let chain = market.option_chain("AAPL", &query, when).expect("a chain");
            readings.push(constant_maturity_atm(&chain, day, 30).expect("a 30-day reading").volatility);
        }
        day = day.succ_opt().expect("a date");
    }
    let mean = readings.iter().sum::<f64>() / readings.len() as f64;
    let sd = (readings.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / readings.len() as f64).sqrt();
    assert!(sd > 0.01, "it moves from day to day and month to month: sd {sd}");
    assert!(readings.iter().all(|r| (r - listing.annual_volatility).abs() > 1e-6), "never the listing's parameter");
    assert!(
        (0.5 * listing.annual_volatility..2.0 * listing.annual_volatility).contains(&mean),
        "{mean} around {}",
        listing.annual_volatility
    );
}

#[test]
fn the_query_bounds_the_chain_and_answers_repeat() {
    let market = SimulatedMarket::new(7);
    let when = at(2026, 3, 10, 15, 0);
    let whole = chain(&market, "AAPL", ChainQuery::default(), when);
    let expiration = whole.expirations()[2];
    let spot = whole.underlying_price;
    let query = ChainQuery { strike_from: Some(spot * 0.95), strike_to: Some(spot * 1.05), ..ChainQuery::expiration(expiration) };
    let part = chain(&market, "AAPL", query, when);
    assert!(!part.contracts.is_empty());
    assert!(part.contracts.iter().all(|c| c.expiration == expiration && (spot * 0.95..=spot * 1.05).contains(&c.strike)));
    let expected: Vec<_> = whole.contracts.iter().filter(|c| query.admits(c.expiration, c.strike)).cloned().collect();
    assert_eq!(part.contracts, expected, "the same contracts as in the whole chain");
    assert_eq!(chain(&market, "AAPL", query, when), part, "deterministic");
    // After the close on an expiration day, that expiration is gone.
    let friday = whole.expirations()[0];
    let after_close = Calendar::nyse().session(friday).expect("a session").close + chrono::Duration::minutes(1);
    let later = chain(&market, "AAPL", ChainQuery::default(), after_close);
    assert!(!later.expirations().contains(&friday));
    assert!(later.expirations().iter().all(|d| d.weekday() != chrono::Weekday::Sat));
}

#[tokio::test]
async fn it_answers_through_the_provider_interface() {
    let market: std::sync::Arc<dyn MarketData> = std::sync::Arc::new(SimulatedMarket::new(42));
    let when = at(2026, 3, 10, 15, 0);
    let chain = market.option_chain("AAPL", ChainQuery::default(), when).await.expect("a chain");
    assert!(!chain.contracts.is_empty());
    assert!(market.option_chain("not a symbol", ChainQuery::default(), when).await.is_err());
}
