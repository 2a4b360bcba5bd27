//! The witness simplices of a 2D or 3D `distance` line (`"simplices": true`; docs/cli.md, "Witness simplices"):
//! for each shape, the points whose weighted sum is the closest point of its core, named by their index in the
//! shape as the line gave it.
//!
//! The library's `distance_with_witnesses` gives GJK's final simplex: each vertex of A − B with its weight and the
//! points of A's and B's cores that made it (world frame). A support point of a polytope, a box, a segment or a triangle is one of its
//! vertices, so each point is matched back to the shape's vertices in the shape's own frame. A point that is not
//! a vertex (on a curved surface, or the one closed-form point a box or a segment core gives against a point core)
//! keeps a `null` index, except that a box's or a segment's single point is written as the corners (ends) whose
//! weighted sum it is.

use gjk::composite::Facet;
use gjk::math::Iso;
use gjk::shape::SupportMap;
use gjk::{Distance, DistanceOptions, Witnesses};
use serde::Serialize;
use serde_json::Value;

use crate::composite::{Built, HeightFieldModel, Loader};
use crate::mesh::MeshFolder;
use crate::model::Space;
use crate::query::{Coords, Finite};

/// The points of one shape holding its core's closest point: `indices` into the shape (`null` where a point is not
/// one of its vertices), `points` (world), `weights` (positive, summing to one).
#[derive(Serialize, Debug, Default)]
pub struct SideSimplex {
    indices: Vec<Option<usize>>,
    points: Vec<Coords>,
    weights: Vec<f64>,
}

/// `simplex_a` and `simplex_b`.
#[derive(Serialize, Debug)]
pub struct Simplices {
    simplex_a: SideSimplex,
    simplex_b: SideSimplex,
}

/// The two simplices of a distance answer `d` (with the points `w` behind its simplex's vertices) between the
/// shapes `a` and `b` (the line's JSON, already read successfully as shapes) at their poses; a `mesh` file's
/// vertices are read from `meshes`.
pub fn simplices<V: Space>(
    d: &Distance<V>,
    w: &Witnesses<V>,
    (a, pose_a): (&Value, &Iso<V>),
    (b, pose_b): (&Value, &Iso<V>),
    meshes: &MeshFolder,
) -> Result<Simplices, String> {
    let loader = Loader::new(meshes);
    from_witnesses(d, w, (&Vertices::of(a, &loader), pose_a), (&Vertices::of(b, &loader), pose_b))
}

/// The simplices of a distance run `d` from its witnesses `w`, each shape's points matched to its `vertices`
/// (in the frame `pose` places in the world).
fn from_witnesses<V: Space>(
    d: &Distance<V>,
    w: &Witnesses<V>,
    (va, pose_a): (&Vertices<V>, &Iso<V>),
    (vb, pose_b): (&Vertices<V>, &Iso<V>),
) -> Result<Simplices, String> {
    let s = &d.simplex;
    let len = s.len.min(w.len).min(V::DIM + 1);
    // The scale of the numbers the points went through (the pair frame, both poses): a vertex matches within a
    // few roundings of it.
    let scale = pose_a.translation.max_abs().max(pose_b.translation.max_abs());
    let f = Finite { status: d.status };
    Ok(Simplices {
        simplex_a: side(va, pose_a, &w.points_a[..len], &s.weights[..len], scale, &f, "simplex_a")?,
        simplex_b: side(vb, pose_b, &w.points_b[..len], &s.weights[..len], scale, &f, "simplex_b")?,
    })
}

/// The simplices of a `distance` answer `d` on a line with a composite or a half-space: those of the leaf pair
/// that gave it (`part_a`, `part_b`; a convex shape is its own leaf), from GJK run again on those two leaves
/// alone, their points named as the line numbers the composite's points (docs/cli.md, "Witness simplices"). When
/// a side has no leaf (a half-space) or the leaves do not meet where the answer says the shapes do (a shape inside
/// a solid), each side is the one point the answer gives, its core's, named where it is one of the shape's
/// points.
pub fn of_leaves<V: Space>(
    d: &gjk::query::Distance<V>,
    (a, json_a, pose_a): (&Built<V>, &Value, &Iso<V>),
    (b, json_b, pose_b): (&Built<V>, &Value, &Iso<V>),
    meshes: &MeshFolder,
) -> Result<Simplices, String> {
    let loader = Loader::new(meshes);
    let la = Leaf::of(a, json_a, pose_a, d.part_a, &loader);
    let lb = Leaf::of(b, json_b, pose_b, d.part_b, &loader);
    if let (Some(sa), Some(sb)) = (la.shape(), lb.shape()) {
        let (run, w) = gjk::distance_with_witnesses(sa, &la.pose, sb, &lb.pose, &DistanceOptions::default());
        // The leaves alone tell the answer's story unless the answer is an overlap their run does not see (a
        // shape inside a solid, held by no leaf it touches).
        if run.intersecting == d.intersecting {
            return from_witnesses(&run, &w, (&la.vertices, &la.pose), (&lb.vertices, &lb.pose));
        }
    }
    let f = Finite { status: d.status };
    let scale = pose_a.translation.max_abs().max(pose_b.translation.max_abs());
    // The answer's points are on the shapes, radii included; their cores' points lie a radius back along the
    // normal (A's behind it, B's ahead of it).
    let core_a = d.point_a - d.normal * la.radius();
    let core_b = d.point_b + d.normal * lb.radius();
    Ok(Simplices {
        simplex_a: side(&la.vertices, &la.pose, &[core_a], &[1.0], scale, &f, "simplex_a")?,
        simplex_b: side(&lb.vertices, &lb.pose, &[core_b], &[1.0], scale, &f, "simplex_b")?,
    })
}

/// One side's leaf: the convex shape GJK runs on, where it sits, and the points its simplex's indices name.
struct Leaf<'s, V: Space> {
    shape: Option<LeafShape<'s, V>>,
    pose: Iso<V>,
    vertices: Vertices<V>,
}

enum LeafShape<'s, V: Space> {
    /// A mesh's triangle (segment in 2D) or a height field's, in the composite's frame.
    Facet(Facet<V>),
    /// A convex shape, or a compound's part.
    Convex(&'s dyn SupportMap<V>),
}

impl<'s, V: Space> Leaf<'s, V> {
    /// Leaf `part` of `shape` (the line's JSON `json`) at `pose`. Indices name: a convex shape's or a compound
    /// part's own points (as for two convex shapes; a part read from a mesh file, the file's vertices); a
    /// trimesh's `vertices` (a mesh file's, as read); a height field's samples, row by row.
    fn of(shape: &'s Built<V>, json: &Value, pose: &Iso<V>, part: Option<u32>, loader: &Loader<'_>) -> Self {
        match shape {
            Built::Convex(s) => {
                Leaf { shape: Some(LeafShape::Convex(&**s)), pose: *pose, vertices: Vertices::of(json, loader) }
            }
            Built::HalfSpace(_) => Leaf { shape: None, pose: *pose, vertices: Vertices::None },
            Built::TriMesh(m) => Leaf {
                shape: part.map(|i| LeafShape::Facet(m.facet(i))),
                pose: *pose,
                vertices: Vertices::List(m.vertices().to_vec()),
            },
            Built::HeightField(h) => {
                let samples = serde_json::from_value::<HeightFieldModel<V>>(json.clone()).map(|m| m.samples());
                Leaf {
                    shape: part.map(|i| LeafShape::Facet(h.triangle(i))),
                    pose: *pose,
                    vertices: samples.map_or(Vertices::None, Vertices::List),
                }
            }
            Built::Compound(c) => {
                let Some((i, (s, part_pose))) = part.and_then(|i| Some((i as usize, c.parts().get(i as usize)?)))
                else {
                    return Leaf { shape: None, pose: *pose, vertices: Vertices::None };
                };
                let path = json.get("path").and_then(Value::as_str);
                let vertices = match (json.get("type").and_then(Value::as_str), path) {
                    (Some("mesh"), Some(path)) => loader.mesh(path).map_or(Vertices::None, |m| {
                        Vertices::List(m.vertices.iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect())
                    }),
                    _ => Vertices::of(&json["parts"][i]["shape"], loader),
                };
                Leaf { shape: Some(LeafShape::Convex(&**s)), pose: pose.compose(part_pose), vertices }
            }
        }
    }

    fn shape(&self) -> Option<&dyn SupportMap<V>> {
        match &self.shape {
            Some(LeafShape::Facet(f)) => Some(f),
            Some(LeafShape::Convex(s)) => Some(*s),
            None => None,
        }
    }

    fn radius(&self) -> f64 {
        self.shape().map_or(0.0, |s| s.radius())
    }
}

/// What a shape's points are matched against: its vertices in its own frame, in the line's order.
enum Vertices<V> {
    /// A box: corner `i` has coordinate k at +half_extents[k] when bit k of `i` is set, else at −half_extents[k].
    Box(V),
    /// A segment core (a segment's `a`, `b`; a capsule's ends at −half_height and +half_height along its axis):
    /// the two ends.
    Segment([V; 2]),
    /// Points given one by one (a convex shape's `points`, a triangle's `a`, `b`, `c`, a point or a ball's
    /// centre, a mesh file's vertices in file order).
    List(Vec<V>),
    /// No vertices (a curved surface, a Minkowski sum).
    None,
}

impl<V: Space> Vertices<V> {
    fn of(shape: &Value, loader: &Loader<'_>) -> Self {
        let vec = |name: &str| shape.get(name).and_then(|v| serde_json::from_value::<V>(v.clone()).ok());
        let ty = shape.get("type").and_then(Value::as_str).unwrap_or("");
        let found = match ty {
            "convex" | "polyhedron" | "polygon" => {
                shape.get("points").and_then(|p| serde_json::from_value::<Vec<V>>(p.clone()).ok()).map(Vertices::List)
            }
            "box" | "cuboid" | "rectangle" => vec("half_extents").map(Vertices::Box),
            "segment" => vec("a").zip(vec("b")).map(|(a, b)| Vertices::Segment([a, b])),
            "triangle" => vec("a").zip(vec("b")).zip(vec("c")).map(|((a, b), c)| Vertices::List(vec![a, b, c])),
            "point" => vec("at").map(|p| Vertices::List(vec![p])),
            "sphere" | "ball" | "circle" => Some(Vertices::List(vec![V::zero()])),
            "capsule" => shape.get("half_height").and_then(Value::as_f64).map(|h| {
                let axis = if shape.get("axis").and_then(Value::as_str) == Some("z") { 2 } else { 1 };
                let end = |s: f64| V::from_fn(|k| if k == axis { s * h } else { 0.0 });
                Vertices::Segment([end(-1.0), end(1.0)])
            }),
            // A mesh file read as its hull (the only way a mesh is convex): the file's vertices, as it lists them.
            "mesh" => shape
                .get("path")
                .and_then(Value::as_str)
                .and_then(|path| loader.vertices(path).ok())
                .map(|v| Vertices::List(v.iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect())),
            // The core of a rounded shape is the shape inside it.
            "rounded" => shape.get("shape").map(|inner| Vertices::of(inner, loader)),
            _ => None,
        };
        found.unwrap_or(Vertices::None)
    }

    /// The vertex `i` (in the shape's frame).
    fn vertex(&self, i: usize) -> V {
        match self {
            Vertices::Box(h) => V::from_fn(|k| if i & (1 << k) != 0 { h.get(k) } else { -h.get(k) }),
            Vertices::Segment(ends) => ends[i],
            Vertices::List(points) => points[i],
            Vertices::None => V::zero(),
        }
    }

    fn count(&self) -> usize {
        match self {
            Vertices::Box(_) => 1 << V::DIM,
            Vertices::Segment(_) => 2,
            Vertices::List(points) => points.len(),
            Vertices::None => 0,
        }
    }

    /// The vertex nearest `p` (shape frame) if it is `p` up to the rounding of numbers of size `scale`.
    fn matching(&self, p: V, scale: f64) -> Option<usize> {
        let (mut best, mut best_d2) = (None, f64::INFINITY);
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
        // at the 1e-12 accuracy of the answers.
        let tol = 1024.0 * f64::EPSILON * size;
        best.filter(|_| best_d2.sqrt() <= tol)
    }

    /// `p` (shape frame, a point of the shape) as the weighted vertices it is a convex combination of, for a box
    /// (the corners of the simplex of the Kuhn triangulation holding it: at most DIM + 1) and a segment (its ends).
    fn decompose(&self, p: V) -> Option<Vec<(usize, f64)>> {
        match self {
            Vertices::Segment([a, b]) => {
                let e = *b - *a;
                let ee = e.length_squared();
                let t = if ee > 0.0 { ((p - *a).dot(e) / ee).clamp(0.0, 1.0) } else { 0.0 };
                Some(vec![(0, 1.0 - t), (1, t)])
            }
            Vertices::Box(h) => {
                // Coordinate k of p as a fraction t_k of the way from the −h_k face to the +h_k face. Sorting the
                // axes by decreasing t, the corners 0, then that corner with the first axis set, then the first
                // two, … hold p with weights 1 − t₁, t₁ − t₂, …, t_DIM (the Kuhn simplex containing p).
                let t: Vec<f64> =
                    (0..V::DIM)
                        .map(|k| {
                            if h.get(k) > 0.0 {
                                ((p.get(k) + h.get(k)) / (2.0 * h.get(k))).clamp(0.0, 1.0)
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
            Vertices::List(_) | Vertices::None => None,
        }
    }
}

/// One shape's simplex from the points of its core (world) and their weights.
fn side<V: Space>(
    vertices: &Vertices<V>,
    pose: &Iso<V>,
    points: &[V],
    weights: &[f64],
    scale: f64,
    f: &Finite,
    what: &str,
) -> Result<SideSimplex, String> {
    let mut named: Vec<(Option<usize>, V, f64)> = Vec::with_capacity(V::DIM + 1);
    let mut add = |index: Option<usize>, point: V, weight: f64| {
        // Zero weights are left out (a vertex the solver kept at weight 0); vertices of A − B that share a
        // point of this shape are one point: their weights add up. (A NaN goes on, to the finiteness check.)
        if weight <= 0.0 {
            return;
        }
        match named.iter_mut().find(|(i, q, _)| if index.is_some() { *i == index } else { i.is_none() && *q == point })
        {
            Some(entry) => entry.2 += weight,
            None => named.push((index, point, weight)),
        }
    };
    for (&p, &w) in points.iter().zip(weights) {
        let local = pose.inverse_transform_point(p);
        match vertices.matching(local, scale) {
            // The vertex as given, placed by the pose: the point the index names.
            Some(i) => add(Some(i), pose.transform_point(vertices.vertex(i)), w),
            None => match vertices.decompose(local).filter(|_| points.len() == 1) {
                Some(parts) => {
                    for (i, t) in parts {
                        add(Some(i), pose.transform_point(vertices.vertex(i)), w * t);
                    }
                }
                None => add(None, p, w),
            },
        }
    }
    let mut out = SideSimplex::default();
    for (index, point, weight) in named {
        out.indices.push(index);
        out.points.push(f.vec(point, what)?);
        out.weights.push(f.num(weight, what)?);
    }
    Ok(out)
}

/// Whether a 2D or 3D line asks for the simplices: `"simplices"` absent, `null` or `false` is no, `true` yes,
/// anything else an error (as in ℝᵏ).
pub fn asked(line: &serde_json::Map<String, Value>) -> Result<bool, String> {
    match line.get("simplices") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err("simplices: expected true or false".into()),
    }
}
