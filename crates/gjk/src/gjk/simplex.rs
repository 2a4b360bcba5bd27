//! The GJK simplex: up to DIM + 1 points of A − B with their witnesses and barycentric weights.

use super::pair::DiffVertex;
use crate::math::{Real, Vector};
use crate::simplex::{solve, Barycentric};

/// The simplex GJK keeps, in the pair frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Simplex<V: Vector> {
    pub verts: [DiffVertex<V>; 4],
    pub lambda: [V::Real; 4],
    pub len: usize,
}

impl<V: Vector> Simplex<V> {
    pub fn new(first: DiffVertex<V>) -> Self {
        // Slots past `len` are never read; filling them with `first` spares zeroing them first.
        let mut lambda = [V::Real::ZERO; 4];
        lambda[0] = V::Real::ONE;
        Self { verts: [first; 4], lambda, len: 1 }
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

    /// Drops the vertex pushed last, giving back the simplex as it was before the push (a push changes nothing
    /// else).
    pub fn pop(&mut self) {
        self.len -= 1;
    }

    /// Replaces the simplex by its smallest face holding the point nearest the origin and returns that point.
    pub fn reduce(&mut self) -> V {
        let (face, closest) = self.solve();
        self.keep(&face);
        closest
    }

    /// The smallest face holding the point nearest the origin, and that point, the simplex left as it is, so that
    /// a caller can still drop a vertex it just pushed when the new face is no better.
    ///
    /// The point is computed directly as the origin's projection onto the kept face rather than as Σ λᵢ wᵢ: on a
    /// thin triangle the weights carry the rounding of its small area, while the projection onto its plane (normal
    /// from its two shortest edges) does not. A full simplex keeps all its vertices only around the origin.
    pub fn solve(&self) -> (Face<V::Real>, V) {
        let mut w = [V::zero(); 4];
        for (o, v) in w.iter_mut().zip(self.vertices()) {
            *o = v.w;
        }
        let (bc, projected) = solve(&w[..self.len]);
        let face = Face::new(&bc);
        let at = |k: usize| w[face.index[k]];
        let closest = match face.len {
            1 => at(0),
            // The solver's projection when it has one (the same numbers: the kept triangle, in the same order).
            3 if V::DIM == 3 => projected.unwrap_or_else(|| V::triangle_projection(at(0), at(1), at(2)).0),
            n if n == V::DIM + 1 => V::zero(),
            n => (0..n).fold(V::zero(), |acc, k| acc + at(k) * face.lambda[k]),
        };
        (face, closest)
    }

    /// Keeps only the vertices of `face`, in order, with its weights.
    pub fn keep(&mut self, face: &Face<V::Real>) {
        for (k, &i) in face.index[..face.len].iter().enumerate() {
            if i != k {
                self.verts[k] = self.verts[i];
            }
        }
        self.lambda = face.lambda;
        self.len = face.len;
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

/// A face of the simplex: the indices of its vertices, in order, and their weights.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face<R> {
    pub index: [usize; 4],
    pub lambda: [R; 4],
    pub len: usize,
}

impl<R: Real> Face<R> {
    /// The vertices `bc` selects, with their weights renormalised: rounding can leave the weights summing to
    /// 1 ± a few ulps, and the witness points want them to sum to 1.
    fn new(bc: &Barycentric<R>) -> Self {
        let mut face = Self { index: [0; 4], lambda: [R::ZERO; 4], len: 0 };
        for i in 0..4 {
            if bc.mask & (1 << i) != 0 {
                face.index[face.len] = i;
                face.lambda[face.len] = bc.lambda[i];
                face.len += 1;
            }
        }
        let sum = face.lambda[..face.len].iter().fold(R::ZERO, |s, &l| s + l);
        if sum > R::ZERO {
            for l in &mut face.lambda[..face.len] {
                *l /= sum;
            }
        }
        face
    }
}
