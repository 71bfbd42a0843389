//! Prints the analyser's figures on the DEV and TEST splits of the labelled set.
//!
//! ```text
//! cargo run -p strikeline-sentiment --example report             # both reports
//! cargo run -p strikeline-sentiment --example report -- --errors # and DEV's mistakes
//! ```
//!
//! Only DEV's mistakes are ever listed: TEST is for measuring, not for tuning.

use std::time::Instant;

use strikeline_sentiment::{analyse, dev_split, evaluate, labelled_set, test_split};

fn main() {
    let show_errors = std::env::args().any(|a| a == "--errors");
    let dev = dev_split();
    println!("## DEV\n\n{}", evaluate(&dev));
    println!("## TEST\n\n{}", evaluate(&test_split()));

    let all = labelled_set();
    let _ = analyse("warm up the lexicon");
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        for (_, text) in &all {
            std::hint::black_box(analyse(std::hint::black_box(text)));
        }
    }
    let per_headline = started.elapsed() / u32::try_from(rounds * all.len()).unwrap_or(u32::MAX);
    println!("## Speed\n\n{per_headline:?} per headline ({} headlines × {rounds})\n", all.len());
    if show_errors {
        println!("## DEV mistakes\n");
        for (expected, text) in dev {
            let a = analyse(text);
            if a.label != expected {
                let cues: Vec<String> = a.cues.iter().map(|c| format!("{}={:+.2}", c.text, c.weight)).collect();
                println!("- expected {expected}, got {} ({:+.2}): {text}\n    {}", a.label, a.score, cues.join(", "));
            }
        }
    }
}
