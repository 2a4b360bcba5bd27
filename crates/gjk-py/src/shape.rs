//! The Python shape classes: `Shape` holds the library's shape (behind an `Arc`, shared with worker threads) and
//! the constructor's arguments (for `repr`, `params` and pickling); one subclass per shape family builds it.
//!
//! Adding a shape family is one subclass with a `#[new]` that builds the library's shape and calls
//! [`Shape::init`]. The non-convex kinds (meshes, compounds, height fields, the half-space) are in
//! [`crate::composite`]; they are [`Body`] variants, answered by the same queries.

use std::sync::Arc;

use gjk::math::Iso;
use gjk::shape::{
    support_full, Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Rounded,
    Segment, ShapeError, SupportMap, Triangle,
};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::pose::{coords, vector};
use crate::space::{with_space, Body, Convex, Geom, Space};

/// A convex shape in 2D or 3D, float64 or float32 (the base class of every shape).
///
/// Shapes are immutable, hashable by identity, picklable (they are rebuilt from their constructor's arguments, so
/// they travel to Dask workers) and safe to share between threads.
#[pyclass(subclass, frozen, module = "gjk")]
pub struct Shape {
    pub geom: Geom,
    kind: &'static str,
    /// The constructor's arguments in order, without `dtype` (for `repr`, `params` and pickling).
    params: Vec<(&'static str, Py<PyAny>)>,
    /// The constructor's arguments after `dtype` (a capsule's, cylinder's or cone's `axis`), in order.
    after_dtype: Vec<(&'static str, Py<PyAny>)>,
    /// What a family computes at construction and shows as attributes: a hull's `vertices` and `faces`, a mesh's
    /// `vertices` and `indices`, a compound's `poses`.
    attrs: Vec<(&'static str, Py<PyAny>)>,
}

pub(crate) fn shape_error(kind: &str, e: ShapeError) -> PyErr {
    PyValueError::new_err(format!("{kind}: {e}"))
}

/// "float64" or "float32" from anything `numpy.dtype` accepts (default float64).
pub(crate) fn dtype_name(py: Python<'_>, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<&'static str> {
    let Some(dtype) = dtype.filter(|d| !d.is_none()) else {
        return Ok("float64");
    };
    let name: String = py.import("numpy")?.getattr("dtype")?.call1((dtype,))?.getattr("name")?.extract()?;
    match name.as_str() {
        "float64" => Ok("float64"),
        "float32" => Ok("float32"),
        other => Err(PyValueError::new_err(format!("dtype must be float64 or float32, got {other}"))),
    }
}

/// A sequence of numbers as f64 (through `numpy.asarray`, so lists, tuples and arrays all work).
pub(crate) fn numbers(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    let arr = py.import("numpy")?.getattr("asarray")?.call1((obj, "float64"))?;
    let arr = arr.cast_into::<numpy::PyArrayDyn<f64>>().map_err(PyErr::from)?;
    if arr.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} must be a sequence of numbers, got shape {:?}",
            arr.shape()
        )));
    }
    Ok(arr.readonly().as_array().iter().copied().collect())
}

/// A vector of the space `V` (dimension checked).
pub(crate) fn vec_of<V: Space>(values: &[f64], kind: &str, what: &str) -> PyResult<V> {
    vector::<V>(values, what).map_err(|e| PyValueError::new_err(format!("{kind}: {e}")))
}

pub(crate) fn wrap<V: Space, S: SupportMap<V> + Send + Sync + 'static>(s: S) -> Geom {
    V::geom(Body::Convex(Arc::new(s) as Convex<V>))
}

/// Calls `$body` with `V` the vector type of dimension `$dim` (2 or 3) and precision `$dtype`.
macro_rules! in_space {
    ($kind:expr, $dim:expr, $dtype:expr, $v:ident => $body:expr) => {
        match ($dim, $dtype) {
            (3, "float64") => {
                type $v = gjk::math::DVec3;
                $body
            }
            (3, _) => {
                type $v = gjk::math::Vec3;
                $body
            }
            (2, "float64") => {
                type $v = gjk::math::DVec2;
                $body
            }
            (2, _) => {
                type $v = gjk::math::Vec2;
                $body
            }
            (d, _) => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "{}: points must have 2 or 3 coordinates, got {d}",
                    $kind
                )))
            }
        }
    };
}

pub(crate) use in_space;

impl Shape {
    pub(crate) fn init(kind: &'static str, geom: Geom, params: Vec<(&'static str, Py<PyAny>)>) -> Self {
        Self { geom, kind, params, after_dtype: Vec::new(), attrs: Vec::new() }
    }

    /// Adds a constructor argument that comes after `dtype` (see [`Shape::after_dtype`]).
    pub(crate) fn with_after_dtype(mut self, name: &'static str, value: Py<PyAny>) -> Self {
        self.after_dtype.push((name, value));
        self
    }

    /// Adds a computed attribute (see [`Shape::attrs`]).
    pub(crate) fn with(mut self, name: &'static str, value: Py<PyAny>) -> Self {
        self.attrs.push((name, value));
        self
    }

    /// The constructor's argument `name` (before or after `dtype`).
    pub(crate) fn param<'py>(&self, py: Python<'py>, name: &str) -> Option<Bound<'py, PyAny>> {
        self.params.iter().chain(&self.after_dtype).find(|(k, _)| *k == name).map(|(_, v)| v.bind(py).clone())
    }

    /// The family: "Sphere", "Box", "ConvexHull", ...
    pub(crate) fn kind_name(&self) -> &'static str {
        self.kind
    }

    fn attr(&self, py: Python<'_>, name: &str) -> Option<Py<PyAny>> {
        self.attrs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone_ref(py))
    }

    pub(crate) fn float(py: Python<'_>, x: f64) -> Py<PyAny> {
        x.into_pyobject(py).expect("a float").into_any().unbind()
    }

    pub(crate) fn list(py: Python<'_>, x: &[f64]) -> PyResult<Py<PyAny>> {
        Ok(PyList::new(py, x)?.into_any().unbind())
    }

    /// The convex shape of space `V`, or a ValueError naming what `what` needs.
    pub(crate) fn convex_of<V: Space>(&self, what: &str) -> PyResult<&Convex<V>> {
        V::convex(&self.geom).ok_or_else(|| {
            PyValueError::new_err(format!("{what} needs a convex shape, got a {} (not convex)", self.kind))
        })
    }
}

#[pymethods]
impl Shape {
    /// Number of coordinates: 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.geom.dim()
    }

    /// The precision of the shape and of every answer involving it: "float64" or "float32".
    #[getter]
    fn dtype(&self) -> &'static str {
        self.geom.dtype()
    }

    /// The family: "Sphere", "Box", "ConvexHull", ...
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }

    /// The constructor's arguments (without dtype), as a dict.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.params.iter().chain(&self.after_dtype) {
            d.set_item(k, v.bind(py))?;
        }
        Ok(d)
    }

    /// The rounding radius: the shape is its core swept by a ball of this radius (0 for most shapes, and for the
    /// non-convex kinds).
    #[getter]
    fn radius(&self) -> f64 {
        with_space!(&self.geom, V => {
            use gjk::math::Real;
            V::convex(&self.geom).map_or(0.0, |s| s.radius().to_f64())
        })
    }

    /// True for the convex shapes (support maps); False for TriMesh, Compound, HeightField and HalfSpace.
    #[getter]
    fn is_convex(&self) -> bool {
        with_space!(&self.geom, V => V::convex(&self.geom).is_some())
    }

    /// True when points off the surface can be inside the shape: every convex shape, a closed consistently
    /// oriented TriMesh, a Compound, a HeightField (below it), a HalfSpace. False for an open mesh (a surface).
    #[getter]
    fn is_solid(&self) -> bool {
        with_space!(&self.geom, V => match V::body(&self.geom).expect("own space") {
            Body::Mesh(m) => m.is_solid(),
            _ => true,
        })
    }

    /// Number of leaves of a composite (triangles or segments of a TriMesh or HeightField, parts of a Compound);
    /// None for convex shapes and the HalfSpace.
    #[getter]
    fn leaf_count(&self) -> Option<usize> {
        with_space!(&self.geom, V => match V::body(&self.geom).expect("own space") {
            Body::Mesh(m) => Some(m.facet_count()),
            Body::Compound(c) => Some(c.parts().len()),
            Body::HeightField(h) => Some(h.triangle_count()),
            Body::Convex(_) | Body::HalfSpace(_) => None,
        })
    }

    /// Vertices [V, dim]: a ConvexHull's (a subset of its input points) or a TriMesh's; None otherwise.
    #[getter]
    fn vertices(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.attr(py, "vertices")
    }

    /// The hull's faces (3D ConvexHull): a list of arrays of vertex indices, counter-clockwise seen from outside.
    /// None for other shapes and for flat hulls.
    #[getter]
    fn faces(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.attr(py, "faces")
    }

    /// A TriMesh's facets [F, 3] (triangles; [F, 2] segments in 2D) as vertex indices (uint32); None otherwise.
    #[getter]
    fn indices(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.attr(py, "indices")
    }

    /// A Compound's part poses as homogeneous matrices [N, dim + 1, dim + 1] (after re-normalisation); None
    /// otherwise.
    #[getter]
    fn poses(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.attr(py, "poses")
    }

    /// The leaves of a TriMesh or a HeightField as the library makes them: [F, 3, dim] corners (in 2D [F, 2, dim]
    /// segment ends), in the shape's frame and dtype; None for other shapes.
    fn facets<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        with_space!(&self.geom, V => {
            let facets: Vec<gjk::composite::Facet<V>> = match V::body(&self.geom).expect("own space") {
                Body::Mesh(m) => (0..m.facet_count() as u32).map(|i| m.facet(i)).collect(),
                Body::HeightField(h) => (0..h.triangle_count() as u32).map(|i| h.triangle(i)).collect(),
                _ => return Ok(None),
            };
            let k = <V as Space>::FACET_LEN;
            let flat = facets.iter().flat_map(|f| f.points()[..k].iter().flat_map(|&p| coords(p)).collect::<Vec<_>>());
            let arr = PyArray1::from_iter(py, flat).reshape([facets.len(), k, <V as gjk::math::Vector>::DIM])?;
            Ok(Some(arr.into_any()))
        })
    }

    /// Support points of the whole shape (core and radius) in its local frame: for each row of `directions`
    /// [N, dim], a point of the shape farthest along it. Returns [N, dim] in the shape's dtype. Convex shapes only
    /// (ValueError for the others).
    fn support<'py>(&self, py: Python<'py>, directions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        with_space!(&self.geom, V => support_points::<V>(py, self.convex_of::<V>("support")?, directions))
    }

    /// The axis-aligned bounding box (min, max) of the shape at `pose` (default: identity), as two arrays
    /// [dim]. `pose` is a single pose in any form the queries accept (see `gjk.distance`). A composite's box is its
    /// tree's root box moved by the pose (it holds the shape; it is not the tightest box of the rotated shape); a
    /// HalfSpace's is infinite but along an axis-aligned normal; an empty mesh's is (inf, -inf).
    #[pyo3(signature = (pose=None))]
    fn aabb<'py>(&self, py: Python<'py>, pose: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
        with_space!(&self.geom, V => {
            use gjk::math::Vector;
            let iso = match pose {
                Some(p) => crate::query::one_pose::<V>(py, Some(p), "pose")?,
                None => Iso::identity(),
            };
            let tree = |t: &gjk::bvh::Bvh<V>| t.root_aabb().map(|b| b.transformed(&iso));
            let b = match V::body(&self.geom).expect("own space") {
                Body::Convex(s) => Some(s.local_aabb().transformed(&iso)),
                Body::Mesh(m) => tree(m.bvh()),
                Body::Compound(c) => tree(c.bvh()),
                Body::HeightField(h) => tree(gjk::composite::Composite::bvh(h.as_ref())),
                Body::HalfSpace(h) => {
                    let world = gjk::composite::HalfSpace::new(iso.transform_vector(h.normal())).map_err(|e| shape_error("HalfSpace", e))?;
                    let b = world.local_aabb();
                    Some(gjk::shape::Aabb::new(b.min + iso.translation, b.max + iso.translation))
                }
            };
            let inf = <<V as Space>::Scalar as gjk::math::Real>::INFINITY;
            let b = b.unwrap_or_else(|| gjk::shape::Aabb::new(V::from_fn(|_| inf), V::from_fn(|_| -inf)));
            let lo = PyArray1::from_iter(py, coords(b.min));
            let hi = PyArray1::from_iter(py, coords(b.max));
            PyTuple::new(py, [lo.into_any(), hi.into_any()])
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        for (k, v) in self.params.iter().chain(&self.after_dtype) {
            let v = v.bind(py);
            let text = if let Ok(arr) = v.cast::<numpy::PyUntypedArray>() {
                format!("<array {}>", arr.shape().iter().map(|s| s.to_string()).collect::<Vec<_>>().join("×"))
            } else {
                v.repr()?.to_string()
            };
            parts.push(format!("{k}={text}"));
        }
        parts.push(format!("dtype='{}'", self.geom.dtype()));
        Ok(format!("{}({})", self.kind, parts.join(", ")))
    }

    /// Pickling: the class and its constructor's arguments (dtype last).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let mut args: Vec<Bound<'py, PyAny>> = me.params.iter().map(|(_, v)| v.bind(py).clone()).collect();
        if !matches!(me.kind, "Rounded" | "MinkowskiSum" | "Posed" | "Compound") {
            args.push(me.geom.dtype().into_pyobject(py)?.into_any());
        }
        args.extend(me.after_dtype.iter().map(|(_, v)| v.bind(py).clone()));
        PyTuple::new(py, [slf.get_type().into_any(), PyTuple::new(py, args)?.into_any()])
    }
}

fn support_points<'py, V: Space>(
    py: Python<'py>,
    shape: &Convex<V>,
    directions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let arr = np.getattr("asarray")?.call1((directions, "float64"))?;
    let arr = arr.cast_into::<numpy::PyArrayDyn<f64>>().map_err(PyErr::from)?;
    let ro = arr.readonly();
    let view = ro.as_array();
    let d = V::DIM;
    if view.ndim() != 2 || view.shape()[1] != d {
        return Err(PyValueError::new_err(format!("directions must be [N, {d}], got shape {:?}", view.shape())));
    }
    let mut out = Vec::with_capacity(view.shape()[0] * d);
    for row in view.outer_iter() {
        let dir =
            vector::<V>(&row.iter().copied().collect::<Vec<f64>>(), "direction").map_err(PyValueError::new_err)?;
        out.extend(coords(support_full(shape.as_ref(), dir)));
    }
    let n = view.shape()[0];
    Ok(PyArray1::from_vec(py, out).reshape([n, d])?.into_any())
}

/// A sphere (3D ball) of `radius` centred on the local origin.
#[pyclass(name = "Sphere", extends = Shape, frozen, module = "gjk")]
pub struct PySphere;

#[pymethods]
impl PySphere {
    #[new]
    #[pyo3(signature = (radius, dtype=None))]
    fn new(py: Python<'_>, radius: f64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let geom = in_space!("Sphere", 3, dt, V => wrap::<V, _>(Ball::new(radius as <V as Space>::Scalar).map_err(|e| shape_error("Sphere", e))?));
        Ok(PyClassInitializer::from(Shape::init("Sphere", geom, vec![("radius", Shape::float(py, radius))]))
            .add_subclass(PySphere))
    }
}

/// A circle (2D ball) of `radius` centred on the local origin.
#[pyclass(name = "Circle", extends = Shape, frozen, module = "gjk")]
pub struct PyCircle;

#[pymethods]
impl PyCircle {
    #[new]
    #[pyo3(signature = (radius, dtype=None))]
    fn new(py: Python<'_>, radius: f64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let geom = in_space!("Circle", 2, dt, V => wrap::<V, _>(Ball::new(radius as <V as Space>::Scalar).map_err(|e| shape_error("Circle", e))?));
        Ok(PyClassInitializer::from(Shape::init("Circle", geom, vec![("radius", Shape::float(py, radius))]))
            .add_subclass(PyCircle))
    }
}

/// A box (3D) or rectangle (2D) centred on the local origin with the given half-extents (their count is the
/// dimension).
#[pyclass(name = "Box", extends = Shape, frozen, module = "gjk")]
pub struct PyBox;

#[pymethods]
impl PyBox {
    #[new]
    #[pyo3(signature = (half_extents, dtype=None))]
    fn new(
        py: Python<'_>,
        half_extents: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let he = numbers(py, half_extents, "half_extents")?;
        let geom = in_space!("Box", he.len(), dt, V => {
            let v = vec_of::<V>(&he, "Box", "half_extents")?;
            wrap::<V, _>(Cuboid::new(v).map_err(|e| shape_error("Box", e))?)
        });
        Ok(PyClassInitializer::from(Shape::init("Box", geom, vec![("half_extents", Shape::list(py, &he)?)]))
            .add_subclass(PyBox))
    }
}

/// Whether `axis` asks for the z axis: `"y"` (the default) or `"z"` (3D only); anything else is a ValueError.
fn along_z(kind: &str, axis: &str, dim: usize) -> PyResult<bool> {
    match (axis, dim) {
        ("y", _) => Ok(false),
        ("z", 3) => Ok(true),
        ("z", _) => Err(PyValueError::new_err(format!("{kind}: axis \"z\" exists only in 3D (a 2D one lies along y)"))),
        _ => Err(PyValueError::new_err(format!("{kind}: axis must be \"y\" or \"z\", got {axis:?}"))),
    }
}

fn axis_name(py: Python<'_>, axis: &str) -> Py<PyAny> {
    pyo3::types::PyString::new(py, axis).into_any().unbind()
}

/// A 3D shape of (half_height, radius) along z ([`gjk::shape::AlongZ`]), in the precision `dtype` names.
macro_rules! axial_z {
    ($ty:ident, $name:literal, $half_height:expr, $radius:expr, $dtype:expr) => {{
        use gjk::shape::AlongZ;
        match $dtype {
            "float64" => wrap::<gjk::math::DVec3, _>(
                $ty::new($half_height, $radius).map_err(|e| shape_error($name, e))?.along_z(),
            ),
            _ => wrap::<gjk::math::Vec3, _>(
                $ty::new($half_height as f32, $radius as f32).map_err(|e| shape_error($name, e))?.along_z(),
            ),
        }
    }};
}

/// A capsule (3D) or stadium (2D) along the local y axis: the segment from (0, −half_height) to (0, +half_height)
/// swept by a ball of `radius`. In 3D, `axis="z"` lays it along z instead (URDF, FCL, coal and MuJoCo's
/// convention): the same shape turned a quarter about x.
#[pyclass(name = "Capsule", extends = Shape, frozen, module = "gjk")]
pub struct PyCapsule;

#[pymethods]
impl PyCapsule {
    #[new]
    #[pyo3(signature = (half_height, radius, dim=3, dtype=None, axis="y"))]
    fn new(
        py: Python<'_>,
        half_height: f64,
        radius: f64,
        dim: usize,
        dtype: Option<&Bound<'_, PyAny>>,
        axis: &str,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let geom = if along_z("Capsule", axis, dim)? {
            axial_z!(Capsule, "Capsule", half_height, radius, dt)
        } else {
            in_space!("Capsule", dim, dt, V => {
                type R = <V as Space>::Scalar;
                wrap::<V, _>(Capsule::new(half_height as R, radius as R).map_err(|e| shape_error("Capsule", e))?)
            })
        };
        let params = vec![
            ("half_height", Shape::float(py, half_height)),
            ("radius", Shape::float(py, radius)),
            ("dim", dim.into_pyobject(py)?.into_any().unbind()),
        ];
        let shape = Shape::init("Capsule", geom, params).with_after_dtype("axis", axis_name(py, axis));
        Ok(PyClassInitializer::from(shape).add_subclass(PyCapsule))
    }
}

/// Builds a 3D-only shape of the two precisions from (half_height, radius), along y or (`axis="z"`) along z.
macro_rules! solid3 {
    ($class:ident, $name:literal, $ty:ident) => {
        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (half_height, radius, dtype=None, axis="y"))]
            fn new(
                py: Python<'_>,
                half_height: f64,
                radius: f64,
                dtype: Option<&Bound<'_, PyAny>>,
                axis: &str,
            ) -> PyResult<PyClassInitializer<Self>> {
                let dt = dtype_name(py, dtype)?;
                let geom = if along_z($name, axis, 3)? {
                    axial_z!($ty, $name, half_height, radius, dt)
                } else {
                    match dt {
                        "float64" => wrap::<gjk::math::DVec3, _>(
                            $ty::new(half_height, radius).map_err(|e| shape_error($name, e))?,
                        ),
                        _ => wrap::<gjk::math::Vec3, _>(
                            $ty::new(half_height as f32, radius as f32).map_err(|e| shape_error($name, e))?,
                        ),
                    }
                };
                let params = vec![("half_height", Shape::float(py, half_height)), ("radius", Shape::float(py, radius))];
                let shape = Shape::init($name, geom, params).with_after_dtype("axis", axis_name(py, axis));
                Ok(PyClassInitializer::from(shape).add_subclass($class))
            }
        }
    };
}

/// A 3D cylinder along the local y axis, centred on the origin: caps at y = ±half_height of `radius`. `axis="z"`
/// lays it along z (caps at z = ±half_height).
#[pyclass(name = "Cylinder", extends = Shape, frozen, module = "gjk")]
pub struct PyCylinder;
solid3!(PyCylinder, "Cylinder", Cylinder);

/// A 3D cone along the local y axis: base disc of `radius` at y = −half_height, apex at y = +half_height.
/// `axis="z"` lays it along z (apex at z = +half_height).
#[pyclass(name = "Cone", extends = Shape, frozen, module = "gjk")]
pub struct PyCone;
solid3!(PyCone, "Cone", Cone);

/// An ellipsoid (3D) or ellipse (2D) centred on the local origin with semi-axes `radii` along x, y (, z).
#[pyclass(name = "Ellipsoid", extends = Shape, frozen, module = "gjk")]
pub struct PyEllipsoid;

#[pymethods]
impl PyEllipsoid {
    #[new]
    #[pyo3(signature = (radii, dtype=None))]
    fn new(
        py: Python<'_>,
        radii: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let r = numbers(py, radii, "radii")?;
        let geom = in_space!("Ellipsoid", r.len(), dt, V => {
            let v = vec_of::<V>(&r, "Ellipsoid", "radii")?;
            wrap::<V, _>(Ellipsoid::new(v).map_err(|e| shape_error("Ellipsoid", e))?)
        });
        Ok(PyClassInitializer::from(Shape::init("Ellipsoid", geom, vec![("radii", Shape::list(py, &r)?)]))
            .add_subclass(PyEllipsoid))
    }
}

/// The convex hull of a point cloud [N, dim] (a polygon in 2D, a polyhedron in 3D). Degenerate clouds are valid:
/// one point, collinear points, coplanar points in 3D.
#[pyclass(name = "ConvexHull", extends = Shape, frozen, module = "gjk")]
pub struct PyConvexHull;

#[pymethods]
impl PyConvexHull {
    #[new]
    #[pyo3(signature = (points, dtype=None))]
    fn new(
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let np = py.import("numpy")?;
        let arr = np.getattr("array")?.call1((points, "float64"))?;
        let arr: PyReadonlyArray2<f64> = arr
            .extract()
            .map_err(|_| PyValueError::new_err("ConvexHull: points must be an array [N, 2] or [N, 3] of numbers"))?;
        let view = arr.as_array();
        let dim = view.shape()[1];
        let mut flat = Vec::with_capacity(view.len());
        flat.extend(view.iter().copied());
        let (geom, vertices, faces) = in_space!("ConvexHull", dim, dt, V => hull::<V>(py, &flat)?);
        let mut shape =
            Shape::init("ConvexHull", geom, vec![("points", arr.as_any().clone().unbind())]).with("vertices", vertices);
        if let Some(faces) = faces {
            shape = shape.with("faces", faces);
        }
        Ok(PyClassInitializer::from(shape).add_subclass(PyConvexHull))
    }
}

type HullParts = (Geom, Py<PyAny>, Option<Py<PyAny>>);

fn hull<V: Space>(py: Python<'_>, flat: &[f64]) -> PyResult<HullParts> {
    let points =
        flat.chunks(V::DIM).map(|p| V::from_fn(|i| <V::Scalar as gjk::math::Real>::from_f64(p[i]))).collect::<Vec<V>>();
    let h = ConvexPolytope::new(&points).map_err(|e| shape_error("ConvexHull", e))?;
    let n = h.vertices().len();
    let verts = PyArray1::from_iter(py, h.vertices().iter().flat_map(|&v| coords(v))).reshape([n, V::DIM])?;
    let faces: Vec<Bound<'_, PyArray1<u32>>> = h.faces().map(|f| PyArray1::from_slice(py, f)).collect();
    let faces = (V::DIM == 3 && !faces.is_empty()).then(|| PyList::new(py, faces)).transpose()?;
    Ok((wrap::<V, _>(h), verts.into_any().unbind(), faces.map(|f| f.into_any().unbind())))
}

/// A segment from `a` to `b`.
#[pyclass(name = "Segment", extends = Shape, frozen, module = "gjk")]
pub struct PySegment;

#[pymethods]
impl PySegment {
    #[new]
    #[pyo3(signature = (a, b, dtype=None))]
    fn new(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let (a, b) = (numbers(py, a, "a")?, numbers(py, b, "b")?);
        let geom = in_space!("Segment", a.len(), dt, V => {
            let (pa, pb) = (vec_of::<V>(&a, "Segment", "a")?, vec_of::<V>(&b, "Segment", "b")?);
            wrap::<V, _>(Segment::new(pa, pb).map_err(|e| shape_error("Segment", e))?)
        });
        Ok(PyClassInitializer::from(Shape::init(
            "Segment",
            geom,
            vec![("a", Shape::list(py, &a)?), ("b", Shape::list(py, &b)?)],
        ))
        .add_subclass(PySegment))
    }
}

/// A triangle with corners `a`, `b`, `c` (flat in 3D).
#[pyclass(name = "Triangle", extends = Shape, frozen, module = "gjk")]
pub struct PyTriangle;

#[pymethods]
impl PyTriangle {
    #[new]
    #[pyo3(signature = (a, b, c, dtype=None))]
    fn new(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let (a, b, c) = (numbers(py, a, "a")?, numbers(py, b, "b")?, numbers(py, c, "c")?);
        let geom = in_space!("Triangle", a.len(), dt, V => {
            let k = "Triangle";
            let (pa, pb, pc) = (vec_of::<V>(&a, k, "a")?, vec_of::<V>(&b, k, "b")?, vec_of::<V>(&c, k, "c")?);
            wrap::<V, _>(Triangle::new(pa, pb, pc).map_err(|e| shape_error(k, e))?)
        });
        let params = vec![("a", Shape::list(py, &a)?), ("b", Shape::list(py, &b)?), ("c", Shape::list(py, &c)?)];
        Ok(PyClassInitializer::from(Shape::init("Triangle", geom, params)).add_subclass(PyTriangle))
    }
}

/// A single point `at`.
#[pyclass(name = "Point", extends = Shape, frozen, module = "gjk")]
pub struct PyPoint;

#[pymethods]
impl PyPoint {
    #[new]
    #[pyo3(signature = (at, dtype=None))]
    fn new(
        py: Python<'_>,
        at: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let p = numbers(py, at, "at")?;
        let geom = in_space!("Point", p.len(), dt, V => {
            wrap::<V, _>(Point::new(vec_of::<V>(&p, "Point", "at")?).map_err(|e| shape_error("Point", e))?)
        });
        Ok(PyClassInitializer::from(Shape::init("Point", geom, vec![("at", Shape::list(py, &p)?)]))
            .add_subclass(PyPoint))
    }
}

/// `shape` rounded by `radius`: every point within `radius` of it (a rounded box, a capsule from a segment).
#[pyclass(name = "Rounded", extends = Shape, frozen, module = "gjk")]
pub struct PyRounded;

#[pymethods]
impl PyRounded {
    #[new]
    fn new(py: Python<'_>, shape: Bound<'_, Shape>, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let inner = &shape.get().geom;
        let geom = with_space!(inner, V => {
            let s = shape.get().convex_of::<V>("Rounded")?.clone();
            let r = <<V as Space>::Scalar as gjk::math::Real>::from_f64(radius);
            wrap::<V, _>(Rounded::new(s, r).map_err(|e| shape_error("Rounded", e))?)
        });
        let params = vec![("shape", shape.into_any().unbind()), ("radius", Shape::float(py, radius))];
        Ok(PyClassInitializer::from(Shape::init("Rounded", geom, params)).add_subclass(PyRounded))
    }
}

/// The Minkowski sum a ⊕ b = {p + q : p in a, q in b} of two shapes of the same space.
#[pyclass(name = "MinkowskiSum", extends = Shape, frozen, module = "gjk")]
pub struct PyMinkowskiSum;

#[pymethods]
impl PyMinkowskiSum {
    #[new]
    fn new(a: Bound<'_, Shape>, b: Bound<'_, Shape>) -> PyResult<PyClassInitializer<Self>> {
        let (ga, gb) = (&a.get().geom, &b.get().geom);
        let geom = with_space!(ga, V => {
            let sa = a.get().convex_of::<V>("MinkowskiSum")?.clone();
            if V::body(gb).is_none() {
                return Err(PyValueError::new_err(format!(
                    "MinkowskiSum: a is {} and b is {}; both must be of the same space",
                    ga.space_name(),
                    gb.space_name()
                )));
            }
            let sb = b.get().convex_of::<V>("MinkowskiSum")?;
            wrap::<V, _>(MinkowskiSum::new(sa, sb.clone()))
        });
        let params = vec![("a", a.into_any().unbind()), ("b", b.into_any().unbind())];
        Ok(PyClassInitializer::from(Shape::init("MinkowskiSum", geom, params)).add_subclass(PyMinkowskiSum))
    }
}

/// `shape` placed at `pose` in its own frame: a convex shape whose local origin is not its own (a box off-centre,
/// a capsule along z). What `from_trimesh` makes of a trimesh primitive with a transform.
#[pyclass(name = "Posed", extends = Shape, frozen, module = "gjk")]
pub struct PyPosed;

#[pymethods]
impl PyPosed {
    #[new]
    fn new(py: Python<'_>, shape: Bound<'_, Shape>, pose: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let inner = &shape.get().geom;
        let geom = with_space!(inner, V => {
            let s = shape.get().convex_of::<V>("Posed")?.clone();
            let iso = crate::query::one_pose::<V>(py, Some(pose), "Posed: pose")?;
            wrap::<V, _>(gjk::shape::Posed::new(s, iso))
        });
        let params = vec![("shape", shape.into_any().unbind()), ("pose", pose.clone().unbind())];
        Ok(PyClassInitializer::from(Shape::init("Posed", geom, params)).add_subclass(PyPosed))
    }
}

/// Registers the classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Shape>()?;
    m.add_class::<PySphere>()?;
    m.add_class::<PyCircle>()?;
    m.add_class::<PyBox>()?;
    m.add_class::<PyCapsule>()?;
    m.add_class::<PyCylinder>()?;
    m.add_class::<PyCone>()?;
    m.add_class::<PyEllipsoid>()?;
    m.add_class::<PyConvexHull>()?;
    m.add_class::<PySegment>()?;
    m.add_class::<PyTriangle>()?;
    m.add_class::<PyPoint>()?;
    m.add_class::<PyRounded>()?;
    m.add_class::<PyMinkowskiSum>()?;
    m.add_class::<PyPosed>()?;
    Ok(())
}
