//! 3D convex hull.
//!
//! 1. Classify the set with the tolerance: point, segment, flat (handed to the 2D hull in its plane) or solid.
//!    The classification also yields a well-spread starting tetrahedron.
//! 2. Solid: quickhull with conflict lists on the points snapped to an integer grid, every "is this point above
//!    this face" decision evaluated exactly in `i128`. Exactness is what makes it robust: the faces a new point
//!    sees form a disk whose boundary, the horizon, is one simple cycle, and every outside point is found.
//!    Floating point only ranks candidates (which outside point is farthest), never decides topology.
//! 3. The exact hull is a triangulation. Triangles coplanar within the tolerance are merged into polygon faces,
//!    and vertices left with only two faces (in the middle of an edge) are dropped. If the merged faces do not form
//!    a closed surface of the sphere's topology, the exact triangulation is returned instead.

use super::dim2::hull2_in_frame;
use super::{argmax, bounding_box, distinct, normalise, snap, Hull3, HullKind};

/// Snapped coordinates are integers in `[-2^40, 2^40]`, so differences are below 2^41, face normals (cross
/// products) below 2^83 and orientation determinants below 3·2^124: exact in `i128`. The step, 2^-40 of the
/// cloud's half-size, is at least 20 times smaller than the tolerance (10 times the merging tolerance).
const GRID_BITS: i32 = 40;

/// Distance from a face plane (grid units) beyond which the `f64` distance's sign is trusted without the exact
/// test: 250 times the bound on its error (see [`Quickhull::above`]).
const DISTANCE_FILTER: f64 = 1.0;

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
        Class::Solid(tetra, plane) => match solid(pts, tetra, tol) {
            Ok(hull) => hull,
            // The starting tetrahedron turned flat on the grid: impossible with the grid this much finer than
            // `tol`, but flat is then the right answer.
            Err(Failure::Flat) => flat(pts, plane, tol),
            Err(Failure::Internal) => every_point(pts),
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
    /// Four points spanning a tetrahedron thicker than `tol`, and the plane of the first three (for the fallback).
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
    if off_line(&pts[c]) <= tol {
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
    if off_plane(&pts[d]) <= tol {
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
fn every_point(pts: &[[f64; 3]]) -> Hull3 {
    let (grid, _) = snap(pts, GRID_BITS);
    let mut vertices = distinct(&grid).reps;
    vertices.sort_unstable();
    let neighbors = vec![Vec::new(); vertices.len()];
    Hull3 { kind: HullKind::Polyhedron, vertices, neighbors, faces: Vec::new() }
}

/// Why the solid construction gave up.
#[derive(Debug)]
enum Failure {
    /// The starting tetrahedron has no volume on the grid.
    Flat,
    /// An invariant broke (unreachable with exact predicates).
    Internal,
}

/// Exact hull of the snapped points, merged into polygon faces, mapped back to input indices.
fn solid(pts: &[[f64; 3]], tetra: [usize; 4], tol: f64) -> Result<Hull3, Failure> {
    let (grid, step) = snap(pts, GRID_BITS);
    let uniq = distinct(&grid);
    let points: Vec<[i64; 3]> = uniq.reps.iter().map(|&i| grid[i]).collect();
    let corners = tetra.map(|i| uniq.of[i]);
    let triangles = Quickhull::run(&points, corners)?;
    // Merged faces keep their vertices within tol/2 of one plane, so whatever plane a user fits to a face (e.g.
    // Newell's) has every vertex of the face, and by convexity every input point, within about `tol` of it.
    let faces = polygon_faces(&points, &triangles, 0.5 * tol / step);
    Ok(assemble(&uniq.reps, &faces))
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
    /// Unit outward normal in `f64`: (v1 − v0) × (v2 − v0) normalised, outward because the face is
    /// counter-clockwise from outside. Used to rank points, and to decide sides when clearly away from the plane.
    unit: [f64; 3],
    /// Conflict list: points strictly above this face, each listed on exactly one face.
    outside: Vec<usize>,
    alive: bool,
    /// Epoch in which the face was found visible, and in which it was last tested.
    visible: usize,
    tested: usize,
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
    pts: &'a [[i64; 3]],
    /// The same points in `f64` (exactly: they are integers below 2^40), for the fast distance filter.
    fpts: Vec<[f64; 3]>,
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
    /// The exact hull of distinct points `pts`, starting from the tetrahedron `corners`.
    fn run(pts: &'a [[i64; 3]], corners: [usize; 4]) -> Result<Vec<Tri>, Failure> {
        let mut qh = Quickhull {
            pts,
            fpts: pts.iter().map(|p| p.map(|x| x as f64)).collect(),
            faces: Vec::new(),
            free: Vec::new(),
            epoch: 0,
            horizon_epoch: vec![0; pts.len()],
            horizon_edge: vec![0; pts.len()],
        };
        qh.seed(corners)?;
        qh.expand()?;
        qh.triangles()
    }

    /// The starting tetrahedron, and every other point sorted into the conflict list of a face it is above.
    fn seed(&mut self, corners: [usize; 4]) -> Result<(), Failure> {
        let [a, mut b, mut c, d] = corners;
        let orient = dot_i(cross_i(self.diff(b, a), self.diff(c, a)), self.diff(d, a));
        if orient == 0 {
            return Err(Failure::Flat);
        }
        // Face (a, b, c) is counter-clockwise from outside when d is below it, i.e. the orientation is negative.
        if orient > 0 {
            std::mem::swap(&mut b, &mut c);
        }
        for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.add_face(v)?;
        }
        self.link_seed()?;
        let all: Vec<usize> = (0..4).collect();
        for p in 0..self.pts.len() {
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
        let mut budget = self.pts.len();
        while let Some(f) = pending.pop() {
            if !self.faces[f].alive || self.faces[f].outside.is_empty() {
                continue;
            }
            budget = budget.checked_sub(1).ok_or(Failure::Internal)?;
            let eye = self.farthest(f);
            let created = self.insert(f, eye)?;
            // Conflict lists are only filled when a face is created, so a face is queued once; an entry left over
            // from a retired face whose slot was reused just serves the new face early, which is as good.
            pending.extend(created.into_iter().filter(|&g| !self.faces[g].outside.is_empty()));
        }
        Ok(())
    }

    /// Adds `eye`, which is above face `start`: removes the faces it sees, fans new faces from the horizon to it,
    /// and moves the orphaned outside points to the new faces. Returns the new faces.
    fn insert(&mut self, start: usize, eye: usize) -> Result<Vec<usize>, Failure> {
        self.epoch += 1;
        let visible = self.visible_region(start, eye)?;
        let horizon = self.horizon(&visible)?;
        let created = self.cone(&horizon, eye)?;
        self.reassign(&visible, &created, eye);
        Ok(created)
    }

    /// Faces strictly visible from `eye`, found by flooding from `start` through visible faces. With exact tests
    /// the visible faces of a convex polytope form a connected disk, so the flood finds all of them. A face in
    /// the plane of `eye` is not visible: the new faces then extend it coplanarly, which keeps the hull convex.
    fn visible_region(&mut self, start: usize, eye: usize) -> Result<Vec<usize>, Failure> {
        let epoch = self.epoch;
        self.faces[start].visible = epoch;
        let mut region = vec![start];
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
        Ok(region)
    }

    /// The edges between visible and remaining faces, ordered head to tail. Exactness guarantees one simple
    /// cycle (each vertex starts at most one edge, and following them visits all); this is checked anyway.
    fn horizon(&mut self, visible: &[usize]) -> Result<Vec<HorizonEdge>, Failure> {
        let epoch = self.epoch;
        let mut edges = Vec::new();
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
        let mut ordered = Vec::with_capacity(edges.len());
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
        Ok(ordered)
    }

    /// One new face (from, to, eye) per horizon edge, linked to the face beyond the edge and to its two
    /// neighbours in the fan. Keeping the horizon edge's direction keeps the new face counter-clockwise from
    /// outside, and a new face cannot be degenerate: if `eye` were collinear with a horizon edge, it would lie in
    /// the planes of both faces at that edge and see neither.
    fn cone(&mut self, horizon: &[HorizonEdge], eye: usize) -> Result<Vec<usize>, Failure> {
        let created = horizon.iter().map(|e| self.add_face([e.from, e.to, eye])).collect::<Result<Vec<_>, _>>()?;
        let h = horizon.len();
        for (k, e) in horizon.iter().enumerate() {
            let f = created[k];
            self.faces[f].adj = [e.beyond, created[(k + 1) % h], created[(k + h - 1) % h]];
            let back = &mut self.faces[e.beyond];
            let slot = (0..3).find(|&j| back.v[j] == e.to && back.v[(j + 1) % 3] == e.from).ok_or(Failure::Internal)?;
            back.adj[slot] = f;
        }
        Ok(created)
    }

    /// Retires the visible faces and gives each of their outside points to a new face it is above.
    /// A point above none of them is inside the new hull: had it been outside, the segment from an interior
    /// point of its old face to it would leave the new hull through a new face, which it would then be above.
    fn reassign(&mut self, visible: &[usize], created: &[usize], eye: usize) {
        let mut orphans = Vec::new();
        for &f in visible {
            let face = &mut self.faces[f];
            face.alive = false;
            orphans.append(&mut face.outside);
            self.free.push(f);
        }
        for p in orphans {
            if p == eye {
                continue;
            }
            if let Some(f) = self.best_face(p, created) {
                self.faces[f].outside.push(p);
            }
        }
    }

    fn add_face(&mut self, v: [usize; 3]) -> Result<usize, Failure> {
        let normal = self.exact_normal(v);
        if normal == [0; 3] {
            return Err(Failure::Internal);
        }
        let face = Face {
            v,
            adj: [usize::MAX; 3],
            unit: unit(normal.map(|x| x as f64)),
            outside: Vec::new(),
            alive: true,
            visible: 0,
            tested: 0,
        };
        match self.free.pop() {
            Some(slot) => {
                // Keep the old conflict list's allocation (it is empty: its points were reassigned).
                let outside = std::mem::take(&mut self.faces[slot].outside);
                self.faces[slot] = Face { outside, ..face };
                Ok(slot)
            }
            None => {
                self.faces.push(face);
                Ok(self.faces.len() - 1)
            }
        }
    }

    /// (v1 − v0) × (v2 − v0), exact.
    fn exact_normal(&self, v: [usize; 3]) -> [i128; 3] {
        cross_i(self.diff(v[1], v[0]), self.diff(v[2], v[0]))
    }

    /// The first of the `candidates` faces that `p` is strictly above (exact test). Any such face is correct;
    /// stopping at the first halves the tests on average.
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
    /// The `f64` distance decides when it is clearly away from zero: the coordinates are integers below 2^40, so
    /// `p − v0` is exact, and the only errors are the few ulps of the unit normal and of the dot product, below
    /// 10 ulp × 2^42 ≈ 0.004 grid units. Within [`DISTANCE_FILTER`] of the plane the sign of the exact `i128`
    /// determinant decides.
    fn above(&self, f: usize, p: usize) -> Option<f64> {
        let d = self.distance(f, p);
        if d > DISTANCE_FILTER {
            return Some(d);
        }
        if d < -DISTANCE_FILTER {
            return None;
        }
        let v = self.faces[f].v;
        (dot_i(self.exact_normal(v), self.diff(p, v[0])) > 0).then_some(d)
    }

    /// Approximate signed distance of `p` above face `f`, in grid units.
    fn distance(&self, f: usize, p: usize) -> f64 {
        let face = &self.faces[f];
        let (q, o) = (self.fpts[p], self.fpts[face.v[0]]);
        dot(face.unit, [q[0] - o[0], q[1] - o[1], q[2] - o[2]])
    }

    fn diff(&self, a: usize, b: usize) -> [i128; 3] {
        let (a, b) = (self.pts[a], self.pts[b]);
        std::array::from_fn(|k| i128::from(a[k]) - i128::from(b[k]))
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

// ---------------------------------------------------------------------------------------------------------------
// From the exact triangulation to polygon faces
// ---------------------------------------------------------------------------------------------------------------

/// Polygon faces (cycles of point indices, counter-clockwise from outside) from the exact triangulated hull, with
/// `tol` in grid units. See the module documentation for the steps.
fn polygon_faces(pts: &[[i64; 3]], tris: &[Tri], tol: f64) -> Vec<Vec<usize>> {
    let (group_of, groups) = coplanar_groups(pts, tris, tol);
    let mut cycles = Vec::new();
    for (g, members) in groups.iter().enumerate() {
        match boundary_cycle(tris, &group_of, g, members) {
            Some(cycle) => cycles.push(cycle),
            None => cycles.extend(members.iter().map(|&t| tris[t].v.to_vec())),
        }
    }
    if cycles.len() == tris.len() {
        // Nothing merged: this is the exact triangulation.
        return cycles;
    }
    drop_edge_vertices(&mut cycles, pts.len());
    if is_closed_surface(&cycles) {
        cycles
    } else {
        tris.iter().map(|t| t.v.to_vec()).collect()
    }
}

/// Groups adjacent triangles lying within `tol` of a common plane. Seeds are taken largest first (their normals
/// are the most accurate), and a neighbour joins a group only if all three of its vertices are within `tol` of
/// the seed's plane: measuring against the seed, not against the neighbour it is reached from, keeps a gently
/// curved surface from merging into one drifting face.
fn coplanar_groups(pts: &[[i64; 3]], tris: &[Tri], tol: f64) -> (Vec<usize>, Vec<Vec<usize>>) {
    let at = |w: usize| pts[w].map(|x| x as f64);
    let normals: Vec<[f64; 3]> = tris
        .iter()
        .map(|t| {
            let d = |k: usize| std::array::from_fn(|i| i128::from(pts[t.v[k]][i]) - i128::from(pts[t.v[0]][i]));
            cross_i(d(1), d(2)).map(|x| x as f64)
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
        let n = unit(normals[seed]);
        let offset = dot(n, at(tris[seed].v[0]));
        let near = |w: usize| (dot(n, at(w)) - offset).abs() <= tol;
        let id = groups.len();
        group_of[seed] = id;
        let mut members = vec![seed];
        let mut i = 0;
        while let Some(&t) = members.get(i) {
            i += 1;
            for u in tris[t].adj {
                if group_of[u] == usize::MAX && tris[u].v.iter().all(|&w| near(w)) {
                    group_of[u] = id;
                    members.push(u);
                }
            }
        }
        groups.push(members);
    }
    (group_of, groups)
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
fn drop_edge_vertices(cycles: &mut [Vec<usize>], point_count: usize) {
    let mut faces_of: Vec<Vec<usize>> = vec![Vec::new(); point_count];
    for (f, cycle) in cycles.iter().enumerate() {
        for &v in cycle {
            faces_of[v].push(f);
        }
    }
    for (v, faces) in faces_of.iter().enumerate() {
        if let &[f, g] = &faces[..] {
            if cycles[f].len() > 3 && cycles[g].len() > 3 {
                cycles[f].retain(|&w| w != v);
                cycles[g].retain(|&w| w != v);
            }
        }
    }
}

/// Whether the faces form a closed surface with the sphere's topology: simple cycles, every directed edge once
/// and its reverse once (each edge between exactly two consistently oriented faces), and V − E + F = 2.
fn is_closed_surface(cycles: &[Vec<usize>]) -> bool {
    if cycles.len() < 4 || cycles.iter().any(|c| c.len() < 3) {
        return false;
    }
    let simple = cycles.iter().all(|c| {
        let mut s = c.clone();
        s.sort_unstable();
        s.windows(2).all(|w| w[0] != w[1])
    });
    let mut edges: Vec<(usize, usize)> = cycles.iter().flat_map(|c| cycle_edges(c)).collect();
    edges.sort_unstable();
    let once = edges.windows(2).all(|w| w[0] != w[1]);
    let mut reversed: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (b, a)).collect();
    reversed.sort_unstable();
    let paired = reversed == edges;
    let mut vertices: Vec<usize> = cycles.iter().flatten().copied().collect();
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

fn cross_i(a: [i128; 3], b: [i128; 3]) -> [i128; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot_i(a: [i128; 3], b: [i128; 3]) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
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

    /// Newell's normal of a polygon (right-hand rule), evaluated in double-double.
    fn newell(corners: &[[f64; 3]]) -> [f64; 3] {
        let mut n = [Dd(0.0, 0.0); 3];
        for (a, b) in cycle_edges(corners) {
            for (k, nk) in n.iter_mut().enumerate() {
                let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                let along = Dd(a[i], 0.0).add(Dd(b[i], 0.0).neg());
                let across = Dd(a[j], 0.0).add(Dd(b[j], 0.0));
                *nk = nk.add(along.mul(across));
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
            let corners: Vec<[f64; 3]> = face.iter().map(|&v| rel(points[hull.vertices[v as usize]])).collect();
            let normal = unit(newell(&corners));
            let c = centroid(corners.iter().copied());
            assert!(dot(normal, c) > 0.0, "face {fi} faces inward");
            for &q in &corners {
                let off = dot(normal, sub(q, c)).abs();
                assert!(off <= tol, "face {fi} is not planar: a corner is {off:e} off (tol {tol:e})");
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
        let normal = unit(newell(&corners));
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

    #[test]
    #[ignore]
    fn fuzz_adversarial() {
        let mut rng = Rng::new(777);
        let iters: usize = std::env::var("FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
        for it in 0..iters {
            let kind = rng.below(10);
            let n = 1 + rng.below(60) as usize;
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
                            let t = rng.below(12) as f64 * std::f64::consts::TAU / 12.0;
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
            let slack = if kind == 7 { 1e6 } else { 2.0 };
            let r = std::panic::catch_unwind(|| check_any(&pts, &hull, slack));
            if r.is_err() {
                for sl in [1.5, 2.0, 3.0, 5.0, 10.0, 100.0, 1e4] {
                    if std::panic::catch_unwind(|| check_any(&pts, &hull, sl)).is_ok() {
                        println!("passes with slack {sl}");
                        break;
                    }
                }
                println!("FAIL it {it} kind {kind} hull {:?}", hull.kind);
                println!("PTS {:?}", pts);
                println!("VERTS {:?}", hull.vertices);
                println!("FACES {:?}", hull.faces);
                panic!("fuzz failure");
            }
        }
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
