//! The witness simplices of a distance answer: for each shape, the points whose weighted sum is the closest point
//! of its core, named by their index in the shape as its constructor took it (`gjk.distance(..., simplices=True)`
//! in 2D and 3D, always in `gjk.distance_nd`). The numbering is the CLI's (docs/cli.md, "Witness simplices"), so a
//! Python answer and a CLI line on the same shapes name the same points.
//!
//! The library's `distance_with_witnesses` gives GJK's final simplex: each vertex of A − B with its weight and the
//! points of A's and B's cores that made it (world frame). A support point of a hull, a box, a segment or a
//! triangle is one of its vertices, so each point is matched back to the shape's vertices in the shape's own
//! frame. A point that is not a vertex (on a curved surface, a Minkowski sum's) keeps the index `None`, except the
//! one closed-form point a box or a segment core gives against a point core, written as the corners (ends) whose
//! weighted sum it is. A pair with a composite gives the simplices of the leaf pair behind its answer ([`pair`]).
//! In ℝⁿ (`gjk::nd`) the library names the points itself: the rows of the point sets.

use gjk::composite::Facet;
use gjk::math::{Iso, Real, VecN};
use gjk::nd::{self, PointSet};
use gjk::shape::SupportMap;
use gjk::{Distance, DistanceOptions, Witnesses};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::answer::Gap;
use crate::pose::{coords, vector};
use crate::shape::{numbers, Shape};
use crate::space::{Body, Convex, Space};

/// One shape's witness simplex: `indices` into the shape's points (None where a point is not one of them),
/// `points` (world, [k, dim]) and `weights` ([k], positive, summing to one).
#[pyclass(frozen, get_all, module = "gjk")]
pub struct WitnessSimplex {
    /// Each point's index in the shape as its constructor took it (a ConvexHull's row of `points`, a Box's corner,
    /// a Segment's end, ...; a row of the point set in `distance_nd`), or None where the point is not one of the
    /// shape's own (a point of a curved surface, of a MinkowskiSum).
    indices: Vec<Option<usize>>,
    /// The points [k, dim], world frame (the shape's points placed by its pose), in the shape's dtype.
    points: Py<PyAny>,
    /// The weights [k] (float64), positive, summing to one: Σ weights[i] · points[i] is the core's closest point.
    weights: Py<PyAny>,
}

#[pymethods]
impl WitnessSimplex {
    fn __len__(&self) -> usize {
        self.indices.len()
    }
    pub fn __repr__(&self, py: Python<'_>) -> String {
        let show = |o: &Py<PyAny>| {
            o.bind(py).call_method0("tolist").and_then(|l| l.repr()).map(|r| r.to_string()).unwrap_or_default()
        };
        let indices: Vec<String> = self.indices.iter().map(|i| i.map_or("None".into(), |i| i.to_string())).collect();
        format!(
            "WitnessSimplex(indices=[{}], points={}, weights={})",
            indices.join(", "),
            show(&self.points),
            show(&self.weights)
        )
    }
}

/// A side's points merged by index, as they go into a [`WitnessSimplex`].
struct Named<P> {
    entries: Vec<(Option<usize>, P, f64)>,
}

impl<P: PartialEq> Named<P> {
    fn new() -> Self {
        Self { entries: Vec::new() }
    }

    /// Adds a point of weight `weight`. Zero weights are left out (a vertex the solver kept at weight 0); vertices
    /// of A − B that share a point of this shape are one point: their weights add up.
    fn add(&mut self, index: Option<usize>, point: P, weight: f64) {
        if !(weight > 0.0) {
            return;
        }
        let same = |(i, q, _): &&mut (Option<usize>, P, f64)| match index {
            Some(_) => *i == index,
            None => i.is_none() && *q == point,
        };
        match self.entries.iter_mut().find(same) {
            Some(entry) => entry.2 += weight,
            None => self.entries.push((index, point, weight)),
        }
    }

    /// The Python object, each point's `dim` coordinates given by `coords_of` (in the shape's dtype).
    fn into_py<T: numpy::Element>(
        self,
        py: Python<'_>,
        dim: usize,
        coords_of: impl Fn(&P) -> Vec<T>,
    ) -> PyResult<WitnessSimplex> {
        let k = self.entries.len();
        let flat: Vec<T> = self.entries.iter().flat_map(|(_, p, _)| coords_of(p)).collect();
        Ok(WitnessSimplex {
            indices: self.entries.iter().map(|e| e.0).collect(),
            points: PyArray1::from_vec(py, flat).reshape([k, dim])?.into_any().unbind(),
            weights: PyArray1::from_iter(py, self.entries.iter().map(|e| e.2)).into_any().unbind(),
        })
    }
}

/// What a shape's points are matched against: its vertices in its own frame, numbered as its constructor took
/// them.
enum Vertices<V: Space> {
    /// A Box: corner `i` has coordinate k at +half_extents[k] when bit k of `i` is set, else at −half_extents[k].
    Box(V),
    /// A segment core (a Segment's `a`, `b`; a Capsule's ends at −half_height and +half_height along its axis).
    Segment([V; 2]),
    /// Points given one by one (a ConvexHull's `points`, a Triangle's `a`, `b`, `c`, a Point, a ball's centre).
    List(Vec<V>),
    /// A Posed shape: its inner shape's vertices, placed by the pose.
    Posed(Box<Vertices<V>>, Iso<V>),
    /// No vertices (a curved surface, a Minkowski sum).
    None,
}

impl<V: Space> Vertices<V> {
    /// The vertices of a convex `shape` of space `V`, read from its constructor's arguments.
    fn of(py: Python<'_>, shape: &Shape) -> PyResult<Self> {
        let param = |name: &str| shape.param(py, name).ok_or_else(|| PyValueError::new_err(format!("no {name}")));
        let vec = |name: &str| -> PyResult<V> {
            vector::<V>(&numbers(py, &param(name)?, name)?, name).map_err(PyValueError::new_err)
        };
        Ok(match shape.kind_name() {
            "ConvexHull" => {
                let arr = py.import("numpy")?.getattr("asarray")?.call1((param("points")?, "float64"))?;
                let arr = arr.cast_into::<PyArrayDyn<f64>>().map_err(PyErr::from)?;
                let flat: Vec<f64> = arr.readonly().as_array().iter().copied().collect();
                Vertices::List(flat.chunks(V::DIM).map(V::from_f64_slice).collect())
            }
            "Box" => Vertices::Box(vec("half_extents")?),
            "Segment" => Vertices::Segment([vec("a")?, vec("b")?]),
            "Triangle" => Vertices::List(vec![vec("a")?, vec("b")?, vec("c")?]),
            "Point" => Vertices::List(vec![vec("at")?]),
            "Sphere" | "Circle" => Vertices::List(vec![V::zero()]),
            "Capsule" => {
                let h: f64 = param("half_height")?.extract()?;
                let axis_z = param("axis")?.extract::<String>()? == "z";
                let axis = if axis_z { 2 } else { 1 };
                let end = |s: f64| V::from_fn(|k| V::Scalar::from_f64(if k == axis { s * h } else { 0.0 }));
                Vertices::Segment([end(-1.0), end(1.0)])
            }
            // The core of a rounded shape is the shape inside it.
            "Rounded" => Self::of(py, param("shape")?.cast::<Shape>()?.get())?,
            "Posed" => {
                let inner = Self::of(py, param("shape")?.cast::<Shape>()?.get())?;
                let pose = crate::query::one_pose::<V>(py, Some(&param("pose")?), "pose")?;
                Vertices::Posed(Box::new(inner), pose)
            }
            _ => Vertices::None,
        })
    }

    /// The vertex `i` (in the shape's frame).
    fn vertex(&self, i: usize) -> V {
        match self {
            Vertices::Box(h) => V::from_fn(|k| if i & (1 << k) != 0 { h.get(k) } else { -h.get(k) }),
            Vertices::Segment(ends) => ends[i],
            Vertices::List(points) => points[i],
            Vertices::Posed(inner, pose) => pose.transform_point(inner.vertex(i)),
            Vertices::None => V::zero(),
        }
    }

    fn count(&self) -> usize {
        match self {
            Vertices::Box(_) => 1 << V::DIM,
            Vertices::Segment(_) => 2,
            Vertices::List(points) => points.len(),
            Vertices::Posed(inner, _) => inner.count(),
            Vertices::None => 0,
        }
    }

    /// The vertex nearest `p` (shape frame) if it is `p` up to the rounding of numbers of size `scale`.
    fn matching(&self, p: V, scale: V::Real) -> Option<usize> {
        let (mut best, mut best_d2) = (None, V::Real::INFINITY);
        let mut size = scale.max(p.max_abs());
        for i in 0..self.count() {
            let v = self.vertex(i);
            size = size.max(v.max_abs());
            let d2 = (v - p).length_squared();
            if d2 < best_d2 {
                (best, best_d2) = (Some(i), d2);
            }
        }
        // A world point went through two poses and the pair frame: a few roundings of the largest number, ε·size
        // each. 1024 ε is far above that and far below any real gap between two distinct vertices that matters
        // at the accuracy of the answers.
        let tol = V::Real::from_f64(1024.0) * V::Real::EPSILON * size;
        best.filter(|_| best_d2.sqrt() <= tol)
    }

    /// `p` (shape frame, a point of the shape) as the weighted vertices it is a convex combination of, for a box
    /// (the corners of the simplex of the Kuhn triangulation holding it: at most DIM + 1) and a segment (its ends).
    fn decompose(&self, p: V) -> Option<Vec<(usize, f64)>> {
        match self {
            Vertices::Segment([a, b]) => {
                let e = *b - *a;
                let ee = e.length_squared().to_f64();
                let t = if ee > 0.0 { ((p - *a).dot(e).to_f64() / ee).clamp(0.0, 1.0) } else { 0.0 };
                Some(vec![(0, 1.0 - t), (1, t)])
            }
            Vertices::Box(h) => {
                // Coordinate k of p as a fraction t_k of the way from the −h_k face to the +h_k face. Sorting the
                // axes by decreasing t, the corners 0, then that corner with the first axis set, then the first
                // two, … hold p with weights 1 − t₁, t₁ − t₂, …, t_DIM (the Kuhn simplex containing p).
                let t: Vec<f64> = (0..V::DIM)
                    .map(|k| {
                        let (hk, pk) = (h.get(k).to_f64(), p.get(k).to_f64());
                        if hk > 0.0 {
                            ((pk + hk) / (2.0 * hk)).clamp(0.0, 1.0)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                let mut order: Vec<usize> = (0..V::DIM).collect();
                order.sort_by(|&i, &j| t[j].total_cmp(&t[i]));
                let mut out = Vec::with_capacity(V::DIM + 1);
                let (mut corner, mut previous) = (0usize, 1.0);
                for &k in &order {
                    out.push((corner, previous - t[k]));
                    corner |= 1 << k;
                    previous = t[k];
                }
                out.push((corner, previous));
                Some(out)
            }
            Vertices::Posed(inner, pose) => inner.decompose(pose.inverse_transform_point(p)),
            Vertices::List(_) | Vertices::None => None,
        }
    }
}

/// One shape's simplex from the points of its core (world) and their weights.
fn side<V: Space>(
    py: Python<'_>,
    vertices: &Vertices<V>,
    pose: &Iso<V>,
    points: &[V],
    weights: &[V::Real],
    scale: V::Real,
) -> PyResult<WitnessSimplex> {
    let mut named = Named::<V>::new();
    for (&p, &w) in points.iter().zip(weights) {
        let (local, w) = (pose.inverse_transform_point(p), w.to_f64());
        match vertices.matching(local, scale) {
            // The vertex as given, placed by the pose: the point the index names.
            Some(i) => named.add(Some(i), pose.transform_point(vertices.vertex(i)), w),
            None => match vertices.decompose(local).filter(|_| points.len() == 1) {
                Some(parts) => {
                    for (i, t) in parts {
                        named.add(Some(i), pose.transform_point(vertices.vertex(i)), w * t);
                    }
                }
                None => named.add(None, p, w),
            },
        }
    }
    named.into_py(py, V::DIM, |p| coords(*p).collect())
}

/// The distance of two convex shapes with both witness simplices: the answer of `answer::distance` (the same bits:
/// the library's `distance_with_witnesses` runs the path of `distance_with` without a warm start), and the points
/// of each shape named as its constructor took them.
fn convex_pair<V: Space>(
    py: Python<'_>,
    (a, pa): (&Shape, &Iso<V>),
    (b, pb): (&Shape, &Iso<V>),
    o: &DistanceOptions<V::Real>,
) -> PyResult<(Gap<V>, WitnessSimplex, WitnessSimplex)> {
    let what = "simplices=True";
    let (x, y) = (a.convex_of::<V>(what)?, b.convex_of::<V>(what)?);
    let (d, w): (Distance<V>, Witnesses<V>) = gjk::distance_with_witnesses(x.as_ref(), pa, y.as_ref(), pb, o);
    let s = &d.simplex;
    let len = s.len.min(w.len).min(V::DIM + 1);
    // The scale of the numbers the points went through (the pair frame, both poses): a vertex matches within a
    // few roundings of it.
    let scale = pa.translation.max_abs().max(pb.translation.max_abs());
    let sa = side(py, &Vertices::of(py, a)?, pa, &w.points_a[..len], &s.weights[..len], scale)?;
    let sb = side(py, &Vertices::of(py, b)?, pb, &w.points_b[..len], &s.weights[..len], scale)?;
    Ok((Gap::of_convex(&d), sa, sb))
}

/// The distance of any two bodies with both witness simplices. Two convex shapes: [`convex_pair`]. A pair with a
/// composite or a half-space: the answer of `answer::distance` (the library's `gjk::query`, which names the leaves
/// `part_a` / `part_b`), and the simplices of the leaf pair that gave it, from GJK run again on those two leaves
/// alone, their points named as the composite numbers its points (the CLI's rule): a TriMesh's `vertices`, a
/// HeightField's samples row by row, a Compound part's own points. When a side has no leaf (a HalfSpace) or the
/// leaves do not meet where the answer says the shapes do (a shape inside a solid mesh that no leaf touches), each
/// side is the one point the answer gives, its core's, named where it is one of the shape's points.
pub fn pair<V: Space>(
    py: Python<'_>,
    (a, body_a, pa): (&Shape, &Body<V>, &Iso<V>),
    (b, body_b, pb): (&Shape, &Body<V>, &Iso<V>),
    o: &DistanceOptions<V::Real>,
) -> PyResult<(Gap<V>, WitnessSimplex, WitnessSimplex)> {
    if body_a.convex().is_some() && body_b.convex().is_some() {
        return convex_pair(py, (a, pa), (b, pb), o);
    }
    let d = crate::answer::distance(body_a, pa, body_b, pb, o);
    let la = Leaf::of(py, a, body_a, pa, d.part_a)?;
    let lb = Leaf::of(py, b, body_b, pb, d.part_b)?;
    let scale = pa.translation.max_abs().max(pb.translation.max_abs());
    if let (Some(x), Some(y)) = (la.shape(), lb.shape()) {
        let (run, w) = gjk::distance_with_witnesses(x, &la.pose, y, &lb.pose, &DistanceOptions::default());
        // The leaves alone tell the answer's story unless the answer is an overlap their run does not see.
        if run.intersecting == d.intersecting {
            let len = run.simplex.len.min(w.len).min(V::DIM + 1);
            let weights = &run.simplex.weights[..len];
            let sa = side(py, &la.vertices, &la.pose, &w.points_a[..len], weights, scale)?;
            let sb = side(py, &lb.vertices, &lb.pose, &w.points_b[..len], weights, scale)?;
            return Ok((d, sa, sb));
        }
    }
    // The answer's points are on the shapes, radii included; their cores' points lie a radius back along the
    // normal (A's behind it, B's ahead of it).
    let one = [V::Real::ONE];
    let core_a = d.point_a - d.normal * la.radius();
    let core_b = d.point_b + d.normal * lb.radius();
    let sa = side(py, &la.vertices, &la.pose, &[core_a], &one, scale)?;
    let sb = side(py, &lb.vertices, &lb.pose, &[core_b], &one, scale)?;
    Ok((d, sa, sb))
}

/// One side's leaf: the convex shape GJK runs on, where it sits, and the points its simplex's indices name.
struct Leaf<V: Space> {
    shape: Option<LeafShape<V>>,
    pose: Iso<V>,
    vertices: Vertices<V>,
}

enum LeafShape<V: Space> {
    /// A mesh's triangle (segment in 2D) or a height field's, in the composite's frame.
    Facet(Facet<V>),
    /// A convex shape, or a compound's part.
    Convex(Convex<V>),
}

impl<V: Space> Leaf<V> {
    /// Leaf `part` of the body `body` (the Python shape `shape`) at `pose`.
    fn of(py: Python<'_>, shape: &Shape, body: &Body<V>, pose: &Iso<V>, part: Option<u32>) -> PyResult<Self> {
        let pose = *pose;
        Ok(match body {
            Body::Convex(s) => {
                Leaf { shape: Some(LeafShape::Convex(s.clone())), pose, vertices: Vertices::of(py, shape)? }
            }
            Body::HalfSpace(_) => Leaf { shape: None, pose, vertices: Vertices::None },
            Body::Mesh(m) => Leaf {
                shape: part.map(|i| LeafShape::Facet(m.facet(i))),
                pose,
                vertices: Vertices::List(m.vertices().to_vec()),
            },
            Body::HeightField(h) => {
                // Sample (r, c) of the grid [rows, cols] sits at (c · dx, height, r · dz), numbered r · cols + c;
                // sample i of a 2D profile at (i · dx, height).
                let heights = py.import("numpy")?.getattr("asarray")?.call1((
                    shape.param(py, "heights").ok_or_else(|| PyValueError::new_err("no heights"))?,
                    "float64",
                ))?;
                let heights = heights.cast_into::<PyArrayDyn<f64>>().map_err(PyErr::from)?;
                let cols = *heights.shape().last().unwrap_or(&0);
                let (dx, dz): (f64, f64) = (
                    shape.param(py, "dx").map_or(Ok(1.0), |x| x.extract())?,
                    shape.param(py, "dz").map_or(Ok(1.0), |x| x.extract())?,
                );
                let flat: Vec<f64> = heights.readonly().as_array().iter().copied().collect();
                let samples = flat
                    .iter()
                    .enumerate()
                    .map(|(i, &y)| {
                        let (r, c) = (i / cols.max(1), i % cols.max(1));
                        let at = [c as f64 * dx, y, r as f64 * dz];
                        V::from_fn(|k| V::Scalar::from_f64(at[k]))
                    })
                    .collect();
                Leaf { shape: part.map(|i| LeafShape::Facet(h.triangle(i))), pose, vertices: Vertices::List(samples) }
            }
            Body::Compound(c) => {
                let Some((i, (s, part_pose))) = part.and_then(|i| Some((i as usize, c.parts().get(i as usize)?)))
                else {
                    return Ok(Leaf { shape: None, pose, vertices: Vertices::None });
                };
                let parts = shape.param(py, "parts").ok_or_else(|| PyValueError::new_err("no parts"))?;
                let part_shape = parts.get_item(i)?;
                let vertices = Vertices::of(py, part_shape.cast::<Shape>()?.get())?;
                Leaf { shape: Some(LeafShape::Convex(s.clone())), pose: pose.compose(part_pose), vertices }
            }
        })
    }

    fn shape(&self) -> Option<&dyn SupportMap<V>> {
        match &self.shape {
            Some(LeafShape::Facet(f)) => Some(f),
            Some(LeafShape::Convex(s)) => Some(s.as_ref()),
            None => None,
        }
    }

    fn radius(&self) -> V::Real {
        self.shape().map_or(V::Real::ZERO, |s| s.radius())
    }
}

/// The largest dimension `distance_nd` takes.
pub const MAX_DIM: usize = 64;

/// A point set [m, n] (m ≥ 1 rows of n ≤ [`MAX_DIM`] finite numbers), row after row, with n.
pub fn point_rows(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<f64>, usize)> {
    let arr = py.import("numpy")?.getattr("asarray")?.call1((obj, "float64"))?;
    let arr = arr.cast_into::<PyArrayDyn<f64>>().map_err(PyErr::from)?;
    let shape = arr.shape().to_vec();
    if shape.len() != 2 || shape[0] == 0 || shape[1] == 0 || shape[1] > MAX_DIM {
        return Err(PyValueError::new_err(format!(
            "{what} must be an array [m, n] of m ≥ 1 points with 1 ≤ n ≤ {MAX_DIM} coordinates, got shape {shape:?}"
        )));
    }
    let flat: Vec<f64> = arr.readonly().as_array().iter().copied().collect();
    if flat.iter().any(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!("{what} holds a NaN or an infinity")));
    }
    Ok((flat, shape[1]))
}

/// A translation of n finite numbers (None: zero).
pub fn translation(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(vec![0.0; n]);
    };
    let t = numbers(py, obj, what)?;
    if t.len() != n || t.iter().any(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!("{what} must be {n} finite numbers, got {t:?}")));
    }
    Ok(t)
}

/// The answer of `distance_nd` in ℝⁿ: the fields of a distance answer, vectors of n numbers, and both simplices
/// (points named by their row).
pub struct NdAnswer {
    pub intersecting: bool,
    pub distance: f64,
    pub point_a: Vec<f64>,
    pub point_b: Vec<f64>,
    pub normal: Vec<f64>,
    pub iterations: u32,
    pub status: gjk::Status,
    pub error_bound: f64,
    simplex_a: Named<Vec<f64>>,
    simplex_b: Named<Vec<f64>>,
}

impl NdAnswer {
    /// The two simplices as Python objects (points [k, n]).
    pub fn simplices(self, py: Python<'_>, n: usize) -> PyResult<(WitnessSimplex, WitnessSimplex)> {
        Ok((self.simplex_a.into_py(py, n, Clone::clone)?, self.simplex_b.into_py(py, n, Clone::clone)?))
    }
}

/// The vector of ℝᴹ whose first coordinates are `c` and the rest zero.
fn pad<const M: usize>(c: &[f64]) -> VecN<M> {
    VecN(core::array::from_fn(|i| c.get(i).copied().unwrap_or(0.0)))
}

/// Distance between the hulls of the point sets `a` and `b` (rows of n numbers) moved by `ta` and `tb`, by
/// `gjk::nd`, run in the next size the library is built for (4, 8, 16, 32 or 64) with the extra coordinates zero:
/// exact, since the shapes, and so their closest points and simplices, lie in the first n coordinates.
pub fn distance_nd(
    (a, ta): (&[f64], &[f64]),
    (b, tb): (&[f64], &[f64]),
    n: usize,
    o: &DistanceOptions<f64>,
) -> Result<NdAnswer, String> {
    fn run<const M: usize>(
        (a, ta): (&[f64], &[f64]),
        (b, tb): (&[f64], &[f64]),
        n: usize,
        o: &DistanceOptions<f64>,
    ) -> Result<NdAnswer, String> {
        let set = |p: &[f64], what: &str| {
            PointSet::<M>::new(p.chunks(n).map(pad).collect()).map_err(|e| format!("{what}: {e}"))
        };
        let (sa, sb) = (set(a, "a")?, set(b, "b")?);
        let d = nd::distance_with(&sa, &pad(ta), &sb, &pad(tb), o);
        let cut = |v: &VecN<M>| v.0[..n].to_vec();
        // A row of A (of B) that several vertices of A − B share is one point: their weights add up.
        let (mut simplex_a, mut simplex_b) = (Named::new(), Named::new());
        for w in d.simplex.iter() {
            simplex_a.add(Some(w.index_a), cut(&w.point_a), w.weight);
            simplex_b.add(Some(w.index_b), cut(&w.point_b), w.weight);
        }
        Ok(NdAnswer {
            intersecting: d.intersecting,
            distance: d.distance,
            point_a: cut(&d.point_a),
            point_b: cut(&d.point_b),
            normal: cut(&d.normal),
            iterations: d.iterations,
            status: d.status,
            error_bound: d.error_bound,
            simplex_a,
            simplex_b,
        })
    }
    match n {
        0..=4 => run::<4>((a, ta), (b, tb), n, o),
        5..=8 => run::<8>((a, ta), (b, tb), n, o),
        9..=16 => run::<16>((a, ta), (b, tb), n, o),
        17..=32 => run::<32>((a, ta), (b, tb), n, o),
        _ => run::<64>((a, ta), (b, tb), n, o),
    }
}
