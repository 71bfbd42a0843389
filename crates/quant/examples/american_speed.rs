//! Prices the options on stdin (`kind,spot,strike,rate,dividend_yield,volatility,years` per
//! line, `kind` = call|put) with the American engine: one price per line on stdout, then the
//! best throughput of five passes on stderr as `american: N options/s`. Used by
//! bench/peers/american.sh beside QuantLib's engines.

use std::io::{BufRead, Write};
use std::time::Instant;

use strikeline_quant::american::American;
use strikeline_quant::{OptionInputs, OptionType};

fn main() {
    let mut cases = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() != 7 {
            continue;
        }
        let n = |i: usize| f[i].parse::<f64>().expect("a number");
        let kind = if f[0] == "call" { OptionType::Call } else { OptionType::Put };
        let inputs = OptionInputs { spot: n(1), strike: n(2), rate: n(3), dividend_yield: n(4), volatility: n(5), time_to_expiry: n(6) };
        cases.push((kind, inputs));
    }
    let price_all = || cases.iter().map(|(kind, inputs)| American::new(*inputs).map_or(f64::NAN, |a| a.price(*kind))).collect::<Vec<f64>>();
    let prices = price_all();
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let started = Instant::now();
        std::hint::black_box(price_all());
        best = best.min(started.elapsed().as_secs_f64());
    }
    let mut out = std::io::stdout().lock();
    for p in &prices {
        writeln!(out, "{p}").expect("stdout");
    }
    eprintln!("american: {:.0} options/s", cases.len() as f64 / best);
}
