use super::{check_size, Aabb, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// A circle (2D) or sphere (3D) centred on the local origin: a point core with a radius, so every query on it is
/// exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<R> {
    /// Radius (zero is a point).
    pub radius: R,
}

impl<R: Real> Ball<R> {
    /// A ball of `radius`; errors on a negative or non-finite radius.
    pub fn new(radius: R) -> Result<Self, ShapeError> {
        Ok(Self { radius: check_size("radius", radius)? })
    }
}

impl<V: Vector> SupportMap<V> for Ball<V::Real> {
    #[inline]
    fn support(&self, _dir: V) -> V {
        V::zero()
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.radius
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(V::zero(), V::zero()).loosened(self.radius)
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        Some(ray_ball(self.radius, o, d, max_toi, solid))
    }
}

/// Ray o + t·d against the ball |p| ≤ r: the roots of |d|² t² + 2(o·d) t + |o|² − r² = 0, taken in the forms
/// that do not cancel (the near root as c / (−b + √disc)).
fn ray_ball<V: Vector>(r: V::Real, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<(V::Real, V)> {
    let zero = V::Real::ZERO;
    let (a, b, c) = (d.length_squared(), o.dot(d), o.length_squared() - r * r);
    let normal_at = |t: V::Real| (o + d * t).normalize_or_zero();
    if c <= zero && solid {
        // Inside (or on) a solid ball: hit at once; on the surface the normal is defined.
        return Some((zero, if c == zero { normal_at(zero) } else { V::zero() }));
    }
    let disc = b * b - a * c;
    if !(a > zero) || disc < zero || (c > zero && b >= zero) {
        return None;
    }
    let root = disc.sqrt();
    let t = if c > zero { c / (-b + root) } else { (-b + root) / a };
    (t <= max_toi).then(|| (t, normal_at(t)))
}
