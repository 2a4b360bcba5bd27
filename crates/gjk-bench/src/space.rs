//! The four spaces benchmarked (2D and 3D, f32 and f64) behind one trait, each with its parry crate, so every
//! query is written once.
//!
//! Shapes are described once, in f64 ([`Spec`] over the *master* vector type `DVec2` / `DVec3`), and converted
//! into each library's types in each precision from the same numbers: an f32 cell gives our `Vec3` and parry3d
//! the same f32 values.

use std::hint::black_box;
use std::sync::Arc;

use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Real, Rot2, Vec2, Vec3, Vector, Vector2, Vector3};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, Cylinder, SupportMap};

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
    /// Convex hull of these points.
    Hull(Vec<M>),
}

/// Something to do with a pair of our shapes of one concrete type (the dispatch from [`Spec`] to a concrete,
/// monomorphised type happens once, in [`Space::visit`]).
pub trait Visitor<V: Vector> {
    /// What the visit gives back.
    type Out;
    /// Called with A's and B's shapes.
    fn visit<S: SupportMap<V> + Send + Sync + 'static>(self, a: S, b: S) -> Self::Out;
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
    /// The same pose for parry (from the same rounded numbers as [`Space::pose`]).
    fn parry_pose(m: &Iso<Self::Master>) -> Self::PPose;
    /// parry's shape; `None` when parry cannot build it.
    fn parry_shape(spec: &Spec<Self::Master>) -> Option<Arc<Self::PShape>>;
    /// parry's boolean intersection test.
    fn parry_intersects(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> bool;
    /// parry's closest points (no distance limit), the answer passed through `black_box` (for timing).
    fn parry_closest_points(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape);
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

/// [`Space::visit`] for the 3D spaces.
fn visit3<V: Space + Vector3, Vis: Visitor<V>>(a: &Spec<V::Master>, b: &Spec<V::Master>, vis: Vis) -> Vis::Out {
    match (a, b) {
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
        (Spec::Cylinder(ha, ra), Spec::Cylinder(hb, rb)) => vis.visit(
            Cylinder::new(real::<V>(*ha), real::<V>(*ra)).unwrap(),
            Cylinder::new(real::<V>(*hb), real::<V>(*rb)).unwrap(),
        ),
        (Spec::Hull(pa), Spec::Hull(pb)) => vis.visit(hull::<V>(pa), hull::<V>(pb)),
        _ => panic!("both shapes of a benchmarked pair are of one family"),
    }
}

/// [`Space::visit`] for the 2D spaces (no cylinder).
fn visit2<V: Space + Vector2, Vis: Visitor<V>>(a: &Spec<V::Master>, b: &Spec<V::Master>, vis: Vis) -> Vis::Out {
    match (a, b) {
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
        _ => panic!("both shapes of a benchmarked 2D pair are of one family (and no cylinder)"),
    }
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
                    Spec::Hull(pts) => {
                        let pts: Vec<PV> = pts.iter().map(|m| v(*m)).collect();
                        Arc::new(p::ConvexPolyhedron::from_convex_hull(&pts)?)
                    }
                })
            }
            #[inline]
            fn parry_intersects(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> bool {
                $parry::query::intersection_test(pa, a, pb, b).expect("parry supports the pair").intersecting
            }
            #[inline]
            fn parry_closest_points(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) {
                black_box($parry::query::closest_points(pa, a, pb, b, <$r>::MAX).expect("parry supports the pair"));
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
                black_box($parry::query::contact(pa, a, pb, b, prediction).expect("parry supports the pair"));
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
                    Spec::Cylinder(..) => return None,
                    Spec::Hull(pts) => {
                        let pts: Vec<PV> = pts.iter().map(|m| v(*m)).collect();
                        Arc::new(p::ConvexPolygon::from_convex_hull(&pts)?)
                    }
                })
            }
            #[inline]
            fn parry_intersects(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) -> bool {
                $parry::query::intersection_test(pa, a, pb, b).expect("parry supports the pair").intersecting
            }
            #[inline]
            fn parry_closest_points(pa: &Self::PPose, a: &Self::PShape, pb: &Self::PPose, b: &Self::PShape) {
                black_box($parry::query::closest_points(pa, a, pb, b, <$r>::MAX).expect("parry supports the pair"));
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
                black_box($parry::query::contact(pa, a, pb, b, prediction).expect("parry supports the pair"));
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
