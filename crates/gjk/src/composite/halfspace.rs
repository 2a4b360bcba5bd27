use crate::math::{Real, Vector};
use crate::shape::{Aabb, ShapeError};

/// The solid half-space `{x : normal · x ≤ 0}` in its own frame: everything on one side of a plane (a line in
/// 2D) through the local origin, `normal` pointing out of it. It is infinite, so it is no support map and enters no
/// tree; the queries answer it in closed form from the other shape's support point along `−normal`.
///
/// ```
/// use gjk::composite::HalfSpace;
/// use gjk::math::DVec3;
/// let ground = HalfSpace::new(DVec3::new(0.0, 2.0, 0.0)).unwrap();
/// assert_eq!(ground.normal(), DVec3::Y);
/// assert!(ground.contains_local_point(DVec3::new(5.0, -1.0, 3.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfSpace<V> {
    normal: V,
}

impl<V: Vector> HalfSpace<V> {
    /// The half-space below the plane through the origin with this outward normal (any length but zero).
    pub fn new(normal: V) -> Result<Self, ShapeError> {
        if !normal.is_finite() {
            return Err(ShapeError::NonFinite("half-space normal"));
        }
        let n = normal.normalize_or_zero();
        if n == V::zero() {
            return Err(ShapeError::Invalid("a half-space normal must not be zero"));
        }
        Ok(Self { normal: n })
    }

    /// The unit outward normal.
    pub fn normal(&self) -> V {
        self.normal
    }

    /// Signed distance of a local point to the boundary (negative inside).
    pub fn signed_distance(&self, p: V) -> V::Real {
        self.normal.dot(p)
    }

    /// Whether a local point is inside (or on) the half-space.
    pub fn contains_local_point(&self, p: V) -> bool {
        self.signed_distance(p) <= V::Real::ZERO
    }

    /// Its bounds: infinite on every side but along an axis-aligned normal, where the box stops at the plane. The
    /// infinities only ever meet finite numbers in the tree's distance and overlap tests (never ∞ − ∞).
    pub fn local_aabb(&self) -> Aabb<V> {
        let inf = V::Real::INFINITY;
        let mut min = V::from_fn(|_| -inf);
        let mut max = V::from_fn(|_| inf);
        for i in 0..V::DIM {
            let axis = V::axis(i);
            if self.normal == axis {
                max = V::from_fn(|k| if k == i { V::Real::ZERO } else { max.get(k) });
            } else if self.normal == -axis {
                min = V::from_fn(|k| if k == i { V::Real::ZERO } else { min.get(k) });
            }
        }
        Aabb::new(min, max)
    }
}
