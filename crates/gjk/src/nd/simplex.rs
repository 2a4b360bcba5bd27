//! The simplex GJK keeps in ℝᴺ: up to N + 1 affinely independent points of A − B with positive weights, and the
//! descent that takes a new support point in (Wolfe's minor cycle, the "recursion on faces" of the original GJK
//! done by one walk instead of a search over all 2ᵏ faces).
//!
//! From the current weights λ (the new point at weight 0), the nearest point of the affine hull has weights μ. If
//! every μᵢ is positive that is the answer. Otherwise walk from λ toward μ until the first weight reaches zero
//! and drop that vertex (the nearest point lies on the face without it, which is nearer the origin than where we
//! started, since the distance is convex along the walk); then solve the smaller face. Each round drops a vertex,
//! so there are at most N + 1 rounds, and the point only ever gets nearer the origin.

use super::affine::nearest;
use super::slots::Slots;
use crate::math::VecN;

/// A point of A − B with the points of A and B (pair frame) and their indices that gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Vertex<const N: usize> {
    pub w: VecN<N>,
    pub a: VecN<N>,
    pub b: VecN<N>,
    pub index_a: usize,
    pub index_b: usize,
}

/// Vertices and their weights (positive, summing to one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simplex<const N: usize> {
    pub verts: Slots<Vertex<N>, N>,
    pub lambda: Slots<f64, N>,
}

impl<const N: usize> Simplex<N> {
    pub fn new(first: Vertex<N>) -> Self {
        let mut verts = Slots::new(first);
        verts.push(first);
        let mut lambda = Slots::new(0.0);
        lambda.push(1.0);
        Self { verts, lambda }
    }

    pub fn len(&self) -> usize {
        self.verts.len()
    }

    /// Σ λᵢ wᵢ: the simplex's point nearest the origin (from its weights; [`Self::add`] returns the same point
    /// as a least-squares residual, more exact).
    pub fn point(&self) -> VecN<N> {
        let mut v = VecN::ZERO;
        for i in 0..self.len() {
            v = v.add_scaled(self.verts[i].w, self.lambda[i]);
        }
        v
    }

    /// The witnesses Σ λᵢ aᵢ and Σ λᵢ bᵢ.
    pub fn witnesses(&self) -> (VecN<N>, VecN<N>) {
        let (mut a, mut b) = (VecN::ZERO, VecN::ZERO);
        for i in 0..self.len() {
            a = a.add_scaled(self.verts[i].a, self.lambda[i]);
            b = b.add_scaled(self.verts[i].b, self.lambda[i]);
        }
        (a, b)
    }

    /// Largest coordinate magnitude of the vertices: the scale of their rounding.
    pub fn scale(&self) -> f64 {
        self.verts.iter().fold(0.0, |s: f64, v| s.max(v.w.max_abs()))
    }

    /// True when `w` is already a vertex.
    pub fn contains(&self, w: VecN<N>) -> bool {
        self.verts.iter().any(|v| v.w == w)
    }

    /// Takes `x` in and descends to the nearest point of the new simplex's faces, returning it; `None` (the
    /// simplex unchanged) when `x` adds nothing: it is affinely dependent on the vertices, or drops out at once.
    /// The caller keeps fewer than N + 1 vertices before the call.
    pub fn add(&mut self, x: Vertex<N>) -> Option<VecN<N>> {
        let saved = *self;
        self.verts.push(x);
        self.lambda.push(0.0);
        for _round in 0..N + 2 {
            let mut pts = Slots::new(VecN::ZERO);
            for v in self.verts.iter() {
                pts.push(v.w);
            }
            let Some((point, mu)) = nearest(&pts) else { break };
            if (0..self.len()).all(|i| mu[i] > 0.0) {
                self.lambda = mu;
                return Some(point);
            }
            self.step_toward(&mu);
            // Once x is dropped the point lies in the old simplex, which held no point nearer than the old one.
            if !self.verts.iter().any(|v| v.w == x.w) {
                break;
            }
        }
        *self = saved;
        None
    }

    /// Walks the weights from λ toward μ until the first weight that μ makes non-positive reaches zero, and
    /// drops the vertices left at zero weight.
    fn step_toward(&mut self, mu: &Slots<f64, N>) {
        let k = self.len();
        // θ = min λᵢ / (λᵢ − μᵢ) over the weights μ makes non-positive (at most 1: λᵢ ≥ 0 ≥ μᵢ), and which one.
        let (mut theta, mut first) = (f64::INFINITY, k);
        for i in 0..k {
            if !(mu[i] > 0.0) {
                let (l, m) = (self.lambda[i], mu[i]);
                let t = if l - m > 0.0 { (l / (l - m)).min(1.0) } else { 0.0 };
                if t < theta {
                    theta = t;
                    first = i;
                }
            }
        }
        let mut sum = 0.0;
        for i in 0..k {
            let l = self.lambda[i] + theta * (mu[i] - self.lambda[i]);
            self.lambda[i] = if i == first { 0.0 } else { l };
        }
        for i in (0..k).rev() {
            if !(self.lambda[i] > 0.0) {
                self.verts.swap_remove(i);
                self.lambda.swap_remove(i);
            } else {
                sum += self.lambda[i];
            }
        }
        for i in 0..self.len() {
            self.lambda[i] /= sum;
        }
    }
}
