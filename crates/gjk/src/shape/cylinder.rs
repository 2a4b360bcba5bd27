use super::ray_span::{decide, direction, round, slab, without, Span};
use super::{check_size, length_unscaled, Aabb, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector3};

/// A 3D cylinder along the local y axis, centred on the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<R> {
    /// Half the height along y.
    pub half_height: R,
    /// Radius of the caps.
    pub radius: R,
}

impl<R: Real> Cylinder<R> {
    /// A cylinder; errors on negative or non-finite sizes.
    pub fn new(half_height: R, radius: R) -> Result<Self, ShapeError> {
        Ok(Self { half_height: check_size("half_height", half_height)?, radius: check_size("radius", radius)? })
    }
}

/// The rim point of a circle of `radius` in the xz plane farthest along `dir` (the centre if `dir` is along y).
#[inline]
pub(crate) fn rim<V: Vector3>(dir: V, radius: V::Real) -> (V::Real, V::Real) {
    let (x, z) = (dir.get(0), dir.get(2));
    let len = (x * x + z * z).sqrt();
    if len > V::Real::ZERO {
        (x * (radius / len), z * (radius / len))
    } else {
        (V::Real::ZERO, V::Real::ZERO)
    }
}

impl<V: Vector3> SupportMap<V> for Cylinder<V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let (x, z) = rim(dir, self.radius);
        let y = if dir.get(1) < V::Real::ZERO { -self.half_height } else { self.half_height };
        V::new3(x, y, z)
    }
    /// A cylinder of radius 0 is the segment of its axis: no curved part, so EPA's answer is exact without the
    /// refinement, whose normal at a segment's end is only √ε-accurate (2.5e-8 rad: 0.06 along a cylinder 4e6
    /// long, gjk-fuzz seed 31 case 1176).
    #[inline]
    fn polyhedral(&self) -> bool {
        self.radius == V::Real::ZERO
    }
    #[inline]
    fn fixed_edges(&self) -> bool {
        // The side's lines, parallel to the axis.
        true
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        let h = V::new3(self.radius, self.half_height, self.radius);
        Aabb::new(-h, h)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // On the rim of the cap farther from `from`, at the point of the circle opposite its radial offset.
        let radial = length_unscaled(V::new3(from.get(0), V::Real::ZERO, from.get(2)));
        length_unscaled(V::new3(radial + self.radius, from.get(1).abs() + self.half_height, V::Real::ZERO))
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        Some(ray_cylinder(self.half_height, self.radius, o, d, max_toi, solid))
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        // Within about 1.1° of the axis the cap supports dir: its rim, as 8 points on the true circle. Within
        // about 1.1° of perpendicular, the side line. Otherwise a single rim point.
        let len = dir.length();
        let axial = dir.get(1) / len;
        let h = if axial < V::Real::ZERO { -self.half_height } else { self.half_height };
        let near = V::Real::from_f64(0.9998);
        if axial.abs() >= near {
            out.reset(if axial < V::Real::ZERO { 1 } else { 2 });
            for i in 0..8 {
                let a = V::Real::from_f64(i as f64 * core::f64::consts::FRAC_PI_4);
                out.push(V::new3(self.radius * a.cos(), h, self.radius * a.sin()), i);
            }
        } else if axial.abs() <= V::Real::from_f64(0.02) {
            let (x, z) = rim(dir, self.radius);
            out.reset(3);
            out.push(V::new3(x, -self.half_height, z), 8);
            out.push(V::new3(x, self.half_height, z), 9);
        } else {
            out.single(self.support(dir), 10);
        }
    }
}

/// Ray against the cylinder as the intersection of the infinite round cylinder and the slab |y| ≤ h: the later
/// entry and the earlier exit bound the stretch inside, and whichever piece sets them gives the normal.
fn ray_cylinder<V: Vector3>(h: V::Real, r: V::Real, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<(V::Real, V)> {
    let (oo, dd) = (without(o, 1), without(d, 1));
    let span = (|| {
        let side = round(oo, dd, r)?;
        let (s0, s1) = side.t;
        let radial = |t: V::Real| direction(if t == s0 { side.p.0 } else { side.p.1 });
        let (c0, c1) = slab(o.get(1), d.get(1), -h, h)?;
        let cap = if d.get(1) > V::Real::ZERO { V::axis(1) } else { -V::axis(1) };
        let (t_in, n_in) = if c0 > s0 { (c0, -cap) } else { (s0, radial(s0)) };
        let (t_out, n_out) = if c1 < s1 { (c1, cap) } else { (s1, radial(s1)) };
        Some(Span { t_in, n_in, t_out, n_out })
    })();
    decide(span, max_toi, solid)
}
