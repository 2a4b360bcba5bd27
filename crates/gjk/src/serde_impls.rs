//! Serde support (feature `serde`): shapes, poses and query results as plain data, in the JSON format of the
//! `gjk query` command line (docs/cli.md), which is built on these impls.
//!
//! * Vectors are arrays of their coordinates (glam's own serde), 3D rotations quaternions `[x, y, z, w]`, 2D
//!   rotations an angle in radians ([`Rot2`]).
//! * A pose is `{"translation": [..], "rotation": R}`; both are optional on reading (zero, identity), and a
//!   quaternion of any non-zero finite length is normalised (1e-200 and 1e200 included).
//! * A shape is an object of its parameters (`{"radius": 1}`, `{"half_extents": [1, 2, 3]}`, a hull's
//!   `{"points": [..]}`, a triangle's `{"a", "b", "c"}`). Reading one goes through the shape's constructor, so an
//!   invalid shape (a negative radius, an empty hull) is an error naming the problem, never a panic or an invalid
//!   value. Which shape a value is belongs to the container (the CLI tags it with `"type"`).
//! * Results serialise every field under its Rust name, [`Status`](crate::Status) as its snake_case name
//!   (`"max_iterations"`), a cast's time of impact as `null` on a miss (JSON has no infinity), a manifold's
//!   contacts and a witness simplex as lists of their actual length.
//!
//! ```
//! use gjk::math::{DVec3, Iso};
//! use gjk::shape::Cuboid;
//! let cube: Cuboid<DVec3> = serde_json::from_str(r#"{"half_extents": [1, 2, 3]}"#).unwrap();
//! assert_eq!(cube.half_extents, DVec3::new(1.0, 2.0, 3.0));
//! assert!(serde_json::from_str::<Cuboid<DVec3>>(r#"{"half_extents": [1, -2, 3]}"#).is_err());
//! let pose: Iso<DVec3> = serde_json::from_str(r#"{"rotation": [0, 0, 2e-200, 2e-200]}"#).unwrap();
//! assert!((pose.rotation.length() - 1.0).abs() < 1e-15);
//! let d = gjk::distance(&cube, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(3.0, 0.0, 0.0)));
//! let json = serde_json::to_value(&d).unwrap();
//! assert_eq!(json["distance"], 1.0);
//! assert_eq!(json["status"], "converged");
//! ```

#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use alloc::vec::Vec;
use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::composite::HalfSpace;
use crate::gjk::WitnessSimplex;
use crate::manifold::{Contact, Manifold, MAX_CONTACTS};
use crate::math::{Iso, Real, Rot2, Rotation, Vector, Vector3};
use crate::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, MinkowskiSum, Point, Posed, Rounded,
    Scaled, Segment, Triangle,
};
use crate::Status;

/// Serde impls of a shape: written as the struct `$ty` with fields `$field` (read from the shape by `$get`), read
/// back through `$build`, the shape's validating constructor, with the fields bound by name.
macro_rules! shape_serde {
    ($ty:ident < $($p:ident : $bound:path),* > |$s:ident| { $($field:ident : $fty:ty = $get:expr),* } => $build:expr) => {
        impl<$($p: $bound + Serialize),*> Serialize for $ty<$($p),*> {
            fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
                let $s = self;
                let mut st = serializer.serialize_struct(stringify!($ty), [$(stringify!($field)),*].len())?;
                $(st.serialize_field(stringify!($field), &$get)?;)*
                st.end()
            }
        }

        impl<'de, $($p: $bound + Deserialize<'de>),*> Deserialize<'de> for $ty<$($p),*> {
            fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
                #[derive(Deserialize)]
                #[serde(rename = "shape")]
                struct Fields<$($p),*> {
                    $($field: $fty),*
                }
                let Fields { $($field),* } = Fields::deserialize(deserializer)?;
                $build.map_err(De::Error::custom)
            }
        }
    };
}

shape_serde!(Ball<R: Real> |s| { radius: R = s.radius } => Ball::new(radius));
shape_serde!(Cuboid<V: Vector> |s| { half_extents: V = s.half_extents } => Cuboid::new(half_extents));
shape_serde!(Capsule<R: Real> |s| { half_height: R = s.half_height, radius: R = s.radius }
    => Capsule::new(half_height, radius));
shape_serde!(Cylinder<R: Real> |s| { half_height: R = s.half_height, radius: R = s.radius }
    => Cylinder::new(half_height, radius));
shape_serde!(Cone<R: Real> |s| { half_height: R = s.half_height, radius: R = s.radius }
    => Cone::new(half_height, radius));
shape_serde!(Ellipsoid<V: Vector> |s| { radii: V = s.radii } => Ellipsoid::new(radii));
shape_serde!(Segment<V: Vector> |s| { a: V = s.a, b: V = s.b } => Segment::new(a, b));
shape_serde!(Triangle<V: Vector> |s| { a: V = s.vertices[0], b: V = s.vertices[1], c: V = s.vertices[2] }
    => Triangle::new(a, b, c));
shape_serde!(Point<V: Vector> |s| { at: V = s.at } => Point::new(at));
// A hull is written as its vertices (interior and repeated input points are gone) and read as any point set.
shape_serde!(ConvexPolytope<V: Vector> |s| { points: Vec<V> = s.vertices() } => ConvexPolytope::new(&points));
shape_serde!(Frustum<V: Vector3> |s| { corners: Vec<V> = s.polytope().vertices() } => Frustum::from_corners(&corners));
shape_serde!(Rounded<S: Sized, R: Real> |s| { shape: S = s.shape, radius: R = s.radius }
    => Rounded::new(shape, radius));
shape_serde!(MinkowskiSum<A: Sized, B: Sized> |s| { a: A = s.a, b: B = s.b }
    => Ok::<_, core::convert::Infallible>(MinkowskiSum::new(a, b)));
shape_serde!(Scaled<S: Sized, V: Vector> |s| { shape: S = s.shape, scale: V = s.scale } => Scaled::new(shape, scale));
// A half-space is its outward normal (written unit length; read at any non-zero length).
shape_serde!(HalfSpace<V: Vector> |s| { normal: V = s.normal() } => HalfSpace::new(normal));

impl<S: Serialize, V: Vector + Serialize> Serialize for Posed<S, V>
where
    V::Rotation: Serialize,
{
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut st = serializer.serialize_struct("Posed", 2)?;
        st.serialize_field("shape", &self.shape)?;
        st.serialize_field("pose", &self.pose)?;
        st.end()
    }
}

impl<'de, S: Deserialize<'de>, V: Vector + Deserialize<'de>> Deserialize<'de> for Posed<S, V>
where
    V::Rotation: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "Posed", bound = "S: Deserialize<'de>, Iso<V>: Deserialize<'de>")]
        struct Fields<S, V: Vector> {
            shape: S,
            pose: Iso<V>,
        }
        let Fields { shape, pose } = Fields::<S, V>::deserialize(deserializer)?;
        Ok(Posed::new(shape, pose))
    }
}

/// A pose: `{"translation", "rotation"}`.
impl<V: Vector + Serialize> Serialize for Iso<V>
where
    V::Rotation: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut st = serializer.serialize_struct("Iso", 2)?;
        st.serialize_field("translation", &self.translation)?;
        st.serialize_field("rotation", &self.rotation)?;
        st.end()
    }
}

/// A pose; a missing translation is zero, a missing rotation the identity, and a rotation of any non-zero finite
/// length is normalised.
impl<'de, V: Vector + Deserialize<'de>> Deserialize<'de> for Iso<V>
where
    V::Rotation: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "Iso", bound = "V: Deserialize<'de>, R: Deserialize<'de>")]
        struct Fields<V, R> {
            translation: Option<V>,
            rotation: Option<R>,
        }
        let f = Fields::<V, V::Rotation>::deserialize(deserializer)?;
        let translation = f.translation.unwrap_or_else(V::zero);
        if !translation.is_finite() {
            return Err(D::Error::custom("translation is not finite"));
        }
        let rotation = match f.rotation {
            None => V::Rotation::identity(),
            Some(r) => r.normalized().ok_or_else(|| D::Error::custom("rotation quaternion is zero or not finite"))?,
        };
        Ok(Iso::new(rotation, translation))
    }
}

/// A 2D rotation is written as its angle in radians, counter-clockwise.
impl<R: Real + Serialize> Serialize for Rot2<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        R::from_f64(self.sin.to_f64().atan2(self.cos.to_f64())).serialize(serializer)
    }
}

impl<'de, R: Real + Deserialize<'de>> Deserialize<'de> for Rot2<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let angle = R::deserialize(deserializer)?;
        if angle.is_finite() {
            Ok(Rot2::from_angle(angle))
        } else {
            Err(D::Error::custom("rotation angle is not finite"))
        }
    }
}

/// The final simplex of a distance query: its points and weights, as lists of its actual size (1 to 4).
impl<V: Vector + Serialize> Serialize for WitnessSimplex<V>
where
    V::Real: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = self.len.min(4);
        let mut st = serializer.serialize_struct("WitnessSimplex", 2)?;
        st.serialize_field("points", &self.points[..len])?;
        st.serialize_field("weights", &self.weights[..len])?;
        st.end()
    }
}

impl<'de, V: Vector + Deserialize<'de>> Deserialize<'de> for WitnessSimplex<V>
where
    V::Real: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "WitnessSimplex")]
        struct Fields<V, R> {
            points: Vec<V>,
            weights: Vec<R>,
        }
        let f = Fields::<V, V::Real>::deserialize(deserializer)?;
        if f.points.len() != f.weights.len() || f.points.len() > 4 {
            return Err(D::Error::custom("a witness simplex has 1 to 4 points, one weight each"));
        }
        let mut out = WitnessSimplex { points: [V::zero(); 4], weights: [V::Real::ZERO; 4], len: f.points.len() };
        out.points[..out.len].copy_from_slice(&f.points);
        out.weights[..out.len].copy_from_slice(&f.weights);
        Ok(out)
    }
}

/// A manifold: its normal, its contacts (a list of at most four), its signed distance and status.
impl<V: Vector + Serialize> Serialize for Manifold<V>
where
    V::Real: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut st = serializer.serialize_struct("Manifold", 4)?;
        st.serialize_field("normal", &self.normal)?;
        st.serialize_field("contacts", &self.contacts[..self.len.min(MAX_CONTACTS)])?;
        st.serialize_field("distance", &self.distance)?;
        st.serialize_field("status", &self.status)?;
        st.end()
    }
}

impl<'de, V: Vector + Deserialize<'de>> Deserialize<'de> for Manifold<V>
where
    V::Real: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "Manifold")]
        struct Fields<V, R> {
            normal: V,
            contacts: Vec<Contact<V>>,
            distance: R,
            status: Status,
        }
        let f = Fields::<V, V::Real>::deserialize(deserializer)?;
        if f.contacts.len() > MAX_CONTACTS {
            return Err(D::Error::custom("a manifold has at most 4 contacts"));
        }
        let mut contacts = [Contact::default(); MAX_CONTACTS];
        contacts[..f.contacts.len()].copy_from_slice(&f.contacts);
        Ok(Manifold { normal: f.normal, contacts, len: f.contacts.len(), distance: f.distance, status: f.status })
    }
}

/// A time of impact: `null` when there is none (a miss, kept as infinity in the result). Written through f64,
/// which holds an f32 exactly, so the field needs no serde bound of its own.
pub(crate) mod time {
    use super::*;

    pub(crate) fn serialize<R: Real, S: Serializer>(t: &R, serializer: S) -> Result<S::Ok, S::Error> {
        t.is_finite().then(|| t.to_f64()).serialize(serializer)
    }

    pub(crate) fn deserialize<'de, R: Real, D: Deserializer<'de>>(deserializer: D) -> Result<R, D::Error> {
        Ok(Option::<f64>::deserialize(deserializer)?.map_or(R::INFINITY, R::from_f64))
    }
}
