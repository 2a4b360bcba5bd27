//! Many queries from numpy arrays, on every core, without the GIL.
//!
//! A batch is a palette of shapes, id arrays choosing each row's shapes from it, pose arrays, and per-row vector
//! arrays (ray origins and directions, velocities, query points). The rows are cut into chunks (the GIL is taken
//! between chunks only: to report progress and to notice Ctrl-C); each chunk's rows are split in halves with
//! `rayon::join` down to small blocks, and every row writes its answer into its own slots of the output columns
//! (plain vectors, handed to numpy without a copy at the end). Rows are independent and each runs exactly the
//! function the single query runs ([`crate::answer`]), so the answers are the same bits whatever the number of
//! threads or the chunk size. Contacts, a variable number per row, are gathered per block in row order and laid out
//! as one flat list with row offsets (CSR).

use std::collections::{HashMap, LinkedList};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

use gjk::cast::{CastOptions, Motion};
use gjk::math::{Iso, Real, Vector};
use gjk::query::Manifold;
use gjk::DistanceOptions;
use numpy::ndarray::{ArrayViewD, Axis};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answer::{self, Contact};
use crate::pose::{coords, Poses};
use crate::query::{part_code, status_code, INVALID};
use crate::shape::Shape;
use crate::space::{with_space, Body, Space};

/// Rows a task takes without splitting further (small enough to balance, large enough to amortise the split).
const GRAIN: usize = 256;

/// Output columns that can be cut at a row and filled row by row, in parallel.
trait Columns: Send + Sized {
    fn len(&self) -> usize;
    fn split_at(self, rows: usize) -> (Self, Self);
    /// Marks row `k` as invalid input (no answer).
    fn invalid(&mut self, k: usize);
}

/// Declares a query's output columns: an owned set (`$out`, one vector per column, zeroed lazily by the
/// allocator) and the borrowed slices a block of rows writes (`$cols`). A column is `one` number per row or `dim`
/// (a vector); `= value` is what an invalid row holds.
macro_rules! columns {
    (@w one, $d:expr) => { 1 };
    (@w dim, $d:expr) => { $d };
    ($out:ident, $cols:ident { $($f:ident: $t:ty [$w:ident] = $bad:expr),* $(,)? }) => {
        struct $out<S> {
            n: usize,
            dim: usize,
            _s: PhantomData<S>,
            $($f: Vec<$t>,)*
        }

        struct $cols<'a, S> {
            n: usize,
            dim: usize,
            _s: PhantomData<S>,
            $($f: &'a mut [$t],)*
        }

        impl<S: Real + numpy::Element> $out<S> {
            fn new(n: usize, dim: usize) -> Self {
                Self { n, dim, _s: PhantomData, $($f: vec![<$t as Default>::default(); n * columns!(@w $w, dim)],)* }
            }

            fn cols(&mut self) -> $cols<'_, S> {
                $cols { n: self.n, dim: self.dim, _s: PhantomData, $($f: &mut self.$f,)* }
            }

            /// The columns as numpy arrays (no copy), by name.
            fn into_dict(self, py: Python<'_>, out: &Bound<'_, PyDict>) -> PyResult<()> {
                $(
                    let a = PyArray1::from_vec(py, self.$f);
                    if stringify!($w) == "dim" {
                        out.set_item(stringify!($f), a.reshape([self.n, self.dim])?)?;
                    } else {
                        out.set_item(stringify!($f), a)?;
                    }
                )*
                Ok(())
            }
        }

        impl<'a, S: Real> Columns for $cols<'a, S> {
            fn len(&self) -> usize {
                self.n
            }
            fn split_at(self, k: usize) -> (Self, Self) {
                let dim = self.dim;
                $(let $f = self.$f.split_at_mut(k * columns!(@w $w, dim));)*
                (
                    $cols { n: k, dim, _s: PhantomData, $($f: $f.0,)* },
                    $cols { n: self.n - k, dim, _s: PhantomData, $($f: $f.1,)* },
                )
            }
            fn invalid(&mut self, k: usize) {
                let dim = self.dim;
                let w = |which: &str| if which == "dim" { dim } else { 1 };
                $(
                    let width = w(stringify!($w));
                    self.$f[k * width..(k + 1) * width].fill($bad);
                )*
            }
        }
    };
}

/// Writes vector `v` into row `k` of a `dim`-wide column.
#[inline]
fn put<V: Vector>(col: &mut [V::Real], k: usize, v: V) {
    let d = V::DIM;
    for (o, x) in col[k * d..k * d + d].iter_mut().zip(coords(v)) {
        *o = x;
    }
}

fn nan<S: Real>() -> S {
    S::from_f64(f64::NAN)
}

columns!(
    GapOut,
    GapCols {
        distance: S[one] = nan(),
        point_a: S[dim] = nan(),
        point_b: S[dim] = nan(),
        normal: S[dim] = nan(),
        status: u8[one] = INVALID,
        error_bound: S[one] = nan(),
        intersecting: bool[one] = false,
        iterations: u32[one] = 0,
        part_a: i64[one] = -1,
        part_b: i64[one] = -1,
    }
);

columns!(HitOut, HitCols { intersecting: bool[one] = false, status: u8[one] = INVALID });

columns!(
    RayOut,
    RayCols {
        hit: bool[one] = false,
        toi: S[one] = nan(),
        normal: S[dim] = nan(),
        point: S[dim] = nan(),
        part: i64[one] = -1,
        status: u8[one] = INVALID,
        iterations: u32[one] = 0,
    }
);

columns!(
    CastOut,
    CastCols {
        hit: bool[one] = false,
        toi: S[one] = nan(),
        normal: S[dim] = nan(),
        point_a: S[dim] = nan(),
        point_b: S[dim] = nan(),
        part_a: i64[one] = -1,
        part_b: i64[one] = -1,
        status: u8[one] = INVALID,
        iterations: u32[one] = 0,
    }
);

columns!(
    PointOut,
    PointCols {
        point: S[dim] = nan(),
        inside: bool[one] = false,
        distance: S[one] = nan(),
        part: i64[one] = -1,
        status: u8[one] = INVALID,
    }
);

columns!(
    ContactOut,
    ContactCols { count: u32[one] = 0, manifolds: u32[one] = 0, distance: S[one] = nan(), status: u8[one] = INVALID }
);

/// Fills `cols` (rows `first..first + cols.len()` of the batch) by halving down to [`GRAIN`] rows. Each block of
/// rows gets its own `B` (a contact list, or nothing), returned in row order.
fn fill<C: Columns, B: Default + Send>(
    mut cols: C,
    first: usize,
    row: &(dyn Fn(usize, &mut C, usize, &mut B) + Sync),
) -> LinkedList<B> {
    let n = cols.len();
    if n <= GRAIN {
        let mut block = B::default();
        for k in 0..n {
            row(first + k, &mut cols, k, &mut block);
        }
        return LinkedList::from([block]);
    }
    let half = n / 2;
    let (left, right) = cols.split_at(half);
    let (mut l, mut r) = rayon::join(|| fill(left, first, row), || fill(right, first + half, row));
    l.append(&mut r);
    l
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

/// A per-row array of `width` numbers (a vector, or a scalar with width 1), read and checked row by row.
struct Vectors<'a, S> {
    name: String,
    width: usize,
    view: ArrayViewD<'a, S>,
    flat: Option<&'a [S]>,
}

impl<'a, S: Real> Vectors<'a, S> {
    fn new(name: &str, view: ArrayViewD<'a, S>, rows: usize, width: usize) -> Result<Self, String> {
        let ok = match view.shape() {
            [n] => *n == rows && width == 1,
            [n, w] => *n == rows && *w == width,
            _ => false,
        };
        if !ok {
            return Err(format!("{name} has shape {:?}; it must be [{rows}, {width}]", view.shape()));
        }
        let flat = view.to_slice();
        Ok(Self { name: name.to_string(), width, view, flat })
    }

    /// Row `i`'s numbers (the first `width` of the array), or why they are not finite.
    fn get(&self, i: usize) -> Result<[f64; 3], String> {
        let mut out = [0.0; 3];
        match self.flat {
            Some(f) => {
                for (o, x) in out.iter_mut().zip(&f[i * self.width..(i + 1) * self.width]) {
                    *o = x.to_f64();
                }
            }
            None => {
                for (o, x) in out.iter_mut().zip(self.view.index_axis(Axis(0), i).iter()) {
                    *o = x.to_f64();
                }
            }
        }
        if out[..self.width].iter().any(|x| !x.is_finite()) {
            return Err(format!("{}[{i}] = {:?} is not finite (NaN or infinite)", self.name, &out[..self.width]));
        }
        Ok(out)
    }

    fn vector<V: Space<Scalar = S>>(&self, i: usize) -> Result<V, String> {
        let x = self.get(i)?;
        Ok(V::from_fn(|j| S::from_f64(x[j])))
    }

    fn scalar(&self, i: usize) -> Result<S, String> {
        Ok(S::from_f64(self.get(i)?[0]))
    }
}

/// One side of a batch: each row's shape (from the palette, by id) and pose.
struct Side<'a, V: Space> {
    which: &'static str,
    ids: &'a [i64],
    poses: Poses<'a, V>,
}

/// The inputs of one batch in space `V`.
struct Inputs<'a, V: Space> {
    shapes: Vec<Body<V>>,
    a: Side<'a, V>,
    b: Option<Side<'a, V>>,
    vectors: Vec<Vectors<'a, V::Scalar>>,
}

impl<'a, V: Space> Inputs<'a, V> {
    fn side<'s>(&'s self, s: &Side<'_, V>, i: usize) -> Result<(&'s Body<V>, Iso<V>), String> {
        let id = s.ids[i];
        let shape = usize::try_from(id).ok().and_then(|j| self.shapes.get(j)).ok_or_else(|| {
            format!("ids_{}[{i}] = {id} is not an index of the {} shapes", s.which, self.shapes.len())
        })?;
        let pose = s.poses.get(i).map_err(|e| format!("poses_{}[{i}]: {e}", s.which))?;
        Ok((shape, pose))
    }

    fn a(&self, i: usize) -> Result<(&Body<V>, Iso<V>), String> {
        self.side(&self.a, i)
    }

    fn b(&self, i: usize) -> Result<(&Body<V>, Iso<V>), String> {
        self.side(self.b.as_ref().expect("a pair query has side b"), i)
    }

    /// The per-row array called `name` (the Python layer always passes the ones a query reads).
    fn vectors(&self, name: &str) -> &Vectors<'a, V::Scalar> {
        self.vectors.iter().find(|v| v.name == name).expect("the Python layer passes every array the query reads")
    }
}

/// How a batch runs.
struct Run<'py> {
    threads: Option<usize>,
    chunk: usize,
    progress: Option<Bound<'py, PyAny>>,
    raise_invalid: bool,
}

type RowFn<'r, C, B> = dyn Fn(usize, &mut C, usize, &mut B) -> Result<(), String> + Sync + 'r;

impl Run<'_> {
    /// Runs `row` on every row, chunk by chunk, writing into `cols`; a row whose input is invalid is marked so (and
    /// raises after its chunk unless `on_invalid="status"`). Returns each block's `B` in row order.
    fn go<C: Columns, B: Default + Send>(
        &self,
        py: Python<'_>,
        mut cols: C,
        row: &RowFn<'_, C, B>,
    ) -> PyResult<LinkedList<B>> {
        let n = cols.len();
        let first_bad: Mutex<Option<(usize, String)>> = Mutex::new(None);
        let checked = |i: usize, c: &mut C, k: usize, b: &mut B| {
            if let Err(why) = row(i, c, k, b) {
                c.invalid(k);
                let mut bad = first_bad.lock().unwrap_or_else(|e| e.into_inner());
                if bad.as_ref().is_none_or(|(j, _)| i < *j) {
                    *bad = Some((i, why));
                }
            }
        };
        let pool = self.threads.map(pool).transpose()?;
        let mut blocks = LinkedList::new();
        let mut start = 0;
        while start < n {
            let len = self.chunk.min(n - start);
            let (head, rest) = cols.split_at(len);
            cols = rest;
            let mut done = py.detach(|| match &pool {
                Some(p) => p.install(|| fill(head, start, &checked)),
                None => fill(head, start, &checked),
            });
            blocks.append(&mut done);
            if self.raise_invalid {
                if let Some((i, why)) = first_bad.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    return Err(PyValueError::new_err(format!("row {i}: {why}")));
                }
            }
            start += len;
            if let Some(p) = &self.progress {
                p.call1((len,))?;
            }
            py.check_signals()?;
        }
        Ok(blocks)
    }
}

/// The scalar options of a batch (each query reads its own), from a dict.
#[derive(Default)]
struct Options {
    max_distance: Option<f64>,
    prediction: Option<f64>,
    solid: Option<bool>,
    target_distance: Option<f64>,
    ignore_initial_overlap_when_separating: Option<bool>,
}

impl Options {
    fn read(d: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let Some(d) = d else { return Ok(Self::default()) };
        let item = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { Ok(d.get_item(k)?.filter(|v| !v.is_none())) };
        let number = |k: &str| -> PyResult<Option<f64>> { item(k)?.map(|v| v.extract::<f64>()).transpose() };
        let flag = |k: &str| -> PyResult<Option<bool>> { item(k)?.map(|v| v.extract::<bool>()).transpose() };
        Ok(Self {
            max_distance: number("max_distance")?,
            prediction: number("prediction")?,
            solid: flag("solid")?,
            target_distance: number("target_distance")?,
            ignore_initial_overlap_when_separating: flag("ignore_initial_overlap_when_separating")?,
        })
    }
}

/// Many queries at once; see `gjk.batch_distance` and its siblings (gjk/batch.py) for the public interface.
///
/// `query` is "distance", "penetration", "intersects", "contact_manifold", "ray_cast", "shape_cast",
/// "time_of_impact" or "project_point". One-shape queries (rays, points) use side a only. `vectors` holds the
/// per-row arrays the query reads (`origins`, `directions`, `max_toi`, `velocities_a`, ...), each [N, width] in
/// the shapes' dtype. Returns a dict of numpy arrays.
#[pyfunction]
#[pyo3(signature = (query, shapes, ids_a, poses_a, ids_b=None, poses_b=None, vectors=None, options=None,
    threads=None, chunk=65536, progress=None, on_invalid="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn batch<'py>(
    py: Python<'py>,
    query: &str,
    shapes: Vec<PyRef<'py, Shape>>,
    ids_a: PyReadonlyArray1<'py, i64>,
    poses_a: &Bound<'py, PyAny>,
    ids_b: Option<PyReadonlyArray1<'py, i64>>,
    poses_b: Option<&Bound<'py, PyAny>>,
    vectors: Option<Vec<(String, Bound<'py, PyAny>, usize)>>,
    options: Option<Bound<'py, PyDict>>,
    threads: Option<usize>,
    chunk: usize,
    progress: Option<Bound<'py, PyAny>>,
    on_invalid: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let first = shapes.first().ok_or_else(|| PyValueError::new_err("the batch needs at least one shape"))?;
    let options = Options::read(options.as_ref())?;
    for (name, x) in [("max_distance", options.max_distance), ("prediction", options.prediction)] {
        if x.is_some_and(f64::is_nan) {
            return Err(PyValueError::new_err(format!("{name} is NaN")));
        }
    }
    if options.target_distance.is_some_and(|t| !t.is_finite()) {
        return Err(PyValueError::new_err("target_distance must be finite"));
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
            palette.push(V::body(&s.geom).cloned().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "shapes[{j}] is {} but shapes[0] is {}: a batch's shapes share one space",
                    s.geom.space_name(),
                    V::NAME
                ))
            })?);
        }
        type S = <V as Space>::Scalar;
        let pa: PyReadonlyArrayDyn<'py, S> = poses_a.extract().map_err(|_| dtype_error::<V>("poses_a"))?;
        let pb: Option<PyReadonlyArrayDyn<'py, S>> =
            poses_b.map(|p| p.extract().map_err(|_| dtype_error::<V>("poses_b"))).transpose()?;
        let mut arrays: Vec<(String, PyReadonlyArrayDyn<'py, S>, usize)> = Vec::new();
        for (name, arr, width) in vectors.unwrap_or_default() {
            let ro = arr.extract().map_err(|_| dtype_error::<V>(&name))?;
            arrays.push((name, ro, width));
        }
        let n = ids_a.as_slice()?.len();
        let side_b = match (&ids_b, &pb) {
            (Some(ids), Some(p)) => Some(Side {
                which: "b",
                ids: ids.as_slice()?,
                poses: Poses::new(p.as_array(), "poses_b").map_err(PyValueError::new_err)?,
            }),
            _ => None,
        };
        let mut vs = Vec::with_capacity(arrays.len());
        for (name, arr, width) in &arrays {
            vs.push(Vectors::new(name, arr.as_array(), n, *width).map_err(PyValueError::new_err)?);
        }
        let inputs = Inputs {
            shapes: palette,
            a: Side { which: "a", ids: ids_a.as_slice()?, poses: Poses::new(pa.as_array(), "poses_a").map_err(PyValueError::new_err)? },
            b: side_b,
            vectors: vs,
        };
        let mut lens = vec![("poses_a", inputs.a.poses.len())];
        if let Some(b) = &inputs.b {
            lens.extend([("ids_b", b.ids.len()), ("poses_b", b.poses.len())]);
        }
        for (what, len) in lens {
            if len != n {
                return Err(PyValueError::new_err(format!("{what} has {len} rows but ids_a has {n}")));
            }
        }
        let pair = !matches!(query, "ray_cast" | "project_point");
        if pair && inputs.b.is_none() {
            return Err(PyValueError::new_err(format!("the {query} batch needs ids_b and poses_b")));
        }
        let out = PyDict::new(py);
        match query {
            "distance" | "penetration" => gap_batch::<V>(py, &run, &inputs, query == "penetration", &options, &out)?,
            "intersects" => hit_batch::<V>(py, &run, &inputs, &out)?,
            "contact_manifold" => contact_batch::<V>(py, &run, &inputs, &options, &out)?,
            "ray_cast" => ray_batch::<V>(py, &run, &inputs, &options, &out)?,
            "shape_cast" | "time_of_impact" => cast_batch::<V>(py, &run, &inputs, query == "time_of_impact", &options, &out)?,
            "project_point" => point_batch::<V>(py, &run, &inputs, &out)?,
            other => return Err(PyValueError::new_err(format!("unknown batch query {other:?}"))),
        }
        Ok(out)
    })
}

fn dtype_error<V: Space>(what: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{what} must be an array of {} (the shapes' dtype)",
        std::any::type_name::<V::Scalar>()
    ))
}

fn gap_batch<V: Space>(
    py: Python<'_>,
    run: &Run<'_>,
    inputs: &Inputs<'_, V>,
    signed: bool,
    options: &Options,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let mut o = GapOut::<V::Scalar>::new(inputs.a.ids.len(), V::DIM);
    let opts = DistanceOptions::<V::Scalar> {
        max_distance: options.max_distance.filter(|_| !signed).map(V::Scalar::from_f64),
        ..DistanceOptions::default()
    };
    run.go(py, o.cols(), &|i, c: &mut GapCols<'_, V::Scalar>, k, _: &mut ()| {
        let ((a, pa), (b, pb)) = (inputs.a(i)?, inputs.b(i)?);
        let g =
            if signed { answer::penetration(a, &pa, b, &pb, &opts) } else { answer::distance(a, &pa, b, &pb, &opts) };
        c.distance[k] = g.distance;
        put(c.point_a, k, g.point_a);
        put(c.point_b, k, g.point_b);
        put(c.normal, k, g.normal);
        c.status[k] = status_code(g.status);
        c.error_bound[k] = g.error_bound;
        c.intersecting[k] = g.intersecting;
        c.iterations[k] = g.iterations;
        c.part_a[k] = part_code(g.part_a);
        c.part_b[k] = part_code(g.part_b);
        Ok(())
    })?;
    o.into_dict(py, out)
}

fn hit_batch<V: Space>(py: Python<'_>, run: &Run<'_>, inputs: &Inputs<'_, V>, out: &Bound<'_, PyDict>) -> PyResult<()> {
    let mut o = HitOut::<V::Scalar>::new(inputs.a.ids.len(), V::DIM);
    run.go(py, o.cols(), &|i, c: &mut HitCols<'_, V::Scalar>, k, _: &mut ()| {
        let ((a, pa), (b, pb)) = (inputs.a(i)?, inputs.b(i)?);
        c.intersecting[k] = answer::intersects(a, &pa, b, &pb);
        c.status[k] = 0;
        Ok(())
    })?;
    o.into_dict(py, out)
}

/// A block's contacts, and the library's reusable list of manifolds.
struct ContactBlock<V: Vector> {
    contacts: Vec<Contact<V>>,
    scratch: Vec<Manifold<V>>,
}

impl<V: Vector> Default for ContactBlock<V> {
    fn default() -> Self {
        Self { contacts: Vec::new(), scratch: Vec::new() }
    }
}

fn contact_batch<V: Space>(
    py: Python<'_>,
    run: &Run<'_>,
    inputs: &Inputs<'_, V>,
    options: &Options,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let n = inputs.a.ids.len();
    let prediction = V::Scalar::from_f64(options.prediction.unwrap_or(0.0));
    let mut o = ContactOut::<V::Scalar>::new(n, V::DIM);
    let blocks = run.go(py, o.cols(), &|i, c: &mut ContactCols<'_, V::Scalar>, k, block: &mut ContactBlock<V>| {
        let ((a, pa), (b, pb)) = (inputs.a(i)?, inputs.b(i)?);
        let before = block.contacts.len();
        let (distance, status) = answer::contacts(a, &pa, b, &pb, prediction, &mut block.scratch, &mut block.contacts);
        let added = &block.contacts[before..];
        c.count[k] = added.len() as u32;
        c.manifolds[k] = added.last().map_or(0, |x| x.manifold + 1);
        c.distance[k] = distance;
        c.status[k] = status_code(status);
        Ok(())
    })?;
    // Row offsets from the counts (an invalid row has none), then the contacts laid out in row order.
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0i64);
    for &k in &o.count {
        offsets.push(offsets.last().copied().unwrap_or(0) + i64::from(k));
    }
    let total = blocks.iter().map(|b| b.contacts.len()).sum::<usize>();
    let d = V::DIM;
    let mut flat = ContactList::<V::Scalar> {
        point_a: Vec::with_capacity(total * d),
        point_b: Vec::with_capacity(total * d),
        normal: Vec::with_capacity(total * d),
        depth: Vec::with_capacity(total),
        id: Vec::with_capacity(total),
        part_a: Vec::with_capacity(total),
        part_b: Vec::with_capacity(total),
        manifold: Vec::with_capacity(total),
    };
    for c in blocks.iter().flat_map(|b| &b.contacts) {
        flat.point_a.extend(coords(c.point_a));
        flat.point_b.extend(coords(c.point_b));
        flat.normal.extend(coords(c.normal));
        flat.depth.push(c.depth);
        flat.id.push(c.id);
        flat.part_a.push(part_code(c.part_a));
        flat.part_b.push(part_code(c.part_b));
        flat.manifold.push(c.manifold);
    }
    o.into_dict(py, out)?;
    out.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    out.set_item("point_a", PyArray1::from_vec(py, flat.point_a).reshape([total, d])?)?;
    out.set_item("point_b", PyArray1::from_vec(py, flat.point_b).reshape([total, d])?)?;
    out.set_item("normal", PyArray1::from_vec(py, flat.normal).reshape([total, d])?)?;
    out.set_item("depth", PyArray1::from_vec(py, flat.depth))?;
    out.set_item("id", PyArray1::from_vec(py, flat.id))?;
    out.set_item("part_a", PyArray1::from_vec(py, flat.part_a))?;
    out.set_item("part_b", PyArray1::from_vec(py, flat.part_b))?;
    out.set_item("manifold", PyArray1::from_vec(py, flat.manifold))?;
    Ok(())
}

/// The contacts of a batch, one entry per contact.
struct ContactList<S> {
    point_a: Vec<S>,
    point_b: Vec<S>,
    normal: Vec<S>,
    depth: Vec<f64>,
    id: Vec<u64>,
    part_a: Vec<i64>,
    part_b: Vec<i64>,
    manifold: Vec<u32>,
}

fn ray_batch<V: Space>(
    py: Python<'_>,
    run: &Run<'_>,
    inputs: &Inputs<'_, V>,
    options: &Options,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let mut o = RayOut::<V::Scalar>::new(inputs.a.ids.len(), V::DIM);
    let solid = options.solid.unwrap_or(true);
    let (origins, directions) = (inputs.vectors("origins"), inputs.vectors("directions"));
    let max_toi = inputs.vectors.iter().find(|v| v.name == "max_toi");
    run.go(py, o.cols(), &|i, c: &mut RayCols<'_, V::Scalar>, k, _: &mut ()| {
        let (s, pose) = inputs.a(i)?;
        let (origin, direction) = (origins.vector::<V>(i)?, directions.vector::<V>(i)?);
        let limit = match max_toi {
            Some(m) => max_toi_of(m, i)?,
            None => V::Scalar::INFINITY,
        };
        let r = answer::ray_cast(s, &pose, origin, direction, limit, solid);
        c.hit[k] = r.hit;
        c.toi[k] = r.toi;
        put(c.normal, k, r.normal);
        put(c.point, k, r.point);
        c.part[k] = part_code(r.part);
        c.status[k] = status_code(r.status);
        c.iterations[k] = r.iterations;
        Ok(())
    })?;
    o.into_dict(py, out)
}

/// A row's `max_toi`: any number but NaN (+inf is no limit).
fn max_toi_of<S: Real>(m: &Vectors<'_, S>, i: usize) -> Result<S, String> {
    match m.scalar(i) {
        Ok(x) => Ok(x),
        Err(_) if m.get_raw(i) == f64::INFINITY => Ok(S::INFINITY),
        Err(e) => Err(e),
    }
}

impl<S: Real> Vectors<'_, S> {
    /// Row `i`'s first number, unchecked.
    fn get_raw(&self, i: usize) -> f64 {
        match self.flat {
            Some(f) => f[i * self.width].to_f64(),
            None => self.view.index_axis(Axis(0), i).iter().next().map_or(f64::NAN, |x| x.to_f64()),
        }
    }
}

fn cast_batch<V: Space>(
    py: Python<'_>,
    run: &Run<'_>,
    inputs: &Inputs<'_, V>,
    rotating: bool,
    options: &Options,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let mut o = CastOut::<V::Scalar>::new(inputs.a.ids.len(), V::DIM);
    let (va, vb) = (inputs.vectors("velocities_a"), inputs.vectors("velocities_b"));
    let angular = rotating.then(|| (inputs.vectors("angular_a"), inputs.vectors("angular_b")));
    let max_toi = inputs.vectors("max_toi");
    let base = CastOptions::<V::Scalar> {
        target_distance: V::Scalar::from_f64(options.target_distance.unwrap_or(0.0)),
        ignore_initial_overlap_when_separating: !rotating
            && options.ignore_initial_overlap_when_separating.unwrap_or(false),
        ..CastOptions::default()
    };
    run.go(py, o.cols(), &|i, c: &mut CastCols<'_, V::Scalar>, k, _: &mut ()| {
        let ((a, pa), (b, pb)) = (inputs.a(i)?, inputs.b(i)?);
        let opts = CastOptions { max_toi: max_toi_of(max_toi, i)?, ..base };
        let (ua, ub) = (va.vector::<V>(i)?, vb.vector::<V>(i)?);
        let h = match angular {
            Some((wa, wb)) => {
                let ma = Motion::new(pa, ua, V::angular(&wa.get(i)?));
                let mb = Motion::new(pb, ub, V::angular(&wb.get(i)?));
                answer::time_of_impact(a, &ma, b, &mb, &opts)
            }
            None => answer::shape_cast(a, &pa, ua, b, &pb, ub, &opts),
        };
        c.hit[k] = h.cast.hit;
        c.toi[k] = h.cast.toi;
        put(c.normal, k, h.cast.normal);
        put(c.point_a, k, h.cast.point_a);
        put(c.point_b, k, h.cast.point_b);
        c.part_a[k] = part_code(h.part_a);
        c.part_b[k] = part_code(h.part_b);
        c.status[k] = status_code(h.cast.status);
        c.iterations[k] = h.cast.iterations;
        Ok(())
    })?;
    o.into_dict(py, out)
}

fn point_batch<V: Space>(
    py: Python<'_>,
    run: &Run<'_>,
    inputs: &Inputs<'_, V>,
    out: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let mut o = PointOut::<V::Scalar>::new(inputs.a.ids.len(), V::DIM);
    let points = inputs.vectors("points");
    run.go(py, o.cols(), &|i, c: &mut PointCols<'_, V::Scalar>, k, _: &mut ()| {
        let (s, pose) = inputs.a(i)?;
        let p = answer::project_point(s, &pose, points.vector::<V>(i)?);
        put(c.point, k, p.point);
        c.inside[k] = p.inside;
        c.distance[k] = p.distance;
        c.part[k] = part_code(p.part);
        c.status[k] = 0;
        Ok(())
    })?;
    o.into_dict(py, out)
}
