//! Black–Scholes–Merton and implied volatility: published textbook values, then
//! properties over thousands of random cases (proptest).

#![expect(clippy::unwrap_used, reason = "tests")]

use proptest::prelude::*;
use strikeline_quant::{BlackScholes, IvError, IvInputs, OptionInputs, OptionType, implied_volatility};

fn bs(spot: f64, strike: f64, rate: f64, dividend_yield: f64, volatility: f64, time_to_expiry: f64) -> BlackScholes {
    BlackScholes::new(OptionInputs { spot, strike, rate, dividend_yield, volatility, time_to_expiry }).unwrap()
}

/// Rounds to the number of decimals a book printed.
fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

#[test]
fn hull_example_prices() {
    // Hull, Options, Futures and Other Derivatives, example 15.6.
    let model = bs(42.0, 40.0, 0.10, 0.0, 0.20, 0.5);
    assert_eq!(rounded(model.price(OptionType::Call), 2), 4.76);
    assert_eq!(rounded(model.price(OptionType::Put), 2), 0.81);
}

#[test]
fn hull_example_greeks() {
    // Hull, chapter 19 (The Greek Letters): a 20-week call, S = 49, K = 50.
    let g = bs(49.0, 50.0, 0.05, 0.0, 0.20, 0.3846).greeks(OptionType::Call);
    assert_eq!(rounded(g.delta, 3), 0.522);
    assert_eq!(rounded(g.gamma, 3), 0.066);
    assert_eq!(rounded(g.vega, 1), 12.1);
    assert_eq!(rounded(g.theta, 2), -4.31);
    assert_eq!(rounded(g.theta_per_day(), 4), -0.0118);
    assert_eq!(rounded(g.rho, 2), 8.91);
}

#[test]
fn haug_generalized_black_scholes_examples() {
    // Haug, The Complete Guide to Option Pricing Formulas (2nd ed.), chapter 1. Haug's
    // cost of carry b is r − q here.
    assert_eq!(rounded(bs(60.0, 65.0, 0.08, 0.0, 0.30, 0.25).price(OptionType::Call), 4), 2.1334); // Black–Scholes
    assert_eq!(rounded(bs(100.0, 95.0, 0.10, 0.05, 0.20, 0.5).price(OptionType::Put), 4), 2.4648); // Merton, index
    let black76 = bs(19.0, 19.0, 0.10, 0.10, 0.28, 0.75); // b = 0: option on a future
    assert_eq!(rounded(black76.price(OptionType::Call), 4), 1.7011);
    assert_eq!(rounded(black76.price(OptionType::Put), 4), 1.7011);
    assert_eq!(rounded(bs(1.56, 1.60, 0.06, 0.08, 0.12, 0.5).price(OptionType::Call), 4), 0.0291); // Garman–Kohlhagen
    assert_eq!(rounded(bs(75.0, 70.0, 0.10, 0.05, 0.35, 0.5).price(OptionType::Put), 4), 4.0870); // generalized, b = 0.05
}

#[test]
fn haug_greeks_examples() {
    // Haug, chapter 2.
    let futures = bs(105.0, 100.0, 0.10, 0.10, 0.36, 0.5);
    assert_eq!(rounded(futures.greeks(OptionType::Call).delta, 4), 0.5946);
    assert_eq!(rounded(futures.greeks(OptionType::Put).delta, 4), -0.3566);
    let stock = bs(55.0, 60.0, 0.10, 0.0, 0.30, 0.75).greeks(OptionType::Call);
    assert_eq!(rounded(stock.gamma, 4), 0.0278);
    assert_eq!(rounded(stock.vega, 4), 18.9358);
    assert_eq!(rounded(bs(430.0, 405.0, 0.07, 0.05, 0.20, 0.0833).greeks(OptionType::Put).theta, 4), -31.1924);
    assert_eq!(rounded(bs(72.0, 75.0, 0.09, 0.0, 0.19, 1.0).greeks(OptionType::Call).rho, 4), 38.7325);
}

#[test]
fn expiry_prices_at_intrinsic_value() {
    for (spot, call, put) in [(90.0, 0.0, 10.0), (100.0, 0.0, 0.0), (110.0, 10.0, 0.0)] {
        let model = bs(spot, 100.0, 0.05, 0.02, 0.3, 0.0);
        assert_eq!(model.price(OptionType::Call), call);
        assert_eq!(model.price(OptionType::Put), put);
        assert_eq!(model.price(OptionType::Straddle), call + put);
        let g = model.greeks(OptionType::Call);
        assert_eq!((g.gamma, g.vega, g.theta, g.rho), (0.0, 0.0, 0.0, 0.0));
    }
    assert!(
        implied_volatility(
            OptionType::Call,
            IvInputs { price: 1.0, spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, time_to_expiry: 0.0 }
        )
        .is_err()
    );
}

#[test]
fn invalid_inputs_are_rejected_with_the_field_named() {
    let ok = OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 };
    for bad in [
        OptionInputs { spot: 0.0, ..ok },
        OptionInputs { strike: -1.0, ..ok },
        OptionInputs { rate: f64::NAN, ..ok },
        OptionInputs { dividend_yield: f64::INFINITY, ..ok },
        OptionInputs { volatility: 0.0, ..ok },
        OptionInputs { time_to_expiry: -0.1, ..ok },
        // Implausible values that would overflow the formulas.
        OptionInputs { rate: 5.0, ..ok },
        OptionInputs { volatility: 50.0, ..ok },
        OptionInputs { time_to_expiry: 1000.0, ..ok },
        OptionInputs { spot: 1e300, ..ok },
    ] {
        assert!(BlackScholes::new(bad).is_err(), "{bad:?} accepted");
    }
}

/// Random but sensible market inputs: S in [1, 1000], K within e^{±1} of S, σ from 1% to
/// 200%, T from one day to 5 years, r from −2% to 15%, q from 0 to 10%.
fn market() -> impl Strategy<Value = OptionInputs> {
    (1.0f64..1000.0, -1.0f64..1.0, 0.01f64..2.0, 1.0f64..1826.0, -0.02f64..0.15, 0.0f64..0.10).prop_map(
        |(spot, log_moneyness, volatility, days, rate, dividend_yield)| OptionInputs {
            spot,
            strike: spot * log_moneyness.exp(),
            rate,
            dividend_yield,
            volatility,
            time_to_expiry: days / 365.0,
        },
    )
}

fn kind() -> impl Strategy<Value = OptionType> {
    prop_oneof![Just(OptionType::Call), Just(OptionType::Put), Just(OptionType::Straddle)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn put_call_parity_holds(inputs in market()) {
        let m = BlackScholes::new(inputs).unwrap();
        let lhs = m.price(OptionType::Call) - m.price(OptionType::Put);
        let t = inputs.time_to_expiry;
        let rhs = inputs.spot * (-inputs.dividend_yield * t).exp() - inputs.strike * (-inputs.rate * t).exp();
        prop_assert!((lhs - rhs).abs() <= 1e-12 * (inputs.spot + inputs.strike), "{lhs} vs {rhs}");
        let straddle = m.price(OptionType::Straddle);
        prop_assert!((straddle - m.price(OptionType::Call) - m.price(OptionType::Put)).abs() <= 1e-12 * inputs.spot);
    }

    #[test]
    fn prices_respect_no_arbitrage_bounds(inputs in market()) {
        let m = BlackScholes::new(inputs).unwrap();
        let t = inputs.time_to_expiry;
        let spot_df = inputs.spot * (-inputs.dividend_yield * t).exp();
        let strike_df = inputs.strike * (-inputs.rate * t).exp();
        let slack = 1e-12 * (inputs.spot + inputs.strike);
        let call = m.price(OptionType::Call);
        let put = m.price(OptionType::Put);
        prop_assert!(call >= (spot_df - strike_df).max(0.0) - slack && call <= spot_df + slack);
        prop_assert!(put >= (strike_df - spot_df).max(0.0) - slack && put <= strike_df + slack);
    }

    #[test]
    fn prices_are_monotone_in_spot_and_volatility(inputs in market(), bump in 0.001f64..0.5) {
        let m = BlackScholes::new(inputs).unwrap();
        let up_spot = m.with_spot(inputs.spot * (1.0 + bump)).unwrap();
        let up_vol = m.with_volatility(inputs.volatility * (1.0 + bump)).unwrap();
        let tol = 1e-12 * (inputs.spot + inputs.strike);
        prop_assert!(up_spot.price(OptionType::Call) >= m.price(OptionType::Call) - tol);
        prop_assert!(up_spot.price(OptionType::Put) <= m.price(OptionType::Put) + tol);
        for k in OptionType::ALL {
            prop_assert!(up_vol.price(k) >= m.price(k) - tol, "{k} not increasing in σ");
        }
    }

    #[test]
    fn greeks_match_central_finite_differences(inputs in market(), k in kind()) {
        // Spot steps scale with the one-standard-deviation move S·σ√T, so that short-dated,
        // low-volatility options (whose gamma is a narrow spike) are resolved too.
        let m = BlackScholes::new(inputs).unwrap();
        let g = m.greeks(k);
        let (s, sigma, t, r) = (inputs.spot, inputs.volatility, inputs.time_to_expiry, inputs.rate);
        let scale = s + inputs.strike;
        let price = |model: BlackScholes| model.price(k);

        // Each tolerance is truncation (relative to the Greek) plus rounding: a price is
        // known to about ε·(S+K), and a difference quotient divides that by the step.
        let rounding = 8.0 * f64::EPSILON * scale;
        let move_1sd = s * sigma * t.sqrt();

        let h = 1e-4 * move_1sd;
        let delta = (price(m.with_spot(s + h).unwrap()) - price(m.with_spot(s - h).unwrap())) / (2.0 * h);
        // A straddle's delta is a small difference of two large ones: bound the truncation
        // by the third derivative, about Γ/S·(1 + 4/(σ√T)), not by delta itself.
        let third = g.gamma.abs() / s * (1.0 + 4.0 / (sigma * t.sqrt()));
        prop_assert!((delta - g.delta).abs() <= 1e-6 * g.delta.abs() + h * h * third + 1e-9 + rounding / h, "delta {} vs {delta} for {k} {inputs:?}", g.delta);

        let h = 1e-3 * move_1sd;
        let gamma = (price(m.with_spot(s + h).unwrap()) - 2.0 * price(m) + price(m.with_spot(s - h).unwrap())) / (h * h);
        prop_assert!((gamma - g.gamma).abs() <= 1e-5 * g.gamma.abs() + 1e-9 / s + 4.0 * rounding / (h * h), "gamma {} vs {gamma}", g.gamma);

        let h = 1e-5 * sigma;
        let vega = (price(m.with_volatility(sigma + h).unwrap()) - price(m.with_volatility(sigma - h).unwrap())) / (2.0 * h);
        prop_assert!((vega - g.vega).abs() <= 1e-6 * g.vega.abs() + 1e-9 * scale + rounding / h, "vega {} vs {vega}", g.vega);

        let h = 1e-5 * t;
        let theta = -(price(m.with_time_to_expiry(t + h).unwrap()) - price(m.with_time_to_expiry(t - h).unwrap())) / (2.0 * h);
        prop_assert!((theta - g.theta).abs() <= 1e-5 * g.theta.abs() + 1e-9 * scale + rounding / h, "theta {} vs {theta}", g.theta);

        // d1 and d2 move by √T/σ per unit of rate: scale the step so they move little.
        let h = 1e-5 * (sigma / t.sqrt()).min(1.0);
        let with_rate = |rate: f64| BlackScholes::new(OptionInputs { rate, ..inputs }).unwrap();
        let rho = (price(with_rate(r + h)) - price(with_rate(r - h))) / (2.0 * h);
        // Truncation: h²/6 times the third derivative in r, at most about (S+K)·T³.
        prop_assert!((rho - g.rho).abs() <= 1e-6 * g.rho.abs() + h * h * scale * t.powi(3) + rounding / h, "rho {} vs {rho} for {k} {inputs:?}", g.rho);
    }

    #[test]
    fn implied_volatility_round_trips(inputs in market(), k in kind()) {
        let m = BlackScholes::new(inputs).unwrap();
        let v = m.valuation(k);
        let iv_inputs = IvInputs {
            price: v.price,
            spot: inputs.spot,
            strike: inputs.strike,
            rate: inputs.rate,
            dividend_yield: inputs.dividend_yield,
            time_to_expiry: inputs.time_to_expiry,
        };
        // The price is known to about one rounding of the larger of S and K, which fixes σ
        // to about that divided by vega: require 1e-10 wherever that is below 1e-11.
        let uncertainty = 4.0 * f64::EPSILON * (inputs.spot + inputs.strike) / v.greeks.vega;
        match implied_volatility(k, iv_inputs) {
            Ok(sigma) => {
                if uncertainty < 1e-11 {
                    prop_assert!((sigma - inputs.volatility).abs() <= 1e-10, "σ {} recovered as {sigma}", inputs.volatility);
                }
            }
            // Where vega vanishes the price can round onto a bound; only then is an error acceptable.
            Err(e) => prop_assert!(uncertainty >= 1e-11, "{e} at vega {}", v.greeks.vega),
        }
    }

    #[test]
    fn implied_volatility_round_trips_for_one_day_and_deep_strikes(
        spot in 10.0f64..500.0,
        log_moneyness in prop_oneof![-0.6f64..-0.2, 0.2f64..0.6],
        volatility in 0.05f64..3.0,
        days in 1u32..10,
        k in kind(),
    ) {
        let inputs = OptionInputs { spot, strike: spot * f64::exp(log_moneyness), rate: 0.04, dividend_yield: 0.01, volatility, time_to_expiry: f64::from(days) / 365.0 };
        let m = BlackScholes::new(inputs).unwrap();
        let v = m.valuation(k);
        let uncertainty = 4.0 * f64::EPSILON * (inputs.spot + inputs.strike) / v.greeks.vega;
        let result = implied_volatility(k, IvInputs { price: v.price, spot, strike: inputs.strike, rate: 0.04, dividend_yield: 0.01, time_to_expiry: inputs.time_to_expiry });
        if uncertainty < 1e-11 {
            let sigma = result.unwrap();
            prop_assert!((sigma - volatility).abs() <= 1e-10, "σ {volatility} recovered as {sigma}");
        } else if let Ok(sigma) = result {
            // Vega is negligible: σ is not determined by the price, but repricing at the
            // answer must give the price back.
            let repriced = m.with_volatility(sigma).unwrap().price(k);
            prop_assert!((repriced - v.price).abs() <= 1e-12 * (spot + inputs.strike));
        }
    }

    #[test]
    fn prices_outside_the_bounds_are_reported_as_such(inputs in market(), k in kind(), excess in 1e-6f64..10.0) {
        let t = inputs.time_to_expiry;
        let spot_df = inputs.spot * (-inputs.dividend_yield * t).exp();
        let strike_df = inputs.strike * (-inputs.rate * t).exp();
        let (lower, upper) = match k {
            OptionType::Call => ((spot_df - strike_df).max(0.0), spot_df),
            OptionType::Put => ((strike_df - spot_df).max(0.0), strike_df),
            OptionType::Straddle => ((spot_df - strike_df).abs(), spot_df + strike_df),
        };
        let base = IvInputs { price: 0.0, spot: inputs.spot, strike: inputs.strike, rate: inputs.rate, dividend_yield: inputs.dividend_yield, time_to_expiry: t };
        let above = implied_volatility(k, IvInputs { price: upper * (1.0 + excess), ..base });
        prop_assert!(matches!(above, Err(IvError::AboveUpperBound { .. })), "{above:?}");
        let below = implied_volatility(k, IvInputs { price: lower - excess, ..base });
        prop_assert!(matches!(below, Err(IvError::BelowLowerBound { .. })), "{below:?}");
    }
}
