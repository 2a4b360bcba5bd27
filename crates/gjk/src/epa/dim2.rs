//! EPA in 2D: expands a triangle around the origin, edge by edge, toward the boundary of A − B.
//!
//! The polygon is kept counter-clockwise, so each edge's outward normal is its direction turned clockwise. The
//! nearest edge bounds the depth from below, the support value along its normal from above. A new support point
//! replaces the chain of edges it sees (as a convex hull insertion would), and the two edges that join it to the
//! rest must keep the origin well behind them: the lower bound holds as long as the polygon winds once around the
//! origin with every edge facing away from it (see `dim3`'s module docs), whatever rounding does to visibility.
//! Storage is fixed-size: no allocation.

use arrayvec::ArrayVec;

use super::dim3::{touching, toward, Bounds};
use super::refine::refine;
use super::{Expansion, Flat, Progress, Report};
use crate::gjk::{DiffVertex, Status};
use crate::math::{Real, Vector2};
use crate::simplex::solve_segment;

const MAX_VERTS: usize = 160;
/// Vertices the expansion itself may use; a refinement's points and the iterations after them use the rest.
const MAIN_VERTS: usize = 128;
/// EPA iterations allowed after a refinement's points are added (see `dim3`).
const EXTRA_ITERATIONS: u32 = 32;
/// Refinements at most (see `dim3`).
const REFINEMENTS: u32 = 2;

/// The polygon's storage: fixed-size, never cleared (zeroing it per query was 65 % of the instructions of 2D f64
/// polygon8 penetrating contact, callgrind).
type Polygon<V> = ArrayVec<DiffVertex<V>, MAX_VERTS>;

/// Outward unit normal and signed distance of the edge a → b of a counter-clockwise polygon.
fn edge<V: Vector2>(a: V, b: V) -> Option<(V, V::Real)> {
    let e = b - a;
    // Clockwise quarter turn of the edge: (e.y, −e.x) points out of a counter-clockwise polygon.
    let n = -e.perp();
    let len = n.length();
    (len > V::Real::ZERO && len.is_finite()).then(|| {
        let n = n * (V::Real::ONE / len);
        (n, n.dot(a))
    })
}

/// The edge nearest the origin: its first vertex, normal and distance.
fn nearest<V: Vector2>(poly: &[DiffVertex<V>]) -> (usize, V, V::Real) {
    let mut best = (0, V::zero(), V::Real::INFINITY);
    for i in 0..poly.len() {
        if let Some((nrm, d)) = edge(poly[i].w, poly[(i + 1) % poly.len()].w) {
            if d < best.2 {
                best = (i, nrm, d);
            }
        }
    }
    best
}

/// Replaces the edges that see `w` — starting with edge `i`, which must — by the two edges joining `w` to the
/// rest of the polygon. A neighbouring edge goes too when `w` is more than `eps` in front of it, or when keeping it
/// would leave a joining edge less than `floor` from the origin. False (the polygon unchanged) when no chain gives
/// valid joining edges or there is no room.
fn add<V: Vector2>(poly: &mut Polygon<V>, i: usize, w: DiffVertex<V>, eps: V::Real, floor: V::Real) -> bool {
    let n = poly.len();
    if poly.is_full() || n < 3 {
        return false;
    }
    let sees = |a: usize, b: usize| edge(poly[a].w, poly[b].w).is_some_and(|(nrm, d)| nrm.dot(w.w) - d > eps);
    let joins = |a: V, b: V| edge(a, b).is_some_and(|(_, d)| d >= floor);
    // The chain removed runs from vertex `first` (kept) to vertex `last` (kept), around through edge i.
    let (mut first, mut last) = (i, (i + 1) % n);
    let mut removed = 0;
    // Each step drops one vertex; at least two must stay besides w.
    while removed + 2 < n {
        let before = (first + n - 1) % n;
        if sees(before, first) || !joins(poly[first].w, w.w) {
            first = before;
        } else {
            let after = (last + 1) % n;
            if sees(last, after) || !joins(w.w, poly[last].w) {
                last = after;
            } else {
                break;
            }
        }
        removed += 1;
    }
    if !joins(poly[first].w, w.w) || !joins(w.w, poly[last].w) {
        return false;
    }
    // Rotate so that `first` is the last vertex, then drop the removed ones (at the front) and append w.
    poly.rotate_left((first + 1) % n);
    poly.drain(..removed);
    poly.push(w);
    true
}

/// What the refinement of a curved pair has done (see `dim3`).
struct Refinement<V: Vector2> {
    rounds: u32,
    aim: Option<V>,
    smooth: Option<DiffVertex<V>>,
    upper: V::Real,
}

impl<V: Vector2> Refinement<V> {
    /// See `dim3`'s `Refinement::resume`.
    fn resume(
        &mut self,
        poly: &mut Polygon<V>,
        support: &mut dyn FnMut(V) -> DiffVertex<V>,
        bounds: &mut Bounds<V>,
        rel_tol: V::Real,
        eps: V::Real,
    ) -> bool {
        let (_, n0, lower) = nearest(poly);
        let met = self.upper - lower <= rel_tol * lower.abs() + eps;
        if self.rounds >= REFINEMENTS || (self.rounds > 0 && met) || poly.is_full() {
            return false;
        }
        let refined = refine(support, n0, self.rounds > 0);
        self.rounds += 1;
        self.upper = refined.upper;
        bounds.seen(refined.upper, refined.upper_dir);
        for p in &refined.points {
            bounds.scale = bounds.scale.max(p.w.max_abs());
            insert(poly, *p, eps);
        }
        self.aim = Some(refined.direction);
        self.smooth = refined.smooth.then_some(refined.points[0]);
        bounds.cap = (bounds.iterations + EXTRA_ITERATIONS, MAX_VERTS);
        true
    }
}

/// Runs EPA from GJK's final simplex (any number of vertices; the origin on or inside it). With `curved`, the
/// direction EPA ends on is refined on the support function itself (see `epa::refine`).
pub fn expand<V: Vector2>(
    start: &[DiffVertex<V>],
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    max_iterations: u32,
    rel_tol: V::Real,
    mut report: Report<'_, V>,
    curved: bool,
) -> Result<Expansion<V>, Flat<V>> {
    let mut poly = Polygon::new();
    for v in start.iter().take(3) {
        if !poly.iter().any(|p| p.w == v.w) {
            poly.push(*v);
        }
    }
    let scale = start.iter().fold(V::Real::ZERO, |m, v| m.max(v.w.max_abs()));
    let eps = V::Real::from_f64(1e3) * V::Real::EPSILON * scale.max(V::Real::from_f64(1e-300));
    blow_up(&mut poly, support, eps)?;
    // Counter-clockwise order.
    if (poly[1].w - poly[0].w).perp_dot(poly[2].w - poly[0].w) < V::Real::ZERO {
        poly.swap(1, 2);
    }
    let mut bounds = Bounds::new(scale, (max_iterations, MAIN_VERTS));
    let mut refinement = curved.then_some(Refinement { rounds: 0, aim: None, smooth: None, upper: V::Real::INFINITY });
    let status = iterate(&mut poly, support, &mut bounds, &mut refinement, rel_tol, eps, &mut report);
    let n = poly.len();
    let (near, _, lower) = nearest(&poly);
    // The answer's edge: where the refined direction leaves the polygon, else the nearest.
    let aim = refinement.as_ref().and_then(|r| r.aim);
    let best = aim.and_then(|u| edge_toward(&poly, u)).unwrap_or(near);
    let (nrm, d) = edge(poly[best].w, poly[(best + 1) % n].w).unwrap_or((V::zero(), lower));
    // Collinear edges tie in distance; the witnesses come from the one holding the origin's projection.
    let foot = nrm * d;
    let tie = V::Real::from_f64(64.0) * V::Real::EPSILON * bounds.scale.max(d.abs());
    let mut pick = (V::Real::INFINITY, best);
    for i in 0..n {
        let (a, b) = (poly[i].w, poly[(i + 1) % n].w);
        if edge(a, b).is_some_and(|(_, di)| (di - d).abs() <= tie) {
            let miss = (solve_segment(a, b).combine(&[a, b]) - foot).length_squared();
            if miss < pick.0 {
                pick = (miss, i);
            }
        }
    }
    let i = pick.1;
    let (a, b) = (poly[i], poly[(i + 1) % n]);
    let bc = solve_segment(a.w, b.w);
    let witness =
        DiffVertex { w: bc.combine(&[a.w, b.w]), a: bc.combine(&[a.a, b.a]), b: bc.combine(&[a.b, b.b]), dir: nrm };
    let (normal, depth, witness) = match refinement {
        // Curved: a point of A − B and the direction to it (see `dim3`).
        // Where the direction to that point, good to ε·size / depth, leaves its support value above the point's
        // distance by more than rounding (a depth of 1e-10 between shapes of size 1), the edge's own normal, from
        // its ends, may do better: the one with the lesser support value (see `dim3::least_support`).
        Some(r) => {
            let answer = toward(r.smooth.unwrap_or(witness)).unwrap_or((nrm, d, witness));
            let mut h = |n: V| n.dot(support(n).w);
            let h_answer = h(answer.0);
            if h_answer - answer.1 <= tie || nrm == V::zero() || h(nrm) >= h_answer {
                answer
            } else {
                (nrm, d, witness)
            }
        }
        None => (nrm, d, witness),
    };
    // Where the shapes may just touch, the answer must be consistent with the bounds (see `dim3::touching`).
    let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
    let (normal, depth, witness) = if lower.min(bounds.upper) <= rounding {
        touching((normal, depth, witness), start, &bounds, rounding, support)
    } else {
        (normal, depth, witness)
    };
    let error_bound = (bounds.upper.max(depth) - lower).max(V::Real::ZERO);
    Ok(Expansion {
        normal,
        depth,
        witness_a: witness.a,
        witness_b: witness.b,
        iterations: bounds.iterations,
        status,
        error_bound,
    })
}

/// Adds a support point found some other way than along an edge's normal (a refinement's), at the edge it is
/// farthest in front of; nothing happens when it is not in front of any by more than `eps`.
fn insert<V: Vector2>(poly: &mut Polygon<V>, w: DiffVertex<V>, eps: V::Real) {
    if poly.iter().any(|p| p.w == w.w) || poly.is_full() {
        return;
    }
    let n = poly.len();
    let (mut start, mut ahead) = (usize::MAX, eps);
    for i in 0..n {
        if let Some((nrm, d)) = edge(poly[i].w, poly[(i + 1) % n].w) {
            if nrm.dot(w.w) - d > ahead {
                (start, ahead) = (i, nrm.dot(w.w) - d);
            }
        }
    }
    if start != usize::MAX {
        let (_, _, lower) = nearest(poly);
        add(poly, start, w, eps, lower - eps);
    }
}

/// The edge through which the ray from the origin along `u` leaves the polygon: a → b with u between a and b
/// counter-clockwise.
fn edge_toward<V: Vector2>(poly: &[DiffVertex<V>], u: V) -> Option<usize> {
    let n = poly.len();
    (0..n).find(|&i| {
        let (a, b) = (poly[i].w, poly[(i + 1) % n].w);
        a.perp_dot(u) >= V::Real::ZERO && u.perp_dot(b) >= V::Real::ZERO && a.perp_dot(b) > V::Real::ZERO
    })
}

/// EPA's loop (see `dim3`).
fn iterate<V: Vector2>(
    poly: &mut Polygon<V>,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    bounds: &mut Bounds<V>,
    refinement: &mut Option<Refinement<V>>,
    rel_tol: V::Real,
    eps: V::Real,
    report: &mut Report<'_, V>,
) -> Status {
    let curved = refinement.is_some();
    let mut resume = |poly: &mut Polygon<V>, bounds: &mut Bounds<V>, support: &mut dyn FnMut(V) -> DiffVertex<V>| {
        refinement.as_mut().is_some_and(|r| r.resume(poly, support, bounds, rel_tol, eps))
    };
    loop {
        let n = poly.len();
        let (i, nrm, d) = nearest(poly);
        // The iteration cap may be reached before asking for a point (no iterations allowed at all).
        if bounds.iterations >= bounds.cap.0 {
            let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
            let status = if bounds.upper - d <= rounding { Status::Converged } else { Status::MaxIterations };
            if resume(poly, bounds, support) {
                continue;
            }
            return status;
        }
        bounds.iterations += 1;
        let w = support(nrm);
        bounds.seen(nrm.dot(w.w), nrm);
        bounds.scale = bounds.scale.max(w.w.max_abs());
        let upper = bounds.upper;
        let noise = V::Real::from_f64(8.0) * V::Real::EPSILON * bounds.scale;
        let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
        // The bounds meet: the depth is known. On a polytope the nearest edge must also be a face of A − B (no
        // support point in front of it), for its normal is the answer's: the least support value may have come from
        // another direction, with the nearest edge a chord across A − B whose normal is off by depth / size (two
        // equal 1.7e-7-thin boxes at one centre: the chord from a long side's midpoint to the far corner, 2.9e-6 rad
        // off; gjk-fuzz seed 3 case 385). A curved pair's normal is the refinement's.
        let face = curved || nrm.dot(w.w) - d <= rel_tol * d.abs() + noise;
        let met = upper - d <= rel_tol * d.abs() + noise && face;
        let stalled = |full: bool| {
            if upper - d <= rounding {
                Status::Converged
            } else if full {
                Status::MaxIterations
            } else {
                Status::Stalled
            }
        };
        // The polygon before this step, for the observer.
        let before = report.is_some().then(|| poly.clone());
        let full = poly.len() >= bounds.cap.1;
        let end = if met {
            Some(Status::Converged)
        } else if poly.iter().any(|p| p.w == w.w) {
            // A repeated vertex with the bounds still apart is as far as this precision goes: say so.
            Some(stalled(false))
        } else if full || !add(poly, i, w, eps, d - eps) {
            Some(stalled(full))
        } else if bounds.iterations >= bounds.cap.0 {
            Some(stalled(true))
        } else {
            None
        };
        let end = end.filter(|_| !resume(poly, bounds, support));
        if let (Some(report), Some(before)) = (report.as_mut(), before) {
            // The polygon's edges: vertex k to vertex k + 1.
            let mut faces = [0u16; 2 * MAX_VERTS];
            for k in 0..n {
                faces[2 * k] = k as u16;
                faces[2 * k + 1] = ((k + 1) % n) as u16;
            }
            report(&Progress {
                iteration: bounds.iterations,
                vertices: &before[..n],
                faces: &faces[..2 * n],
                nearest: i,
                normal: nrm,
                lower: d,
                support: w.w,
                upper,
                decision: Progress::<V>::decision(end),
            });
        }
        if let Some(status) = end {
            return status;
        }
    }
}

/// Grows the start to a triangle of non-zero area; fails with the flat answer when A − B is a segment or point.
fn blow_up<V: Vector2>(
    poly: &mut Polygon<V>,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    eps: V::Real,
) -> Result<(), Flat<V>> {
    if poly.is_empty() {
        poly.push(support(V::axis(0)));
    }
    if poly.len() == 1 {
        let p0 = poly[0].w;
        let dirs = [V::axis(0), -V::axis(0), V::axis(1), -V::axis(1)];
        match dirs.into_iter().map(&mut *support).find(|p| (p.w - p0).length() > eps) {
            Some(p) => poly.push(p),
            None => return Err(Flat { normal: V::axis(1), witness: poly[0] }),
        }
    }
    if poly.len() == 2 {
        let (p0, e) = (poly[0].w, poly[1].w - poly[0].w);
        let nrm = e.perp().normalize_or_zero();
        let (up, down) = (support(nrm), support(-nrm));
        let (hu, hd) = (nrm.dot(up.w - p0), -nrm.dot(down.w - p0));
        if hu.max(hd) <= eps {
            let bc = solve_segment(poly[0].w, poly[1].w);
            let (wa, wb) = (bc.combine(&[poly[0].a, poly[1].a]), bc.combine(&[poly[0].b, poly[1].b]));
            return Err(Flat { normal: nrm, witness: DiffVertex { w: wa - wb, a: wa, b: wb, dir: nrm } });
        }
        poly.push(if hu >= hd { up } else { down });
    }
    Ok(())
}
