//! Multi-leg structures: every template's expiry figures by hand, a fuzz of random
//! structures against a dense grid, and the Greeks against finite differences.

use crate::rng::Rng;
use strikeline_quant::american::Exercise;
use strikeline_quant::normal::cdf;
use strikeline_quant::structure::{
    CONTRACT_MULTIPLIER, Extreme, Instrument, Leg, ProfitRange, Side, Structure, StructureError, Template, TemplateInputs, Underlying,
};
use strikeline_quant::{Field, PriceGrid};

const MARKET: Underlying = Underlying { spot: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.25 };
const NEAR: f64 = 30.0 / 365.0;
const FAR: f64 = 60.0 / 365.0;

fn inputs() -> TemplateInputs {
    TemplateInputs { center: 100.0, width: 5.0, expiry: NEAR, far_expiry: FAR, contracts: 1, exercise: Exercise::European }
}

/// The template's legs with the given entry prices (per share, in leg order).
fn priced(template: Template, premiums: &[f64]) -> Structure {
    let mut legs = template.legs(MARKET, inputs()).expect("template");
    assert_eq!(legs.len(), premiums.len(), "{template}");
    for (leg, &premium) in legs.iter_mut().zip(premiums) {
        leg.entry_price = premium;
    }
    Structure::new(MARKET, legs).expect("structure")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn assert_extreme(actual: Extreme, pnl: Option<f64>, what: &str) {
    match (actual, pnl) {
        (Extreme::Unbounded, None) => {}
        (Extreme::At { pnl: got, .. }, Some(want)) => assert!(close(got, want), "{what}: {got} ≠ {want}"),
        _ => panic!("{what}: {actual:?}, expected {pnl:?}"),
    }
}

/// Hand-derived figures (per template of one contract, ×100 shares): the net premium,
/// maximum profit and loss (`None`: unbounded) and breakevens.
#[test]
fn every_template_at_expiry_matches_the_hand_derived_figures() {
    type Case = (Template, &'static [f64], f64, Option<f64>, Option<f64>, &'static [f64]);
    let cases: [Case; 17] = [
        (Template::LongCall, &[3.0], 300.0, None, Some(-300.0), &[103.0]),
        (Template::ShortCall, &[3.0], -300.0, Some(300.0), None, &[103.0]),
        (Template::LongPut, &[3.0], 300.0, Some(9_700.0), Some(-300.0), &[97.0]),
        (Template::ShortPut, &[3.0], -300.0, Some(300.0), Some(-9_700.0), &[97.0]),
        // Stock at 100, a 105 call sold for 1.50: capped at 105, a share's loss below.
        (Template::CoveredCall, &[100.0, 1.5], 9_850.0, Some(650.0), Some(-9_850.0), &[98.5]),
        (Template::ProtectivePut, &[100.0, 1.2], 10_120.0, None, Some(-620.0), &[101.2]),
        (Template::Collar, &[100.0, 1.2, 1.5], 9_970.0, Some(530.0), Some(-470.0), &[99.7]),
        (Template::BullCallSpread, &[3.1, 1.1], 200.0, Some(300.0), Some(-200.0), &[102.0]),
        (Template::BearCallSpread, &[3.1, 1.1], -200.0, Some(200.0), Some(-300.0), &[102.0]),
        (Template::BullPutSpread, &[1.2, 3.0], -180.0, Some(180.0), Some(-320.0), &[98.2]),
        (Template::BearPutSpread, &[1.2, 3.0], 180.0, Some(320.0), Some(-180.0), &[98.2]),
        (Template::Straddle, &[3.1, 3.0], 610.0, None, Some(-610.0), &[93.9, 106.1]),
        (Template::Strangle, &[1.2, 1.1], 230.0, None, Some(-230.0), &[92.7, 107.3]),
        (Template::IronCondor, &[0.4, 1.2, 1.1, 0.3], -160.0, Some(160.0), Some(-340.0), &[93.4, 106.6]),
        (Template::IronButterfly, &[1.2, 3.0, 3.1, 1.1], -380.0, Some(380.0), Some(-120.0), &[96.2, 103.8]),
        (Template::CallButterfly, &[6.2, 3.1, 1.1], 110.0, Some(390.0), Some(-110.0), &[96.1, 103.9]),
        (Template::PutButterfly, &[1.2, 3.0, 6.1], 130.0, Some(370.0), Some(-130.0), &[96.3, 103.7]),
    ];
    for (template, premiums, net, profit, loss, breakevens) in cases {
        let s = priced(template, premiums);
        assert!(close(s.net_premium(), net), "{template}: net premium {}", s.net_premium());
        let e = s.at_expiry();
        assert_eq!(e.horizon, NEAR);
        assert_extreme(e.max_profit, profit, &format!("{template} max profit"));
        assert_extreme(e.max_loss, loss, &format!("{template} max loss"));
        assert_eq!(e.breakevens.len(), breakevens.len(), "{template}: {:?}", e.breakevens);
        for (got, want) in e.breakevens.iter().zip(breakevens) {
            assert!(close(*got, *want), "{template}: breakeven {got} ≠ {want}");
        }
        // The probability is that of the profitable ranges under the lognormal at expiry.
        let below = |x: f64| cdf(((x / 100.0).ln() + 0.5 * 0.25 * 0.25 * NEAR) / (0.25 * NEAR.sqrt()));
        let want: f64 = e.profitable.iter().map(|r| r.to.map_or(1.0, below) - if r.from > 0.0 { below(r.from) } else { 0.0 }).sum();
        assert!((e.probability_of_profit - want).abs() < 1e-12, "{template}");
        assert!(e.probability_of_profit > 0.0 && e.probability_of_profit < 1.0, "{template}");
    }
}

#[test]
fn a_breakeven_exactly_at_a_strike_is_found() {
    // A synthetic long stock: a call bought and a put sold at 100 for the same premium.
    let synthetic = Structure::new(MARKET, vec![Leg::call(Side::Long, 1, 100.0, NEAR, 3.0), Leg::put(Side::Short, 1, 100.0, NEAR, 3.0)])
        .expect("structure")
        .at_expiry();
    assert_eq!(synthetic.breakevens, vec![100.0]);
    assert_eq!(synthetic.max_profit, Extreme::Unbounded);
    assert_eq!(synthetic.max_loss, Extreme::At { pnl: -10_000.0, spot: Some(0.0) });
    assert_eq!(synthetic.profitable, vec![ProfitRange { from: 100.0, to: None }]);
}

#[test]
fn profitable_ranges_lie_between_the_breakevens() {
    let condor = priced(Template::IronCondor, &[0.4, 1.2, 1.1, 0.3]).at_expiry();
    assert_eq!(condor.profitable.len(), 1);
    assert!(close(condor.profitable[0].from, 93.4) && close(condor.profitable[0].to.expect("bounded"), 106.6));
    let straddle = priced(Template::Straddle, &[3.1, 3.0]).at_expiry();
    assert_eq!(straddle.profitable.len(), 2);
    assert_eq!(straddle.profitable[0].from, 0.0);
    assert_eq!(straddle.profitable[1].to, None);
    // Short premium is usually likelier to profit than long premium.
    assert!(condor.probability_of_profit > straddle.probability_of_profit);
}

#[test]
fn a_calendar_peaks_at_its_strike_and_its_breakevens_are_zeros() {
    for (template, peak) in [(Template::Calendar, 100.0), (Template::Diagonal, 105.0)] {
        let s = Structure::new(MARKET, template.legs(MARKET, inputs()).expect("legs")).expect("structure");
        let e = s.at_expiry();
        let Extreme::At { pnl, spot } = e.max_profit else { panic!("{template}: bounded") };
        assert_eq!(spot, Some(peak), "{template}: the short call's strike");
        assert!(close(pnl, s.pnl(peak, NEAR, 0.0).expect("pnl")));
        // With r = 0 the loss tends to the debit at both ends.
        assert_extreme(e.max_loss, Some(-s.net_premium()), &format!("{template} max loss"));
        for be in &e.breakevens {
            let at = s.pnl(*be, NEAR, 0.0).expect("pnl");
            assert!(at.abs() < 1e-6, "{template}: P&L {at} at breakeven {be}");
        }
        assert!(e.breakevens[0] < peak);
        if template == Template::Calendar {
            // Both calls at one strike: the far call's value fades on either side.
            assert_eq!(e.breakevens.len(), 2, "{:?}", e.breakevens);
            assert!(peak < e.breakevens[1]);
        } else {
            // The far call is 5 lower: far above, the pair is worth the 5 between the strikes.
            assert_eq!(e.breakevens.len(), 1, "{:?}", e.breakevens);
            assert_eq!(e.profitable.last().map(|r| r.to), Some(None));
        }
    }
}

#[test]
fn the_curve_before_expiry_lies_above_the_expiry_line_for_long_options() {
    let s = priced(Template::Straddle, &[3.1, 3.0]);
    let grid = PriceGrid::new(80.0, 120.0, 41).expect("grid");
    let today = s.pnl_curve(&grid, 0.0, 0.0).expect("today");
    let expiry = s.pnl_curve(&grid, NEAR, 0.0).expect("expiry");
    for (t, e) in today.iter().zip(&expiry) {
        assert!(t.pnl > e.pnl, "{} {} {}", t.spot, t.pnl, e.pnl);
    }
    // Higher volatility raises a long straddle's value before expiry.
    let up = s.pnl_curve(&grid, 0.0, 0.1).expect("shifted");
    assert!(up.iter().zip(&today).all(|(u, t)| u.pnl > t.pnl));
    // And nothing after the first expiry.
    let err = s.pnl_curve(&grid, NEAR + 1.0 / 365.0, 0.0).unwrap_err();
    assert!(matches!(err, StructureError::AfterExpiry { .. }));
    assert_eq!(err.field(), Some(Field::Horizon));
    assert!(err.to_string().contains("after the first leg's expiry"));
}

#[test]
fn bad_legs_are_refused_naming_the_leg_and_the_input() {
    let call = Leg::call(Side::Long, 1, 100.0, NEAR, 2.0);
    let cases: Vec<(Vec<Leg>, Option<usize>, Option<Field>)> = vec![
        (vec![Leg { quantity: 0, ..call }], Some(0), Some(Field::Quantity)),
        (vec![call, Leg { expiry: Some(0.0), ..call }], Some(1), Some(Field::TimeToExpiry)),
        (vec![call, Leg { expiry: None, ..call }], Some(1), Some(Field::TimeToExpiry)),
        (vec![call, call.with_volatility(f64::NAN)], Some(1), Some(Field::Volatility)),
        (vec![call, Leg { entry_price: -1.0, ..call }], Some(1), Some(Field::Premium)),
        (vec![Leg { strike: Some(100.0), ..Leg::stock(Side::Long, 100, 100.0) }, call], Some(0), Some(Field::Strike)),
        (vec![call; 9], None, None),
    ];
    for (legs, leg, field) in cases {
        let err = Structure::new(MARKET, legs).unwrap_err();
        assert_eq!((err.leg(), err.field()), (leg, field), "{err}");
    }
    // A shift that takes a leg's volatility to zero or below names that leg.
    let s = Structure::new(MARKET, vec![call, call.with_volatility(0.1)]).expect("structure");
    let err = s.pnl(100.0, 0.0, -0.1).unwrap_err();
    assert_eq!((err.leg(), err.field()), (Some(1), Some(Field::VolatilityShift)));
    assert!(s.pnl(100.0, 0.0, -0.09).is_ok());
}

#[test]
fn template_names_round_trip_and_stock_legs_match_the_multiplier() {
    assert_eq!(Template::ALL.len(), 19);
    for template in Template::ALL {
        assert_eq!(template.name().parse::<Template>(), Ok(template));
        let legs = template.legs(MARKET, inputs()).expect("legs");
        for leg in legs.iter().filter(|l| l.instrument == Instrument::Stock) {
            assert_eq!(f64::from(leg.quantity), CONTRACT_MULTIPLIER, "{template}: 100 shares a contract");
        }
        // Every template analyses without error at its model prices.
        let e = Structure::new(MARKET, legs).expect("structure").at_expiry();
        assert!((0.0..=1.0).contains(&e.probability_of_profit));
    }
    assert!("butterfly-effect".parse::<Template>().unwrap_err().to_string().contains("iron-condor"));
    let too_wide = TemplateInputs { width: 60.0, ..inputs() };
    assert_eq!(Template::IronCondor.legs(MARKET, too_wide).unwrap_err().field(), Some(Field::Width));
    let backwards = TemplateInputs { far_expiry: NEAR / 2.0, ..inputs() };
    assert_eq!(Template::Calendar.legs(MARKET, backwards).unwrap_err().field(), Some(Field::TimeToExpiry));
}

fn random_structure(rng: &mut Rng, expiries: &[f64]) -> Structure {
    let count = 1 + rng.below(6) as usize;
    let mut legs = Vec::with_capacity(count);
    for _ in 0..count {
        let side = if rng.below(2) == 0 { Side::Long } else { Side::Short };
        let strike = f64::from(70 + 5 * rng.below(13));
        let expiry = expiries[rng.below(expiries.len() as u32) as usize];
        let premium = (rng.next() * 1_000.0).round() / 100.0;
        let quantity = 1 + rng.below(3);
        legs.push(match rng.below(7) {
            0 => Leg::stock(side, 100 * quantity, 100.0 + rng.next() * 4.0 - 2.0),
            1..=3 => Leg::call(side, quantity, strike, expiry, premium),
            _ => Leg::put(side, quantity, strike, expiry, premium),
        });
    }
    if legs.iter().all(|l| l.instrument == Instrument::Stock) {
        legs[0] = Leg::put(Side::Long, 1, 100.0, expiries[0], 2.0);
    }
    Structure::new(MARKET, legs).expect("random structure")
}

/// The P&L on a dense grid (and at every strike): no grid point beats the reported extremes,
/// the extremes are reached, the breakevens are zeros, and the sign of the P&L agrees with
/// the profitable ranges.
fn check_against_grid(s: &Structure, seed: u64, tolerance: f64) {
    let e = s.at_expiry();
    let f = |x: f64| s.pnl(x, e.horizon, 0.0).expect("pnl");
    let scale: f64 = s.legs().iter().map(|l| f64::from(l.quantity) * if l.instrument == Instrument::Stock { 1.0 } else { 100.0 }).sum();
    let tol = tolerance * scale;
    let mut xs: Vec<f64> = (1..=2_000).map(|i| f64::from(i) * 0.1).collect();
    xs.extend(s.legs().iter().filter_map(|l| l.strike));
    xs.sort_by(f64::total_cmp);
    let (mut high, mut low) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut last_signed: Option<(f64, f64)> = None;
    for &x in &xs {
        let y = f(x);
        // Every change of sign has a breakeven between the two prices.
        if y.abs() > tol {
            if let Some((x0, y0)) = last_signed
                && y0.signum() != y.signum()
            {
                assert!(
                    e.breakevens.iter().any(|&be| be >= x0 - 1e-9 && be <= x + 1e-9),
                    "seed {seed}: the P&L changes sign between {x0} and {x} but the breakevens are {:?}",
                    e.breakevens
                );
            }
            last_signed = Some((x, y));
        }
        high = high.max(y);
        low = low.min(y);
        let inside = e.profitable.iter().any(|r: &ProfitRange| x > r.from && r.to.is_none_or(|to| x < to));
        if y > tol {
            assert!(inside, "seed {seed}: P&L {y} at {x} outside the profitable ranges {:?}", e.profitable);
        } else if y < -tol {
            assert!(!inside, "seed {seed}: P&L {y} at {x} inside the profitable ranges {:?}", e.profitable);
        }
    }
    match e.max_profit {
        Extreme::At { pnl, .. } => assert!(high <= pnl + tol, "seed {seed}: grid {high} beats max profit {pnl}"),
        Extreme::Unbounded => assert!(f(2_000.0) > f(1_000.0) + tol, "seed {seed}: unbounded profit must rise"),
    }
    match e.max_loss {
        Extreme::At { pnl, .. } => assert!(low >= pnl - tol, "seed {seed}: grid {low} below max loss {pnl}"),
        Extreme::Unbounded => assert!(f(2_000.0) < f(1_000.0) - tol, "seed {seed}: unbounded loss must fall"),
    }
    // A reported extreme is a P&L the position has somewhere.
    for extreme in [e.max_profit, e.max_loss] {
        if let Extreme::At { pnl, spot: Some(at) } = extreme
            && at > 0.0
        {
            assert!((f(at) - pnl).abs() <= tol, "seed {seed}: extreme {pnl} not at {at}");
        }
    }
    for be in &e.breakevens {
        assert!(f(*be).abs() <= tol, "seed {seed}: P&L {} at breakeven {be}", f(*be));
    }
}

#[test]
fn no_grid_point_beats_the_extremes_of_10000_random_structures() {
    for seed in 1..=10_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let s = random_structure(&mut rng, &[NEAR]);
        check_against_grid(&s, seed, 1e-9);
        // Same expiry: the extremes are exactly a kink's (or an end's) P&L.
        let e = s.at_expiry();
        for extreme in [e.max_profit, e.max_loss] {
            if let Extreme::At { spot: Some(at), .. } = extreme {
                assert!(at == 0.0 || s.legs().iter().any(|l| l.strike == Some(at)), "seed {seed}: extreme at {at} is not a kink");
            }
        }
    }
}

#[test]
fn random_calendars_and_diagonals_hold_to_the_grid_too() {
    for seed in 1..=300u64 {
        let mut rng = Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
        let s = random_structure(&mut rng, &[NEAR, FAR, 0.5]);
        check_against_grid(&s, seed, 1e-7);
    }
}

#[test]
fn american_structures_hold_to_the_grid_and_are_worth_at_least_the_european() {
    let market = Underlying { spot: 100.0, rate: 0.05, dividend_yield: 0.02, volatility: 0.3 };
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0xA24B_AED4_963E_E407) | 1);
        let legs = random_structure(&mut rng, &[NEAR, FAR, 0.5]).legs().to_vec();
        let european = Structure::new(market, legs.clone()).expect("structure");
        let american = european.clone().with_exercise(Exercise::American).expect("american");
        check_against_grid(&american, seed, 1e-6);
        // Long American options are worth at least their European twins (short ones at most).
        for leg in legs.iter().filter(|l| l.instrument != Instrument::Stock) {
            let one = Structure::new(market, vec![*leg]).expect("one leg");
            let (e, a) = (
                one.pnl(100.0, 0.0, 0.0).expect("e"),
                one.clone().with_exercise(Exercise::American).expect("a").pnl(100.0, 0.0, 0.0).expect("a"),
            );
            match leg.side {
                Side::Long => assert!(a >= e - 1e-9, "seed {seed}: {a} < {e}"),
                Side::Short => assert!(a <= e + 1e-9, "seed {seed}: {a} > {e}"),
            }
        }
    }
    // A negative rate cannot be American.
    let negative = Underlying { rate: -0.01, ..market };
    let s = Structure::new(negative, vec![Leg::put(Side::Long, 1, 100.0, NEAR, 2.0)]).expect("structure");
    assert_eq!(s.with_exercise(Exercise::American).unwrap_err().field(), Some(Field::Rate));
}

/// Central differences with one Richardson step: `(4·D(h/2) − D(h)) / 3`.
fn richardson(d: impl Fn(f64) -> f64, h: f64) -> f64 {
    (4.0 * d(h / 2.0) - d(h)) / 3.0
}

#[test]
fn position_greeks_equal_finite_differences_of_its_value() {
    let market = Underlying { spot: 100.0, rate: 0.04, dividend_yield: 0.015, volatility: 0.3 };
    for seed in 1..=200u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let legs = random_structure(&mut rng, &[NEAR, FAR, 0.5]).legs().to_vec();
        let s = Structure::new(market, legs.clone()).expect("structure");
        let t = s.first_expiry() * (0.05 + 0.85 * rng.next());
        let spot = 80.0 + 40.0 * rng.next();
        let g = s.greeks(spot, t, 0.0).expect("greeks");
        let at = |x: f64, t: f64, shift: f64| s.pnl(x, t, shift).expect("pnl");
        let with_rate =
            |r: f64| Structure::new(Underlying { rate: r, ..market }, legs.clone()).expect("structure").pnl(spot, t, 0.0).expect("pnl");
        let delta = richardson(|h| (at(spot + h, t, 0.0) - at(spot - h, t, 0.0)) / (2.0 * h), 0.01);
        let gamma = richardson(|h| (at(spot + h, t, 0.0) - 2.0 * at(spot, t, 0.0) + at(spot - h, t, 0.0)) / (h * h), 0.2);
        let vega = richardson(|h| (at(spot, t, h) - at(spot, t, -h)) / (2.0 * h), 1e-3);
        let theta = richardson(|h| (at(spot, t + h, 0.0) - at(spot, t - h, 0.0)) / (2.0 * h), 1e-4);
        let rho = richardson(|h| (with_rate(market.rate + h) - with_rate(market.rate - h)) / (2.0 * h), 1e-3);
        for (name, analytic, numeric) in
            [("delta", g.delta, delta), ("gamma", g.gamma, gamma), ("vega", g.vega, vega), ("theta", g.theta, theta), ("rho", g.rho, rho)]
        {
            let error = (analytic - numeric).abs() / analytic.abs().max(1.0);
            assert!(error <= 1e-6, "seed {seed}: {name} {analytic} vs finite difference {numeric} (t = {t}, S = {spot})");
        }
    }
}
