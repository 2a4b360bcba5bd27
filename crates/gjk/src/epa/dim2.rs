//! EPA in 2D: expands a triangle around the origin, edge by edge, toward the boundary of A − B.
//!
//! The polygon is kept counter-clockwise, so each edge's outward normal is its direction turned clockwise. The
//! nearest edge bounds the depth from below, the support value along its normal from above; the support point is
//! inserted between the edge's ends. Storage is fixed-size: no allocation.

use arrayvec::ArrayVec;

use super::{Expansion, Flat, Progress, Report};
use crate::gjk::{DiffVertex, Status};
use crate::math::{Real, Vector2};
use crate::simplex::solve_segment;

const MAX_VERTS: usize = 128;

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

/// Runs EPA from GJK's final simplex (any number of vertices; the origin on or inside it).
pub fn expand<V: Vector2>(
    start: &[DiffVertex<V>],
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    max_iterations: u32,
    rel_tol: V::Real,
    mut report: Report<'_, V>,
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

    let nearest = |poly: &[DiffVertex<V>]| {
        let mut best = (0, V::zero(), V::Real::INFINITY);
        for i in 0..poly.len() {
            if let Some((nrm, d)) = edge(poly[i].w, poly[(i + 1) % poly.len()].w) {
                if d < best.2 {
                    best = (i, nrm, d);
                }
            }
        }
        best
    };
    let mut upper = V::Real::INFINITY;
    let mut iterations = 0;
    let status = loop {
        let n = poly.len();
        let (i, nrm, d) = nearest(&poly);
        if iterations >= max_iterations {
            break Status::MaxIterations;
        }
        iterations += 1;
        let w = support(nrm);
        upper = upper.min(nrm.dot(w.w));
        let noise = V::Real::from_f64(8.0) * V::Real::EPSILON * scale.max(w.w.max_abs());
        let met = upper - d <= rel_tol * d.abs() + noise;
        let end = if met || poly.iter().any(|p| p.w == w.w) {
            // A repeated vertex with the bounds still apart is as far as this precision goes: say so.
            let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * scale.max(w.w.max_abs());
            Some(if met || upper - d <= rounding { Status::Converged } else { Status::Stalled })
        } else if poly.is_full() {
            Some(Status::MaxIterations)
        } else {
            None
        };
        if let Some(report) = report.as_mut() {
            // The polygon's edges, in order: vertex k to vertex k + 1.
            let mut faces = [0u16; 2 * MAX_VERTS];
            for k in 0..n {
                faces[2 * k] = k as u16;
                faces[2 * k + 1] = ((k + 1) % n) as u16;
            }
            report(&Progress {
                iteration: iterations,
                vertices: &poly[..n],
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
            break status;
        }
        // Insert w between the ends of edge i (after position i).
        poly.insert(i + 1, w);
    };
    let n = poly.len();
    let (best, nrm, d) = nearest(&poly);
    // Collinear edges tie in distance; the witnesses come from the one holding the origin's projection.
    let foot = nrm * d;
    let tie = V::Real::from_f64(64.0) * V::Real::EPSILON * scale.max(d.abs());
    let mut pick = (V::Real::INFINITY, best);
    for i in 0..n {
        let (a, b) = (poly[i].w, poly[(i + 1) % n].w);
        if edge(a, b).is_some_and(|(_, di)| di - d <= tie) {
            let miss = (solve_segment(a, b).combine(&[a, b]) - foot).length_squared();
            if miss < pick.0 {
                pick = (miss, i);
            }
        }
    }
    let i = pick.1;
    let (a, b) = (poly[i], poly[(i + 1) % n]);
    let bc = solve_segment(a.w, b.w);
    let witness_a = bc.combine(&[a.a, b.a]);
    let witness_b = bc.combine(&[a.b, b.b]);
    let error_bound = (upper - d).max(V::Real::ZERO);
    Ok(Expansion { normal: nrm, depth: d, witness_a, witness_b, iterations, status, error_bound })
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
