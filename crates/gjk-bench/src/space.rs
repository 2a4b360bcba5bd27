//! The four spaces benchmarked (2D and 3D, f32 and f64) behind one trait, each with its parry crate, so every
//! query is written once.
//!
//! Shapes are described once, in f64 ([`Spec`] over the *master* vector type `DVec2` / `DVec3`), and converted
//! into each library's types in each precision from the same numbers: an f32 cell gives our `Vec3` and parry3d
//! the same f32 values.

use std::hint::black_box;
use std::sync::Arc;

use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Real, Rot2, Vec2, Vec3, Vector, Vector2, Vector3};
use gjk::shape::{Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, SupportMap};

use crate::mixed::Hidden;

use crate::rng::Rng;
use crate::workload::Kind;

/// A shape, in f64, from which every library's shape in every precision is built.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec<M> {
    /// Sphere or disc of this radius.
    Ball(f64),
    /// Box of these half-extents.
    Cuboid(M),
    /// Capsule along y: half-height of the core segment, radius.
    Capsule(f64, f64),
    /// Cylinder along y (3D only): half-height, radius.
    Cylinder(f64, f64),
    /// Cone along y, apex up (3D only): half-height, base radius.
    Cone(f64, f64),
    /// Ellipsoid of these semi-axes (3D only; parry has none).
    Ellipsoid(M),
    /// Convex hull of these points.
    Hull(Vec<M>),
    /// This shape seen by our queries only through its support function (no closed-form core hook; see
    /// [`crate::mixed::Hidden`]); parry gets the shape itself.
    Hidden(Box<Spec<M>>),
}

impl<M: Vector> Spec<M> {
    /// The same shape with every number rounded to the precision of `V` (and back to f64): the geometry a cell of
    /// space `V` really answers, on which its accuracy reference is computed.
    pub fn rounded<V: Space<Master = M>>(&self) -> Spec<M> {
        let r = |x: f64| <V::Real as Real>::from_f64(x).to_f64();
        let p = |m: M| back::<V>(V::point(m));
        match self {
            Spec::Ball(x) => Spec::Ball(r(*x)),
            Spec::Cuboid(h) => Spec::Cuboid(p(*h)),
            Spec::Capsule(h, x) => Spec::Capsule(r(*h), r(*x)),
            Spec::Cylinder(h, x) => Spec::Cylinder(r(*h), r(*x)),
            Spec::Cone(h, x) => Spec::Cone(r(*h), r(*x)),
            Spec::Ellipsoid(h) => Spec::Ellipsoid(p(*h)),
            Spec::Hull(pts) => Spec::Hull(pts.iter().map(|m| p(*m)).collect()),
            Spec::Hidden(s) => Spec::Hidden(Box::new(s.rounded::<V>())),
        }
    }
}

impl<M: Vector> Spec<M> {
    /// The largest distance from the shape's local origin to a point of it (a bound is enough: it sizes the
    /// workload's search for a far-apart pose).
    pub fn reach(&self) -> f64 {
        let len = |m: &M| m.to_f64_array().iter().map(|x| x * x).sum::<f64>().sqrt();
        match self {
            Spec::Ball(r) => *r,
            Spec::Cuboid(h) | Spec::Ellipsoid(h) => len(h),
            Spec::Capsule(h, r) => h + r,
            Spec::Cylinder(h, r) | Spec::Cone(h, r) => (h * h + r * r).sqrt(),
            Spec::Hull(pts) => pts.iter().map(len).fold(0.0, f64::max),
            Spec::Hidden(s) => s.reach(),
        }
    }
}

/// A point of space `V` in its master (f64) type, exactly.
pub fn back<V: Space>(v: V) -> V::Master {
    let c = v.to_f64_array();
    V::Master::from_f64_slice(&c[..V::DIM])
}

/// Something to do with a pair of our shapes of concrete types (the dispatch from [`Spec`] to concrete,
/// monomorphised types happens once, in [`Space::visit`]).
pub trait Visitor<V: Vector> {
    /// What the visit gives back.
    type Out;
    /// Called with A's and B's shapes.
    fn visit<A, B>(self, a: A, b: B) -> Self::Out
    where
        A: SupportMap<V> + Send + Sync + 'static,
        B: SupportMap<V> + Send + Sync + 'static;
}

/// One space: a vector type of ours, with its parry crate.
pub trait Space: Vector {
    /// The f64 vector type of the same dimension, in which the workload is generated.
    type Master: Master;
    /// parry's shape trait object (`dyn parry3d::shape::Shape`, …).
    type PShape: ?Sized + Send + Sync + 'static;
    /// parry's pose.
    type PPose: Copy + Send + Sync + 'static;
    /// Our name of the space, e.g. `3D f32`.
    const NAME: &'static str;
    /// The parry crate of this space.
    const PARRY: &'static str;

    /// A master point in this precision.
    fn point(m: Self::Master) -> Self {
        let c = m.to_f64_array();
        Self::from_f64_slice(&c[..Self::DIM])
    }
    /// A master pose in this precision.
    fn pose(m: &Iso<Self::Master>) -> Iso<Self>;
    /// A master pose rounded to this precision, back in f64 exactly ([`Space::pose`]'s numbers).
    fn pose_rounded(m: &Iso<Self::Master>) -> Iso<Self::Master>;
    /// The same pose for parry (from the same rounded numbers as [`Space::pose`]).
    fn parry_pose(m: &Iso<Self::Master>) -> Self::PPose;
    /// parry's shape; `None` when parry cannot build it.
    fn parry_shape(spec: &Spec<Self::Master>) -> Option<Arc<Self::PShape>>;
    /// parry's boolean intersection test.
    fn parry_intersects(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> bool;
    /// parry's closest points (no distance limit), the answer passed through `black_box` (for timing).
    fn parry_closest_points(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape);
    /// The distance between parry's closest points (0 when it reports the shapes intersecting).
    fn parry_distance(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> f64;
    /// parry's contact with a prediction distance, the answer passed through `black_box` (for timing).
    fn parry_contact_timed(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape, prediction: f64);
    /// parry's contact with a prediction distance; returns the signed distance (`None`: farther than that).
    fn parry_contact(
        pa: &Self::PPose,
        a: &Self::PShape,
        pb: &Self::PPose,
        b: &Self::PShape,
        prediction: f64,
    ) -> Option<f64>;
    /// Builds our shapes of A and B in this precision and hands them to `vis`.
    fn visit<Vis: Visitor<Self>>(a: &Spec<Self::Master>, b: &Spec<Self::Master>, vis: Vis) -> Vis::Out;
}

/// The f64 space in which the workload is generated (random poses live here).
pub trait Master: Space<Master = Self> {
    /// A uniformly random rotation.
    fn random_rotation(rng: &mut Rng) -> Self::Rotation;
    /// A uniformly random unit vector.
    fn random_unit(rng: &mut Rng) -> Self;
    /// A's and B's shapes of a family of this dimension.
    fn specs(kind: Kind) -> (Spec<Self>, Spec<Self>);
    /// This unit vector turned by `angle` radians in a random direction.
    fn turn(self, angle: f64, rng: &mut Rng) -> Self;
    /// A random point in the cube [-1, 1]^DIM.
    fn random_in_cube(rng: &mut Rng) -> Self {
        Self::from_fn(|_| <Self::Real as Real>::from_f64(rng.range(-1.0, 1.0)))
    }
}

impl Master for DVec3 {
    fn random_rotation(rng: &mut Rng) -> DQuat {
        rng.rotation3()
    }
    fn random_unit(rng: &mut Rng) -> DVec3 {
        rng.on_sphere()
    }
    fn specs(kind: Kind) -> (Spec<DVec3>, Spec<DVec3>) {
        kind.specs3()
    }
    fn turn(self, angle: f64, rng: &mut Rng) -> DVec3 {
        // About a random axis perpendicular to self.
        let axis = self.cross(rng.on_sphere()).normalize();
        (self * angle.cos() + axis.cross(self) * angle.sin()).normalize()
    }
}

impl Master for DVec2 {
    fn random_rotation(rng: &mut Rng) -> Rot2<f64> {
        rng.rotation2()
    }
    fn random_unit(rng: &mut Rng) -> DVec2 {
        rng.on_circle()
    }
    fn specs(kind: Kind) -> (Spec<DVec2>, Spec<DVec2>) {
        kind.specs2()
    }
    fn turn(self, angle: f64, rng: &mut Rng) -> DVec2 {
        let a = if rng.unit() < 0.5 { angle } else { -angle };
        DVec2::new(self.x * a.cos() - self.y * a.sin(), self.x * a.sin() + self.y * a.cos())
    }
}

fn hull<V: Space>(points: &[V::Master]) -> ConvexPolytope<V> {
    let pts: Vec<V> = points.iter().map(|p| V::point(*p)).collect();
    ConvexPolytope::new(&pts).expect("a hull of finite points")
}

fn real<V: Vector>(x: f64) -> V::Real {
    <V::Real as Real>::from_f64(x)
}

/// [`Space::visit`] for the 3D spaces: the 3D-only families, then the pairs common to 2D and 3D.
fn visit3<V: Space + Vector3, Vis: Visitor<V>>(a: &Spec<V::Master>, b: &Spec<V::Master>, vis: Vis) -> Vis::Out {
    match (a, b) {
        (Spec::Cylinder(ha, ra), Spec::Cylinder(hb, rb)) => vis.visit(
            Cylinder::new(real::<V>(*ha), real::<V>(*ra)).unwrap(),
            Cylinder::new(real::<V>(*hb), real::<V>(*rb)).unwrap(),
        ),
        (Spec::Cone(ha, ra), Spec::Cone(hb, rb)) => vis.visit(
            Cone::new(real::<V>(*ha), real::<V>(*ra)).unwrap(),
            Cone::new(real::<V>(*hb), real::<V>(*rb)).unwrap(),
        ),
        (Spec::Ellipsoid(ra), Spec::Ellipsoid(rb)) => {
            vis.visit(Ellipsoid::new(V::point(*ra)).unwrap(), Ellipsoid::new(V::point(*rb)).unwrap())
        }
        _ => same_family::<V, Vis>(a, b, vis),
    }
}

/// Two shapes of one family of the shapes common to 2D and 3D, or a mixed pair of them.
fn same_family<V: Space, Vis: Visitor<V>>(a: &Spec<V::Master>, b: &Spec<V::Master>, vis: Vis) -> Vis::Out {
    let hidden_box = |h: &V::Master| Hidden(Cuboid::new(V::point(*h)).unwrap());
    let hidden_capsule = |h: f64, r: f64| Hidden(Capsule::new(real::<V>(h), real::<V>(r)).unwrap());
    match (a, b) {
        (Spec::Ball(r), Spec::Hidden(h)) => {
            let ball = Ball::new(real::<V>(*r)).unwrap();
            match &**h {
                Spec::Cuboid(e) => vis.visit(ball, hidden_box(e)),
                Spec::Capsule(hh, rr) => vis.visit(ball, hidden_capsule(*hh, *rr)),
                _ => panic!("a hidden shape is a box or a capsule"),
            }
        }
        (Spec::Ball(r), Spec::Cuboid(h)) => {
            vis.visit(Ball::new(real::<V>(*r)).unwrap(), Cuboid::new(V::point(*h)).unwrap())
        }
        (Spec::Ball(r), Spec::Capsule(hh, rr)) => {
            vis.visit(Ball::new(real::<V>(*r)).unwrap(), Capsule::new(real::<V>(*hh), real::<V>(*rr)).unwrap())
        }
        (Spec::Cuboid(h), Spec::Hull(pts)) => vis.visit(Cuboid::new(V::point(*h)).unwrap(), hull::<V>(pts)),
        (Spec::Capsule(hh, rr), Spec::Hull(pts)) => {
            vis.visit(Capsule::new(real::<V>(*hh), real::<V>(*rr)).unwrap(), hull::<V>(pts))
        }
        (Spec::Ball(ra), Spec::Ball(rb)) => {
            vis.visit(Ball::new(real::<V>(*ra)).unwrap(), Ball::new(real::<V>(*rb)).unwrap())
        }
        (Spec::Cuboid(ha), Spec::Cuboid(hb)) => {
            vis.visit(Cuboid::new(V::point(*ha)).unwrap(), Cuboid::new(V::point(*hb)).unwrap())
        }
        (Spec::Capsule(ha, ra), Spec::Capsule(hb, rb)) => vis.visit(
            Capsule::new(real::<V>(*ha), real::<V>(*ra)).unwrap(),
            Capsule::new(real::<V>(*hb), real::<V>(*rb)).unwrap(),
        ),
        (Spec::Hull(pa), Spec::Hull(pb)) => vis.visit(hull::<V>(pa), hull::<V>(pb)),
        _ => panic!("no benchmarked pair of {a:?} and {b:?} in {}", V::NAME),
    }
}

/// [`Space::visit`] for the 2D spaces (no cylinder, cone or ellipsoid).
fn visit2<V: Space + Vector2, Vis: Visitor<V>>(a: &Spec<V::Master>, b: &Spec<V::Master>, vis: Vis) -> Vis::Out {
    same_family::<V, Vis>(a, b, vis)
}

/// parry's queries on the shapes and poses of one space, the same in 2D and 3D: `$parry` is the crate, `$r` its
/// scalar.
macro_rules! parry_queries {
    ($parry:ident, $r:ty) => {
        #[inline]
        fn parry_intersects(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> bool {
            $parry::query::intersection_test(pa, a, pb, b).expect("parry supports the pair").intersecting
        }
        #[inline]
        fn parry_closest_points(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) {
            black_box(&$parry::query::closest_points(pa, a, pb, b, <$r>::MAX).expect("parry supports the pair"));
        }
        fn parry_distance(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> f64 {
            use $parry::query::ClosestPoints;
            match $parry::query::closest_points(pa, a, pb, b, <$r>::MAX).expect("parry supports the pair") {
                ClosestPoints::WithinMargin(p, q) => Real::to_f64((q - p).length()),
                _ => 0.0,
            }
        }
        #[inline]
        fn parry_contact_timed(
            pa: &Self::PPose,
            a: &Self::PShape,
            pb: &Self::PPose,
            b: &Self::PShape,
            prediction: f64,
        ) {
            let prediction = <$r as Real>::from_f64(prediction);
            black_box(&$parry::query::contact(pa, a, pb, b, prediction).expect("parry supports the pair"));
        }
        #[inline]
        fn parry_contact(
            pa: &Self::PPose,
            a: &Self::PShape,
            pb: &Self::PPose,
            b: &Self::PShape,
            prediction: f64,
        ) -> Option<f64> {
            let c = $parry::query::contact(pa, a, pb, b, <$r as Real>::from_f64(prediction))
                .expect("parry supports the pair");
            c.map(|c| Real::to_f64(c.dist))
        }
    };
}

macro_rules! space3 {
    ($v:ty, $r:ty, $quat:ty, $parry:ident, $name:literal, $pname:literal) => {
        impl Space for $v {
            type Master = DVec3;
            type PShape = dyn $parry::shape::Shape;
            type PPose = $parry::math::Pose;
            const NAME: &'static str = $name;
            const PARRY: &'static str = $pname;

            fn pose(m: &Iso<DVec3>) -> Iso<$v> {
                let q = m.rotation;
                let rot = <$quat>::from_xyzw(
                    <$r as Real>::from_f64(q.x),
                    <$r as Real>::from_f64(q.y),
                    <$r as Real>::from_f64(q.z),
                    <$r as Real>::from_f64(q.w),
                );
                Iso::new(rot, <$v>::point(m.translation))
            }
            fn pose_rounded(m: &Iso<DVec3>) -> Iso<DVec3> {
                let p = <$v>::pose(m);
                let q = p.rotation;
                let f = |x: $r| Real::to_f64(x);
                // Normalised in f64: the rounded quaternion is a rotation only up to its rounding.
                let rot = DQuat::from_xyzw(f(q.x), f(q.y), f(q.z), f(q.w)).normalize();
                Iso::new(rot, back::<$v>(p.translation))
            }
            fn parry_pose(m: &Iso<DVec3>) -> Self::PPose {
                let p = <$v>::pose(m);
                let (q, t) = (p.rotation, p.translation);
                let rot = $parry::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w);
                $parry::math::Pose::from_parts($parry::math::Vector::new(t.x, t.y, t.z), rot)
            }
            fn parry_shape(spec: &Spec<DVec3>) -> Option<Arc<Self::PShape>> {
                use $parry::math::Vector as PV;
                use $parry::shape as p;
                let v = |m: DVec3| {
                    let x = <$v>::point(m);
                    PV::new(x.x, x.y, x.z)
                };
                Some(match spec {
                    Spec::Ball(r) => Arc::new(p::Ball::new(<$r as Real>::from_f64(*r))),
                    Spec::Cuboid(h) => Arc::new(p::Cuboid::new(v(*h))),
                    Spec::Capsule(hh, r) => {
                        Arc::new(p::Capsule::new_y(<$r as Real>::from_f64(*hh), <$r as Real>::from_f64(*r)))
                    }
                    Spec::Cylinder(hh, r) => {
                        Arc::new(p::Cylinder::new(<$r as Real>::from_f64(*hh), <$r as Real>::from_f64(*r)))
                    }
                    Spec::Cone(hh, r) => {
                        Arc::new(p::Cone::new(<$r as Real>::from_f64(*hh), <$r as Real>::from_f64(*r)))
                    }
                    Spec::Ellipsoid(_) => return None,
                    Spec::Hidden(s) => return Self::parry_shape(s),
                    Spec::Hull(pts) => {
                        let pts: Vec<PV> = pts.iter().map(|m| v(*m)).collect();
                        Arc::new(p::ConvexPolyhedron::from_convex_hull(&pts)?)
                    }
                })
            }
            parry_queries!($parry, $r);
            fn visit<Vis: Visitor<Self>>(a: &Spec<DVec3>, b: &Spec<DVec3>, vis: Vis) -> Vis::Out {
                visit3(a, b, vis)
            }
        }
    };
}

macro_rules! space2 {
    ($v:ty, $r:ty, $parry:ident, $name:literal, $pname:literal) => {
        impl Space for $v {
            type Master = DVec2;
            type PShape = dyn $parry::shape::Shape;
            type PPose = $parry::math::Pose;
            const NAME: &'static str = $name;
            const PARRY: &'static str = $pname;

            fn pose(m: &Iso<DVec2>) -> Iso<$v> {
                let r = m.rotation;
                Iso::new(
                    Rot2 { cos: <$r as Real>::from_f64(r.cos), sin: <$r as Real>::from_f64(r.sin) },
                    <$v>::point(m.translation),
                )
            }
            fn pose_rounded(m: &Iso<DVec2>) -> Iso<DVec2> {
                let p = <$v>::pose(m);
                let f = |x: $r| Real::to_f64(x);
                let (c, s) = (f(p.rotation.cos), f(p.rotation.sin));
                let l = (c * c + s * s).sqrt();
                Iso::new(Rot2 { cos: c / l, sin: s / l }, back::<$v>(p.translation))
            }
            fn parry_pose(m: &Iso<DVec2>) -> Self::PPose {
                let p = <$v>::pose(m);
                let rot = $parry::math::Rotation::from_cos_sin_unchecked(p.rotation.cos, p.rotation.sin);
                $parry::math::Pose::from_parts($parry::math::Vector::new(p.translation.x, p.translation.y), rot)
            }
            fn parry_shape(spec: &Spec<DVec2>) -> Option<Arc<Self::PShape>> {
                use $parry::math::Vector as PV;
                use $parry::shape as p;
                let v = |m: DVec2| {
                    let x = <$v>::point(m);
                    PV::new(x.x, x.y)
                };
                Some(match spec {
                    Spec::Ball(r) => Arc::new(p::Ball::new(<$r as Real>::from_f64(*r))),
                    Spec::Cuboid(h) => Arc::new(p::Cuboid::new(v(*h))),
                    Spec::Capsule(hh, r) => {
                        Arc::new(p::Capsule::new_y(<$r as Real>::from_f64(*hh), <$r as Real>::from_f64(*r)))
                    }
                    Spec::Cylinder(..) | Spec::Cone(..) | Spec::Ellipsoid(_) => return None,
                    Spec::Hidden(s) => return Self::parry_shape(s),
                    Spec::Hull(pts) => {
                        let pts: Vec<PV> = pts.iter().map(|m| v(*m)).collect();
                        Arc::new(p::ConvexPolygon::from_convex_hull(&pts)?)
                    }
                })
            }
            parry_queries!($parry, $r);
            fn visit<Vis: Visitor<Self>>(a: &Spec<DVec2>, b: &Spec<DVec2>, vis: Vis) -> Vis::Out {
                visit2(a, b, vis)
            }
        }
    };
}

space3!(Vec3, f32, Quat, parry3d, "3D f32", "parry3d");
space3!(DVec3, f64, DQuat, parry3d_f64, "3D f64", "parry3d-f64");
space2!(Vec2, f32, parry2d, "2D f32", "parry2d");
space2!(DVec2, f64, parry2d_f64, "2D f64", "parry2d-f64");
