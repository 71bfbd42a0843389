//! A small, seedable, portable pseudo-random generator for the simulated market.
//!
//! SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014; the constants of Vigna's reference `splitmix64.c`) with Box–Muller normals.
//! The simulation draws a fresh short stream per (seed, symbol, day), so the numbers for one
//! day never depend on which other days or symbols were generated first. Not for
//! cryptography.

/// 2^64 / φ, SplitMix64's increment.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective 64-bit mixer.
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over `bytes`, then mixed: a stable hash (unlike `DefaultHasher`, whose output Rust
/// does not promise to keep across releases).
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    mix64(h)
}

/// Combines keys into one stream key (order matters).
pub(crate) fn combine(keys: &[u64]) -> u64 {
    keys.iter().fold(0x6A09_E667_F3BC_C909, |acc, &k| mix64(acc ^ mix64(k.wrapping_add(GOLDEN_GAMMA))))
}

/// SplitMix64 with a Box–Muller normal cache.
#[derive(Debug, Clone)]
pub(crate) struct Rng {
    state: u64,
    spare_normal: Option<f64>,
}

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self { state: seed, spare_normal: None }
    }

    /// A generator for the stream named by `keys`.
    pub(crate) fn for_keys(keys: &[u64]) -> Self {
        Self::new(combine(keys))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }

    /// Uniform on `[0, 1)` with 53 random bits.
    pub(crate) fn uniform(&mut self) -> f64 {
        // The top 53 bits fit f64's mantissa exactly; the cast cannot round.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on `(0, 1]`: safe to take the logarithm of.
    pub(crate) fn uniform_open0(&mut self) -> f64 {
        1.0 - self.uniform()
    }

    /// Uniform on `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// An integer uniform on `[0, n)` (`n > 0`), by Lemire's multiply-shift (bias < 2^-32
    /// for the small `n` used here).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Standard normal by Box–Muller; the second value of each pair is kept for the next call.
    pub(crate) fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare_normal.take() {
            return z;
        }
        let u1 = self.uniform_open0();
        let u2 = self.uniform();
        let radius = (-2.0 * u1.ln()).sqrt();
        let angle = std::f64::consts::TAU * u2;
        self.spare_normal = Some(radius * angle.sin());
        radius * angle.cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_splitmix64() {
        // Vigna's splitmix64.c seeded with 1234567: the first outputs.
        let mut rng = Rng::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(rng.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn normals_have_unit_moments() {
        let mut rng = Rng::new(42);
        let n = 200_000;
        let draws: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "variance {var}");
        let uniforms_ok = (0..10_000).all(|_| (0.0..1.0).contains(&rng.uniform()));
        assert!(uniforms_ok);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    fn hashes_are_stable() {
        assert_eq!(hash_bytes(b"AAPL"), hash_bytes(b"AAPL"));
        assert_ne!(hash_bytes(b"AAPL"), hash_bytes(b"AAPM"));
        assert_ne!(combine(&[1, 2]), combine(&[2, 1]));
    }
}
