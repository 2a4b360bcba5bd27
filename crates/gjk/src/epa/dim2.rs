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
use crate::math::{Real, Vector, Vector2};
use crate::simplex::solve_segment;

const MAX_VERTS: usize = 160;
/// Vertices the expansion itself may use; a refinement's points and the iterations after them use the rest.
const MAIN_VERTS: usize = 128;
/// EPA iterations allowed after a refinement's points are added (see `dim3`).
const EXTRA_ITERATIONS: u32 = 32;
/// Refinements at most (see `dim3`).
const REFINEMENTS: u32 = 2;

/// The polygon: its vertices counter-clockwise, each with the outward normal and distance from the origin of the
/// edge that leaves it, kept as the polygon changes so that finding the nearest edge is a scan instead of a square
/// root and a division per edge per iteration (half the instructions of 2D f64 polygon2048 penetrating contact
/// went to recomputing them, callgrind).
///
/// The vertices are a ring of slots linked both ways: a new vertex takes a free slot and is linked in place of the
/// chain it sees, and nothing else moves (rotating and shifting arrays of vertices was a fifth of those
/// instructions). Functions that name a vertex or an edge take its slot. The ring is read from `start`, the vertex
/// after the newest, so ties between equally near edges go to the same edge as when the polygon was an array
/// rotated to begin there. Storage is fixed-size and never cleared (zeroing it per query was 65 % of the
/// instructions of 2D f64 polygon8 penetrating contact, callgrind).
#[derive(Clone)]
struct Polygon<V: Vector2> {
    /// Vertices by slot; the live ones are those on the ring.
    verts: ArrayVec<DiffVertex<V>, MAX_VERTS>,
    /// `edges[s]`: the edge from slot s to `next[s]`.
    edges: ArrayVec<Edge<V>, MAX_VERTS>,
    next: ArrayVec<u8, MAX_VERTS>,
    prev: ArrayVec<u8, MAX_VERTS>,
    /// Slots of vertices taken off the ring, to reuse.
    free: ArrayVec<u8, MAX_VERTS>,
    /// The slot of the ring's first vertex.
    start: usize,
    /// Vertices on the ring.
    len: usize,
}

impl<V: Vector2> Polygon<V> {
    /// An empty polygon (nothing to clear: its storage is filled as it grows).
    fn new() -> Self {
        Self {
            verts: ArrayVec::new(),
            edges: ArrayVec::new(),
            next: ArrayVec::new(),
            prev: ArrayVec::new(),
            free: ArrayVec::new(),
            start: 0,
            len: 0,
        }
    }

    /// Makes the polygon the triangle `tri`, counter-clockwise. Filled in place: the polygon is built where it lives,
    /// not moved there (moving its fixed-size storage copies all of it, 16 KiB in f64).
    fn start_with(&mut self, tri: &[DiffVertex<V>; 3]) {
        for k in 0..3 {
            self.verts.push(tri[k]);
            self.edges.push(edge(tri[k].w, tri[(k + 1) % 3].w));
            self.next.push(((k + 1) % 3) as u8);
            self.prev.push(((k + 2) % 3) as u8);
        }
        self.len = 3;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_full(&self) -> bool {
        self.len >= MAX_VERTS
    }

    #[inline(always)]
    fn next(&self, s: usize) -> usize {
        self.next[s] as usize
    }

    #[inline(always)]
    fn prev(&self, s: usize) -> usize {
        self.prev[s] as usize
    }

    /// The slots around the ring, from its first vertex.
    fn ring(&self) -> impl Iterator<Item = usize> + '_ {
        let mut s = self.start;
        (0..self.len).map(move |_| {
            let here = s;
            s = self.next(s);
            here
        })
    }

    /// Whether `w` is one of the vertices.
    fn holds(&self, w: V) -> bool {
        self.ring().any(|s| self.verts[s].w == w)
    }

    /// The vertices in order, for an observer, and where slot `s` is among them.
    fn ordered(&self, s: usize) -> (ArrayVec<DiffVertex<V>, MAX_VERTS>, usize) {
        (self.ring().map(|k| self.verts[k]).collect(), self.ring().position(|k| k == s).unwrap_or(0))
    }

    /// Links `w` after slot `first` and before slot `last`, in place of the vertices between, with `into` and `out`
    /// the edges joining it to them; the ring then starts at `last`.
    fn splice(&mut self, first: usize, last: usize, w: DiffVertex<V>, into: Edge<V>, out: Edge<V>) {
        let mut s = self.next(first);
        while s != last {
            self.free.push(s as u8);
            self.len -= 1;
            s = self.next(s);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                let slot = slot as usize;
                self.verts[slot] = w;
                self.edges[slot] = out;
                slot
            }
            None => {
                self.verts.push(w);
                self.edges.push(out);
                self.next.push(0);
                self.prev.push(0);
                self.verts.len() - 1
            }
        };
        self.edges[first] = into;
        self.next[first] = slot as u8;
        self.prev[slot] = first as u8;
        self.next[slot] = last as u8;
        self.prev[last] = slot as u8;
        self.len += 1;
        self.start = last;
    }
}

/// An edge's outward unit normal and distance from the origin; `None` when degenerate.
type Edge<V> = Option<(V, <V as Vector>::Real)>;

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

/// The edge nearest the origin: its first vertex's slot, normal and distance.
fn nearest<V: Vector2>(poly: &Polygon<V>) -> (usize, V, V::Real) {
    let mut best = (poly.start, V::zero(), V::Real::INFINITY);
    for i in poly.ring() {
        if let Some((nrm, d)) = poly.edges[i] {
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
    // `edges[a]` is the edge from slot a to the next vertex.
    let sees = |a: usize| poly.edges[a].is_some_and(|(nrm, d)| nrm.dot(w.w) - d > eps);
    let joins = |e: Edge<V>| e.is_some_and(|(_, d)| d >= floor);
    // The chain removed runs from vertex `first` (kept) to vertex `last` (kept), around through edge i; `into` and
    // `out` are the edges that would join w to them.
    let (mut first, mut last) = (i, poly.next(i));
    let mut into = edge(poly.verts[first].w, w.w);
    let mut out = edge(w.w, poly.verts[last].w);
    let mut removed = 0;
    // Each step drops one vertex; at least two must stay besides w.
    while removed + 2 < n {
        let before = poly.prev(first);
        if sees(before) || !joins(into) {
            first = before;
            into = edge(poly.verts[first].w, w.w);
        } else if sees(last) || !joins(out) {
            last = poly.next(last);
            out = edge(w.w, poly.verts[last].w);
        } else {
            break;
        }
        removed += 1;
    }
    if !joins(into) || !joins(out) {
        return false;
    }
    // The polygon now runs from `last` around to `first`, then w.
    poly.splice(first, last, w, into, out);
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
    let mut tri = ArrayVec::<DiffVertex<V>, 3>::new();
    for v in start.iter().take(3) {
        if !tri.iter().any(|p| p.w == v.w) {
            tri.push(*v);
        }
    }
    let scale = start.iter().fold(V::Real::ZERO, |m, v| m.max(v.w.max_abs()));
    // The expansion's rounding allowance: 1000 ulps of the largest coordinate. EPA 3D's is 64 since 1000 folded its
    // polytope where coordinates are long and depths short (epa/dim3.rs, gjk-fuzz seed 1 case 4403); no 2D case has
    // called for the same change, and it has not been measured here.
    let eps = V::Real::from_f64(1e3) * V::Real::EPSILON * scale.max(V::Real::from_f64(1e-300));
    blow_up(&mut tri, support, eps)?;
    // Counter-clockwise order.
    if (tri[1].w - tri[0].w).perp_dot(tri[2].w - tri[0].w) < V::Real::ZERO {
        tri.swap(1, 2);
    }
    let mut poly = Polygon::new();
    poly.start_with(&[tri[0], tri[1], tri[2]]);
    let mut bounds = Bounds::new(scale, (max_iterations, MAIN_VERTS));
    let mut refinement = curved.then_some(Refinement { rounds: 0, aim: None, smooth: None, upper: V::Real::INFINITY });
    let status = iterate(&mut poly, support, &mut bounds, &mut refinement, rel_tol, eps, &mut report);
    let (near, _, lower) = nearest(&poly);
    // The answer's edge: where the refined direction leaves the polygon, else the nearest.
    let aim = refinement.as_ref().and_then(|r| r.aim);
    let best = aim.and_then(|u| edge_toward(&poly, u)).unwrap_or(near);
    let (nrm, d) = poly.edges[best].unwrap_or((V::zero(), lower));
    // Collinear edges tie in distance; the witnesses come from the one holding the origin's projection.
    let foot = nrm * d;
    let tie = V::Real::from_f64(64.0) * V::Real::EPSILON * bounds.scale.max(d.abs());
    let mut pick = (V::Real::INFINITY, best);
    for i in poly.ring() {
        let (a, b) = (poly.verts[i].w, poly.verts[poly.next(i)].w);
        if poly.edges[i].is_some_and(|(_, di)| (di - d).abs() <= tie) {
            let miss = (solve_segment(a, b).combine(&[a, b]) - foot).length_squared();
            if miss < pick.0 {
                pick = (miss, i);
            }
        }
    }
    let i = pick.1;
    let (a, b) = (poly.verts[i], poly.verts[poly.next(i)]);
    let bc = solve_segment(a.w, b.w);
    let witness =
        DiffVertex { w: bc.combine(&[a.w, b.w]), a: bc.combine(&[a.a, b.a]), b: bc.combine(&[a.b, b.b]), dir: nrm };
    let (normal, depth, witness) = match refinement {
        // Curved: a point of A − B and the direction to it (see `dim3`).
        // Where the direction to that point, good to ε·size / depth, leaves its support value above the point's
        // distance by more than rounding (a depth of 1e-10 between shapes of size 1), the edge's own normal, from
        // its ends, and the direction of the least support value seen may do better: the one with the least
        // support value answers (see `dim3::least_support`). A point at the centre of an ellipse 0.1 long and 2e-9
        // wide, whose tip is flat (curvature radius 2.5e6), got the depth 1e-9 to 5e-17 but a direction 7e-9 rad
        // off from both the point and the edge, along which the planes were 5.4e-11 deeper; the least support
        // value seen was the depth itself.
        Some(r) => {
            let answer = toward(r.smooth.unwrap_or(witness)).unwrap_or((nrm, d, witness));
            let mut h = |n: V| n.dot(support(n).w);
            let h_answer = h(answer.0);
            if h_answer - answer.1 <= tie {
                answer
            } else {
                let edge = (nrm != V::zero()).then_some((nrm, d, witness));
                let mut best = (answer, h_answer);
                for other in [edge, along(&poly, bounds.upper_dir)].into_iter().flatten() {
                    let h_other = h(other.0);
                    if h_other < best.1 {
                        best = (other, h_other);
                    }
                }
                best.0
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
        lower,
        scale: bounds.scale,
    })
}

/// Adds a support point found some other way than along an edge's normal (a refinement's), at the edge it is
/// farthest in front of; nothing happens when it is not in front of any by more than `eps`.
fn insert<V: Vector2>(poly: &mut Polygon<V>, w: DiffVertex<V>, eps: V::Real) {
    if poly.holds(w.w) || poly.is_full() {
        return;
    }
    let (mut start, mut ahead) = (usize::MAX, eps);
    for i in poly.ring() {
        if let Some((nrm, d)) = poly.edges[i] {
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
fn edge_toward<V: Vector2>(poly: &Polygon<V>, u: V) -> Option<usize> {
    poly.ring().find(|&i| {
        let (a, b) = (poly.verts[i].w, poly.verts[poly.next(i)].w);
        a.perp_dot(u) >= V::Real::ZERO && u.perp_dot(b) >= V::Real::ZERO && a.perp_dot(b) > V::Real::ZERO
    })
}

/// The direction `u` as an answer: the point where the ray from the origin along `u` leaves the polygon, from its
/// edge's ends by the weights of that point, and its distance. `None` for a zero `u` or a ray that meets no edge.
fn along<V: Vector2>(poly: &Polygon<V>, u: V) -> Option<(V, V::Real, DiffVertex<V>)> {
    let i = edge_toward(poly, u)?;
    let (nrm, d) = poly.edges[i]?;
    let t = d / nrm.dot(u);
    let (a, b) = (poly.verts[i], poly.verts[poly.next(i)]);
    // The exit point's place on the edge a → b, by its length along it.
    let e = b.w - a.w;
    let s = ((u * t - a.w).dot(e) / e.length_squared()).max(V::Real::ZERO).min(V::Real::ONE);
    let point = DiffVertex { w: u * t, a: a.a + (b.a - a.a) * s, b: a.b + (b.b - a.b) * s, dir: u };
    t.is_finite().then_some((u, t, point))
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
        let before = report.is_some().then(|| poly.ordered(i));
        let full = poly.len() >= bounds.cap.1;
        let end = if met {
            Some(Status::Converged)
        } else if poly.holds(w.w) {
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
        if let (Some(report), Some((before, at))) = (report.as_mut(), before) {
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
                nearest: at,
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
    poly: &mut ArrayVec<DiffVertex<V>, 3>,
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
