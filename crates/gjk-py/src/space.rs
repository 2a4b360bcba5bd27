//! The four spaces a shape can live in (2D or 3D, float32 or float64) and what the bindings need to know about
//! each: how its shapes are stored, how its rotations are read from numpy rows. Everything else is generic over
//! [`Space`], so one binding serves all four.

use std::sync::Arc;

use gjk::composite::{Compound, HalfSpace, HeightField, TriMesh};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::query::{Kind, Shape as QueryShape};
use gjk::shape::{ConvexPolytope, ShapeError, SupportMap};
use numpy::Element;

/// A convex shape of space `V`, shared between Python objects and worker threads.
pub type Convex<V> = Arc<dyn SupportMap<V> + Send + Sync>;

/// A shape of space `V`: convex (any support map), or one of the library's other kinds — the composites (a mesh, a
/// compound of convex parts, a height field) and the half-space. Every query takes any two bodies through the
/// library's `gjk::query` dispatch ([`QueryShape`]); convex pairs also keep the convex functions' options and
/// iteration counts (see `answer`).
#[derive(Clone)]
pub enum Body<V: Vector> {
    Convex(Convex<V>),
    Mesh(Arc<TriMesh<V>>),
    Compound(Arc<Compound<V, Convex<V>>>),
    HeightField(Arc<HeightField<V>>),
    HalfSpace(HalfSpace<V>),
}

impl<V: Vector> QueryShape<V> for Body<V> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        match self {
            Body::Convex(s) => k.convex(s.as_ref()),
            Body::Mesh(m) => k.composite(m.as_ref()),
            Body::Compound(c) => k.composite(c.as_ref()),
            Body::HeightField(h) => k.composite(h.as_ref()),
            Body::HalfSpace(h) => k.half_space(h),
        }
    }
}

impl<V: Vector> Body<V> {
    /// The convex shape, if this body is one.
    pub fn convex(&self) -> Option<&Convex<V>> {
        match self {
            Body::Convex(s) => Some(s),
            _ => None,
        }
    }
}

/// A shape's geometry in its space.
#[derive(Clone)]
pub enum Geom {
    F64D3(Body<DVec3>),
    F64D2(Body<DVec2>),
    F32D3(Body<Vec3>),
    F32D2(Body<Vec2>),
}

impl Geom {
    /// "3D float64", for messages.
    pub fn space_name(&self) -> &'static str {
        match self {
            Geom::F64D3(_) => DVec3::NAME,
            Geom::F64D2(_) => DVec2::NAME,
            Geom::F32D3(_) => Vec3::NAME,
            Geom::F32D2(_) => Vec2::NAME,
        }
    }
    pub fn dim(&self) -> usize {
        match self {
            Geom::F64D3(_) | Geom::F32D3(_) => 3,
            Geom::F64D2(_) | Geom::F32D2(_) => 2,
        }
    }
    pub fn dtype(&self) -> &'static str {
        match self {
            Geom::F64D3(_) | Geom::F64D2(_) => "float64",
            Geom::F32D3(_) | Geom::F32D2(_) => "float32",
        }
    }
}

/// Calls `$body` with `V` bound to the vector type of `$geom`'s space (a generic function call per space).
macro_rules! with_space {
    ($geom:expr, $v:ident => $body:expr) => {
        match $geom {
            $crate::space::Geom::F64D3(_) => {
                type $v = gjk::math::DVec3;
                $body
            }
            $crate::space::Geom::F64D2(_) => {
                type $v = gjk::math::DVec2;
                $body
            }
            $crate::space::Geom::F32D3(_) => {
                type $v = gjk::math::Vec3;
                $body
            }
            $crate::space::Geom::F32D2(_) => {
                type $v = gjk::math::Vec2;
                $body
            }
        }
    };
}
pub(crate) use with_space;

/// What the bindings need of a space.
pub trait Space: Vector<Real = <Self as Space>::Scalar> {
    /// The numpy element type of the space's arrays.
    type Scalar: Real + Element;
    /// "3D float64".
    const NAME: &'static str;
    /// How many numbers a rotation takes in a pose row: a quaternion (x, y, z, w) in 3D, an angle in 2D.
    const ROTATION_LEN: usize;
    /// How many numbers an angular velocity takes: a vector in 3D, a scalar in 2D.
    const ANGULAR_LEN: usize;
    /// Largest |RᵀR − I| entry (and |‖q‖ − 1| for a quaternion) accepted as a rotation.
    const ROTATION_TOLERANCE: f64;

    /// The body of this space, or `None` if `geom` lives in another.
    fn body(geom: &Geom) -> Option<&Body<Self>>;
    /// Wraps a body of this space.
    fn geom(body: Body<Self>) -> Geom;
    /// The convex shape of this space, or `None` if `geom` lives in another or is not convex.
    fn convex(geom: &Geom) -> Option<&Convex<Self>> {
        Self::body(geom).and_then(Body::convex)
    }
    /// A pose's rotation as a row-major DIM × DIM matrix and its translation.
    fn matrix(pose: &Iso<Self>) -> ([f64; 9], [f64; 3]) {
        let d = Self::DIM;
        let (mut m, mut t) = ([0.0; 9], [0.0; 3]);
        for c in 0..d {
            let column = pose.transform_vector(Self::axis(c));
            for r in 0..d {
                m[r * d + c] = column.get(r).to_f64();
            }
            t[c] = pose.translation.get(c).to_f64();
        }
        (m, t)
    }
    /// A rotation from a row-major DIM × DIM matrix already checked orthonormal with a positive determinant.
    fn rotation_from_matrix(m: &[f64]) -> Option<Self::Rotation>;
    /// A rotation from its pose-row numbers (quaternion x, y, z, w in 3D; angle in 2D), checked.
    fn rotation_from_row(r: &[f64]) -> Result<Self::Rotation, String>;
    /// An angular velocity from `ANGULAR_LEN` numbers.
    fn angular(w: &[f64]) -> gjk::cast::Angular<Self>;
    /// Numbers per facet of a mesh's index array: 3 (triangles) in 3D, 2 (segments) in 2D.
    const FACET_LEN: usize;
    /// The library's mesh of these facets (each `FACET_LEN` vertex indices).
    fn mesh(vertices: Vec<Self>, facets: &[u32]) -> Result<TriMesh<Self>, ShapeError>;
    /// The library's height field: a `rows × cols` grid spaced `dx`, `dz` in 3D; a profile of `cols` samples in 2D
    /// (`rows` 1, `dz` unused).
    fn height_field(
        heights: Vec<Self::Scalar>,
        rows: usize,
        cols: usize,
        dx: Self::Scalar,
        dz: Self::Scalar,
    ) -> Result<HeightField<Self>, ShapeError>;
    /// Every face of an OBJ text as one mesh (3D only).
    fn obj_mesh(text: &str) -> Result<TriMesh<Self>, String>;
    /// The convex hulls of an OBJ text's objects as the library reads them for a compound (3D only): each part's
    /// vertices.
    fn obj_parts(text: &str) -> Result<Vec<Vec<Self>>, String>;
}

/// Checks that `q` is a unit quaternion within `tolerance` (normalising it is left to `Rotation::normalized`).
fn check_unit_quaternion(q: &[f64], tolerance: f64) -> Result<(), String> {
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if !((norm - 1.0).abs() <= tolerance) {
        return Err(format!(
            "quaternion (x, y, z, w) = {q:?} is not a unit quaternion (norm {norm}, tolerance {tolerance})"
        ));
    }
    Ok(())
}

macro_rules! space3 {
    ($v:ty, $q:ty, $r:ty, $name:literal, $tol:expr, $geom:ident) => {
        impl Space for $v {
            type Scalar = $r;
            const NAME: &'static str = $name;
            const ROTATION_LEN: usize = 4;
            const ANGULAR_LEN: usize = 3;
            const ROTATION_TOLERANCE: f64 = $tol;
            fn body(geom: &Geom) -> Option<&Body<Self>> {
                match geom {
                    Geom::$geom(s) => Some(s),
                    _ => None,
                }
            }
            fn geom(body: Body<Self>) -> Geom {
                Geom::$geom(body)
            }
            fn rotation_from_matrix(m: &[f64]) -> Option<$q> {
                let cols = glam::DMat3::from_cols_array(&[m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]);
                let q = glam::DQuat::from_mat3(&cols);
                let q = <$q>::from_xyzw(q.x as $r, q.y as $r, q.z as $r, q.w as $r);
                Rotation::<$v>::normalized(&q)
            }
            fn rotation_from_row(r: &[f64]) -> Result<$q, String> {
                check_unit_quaternion(r, Self::ROTATION_TOLERANCE)?;
                let q = <$q>::from_xyzw(r[0] as $r, r[1] as $r, r[2] as $r, r[3] as $r);
                Rotation::<$v>::normalized(&q).ok_or_else(|| "quaternion is zero".to_string())
            }
            fn angular(w: &[f64]) -> $v {
                <$v>::new(w[0] as $r, w[1] as $r, w[2] as $r)
            }
            const FACET_LEN: usize = 3;
            fn mesh(vertices: Vec<$v>, facets: &[u32]) -> Result<TriMesh<$v>, ShapeError> {
                TriMesh::new(vertices, facets.chunks(3).map(|f| [f[0], f[1], f[2]]).collect())
            }
            fn height_field(
                heights: Vec<$r>,
                rows: usize,
                cols: usize,
                dx: $r,
                dz: $r,
            ) -> Result<HeightField<$v>, ShapeError> {
                HeightField::grid(heights, rows, cols, dx, dz)
            }
            fn obj_mesh(text: &str) -> Result<TriMesh<$v>, String> {
                TriMesh::from_obj(text).map_err(|e| e.to_string())
            }
            fn obj_parts(text: &str) -> Result<Vec<Vec<$v>>, String> {
                let c = Compound::<$v, ConvexPolytope<$v>>::from_obj(text).map_err(|e| e.to_string())?;
                Ok(c.parts().iter().map(|(p, _)| p.vertices().to_vec()).collect())
            }
        }
    };
}

macro_rules! space2 {
    ($v:ty, $r:ty, $name:literal, $tol:expr, $geom:ident) => {
        impl Space for $v {
            type Scalar = $r;
            const NAME: &'static str = $name;
            const ROTATION_LEN: usize = 1;
            const ANGULAR_LEN: usize = 1;
            const ROTATION_TOLERANCE: f64 = $tol;
            fn body(geom: &Geom) -> Option<&Body<Self>> {
                match geom {
                    Geom::$geom(s) => Some(s),
                    _ => None,
                }
            }
            fn geom(body: Body<Self>) -> Geom {
                Geom::$geom(body)
            }
            fn rotation_from_matrix(m: &[f64]) -> Option<Rot2<$r>> {
                // [[cos, −sin], [sin, cos]]: the mean of the two readings of each, then normalised.
                let r = Rot2 { cos: (0.5 * (m[0] + m[3])) as $r, sin: (0.5 * (m[2] - m[1])) as $r };
                Rotation::<$v>::normalized(&r)
            }
            fn rotation_from_row(r: &[f64]) -> Result<Rot2<$r>, String> {
                Ok(Rot2::from_angle(r[0] as $r))
            }
            fn angular(w: &[f64]) -> $r {
                w[0] as $r
            }
            const FACET_LEN: usize = 2;
            fn mesh(vertices: Vec<$v>, facets: &[u32]) -> Result<TriMesh<$v>, ShapeError> {
                let segments: Vec<[u32; 2]> = facets.chunks(2).map(|f| [f[0], f[1]]).collect();
                TriMesh::from_segments(vertices, &segments)
            }
            fn height_field(
                heights: Vec<$r>,
                _rows: usize,
                _cols: usize,
                dx: $r,
                _dz: $r,
            ) -> Result<HeightField<$v>, ShapeError> {
                HeightField::line(heights, dx)
            }
            fn obj_mesh(_text: &str) -> Result<TriMesh<$v>, String> {
                Err("OBJ files hold 3D meshes".into())
            }
            fn obj_parts(_text: &str) -> Result<Vec<Vec<$v>>, String> {
                Err("OBJ files hold 3D meshes".into())
            }
        }
    };
}

space3!(DVec3, DQuat, f64, "3D float64", 1e-6, F64D3);
space3!(Vec3, Quat, f32, "3D float32", 1e-5, F32D3);
space2!(DVec2, f64, "2D float64", 1e-6, F64D2);
space2!(Vec2, f32, "2D float32", 1e-5, F32D2);
