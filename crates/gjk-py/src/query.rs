//! One query on one pair: the library's query (through [`crate::answer`], which the batches share), its answer as
//! a small Python object (status, error bound, the leaves met, points as numpy arrays of the shapes' dtype).

use gjk::cast::{CastOptions, Motion};
use gjk::math::{Iso, Real};
use gjk::{DistanceOptions, Status};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::answer::{self, CastHit};
use crate::pose::{coords, vector, Poses};
use crate::shape::Shape;
use crate::simplices::{self, WitnessSimplex};
use crate::space::{with_space, Body, Space};

/// The status codes of batch arrays (and `status_code` of single answers).
pub const STATUS_NAMES: [&str; 5] = ["converged", "max_iterations", "stalled", "above_bound", "invalid_input"];
/// The row's input was invalid (a NaN, a non-rotation) and `on_invalid="status"` was asked: no answer.
pub const INVALID: u8 = 4;

pub fn status_code(s: Status) -> u8 {
    match s {
        Status::Converged => 0,
        Status::MaxIterations => 1,
        Status::Stalled => 2,
        Status::AboveBound => 3,
    }
}

/// A leaf index as a batch column entry: −1 for none (a convex shape or a half-space).
pub fn part_code(p: Option<u32>) -> i64 {
    p.map_or(-1, i64::from)
}

/// The two shapes' geometry in space `V` (both must be of it).
pub fn pair<'s, V: Space>(a: &'s Shape, b: &'s Shape) -> PyResult<(&'s Body<V>, &'s Body<V>)> {
    match (V::body(&a.geom), V::body(&b.geom)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(PyValueError::new_err(format!(
            "the shapes are of different spaces: a is {}, b is {} (dimension and dtype must agree)",
            a.geom.space_name(),
            b.geom.space_name()
        ))),
    }
}

fn asarray<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let arr = py.import("numpy")?.getattr("asarray")?.call1((obj, "float64"))?;
    arr.cast_into::<PyArrayDyn<f64>>().map_err(PyErr::from)
}

/// Numbers of a small array, flattened, with its shape.
fn flat(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<(Vec<f64>, Vec<usize>)> {
    let arr = asarray(py, obj)?;
    let ro = arr.readonly();
    let view = ro.as_array();
    Ok((view.iter().copied().collect(), view.shape().to_vec()))
}

/// One pose in any of its Python forms: None (identity); a homogeneous matrix [D+1, D+1]; a row (3D: x, y, z,
/// qx, qy, qz, qw; 2D: x, y, angle); or a tuple (translation, rotation) with rotation None, a quaternion
/// (x, y, z, w) or a 3 × 3 matrix in 3D, an angle or a 2 × 2 matrix in 2D.
pub fn one_pose<V: Space>(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Iso<V>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Iso::identity());
    };
    let err = |e: String| PyValueError::new_err(format!("{what}: {e}"));
    let d = V::DIM;
    let (data, shape) = match obj.cast::<PyTuple>() {
        Ok(t) if t.len() == 2 => {
            let (trans, _) = flat(py, &t.get_item(0)?)?;
            if trans.len() != d {
                return Err(err(format!("the translation must have {d} numbers, got {}", trans.len())));
            }
            let rot = t.get_item(1)?;
            let (r, rshape) = if rot.is_none() {
                (if d == 3 { vec![0.0, 0.0, 0.0, 1.0] } else { vec![0.0] }, vec![V::ROTATION_LEN])
            } else {
                flat(py, &rot)?
            };
            if rshape.len() == 2 {
                if rshape != [d, d] {
                    return Err(err(format!("a rotation matrix must be {d} × {d}, got {rshape:?}")));
                }
                // The homogeneous matrix of (rotation, translation).
                let mut m = vec![0.0; (d + 1) * (d + 1)];
                for i in 0..d {
                    m[i * (d + 1)..i * (d + 1) + d].copy_from_slice(&r[i * d..i * d + d]);
                    m[i * (d + 1) + d] = trans[i];
                }
                m[(d + 1) * (d + 1) - 1] = 1.0;
                (m, vec![1, d + 1, d + 1])
            } else {
                if r.len() != V::ROTATION_LEN {
                    let want = if d == 3 {
                        "a quaternion (x, y, z, w) or a 3 × 3 matrix"
                    } else {
                        "an angle or a 2 × 2 matrix"
                    };
                    return Err(err(format!("the rotation must be {want}, got {} numbers", r.len())));
                }
                let mut row = trans;
                row.extend(r);
                (row, vec![1, d + V::ROTATION_LEN])
            }
        }
        _ => {
            let (data, mut shape) = flat(py, obj)?;
            shape.insert(0, 1);
            (data, shape)
        }
    };
    let arr = ArrayD::from_shape_vec(IxDyn(&shape), data.into_iter().map(V::Scalar::from_f64).collect())
        .map_err(|e| err(e.to_string()))?;
    let poses = Poses::<V>::new(arr.view().into_dyn(), what).map_err(PyValueError::new_err)?;
    poses.get(0).map_err(err)
}

/// A vector argument (origin, direction, velocity) of exactly DIM numbers.
fn vec_arg<V: Space>(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<V> {
    let (data, shape) = flat(py, obj)?;
    if shape.len() != 1 {
        return Err(PyValueError::new_err(format!("{what} must be a vector of {} numbers", V::DIM)));
    }
    vector::<V>(&data, what).map_err(PyValueError::new_err)
}

/// An angular velocity: a number in 2D (radians per unit time), a vector in 3D.
fn angular_arg<V: Space>(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<gjk::cast::Angular<V>> {
    let w = match obj.filter(|o| !o.is_none()) {
        None => vec![0.0; V::ANGULAR_LEN],
        Some(o) => flat(py, o)?.0,
    };
    if w.len() != V::ANGULAR_LEN || w.iter().any(|x| !x.is_finite()) {
        let want = if V::DIM == 3 { "a vector of 3 finite numbers" } else { "a finite number" };
        return Err(PyValueError::new_err(format!("{what} must be {want}, got {w:?}")));
    }
    Ok(V::angular(&w))
}

fn arr<'py, V: Space>(py: Python<'py>, v: V) -> Py<PyAny> {
    PyArray1::from_iter(py, coords(v)).into_any().unbind()
}

fn fmt_parts(a: Option<u32>, b: Option<u32>) -> String {
    let show = |p: Option<u32>| p.map_or("None".to_string(), |x| x.to_string());
    if a.is_none() && b.is_none() {
        String::new()
    } else {
        format!(", part_a={}, part_b={}", show(a), show(b))
    }
}

fn fmt_vec(py: Python<'_>, v: &Py<PyAny>) -> String {
    v.bind(py).call_method0("tolist").and_then(|l| l.repr()).map(|r| r.to_string()).unwrap_or_default()
}

fn options<R: Real>(
    max_iterations: u32,
    tolerance: Option<f64>,
    max_distance: Option<f64>,
) -> PyResult<DistanceOptions<R>> {
    let mut o = DistanceOptions::<R> { max_iterations, ..DistanceOptions::default() };
    if let Some(t) = tolerance {
        if !(t > 0.0 && t.is_finite()) {
            return Err(PyValueError::new_err(format!("tolerance must be positive and finite, got {t}")));
        }
        o.tolerance = R::from_f64(t);
    }
    if let Some(m) = max_distance {
        if m.is_nan() {
            return Err(PyValueError::new_err("max_distance is NaN"));
        }
        o.max_distance = Some(R::from_f64(m));
    }
    Ok(o)
}

/// The answer of `gjk.distance`.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct DistanceResult {
    /// True when the shapes overlap or touch.
    intersecting: bool,
    /// The distance (0 when intersecting; a lower bound when status is "above_bound").
    distance: f64,
    /// Closest point of A (world).
    point_a: Py<PyAny>,
    /// Closest point of B (world); point_b − point_a = distance · normal when apart.
    point_b: Py<PyAny>,
    /// Unit vector from A toward B (zeros when the cores overlap).
    normal: Py<PyAny>,
    /// A's leaf holding point_a (a TriMesh's triangle, a Compound's part, a HeightField's triangle); None for a
    /// convex shape or a HalfSpace.
    part_a: Option<u32>,
    /// B's leaf holding point_b.
    part_b: Option<u32>,
    /// GJK iterations (two convex shapes; 0 for a pair with a composite or a half-space).
    iterations: u32,
    /// Leaf-pair queries run (1 for two convex shapes).
    leaves: u32,
    /// "converged", "max_iterations", "stalled" or "above_bound".
    status: &'static str,
    /// The status as its batch code (0 converged, 1 max_iterations, 2 stalled, 3 above_bound).
    status_code: u8,
    /// Upper minus lower bound on the distance proven by the run.
    error_bound: f64,
    /// A's witness simplex (`simplices=True`, and always from `distance_nd`; None otherwise): the points of A whose
    /// weighted sum is A's core's closest point, with their indices in A.
    simplex_a: Option<Py<WitnessSimplex>>,
    /// B's witness simplex.
    simplex_b: Option<Py<WitnessSimplex>>,
}

#[pymethods]
impl DistanceResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        let simplices = match (&self.simplex_a, &self.simplex_b) {
            (Some(a), Some(b)) => format!(", simplex_a={}, simplex_b={}", a.get().__repr__(py), b.get().__repr__(py)),
            _ => String::new(),
        };
        format!(
            "DistanceResult(distance={:?}, intersecting={}, status='{}', error_bound={:?}, point_a={}, point_b={}, normal={}, iterations={}{}{})",
            self.distance,
            if self.intersecting { "True" } else { "False" },
            self.status,
            self.error_bound,
            fmt_vec(py, &self.point_a),
            fmt_vec(py, &self.point_b),
            fmt_vec(py, &self.normal),
            self.iterations,
            fmt_parts(self.part_a, self.part_b),
            simplices
        )
    }
}

impl DistanceResult {
    fn new<V: Space>(
        py: Python<'_>,
        d: &answer::Gap<V>,
        simplices: Option<(WitnessSimplex, WitnessSimplex)>,
    ) -> PyResult<Self> {
        let (simplex_a, simplex_b) = match simplices {
            Some((a, b)) => (Some(Py::new(py, a)?), Some(Py::new(py, b)?)),
            None => (None, None),
        };
        Ok(DistanceResult {
            intersecting: d.intersecting,
            distance: d.distance.to_f64(),
            point_a: arr(py, d.point_a),
            point_b: arr(py, d.point_b),
            normal: arr(py, d.normal),
            part_a: d.part_a,
            part_b: d.part_b,
            iterations: d.iterations,
            leaves: d.leaves,
            status: d.status.as_str(),
            status_code: status_code(d.status),
            error_bound: d.error_bound.to_f64(),
            simplex_a,
            simplex_b,
        })
    }
}

/// Distance, closest points and normal between shape `a` at `pose_a` and shape `b` at `pose_b`.
///
/// Returns a DistanceResult: `distance` (0 when intersecting), `point_a`, `point_b` (world), `normal` (unit,
/// from A toward B), `intersecting`, `status`, `error_bound` (upper minus lower bound proven by the run),
/// `iterations`, `part_a` / `part_b` (the leaves of composite shapes that realise the distance; None for convex
/// shapes), `leaves`. `max_distance`: stop early once the shapes are known to be farther apart (status
/// "above_bound", distance a lower bound). `tolerance`: relative duality-gap tolerance (default 64 ε).
/// `max_iterations` and `tolerance` apply to two convex shapes; with a composite (TriMesh, Compound,
/// HeightField) or a HalfSpace only their defaults are accepted.
///
/// `simplices=True` adds `simplex_a` and `simplex_b`: for each shape, a WitnessSimplex of the points whose
/// weighted sum is its core's closest point (`indices` into the shape as its constructor took it, `points` in the
/// world, `weights`); with a composite, those of the leaf pair `part_a`, `part_b` (a TriMesh's vertices, a
/// HeightField's samples, a Compound part's own points). The rest of the answer is the same, bit for bit.
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, max_distance=None, max_iterations=256, tolerance=None, simplices=false))]
#[allow(clippy::too_many_arguments)]
pub fn distance(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    max_distance: Option<f64>,
    max_iterations: u32,
    tolerance: Option<f64>,
    simplices: bool,
) -> PyResult<DistanceResult> {
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let (pa, pb) = (one_pose::<V>(py, pose_a, "pose_a")?, one_pose::<V>(py, pose_b, "pose_b")?);
        let o = options(max_iterations, tolerance, max_distance)?;
        answer::check_options(sa, sb, &o).map_err(PyValueError::new_err)?;
        if simplices {
            let (d, sa, sb) = simplices::pair::<V>(py, (&a, sa, &pa), (&b, sb, &pb), &o)?;
            return DistanceResult::new(py, &d, Some((sa, sb)));
        }
        DistanceResult::new(py, &answer::distance(sa, &pa, sb, &pb, &o), None)
    })
}

/// Distance between the convex hulls of two point sets of ℝⁿ, `a` [m, n] and `b` [p, n] (numpy arrays or nested
/// sequences; any n from 1 to 64), moved by the translations `translation_a` and `translation_b` (n numbers; None:
/// zero), with both witness simplices: `gjk::nd`'s GJK (least-squares simplex solver), float64.
///
/// Returns a DistanceResult whose vectors have n numbers and whose `simplex_a` / `simplex_b` are always given:
/// `indices` are rows of `a` (of `b`), `points` those rows moved by the translation, `weights` positive summing to
/// one, Σ weights[i] · points[i] = point_a (point_b). No hull is built: a point set is enough, and points inside
/// the hull, repeated points and sets in a lower flat are all valid. `max_distance`, `max_iterations` and
/// `tolerance` are those of `distance`. Raises ValueError for an empty set, sets of different n, n > 64, a NaN or
/// an infinity.
#[pyfunction]
#[pyo3(signature = (a, b, translation_a=None, translation_b=None, max_distance=None, max_iterations=256, tolerance=None))]
#[allow(clippy::too_many_arguments)]
pub fn distance_nd(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    translation_a: Option<&Bound<'_, PyAny>>,
    translation_b: Option<&Bound<'_, PyAny>>,
    max_distance: Option<f64>,
    max_iterations: u32,
    tolerance: Option<f64>,
) -> PyResult<DistanceResult> {
    let (pa, n) = simplices::point_rows(py, a, "a")?;
    let (pb, nb) = simplices::point_rows(py, b, "b")?;
    if nb != n {
        return Err(PyValueError::new_err(format!("a has {n} coordinates per point and b {nb}: they must agree")));
    }
    let ta = simplices::translation(py, translation_a, n, "translation_a")?;
    let tb = simplices::translation(py, translation_b, n, "translation_b")?;
    let o = options(max_iterations, tolerance, max_distance)?;
    let d = py.detach(|| simplices::distance_nd((&pa, &ta), (&pb, &tb), n, &o)).map_err(PyValueError::new_err)?;
    let v = |x: &[f64]| PyArray1::from_slice(py, x).into_any().unbind();
    let (point_a, point_b, normal) = (v(&d.point_a), v(&d.point_b), v(&d.normal));
    let (intersecting, distance, iterations, status, error_bound) =
        (d.intersecting, d.distance, d.iterations, d.status, d.error_bound);
    let (sa, sb) = d.simplices(py, n)?;
    Ok(DistanceResult {
        intersecting,
        distance,
        point_a,
        point_b,
        normal,
        part_a: None,
        part_b: None,
        iterations,
        leaves: 1,
        status: status.as_str(),
        status_code: status_code(status),
        error_bound,
        simplex_a: Some(Py::new(py, sa)?),
        simplex_b: Some(Py::new(py, sb)?),
    })
}

/// The answer of `gjk.intersects`: true when the shapes overlap or touch (`bool(result)` is that answer).
#[pyclass(frozen, get_all, module = "gjk")]
pub struct IntersectionResult {
    /// True when the shapes overlap or touch.
    intersecting: bool,
    /// GJK iterations.
    iterations: u32,
    /// "converged" when decided; otherwise the answer is the best guess.
    status: &'static str,
    /// The status as its batch code.
    status_code: u8,
}

#[pymethods]
impl IntersectionResult {
    fn __bool__(&self) -> bool {
        self.intersecting
    }
    fn __repr__(&self) -> String {
        format!(
            "IntersectionResult(intersecting={}, status='{}', iterations={})",
            if self.intersecting { "True" } else { "False" },
            self.status,
            self.iterations
        )
    }
}

/// Whether shape `a` at `pose_a` and shape `b` at `pose_b` overlap or touch.
///
/// Returns an IntersectionResult (`bool(result)` is the answer) with `status` and `iterations`; the answer
/// equals `distance(...).intersecting`.
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, max_iterations=256))]
pub fn intersects(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    max_iterations: u32,
) -> PyResult<IntersectionResult> {
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let (pa, pb) = (one_pose::<V>(py, pose_a, "pose_a")?, one_pose::<V>(py, pose_b, "pose_b")?);
        let o = options(max_iterations, None, None)?;
        answer::check_options(sa, sb, &o).map_err(PyValueError::new_err)?;
        let (intersecting, iterations, status) = answer::intersection(sa, &pa, sb, &pb, &o);
        Ok(IntersectionResult {
            intersecting,
            iterations,
            status: status.as_str(),
            status_code: status_code(status),
        })
    })
}

/// The answer of `gjk.penetration`: the signed distance.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct PenetrationResult {
    /// True when the shapes overlap or touch.
    intersecting: bool,
    /// Signed distance: the gap when apart, minus the depth when overlapping.
    distance: f64,
    /// Penetration depth, max(0, −distance).
    depth: f64,
    /// Unit vector from A toward B: moving B by depth · normal separates the shapes.
    normal: Py<PyAny>,
    /// A's point deepest into B (the closest point when apart), world.
    point_a: Py<PyAny>,
    /// B's point deepest into A; point_b − point_a = distance · normal.
    point_b: Py<PyAny>,
    /// A's leaf (composite shapes; None for a convex shape or a HalfSpace).
    part_a: Option<u32>,
    /// B's leaf.
    part_b: Option<u32>,
    /// GJK plus EPA iterations (two convex shapes; 0 for a pair with a composite or a half-space).
    iterations: u32,
    /// How the query ended (the worse of GJK's and EPA's; over the leaves for a composite).
    status: &'static str,
    /// The status as its batch code.
    status_code: u8,
    /// Upper minus lower bound on the signed distance proven by the run; inf for a pair with a composite or a
    /// half-space (the library reports its status only).
    error_bound: f64,
}

#[pymethods]
impl PenetrationResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "PenetrationResult(distance={:?}, depth={:?}, status='{}', error_bound={:?}, normal={}, point_a={}, point_b={}, iterations={}{})",
            self.distance,
            self.depth,
            self.status,
            self.error_bound,
            fmt_vec(py, &self.normal),
            fmt_vec(py, &self.point_a),
            fmt_vec(py, &self.point_b),
            self.iterations,
            fmt_parts(self.part_a, self.part_b)
        )
    }
}

/// Signed distance of two shapes: the gap when apart, minus the penetration depth when overlapping (EPA on the
/// shapes' cores; balls and capsules exact). With a composite: the deepest over its overlapping leaves (a shape
/// wholly inside a solid mesh is pushed out through the nearest face), or the distance when none overlaps.
///
/// Returns a PenetrationResult: `distance` (signed), `depth`, `normal` (moving B by depth · normal separates
/// them), `point_a`, `point_b` (deepest points; point_b − point_a = distance · normal), `part_a` / `part_b`
/// (the leaves), `status`, `error_bound` (inf with a composite or a HalfSpace: not reported by the library),
/// `iterations`. `max_iterations` and `tolerance` apply to two convex shapes only.
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, max_iterations=256, tolerance=None))]
pub fn penetration(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    max_iterations: u32,
    tolerance: Option<f64>,
) -> PyResult<PenetrationResult> {
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let (pa, pb) = (one_pose::<V>(py, pose_a, "pose_a")?, one_pose::<V>(py, pose_b, "pose_b")?);
        let o = options(max_iterations, tolerance, None)?;
        answer::check_options(sa, sb, &o).map_err(PyValueError::new_err)?;
        let p = answer::penetration(sa, &pa, sb, &pb, &o);
        Ok(PenetrationResult {
            intersecting: p.intersecting,
            distance: p.distance.to_f64(),
            depth: (-p.distance).max(<V as Space>::Scalar::ZERO).to_f64(),
            normal: arr(py, p.normal),
            point_a: arr(py, p.point_a),
            point_b: arr(py, p.point_b),
            part_a: p.part_a,
            part_b: p.part_b,
            iterations: p.iterations,
            status: p.status.as_str(),
            status_code: status_code(p.status),
            error_bound: p.error_bound.to_f64(),
        })
    })
}

/// The answer of `gjk.contact_manifold`: every contact of the pair within the prediction distance. Two convex
/// shapes have one manifold (up to 4 contacts, 2 in 2D, sharing one normal); a pair with a composite may have
/// several (one per normal, each up to 4 contacts), flattened here with each contact's own normal and manifold
/// index.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct ContactManifold {
    /// Unit normal from A toward B of the first manifold (the one normal of a convex pair; zeros with no contact).
    normal: Py<PyAny>,
    /// Points on A [K, dim] (world).
    points_a: Py<PyAny>,
    /// Points on B [K, dim] (world).
    points_b: Py<PyAny>,
    /// Each contact's unit normal from A toward B [K, dim] (its manifold's).
    normals: Py<PyAny>,
    /// Penetration depth of each contact [K] (negative: a gap within the prediction distance).
    depths: Py<PyAny>,
    /// Stable ids [K] (uint64): the same contact keeps its id from frame to frame (with its parts).
    ids: Py<PyAny>,
    /// A's leaf of each contact [K] (int64; −1 for a convex shape or a HalfSpace).
    part_a: Py<PyAny>,
    /// B's leaf of each contact [K] (int64; −1 for none).
    part_b: Py<PyAny>,
    /// The manifold of each contact [K] (uint32: 0, 1, ...; contacts of one manifold share its normal).
    manifold: Py<PyAny>,
    /// Number of manifolds.
    manifolds: u32,
    /// The pair's signed distance (for a pair with a composite: `gjk.penetration`'s, run beside).
    distance: f64,
    /// The worst status of the queries that made it.
    status: &'static str,
    /// The status as its batch code.
    status_code: u8,
}

#[pymethods]
impl ContactManifold {
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.depths.bind(py).len()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ContactManifold(contacts={}, manifolds={}, distance={:?}, status='{}', normal={}, depths={})",
            self.depths.bind(py).len().unwrap_or(0),
            self.manifolds,
            self.distance,
            self.status,
            fmt_vec(py, &self.normal),
            fmt_vec(py, &self.depths)
        )
    }
}

/// An array [K, dim] of one vector field of the contacts.
fn rows<V: Space>(
    py: Python<'_>,
    c: &[answer::Contact<V>],
    f: impl Fn(&answer::Contact<V>) -> V,
) -> PyResult<Py<PyAny>> {
    let k = c.len();
    Ok(PyArray1::from_iter(py, c.iter().flat_map(|x| coords(f(x)))).reshape([k, V::DIM])?.into_any().unbind())
}

/// The contacts of two shapes within `prediction`: one manifold of up to 4 contacts (2 in 2D) sharing a normal
/// for two convex shapes; for a pair with a composite (TriMesh, Compound, HeightField) or a HalfSpace, one
/// manifold per normal (a mesh's ghost normals on flat interior edges replaced by the face's), each contact
/// naming its leaves.
///
/// Returns a ContactManifold: `normal`, `points_a` [K, dim], `points_b` [K, dim], `normals` [K, dim], `depths`
/// [K] (negative: a gap), `ids` [K] (uint64, stable from frame to frame), `part_a` / `part_b` [K] (int64, −1 for
/// none), `manifold` [K], `manifolds`, `distance` (signed), `status`; `len(m)` is K.
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction(name = "contact_manifold")]
#[pyo3(signature = (a, pose_a, b, pose_b, prediction=0.0))]
pub fn contact_manifold_py(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    prediction: f64,
) -> PyResult<ContactManifold> {
    if prediction.is_nan() {
        return Err(PyValueError::new_err("prediction is NaN"));
    }
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let (pa, pb) = (one_pose::<V>(py, pose_a, "pose_a")?, one_pose::<V>(py, pose_b, "pose_b")?);
        let mut c = Vec::new();
        let (distance, status) = answer::contacts(sa, &pa, sb, &pb, <V as Space>::Scalar::from_f64(prediction), &mut Vec::new(), &mut c);
        let normal = c.first().map_or(<V as gjk::math::Vector>::zero(), |x| x.normal);
        Ok(ContactManifold {
            normal: arr(py, normal),
            points_a: rows(py, &c, |x| x.point_a)?,
            points_b: rows(py, &c, |x| x.point_b)?,
            normals: rows(py, &c, |x| x.normal)?,
            depths: PyArray1::from_iter(py, c.iter().map(|x| x.depth)).into_any().unbind(),
            ids: PyArray1::from_iter(py, c.iter().map(|x| x.id)).into_any().unbind(),
            part_a: PyArray1::from_iter(py, c.iter().map(|x| part_code(x.part_a))).into_any().unbind(),
            part_b: PyArray1::from_iter(py, c.iter().map(|x| part_code(x.part_b))).into_any().unbind(),
            manifold: PyArray1::from_iter(py, c.iter().map(|x| x.manifold)).into_any().unbind(),
            manifolds: c.last().map_or(0, |x| x.manifold + 1),
            distance: distance.to_f64(),
            status: status.as_str(),
            status_code: status_code(status),
        })
    })
}

/// The answer of `gjk.ray_cast`.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct RayHit {
    /// True when the ray meets the shape within [0, max_toi].
    hit: bool,
    /// Time of impact: point = origin + toi · direction (inf on a miss).
    toi: f64,
    /// Unit normal at the hit: outward for convex shapes, against the ray for a mesh's triangle (zeros for a solid
    /// hit from inside, or a miss).
    normal: Py<PyAny>,
    /// origin + toi · direction.
    point: Py<PyAny>,
    /// The leaf hit (a TriMesh's triangle, a Compound's part, a HeightField's triangle); None for a convex shape, a
    /// HalfSpace, a miss, or a solid hit from inside a composite.
    part: Option<u32>,
    /// Advancement steps of the GJK path (0 on an exact fast path, and for composites).
    iterations: u32,
    /// How the query ended.
    status: &'static str,
    /// The status as its batch code.
    status_code: u8,
}

#[pymethods]
impl RayHit {
    fn __bool__(&self) -> bool {
        self.hit
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "RayHit(hit={}, toi={:?}, point={}, normal={}, part={}, status='{}')",
            if self.hit { "True" } else { "False" },
            self.toi,
            fmt_vec(py, &self.point),
            fmt_vec(py, &self.normal),
            self.part.map_or("None".to_string(), |p| p.to_string()),
            self.status
        )
    }
}

/// Casts the ray origin + t · direction, t in [0, max_toi], against `shape` at `pose`.
///
/// `direction` need not be unit length. A `solid` shape is hit at t = 0 by a ray starting inside it (a convex
/// shape, a closed mesh, a compound's part, below a height field, a half-space); otherwise the ray goes on to the
/// surface. Returns a RayHit (`bool(hit)`): `toi`, `point`, `normal`, `part` (the leaf hit), `status`. `pose`
/// takes every form of `gjk.distance`'s poses.
#[pyfunction(name = "ray_cast")]
#[pyo3(signature = (shape, pose, origin, direction, max_toi=f64::INFINITY, solid=true))]
pub fn ray_cast_py(
    py: Python<'_>,
    shape: PyRef<'_, Shape>,
    pose: Option<&Bound<'_, PyAny>>,
    origin: &Bound<'_, PyAny>,
    direction: &Bound<'_, PyAny>,
    max_toi: f64,
    solid: bool,
) -> PyResult<RayHit> {
    if max_toi.is_nan() {
        return Err(PyValueError::new_err("max_toi is NaN"));
    }
    with_space!(&shape.geom, V => {
        let s = V::body(&shape.geom).expect("own space");
        let p = one_pose::<V>(py, pose, "pose")?;
        let (o, d) = (vec_arg::<V>(py, origin, "origin")?, vec_arg::<V>(py, direction, "direction")?);
        let r = answer::ray_cast(s, &p, o, d, <V as Space>::Scalar::from_f64(max_toi), solid);
        Ok(RayHit {
            hit: r.hit,
            toi: r.toi.to_f64(),
            normal: arr(py, r.normal),
            point: arr(py, r.point),
            part: r.part,
            iterations: r.iterations,
            status: r.status.as_str(),
            status_code: status_code(r.status),
        })
    })
}

/// The answer of `gjk.shape_cast` and `gjk.time_of_impact`.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct CastResult {
    /// True when the shapes reach the target distance within [0, max_toi].
    hit: bool,
    /// Time of impact (inf on a miss).
    toi: f64,
    /// Unit normal from A toward B at the time of impact.
    normal: Py<PyAny>,
    /// Witness point on A at the time of impact (world).
    point_a: Py<PyAny>,
    /// Witness point on B at the time of impact (world).
    point_b: Py<PyAny>,
    /// A's leaf met first (composite shapes; None for a convex shape or a HalfSpace).
    part_a: Option<u32>,
    /// B's leaf met first.
    part_b: Option<u32>,
    /// Advancement steps (each one GJK query; of the leaf pair met first for a composite).
    iterations: u32,
    /// "converged" when decided; "max_iterations" when the cap was reached.
    status: &'static str,
    /// The status as its batch code.
    status_code: u8,
}

#[pymethods]
impl CastResult {
    fn __bool__(&self) -> bool {
        self.hit
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "CastResult(hit={}, toi={:?}, normal={}, point_a={}, point_b={}, status='{}', iterations={}{})",
            if self.hit { "True" } else { "False" },
            self.toi,
            fmt_vec(py, &self.normal),
            fmt_vec(py, &self.point_a),
            fmt_vec(py, &self.point_b),
            self.status,
            self.iterations,
            fmt_parts(self.part_a, self.part_b)
        )
    }
}

fn cast_result<V: Space>(py: Python<'_>, h: CastHit<V>) -> CastResult {
    let c = h.cast;
    CastResult {
        hit: c.hit,
        toi: c.toi.to_f64(),
        normal: arr(py, c.normal),
        point_a: arr(py, c.point_a),
        point_b: arr(py, c.point_b),
        part_a: h.part_a,
        part_b: h.part_b,
        iterations: c.iterations,
        status: c.status.as_str(),
        status_code: status_code(c.status),
    }
}

/// The options of a cast, checked.
pub fn cast_options<R: Real>(
    max_toi: f64,
    target_distance: f64,
    ignore_initial_overlap_when_separating: bool,
    max_iterations: u32,
    tolerance: Option<f64>,
) -> PyResult<CastOptions<R>> {
    if max_toi.is_nan() || !target_distance.is_finite() || tolerance.is_some_and(|t| !(t > 0.0)) {
        return Err(PyValueError::new_err(
            "max_toi must not be NaN, target_distance must be finite, tolerance positive",
        ));
    }
    Ok(CastOptions {
        max_toi: R::from_f64(max_toi),
        target_distance: R::from_f64(target_distance),
        ignore_initial_overlap_when_separating,
        max_iterations,
        tolerance: tolerance.map(R::from_f64),
    })
}

/// First time in [0, max_toi] at which two shapes translating at `velocity_a` and `velocity_b` come within
/// `target_distance` (linear shape cast; no tunnelling). Against a composite, the leaves are cast in the order the
/// moving shape's swept box meets them, and the earliest hit names its leaves (`part_a` / `part_b`).
///
/// Returns a CastResult (`bool(result)` is `hit`): `toi`, `normal` (from A toward B), `point_a`, `point_b`
/// (world, at the time of impact), `part_a`, `part_b`, `status`, `iterations`. With
/// `ignore_initial_overlap_when_separating`, shapes already within the target and moving apart are no hit.
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction(name = "shape_cast")]
#[pyo3(signature = (a, pose_a, velocity_a, b, pose_b, velocity_b, max_toi=f64::INFINITY, target_distance=0.0,
    ignore_initial_overlap_when_separating=false, max_iterations=256, tolerance=None))]
#[allow(clippy::too_many_arguments)]
pub fn shape_cast_py(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    velocity_a: &Bound<'_, PyAny>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    velocity_b: &Bound<'_, PyAny>,
    max_toi: f64,
    target_distance: f64,
    ignore_initial_overlap_when_separating: bool,
    max_iterations: u32,
    tolerance: Option<f64>,
) -> PyResult<CastResult> {
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let (pa, pb) = (one_pose::<V>(py, pose_a, "pose_a")?, one_pose::<V>(py, pose_b, "pose_b")?);
        let (va, vb) = (vec_arg::<V>(py, velocity_a, "velocity_a")?, vec_arg::<V>(py, velocity_b, "velocity_b")?);
        let o = cast_options(max_toi, target_distance, ignore_initial_overlap_when_separating, max_iterations, tolerance)?;
        Ok(cast_result(py, answer::shape_cast(sa, &pa, va, sb, &pb, vb, &o)))
    })
}

/// First time in [0, max_toi] at which two shapes under rigid motions (constant linear velocity and angular
/// velocity about their local origin, world frame) come within `target_distance`: conservative advancement,
/// never past a contact. Against a composite, every leaf that can be reached over the interval is advanced and the
/// earliest names its leaves (`part_a` / `part_b`).
///
/// `angular_a`, `angular_b`: radians per unit time, a vector in 3D, a number in 2D (None: no rotation). Returns
/// a CastResult (`bool(result)` is `hit`).
///
/// Poses (`pose_a`, `pose_b`): None (identity), a 4 × 4 homogeneous matrix (3 × 3 in 2D), a row
/// [x, y, z, qx, qy, qz, qw] (quaternion in x, y, z, w order; [x, y, angle] in 2D), or a tuple
/// (translation, rotation) with rotation None, a quaternion (x, y, z, w) or a 3 × 3 matrix (an angle or a 2 × 2
/// matrix in 2D). Raises ValueError for a non-rotation, a NaN or an infinity, and for shapes of different spaces.
#[pyfunction(name = "time_of_impact")]
#[pyo3(signature = (a, pose_a, velocity_a, angular_a, b, pose_b, velocity_b, angular_b, max_toi=f64::INFINITY,
    target_distance=0.0, max_iterations=256, tolerance=None))]
#[allow(clippy::too_many_arguments)]
pub fn time_of_impact_py(
    py: Python<'_>,
    a: PyRef<'_, Shape>,
    pose_a: Option<&Bound<'_, PyAny>>,
    velocity_a: &Bound<'_, PyAny>,
    angular_a: Option<&Bound<'_, PyAny>>,
    b: PyRef<'_, Shape>,
    pose_b: Option<&Bound<'_, PyAny>>,
    velocity_b: &Bound<'_, PyAny>,
    angular_b: Option<&Bound<'_, PyAny>>,
    max_toi: f64,
    target_distance: f64,
    max_iterations: u32,
    tolerance: Option<f64>,
) -> PyResult<CastResult> {
    with_space!(&a.geom, V => {
        let (sa, sb) = pair::<V>(&a, &b)?;
        let ma = Motion::new(
            one_pose::<V>(py, pose_a, "pose_a")?,
            vec_arg::<V>(py, velocity_a, "velocity_a")?,
            angular_arg::<V>(py, angular_a, "angular_a")?,
        );
        let mb = Motion::new(
            one_pose::<V>(py, pose_b, "pose_b")?,
            vec_arg::<V>(py, velocity_b, "velocity_b")?,
            angular_arg::<V>(py, angular_b, "angular_b")?,
        );
        let o = cast_options(max_toi, target_distance, false, max_iterations, tolerance)?;
        Ok(cast_result(py, answer::time_of_impact(sa, &ma, sb, &mb, &o)))
    })
}

/// The answer of `gjk.project_point`.
#[pyclass(frozen, get_all, module = "gjk")]
pub struct Projection {
    /// The point of the shape closest to the query point (the query point itself when inside), world.
    point: Py<PyAny>,
    /// True when the query point is in the shape (on it, or inside a solid shape).
    inside: bool,
    /// Distance from the query point to `point` (0 inside).
    distance: f64,
    /// The leaf holding `point` (for a point inside a solid composite: the leaf nearest it); None for a convex
    /// shape or a HalfSpace.
    part: Option<u32>,
}

#[pymethods]
impl Projection {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Projection(point={}, inside={}, distance={:?}, part={})",
            fmt_vec(py, &self.point),
            if self.inside { "True" } else { "False" },
            self.distance,
            self.part.map_or("None".to_string(), |p| p.to_string())
        )
    }
}

/// The point of `shape` at `pose` closest to `point`, and whether `point` is inside (on the shape, or inside a
/// solid one: a convex shape, a closed mesh — told by the pseudo-normal of its closest feature —, a compound's
/// part, below a height field, a half-space). Returns a Projection: `point`, `inside`, `distance`, `part`.
#[pyfunction]
pub fn project_point(
    py: Python<'_>,
    shape: PyRef<'_, Shape>,
    pose: Option<&Bound<'_, PyAny>>,
    point: &Bound<'_, PyAny>,
) -> PyResult<Projection> {
    with_space!(&shape.geom, V => {
        let s = V::body(&shape.geom).expect("own space");
        let p = answer::project_point(s, &one_pose::<V>(py, pose, "pose")?, vec_arg::<V>(py, point, "point")?);
        Ok(Projection { point: arr(py, p.point), inside: p.inside, distance: p.distance.to_f64(), part: p.part })
    })
}

/// Whether `point` is in `shape` at `pose` (on it, or inside a solid shape): `project_point(...).inside`.
#[pyfunction]
pub fn contains_point(
    py: Python<'_>,
    shape: PyRef<'_, Shape>,
    pose: Option<&Bound<'_, PyAny>>,
    point: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    Ok(project_point(py, shape, pose, point)?.inside)
}

/// Registers the functions and result classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DistanceResult>()?;
    m.add_class::<WitnessSimplex>()?;
    m.add_class::<IntersectionResult>()?;
    m.add_class::<PenetrationResult>()?;
    m.add_class::<ContactManifold>()?;
    m.add_class::<RayHit>()?;
    m.add_class::<CastResult>()?;
    m.add_class::<Projection>()?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(distance_nd, m)?)?;
    m.add_function(wrap_pyfunction!(intersects, m)?)?;
    m.add_function(wrap_pyfunction!(penetration, m)?)?;
    m.add_function(wrap_pyfunction!(contact_manifold_py, m)?)?;
    m.add_function(wrap_pyfunction!(ray_cast_py, m)?)?;
    m.add_function(wrap_pyfunction!(shape_cast_py, m)?)?;
    m.add_function(wrap_pyfunction!(time_of_impact_py, m)?)?;
    m.add_function(wrap_pyfunction!(project_point, m)?)?;
    m.add_function(wrap_pyfunction!(contains_point, m)?)?;
    m.add("STATUS_NAMES", STATUS_NAMES.to_vec())?;
    Ok(())
}
