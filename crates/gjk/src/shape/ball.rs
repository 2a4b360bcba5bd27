use super::ray_span::{decide, direction, round, Span};
use super::{check_size, length_unscaled, Aabb, ShapeError, SupportMap};
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
    #[inline]
    fn point_core(&self) -> Option<V> {
        Some(V::zero())
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(V::zero(), V::zero()).loosened(self.radius)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The core is the centre alone.
        length_unscaled(from)
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        Some(ray_ball(self.radius, o, d, max_toi, solid))
    }
}

/// Ray o + t·d against the ball |p| ≤ r.
fn ray_ball<V: Vector>(r: V::Real, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<(V::Real, V)> {
    let span =
        round(o, d, r).map(|s| Span { t_in: s.t.0, n_in: direction(s.p.0), t_out: s.t.1, n_out: direction(s.p.1) });
    decide(span, max_toi, solid)
}
