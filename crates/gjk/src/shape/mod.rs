//! Support-mapped convex shapes, one file per family, and the combinators that build new shapes from old.
//!
//! Every shape is described by its support function: the point of the shape farthest along a direction. Shapes
//! with a margin (ball, capsule, rounded shapes) are split into a *core* and a *radius*: the shape is the core
//! swept by a ball of that radius. The queries run GJK on the cores and add the radii afterwards, which makes
//! sphere and capsule queries exact (their cores are a point and a segment) and keeps most contacts out of EPA.

use alloc::boxed::Box;
mod aabb;
mod along_z;
mod ball;
mod capsule;
mod cone;
mod cuboid;
mod custom;
mod cylinder;
mod ellipsoid;
mod error;
mod feature;
mod frustum;
pub mod hull;
mod minkowski;
mod point;
mod polygon_search;
mod polytope;
mod posed;
mod ray64;
mod ray_span;
pub(crate) use ray_span::{comfortable, square_in_range};
mod rounded;
mod scaled;
mod segment;
mod triangle;

pub use aabb::Aabb;
pub use along_z::AlongZ;
pub use ball::Ball;
pub use capsule::Capsule;
pub use cone::Cone;
pub(crate) use cuboid::supporting_face;
pub use cuboid::Cuboid;
pub use custom::SupportFn;
pub use cylinder::Cylinder;
pub use ellipsoid::Ellipsoid;
pub use error::ShapeError;
pub use feature::{Feature, MAX_FEATURE_POINTS};
pub use frustum::Frustum;
pub use minkowski::MinkowskiSum;
pub use point::Point;
pub use polygon_search::POLYGON_SEARCH_MIN_VERTICES;
pub use polytope::{ConvexPolytope, HILL_CLIMB_MIN_VERTICES};
pub use posed::Posed;
pub use rounded::Rounded;
pub use scaled::Scaled;
pub use segment::Segment;
pub use triangle::Triangle;

use crate::math::{Real, Vector};

/// A convex shape given by its support function, in its own local frame.
///
/// A shape is `core ⊕ ball(radius)`: [`support`](SupportMap::support) answers for the core,
/// [`radius`](SupportMap::radius) gives the rounding (zero for most shapes). Implement this trait to plug your own
/// shape into every query.
///
/// ```
/// use gjk::math::DVec2;
/// use gjk::shape::{SupportMap, Cuboid};
/// let b = Cuboid::new(DVec2::new(2.0, 1.0)).unwrap();
/// assert_eq!(b.support(DVec2::new(1.0, -1.0)), DVec2::new(2.0, -1.0));
/// ```
pub trait SupportMap<V: Vector> {
    /// A point of the core farthest along `dir`. `dir` need not be unit length; for a zero `dir` any point of
    /// the core is a valid answer.
    fn support(&self, dir: V) -> V;

    /// [`support`](SupportMap::support) with a caller-kept hint (the index of the previous answer on a large
    /// polytope, so the search can start there). Shapes without an index ignore it.
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let _ = hint;
        self.support(dir)
    }

    /// The radius of the ball that rounds the core (zero unless the shape has a margin).
    #[inline]
    fn radius(&self) -> V::Real {
        V::Real::ZERO
    }

    /// A point inside the core, used to choose the first search direction.
    #[inline]
    fn center(&self) -> V {
        self.local_aabb().center()
    }

    /// The core's one point, for shapes whose core is a single point (balls, points): `support` answers it for
    /// every direction and `center` is it. Queries between two such shapes then know GJK's run in advance and
    /// skip the loop. `None` (the default) for every other shape.
    #[inline]
    fn point_core(&self) -> Option<V> {
        None
    }

    /// True when the core is a polytope (finitely many vertices: a point, segment, triangle, box, hull; a ball's or
    /// a capsule's core). EPA's faces are then facets of the cores' difference and its penetration depth is exact;
    /// for any other core (curved: cylinder, cone, ellipsoid, a user's support function) the penetration query
    /// also refines the direction on the support function itself (see [`crate::epa`]). The default, `false`, is
    /// always correct; `true` on a shape that is not a polytope makes curved penetrations only as exact as EPA's
    /// polytope.
    #[inline]
    fn polyhedral(&self) -> bool {
        false
    }

    /// True when the core has straight edges that keep their direction in the shape's frame while the support
    /// direction turns about them: a cylinder's side lines, the edges of a box, a hull or a capsule's core. On a
    /// curved pair GJK then tries Newton's method along such an edge of A − B (see `gjk::newton::propose_on_edge`),
    /// which costs a few support calls where there is none. The default: a polyhedral core other than a point. The
    /// strictly convex (ball, ellipsoid, a user's support function) and the cone, whose slant lines turn with the
    /// direction, say false, which is always correct (the proposal is a shortcut, never needed).
    #[inline]
    fn fixed_edges(&self) -> bool {
        self.polyhedral() && self.point_core().is_none()
    }

    /// The feature of the core (vertex, edge or face) that supports `dir`, for contact manifolds. Polyhedral
    /// shapes report the face whose normal is closest to `dir`; the default, right for strictly convex shapes, is
    /// the support point alone.
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        out.single(self.support(dir), 0);
    }

    /// An exact ray cast in the local frame for shapes that have a closed form: `None` means "no fast path, use
    /// the GJK cast"; `Some(None)` a miss; `Some(Some((toi, outward normal)))` a hit (normal zero for a solid hit
    /// from inside). See [`crate::cast::ray_cast`] for the meaning of the arguments.
    #[inline]
    fn ray_cast_local(&self, origin: V, dir: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        let _ = (origin, dir, max_toi, solid);
        None
    }

    /// The half-extents (not negative) when the shape is exactly a box centred on its local origin with no radius
    /// ([`Cuboid`]), `None` (the default) otherwise. [`crate::intersects`] decides two boxes by separating axes instead of GJK.
    #[doc(hidden)]
    #[inline]
    fn cuboid_half_extents(&self) -> Option<V> {
        None
    }

    /// The ends `(a, b)` (local frame) when the core is exactly the segment between them (a capsule's, a
    /// [`Segment`]'s), `None` (the default) otherwise. The distance query answers a ball or point against such a
    /// core in closed form (see `analytic`).
    #[doc(hidden)]
    #[inline]
    fn segment_core(&self) -> Option<(V, V)> {
        None
    }

    /// The vertices (local frame, counter-clockwise) when the core is a 2D convex polygon whose edge normals turn
    /// once monotonically around it and whose [`support_hinted`](SupportMap::support_hinted) answers
    /// `vertices[hint]` and leaves that index in the hint (a [`ConvexPolytope`] polygon of
    /// [`POLYGON_SEARCH_MIN_VERTICES`] vertices or more); `None` (the default) otherwise. GJK and EPA then walk the
    /// boundary of A − B by its vertices' indices (see `gjk::walk`).
    #[doc(hidden)]
    #[inline]
    fn polygon_cycle(&self) -> Option<&[V]> {
        None
    }

    /// The largest distance from the point `from` (in the local frame) to a point of the core: max |p − from| over
    /// the core's points p. The rounding [`radius`](SupportMap::radius) is not included.
    ///
    /// From the local origin, this is how far the core reaches from the centre the shape turns about: a rotation
    /// by an angle θ about the local origin moves no point of the core by more than θ times it, and moves the
    /// rounding not at all (a ball centred on its origin has 0: turning it changes nothing). The rotating time of
    /// impact bounds its steps by it, and the whole shape lies in the ball of radius
    /// `farthest_core_distance(from) + radius()` about `from`.
    ///
    /// The answer is never below the true value (up to the rounding of one distance). The default asks the support
    /// function along the 2·DIM axis directions and takes the farthest corner of the core's bounding box: exact for
    /// a box aligned with the local axes, at most √DIM times too large otherwise. The shapes of this crate answer
    /// exactly in closed form (ball, point, segment, triangle, capsule, box, cylinder, cone, polytope, and the
    /// `Posed`, `Rounded` and uniformly `Scaled` wrappers of those); an ellipsoid seen from off its centre, a
    /// Minkowski sum and a non-uniform scaling give a bound.
    ///
    /// ```
    /// use gjk::math::DVec3;
    /// use gjk::shape::{Ball, Cuboid, SupportMap};
    /// let ball = Ball::new(2.0).unwrap();
    /// assert_eq!(SupportMap::<DVec3>::farthest_core_distance(&ball, DVec3::ZERO), 0.0);
    /// let cube = Cuboid::new(DVec3::splat(1.0)).unwrap();
    /// assert_eq!(cube.farthest_core_distance(DVec3::new(1.0, 1.0, 1.0)), 12f64.sqrt());
    /// ```
    fn farthest_core_distance(&self, from: V) -> V::Real {
        core_box_reach(self, from)
    }

    /// Bounding box of the whole shape (core and radius) in its local frame.
    ///
    /// The default asks the support function along the 2·DIM axis directions, which is exact for every convex
    /// shape.
    fn local_aabb(&self) -> Aabb<V> {
        let mut min = V::zero();
        let mut max = V::zero();
        for i in 0..V::DIM {
            let e = V::axis(i);
            max = max + e * (self.support(e).get(i) - max.get(i));
            min = min + e * (self.support(-e).get(i) - min.get(i));
        }
        Aabb::new(min, max).loosened(self.radius())
    }
}

/// The default [`SupportMap::farthest_core_distance`]: the farthest corner from `from` of the core's bounding box,
/// found by a support call along each axis direction.
pub(crate) fn core_box_reach<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S, from: V) -> V::Real {
    let reach = V::from_fn(|i| {
        let e = V::axis(i);
        let (hi, lo) = (shape.support(e).get(i), shape.support(-e).get(i));
        (hi - from.get(i)).abs().max((lo - from.get(i)).abs())
    });
    length_unscaled(reach)
}

/// |v| without overflow or underflow in the squares: the coordinates are divided by the largest one first.
pub(crate) fn length_unscaled<V: Vector>(v: V) -> V::Real {
    let m = v.max_abs();
    if !(m > V::Real::ZERO) || !m.is_finite() {
        return m.abs();
    }
    (v * (V::Real::ONE / m)).length() * m
}

/// The support point of the whole shape (core plus radius) along `dir`.
#[inline]
pub fn support_full<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S, dir: V) -> V {
    let r = shape.radius();
    let p = shape.support(dir);
    if r > V::Real::ZERO {
        p + dir.normalize_or_zero() * r
    } else {
        p
    }
}

macro_rules! forward_support_map {
    ($($ty:ty),*) => {$(
        impl<V: Vector, S: SupportMap<V> + ?Sized> SupportMap<V> for $ty {
            #[inline]
            fn support(&self, dir: V) -> V {
                (**self).support(dir)
            }
            #[inline]
            fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
                (**self).support_hinted(dir, hint)
            }
            #[inline]
            fn radius(&self) -> V::Real {
                (**self).radius()
            }
            #[inline]
            fn center(&self) -> V {
                (**self).center()
            }
            #[inline]
            fn point_core(&self) -> Option<V> {
                (**self).point_core()
            }
            #[inline]
            fn polyhedral(&self) -> bool {
                (**self).polyhedral()
            }
            #[inline]
            fn fixed_edges(&self) -> bool {
                (**self).fixed_edges()
            }
            fn local_aabb(&self) -> Aabb<V> {
                (**self).local_aabb()
            }
            fn farthest_core_distance(&self, from: V) -> V::Real {
                (**self).farthest_core_distance(from)
            }
            fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
                (**self).ray_cast_local(o, d, max_toi, solid)
            }
            #[inline]
            fn cuboid_half_extents(&self) -> Option<V> {
                (**self).cuboid_half_extents()
            }
            #[inline]
            fn segment_core(&self) -> Option<(V, V)> {
                (**self).segment_core()
            }
            #[inline]
            fn polygon_cycle(&self) -> Option<&[V]> {
                (**self).polygon_cycle()
            }
            fn support_feature(&self, dir: V, out: &mut Feature<V>) {
                (**self).support_feature(dir, out)
            }
        }
    )*};
}

forward_support_map!(&S, Box<S>, alloc::sync::Arc<S>);

/// Checks that a size is finite and not negative.
pub(crate) fn check_size<R: Real>(what: &'static str, value: R) -> Result<R, ShapeError> {
    if !value.is_finite() {
        Err(ShapeError::NonFinite(what))
    } else if value < R::ZERO {
        Err(ShapeError::Negative(what))
    } else {
        Ok(value)
    }
}

/// Checks that a point is finite.
pub(crate) fn check_point<V: Vector>(what: &'static str, p: V) -> Result<V, ShapeError> {
    if p.is_finite() {
        Ok(p)
    } else {
        Err(ShapeError::NonFinite(what))
    }
}

/// Checks that every coordinate of a size vector is finite and not negative.
pub(crate) fn check_sizes<V: Vector>(what: &'static str, v: V) -> Result<V, ShapeError> {
    for i in 0..V::DIM {
        check_size(what, v.get(i))?;
    }
    Ok(v)
}
