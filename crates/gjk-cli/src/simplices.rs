//! The witness simplices of a 2D or 3D `distance` line (`"simplices": true`; docs/cli.md, "Witness simplices"):
//! for each shape, the points whose weighted sum is the closest point of its core, named by their index in the
//! shape as the line gave it.
//!
//! The library's `gjk::witness` names the points: GJK's final simplex (`distance_with_witnesses`) matched back to
//! the shape's vertices (`ShapeVertices`, its numbering), a point that is no vertex keeping a `null` index, except
//! that a box's or a segment's single closed-form point is written as the corners (ends) whose weighted sum it is.
//! This file reads each shape's vertices from the line's JSON, picks the leaf pair of a composite's answer, and
//! writes the points as the line's numbers.

use gjk::composite::Facet;
use gjk::math::Iso;
use gjk::shape::SupportMap;
use gjk::witness::{name_points, name_simplices, NamedSimplex, ShapeVertices};
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
    from_witnesses(d, w, (&vertices_of(a, &loader), pose_a), (&vertices_of(b, &loader), pose_b))
}

/// The simplices of a distance run `d` from its witnesses `w`, each shape's points matched to its `vertices`
/// (in the frame `pose` places in the world).
fn from_witnesses<V: Space>(
    d: &Distance<V>,
    w: &Witnesses<V>,
    (va, pose_a): (&ShapeVertices<V>, &Iso<V>),
    (vb, pose_b): (&ShapeVertices<V>, &Iso<V>),
) -> Result<Simplices, String> {
    // The scale of the numbers the points went through (the pair frame, both poses): a vertex matches within a
    // few roundings of it.
    let scale = pose_a.translation.max_abs().max(pose_b.translation.max_abs());
    let (sa, sb) = name_simplices(d, w, (va, pose_a), (vb, pose_b), scale);
    let f = Finite { status: d.status };
    Ok(Simplices { simplex_a: side(sa, &f, "simplex_a")?, simplex_b: side(sb, &f, "simplex_b")? })
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
        simplex_a: side(name_points(&la.vertices, &la.pose, &[core_a], &[1.0], scale), &f, "simplex_a")?,
        simplex_b: side(name_points(&lb.vertices, &lb.pose, &[core_b], &[1.0], scale), &f, "simplex_b")?,
    })
}

/// One side's leaf: the convex shape GJK runs on, where it sits, and the points its simplex's indices name.
struct Leaf<'s, V: Space> {
    shape: Option<LeafShape<'s, V>>,
    pose: Iso<V>,
    vertices: ShapeVertices<V>,
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
                Leaf { shape: Some(LeafShape::Convex(&**s)), pose: *pose, vertices: vertices_of(json, loader) }
            }
            Built::HalfSpace(_) => Leaf { shape: None, pose: *pose, vertices: ShapeVertices::None },
            Built::TriMesh(m) => Leaf {
                shape: part.map(|i| LeafShape::Facet(m.facet(i))),
                pose: *pose,
                vertices: ShapeVertices::List(m.vertices().to_vec()),
            },
            Built::HeightField(h) => {
                let samples = serde_json::from_value::<HeightFieldModel<V>>(json.clone()).map(|m| m.samples());
                Leaf {
                    shape: part.map(|i| LeafShape::Facet(h.triangle(i))),
                    pose: *pose,
                    vertices: samples.map_or(ShapeVertices::None, ShapeVertices::List),
                }
            }
            Built::Compound(c) => {
                let Some((i, (s, part_pose))) = part.and_then(|i| Some((i as usize, c.parts().get(i as usize)?)))
                else {
                    return Leaf { shape: None, pose: *pose, vertices: ShapeVertices::None };
                };
                let path = json.get("path").and_then(Value::as_str);
                let vertices = match (json.get("type").and_then(Value::as_str), path) {
                    (Some("mesh"), Some(path)) => loader.mesh(path).map_or(ShapeVertices::None, |m| {
                        ShapeVertices::List(m.vertices.iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect())
                    }),
                    _ => vertices_of(&json["parts"][i]["shape"], loader),
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

/// What a shape's points are matched against (the library's numbering, [`ShapeVertices`]), read from the line's
/// JSON: a convex shape's or polygon's `points`, a box's corners, a segment's `a`, `b`, a capsule's ends at
/// −half_height and +half_height along its axis, a triangle's `a`, `b`, `c`, a point, a ball's centre, a mesh
/// file's vertices in file order, a rounded shape's inner shape; none for a curved surface or a Minkowski sum.
fn vertices_of<V: Space>(shape: &Value, loader: &Loader<'_>) -> ShapeVertices<V> {
    let vec = |name: &str| shape.get(name).and_then(|v| serde_json::from_value::<V>(v.clone()).ok());
    let ty = shape.get("type").and_then(Value::as_str).unwrap_or("");
    let found = match ty {
        "convex" | "polyhedron" | "polygon" => {
            shape.get("points").and_then(|p| serde_json::from_value::<Vec<V>>(p.clone()).ok()).map(ShapeVertices::List)
        }
        "box" | "cuboid" | "rectangle" => vec("half_extents").map(ShapeVertices::Box),
        "segment" => vec("a").zip(vec("b")).map(|(a, b)| ShapeVertices::Segment([a, b])),
        "triangle" => vec("a").zip(vec("b")).zip(vec("c")).map(|((a, b), c)| ShapeVertices::List(vec![a, b, c])),
        "point" => vec("at").map(|p| ShapeVertices::List(vec![p])),
        "sphere" | "ball" | "circle" => Some(ShapeVertices::List(vec![V::zero()])),
        "capsule" => shape.get("half_height").and_then(Value::as_f64).map(|h| {
            let axis = if shape.get("axis").and_then(Value::as_str) == Some("z") { 2 } else { 1 };
            let end = |s: f64| V::from_fn(|k| if k == axis { s * h } else { 0.0 });
            ShapeVertices::Segment([end(-1.0), end(1.0)])
        }),
        // A mesh file read as its hull (the only way a mesh is convex): the file's vertices, as it lists them.
        "mesh" => shape
            .get("path")
            .and_then(Value::as_str)
            .and_then(|path| loader.vertices(path).ok())
            .map(|v| ShapeVertices::List(v.iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect())),
        // The core of a rounded shape is the shape inside it.
        "rounded" => shape.get("shape").map(|inner| vertices_of(inner, loader)),
        _ => None,
    };
    found.unwrap_or(ShapeVertices::None)
}

/// One shape's simplex as the line writes it: the library's named points, checked finite.
fn side<V: Space>(named: NamedSimplex<V>, f: &Finite, what: &str) -> Result<SideSimplex, String> {
    let mut out = SideSimplex::default();
    for p in named.into_points() {
        out.indices.push(p.index);
        out.points.push(f.vec(p.point, what)?);
        out.weights.push(f.num(p.weight, what)?);
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
