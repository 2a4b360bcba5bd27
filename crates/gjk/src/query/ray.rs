//! Ray casts against any shape: convex shapes through [`crate::cast::ray_cast`], half-spaces in closed form,
//! composites through the tree with each leaf's exact test (a watertight ray–triangle test for meshes).

use super::dispatch::{Kind, Shape};
use super::positive;
use crate::bvh::Ray;
use crate::composite::{Composite, HalfSpace};
use crate::gjk::Status;
use crate::math::{Iso, Real, Vector};
use crate::shape::SupportMap;

/// The answer of [`ray_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<V: Vector> {
    /// True when the ray meets the shape within [0, max_toi].
    pub hit: bool,
    /// Time of impact in units of the direction: `point = origin + toi · direction`.
    pub toi: V::Real,
    /// Unit normal of the surface hit, against the ray for a mesh's triangle, outward for convex shapes (zero for
    /// a solid hit from inside).
    pub normal: V,
    /// `origin + toi · direction`.
    pub point: V,
    /// The leaf hit (triangle, part, cell triangle); `None` for a convex shape or a half-space.
    pub part: Option<u32>,
    /// How the query ended ([`Status::Converged`] for the exact paths).
    pub status: Status,
}

impl<V: Vector> RayHit<V> {
    fn miss(status: Status) -> Self {
        Self { hit: false, toi: V::Real::INFINITY, normal: V::zero(), point: V::zero(), part: None, status }
    }
}

/// The first point where the ray `origin + t · direction`, t in [0, max_toi], meets `shape` at `pose`, with the
/// leaf it hits. A `solid` shape is hit at t = 0 by a ray starting inside it (a closed mesh, a compound's part,
/// below a height field, a half-space); otherwise the ray goes on to the surface.
///
/// ```
/// use gjk::composite::TriMesh;
/// use gjk::math::{DVec3, Iso};
/// use gjk::query::ray_cast;
/// let tri = TriMesh::new(vec![DVec3::ZERO, DVec3::X, DVec3::Y], vec![[0, 1, 2]]).unwrap();
/// let hit = ray_cast(&tri, &Iso::identity(), DVec3::new(0.25, 0.25, 2.0), DVec3::new(0.0, 0.0, -1.0), 10.0, true);
/// assert!(hit.hit && hit.toi == 2.0 && hit.part == Some(0));
/// assert_eq!(hit.normal, DVec3::Z);
/// ```
pub fn ray_cast<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, max_toi: V::Real, solid: bool) -> RayHit<V>
where
    V: Vector,
    S: Shape<V> + ?Sized,
{
    shape.visit(RayQuery { pose, origin, direction, max_toi, solid, any: false })
}

/// Whether the ray meets the shape within [0, max_toi], stopping at the first leaf hit found (not necessarily
/// the nearest): the shadow-ray and line-of-sight query.
pub fn ray_cast_any<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, max_toi: V::Real, solid: bool) -> RayHit<V>
where
    V: Vector,
    S: Shape<V> + ?Sized,
{
    shape.visit(RayQuery { pose, origin, direction, max_toi, solid, any: true })
}

struct RayQuery<'p, V: Vector> {
    pose: &'p Iso<V>,
    origin: V,
    direction: V,
    max_toi: V::Real,
    solid: bool,
    any: bool,
}

impl<V: Vector> RayQuery<'_, V> {
    fn hit(&self, toi: V::Real, normal: V, part: Option<u32>, status: Status) -> RayHit<V> {
        RayHit { hit: true, toi, normal, point: self.origin + self.direction * toi, part, status }
    }
}

impl<V: Vector> Kind<V> for RayQuery<'_, V> {
    type Output = RayHit<V>;

    fn convex<S: SupportMap<V> + ?Sized>(self, s: &S) -> RayHit<V> {
        let r = crate::cast::ray_cast(s, self.pose, self.origin, self.direction, self.max_toi, self.solid);
        if r.hit {
            self.hit(r.toi, r.normal, None, r.status)
        } else {
            RayHit::miss(r.status)
        }
    }

    fn half_space(self, h: &HalfSpace<V>) -> RayHit<V> {
        let zero = V::Real::ZERO;
        let n = self.pose.transform_vector(h.normal());
        let (s0, closing) = (n.dot(self.origin - self.pose.translation), n.dot(self.direction));
        if s0 <= zero && self.solid {
            return self.hit(zero, if s0 == zero { n } else { V::zero() }, None, Status::Converged);
        }
        // Outside and heading in, or inside (hollow) and heading out: the plane is met at −s0 / (n·d).
        let meets = (s0 > zero && closing < zero) || (s0 <= zero && closing > zero);
        let t = -s0 / closing;
        if meets && t <= self.max_toi {
            self.hit(positive(t), n, None, Status::Converged)
        } else {
            RayHit::miss(Status::Converged)
        }
    }

    fn composite<C: Composite<V>>(self, c: &C) -> RayHit<V> {
        let (o, d) =
            (self.pose.inverse_transform_point(self.origin), self.pose.inverse_transform_vector(self.direction));
        if self.solid && c.is_solid() && c.contains_local(o) {
            return self.hit(V::Real::ZERO, V::zero(), None, Status::Converged);
        }
        let mut found = None;
        c.bvh().cast_ray(&Ray::new(o, d), self.max_toi, self.any, |id, max_t| {
            let (t, n) = c.leaf_ray_cast(id, o, d, max_t)?;
            found = Some((t, n, id));
            Some(t)
        });
        match found {
            Some((t, n, id)) => self.hit(t, self.pose.transform_vector(n), Some(id), Status::Converged),
            None => RayHit::miss(Status::Converged),
        }
    }
}
