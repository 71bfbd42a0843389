//! Chart axes: round tick steps around a data range, and their labels.

/// Evenly spaced, round tick values covering a data range.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ticks {
    /// The lowest tick, at or below the data's minimum.
    pub lo: f64,
    /// The highest tick, at or above the data's maximum.
    pub hi: f64,
    /// The distance between ticks: 1, 2, 2.5 or 5 times a power of ten.
    pub step: f64,
}

impl Ticks {
    /// Round ticks for data between `min` and `max` (finite; in either order), aiming at
    /// four intervals (five gridlines) and never fewer than three or more than five when a
    /// round step allows it. A flat range (`min == max`) is widened around its value so
    /// that the axis still has height.
    pub(crate) fn around(min: f64, max: f64) -> Ticks {
        let (mut min, mut max) = if min <= max { (min, max) } else { (max, min) };
        if !(min.is_finite() && max.is_finite()) {
            return Ticks { lo: 0.0, hi: 1.0, step: 0.25 };
        }
        if max - min <= f64::EPSILON * max.abs().max(min.abs()).max(1e-300) {
            let pad = if min == 0.0 { 1.0 } else { min.abs() * 0.1 };
            min -= pad;
            max += pad;
        }
        let raw = (max - min) / 4.0;
        let exponent = raw.log10().floor();
        let mut best: Option<(u32, Ticks)> = None;
        for e in [exponent - 1.0, exponent, exponent + 1.0] {
            let magnitude = 10f64.powf(e);
            for mantissa in [1.0, 2.0, 2.5, 5.0] {
                let step = mantissa * magnitude;
                let lo = (min / step).floor() * step;
                let hi = (max / step).ceil() * step;
                let intervals = ((hi - lo) / step).round();
                if !(1.0..=50.0).contains(&intervals) {
                    continue;
                }
                // Distance from four intervals; ties go to the coarser step (seen later).
                let score = (intervals - 4.0).abs() as u32 * 2 + u32::from(intervals > 4.0);
                if best.as_ref().is_none_or(|(s, _)| score <= *s) {
                    best = Some((score, Ticks { lo, hi, step }));
                }
            }
        }
        best.map_or(Ticks { lo: min, hi: max, step: max - min }, |(_, t)| t)
    }

    /// The tick values from `lo` to `hi`.
    pub(crate) fn values(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round().max(0.0) as usize;
        (0..=n).map(|i| clean_zero(self.lo + self.step * i as f64)).collect()
    }

    /// Decimal places that show every tick exactly (2.5 needs one more than 2).
    pub(crate) fn decimals(&self) -> usize {
        let mut decimals = 0;
        let mut scaled = self.step;
        while decimals < 6 && (scaled - scaled.round()).abs() > 1e-6 * scaled.abs().max(1.0) {
            scaled *= 10.0;
            decimals += 1;
        }
        decimals
    }

    /// A tick's label, e.g. `-2.5%` or `12,000`.
    pub(crate) fn label(&self, value: f64, suffix: &str) -> String {
        format!("{}{suffix}", format_number(value, self.decimals()))
    }
}

/// -0.0 and tiny rounding residue around zero print as 0.
fn clean_zero(v: f64) -> f64 {
    if v.abs() < 1e-9 { 0.0 } else { v }
}

/// A number with `decimals` places and thousands separators: `-12,345.50`.
pub(crate) fn format_number(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, clean_zero(value));
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if grouped.chars().all(|c| c == '0' || c == ',') && frac.is_none_or(|f| f.chars().all(|c| c == '0')) { "" } else { sign };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intervals(t: &Ticks) -> usize {
        t.values().len() - 1
    }

    #[test]
    fn round_steps_for_common_ranges() {
        let t = Ticks::around(0.0, 97.0);
        assert_eq!((t.lo, t.hi, t.step), (0.0, 100.0, 25.0));
        assert_eq!(t.values(), vec![0.0, 25.0, 50.0, 75.0, 100.0]);

        let t = Ticks::around(-3.2, 7.9);
        assert!(t.lo <= -3.2 && t.hi >= 7.9);
        assert!((3..=5).contains(&intervals(&t)), "{t:?}");

        let t = Ticks::around(0.013, 0.087);
        assert_eq!(t.step, 0.025);
        assert!((t.lo - 0.0).abs() < 1e-12 && (t.hi - 0.1).abs() < 1e-12);
        assert_eq!(t.decimals(), 3);
    }

    #[test]
    fn steps_are_one_two_two_and_a_half_or_five_times_a_power_of_ten() {
        let ranges = [(0.0, 1.0), (3.0, 17.0), (-250.0, 1234.0), (99.5, 100.5), (1e6, 4.2e6), (-0.004, -0.001), (-12.0, 3.0)];
        for (min, max) in ranges {
            let t = Ticks::around(min, max);
            let mantissa = t.step / 10f64.powf(t.step.log10().floor());
            assert!([1.0, 2.0, 2.5, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9), "{min}..{max}: {t:?}");
            assert!(t.lo <= min + 1e-12 && t.hi >= max - 1e-12, "{min}..{max}: {t:?}");
            assert!((3..=6).contains(&intervals(&t)), "{min}..{max}: {t:?}");
            // Ticks are whole multiples of the step.
            assert!((t.lo / t.step - (t.lo / t.step).round()).abs() < 1e-9);
        }
    }

    #[test]
    fn flat_and_reversed_ranges_do_not_divide_by_zero() {
        let t = Ticks::around(5.0, 5.0);
        assert!(t.lo < 5.0 && t.hi > 5.0 && t.step > 0.0, "{t:?}");
        let t = Ticks::around(0.0, 0.0);
        assert!(t.lo < 0.0 && t.hi > 0.0 && t.step > 0.0, "{t:?}");
        assert_eq!(Ticks::around(10.0, 0.0), Ticks::around(0.0, 10.0));
        let t = Ticks::around(f64::NAN, 1.0);
        assert!(t.step > 0.0 && t.hi > t.lo);
    }

    #[test]
    fn labels_have_enough_decimals_and_separators() {
        let t = Ticks { lo: 0.0, hi: 10.0, step: 2.5 };
        assert_eq!(t.decimals(), 1);
        assert_eq!(t.label(7.5, "%"), "7.5%");
        assert_eq!(t.label(0.0, "%"), "0.0%");
        let t = Ticks { lo: 0.0, hi: 20_000.0, step: 5_000.0 };
        assert_eq!(t.label(15_000.0, ""), "15,000");
        assert_eq!(format_number(-1_234_567.891, 2), "-1,234,567.89");
        assert_eq!(format_number(-0.0001, 2), "0.00");
        assert_eq!(format_number(999.0, 0), "999");
        assert_eq!(format_number(-1000.0, 0), "-1,000");
    }

    #[test]
    fn values_near_zero_print_as_zero() {
        let t = Ticks::around(-0.3, 0.3);
        assert!(t.values().contains(&0.0), "{t:?}");
        assert!(t.values().iter().all(|v| !(v.abs() < 1e-9 && v.is_sign_negative())));
    }
}
