//! Two convex polygons: the boundary of A − B walked by its vertices' indices.
//!
//! A − B is the convex polygon whose edges are A's edges and −B's merged by angle (−B is B turned half a turn, so
//! its cycle is still counter-clockwise). Each of its vertices is a_i − b_j for a pair (i, j) whose normal cones
//! overlap, and the next vertex counter-clockwise is (i + 1, j) or (i, j + 1): whichever of A's next edge and
//! −B's next edge turns less. So once a support call names a vertex of A − B by the indices of its two support
//! points, the neighbouring vertices of A − B cost one cross product each, where GJK would spend an iteration
//! (a support search and a simplex solve) per step towards them, and on a polygon of thousands of vertices
//! approximating a curve it needs many.
//!
//! The walk only proposes points: every corner it names is a_i − b_j, a point of A − B whatever the indices, so
//! a simplex built from them is a valid start for GJK, which still proves the answer with its own bounds. When the
//! indices are wrong (a support point one vertex off by rounding) the walk is only slower to help, never wrong.

use super::pair::{DiffVertex, Pair};
use crate::math::{Real, Vector};
use crate::shape::SupportMap;

/// The most steps one walk takes: GJK goes on from wherever a walk that has not arrived stops (measured, callgrind:
/// the nearly touching polygon pairs of the benchmark walk under 10 steps once GJK's simplex is an edge).
const MAX_STEPS: usize = 24;

/// How many of A − B's edges a step's turn may span for a walk to a separating edge to be worth trying.
const SEEK_EDGES: f64 = 6.0;

/// Whether GJK's direction, turned from `before` to `now` in its last step, is within about [`SEEK_EDGES`] of A − B's
/// `na + nb` edges of settling, were the edges spread evenly over the turn (false without a step before).
#[inline]
pub(crate) fn close_to<V: Vector>((a, b): (&[V], &[V]), before: V, now: V) -> bool {
    let edges = V::Real::from_f64((a.len() + b.len()) as f64 / (SEEK_EDGES * core::f64::consts::TAU));
    let sin = cross(before, now).abs();
    let scale = (before.length_squared() * now.length_squared()).sqrt();
    scale > V::Real::ZERO && sin * edges <= scale
}

/// The direction between the search directions of two support points `p` and `q` where A − B's support function
/// would be least were it smooth: the secant rule on its derivative. `None` unless the two bracket a least value.
///
/// Along u(θ) = (cos θ, sin θ) the support function h(θ) = s(u)·u has the derivative h'(θ) = s(u)·u'(θ), u' being u
/// turned counter-clockwise, so each support point gives h' where it was found. GJK's own next direction, the
/// normal of the segment between two support points, is where their tangent lines w·u cross: on a smooth boundary
/// that is the middle of their angles, and on A − B of two polygons of thousands of vertices on circles GJK halves
/// the angle to the nearest edge a step until it holds one edge (8 iterations where 64-gons take 5). The secant
/// through h'(θ₁) < 0 < h'(θ₂) lands on a circle's least value at once, and near it on any smooth-looking boundary:
/// close enough for a walk to finish. A proposal only, like the walk's: GJK proves whatever comes of it.
pub(crate) fn secant<V: Vector>(p: &DiffVertex<V>, q: &DiffVertex<V>) -> Option<V> {
    let (n1, n2) = (p.dir.normalize_or_zero(), q.dir.normalize_or_zero());
    // n turned a quarter counter-clockwise (the other coordinates are zero: the walk is 2D).
    let turn = |n: V| V::from_fn(|i| [-n.get(1), n.get(0)].get(i).copied().unwrap_or(V::Real::ZERO));
    let (g1, g2) = (p.w.dot(turn(n1)), q.w.dot(turn(n2)));
    let zero = V::Real::ZERO;
    let (n1, n2, g1, g2) = if cross(n1, n2) > zero { (n1, n2, g1, g2) } else { (n2, n1, g2, g1) };
    if !(cross(n1, n2) > zero && g1 < zero && g2 > zero) {
        return None;
    }
    let t = g1 / (g1 - g2);
    let u = (n1 * (V::Real::ONE - t) + n2 * t).normalize_or_zero();
    (u != V::zero()).then_some(u)
}

/// Whether the origin is strictly inside the triangle a, b, c (either winding).
#[inline]
pub(crate) fn encloses_origin<V: Vector>(a: V, b: V, c: V) -> bool {
    let zero = V::Real::ZERO;
    let (s1, s2, s3) = (cross(a, b), cross(b, c), cross(c, a));
    (s1 > zero && s2 > zero && s3 > zero) || (s1 < zero && s2 < zero && s3 < zero)
}

/// a × b, the 2D cross product (the first two coordinates).
#[inline(always)]
fn cross<V: Vector>(a: V, b: V) -> V::Real {
    a.get(0) * b.get(1) - a.get(1) * b.get(0)
}

/// A vertex of A − B: the indices of A's and B's vertices that make it, and the point with its witnesses.
#[derive(Clone, Copy)]
pub(crate) struct Corner<V: Vector> {
    i: usize,
    j: usize,
    pub p: DiffVertex<V>,
}

/// A − B's boundary for a pair of polygons: A's vertices (the pair frame is A's) and B's (B's frame).
pub(crate) struct Walk<'p, 's, V: Vector, A: ?Sized, B: ?Sized> {
    pair: &'p Pair<'s, V, A, B>,
    a: &'s [V],
    b: &'s [V],
}

impl<'p, 's, V, A, B> Walk<'p, 's, V, A, B>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    /// The walk of a pair whose cores are polygons (`Pair::polygons`).
    pub fn new(pair: &'p Pair<'s, V, A, B>, (a, b): (&'s [V], &'s [V])) -> Self {
        Self { pair, a, b }
    }

    /// The corner a support call just returned, named by the hints it left (A's index, B's index); `None` when the
    /// indices do not give back its points exactly.
    #[inline]
    pub fn corner(&self, w: &DiffVertex<V>, (i, j): (u32, u32)) -> Option<Corner<V>> {
        let (i, j) = (i as usize, j as usize);
        let ok = i < self.a.len() && j < self.b.len() && self.a[i] == w.a && self.pair.place_b(self.b[j]) == w.b;
        ok.then_some(Corner { i, j, p: *w })
    }

    /// The corner (i, j) with B's vertex `b` already placed.
    #[inline(always)]
    fn make(&self, i: usize, j: usize, b: V, dir: V) -> Corner<V> {
        let a = self.a[i];
        Corner { i, j, p: DiffVertex { w: a - b, a, b, dir } }
    }

    /// The next corner counter-clockwise: along A's next edge or −B's, whichever turns less from the last.
    #[inline]
    pub fn next(&self, c: &Corner<V>) -> Corner<V> {
        let (i1, j1) = ((c.i + 1) % self.a.len(), (c.j + 1) % self.b.len());
        let ea = self.a[i1] - c.p.a;
        let b1 = self.pair.place_b(self.b[j1]);
        // −B's edge from −b_j to −b_{j+1}.
        let eb = c.p.b - b1;
        if cross(ea, eb) >= V::Real::ZERO {
            self.make(i1, c.j, c.p.b, c.p.dir)
        } else {
            self.make(c.i, j1, b1, c.p.dir)
        }
    }

    /// The previous corner: back along A's last edge or −B's, whichever turned last.
    #[inline]
    pub fn prev(&self, c: &Corner<V>) -> Corner<V> {
        let (na, nb) = (self.a.len(), self.b.len());
        let (i0, j0) = ((c.i + na - 1) % na, (c.j + nb - 1) % nb);
        let ea = c.p.a - self.a[i0];
        let b0 = self.pair.place_b(self.b[j0]);
        // −B's edge from −b_{j−1} to −b_j.
        let eb = b0 - c.p.b;
        if cross(eb, ea) >= V::Real::ZERO {
            self.make(i0, c.j, c.p.b, c.p.dir)
        } else {
            self.make(c.i, j0, b0, c.p.dir)
        }
    }

    /// A corner whose edge to the next corner has the origin outside its line (a separating axis, so the corner
    /// faces the origin), walked from `start` along the edges while their lines come nearer the origin; `None`
    /// when the walk finds none within [`MAX_STEPS`] (the origin may be inside A − B).
    pub fn separating(&self, start: Corner<V>) -> Option<Corner<V>> {
        let (p, h) = self.descend(start);
        (h < V::Real::ZERO).then_some(p)
    }

    /// From `start`, the edges' lines' signed distances from the origin (positive with the origin inside) fall
    /// towards a least one: the first corner of the edge reached and its distance, stopping at a negative one.
    fn descend(&self, start: Corner<V>) -> (Corner<V>, V::Real) {
        // p · (outward unit normal), the normal being the edge turned clockwise.
        let offset = |p: V, q: V| {
            let e = q - p;
            cross(p, e) / e.length()
        };
        let ahead = self.next(&start);
        let behind = self.prev(&start);
        let (h_ahead, h_behind) = (offset(start.p.w, ahead.p.w), offset(behind.p.w, start.p.w));
        let forward = h_ahead <= h_behind;
        let (mut p, mut q, mut h) = if forward { (start, ahead, h_ahead) } else { (behind, start, h_behind) };
        for _ in 0..MAX_STEPS {
            if h < V::Real::ZERO {
                break;
            }
            let (p2, q2) = if forward { (q, self.next(&q)) } else { (self.prev(&p), p) };
            let h2 = offset(p2.p.w, q2.p.w);
            if !(h2 < h) {
                break;
            }
            (p, q, h) = (p2, q2, h2);
        }
        (p, h)
    }

    /// The feature of A − B nearest the origin (a vertex, or an edge's two ends), walked from `start` along the
    /// boundary while the distance falls; `None` when it is still falling after [`MAX_STEPS`].
    ///
    /// A vertex p is the nearest point of a convex polygon exactly when neither edge leaving it heads towards the
    /// origin (p·(q − p) ≥ 0 for both neighbours q), and the nearest point lies inside the edge p → q when the
    /// origin's foot falls between its ends (p·(q − p) < 0 < q·(q − p)): both tests are local, and the walk stops
    /// on the first. The caller solves the feature as a GJK simplex, and GJK checks it.
    pub fn nearest(&self, start: Corner<V>) -> Option<(DiffVertex<V>, Option<DiffVertex<V>>)> {
        let heads_in = |p: V, q: V| p.dot(q - p) < V::Real::ZERO;
        let mut c = start;
        let ahead = self.next(&c);
        let (forward, mut q) = if heads_in(c.p.w, ahead.p.w) {
            (true, ahead)
        } else {
            let behind = self.prev(&c);
            if !heads_in(c.p.w, behind.p.w) {
                return Some((c.p, None));
            }
            (false, behind)
        };
        let step = |c: &Corner<V>| if forward { self.next(c) } else { self.prev(c) };
        for _ in 0..MAX_STEPS {
            if q.p.w.dot(q.p.w - c.p.w) > V::Real::ZERO {
                return Some((c.p, Some(q.p)));
            }
            c = q;
            q = step(&c);
            if !heads_in(c.p.w, q.p.w) {
                return Some((c.p, None));
            }
        }
        None
    }
}
