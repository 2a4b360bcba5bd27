//! The witness simplices of a distance answer: for each shape, the points whose weighted sum is the closest point
//! of its core, named by their index in the shape as its constructor took it (`gjk.distance(..., simplices=True)`
//! in 2D and 3D, always in `gjk.distance_nd`). The numbering is the CLI's (docs/cli.md, "Witness simplices"), so a
//! Python answer and a CLI line on the same shapes name the same points.
//!
//! The library's `gjk::witness` names the points: GJK's final simplex (`distance_with_witnesses`) matched back to
//! the shape's vertices (`ShapeVertices`, the numbering), a point that is no vertex keeping the index `None`,
//! except the one closed-form point a box or a segment core gives against a point core, written as the corners
//! (ends) whose weighted sum it is. This file reads each shape's vertices from its constructor's arguments and
//! picks the leaf pair behind a composite's answer ([`pair`]).
//! In ℝⁿ (`gjk::nd`) the library names the points itself: the rows of the point sets.

use gjk::composite::Facet;
use gjk::math::{Iso, Real, VecN};
use gjk::nd::{self, PointSet};
use gjk::shape::SupportMap;
use gjk::witness::{name_points, name_simplices, NamedSimplex, ShapeVertices};
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

/// A side's named points (the library's, merged by index) as a Python [`WitnessSimplex`], each point's `dim`
/// coordinates given by `coords_of` (in the shape's dtype).
fn into_py<P: PartialEq, T: numpy::Element>(
    named: NamedSimplex<P>,
    py: Python<'_>,
    dim: usize,
    coords_of: impl Fn(&P) -> Vec<T>,
) -> PyResult<WitnessSimplex> {
    let points = named.into_points();
    let k = points.len();
    let flat: Vec<T> = points.iter().flat_map(|p| coords_of(&p.point)).collect();
    Ok(WitnessSimplex {
        indices: points.iter().map(|p| p.index).collect(),
        points: PyArray1::from_vec(py, flat).reshape([k, dim])?.into_any().unbind(),
        weights: PyArray1::from_iter(py, points.iter().map(|p| p.weight)).into_any().unbind(),
    })
}

/// The vertices of a convex `shape` of space `V`, read from its constructor's arguments and numbered as it took
/// them (the library's numbering, [`ShapeVertices`]): a ConvexHull's `points`, a Box's corners, a Segment's `a`,
/// `b`, a Capsule's ends at −half_height and +half_height along its axis, a Triangle's `a`, `b`, `c`, a Point, a
/// ball's centre, a Rounded shape's inner shape, a Posed shape's inner shape placed by its pose; none for a curved
/// surface or a Minkowski sum.
fn vertices_of<V: Space>(py: Python<'_>, shape: &Shape) -> PyResult<ShapeVertices<V>> {
    let param = |name: &str| shape.param(py, name).ok_or_else(|| PyValueError::new_err(format!("no {name}")));
    let vec = |name: &str| -> PyResult<V> {
        vector::<V>(&numbers(py, &param(name)?, name)?, name).map_err(PyValueError::new_err)
    };
    Ok(match shape.kind_name() {
        "ConvexHull" => {
            let arr = py.import("numpy")?.getattr("asarray")?.call1((param("points")?, "float64"))?;
            let arr = arr.cast_into::<PyArrayDyn<f64>>().map_err(PyErr::from)?;
            let flat: Vec<f64> = arr.readonly().as_array().iter().copied().collect();
            ShapeVertices::List(flat.chunks(V::DIM).map(V::from_f64_slice).collect())
        }
        "Box" => ShapeVertices::Box(vec("half_extents")?),
        "Segment" => ShapeVertices::Segment([vec("a")?, vec("b")?]),
        "Triangle" => ShapeVertices::List(vec![vec("a")?, vec("b")?, vec("c")?]),
        "Point" => ShapeVertices::List(vec![vec("at")?]),
        "Sphere" | "Circle" => ShapeVertices::List(vec![V::zero()]),
        "Capsule" => {
            let h: f64 = param("half_height")?.extract()?;
            let axis_z = param("axis")?.extract::<String>()? == "z";
            let axis = if axis_z { 2 } else { 1 };
            let end = |s: f64| V::from_fn(|k| V::Scalar::from_f64(if k == axis { s * h } else { 0.0 }));
            ShapeVertices::Segment([end(-1.0), end(1.0)])
        }
        // The core of a rounded shape is the shape inside it.
        "Rounded" => vertices_of(py, param("shape")?.cast::<Shape>()?.get())?,
        "Posed" => {
            let inner = vertices_of(py, param("shape")?.cast::<Shape>()?.get())?;
            let pose = crate::query::one_pose::<V>(py, Some(&param("pose")?), "pose")?;
            ShapeVertices::Posed(Box::new(inner), pose)
        }
        _ => ShapeVertices::None,
    })
}

/// One shape's simplex as a Python object.
fn side<V: Space>(py: Python<'_>, named: NamedSimplex<V>) -> PyResult<WitnessSimplex> {
    into_py(named, py, V::DIM, |p| coords(*p).collect())
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
    // The scale of the numbers the points went through (the pair frame, both poses): a vertex matches within a
    // few roundings of it.
    let scale = pa.translation.max_abs().max(pb.translation.max_abs());
    let (va, vb) = (vertices_of(py, a)?, vertices_of(py, b)?);
    let (sa, sb) = name_simplices(&d, &w, (&va, pa), (&vb, pb), scale);
    Ok((Gap::of_convex(&d), side(py, sa)?, side(py, sb)?))
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
            let (sa, sb) = name_simplices(&run, &w, (&la.vertices, &la.pose), (&lb.vertices, &lb.pose), scale);
            return Ok((d, side(py, sa)?, side(py, sb)?));
        }
    }
    // The answer's points are on the shapes, radii included; their cores' points lie a radius back along the
    // normal (A's behind it, B's ahead of it).
    let one = [V::Real::ONE];
    let core_a = d.point_a - d.normal * la.radius();
    let core_b = d.point_b + d.normal * lb.radius();
    let sa = side(py, name_points(&la.vertices, &la.pose, &[core_a], &one, scale))?;
    let sb = side(py, name_points(&lb.vertices, &lb.pose, &[core_b], &one, scale))?;
    Ok((d, sa, sb))
}

/// One side's leaf: the convex shape GJK runs on, where it sits, and the points its simplex's indices name.
struct Leaf<V: Space> {
    shape: Option<LeafShape<V>>,
    pose: Iso<V>,
    vertices: ShapeVertices<V>,
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
                Leaf { shape: Some(LeafShape::Convex(s.clone())), pose, vertices: vertices_of(py, shape)? }
            }
            Body::HalfSpace(_) => Leaf { shape: None, pose, vertices: ShapeVertices::None },
            Body::Mesh(m) => Leaf {
                shape: part.map(|i| LeafShape::Facet(m.facet(i))),
                pose,
                vertices: ShapeVertices::List(m.vertices().to_vec()),
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
                Leaf {
                    shape: part.map(|i| LeafShape::Facet(h.triangle(i))),
                    pose,
                    vertices: ShapeVertices::List(samples),
                }
            }
            Body::Compound(c) => {
                let Some((i, (s, part_pose))) = part.and_then(|i| Some((i as usize, c.parts().get(i as usize)?)))
                else {
                    return Ok(Leaf { shape: None, pose, vertices: ShapeVertices::None });
                };
                let parts = shape.param(py, "parts").ok_or_else(|| PyValueError::new_err("no parts"))?;
                let part_shape = parts.get_item(i)?;
                let vertices = vertices_of(py, part_shape.cast::<Shape>()?.get())?;
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
    simplex_a: NamedSimplex<Vec<f64>>,
    simplex_b: NamedSimplex<Vec<f64>>,
}

impl NdAnswer {
    /// The two simplices as Python objects (points [k, n]).
    pub fn simplices(self, py: Python<'_>, n: usize) -> PyResult<(WitnessSimplex, WitnessSimplex)> {
        Ok((into_py(self.simplex_a, py, n, Clone::clone)?, into_py(self.simplex_b, py, n, Clone::clone)?))
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
        let (mut simplex_a, mut simplex_b) = (NamedSimplex::new(), NamedSimplex::new());
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
