//! The harness's random numbers: SplitMix64, written out so that a seed means the same cases on every machine and
//! every version of every dependency (a reproducer is a seed and a case index, nothing else).

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, full period, good enough for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The generator of case `index` of the run seeded `seed`: each case has its own stream, so one case can be
    /// replayed without the ones before it.
    pub fn for_case(seed: u64, index: u64) -> Self {
        let mut r = Self(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Log-uniform in [lo, hi) (both positive): as many values near 1e-6 as near 1e-3.
    pub fn log_range(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A random sign.
    pub fn sign(&mut self) -> f64 {
        if self.chance(0.5) {
            1.0
        } else {
            -1.0
        }
    }

    /// One of `items`, uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// An index drawn with the given weights.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// A uniformly distributed unit vector in `dim` dimensions (2 or 3).
    pub fn unit_vector(&mut self, dim: usize) -> Vec<f64> {
        let phi = self.range(-std::f64::consts::PI, std::f64::consts::PI);
        if dim == 2 {
            return vec![phi.cos(), phi.sin()];
        }
        let z = self.range(-1.0, 1.0);
        let s = (1.0 - z * z).max(0.0).sqrt();
        vec![s * phi.cos(), s * phi.sin(), z]
    }

    /// A uniformly distributed unit quaternion [x, y, z, w] (Shoemake's method).
    pub fn quaternion(&mut self) -> [f64; 4] {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        [a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos()]
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    /// A case's stream depends only on the seed and its index, so a reproducer needs nothing else.
    #[test]
    fn case_streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_case(7, 12).next_u64()).collect();
        assert!(a.iter().all(|&x| x == a[0]));
        assert_ne!(Rng::for_case(7, 12).next_u64(), Rng::for_case(7, 13).next_u64());
        assert_ne!(Rng::for_case(7, 12).next_u64(), Rng::for_case(8, 12).next_u64());
        let mut r = Rng::new(1);
        assert!((0..1000).map(|_| r.unit()).all(|x| (0.0..1.0).contains(&x)));
    }
}
