//! Many queries from numpy arrays, on every core, without the GIL.
//!
//! A batch is a palette of shapes, two id arrays choosing each row's shapes from it, and two pose arrays. The rows
//! are cut into chunks (the GIL is taken between chunks only: to report progress and to notice Ctrl-C); each
//! chunk's rows are split in halves with `rayon::join` down to small blocks, and every row writes its answer into
//! its own slots of the output arrays. Rows are independent and each runs the library's query exactly as a single
//! call does, so the answers are the same bits whatever the number of threads or the chunk size.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use gjk::math::{Iso, Real};
use gjk::{distance_with, intersects, penetration, DistanceOptions};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::pose::{coords, Poses};
use crate::query::{status_code, INVALID};
use crate::shape::Shape;
use crate::space::{with_space, Convex, Space};

/// Rows a task takes without splitting further (small enough to balance, large enough to amortise the split).
const GRAIN: usize = 256;

/// Output columns that can be cut at a row and filled row by row, in parallel.
trait Columns: Send + Sized {
    fn len(&self) -> usize;
    fn split_at(self, rows: usize) -> (Self, Self);
    /// Marks row `k` as invalid input (no answer).
    fn invalid(&mut self, k: usize);
}

/// The columns of a distance or penetration batch.
struct Gap<'a, S> {
    dim: usize,
    distance: &'a mut [S],
    point_a: &'a mut [S],
    point_b: &'a mut [S],
    normal: &'a mut [S],
    error_bound: &'a mut [S],
    status: &'a mut [u8],
    intersecting: &'a mut [bool],
    iterations: &'a mut [u32],
}

impl<S: Real> Columns for Gap<'_, S> {
    fn len(&self) -> usize {
        self.distance.len()
    }
    fn split_at(self, k: usize) -> (Self, Self) {
        let d = self.dim;
        let (d0, d1) = self.distance.split_at_mut(k);
        let (a0, a1) = self.point_a.split_at_mut(k * d);
        let (b0, b1) = self.point_b.split_at_mut(k * d);
        let (n0, n1) = self.normal.split_at_mut(k * d);
        let (e0, e1) = self.error_bound.split_at_mut(k);
        let (s0, s1) = self.status.split_at_mut(k);
        let (i0, i1) = self.intersecting.split_at_mut(k);
        let (t0, t1) = self.iterations.split_at_mut(k);
        (
            Gap {
                dim: d,
                distance: d0,
                point_a: a0,
                point_b: b0,
                normal: n0,
                error_bound: e0,
                status: s0,
                intersecting: i0,
                iterations: t0,
            },
            Gap {
                dim: d,
                distance: d1,
                point_a: a1,
                point_b: b1,
                normal: n1,
                error_bound: e1,
                status: s1,
                intersecting: i1,
                iterations: t1,
            },
        )
    }
    fn invalid(&mut self, k: usize) {
        let nan = S::from_f64(f64::NAN);
        let d = self.dim;
        self.distance[k] = nan;
        self.error_bound[k] = nan;
        for c in [&mut *self.point_a, &mut *self.point_b, &mut *self.normal] {
            c[k * d..k * d + d].fill(nan);
        }
        self.status[k] = INVALID;
        self.intersecting[k] = false;
        self.iterations[k] = 0;
    }
}

impl<S: Real> Gap<'_, S> {
    #[allow(clippy::too_many_arguments)]
    fn put<V: gjk::math::Vector<Real = S>>(
        &mut self,
        k: usize,
        distance: S,
        point_a: V,
        point_b: V,
        normal: V,
        error_bound: S,
        status: gjk::Status,
        intersecting: bool,
        iterations: u32,
    ) {
        let d = self.dim;
        self.distance[k] = distance;
        for (c, v) in [(&mut *self.point_a, point_a), (&mut *self.point_b, point_b), (&mut *self.normal, normal)] {
            for (o, x) in c[k * d..k * d + d].iter_mut().zip(coords(v)) {
                *o = x;
            }
        }
        self.error_bound[k] = error_bound;
        self.status[k] = status_code(status);
        self.intersecting[k] = intersecting;
        self.iterations[k] = iterations;
    }
}

/// The columns of an intersection batch.
struct Hit<'a> {
    intersecting: &'a mut [bool],
    status: &'a mut [u8],
}

impl Columns for Hit<'_> {
    fn len(&self) -> usize {
        self.intersecting.len()
    }
    fn split_at(self, k: usize) -> (Self, Self) {
        let (i0, i1) = self.intersecting.split_at_mut(k);
        let (s0, s1) = self.status.split_at_mut(k);
        (Hit { intersecting: i0, status: s0 }, Hit { intersecting: i1, status: s1 })
    }
    fn invalid(&mut self, k: usize) {
        self.intersecting[k] = false;
        self.status[k] = INVALID;
    }
}

/// Fills `cols` (rows `first..first + cols.len()` of the batch) by halving down to [`GRAIN`] rows.
fn fill<C: Columns>(mut cols: C, first: usize, row: &(dyn Fn(usize, &mut C, usize) + Sync)) {
    let n = cols.len();
    if n <= GRAIN {
        for k in 0..n {
            row(first + k, &mut cols, k);
        }
        return;
    }
    let half = n / 2;
    let (left, right) = cols.split_at(half);
    rayon::join(|| fill(left, first, row), || fill(right, first + half, row));
}

/// A rayon pool of `n` threads, built once per size and kept.
fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?,
    );
    pools.insert(n, p.clone());
    Ok(p)
}

/// The inputs of one batch in space `V`.
struct Inputs<'a, V: Space> {
    shapes: Vec<Convex<V>>,
    ids_a: &'a [i64],
    ids_b: &'a [i64],
    poses_a: Poses<'a, V>,
    poses_b: Poses<'a, V>,
}

type Row<'s, V> = (&'s Convex<V>, Iso<V>, &'s Convex<V>, Iso<V>);

impl<V: Space> Inputs<'_, V> {
    fn shape(&self, ids: &[i64], i: usize, which: &str) -> Result<&Convex<V>, String> {
        let id = ids[i];
        usize::try_from(id)
            .ok()
            .and_then(|j| self.shapes.get(j))
            .ok_or_else(|| format!("ids_{which}[{i}] = {id} is not an index of the {} shapes", self.shapes.len()))
    }

    /// Row `i`'s shapes and poses, or why the row is invalid.
    fn row(&self, i: usize) -> Result<Row<'_, V>, String> {
        let a = self.shape(self.ids_a, i, "a")?;
        let b = self.shape(self.ids_b, i, "b")?;
        let pa = self.poses_a.get(i).map_err(|e| format!("poses_a[{i}]: {e}"))?;
        let pb = self.poses_b.get(i).map_err(|e| format!("poses_b[{i}]: {e}"))?;
        Ok((a, pa, b, pb))
    }
}

/// How a batch runs.
struct Run<'py> {
    threads: Option<usize>,
    chunk: usize,
    progress: Option<Bound<'py, PyAny>>,
    raise_invalid: bool,
}

impl Run<'_> {
    /// Runs `query` on every row of `inputs`, chunk by chunk, writing into `cols`.
    fn go<V: Space, C: Columns>(
        &self,
        py: Python<'_>,
        inputs: &Inputs<'_, V>,
        mut cols: C,
        query: &(dyn Fn(Row<'_, V>, &mut C, usize) + Sync),
    ) -> PyResult<()> {
        let n = cols.len();
        let first_bad = AtomicUsize::new(usize::MAX);
        let row = |i: usize, c: &mut C, k: usize| match inputs.row(i) {
            Ok(r) => query(r, c, k),
            Err(_) => {
                c.invalid(k);
                first_bad.fetch_min(i, Ordering::Relaxed);
            }
        };
        let pool = self.threads.map(pool).transpose()?;
        let mut start = 0;
        while start < n {
            let len = self.chunk.min(n - start);
            let (head, rest) = cols.split_at(len);
            cols = rest;
            py.detach(|| match &pool {
                Some(p) => p.install(|| fill(head, start, &row)),
                None => fill(head, start, &row),
            });
            let bad = first_bad.load(Ordering::Relaxed);
            if self.raise_invalid && bad != usize::MAX {
                let why = inputs.row(bad).err().unwrap_or_default();
                return Err(PyValueError::new_err(format!("row {bad}: {why}")));
            }
            start += len;
            if let Some(p) = &self.progress {
                p.call1((len,))?;
            }
            py.check_signals()?;
        }
        Ok(())
    }
}

/// Many queries at once; see `gjk.batch_distance` (gjk/batch.py) for the public interface.
///
/// `query` is "distance", "penetration" or "intersects". Returns a dict of numpy arrays.
#[pyfunction]
#[pyo3(signature = (query, shapes, ids_a, ids_b, poses_a, poses_b, threads=None, chunk=65536, progress=None,
    on_invalid="raise", max_distance=None))]
#[allow(clippy::too_many_arguments)]
pub fn batch<'py>(
    py: Python<'py>,
    query: &str,
    shapes: Vec<PyRef<'py, Shape>>,
    ids_a: PyReadonlyArray1<'py, i64>,
    ids_b: PyReadonlyArray1<'py, i64>,
    poses_a: &Bound<'py, PyAny>,
    poses_b: &Bound<'py, PyAny>,
    threads: Option<usize>,
    chunk: usize,
    progress: Option<Bound<'py, PyAny>>,
    on_invalid: &str,
    max_distance: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let first = shapes.first().ok_or_else(|| PyValueError::new_err("the batch needs at least one shape"))?;
    if max_distance.is_some_and(f64::is_nan) {
        return Err(PyValueError::new_err("max_distance is NaN"));
    }
    if threads == Some(0) || chunk == 0 {
        return Err(PyValueError::new_err("threads and chunk must be at least 1"));
    }
    let raise_invalid = match on_invalid {
        "raise" => true,
        "status" => false,
        other => {
            return Err(PyValueError::new_err(format!("on_invalid must be \"raise\" or \"status\", got {other:?}")))
        }
    };
    let run = Run { threads, chunk, progress, raise_invalid };
    with_space!(&first.geom, V => {
        let mut palette = Vec::with_capacity(shapes.len());
        for (j, s) in shapes.iter().enumerate() {
            palette.push(V::convex(&s.geom).cloned().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "shapes[{j}] is {} but shapes[0] is {}: a batch's shapes share one space",
                    s.geom.space_name(),
                    V::NAME
                ))
            })?);
        }
        let pa: PyReadonlyArrayDyn<'py, <V as Space>::Scalar> = poses_a.extract().map_err(|_| dtype_error::<V>("poses_a"))?;
        let pb: PyReadonlyArrayDyn<'py, <V as Space>::Scalar> = poses_b.extract().map_err(|_| dtype_error::<V>("poses_b"))?;
        let inputs = Inputs {
            shapes: palette,
            ids_a: ids_a.as_slice()?,
            ids_b: ids_b.as_slice()?,
            poses_a: Poses::new(pa.as_array(), "poses_a").map_err(PyValueError::new_err)?,
            poses_b: Poses::new(pb.as_array(), "poses_b").map_err(PyValueError::new_err)?,
        };
        let n = inputs.ids_a.len();
        for (what, len) in [("ids_b", inputs.ids_b.len()), ("poses_a", inputs.poses_a.len()), ("poses_b", inputs.poses_b.len())] {
            if len != n {
                return Err(PyValueError::new_err(format!("{what} has {len} rows but ids_a has {n}")));
            }
        }
        match query {
            "distance" | "penetration" => gap_batch::<V>(py, &run, &inputs, query == "penetration", max_distance),
            "intersects" => hit_batch::<V>(py, &run, &inputs),
            other => Err(PyValueError::new_err(format!("unknown batch query {other:?}"))),
        }
    })
}

fn dtype_error<V: Space>(what: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{what} must be an array of {} (the shapes' dtype)",
        std::any::type_name::<V::Scalar>()
    ))
}

fn gap_batch<'py, V: Space>(
    py: Python<'py>,
    run: &Run<'py>,
    inputs: &Inputs<'_, V>,
    signed: bool,
    max_distance: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = inputs.ids_a.len();
    let d = V::DIM;
    let distance = PyArray1::<V::Scalar>::zeros(py, n, false);
    let point_a = PyArray2::<V::Scalar>::zeros(py, [n, d], false);
    let point_b = PyArray2::<V::Scalar>::zeros(py, [n, d], false);
    let normal = PyArray2::<V::Scalar>::zeros(py, [n, d], false);
    let error_bound = PyArray1::<V::Scalar>::zeros(py, n, false);
    let status = PyArray1::<u8>::zeros(py, n, false);
    let intersecting = PyArray1::<bool>::zeros(py, n, false);
    let iterations = PyArray1::<u32>::zeros(py, n, false);
    {
        let (mut w0, mut w1, mut w2, mut w3, mut w4) = (
            distance.readwrite(),
            point_a.readwrite(),
            point_b.readwrite(),
            normal.readwrite(),
            error_bound.readwrite(),
        );
        let (mut w5, mut w6, mut w7) = (status.readwrite(), intersecting.readwrite(), iterations.readwrite());
        let cols = Gap {
            dim: d,
            distance: w0.as_slice_mut()?,
            point_a: w1.as_slice_mut()?,
            point_b: w2.as_slice_mut()?,
            normal: w3.as_slice_mut()?,
            error_bound: w4.as_slice_mut()?,
            status: w5.as_slice_mut()?,
            intersecting: w6.as_slice_mut()?,
            iterations: w7.as_slice_mut()?,
        };
        if signed {
            run.go(py, inputs, cols, &|(a, pa, b, pb), c: &mut Gap<'_, V::Scalar>, k| {
                let p = penetration(a.as_ref(), &pa, b.as_ref(), &pb);
                c.put(
                    k,
                    p.distance,
                    p.point_a,
                    p.point_b,
                    p.normal,
                    p.error_bound,
                    p.status,
                    p.intersecting,
                    p.iterations,
                );
            })?;
        } else {
            let opts = DistanceOptions::<V::Scalar> {
                max_distance: max_distance.map(V::Scalar::from_f64),
                ..DistanceOptions::default()
            };
            run.go(py, inputs, cols, &|(a, pa, b, pb), c: &mut Gap<'_, V::Scalar>, k| {
                let r = distance_with(a.as_ref(), &pa, b.as_ref(), &pb, &opts, None, &mut ());
                c.put(
                    k,
                    r.distance,
                    r.point_a,
                    r.point_b,
                    r.normal,
                    r.error_bound,
                    r.status,
                    r.intersecting,
                    r.iterations,
                );
            })?;
        }
    }
    let out = PyDict::new(py);
    out.set_item("distance", distance)?;
    out.set_item("point_a", point_a)?;
    out.set_item("point_b", point_b)?;
    out.set_item("normal", normal)?;
    out.set_item("status", status)?;
    out.set_item("error_bound", error_bound)?;
    out.set_item("intersecting", intersecting)?;
    out.set_item("iterations", iterations)?;
    Ok(out)
}

fn hit_batch<'py, V: Space>(py: Python<'py>, run: &Run<'py>, inputs: &Inputs<'_, V>) -> PyResult<Bound<'py, PyDict>> {
    let n = inputs.ids_a.len();
    let intersecting = PyArray1::<bool>::zeros(py, n, false);
    let status = PyArray1::<u8>::zeros(py, n, false);
    {
        let (mut w0, mut w1) = (intersecting.readwrite(), status.readwrite());
        let cols = Hit { intersecting: w0.as_slice_mut()?, status: w1.as_slice_mut()? };
        run.go(py, inputs, cols, &|(a, pa, b, pb), c: &mut Hit<'_>, k| {
            c.intersecting[k] = intersects(a.as_ref(), &pa, b.as_ref(), &pb);
            c.status[k] = 0;
        })?;
    }
    let out = PyDict::new(py);
    out.set_item("intersecting", intersecting)?;
    out.set_item("status", status)?;
    Ok(out)
}
