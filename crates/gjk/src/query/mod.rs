//! Queries on any pair of shapes — convex, [`HalfSpace`], and composites
//! (`TriMesh`, `Compound`, `HeightField` of [`crate::composite`]) — in 2D and 3D, f32 and f64.
//!
//! ```
//! use gjk::composite::{Compound, TriMesh};
//! use gjk::math::{DVec3, Iso};
//! use gjk::query;
//! use gjk::shape::{Ball, Cuboid};
//! // A floor of two triangles and a ball 0.5 above it.
//! let floor = TriMesh::new(
//!     vec![DVec3::new(-5.0, 0.0, -5.0), DVec3::new(5.0, 0.0, -5.0), DVec3::new(5.0, 0.0, 5.0), DVec3::new(-5.0, 0.0, 5.0)],
//!     vec![[0, 2, 1], [0, 3, 2]],
//! ).unwrap();
//! let ball = Ball::new(0.5).unwrap();
//! let d = query::distance(&floor, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(1.0, 1.0, 2.0)));
//! assert!((d.distance - 0.5).abs() < 1e-12);
//! assert_eq!(d.normal, DVec3::Y);
//! assert!(d.part_a.is_some()); // which triangle
//! // The same call takes two convex shapes, or a compound, or a half-space.
//! let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
//! assert!(query::intersects(&cube, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(0.9, 0.0, 0.0))));
//! ```
//!
//! **How a pair is answered.** Every shape is one of three kinds ([`Shape`]); each query is written once per
//! unordered pair of kinds, and one small double dispatch ([`dispatch`]) picks the function and swaps the
//! arguments when needed, at compile time. A composite is walked through its [`Bvh`](crate::bvh::Bvh) and the convex
//! algorithms run on its leaves only; the answer is the best over the leaves, carrying the leaf (`part_a`/`part_b`),
//! the worst status among the leaves that could have decided it, and an error bound that covers them.

pub mod dispatch;

mod cast;
mod contact;
mod distance;
mod observe;
mod penetration;
mod point;
mod ray;

pub use cast::{shape_cast, time_of_impact, CompositeCast};
pub use contact::{contacts, ContactPoint, Manifold};
pub use dispatch::{Convex, Kind, Shape};
pub use distance::{distance, distance_observed, distance_with, intersects, intersects_observed, Distance};
pub use observe::{LeafRun, Side, WalkCount, WalkObserver, WalkRecorder};
pub use penetration::{penetration, penetration_observed, Penetration};
pub use point::{contains_point, project_point, Projection};
pub use ray::{ray_cast, ray_cast_any, RayHit};

use crate::composite::{Composite, HalfSpace};
use crate::math::{Iso, Real, Vector};
use crate::shape::{Aabb, SupportMap};

/// Leaf `id`'s pose in the world: the composite's pose, then the leaf's own.
#[inline]
pub(crate) fn leaf_world<V: Vector, C: Composite<V>>(c: &C, pc: &Iso<V>, id: u32) -> Iso<V> {
    match c.leaf_pose(id) {
        Some(p) => pc.compose(p),
        None => *pc,
    }
}

/// The box of a convex shape at `pose` seen in a composite's frame at `pc`.
#[inline]
pub(crate) fn box_in<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Iso<V>, pc: &Iso<V>) -> Aabb<V> {
    s.local_aabb().transformed(&pc.relative(pose))
}

/// A half-space at `ph` seen in a frame at `pc`: its unit normal and a point of its boundary plane.
#[inline]
pub(crate) fn plane_in<V: Vector>(h: &HalfSpace<V>, ph: &Iso<V>, pc: &Iso<V>) -> (V, V) {
    let rel = pc.relative(ph);
    (rel.transform_vector(h.normal()), rel.translation)
}

/// Lower bound of the signed distance above the plane `(n, o)` of any point of a box: the box's lowest point
/// along `n`. Finite boxes only (the tree's).
#[inline]
pub(crate) fn box_above_plane<V: Vector>(b: &Aabb<V>, n: V, o: V) -> V::Real {
    let (c, h) = (b.center(), b.half_extents());
    n.dot(c - o) - n.abs_elem().dot(h)
}

/// The less trustworthy of two statuses (a bound reached is a decided answer, as converged).
pub(crate) fn worse(a: crate::gjk::Status, b: crate::gjk::Status) -> crate::gjk::Status {
    use crate::gjk::Status;
    let rank = |s: Status| match s {
        Status::Converged | Status::AboveBound => 0,
        Status::Stalled => 1,
        Status::MaxIterations => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// `max(0, x)`.
#[inline]
pub(crate) fn positive<R: Real>(x: R) -> R {
    x.max(R::ZERO)
}
