//! GJK in any dimension: distance, closest points and both witness simplices between convex shapes of ℝᴺ
//! (point sets, points, segments, balls, support closures), N fixed at compile time, f64.
//!
//! Its own room beside the 2D/3D code (see ARCHITECTURE.md, "GJK in ℝᴺ"): the simplex sub-problem is a
//! least-squares projection onto the affine hull ([`affine`](self) — pivoted Gram–Schmidt) with a descent over
//! faces when a weight leaves the simplex, the loop and its stopping rules are the 2D/3D loop's. Poses are
//! translations. Nothing is allocated during a query: the simplex lives in fixed arrays of N + 1 slots.
//!
//! The distance between the hulls of two point sets is the hard-margin linear SVM's margin × 2 (see the `svm`
//! example):
//!
//! ```
//! use gjk::math::VecN;
//! use gjk::nd::{self, PointSet};
//! // The tetrahedron x ≥ 0, x₀+x₁+x₂+x₃ = 1 of ℝ⁴ and its copy moved 3 along the unit normal (1,1,1,1)/2.
//! let a = PointSet::new((0..4).map(VecN::<4>::axis).collect()).unwrap();
//! let b = a.clone();
//! let d = nd::distance(&a, &VecN::ZERO, &b, &VecN::splat(1.5));
//! assert!(!d.intersecting);
//! assert!((d.distance - 3.0).abs() < 1e-12);
//! assert!((d.normal - VecN::splat(0.5)).length() < 1e-12);
//! let (pa, _) = d.simplex.reproduce();
//! assert!((pa - d.point_a).length() < 1e-12);
//! assert!(d.simplex.iter().all(|w| w.weight > 0.0 && w.index_a < 4));
//! ```

mod affine;
mod query;
mod run;
mod shape;
mod simplex;
mod slots;

pub use query::{distance, distance_with, intersection, intersects, Distance, Witness, WitnessSimplex};
pub use shape::{Ball, Point, PointSet, Segment, SupportFn, SupportN};
pub use slots::Slots;
