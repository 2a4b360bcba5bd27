//! 3D convex hull.
//!
//! 1. Classify the set with the tolerance: point, segment, flat (handed to the 2D hull in its plane) or solid.
//!    The classification also yields a well-spread starting tetrahedron.
//! 2. Solid: quickhull with conflict lists, every "is this point above this face" decision exact. Each test is
//!    first evaluated in `f64` with a rigorous error bound and, only when that cannot decide, in 320-bit integer
//!    arithmetic on the coordinates as integers (see [`GRID_BITS`]). Exactness is what makes the construction
//!    robust: the faces a new point sees form a disk bounded by one simple horizon cycle, and every outside point
//!    is found. And since the exact coordinates are the input's own (not a rounded or centred copy), every face
//!    plane, however small or thin the face, is a true supporting plane of the input.
//! 3. The exact hull is a triangulation. Triangles coplanar within the tolerance are merged into polygon faces,
//!    vertices left on only two faces (in the middle of an edge) are dropped, near-duplicates are merged; each
//!    changed face is checked against the exact hull, and a group whose face fails stays triangulated.

use super::dim2::hull2_in_frame;
use super::{argmax, bounding_box, distinct, normalise, Frame, Hull3, HullKind};
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use alloc::{vec, vec::Vec};

/// The exact predicates see each coordinate of the input, scaled by a power of two into [-1, 1], times 2^100:
/// an integer of at most 101 bits, equal to the input itself except for coordinates below 2^-48 of the largest
/// (finer bits than the grid), which move by at most 2^-101. Differences then have 102 bits, normals (cross
/// products) 205 and orientation determinants 308, within [`Wide`]'s 320.
const GRID_BITS: i32 = 100;

/// Smallest width, in tolerances, of a merged face and of the triangle seeding it (see `polygon_faces`): its
/// vertices, within tol/4 of a plane, then pin the plane's direction to better than 1/4000 radian.
const MERGE_MIN_WIDTH: f64 = 1e3;

/// Rounding bound factor of the `f64` side test, in units of `f64::EPSILON`; the error analysis in
/// [`Quickhull::above`] needs 4, the rest is margin.
const FILTER_EPS: f64 = 8.0;

/// Convex hull of a 3D point set. Never panics; `points` should be non-empty and finite (an empty slice gives a
/// `Point` with no vertex).
///
/// Coplanar sets give a [`HullKind::Polygon`] (the 2D hull in their plane), collinear sets a
/// [`HullKind::Segment`], coincident sets a [`HullKind::Point`]. See [`Hull3`] for the layout of the result.
#[must_use]
pub fn hull3(points: &[[f64; 3]]) -> Hull3 {
    if points.is_empty() {
        return Hull3 { kind: HullKind::Point, vertices: Vec::new(), neighbors: Vec::new(), faces: Vec::new() };
    }
    let frame = normalise(points);
    let (pts, tol) = (&frame.points[..], frame.tol);
    match classify(pts, tol) {
        Class::Point(i) => point(i),
        Class::Segment(i, j) => segment(i, j),
        Class::Flat(plane) => flat(pts, plane, tol),
        Class::Solid(tetra, plane) => match solid(&frame, tetra) {
            Ok(hull) => hull,
            // The corners are more than tol/2 off each other's lines and planes, so they cannot be exactly
            // coplanar; were they, flat would be the right answer.
            Err(Failure::Flat) => flat(pts, plane, tol),
            Err(Failure::Internal) => every_point(&frame),
        },
    }
}

/// An orthonormal basis (u, v) of a plane, with u × v its normal.
#[derive(Clone, Copy)]
struct Plane {
    u: [f64; 3],
    v: [f64; 3],
}

enum Class {
    Point(usize),
    Segment(usize, usize),
    Flat(Plane),
    /// Four points spanning a tetrahedron thicker than tol/2, and the plane of the first three (for the fallback).
    Solid([usize; 4], Plane),
}

/// Decides the dimension of the set, each step measuring the spread the previous ones cannot see:
/// the bounding-box diagonal, the distance to the line through the extremes of the longest box side, the distance
/// to the plane through that line and the point farthest from it. Each reference is the best conditioned one
/// available cheaply (long base, then large triangle), so the distances are accurate to a few ulps.
fn classify(pts: &[[f64; 3]], tol: f64) -> Class {
    let (lo, hi) = bounding_box(pts);
    let extent = sub(hi, lo);
    if norm(extent) <= tol {
        return Class::Point(0);
    }
    let axis = argmax(&extent, |&e| e);
    let a = argmax(pts, |p| -p[axis]);
    let b = argmax(pts, |p| p[axis]);
    let origin = pts[a];
    let u = unit(sub(pts[b], origin));
    let off_line = |p: &[f64; 3]| norm(cross(u, sub(*p, origin)));
    let c = argmax(pts, off_line);
    // Half the tolerance, because the reported segment or polygon has its own ends or plane, slightly off these
    // reference ones: every point is then within `tol` of what is reported.
    if off_line(&pts[c]) <= 0.5 * tol {
        return segment_along(pts, u);
    }
    // When c is barely off the line, the rounding of this cross product is large relative to its length and can
    // tilt n out of perpendicularity with u; projecting that part out keeps n ⊥ u to an ulp, so the remaining
    // error only turns the plane about the line, which moves points (all within the needle) negligibly.
    let n = unit(cross(u, sub(pts[c], origin)));
    let n = unit(sub(n, u.map(|x| x * dot(n, u))));
    let plane = Plane { u, v: cross(n, u) };
    let off_plane = |p: &[f64; 3]| dot(n, sub(*p, origin)).abs();
    let d = argmax(pts, off_plane);
    if off_plane(&pts[d]) <= 0.5 * tol {
        return Class::Flat(plane);
    }
    Class::Solid([a, b, c, d], plane)
}

/// The set seen as a segment along `dir`: its ends are the extreme projections.
fn segment_along(pts: &[[f64; 3]], dir: [f64; 3]) -> Class {
    let lo = argmax(pts, |&p| -dot(dir, p));
    let hi = argmax(pts, |&p| dot(dir, p));
    if lo == hi {
        return Class::Point(lo);
    }
    Class::Segment(lo, hi)
}

fn point(i: usize) -> Hull3 {
    Hull3 { kind: HullKind::Point, vertices: vec![i], neighbors: vec![Vec::new()], faces: Vec::new() }
}

fn segment(i: usize, j: usize) -> Hull3 {
    Hull3 { kind: HullKind::Segment, vertices: vec![i, j], neighbors: vec![vec![1], vec![0]], faces: Vec::new() }
}

/// Coplanar set: the 2D hull of the points expressed in the plane's basis. Distances in the plane are the same
/// as in space, so the same tolerance applies. The 2D hull is counter-clockwise about u × v, so the cycle seen
/// from that side is the first face and its reverse is the face seen from the other side.
fn flat(pts: &[[f64; 3]], plane: Plane, tol: f64) -> Hull3 {
    let projected: Vec<[f64; 2]> = pts.iter().map(|&p| [dot(p, plane.u), dot(p, plane.v)]).collect();
    let h = hull2_in_frame(&projected, tol);
    match (h.kind, &h.vertices[..]) {
        (HullKind::Polygon, ring) if ring.len() >= 3 => polygon(ring),
        (HullKind::Segment, &[i, j]) => segment(i, j),
        (_, ring) => point(ring.first().copied().unwrap_or(0)),
    }
}

fn polygon(ring: &[usize]) -> Hull3 {
    let m = ring.len() as u32;
    let cycle: Vec<u32> = (0..m).collect();
    let reverse: Vec<u32> = cycle.iter().rev().copied().collect();
    Hull3 {
        kind: HullKind::Polygon,
        vertices: ring.to_vec(),
        neighbors: (0..m).map(|k| vec![(k + m - 1) % m, (k + 1) % m]).collect(),
        faces: vec![cycle, reverse],
    }
}

/// Last resort if the construction ever found itself inconsistent (it cannot with exact tests; this only keeps
/// a logic error from turning into a panic): every distinct point, a superset of the hull's vertices, with no
/// edges or faces.
fn every_point(frame: &Frame<3>) -> Hull3 {
    let grid: Vec<[i128; 3]> = frame.scaled.iter().map(|p| p.map(to_grid)).collect();
    let mut vertices = distinct(&grid).reps;
    vertices.sort_unstable();
    let neighbors = vec![Vec::new(); vertices.len()];
    Hull3 { kind: HullKind::Polyhedron, vertices, neighbors, faces: Vec::new() }
}

/// Why the solid construction gave up.
#[derive(Debug)]
enum Failure {
    /// The starting tetrahedron has no volume.
    Flat,
    /// An invariant broke (unreachable with exact predicates).
    Internal,
}

/// Exact hull of the distinct input points, merged into polygon faces, mapped back to input indices.
fn solid(frame: &Frame<3>, tetra: [usize; 4]) -> Result<Hull3, Failure> {
    let grid: Vec<[i128; 3]> = frame.scaled.iter().map(|p| p.map(to_grid)).collect();
    let uniq = distinct(&grid);
    let exact: Vec<[i128; 3]> = uniq.reps.iter().map(|&i| grid[i]).collect();
    let corners = tetra.map(|i| uniq.of[i]);
    let triangles = Quickhull::run(&exact, corners)?;
    let centred: Vec<[f64; 3]> = uniq.reps.iter().map(|&i| frame.points[i]).collect();
    let faces = polygon_faces(&exact, &centred, &triangles, frame.tol);
    Ok(assemble(&uniq.reps, &faces))
}

/// The grid integer of a coordinate in [-1, 1] (see [`GRID_BITS`]). Scaling by 2^100 is exact, so the rounding
/// only acts on coordinates with bits finer than the grid; the clamp only guards the bounds.
fn to_grid(x: f64) -> i128 {
    let limit = 2f64.powi(GRID_BITS);
    (x * limit).round().clamp(-limit, limit) as i128
}

// ---------------------------------------------------------------------------------------------------------------
// Quickhull with exact predicates
// ---------------------------------------------------------------------------------------------------------------

/// A hull triangle, counter-clockwise seen from outside. `adj[j]` is the triangle across edge `v[j] → v[j+1]`.
#[derive(Clone, Copy, Debug)]
struct Tri {
    v: [usize; 3],
    adj: [usize; 3],
}

struct Face {
    v: [usize; 3],
    adj: [usize; 3],
    /// (v1 − v0) × (v2 − v0) evaluated in `f64`: outward, since the face is counter-clockwise from outside.
    normal: [f64; 3],
    /// Per component, the error bound used by the side test (see [`Quickhull::above`]).
    slack: [f64; 3],
    /// 1 / |normal| (0 if it rounded to zero): turns side values into distances, for ranking only.
    inv_len: f64,
    /// Conflict list: points strictly above this face, each listed on exactly one face.
    outside: Vec<usize>,
    alive: bool,
    /// Epoch in which the face was found visible, and in which it was last tested.
    visible: usize,
    tested: usize,
}

/// Buffers reused from one insertion to the next (allocations otherwise dominate the profile).
#[derive(Default)]
struct Scratch {
    region: Vec<usize>,
    edges: Vec<HorizonEdge>,
    horizon: Vec<HorizonEdge>,
    created: Vec<usize>,
    orphans: Vec<usize>,
}

/// One edge of the horizon: `from → to` as in the visible face it belongs to; `beyond` is the face across it,
/// which stays.
#[derive(Clone, Copy)]
struct HorizonEdge {
    from: usize,
    to: usize,
    beyond: usize,
}

struct Quickhull<'a> {
    /// Distinct points, exact integer coordinates.
    exact: &'a [[i128; 3]],
    /// The same in `f64`, exactly (each came from an `f64`, so has at most 53 significant bits).
    approx: Vec<[f64; 3]>,
    faces: Vec<Face>,
    /// Slots of retired faces, reused so memory stays proportional to the hull, not to the faces ever created.
    free: Vec<usize>,
    /// Incremented once per inserted point; faces and vertices stamped with it need no clearing.
    epoch: usize,
    /// Per point: the epoch in which it started a horizon edge, and that edge's index.
    horizon_epoch: Vec<usize>,
    horizon_edge: Vec<usize>,
}

impl<'a> Quickhull<'a> {
    /// The exact hull of distinct points, starting from the tetrahedron `corners`.
    fn run(exact: &'a [[i128; 3]], corners: [usize; 4]) -> Result<Vec<Tri>, Failure> {
        let mut qh = Quickhull {
            exact,
            approx: exact.iter().map(|p| p.map(|x| x as f64)).collect(),
            faces: Vec::new(),
            free: Vec::new(),
            epoch: 0,
            horizon_epoch: vec![0; exact.len()],
            horizon_edge: vec![0; exact.len()],
        };
        qh.seed(corners)?;
        qh.expand()?;
        qh.triangles()
    }

    /// The starting tetrahedron, and every other point sorted into the conflict list of a face it is above.
    fn seed(&mut self, corners: [usize; 4]) -> Result<(), Failure> {
        let [a, mut b, mut c, d] = corners;
        let orient = self.exact_side([a, b, c], d);
        if orient == 0 {
            return Err(Failure::Flat);
        }
        // Face (a, b, c) is counter-clockwise from outside when d is below it.
        if orient > 0 {
            core::mem::swap(&mut b, &mut c);
        }
        for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.add_face(v)?;
        }
        self.link_seed()?;
        let all: Vec<usize> = (0..4).collect();
        for p in 0..self.exact.len() {
            if corners.contains(&p) {
                continue;
            }
            if let Some(f) = self.best_face(p, &all) {
                self.faces[f].outside.push(p);
            }
        }
        Ok(())
    }

    /// Adjacency of the four starting faces: each edge x → y meets the face holding y → x.
    fn link_seed(&mut self) -> Result<(), Failure> {
        for f in 0..4 {
            for j in 0..3 {
                let (x, y) = (self.faces[f].v[j], self.faces[f].v[(j + 1) % 3]);
                let holds = |g: usize| (0..3).any(|k| self.faces[g].v[k] == y && self.faces[g].v[(k + 1) % 3] == x);
                let g = (0..4).find(|&g| g != f && holds(g)).ok_or(Failure::Internal)?;
                self.faces[f].adj[j] = g;
            }
        }
        Ok(())
    }

    /// Inserts outside points, farthest first per face, until no face has any. Each step makes one outside point
    /// a hull vertex, and a hull vertex is never outside again, so there are at most as many steps as points; the
    /// budget only turns a logic error into a clean failure.
    fn expand(&mut self) -> Result<(), Failure> {
        let mut pending: Vec<usize> = (0..self.faces.len()).filter(|&f| !self.faces[f].outside.is_empty()).collect();
        let mut budget = self.exact.len();
        let mut scratch = Scratch::default();
        while let Some(f) = pending.pop() {
            if !self.faces[f].alive || self.faces[f].outside.is_empty() {
                continue;
            }
            budget = budget.checked_sub(1).ok_or(Failure::Internal)?;
            let eye = self.farthest(f);
            self.insert(f, eye, &mut scratch)?;
            // Conflict lists are only filled when a face is created, so a face is queued once; an entry left over
            // from a retired face whose slot was reused just serves the new face early, which is as good.
            pending.extend(scratch.created.iter().copied().filter(|&g| !self.faces[g].outside.is_empty()));
        }
        Ok(())
    }

    /// Adds `eye`, which is above face `start`: removes the faces it sees, fans new faces from the horizon to it,
    /// and moves the orphaned outside points to the new faces, which are left in `s.created`.
    fn insert(&mut self, start: usize, eye: usize, s: &mut Scratch) -> Result<(), Failure> {
        self.epoch += 1;
        self.visible_region(start, eye, &mut s.region)?;
        self.horizon(&s.region, &mut s.edges, &mut s.horizon)?;
        self.cone(&s.horizon, eye, &mut s.created)?;
        self.reassign(&s.region, &s.created, eye, &mut s.orphans);
        Ok(())
    }

    /// Faces strictly visible from `eye`, found by flooding from `start` through visible faces. With exact tests
    /// the visible faces of a convex polytope form a connected disk, so the flood finds all of them. A face in
    /// the plane of `eye` is not visible: the new faces then extend it coplanarly, which keeps the hull convex.
    fn visible_region(&mut self, start: usize, eye: usize, region: &mut Vec<usize>) -> Result<(), Failure> {
        let epoch = self.epoch;
        self.faces[start].visible = epoch;
        region.clear();
        region.push(start);
        let mut i = 0;
        while let Some(&f) = region.get(i) {
            i += 1;
            for g in self.faces[f].adj {
                let face = self.faces.get(g).ok_or(Failure::Internal)?;
                if !face.alive {
                    return Err(Failure::Internal);
                }
                if face.visible == epoch || face.tested == epoch {
                    continue;
                }
                let above = self.above(g, eye).is_some();
                let face = &mut self.faces[g];
                face.tested = epoch;
                if above {
                    face.visible = epoch;
                    region.push(g);
                }
            }
        }
        Ok(())
    }

    /// The edges between visible and remaining faces, ordered head to tail. Exactness guarantees one simple
    /// cycle (each vertex starts at most one edge, and following them visits all); this is checked anyway.
    fn horizon(
        &mut self,
        visible: &[usize],
        edges: &mut Vec<HorizonEdge>,
        ordered: &mut Vec<HorizonEdge>,
    ) -> Result<(), Failure> {
        let epoch = self.epoch;
        edges.clear();
        ordered.clear();
        for &f in visible {
            let face = &self.faces[f];
            for j in 0..3 {
                let beyond = face.adj[j];
                if self.faces[beyond].visible != epoch {
                    edges.push(HorizonEdge { from: face.v[j], to: face.v[(j + 1) % 3], beyond });
                }
            }
        }
        if edges.len() < 3 {
            return Err(Failure::Internal);
        }
        for (k, e) in edges.iter().enumerate() {
            if self.horizon_epoch[e.from] == epoch {
                return Err(Failure::Internal);
            }
            self.horizon_epoch[e.from] = epoch;
            self.horizon_edge[e.from] = k;
        }
        let mut k = 0;
        for _ in 0..edges.len() {
            ordered.push(edges[k]);
            let to = edges[k].to;
            if self.horizon_epoch[to] != epoch {
                return Err(Failure::Internal);
            }
            k = self.horizon_edge[to];
            if k == 0 {
                break;
            }
        }
        if k != 0 || ordered.len() != edges.len() {
            return Err(Failure::Internal);
        }
        Ok(())
    }

    /// One new face (from, to, eye) per horizon edge, linked to the face beyond the edge and to its two
    /// neighbours in the fan. Keeping the horizon edge's direction keeps the new face counter-clockwise from
    /// outside, and a new face cannot be degenerate: if `eye` were collinear with a horizon edge, it would lie in
    /// the planes of both faces at that edge and see neither.
    fn cone(&mut self, horizon: &[HorizonEdge], eye: usize, created: &mut Vec<usize>) -> Result<(), Failure> {
        created.clear();
        for e in horizon {
            created.push(self.add_face([e.from, e.to, eye])?);
        }
        let h = horizon.len();
        for (k, e) in horizon.iter().enumerate() {
            let f = created[k];
            self.faces[f].adj = [e.beyond, created[(k + 1) % h], created[(k + h - 1) % h]];
            let back = &mut self.faces[e.beyond];
            let slot = (0..3).find(|&j| back.v[j] == e.to && back.v[(j + 1) % 3] == e.from).ok_or(Failure::Internal)?;
            back.adj[slot] = f;
        }
        Ok(())
    }

    /// Retires the visible faces and gives each of their outside points to a new face it is above.
    /// A point above none of them is inside the new hull: had it been outside, the segment from an interior
    /// point of its old face to it would leave the new hull through a new face, which it would then be above.
    fn reassign(&mut self, visible: &[usize], created: &[usize], eye: usize, orphans: &mut Vec<usize>) {
        orphans.clear();
        for &f in visible {
            let face = &mut self.faces[f];
            face.alive = false;
            orphans.append(&mut face.outside);
            self.free.push(f);
        }
        for &p in orphans.iter() {
            if p == eye {
                continue;
            }
            if let Some(f) = self.best_face(p, created) {
                self.faces[f].outside.push(p);
            }
        }
    }

    fn add_face(&mut self, v: [usize; 3]) -> Result<usize, Failure> {
        let (e1, e2) = (self.approx_diff(v[1], v[0]), self.approx_diff(v[2], v[0]));
        let normal = cross(e1, e2);
        let permanent = [
            (e1[1] * e2[2]).abs() + (e1[2] * e2[1]).abs(),
            (e1[2] * e2[0]).abs() + (e1[0] * e2[2]).abs(),
            (e1[0] * e2[1]).abs() + (e1[1] * e2[0]).abs(),
        ];
        let slack = core::array::from_fn(|k| FILTER_EPS * f64::EPSILON * (permanent[k] + normal[k].abs()));
        // A new face cannot be degenerate (see `cone`); checked, cheaply when a component is clearly non-zero.
        let surely_nonzero = (0..3).any(|k| normal[k].abs() > slack[k]);
        if !surely_nonzero && self.exact_normal(v).iter().all(|c| c.signum() == 0) {
            return Err(Failure::Internal);
        }
        let len = norm(normal);
        let face = Face {
            v,
            adj: [usize::MAX; 3],
            normal,
            slack,
            inv_len: if len > 0.0 { 1.0 / len } else { 0.0 },
            outside: Vec::new(),
            alive: true,
            visible: 0,
            tested: 0,
        };
        match self.free.pop() {
            Some(slot) => {
                // Keep the old conflict list's allocation (it is empty: its points were reassigned).
                let outside = core::mem::take(&mut self.faces[slot].outside);
                self.faces[slot] = Face { outside, ..face };
                Ok(slot)
            }
            None => {
                self.faces.push(face);
                Ok(self.faces.len() - 1)
            }
        }
    }

    /// The first of the `candidates` faces that `p` is strictly above. Any such face is correct; stopping at the
    /// first halves the tests on average.
    fn best_face(&self, p: usize, candidates: &[usize]) -> Option<usize> {
        candidates.iter().copied().find(|&f| self.above(f, p).is_some())
    }

    /// The outside point of face `f` farthest from its plane (first listed on ties). Farthest first keeps the
    /// intermediate hulls large, so most points are discarded early.
    fn farthest(&self, f: usize) -> usize {
        let outside = &self.faces[f].outside;
        outside[argmax(outside, |&p| self.distance(f, p))]
    }

    /// Whether `p` is strictly above (outside) face `f`, decided exactly, with its approximate distance.
    ///
    /// The `f64` value s = n·(p − v0) decides when |s| exceeds its error bound. With u = ε/2 the unit roundoff:
    /// the differences are exact up to a factor (1 + u); each normal component errs by at most
    /// 3u·(its permanent |a·b| + |c·d|) + u·|n_k|, and the dot product adds u·|n_k|·|d_k| per term for the
    /// difference and 3u for its own roundings. Summed: |error| ≤ Σ_k (3u·permanent_k + 5u·|n_k|)·|d_k|, which
    /// `slack` (4ε = 8u per unit of each) bounds with room for the rounding of the bound itself. Inside the bound,
    /// the integer determinant decides.
    fn above(&self, f: usize, p: usize) -> Option<f64> {
        let face = &self.faces[f];
        let d = self.approx_diff(p, face.v[0]);
        let s = dot(face.normal, d);
        let bound = dot(face.slack, d.map(f64::abs));
        if s > bound {
            return Some(s * face.inv_len);
        }
        if s < -bound {
            return None;
        }
        (self.exact_side(face.v, p) > 0).then_some(s * face.inv_len)
    }

    /// Approximate signed distance of `p` above face `f` (for ranking).
    fn distance(&self, f: usize, p: usize) -> f64 {
        let face = &self.faces[f];
        dot(face.normal, self.approx_diff(p, face.v[0])) * face.inv_len
    }

    fn approx_diff(&self, a: usize, b: usize) -> [f64; 3] {
        sub(self.approx[a], self.approx[b])
    }

    fn exact_diff(&self, a: usize, b: usize) -> [i128; 3] {
        let (a, b) = (self.exact[a], self.exact[b]);
        core::array::from_fn(|k| a[k] - b[k])
    }

    /// (v1 − v0) × (v2 − v0), exactly.
    fn exact_normal(&self, v: [usize; 3]) -> [Wide; 3] {
        let (a, b) = (self.exact_diff(v[1], v[0]), self.exact_diff(v[2], v[0]));
        let term = |i: usize, j: usize| Wide::product(a[i], b[j]).sub(Wide::product(a[j], b[i]));
        [term(1, 2), term(2, 0), term(0, 1)]
    }

    /// Sign of (v1 − v0) × (v2 − v0) · (p − v0), exactly: positive when `p` is above the face (v0, v1, v2).
    fn exact_side(&self, v: [usize; 3], p: usize) -> i32 {
        let n = self.exact_normal(v);
        let d = self.exact_diff(p, v[0]);
        n[0].mul(d[0]).add(n[1].mul(d[1])).add(n[2].mul(d[2])).signum()
    }

    /// The live faces, renumbered.
    fn triangles(&self) -> Result<Vec<Tri>, Failure> {
        let mut id = vec![usize::MAX; self.faces.len()];
        let mut tris = Vec::new();
        for (f, face) in self.faces.iter().enumerate() {
            if face.alive {
                id[f] = tris.len();
                tris.push(Tri { v: face.v, adj: face.adj });
            }
        }
        for t in &mut tris {
            for a in &mut t.adj {
                *a = id.get(*a).copied().filter(|&g| g != usize::MAX).ok_or(Failure::Internal)?;
            }
        }
        Ok(tris)
    }
}

/// A signed 320-bit integer, two's complement, little-endian 64-bit limbs: just what the exact side test needs
/// (products of 102-bit differences and 205-bit normal components). The callers' bounds keep every value below
/// 2^310, so nothing here overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide([u64; 5]);

impl Wide {
    fn from_i128(x: i128) -> Wide {
        let ext = if x < 0 { u64::MAX } else { 0 };
        Wide([x as u64, (x >> 64) as u64, ext, ext, ext])
    }

    /// a·b, exact.
    fn product(a: i128, b: i128) -> Wide {
        Wide::from_i128(a).mul(b)
    }

    fn is_negative(self) -> bool {
        self.0[4] >> 63 == 1
    }

    fn signum(self) -> i32 {
        if self.is_negative() {
            -1
        } else if self.0 == [0; 5] {
            0
        } else {
            1
        }
    }

    fn add(self, other: Wide) -> Wide {
        let mut out = [0; 5];
        let mut carry = 0;
        for (k, limb) in out.iter_mut().enumerate() {
            let sum = u128::from(self.0[k]) + u128::from(other.0[k]) + carry;
            *limb = sum as u64;
            carry = sum >> 64;
        }
        Wide(out)
    }

    fn neg(self) -> Wide {
        Wide(self.0.map(|limb| !limb)).add(Wide::from_i128(1))
    }

    fn sub(self, other: Wide) -> Wide {
        self.add(other.neg())
    }

    /// self·b, exact: schoolbook product of the magnitudes, then the sign.
    fn mul(self, b: i128) -> Wide {
        let a = if self.is_negative() { self.neg().0 } else { self.0 };
        let b_mag = b.unsigned_abs();
        let b_limbs = [b_mag as u64, (b_mag >> 64) as u64];
        let mut out = [0u64; 5];
        for (i, &ai) in a.iter().enumerate().filter(|&(_, &ai)| ai != 0) {
            let mut carry = 0u128;
            for (j, limb) in out[i..].iter_mut().enumerate() {
                let bj = b_limbs.get(j).copied().unwrap_or(0);
                let t = u128::from(ai) * u128::from(bj) + u128::from(*limb) + carry;
                *limb = t as u64;
                carry = t >> 64;
            }
        }
        let product = Wide(out);
        if self.is_negative() != (b < 0) {
            product.neg()
        } else {
            product
        }
    }

    /// The value rounded to `f64` (within a few ulps: each limb is accumulated with its own rounding).
    fn to_f64(self) -> f64 {
        let magnitude = if self.is_negative() { self.neg().0 } else { self.0 };
        let value = magnitude.iter().rev().fold(0.0, |acc, &limb| acc * 2f64.powi(64) + limb as f64);
        if self.is_negative() {
            -value
        } else {
            value
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// From the exact triangulation to polygon faces
// ---------------------------------------------------------------------------------------------------------------

/// Polygon faces (cycles of point indices, counter-clockwise from outside) from the exact triangulated hull:
/// `exact` and `centred` are the distinct points (integer and normalised-frame coordinates), `tol` the tolerance.
///
/// Every departure from the exact triangulation (merging coplanar triangles, dropping edge vertices, collapsing
/// near-duplicates) is kept only if the faces still form a closed surface and every changed face is sound: wide
/// (at least [`MERGE_MIN_WIDTH`] tolerances, so its plane is well defined), with its vertices within tol/2 of the
/// plane fitted to them and no input point more than tol/2 in front of that plane. Triangles merge when within
/// tol/4 of a common plane, which leaves room for the fitted plane's own wobble. A group whose face fails is not
/// allowed to seed again, and merging starts over; exact triangles need no check, their planes are exact
/// supporting planes however thin they are.
fn polygon_faces(exact: &[[i128; 3]], centred: &[[f64; 3]], tris: &[Tri], tol: f64) -> Vec<Vec<usize>> {
    let mut graph = None;
    let mut forbidden = vec![false; tris.len()];
    for _ in 0..MERGE_ROUNDS {
        let Some([collapsed, merged]) = merged_faces(exact, centred, tris, tol, &forbidden) else { break };
        let graph = graph.get_or_insert_with(|| Graph::new(tris, centred.len()));
        for polys in [&collapsed, &merged] {
            if is_closed_surface(polys) && unsound_seeds(polys, graph, centred, tol).is_empty() {
                return finish(polys, centred);
            }
        }
        let bad = if is_closed_surface(&merged) { unsound_seeds(&merged, graph, centred, tol) } else { Vec::new() };
        if bad.is_empty() {
            break;
        }
        for seed in bad {
            forbidden[seed] = true;
        }
    }
    tris.iter().map(|t| t.v.to_vec()).collect()
}

/// The seeds of the changed faces that are not sound (see [`polygon_faces`]).
fn unsound_seeds(polys: &[Polygon], graph: &Graph, centred: &[[f64; 3]], tol: f64) -> Vec<usize> {
    let sound = |p: &Polygon| face_width(&p.cycle, centred) >= MERGE_MIN_WIDTH * tol && graph.supports(p, centred, tol);
    polys.iter().filter(|p| !p.exact && !sound(p)).map(|p| p.seed).collect()
}

/// Rounds of merging before settling for the exact triangulation; each round forbids at least one more seed,
/// and a few settle anything but pathological input.
const MERGE_ROUNDS: usize = 4;

/// The chosen faces' cycles, each starting at a wide corner.
fn finish(polys: &[Polygon], centred: &[[f64; 3]]) -> Vec<Vec<usize>> {
    polys
        .iter()
        .map(|p| {
            let mut cycle = p.cycle.clone();
            start_at_widest_corner(&mut cycle, centred, p.normal);
            cycle
        })
        .collect()
}

/// One round of merging: groups of coplanar triangles as polygons with the vertices on only two faces dropped,
/// then the same with near-duplicate vertices collapsed too. `None` when nothing merged.
fn merged_faces(
    exact: &[[i128; 3]],
    centred: &[[f64; 3]],
    tris: &[Tri],
    tol: f64,
    forbidden: &[bool],
) -> Option<[Vec<Polygon>; 2]> {
    let (group_of, groups) = coplanar_groups(exact, centred, tris, tol, forbidden);
    let mut merged = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let seed = group.members[0];
        match boundary_cycle(tris, &group_of, g, &group.members) {
            Some(cycle) if group.members.len() > 1 => {
                merged.push(Polygon { cycle, normal: group.normal, seed, exact: false });
            }
            _ => merged.extend(group.members.iter().map(|&t| Polygon {
                cycle: tris[t].v.to_vec(),
                normal: group.normal,
                seed,
                exact: true,
            })),
        }
    }
    if merged.iter().all(|p| p.exact) {
        return None;
    }
    drop_edge_vertices(&mut merged, centred.len());
    let collapsed = collapse_short_edges(&merged, centred, 0.125 * tol);
    Some([collapsed, merged])
}

/// The exact hull's vertex graph (compressed rows), to find the hull vertex farthest along a direction.
struct Graph {
    offsets: Vec<usize>,
    adjacency: Vec<usize>,
}

impl Graph {
    fn new(tris: &[Tri], point_count: usize) -> Graph {
        // Each directed edge a → b of the closed triangulation appears in exactly one triangle.
        let mut edges: Vec<(usize, usize)> = tris.iter().flat_map(|t| cycle_edges(&t.v)).collect();
        edges.sort_unstable();
        let mut offsets = vec![0; point_count + 1];
        for &(a, _) in &edges {
            offsets[a + 1] += 1;
        }
        for k in 0..point_count {
            offsets[k + 1] += offsets[k];
        }
        Graph { offsets, adjacency: edges.into_iter().map(|(_, b)| b).collect() }
    }

    /// The largest `dir · x` over the hull's vertices, by walking uphill from `start`: on a convex polytope a
    /// vertex with no better neighbour is a global maximum. Values strictly increase, so no vertex repeats.
    fn max_along(&self, dir: [f64; 3], centred: &[[f64; 3]], start: usize) -> f64 {
        let mut at = start;
        let mut best = dot(dir, centred[at]);
        for _ in 0..centred.len() {
            let next = self.adjacency[self.offsets[at]..self.offsets[at + 1]]
                .iter()
                .map(|&w| (w, dot(dir, centred[w])))
                .fold((at, best), |b, c| if c.1 > b.1 { c } else { b });
            if next.0 == at {
                break;
            }
            (at, best) = next;
        }
        best
    }

    /// Whether a merged face is a sound face of the hull. With the plane anyone would fit to it (Newell's normal
    /// through the centroid of its vertices): its vertices are within tol/2 of the plane, it is convex within
    /// tol/2 (no corner more than that inside the line through its neighbours), and no vertex of the exact hull,
    /// hence no input point, is more than tol/2 in front of the plane.
    fn supports(&self, p: &Polygon, centred: &[[f64; 3]], tol: f64) -> bool {
        let corners: Vec<[f64; 3]> = p.cycle.iter().map(|&v| centred[v]).collect();
        let centre = corners.iter().fold([0.0; 3], |s, c| [s[0] + c[0], s[1] + c[1], s[2] + c[2]]);
        let centre = centre.map(|x| x / corners.len() as f64);
        let relative: Vec<[f64; 3]> = corners.iter().map(|&c| sub(c, centre)).collect();
        let n = unit(newell(&relative));
        let m = relative.len();
        // Counter-clockwise about n, a convex corner b lies to the right of a → c: the triple product is negative.
        let inside = |k: usize| {
            let [a, b, c] = [0, 1, 2].map(|j| relative[(k + j) % m]);
            dot(cross(sub(c, a), sub(b, a)), n) - 0.5 * tol * norm(sub(c, a))
        };
        n.iter().all(|x| x.is_finite())
            && relative.iter().all(|&q| dot(n, q).abs() <= 0.5 * tol)
            && (0..m).all(|k| inside(k) <= 0.0)
            && self.max_along(n, centred, p.cycle[0]) - dot(n, centre) <= 0.5 * tol
    }
}

/// Newell's normal of a polygon: twice its vector area, along the right-hand-rule normal; robust for any
/// nearly planar cycle, whatever its corners look like.
fn newell(corners: &[[f64; 3]]) -> [f64; 3] {
    cycle_edges(corners).fold([0.0; 3], |n, (a, b)| {
        [
            n[0] + (a[1] - b[1]) * (a[2] + b[2]),
            n[1] + (a[2] - b[2]) * (a[0] + b[0]),
            n[2] + (a[0] - b[0]) * (a[1] + b[1]),
        ]
    })
}

/// A face being built: its vertex cycle, the unit normal of the plane its vertices are within tolerance of, the
/// seed triangle of its group, and whether it is still an untouched triangle of the exact hull.
struct Polygon {
    cycle: Vec<usize>,
    normal: [f64; 3],
    seed: usize,
    exact: bool,
}

impl AsRef<[usize]> for Polygon {
    fn as_ref(&self) -> &[usize] {
        &self.cycle
    }
}

/// Merges vertices joined by an edge shorter than `radius` (near-duplicate input points, e.g. equal up to
/// rounding, which both ended up extreme): they are one corner at the tolerance's scale, and a face corner made
/// of two of them gives a meaningless normal. Greedy in edge order, and a vertex that absorbed another is never
/// absorbed itself, so every vertex moves by less than `radius`. Faces left with fewer than three vertices go.
fn collapse_short_edges(polys: &[Polygon], centred: &[[f64; 3]], radius: f64) -> Vec<Polygon> {
    let mut edges: Vec<(usize, usize)> =
        polys.iter().flat_map(|p| cycle_edges(&p.cycle)).filter(|&(a, b)| a < b).collect();
    edges.sort_unstable();
    // target[v]: the vertex v is merged into (itself if kept); absorbed_some[v]: v has absorbed another vertex.
    let mut target: Vec<usize> = (0..centred.len()).collect();
    let mut absorbed_some = vec![false; centred.len()];
    for (a, b) in edges {
        if target[a] != a || target[b] != b || norm(sub(centred[a], centred[b])) >= radius {
            continue;
        }
        let (keep, drop) = if absorbed_some[b] && !absorbed_some[a] { (b, a) } else { (a, b) };
        if absorbed_some[drop] {
            continue;
        }
        target[drop] = keep;
        absorbed_some[keep] = true;
    }
    let mut out = Vec::with_capacity(polys.len());
    for p in polys {
        let mut cycle: Vec<usize> = p.cycle.iter().map(|&v| target[v]).collect();
        cycle.dedup();
        while cycle.len() > 1 && cycle.first() == cycle.last() {
            cycle.pop();
        }
        if cycle.len() >= 3 {
            let exact = p.exact && cycle == p.cycle;
            out.push(Polygon { cycle, normal: p.normal, seed: p.seed, exact });
        }
    }
    out
}

/// A face's width as seen from its widest corner: the largest height of a triangle of three consecutive
/// vertices (height over that triangle's longest side).
fn face_width(cycle: &[usize], centred: &[[f64; 3]]) -> f64 {
    let m = cycle.len();
    (0..m).map(|k| width([0, 1, 2].map(|j| centred[cycle[(k + j) % m]]))).fold(0.0, f64::max)
}

/// Rotates a polygon face's cycle so that its first three vertices span a wide, correctly turning triangle: a
/// normal taken from them (the usual shortcut) is then sound even when the face has a short edge or a nearly
/// straight corner. Corners are scored by their area signed along the face's `normal`; one replaces an earlier
/// one only if twice as wide, so rounding noise on near ties cannot make the choice depend on the input's scale.
fn start_at_widest_corner(cycle: &mut [usize], centred: &[[f64; 3]], normal: [f64; 3]) {
    let m = cycle.len();
    if m <= 3 {
        return;
    }
    let area = |k: usize| {
        let [a, b, c] = [0, 1, 2].map(|j| centred[cycle[(k + j) % m]]);
        dot(cross(sub(b, a), sub(c, a)), normal)
    };
    let mut best = (0, area(0));
    for k in 1..m {
        let a = area(k);
        if a > 2.0 * best.1.max(0.0) && a > best.1 {
            best = (k, a);
        }
    }
    cycle.rotate_left(best.0);
}

/// Groups adjacent triangles lying within tol/4 of a common plane. Seeds are taken largest first, and a
/// neighbour joins a group only if all three of its vertices are within tol/4 of the seed's plane: measuring
/// against the seed, not against the neighbour it is reached from, keeps a gently curved surface from merging into
/// one drifting face. The seed's plane uses its exact normal, so even a sliver seed passes through its vertices.
fn coplanar_groups(
    exact: &[[i128; 3]],
    centred: &[[f64; 3]],
    tris: &[Tri],
    tol: f64,
    forbidden: &[bool],
) -> (Vec<usize>, Vec<Group>) {
    let normals: Vec<[f64; 3]> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.v.map(|w| centred[w]);
            cross(sub(b, a), sub(c, a))
        })
        .collect();
    let areas: Vec<f64> = normals.iter().map(|&n| norm(n)).collect();
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&i, &j| areas[j].total_cmp(&areas[i]).then(i.cmp(&j)));
    let mut group_of = vec![usize::MAX; tris.len()];
    let mut groups = Vec::new();
    for seed in order {
        if group_of[seed] != usize::MAX {
            continue;
        }
        let n = unit(seed_normal(exact, centred, tris[seed].v, normals[seed]));
        let origin = centred[tris[seed].v[0]];
        let near = |w: usize| dot(n, sub(centred[w], origin)).abs() <= 0.25 * tol;
        let id = groups.len();
        group_of[seed] = id;
        let mut members = vec![seed];
        // Vertices within tol/4 of a plane only pin its direction to about tol / (4 × the face's width). A seed
        // narrower than MERGE_MIN_WIDTH tolerances (a sliver, or a face of a needle-thin hull) therefore stays
        // alone: its exact plane is better than any merged face's could be.
        let narrow = width(tris[seed].v.map(|w| centred[w])) < MERGE_MIN_WIDTH * tol;
        let mut i = usize::from(narrow || forbidden[seed]);
        while let Some(&t) = members.get(i) {
            i += 1;
            for u in tris[t].adj {
                if group_of[u] == usize::MAX && tris[u].v.iter().all(|&w| near(w)) {
                    group_of[u] = id;
                    members.push(u);
                }
            }
        }
        groups.push(Group { members, normal: n });
    }
    (group_of, groups)
}

/// Triangles merged into one face, and the unit normal of the plane they are all within tolerance of.
struct Group {
    members: Vec<usize>,
    normal: [f64; 3],
}

/// A triangle's smallest height: twice its area over its longest side.
fn width(corners: [[f64; 3]; 3]) -> f64 {
    let [a, b, c] = corners;
    let longest = longest_side(corners);
    if longest > 0.0 {
        norm(cross(sub(b, a), sub(c, a))) / longest
    } else {
        0.0
    }
}

fn longest_side([a, b, c]: [[f64; 3]; 3]) -> f64 {
    norm(sub(b, a)).max(norm(sub(c, b))).max(norm(sub(a, c)))
}

/// A seed triangle's normal, accurate enough that its own vertices are well within the merging tolerance of its
/// plane. The `f64` cross product `approx` errs by about ε / sin(angle) radian, and width / longest side is a
/// lower bound on the sine of every angle of a triangle: fine unless the triangle is a sliver, which gets the
/// exact normal.
fn seed_normal(exact: &[[i128; 3]], centred: &[[f64; 3]], v: [usize; 3], approx: [f64; 3]) -> [f64; 3] {
    let corners = v.map(|w| centred[w]);
    if width(corners) >= 1e-2 * longest_side(corners) {
        approx
    } else {
        exact_normal_f64(exact, v)
    }
}

/// The exact normal of a triangle, rounded to `f64` (its direction is then accurate to a few ulps).
fn exact_normal_f64(exact: &[[i128; 3]], v: [usize; 3]) -> [f64; 3] {
    let d = |i: usize| -> [i128; 3] { core::array::from_fn(|k| exact[v[i]][k] - exact[v[0]][k]) };
    let (a, b) = (d(1), d(2));
    let term = |i: usize, j: usize| Wide::product(a[i], b[j]).sub(Wide::product(a[j], b[i])).to_f64();
    [term(1, 2), term(2, 0), term(0, 1)]
}

/// The boundary of a group of triangles as one cycle, oriented like the triangles (so counter-clockwise from
/// outside); vertices inside the group disappear. `None` unless the boundary is a single simple cycle (a group
/// pinched at a vertex or with a hole cannot be one polygon).
fn boundary_cycle(tris: &[Tri], group_of: &[usize], group: usize, members: &[usize]) -> Option<Vec<usize>> {
    if let &[t] = members {
        return Some(tris[t].v.to_vec());
    }
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for &t in members {
        let tri = &tris[t];
        for j in 0..3 {
            if group_of[tri.adj[j]] != group {
                edges.push((tri.v[j], tri.v[(j + 1) % 3]));
            }
        }
    }
    edges.sort_unstable();
    if edges.len() < 3 || edges.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    // Starts are unique, so following edges head to tail is deterministic; it must come back to the first edge
    // exactly when every edge has been used.
    let mut cycle = Vec::with_capacity(edges.len());
    let mut k = 0;
    for _ in 0..edges.len() {
        let (from, to) = edges[k];
        cycle.push(from);
        k = edges.binary_search_by_key(&to, |e| e.0).ok()?;
        if k == 0 {
            break;
        }
    }
    (k == 0 && cycle.len() == edges.len()).then_some(cycle)
}

/// Drops every vertex that lies on exactly two faces. A true vertex of a polyhedron meets at least three faces;
/// one meeting two lies on the edge between them (within `tol` of both planes, since each face's vertices are
/// within `tol` of its plane), as edge midpoints do. Faces are never reduced below a triangle.
fn drop_edge_vertices(polys: &mut [Polygon], point_count: usize) {
    let mut faces_of: Vec<Vec<usize>> = vec![Vec::new(); point_count];
    for (f, p) in polys.iter().enumerate() {
        for &v in &p.cycle {
            faces_of[v].push(f);
        }
    }
    for (v, faces) in faces_of.iter().enumerate() {
        if let &[f, g] = &faces[..] {
            if polys[f].cycle.len() > 3 && polys[g].cycle.len() > 3 {
                for h in [f, g] {
                    polys[h].cycle.retain(|&w| w != v);
                    polys[h].exact = false;
                }
            }
        }
    }
}

/// Whether the faces form a closed surface with the sphere's topology: simple cycles, every directed edge once
/// and its reverse once (each edge between exactly two consistently oriented faces), and V − E + F = 2.
fn is_closed_surface<C: AsRef<[usize]>>(cycles: &[C]) -> bool {
    let cycles: Vec<&[usize]> = cycles.iter().map(AsRef::as_ref).collect();
    if cycles.len() < 4 || cycles.iter().any(|c| c.len() < 3) {
        return false;
    }
    let simple = cycles.iter().all(|c| {
        let mut s = c.to_vec();
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    });
    let mut edges: Vec<(usize, usize)> = cycles.iter().flat_map(|c| cycle_edges(c)).collect();
    edges.sort_unstable();
    let once = edges.windows(2).all(|w| w[0] != w[1]);
    let mut reversed: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (b, a)).collect();
    reversed.sort_unstable();
    let paired = reversed == edges;
    let mut vertices: Vec<usize> = cycles.iter().flat_map(|c| c.iter().copied()).collect();
    vertices.sort_unstable();
    vertices.dedup();
    simple && once && paired && vertices.len() + cycles.len() == edges.len() / 2 + 2
}

/// The directed edges of a cycle, closing edge included.
fn cycle_edges<T: Copy>(cycle: &[T]) -> impl Iterator<Item = (T, T)> + '_ {
    cycle.iter().zip(cycle.iter().cycle().skip(1)).map(|(&a, &b)| (a, b))
}

/// The public form: vertices as input indices (ascending), faces and neighbours as positions into `vertices`.
fn assemble(reps: &[usize], cycles: &[Vec<usize>]) -> Hull3 {
    let mut used: Vec<usize> = cycles.iter().flatten().copied().collect();
    used.sort_unstable_by_key(|&v| reps[v]);
    used.dedup();
    let mut position = vec![u32::MAX; reps.len()];
    for (k, &v) in used.iter().enumerate() {
        position[v] = k as u32;
    }
    let faces: Vec<Vec<u32>> = cycles.iter().map(|c| c.iter().map(|&v| position[v]).collect()).collect();
    // Each edge is a → b in one face and b → a in the other, so each neighbour is recorded once per side.
    let mut neighbors = vec![Vec::new(); used.len()];
    for face in &faces {
        for (a, b) in cycle_edges(face) {
            neighbors[a as usize].push(b);
        }
    }
    for list in &mut neighbors {
        list.sort_unstable();
        list.dedup();
    }
    Hull3 { kind: HullKind::Polyhedron, vertices: used.iter().map(|&v| reps[v]).collect(), neighbors, faces }
}

// ---------------------------------------------------------------------------------------------------------------
// Vector helpers
// ---------------------------------------------------------------------------------------------------------------

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let len = norm(a);
    a.map(|x| x / len)
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{input_tolerance, Rng};
    use super::*;

    type PlaneAt = ([f64; 3], [f64; 3]);

    fn centroid(pts: impl Iterator<Item = [f64; 3]>) -> [f64; 3] {
        let (sum, n) = pts.fold(([0.0; 3], 0.0), |(s, n), p| ([s[0] + p[0], s[1] + p[1], s[2] + p[2]], n + 1.0));
        sum.map(|x| x / n)
    }

    /// Double-double number (hi + lo): enough precision for the test's own face normals to stay exact on
    /// needle-thin faces, where the cancelling f64 sums of Newell's formula would lose the direction.
    #[derive(Clone, Copy)]
    struct Dd(f64, f64);

    impl Dd {
        fn add(self, o: Dd) -> Dd {
            let s = self.0 + o.0;
            let b = s - self.0;
            let e = (self.0 - (s - b)) + (o.0 - b);
            Dd::normalised(s, e + self.1 + o.1)
        }

        fn neg(self) -> Dd {
            Dd(-self.0, -self.1)
        }

        fn mul(self, o: Dd) -> Dd {
            let p = self.0 * o.0;
            Dd::normalised(p, self.0.mul_add(o.0, -p) + (self.0 * o.1 + self.1 * o.0))
        }

        fn normalised(s: f64, e: f64) -> Dd {
            let t = s + e;
            Dd(t, e - (t - s))
        }
    }

    /// Newell's normal of a polygon (right-hand rule), evaluated in double-double on coordinates taken relative
    /// to its first corner (exactly: a difference of two doubles is a double-double), so that even a face
    /// of near-duplicate points far from the origin keeps its true direction.
    fn newell(corners: &[[f64; 3]]) -> [f64; 3] {
        let o = corners[0];
        let rel: Vec<[Dd; 3]> =
            corners.iter().map(|c| core::array::from_fn(|k| Dd(c[k], 0.0).add(Dd(-o[k], 0.0)))).collect();
        let mut n = [Dd(0.0, 0.0); 3];
        for (a, b) in cycle_edges(&rel) {
            for (k, nk) in n.iter_mut().enumerate() {
                let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                *nk = nk.add(a[i].add(b[i].neg()).mul(a[j].add(b[j])));
            }
        }
        n.map(|x| x.0 + x.1)
    }

    /// Checks everything a polyhedron hull promises: distinct valid vertices; faces forming a closed surface with
    /// matching neighbour lists; every face planar, facing outward, with every input point behind it (within
    /// `slack` × tolerance). Returns each face's unit normal and centroid relative to the returned origin.
    fn check_polyhedron(points: &[[f64; 3]], hull: &Hull3, slack: f64) -> ([f64; 3], Vec<PlaneAt>) {
        assert_eq!(hull.kind, HullKind::Polyhedron);
        let n = hull.vertices.len();
        assert!(n >= 4 && hull.faces.len() >= 4, "{hull:?}");
        assert_eq!(hull.neighbors.len(), n);
        let mut indices = hull.vertices.clone();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices.len(), n, "duplicate vertex");
        assert!(hull.vertices.iter().all(|&i| i < points.len()));
        let cycles: Vec<Vec<usize>> = hull.faces.iter().map(|f| f.iter().map(|&v| v as usize).collect()).collect();
        assert!(cycles.iter().flatten().all(|&v| v < n));
        assert!(is_closed_surface(&cycles), "not a closed surface: {:?}", hull.faces);
        let mut from_faces: Vec<Vec<u32>> = vec![Vec::new(); n];
        for f in &hull.faces {
            for (a, b) in cycle_edges(f) {
                from_faces[a as usize].push(b);
            }
        }
        for list in &mut from_faces {
            list.sort_unstable();
        }
        assert_eq!(from_faces, hull.neighbors, "neighbours differ from face edges");
        // Geometry relative to the vertices' centroid, which keeps the digits of clouds far from the origin.
        let tol = slack * input_tolerance(points);
        let origin = centroid(hull.vertices.iter().map(|&i| points[i]));
        let rel = |p: [f64; 3]| sub(p, origin);
        let mut planes = Vec::new();
        for (fi, face) in hull.faces.iter().enumerate() {
            let absolute: Vec<[f64; 3]> = face.iter().map(|&v| points[hull.vertices[v as usize]]).collect();
            let corners: Vec<[f64; 3]> = absolute.iter().map(|&p| rel(p)).collect();
            let normal = unit(newell(&absolute));
            let c = centroid(corners.iter().copied());
            assert!(dot(normal, c) > 0.0, "face {fi} faces inward");
            // Users often take a face's normal from its first three vertices: that must be sound too.
            let shortcut = unit(cross(sub(corners[1], corners[0]), sub(corners[2], corners[0])));
            assert!(dot(shortcut, normal) > 0.99, "face {fi}: its first three vertices give a poor normal");
            for &q in &corners {
                let off = dot(normal, sub(q, c)).abs();
                assert!(off <= tol, "face {fi} is not planar: a corner is {off:e} off (tol {tol:e})");
            }
            for k in 0..corners.len() {
                let [a, b, d] = [0, 1, 2].map(|j| corners[(k + j) % corners.len()]);
                let inside = dot(cross(sub(d, a), sub(b, a)), normal) / norm(sub(d, a));
                assert!(inside <= tol, "face {fi} is not convex: corner {k} is {inside:e} inside");
            }
            for (i, &p) in points.iter().enumerate() {
                let out = dot(normal, sub(rel(p), c));
                assert!(out <= tol, "point {i} is {out:e} outside face {fi} (tol {tol:e})");
            }
            planes.push((normal, c));
        }
        (origin, planes)
    }

    /// Every hull vertex is the unique farthest point along the sum of its faces' normals, which lies inside its
    /// normal cone: it is a true corner, not a point on an edge or face.
    fn check_vertices_are_extreme(points: &[[f64; 3]], hull: &Hull3, origin: [f64; 3], planes: &[PlaneAt]) {
        for (k, &i) in hull.vertices.iter().enumerate() {
            let dir = hull
                .faces
                .iter()
                .zip(planes)
                .filter(|(f, _)| f.contains(&(k as u32)))
                .fold([0.0; 3], |d, (_, (n, _))| [d[0] + n[0], d[1] + n[1], d[2] + n[2]]);
            let height = dot(dir, sub(points[i], origin));
            for (j, &q) in points.iter().enumerate() {
                if q != points[i] {
                    assert!(dot(dir, sub(q, origin)) < height, "vertex {i} is not extreme (point {j} reaches it)");
                }
            }
        }
    }

    /// Checks a coplanar result: a cycle with both orientations as faces, every point within tolerance of the
    /// plane and inside the polygon.
    fn check_flat(points: &[[f64; 3]], hull: &Hull3, slack: f64) {
        assert_eq!(hull.kind, HullKind::Polygon);
        let m = hull.vertices.len() as u32;
        assert!(m >= 3);
        let cycle: Vec<u32> = (0..m).collect();
        let reverse: Vec<u32> = cycle.iter().rev().copied().collect();
        assert_eq!(hull.faces, vec![cycle, reverse]);
        for (k, list) in hull.neighbors.iter().enumerate() {
            let k = k as u32;
            assert_eq!(list, &vec![(k + m - 1) % m, (k + 1) % m]);
        }
        let tol = slack * input_tolerance(points);
        let origin = centroid(hull.vertices.iter().map(|&i| points[i]));
        let corners: Vec<[f64; 3]> = hull.vertices.iter().map(|&i| sub(points[i], origin)).collect();
        let normal = unit(newell(&hull.vertices.iter().map(|&i| points[i]).collect::<Vec<_>>()));
        for (a, b) in cycle_edges(&corners) {
            // Pointing out of the polygon, within its plane (counter-clockwise about the normal).
            let out = unit(cross(sub(b, a), normal));
            for &p in points {
                let p = sub(p, origin);
                assert!(dot(normal, p).abs() <= tol, "point off the plane");
                assert!(dot(out, sub(p, a)) <= tol, "point outside the polygon");
            }
        }
    }

    fn cube_cloud(rng: &mut Rng, n: usize, size: f64) -> Vec<[f64; 3]> {
        (0..n).map(|_| [0; 3].map(|_| rng.range(-size, size))).collect()
    }

    fn sphere_cloud(rng: &mut Rng, n: usize) -> Vec<[f64; 3]> {
        let mut pts = Vec::with_capacity(n);
        while pts.len() < n {
            let p = [0; 3].map(|_| rng.range(-1.0, 1.0));
            let r = norm(p);
            if (0.1..=1.0).contains(&r) {
                pts.push(p.map(|x| x / r));
            }
        }
        pts
    }

    fn rotate(p: [f64; 3]) -> [f64; 3] {
        // A generic rotation: about z by 0.5, then about x by 0.7, then about y by 1.1.
        let (s, c) = 0.5f64.sin_cos();
        let p = [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]];
        let (s, c) = 0.7f64.sin_cos();
        let p = [p[0], c * p[1] - s * p[2], s * p[1] + c * p[2]];
        let (s, c) = 1.1f64.sin_cos();
        [c * p[0] + s * p[2], p[1], -s * p[0] + c * p[2]]
    }

    fn unit_cube_corners() -> Vec<[f64; 3]> {
        (0..8).map(|k| [k & 1, (k >> 1) & 1, (k >> 2) & 1].map(f64::from)).collect()
    }

    /// The 8 corners first, then the 6 face centres and 12 edge midpoints of the unit cube.
    fn cube_with_face_centres_and_edge_midpoints() -> Vec<[f64; 3]> {
        let mut pts = unit_cube_corners();
        for axis in 0..3 {
            for side in [0.0, 1.0] {
                let mut c = [0.5; 3];
                c[axis] = side;
                pts.push(c);
            }
            for (a, b) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)] {
                let mut m = [a, b, 0.0];
                m.rotate_right(axis);
                m[axis] = 0.5;
                pts.push(m);
            }
        }
        pts
    }

    fn sorted(mut v: Vec<usize>) -> Vec<usize> {
        v.sort_unstable();
        v
    }

    #[test]
    fn random_clouds_in_a_cube() {
        let mut rng = Rng::new(11);
        for n in [4, 5, 6, 8, 12, 30, 100, 1000] {
            for _ in 0..10 {
                let pts = cube_cloud(&mut rng, n, 1.0);
                let hull = hull3(&pts);
                let (origin, planes) = check_polyhedron(&pts, &hull, 1.0);
                check_vertices_are_extreme(&pts, &hull, origin, &planes);
            }
        }
    }

    #[test]
    fn many_small_random_clouds() {
        let mut rng = Rng::new(12);
        for _ in 0..2000 {
            let n = 4 + rng.below(8) as usize;
            let pts = cube_cloud(&mut rng, n, 1.0);
            let hull = hull3(&pts);
            let (origin, planes) = check_polyhedron(&pts, &hull, 1.0);
            check_vertices_are_extreme(&pts, &hull, origin, &planes);
        }
    }

    #[test]
    fn random_points_on_a_sphere_are_all_vertices() {
        let mut rng = Rng::new(13);
        let pts = sphere_cloud(&mut rng, 2048);
        let hull = hull3(&pts);
        let (origin, planes) = check_polyhedron(&pts, &hull, 1.0);
        check_vertices_are_extreme(&pts, &hull, origin, &planes);
        assert_eq!(hull.vertices, (0..2048).collect::<Vec<_>>());
        // A triangulated sphere: F = 2V − 4.
        assert_eq!(hull.faces.len(), 2 * 2048 - 4);
    }

    /// Integer points in {0, 1, 2}³ are riddled with exact duplicates, collinear and coplanar subsets.
    fn lattice_cloud(rng: &mut Rng, n: usize) -> Vec<[f64; 3]> {
        (0..n).map(|_| [0; 3].map(|_| rng.below(3) as f64)).collect()
    }

    #[test]
    fn integer_lattice_subsets_with_exact_degeneracies() {
        let mut rng = Rng::new(14);
        let mut kinds = [0; 4];
        for _ in 0..1500 {
            let n = 1 + rng.below(25) as usize;
            let pts = lattice_cloud(&mut rng, n);
            let hull = hull3(&pts);
            match hull.kind {
                HullKind::Polyhedron => {
                    kinds[3] += 1;
                    let (origin, planes) = check_polyhedron(&pts, &hull, 1.0);
                    // Exact merging leaves only true corners, and faces are exact polygons.
                    check_vertices_are_extreme(&pts, &hull, origin, &planes);
                }
                HullKind::Polygon => {
                    kinds[2] += 1;
                    check_flat(&pts, &hull, 1.0);
                }
                HullKind::Segment => {
                    kinds[1] += 1;
                    check_segment(&pts, &hull);
                }
                HullKind::Point => {
                    kinds[0] += 1;
                    assert!(pts.iter().all(|&p| p == pts[0]));
                }
            }
        }
        assert!(kinds.iter().all(|&k| k > 10), "every kind exercised: {kinds:?}");
    }

    #[test]
    fn rotated_lattice_subsets_with_near_degeneracies() {
        let mut rng = Rng::new(15);
        for _ in 0..1500 {
            let n = 4 + rng.below(25) as usize;
            let pts: Vec<[f64; 3]> = lattice_cloud(&mut rng, n).into_iter().map(rotate).collect();
            let hull = hull3(&pts);
            match hull.kind {
                HullKind::Polyhedron => {
                    check_polyhedron(&pts, &hull, 1.0);
                }
                HullKind::Polygon => check_flat(&pts, &hull, 1.0),
                HullKind::Segment => assert_eq!(hull.vertices.len(), 2),
                HullKind::Point => assert_eq!(hull.vertices.len(), 1),
            }
        }
    }

    fn check_segment(pts: &[[f64; 3]], hull: &Hull3) {
        assert_eq!(hull.neighbors, vec![vec![1], vec![0]]);
        assert!(hull.faces.is_empty());
        let (a, b) = (pts[hull.vertices[0]], pts[hull.vertices[1]]);
        let dir = sub(b, a);
        for &p in pts {
            assert!(norm(cross(dir, sub(p, a))) <= 1e-12 * dot(dir, dir));
            let t = dot(dir, sub(p, a)) / dot(dir, dir);
            assert!((-1e-12..=1.0 + 1e-12).contains(&t), "segment does not reach {p:?}");
        }
    }

    #[test]
    fn cube_with_duplicates() {
        let corners = unit_cube_corners();
        let mut pts = vec![[0.5; 3]];
        for _ in 0..3 {
            pts.extend_from_slice(&corners);
        }
        let hull = hull3(&pts);
        check_polyhedron(&pts, &hull, 1.0);
        assert_eq!(hull.vertices, (1..9).collect::<Vec<_>>(), "first copy of each corner");
        assert_eq!(hull.faces.len(), 6);
        assert!(hull.faces.iter().all(|f| f.len() == 4));
        assert!(hull.neighbors.iter().all(|n| n.len() == 3));
    }

    #[test]
    fn cube_corners_face_centres_and_edge_midpoints_keep_only_the_corners() {
        let pts = cube_with_face_centres_and_edge_midpoints();
        let hull = hull3(&pts);
        let (origin, planes) = check_polyhedron(&pts, &hull, 1.0);
        check_vertices_are_extreme(&pts, &hull, origin, &planes);
        assert_eq!(hull.vertices, (0..8).collect::<Vec<_>>());
        assert_eq!(hull.faces.len(), 6);
        assert!(hull.faces.iter().all(|f| f.len() == 4));
    }

    #[test]
    fn rotated_cube_with_face_centres_and_edge_midpoints_keeps_only_the_corners() {
        let pts: Vec<[f64; 3]> = cube_with_face_centres_and_edge_midpoints().into_iter().map(rotate).collect();
        let hull = hull3(&pts);
        check_polyhedron(&pts, &hull, 1.0);
        assert_eq!(hull.vertices, (0..8).collect::<Vec<_>>());
        assert_eq!(hull.faces.len(), 6);
        assert!(hull.faces.iter().all(|f| f.len() == 4));
    }

    #[test]
    fn densely_sampled_cube_surface_gives_six_quads() {
        let mut rng = Rng::new(16);
        for rotated in [false, true] {
            let mut pts = unit_cube_corners();
            for _ in 0..600 {
                let mut p = [rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.below(2) as f64];
                p.rotate_right(rng.below(3) as usize);
                pts.push(p);
            }
            if rotated {
                pts = pts.into_iter().map(rotate).collect();
            }
            let hull = hull3(&pts);
            check_polyhedron(&pts, &hull, 1.0);
            assert_eq!(hull.vertices, (0..8).collect::<Vec<_>>(), "rotated: {rotated}");
            assert_eq!(hull.faces.len(), 6);
        }
    }

    #[test]
    fn octahedron_and_square_pyramid() {
        let octa =
            [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, -1.0]];
        let hull = hull3(&octa);
        check_polyhedron(&octa, &hull, 1.0);
        assert_eq!((hull.vertices.len(), hull.faces.len()), (6, 8));
        let pyramid =
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.7], [0.5, 0.5, 0.0]];
        let hull = hull3(&pyramid);
        check_polyhedron(&pyramid, &hull, 1.0);
        assert_eq!(hull.vertices, vec![0, 1, 2, 3, 4]);
        assert_eq!(sorted(hull.faces.iter().map(Vec::len).collect()), vec![3, 3, 3, 3, 4]);
    }

    #[test]
    fn collinear_points_give_a_segment_with_the_extreme_ends() {
        let mut rng = Rng::new(17);
        let at = |t: f64| [1.0 + 2.0 * t, -3.0 + t, 0.5 - 0.25 * t];
        let mut pts: Vec<[f64; 3]> = (0..60).map(|_| at(rng.range(0.05, 0.95))).collect();
        pts.insert(40, at(1.0));
        pts.insert(7, at(0.0));
        pts.push(at(0.5));
        let hull = hull3(&pts);
        assert_eq!(hull.kind, HullKind::Segment);
        assert_eq!(hull.vertices, vec![7, 41]);
        check_segment(&pts, &hull);
    }

    #[test]
    fn coplanar_points_give_a_polygon() {
        let mut rng = Rng::new(18);
        for n in [3, 4, 10, 300] {
            let pts: Vec<[f64; 3]> =
                (0..n).map(|_| rotate([rng.range(-1.0, 1.0), rng.range(-2.0, 2.0), 0.3])).collect();
            let hull = hull3(&pts);
            check_flat(&pts, &hull, 1.0);
            if n <= 4 {
                assert!(hull.vertices.len() >= 3);
            }
        }
        // Axis-aligned, with duplicates and interior points: the square's four corners.
        let mut pts = vec![[0.5, 0.5, 2.0], [0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [1.0, 1.0, 2.0], [0.0, 1.0, 2.0]];
        pts.extend_from_within(..);
        let hull = hull3(&pts);
        check_flat(&pts, &hull, 1.0);
        assert_eq!(sorted(hull.vertices.clone()), vec![1, 2, 3, 4]);
    }

    #[test]
    fn single_and_repeated_points_give_a_point() {
        let single = hull3(&[[1.0, 2.0, 3.0]]);
        assert_eq!(single, point(0));
        assert_eq!(single.neighbors, vec![Vec::<u32>::new()]);
        assert_eq!(hull3(&[[-4.0, 1e5, 0.25]; 17]), point(0));
    }

    #[test]
    fn two_and_three_points() {
        let hull = hull3(&[[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [2.0, 0.0, 1.0]]);
        assert_eq!(hull, segment(0, 2));
        let pts = [[0.0, 0.0, 1.0], [2.0, 0.0, 1.0], [0.0, 3.0, 1.0]];
        check_flat(&pts, &hull3(&pts), 1.0);
    }

    #[test]
    fn thin_slab_of_relative_thickness_1e_9_is_a_polyhedron() {
        let mut rng = Rng::new(19);
        for rotated in [false, true] {
            let mut pts: Vec<[f64; 3]> =
                (0..500).map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.range(0.0, 1e-9)]).collect();
            if rotated {
                pts = pts.into_iter().map(rotate).collect();
            }
            let hull = hull3(&pts);
            check_polyhedron(&pts, &hull, 1.0);
        }
    }

    #[test]
    fn slab_thinner_than_tolerance_is_a_polygon() {
        let mut rng = Rng::new(20);
        let pts: Vec<[f64; 3]> =
            (0..300).map(|_| rotate([rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.range(0.0, 1e-13)])).collect();
        let hull = hull3(&pts);
        check_flat(&pts, &hull, 1.0);
    }

    #[test]
    fn needles_thin_and_thinner_than_tolerance() {
        let mut rng = Rng::new(21);
        let needle = |rng: &mut Rng, w: f64| -> Vec<[f64; 3]> {
            (0..300).map(|_| [rng.range(-1.0, 1.0), rng.range(-w, w), rng.range(-w, w)]).collect()
        };
        let pts = needle(&mut rng, 1e-14);
        assert_eq!(hull3(&pts).kind, HullKind::Segment);
        let rotated: Vec<[f64; 3]> = pts.into_iter().map(rotate).collect();
        assert_eq!(hull3(&rotated).kind, HullKind::Segment);
        let pts = needle(&mut rng, 1e-8);
        check_polyhedron(&pts, &hull3(&pts), 1.0);
        let rotated: Vec<[f64; 3]> = pts.into_iter().map(rotate).collect();
        check_polyhedron(&rotated, &hull3(&rotated), 1.0);
    }

    #[test]
    fn cloud_offset_by_1e5_matches_the_cloud_at_the_origin() {
        let mut rng = Rng::new(22);
        let pts = sphere_cloud(&mut rng, 500);
        let far: Vec<[f64; 3]> = pts.iter().map(|p| [p[0] + 1e5, p[1] - 1e5, p[2] + 3e4]).collect();
        let (near_hull, far_hull) = (hull3(&pts), hull3(&far));
        check_polyhedron(&pts, &near_hull, 1.0);
        check_polyhedron(&far, &far_hull, 1.0);
        assert_eq!(near_hull.vertices, far_hull.vertices);
        let cube: Vec<[f64; 3]> =
            cube_cloud(&mut rng, 500, 0.5).iter().map(|p| [p[0] - 1e5, p[1], p[2] + 1e5]).collect();
        check_polyhedron(&cube, &hull3(&cube), 1.0);
    }

    #[test]
    fn tiny_cloud_of_size_1e_3_matches_unit_size() {
        let mut rng = Rng::new(23);
        for _ in 0..10 {
            let pts = cube_cloud(&mut rng, 300, 1.0);
            let tiny: Vec<[f64; 3]> = pts.iter().map(|p| p.map(|x| x * 1e-3)).collect();
            let (a, b) = (hull3(&pts), hull3(&tiny));
            check_polyhedron(&tiny, &b, 1.0);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn extreme_magnitudes_work_like_unit_size() {
        let mut rng = Rng::new(24);
        let pts = cube_cloud(&mut rng, 200, 1.0);
        let reference = hull3(&pts);
        for scale in [1e-300, 1e300] {
            let scaled: Vec<[f64; 3]> = pts.iter().map(|p| p.map(|x| x * scale)).collect();
            assert_eq!(hull3(&scaled), reference, "scale {scale:e}");
        }
    }

    #[test]
    fn near_duplicates_within_and_beyond_tolerance() {
        let mut rng = Rng::new(26);
        for spread in [1e-15, 1e-13, 1e-12, 1e-11, 1e-10, 1e-8] {
            let mut pts = Vec::new();
            for p in sphere_cloud(&mut rng, 300) {
                pts.push(p);
                for _ in 0..3 {
                    pts.push(p.map(|x| x + rng.range(-spread, spread)));
                }
            }
            let hull = hull3(&pts);
            check_polyhedron(&pts, &hull, 1.0);
        }
    }

    fn check_any(pts: &[[f64; 3]], hull: &Hull3, slack: f64) {
        match hull.kind {
            HullKind::Polyhedron => {
                check_polyhedron(pts, hull, slack);
            }
            HullKind::Polygon => check_flat(pts, hull, slack),
            HullKind::Segment => {
                assert_eq!(hull.vertices.len(), 2);
                let tol = slack * input_tolerance(pts);
                let (a, b) = (pts[hull.vertices[0]], pts[hull.vertices[1]]);
                let dir = unit(sub(b, a));
                let len = norm(sub(b, a));
                for &p in pts {
                    assert!(norm(cross(dir, sub(p, a))) <= tol);
                    let t = dot(dir, sub(p, a));
                    assert!(t >= -tol && t <= len + tol);
                }
            }
            HullKind::Point => {
                let tol = slack * input_tolerance(pts);
                let a = pts[hull.vertices[0]];
                assert!(pts.iter().all(|&p| norm(sub(p, a)) <= tol));
            }
        }
    }

    /// Thousands of small clouds built to be nasty: values differing in the last bit, exact and rotated lattices,
    /// near-duplicate clusters at the tolerance's scale, needles, lenses, tiny clouds far from the origin.
    #[test]
    fn adversarial_near_degenerate_clouds() {
        // FUZZ (iterations), FUZZ_SEED and FUZZ_N (largest cloud) tune a longer run.
        let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
        let mut rng = Rng::new(env("FUZZ_SEED", 777));
        let (iters, max_n) = (env("FUZZ", 2000), env("FUZZ_N", 60));
        for it in 0..iters {
            let kind = rng.below(10);
            let n = 1 + rng.below(max_n) as usize;
            let mut pts: Vec<[f64; 3]> = match kind {
                0 => {
                    // values from a tiny alphabet, including ulp-neighbours
                    let vals = [0.0, 1.0, 1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, 0.5, 1e-300, -1.0];
                    (0..n).map(|_| [0; 3].map(|_| vals[rng.below(vals.len() as u64) as usize])).collect()
                }
                1 => (0..n).map(|_| rotate([0; 3].map(|_| rng.below(3) as f64))).collect(),
                2 => {
                    // box surface grid, rotated
                    (0..n)
                        .map(|_| {
                            let mut p = [rng.below(5) as f64 / 4.0, rng.below(5) as f64 / 4.0, rng.below(2) as f64];
                            p.rotate_right(rng.below(3) as usize);
                            rotate(p)
                        })
                        .collect()
                }
                3 => {
                    // thin lens: knife edges
                    (0..n)
                        .map(|_| {
                            let (x, y) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                            let h = (1.0 - x * x - y * y).max(0.0) * 1e-9;
                            [x, y, rng.range(-h, h)]
                        })
                        .collect()
                }
                4 => {
                    // cylinder rings (coplanar circles)
                    (0..n)
                        .map(|_| {
                            let t = rng.below(12) as f64 * core::f64::consts::TAU / 12.0;
                            rotate([t.cos(), t.sin(), rng.below(3) as f64])
                        })
                        .collect()
                }
                5 => {
                    // extreme aspect box
                    (0..n).map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1e-6), rng.range(0.0, 1e-10)]).collect()
                }
                6 => {
                    // plane + apex, perturbed around tolerance
                    let mut v: Vec<[f64; 3]> = (0..n)
                        .map(|_| rotate([rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-3e-11, 3e-11)]))
                        .collect();
                    v.push(rotate([0.0, 0.0, 1.0]));
                    v
                }
                7 => {
                    // tiny at big offset
                    (0..n).map(|_| [0; 3].map(|_| 1e5 + rng.range(-1e-3, 1e-3))).collect()
                }
                8 => {
                    // near-duplicates of a few points, spread at tolerance scale
                    let base = cube_cloud(&mut rng, 5, 1.0);
                    (0..n)
                        .map(|_| {
                            let b = base[rng.below(5) as usize];
                            let s = [1e-13, 1e-12, 1e-11, 1e-10][rng.below(4) as usize];
                            b.map(|x| x + rng.range(-s, s))
                        })
                        .collect()
                }
                _ => {
                    // collinear-ish and coplanar-ish with tolerance-scale noise
                    let s = [0.0, 1e-14, 1e-12, 1e-11, 3e-11, 1e-10][rng.below(6) as usize];
                    let planar = rng.below(2) == 0;
                    (0..n)
                        .map(|_| {
                            let y = if planar { rng.range(-1.0, 1.0) } else { rng.range(-s, s) };
                            rotate([rng.range(-1.0, 1.0), y, rng.range(-s, s)])
                        })
                        .collect()
                }
            };
            if rng.below(4) == 0 {
                let k = pts.len();
                for i in 0..k {
                    if rng.below(3) == 0 {
                        pts.push(pts[i]);
                    }
                }
            }
            let hull = hull3(&pts);
            // Checked on the points scaled by a power of two (exact), so sets of size 1e-300 do not underflow.
            let scaled = super::super::normalise(&pts).scaled;
            if std::panic::catch_unwind(|| check_any(&scaled, &hull, 1.0)).is_err() {
                println!("FAIL it {it} kind {kind}\nPTS {pts:?}\nVERTS {:?}\nFACES {:?}", hull.vertices, hull.faces);
                panic!("adversarial cloud {it} (kind {kind}) failed");
            }
        }
    }

    #[test]
    fn wide_integers_match_i128_and_known_big_values() {
        let mut rng = Rng::new(27);
        for _ in 0..10000 {
            let bits = 1 + rng.below(62) as u32;
            let x = |rng: &mut Rng| (rng.next_u64() >> (64 - bits)) as i128 * if rng.below(2) == 0 { 1 } else { -1 };
            let (a, b, c) = (x(&mut rng), x(&mut rng), x(&mut rng));
            assert_eq!(Wide::product(a, b), Wide::from_i128(a * b));
            assert_eq!(Wide::product(a, b).sub(Wide::from_i128(c)), Wide::from_i128(a * b - c));
            assert_eq!(Wide::from_i128(a * b).signum(), (a * b).signum() as i32);
            let (wide, exact) = (Wide::product(a, b).to_f64(), (a * b) as f64);
            assert!((wide - exact).abs() <= 4.0 * f64::EPSILON * exact.abs());
        }
        // (2^100 − 1)² = 2^200 − 2^101 + 1, limb by limb.
        let m = (1i128 << 100) - 1;
        assert_eq!(Wide::product(m, m), Wide([1, u64::MAX - (1 << 37) + 1, u64::MAX, 255, 0]));
        assert_eq!(Wide::product(m, -m), Wide::product(m, m).neg());
        // A 305-bit value and its sign, and exact cancellation at that size.
        let big = Wide::product(m, m).mul(-m);
        assert_eq!(big.signum(), -1);
        assert_eq!(big.to_f64(), -(2f64.powi(300)));
        assert_eq!(big.sub(Wide::product(m, -m).mul(m)).signum(), 0);
    }

    #[test]
    fn non_finite_input_does_not_panic() {
        // Outside the contract (the caller checks finiteness), but must still return.
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let pts = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [bad, 0.5, 0.5]];
            let _ = hull3(&pts);
            let _ = hull3(&[[bad, bad, bad]]);
        }
        assert_eq!(hull3(&[]).vertices, Vec::<usize>::new());
    }

    #[test]
    fn same_input_gives_same_output() {
        let mut rng = Rng::new(25);
        let pts = cube_cloud(&mut rng, 1000, 2.0);
        assert_eq!(hull3(&pts), hull3(&pts));
        let lattice = lattice_cloud(&mut rng, 40);
        assert_eq!(hull3(&lattice), hull3(&lattice));
    }
}
