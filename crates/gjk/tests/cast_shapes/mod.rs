//! Random shapes for the cast suites, described in f64 and built in either precision (f32, f64) and space (2D,
//! 3D): every family of the crate with a closed-form size, and wrapped ones.
use super::common::{uniform, Space2, Space3};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Posed, Rounded, Scaled, SupportMap,
};
use rand::rngs::SmallRng;
use rand::Rng;

/// A random shape: what to build, in f64 (3D shapes use all three coordinates, 2D ones the first two).
#[derive(Clone, Debug)]
pub enum Desc {
    Ball(f64),
    Cuboid(DVec3),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Ellipsoid(DVec3),
    Hull(Vec<DVec3>),
    RoundedBox(DVec3, f64),
    /// A shape placed inside another frame (3D: a quaternion; 2D: the z turn of one).
    Posed(Box<Desc>, DQuat, DVec3),
    /// A shape scaled along its axes (a uniform factor keeps its rounding).
    Scaled(Box<Desc>, DVec3),
    /// The Minkowski sum of two shapes.
    Sum(Box<Desc>, Box<Desc>),
}

pub type Shape<V> = Box<dyn SupportMap<V>>;

pub fn build3<V: Space3>(d: &Desc) -> Shape<V> {
    let r = |x: f64| V::Real::from_f64(x);
    match d {
        Desc::Ball(radius) => Box::new(Ball::new(r(*radius)).unwrap()),
        Desc::Cuboid(h) => Box::new(Cuboid::new(V::from64(*h)).unwrap()),
        Desc::Capsule(h, radius) => Box::new(Capsule::new(r(*h), r(*radius)).unwrap()),
        Desc::Cylinder(h, radius) => Box::new(Cylinder::new(r(*h), r(*radius)).unwrap()),
        Desc::Cone(h, radius) => Box::new(Cone::new(r(*h), r(*radius)).unwrap()),
        Desc::Ellipsoid(radii) => Box::new(Ellipsoid::new(V::from64(*radii)).unwrap()),
        Desc::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| V::from64(q)).collect::<Vec<_>>()).unwrap()),
        Desc::RoundedBox(h, radius) => Box::new(Rounded::new(Cuboid::new(V::from64(*h)).unwrap(), r(*radius)).unwrap()),
        Desc::Posed(inner, q, t) => Box::new(Posed::new(build3::<V>(inner), V::pose_from64(&Iso::new(*q, *t)))),
        Desc::Scaled(inner, s) => Box::new(Scaled::new(build3::<V>(inner), V::from64(*s)).unwrap()),
        Desc::Sum(a, b) => Box::new(MinkowskiSum::new(build3::<V>(a), build3::<V>(b))),
    }
}

pub fn build2<V: Space2>(d: &Desc) -> Shape<V> {
    let r = |x: f64| V::Real::from_f64(x);
    let flat = |v: DVec3| V::from64(DVec2::new(v.x, v.y));
    match d {
        Desc::Ball(radius) => Box::new(Ball::new(r(*radius)).unwrap()),
        Desc::Cuboid(h) => Box::new(Cuboid::new(flat(*h)).unwrap()),
        Desc::Capsule(h, radius) => Box::new(Capsule::new(r(*h), r(*radius)).unwrap()),
        Desc::Ellipsoid(radii) => Box::new(Ellipsoid::new(flat(*radii)).unwrap()),
        Desc::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| flat(q)).collect::<Vec<_>>()).unwrap()),
        Desc::RoundedBox(h, radius) => Box::new(Rounded::new(Cuboid::new(flat(*h)).unwrap(), r(*radius)).unwrap()),
        Desc::Posed(inner, q, t) => {
            let pose = Iso::new(Rot2::from_angle(2.0 * q.z.atan2(q.w)), DVec2::new(t.x, t.y));
            Box::new(Posed::new(build2::<V>(inner), V::pose_from64(&pose)))
        }
        Desc::Scaled(inner, s) => Box::new(Scaled::new(build2::<V>(inner), flat(*s)).unwrap()),
        Desc::Sum(a, b) => Box::new(MinkowskiSum::new(build2::<V>(a), build2::<V>(b))),
        Desc::Cylinder(..) | Desc::Cone(..) => unreachable!("3D only"),
    }
}

pub fn random_desc(r: &mut SmallRng, dim: usize) -> Desc {
    let size = |r: &mut SmallRng| uniform(r, 0.05, 1.0);
    let half = |r: &mut SmallRng| DVec3::new(size(r), size(r), size(r));
    let kinds = if dim == 3 { 8 } else { 6 };
    match r.gen_range(0..kinds) {
        0 => Desc::Ball(size(r)),
        1 => Desc::Cuboid(half(r)),
        2 => Desc::Capsule(size(r), uniform(r, 0.02, 0.5)),
        3 => Desc::Ellipsoid(half(r)),
        4 => {
            let n = r.gen_range(4..16);
            let s = size(r);
            Desc::Hull((0..n).map(|_| DVec3::new(uniform(r, -s, s), uniform(r, -s, s), uniform(r, -s, s))).collect())
        }
        5 => Desc::RoundedBox(half(r), uniform(r, 0.01, 0.3)),
        6 => Desc::Cylinder(size(r), size(r)),
        _ => Desc::Cone(size(r), size(r)),
    }
}

/// [`random_desc`], or one of its shapes placed off its origin and turned, scaled (uniformly or not), or summed
/// with another (a quarter of the draws each, the rest plain).
pub fn random_wrapped_desc(r: &mut SmallRng, dim: usize) -> Desc {
    let plain = random_desc(r, dim);
    match r.gen_range(0..8) {
        0 | 1 => {
            let q =
                if dim == 3 { super::common::unit_quat(r) } else { DQuat::from_rotation_z(super::common::angle(r)) };
            let t = DVec3::new(
                uniform(r, -0.5, 0.5),
                uniform(r, -0.5, 0.5),
                if dim == 3 { uniform(r, -0.5, 0.5) } else { 0.0 },
            );
            Desc::Posed(Box::new(plain), q, t)
        }
        2 => {
            let k = uniform(r, 0.3, 2.0);
            Desc::Scaled(Box::new(plain), DVec3::splat(k))
        }
        3 => {
            Desc::Scaled(Box::new(plain), DVec3::new(uniform(r, 0.3, 2.0), uniform(r, 0.3, 2.0), uniform(r, 0.3, 2.0)))
        }
        4 => Desc::Sum(Box::new(plain), Box::new(random_desc(r, dim))),
        _ => plain,
    }
}
