//! The four rules and their confidence scores (documented in `docs/strategies.md`).
//!
//! Each rule is a short list of conditions. A condition has
//!
//! - a **test** (`holds`): the rule fires only when every test holds;
//! - a **degree** in `[0, 1]`: how strongly it holds, by linear interpolation through
//!   three anchor points: 0 where the condition clearly fails, **0.5 exactly at the
//!   rule's threshold**, 1 where it holds strongly (see [`ramp`]);
//! - a **weight**; the weights of one rule add up to 1.
//!
//! The score is the weighted mean of the degrees. Because a test that holds always has a
//! degree above 0.5, a rule that fires scores above 50; the confidence is the score in
//! percent, capped at 95 (no setup is certain). A rule that does not fire (reported only
//! by [`SymbolState::propose_best`](crate::SymbolState::propose_best)) gets the score times
//! the weight of its conditions that hold, capped at 49, so a weak setup never reads like
//! a signal.
//!
//! Distances in price are measured in ATRs (the 14-day average true range, floored at
//! 0.1% of the close), so one rule reads the same on a $5 stock and a $500 one.

use std::fmt::{self, Write};

use strikeline_quant::indicators::BollingerOutput;

use crate::params::StrategyParams;
use crate::state::Snapshot;
use crate::types::{SignalType, Strategy};

/// The values the rules read, all present (a warm state).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Values {
    pub close: f64,
    pub volume: f64,
    pub ema20: f64,
    pub ema50: f64,
    pub rsi: f64,
    pub histogram: f64,
    pub previous_histogram: f64,
    pub bands: BollingerOutput,
    /// The ATR(14) floored at 0.1% of the close: the unit of price distances.
    pub scale: f64,
    pub prior_high: f64,
    pub prior_low: f64,
    pub prior_volume_avg: f64,
    pub hv20: f64,
    pub hv_rank: Option<f64>,
    pub hv_percentile: f64,
}

impl Values {
    pub(crate) fn from_snapshot(s: &Snapshot) -> Option<Values> {
        Some(Values {
            close: s.close,
            volume: s.volume,
            ema20: s.ema20?,
            ema50: s.ema50?,
            rsi: s.rsi14?,
            histogram: s.macd?.histogram,
            previous_histogram: s.previous_histogram?,
            bands: s.bollinger?,
            scale: s.atr14?.max(s.close * 0.001),
            prior_high: s.prior_high20?,
            prior_low: s.prior_low20?,
            prior_volume_avg: s.prior_volume_avg20?,
            hv20: s.hv20?,
            hv_rank: s.hv_rank,
            hv_percentile: s.hv_percentile?,
        })
    }
}

/// Piecewise-linear degree: 0 at `zero` (and beyond), 0.5 at `half`, 1 at `one` (and
/// beyond). Works in either direction (`zero < half < one` for "above" conditions,
/// `zero > half > one` for "below" ones). NaN gives 0.
pub(crate) fn ramp(x: f64, zero: f64, half: f64, one: f64) -> f64 {
    let (x, zero, half, one) = if one < zero { (-x, -zero, -half, -one) } else { (x, zero, half, one) };
    if x.is_nan() || x <= zero {
        0.0
    } else if x < half {
        0.5 * (x - zero) / (half - zero)
    } else if x < one {
        0.5 + 0.5 * (x - half) / (one - half)
    } else {
        1.0
    }
}

/// What a condition looked at, with the numbers, for the reasoning text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fact {
    EmaTrend {
        fast: f64,
        slow: f64,
        up: bool,
    },
    CloseVsEma {
        close: f64,
        ema: f64,
        up: bool,
    },
    Histogram {
        value: f64,
        up: bool,
    },
    HistogramSlope {
        value: f64,
        previous: f64,
        up: bool,
    },
    RsiZone {
        rsi: f64,
        low: f64,
        high: f64,
    },
    RsiBeyond {
        rsi: f64,
        level: f64,
        below: bool,
    },
    OutsideBand {
        close: f64,
        band: f64,
        below: bool,
    },
    FlatBands,
    BreakLevel {
        close: f64,
        level: f64,
        up: bool,
        lookback: usize,
    },
    VolumeSurge {
        volume: f64,
        average: f64,
        multiple: f64,
        lookback: usize,
    },
    NoVolume {
        lookback: usize,
    },
    HvRank {
        hv: f64,
        rank: f64,
        threshold: f64,
    },
    FlatHv {
        hv: f64,
    },
    HvPercentile {
        percentile: f64,
        threshold: f64,
    },
    /// A custom rule's top-level condition, by position: its text is rendered from the
    /// user's document ([`crate::custom`]).
    Rule {
        index: u8,
    },
}

fn not(holds: bool) -> &'static str {
    if holds { "" } else { "not " }
}

pub(crate) fn volume_text(volume: f64) -> String {
    if volume >= 1e6 {
        format!("{:.2}M", volume / 1e6)
    } else if volume >= 1e3 {
        format!("{:.1}K", volume / 1e3)
    } else {
        format!("{volume:.0}")
    }
}

impl Fact {
    fn write(&self, holds: bool, out: &mut String) -> fmt::Result {
        let no = not(holds);
        match *self {
            Fact::EmaTrend { fast, slow, up } => {
                let side = if up { "above" } else { "below" };
                write!(out, "EMA20 {fast:.2} {no}{side} EMA50 {slow:.2}")
            }
            Fact::CloseVsEma { close, ema, up } => {
                let side = if up { "above" } else { "below" };
                write!(out, "close {close:.2} {no}{side} EMA20 {ema:.2}")
            }
            Fact::Histogram { value, up } => {
                let sign = if up { "positive" } else { "negative" };
                write!(out, "MACD histogram {value:.3} {no}{sign}")
            }
            Fact::HistogramSlope { value, previous, up } => {
                let way = if up { "rising" } else { "falling" };
                write!(out, "histogram {no}{way} ({previous:.3} → {value:.3})")
            }
            Fact::RsiZone { rsi, low, high } => {
                write!(out, "RSI {rsi:.1} {no}within {low}–{high}")
            }
            Fact::RsiBeyond { rsi, level, below } => {
                let side = if below { "below" } else { "above" };
                write!(out, "RSI {rsi:.1} {no}{side} {level}")
            }
            Fact::OutsideBand { close, band, below } => {
                let side = if below { "under the lower" } else { "over the upper" };
                write!(out, "close {close:.2} {no}{side} Bollinger band {band:.2}")
            }
            Fact::FlatBands => out.write_str("Bollinger bands flat (no price dispersion)"),
            Fact::BreakLevel { close, level, up, lookback } => {
                let side = if up { "above" } else { "below" };
                let extreme = if up { "high" } else { "low" };
                write!(out, "close {close:.2} {no}{side} the prior {lookback}-day {extreme} {level:.2}")
            }
            Fact::VolumeSurge { volume, average, multiple, lookback } => write!(
                out,
                "volume {} {no}above {multiple}× the {lookback}-day average {} ({:.1}×)",
                volume_text(volume),
                volume_text(average),
                volume / average
            ),
            Fact::NoVolume { lookback } => {
                write!(out, "no volume data for the last {lookback} days")
            }
            Fact::HvRank { hv, rank, threshold } => {
                write!(out, "20-day historical volatility {:.1}% ranks {rank:.0} in its 252-day range, {no}below {threshold}", hv * 100.0)
            }
            Fact::FlatHv { hv } => write!(out, "20-day historical volatility {:.1}% has no 252-day range to rank in", hv * 100.0),
            Fact::HvPercentile { percentile, threshold } => write!(out, "HV percentile {percentile:.0} {no}below {threshold}"),
            Fact::Rule { index } => write!(out, "condition {} {}", usize::from(index) + 1, if holds { "holds" } else { "does not hold" }),
        }
    }
}

/// One condition of a rule, evaluated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Check {
    pub weight: f64,
    pub degree: f64,
    pub holds: bool,
    pub fact: Fact,
}

/// The most conditions one evaluation holds: a custom rule's top level has at most this many.
pub(crate) const MAX_CHECKS: usize = 8;

/// One rule in one direction, evaluated on one bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Evaluation {
    pub strategy: Strategy,
    pub signal_type: SignalType,
    checks: [Option<Check>; MAX_CHECKS],
    /// Weighted mean of the degrees, 0–1.
    pub score: f64,
    /// Every condition holds.
    pub triggered: bool,
}

impl Evaluation {
    pub(crate) fn new(strategy: Strategy, signal_type: SignalType, list: &[Check]) -> Evaluation {
        let mut checks = [None; MAX_CHECKS];
        for (slot, check) in checks.iter_mut().zip(list) {
            *slot = Some(*check);
        }
        let total: f64 = list.iter().map(|c| c.weight).sum();
        let score = list.iter().map(|c| c.weight * c.degree).sum::<f64>() / total;
        Evaluation { strategy, signal_type, checks, score, triggered: list.iter().all(|c| c.holds) }
    }

    /// The confidence in percent: the score, 50–95, when the rule fires; when it does
    /// not, the score times the weight of the conditions that do hold, at most 49 (a
    /// setup missing two conditions reads lower than one missing a single condition).
    pub(crate) fn confidence(&self) -> u8 {
        let percent = if self.triggered {
            (self.score * 100.0).round().clamp(50.0, 95.0)
        } else {
            let held: f64 = self.checks().filter(|c| c.holds).map(|c| c.weight).sum();
            (self.score * held * 100.0).round().clamp(0.0, 49.0)
        };
        // Within 0–95 after the clamp, so the cast is exact.
        percent as u8
    }

    pub(crate) fn checks(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().flatten()
    }

    /// "EMA20 … above EMA50 …; close … above EMA20 …; …"
    pub(crate) fn describe(&self, out: &mut String) {
        for (i, check) in self.checks().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            // Writing into a String cannot fail.
            let _ = check.fact.write(check.holds, out);
        }
    }
}

/// Momentum: trend up (EMA20 > EMA50, close > EMA20), MACD histogram positive and rising,
/// RSI within 50–70 → CALL; the mirror → PUT. (Thresholds from `p`; defaults shown.)
pub(crate) fn momentum(v: &Values, up: bool, p: &StrategyParams) -> Evaluation {
    let sign = if up { 1.0 } else { -1.0 };
    let trend = sign * (v.ema20 - v.ema50) / v.scale;
    let stretch = sign * (v.close - v.ema20) / v.scale;
    let histogram = sign * v.histogram / v.scale;
    let slope = sign * (v.histogram - v.previous_histogram) / v.scale;
    let (low, high) =
        if up { (p.momentum_rsi_low, p.momentum_rsi_high) } else { (100.0 - p.momentum_rsi_high, 100.0 - p.momentum_rsi_low) };
    let centre = (low + high) / 2.0;
    let checks = [
        Check {
            weight: 0.25,
            degree: ramp(trend, -0.5, 0.0, 1.5),
            holds: trend > 0.0,
            fact: Fact::EmaTrend { fast: v.ema20, slow: v.ema50, up },
        },
        Check {
            weight: 0.15,
            degree: ramp(stretch, -0.5, 0.0, 1.0),
            holds: stretch > 0.0,
            fact: Fact::CloseVsEma { close: v.close, ema: v.ema20, up },
        },
        Check {
            weight: 0.20,
            degree: ramp(histogram, -0.1, 0.0, 0.2),
            holds: histogram > 0.0,
            fact: Fact::Histogram { value: v.histogram, up },
        },
        Check {
            weight: 0.15,
            degree: ramp(slope, -0.05, 0.0, 0.05),
            holds: slope > 0.0,
            fact: Fact::HistogramSlope { value: v.histogram, previous: v.previous_histogram, up },
        },
        Check {
            weight: 0.25,
            // 1 at the centre, 0.5 on the zone's edges (width 20 by default: 1 − |d|/20).
            degree: (1.0 - (v.rsi - centre).abs() / (high - low)).clamp(0.0, 1.0),
            holds: v.rsi > low && v.rsi < high,
            fact: Fact::RsiZone { rsi: v.rsi, low, high },
        },
    ];
    let kind = if up { SignalType::Call } else { SignalType::Put };
    Evaluation::new(Strategy::Momentum, kind, &checks)
}

/// Mean Reversion: RSI < 30 and close under the lower Bollinger band → CALL; RSI > 70 and
/// close over the upper band → PUT.
pub(crate) fn mean_reversion(v: &Values, oversold: bool, p: &StrategyParams) -> Evaluation {
    let rsi = if oversold {
        let level = p.oversold_rsi;
        Check {
            weight: 0.5,
            degree: ramp(v.rsi, level + 10.0, level, level - 15.0),
            holds: v.rsi < level,
            fact: Fact::RsiBeyond { rsi: v.rsi, level, below: true },
        }
    } else {
        let level = p.overbought_rsi;
        Check {
            weight: 0.5,
            degree: ramp(v.rsi, level - 10.0, level, level + 15.0),
            holds: v.rsi > level,
            fact: Fact::RsiBeyond { rsi: v.rsi, level, below: false },
        }
    };
    let width = v.bands.upper - v.bands.lower;
    let band = if width > 0.0 {
        // %B: 0 on the lower band, 1 on the upper.
        let percent_b = (v.close - v.bands.lower) / width;
        let (degree, holds, band) = if oversold {
            (ramp(percent_b, 0.2, 0.0, -0.25), v.close < v.bands.lower, v.bands.lower)
        } else {
            (ramp(percent_b, 0.8, 1.0, 1.25), v.close > v.bands.upper, v.bands.upper)
        };
        Check { weight: 0.5, degree, holds, fact: Fact::OutsideBand { close: v.close, band, below: oversold } }
    } else {
        Check { weight: 0.5, degree: 0.0, holds: false, fact: Fact::FlatBands }
    };
    let kind = if oversold { SignalType::Call } else { SignalType::Put };
    Evaluation::new(Strategy::MeanReversion, kind, &[rsi, band])
}

/// Breakout: close above the prior 20-day highest high on volume above 1.5× the prior
/// 20-day average → CALL; below the prior 20-day lowest low likewise → PUT.
pub(crate) fn breakout(v: &Values, up: bool, p: &StrategyParams) -> Evaluation {
    let lookback = p.breakout_lookback;
    let (beyond, level) =
        if up { ((v.close - v.prior_high) / v.scale, v.prior_high) } else { ((v.prior_low - v.close) / v.scale, v.prior_low) };
    let level_check = Check {
        weight: 0.5,
        degree: ramp(beyond, -1.0, 0.0, 1.0),
        holds: beyond > 0.0,
        fact: Fact::BreakLevel { close: v.close, level, up, lookback },
    };
    let volume_check = if v.prior_volume_avg > 0.0 {
        let ratio = v.volume / v.prior_volume_avg;
        let multiple = p.volume_multiple;
        Check {
            weight: 0.5,
            degree: ramp(ratio, 1.0, multiple, 2.0 * multiple),
            holds: ratio > multiple,
            fact: Fact::VolumeSurge { volume: v.volume, average: v.prior_volume_avg, multiple, lookback },
        }
    } else {
        Check { weight: 0.5, degree: 0.0, holds: false, fact: Fact::NoVolume { lookback } }
    };
    let kind = if up { SignalType::Call } else { SignalType::Put };
    Evaluation::new(Strategy::Breakout, kind, &[level_check, volume_check])
}

/// Volatility: the 20-day historical volatility ranks below 20 in its 252-day range and
/// sits below its 25th percentile → STRADDLE.
pub(crate) fn volatility(v: &Values, p: &StrategyParams) -> Evaluation {
    let cheap_rank = p.hv_rank_threshold;
    let cheap_percentile = p.hv_percentile_threshold;
    let rank = match v.hv_rank {
        Some(rank) => Check {
            weight: 0.5,
            degree: ramp(rank, 2.0 * cheap_rank, cheap_rank, 0.0),
            holds: rank < cheap_rank,
            fact: Fact::HvRank { hv: v.hv20, rank, threshold: cheap_rank },
        },
        None => Check { weight: 0.5, degree: 0.0, holds: false, fact: Fact::FlatHv { hv: v.hv20 } },
    };
    let percentile = Check {
        weight: 0.5,
        degree: ramp(v.hv_percentile, 2.0 * cheap_percentile, cheap_percentile, 0.0),
        holds: v.hv_percentile < cheap_percentile,
        fact: Fact::HvPercentile { percentile: v.hv_percentile, threshold: cheap_percentile },
    };
    Evaluation::new(Strategy::Volatility, SignalType::Straddle, &[rank, percentile])
}

/// The better direction of one built-in strategy: the one that fires, else the higher score
/// (CALL on a tie). `None` for [`Strategy::Custom`], whose rules are the user's document
/// ([`crate::custom`]).
pub(crate) fn evaluate(strategy: Strategy, v: &Values, p: &StrategyParams) -> Option<Evaluation> {
    let pick = |call: Evaluation, put: Evaluation| {
        if (put.triggered, put.score) > (call.triggered, call.score) { put } else { call }
    };
    Some(match strategy {
        Strategy::Momentum => pick(momentum(v, true, p), momentum(v, false, p)),
        Strategy::MeanReversion => pick(mean_reversion(v, true, p), mean_reversion(v, false, p)),
        Strategy::Breakout => pick(breakout(v, true, p), breakout(v, false, p)),
        Strategy::Volatility => volatility(v, p),
        Strategy::Custom => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented defaults.
    const P: StrategyParams = StrategyParams::DEFAULT;

    fn values() -> Values {
        Values {
            close: 185.60,
            volume: 2.0e6,
            ema20: 182.40,
            ema50: 178.10,
            rsi: 61.3,
            histogram: 0.42,
            previous_histogram: 0.31,
            bands: BollingerOutput { upper: 190.0, middle: 181.0, lower: 172.0 },
            scale: 3.20,
            prior_high: 186.0,
            prior_low: 170.0,
            prior_volume_avg: 1.6e6,
            hv20: 0.28,
            hv_rank: Some(45.0),
            hv_percentile: 52.0,
        }
    }

    #[test]
    fn ramp_is_half_at_the_threshold_and_saturates() {
        assert_eq!(ramp(0.0, -1.0, 0.0, 1.0), 0.5);
        assert_eq!(ramp(-5.0, -1.0, 0.0, 1.0), 0.0);
        assert_eq!(ramp(5.0, -1.0, 0.0, 1.0), 1.0);
        assert!((ramp(0.5, -1.0, 0.0, 1.0) - 0.75).abs() < 1e-12);
        // Decreasing orientation (RSI below 30 is good).
        assert_eq!(ramp(30.0, 40.0, 30.0, 15.0), 0.5);
        assert_eq!(ramp(10.0, 40.0, 30.0, 15.0), 1.0);
        assert!((ramp(35.0, 40.0, 30.0, 15.0) - 0.25).abs() < 1e-12);
        assert_eq!(ramp(f64::NAN, 0.0, 1.0, 2.0), 0.0);
    }

    /// The worked example of docs/strategies.md, to the digit.
    #[test]
    fn momentum_worked_example_of_the_docs() {
        let e = momentum(&values(), true, &P);
        assert!(e.triggered);
        let degrees: Vec<f64> = e.checks().map(|c| (c.degree * 1000.0).round() / 1000.0).collect();
        assert_eq!(degrees, [0.948, 1.0, 0.828, 0.844, 0.935]);
        assert_eq!(e.confidence(), 91);
        let mut text = String::new();
        e.describe(&mut text);
        assert_eq!(
            text,
            "EMA20 182.40 above EMA50 178.10; close 185.60 above EMA20 182.40; MACD histogram 0.420 positive; histogram rising (0.310 → 0.420); RSI 61.3 within 50–70"
        );
        // The mirror fails every test and scores low.
        let put = momentum(&values(), false, &P);
        assert!(!put.triggered && put.confidence() < 20);
        assert_eq!(evaluate(Strategy::Momentum, &values(), &P), Some(e));
    }

    #[test]
    fn a_rule_that_does_not_fire_never_reads_fifty_or_more() {
        // Everything strong except RSI just outside the zone.
        let v = Values { rsi: 70.5, ..values() };
        let e = momentum(&v, true, &P);
        assert!(!e.triggered);
        assert!(e.score > 0.5);
        assert_eq!(e.confidence(), 49);
        // Missing two conditions reads lower still.
        let v = Values { rsi: 75.0, previous_histogram: 0.50, ..values() };
        let e = momentum(&v, true, &P);
        // score = 0.25·0.948 + 0.15·1 + 0.2·0.828 + 0.15·0.25 + 0.25·0.25 = 0.653; held 0.6
        assert_eq!(e.confidence(), 39);
    }

    #[test]
    fn breakout_and_volatility_scores() {
        let v = Values { close: 188.0, volume: 3.2e6, ..values() };
        let e = breakout(&v, true, &P);
        assert!(e.triggered);
        // beyond = 2.0/3.2 = 0.625 ATR → 0.8125; ratio 2.0 → 0.5 + 0.5·0.5/1.5 = 0.6667
        assert_eq!(e.confidence(), 74);
        let quiet = Values { hv_rank: Some(8.0), hv_percentile: 10.0, ..values() };
        let s = volatility(&quiet, &P);
        assert!(s.triggered);
        // rank 8 → 0.5 + 0.5·12/20 = 0.8; percentile 10 → 0.5 + 0.5·15/25 = 0.8
        assert_eq!(s.confidence(), 80);
        assert!(!volatility(&values(), &P).triggered);
        let flat = Values { hv_rank: None, ..quiet };
        assert!(!volatility(&flat, &P).triggered);
    }
}
