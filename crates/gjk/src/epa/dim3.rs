//! EPA in 3D: expands a tetrahedron around the origin, face by face, toward the boundary of A − B.
//!
//! The polytope's vertices are points of A − B and its faces wrap the origin, so its face nearest the origin
//! bounds the penetration depth from below; the support value of A − B along that face's normal bounds it from
//! above. Each step adds the support point, removes the faces it can see and closes the hole with a fan of faces
//! from the horizon. Storage is fixed-size, so a query never allocates; running out of room ends the expansion
//! with the bounds reached.
//!
//! # Why the lower bound holds, even after rounding
//!
//! The nearest face's distance is a lower bound on the depth as long as the faces form a closed surface around the
//! origin with every face's plane in front of it (positive distance, outward winding): every ray from the origin
//! then leaves through some face, at least that face's distance away, and everything before it lies in the
//! tetrahedron of the origin and that face — inside A − B, a convex set holding all four points. Convexity of the
//! polytope itself is not needed. So each step keeps exactly that invariant, whatever rounding does to the
//! visibility tests: the faces removed are grown from the nearest face across edges (one connected patch); a face
//! of the fan that would not have the origin well behind it — a sliver, or a plane through the origin, as nearly
//! coplanar points on a cylinder's cap produce — makes the face across its horizon edge part of the patch too; and
//! the horizon must come out as one simple loop (the patch a disc), or the point is not added. Rounding can then
//! leave the polytope slightly non-convex, never with a hole or a face turned inward.

use arrayvec::ArrayVec;

use super::refine::refine;
use super::{Expansion, Flat, Progress, Report};
use crate::gjk::{DiffVertex, Status};
use crate::math::{Real, Vector, Vector3};
use crate::simplex::closest_to_origin;
use crate::simplex::dim3::triangle_normal;

const MAX_VERTS: usize = 256;
/// Face slots: a closed triangulated surface on V vertices has 2V − 4 faces, and slots of removed faces are reused.
const MAX_FACES: usize = 2 * MAX_VERTS;
const MAX_HORIZON: usize = MAX_VERTS;
/// Words of a bit set over the face slots.
const FACE_WORDS: usize = MAX_FACES / 64;
/// The edge after edge `e` of a face (its vertex `e + 1`, modulo 3).
const NEXT: [usize; 3] = [1, 2, 0];

#[derive(Clone, Copy, Debug)]
struct Face<V: Vector> {
    idx: [u16; 3],
    /// The face across each edge: `adj[e]` shares the edge `idx[e] → idx[e + 1]` (walked the other way).
    adj: [u16; 3],
    /// Outward unit normal.
    n: V,
    /// Signed distance of the face's plane from the origin (positive when the origin is behind the face).
    d: V::Real,
    /// False for a removed face whose slot is free.
    live: bool,
}

/// An edge of the hole a new point leaves: `a → b` as in the removed face, the kept face across it with the
/// index of the edge in that face, and the face of the fan that closes it, (a, b, w).
#[derive(Clone, Copy, Debug)]
struct HorizonEdge<V: Vector> {
    a: u16,
    b: u16,
    across: u16,
    edge: u8,
    fan: Plane<V>,
}

/// A face's outward unit normal and the signed distance of its plane from the origin.
type Plane<V> = (V, <V as Vector>::Real);

/// The polytope's storage is fixed-size but never cleared: `ArrayVec`s start empty without writing their slots
/// (zeroing arrays of this size per query and per step was 31 % of the instructions of 3D f64 hull256
/// penetrating contact, callgrind).
struct Polytope<V: Vector> {
    verts: ArrayVec<DiffVertex<V>, MAX_VERTS>,
    faces: ArrayVec<Face<V>, MAX_FACES>,
    /// Each face slot's distance `d`, +∞ for a removed face: the search for the nearest face reads these alone
    /// (through the faces, each a face record apart, the search took 5 % of 3D f64 hull256 penetrating contact).
    dist: ArrayVec<V::Real, MAX_FACES>,
    /// Slots of removed faces, for reuse.
    free: ArrayVec<u16, MAX_FACES>,
    /// Scratch for [`Polytope::simple_loop`]: the horizon edge starting at each vertex, [`NONE`] between steps.
    from: [u16; MAX_VERTS],
}

/// No horizon edge (see [`Polytope::from`]).
const NONE: u16 = u16::MAX;

/// A set of face slots.
#[derive(Clone, Copy)]
struct FaceSet([u64; FACE_WORDS]);

impl FaceSet {
    // Face slots are below MAX_FACES: the word index taken modulo FACE_WORDS is the same, with no bound to check.
    fn has(&self, f: usize) -> bool {
        self.0[(f / 64) % FACE_WORDS] & (1 << (f % 64)) != 0
    }
    fn add(&mut self, f: usize) {
        self.0[(f / 64) % FACE_WORDS] |= 1 << (f % 64);
    }
}

impl<V: Vector3> Polytope<V> {
    /// The face (i, j, k) with its plane: normal from the two shortest edges (exact on slivers), distance from the
    /// first vertex. `None` for a face too thin to have a normal.
    fn face(&self, i: usize, j: usize, k: usize) -> Option<Face<V>> {
        let (n, d) = self.plane(i, j, k)?;
        Some(Face { idx: [i as u16, j as u16, k as u16], adj: [0; 3], n, d, live: true })
    }

    /// The plane of the face (i, j, k), as [`Polytope::face`] gives it.
    #[inline(always)]
    fn plane(&self, i: usize, j: usize, k: usize) -> Option<Plane<V>> {
        let (a, b, c) = (self.verts[i].w, self.verts[j].w, self.verts[k].w);
        let n = triangle_normal(a, b, c).normalize_or_zero();
        if n == V::zero() {
            return None;
        }
        Some((n, n.dot(a)))
    }

    fn live(&self) -> impl Iterator<Item = (usize, &Face<V>)> {
        self.faces.iter().enumerate().filter(|(_, f)| f.live)
    }

    /// The live face nearest the origin (the first of equals; the first live face when its distance is NaN).
    fn nearest_face(&self) -> usize {
        debug_assert!(self.dist.len() == self.faces.len());
        let Some(first) = self.faces.iter().position(|f| f.live) else {
            return usize::MAX;
        };
        // A removed face's +∞ is never less than the best (NaN included), as the face itself is never looked at.
        let (mut best, mut best_d) = (first, self.dist[first]);
        for (i, &d) in self.dist.iter().enumerate().skip(first + 1) {
            if d < best_d {
                (best, best_d) = (i, d);
            }
        }
        best
    }

    /// The live faces' vertex indices, three per face, their count, and the position of `nearest` among them.
    fn face_indices(&self, nearest: usize) -> ([u16; 3 * MAX_FACES], usize, usize) {
        let mut out = [0; 3 * MAX_FACES];
        let (mut count, mut at) = (0, 0);
        for (i, face) in self.live() {
            if i == nearest {
                at = count;
            }
            out[3 * count..3 * count + 3].copy_from_slice(&face.idx);
            count += 1;
        }
        (out, count, at)
    }

    fn contains(&self, w: V) -> bool {
        self.verts.iter().any(|v| v.w == w)
    }

    /// Links the four faces of the starting tetrahedron: each edge to the face holding it the other way, false when
    /// that face does not (the faces are not wound consistently). Face t leaves out vertex 3 − t, so the other face
    /// holding edge a → b of a face with third vertex c is the one leaving out c: no search.
    fn link(&mut self) -> bool {
        debug_assert!(self.faces.len() == 4);
        for f in 0..4 {
            let idx = self.faces[f].idx;
            for e in 0..3 {
                let (a, b, c) = (idx[e], idx[NEXT[e]], idx[NEXT[NEXT[e]]]);
                let g = 3 - (c as usize).min(3);
                if !(0..3).any(|k| self.edge(g, k) == (b, a)) {
                    return false;
                }
                self.faces[f].adj[e] = g as u16;
            }
        }
        true
    }

    fn edge(&self, f: usize, e: usize) -> (u16, u16) {
        let idx = self.faces[f].idx;
        (idx[e], idx[NEXT[e]])
    }

    /// Adds a support point found some other way than along a face's normal (a refinement's): the face it is
    /// farthest in front of starts the patch. Nothing happens when it is not in front of any face by more than
    /// `eps` (already inside), or cannot be added.
    fn insert(&mut self, w: DiffVertex<V>, eps: V::Real) {
        if self.contains(w.w) || self.verts.is_full() {
            return;
        }
        let (mut start, mut ahead) = (usize::MAX, eps);
        for (i, f) in self.live() {
            let h = f.n.dot(w.w) - f.d;
            if h > ahead {
                (start, ahead) = (i, h);
            }
        }
        if start != usize::MAX {
            let floor = self.faces[self.nearest_face()].d - eps;
            self.expand(w, start, eps, floor);
        }
    }

    /// The face through which the ray from the origin along `u` leaves the polytope: the one whose cone from the
    /// origin holds `u` (the signed volumes of `u` with each of its edges are not negative).
    fn face_toward(&self, u: V) -> Option<usize> {
        let det = |a: V, b: V| a.dot(b.cross(u));
        let mut best: Option<(usize, V::Real)> = None;
        for (i, f) in self.live() {
            let [a, b, c] = f.idx.map(|k| self.verts[k as usize].w);
            let inside = det(a, b) >= V::Real::ZERO && det(b, c) >= V::Real::ZERO && det(c, a) >= V::Real::ZERO;
            let along = f.n.dot(u);
            if inside && along > V::Real::ZERO {
                // Where the ray meets the face's plane: the first such face if rounding lets two claim the ray.
                let t = f.d / along;
                if best.is_none_or(|(_, bt)| t < bt) {
                    best = Some((i, t));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// Adds `w`, found along the normal of face `start`: removes the patch of faces it sees and fans the hole's
    /// horizon to it, keeping every face of the fan at least `floor` from the origin (see the module docs). A face
    /// sees `w` when `w` is more than `eps` in front of its plane. False when the point cannot be added (out of
    /// room, or no patch gives a valid fan); the polytope is then left as it was.
    fn expand(&mut self, w: DiffVertex<V>, start: usize, eps: V::Real, floor: V::Real) -> bool {
        if self.verts.is_full() {
            return false;
        }
        let wi = self.verts.len();
        self.verts.push(w);
        let added = self.carve(start, wi, eps, floor);
        if !added {
            self.verts.pop();
        }
        added
    }

    /// The horizon of the patch `gone` (its faces listed in `removed`) around the new vertex `wi`: the edges whose
    /// other face stays, in the order of `removed`, edges 0, 1, 2, each with the plane of its fan face. `None` when
    /// a fan face has no normal or the edges are more than the room. Out of line: it runs only past the room of the
    /// edges kept while the patch grows (and in debug checks), and its buffer would otherwise enlarge every step's
    /// stack frame.
    #[cold]
    #[inline(never)]
    fn horizon(&self, removed: &[u16], gone: &FaceSet, wi: usize) -> Option<ArrayVec<HorizonEdge<V>, MAX_HORIZON>> {
        let mut horizon = ArrayVec::new();
        for &f in removed {
            for e in 0..3 {
                let g = self.faces[f as usize].adj[e];
                if gone.has(g as usize) {
                    continue;
                }
                let (a, b) = self.edge(f as usize, e);
                let fan = self.plane(a as usize, b as usize, wi)?;
                horizon.try_push(HorizonEdge { a, b, across: g, edge: 0, fan }).ok()?;
            }
        }
        Some(horizon)
    }

    fn carve(&mut self, start: usize, wi: usize, eps: V::Real, floor: V::Real) -> bool {
        let w = self.verts[wi].w;
        // The patch, grown from the start face: a neighbour joins when it sees w, or when the fan face on the edge
        // between them would not be valid. A valid fan face is kept: if its neighbour stays, it closes the hole
        // there.
        let mut gone = FaceSet([0; FACE_WORDS]);
        let mut removed = ArrayVec::<u16, MAX_FACES>::new();
        let mut stack = ArrayVec::<u16, MAX_FACES>::new();
        // The edges met with a valid fan face, in the order met: faces in the order they were removed, edges 0, 1,
        // 2 (the edge's index in the kept face is found below).
        let mut horizon = ArrayVec::<HorizonEdge<V>, MAX_HORIZON>::new();
        let mut overflow = false;
        gone.add(start);
        stack.push(start as u16);
        while let Some(f) = stack.pop() {
            removed.push(f);
            let Face { idx, adj, .. } = self.faces[f as usize];
            for e in 0..3 {
                let g = adj[e] as usize;
                if gone.has(g) {
                    continue;
                }
                let across = &self.faces[g];
                let sees = across.n.dot(w - self.verts[across.idx[0] as usize].w) > eps;
                let (a, b) = (idx[e], idx[NEXT[e]]);
                let fan = if sees { None } else { self.plane(a as usize, b as usize, wi).filter(|p| p.1 >= floor) };
                match fan {
                    Some(fan) => {
                        let edge = HorizonEdge { a, b, across: g as u16, edge: 0, fan };
                        overflow |= horizon.try_push(edge).is_err();
                    }
                    None => {
                        gone.add(g);
                        stack.push(g as u16);
                    }
                }
            }
        }
        // The horizon: edges of the patch whose other face stays. Each was met while the patch grew, with that face
        // not (yet) in the patch and its fan face valid: the edges kept then, less those whose other face joined the
        // patch later. Past their room, the horizon is collected again from the patch.
        if overflow {
            match self.horizon(&removed, &gone, wi) {
                Some(edges) => horizon = edges,
                None => return false,
            }
        }
        // Each edge kept with its index in the kept face (the same edge walked the other way); an edge is moved only
        // when one before it was dropped.
        let mut kept = 0;
        for i in 0..horizon.len() {
            let h = &mut horizon[i];
            if gone.has(h.across as usize) {
                continue;
            }
            let other = self.faces[h.across as usize].idx;
            let Some(edge) = (0..3).find(|&k| other[k] == h.b && other[NEXT[k]] == h.a) else {
                return false;
            };
            h.edge = edge as u8;
            if kept != i {
                horizon[kept] = horizon[i];
            }
            kept += 1;
        }
        horizon.truncate(kept);
        // The edges kept while growing are the ones collected from the patch, planes and all (checked in tests).
        debug_assert!(self.horizon(&removed, &gone, wi).is_some_and(|again| {
            let key = |h: &HorizonEdge<V>| (h.a, h.b, h.across, h.fan);
            again.len() == horizon.len() && again.iter().zip(&horizon).all(|(x, y)| key(x) == key(y))
        }));
        let mut order = ArrayVec::<u8, MAX_HORIZON>::new();
        if !self.simple_loop(&horizon, &mut order) {
            return false;
        }
        let k = order.len();
        // Room: the fan takes the patch's slots first, then free ones, then new ones.
        let spare = self.free.len() + (MAX_FACES - self.faces.len());
        if k > removed.len() + spare {
            return false;
        }
        let mut slots = ArrayVec::<u16, MAX_HORIZON>::new();
        for i in 0..k {
            let slot = if i < removed.len() {
                removed[i]
            } else if let Some(s) = self.free.pop() {
                s
            } else {
                self.faces.push(self.faces[0]);
                self.dist.push(self.dist[0]);
                (self.faces.len() - 1) as u16
            };
            slots.push(slot);
        }
        for &f in &removed[k.min(removed.len())..] {
            self.faces[f as usize].live = false;
            self.dist[f as usize] = V::Real::INFINITY;
            self.free.push(f);
        }
        // Fan face i is (a_i, b_i, w): across edge 0 the kept face, across edge 1 (b_i → w) the next fan face,
        // across edge 2 (w → a_i) the previous one.
        for (pos, &i) in order.iter().enumerate() {
            let h = horizon[i as usize];
            let slot = slots[pos];
            let (next, prev) = (if pos + 1 == k { 0 } else { pos + 1 }, if pos == 0 { k - 1 } else { pos - 1 });
            let ((n, d), idx) = (h.fan, [h.a, h.b, wi as u16]);
            let adj = [h.across, slots[next], slots[prev]];
            self.faces[slot as usize] = Face { idx, adj, n, d, live: true };
            self.dist[slot as usize] = d;
            self.faces[h.across as usize].adj[h.edge as usize] = slot;
        }
        true
    }

    /// The horizon's edges in the order of one simple loop, starting from the first, into `order`: false unless each
    /// vertex starts at most one edge and following the edges from the first comes back to it after visiting all of
    /// them, and not before (a path that repeats an edge before step k cycles, and can then only be back at the first
    /// edge at step k by having passed it earlier). Every edge's start is then the end of the edge before it, so "at
    /// most one edge from each vertex" is "exactly one edge from each vertex the loop reaches".
    fn simple_loop(&mut self, horizon: &[HorizonEdge<V>], order: &mut ArrayVec<u8, MAX_HORIZON>) -> bool {
        let k = horizon.len();
        if k < 3 {
            return false;
        }
        // The edge starting at each vertex, in `self.from` (left all NONE again before returning).
        let mut single = true;
        for (i, h) in horizon.iter().enumerate() {
            let slot = &mut self.from[h.a as usize];
            single &= *slot == NONE;
            *slot = i as u16;
        }
        let mut at = 0usize;
        let mut closed = single;
        if single {
            for step in 0..k {
                if step > 0 && at == 0 {
                    closed = false;
                    break;
                }
                order.push(at as u8);
                match self.from[horizon[at].b as usize] {
                    NONE => {
                        closed = false;
                        break;
                    }
                    next => at = next as usize,
                }
            }
        }
        for h in horizon {
            self.from[h.a as usize] = NONE;
        }
        closed && at == 0
    }
}

/// Vertices the expansion itself may use; the refinement of curved shapes adds its points, and the iterations
/// after them, in the room left above (see `epa::refine`).
const MAIN_VERTS: usize = 128;

/// EPA iterations allowed after a refinement's points are added: enough for the faces around them to close on the
/// refined direction (a few levels of subdivision), few enough that a circle of minimisers — where the lower bound
/// cannot meet the upper one — costs a bounded time.
const EXTRA_ITERATIONS: u32 = 48;

/// Refinements at most: a second one starts from where EPA's lower bound went after the first, in case h has another
/// local minimum there, and adds rings of points (see `epa::refine`).
const REFINEMENTS: u32 = 2;

/// The bounds and counters of a run, carried from the expansion to its continuation after a refinement.
pub(super) struct Bounds<V: Vector> {
    /// The least support value seen: an upper bound on the depth.
    pub(super) upper: V::Real,
    /// The direction it was seen along.
    pub(super) upper_dir: V,
    pub(super) iterations: u32,
    pub(super) scale: V::Real,
    /// Iterations and vertices allowed.
    pub(super) cap: (u32, usize),
}

impl<V: Vector> Bounds<V> {
    pub(super) fn new(scale: V::Real, cap: (u32, usize)) -> Self {
        Self { upper: V::Real::INFINITY, upper_dir: V::zero(), iterations: 0, scale, cap }
    }

    /// Takes the support value `h` seen along `n` as the upper bound when it is lower.
    pub(super) fn seen(&mut self, h: V::Real, n: V) {
        if h < self.upper {
            (self.upper, self.upper_dir) = (h, n);
        }
    }
}

/// What the refinement of a curved pair has done (see `epa::refine`).
struct Refinement<V: Vector> {
    rounds: u32,
    /// The last refined direction.
    aim: Option<V>,
    /// The support point there when it is a smooth minimum of h.
    smooth: Option<DiffVertex<V>>,
    /// The upper bound the last refinement found.
    upper: V::Real,
}

impl<V: Vector3> Refinement<V> {
    /// Called where EPA would stop: refines the direction of the nearest face on the support function, adds the
    /// points found to the polytope and allows more iterations. False (EPA stops) after the last round, or when
    /// the last refinement's answer already meets the lower bound, or there is no room.
    fn resume(
        &mut self,
        poly: &mut Polytope<V>,
        support: &mut dyn FnMut(V) -> DiffVertex<V>,
        bounds: &mut Bounds<V>,
        rel_tol: V::Real,
        eps: V::Real,
    ) -> bool {
        let lower = poly.faces[poly.nearest_face()];
        let met = self.upper - lower.d <= rel_tol * lower.d.abs() + eps;
        if self.rounds >= REFINEMENTS || (self.rounds > 0 && met) || poly.verts.len() >= MAX_VERTS {
            return false;
        }
        // Rings only when the first refinement's points were not enough for the bounds to meet.
        let refined = refine(support, lower.n, self.rounds > 0);
        self.rounds += 1;
        self.upper = refined.upper;
        bounds.seen(refined.upper, refined.upper_dir);
        for p in &refined.points {
            bounds.scale = bounds.scale.max(p.w.max_abs());
            poly.insert(*p, eps);
        }
        self.aim = Some(refined.direction);
        self.smooth = refined.smooth.then_some(refined.points[0]);
        bounds.cap = (bounds.iterations + EXTRA_ITERATIONS, MAX_VERTS);
        true
    }
}

/// Runs EPA from GJK's final simplex (any number of vertices; the origin on or inside it). With `curved`, the
/// direction EPA ends on is refined on the support function itself and the expansion goes on around it (see
/// `epa::refine`).
pub fn expand<V: Vector3>(
    start: &[DiffVertex<V>],
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    max_iterations: u32,
    rel_tol: V::Real,
    mut report: Report<'_, V>,
    curved: bool,
) -> Result<Expansion<V>, Flat<V>> {
    let mut poly = Polytope {
        verts: ArrayVec::new(),
        faces: ArrayVec::new(),
        dist: ArrayVec::new(),
        free: ArrayVec::new(),
        from: [NONE; MAX_VERTS],
    };
    for v in start.iter().take(4) {
        if !poly.contains(v.w) {
            poly.verts.push(*v);
        }
    }
    let scale = start.iter().fold(V::Real::ZERO, |m, v| m.max(v.w.max_abs()));
    // The rounding allowance of the expansion's tests (a support point in front of a face by more than this sees it):
    // 64 ulps of the largest coordinate. It was 1000, which folded the polytope by up to that where the coordinates
    // are long and the depth short: a box 2250 long round a hull 0.3 wide, in f32, kept a face 0.27 behind a support
    // point, and its depth came out 0.045 for 0.2056 (gjk-fuzz seed 1 case 4403; tests/penetration.rs).
    let eps = V::Real::from_f64(64.0) * V::Real::EPSILON * scale.max(V::Real::from_f64(1e-300));
    blow_up(&mut poly, support, eps)?;
    let inside = (0..4).fold(V::zero(), |s, i| s + poly.verts[i].w) * V::Real::from_f64(0.25);
    for [i, j, k] in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
        let mut face = poly.face(i, j, k).ok_or_else(|| flat_answer(&poly.verts[..4]))?;
        if face.n.dot(poly.verts[i].w - inside) < V::Real::ZERO {
            face = poly.face(i, k, j).ok_or_else(|| flat_answer(&poly.verts[..4]))?;
        }
        poly.faces.push(face);
        poly.dist.push(face.d);
    }
    if !poly.link() {
        return Err(flat_answer(&poly.verts[..4]));
    }
    let mut bounds = Bounds::new(scale, (max_iterations, MAIN_VERTS));
    let mut refinement = curved.then_some(Refinement { rounds: 0, aim: None, smooth: None, upper: V::Real::INFINITY });
    let status = iterate(&mut poly, support, &mut bounds, &mut refinement, rel_tol, eps, &mut report);
    let nearest = poly.faces[poly.nearest_face()];
    // The answer's face: where the refined direction leaves the polytope, else the nearest.
    let aim = refinement.as_ref().and_then(|r| r.aim);
    let best = aim.and_then(|u| poly.face_toward(u)).map_or(nearest, |f| poly.faces[f]);
    // A facet of A − B may be split into coplanar triangles whose distances tie to rounding; the witnesses come
    // from the one that holds the origin's projection (the others would give a vertex or an edge of theirs).
    let foot = best.n * best.d;
    let tie = V::Real::from_f64(64.0) * V::Real::EPSILON * bounds.scale.max(best.d.abs());
    let mut pick = (V::Real::INFINITY, [DiffVertex::default(); 3], crate::simplex::Barycentric::vertex(0));
    for (_, f) in poly.live().filter(|(_, f)| (f.d - best.d).abs() <= tie) {
        let face = f.idx.map(|i| poly.verts[i as usize]);
        let mut bc = closest_to_origin(&face.map(|v| v.w));
        if bc.mask == 0b111 {
            // Inside the face: weights of its own foot, well conditioned on slivers.
            bc.lambda[..3].copy_from_slice(&weights(face.map(|v| v.w), f.n * f.d));
        }
        let miss = (bc.combine(&face.map(|v| v.w)) - foot).length_squared();
        if miss < pick.0 {
            pick = (miss, face, bc);
        }
    }
    let (miss, face, bc) = pick;
    let witness = DiffVertex {
        w: bc.combine(&face.map(|v| v.w)),
        a: bc.combine(&face.map(|v| v.a)),
        b: bc.combine(&face.map(|v| v.b)),
        dir: best.n,
    };
    // A polytope's nearest face holds the origin's projection, unless rounding folded the polytope there and
    // stopped EPA before its bounds met: an f32 sliver 98 long and 0.017 wide, its normal 1.5e-3 rad off, the bounds
    // 0.0049 apart (within 1024 ulps of 51), where the origin's projection fell 0.87 beyond the nearest face and the
    // witnesses it gave broke `point_b − point_a = distance · normal` by 0.93 (gjk-fuzz seed 59 case 2067).
    let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
    let noise = rel_tol * nearest.d.abs() + V::Real::from_f64(8.0) * V::Real::EPSILON * bounds.scale;
    let folded = miss > rounding * rounding && bounds.upper - nearest.d > noise;
    let (normal, depth, witness) = match refinement {
        // Curved: the answer is a point of A − B and the direction to it, so that the deepest points differ by
        // exactly depth · normal — the refined support point at a smooth minimum, on the boundary itself; else the
        // point of the face nearest the origin (on an edge of A − B's exposed face when a face of the polytope
        // straddles a kink).
        Some(Refinement { smooth: Some(s), .. }) => {
            let answer = toward(s).unwrap_or((best.n, best.d, witness));
            // The direction to a support point is good to ε·size / depth: where that leaves its support value
            // above the point's distance by more than rounding (a depth of 1e-10 between shapes of size 1), the
            // faces around it may do better (see `least_support`).
            let excess = answer.0.dot(support(answer.0).w) - answer.1;
            if excess <= tie {
                answer
            } else {
                let band = (bounds.upper - nearest.d).max(V::Real::ZERO) + tie;
                least_support(&poly, support, nearest.d + band, &bounds, s).unwrap_or(answer)
            }
        }
        // A face on a kink of h (curved pairs), or a polytope folded by rounding: the faces within the bounds answer
        // (see `least_support`).
        _ if curved || folded => {
            let band = (bounds.upper - nearest.d).max(V::Real::ZERO) + tie;
            least_support(&poly, support, nearest.d + band, &bounds, witness).unwrap_or((best.n, best.d, witness))
        }
        _ => (best.n, best.d, witness),
    };
    let (normal, depth, witness) = if nearest.d.min(bounds.upper) <= rounding {
        touching((normal, depth, witness), start, &bounds, rounding, support)
    } else {
        (normal, depth, witness)
    };
    // The exact depth lies between the nearest face's distance and the smallest support value seen; the answer's
    // depth is at least the former, and within the same span or above it.
    let error_bound = (bounds.upper.max(depth) - nearest.d).max(V::Real::ZERO);
    let iterations = bounds.iterations;
    let (witness_a, witness_b) = (witness.a, witness.b);
    let (lower, scale) = (nearest.d, bounds.scale);
    Ok(Expansion { normal, depth, witness_a, witness_b, iterations, status, error_bound, lower, scale })
}

/// Most faces [`least_support`] tries (one support call each).
const LEAST_SUPPORT_FACES: usize = 16;

/// At a minimum of h on a kink (the exposed face of A − B an edge or a facet, as the parallelogram where two
/// cylinders' side lines meet), the polytope's faces there are all within rounding of the same distance, but the
/// slivers among them — a stencil point and its neighbour, √ε apart, with a far vertex — have normals only as
/// good as rounding over √ε (1e-8 rad): their depth is right and their direction is not. Of the faces whose
/// distance is at most `limit` and whose foot (the origin's projection) lies within reach of them, this answers
/// with the one whose normal has the least support value h — the direction proven closest to the minimum — and
/// its foot as the point, from the face's vertices by the weights of their plane (so `point_b − point_a =
/// distance · normal` stays exact). The reach is a few stencil widths (4√ε of `scale`, the size of A − B's points
/// near the origin): the face with the good normal is a large one across the exposed facet, and the foot may fall
/// just beyond it, in the slivers (two concentric cylinders: the parallelogram's centre, on its diagonal, moved by
/// the stencil); weights a few √ε negative then keep A's and B's points on the lines of their exposed faces.
/// `fallback` is tried first (the direction to it, and within rounding of the origin the direction it was found
/// along), and kept on ties; then the direction of the least support value seen (`bounds.upper_dir`, with the point
/// where it leaves the polytope), which need not be the normal of a face within reach: an ellipsoid 1e-6 into the
/// cap of a cylinder 50,471 wide left 54 faces within the bounds, 53 of them with the cap's normal to rounding but
/// the origin's projection far outside them, and the one it fell in 3e-6 rad off, along which the rim
/// reached 0.149 farther, while the refinement had seen the cap's normal itself (gjk-fuzz seed 61 case 1465).
fn least_support<V: Vector3>(
    poly: &Polytope<V>,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    limit: V::Real,
    bounds: &Bounds<V>,
    fallback: DiffVertex<V>,
) -> Option<(V, V::Real, DiffVertex<V>)> {
    let scale = bounds.scale;
    let reach = V::Real::from_f64(4.0) * V::Real::EPSILON.sqrt() * scale;
    // The fallback is a point of A − B and the direction it was found along. The direction to the point is only
    // good to ε·size / depth, and none at all at rounding depth: a ball's centre on a degenerate ellipsoid (radii 0,
    // 9e-11, 0.33) gave a point 5e-17 from the origin whose direction, noise, had a support value of 0.32 while the
    // one it was found along had 4e-11 (gjk-fuzz seed 1 case 822). So within rounding of the origin (1024 ε of the
    // size) the direction it was found along is tried too: the point's lateral part, which breaks
    // `point_b − point_a = distance · normal`, is then within rounding as well.
    let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * scale;
    let dir = fallback.dir.normalize_or_zero();
    let own = (dir != V::zero() && fallback.w.length() <= rounding).then(|| (dir, dir.dot(fallback.w), fallback));
    let mut best = None;
    let mut best_h = V::Real::INFINITY;
    // Then the direction of the least support value seen, and the point where it leaves the polytope.
    for answer in [toward(fallback), own, along(poly, bounds.upper_dir)].into_iter().flatten() {
        let h = answer.0.dot(support(answer.0).w);
        if best.is_none() || h < best_h {
            (best, best_h) = (Some(answer), h);
        }
    }
    let mut best = best?;
    let candidates = poly.live().filter(|(_, f)| f.d <= limit).take(LEAST_SUPPORT_FACES);
    for (_, f) in candidates {
        let face = f.idx.map(|i| poly.verts[i as usize]);
        let bc = closest_to_origin(&face.map(|v| v.w));
        if (bc.combine(&face.map(|v| v.w)) - f.n * f.d).length() > reach {
            continue;
        }
        let lambda = weights(face.map(|v| v.w), f.n * f.d);
        let combine = |p: [V; 3]| p[0] * lambda[0] + p[1] * lambda[1] + p[2] * lambda[2];
        let foot = DiffVertex {
            w: combine(face.map(|v| v.w)),
            a: combine(face.map(|v| v.a)),
            b: combine(face.map(|v| v.b)),
            dir: f.n,
        };
        // The direction to the foot, and the face's own normal: the foot is a combination of vertices as large as
        // the shapes, so its direction is only good to ε·size / depth — 1.8e-5 rad for a depth of 1e-6 against a
        // box 87,432 long, whose support along it then moved by 1.59 (gjk-fuzz seed 31 case 14807) —, where the
        // normal of a wide face, from its edges, is good to ε. The one with the lesser support value wins.
        let candidates = [toward(foot), Some((f.n, f.d, foot))];
        for answer in candidates.into_iter().flatten() {
            let h = answer.0.dot(support(answer.0).w);
            if h < best_h {
                (best, best_h) = (answer, h);
            }
        }
    }
    Some(best)
}

/// The direction `u` as an answer: the point where the ray from the origin along `u` leaves the polytope, from its
/// face's vertices by the weights of that point in the face's plane, and its distance. `None` for a zero `u` or a
/// ray that meets no face.
fn along<V: Vector3>(poly: &Polytope<V>, u: V) -> Option<(V, V::Real, DiffVertex<V>)> {
    let f = poly.faces[poly.face_toward(u)?];
    let t = f.d / f.n.dot(u);
    let face = f.idx.map(|i| poly.verts[i as usize]);
    let lambda = weights(face.map(|v| v.w), u * t);
    let combine = |p: [V; 3]| p[0] * lambda[0] + p[1] * lambda[1] + p[2] * lambda[2];
    let point = DiffVertex { w: u * t, a: combine(face.map(|v| v.a)), b: combine(face.map(|v| v.b)), dir: u };
    t.is_finite().then_some((u, t, point))
}

/// The answer when the shapes may just touch: the nearest face at zero distance to `rounding` (or the least
/// support value seen). It stays as EPA gave it where it is consistent with the bounds — no deeper than the least
/// support value seen, along a direction whose support value is not above it, at a point of A − B no farther —
/// and each part that is not is replaced: the normal by the direction of the least support value, the depth and
/// the point by zero and the point of contact GJK found (its final simplex holds the origin, so its combinations of
/// A's and of B's points are one point of both). The error bound (the least support value minus the nearest
/// face's distance) holds the true depth either way.
///
/// EPA's polytope can be wrong there. Around an origin on A − B's boundary it can fold flat: for a point on a
/// cylinder's rim, the faces fanned from support points on the cap's plane keep the origin `0` behind them on both
/// sides of a fin that no longer holds the origin, and the faces tied with the nearest then all miss it — the point
/// picked on them was 0.49 from the origin, the depth 0.49 where it is 0 (gjk-fuzz seed 31 case 2849; the other
/// order answered 0). On a cone's rim the depth came out 1.2e-5 for a least support value of 4e-10, and on a
/// cylinder's bottom rim the normal was that of a face through the origin, 0.32 from supporting A − B.
pub(super) fn touching<V: Vector>(
    (normal, depth, witness): (V, V::Real, DiffVertex<V>),
    start: &[DiffVertex<V>],
    bounds: &Bounds<V>,
    rounding: V::Real,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
) -> (V, V::Real, DiffVertex<V>) {
    let reach = bounds.upper + rounding;
    let normal = if normal.dot(support(normal).w) <= reach { normal } else { bounds.upper_dir };
    if depth <= reach && witness.w.length() <= reach {
        return (normal, depth, witness);
    }
    let mut w = [V::zero(); 4];
    let n = start.len().min(V::DIM + 1);
    for (wi, v) in w.iter_mut().zip(&start[..n]) {
        *wi = v.w;
    }
    let bc = closest_to_origin(&w[..n]);
    let point = |f: fn(&DiffVertex<V>) -> V| {
        let mut p = [V::zero(); 4];
        for (pi, v) in p.iter_mut().zip(&start[..n]) {
            *pi = f(v);
        }
        bc.combine(&p[..n])
    };
    let (a, b) = (point(|v| v.a), point(|v| v.b));
    (normal, V::Real::ZERO, DiffVertex { w: a - b, a, b, dir: normal })
}

/// A point of A − B as an answer: the unit direction to it, its distance, and the point. `None` at the origin.
pub(super) fn toward<V: Vector>(p: DiffVertex<V>) -> Option<(V, V::Real, DiffVertex<V>)> {
    let len = p.w.length();
    (len > V::Real::ZERO && len.is_finite()).then(|| (p.w * (V::Real::ONE / len), len, p))
}

/// EPA's loop: expand the nearest face until the bounds meet, the point found is already a vertex or cannot be
/// added, or the caps of `bounds` are reached — and then, for a curved pair, refine and go on (see
/// [`Refinement::resume`]).
fn iterate<V: Vector3>(
    poly: &mut Polytope<V>,
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    bounds: &mut Bounds<V>,
    refinement: &mut Option<Refinement<V>>,
    rel_tol: V::Real,
    eps: V::Real,
    report: &mut Report<'_, V>,
) -> Status {
    let curved = refinement.is_some();
    let mut resume = |poly: &mut Polytope<V>, bounds: &mut Bounds<V>, support: &mut dyn FnMut(V) -> DiffVertex<V>| {
        refinement.as_mut().is_some_and(|r| r.resume(poly, support, bounds, rel_tol, eps))
    };
    loop {
        let nearest = poly.nearest_face();
        let best = poly.faces[nearest];
        // The iteration cap may be reached before asking for a point (no iterations allowed at all).
        if bounds.iterations >= bounds.cap.0 {
            let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
            let status = if bounds.upper - best.d <= rounding { Status::Converged } else { Status::MaxIterations };
            if resume(poly, bounds, support) {
                continue;
            }
            return status;
        }
        bounds.iterations += 1;
        let w = support(best.n);
        bounds.seen(best.n.dot(w.w), best.n);
        bounds.scale = bounds.scale.max(w.w.max_abs());
        let noise = V::Real::from_f64(8.0) * V::Real::EPSILON * bounds.scale;
        let upper = bounds.upper;
        // The bounds meet and, on a polytope, the nearest face is a face of A − B (no support point in front of
        // it): its normal is the answer's, not only its distance (see `dim2`; gjk-fuzz seed 3 case 385).
        let face = curved || best.n.dot(w.w) - best.d <= rel_tol * best.d.abs() + noise;
        let met = upper - best.d <= rel_tol * best.d.abs() + noise && face;
        // The faces before this iteration, kept for the observer only (expanding replaces some of them).
        let observed = report.is_some().then(|| poly.face_indices(nearest));
        let nv = poly.verts.len();
        // A point that cannot be added with the bounds still apart is as far as this precision goes: say so, unless
        // the bounds already meet to within the rounding of the numbers in play.
        let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * bounds.scale;
        let stalled = |full: bool| {
            if upper - best.d <= rounding {
                Status::Converged
            } else if full {
                Status::MaxIterations
            } else {
                Status::Stalled
            }
        };
        let full = poly.verts.len() >= bounds.cap.1;
        let end = if met {
            Some(Status::Converged)
        } else if poly.contains(w.w) {
            Some(stalled(false))
        } else if full || !poly.expand(w, nearest, eps, best.d - eps) {
            Some(stalled(full))
        } else if bounds.iterations >= bounds.cap.0 {
            Some(stalled(true))
        } else {
            None
        };
        // Where the expansion ends, a curved pair goes on after a refinement: for the observer, the step continues.
        let end = end.filter(|_| !resume(poly, bounds, support));
        if let (Some(report), Some((faces, nf, at))) = (report.as_mut(), observed) {
            report(&Progress {
                iteration: bounds.iterations,
                vertices: &poly.verts[..nv],
                faces: &faces[..3 * nf],
                nearest: at,
                normal: best.n,
                lower: best.d,
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

/// Barycentric weights of `x`, a point in the plane of triangle `p`, from the vertex opposite the longest edge and
/// the cross products of its two edges with the face normal: on a sliver (two vertices close together, the third far
/// away) the point they combine back to is within rounding of `x`, where weights from the sub-triangles' projected
/// areas carry the rounding of the sliver's small area (1e-10 of the size for a sliver 3e-7 wide).
fn weights<V: Vector3>(p: [V; 3], x: V) -> [V::Real; 3] {
    let len = |i: usize| (p[(i + 2) % 3] - p[(i + 1) % 3]).length_squared();
    let k = (1..3).fold(0, |m, i| if len(i) > len(m) { i } else { m });
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let (e1, e2, r) = (p[i] - p[k], p[j] - p[k], x - p[k]);
    // |n|² is the fourth power of the size and leaves the precision's range for f32 faces past ~1e9 or below
    // ~1e-10: the same ratios are then taken with m, n brought into range (in range m = n and m·n = |n|²).
    let n = e1.cross(e2);
    let (m, _) = n.in_square_range();
    let nn = m.dot(n);
    if !(nn > V::Real::ZERO && nn.is_finite()) {
        return [V::Real::ONE / V::Real::from_f64(3.0); 3];
    }
    let s = r.cross(e2).dot(m) / nn;
    let t = e1.cross(r).dot(m) / nn;
    let mut out = [V::Real::ZERO; 3];
    (out[i], out[j], out[k]) = (s, t, V::Real::ONE - s - t);
    out
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
        // From the two shortest edges (see `triangle_normal`): on a flat A − B that is a long thin parallelogram
        // (a capsule's core 1.4e-10 long across another's 0.29) the triangle can hold a diagonal, and its two
        // long edges, 5e-10 rad apart, crossed to a normal 2e-7 rad off — the depth along it 4.7e-9 too deep.
        let n = triangle_normal(p0, poly.verts[1].w, poly.verts[2].w).normalize_or_zero();
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
    let n = triangle_normal(verts[0].w, verts[1].w, verts[2].w).normalize_or_zero();
    flat_with_normal(&verts[..3], if n == V::zero() { V::axis(1) } else { n })
}
