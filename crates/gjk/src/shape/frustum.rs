use super::{check_size, Aabb, ConvexPolytope, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector3};
use alloc::vec::Vec;

/// A 3D view frustum: the convex hull of its eight corners.
///
/// The local frame is the camera's: it looks down −z, y is up. Culling a scene is a loop of
/// [`intersects`](crate::gjk::intersects) queries of this shape against each object.
///
/// ```
/// use gjk::math::DVec3;
/// use gjk::shape::{Frustum, SupportMap};
/// let f = Frustum::perspective(1.0f64, 1.0, 0.1, 100.0).unwrap();
/// assert!((f.support(DVec3::new(0.0, 0.0, -1.0)).z + 100.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Frustum<V> {
    hull: ConvexPolytope<V>,
}

impl<V: Vector3> Frustum<V> {
    /// A perspective frustum from a vertical field of view (radians), an aspect ratio (width / height) and the
    /// near and far distances.
    pub fn perspective(fov_y: V::Real, aspect: V::Real, near: V::Real, far: V::Real) -> Result<Self, ShapeError> {
        check_size("fov_y", fov_y)?;
        check_size("aspect", aspect)?;
        check_size("near", near)?;
        check_size("far", far)?;
        let pi = V::Real::from_f64(core::f64::consts::PI);
        if !(fov_y < pi) || !(near <= far) {
            return Err(ShapeError::Invalid("need 0 ≤ fov_y < π and 0 ≤ near ≤ far"));
        }
        let half = fov_y * V::Real::HALF;
        let tan = half.sin() / half.cos();
        let corners = |d: V::Real| {
            let (h, w) = (d * tan, d * tan * aspect);
            [V::new3(-w, -h, -d), V::new3(w, -h, -d), V::new3(w, h, -d), V::new3(-w, h, -d)]
        };
        let (n, f) = (corners(near), corners(far));
        Self::from_corners(&[n[0], n[1], n[2], n[3], f[0], f[1], f[2], f[3]])
    }

    /// An orthographic box frustum (left, right, bottom, top, near, far), looking down −z.
    pub fn orthographic(
        left: V::Real,
        right: V::Real,
        bottom: V::Real,
        top: V::Real,
        near: V::Real,
        far: V::Real,
    ) -> Result<Self, ShapeError> {
        for (what, v) in
            [("left", left), ("right", right), ("bottom", bottom), ("top", top), ("near", near), ("far", far)]
        {
            if !v.is_finite() {
                return Err(ShapeError::NonFinite(what));
            }
        }
        if !(left <= right && bottom <= top && near <= far) {
            return Err(ShapeError::Invalid("need left ≤ right, bottom ≤ top, near ≤ far"));
        }
        let mut c = Vec::with_capacity(8);
        for z in [near, far] {
            for (x, y) in [(left, bottom), (right, bottom), (right, top), (left, top)] {
                c.push(V::new3(x, y, -z));
            }
        }
        Self::from_corners(&c)
    }

    /// A frustum bounded by six planes, each `(n, d)` keeping the points with `n · p ≤ d`, in the order left,
    /// right, bottom, top, near, far (left/right, bottom/top and near/far must be opposite pairs). The corners are
    /// the intersections of each triple of adjacent planes.
    pub fn from_planes(planes: &[(V, V::Real); 6]) -> Result<Self, ShapeError> {
        let mut corners = Vec::with_capacity(8);
        for &i in &[0usize, 1] {
            for &j in &[2usize, 3] {
                for &k in &[4usize, 5] {
                    let p = intersect_planes(planes[i], planes[j], planes[k])
                        .ok_or(ShapeError::Invalid("three frustum planes do not meet in a point"))?;
                    corners.push(p);
                }
            }
        }
        Self::from_corners(&corners)
    }

    /// The frustum with these corners (any order; their convex hull is taken).
    pub fn from_corners(corners: &[V]) -> Result<Self, ShapeError> {
        Ok(Self { hull: ConvexPolytope::new(corners)? })
    }

    /// The frustum as a polytope.
    pub fn polytope(&self) -> &ConvexPolytope<V> {
        &self.hull
    }
}

/// The point on three planes, by Cramer's rule: p = (d1 (n2×n3) + d2 (n3×n1) + d3 (n1×n2)) / (n1 · (n2×n3)).
fn intersect_planes<V: Vector3>(a: (V, V::Real), b: (V, V::Real), c: (V, V::Real)) -> Option<V> {
    let det = a.0.dot(b.0.cross(c.0));
    let p = (b.0.cross(c.0) * a.1 + c.0.cross(a.0) * b.1 + a.0.cross(b.0) * c.1) * (V::Real::ONE / det);
    (det.abs() > V::Real::ZERO && p.is_finite()).then_some(p)
}

impl<V: Vector3> SupportMap<V> for Frustum<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.hull.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.hull.support_hinted(dir, hint)
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }
    fn center(&self) -> V {
        self.hull.center()
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        self.hull.support_feature(dir, out)
    }
    fn local_aabb(&self) -> Aabb<V> {
        self.hull.local_aabb()
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        self.hull.farthest_core_distance(from)
    }
}
