//! The leaf of a mesh: a facet of DIM corners — a triangle in 3D, a segment in 2D — written once for both.

use crate::gjk::Status;
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Feature, SupportMap, Triangle};
use crate::simplex::closest_to_origin;

/// A triangle (3D) or a segment (2D) of a mesh: its first `V::DIM` corners (the third is unused in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facet<V> {
    /// Corners; `corners[2]` repeats `corners[1]` in 2D.
    pub corners: [V; 3],
}

/// Which part of a facet a point lies on: bit `i` for corner `i` (one bit: a corner, two: an edge, all: inside).
pub type FeatureMask = u8;

impl<V: Vector> Facet<V> {
    /// The facet with these corners (the first `V::DIM` count).
    #[inline]
    pub fn new(corners: [V; 3]) -> Self {
        Self { corners }
    }

    /// The used corners.
    #[inline]
    pub fn points(&self) -> &[V] {
        &self.corners[..V::DIM]
    }

    /// The closest point of the facet to `p` and the feature holding it, by the signed-volumes solver on the facet
    /// moved so that `p` is the origin (exact regions, robust on slivers and degenerate facets).
    pub fn closest_point(&self, p: V) -> (V, FeatureMask) {
        let rel = [self.corners[0] - p, self.corners[1] - p, self.corners[2] - p];
        let bc = closest_to_origin(&rel[..V::DIM]);
        (bc.combine(&self.corners[..V::DIM]), bc.mask)
    }

    /// Unit normal (either sign; the orientation of the corners in 3D, the segment turned clockwise in 2D, so that
    /// a counter-clockwise polygon's normals point out), `None` for a degenerate facet.
    pub fn normal(&self) -> Option<V> {
        let [a, b, c] = self.corners;
        let n = if V::DIM == 2 {
            let e = b - a;
            V::from_fn(|i| if i == 0 { e.get(1) } else { -e.get(0) })
        } else {
            cross(b - a, c - a)
        };
        let n = n.normalize_or_zero();
        (n != V::zero()).then_some(n)
    }

    /// Exact ray cast: the time `t ∈ [0, max_t]` where `origin + t · dir` meets the facet, with the facet's normal
    /// turned against the ray. A ray in the facet's plane (line in 2D) goes through the general convex ray cast.
    ///
    /// In 3D the hit test is watertight: the ray passes inside edge `ij` by the sign of `dir · (vᵢ − o) × (vⱼ − o)`,
    /// which a neighbour sharing the edge computes as the exact negation (a cross product's terms swap), so a ray
    /// through a shared edge meets at least one of the two triangles.
    pub fn ray_cast(&self, origin: V, dir: V, max_t: V::Real) -> Option<(V::Real, V)> {
        let zero = V::Real::ZERO;
        let [a, b, c] = self.corners;
        let (n, denom, t) = if V::DIM == 2 {
            let e = b - a;
            let n = V::from_fn(|i| if i == 0 { e.get(1) } else { -e.get(0) });
            let (ao, denom) = (a - origin, n.dot(dir));
            if denom == zero {
                return self.planar_ray_cast(origin, dir, max_t);
            }
            // Which side of the ray each end lies on: opposite signs (or a zero) mean the line crosses the segment.
            let (sa, sb) = (perp(dir, a - origin), perp(dir, b - origin));
            if (sa > zero && sb > zero) || (sa < zero && sb < zero) {
                return None;
            }
            (n, denom, n.dot(ao) / denom)
        } else {
            let (ao, bo, co) = (a - origin, b - origin, c - origin);
            let w = [dir.dot(cross(ao, bo)), dir.dot(cross(bo, co)), dir.dot(cross(co, ao))];
            let all_ge = w.iter().all(|&x| x >= zero);
            let all_le = w.iter().all(|&x| x <= zero);
            if !all_ge && !all_le {
                return None;
            }
            let n = cross(b - a, c - a);
            let denom = n.dot(dir);
            if denom == zero {
                return self.planar_ray_cast(origin, dir, max_t);
            }
            (n, denom, n.dot(ao) / denom)
        };
        if !(t >= zero && t <= max_t) {
            return None;
        }
        let n = n.normalize_or_zero();
        Some((t, if denom > zero { -n } else { n }))
    }

    /// A ray lying in the facet's plane: the general (GJK) ray cast of the facet as a convex shape (a
    /// [`Triangle`], which has no fast path to come back here; in 2D its repeated corner makes it the segment).
    #[cold]
    fn planar_ray_cast(&self, origin: V, dir: V, max_t: V::Real) -> Option<(V::Real, V)> {
        let shape = Triangle { vertices: self.corners };
        let r = crate::cast::ray_cast(&shape, &crate::math::Iso::identity(), origin, dir, max_t, true);
        (r.hit && r.status != Status::MaxIterations).then_some((r.toi, r.normal))
    }
}

/// 3D cross product through coordinates (the facet code is generic; only 3D calls it).
#[inline]
pub(crate) fn cross<V: Vector>(u: V, v: V) -> V {
    V::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        u.get(j) * v.get(k) - u.get(k) * v.get(j)
    })
}

/// 2D cross product `u.x v.y − u.y v.x`.
#[inline]
pub(crate) fn perp<V: Vector>(u: V, v: V) -> V::Real {
    u.get(0) * v.get(1) - u.get(1) * v.get(0)
}

impl<V: Vector> SupportMap<V> for Facet<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // Ties go to the lowest corner, deterministically.
        let mut best = self.corners[0];
        let mut best_dot = best.dot(dir);
        for &p in &self.corners[1..V::DIM] {
            let d = p.dot(dir);
            if d > best_dot {
                best = p;
                best_dot = d;
            }
        }
        best
    }
    fn center(&self) -> V {
        let sum = self.points().iter().fold(V::zero(), |s, &p| s + p);
        sum * (V::Real::ONE / V::Real::from_f64(V::DIM as f64))
    }
    fn local_aabb(&self) -> Aabb<V> {
        let p = self.points();
        p[1..].iter().fold(Aabb::new(p[0], p[0]), |b, &q| Aabb::new(b.min.min_elem(q), b.max.max_elem(q)))
    }
    fn support_feature(&self, _dir: V, out: &mut Feature<V>) {
        // The facet is its own face (3D) or edge (2D), from either side.
        out.reset(0);
        for (i, &p) in self.points().iter().enumerate() {
            out.push(p, i as u32);
        }
    }
    fn ray_cast_local(&self, origin: V, dir: V, max_toi: V::Real, _solid: bool) -> Option<Option<(V::Real, V)>> {
        Some(self.ray_cast(origin, dir, max_toi))
    }
}
