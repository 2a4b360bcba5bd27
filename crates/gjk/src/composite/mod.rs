//! Shapes that are not one support map: triangle meshes (and 2D polylines), compounds of convex parts, height
//! fields, and the half-space.
//!
//! Every composite is a set of convex *leaves* (a triangle, a segment, a posed part, a grid cell's triangle) found
//! through a [`Bvh`]. The queries of [`crate::query`] walk the tree and run the convex algorithms (GJK, EPA,
//! manifolds, casts) on the leaves only, so each leaf keeps its exactness, status and error bound; the composite's
//! answer is the best over its leaves. [`Composite`] is the small interface those walks need.

mod compound;
mod facet;
mod halfspace;
mod heightfield;
mod obj;
mod topology;
mod trimesh;

pub use compound::Compound;
pub use facet::{Facet, FeatureMask};
pub use halfspace::HalfSpace;
pub use heightfield::HeightField;
pub use obj::{parse_obj, ObjError, ObjObject};
pub use topology::FLAT_RIDGE_COS;
pub use trimesh::{Polyline, TriMesh};

use crate::bvh::Bvh;
use crate::gjk::{distance, Status};
use crate::math::{Iso, Vector};
use crate::shape::{Point, SupportMap};

/// A shape made of convex leaves indexed `0..n` and found through a [`Bvh`] in the shape's own frame.
///
/// Implemented by [`TriMesh`], [`Compound`] and [`HeightField`]; the queries in [`crate::query`] accept any
/// implementation. Only [`bvh`](Composite::bvh), [`leaf`](Composite::leaf) and
/// [`contains_local`](Composite::contains_local) are required; the rest have general defaults that a shape
/// overrides with something exact or faster.
pub trait Composite<V: Vector> {
    /// The convex leaf type (a [`Facet`] for meshes and height fields, a reference to a part for compounds).
    type Leaf<'a>: SupportMap<V>
    where
        Self: 'a;

    /// The tree over the leaves, in the shape's frame (primitive `i` is leaf `i`).
    fn bvh(&self) -> &Bvh<V>;

    /// Leaf `id`, in the frame given by [`leaf_pose`](Composite::leaf_pose).
    fn leaf(&self, id: u32) -> Self::Leaf<'_>;

    /// Where leaf `id`'s frame sits in the shape's frame (`None`: the same frame, as for mesh triangles).
    #[inline]
    fn leaf_pose(&self, id: u32) -> Option<&Iso<V>> {
        let _ = id;
        None
    }

    /// Whether the shape encloses volume and `p` (shape frame) is inside it. Always false for surfaces (open
    /// meshes): only their leaves are the shape.
    fn contains_local(&self, p: V) -> bool;

    /// True when points off the leaves can be inside the shape (a closed mesh, a compound, below a height field).
    fn is_solid(&self) -> bool;

    /// Exact ray cast of leaf `id` in the shape's frame: `(time, unit normal against the ray)` within `max_t`.
    fn leaf_ray_cast(&self, id: u32, origin: V, dir: V, max_t: V::Real) -> Option<(V::Real, V)> {
        let pose = self.leaf_pose(id).copied().unwrap_or_default();
        let r = crate::cast::ray_cast(&self.leaf(id), &pose, origin, dir, max_t, true);
        (r.hit && r.status != Status::MaxIterations).then_some((r.toi, r.normal))
    }

    /// The point of leaf `id` closest to `p` (shape frame), or `p` itself when `p` is inside the leaf.
    fn leaf_closest_point(&self, id: u32, p: V) -> V {
        let pose = self.leaf_pose(id).copied().unwrap_or_default();
        let d = distance(&self.leaf(id), &pose, &Point { at: V::zero() }, &Iso::from_translation(p));
        if d.intersecting {
            p
        } else {
            d.point_a
        }
    }

    /// Leaf `id`'s corners (shape frame) when it is a triangle in 3D: the contact and penetration queries then
    /// answer a box or a capsule against it in closed form instead of GJK and EPA. `None` (the default) otherwise.
    #[inline]
    fn leaf_triangle(&self, id: u32) -> Option<[V; 3]> {
        let _ = id;
        None
    }

    /// For a one-sided leaf (a facet of a solid mesh or of a height field), its unit outward normal (shape frame):
    /// a contact on it pushes only outward. `None` (the default) for leaves with volume or two-sided facets.
    fn outward(&self, id: u32) -> Option<V> {
        let _ = id;
        None
    }

    /// The unit normal of leaf `id` (shape frame, the facet's own orientation) when it is a facet none of whose
    /// ridges is active: [`correct_normal`](Composite::correct_normal) then turns every normal on it into this one
    /// (one side or the other), so a query need not find the contact's own normal first. `None` (the default)
    /// otherwise.
    fn flat_leaf(&self, id: u32) -> Option<V> {
        let _ = id;
        None
    }

    /// The normal a contact on leaf `id` at `point` (shape frame, on the leaf) should use, given the leaf's own
    /// `normal` (shape frame): meshes replace the normals of inactive ridges (ghost contacts) by the face's.
    fn correct_normal(&self, id: u32, point: V, normal: V) -> V {
        let _ = (id, point);
        normal
    }
}
