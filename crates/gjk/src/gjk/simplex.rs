//! The GJK simplex: up to DIM + 1 points of A − B with their witnesses and barycentric weights.

use super::pair::DiffVertex;
use crate::math::{Real, Vector};
use crate::simplex::closest_to_origin;

/// The simplex GJK keeps, in the pair frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Simplex<V: Vector> {
    pub verts: [DiffVertex<V>; 4],
    pub lambda: [V::Real; 4],
    pub len: usize,
}

impl<V: Vector> Simplex<V> {
    pub fn new(first: DiffVertex<V>) -> Self {
        let mut s = Self { verts: [DiffVertex::default(); 4], lambda: [V::Real::ZERO; 4], len: 1 };
        s.verts[0] = first;
        s.lambda[0] = V::Real::ONE;
        s
    }

    /// The used vertices.
    pub fn vertices(&self) -> &[DiffVertex<V>] {
        &self.verts[..self.len]
    }

    /// True when `w` is already a vertex: asking for it again means no further progress is possible.
    pub fn contains(&self, w: V) -> bool {
        self.vertices().iter().any(|v| v.w == w)
    }

    /// Adds a vertex (the caller ensures there is room: at most DIM + 1).
    pub fn push(&mut self, v: DiffVertex<V>) {
        self.verts[self.len] = v;
        self.len += 1;
    }

    /// Replaces the simplex by its smallest face holding the point nearest the origin and returns that point.
    pub fn reduce(&mut self) -> V {
        let mut w = [V::zero(); 4];
        for (o, v) in w.iter_mut().zip(self.vertices()) {
            *o = v.w;
        }
        let bc = closest_to_origin(&w[..self.len]);
        let mut kept = 0;
        for i in 0..self.len {
            if bc.mask & (1 << i) != 0 {
                self.verts[kept] = self.verts[i];
                self.lambda[kept] = bc.lambda[i];
                kept += 1;
            }
        }
        self.len = kept;
        // Rounding can leave the weights summing to 1 ± a few ulps; the witness points want them to sum to 1.
        let sum = self.lambda[..kept].iter().fold(V::Real::ZERO, |s, &l| s + l);
        if sum > V::Real::ZERO {
            for l in &mut self.lambda[..kept] {
                *l /= sum;
            }
        }
        self.closest()
    }

    /// The point of the simplex nearest the origin, computed directly as the origin's projection onto the kept
    /// face rather than as Σ λᵢ wᵢ: on a thin triangle the weights carry the rounding of its small area, while the
    /// projection onto its plane (normal from its two shortest edges) does not.
    pub fn closest(&self) -> V {
        match self.len {
            1 => self.verts[0].w,
            3 if V::DIM == 3 => V::triangle_projection(self.verts[0].w, self.verts[1].w, self.verts[2].w).0,
            // A full simplex keeps all its vertices only around the origin.
            n if n == V::DIM + 1 => V::zero(),
            _ => self.combine(|v| v.w),
        }
    }

    /// Σ λᵢ aᵢ and Σ λᵢ bᵢ: the closest points of the two cores (equal to each other when the origin is inside,
    /// where they are a point common to both shapes).
    pub fn witnesses(&self) -> (V, V) {
        (self.combine(|v| v.a), self.combine(|v| v.b))
    }

    /// The largest |w| of the simplex: the scale of the numbers in play, which sets the rounding error.
    pub fn scale(&self) -> V::Real {
        self.vertices().iter().fold(V::Real::ZERO, |m, v| m.max(v.w.max_abs()))
    }

    fn combine(&self, f: impl Fn(&DiffVertex<V>) -> V) -> V {
        self.vertices().iter().zip(&self.lambda).fold(V::zero(), |acc, (v, &l)| acc + f(v) * l)
    }
}
