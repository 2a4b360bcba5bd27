//! The non-convex shape classes — `TriMesh`, `Compound`, `HeightField` and `HalfSpace` — built from numpy arrays
//! into the library's composites and half-space ([`Body`] variants). Every query takes them like any shape.

use std::path::PathBuf;
use std::sync::Arc;

use gjk::composite::{Compound, HalfSpace};
use gjk::math::{Iso, Real, Vector};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::pose::coords;
use crate::shape::{dtype_name, in_space, numbers, shape_error, vec_of, PyConvexHull, Shape};
use crate::space::{with_space, Body, Convex, Space};

/// Points `[N, 2 | 3]` as f64, row after row, with their array (kept for `params`) and their dimension.
fn point_array<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>, what: &str) -> PyResult<(Vec<f64>, Py<PyAny>, usize)> {
    let arr = py.import("numpy")?.getattr("array")?.call1((obj, "float64"))?;
    let ro: PyReadonlyArray2<f64> = arr
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} must be an array [N, 2] or [N, 3] of numbers")))?;
    let dim = ro.shape()[1];
    Ok((ro.as_array().iter().copied().collect(), arr.unbind(), dim))
}

/// Vertex indices `[F, k]` as u32 (any integer dtype; negative or too large indices refused), with the uint32 array.
fn index_array<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>, k: usize, what: &str) -> PyResult<(Vec<u32>, Py<PyAny>)> {
    let np = py.import("numpy")?;
    let arr = np.getattr("asarray")?.call1((obj,))?;
    let size: usize = arr.getattr("size")?.extract()?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if size > 0 && kind != "i" && kind != "u" {
        return Err(PyValueError::new_err(format!("{what} must be integers, got dtype {}", arr.getattr("dtype")?)));
    }
    let arr = np.getattr("asarray")?.call1((arr, "int64"))?.call_method1("reshape", ((-1i64, k),))?;
    let ro: PyReadonlyArray2<i64> = arr.extract()?;
    let mut out = Vec::with_capacity(ro.len());
    for &i in ro.as_array().iter() {
        out.push(u32::try_from(i).map_err(|_| PyValueError::new_err(format!("{what}: index {i} is out of range")))?);
    }
    let shape = ro.shape().to_vec();
    let arr32 = PyArray1::from_slice(py, &out).reshape(shape)?;
    Ok((out, arr32.into_any().unbind()))
}

/// Numbers as the vectors of space `V`.
fn vectors<V: Space>(flat: &[f64]) -> Vec<V> {
    flat.chunks(V::DIM).map(|p| V::from_fn(|i| V::Scalar::from_f64(p[i]))).collect()
}

/// An OBJ file's text: read from `path`, or given as `text` (exactly one of them).
fn obj_text(path: Option<PathBuf>, text: Option<String>) -> PyResult<String> {
    match (path, text) {
        (Some(p), None) => std::fs::read_to_string(&p)
            .map_err(|e| PyValueError::new_err(format!("cannot read the OBJ file {}: {e}", p.display()))),
        (None, Some(t)) => Ok(t),
        _ => Err(PyValueError::new_err("give the OBJ file's path, or its text as text=")),
    }
}

/// A triangle mesh (3D) or a mesh of segments (2D: a polyline, a polygon, a soup) from `vertices` [V, dim] and
/// `indices` [F, 3] (triangles) or [F, 2] (segments) into them.
///
/// A mesh closed and consistently oriented (every edge shared by two triangles traversing it in opposite
/// directions; in 2D every vertex ends one segment and starts another) is solid: a shape inside it intersects it.
/// Any other mesh is a surface. Degenerate triangles are valid; a non-finite vertex or an index out of range raises
/// ValueError. Queries name the triangle they touch (`part_a` / `part_b`: its row of `indices`).
#[pyclass(name = "TriMesh", extends = Shape, frozen, module = "gjk")]
pub struct PyTriMesh;

impl PyTriMesh {
    fn shape<V: Space>(py: Python<'_>, mesh: gjk::composite::TriMesh<V>) -> PyResult<PyClassInitializer<Self>> {
        let (n, k, d) = (mesh.vertices().len(), V::FACET_LEN, V::DIM);
        let verts = PyArray1::from_iter(py, mesh.vertices().iter().flat_map(|&v| coords(v))).reshape([n, d])?;
        let idx: Vec<u32> = mesh.indices().iter().flat_map(|f| f[..k].to_vec()).collect();
        let idx = PyArray1::from_vec(py, idx).reshape([mesh.facet_count(), k])?;
        let verts64 = verts.call_method1("astype", ("float64",))?;
        let params = vec![("vertices", verts64.unbind()), ("indices", idx.clone().into_any().unbind())];
        let shape = Shape::init("TriMesh", V::geom(Body::Mesh(Arc::new(mesh))), params)
            .with("vertices", verts.into_any().unbind())
            .with("indices", idx.into_any().unbind());
        Ok(PyClassInitializer::from(shape).add_subclass(PyTriMesh))
    }
}

#[pymethods]
impl PyTriMesh {
    #[new]
    #[pyo3(signature = (vertices, indices, dtype=None))]
    fn new(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        indices: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let (flat, _, dim) = point_array(py, vertices, "TriMesh: vertices")?;
        in_space!("TriMesh", dim, dt, V => {
            let (idx, _) = index_array(py, indices, <V as Space>::FACET_LEN, "TriMesh: indices")?;
            let mesh = V::mesh(vectors::<V>(&flat), &idx).map_err(|e| shape_error("TriMesh", e))?;
            Self::shape::<V>(py, mesh)
        })
    }

    /// Every face of a Wavefront OBJ file (objects and groups merged) as one mesh: `TriMesh.from_obj(path)` or
    /// `TriMesh.from_obj(text=...)`. Faces of more than three corners are fan-triangulated.
    #[staticmethod]
    #[pyo3(signature = (path=None, *, text=None, dtype=None))]
    fn from_obj(
        py: Python<'_>,
        path: Option<PathBuf>,
        text: Option<String>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyTriMesh>> {
        let dt = dtype_name(py, dtype)?;
        let text = obj_text(path, text)?;
        let init = in_space!("TriMesh", 3, dt, V => {
            let mesh = V::obj_mesh(&text).map_err(|e| PyValueError::new_err(format!("TriMesh: {e}")))?;
            Self::shape::<V>(py, mesh)?
        });
        Py::new(py, init)
    }
}

/// Convex parts, each at a pose in the compound's frame: the union of the parts (solid). `parts` is a sequence of
/// convex shapes of one space; `poses` is None (every part at the origin), an array of N poses ([N, 4, 4] or
/// [N, 7] rows x, y, z, qx, qy, qz, qw — quaternion x, y, z, w; [N, 3, 3] or [N, 3] in 2D), or a sequence of
/// single poses in any form `gjk.distance` takes. Queries name the part they touch (`part_a` / `part_b`: its
/// index in `parts`).
#[pyclass(name = "Compound", extends = Shape, frozen, module = "gjk")]
pub struct PyCompound;

#[pymethods]
impl PyCompound {
    #[new]
    #[pyo3(signature = (parts, poses=None))]
    fn new(
        py: Python<'_>,
        parts: Vec<Bound<'_, Shape>>,
        poses: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let first = parts.first().ok_or_else(|| PyValueError::new_err("Compound: needs at least one part"))?;
        let poses_given = poses.filter(|p| !p.is_none());
        let pose_items: Option<Vec<Bound<'_, PyAny>>> =
            poses_given.map(|p| p.try_iter()?.collect::<PyResult<Vec<_>>>()).transpose()?;
        if let Some(items) = &pose_items {
            if items.len() != parts.len() {
                return Err(PyValueError::new_err(format!(
                    "Compound: {} parts but {} poses",
                    parts.len(),
                    items.len()
                )));
            }
        }
        let shape = with_space!(&first.get().geom, V => {
            let mut posed: Vec<(Convex<V>, Iso<V>)> = Vec::with_capacity(parts.len());
            for (j, part) in parts.iter().enumerate() {
                let p = part.get();
                if V::body(&p.geom).is_none() {
                    return Err(PyValueError::new_err(format!(
                        "Compound: parts[{j}] is {} but parts[0] is {}; the parts share one space",
                        p.geom.space_name(),
                        V::NAME
                    )));
                }
                let s = p.convex_of::<V>(&format!("Compound: parts[{j}]"))?.clone();
                let pose = match &pose_items {
                    Some(items) => crate::query::one_pose::<V>(py, Some(&items[j]), &format!("Compound: poses[{j}]"))?,
                    None => Iso::identity(),
                };
                posed.push((s, pose));
            }
            let c = Compound::new(posed).map_err(|e| shape_error("Compound", e))?;
            let d = V::DIM;
            let mut m = Vec::with_capacity(parts.len() * (d + 1) * (d + 1));
            for (_, pose) in c.parts() {
                let (r, t) = V::matrix(pose);
                for i in 0..d {
                    m.extend_from_slice(&r[i * d..i * d + d]);
                    m.push(t[i]);
                }
                m.extend((0..d).map(|_| 0.0));
                m.push(1.0);
            }
            let matrices = PyArray1::from_vec(py, m).reshape([parts.len(), d + 1, d + 1])?;
            let list = PyList::new(py, &parts)?;
            let params = vec![
                ("parts", list.into_any().unbind()),
                ("poses", poses.map_or_else(|| py.None(), |p| p.clone().unbind())),
            ];
            Shape::init("Compound", V::geom(Body::Compound(Arc::new(c))), params)
                .with("poses", matrices.into_any().unbind())
        });
        Ok(PyClassInitializer::from(shape).add_subclass(PyCompound))
    }

    /// One ConvexHull part per object (`o` or `g`) of a Wavefront OBJ file — how V-HACD and CoACD save a convex
    /// decomposition: `Compound.from_obj(path)` or `Compound.from_obj(text=...)`. Each part is the hull of its
    /// object's vertices (the library's `Compound::from_obj`), at the identity pose.
    #[staticmethod]
    #[pyo3(signature = (path=None, *, text=None, dtype=None))]
    fn from_obj<'py>(
        py: Python<'py>,
        path: Option<PathBuf>,
        text: Option<String>,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dt = dtype_name(py, dtype)?;
        let text = obj_text(path, text)?;
        let hulls: Vec<Bound<'py, PyAny>> = in_space!("Compound", 3, dt, V => {
            let parts = V::obj_parts(&text).map_err(|e| PyValueError::new_err(format!("Compound: {e}")))?;
            let hull = py.get_type::<PyConvexHull>();
            parts
                .iter()
                .map(|vs| {
                    let pts = PyArray1::from_iter(py, vs.iter().flat_map(|&v| coords(v).map(|x| x.to_f64())))
                        .reshape([vs.len(), 3])?;
                    hull.call1((pts, dt))
                })
                .collect::<PyResult<Vec<_>>>()?
        });
        py.get_type::<PyCompound>().call1((PyList::new(py, hulls)?,))
    }
}

/// Terrain: heights on a regular grid along the local y axis, solid below. 3D: `heights` [rows, cols] (at least
/// 2 × 2); sample (r, c) sits at (c·dx, heights[r, c], r·dz), and cell (r, c) is split along its diagonal from
/// (r, c) to (r+1, c+1) into leaves 2·(r·(cols−1) + c) and that + 1. 2D: `heights` [n] (at least 2), sample i at
/// (i·dx, heights[i]), segment i from sample i to i + 1.
#[pyclass(name = "HeightField", extends = Shape, frozen, module = "gjk")]
pub struct PyHeightField;

#[pymethods]
impl PyHeightField {
    #[new]
    #[pyo3(signature = (heights, dx=1.0, dz=1.0, dtype=None))]
    fn new(
        py: Python<'_>,
        heights: &Bound<'_, PyAny>,
        dx: f64,
        dz: f64,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let arr = py.import("numpy")?.getattr("array")?.call1((heights, "float64"))?;
        let ro = arr.extract::<numpy::PyReadonlyArrayDyn<f64>>()?;
        let shape = ro.shape().to_vec();
        let (dim, rows, cols) = match shape.as_slice() {
            [r, c] => (3, *r, *c),
            [n] => (2, 1, *n),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "HeightField: heights must be [rows, cols] (3D) or [n] (2D), got shape {shape:?}"
                )))
            }
        };
        let flat: Vec<f64> = ro.as_array().iter().copied().collect();
        let geom = in_space!("HeightField", dim, dt, V => {
            type R = <V as Space>::Scalar;
            let hs = flat.iter().map(|&h| R::from_f64(h)).collect();
            let field = V::height_field(hs, rows, cols, R::from_f64(dx), R::from_f64(dz))
                .map_err(|e| shape_error("HeightField", e))?;
            V::geom(Body::HeightField(Arc::new(field)))
        });
        let params = vec![("heights", arr.unbind()), ("dx", Shape::float(py, dx)), ("dz", Shape::float(py, dz))];
        Ok(PyClassInitializer::from(Shape::init("HeightField", geom, params)).add_subclass(PyHeightField))
    }
}

/// The solid half-space {x : normal · x ≤ 0} in its own frame: everything on one side of the plane (a line in 2D)
/// through the local origin, `normal` (any length but zero; 3 numbers: 3D, 2: 2D) pointing out of it. Infinite:
/// the ground under a scene, a wall.
#[pyclass(name = "HalfSpace", extends = Shape, frozen, module = "gjk")]
pub struct PyHalfSpace;

#[pymethods]
impl PyHalfSpace {
    #[new]
    #[pyo3(signature = (normal, dtype=None))]
    fn new(
        py: Python<'_>,
        normal: &Bound<'_, PyAny>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let dt = dtype_name(py, dtype)?;
        let n = numbers(py, normal, "normal")?;
        let geom = in_space!("HalfSpace", n.len(), dt, V => {
            let v = vec_of::<V>(&n, "HalfSpace", "normal")?;
            V::geom(Body::HalfSpace(HalfSpace::new(v).map_err(|e| shape_error("HalfSpace", e))?))
        });
        Ok(PyClassInitializer::from(Shape::init("HalfSpace", geom, vec![("normal", Shape::list(py, &n)?)]))
            .add_subclass(PyHalfSpace))
    }
}

/// Registers the classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTriMesh>()?;
    m.add_class::<PyCompound>()?;
    m.add_class::<PyHeightField>()?;
    m.add_class::<PyHalfSpace>()?;
    Ok(())
}
