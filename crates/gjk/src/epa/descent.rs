//! The depth's last resort: steepest descent of h on the sphere of directions, with exact line searches that
//! find h's kinks.
//!
//! EPA's polytope and the refinement's Newton steps both need h to be smooth on the scale they sample it, and
//! some shapes are not: where A − B is a needle or a slab a billionth of its length wide (an ellipsoid 4e-10 × 0.3,
//! a disc with a radius of 0), where its exposed part is a ring of equal minima (an ellipsoid 1e-3 × 1 × 1e-3 about
//! a ball), or a straight edge shorter than the sampling (a capsule's core 2e-10 long inside a ball of 1e-3), the
//! polytope's faces are slivers whose normals are off by the needle's length over its width, or it runs out of
//! iterations on the ring, and its answer is up to 1e-9 of the size off while the support value along its own
//! normal says so. There, h itself is minimised, with no model of it: from a direction n, along the great circle
//! that descends fastest (its tangent t is the tangential part of the support point s(n), h's gradient), to the
//! root of h's slope s(u)·t(u) — bracketed by doubling steps, then halved to rounding. At the root either the
//! support points on its two sides coincide, a smooth minimum along the circle, or they are apart: a kink, A − B
//! has a straight edge e between them, and the minimum lies among the directions square to it. Each kink found
//! is kept (an active set): later circles turn only square to the edges found, so the search runs along a crease
//! and stops at a corner of two, where the exposed face of A − B is a facet. In a narrow valley of h (a ring of
//! minima) the gradient zigzags across it, so every second search runs along the line through the last two
//! gradient searches' ends (parallel tangents). Every h computed is an upper bound on the depth and each step
//! lowers it, so the descent never makes the answer worse than its start; its point is the combination of the
//! support points about the direction reached that comes nearest the foot h·n.

use arrayvec::ArrayVec;

use crate::gjk::newton::tangents;
use crate::gjk::DiffVertex;
use crate::math::{Real, Vector};
use crate::simplex::closest_to_origin;

/// Rounds of the descent at most: each a search down the gradient and, from the second on, one along the valley.
const ROUNDS: u32 = 6;

/// Most bracketing steps of [`slope_root`] (its step along the tangent doubles from 1e-6 to 2: 64° from n).
const BRACKETS: u32 = 22;
/// Most halvings of [`slope_root`]'s bracket (past the precision of f64's mantissa).
const HALVINGS: u32 = 64;

/// Where the descent ended.
pub(crate) struct Descent<V: Vector> {
    /// The unit direction reached.
    pub direction: V,
    /// h along it: an upper bound on the depth.
    pub h: V::Real,
    /// The point of A − B nearest `h · direction` among the combinations of the support points about it (see
    /// `exposed_point`): the support point itself at a well-resolved smooth minimum.
    pub point: DiffVertex<V>,
}

/// Minimises h(n) = n·s(n) from the unit direction `start` (see the module docs).
pub(crate) fn descend<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    start: V,
    scale: V::Real,
) -> Descent<V> {
    let (h, s) = eval(start);
    let mut at = (start, h, s);
    let mut found = Found { edges: ArrayVec::new(), ends: ArrayVec::new() };
    // Where the gradient search before last started.
    let mut anchor = start;
    for round in 0..ROUNDS {
        let before = at.0;
        // Down the gradient: h's is the tangential part of the support point, less the edges' directions.
        let Some(next) = line(eval, at, Search::Gradient, &mut found) else { break };
        at = next;
        // Then along the valley (parallel tangents): gradient searches in a narrow valley zigzag across it — an
        // ellipsoid 1e-3 × 0.3 × 1e-3 has a ring of minima, about which h rises ninety thousand times faster
        // across than along — and the line from where the one before last started to where the last ended runs
        // down it. On a quadratic this is a conjugate gradient step.
        if round > 0 {
            if let Some(next) = line(eval, at, Search::Along(at.0 - anchor), &mut found) {
                at = next;
                // Ending across the valley: its floor is where the support point's lateral part vanishes.
                if round + 1 == ROUNDS {
                    at = line(eval, at, Search::Gradient, &mut found).unwrap_or(at);
                }
            }
        }
        anchor = before;
    }
    let (n, h, s) = at;
    let point = exposed_point(eval, (n, h, s), &found, scale);
    Descent { direction: n, h, point }
}

/// Support points the exposed face is built from, at most.
const FACE: usize = 48;
/// Turns of the stencil about the direction reached, in ulps: 1024, then 32 times more each, to 3.4e7 (7.5e-9 rad
/// in f64).
const TURNS: [f64; 4] = [1024.0, 32768.0, 1048576.0, 33554432.0];

/// The point of A − B nearest the foot `h · n` of the direction reached, from the support points about it on the
/// supporting plane (within rounding): the support point, those a few turns away along each tangent axis and
/// across each crease, and the line searches' ends. At a minimum of h the foot is a combination of the support
/// points about it, however fast the boundary turns there: a needle 4e-10 wide and 0.3 long turns its support by
/// 2e8 times the angle, so by 2e-8 over a rounding of the direction, and a direction 1e-11 rad off a needle 1e-6
/// wide puts it 9e-7 off the foot, while the points a few turns either way hold the foot between them. The nearest
/// combination is found as GJK finds it on a polytope: on the finite set, a simplex at a time.
fn exposed_point<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    (n, h, s): (V, V::Real, DiffVertex<V>),
    found: &Found<V>,
    scale: V::Real,
) -> DiffVertex<V> {
    let scale = found.ends.iter().fold(s.w.max_abs().max(scale), |m, p| m.max(p.w.max_abs()));
    let tie = V::Real::from_f64(1024.0) * V::Real::EPSILON * scale;
    let mut face = ArrayVec::<DiffVertex<V>, FACE>::new();
    let keep = |p: DiffVertex<V>, face: &mut ArrayVec<DiffVertex<V>, FACE>| {
        if !face.is_full() && (n.dot(p.w) - h).abs() <= tie && !face.iter().any(|q| q.w == p.w) {
            face.push(p);
        }
    };
    keep(s, &mut face);
    for turn in TURNS {
        let turn = V::Real::from_f64(turn) * V::Real::EPSILON;
        for e in tangents(n).into_iter().chain(found.edges.iter().copied()) {
            keep(eval(n + e * turn).1, &mut face);
            keep(eval(n - e * turn).1, &mut face);
        }
    }
    for p in found.ends.iter().rev() {
        keep(*p, &mut face);
    }
    if face.is_empty() {
        return s;
    }
    nearest_combination(&face, n * h)
}

/// Most simplex steps of [`nearest_combination`] (it ends sooner when no point of the set is nearer).
const NEAREST_STEPS: u32 = 32;

/// The combination of the points `face` (their `a` and `b` alike) nearest `foot`: GJK on the finite set.
fn nearest_combination<V: Vector>(face: &[DiffVertex<V>], foot: V) -> DiffVertex<V> {
    let mut simplex = ArrayVec::<DiffVertex<V>, 4>::new();
    simplex.push(face[0]);
    let mut best = face[0];
    for _ in 0..NEAREST_STEPS {
        let rel: ArrayVec<V, 4> = simplex.iter().map(|p| p.w - foot).collect();
        let bc = closest_to_origin(&rel);
        let combine = |f: fn(&DiffVertex<V>) -> V| {
            simplex.iter().enumerate().fold(V::zero(), |acc, (i, p)| {
                if bc.mask & (1 << i) != 0 {
                    acc + f(p) * bc.lambda[i]
                } else {
                    acc
                }
            })
        };
        let w = combine(|p| p.w);
        let v = w - foot;
        if (v.length_squared() < (best.w - foot).length_squared()) || simplex.len() == 1 {
            best = DiffVertex { w, a: combine(|p| p.a), b: combine(|p| p.b), dir: best.dir };
        }
        // The kept vertices, then the point of the set farthest the other way along v.
        let kept: ArrayVec<DiffVertex<V>, 4> =
            simplex.iter().enumerate().filter(|(i, _)| bc.mask & (1 << i) != 0).map(|(_, p)| *p).collect();
        let next = face
            .iter()
            .min_by(|p, q| (p.w - foot).dot(v).partial_cmp(&(q.w - foot).dot(v)).unwrap_or(core::cmp::Ordering::Equal));
        let Some(next) = next else { break };
        let gain = v.length_squared() - (next.w - foot).dot(v);
        if !(gain > V::Real::EPSILON * v.length_squared()) || kept.is_full() || kept.iter().any(|p| p.w == next.w) {
            break;
        }
        simplex = kept;
        simplex.push(*next);
    }
    best
}

/// What the line searches found: the kinks' edges (orthonormal) and the support points on either side of each
/// root taken, newest last.
struct Found<V: Vector> {
    edges: ArrayVec<V, 2>,
    ends: ArrayVec<DiffVertex<V>, { 2 * (2 * ROUNDS as usize + 1) }>,
}

/// The direction of a line search.
enum Search<V> {
    /// Down h's gradient, the tangential part of the support point.
    Gradient,
    /// Along the valley: the step from where the gradient search before last started.
    Along(V),
}

/// One line search from `(n, h, s)`, its direction made square to n and to the edges `found` (both ways, whichever
/// descends): the direction reached where it lowers h, with its h and support point. A kink found on the way adds
/// its edge, and the root's ends are kept. `None` where the direction has nothing left (a gradient, nothing beyond
/// the rounding of the support point: a minimum), no root is bracketed or h does not go down.
fn line<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    (n, h, s): (V, V::Real, DiffVertex<V>),
    search: Search<V>,
    found: &mut Found<V>,
) -> Option<(V, V::Real, DiffVertex<V>)> {
    let edges = &mut found.edges;
    if edges.len() + 1 >= V::DIM {
        return None;
    }
    let (mut t, floor) = match search {
        Search::Gradient => (s.w, V::Real::from_f64(64.0) * V::Real::EPSILON * s.w.max_abs().max(h.abs())),
        Search::Along(step) => (step, V::Real::ZERO),
    };
    for e in edges.iter() {
        t -= *e * t.dot(*e);
    }
    t -= n * n.dot(t);
    if !(t.length() > floor) {
        return None;
    }
    let t = t.normalize_or_zero();
    let (x, [near, far]) = slope_root(eval, n, t)?;
    let u = n + t * x;
    // Support points apart on the two sides of the root: a kink, an edge of A − B between them, or a turn of the
    // boundary faster than the directions can resolve (a needle 4e-10 wide turns its support by 2e8 times the
    // angle); either way the minimum lies square to their difference, within rounding. The crease is the great
    // circle square to that difference itself (n is off it by the step that found it).
    let e = far.w - near.w;
    let kink = apart(&[near, far]);
    // A difference mostly along an edge already found is that crease again, crossed because its direction is
    // known only to rounding (a disc 1e-9 thick turns its support by 1e9 times the angle, so a crease 1e-11 rad off
    // is crossed by a search along it): a new edge only for a new direction.
    if kink && !edges.is_full() {
        let mut rest = e;
        for f in edges.iter() {
            rest -= *f * rest.dot(*f);
        }
        if rest.length() > e.length() * V::Real::HALF {
            edges.push(rest.normalize_or_zero());
        }
    }
    let mut m = u;
    for e in edges.iter() {
        m -= *e * m.dot(*e);
    }
    let m = m.normalize_or_zero();
    if m == V::zero() {
        return None;
    }
    let (hm, sm) = eval(m);
    if !(hm <= h) {
        return None;
    }
    if found.ends.remaining_capacity() >= 2 {
        found.ends.push(near);
        found.ends.push(far);
    }
    Some((m, hm, sm))
}

/// Whether the support points on the two sides of a root of h's slope are apart (by more than √ε of their size):
/// a kink of h there, A − B's edge between them; else the root is a smooth minimum along its circle.
pub(crate) fn apart<V: Vector>([near, far]: &[DiffVertex<V>; 2]) -> bool {
    let scale = near.w.max_abs().max(far.w.max_abs());
    (far.w - near.w).length() > V::Real::EPSILON.sqrt() * scale
}

/// The root of h's slope along the great circle from the unit `n` down the unit tangent `t` (or up it, whichever
/// descends): the step x along t on its near side (the direction n + x·t, not unit), and the support points on
/// either side of it, a rounding apart. The direction n + x·t has the support of its unit, and the slope of h
/// there has the sign of s·(t − x·n), the tangent turning it forward; it is bracketed by steps doubling from 1e-6,
/// then halved until the bracket's ends are neighbours. `None` where no bracket is found within 64° of n.
pub(crate) fn slope_root<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    n: V,
    t: V,
) -> Option<(V::Real, [DiffVertex<V>; 2])> {
    let mut slope = |x: V::Real| {
        let s = eval(n + t * x).1;
        (s.w.dot(t - n * x), s)
    };
    let (g0, s0) = slope(V::Real::ZERO);
    if !(g0.abs() > V::Real::ZERO) {
        return None;
    }
    // Down the slope: x of the other sign than h's slope at n.
    let down = if g0 > V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
    let (mut near, mut near_s) = (V::Real::ZERO, s0);
    let mut far = None;
    let mut x = V::Real::from_f64(1e-6) * down;
    for _ in 0..BRACKETS {
        let (g, s) = slope(x);
        if !g.is_finite() {
            return None;
        }
        if (g > V::Real::ZERO) != (g0 > V::Real::ZERO) {
            far = Some((x, s));
            break;
        }
        (near, near_s) = (x, s);
        x = x + x;
    }
    let (mut far, mut far_s) = far?;
    for _ in 0..HALVINGS {
        let mid = (near + far) * V::Real::HALF;
        if mid == near || mid == far {
            break;
        }
        let (g, s) = slope(mid);
        if (g > V::Real::ZERO) == (g0 > V::Real::ZERO) {
            (near, near_s) = (mid, s);
        } else {
            (far, far_s) = (mid, s);
        }
    }
    Some((near, [near_s, far_s]))
}
