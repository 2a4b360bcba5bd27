//! Casts: the first time two shapes in motion touch.
//!
//! * [`shape_cast`] — linear motion. The distance between two convex shapes translating at constant velocities is
//!   a convex function of time, so Newton's step from the current time, t += d(t) / (closing speed along the
//!   normal), never passes the first contact; it converges quadratically, and when the closing speed is not
//!   positive the shapes can never meet. Each step is one warm-started GJK distance query.
//! * [`time_of_impact`] — rigid motion with rotation: conservative advancement. Each step is certified along the
//!   current normal by bounds on how fast any point can close in — first order (|ω × n| times the core's reach
//!   about its centre), second order (the present rates from the support function, plus a bound on the
//!   acceleration), and the bounding balls — so it cannot tunnel, and near contact it takes Newton-like steps.
//!   When it runs out of steps it says so (an undecided miss with the time reached), never a hit it did not find.
//! * [`ray_cast`] — a point moving along a ray against one shape: exact fast paths for the shapes with a closed form
//!   (balls, boxes, capsules, cylinders, cones, ellipsoids, polytopes), else a GJK cast of a point.

mod impact;
mod linear;
mod ray;
mod rotating;

pub use impact::{Impact, RayImpact};
pub use linear::shape_cast;
pub use ray::{ray_cast, RayCast};
pub use rotating::{time_of_impact, Angular, Motion};

use crate::gjk::{Distance, Status};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;
use crate::simplex::facet_normal;

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
///
/// Every field is finite on a hit, and `toi` is always in [0, max_toi].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cast<V: Vector> {
    /// True when the shapes reach the target distance within [0, max_toi].
    pub hit: bool,
    /// On a hit, the time of impact (in the units of the velocities). On a miss, the time up to which the cast
    /// proved the shapes apart: `max_toi` when the miss is decided ([`Status::Converged`]), the time reached when
    /// it is not ([`Status::MaxIterations`], [`Status::Stalled`]: nothing touches before it, nothing is known
    /// after it).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_impls::time"))]
    pub toi: V::Real,
    /// Unit normal from A toward B at the time of impact (the penetration normal when the shapes overlap at t = 0).
    /// On an undecided miss, the direction of the closest pair at the time reached; zero on a decided miss.
    pub normal: V,
    /// Witness point on A at the time of impact (world): the closest point, or A's deepest point when the shapes
    /// overlap at t = 0. On an undecided miss, the closest point at the time reached; zero on a decided miss.
    pub point_a: V,
    /// Witness point on B, as `point_a`.
    pub point_b: V,
    /// Advancement steps taken.
    pub iterations: u32,
    /// [`Status::Converged`] when the answer is decided (a hit, or a miss over the whole of [0, max_toi]);
    /// [`Status::MaxIterations`] when the cap on steps was reached first and [`Status::Stalled`] when no step
    /// representable in this precision was certified: then `hit` is false and `toi` is the time reached.
    pub status: Status,
}

impl<V: Vector> Cast<V> {
    /// A decided miss: nothing touches in [0, `free_until`] (the whole cast).
    pub(crate) fn miss(free_until: V::Real, iterations: u32) -> Self {
        Self::undecided(free_until, iterations, Status::Converged)
    }
    /// An undecided miss: nothing touches before `reached`.
    pub(crate) fn undecided(reached: V::Real, iterations: u32, status: Status) -> Self {
        Self { hit: false, toi: reached, normal: V::zero(), point_a: V::zero(), point_b: V::zero(), iterations, status }
    }
    /// From a cast run in a frame scaled by `1/k` about `origin` back to the world: a decided miss keeps its zero
    /// points.
    pub(crate) fn unscaled(self, k: V::Real, origin: V) -> Self {
        if !self.hit && self.status == Status::Converged {
            return self;
        }
        Self { point_a: self.point_a * k + origin, point_b: self.point_b * k + origin, ..self }
    }
    /// With the closest pair of `d` (taken in the frame `frame` maps to the world).
    pub(crate) fn at_closest(self, d: &Distance<V>, frame: &Iso<V>) -> Self {
        Self {
            normal: frame.transform_vector(d.normal),
            point_a: frame.transform_point(d.point_a),
            point_b: frame.transform_point(d.point_b),
            ..self
        }
    }
}

/// True when a cast's inputs are numbers it can work with: finite poses and velocities, a max_toi that is not NaN
/// or negative, a finite target distance that is not negative. Casts given anything else stop at once, undecided.
pub(crate) fn valid_motion<V: Vector>(pose: &Iso<V>, velocity: V, options: &CastOptions<V::Real>) -> bool {
    let zero = V::Real::ZERO;
    crate::math::Rotation::is_finite(&pose.rotation)
        && pose.translation.is_finite()
        && velocity.is_finite()
        && options.max_toi >= zero
        && options.target_distance >= zero
        && options.target_distance.is_finite()
        && options.tolerance.is_none_or(|t| t >= zero && t.is_finite())
}

/// `n` when it is a unit vector, else the unit vector along `fallback`, else the first axis: a cast's hit always
/// carries a unit normal.
pub(crate) fn unit_or<V: Vector>(n: V, fallback: V) -> V {
    if n.length_squared() > V::Real::HALF {
        return n;
    }
    let f = fallback.normalize_or_zero();
    if f != V::zero() {
        f
    } else {
        V::axis(0)
    }
}

/// The hit at t = 0 of shapes already within the target distance, in the frame of the poses given. Overlapping
/// shapes have no closest pair: the penetration query gives the normal (along which B would move out) and each
/// shape's deepest point; shapes apart (within the target) keep the distance query's normal and closest points.
/// `approach` (B's velocity relative to A) orients a normal that no query defines.
pub(crate) fn initial_overlap<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    d: &Distance<V>,
    approach: V,
    iterations: u32,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (normal, point_a, point_b) = if d.intersecting {
        let p = crate::epa::penetration(a, pose_a, b, pose_b);
        (p.normal, p.point_a, p.point_b)
    } else {
        (d.normal, d.point_a, d.point_b)
    };
    Cast {
        hit: true,
        toi: V::Real::ZERO,
        normal: unit_or(normal, -approach),
        point_a,
        point_b,
        iterations,
        status: Status::Converged,
    }
}

/// The options of a cast in a frame where lengths are multiplied by `factor`.
pub(crate) fn scaled_options<R: Real>(o: &CastOptions<R>, factor: R) -> CastOptions<R> {
    CastOptions { target_distance: o.target_distance * factor, tolerance: o.tolerance.map(|t| t * factor), ..*o }
}

/// The sizes of a pair, from one bounding box per shape (a polytope's is a pass over its vertices).
pub(crate) struct PairSize<R> {
    /// The larger diameter (at least ε): tolerances are relative to it.
    pub scale: R,
    /// The largest coordinate of either box: whether the cast must run in a rescaled frame.
    pub extent: R,
}

pub(crate) fn pair_size<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(
    a: &A,
    b: &B,
) -> PairSize<V::Real> {
    let (ba, bb) = (a.local_aabb(), b.local_aabb());
    let extent = |x: &crate::shape::Aabb<V>| x.min.max_abs().max(x.max.max_abs());
    PairSize { scale: ba.diameter().max(bb.diameter()).max(V::Real::EPSILON), extent: extent(&ba).max(extent(&bb)) }
}

/// A size for the two shapes: tolerances are relative to it.
pub(crate) fn pair_scale<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(a: &A, b: &B) -> V::Real {
    pair_size(a, b).scale
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
    contact_normal_from(d, d.simplex.len, radii, previous, approach, scale)
}

/// [`contact_normal`], checked where the final simplex is a facet: GJK's last simplex need not be a facet of
/// A − B (a segment from a box's corner to the opposite one, when the origin is reached at the corner), and then
/// its normal is not a normal of A − B at all (a ray through a box's corner came back with the diagonal's normal,
/// 0.34 off the box's supporting plane: gjk-fuzz seed 31 case 15159). The facet's normal is kept only if A − B's
/// support value along it is the closest point's (to `1e3 ε` of the scale); else the normal is found as for a
/// simplex that is no facet. `b_pose` is B's pose in the frame of the distance `d` (A at the identity).
pub(crate) fn checked_contact_normal<V, A, B>(
    (a, b, b_pose): (&A, &B, &Iso<V>),
    d: &Distance<V>,
    radii: V::Real,
    previous: Option<V>,
    approach: V,
    scale: V::Real,
) -> V
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let n = contact_normal(d, radii, previous, approach, scale);
    if facet_normal(&d.simplex.points[..d.simplex.len]).is_none() || n == V::zero() {
        return n;
    }
    // A − B's outward normal at the contact is −n (n points from A toward B).
    let m = -n;
    let sb = b_pose.transform_point(b.support(b_pose.rotation.inverse_rotate(n)));
    let h = m.dot(a.support(m)) - m.dot(sb);
    let w = (0..d.simplex.len).fold(V::zero(), |w, i| w + d.simplex.points[i] * d.simplex.weights[i]);
    if h - m.dot(w) <= V::Real::from_f64(1e3) * V::Real::EPSILON * scale {
        n
    } else {
        contact_normal_from(d, 0, radii, previous, approach, scale)
    }
}

/// [`contact_normal`] with the first `facet` points of the final simplex taken as its facet (0: none).
fn contact_normal_from<V: Vector>(
    d: &Distance<V>,
    facet: usize,
    radii: V::Real,
    previous: Option<V>,
    approach: V,
    scale: V::Real,
) -> V {
    let facet = &d.simplex.points[..facet];
    // The last normal of a larger distance is the more trustworthy reference for the facet's orientation.
    let reference = previous.or((d.normal != V::zero()).then_some(d.normal));
    if let Some(n) = facet_normal(facet) {
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
