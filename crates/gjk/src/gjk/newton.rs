//! Newton's method on the sphere of directions: the nearest point of a curved A − B proposed in a few steps, for
//! GJK to prove.
//!
//! For every unit n, h(n) = n·s(n) is A − B's support value (s its support point). Its smallest value over the
//! unit directions is minus the signed distance: min h = −dist when the origin is outside (the plane at the
//! minimising n separates, and its support point is the nearest point), and the penetration depth when inside.
//! Either way the minimiser is where s(n) is parallel to n. On a smooth part of the boundary h is smooth too, and
//! Newton's method converges to it quadratically, where GJK — Frank–Wolfe on A − B — only halves the gap a step.
//!
//! At a unit n with support point s, h's gradient along a unit tangent t is s·t (s is the gradient of h, and the
//! tangent step does not change |n| to first order), and its second derivative is t·(∂s/∂n)t − h: the curvature of
//! the boundary's support minus the sphere's own. ∂s/∂n is taken by central differences of s over a step
//! `δ = √ε` (in either precision: rounding of s costs ε·size/δ = √ε relative, and s needs no more, since the
//! iteration's fixed point — s parallel to n — does not depend on the Hessian). Each step is kept only if it lowers
//! h, so where h has a kink (a cylinder's rim, a polytope part's edge) the iteration ends within δ/2 of it instead
//! of crossing back and forth.

use arrayvec::ArrayVec;

use super::pair::{DiffVertex, Pair};
use crate::math::{Real, Vector};
use crate::shape::SupportMap;

/// DIM − 1 unit vectors orthogonal to the unit `n` and to each other (Gram–Schmidt on the axes, those least
/// aligned with n first).
pub(crate) fn tangents<V: Vector>(n: V) -> ArrayVec<V, 2> {
    let mut axes: ArrayVec<usize, 3> = (0..V::DIM).collect();
    axes.sort_by(|&i, &j| n.get(i).abs().partial_cmp(&n.get(j).abs()).unwrap_or(core::cmp::Ordering::Equal));
    let mut out = ArrayVec::<V, 2>::new();
    for &i in &axes {
        if out.len() == V::DIM - 1 {
            break;
        }
        let mut t = V::axis(i) - n * n.get(i);
        for &u in &out {
            t -= u * t.dot(u);
        }
        let t = t.normalize_or_zero();
        if t != V::zero() {
            out.push(t);
        }
    }
    out
}

/// One Newton step's direction at the unit `n` (support value `h`, support point `s`), in the coordinates of the
/// tangents `t`: the gradient from s, the Hessian from central differences of the support along each tangent (whose
/// support points are pushed on `stencil`). `None` when the tangents are degenerate or h is not finite.
pub(crate) fn newton_direction<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    n: V,
    h: V::Real,
    s: &DiffVertex<V>,
    t: &ArrayVec<V, 2>,
    stencil: &mut ArrayVec<DiffVertex<V>, 4>,
) -> Option<[V::Real; 2]> {
    let zero = V::Real::ZERO;
    if t.len() + 1 != V::DIM || !h.is_finite() {
        return None;
    }
    let delta = V::Real::EPSILON.sqrt();
    // Gradient: the tangential part of the support point.
    let mut g = [zero; 2];
    for (gi, ti) in g.iter_mut().zip(t) {
        *gi = s.w.dot(*ti);
    }
    // Second derivatives by central differences of s along each tangent.
    let mut ds = [V::zero(); 2];
    for (i, ti) in t.iter().enumerate() {
        let (_, plus) = eval(n + *ti * delta);
        let (_, minus) = eval(n - *ti * delta);
        ds[i] = (plus.w - minus.w) * (V::Real::ONE / (delta + delta));
        stencil.push(plus);
        stencil.push(minus);
    }
    let mut hess = [[zero; 2]; 2];
    for i in 0..t.len() {
        for j in 0..t.len() {
            // Symmetrised: ∂s/∂n is symmetric, its difference quotients only to rounding.
            hess[i][j] = (t[j].dot(ds[i]) + t[i].dot(ds[j])) * V::Real::HALF;
        }
        hess[i][i] -= h;
    }
    Some(newton_step(&hess, &g, t.len(), h.abs().max(s.w.max_abs())))
}

/// The Newton step x solving H x = −g on the first `k` coordinates, with H's eigenvalues raised to at least
/// 1e-3·`size` so that a flat direction (a circle of minimisers) or a concave one moves by a bounded amount
/// instead of an unbounded one.
///
/// Solved in f64 whatever the precision: in f32 the compiler packed these pairs of numbers into 4-wide registers
/// whose two unused lanes held stray subnormal bits, and each product on them took a microcode assist (a trap on
/// the SSE denormal-operand flag counted 512 in 1,600 f32 queries, all here); pairs of f64 fill the register.
fn newton_step<R: Real>(hess: &[[R; 2]; 2], g: &[R; 2], k: usize, size: R) -> [R; 2] {
    let hess = hess.map(|row| row.map(|x| x.to_f64()));
    newton_step_f64(&hess, &g.map(|x| x.to_f64()), k, size.to_f64()).map(R::from_f64)
}

/// [`newton_step`] in f64.
fn newton_step_f64(hess: &[[f64; 2]; 2], g: &[f64; 2], k: usize, size: f64) -> [f64; 2] {
    let floor = 1e-3 * size;
    if k == 1 {
        return [-g[0] / hess[0][0].max(floor), 0.0];
    }
    // Eigen-decomposition of the symmetric 2×2 [[a, b], [b, c]].
    let (a, b, c) = (hess[0][0], hess[0][1], hess[1][1]);
    let mean = (a + c) * 0.5;
    let half_diff = (a - c) * 0.5;
    let root = Real::sqrt(half_diff * half_diff + b * b);
    let (l1, l2) = (mean + root, mean - root);
    // Eigenvector of l1: (b, l1 − a) or (l1 − c, b), whichever is longer; l2's is its perpendicular.
    let (v1, v2) = ((b, l1 - a), (l1 - c, b));
    let (ex, ey) = if v1.0 * v1.0 + v1.1 * v1.1 >= v2.0 * v2.0 + v2.1 * v2.1 { v1 } else { v2 };
    let len = Real::sqrt(ex * ex + ey * ey);
    let (ex, ey) = if len > 0.0 { (ex / len, ey / len) } else { (1.0, 0.0) };
    // x = −Σ (e·g / λ) e over the two eigenvectors e1 = (ex, ey), e2 = (−ey, ex).
    let (g1, g2) = (ex * g[0] + ey * g[1], -ey * g[0] + ex * g[1]);
    let (c1, c2) = (-g1 / l1.max(floor), -g2 / l2.max(floor));
    [c1 * ex - c2 * ey, c1 * ey + c2 * ex]
}

/// A proposal is worth its support calls once GJK's duality gap |v|² − v·w is within this fraction of |v|²: the
/// supporting plane along −v is then at least 0.9 |v| from the origin, so v is already near the nearest point, and
/// Newton's method from v's direction converges in a few steps on a smooth part (tried: 0.03 and 0.3 did no better
/// on the bench's cylinders, cones and ellipsoids).
const PROPOSE_GAP: f64 = 0.1;

/// The loosest GJK tolerance for which a proposal is made. Frank–Wolfe's tail on a smooth surface halves the gap a
/// step, so a proposal saves about log₂(PROPOSE_GAP / tolerance) steps where it succeeds, and costs a dozen support
/// calls where h has a kink at the nearest point (a cylinder's cap or side, a cone's apex or base). At f64's default
/// tolerance (1.4e-14) that pays on every curved family of the bench; at f32's (7.6e-6) callgrind counted +18 % on
/// cylinders and +23 % on cones against −42 % on ellipsoids (3D f32 separated distance, 64 poses).
pub(crate) const PROPOSE_TOLERANCE: f64 = 1e-9;

/// Newton steps at most in a proposal.
const PROPOSAL_STEPS: u32 = 6;

/// Step halvings at most in a proposal's line search (a step that does not go down after them is at a kink of h,
/// where GJK does better).
const PROPOSAL_HALVINGS: u32 = 4;

/// Whether GJK with relative tolerance `rel_tol`, at duality gap `gap` for |v|² = `v2` and best lower bound `lower`
/// on the distance, should ask for a proposal: when the tolerance is within [`PROPOSE_TOLERANCE`], the gap within
/// [`PROPOSE_GAP`] and the pair is proven apart by more than twice `touching` (the
/// distance under which it would count as touching). Then the verdict is settled whatever the proposal finds, so
/// every query's answer to "do they intersect" stays the one GJK alone gives.
pub(crate) fn worth_proposing<R: Real>(rel_tol: R, gap: R, v2: R, lower: R, touching: R) -> bool {
    rel_tol <= R::from_f64(PROPOSE_TOLERANCE) && gap <= R::from_f64(PROPOSE_GAP) * v2 && lower > touching + touching
}

/// Newton's method from the unit `start`, for GJK: steps until a support point s and its own plane meet — its
/// distance |s| (an upper bound on the distance) and the plane's −h (a lower bound: all of A − B is behind the plane)
/// agree to GJK's own test, |s|·(|s| + h) ≤ rel_tol·|s|² + `noise` — and returns that point and −h. `None` when h
/// stops going down first (at a kink of h: A − B has a flat face there, a cylinder's cap or a polytope part's
/// facet, which GJK's simplex pins down better) or after [`PROPOSAL_STEPS`]. At most
/// 1 + PROPOSAL_STEPS·(2·(DIM − 1) + PROPOSAL_HALVINGS) support calls.
pub(crate) fn propose<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    start: V,
    rel_tol: V::Real,
    noise: V::Real,
) -> Option<(DiffVertex<V>, V::Real)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut eval = |n: V| valued(pair, n);
    let mut n = start;
    let (mut h, mut s) = eval(n);
    let mut stencil = ArrayVec::<DiffVertex<V>, 4>::new();
    for _ in 0..=PROPOSAL_STEPS {
        if meets_own_plane(&s, h, rel_tol, noise) {
            return Some((s, -h));
        }
        let t = tangents(n);
        stencil.clear();
        let step = newton_direction(&mut eval, n, h, &s, &t, &mut stencil)?;
        if negligible(&step) {
            return None;
        }
        (n, h, s) = descend(&mut eval, n, h, &t, &step, PROPOSAL_HALVINGS)?;
    }
    None
}

/// Whether a Newton step is below rounding (no component above ε): the iteration has converged.
pub(crate) fn negligible<R: Real>(step: &[R; 2]) -> bool {
    !(step.iter().fold(R::ZERO, |m, x| m.max(x.abs())) > R::EPSILON)
}

/// A's support point along `n` with its support value h(n) = n·s: what Newton's method evaluates.
fn valued<V, A, B>(pair: &mut Pair<'_, V, A, B>, n: V) -> (V::Real, DiffVertex<V>)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let s = pair.support(n);
    (n.dot(s.w), s)
}

/// GJK's convergence test for a support point `s` and a plane of support value `h` (−h from the origin): the point's
/// distance |s| and the plane's −h agree, |s|·(|s| + h) ≤ rel_tol·|s|² + `noise`.
fn meets_own_plane<V: Vector>(s: &DiffVertex<V>, h: V::Real, rel_tol: V::Real, noise: V::Real) -> bool {
    let len2 = s.w.length_squared();
    len2 + h * len2.sqrt() <= rel_tol * len2 + noise
}

/// The unit direction `n` moved by `scale` times `step` along the tangents `t`.
fn stepped<V: Vector>(n: V, t: &ArrayVec<V, 2>, step: &[V::Real; 2], scale: V::Real) -> V {
    let mut trial = n;
    for (ti, x) in t.iter().zip(step) {
        trial += *ti * (*x * scale);
    }
    trial.normalize_or_zero()
}

/// The Newton `step` from the unit `n` (support value `h`), halved until h goes down, at most `halvings` times:
/// the new direction, its h and support point, or `None` when h never went down (converged to rounding, or at a
/// kink).
pub(crate) fn descend<V: Vector>(
    eval: &mut impl FnMut(V) -> (V::Real, DiffVertex<V>),
    n: V,
    h: V::Real,
    t: &ArrayVec<V, 2>,
    step: &[V::Real; 2],
    halvings: u32,
) -> Option<(V, V::Real, DiffVertex<V>)> {
    let mut scale = V::Real::ONE;
    for _ in 0..halvings {
        let trial = stepped(n, t, step, scale);
        let (ht, st) = eval(trial);
        if ht < h {
            return Some((trial, ht, st));
        }
        scale *= V::Real::HALF;
    }
    None
}

/// Newton steps at most in an edge proposal.
const EDGE_STEPS: u32 = 10;

/// Newton's method for a nearest point on a straight edge of A − B (3D): a cylinder's side, or a box's or hull's edge,
/// swept along a curved part. There h has a kink across the edge's great circle (the directions orthogonal to it),
/// where [`propose`] stops, and GJK's simplex is a segment along the edge that alternates its ends while v creeps
/// around the curved part, cutting the gap by a constant factor a step (25 steps for a cylinder's rim 1.2 from
/// another's side). The minimiser lies on that great circle, and along it h is smooth: Newton's method on the
/// circle's one tangent t = e × n finds it, the edge's direction e measured afresh each step.
///
/// The edge's two ends are the supports along n tilted by ±τ along e, to either side of the circle; the curved parts
/// answer a tilt too, c(τ) = c0 + τc1 + τ²c2 + …, and supports at ±2τ extrapolate that answer away: e to O(τ³), the
/// ends' midpoint (whose tangential part is h's gradient) to O(τ⁴). τ, from `tilt`, must exceed n's distance from the
/// true edge's circle, which is e's error, so it shrinks with the cube of itself. Returns the segment of the two ends at the last
/// direction, for GJK to prove (its nearest point is the proposal), and the better of the two ends' own supporting
/// planes as a lower bound on the distance (each end is the support along its own direction). `None` when the ends
/// meet or the jump between them is no larger than the curved parts' answer to the tilt (no straight
/// edge there), or the steps do not converge. At most 6 support calls a step.
pub(crate) fn propose_on_edge<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    start: V,
    edge: V,
    tilt: V::Real,
) -> Option<(DiffVertex<V>, DiffVertex<V>, V::Real)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::DIM != 3 {
        return None;
    }
    let delta = V::Real::EPSILON.sqrt();
    let length = edge.length();
    let mut e = edge.normalize_or_zero();
    let mut n = start;
    // From the caller's tilt down to where the ends are off the edge's plane by τ² of the size, far below rounding.
    let mut tilt = tilt;
    let least = delta * V::Real::from_f64(1e-2);
    let mut converged = false;
    for _ in 0..EDGE_STEPS {
        n = (n - e * n.dot(e)).normalize_or_zero();
        let t = cross3(e, n).normalize_or_zero();
        if n == V::zero() || t == V::zero() {
            return None;
        }
        let p = pair.support(n + e * tilt);
        let q = pair.support(n - e * tilt);
        if converged {
            // −d·s / |d| for each end's own direction d: all of A − B is on the far side of that plane.
            let plane = |s: &DiffVertex<V>| -s.dir.dot(s.w) / s.dir.length();
            return Some((q, p, plane(&p).max(plane(&q))));
        }
        let jump = (p.w - q.w).length();
        if !(jump > length * V::Real::HALF) {
            return None;
        }
        let r = pair.support(n + e * (tilt + tilt));
        let u = pair.support(n - e * (tilt + tilt));
        // p = top + c(τ), q = bottom + c(−τ), r = top + c(2τ), u = bottom + c(−2τ):
        // (r − p) − (u − q) = 2τc1 + O(τ³) and (r − p) + (u − q) = 6τ²c2 + O(τ⁴).
        let (rp, uq) = (r.w - p.w, u.w - q.w);
        let d = (p.w - q.w) - (rp - uq);
        // On a smooth part the two are of a size (|r − p| ≈ |p − q| / 2).
        if !(d.length() > length * V::Real::HALF) || !(rp.length() + uq.length() < jump * V::Real::HALF) {
            return None;
        }
        let curve = rp + uq;
        let mid = (p.w + q.w) * V::Real::HALF - curve * V::Real::from_f64(1.0 / 6.0);
        let h = n.dot(mid);
        // h'' along t: the curved parts' curvature (central differences of the top end's support) minus h.
        let plus = pair.support(n + t * delta + e * tilt).w;
        let minus = pair.support(n - t * delta + e * tilt).w;
        let hess = t.dot(plus - minus) * (V::Real::ONE / (delta + delta)) - h;
        let floor = V::Real::from_f64(1e-3) * h.abs().max(mid.max_abs());
        let x = -mid.dot(t) / hess.max(floor);
        if !x.is_finite() {
            return None;
        }
        e = d.normalize_or_zero();
        n = (n + t * x).normalize_or_zero();
        converged = tilt <= least && x.abs() <= delta;
        tilt = (curve.length() * tilt * V::Real::from_f64(8.0) / d.length()).max(least * V::Real::HALF).min(tilt);
    }
    None
}

/// The longest edge of a segment or triangle `simplex` (3D), as one of its ends and the vector to the other: where
/// A − B has a straight edge at the nearest point, GJK's simplex holds two points near its ends.
pub(crate) fn straight_edge<V: Vector>(simplex: &super::simplex::Simplex<V>) -> Option<(V, V)> {
    let w = simplex.vertices();
    if V::DIM != 3 || !(2..=3).contains(&w.len()) {
        return None;
    }
    let mut best = (w[0].w, w[1].w - w[0].w);
    for (i, j) in [(2, 0), (2, 1)].into_iter().filter(|&(i, _)| i < w.len()) {
        let e = w[i].w - w[j].w;
        if e.length_squared() > best.1.length_squared() {
            best = (w[j].w, e);
        }
    }
    Some(best)
}

/// The jump of the support point across the unit `n`: the larger of s(n + τt) − s(n − τt) over n's two tangents t,
/// for τ = `tilt`. Where n is within τ of a kink of h (a straight edge of A − B: the supports on either side are its
/// two ends), the jump is that edge; on a smooth part it is no longer than 2τ times the curvature radius. 3D (in 2D
/// a straight edge of A − B is a face, which GJK's simplex holds). Four support calls.
pub(crate) fn edge_across<V, A, B>(pair: &mut Pair<'_, V, A, B>, n: V, tilt: V::Real) -> Option<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::DIM != 3 {
        return None;
    }
    let mut jump = |t: V| pair.support(n + t * tilt).w - pair.support(n - t * tilt).w;
    tangents(n).into_iter().map(&mut jump).reduce(|x, y| if y.length_squared() > x.length_squared() { y } else { x })
}

/// u × w for 3D vectors of the generic type (the simplex solver's components).
fn cross3<V: Vector>(u: V, w: V) -> V {
    V::from_fn(|k| crate::simplex::cross_component(u, w, k))
}

/// Newton steps at most in a polish.
const POLISH_STEPS: u32 = 2;

/// GJK's answer on a curved pair, converged in distance, polished in direction: Newton's method from v's direction
/// `start` (unit, toward the origin's side: h = start·s is −|v| there), where `first` is the support along it
/// (GJK's last support point).
///
/// GJK stops when the duality gap is within its tolerance of |v|², and near a smooth minimum h grows with the
/// square of the direction's error: a gap of ε|v|² leaves the direction off by about √ε (1e-8 rad in f64), and the
/// witness points off by that times the curvature radius, while the distance is exact (a cylinder's rim 2 from an
/// ellipsoid: points 4e-8 of the size off the true pair). The gradient of h along a tangent t is s·t, which rounding
/// resolves down to ε·|s|, and Newton's method (the Hessian by central differences, as in [`propose`]) takes it
/// there in a step. Each step is kept only if it shrinks that gradient — h, already at its minimum to rounding,
/// cannot judge a step — and the point it ends on is returned only where it and its own supporting plane meet to
/// GJK's test, |s|·(|s| + h) ≤ rel_tol·|s|² + `noise`, along n and along s's own direction, with the better plane's
/// −h. `None` where no step helps (a kink of h at the nearest point: a flat face, a cylinder's side line, a
/// polytope part's edge, where GJK's simplex names the feature). At most POLISH_STEPS·(2·(DIM − 1) + 1) + 1
/// support calls.
pub(crate) fn polish<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    start: V,
    first: DiffVertex<V>,
    rel_tol: V::Real,
    noise: V::Real,
) -> Option<(DiffVertex<V>, V::Real)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut eval = |n: V| valued(pair, n);
    // The part of s across n: h's gradient on the sphere.
    let across = |n: V, s: &DiffVertex<V>| (s.w - n * n.dot(s.w)).length();
    let (mut n, mut s) = (start, first);
    let mut h = n.dot(s.w);
    let mut slope = across(n, &s);
    let floor = V::Real::from_f64(16.0) * V::Real::EPSILON * s.w.max_abs();
    let mut improved = false;
    let mut stencil = ArrayVec::<DiffVertex<V>, 4>::new();
    for _ in 0..POLISH_STEPS {
        if !(slope > floor) {
            break;
        }
        let t = tangents(n);
        stencil.clear();
        let step = newton_direction(&mut eval, n, h, &s, &t, &mut stencil)?;
        let trial = stepped(n, &t, &step, V::Real::ONE);
        let (ht, st) = eval(trial);
        let slope_t = across(trial, &st);
        if !(slope_t < slope) {
            break;
        }
        (n, h, s, slope, improved) = (trial, ht, st, slope_t, true);
    }
    if !improved {
        return None;
    }
    // The answer's normal is the point's own direction, not n: GJK's test along it (one more support), so that the
    // planes along the normal the caller reports are the distance apart to the tolerance, as GJK's own answer's are.
    // Where h is steep across n (a needle ellipsoid 120 × 1.5e-4 1.2e-8 from a box) a step that shrinks the
    // gradient can still leave the point's direction off the supporting planes (by 2e-3 there): then no polish.
    let (own, _) = eval(-s.w * (V::Real::ONE / s.w.length()));
    // Each plane is a lower bound on the distance (all of A − B lies beyond it): the better one, −min h.
    let meets = |h| meets_own_plane(&s, h, rel_tol, noise);
    (meets(h) && meets(own)).then_some((s, -h.min(own)))
}
