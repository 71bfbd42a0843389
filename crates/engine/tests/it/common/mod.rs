//! Deterministic synthetic daily series for the engine's tests.

use chrono::{Days, NaiveDate};
use strikeline_engine::backtest::SymbolSeries;
use strikeline_engine::{Assumptions, DailyBar, ProposalContext, SymbolState};

/// The first bar's date.
pub fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, 2).expect("a valid date")
}

/// `start() + i` days.
pub fn day(i: usize) -> NaiveDate {
    start() + Days::new(i as u64)
}

/// A fixed-seed generator of standard normal draws (LCG + Box–Muller).
pub struct Noise(u64);

impl Noise {
    pub fn new(seed: u64) -> Self {
        Noise(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Builds bars from closes: open at the previous close, high and low `spread` (a
/// fraction) beyond the body, volume as given.
pub struct Series {
    pub bars: Vec<DailyBar>,
}

impl Series {
    pub fn new() -> Self {
        Series { bars: Vec::new() }
    }

    pub fn last_close(&self) -> f64 {
        self.bars.last().map_or(100.0, |b| b.close)
    }

    pub fn push(&mut self, close: f64, spread: f64, volume: f64) -> &mut Self {
        let open = self.last_close();
        let i = self.bars.len();
        self.bars.push(DailyBar {
            date: day(i),
            open,
            high: open.max(close) * (1.0 + spread),
            low: open.min(close) * (1.0 - spread),
            close,
            volume,
        });
        self
    }

    /// `n` days of a driftless random walk with daily volatility `daily_vol`.
    pub fn walk(&mut self, n: usize, daily_vol: f64, noise: &mut Noise) -> &mut Self {
        for _ in 0..n {
            let close = self.last_close() * (daily_vol * noise.normal()).exp();
            self.push(close, daily_vol * 0.3, 1e6 * (1.0 + 0.1 * noise.uniform()));
        }
        self
    }

    /// One close moved by `ret` (a fraction) with `volume`.
    pub fn step(&mut self, ret: f64, volume: f64) -> &mut Self {
        let close = self.last_close() * (1.0 + ret);
        self.push(close, 0.002, volume)
    }

    /// The mirror image in log space (`c0²/c`): every rise becomes a fall of the same
    /// size, highs become lows.
    pub fn mirrored(&self) -> Series {
        let c0 = self.bars[0].open;
        let m = |x: f64| c0 * c0 / x;
        Series {
            bars: self
                .bars
                .iter()
                .map(|b| DailyBar { date: b.date, open: m(b.open), high: m(b.low), low: m(b.high), close: m(b.close), volume: b.volume })
                .collect(),
        }
    }

    pub fn state(&self) -> SymbolState {
        state_of(&self.bars)
    }
}

pub fn state_of(bars: &[DailyBar]) -> SymbolState {
    let mut state = SymbolState::new();
    for bar in bars {
        state.update(bar).expect("a valid bar in date order");
    }
    state
}

/// Stand-in for the exchange calendar: the first Friday at least `min_days` away.
pub fn fridays(from: NaiveDate, min_days: u32) -> NaiveDate {
    use chrono::Datelike;
    let mut d = from + Days::new(u64::from(min_days));
    while d.weekday() != chrono::Weekday::Fri {
        d = d + Days::new(1);
    }
    d
}

pub fn context<'a>(state: &SymbolState, picker: &'a dyn Fn(NaiveDate, u32) -> NaiveDate) -> ProposalContext<'a> {
    let latest = state.latest().expect("a state with bars");
    ProposalContext { symbol: "TEST", as_of: latest.date, spot: latest.close, assumptions: Assumptions::default(), expiration: picker }
}

/// 260 calm days (1% daily moves), then 30 days of an orderly advance: alternating
/// −0.8% and +1.2% days, ending on an up day.
pub fn orderly_uptrend() -> Series {
    let mut s = Series::new();
    s.walk(260, 0.01, &mut Noise::new(5));
    for i in 0..30 {
        s.step(if i % 2 == 0 { -0.008 } else { 0.012 }, 1e6);
    }
    s
}

/// The orderly uptrend, then eight straight days of +1.5%: overbought.
pub fn overbought_run() -> Series {
    let mut s = orderly_uptrend();
    for _ in 0..8 {
        s.step(0.015, 1e6);
    }
    s
}

/// 290 calm days, then five straight days of −2.5% on heavier volume.
pub fn capitulation() -> Series {
    let mut s = Series::new();
    s.walk(290, 0.01, &mut Noise::new(2));
    for _ in 0..5 {
        s.step(-0.025, 1.5e6);
    }
    s
}

/// 260 calm days, then 40 days of the same small decline (−0.5% a day): RSI pinned
/// low, but the price hugs its falling bands instead of breaking them.
pub fn orderly_decline() -> Series {
    let mut s = Series::new();
    s.walk(260, 0.01, &mut Noise::new(2));
    for _ in 0..40 {
        s.step(-0.005, 1e6);
    }
    s
}

/// 300 days oscillating between about 99 and 101 (highs to about 101.4, lows to about
/// 98.6) on steady volume of 1M.
pub fn range() -> Series {
    let mut s = Series::new();
    let mut noise = Noise::new(7);
    for i in 0..300 {
        let close = 100.0 + (i as f64 * 0.7).sin() + 0.1 * noise.normal();
        s.push(close, 0.003, 1e6);
    }
    s
}

/// The range, then a close at `close` on `volume`.
pub fn range_then(close: f64, volume: f64) -> Series {
    let mut s = range();
    s.push(close, 0.002, volume);
    s
}

/// 230 wild days (2.5% daily moves), then 60 quiet ones (0.6%).
pub fn volatility_crush() -> Series {
    let mut s = Series::new();
    s.walk(230, 0.025, &mut Noise::new(3));
    s.walk(60, 0.006, &mut Noise::new(4));
    s
}

/// 230 quiet days (0.6%), then 60 wild ones (2.5%).
pub fn volatility_expansion() -> Series {
    let mut s = Series::new();
    s.walk(230, 0.006, &mut Noise::new(3));
    s.walk(60, 0.025, &mut Noise::new(4));
    s
}

/// 290 calm days of a driftless 1% random walk.
pub fn calm() -> Series {
    let mut s = Series::new();
    s.walk(290, 0.01, &mut Noise::new(1));
    s
}

/// `symbols` random walks of `days` bars with a per-symbol volatility, calm and wild
/// spells and the odd volume spike, so that every strategy fires somewhere.
pub fn market(symbols: usize, days: usize, seed: u64) -> Vec<SymbolSeries> {
    let mut noise = Noise::new(seed);
    (0..symbols)
        .map(|k| {
            let mut s = Series::new();
            let base_vol = 0.008 + 0.02 * noise.uniform();
            for i in 0..days {
                // Regimes of 120 days: calm, normal or wild.
                let regime = [0.4, 1.0, 2.2][(i / 120 + k) % 3];
                let vol = base_vol * regime;
                let close = s.last_close() * (vol * noise.normal()).exp();
                let spike = if noise.uniform() < 0.04 { 3.5 } else { 1.0 };
                s.push(close, vol * 0.3, 1e6 * (0.7 + 0.6 * noise.uniform()) * spike);
            }
            SymbolSeries { symbol: format!("S{k:02}"), bars: s.bars }
        })
        .collect()
}
