use super::facet::{Facet, FeatureMask};
use super::topology::{self, Topology};
use super::Composite;
use crate::bvh::{point_box_distance_squared, Bvh};
use crate::math::{Real, Vector, Vector2, Vector3};
use crate::shape::{check_point, Aabb, ShapeError};
use alloc::vec::Vec;

/// A mesh of facets — triangles in 3D, segments in 2D (a polyline or a polygon soup) — indexed into a vertex list
/// and built once into a [`Bvh`].
///
/// A mesh is *solid* when it is closed and consistently oriented (every edge shared by exactly two triangles that
/// traverse it in opposite directions; in 2D every vertex ends one segment and starts another): a point inside it
/// is then inside the shape, decided by the pseudo-normal of its closest feature. Any other mesh is a *surface*: a
/// shape below an open mesh that touches no triangle does not intersect it. Ridges (edges in 3D, vertices in 2D)
/// between two facets bent by less than a degree are inactive: contacts there take the face's normal, so a box
/// sliding over a flat tessellated floor is never knocked by an interior edge (a ghost contact).
///
/// ```
/// use gjk::composite::TriMesh;
/// use gjk::math::DVec3;
/// // A unit square floor made of two triangles, wound counter-clockwise seen from above.
/// let floor = TriMesh::new(
///     vec![DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(0.0, 0.0, -1.0)],
///     vec![[0, 1, 2], [0, 2, 3]],
/// ).unwrap();
/// assert!(!floor.is_solid());
/// assert_eq!(floor.facet_count(), 2);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh<V: Vector> {
    vertices: Vec<V>,
    /// Corner indices per facet (3D: three; 2D: two, the third repeats the second).
    facets: Vec<[u32; 3]>,
    bvh: Bvh<V>,
    topology: Topology<V>,
}

/// A 2D [`TriMesh`]: segments.
pub type Polyline<V> = TriMesh<V>;

impl<V: Vector3> TriMesh<V> {
    /// A triangle mesh. Errors on a non-finite vertex or an index out of range; degenerate triangles (repeated or
    /// collinear corners) are valid.
    pub fn new(vertices: Vec<V>, triangles: Vec<[u32; 3]>) -> Result<Self, ShapeError> {
        Self::build(vertices, triangles)
    }
}

impl<V: Vector2> TriMesh<V> {
    /// A 2D mesh of segments: a polyline, a closed polygon (solid when every vertex ends one segment and starts
    /// the next), or any soup of segments.
    pub fn from_segments(vertices: Vec<V>, segments: &[[u32; 2]]) -> Result<Self, ShapeError> {
        Self::build(vertices, segments.iter().map(|s| [s[0], s[1], s[1]]).collect())
    }

    /// The polyline through `points` in order, closed back to the first point when `closed`.
    pub fn polyline(points: Vec<V>, closed: bool) -> Result<Self, ShapeError> {
        let n = points.len() as u32;
        let count = if closed && n > 2 { n } else { n.saturating_sub(1) };
        let segments: Vec<[u32; 2]> = (0..count).map(|i| [i, (i + 1) % n]).collect();
        Self::from_segments(points, &segments)
    }
}

impl<V: Vector> TriMesh<V> {
    fn build(vertices: Vec<V>, facets: Vec<[u32; 3]>) -> Result<Self, ShapeError> {
        for v in &vertices {
            check_point("mesh vertex", *v)?;
        }
        if facets.iter().flatten().any(|&i| i as usize >= vertices.len()) {
            return Err(ShapeError::Invalid("a mesh index is out of range"));
        }
        let boxes: Vec<Aabb<V>> = facets.iter().map(|f| facet_of(&vertices, f).local_aabb_exact()).collect();
        let bvh = Bvh::new(&boxes);
        let topology = topology::build(&vertices, &facets);
        Ok(Self { vertices, facets, bvh, topology })
    }

    /// The vertices.
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// Corner indices of each facet (in 2D the third repeats the second).
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.facets
    }

    /// Number of facets.
    pub fn facet_count(&self) -> usize {
        self.facets.len()
    }

    /// Facet `i` in the mesh's frame.
    #[inline]
    pub fn facet(&self, i: u32) -> Facet<V> {
        facet_of(&self.vertices, &self.facets[i as usize])
    }

    /// True when the mesh is closed and consistently oriented: it encloses a volume (an area in 2D).
    pub fn is_solid(&self) -> bool {
        self.topology.solid.is_some()
    }

    /// The tree over the facets.
    pub fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }

    /// Moves the vertices (same count; the facets keep their corners) and refits the tree: a deforming mesh. The
    /// topology (solidity, active ridges) is kept from construction.
    pub fn set_vertices(&mut self, vertices: Vec<V>) -> Result<(), ShapeError> {
        if vertices.len() != self.vertices.len() {
            return Err(ShapeError::Invalid("a deformed mesh keeps its vertex count"));
        }
        for v in &vertices {
            check_point("mesh vertex", *v)?;
        }
        self.vertices = vertices;
        let boxes: Vec<Aabb<V>> = self.facets.iter().map(|f| facet_of(&self.vertices, f).local_aabb_exact()).collect();
        self.bvh.refit(&boxes);
        Ok(())
    }

    /// Heap bytes held: vertices, indices, tree and topology.
    pub fn memory_bytes(&self) -> usize {
        let v = core::mem::size_of::<V>();
        let solid = self
            .topology
            .solid
            .as_ref()
            .map_or(0, |s| (s.face.capacity() + s.ridge.capacity() + s.vertex.capacity()) * v);
        self.vertices.capacity() * v
            + self.facets.capacity() * 12
            + self.bvh.memory_bytes()
            + self.topology.active.capacity()
            + solid
    }

    /// The closest point of the mesh to `p` (mesh frame) within `max_distance`: (point, facet, feature of the
    /// facet), by branch and bound over the tree with exact point–facet projections.
    pub(crate) fn closest_facet(&self, p: V, max_distance: V::Real) -> Option<(V, u32, FeatureMask)> {
        let mut best = None;
        let limit = max_distance * max_distance;
        self.bvh.closest_first(
            limit,
            |b| point_box_distance_squared(p, b),
            |i, bound| {
                let (q, mask) = self.facet(i).closest_point(p);
                let d = (q - p).length_squared();
                (d <= bound).then(|| {
                    best = Some((q, i, mask));
                    d
                })
            },
        );
        best
    }

    /// Whether `p` (mesh frame) is inside a solid mesh: the sign of `p − q` along the pseudo-normal of the feature
    /// holding its closest point `q` (a point on the surface counts as inside). Always false for a surface.
    pub fn contains_local_point(&self, p: V) -> bool {
        let Some(solid) = &self.topology.solid else { return false };
        let Some((q, f, mask)) = self.closest_facet(p, V::Real::INFINITY) else { return false };
        let d = p - q;
        if d == V::zero() {
            return true;
        }
        let pseudo = match (mask.count_ones() as usize, V::DIM) {
            (n, dim) if n == dim => solid.face[f as usize],
            (1, 3) => solid.vertex[self.facets[f as usize][mask.trailing_zeros() as usize] as usize],
            // A ridge: an edge (two corners, 3D) named by its first corner in winding order, or a corner (2D).
            (_, dim) => solid.ridge[f as usize * dim + ridge_of(mask, dim)],
        };
        d.dot(pseudo) < V::Real::ZERO
    }

    /// Turns a contact normal on facet `f` at `point` (a point of the facet, mesh frame) into the face's normal
    /// (same side) when the feature it comes from is an inactive ridge or a corner with no active ridge: the
    /// normal of a ghost contact. A point within a relative 1e-7 of a ridge counts as on it.
    pub(crate) fn correct_normal(&self, f: u32, point: V, normal: V) -> V {
        correct_normal(|| self.facet(f), self.topology.active[f as usize], point, normal)
    }
}

/// A contact normal on `facet` at `point` (a point of the facet), given the facet's active ridges (bit `k` for
/// ridge `k`): the face's normal (same side) when the contact comes from an inactive ridge or a corner with no
/// active ridge — a ghost contact — else `normal` unchanged. The facet is built only when one of its ridges is
/// inactive: with every ridge active (a sharp edge of a building, a coarse mesh's every triangle) no feature can
/// be a ghost, whatever the point.
pub(crate) fn correct_normal<V: Vector>(facet: impl FnOnce() -> Facet<V>, active: u8, point: V, normal: V) -> V {
    // Bit k for ridge k: three edges in 3D, two corners in 2D.
    let all = if V::DIM == 3 { 0b111 } else { 0b11 };
    if active & all == all {
        return normal;
    }
    let facet = &facet();
    let Some(face) = facet.normal() else { return normal };
    let along = normal.dot(face);
    let signed = if along < V::Real::ZERO { -face } else { face };
    // Already the face's normal (to rounding): nothing to correct.
    if along.abs() > V::Real::ONE - V::Real::from_f64(64.0) * V::Real::EPSILON {
        return normal;
    }
    // Which corners the point is near: barycentric weights below a relative tolerance count as zero.
    let mask = near_features(facet, point);
    let inactive = match (mask.count_ones() as usize, V::DIM) {
        (n, dim) if n == dim => return normal,
        (1, 3) => {
            // A corner: the two edges meeting there are ridges k (k → k+1) and k+2 (k+2 → k).
            let k = mask.trailing_zeros() as usize;
            active & (1 << k) == 0 && active & (1 << ((k + 2) % 3)) == 0
        }
        (_, dim) => active & (1 << ridge_of(mask, dim)) == 0,
    };
    if inactive {
        signed
    } else {
        normal
    }
}

/// Ridge index of a feature mask: in 3D the edge `k → k+1` whose two corners are set (corners {0,1} → 0, {1,2} →
/// 1, {2,0} → 2); in 2D the corner itself.
fn ridge_of(mask: FeatureMask, dim: usize) -> usize {
    if dim == 2 {
        mask.trailing_zeros() as usize
    } else {
        match mask & 0b111 {
            0b011 => 0,
            0b110 => 1,
            _ => 2,
        }
    }
}

/// The corners whose barycentric weight in `point` is not negligible (relative 1e-7 in f64, a few hundred ulps
/// in f32): a point within rounding of an edge counts as on it.
fn near_features<V: Vector>(facet: &Facet<V>, point: V) -> FeatureMask {
    let p = facet.points();
    let tol = V::Real::from_f64(1e-7).max(V::Real::from_f64(256.0) * V::Real::EPSILON);
    if V::DIM == 3 {
        // A point over the triangle (within the tolerance: every weight above −tol) has the weights of its foot,
        // which is its closest point: read them from the point itself, without the solver. Contacts lie on the
        // facet, so this is nearly always the case (callgrind, a box on the monastery: the solver here was 5 %).
        let n = super::facet::cross(p[1] - p[0], p[2] - p[0]);
        let nn = n.length_squared();
        if nn > V::Real::ZERO {
            let w = [0, 1, 2].map(|k| {
                let (a, b) = (p[(k + 1) % 3], p[(k + 2) % 3]);
                super::facet::cross(b - a, point - a).dot(n) / nn
            });
            if w.iter().all(|&w| w >= -tol) {
                let mask = (0..3).fold(0u8, |m, k| if w[k] > tol { m | 1 << k } else { m });
                return if mask == 0 { 0b111 } else { mask };
            }
        }
    }
    let (q, _) = facet.closest_point(point);
    // Weights from the signed volumes of the sub-facets opposite each corner, relative to the whole.
    let mut mask = 0u8;
    if V::DIM == 2 {
        let e = p[1] - p[0];
        let ee = e.length_squared();
        if !(ee > V::Real::ZERO) {
            return 1;
        }
        let t = (q - p[0]).dot(e) / ee;
        if t > tol {
            mask |= 2;
        }
        if V::Real::ONE - t > tol {
            mask |= 1;
        }
    } else {
        let n = super::facet::cross(p[1] - p[0], p[2] - p[0]);
        let nn = n.length_squared();
        if !(nn > V::Real::ZERO) {
            return 0b111;
        }
        for k in 0..3 {
            let (a, b) = (p[(k + 1) % 3], p[(k + 2) % 3]);
            let w = super::facet::cross(b - a, q - a).dot(n) / nn;
            if w > tol {
                mask |= 1 << k;
            }
        }
    }
    if mask == 0 {
        0b111
    } else {
        mask
    }
}

#[inline]
fn facet_of<V: Vector>(vertices: &[V], f: &[u32; 3]) -> Facet<V> {
    Facet::new(f.map(|i| vertices[i as usize]))
}

impl<V: Vector> Facet<V> {
    /// The box of the corners.
    #[inline]
    pub(crate) fn local_aabb_exact(&self) -> Aabb<V> {
        crate::shape::SupportMap::local_aabb(self)
    }
}

impl<V: Vector> Composite<V> for TriMesh<V> {
    type Leaf<'a> = Facet<V>;

    #[inline]
    fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }
    #[inline]
    fn leaf(&self, id: u32) -> Facet<V> {
        self.facet(id)
    }
    fn leaf_triangle(&self, id: u32) -> Option<[V; 3]> {
        (V::DIM == 3).then(|| self.facet(id).corners)
    }
    fn leaf_ray_cast(&self, id: u32, origin: V, dir: V, max_t: V::Real) -> Option<(V::Real, V)> {
        self.facet(id).ray_cast(origin, dir, max_t)
    }
    fn leaf_closest_point(&self, id: u32, p: V) -> V {
        self.facet(id).closest_point(p).0
    }
    fn contains_local(&self, p: V) -> bool {
        self.contains_local_point(p)
    }
    fn is_solid(&self) -> bool {
        self.is_solid()
    }
    fn correct_normal(&self, id: u32, point: V, normal: V) -> V {
        TriMesh::correct_normal(self, id, point, normal)
    }
    fn flat_leaf(&self, id: u32) -> Option<V> {
        if self.topology.active[id as usize] == 0 {
            self.facet(id).normal()
        } else {
            None
        }
    }
    fn outward(&self, id: u32) -> Option<V> {
        let n = self.topology.solid.as_ref()?.face[id as usize];
        (n != V::zero()).then_some(n)
    }
}
