//! `strikeline_quant::calibration` against scikit-learn and numpy on fixed data.
//!
//! The fixture (`tests/fixtures/calibration.json`) is written by
//! `bench/calibration/reference.py` (its header says how to rerun it): five data sets
//! (1,000 random forecasts, 12 by hand, 300 with many ties so quantile edges collapse,
//! every multiple of 0.05 so forecasts sit on uniform edges, and one with no events), each
//! with sklearn's `brier_score_loss` and `calibration_curve` (uniform and quantile, 10 and
//! 7 bins) and numpy's edges, bin counts, ECE, Murphy terms, Wilson intervals and rolling
//! Brier scores. Every figure must agree to 1e-12; counts, bin membership and days exactly.

#![expect(clippy::unwrap_used, reason = "tests")]

use serde_json::Value;
use strikeline_quant::calibration::{
    BinStrategy, Binning, DatedForecast, Forecast, Z_95, base_rate, brier, brier_skill_score, expected_calibration_error, murphy,
    reliability_bins, rolling_brier, wilson,
};

const TOLERANCE: f64 = 1e-12;

fn fixture() -> Value {
    serde_json::from_str(include_str!("../fixtures/calibration.json")).unwrap()
}

fn f64_of(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn usize_of(v: &Value) -> usize {
    usize::try_from(v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))).unwrap()
}

fn array(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

#[track_caller]
fn close(actual: f64, expected: f64, what: &str) {
    assert!((actual - expected).abs() <= TOLERANCE, "{what}: {actual:?} vs reference {expected:?} (diff {:e})", actual - expected);
}

fn forecasts(ds: &Value) -> Vec<Forecast> {
    let p = array(&ds["forecasts"]);
    let y = array(&ds["outcomes"]);
    assert_eq!(p.len(), y.len());
    p.iter()
        .zip(y)
        .map(|(p, y)| {
            let outcome = match y.as_u64() {
                Some(0) => false,
                Some(1) => true,
                _ => panic!("outcome {y} is not 0 or 1"),
            };
            Forecast::new(f64_of(p), outcome).unwrap()
        })
        .collect()
}

#[test]
fn fixture_covers_what_it_claims() {
    let fx = fixture();
    let names: Vec<&str> = array(&fx["datasets"]).iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["random_1000", "hand_12", "ties_300", "edges_grid", "no_events"]);
    assert_eq!(f64_of(&fx["z"]), Z_95);
    assert_eq!(array(&fx["datasets"][0]["forecasts"]).len(), 1000);
    // The ties set does collapse quantile edges: some equal-count bins are empty.
    let ties = &fx["datasets"][2]["binnings"];
    assert!(array(ties).iter().any(|b| b["strategy"] == "quantile" && array(&b["counts"]).iter().any(|c| c == 0)));
}

#[test]
fn brier_base_rate_and_skill_match_sklearn() {
    for ds in array(&fixture()["datasets"]) {
        let name = ds["name"].as_str().unwrap();
        let f = forecasts(ds);
        close(brier(&f).unwrap(), f64_of(&ds["brier"]), &format!("{name} brier"));
        close(base_rate(&f).unwrap(), f64_of(&ds["base_rate"]), &format!("{name} base rate"));
        match &ds["brier_skill_score"] {
            Value::Null => assert_eq!(brier_skill_score(&f), None, "{name}"),
            v => close(brier_skill_score(&f).unwrap(), f64_of(v), &format!("{name} skill")),
        }
    }
}

#[test]
fn bins_ece_and_murphy_match_sklearn() {
    let mut checked = 0;
    for ds in array(&fixture()["datasets"]) {
        let name = ds["name"].as_str().unwrap();
        let f = forecasts(ds);
        for b in array(&ds["binnings"]) {
            let strategy = match b["strategy"].as_str().unwrap() {
                "uniform" => BinStrategy::Uniform,
                "quantile" => BinStrategy::Quantile,
                other => panic!("unknown strategy {other}"),
            };
            let k = usize_of(&b["n_bins"]);
            let what = format!("{name} {strategy:?} {k}");
            let binning = Binning::new(strategy, k).unwrap();
            let bins = reliability_bins(&f, binning);
            assert_eq!(bins.len(), k, "{what}");

            // Edges, and exactly the same forecasts in each bin.
            let edges = array(&b["edges"]);
            for (i, bin) in bins.iter().enumerate() {
                close(bin.lower, f64_of(&edges[i]), &format!("{what} lower edge {i}"));
                close(bin.upper, f64_of(&edges[i + 1]), &format!("{what} upper edge {i}"));
            }
            let counts: Vec<usize> = array(&b["counts"]).iter().map(usize_of).collect();
            let positives: Vec<usize> = array(&b["positives"]).iter().map(usize_of).collect();
            assert_eq!(bins.iter().map(|b| b.count).collect::<Vec<_>>(), counts, "{what} counts");
            assert_eq!(bins.iter().map(|b| b.positives).collect::<Vec<_>>(), positives, "{what} positives");

            // sklearn's calibration_curve: the non-empty bins only.
            let non_empty: Vec<_> = bins.iter().filter(|b| b.count > 0).collect();
            let prob_true = array(&b["prob_true"]);
            let prob_pred = array(&b["prob_pred"]);
            assert_eq!(non_empty.len(), prob_true.len(), "{what}");
            assert_eq!(non_empty.len(), prob_pred.len(), "{what}");
            for (i, bin) in non_empty.iter().enumerate() {
                close(bin.observed_frequency.unwrap(), f64_of(&prob_true[i]), &format!("{what} prob_true {i}"));
                close(bin.mean_forecast.unwrap(), f64_of(&prob_pred[i]), &format!("{what} prob_pred {i}"));
            }

            // Wilson intervals, None for empty bins.
            for (i, (bin, expected)) in bins.iter().zip(array(&b["wilson"])).enumerate() {
                match (bin.wilson, expected) {
                    (None, Value::Null) => assert_eq!((bin.mean_forecast, bin.observed_frequency), (None, None)),
                    (Some((lo, hi)), v) => {
                        close(lo, f64_of(&v[0]), &format!("{what} wilson lo {i}"));
                        close(hi, f64_of(&v[1]), &format!("{what} wilson hi {i}"));
                    }
                    (got, v) => panic!("{what} bin {i}: {got:?} vs {v}"),
                }
            }

            close(expected_calibration_error(&bins).unwrap(), f64_of(&b["ece"]), &format!("{what} ece"));

            let m = murphy(&f, binning).unwrap();
            let r = &b["murphy"];
            close(m.reliability, f64_of(&r["reliability"]), &format!("{what} reliability"));
            close(m.resolution, f64_of(&r["resolution"]), &format!("{what} resolution"));
            close(m.uncertainty, f64_of(&r["uncertainty"]), &format!("{what} uncertainty"));
            close(m.within_bin_variance, f64_of(&r["within_bin_variance"]), &format!("{what} within-bin variance"));
            close(m.within_bin_covariance, f64_of(&r["within_bin_covariance"]), &format!("{what} within-bin covariance"));
            close(m.brier, f64_of(&ds["brier"]), &format!("{what} murphy brier"));
            let identity = m.reliability - m.resolution + m.uncertainty + m.within_bin_variance - 2.0 * m.within_bin_covariance;
            close(identity, m.brier, &format!("{what} identity"));
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 4);
}

#[test]
fn wilson_matches_reference() {
    let fx = fixture();
    let cases = array(&fx["wilson"]);
    assert!(cases.len() >= 10);
    for c in cases {
        let (s, n, z) = (usize_of(&c["successes"]), usize_of(&c["n"]), f64_of(&c["z"]));
        let (lo, hi) = wilson(s, n, z).unwrap().unwrap();
        close(lo, f64_of(&c["lo"]), &format!("wilson({s}, {n}, {z}) lo"));
        close(hi, f64_of(&c["hi"]), &format!("wilson({s}, {n}, {z}) hi"));
    }
}

#[test]
fn rolling_brier_matches_reference() {
    for ds in array(&fixture()["datasets"]) {
        let name = ds["name"].as_str().unwrap();
        let dated: Vec<DatedForecast> = forecasts(ds)
            .into_iter()
            .zip(array(&ds["days"]))
            .map(|(forecast, day)| DatedForecast { day: day.as_i64().unwrap(), forecast })
            .collect();
        for w in array(&ds["rolling"]) {
            let window = usize_of(&w["window"]);
            let got = rolling_brier(&dated, window).unwrap();
            let expected = array(&w["points"]);
            assert_eq!(got.len(), expected.len(), "{name} window {window}");
            for (g, e) in got.iter().zip(expected) {
                assert_eq!((g.day, g.n), (e["day"].as_i64().unwrap(), usize_of(&e["n"])), "{name} window {window}");
                close(g.brier, f64_of(&e["brier"]), &format!("{name} window {window} day {}", g.day));
            }
        }
    }
}
