use super::{check_point, length_unscaled, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// The segment between two points (they may coincide).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<V> {
    /// First end.
    pub a: V,
    /// Second end.
    pub b: V,
}

impl<V: Vector> Segment<V> {
    /// The segment `ab`; errors on non-finite coordinates.
    pub fn new(a: V, b: V) -> Result<Self, ShapeError> {
        Ok(Self { a: check_point("segment end a", a)?, b: check_point("segment end b", b)? })
    }
}

impl<V: Vector> SupportMap<V> for Segment<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // Ties (dir perpendicular to the segment) go to `a`, deterministically.
        if dir.dot(self.b - self.a) > V::Real::ZERO {
            self.b
        } else {
            self.a
        }
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }
    fn center(&self) -> V {
        (self.a + self.b) * V::Real::HALF
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The distance to a point is convex along the segment: largest at an end.
        length_unscaled(self.a - from).max(length_unscaled(self.b - from))
    }
    #[inline]
    fn segment_core(&self) -> Option<(V, V)> {
        Some((self.a, self.b))
    }
    fn support_feature(&self, _dir: V, out: &mut Feature<V>) {
        out.reset(0);
        out.push(self.a, 0);
        out.push(self.b, 1);
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        ray_segment_2d(self.a, self.b, o, d, max_toi, solid)
    }
}

/// A ray against a segment of the plane: the capsule of radius 0 along it, in the segment's frame (x across it, y
/// along it), so that a line crossing it meets it in one point with the segment's own normal there — the GJK path
/// answered with normals up to 2.8e-7 off the segment's (gjk-fuzz seed 31 cases 12195, 14260). In 3D a line meets
/// a segment only where it is exactly coplanar, and the GJK path answers (`None`); so does a segment whose ends
/// coincide or whose length overflows.
fn ray_segment_2d<V: Vector>(a: V, b: V, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
    let half = (b - a) * V::Real::HALF;
    let length = half.length();
    if V::DIM != 2 || !(length > V::Real::ZERO) || !length.is_finite() {
        return None;
    }
    let along = half * (V::Real::ONE / length);
    let across = V::from_fn(|i| if i == 0 { along.get(1) } else { -along.get(0) });
    let local = |v: V| V::from_fn(|i| if i == 0 { v.dot(across) } else { v.dot(along) });
    let hit = super::capsule::ray_capsule(length, V::Real::ZERO, local(o - (a + half)), local(d), max_toi, solid);
    Some(hit.map(|(t, n)| (t, across * n.get(0) + along * n.get(1))))
}
