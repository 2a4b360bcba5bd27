use super::hull::{hull2, hull3, HullKind};
use super::ray_span::{decide, halfspaces};
use super::{check_point, Aabb, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// Vertex count from which a 3D [`ConvexPolytope`] finds its support point by hill-climbing over the vertex graph
/// instead of scanning every vertex. Measured (bench/RESULTS.md, whole distance queries): break-even at 24
/// vertices, climbing ahead from 32. Polygons (2D) always scan: a polygon's graph is a cycle, so climbing walks one
/// vertex per step and measured 1.1–1.6× slower than the scan at every size from 8 to 2048.
pub const HILL_CLIMB_MIN_VERTICES: usize = 32;

/// A convex polygon (2D) or polyhedron (3D): the convex hull of a point cloud.
///
/// Degenerate clouds are valid shapes: a single (or repeated) point, collinear points (a segment), coplanar points
/// in 3D (a flat polygon). The hull keeps its vertex adjacency, so the support function on large hulls walks
/// uphill from the previous answer instead of scanning every vertex.
///
/// ```
/// use gjk::math::DVec3;
/// use gjk::shape::{ConvexPolytope, SupportMap};
/// let pts = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::splat(0.1)];
/// let hull = ConvexPolytope::new(&pts).unwrap();
/// assert_eq!(hull.vertices().len(), 4); // the interior point is dropped
/// assert_eq!(hull.support(DVec3::new(1.0, 0.2, 0.1)), DVec3::X);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolytope<V> {
    vertices: Vec<V>,
    /// Neighbours of vertex i are `adjacency[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    adjacency: Vec<u32>,
    /// Faces (3D): vertex cycles, counter-clockwise from outside; `faces[face_offsets[f]..face_offsets[f + 1]]`.
    face_offsets: Vec<u32>,
    faces: Vec<u32>,
    /// Outward unit normal of each face.
    face_normals: Vec<V>,
    /// The hull as the half-spaces n·x ≤ h of its facets (faces in 3D, edges in 2D), when it has volume (area in
    /// 2D); empty for flat, collinear and single-point hulls. Exact ray casts clip against them. h is kept as f64
    /// (exact for f32 and f64 alike) so the struct needs no bound on V, which would bind every generic holder.
    planes: Vec<(V, f64)>,
    /// Mean of the vertices, kept so a query's first search direction does not sum every vertex again.
    centroid: V,
    kind: HullKind,
}

impl<V: Vector> ConvexPolytope<V> {
    /// The convex hull of `points`. Errors on an empty set or non-finite coordinates; every other set is valid.
    pub fn new(points: &[V]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::Empty);
        }
        for p in points {
            check_point("convex point", *p)?;
        }
        let coords: Vec<[f64; 3]> = points.iter().map(|p| p.to_f64_array()).collect();
        // The hull is computed in f64 whatever V's precision; only the dimension decides which algorithm.
        let (kind, order, neighbors, faces) = if V::DIM == 2 {
            let flat: Vec<[f64; 2]> = coords.iter().map(|c| [c[0], c[1]]).collect();
            let h = hull2(&flat);
            let n = h.vertices.len();
            let neighbors = (0..n).map(|i| cycle_neighbors(i, n)).collect();
            (h.kind, h.vertices, neighbors, Vec::new())
        } else {
            let h = hull3(&coords);
            (h.kind, h.vertices, h.neighbors, h.faces)
        };
        let vertices: Vec<V> = order.iter().map(|&i| points[i]).collect();
        let (offsets, adjacency) = flatten(&neighbors);
        let (face_offsets, faces) = flatten(&faces);
        let centroid = mean(&vertices);
        let mut hull = Self {
            vertices,
            offsets,
            adjacency,
            face_offsets,
            faces,
            face_normals: Vec::new(),
            planes: Vec::new(),
            centroid,
            kind,
        };
        hull.face_normals = hull.faces().map(|f| hull.outward_normal(f)).collect();
        hull.planes = hull.bounding_planes();
        Ok(hull)
    }

    /// True when the hull has volume (area in 2D): a polyhedron, or a polygon in the plane.
    fn is_solid(&self) -> bool {
        self.kind == HullKind::Polyhedron || V::DIM == 2 && self.kind == HullKind::Polygon
    }

    /// The unit normal of a facet (a face from three of its vertices, counter-clockwise from outside, so the
    /// right-hand rule points out; or a polygon's edge). On a solid hull it is also turned away from the centre,
    /// guarding against rounding (and giving a 2D edge its side).
    fn outward_normal(&self, face: &[u32]) -> V {
        let p: Vec<V> = face.iter().take(3).map(|&i| self.vertices[i as usize]).collect();
        let n = V::facet_normal(&p).unwrap_or_else(V::zero);
        if self.is_solid() && (p[0] - self.center()).dot(n) < V::Real::ZERO {
            -n
        } else {
            n
        }
    }

    /// The half-spaces n·x ≤ h of a solid hull's facets: its faces in 3D, its edges (consecutive vertices) in 2D.
    /// h is the largest n·v over the facet's vertices, so a face merged from points coplanar only to rounding
    /// errs on the outside by that rounding, never cutting into the hull.
    fn bounding_planes(&self) -> Vec<(V, f64)> {
        if !self.is_solid() {
            return Vec::new();
        }
        let plane = |n: V, facet: &[u32]| {
            let h = facet.iter().map(|&i| n.dot(self.vertices[i as usize])).fold(-V::Real::INFINITY, V::Real::max);
            (n, h.to_f64())
        };
        if V::DIM == 3 {
            return self.faces().zip(&self.face_normals).map(|(f, &n)| plane(n, f)).collect();
        }
        let k = self.vertices.len() as u32;
        (0..k)
            .map(|i| {
                let edge = [i, (i + 1) % k];
                plane(self.outward_normal(&edge), &edge)
            })
            .collect()
    }

    /// The hull's vertices (a subset of the input points).
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// What the hull turned out to be: a point, a segment, a flat polygon or a solid polyhedron.
    pub fn kind(&self) -> HullKind {
        self.kind
    }

    /// Neighbours of vertex `i` along hull edges.
    pub fn neighbors(&self, i: usize) -> &[u32] {
        &self.adjacency[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The faces (3D hulls) as cycles of vertex indices, counter-clockwise seen from outside.
    pub fn faces(&self) -> impl Iterator<Item = &[u32]> {
        self.face_offsets.windows(2).map(|w| &self.faces[w[0] as usize..w[1] as usize])
    }

    /// Index of the vertex farthest along `dir`, scanning all of them (ties: the lowest index).
    fn scan(&self, dir: V) -> usize {
        let mut best = 0;
        let mut best_dot = self.vertices[0].dot(dir);
        for (i, v) in self.vertices.iter().enumerate().skip(1) {
            let d = v.dot(dir);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }

    /// Index of the vertex farthest along `dir`, walking from `start` to a better neighbour while there is one.
    /// On a convex polytope a vertex no neighbour of which is better is a global maximum, so the walk is exact;
    /// it strictly increases the dot product, so it cannot revisit a vertex and ends within `n` steps.
    fn climb(&self, dir: V, start: usize) -> usize {
        let mut cur = start;
        let mut cur_dot = self.vertices[cur].dot(dir);
        for _ in 0..self.vertices.len() {
            let mut next = cur;
            for &n in self.neighbors(cur) {
                let d = self.vertices[n as usize].dot(dir);
                if d > cur_dot {
                    next = n as usize;
                    cur_dot = d;
                }
            }
            if next == cur {
                break;
            }
            cur = next;
        }
        cur
    }
}

impl<V: Vector> ConvexPolytope<V> {
    /// A polygon's (or segment's, or point's) supporting feature: of the two edges at the support vertex, the one
    /// whose outward normal is closer to `dir`.
    fn support_edge(&self, dir: V, out: &mut Feature<V>) {
        let i = self.scan(dir);
        let n = self.vertices.len();
        if n == 1 || V::DIM != 2 && n > 2 {
            return out.single(self.vertices[i], i as u32);
        }
        let c = self.center();
        let (prev, next) = ((i + n - 1) % n, (i + 1) % n);
        let score = |j: usize| {
            let e = [self.vertices[i], self.vertices[j]];
            V::facet_normal(&e).map_or(V::Real::ZERO, |m| {
                let m = if (e[0] - c).dot(m) < V::Real::ZERO { -m } else { m };
                m.dot(dir)
            })
        };
        let j = if score(prev) > score(next) { prev } else { next };
        let (a, b) = if j == prev { (j, i) } else { (i, j) };
        out.reset(a as u32);
        out.push(self.vertices[a], a as u32);
        out.push(self.vertices[b], b as u32);
    }
}

/// The two neighbours of position `i` on a cycle of `n` (one for a segment, none for a point).
fn cycle_neighbors(i: usize, n: usize) -> Vec<u32> {
    match n {
        0 | 1 => Vec::new(),
        2 => vec![(1 - i) as u32],
        _ => vec![((i + n - 1) % n) as u32, ((i + 1) % n) as u32],
    }
}

/// The mean of a non-empty set of points.
fn mean<V: Vector>(points: &[V]) -> V {
    let sum = points.iter().fold(V::zero(), |acc, v| acc + *v);
    sum * (V::Real::ONE / V::Real::from_f64(points.len() as f64))
}

/// Compressed-row form of a list of lists.
fn flatten(lists: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::new();
    offsets.push(0);
    for l in lists {
        flat.extend_from_slice(l);
        offsets.push(flat.len() as u32);
    }
    (offsets, flat)
}

impl<V: Vector> SupportMap<V> for ConvexPolytope<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.vertices[self.scan(dir)]
    }

    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        // Hill-climbing needs the vertex graph; a hull without one (never expected) is scanned.
        let i = if V::DIM == 3 && self.vertices.len() >= HILL_CLIMB_MIN_VERTICES && !self.adjacency.is_empty() {
            let start = (*hint as usize).min(self.vertices.len() - 1);
            self.climb(dir, start)
        } else {
            self.scan(dir)
        };
        *hint = i as u32;
        self.vertices[i]
    }

    fn center(&self) -> V {
        self.centroid
    }

    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        if self.face_normals.is_empty() {
            return self.support_edge(dir, out);
        }
        // The face whose outward normal is closest to dir.
        let mut best = 0;
        for (f, n) in self.face_normals.iter().enumerate() {
            if n.dot(dir) > self.face_normals[best].dot(dir) {
                best = f;
            }
        }
        let face = &self.faces[self.face_offsets[best] as usize..self.face_offsets[best + 1] as usize];
        if face.len() > super::MAX_FEATURE_POINTS {
            let i = self.scan(dir);
            return out.single(self.vertices[i], i as u32);
        }
        out.reset(best as u32);
        for &i in face {
            out.push(self.vertices[i as usize], i);
        }
    }

    /// Exact through the facets' half-spaces on a hull with volume; a flat, collinear or single-point hull (no
    /// inside to enter) takes the GJK cast.
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        let planes = self.planes.iter().map(|&(n, h)| (n, V::Real::from_f64(h)));
        (!self.planes.is_empty()).then(|| decide(halfspaces(planes, o, d), max_toi, solid))
    }

    fn local_aabb(&self) -> Aabb<V> {
        let first = Aabb::new(self.vertices[0], self.vertices[0]);
        self.vertices.iter().fold(first, |b, v| Aabb::new(b.min.min_elem(*v), b.max.max_elem(*v)))
    }
}
