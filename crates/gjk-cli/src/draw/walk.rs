//! What the picture of a query on a composite shape shows (2D lines): each side's leaves (a mesh's segments, a
//! compound's parts, a height field's cells), the boxes of the tree nodes the query's walk entered, the leaf pairs
//! it ran GJK (or EPA) on with what each found, and the answer — the `leaves` count of `gjk query`, made visible.
//!
//! The walk is the library's own record of it ([`gjk::query::WalkRecorder`]), taken from the same query `gjk query`
//! runs; the answer line is `gjk query`'s for the same line, so a picture can be checked against it.

use gjk::composite::{Composite, HalfSpace};
use gjk::math::{DVec2, Iso, Rotation};
use gjk::query::{self, Kind as ShapeKind, LeafRun, Shape, WalkRecorder};
use gjk::shape::{support_full, SupportMap};
use serde_json::Value;

use super::model::{about, num, outline, vec, Answer, Kind, View, P2};
use crate::composite::Built;
use crate::mesh::MeshFolder;
use crate::model::Query;

/// At most this many leaves of one side are outlined (those a run used always are): a height field or mesh of
/// millions of leaves would make a picture no viewer opens. The caption says how many were left out.
pub const MAX_LEAVES: usize = 4096;

/// The only view of a 2D picture.
const PLANE: View = View { i: 0, j: 1 };

/// One side of the query as drawn.
pub struct SideView {
    /// What the shape is: "trimesh", "compound", "height field", "half-space" or "convex shape".
    pub what: &'static str,
    /// The outlines of the leaves drawn (world), with each leaf's index (`None` for a convex shape, drawn whole).
    pub leaves: Vec<(Option<u32>, Vec<P2>)>,
    /// The shape's leaf count (1 for a convex shape, 0 for a half-space).
    pub leaf_count: usize,
    /// The corners of the tree nodes the walk entered (world, counter-clockwise), each once, in the order first
    /// entered, with the node's index.
    pub nodes: Vec<(u32, [P2; 4])>,
    /// How many nodes the shape's tree has.
    pub node_count: usize,
    /// A half-space: a point of its boundary line and its outward unit normal (world).
    pub plane: Option<(P2, P2)>,
}

/// One convex query the walk ran on a pair of leaves.
pub struct RunView {
    pub part_a: Option<u32>,
    pub part_b: Option<u32>,
    pub intersecting: bool,
    pub distance: f64,
    /// The closest (or deepest) points, when the run measured them (not for intersection runs).
    pub points: Option<(P2, P2)>,
    pub iterations: u32,
    pub status: &'static str,
}

/// Everything the picture of a composite query shows.
pub struct WalkDrawing {
    pub kind: Kind,
    pub title: String,
    pub about: Vec<String>,
    /// The answer as `gjk query` prints it for the same line.
    pub answer_json: String,
    pub a: SideView,
    pub b: SideView,
    pub runs: Vec<RunView>,
    /// The run that gave the answer (the parts and distance the answer names), if any.
    pub decided: Option<usize>,
    pub answer: Answer,
}

/// The picture of `line` if it is a query on a composite shape or a half-space: `Ok(None)` when both shapes are
/// convex (the step-by-step picture draws those) or when the line does not parse (that picture's builder names
/// the fault), an error for a composite in a 3D line.
pub fn build(line: &Value) -> Result<Option<WalkDrawing>, String> {
    let Some(object) = line.as_object() else { return Ok(None) };
    match crate::parse::dimension(object) {
        Ok(2) => build_2d(line),
        Ok(_) => match crate::parse::query::<gjk::math::DVec3>(line).map(pair_of) {
            Ok(Some((_, pair))) => match pair.build_any(&MeshFolder::default()) {
                Ok((Built::Convex(_), _, Built::Convex(_), _)) | Err(_) => Ok(None),
                Ok(_) => Err("gjk draw pictures queries on meshes, compounds, height fields and half-spaces in 2D \
                              lines only; `gjk query` answers the 3D line"
                    .into()),
            },
            _ => Ok(None),
        },
        Err(_) => Ok(None),
    }
}

/// The query's kind and its pair, for the kinds drawn.
fn pair_of<V: crate::model::Space>(q: Query<V>) -> Option<(Kind, crate::model::Pair<V>)> {
    match q {
        Query::Intersect(p) => Some((Kind::Intersect, p)),
        Query::Distance(p) => Some((Kind::Distance, p)),
        Query::Penetration(p) => Some((Kind::Penetration, p)),
        _ => None,
    }
}

fn build_2d(line: &Value) -> Result<Option<WalkDrawing>, String> {
    let Ok(Some((kind, pair))) = crate::parse::query::<DVec2>(line).map(pair_of) else { return Ok(None) };
    let Ok((a, pose_a, b, pose_b)) = pair.build_any(&MeshFolder::default()) else { return Ok(None) };
    if matches!((&a, &b), (Built::Convex(_), Built::Convex(_))) {
        return Ok(None);
    }

    // The walk, as the library records it, of the query `gjk query` runs on this line.
    let mut walk = WalkRecorder::<DVec2>::default();
    match kind {
        Kind::Intersect => {
            query::intersects_observed(&a, &pose_a, &b, &pose_b, &mut walk);
        }
        Kind::Distance => {
            query::distance_observed(&a, &pose_a, &b, &pose_b, None, &mut walk);
        }
        Kind::Penetration => {
            query::penetration_observed(&a, &pose_a, &b, &pose_b, &mut walk);
        }
    }
    let answer_json = crate::query::answer_line(&line.to_string());
    let fields: Value = serde_json::from_str(&answer_json).map_err(|e| format!("the answer line: {e}"))?;
    if let Some(e) = fields.get("error").and_then(Value::as_str) {
        return Err(e.to_string());
    }

    let mut entered_a: Vec<u32> = walk.nodes_a.clone();
    let mut entered_b: Vec<u32> = walk.nodes_b.clone();
    entered_a.extend(walk.node_pairs.iter().map(|p| p.0));
    entered_b.extend(walk.node_pairs.iter().map(|p| p.1));
    let used = |side: fn(&LeafRun<DVec2>) -> Option<u32>| -> Vec<u32> { walk.leaves.iter().filter_map(side).collect() };
    let side_a = a.visit(Sketch { what: what(&a), pose: &pose_a, entered: &entered_a, used: &used(|r| r.part_a) });
    let side_b = b.visit(Sketch { what: what(&b), pose: &pose_b, entered: &entered_b, used: &used(|r| r.part_b) });

    let runs: Vec<RunView> = walk.leaves.iter().map(|r| run_view(kind, r)).collect();
    let decided = decided_run(kind, &fields, &walk.leaves);
    let drawing = WalkDrawing {
        kind,
        title: format!("gjk {} query on a composite shape (2D): the tree walk", kind.name()),
        about: about(line),
        answer_json,
        a: side_a,
        b: side_b,
        runs,
        decided,
        answer: answer(kind, &fields),
    };
    drawing.check_finite()?;
    Ok(Some(drawing))
}

/// A side's leaves, tree nodes and half-plane, in the world.
struct Sketch<'p> {
    what: &'static str,
    pose: &'p Iso<DVec2>,
    entered: &'p [u32],
    used: &'p [u32],
}

impl Sketch<'_> {
    /// The world outline of a convex shape at `pose`.
    fn outline<S: SupportMap<DVec2> + ?Sized>(s: &S, pose: &Iso<DVec2>) -> Vec<P2> {
        outline::<DVec2>(&PLANE, |d| pose.transform_point(support_full(s, pose.rotation.inverse_rotate(d))))
    }
}

impl ShapeKind<DVec2> for Sketch<'_> {
    type Output = SideView;

    fn convex<S: SupportMap<DVec2> + ?Sized>(self, s: &S) -> SideView {
        SideView {
            what: self.what,
            leaves: vec![(None, Self::outline(s, self.pose))],
            leaf_count: 1,
            nodes: Vec::new(),
            node_count: 0,
            plane: None,
        }
    }

    fn half_space(self, h: &HalfSpace<DVec2>) -> SideView {
        let n = self.pose.rotation.rotate(h.normal()).normalize();
        let at = self.pose.translation;
        SideView {
            what: self.what,
            leaves: Vec::new(),
            leaf_count: 0,
            nodes: Vec::new(),
            node_count: 0,
            plane: Some(([at.x, at.y], [n.x, n.y])),
        }
    }

    fn composite<C: Composite<DVec2>>(self, c: &C) -> SideView {
        let count = c.bvh().primitives().len();
        // The leaves a run used, marked once: a walk of thousands of runs over a mesh of millions of leaves.
        let mut used = vec![false; count];
        for &i in self.used {
            if let Some(u) = used.get_mut(i as usize) {
                *u = true;
            }
        }
        let drawn = (0..count as u32).filter(|&i| (i as usize) < MAX_LEAVES || used[i as usize]);
        let leaves = drawn
            .map(|i| {
                let pose = c.leaf_pose(i).map_or(*self.pose, |p| self.pose.compose(p));
                (Some(i), Self::outline(&c.leaf(i), &pose))
            })
            .collect();
        let mut nodes: Vec<(u32, [P2; 4])> = Vec::new();
        let mut seen = vec![false; c.bvh().nodes().len()];
        for &i in self.entered {
            let (Some(node), Some(seen)) = (c.bvh().nodes().get(i as usize), seen.get_mut(i as usize)) else {
                continue;
            };
            if std::mem::replace(seen, true) {
                continue;
            }
            let (lo, hi) = (node.aabb.min, node.aabb.max);
            let corner = |x: f64, y: f64| {
                let p = self.pose.transform_point(DVec2::new(x, y));
                [p.x, p.y]
            };
            nodes.push((i, [corner(lo.x, lo.y), corner(hi.x, lo.y), corner(hi.x, hi.y), corner(lo.x, hi.y)]));
        }
        SideView { what: self.what, leaves, leaf_count: count, nodes, node_count: c.bvh().nodes().len(), plane: None }
    }
}

/// What a shape is, in the picture's words.
fn what(s: &Built<DVec2>) -> &'static str {
    match s {
        Built::Convex(_) => "convex shape",
        Built::HalfSpace(_) => "half-space",
        Built::TriMesh(_) => "trimesh",
        Built::Compound(_) => "compound",
        Built::HeightField(_) => "height field",
    }
}

fn run_view(kind: Kind, r: &LeafRun<DVec2>) -> RunView {
    let p = |v: DVec2| [v.x, v.y];
    RunView {
        part_a: r.part_a,
        part_b: r.part_b,
        intersecting: r.intersecting,
        distance: r.distance,
        points: (kind != Kind::Intersect).then(|| (p(r.point_a), p(r.point_b))),
        iterations: r.iterations,
        status: r.status.as_str(),
    }
}

/// The run whose leaves and distance the answer reports (the first intersecting one for `intersect`).
fn decided_run(kind: Kind, fields: &Value, runs: &[LeafRun<DVec2>]) -> Option<usize> {
    let part = |key: &str| fields.get(key).and_then(Value::as_u64).map(|x| x as u32);
    let (pa, pb) = (part("part_a"), part("part_b"));
    let found = |r: &&LeafRun<DVec2>| r.part_a == pa && r.part_b == pb;
    match kind {
        Kind::Intersect => runs.iter().position(|r| r.intersecting && found(&r)),
        _ => {
            let distance = fields.get("distance").and_then(Value::as_f64)?;
            runs.iter().position(|r| found(&r) && (r.distance == distance || (r.intersecting && distance == 0.0)))
        }
    }
}

/// The answer panel's words and marks, read from the answer line.
fn answer(kind: Kind, fields: &Value) -> Answer {
    let point = |key: &str| -> Option<[f64; 3]> {
        let v = fields.get(key)?.as_array()?;
        Some([v.first()?.as_f64()?, v.get(1)?.as_f64()?, 0.0])
    };
    let number = |key: &str| fields.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let intersecting = fields.get("intersecting").and_then(Value::as_bool).unwrap_or(false);
    let status = fields.get("status").and_then(Value::as_str).unwrap_or("?");
    let leaves = fields.get("leaves").and_then(Value::as_u64).unwrap_or(0);
    let part = |key: &str| fields.get(key).and_then(Value::as_u64).map_or("—".to_string(), |i| i.to_string());
    let headline = match kind {
        Kind::Intersect if intersecting => "the shapes intersect".to_string(),
        Kind::Intersect => "the shapes are apart".to_string(),
        Kind::Distance if intersecting => "intersecting: distance 0".to_string(),
        Kind::Distance => format!("distance {}", num(number("distance"))),
        Kind::Penetration if intersecting => format!("overlap: depth {}", num(number("depth"))),
        Kind::Penetration => format!("apart: distance {}", num(number("distance"))),
    };
    let mut lines = vec![format!(
        "status {status} · {leaves} leaf pairs run · answer from A's leaf {} and B's leaf {}",
        part("part_a"),
        part("part_b")
    )];
    let normal = point("normal").filter(|n| n[0] != 0.0 || n[1] != 0.0);
    if let (Some(a), Some(b)) = (point("point_a"), point("point_b")) {
        lines.push(format!("point_a {}  point_b {}", vec(a, 2), vec(b, 2)));
    }
    if let Some(n) = normal {
        lines.push(format!("normal {} (from A toward B)", vec(n, 2)));
    }
    Answer { headline, lines, point_a: point("point_a"), point_b: point("point_b"), normal }
}

impl WalkDrawing {
    /// An error if any coordinate drawn is NaN or infinite: such a picture would be wrong or empty.
    fn check_finite(&self) -> Result<(), String> {
        let sides = [&self.a, &self.b];
        let mut pts: Vec<P2> =
            sides.iter().flat_map(|s| s.leaves.iter().flat_map(|(_, o)| o.iter().copied())).collect();
        pts.extend(sides.iter().flat_map(|s| s.nodes.iter().flat_map(|(_, c)| c.iter().copied())));
        pts.extend(sides.iter().flat_map(|s| s.plane.iter().flat_map(|(p, n)| [*p, *n])));
        pts.extend(self.runs.iter().flat_map(|r| r.points.iter().flat_map(|(a, b)| [*a, *b])));
        let marks = [self.answer.point_a, self.answer.point_b, self.answer.normal];
        pts.extend(marks.into_iter().flatten().map(|p| [p[0], p[1]]));
        match pts.into_iter().find(|p| !p.iter().all(|x| x.is_finite())) {
            None => Ok(()),
            Some(p) => {
                Err(format!("the walk reaches non-finite coordinates ({}, {}): no picture is drawn", p[0], p[1]))
            }
        }
    }
}
