//! The American engine against a Leisen–Reimer lattice on random cases (issue 28's grid:
//! S/K 0.5–2, T one day to three years, σ 5–150%, r and q 0–10%), calls and puts.
//!
//! `cargo run --release -p strikeline-quant --example american_accuracy -- [cases] [steps]`
//! (default 5,000 cases, 10,001 steps; `make bench` runs it). Prints the largest absolute and
//! relative errors, how many cases miss "within 1e-4 absolute or relative", and the worst case.

use strikeline_quant::american::American;
use strikeline_quant::american::tree::{Exercise, Lattice, binomial};
use strikeline_quant::{OptionInputs, OptionType};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let cases: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5_000);
    let steps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_001);
    let richardson = args.next().as_deref() == Some("richardson");
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let (mut worst_abs, mut worst_rel, mut misses) = (0.0_f64, 0.0_f64, 0usize);
    let mut worst_case = String::new();
    let mut worst_score = 0.0_f64;
    let started = std::time::Instant::now();
    for i in 0..cases {
        let strike = 100.0;
        let inputs = OptionInputs {
            spot: strike * (0.5 + 1.5 * rng.next()),
            strike,
            rate: 0.1 * rng.next(),
            dividend_yield: 0.1 * rng.next(),
            volatility: 0.05 + 1.45 * rng.next(),
            time_to_expiry: 1.0 / 365.0 + (3.0 - 1.0 / 365.0) * rng.next(),
        };
        let kind = if i % 2 == 0 { OptionType::Put } else { OptionType::Call };
        let engine = American::new(inputs).expect("valid").price(kind);
        let lattice = if richardson {
            // Leisen–Reimer converges about as 1/n for American options: extrapolate n and 2n.
            let coarse = binomial(kind, inputs, Lattice::LeisenReimer, steps, Exercise::American, &[]).expect("valid");
            let fine = binomial(kind, inputs, Lattice::LeisenReimer, 2 * steps + 1, Exercise::American, &[]).expect("valid");
            2.0 * fine - coarse
        } else {
            binomial(kind, inputs, Lattice::LeisenReimer, steps, Exercise::American, &[]).expect("valid")
        };
        let abs = (engine - lattice).abs();
        let rel = abs / lattice.abs().max(1e-300);
        worst_abs = worst_abs.max(abs);
        worst_rel = worst_rel.max(if lattice > 1e-6 { rel } else { 0.0 });
        let score = abs.min(rel);
        if score > 1e-4 {
            misses += 1;
        }
        if score > worst_score {
            worst_score = score;
            worst_case = format!("{kind} {inputs:?}: engine {engine}, lattice {lattice}");
        }
    }
    println!("{cases} cases against Leisen–Reimer with {steps} steps ({:.1} s)", started.elapsed().as_secs_f64());
    println!("largest absolute error {worst_abs:.3e}, largest relative error (prices above 1e-6) {worst_rel:.3e}");
    println!("cases beyond 1e-4 absolute and relative: {misses}");
    println!("worst (by the smaller of the two): {worst_score:.3e} at {worst_case}");
    if misses > 0 {
        std::process::exit(1);
    }
}
