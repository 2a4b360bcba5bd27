//! The four spaces the harness runs in (2D and 3D, f32 and f64): building a [`Shape`] description into the
//! library's shapes, poses from [`Pose`], and support values in f64 for the checks.

use gjk::cast::Angular;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, MinkowskiSum, Point, Posed, Rounded,
    Scaled, Segment, SupportFn, SupportMap, Triangle,
};

use crate::spec::{Pose, Rot, Shape};

/// A built shape, usable from the batch API (which needs `Sync`) and from any thread.
pub type Dyn<V> = Box<dyn SupportMap<V> + Send + Sync>;

/// What the harness needs of a space beyond [`Vector`].
pub trait Space: Vector {
    /// "2d-f32", "3d-f64", ...: the label in statistics and reproducers.
    const LABEL: &'static str;
    /// A rotation from its description (normalised).
    fn rotation(r: &Rot) -> Self::Rotation;
    /// An angular velocity from 1 (2D) or 3 (3D) numbers.
    fn angular(w: &[f64]) -> Angular<Self>;
    /// The 3D-only shapes (cylinder, cone, frustum); `None` for any other kind.
    fn special(s: &Shape) -> Option<Result<Dyn<Self>, String>>;
}

fn err(e: gjk::shape::ShapeError) -> String {
    e.to_string()
}

/// A vector of `V` from f64 coordinates (rounded to f32 in the f32 spaces).
pub fn vec<V: Vector>(c: &[f64]) -> V {
    V::from_f64_slice(c)
}

/// A vector's coordinates in f64 (exact).
pub fn coords<V: Vector>(v: V) -> Vec<f64> {
    v.to_f64_array()[..V::DIM].to_vec()
}

/// A real number of `V`'s precision.
pub fn real<V: Vector>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

/// Builds a pose.
pub fn pose<V: Space>(p: &Pose) -> Iso<V> {
    Iso::new(V::rotation(&p.rotation), vec(&p.translation))
}

/// Builds a shape; an error names what the library refused (the generator only writes valid shapes, so an
/// error is itself a finding).
pub fn build<V: Space>(s: &Shape) -> Result<Dyn<V>, String> {
    if let Some(special) = V::special(s) {
        return special;
    }
    Ok(match s {
        Shape::Ball { radius } => Box::new(Ball::new(real::<V>(*radius)).map_err(err)?),
        Shape::Cuboid { half_extents } => Box::new(Cuboid::new(vec::<V>(half_extents)).map_err(err)?),
        Shape::Capsule { half_height, radius } => {
            Box::new(Capsule::new(real::<V>(*half_height), real::<V>(*radius)).map_err(err)?)
        }
        Shape::Ellipsoid { radii } => Box::new(Ellipsoid::new(vec::<V>(radii)).map_err(err)?),
        Shape::Polytope { points } => {
            let pts: Vec<V> = points.iter().map(|p| vec::<V>(p)).collect();
            Box::new(ConvexPolytope::new(&pts).map_err(err)?)
        }
        Shape::Segment { a, b } => Box::new(Segment::new(vec::<V>(a), vec::<V>(b)).map_err(err)?),
        Shape::Triangle { a, b, c } => Box::new(Triangle::new(vec::<V>(a), vec::<V>(b), vec::<V>(c)).map_err(err)?),
        Shape::Point { at } => Box::new(Point::new(vec::<V>(at)).map_err(err)?),
        Shape::Rounded { shape, radius } => {
            Box::new(Rounded::new(build::<V>(shape)?, real::<V>(*radius)).map_err(err)?)
        }
        Shape::Scaled { shape, scale } => Box::new(Scaled::new(build::<V>(shape)?, vec::<V>(scale)).map_err(err)?),
        Shape::Posed { shape, pose: p } => Box::new(Posed::new(build::<V>(shape)?, pose::<V>(p))),
        Shape::Minkowski { a, b } => Box::new(MinkowskiSum::new(build::<V>(a)?, build::<V>(b)?)),
        Shape::SupportFn { shape } => {
            let inner = build::<V>(shape)?;
            let radius = inner.radius();
            Box::new(SupportFn::rounded(move |d: V| inner.support(d), radius))
        }
        Shape::Cylinder { .. } | Shape::Cone { .. } | Shape::Frustum { .. } => {
            return Err(format!("{} exists only in 3D", s.family()))
        }
    })
}

macro_rules! space2 {
    ($v:ty, $r:ty, $label:literal) => {
        impl Space for $v {
            const LABEL: &'static str = $label;
            fn rotation(r: &Rot) -> Rot2<$r> {
                match r {
                    Rot::Angle(a) => Rot2::from_angle(*a as $r),
                    Rot::Quat(_) => Rot2::from_angle(0.0),
                }
            }
            fn angular(w: &[f64]) -> $r {
                w[0] as $r
            }
            fn special(_s: &Shape) -> Option<Result<Dyn<Self>, String>> {
                None
            }
        }
    };
}

macro_rules! space3 {
    ($v:ty, $q:ty, $r:ty, $label:literal) => {
        impl Space for $v {
            const LABEL: &'static str = $label;
            fn rotation(r: &Rot) -> $q {
                match r {
                    Rot::Quat(q) => {
                        let q = <$q>::from_xyzw(q[0] as $r, q[1] as $r, q[2] as $r, q[3] as $r);
                        // The generator writes unit quaternions; re-normalise after rounding to f32.
                        Rotation::<$v>::normalized(&q).unwrap_or(<$q>::IDENTITY)
                    }
                    Rot::Angle(_) => <$q>::IDENTITY,
                }
            }
            fn angular(w: &[f64]) -> $v {
                vec::<$v>(w)
            }
            fn special(s: &Shape) -> Option<Result<Dyn<Self>, String>> {
                let hh_r = |h: f64, r: f64| (h as $r, r as $r);
                Some(match s {
                    Shape::Cylinder { half_height, radius } => {
                        let (h, r) = hh_r(*half_height, *radius);
                        Cylinder::new(h, r).map(|c| Box::new(c) as Dyn<Self>).map_err(err)
                    }
                    Shape::Cone { half_height, radius } => {
                        let (h, r) = hh_r(*half_height, *radius);
                        Cone::new(h, r).map(|c| Box::new(c) as Dyn<Self>).map_err(err)
                    }
                    Shape::Frustum { corners } => {
                        let pts: Vec<$v> = corners.iter().map(|p| vec::<$v>(p)).collect();
                        Frustum::from_corners(&pts).map(|f| Box::new(f) as Dyn<Self>).map_err(err)
                    }
                    _ => return None,
                })
            }
        }
    };
}

space2!(Vec2, f32, "2d-f32");
space2!(DVec2, f64, "2d-f64");
space3!(Vec3, Quat, f32, "3d-f32");
space3!(DVec3, DQuat, f64, "3d-f64");

/// A posed shape as the checks see it: the support function of the whole shape (core and radius) in world
/// coordinates, evaluated in the shape's precision and returned in f64.
pub struct Placed<'a, V: Vector> {
    pub shape: &'a (dyn SupportMap<V> + Send + Sync),
    pub pose: Iso<V>,
}

impl<V: Vector> Placed<'_, V> {
    /// h(n) = max over the shape of n·p, for a unit world direction `n` (f64).
    pub fn support_value(&self, n: &[f64]) -> f64 {
        let local = self.pose.inverse_transform_vector(vec::<V>(n));
        let p = self.pose.transform_point(self.shape.support(local));
        dot(&coords(p), n) + self.shape.radius().to_f64() * norm(n)
    }

    /// The world support point of the whole shape along `n` (f64).
    pub fn support_point(&self, n: &[f64]) -> Vec<f64> {
        let local = self.pose.inverse_transform_vector(vec::<V>(n));
        let p = coords(self.pose.transform_point(self.shape.support(local)));
        let r = self.shape.radius().to_f64();
        let len = norm(n);
        if r > 0.0 && len > 0.0 {
            p.iter().zip(n).map(|(a, b)| a + b * r / len).collect()
        } else {
            p
        }
    }

    /// The radius of a ball around the world origin of the shape's pose that holds the shape: its local bounding
    /// box's farthest corner (f64).
    pub fn extent(&self) -> f64 {
        let b = self.shape.local_aabb();
        let corner = b.min.abs_elem().max_elem(b.max.abs_elem());
        norm(&coords(corner))
    }
}

/// Dot product of two f64 coordinate lists.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Euclidean length.
pub fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// a − b.
pub fn sub(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// a + s·b.
pub fn axpy(a: &[f64], s: f64, b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + s * y).collect()
}

/// s·a.
pub fn scale(a: &[f64], s: f64) -> Vec<f64> {
    a.iter().map(|x| x * s).collect()
}
