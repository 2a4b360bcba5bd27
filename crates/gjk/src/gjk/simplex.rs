//! The GJK simplex: up to DIM + 1 points of A − B with their witnesses and barycentric weights.

use super::pair::DiffVertex;
use crate::math::{Real, Vector};
use crate::simplex::{solve, triangle_projection, Barycentric};

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
    /// The point is computed directly as the origin's projection onto the kept face rather than as Σ λᵢ wᵢ when the
    /// face is a facet (a triangle in 3D, an edge in 2D): on a thin triangle the weights carry the rounding of its
    /// small area, and on any facet far from the origin Σ λᵢ wᵢ carries the rounding of the large wᵢ in every
    /// component, which tilts v by ε·|w| / |v| — the next support along such a v lands at the far end of the facet
    /// and the lower bound v·w / |v| collapses. The projection onto the facet's plane has its normal from the facet's
    /// edges alone, exact to a few ulps whatever the distance. A full simplex keeps all its vertices only around the
    /// origin.
    pub fn solve(&self) -> (Face<V::Real>, V) {
        // Every slot holds a vertex (`new` fills them all), so the points are read without a bound.
        let w: [V; 4] = core::array::from_fn(|i| self.verts[i].w);
        let (bc, projected) = solve(&w[..self.len]);
        let face = Face::new(&bc);
        let closest = match face.len() {
            1 => w[face.mask.trailing_zeros() as usize],
            // The solver's projection when it has one (the same numbers: the kept triangle, in the same order).
            3 if V::DIM == 3 => projected.unwrap_or_else(|| {
                let [i, j, k, _] = face.indices();
                triangle_projection(w[i], w[j], w[k]).0
            }),
            2 if V::DIM == 2 => {
                let [i, j, _, _] = face.indices();
                edge_projection_2d(w[i], w[j])
            }
            2 => {
                let [i, j, _, _] = face.indices();
                edge_projection_3d(w[i], w[j])
            }
            n if n == V::DIM + 1 => V::zero(),
            n => face.indices()[..n].iter().fold(V::zero(), |acc, &i| acc + w[i] * face.lambda[i]),
        };
        (face, closest)
    }

    /// Keeps only the vertices of `face`, in order, with its weights.
    pub fn keep(&mut self, face: &Face<V::Real>) {
        let mut lambda = [V::Real::ZERO; 4];
        // The face's vertices, lowest bit first, each moved down to the next slot (never up: none is overwritten
        // before it is read).
        let mut m = face.mask & 0b1111;
        let mut k = 0;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if i != k {
                self.verts[k] = self.verts[i];
            }
            lambda[k] = face.lambda[i];
            k += 1;
        }
        self.lambda = lambda;
        self.len = k;
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

/// The origin's projection onto the line through the 2D points `a` and `b`: n (n·p) / |n|² with n ⟂ b − a, exact in
/// direction (n is the edge turned a quarter, no rounding) and off in length by the rounding of n·p only, ε·|p|,
/// where p is whichever of a and b is nearer the origin.
fn edge_projection_2d<V: Vector>(a: V, b: V) -> V {
    let e = b - a;
    let n = V::from_fn(|k| if k == 0 { -e.get(1) } else { e.get(0) });
    let p = if a.length_squared() <= b.length_squared() { a } else { b };
    n * (n.dot(p) / n.length_squared())
}

/// The origin's projection onto the line through the 3D points `a` and `b`, exactly perpendicular to b − a up to a
/// few ulps of its own length. One projection, p = q − e (q·e) / |e|² from the nearer end q, leaves a part along e
/// of the rounding of q·e, ε·|q|; when the line passes far closer to the origin than its ends are (two long
/// segments a hair apart, parallel), that part tilts v by ε·|q| / |v|, the next support along v lands at a far end,
/// and the lower bound v·w / |v| falls below zero: the run stalls with an error bound as large as the distance.
/// A second projection of p removes that part down to the rounding of p·e, ε·|p|, so v·w = |v|² to rounding along
/// the whole line (Gram–Schmidt twice). Σ λᵢ wᵢ would carry the same ε·|q| in every component.
fn edge_projection_3d<V: Vector>(a: V, b: V) -> V {
    let e = b - a;
    let ee = e.length_squared();
    let q = if a.length_squared() <= b.length_squared() { a } else { b };
    if !(ee > V::Real::ZERO) {
        return q;
    }
    let p = q - e * (q.dot(e) / ee);
    p - e * (p.dot(e) / ee)
}

/// A face of the simplex: which vertices (bit i for vertex i) and their weights, at the vertices' own indices (zero
/// elsewhere), so that nothing moves until the face is kept.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face<R> {
    pub mask: u8,
    pub lambda: [R; 4],
}

impl<R: Real> Face<R> {
    /// The vertices `bc` selects, with their weights renormalised: rounding can leave the weights summing to
    /// 1 ± a few ulps, and the witness points want them to sum to 1. (The weights of the other vertices are exact
    /// zeros, which change neither the sum nor, divided, themselves; a sum of exactly 1 divides nothing.)
    fn new(bc: &Barycentric<R>) -> Self {
        let mut lambda = bc.lambda;
        let sum = lambda.iter().fold(R::ZERO, |s, &l| s + l);
        if sum > R::ZERO && sum != R::ONE {
            for l in &mut lambda {
                *l /= sum;
            }
        }
        Self { mask: bc.mask, lambda }
    }

    /// How many vertices.
    pub fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// The indices of the vertices, in order (the first `len` entries; zero after).
    fn indices(&self) -> [usize; 4] {
        let mut out = [0; 4];
        let mut m = self.mask;
        for o in &mut out {
            if m == 0 {
                break;
            }
            *o = m.trailing_zeros() as usize;
            m &= m - 1;
        }
        out
    }
}
