//! Casts' answers read as an `Option`: [`Cast::impact`] and [`RayCast::impact`] give the hit's values only when
//! there is a hit, so a miss's `toi` (the time up to which the cast proved the way clear) is never read as a time
//! of impact. The status and error bound stay on the answer.

use super::{Cast, RayCast};
use crate::math::Vector;

/// Where and when a shape cast or time of impact first reaches its target distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact<V: Vector> {
    /// Time of impact, in the units of the velocities.
    pub toi: V::Real,
    /// Unit normal from A toward B at the impact.
    pub normal: V,
    /// A's witness point at the impact (world).
    pub point_a: V,
    /// B's witness point at the impact (world).
    pub point_b: V,
}

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayImpact<V: Vector> {
    /// Time of impact, in units of the ray's direction.
    pub toi: V::Real,
    /// The point hit: `origin + toi · direction`.
    pub point: V,
    /// Unit outward normal at the hit; zero for a solid shape hit from inside.
    pub normal: V,
}

impl<V: Vector> Cast<V> {
    /// The impact, or `None` on a miss.
    ///
    /// ```
    /// use gjk::cast::{shape_cast, CastOptions};
    /// use gjk::math::{DVec3, Iso};
    /// use gjk::shape::Ball;
    /// let ball = Ball::new(1.0).unwrap();
    /// let (a, b) = (Iso::identity(), Iso::from_translation(DVec3::new(5.0, 0.0, 0.0)));
    /// let opts = CastOptions::default();
    /// let c = shape_cast(&ball, &a, DVec3::new(1.0, 0.0, 0.0), &ball, &b, DVec3::ZERO, &opts);
    /// let impact = c.impact().expect("the balls meet at t = 3");
    /// assert!((impact.toi - 3.0).abs() < 1e-9);
    /// let away = shape_cast(&ball, &a, DVec3::new(-1.0, 0.0, 0.0), &ball, &b, DVec3::ZERO, &opts);
    /// assert!(away.impact().is_none());
    /// ```
    pub fn impact(&self) -> Option<Impact<V>> {
        self.hit.then_some(Impact { toi: self.toi, normal: self.normal, point_a: self.point_a, point_b: self.point_b })
    }
}

impl<V: Vector> RayCast<V> {
    /// The hit, or `None` on a miss.
    ///
    /// ```
    /// use gjk::cast::ray_cast;
    /// use gjk::math::{DVec3, Iso};
    /// use gjk::shape::Ball;
    /// let ball = Ball::new(1.0).unwrap();
    /// let r = ray_cast(&ball, &Iso::identity(), DVec3::new(-5.0, 0.0, 0.0), DVec3::X, 10.0, true);
    /// let hit = r.impact().expect("the ray meets the ball");
    /// assert!((hit.toi - 4.0).abs() < 1e-12 && (hit.normal + DVec3::X).length() < 1e-12);
    /// assert!(ray_cast(&ball, &Iso::identity(), DVec3::new(-5.0, 2.0, 0.0), DVec3::X, 10.0, true).impact().is_none());
    /// ```
    pub fn impact(&self) -> Option<RayImpact<V>> {
        self.hit.then_some(RayImpact { toi: self.toi, point: self.point, normal: self.normal })
    }
}
