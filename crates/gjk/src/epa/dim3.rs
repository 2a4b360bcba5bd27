//! EPA in 3D: expands a tetrahedron around the origin, face by face, toward the boundary of A − B.
//!
//! The polytope is always inside A − B, so its nearest face bounds the penetration depth from below; the support
//! value of A − B along that face's normal bounds it from above. Each step adds the support point, removes the
//! faces it can see and closes the hole with a fan of faces from the horizon. Storage is fixed-size, so a query
//! never allocates; running out of room ends the expansion with the bounds reached.

use arrayvec::ArrayVec;

use super::{Expansion, Flat, Progress, Report};
use crate::gjk::{DiffVertex, Status};
use crate::math::{Real, Vector, Vector3};
use crate::simplex::closest_to_origin;

const MAX_VERTS: usize = 128;
const MAX_FACES: usize = 2 * MAX_VERTS;
const MAX_HORIZON: usize = MAX_VERTS;

#[derive(Clone, Copy, Debug)]
struct Face<V: Vector> {
    idx: [u16; 3],
    /// Outward unit normal.
    n: V,
    /// Signed distance of the face's plane from the origin (positive when the origin is behind the face).
    d: V::Real,
}

/// The polytope's storage is fixed-size but never cleared: `ArrayVec`s start empty without writing their slots
/// (zeroing arrays of this size per query and per step was 31 % of the instructions of 3D f64 hull256
/// penetrating contact, callgrind).
struct Polytope<V: Vector> {
    verts: ArrayVec<DiffVertex<V>, MAX_VERTS>,
    faces: ArrayVec<Face<V>, MAX_FACES>,
}

impl<V: Vector3> Polytope<V> {
    /// Makes the face (i, j, k), wound so that its normal points away from `inside` (a point inside the polytope).
    /// `None` for a face too thin to have a normal.
    fn face(&self, i: usize, j: usize, k: usize) -> Option<Face<V>> {
        let (a, b, c) = (self.verts[i].w, self.verts[j].w, self.verts[k].w);
        let n = (b - a).cross(c - a);
        let len = n.length();
        if !(len > V::Real::ZERO) || !len.is_finite() {
            return None;
        }
        let n = n * (V::Real::ONE / len);
        Some(Face { idx: [i as u16, j as u16, k as u16], n, d: n.dot(a) })
    }

    fn nearest_face(&self) -> usize {
        (1..self.faces.len()).fold(0, |best, f| if self.faces[f].d < self.faces[best].d { f } else { best })
    }

    /// The faces' vertex indices, three per face, and the number of faces.
    fn face_indices(&self) -> ([u16; 3 * MAX_FACES], usize) {
        let mut out = [0; 3 * MAX_FACES];
        for (f, face) in self.faces.iter().enumerate() {
            out[3 * f..3 * f + 3].copy_from_slice(&face.idx);
        }
        (out, self.faces.len())
    }

    fn contains(&self, w: V) -> bool {
        self.verts.iter().any(|v| v.w == w)
    }

    /// Adds `w`: removes every face that sees it and fans the horizon to it. False when the result would be
    /// degenerate or out of room (the polytope is then left as it was).
    fn expand(&mut self, w: DiffVertex<V>, eps: V::Real) -> bool {
        if self.verts.is_full() {
            return false;
        }
        // Which faces see w, decided once: listed in order for the horizon pass (and so the count of the faces
        // kept), and a bit per face for the compaction.
        let mut visible = [0u64; MAX_FACES / 64];
        let mut seen = ArrayVec::<u16, MAX_FACES>::new();
        for (f, face) in self.faces.iter().enumerate() {
            if face.n.dot(w.w - self.verts[face.idx[0] as usize].w) > eps {
                visible[f / 64] |= 1 << (f % 64);
                seen.push(f as u16);
            }
        }
        let sees = |f: usize| visible[f / 64] & (1 << (f % 64)) != 0;
        // eps is 1e3·ε·scale (see `expand`'s caller): this is 1e-6·scale in either precision.
        let reject = eps * V::Real::from_f64(1e-9) / V::Real::EPSILON;
        // Horizon: edges of visible faces whose twin belongs to a hidden face. Directed as in the visible face,
        // so the new face (edge, w) keeps the outward winding.
        let mut horizon = ArrayVec::<(u16, u16), MAX_HORIZON>::new();
        for &f in &seen {
            let idx = self.faces[f as usize].idx;
            for e in 0..3 {
                let (a, b) = (idx[e], idx[(e + 1) % 3]);
                if let Some(k) = horizon.iter().position(|&(x, y)| x == b && y == a) {
                    // Shared by two visible faces: interior to the hole.
                    horizon.swap_remove(k);
                } else if horizon.try_push((a, b)).is_err() {
                    return false;
                }
            }
        }
        if horizon.len() < 3 {
            return false;
        }
        let keep = self.faces.len() - seen.len();
        if keep + horizon.len() > MAX_FACES {
            return false;
        }
        let wi = self.verts.len();
        self.verts.push(w);
        let mut fresh = ArrayVec::<Face<V>, MAX_HORIZON>::new();
        for &(a, b) in &horizon {
            let face = self.face(a as usize, b as usize, wi);
            // Every face must keep the origin behind it; one clearly in front means rounding broke the horizon
            // (nearly coplanar points, as on a cylinder's cap): keep the polytope as it was. "Clearly" is 1e-6 of
            // the scale: sliver faces of a 1e-9 needle (tests/penetration.rs) legitimately come out a few 1e-10
            // on the wrong side, while broken cylinder horizons put the origin 1e-2 and more in front.
            match face {
                Some(face) if face.d >= -reject => fresh.push(face),
                _ => {
                    self.verts.pop();
                    return false;
                }
            }
        }
        let mut f = 0;
        self.faces.retain(|_| {
            f += 1;
            !sees(f - 1)
        });
        // Room was checked above (keep + horizon ≤ MAX_FACES). Copied from a slice: `extend` would move the whole
        // `fresh` storage first.
        self.faces.extend(fresh.iter().copied());
        true
    }
}

/// Runs EPA from GJK's final simplex (any number of vertices; the origin on or inside it).
pub fn expand<V: Vector3>(
    start: &[DiffVertex<V>],
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    max_iterations: u32,
    rel_tol: V::Real,
    mut report: Report<'_, V>,
) -> Result<Expansion<V>, Flat<V>> {
    let mut poly = Polytope { verts: ArrayVec::new(), faces: ArrayVec::new() };
    for v in start.iter().take(4) {
        if !poly.contains(v.w) {
            poly.verts.push(*v);
        }
    }
    let scale = start.iter().fold(V::Real::ZERO, |m, v| m.max(v.w.max_abs()));
    let eps = V::Real::from_f64(1e3) * V::Real::EPSILON * scale.max(V::Real::from_f64(1e-300));
    blow_up(&mut poly, support, eps)?;
    let inside = (0..4).fold(V::zero(), |s, i| s + poly.verts[i].w) * V::Real::from_f64(0.25);
    for (f, [i, j, k]) in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]].into_iter().enumerate() {
        let mut face = poly.face(i, j, k).ok_or_else(|| flat_answer(&poly.verts[..4]))?;
        if face.n.dot(poly.verts[i].w - inside) < V::Real::ZERO {
            face = poly.face(i, k, j).ok_or_else(|| flat_answer(&poly.verts[..4]))?;
        }
        debug_assert_eq!(poly.faces.len(), f);
        poly.faces.push(face);
    }

    let mut upper = V::Real::INFINITY;
    let mut iterations = 0;
    let status = loop {
        let nearest = poly.nearest_face();
        let best = poly.faces[nearest];
        if iterations >= max_iterations {
            break Status::MaxIterations;
        }
        iterations += 1;
        let w = support(best.n);
        upper = upper.min(best.n.dot(w.w));
        let scale = scale.max(w.w.max_abs());
        let noise = V::Real::from_f64(8.0) * V::Real::EPSILON * scale;
        let met = upper - best.d <= rel_tol * best.d.abs() + noise;
        // The faces before this iteration, kept for the observer only (expanding replaces some of them).
        let observed = report.is_some().then(|| poly.face_indices());
        let end = if met || poly.contains(w.w) {
            // A repeated vertex with the bounds still apart is as far as this precision goes: say so.
            let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * scale;
            Some(if met || upper - best.d <= rounding { Status::Converged } else { Status::Stalled })
        } else if !poly.expand(w, eps) {
            Some(if poly.verts.is_full() { Status::MaxIterations } else { Status::Stalled })
        } else {
            None
        };
        if let (Some(report), Some((faces, nf))) = (report.as_mut(), observed) {
            // Expanding appends w after the old vertices, so the first `nv` are the polytope before this step.
            let nv = if end.is_none() { poly.verts.len() - 1 } else { poly.verts.len() };
            report(&Progress {
                iteration: iterations,
                vertices: &poly.verts[..nv],
                faces: &faces[..3 * nf],
                nearest,
                normal: best.n,
                lower: best.d,
                support: w.w,
                upper,
                decision: Progress::<V>::decision(end),
            });
        }
        if let Some(status) = end {
            break status;
        }
    };
    let best = poly.faces[poly.nearest_face()];
    // A facet of A − B may be split into coplanar triangles whose distances tie to rounding; the witnesses come
    // from the one that holds the origin's projection (the others would give a vertex or an edge of theirs).
    let foot = best.n * best.d;
    let tie = V::Real::from_f64(64.0) * V::Real::EPSILON * scale.max(best.d.abs());
    let mut pick = (V::Real::INFINITY, [DiffVertex::default(); 3], crate::simplex::Barycentric::vertex(0));
    for f in poly.faces.iter().filter(|f| f.d - best.d <= tie) {
        let face = f.idx.map(|i| poly.verts[i as usize]);
        let bc = closest_to_origin(&face.map(|v| v.w));
        let miss = (bc.combine(&face.map(|v| v.w)) - foot).length_squared();
        if miss < pick.0 {
            pick = (miss, face, bc);
        }
    }
    let (_, face, bc) = pick;
    let witness_a = bc.combine(&face.map(|v| v.a));
    let witness_b = bc.combine(&face.map(|v| v.b));
    let error_bound = (upper - best.d).max(V::Real::ZERO);
    Ok(Expansion { normal: best.n, depth: best.d, witness_a, witness_b, iterations, status, error_bound })
}

/// Grows the starting simplex to a tetrahedron of non-zero volume by asking A − B for support points off the
/// current point, line or plane. Fails with the flat answer when A − B itself has no volume there.
fn blow_up<V: Vector3>(
    poly: &mut Polytope<V>,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    eps: V::Real,
) -> Result<(), Flat<V>> {
    if poly.verts.is_empty() {
        let first = support(V::axis(0));
        poly.verts.push(first);
    }
    if poly.verts.len() == 1 {
        let p0 = poly.verts[0].w;
        let axes = (0..3).flat_map(|i| [V::axis(i), -V::axis(i)]);
        let found = axes.map(&mut *support).find(|p| (p.w - p0).length() > eps);
        match found {
            Some(p) => {
                poly.verts.push(p);
            }
            None => return Err(Flat { normal: V::axis(1), witness: poly.verts[0] }),
        }
    }
    if poly.verts.len() == 2 {
        let (p0, e) = (poly.verts[0].w, poly.verts[1].w - poly.verts[0].w);
        let k = (0..3).fold(0, |m, i| if e.get(i).abs() < e.get(m).abs() { i } else { m });
        let d1 = e.cross(V::axis(k)).normalize_or_zero();
        let d2 = e.cross(d1).normalize_or_zero();
        let dirs = [d1, -d1, d2, -d2, d1 + d2, -(d1 + d2), d1 - d2, d2 - d1];
        let off_line = |p: V| (p - p0).cross(e).length() > eps * e.length();
        match dirs.into_iter().map(&mut *support).find(|p| off_line(p.w)) {
            Some(p) => {
                poly.verts.push(p);
            }
            None => return Err(flat_with_normal(&poly.verts[..2], d1)),
        }
    }
    if poly.verts.len() == 3 {
        let p0 = poly.verts[0].w;
        let n = (poly.verts[1].w - p0).cross(poly.verts[2].w - p0).normalize_or_zero();
        let (up, down) = (support(n), support(-n));
        let (hu, hd) = (n.dot(up.w - p0), -n.dot(down.w - p0));
        if hu.max(hd) <= eps {
            return Err(flat_with_normal(&poly.verts[..3], n));
        }
        poly.verts.push(if hu >= hd { up } else { down });
    }
    Ok(())
}

/// A − B with no volume: the origin on it means the shapes touch with zero depth, along the flat normal.
fn flat_with_normal<V: Vector>(verts: &[DiffVertex<V>], normal: V) -> Flat<V> {
    let mut w = [V::zero(); 3];
    let mut a = [V::zero(); 3];
    let mut b = [V::zero(); 3];
    let n = verts.len().min(3);
    for (i, v) in verts.iter().take(n).enumerate() {
        (w[i], a[i], b[i]) = (v.w, v.a, v.b);
    }
    let bc = closest_to_origin(&w[..n]);
    let (wa, wb) = (bc.combine(&a[..n]), bc.combine(&b[..n]));
    Flat { normal, witness: DiffVertex { w: wa - wb, a: wa, b: wb, dir: normal } }
}

/// The starting tetrahedron turned out flat (its faces have no normal): answer as for a flat A − B.
fn flat_answer<V: Vector3>(verts: &[DiffVertex<V>]) -> Flat<V> {
    let n = (verts[1].w - verts[0].w).cross(verts[2].w - verts[0].w).normalize_or_zero();
    flat_with_normal(&verts[..3], if n == V::zero() { V::axis(1) } else { n })
}
