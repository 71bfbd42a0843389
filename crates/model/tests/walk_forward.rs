//! The model learns what is there, is calibrated on a later slice, never reads the future,
//! and the held-out comparison says plainly whether it beats the heuristic strength.

use chrono::{Duration, NaiveDate};
use strikeline_model::{Example, FEATURES, ModelError, evaluate, train};

/// A deterministic stream of uniforms in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Six years of signals, four a day: the chance to win rises with "rsi" (truth: 0.2 → 0.8),
/// while the strength says 0.9 whatever happens. Each resolves 20 days after issue.
fn history() -> Vec<Example> {
    let rsi = FEATURES.iter().position(|f| f.name == "rsi").expect("rsi");
    let mut rng = Lcg(7);
    let start = NaiveDate::from_ymd_opt(2019, 1, 1).expect("date");
    let mut out = Vec::new();
    for day in 0..(6 * 365) {
        for _ in 0..4 {
            let issued = start + Duration::days(day);
            let mut features = vec![0.0; FEATURES.len()];
            let r = rng.next();
            features[rsi] = r;
            let chance = 0.2 + 0.6 * r;
            out.push(Example { issued, resolved: issued + Duration::days(20), features, strength: 0.9, won: rng.next() < chance });
        }
    }
    out
}

#[test]
fn the_model_beats_an_uninformative_strength_out_of_sample_and_is_calibrated() {
    let evaluation = evaluate(&history(), 2021..=2024).expect("evaluated");
    assert_eq!(evaluation.years, [2021, 2022, 2023, 2024]);
    assert!(evaluation.beats_strength && evaluation.skill_over_strength > 0.4, "{evaluation:?}");
    assert!(evaluation.model.skill.is_some_and(|s| s > 0.05), "skill over the base rate: {:?}", evaluation.model.skill);
    assert!(evaluation.model.ece < 0.03, "calibrated on a later slice: ECE {}", evaluation.model.ece);
    assert!(evaluation.strength.ece > 0.3, "the heuristic is not: {}", evaluation.strength.ece);
}

#[test]
fn training_never_reads_a_signal_resolved_after_the_cut() {
    let history = history();
    let cut = NaiveDate::from_ymd_opt(2023, 1, 1).expect("date");
    let model = train(&history, cut).expect("model");
    // Change every outcome the cut could not know: the model is the same.
    let rewritten: Vec<Example> = history
        .iter()
        .cloned()
        .map(|mut e| {
            if e.resolved >= cut {
                e.won = !e.won;
            }
            e
        })
        .collect();
    assert!(train(&rewritten, cut).expect("model") == model, "the future changed the model");
    // And a model whose history is too short says so.
    assert!(matches!(train(&history, NaiveDate::from_ymd_opt(2019, 6, 1).expect("date")), Err(ModelError::NotEnoughData(_))));
}

#[test]
fn why_names_the_feature_that_moved_the_score() {
    let history = history();
    let model = train(&history, NaiveDate::from_ymd_opt(2024, 1, 1).expect("date")).expect("model");
    let rsi = FEATURES.iter().position(|f| f.name == "rsi").expect("rsi");
    let mut high = vec![0.0; FEATURES.len()];
    high[rsi] = 0.95;
    let mut low = high.clone();
    low[rsi] = 0.05;
    assert!(model.predict(&high) > 0.65 && model.predict(&low) < 0.35, "{} {}", model.predict(&high), model.predict(&low));
    let why = model.why(&high, 3);
    assert_eq!(why[0].feature, "rsi");
    assert!(why[0].effect > 0.0, "a high RSI raises the chance here");
    assert!(model.is_current());
    let stored = serde_json::to_string(&model).expect("json");
    let read: strikeline_model::Model = serde_json::from_str(&stored).expect("read back");
    assert!((read.predict(&high) - model.predict(&high)).abs() < 1e-12 && read.is_current(), "a stored model scores the same");
}
