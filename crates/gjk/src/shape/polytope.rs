use super::hull::{hull2, hull3, HullKind};
use super::polygon_search::AngleIndex;
use super::ray_span::{decide, Span};
use super::{check_point, length_unscaled, Aabb, Feature, ShapeError, SupportMap};
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use crate::math::{Real, Vector};
use crate::simplex::facet_normal;
use alloc::{vec, vec::Vec};

/// Vertex count from which a 3D [`ConvexPolytope`] finds its support point by hill-climbing over the vertex graph
/// instead of scanning every vertex. Measured by callgrind on whole queries (the benchmark's hull cells, three
/// regimes × distance, contact, intersection; geometric mean of scan ÷ climb instructions, the scan vectorised over
/// a coordinate-major copy of the vertices): 3D f32 0.81 at 24 vertices, 0.86 at 32, 0.92 at 40, 0.97 at 48, 1.21
/// at 64; 3D f64 0.92, 0.99, 1.06, 1.13, 1.44. The two precisions together break even between 40 and 48 (the
/// vertex-by-vertex scan broke even at 24). Timed, the scan does better than its instruction count: at 32 vertices
/// it beat the climb in every cell, f64 included (−7 to −32 %). Polygons (2D) never climb: a polygon's graph is a
/// cycle, so climbing walks one vertex per step and measured 1.1–1.6× slower than the scan at every size from 8
/// to 2048; from [`POLYGON_SEARCH_MIN_VERTICES`](super::POLYGON_SEARCH_MIN_VERTICES) vertices they binary-search
/// their edge normals' angles instead (O(log n)), below it they scan.
pub const HILL_CLIMB_MIN_VERTICES: usize = 48;

/// A convex polygon (2D) or polyhedron (3D): the convex hull of a point cloud.
///
/// Degenerate clouds are valid shapes: a single (or repeated) point, collinear points (a segment), coplanar points
/// in 3D (a flat polygon). The hull keeps its vertex adjacency, so the support function on large hulls walks
/// uphill from the previous answer (or, after a large turn of the direction, from a precomputed vertex near the
/// answer) instead of scanning every vertex.
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
    /// 2D); empty for flat, collinear and single-point hulls. Exact ray casts clip against them. Built and kept in
    /// f64 from the vertices (exact in f64): an f32 normal is good to ~1e-7 rad only, which far from the vertices
    /// moves a plane by more than a thin hull is thick ([`super::ray64`]).
    planes: Vec<([f64; 3], f64)>,
    /// Mean of the vertices (computed in V's precision, kept exactly in f64), so a query's first search direction
    /// does not sum every vertex again. Not kept as a `V`: an f32 `Vec3` field is 12 bytes, and the compiler loads
    /// it as 16, the 4th lane being whatever follows it in the struct (the hull kind's byte and padding). Those
    /// bits read as a subnormal f32, and the 4-wide multiply of the first direction on that lane then took a
    /// microcode assist on every query: the 3D f32 hull cells ran 1.3–5× slower in a full benchmark run (3D f32
    /// hull32 separated intersection 215 ns vs 62 ns; fast again with the CPU's flush-to-zero set, or with this
    /// field). Converted back lane by lane, the vector carries no stray bits.
    centroid: [f64; 3],
    /// The largest |vertex|: [`SupportMap::farthest_core_distance`] from the origin, which rotating casts ask for,
    /// without a pass over the vertices. Kept as f64 (exact for f32 and f64 alike) so the struct needs no bound on V.
    origin_reach: f64,
    /// Where hill-climbing starts (3D hulls that climb): see [`StartTable`].
    starts: StartTable,
    /// The coordinates again, laid out for the scan: see [`Lanes`].
    lanes: Lanes<V>,
    /// Polygons of [`POLYGON_SEARCH_MIN_VERTICES`](super::POLYGON_SEARCH_MIN_VERTICES) vertices or more: their
    /// edge normals' angles, searched in O(log n) for the support vertex (empty otherwise).
    angles: AngleIndex,
    kind: HullKind,
}

/// Vertices per block of [`Lanes`]: two SSE registers of f32, four of f64.
const LANES: usize = 8;

/// The vertices' coordinates laid out so that the scan's dot products vectorise: block by block, the x of
/// [`LANES`] consecutive vertices, then their y (then their z), the last block padded with copies of vertex 0.
///
/// A block holds `LANES × DIM` reals, exactly the size of `LANES` vertices, so it is stored as `LANES` values of
/// `V` used as plain storage (real `k` of a block is coordinate `k % DIM` of its value `k / DIM`): the struct then
/// needs no bound on `V` to name the scalar type.
#[derive(Clone, Debug, PartialEq)]
struct Lanes<V> {
    packed: Vec<V>,
}

impl<V> Default for Lanes<V> {
    fn default() -> Self {
        Self { packed: Vec::new() }
    }
}

/// Support vertices of a fixed set of directions, so a climb can start next to its answer instead of wherever the
/// previous one ended (the first support call of a query starts at vertex 0, and early GJK directions turn far).
///
/// The directions are the centres of an `n × n` grid on each face of the cube \[-1, 1\]³ (a cube map): a direction
/// falls in the cell of the face its largest coordinate points at, and the cell's vertex supports a direction at
/// most half a cell away, a few edges from the answer. `n` grows with the vertex count so that the table has about
/// as many entries as the hull has vertices (capped at 16 × 16 per face: 6 KB).
#[derive(Clone, Debug, Default, PartialEq)]
struct StartTable {
    /// Cells per face side (0: no table).
    n: usize,
    /// n / 2, as a float: a direction's coordinate in [-1, 1] times this, plus this, is its cell.
    half: f64,
    /// The support vertex of each cell's centre direction, face by face, row by row.
    vertex: Vec<u32>,
}

impl StartTable {
    /// The largest grid side; a finer grid costs cache space and saves less than a climb step.
    const MAX_SIDE: usize = 16;

    /// Hulls smaller than this climb from the hint alone. Measured by callgrind on the benchmark's distance cells
    /// (3D f64): with the table, hull2048 nearly touching −34 % instructions, hull256 −9 to −14 %, hull32 +1 to
    /// +4 % (a 2 × 2 grid per face saves too little on so short a climb to pay for the lookup).
    const MIN_VERTICES: usize = 64;

    /// The table of a hull that climbs, built by climbing from cell to neighbouring cell.
    fn new<V: Vector>(hull: &ConvexPolytope<V>) -> Self {
        let n = (Real::sqrt(hull.vertices.len() as f64 / 6.0).round() as usize).clamp(1, Self::MAX_SIDE);
        let mut vertex = Vec::with_capacity(6 * n * n);
        let mut last = 0;
        for face in 0..6 {
            for row in 0..n {
                for col in 0..n {
                    let dir = Self::centre::<V>(n, face, row, col);
                    last = hull.climb(dir, (last, hull.vertices[last].dot(dir)));
                    vertex.push(last as u32);
                }
            }
        }
        Self { n, half: 0.5 * n as f64, vertex }
    }

    /// The centre direction of a cell: ±1 on the face's axis k, the cell's centre on the axes k + 1 and k + 2.
    fn centre<V: Vector>(n: usize, face: usize, row: usize, col: usize) -> V {
        let k = face / 2;
        let at = |i: usize| V::Real::from_f64((2.0 * i as f64 + 1.0) / n as f64 - 1.0);
        V::from_fn(|i| match (i + 3 - k) % 3 {
            0 if face % 2 == 1 => -V::Real::ONE,
            0 => V::Real::ONE,
            1 => at(row),
            _ => at(col),
        })
    }

    /// The table's vertex for `dir` (any valid vertex for a zero or non-finite `dir`).
    #[inline]
    fn lookup<V: Vector>(&self, dir: V) -> usize {
        let (x, y, z) = (dir.get(0), dir.get(1), dir.get(2));
        let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
        // The face: the axis k of the largest coordinate, its sign; then the coordinates on k + 1 and k + 2.
        let (k, m, u, w) = if ax >= ay && ax >= az {
            (0, x, y, z)
        } else if ay >= az {
            (1, y, z, x)
        } else {
            (2, z, x, y)
        };
        let half = self.half;
        // u / |m| and w / |m| lie in [-1, 1]; scaled by half and shifted by half they index the cells.
        let scale = half / m.abs().to_f64();
        if !scale.is_finite() {
            return self.vertex[0] as usize;
        }
        // A float-to-integer cast saturates (and takes NaN to 0), so the index stays in range; through i64 and a
        // clamp, the same cells as `as usize` then `min(n - 1)` in fewer instructions.
        let last = self.n as i64 - 1;
        let cell = |c: V::Real| ((c.to_f64() * scale + half) as i64).clamp(0, last) as usize;
        let face = 2 * k + usize::from(m < V::Real::ZERO);
        self.vertex[(face * self.n + cell(u)) * self.n + cell(w)] as usize
    }
}

impl<V: Vector> Lanes<V> {
    fn new(vertices: &[V]) -> Self {
        let blocks = vertices.len().div_ceil(LANES);
        // Padding copies vertex 0: a padded lane ties with vertex 0, which the scan finds first.
        let vertex = |i: usize| vertices.get(i).copied().unwrap_or(vertices[0]);
        let real = |b: usize, k: usize| vertex(b * LANES + k % LANES).get(k / LANES);
        let packed =
            (0..blocks).flat_map(|b| (0..LANES).map(move |j| V::from_fn(|c| real(b, j * V::DIM + c)))).collect();
        Self { packed }
    }

    /// Coordinate `c` of lane `l` of a block.
    #[inline(always)]
    fn coord(block: &[V], c: usize, l: usize) -> V::Real {
        let k = c * LANES + l;
        block[k / V::DIM].get(k % V::DIM)
    }

    /// The dot products of a block's vertices with `dir`, each summed in `Vector::dot`'s order (x, then y, then
    /// z), so that they are the very numbers the vertex-by-vertex scan compares.
    #[inline(always)]
    fn dots(block: &[V], dir: V) -> [V::Real; LANES] {
        core::array::from_fn(|l| {
            let mut d = Self::coord(block, 0, l) * dir.get(0);
            for c in 1..V::DIM {
                d += Self::coord(block, c, l) * dir.get(c);
            }
            d
        })
    }

    /// Index of the vertex farthest along `dir`, the lowest on ties, 0 when vertex 0's dot product is NaN:
    /// exactly the vertex-by-vertex scan's answer, in two passes. The first finds the largest dot product, each
    /// lane keeping its own maximum (no index to carry along, so the loop is a multiply-add and a max per
    /// lane); the second finds the first block holding it, and in it the first lane. Measured by callgrind on
    /// 2D f64 polygon64 separated distance: one pass carrying each lane's best block took −10 % instructions over
    /// the vertex-by-vertex scan (the selects on the block numbers spill registers), the two passes −24 %.
    fn scan(&self, dir: V) -> usize {
        let mut blocks = self.packed.chunks_exact(LANES);
        let first = Self::dots(blocks.next().expect("a vertex"), dir);
        if self.packed.len() == LANES {
            // One block (up to 8 vertices): its dot products, vectorised, then the sequential scan over them
            // (padding lanes copy vertex 0 and never beat it; a NaN at lane 0 is never beaten either). Callgrind,
            // 2D f64 polygon8: −8 % to −14 % instructions over the two passes.
            return Self::first_largest(&first);
        }
        // The sequential scan starts from vertex 0's value and no value is `>` a NaN one (NaN != NaN).
        #[allow(clippy::eq_op)]
        if first[0] != first[0] {
            return 0;
        }
        let mut lane_max = [-V::Real::INFINITY; LANES];
        Self::keep_larger(&mut lane_max, first);
        for block in blocks.clone() {
            Self::keep_larger(&mut lane_max, Self::dots(block, dir));
        }
        // top is reached: it is the largest of the values that are not NaN, vertex 0's among them.
        let top = Self::max(lane_max);
        if let Some(l) = Self::first_equal(first, top) {
            return l;
        }
        for (b, block) in blocks.enumerate() {
            if let Some(l) = Self::first_equal(Self::dots(block, dir), top) {
                return (b + 1) * LANES + l;
            }
        }
        0
    }

    /// The first index of the largest value by strict `>` from index 0, as the vertex-by-vertex scan compares.
    #[inline(always)]
    fn first_largest(d: &[V::Real; LANES]) -> usize {
        let mut best = 0;
        for l in 1..LANES {
            if d[l] > d[best] {
                best = l;
            }
        }
        best
    }

    /// Lane by lane, the larger of `m` and `d`, keeping `m` where `d` is NaN (as the sequential `>` never keeps
    /// a NaN; `Real::max` would).
    #[inline(always)]
    fn keep_larger(m: &mut [V::Real; LANES], d: [V::Real; LANES]) {
        for l in 0..LANES {
            m[l] = if d[l] > m[l] { d[l] } else { m[l] };
        }
    }

    /// The largest of values none of which is NaN, by halving the lanes.
    #[inline(always)]
    fn max(mut v: [V::Real; LANES]) -> V::Real {
        let mut width = LANES / 2;
        while width > 0 {
            for l in 0..width {
                v[l] = if v[l + width] > v[l] { v[l + width] } else { v[l] };
            }
            width /= 2;
        }
        v[0]
    }

    /// The first lane equal to `top`, tested for all lanes at once first (the common miss costs no per-lane
    /// branch).
    #[inline(always)]
    fn first_equal(d: [V::Real; LANES], top: V::Real) -> Option<usize> {
        if d.iter().fold(false, |any, &x| any | (x == top)) {
            d.iter().position(|&x| x == top)
        } else {
            None
        }
    }
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
        let centroid = mean(&vertices).to_f64_array();
        let origin_reach = vertices.iter().map(|&v| length_unscaled(v).to_f64()).fold(0.0, f64::max);
        let mut hull = Self {
            vertices,
            offsets,
            adjacency,
            face_offsets,
            faces,
            face_normals: Vec::new(),
            planes: Vec::new(),
            centroid,
            origin_reach,
            starts: StartTable::default(),
            lanes: Lanes::default(),
            angles: AngleIndex::default(),
            kind,
        };
        hull.face_normals = hull.faces().map(|f| hull.outward_normal(f)).collect();
        hull.planes = hull.bounding_planes();
        if hull.climbs() && hull.vertices.len() >= StartTable::MIN_VERTICES {
            hull.starts = StartTable::new(&hull);
        }
        // Every hull has its lanes: `support_hinted` scans them without checking on hulls that do not climb, and
        // `support` (the scan) uses them at every size, so a hull that climbs pays a second copy of its
        // coordinates for a scan as fast as the small hulls' (the benchmark's scan-or-climb crossover measures it).
        hull.lanes = Lanes::new(&hull.vertices);
        if V::DIM == 2 && hull.kind == HullKind::Polygon {
            hull.angles = AngleIndex::new(&hull.vertices);
        }
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
        let n = facet_normal(&p).unwrap_or_else(V::zero);
        if self.is_solid() && (p[0] - self.center()).dot(n) < V::Real::ZERO {
            -n
        } else {
            n
        }
    }

    /// The half-spaces n·x ≤ h of a solid hull's facets, in f64: its faces in 3D (Newell's normal of the face's
    /// cycle), its edges (consecutive vertices) in 2D, turned away from the centroid. h is the largest n·v over
    /// the facet's vertices, so a face merged from points coplanar only to rounding errs on the outside by that
    /// rounding, never cutting into the hull.
    fn bounding_planes(&self) -> Vec<([f64; 3], f64)> {
        use super::ray64::{add, cross, dot, sub, unit};
        if !self.is_solid() {
            return Vec::new();
        }
        let at = |i: u32| self.vertices[i as usize].to_f64_array();
        // The mean in f64: an f32 centroid is off by more than a sliver of a hull is thick, and would turn its
        // planes the wrong way.
        let count = self.vertices.len() as f64;
        let centre = (0..self.vertices.len() as u32).fold([0.0; 3], |c, i| add(c, at(i)));
        let centre = [centre[0] / count, centre[1] / count, centre[2] / count];
        let plane = |normal: [f64; 3], facet: &[u32]| {
            let n = if dot(normal, sub(at(facet[0]), centre)) < 0.0 {
                [-normal[0], -normal[1], -normal[2]]
            } else {
                normal
            };
            let h = facet.iter().map(|&i| dot(n, at(i))).fold(f64::NEG_INFINITY, f64::max);
            (n, h)
        };
        let mut planes = Vec::new();
        if V::DIM == 3 {
            for f in self.faces() {
                let area = (0..f.len()).fold([0.0; 3], |s, k| add(s, cross(at(f[k]), at(f[(k + 1) % f.len()]))));
                if let Some(n) = unit(area) {
                    planes.push(plane(n, f));
                }
            }
            return planes;
        }
        let k = self.vertices.len() as u32;
        for i in 0..k {
            let edge = [i, (i + 1) % k];
            let e = sub(at(edge[1]), at(edge[0]));
            if let Some(n) = unit([e[1], -e[0], 0.0]) {
                planes.push(plane(n, &edge));
            }
        }
        planes
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

    /// True when the support function climbs the vertex graph rather than scanning (3D hulls of
    /// [`HILL_CLIMB_MIN_VERTICES`] or more, with a vertex graph, which every such hull has).
    fn climbs(&self) -> bool {
        V::DIM == 3 && self.vertices.len() >= HILL_CLIMB_MIN_VERTICES && !self.adjacency.is_empty()
    }

    /// Where to climb from for `dir`: the previous answer `hint` or the start table's vertex, whichever is
    /// farther along `dir` (the hint wins while directions converge, the table after a large turn).
    ///
    /// Inlined, so that `dir` arrives in registers: passed through memory just after the caller computed it, an
    /// f64 direction stalls on store forwarding (profiled at a sixth of 3D f64 hull256 penetrating contact).
    ///
    /// Returns the start with its dot product with `dir`, which the climb would otherwise compute again.
    #[inline]
    fn climb_start(&self, dir: V, hint: u32) -> (usize, V::Real) {
        if self.starts.n == 0 {
            let start = (hint as usize).min(self.vertices.len() - 1);
            return (start, self.vertices[start].dot(dir));
        }
        let table = self.starts.lookup(dir);
        let table_dot = self.vertices[table].dot(dir);
        match self.vertices.get(hint as usize).map(|h| h.dot(dir)) {
            Some(hint_dot) if hint_dot > table_dot => (hint as usize, hint_dot),
            _ => (table, table_dot),
        }
    }

    /// Index of the vertex farthest along `dir`, scanning all of them (ties: the lowest index), through the
    /// coordinate-major [`Lanes`].
    #[inline]
    fn scan(&self, dir: V) -> usize {
        self.lanes.scan(dir)
    }

    /// Index of the vertex farthest along `dir`, walking from `start` to a better neighbour while there is one.
    /// On a convex polytope a vertex no neighbour of which is better is a global maximum, so the walk is exact;
    /// it strictly increases the dot product, so it cannot revisit a vertex and ends within `n` steps.
    fn climb(&self, dir: V, (start, start_dot): (usize, V::Real)) -> usize {
        let mut cur = start;
        let mut cur_dot = start_dot;
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
        let i = if self.angles.is_empty() { self.scan(dir) } else { self.angles.support(&self.vertices, dir) };
        let n = self.vertices.len();
        if n == 1 || V::DIM != 2 && n > 2 {
            return out.single(self.vertices[i], i as u32);
        }
        let c = self.center();
        let (prev, next) = ((i + n - 1) % n, (i + 1) % n);
        let score = |j: usize| {
            let e = [self.vertices[i], self.vertices[j]];
            facet_normal(&e).map_or(V::Real::ZERO, |m| {
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
        if !self.angles.is_empty() {
            return self.vertices[self.angles.support(&self.vertices, dir)];
        }
        self.vertices[self.scan(dir)]
    }

    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        // Hill-climbing needs the vertex graph; a hull without one (never expected) is scanned. A hull that does
        // not climb always has lanes: going to them straight keeps this path as short as the old inlined scan
        // (through `scan`'s check, 2D f64 polygon8 cells took up to 8 % more instructions).
        let i = if self.climbs() {
            self.climb(dir, self.climb_start(dir, *hint))
        } else if !self.angles.is_empty() {
            // Large polygons: the binary search over edge normals (see `polygon_search`).
            self.angles.support_hinted(&self.vertices, dir, *hint)
        } else {
            self.lanes.scan(dir)
        };
        *hint = i as u32;
        self.vertices[i]
    }

    fn center(&self) -> V {
        V::from_fn(|i| V::Real::from_f64(self.centroid[i]))
    }

    #[inline]
    fn polygon_cycle(&self) -> Option<&[V]> {
        // The angle index exists only for a 2D cycle checked strictly convex and counter-clockwise in f64, and
        // `support_hinted` then leaves the index of its answer in the hint.
        (V::DIM == 2 && !self.angles.is_empty()).then_some(&self.vertices[..])
    }

    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }

    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The distance to a point is convex: largest at a vertex.
        if from == V::zero() {
            return V::Real::from_f64(self.origin_reach);
        }
        self.vertices.iter().fold(V::Real::ZERO, |m, &v| m.max(length_unscaled(v - from)))
    }

    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        if self.face_normals.is_empty() {
            return self.support_edge(dir, out);
        }
        // Of the faces around the support vertex, the one whose outward normal is closest to dir. (The closest
        // normal over all faces may belong to a face that does not reach the support vertex: dir's normal cone can
        // be long and thin, with another vertex's face normal nearer dir than its own corners.)
        let top = self.scan(dir);
        let ring = |f: usize| &self.faces[self.face_offsets[f] as usize..self.face_offsets[f + 1] as usize];
        let mut best: Option<usize> = None;
        for (f, n) in self.face_normals.iter().enumerate() {
            if ring(f).contains(&(top as u32)) && best.is_none_or(|b| n.dot(dir) > self.face_normals[b].dot(dir)) {
                best = Some(f);
            }
        }
        let Some(best) = best.filter(|&b| ring(b).len() <= super::MAX_FEATURE_POINTS) else {
            return out.single(self.vertices[top], top as u32);
        };
        let face = ring(best);
        out.reset(best as u32);
        for &i in face {
            out.push(self.vertices[i as usize], i);
        }
    }

    /// Exact, in f64: through the facets' half-spaces on a hull with volume, where the ray crosses it on a 2D
    /// segment or a flat 3D polygon. A point, a 3D segment, or a ray running along a flat hull (met only within
    /// rounding) takes the GJK cast.
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        use super::ray64::{crossing_polygon, crossing_segment, halfspaces, Span64};
        let (o64, d64) = (o.to_f64_array(), d.to_f64_array());
        let span = if !self.planes.is_empty() {
            halfspaces(&self.planes, o64, d64)
        } else {
            let at = |i: usize| self.vertices[i].to_f64_array();
            match (self.kind, V::DIM) {
                (HullKind::Segment, 2) => crossing_segment(at(0), at(1), o64, d64)?,
                (HullKind::Polygon, 3) => {
                    let ring = self.faces().next()?;
                    crossing_polygon(ring.len(), |k| at(ring[k] as usize), o64, d64)?
                }
                _ => return None,
            }
        };
        let to_v = |s: Span64| Span {
            t_in: V::Real::from_f64(s.t_in),
            n_in: V::from_f64_slice(&s.n_in),
            t_out: V::Real::from_f64(s.t_out),
            n_out: V::from_f64_slice(&s.n_out),
        };
        Some(decide(span.map(to_v), max_toi, solid))
    }

    fn local_aabb(&self) -> Aabb<V> {
        let first = Aabb::new(self.vertices[0], self.vertices[0]);
        self.vertices.iter().fold(first, |b, v| Aabb::new(b.min.min_elem(*v), b.max.max_elem(*v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    /// Points on the unit sphere from a fixed linear congruential sequence (deterministic, no dependency).
    fn sphere_points(n: usize, seed: u64) -> Vec<DVec3> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        (0..n).map(|_| DVec3::new(next(), next(), next()).normalize()).collect()
    }

    /// The climb from whatever start (table, hint, stale or out-of-range hint) reaches a vertex as far along the
    /// direction as the scan's, on hulls with and without a start table, for random directions, the cube map's
    /// edges and corners (ties between faces), and zero, tiny, huge and non-finite directions.
    #[test]
    fn hinted_support_matches_the_scan_from_any_hint() {
        for n in [50, 300, 2000] {
            let hull = ConvexPolytope::new(&sphere_points(n, n as u64)).unwrap();
            assert!(hull.climbs());
            assert_eq!(hull.starts.n > 0, hull.vertices.len() >= StartTable::MIN_VERTICES);
            let mut dirs = sphere_points(200, 7);
            dirs.extend([
                DVec3::X,
                -DVec3::Y,
                DVec3::new(1.0, 1.0, 0.0),
                DVec3::splat(-1.0),
                DVec3::new(1e-300, 0.0, 0.0),
            ]);
            dirs.extend([DVec3::new(1e300, -1e300, 3.0), DVec3::ZERO, DVec3::new(f64::NAN, 1.0, 0.0)]);
            let mut hint = 0;
            for (k, &d) in dirs.iter().enumerate() {
                let mut hints = [hint, 0, u32::MAX, (k * 7919 % n) as u32];
                for h in &mut hints {
                    let p = hull.support_hinted(d, h);
                    assert_eq!(p, hull.vertices[*h as usize]);
                    if d.is_finite() {
                        assert_eq!(p.dot(d), hull.support(d).dot(d), "n {n}, direction {d}");
                    }
                }
                hint = hints[0];
            }
        }
    }

    #[test]
    fn start_table_in_f32_points_near_the_answer() {
        let pts: Vec<Vec3> = sphere_points(1000, 3).iter().map(|p| p.as_vec3()).collect();
        let hull = ConvexPolytope::new(&pts).unwrap();
        for d in sphere_points(100, 11) {
            let d = d.as_vec3();
            let start = hull.vertices[hull.starts.lookup(d)];
            // The cell's centre is within about 0.2 rad of d, so its vertex is nearly as far along d.
            assert!(start.dot(d) > hull.support(d).dot(d) - 0.1);
        }
    }

    /// The vertex-by-vertex scan, written out: the lanes must give its answer bit for bit.
    fn sequential<V: Vector>(points: &[V], dir: V) -> usize {
        let mut best = 0;
        for (i, p) in points.iter().enumerate() {
            if p.dot(dir) > points[best].dot(dir) {
                best = i;
            }
        }
        best
    }

    /// The lanes' scan against the sequential one on every prefix (1 to 70 points, most not a multiple of
    /// [`LANES`]) of three clouds: random points, and small-integer points (exact ties among many points,
    /// duplicates) under random, small-integer (axis, diagonal) and non-finite directions (all NaN, or NaN only
    /// where an infinite coordinate meets a zero one, vertex 0's included).
    fn lanes_match_the_sequential_scan<V: Vector>() {
        let f = |x: f64| V::Real::from_f64(x);
        let random = sphere_points(70, 5);
        let mut s = 17u64;
        let mut small = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as f64 % 5.0 - 2.0
        };
        let grid: Vec<V> = (0..70).map(|_| V::from_fn(|_| f(small()))).collect();
        let mut axis_first = grid.clone();
        axis_first[0] = V::from_fn(|i| f(if i == 0 { 0.0 } else { 1.0 }));
        let clouds = [random.iter().map(|p| V::from_fn(|i| f(p[i] * 3.0))).collect::<Vec<V>>(), grid, axis_first];
        let mut dirs: Vec<V> = sphere_points(50, 9).iter().map(|d| V::from_fn(|i| f(d[i]))).collect();
        for code in 0..27 {
            dirs.push(V::from_fn(|i| f((code / 3usize.pow(i as u32) % 3) as f64 - 1.0)));
        }
        dirs.push(V::from_fn(|_| f(f64::NAN)));
        dirs.push(V::from_fn(|i| f(if i == 0 { f64::NAN } else { 1.0 })));
        dirs.push(V::from_fn(|i| f(if i == 0 { f64::INFINITY } else { 1.0 })));
        dirs.push(V::from_fn(|i| f(if i == 0 { -f64::INFINITY } else { 0.5 })));
        for cloud in &clouds {
            for n in 1..=cloud.len() {
                let lanes = Lanes::new(&cloud[..n]);
                assert_eq!(lanes.packed.len(), n.div_ceil(LANES) * LANES);
                for &d in &dirs {
                    assert_eq!(lanes.scan(d), sequential(&cloud[..n], d), "{n} points, direction {d:?}");
                }
            }
        }
    }

    #[test]
    fn lanes_match_the_sequential_scan_3d_f64() {
        lanes_match_the_sequential_scan::<DVec3>();
    }

    #[test]
    fn lanes_match_the_sequential_scan_3d_f32() {
        lanes_match_the_sequential_scan::<Vec3>();
    }

    #[test]
    fn lanes_match_the_sequential_scan_2d_f64() {
        lanes_match_the_sequential_scan::<DVec2>();
    }

    #[test]
    fn lanes_match_the_sequential_scan_2d_f32() {
        lanes_match_the_sequential_scan::<Vec2>();
    }

    /// Hulls that scan go through the lanes and agree with the sequential scan, ties included (a cuboctahedron's
    /// squares along axis directions, a prism's two polygons along z); hulls that climb scan through lanes too.
    #[test]
    fn hull_scan_uses_the_lanes_and_matches_the_sequential_scan() {
        let mut prism: Vec<DVec3> = Vec::new();
        for k in 0..12 {
            let a = k as f64 * core::f64::consts::TAU / 12.0;
            prism.extend([DVec3::new(a.cos(), a.sin(), 0.0), DVec3::new(a.cos(), a.sin(), 1.0)]);
        }
        // The cuboctahedron: (±1, ±1, 0) and its coordinate rotations; four vertices tie along each axis.
        let cuboctahedron: Vec<DVec3> = (0..12)
            .map(|i| {
                let (a, b) = (if i & 1 == 0 { 1.0 } else { -1.0 }, if i & 2 == 0 { 1.0 } else { -1.0 });
                [DVec3::new(a, b, 0.0), DVec3::new(0.0, a, b), DVec3::new(b, 0.0, a)][i / 4]
            })
            .collect();
        let mut dirs = sphere_points(100, 13);
        for code in 0..27 {
            dirs.push(DVec3::from_fn(|i| (code / 3usize.pow(i as u32) % 3) as f64 - 1.0));
        }
        dirs.push(DVec3::NAN);
        for points in [prism, cuboctahedron, sphere_points(HILL_CLIMB_MIN_VERTICES - 1, 2)] {
            let hull = ConvexPolytope::new(&points).unwrap();
            assert!(!hull.climbs() && !hull.lanes.packed.is_empty());
            for &d in &dirs {
                assert_eq!(hull.scan(d), sequential(&hull.vertices, d), "direction {d}");
            }
        }
        let polygon: Vec<DVec2> = sphere_points(300, 4).iter().map(|p| p.truncate().normalize()).collect();
        let hull = ConvexPolytope::new(&polygon).unwrap();
        assert!(hull.vertices.len() > HILL_CLIMB_MIN_VERTICES && !hull.lanes.packed.is_empty());
        for &d in &dirs {
            assert_eq!(hull.scan(d.truncate()), sequential(&hull.vertices, d.truncate()));
        }
        let big = ConvexPolytope::new(&sphere_points(300, 6)).unwrap();
        assert!(big.climbs());
        for &d in &dirs {
            assert_eq!(big.scan(d), sequential(&big.vertices, d), "direction {d}");
        }
        let tetrahedron = ConvexPolytope::new(&sphere_points(4, 6)).unwrap();
        assert_eq!(tetrahedron.lanes.packed.len(), LANES);
    }
}
