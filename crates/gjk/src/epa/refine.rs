//! The penetration direction refined on the true support function, for shapes with curved parts.
//!
//! The depth is the smallest support value of A − B over unit directions, D = min h(n), and EPA finds it on a
//! polytope of support points. On a polytope that is exact: its faces are facets of A − B. On a curved part of
//! A − B the polytope is only a secant surface: its nearest face is below the boundary by its sagitta, and its
//! normal is off the true one by about the square root of the depth error (h grows quadratically away from the
//! minimum), so 1e-12 on the depth still leaves 1e-6 rad on the normal.
//!
//! So for curved shapes the direction is refined on h itself, from EPA's face normal: Newton's method on the sphere
//! of directions. At a unit n with support point s = s(n), h's gradient along a unit tangent t is s·t (s is the
//! gradient of h, and the tangent step does not change |n| to first order), and its second derivative is
//! t·(∂s/∂n)t − h: the curvature of the boundary's support minus the sphere's own. ∂s/∂n is taken by central
//! differences of s over a step `δ = √ε` (in either precision: rounding of s costs ε·size/δ = √ε relative, and s
//! needs no more, since the iteration's fixed point — s parallel to n — does not depend on the Hessian). Each step
//! is kept only if it lowers h, so where h has a kink (the rim of a cylinder, an edge of a polytope part) the
//! iteration ends within δ/2 of it instead of crossing back and forth.
//!
//! Every h computed is an upper bound on the depth, so the refinement only ever tightens the upper bound. Its
//! support points — at the refined direction and the `± δ` stencil around it — are then added to EPA's polytope:
//! they wrap the nearest boundary point in faces a few δ wide, flat to δ² — within rounding in f64 — and EPA goes
//! on from there, so its lower bound can meet the upper one and its face there gives the normal (within δ) and the
//! witness points.

use arrayvec::ArrayVec;

use super::descent::{apart, slope_root};
use crate::gjk::newton::{descend, negligible, newton_direction, tangents};
use crate::gjk::DiffVertex;
use crate::math::{Real, Vector};

/// Rings of support points around the refined direction, at angles growing by [`RING_GROWTH`] from the
/// stencil's: EPA's faces near a curved minimum must be narrower the nearer they are (a face's sagitta must stay
/// below how much h rises over it), so a geometric family of rings covers all of them with a few dozen points
/// where EPA, splitting one face at a time, would need hundreds of iterations.
const RINGS: usize = 7;
/// Points per ring in 3D (each ring turned by half a step from the previous one); 2 in 2D.
const RING_POINTS: usize = 6;
/// Ratio of successive ring angles.
const RING_GROWTH: f64 = 8.0;

/// Most support points a refinement hands back to EPA: the refined one, a stencil of two per tangent axis and the
/// rings.
pub(crate) const MAX_POINTS: usize = 5 + RINGS * RING_POINTS;

/// Newton iterations at most (each costs 1 + 2·(DIM − 1) support calls, plus those of its step halvings).
const MAX_NEWTON: u32 = 16;

/// Step halvings at most before a Newton step that does not lower h is given up.
const MAX_HALVINGS: u32 = 12;

/// What the refinement found.
pub(crate) struct Refined<V: Vector> {
    /// The refined direction (unit).
    pub direction: V,
    /// The smallest h found: an upper bound on the depth.
    pub upper: V::Real,
    /// The unit direction of that h.
    pub upper_dir: V,
    /// Support points to add to the polytope: at `direction` first, then its stencil.
    pub points: ArrayVec<DiffVertex<V>, MAX_POINTS>,
    /// Whether the refined direction is a smooth minimum of h: the support point there lies on the line along it
    /// (its tangential part, h's gradient, vanished to within √ε of the size). Then the support point itself is
    /// the deepest point, exactly on the boundary; at a kink of h (the exposed face is an edge or a facet, and its
    /// support point one of that face's ends) EPA's face has the answer instead.
    pub smooth: bool,
}

/// Refines the unit direction `start` toward a local minimum of h(n) = n·s(n) (see the module docs).
/// With `rings`, the rings of support points around the refined direction are added to the points handed back.
pub(crate) fn refine<V: Vector>(support: &mut dyn FnMut(V) -> DiffVertex<V>, start: V, rings: bool) -> Refined<V> {
    let delta = V::Real::EPSILON.sqrt();
    let mut eval = |n: V| {
        let s = support(n);
        (n.dot(s.w), s)
    };
    let mut n = start;
    let (mut h, mut s) = eval(n);
    let mut stencil = ArrayVec::<DiffVertex<V>, 4>::new();
    for _ in 0..MAX_NEWTON {
        let t = tangents(n);
        stencil.clear();
        let Some(step) = newton_direction(&mut eval, n, h, &s, &t, &mut stencil) else { break };
        if negligible(&step) {
            break;
        }
        // Halve the step until h goes down; give up (converged to rounding, or at a kink) when it never does.
        let Some(next) = descend(&mut eval, n, h, &t, &step, MAX_HALVINGS) else { break };
        (n, h, s) = next;
        stencil.clear();
    }
    if stencil.is_empty() {
        for ti in tangents(n) {
            stencil.push(eval(n + ti * delta).1);
            stencil.push(eval(n - ti * delta).1);
        }
    }
    let mut points = ArrayVec::new();
    points.push(s);
    for p in stencil {
        points.push(p);
    }
    let t = tangents(n);
    let mut angle = delta;
    for ring in 0..if rings { RINGS } else { 0 } {
        angle *= V::Real::from_f64(RING_GROWTH);
        let per_ring = if V::DIM == 2 { 2 } else { RING_POINTS };
        for k in 0..per_ring {
            let turn = core::f64::consts::TAU * (k as f64 + 0.5 * (ring % 2) as f64) / per_ring as f64;
            let mut u = t[0] * V::Real::from_f64(turn.cos());
            if let Some(t1) = t.get(1) {
                u += *t1 * V::Real::from_f64(turn.sin());
            }
            points.push(eval(n + u * angle).1);
        }
    }
    let (upper, upper_dir) = points.iter().fold((h, n), |(m, u), p| {
        let d = p.dir.normalize_or_zero();
        let hp = d.dot(p.w);
        if hp < m {
            (hp, d)
        } else {
            (m, u)
        }
    });
    let lateral = (s.w - n * n.dot(s.w)).length();
    let smooth = lateral <= delta * s.w.max_abs().max(h.abs());
    let mut refined = Refined { direction: n, upper, upper_dir, points, smooth };
    // In 2D, Newton's method stops short of two minima of h. One is a kink, where A − B has a flat side between
    // curved parts (a circle swept along a segment: a stadium): h is r + ½L·|sin θ| about the side's normal, the
    // circle's h a constant, with no curvature to step on, and the refinement ended where EPA's edge was, up to a
    // hundredth of a radian off. The other is a minimum smooth on a scale Newton's central differences cannot see
    // (a circle of radius 1 about an ellipse 1e-3 × 1e-9: h turns within 1e-6 rad). EPA's polygon, a secant of the
    // arcs, cannot close the bounds either: a segment 2e-6 long inside a circle of radius 1e-3 at its centre ended
    // at 160 vertices with the depth 3.8e-9 short (the circle of radius 1 about that ellipse 2.7e-6 short),
    // `max_iterations`. So the root of h's slope along the circle of directions is found by a line search (see
    // `descent`), and settled here, where its points join EPA's.
    if !smooth && V::DIM == 2 {
        if let Some(&t) = tangents(n).first() {
            if let Some((x, ends)) = slope_root(&mut eval, n, t) {
                refined.settle(&mut eval, (n + t * x, ends));
            }
        }
    }
    refined
}

impl<V: Vector> Refined<V> {
    /// Takes the root of h's slope that a line search (`descent::slope_root`) found where Newton's method stopped
    /// short of a smooth minimum: the direction `u` (not unit) and the support points `ends` on either side of it,
    /// at directions a rounding apart. Where the points are apart, h has a kink there and A − B a straight edge
    /// between them: the direction is the one square to it, and the ends join the points for EPA, whose edge
    /// between them is then on the boundary. Where they coincide, the root is a smooth minimum of h and its support
    /// point the deepest point, in place of the refined one. Either is taken only where its h is no more than the
    /// least seen.
    fn settle(&mut self, eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>), (u, ends): (V, [DiffVertex<V>; 2])) {
        let e = ends[1].w - ends[0].w;
        let kink = apart(&ends);
        let m = if kink { u - e * (u.dot(e) / e.length_squared()) } else { u }.normalize_or_zero();
        if m == V::zero() || !(m.dot(u) > V::Real::ZERO) {
            return;
        }
        let (h, s) = eval(m);
        if !(h <= self.upper) {
            return;
        }
        (self.upper, self.upper_dir, self.direction) = (h, m, m);
        if kink {
            for end in ends {
                if !self.points.is_full() {
                    self.points.push(end);
                }
            }
        } else {
            self.points[0] = s;
            let lateral = (s.w - m * h).length();
            self.smooth = lateral <= V::Real::EPSILON.sqrt() * s.w.max_abs().max(h.abs());
        }
    }
}
