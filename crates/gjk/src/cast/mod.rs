//! Casts: the first time two shapes in motion touch.
//!
//! * [`shape_cast`] — linear motion. The distance between two convex shapes translating at constant velocities is
//!   a convex function of time, so Newton's step from the current time, t += d(t) / (closing speed along the
//!   normal), never passes the first contact; it converges quadratically, and when the closing speed is not
//!   positive the shapes can never meet. Each step is one warm-started GJK distance query.
//! * [`time_of_impact`] — rigid motion with rotation: conservative advancement. Along the current normal no point
//!   of either shape can approach faster than the linear closing speed plus |ω|·(bounding radius), so advancing by
//!   d / (that bound) cannot tunnel.
//! * [`ray_cast`] — a point moving along a ray against one shape, with exact fast paths for balls and boxes.

mod linear;
mod ray;
mod rotating;

pub use linear::shape_cast;
pub use ray::{ray_cast, RayCast};
pub use rotating::{time_of_impact, Angular, Motion};

use crate::gjk::{Distance, Status};
use crate::math::{Real, Vector};
use crate::shape::SupportMap;

/// Options of the casts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions<R> {
    /// Only contacts at times in [0, max_toi] count.
    pub max_toi: R,
    /// Stop at this separation instead of at contact (a character controller's skin).
    pub target_distance: R,
    /// When the shapes are already within the target distance at t = 0 and moving apart, report no hit (so a
    /// body can slide out of contact); otherwise an initial overlap is a hit at t = 0.
    pub ignore_initial_overlap_when_separating: bool,
    /// Cap on advancement steps (each one GJK query).
    pub max_iterations: u32,
    /// Distance within which the shapes count as touching the target; `None` for an automatic tolerance relative
    /// to the shapes' size.
    pub tolerance: Option<R>,
}

impl<R: Real> Default for CastOptions<R> {
    fn default() -> Self {
        Self {
            max_toi: R::INFINITY,
            target_distance: R::ZERO,
            ignore_initial_overlap_when_separating: false,
            max_iterations: 256,
            tolerance: None,
        }
    }
}

/// The answer of a cast.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cast<V: Vector> {
    /// True when the shapes reach the target distance within [0, max_toi].
    pub hit: bool,
    /// Time of impact (in the units of the velocities); meaningful when `hit`.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_impls::time"))]
    pub toi: V::Real,
    /// Unit normal from A toward B at the time of impact (zero when the shapes overlap at t = 0 with no defined
    /// direction).
    pub normal: V,
    /// Witness point on A at the time of impact (world).
    pub point_a: V,
    /// Witness point on B at the time of impact (world).
    pub point_b: V,
    /// Advancement steps taken.
    pub iterations: u32,
    /// [`Status::Converged`] when the answer is decided; [`Status::MaxIterations`] when the cap was reached
    /// (a rotating time of impact then reports a hit at the time reached so far, which is never later than
    /// the true one).
    pub status: Status,
}

impl<V: Vector> Cast<V> {
    pub(crate) fn miss(iterations: u32, status: Status) -> Self {
        Self {
            hit: false,
            toi: V::Real::INFINITY,
            normal: V::zero(),
            point_a: V::zero(),
            point_b: V::zero(),
            iterations,
            status,
        }
    }
}

/// A size for the two shapes: tolerances are relative to it.
pub(crate) fn pair_scale<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(a: &A, b: &B) -> V::Real {
    a.local_aabb().diameter().max(b.local_aabb().diameter()).max(V::Real::EPSILON)
}

/// Automatic touching tolerance: a few ulps of the shapes' size, the rounding level of a GJK distance.
pub(crate) fn touch_tolerance<R: Real>(opts: &CastOptions<R>, scale: R) -> R {
    opts.tolerance.unwrap_or(R::from_f64(16.0) * R::EPSILON * scale)
}

/// The normal at contact. Near zero distance the direction of the closest-point vector v is rounding noise, so
/// when the final simplex is a facet of A − B (a face in 3D, an edge in 2D) its normal, computed from its edges, is
/// exact; it is oriented like the last well-defined normal, else against the approach. Otherwise the query's own
/// normal is used while the cores' distance (the shapes' distance plus their radii) still defines it, else the last
/// well-defined one.
pub(crate) fn contact_normal<V: Vector>(
    d: &Distance<V>,
    radii: V::Real,
    previous: Option<V>,
    approach: V,
    scale: V::Real,
) -> V {
    let facet = &d.simplex.points[..d.simplex.len];
    // The last normal of a larger distance is the more trustworthy reference for the facet's orientation.
    let reference = previous.or((d.normal != V::zero()).then_some(d.normal));
    if let Some(n) = V::facet_normal(facet) {
        let flip = match reference {
            Some(r) => n.dot(r) < V::Real::ZERO,
            // B approaching A means its velocity relative to A points against the normal from A to B.
            None => n.dot(approach) > V::Real::ZERO,
        };
        return if flip { -n } else { n };
    }
    let defined = d.normal != V::zero() && d.distance + radii > V::Real::from_f64(1e3) * V::Real::EPSILON * scale;
    match previous {
        Some(p) if !defined => p,
        _ => d.normal,
    }
}
