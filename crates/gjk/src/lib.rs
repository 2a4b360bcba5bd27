//! # gjk — convex collision detection with the Gilbert–Johnson–Keerthi algorithm
//!
//! Distance, closest points and intersection between convex shapes given by their support functions, in 2D and
//! 3D, in f32 and f64, from one generic implementation.
//!
//! ```
//! use gjk::math::{DVec3, DQuat, Iso};
//! use gjk::shape::{Capsule, Cuboid};
//!
//! let capsule = Capsule::new(1.0, 0.25).unwrap();
//! let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
//! let pose_a = Iso::from_translation(DVec3::new(0.0, 0.0, 2.0));
//! let pose_b = Iso::new(DQuat::from_rotation_z(0.3), DVec3::ZERO);
//!
//! let d = gjk::distance(&capsule, &pose_a, &cube, &pose_b);
//! assert!(!d.intersecting);
//! assert!((d.distance - 1.25).abs() < 1e-12);
//! // The normal is a unit vector from A toward B, and the points satisfy point_b − point_a = distance · normal.
//! assert!(((d.point_b - d.point_a) - d.normal * d.distance).length() < 1e-12);
//! ```
//!
//! * [`math`] — the scalar and vector abstraction ([`math::Vector`] over glam's vectors) and poses ([`math::Iso`]).
//! * [`shape`] — the shapes, their [`shape::SupportMap`] trait and the combinators.
//! * [`simplex`] — the signed-volumes sub-algorithm: the closest point of a simplex to the origin.
//! * [`gjk`](mod@gjk) — the distance and intersection queries, warm starting, statuses.
//! * [`epa`] — penetration depth (signed distance) for overlapping shapes.
//! * [`manifold`] — contact manifolds (up to four points, with stable ids).
//! * [`cast`] — ray casts, linear shape casts and rotating time of impact.
//! * [`batch`] — many queries on every core (feature `rayon`).
//! * [`broadphase`] — which of many bodies may touch, from their bounding boxes (sweep and prune, a dynamic AABB
//!   tree with region queries and ray casts).
//! * [`nd`] — GJK in any dimension ℝᴺ: distance and witness simplices of point sets, points, segments, balls.
//! * [`trace`] — the observer hook that sees every step.
//! * [`witness`] — which of a shape's input points hold a distance answer's witness points (box corners,
//!   segment ends, a point set's rows), for front ends that report the witness simplices.
//!
//! ## Features
//!
//! * `std` (default) — the platform's float functions. Without it the crate is `#![no_std]` and needs only
//!   `alloc` (composites, hulls and trees keep their parts in a `Vec`; the queries allocate nothing); `sqrt`,
//!   `sin`, `cos` and `mul_add` come from `libm`. The error types implement `core::error::Error` either way.
//! * `rayon` (default, implies `std`) — [`batch`] on every core.
//! * `serde` — `Serialize`/`Deserialize` for shapes (validated on reading), poses and results; works without
//!   `std`.
//! * `mint`, `nalgebra` — conversions from their vectors, quaternions and isometries.
// `no_std` always, with `alloc` (composites, hulls and trees keep their parts in a `Vec`); `std` only for what
// needs it (feature `std`, on by default): the platform's float functions and `rayon`.
#![no_std]
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// `!(x > 0)` is written on purpose throughout: unlike `x <= 0` it is also true for NaN, so a NaN from a user's
// support function takes the failure branch instead of passing a check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
#[cfg_attr(test, macro_use)]
extern crate std;

mod analytic;
pub mod batch;
pub mod broadphase;
pub mod bvh;
pub mod cast;
pub mod composite;
pub mod epa;
pub mod gjk;
pub mod manifold;
pub mod math;
pub mod nd;
pub mod query;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod shape;
pub mod simplex;
pub mod trace;
pub mod witness;

pub use crate::epa::{penetration, penetration_with, Penetration};
pub use crate::gjk::{
    distance, distance_with, distance_with_witnesses, intersection, intersects, Distance, DistanceOptions,
    Intersection, Status, WarmStart, WitnessSimplex, Witnesses,
};
pub use crate::witness::{NamedSimplex, ShapeVertices};
