//! A supporting direction where the shapes touch at a kink of A − B.
//!
//! When the origin lies on the boundary of A − B (the shapes touch: depth zero), the normals there are the unit
//! directions n with h(n) = 0, h being A − B's support function. At a smooth point that is one direction; at a
//! kink — a cylinder's or a cone's rim, a cone's apex — a whole cone of them, which is thin: around a rim it is a
//! fan of directions in one plane. EPA's polytope around such an origin has faces through it whose planes cut
//! A − B along chords of the rim, and its expansion closes in on the fan only as fast as its new vertices approach
//! the origin along the curved edge. It can stall with its least support value far above zero (0.23 for a point on
//! a cone's rim), the depth right (zero) but neither the normal nor the bound.
//!
//! So the normal is found as a proximal normal instead. From a point q = τu just outside A − B, GJK gives the
//! point c of A − B nearest q, and the direction n = (q − c) / |q − c| supports A − B at c: h(n) = n·c. The point c
//! is within 2τ of the origin (the origin is in A − B, no farther from q than τ), so h(n) is at most 2τ, and far
//! less where c is on a flat part through the origin (a cap, a cone's side line) — zero — or on a curved one —
//! about τ²·curvature. Taking τ the support value along u plus a margin puts q outside A − B whatever u is (beyond
//! its supporting plane along u, by the margin), and each round starts from the last direction with τ shrinking
//! with its support value, which falls about quadratically round by round. Every direction tried is an upper bound
//! on the depth by its own support value, so only the least of them is kept: the answer is never worse than EPA's.

use crate::gjk::run::{initial_simplex, run, Outcome, Params};
use crate::gjk::Pair;
use crate::math::{Iso, Real, Vector};
use crate::shape::SupportMap;

/// Rounds at most (one GJK run each, from a point just outside A − B).
const ROUNDS: u32 = 10;

/// The least distance τ from the origin to the outside point, in units of √ε × the scale of A − B's points: GJK's
/// direction to the nearest point is good to ε·scale / τ, so τ must stay well above rounding.
const MIN_OFFSET: f64 = 16.0;

/// From the unit direction `start`, with support value `h_start`, a unit direction with a support value no
/// greater, as small as the rounds find (see the module docs), and that value. `target`: a support value low
/// enough to stop at; `scale`: the size of A − B's points near the origin.
pub(crate) fn normal<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    (start, h_start): (V, V::Real),
    target: V::Real,
    scale: V::Real,
    params: &Params<V::Real>,
) -> (V, V::Real)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let min_offset = V::Real::from_f64(MIN_OFFSET) * V::Real::EPSILON.sqrt() * scale;
    let (mut best, mut best_h) = (start, h_start);
    let mut u = start;
    let mut h_u = h_start;
    for _ in 0..ROUNDS {
        if !(best_h > target) {
            break;
        }
        // Beyond the supporting plane along u: outside A − B by at least `min_offset`.
        let tau = h_u.max(V::Real::ZERO) + min_offset;
        let q = u * tau;
        let mut shifted = pair.shifted(q);
        let start_simplex = initial_simplex(&mut shifted, &[u]);
        let core = run(&mut shifted, start_simplex, params, &mut (), &Iso::identity());
        if core.outcome == Outcome::Intersecting {
            break;
        }
        let n = (-core.v).normalize_or_zero();
        if n == V::zero() || !n.is_finite() {
            break;
        }
        let h = n.dot(pair.support(n).w);
        if !(h.is_finite()) {
            break;
        }
        if h < best_h {
            (best, best_h) = (n, h);
        }
        (u, h_u) = (n, h);
    }
    (best, best_h)
}
