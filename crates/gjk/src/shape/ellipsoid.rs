use super::ray_span::{decide, direction, round, Span};
use super::{check_sizes, core_box_reach, length_unscaled, Aabb, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// An ellipse (2D) or ellipsoid (3D) centred on the origin with semi-axes `radii` along the local axes. Zero radii
/// are valid (a flat ellipse, a segment, a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid<V> {
    /// Semi-axis lengths.
    pub radii: V,
}

impl<V: Vector> Ellipsoid<V> {
    /// An ellipsoid; errors on negative or non-finite radii.
    pub fn new(radii: V) -> Result<Self, ShapeError> {
        Ok(Self { radii: check_sizes("radii", radii)? })
    }
}

impl<V: Vector> SupportMap<V> for Ellipsoid<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // The ellipsoid is the unit ball under D = diag(radii); its support is D·s_ball(D·dir) = D²dir / |D dir|.
        // Scaling dir by its largest component first keeps |D dir| from under- or overflowing.
        let m = dir.max_abs();
        if !(m > V::Real::ZERO) {
            return V::zero();
        }
        let dd = (dir * (V::Real::ONE / m)).mul_elem(self.radii);
        let len = dd.length();
        if len > V::Real::ZERO {
            dd.mul_elem(self.radii) * (V::Real::ONE / len)
        } else {
            V::zero()
        }
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(-self.radii, self.radii)
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        // A flat ellipsoid (a zero radius) has no inside to enter: the GJK cast answers.
        if !(0..V::DIM).all(|i| self.radii.get(i) > V::Real::ZERO) {
            return None;
        }
        // The ellipsoid is the unit ball under D = diag(radii): the ray o + t·d meets it where D⁻¹o + t·D⁻¹d meets
        // the unit ball, at the same t. The outward normal at a point p is the gradient of |D⁻¹p|², D⁻²p, which
        // is D⁻¹ (D⁻¹p): the unit ball's point divided by the radii.
        let inv = V::from_fn(|i| V::Real::ONE / self.radii.get(i));
        let (q, e) = (o.mul_elem(inv), d.mul_elem(inv));
        let normal_at = |p: V| direction(p.mul_elem(inv));
        let span = round(q, e, V::Real::ONE).map(|s| Span {
            t_in: s.t.0,
            n_in: normal_at(s.p.0),
            t_out: s.t.1,
            n_out: normal_at(s.p.1),
        });
        Some(decide(span, max_toi, solid))
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // From the centre: the longest semi-axis. Elsewhere a bound: the centre's distance plus that, or the
        // bounding box's farthest corner, whichever is smaller.
        let longest = self.radii.abs_elem().max_abs();
        if from == V::zero() {
            return longest;
        }
        (length_unscaled(from) + longest).min(core_box_reach(self, from))
    }
}
