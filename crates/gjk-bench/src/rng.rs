//! A tiny deterministic generator (SplitMix64), so the workload is the same bits on every machine and with every
//! version of every dependency.

use gjk::math::{DQuat, DVec2, DVec3, Rot2};

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
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

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Uniform on the unit sphere.
    pub fn on_sphere(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.normal(), self.normal(), self.normal());
            let l = v.length();
            if l > 1e-6 {
                return v / l;
            }
        }
    }

    /// Uniform on the unit circle.
    pub fn on_circle(&mut self) -> DVec2 {
        let a = self.range(-std::f64::consts::PI, std::f64::consts::PI);
        DVec2::new(a.cos(), a.sin())
    }

    /// Uniform random 3D rotation (a normalised 4D Gaussian).
    pub fn rotation3(&mut self) -> DQuat {
        loop {
            let q = DQuat::from_xyzw(self.normal(), self.normal(), self.normal(), self.normal());
            let l = q.length();
            if l > 1e-6 {
                return q / l;
            }
        }
    }

    /// Uniform random 2D rotation.
    pub fn rotation2(&mut self) -> Rot2<f64> {
        Rot2::from_angle(self.range(-std::f64::consts::PI, std::f64::consts::PI))
    }
}

/// Mixes several numbers into one seed (each workload gets its own stream, independent of the others' order).
pub fn seed(parts: &[u64]) -> u64 {
    let mut r = Rng::new(0x6A6B_2024_5EED_0001);
    let mut s = r.next_u64();
    for &p in parts {
        r = Rng::new(s ^ p.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        s = r.next_u64();
    }
    s
}
