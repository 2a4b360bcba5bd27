//! Lines in ℝᵏ for k > 3 (docs/cli.md, "Dimensions past 3"): `convex`, `point`, `segment` and `sphere` shapes
//! whose vectors have k coordinates, poses that are translations, `distance` and `intersect` queries, answered by
//! `gjk::nd`. A line of k coordinates runs in the next size the library is built for (8, 16, 32 or 64) with the
//! extra coordinates zero — exact: the shapes lie in the first k coordinates, so do their closest points, and the
//! answer is written back with k.

use gjk::math::VecN;
use gjk::nd::{self, Ball, Point, PointSet, Segment, SupportN};
use gjk::{DistanceOptions, Status};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::query::Finite;

/// The largest k a line may have.
pub const MAX_DIM: usize = 64;

/// `Some(k)` when a vector of the line has more than 3 numbers (the line is then in ℝᵏ, and every vector must have
/// k), `None` for a 2D or 3D line, an error when the sizes differ.
pub fn dimension(line: &Map<String, Value>) -> Option<Result<usize, String>> {
    let mut sizes = Vec::new();
    for key in ["a", "b"] {
        if let Some(o) = line.get(key).and_then(Value::as_object) {
            for field in ["a", "b", "at", "half_extents", "radii"] {
                sizes.extend(o.get(field).and_then(Value::as_array).map(Vec::len));
            }
            if let Some(p) = o.get("points").and_then(Value::as_array) {
                sizes.extend(p.iter().filter_map(Value::as_array).map(Vec::len));
            }
        }
    }
    for key in ["pose_a", "pose_b"] {
        sizes.extend(line.get(key).and_then(|p| p.get("translation")).and_then(Value::as_array).map(Vec::len));
    }
    for key in ["origin", "direction", "velocity_a", "velocity_b"] {
        sizes.extend(line.get(key).and_then(Value::as_array).map(Vec::len));
    }
    let k = *sizes.iter().max()?;
    if k <= 3 {
        return None;
    }
    Some(if sizes.iter().all(|&s| s == k) {
        Ok(k)
    } else {
        Err(format!("vectors of a line in ℝᵏ (k > 3) must all have k numbers (sizes {sizes:?})"))
    })
}

/// A shape or pose read from a line, coordinates as written (k of them).
enum ShapeIn {
    Convex(Vec<Vec<f64>>),
    Point(Vec<f64>),
    Segment(Vec<f64>, Vec<f64>),
    Sphere(f64),
}

/// Answers a line in ℝᵏ.
pub fn answer(line: &Value, k: usize) -> Result<NdAnswer, String> {
    if k > MAX_DIM {
        return Err(format!("dimension {k} is past the largest supported ({MAX_DIM})"));
    }
    let query = match line.get("query") {
        None => return Err("missing field `query`".into()),
        Some(Value::String(q)) => q.as_str(),
        Some(_) => return Err("query: expected a string".into()),
    };
    if query != "distance" && query != "intersect" {
        return Err(format!("query `{query}` is not supported in ℝᵏ (k = {k} > 3): distance and intersect are"));
    }
    let simplices = match line.get("simplices") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("simplices: expected true or false".into()),
    };
    let a = shape(line.get("a"), "a", k)?;
    let b = shape(line.get("b"), "b", k)?;
    let ta = translation(line.get("pose_a"), "pose_a", k)?;
    let tb = translation(line.get("pose_b"), "pose_b", k)?;
    let job = Job { a, b, ta, tb, distance: query == "distance", simplices, k };
    match k {
        4..=8 => job.run::<8>(),
        9..=16 => job.run::<16>(),
        17..=32 => job.run::<32>(),
        _ => job.run::<64>(),
    }
}

fn shape(v: Option<&Value>, name: &str, k: usize) -> Result<ShapeIn, String> {
    let o = v.and_then(Value::as_object).ok_or_else(|| format!("{name}: missing or not an object"))?;
    let ty = o.get("type").and_then(Value::as_str).ok_or_else(|| format!("{name}: missing field `type`"))?;
    let vector = |field: &str| coords(o.get(field), &format!("{name}.{field}"), k);
    match ty {
        "convex" | "polyhedron" => {
            let pts = o.get("points").and_then(Value::as_array).ok_or_else(|| format!("{name}: missing `points`"))?;
            if pts.is_empty() {
                return Err(format!("{name}: a convex shape needs at least one point"));
            }
            let pts = pts.iter().enumerate().map(|(i, p)| coords(Some(p), &format!("{name}.points[{i}]"), k));
            Ok(ShapeIn::Convex(pts.collect::<Result<_, _>>()?))
        }
        "point" => Ok(ShapeIn::Point(vector("at")?)),
        "segment" => Ok(ShapeIn::Segment(vector("a")?, vector("b")?)),
        "sphere" | "ball" => {
            let r = o.get("radius").and_then(Value::as_f64).ok_or_else(|| format!("{name}: missing `radius`"))?;
            if r < 0.0 {
                return Err(format!("{name}: radius is negative"));
            }
            Ok(ShapeIn::Sphere(r))
        }
        other => Err(format!(
            "{name}: shape type `{other}` is not supported in ℝᵏ (k = {k} > 3): convex, point, segment, sphere are"
        )),
    }
}

fn coords(v: Option<&Value>, what: &str, k: usize) -> Result<Vec<f64>, String> {
    let a = v.and_then(Value::as_array).ok_or_else(|| format!("{what}: expected an array of {k} numbers"))?;
    if a.len() != k {
        return Err(format!("{what}: expected {k} numbers, got {}", a.len()));
    }
    a.iter().map(|x| x.as_f64().ok_or_else(|| format!("{what}: expected numbers"))).collect()
}

fn translation(v: Option<&Value>, name: &str, k: usize) -> Result<Vec<f64>, String> {
    match v {
        None | Some(Value::Null) => Ok(vec![0.0; k]),
        Some(Value::Object(o)) => {
            if o.get("rotation").is_some_and(|r| !r.is_null()) {
                return Err(format!(
                    "{name}: rotations are not supported in ℝᵏ (k = {k} > 3): a pose is a translation"
                ));
            }
            match o.get("translation") {
                None | Some(Value::Null) => Ok(vec![0.0; k]),
                t => coords(t, &format!("{name}.translation"), k),
            }
        }
        Some(_) => Err(format!("{name}: expected an object")),
    }
}

/// A line read, to be run in ℝᴹ (M ≥ k).
struct Job {
    a: ShapeIn,
    b: ShapeIn,
    ta: Vec<f64>,
    tb: Vec<f64>,
    distance: bool,
    simplices: bool,
    k: usize,
}

/// Coordinates written in ℝᴹ, zeros past k.
fn pad<const M: usize>(c: &[f64]) -> VecN<M> {
    let mut v = VecN::ZERO;
    v.0[..c.len()].copy_from_slice(c);
    v
}

/// A shape of ℝᴹ.
enum Built<const M: usize> {
    Convex(PointSet<M>),
    Point(Point<M>),
    Segment(Segment<M>),
    Ball(Ball<M>),
}

impl<const M: usize> Built<M> {
    fn new(s: &ShapeIn, name: &str) -> Result<Self, String> {
        let err = |e: gjk::shape::ShapeError| format!("{name}: {e}");
        Ok(match s {
            ShapeIn::Convex(p) => Built::Convex(PointSet::new(p.iter().map(|c| pad(c)).collect()).map_err(err)?),
            ShapeIn::Point(p) => Built::Point(Point::new(pad(p)).map_err(err)?),
            ShapeIn::Segment(a, b) => Built::Segment(Segment::new(pad(a), pad(b)).map_err(err)?),
            ShapeIn::Sphere(r) => Built::Ball(Ball::new(VecN::ZERO, *r).map_err(err)?),
        })
    }

    fn dyn_ref(&self) -> &dyn SupportN<M> {
        match self {
            Built::Convex(s) => s,
            Built::Point(s) => s,
            Built::Segment(s) => s,
            Built::Ball(s) => s,
        }
    }
}

impl Job {
    fn run<const M: usize>(self) -> Result<NdAnswer, String> {
        let (a, b) = (Built::<M>::new(&self.a, "a")?, Built::<M>::new(&self.b, "b")?);
        let (ta, tb) = (pad::<M>(&self.ta), pad::<M>(&self.tb));
        let options = DistanceOptions::default();
        if !self.distance {
            let r = nd::intersection(a.dyn_ref(), &ta, b.dyn_ref(), &tb, &options);
            return Ok(NdAnswer::Intersect {
                intersecting: r.intersecting,
                iterations: r.iterations,
                status: r.status,
            });
        }
        let d = nd::distance_with(a.dyn_ref(), &ta, b.dyn_ref(), &tb, &options);
        let f = Finite { status: d.status };
        let k = self.k;
        let vec =
            |v: VecN<M>, what: &str| -> Result<Vec<f64>, String> { v.0[..k].iter().map(|&x| f.num(x, what)).collect() };
        let simplices = if self.simplices {
            let side = |pick: fn(&nd::Witness<M>) -> (usize, VecN<M>), what: &str| -> Result<SideSimplex, String> {
                // Vertices of A − B that share A's point are one point of A: their weights add up.
                let mut s = SideSimplex { indices: Vec::new(), points: Vec::new(), weights: Vec::new() };
                for w in d.simplex.iter() {
                    let (i, p) = pick(w);
                    match s.indices.iter().position(|&j| j == i) {
                        Some(at) => s.weights[at] += w.weight,
                        None => {
                            s.indices.push(i);
                            s.points.push(vec(p, what)?);
                            s.weights.push(w.weight);
                        }
                    }
                }
                Ok(s)
            };
            Some(Box::new(Simplices {
                simplex_a: side(|w| (w.index_a, w.point_a), "simplex_a")?,
                simplex_b: side(|w| (w.index_b, w.point_b), "simplex_b")?,
            }))
        } else {
            None
        };
        Ok(NdAnswer::Distance {
            intersecting: d.intersecting,
            distance: f.num(d.distance, "distance")?,
            point_a: vec(d.point_a, "point_a")?,
            point_b: vec(d.point_b, "point_b")?,
            normal: vec(d.normal, "normal")?,
            iterations: d.iterations,
            status: d.status,
            simplices,
        })
    }
}

/// The points of one shape holding its closest point, with their weights (summing to one) and their indices
/// in the shape (a `convex`'s point index; 0 and 1 for a segment's `a` and `b`; 0 for a point or a sphere's
/// centre).
#[derive(Serialize)]
pub struct SideSimplex {
    indices: Vec<usize>,
    points: Vec<Vec<f64>>,
    weights: Vec<f64>,
}

/// `simplex_a` and `simplex_b`, when the line asks for them.
#[derive(Serialize)]
pub struct Simplices {
    simplex_a: SideSimplex,
    simplex_b: SideSimplex,
}

/// The answer of a line in ℝᵏ: the 2D/3D answers' fields, vectors of k numbers, and the witness simplices when
/// asked.
#[derive(Serialize)]
#[serde(untagged)]
pub enum NdAnswer {
    /// `intersect`.
    Intersect { intersecting: bool, iterations: u32, status: Status },
    /// `distance`.
    Distance {
        intersecting: bool,
        distance: f64,
        point_a: Vec<f64>,
        point_b: Vec<f64>,
        normal: Vec<f64>,
        iterations: u32,
        status: Status,
        #[serde(flatten)]
        simplices: Option<Box<Simplices>>,
    },
}
