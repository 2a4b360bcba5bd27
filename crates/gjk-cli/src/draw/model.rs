//! What a picture shows, worked out from one query: the outlines of A, B and A − B seen in each view, the start,
//! every recorded step, and the answer; for the live 3D page also A, B and A − B as triangle meshes. Everything
//! here is plain numbers in world coordinates (`[f64; 3]`, z = 0 in 2D); the SVG is laid out from it in `render`,
//! the pages draw it as `crates/gjk-web` hands it over.

use std::f64::consts::TAU;

use gjk::math::{Iso, Rotation, Vector};
use gjk::shape::hull::{hull3, HullKind};
use gjk::shape::{support_full, SupportMap};
use gjk::trace::{Decision, EpaStep, Recorder, Step};
use gjk::{distance_with, intersection, penetration_with, DistanceOptions, WarmStart};
use serde_json::Value;

use crate::mesh::MeshFolder;
use crate::model::{DynShape, Pair, Query, Space};
use crate::query::{write_line, Answer as Fields};

/// A point in world coordinates; z is 0 in 2D.
pub type P3 = [f64; 3];
/// A point in a view's plane.
pub type P2 = [f64; 2];

/// Directions sampled around each view's plane to trace an outline from the support functions.
const OUTLINE_DIRECTIONS: usize = 256;

/// Directions sampled over the sphere to build a 3D mesh from the support functions: enough for a smooth-looking
/// sphere on the page (its hull has about twice as many triangles), few enough to rebuild while a shape turns.
pub const MESH_DIRECTIONS: usize = 400;

/// The query kinds that can be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Distance,
    Intersect,
    Penetration,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Distance => "distance",
            Kind::Intersect => "intersect",
            Kind::Penetration => "penetration",
        }
    }
}

/// An orthographic view: world axis `i` to the right, world axis `j` up.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub i: usize,
    pub j: usize,
}

impl View {
    pub fn project(&self, p: P3) -> P2 {
        [p[self.i], p[self.j]]
    }

    pub fn axis_names(&self) -> (&'static str, &'static str) {
        const NAMES: [&str; 3] = ["x", "y", "z"];
        (NAMES[self.i], NAMES[self.j])
    }
}

/// The outlines of the shapes as one view sees them (convex polygons, counter-clockwise).
pub struct Outlines {
    pub a: Vec<P2>,
    pub b: Vec<P2>,
    /// A − B, radii included.
    pub diff: Vec<P2>,
    /// A − B of the cores, where the steps' points lie; only when a shape has a radius.
    pub diff_core: Option<Vec<P2>>,
}

/// The simplex GJK starts from: one support point, along the first search direction.
pub struct Start {
    /// Where the first direction comes from.
    pub how: &'static str,
    pub direction: P3,
    pub support: P3,
    /// The points of A and B that make `support`, when known.
    pub parts: Option<(P3, P3)>,
}

/// One recorded step.
pub struct StepView {
    pub iteration: u32,
    pub direction: P3,
    pub support: P3,
    pub support_a: P3,
    pub support_b: P3,
    /// The simplex before the step.
    pub before: Vec<P3>,
    /// The simplex after the step, and the name of each point (w₀, w₁, …: the step that found it).
    pub simplex: Vec<(P3, String)>,
    pub closest: P3,
    pub decision: Decision,
}

/// One recorded EPA iteration (penetration queries whose cores overlap).
pub struct EpaView {
    pub iteration: u32,
    /// The polytope before the iteration: its vertices (points of A − B) and faces (indices; edges in 2D,
    /// triangles in 3D, wound outward).
    pub vertices: Vec<P3>,
    pub faces: Vec<Vec<usize>>,
    /// Which face is nearest the origin, its outward normal and distance (the depth's lower bound).
    pub nearest: usize,
    pub normal: P3,
    pub lower: f64,
    /// The support point along the normal, and the depth's upper bound so far.
    pub support: P3,
    pub upper: f64,
    pub decision: Decision,
}

/// The answer, as drawn in the last panel.
pub struct Answer {
    pub headline: String,
    pub lines: Vec<String>,
    pub point_a: Option<P3>,
    pub point_b: Option<P3>,
    /// Unit normal from A toward B, when defined.
    pub normal: Option<P3>,
}

/// A convex solid as the page draws it (3D): the hull of its support points along [`MESH_DIRECTIONS`] directions
/// spread evenly over the sphere, as triangles wound counter-clockwise seen from outside. Polytopes come out exact
/// (every vertex is some direction's support point); curved shapes are inscribed polyhedra. A flat set gives its
/// polygon's triangles both ways round, a segment or a point no triangle (its vertices say what it is).
pub struct Mesh {
    pub vertices: Vec<P3>,
    pub triangles: Vec<[u32; 3]>,
}

/// The solids of a 3D query, for the live page.
pub struct Meshes {
    pub a: Mesh,
    pub b: Mesh,
    /// A − B, radii included.
    pub diff: Mesh,
    /// A − B of the cores (where the steps' points lie); only when a shape has a radius.
    pub diff_core: Option<Mesh>,
}

/// Everything one picture shows.
pub struct Drawing {
    pub dim: usize,
    pub kind: Kind,
    pub title: String,
    /// Lines describing the shapes and poses.
    pub about: Vec<String>,
    /// The answer as `gjk query` prints it for the same line.
    pub answer_json: String,
    pub views: Vec<View>,
    /// Per view.
    pub outlines: Vec<Outlines>,
    /// The radii of A and B (the steps run on the cores).
    pub radii: (f64, f64),
    pub start: Start,
    pub steps: Vec<StepView>,
    /// EPA's iterations, after GJK's steps (penetration queries only).
    pub epa: Vec<EpaView>,
    pub answer: Answer,
    /// The solids as triangle meshes: 3D queries built with [`build_with_meshes`] only.
    pub meshes: Option<Meshes>,
}

/// Builds the drawing of one query line (a JSON object). `warm` are first search directions (A's frame) handed to
/// the query as a warm start, for the built-in examples that need them. Mesh paths are read from the working
/// directory.
pub fn build(line: &Value, warm: &[P3]) -> Result<Drawing, String> {
    build_opts(line, warm, false)
}

/// [`build`], and for a 3D query also the meshes of A, B and A − B ([`Drawing::meshes`]), as the live 3D page
/// draws them.
pub fn build_with_meshes(line: &Value, warm: &[P3]) -> Result<Drawing, String> {
    build_opts(line, warm, true)
}

fn build_opts(line: &Value, warm: &[P3], meshes: bool) -> Result<Drawing, String> {
    let object = line.as_object().ok_or("a query line must be a JSON object")?;
    let drawing = match crate::parse::dimension(object)? {
        2 => build_in::<gjk::math::DVec2>(line, warm, false),
        _ => build_in::<gjk::math::DVec3>(line, warm, meshes),
    }?;
    drawing.check_finite()?;
    Ok(drawing)
}

/// The longest shape description a picture prints (a hull of many points is cut, saying how long it was).
const ABOUT_CHARS: usize = 240;

/// A shape's JSON as the picture describes it: in full when short, else its start and its length.
pub(super) fn brief(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= ABOUT_CHARS {
        return s;
    }
    let cut: String = s.chars().take(ABOUT_CHARS).collect();
    format!("{cut} … ({} characters in all)", s.len())
}

impl Drawing {
    /// An error if any coordinate drawn is NaN or infinite (shapes of 1e300 overflow): a picture of it would be
    /// wrong or empty, so none is made.
    fn check_finite(&self) -> Result<(), String> {
        let mut pts: Vec<P3> = vec![self.start.direction, self.start.support];
        pts.extend(self.start.parts.iter().flat_map(|(a, b)| [*a, *b]));
        for s in &self.steps {
            pts.extend([s.direction, s.support, s.support_a, s.support_b, s.closest]);
            pts.extend(s.before.iter().copied().chain(s.simplex.iter().map(|(p, _)| *p)));
        }
        for e in &self.epa {
            pts.extend(e.vertices.iter().copied().chain([e.normal, e.support, [e.lower, e.upper, 0.0]]));
        }
        pts.extend([self.answer.point_a, self.answer.point_b, self.answer.normal].into_iter().flatten());
        if let Some(m) = &self.meshes {
            pts.extend([&m.a, &m.b, &m.diff].into_iter().chain(&m.diff_core).flat_map(|m| m.vertices.iter().copied()));
        }
        pts.push([self.radii.0, self.radii.1, 0.0]);
        let outlines = self.outlines.iter().flat_map(|o| {
            o.a.iter().chain(&o.b).chain(&o.diff).chain(o.diff_core.iter().flatten()).map(|p| [p[0], p[1], 0.0])
        });
        match pts.into_iter().chain(outlines).find(|p| !p.iter().all(|x| x.is_finite())) {
            None => Ok(()),
            Some(p) => Err(format!(
                "the query's steps reach non-finite coordinates ({}, {}, {}): no picture is drawn",
                p[0], p[1], p[2]
            )),
        }
    }
}

fn to3<V: Vector<Real = f64>>(v: V) -> P3 {
    let mut p = [0.0; 3];
    for (i, c) in p.iter_mut().enumerate().take(V::DIM) {
        *c = v.get(i);
    }
    p
}

/// A shape at a pose, asked for world support points.
struct Placed<'s, V: Space> {
    shape: &'s dyn SupportMap<V>,
    pose: Iso<V>,
}

impl<V: Space> Placed<'_, V> {
    /// The support point of the whole shape (radius included), world.
    fn full(&self, d: V) -> V {
        self.pose.transform_point(support_full(self.shape, self.pose.rotation.inverse_rotate(d)))
    }
    /// The support point of the core, world.
    fn core(&self, d: V) -> V {
        self.pose.transform_point(self.shape.support(self.pose.rotation.inverse_rotate(d)))
    }
    fn center(&self) -> V {
        self.pose.transform_point(self.shape.center())
    }
}

fn build_in<V: Space>(line: &Value, warm: &[P3], with_meshes: bool) -> Result<Drawing, String> {
    let (kind, pair): (Kind, Pair<V>) = match crate::parse::query::<V>(line)? {
        Query::Intersect(p) => (Kind::Intersect, p),
        Query::Distance(p) => (Kind::Distance, p),
        Query::Penetration(p) => (Kind::Penetration, p),
        _ => {
            let name = line.get("query").and_then(Value::as_str).unwrap_or("");
            return Err(format!("gjk draw draws distance, intersect and penetration queries, not {name:?}"));
        }
    };
    let (a, pose_a, b, pose_b): (DynShape<V>, _, DynShape<V>, _) = pair.build(&MeshFolder::default())?;
    let warm: Vec<V> = warm.iter().map(|d| V::from_f64_slice(&d[..V::DIM])).collect();
    let options = DistanceOptions::default();
    let mut rec = Recorder::<V>::default();
    let id = line.get("id").cloned().unwrap_or(Value::Null);

    // The same answer fields, in the same order, as `gjk query` (src/query.rs); only the observer differs.
    let (fields, answer) = match kind {
        Kind::Intersect => {
            let mut cache = (!warm.is_empty()).then(|| WarmStart::from_directions(&warm));
            let r = intersection(&*a, &pose_a, &*b, &pose_b, &options, cache.as_mut(), &mut rec);
            let fields = Ok(Fields::intersection(&r));
            let headline = if r.intersecting { "the shapes intersect" } else { "the shapes are apart" };
            let mut lines = vec![format!("status {} · {} iterations", r.status.as_str(), r.iterations)];
            lines.push(if r.intersecting {
                "O is in A − B: some point of A minus some point of B is zero, so they share a point".to_string()
            } else {
                let across = if V::DIM == 2 { "a line" } else { "a plane" };
                format!("{across} separates O from A − B, so no point of A is a point of B")
            });
            (fields, Answer { headline: headline.into(), lines, point_a: None, point_b: None, normal: None })
        }
        Kind::Distance => {
            let mut cache = (!warm.is_empty()).then(|| WarmStart::from_directions(&warm));
            let d = distance_with(&*a, &pose_a, &*b, &pose_b, &options, cache.as_mut(), &mut rec);
            let fields = Fields::distance(&d);
            let headline = if d.intersecting {
                "intersecting: distance 0".to_string()
            } else {
                format!("distance {}", num(d.distance))
            };
            let mut lines = vec![format!("status {} · {} iterations", d.status.as_str(), d.iterations)];
            lines.push(format!("point_a {}  point_b {}", vec(to3(d.point_a), V::DIM), vec(to3(d.point_b), V::DIM)));
            let has_normal = d.normal.length_squared() > 0.0;
            lines.push(if d.intersecting {
                "O is in A − B: the shapes share a point (a = b)".to_string()
            } else {
                "a − b is the point of A − B nearest O: its length is the distance".to_string()
            });
            lines.push(if has_normal {
                format!("normal {} (from A toward B)", vec(to3(d.normal), V::DIM))
            } else {
                "normal: none (the cores overlap)".to_string()
            });
            let answer = Answer {
                headline,
                lines,
                point_a: Some(to3(d.point_a)),
                point_b: Some(to3(d.point_b)),
                normal: has_normal.then(|| to3(d.normal)),
            };
            (fields, answer)
        }
        Kind::Penetration => {
            if !warm.is_empty() {
                return Err("the penetration query takes no warm start".into());
            }
            let p = penetration_with(&*a, &pose_a, &*b, &pose_b, &options, &mut rec);
            let fields = Fields::penetration(&p);
            let headline = if p.intersecting {
                format!("overlap: depth {}", num(p.depth))
            } else {
                format!("apart: distance {}", num(p.distance))
            };
            let mut lines = vec![format!(
                "status {} · {} GJK steps + {} EPA iterations",
                p.status.as_str(),
                rec.steps.len(),
                rec.epa_steps.len()
            )];
            lines.push(format!("normal {} (from A toward B)", vec(to3(p.normal), V::DIM)));
            lines.push(format!("point_a {}  point_b {}", vec(to3(p.point_a), V::DIM), vec(to3(p.point_b), V::DIM)));
            if p.intersecting {
                lines.push("a − b = depth · normal: the point of A − B's boundary nearest O".to_string());
                lines.push("moving B by depth · normal separates the shapes".to_string());
            }
            let answer = Answer {
                headline,
                lines,
                point_a: Some(to3(p.point_a)),
                point_b: Some(to3(p.point_b)),
                normal: (p.normal.length_squared() > 0.0).then(|| to3(p.normal)),
            };
            (fields, answer)
        }
    };
    // An answer that cannot be given (non-finite numbers from the library) cannot be drawn either.
    let fields = Ok(fields?);
    let mut text = Vec::new();
    write_line(&mut text, &id, fields);
    let answer_json = String::from_utf8(text).expect("JSON is UTF-8").trim_end().to_string();
    let mut answer = answer;
    let (ra, rb) = (a.radius(), b.radius());
    if ra > 0.0 || rb > 0.0 {
        answer.lines.push(format!(
            "the steps run on the cores; the radii {} (A) and {} (B) are added at the end",
            num(ra),
            num(rb)
        ));
    }

    let pa = Placed { shape: &*a, pose: pose_a };
    let pb = Placed { shape: &*b, pose: pose_b };
    let views: Vec<View> = if V::DIM == 2 {
        vec![View { i: 0, j: 1 }]
    } else {
        vec![View { i: 0, j: 1 }, View { i: 0, j: 2 }, View { i: 1, j: 2 }]
    };
    let radii = (a.radius(), b.radius());
    let outlines = views
        .iter()
        .map(|view| Outlines {
            a: outline::<V>(view, |d| pa.full(d)),
            b: outline::<V>(view, |d| pb.full(d)),
            diff: outline::<V>(view, |d| pa.full(d) - pb.full(-d)),
            diff_core: (radii.0 > 0.0 || radii.1 > 0.0).then(|| outline::<V>(view, |d| pa.core(d) - pb.core(-d))),
        })
        .collect();

    let meshes = (with_meshes && V::DIM == 3).then(|| Meshes {
        a: mesh::<V>(|d| pa.full(d)),
        b: mesh::<V>(|d| pb.full(d)),
        diff: mesh::<V>(|d| pa.full(d) - pb.full(-d)),
        diff_core: (radii.0 > 0.0 || radii.1 > 0.0).then(|| mesh::<V>(|d| pa.core(d) - pb.core(-d))),
    });

    let start = start::<V>(&pa, &pb, &warm, rec.steps.first());
    let steps = step_views(&start, &rec.steps);
    let epa = rec.epa_steps.iter().map(epa_view).collect();
    let title = format!("GJK {} query ({}D)", kind.name(), V::DIM);
    let mut about = Vec::new();
    for (key, pose_key) in [("a", "pose_a"), ("b", "pose_b")] {
        let mut s = format!("{} = {}", key.to_uppercase(), brief(&line[key]));
        if let Some(p) = line.get(pose_key).filter(|p| !p.is_null()) {
            s.push_str(&format!(" at {}", brief(p)));
        }
        about.push(s);
    }
    Ok(Drawing {
        dim: V::DIM,
        kind,
        title,
        about,
        answer_json,
        views,
        outlines,
        radii,
        start,
        steps,
        epa,
        answer,
        meshes,
    })
}

/// The first simplex, as the library forms it: along the first warm-start direction, else from A − B's centre
/// toward the origin (A's x axis when the centres coincide). The point the run actually started from is taken
/// from the first step when it is still in that step's simplex.
fn start<V: Space>(pa: &Placed<'_, V>, pb: &Placed<'_, V>, warm: &[V], first: Option<&Step<V>>) -> Start {
    let (how, d) = match warm.iter().find(|d| d.is_finite() && d.length_squared() > 0.0) {
        Some(&d) => ("given (warm start)", pa.pose.rotation.rotate(d)),
        None => {
            let c = pa.center() - pb.center();
            if c.length_squared() > 0.0 && c.is_finite() {
                ("from the centre of A − B toward the origin", -c)
            } else {
                ("A's x axis (A − B is centred on the origin)", pa.pose.rotation.rotate(V::axis(0)))
            }
        }
    };
    let (sa, sb) = (pa.core(d), pb.core(-d));
    let mut support = to3(sa - sb);
    let mut parts = Some((to3(sa), to3(sb)));
    if let Some(s) = first {
        let support1 = to3(s.support);
        if let Some(p) = s.simplex().iter().map(|p| to3(*p)).find(|p| *p != support1) {
            if p != support {
                // Rounding (a rotation undone and redone) picked another point: trust the run's.
                support = p;
                parts = None;
            }
        }
    }
    Start { how, direction: to3(d), support, parts }
}

fn step_views<V: Space>(start: &Start, steps: &[Step<V>]) -> Vec<StepView> {
    let mut names: Vec<(P3, String)> = vec![(start.support, format!("w{}", subscript(0)))];
    let mut before = vec![start.support];
    let mut out = Vec::with_capacity(steps.len());
    for s in steps {
        let support = to3(s.support);
        names.push((support, format!("w{}", subscript(s.iteration))));
        let simplex: Vec<(P3, String)> = s
            .simplex()
            .iter()
            .map(|p| {
                let p = to3(*p);
                // The first name of the point; a support point found again (which ends the run) is named twice.
                let mut found = names.iter().filter(|(q, _)| *q == p).map(|(_, n)| n.as_str());
                let mut name = found.next().unwrap_or("w").to_string();
                if let Some(again) = found.next_back() {
                    name = format!("{name} = {again}");
                }
                (p, name)
            })
            .collect();
        let next_before = simplex.iter().map(|(p, _)| *p).collect();
        out.push(StepView {
            iteration: s.iteration,
            direction: to3(s.direction),
            support,
            support_a: to3(s.support_a),
            support_b: to3(s.support_b),
            before: std::mem::replace(&mut before, next_before),
            simplex,
            closest: to3(s.closest),
            decision: s.decision,
        });
    }
    out
}

impl EpaView {
    /// n·w: how far A − B reaches along the nearest face's normal.
    pub fn support_value(&self) -> f64 {
        self.normal.iter().zip(&self.support).map(|(n, w)| n * w).sum()
    }
}

fn epa_view<V: Space>(s: &EpaStep<V>) -> EpaView {
    EpaView {
        iteration: s.iteration,
        vertices: s.vertices.iter().map(|v| to3(*v)).collect(),
        faces: s.faces().map(|f| f.iter().map(|&i| i as usize).collect()).collect(),
        nearest: s.nearest,
        normal: to3(s.normal),
        lower: s.lower,
        support: to3(s.support),
        upper: s.upper,
        decision: s.decision,
    }
}

/// What an EPA iteration decided, in words.
pub fn epa_decision_text(d: Decision) -> (&'static str, &'static str) {
    match d {
        Decision::Continue => {
            ("expand", "w lies beyond the nearest face: add it, and replace the faces it sees by faces to it")
        }
        Decision::Converged => {
            ("converged", "the bounds meet: the nearest face is on the boundary of A − B, at the depth along n")
        }
        Decision::Stalled => ("stalled", "no progress in this precision: the bounds are the answer's error bound"),
        Decision::MaxIterations => ("iteration cap", "the iteration cap (or the polytope's room) was reached"),
        Decision::Intersecting | Decision::Separated => ("done", ""),
    }
}

/// The outline of a convex set seen in `view`: the hull of its support points along directions in the view's
/// plane. Support points along in-plane directions project onto the support points of the projection, so the
/// outline is exact for polytopes (every vertex whose normal cone is wider than the sampling step appears).
pub(super) fn outline<V: Space>(view: &View, support: impl Fn(V) -> V) -> Vec<P2> {
    let pts = (0..OUTLINE_DIRECTIONS)
        .map(|k| {
            let (s, c) = (k as f64 * TAU / OUTLINE_DIRECTIONS as f64).sin_cos();
            let d = V::from_fn(|i| {
                if i == view.i {
                    c
                } else if i == view.j {
                    s
                } else {
                    0.0
                }
            });
            view.project(to3(support(d)))
        })
        .collect();
    hull(pts)
}

/// `n` unit directions spread evenly over the sphere: the Fibonacci lattice (points on a spiral from pole to pole,
/// successive ones a golden angle apart around the axis).
pub fn sphere_directions(n: usize) -> Vec<P3> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|k| {
            let z = 1.0 - (2 * k + 1) as f64 / n as f64;
            let r = (1.0 - z * z).max(0.0).sqrt();
            let (s, c) = (golden * k as f64).sin_cos();
            [r * c, r * s, z]
        })
        .collect()
}

/// The mesh of a convex solid (3D) from its support function: the hull (`gjk::shape::hull::hull3`, exact and
/// robust on flat and degenerate sets) of its support points along [`MESH_DIRECTIONS`] directions, each face (a
/// convex polygon) cut into a fan of triangles.
fn mesh<V: Space>(support: impl Fn(V) -> V) -> Mesh {
    let mut pts: Vec<P3> =
        sphere_directions(MESH_DIRECTIONS).iter().map(|d| to3(support(V::from_f64_slice(d)))).collect();
    pts.retain(|p| p.iter().all(|x| x.is_finite()));
    // Polytopes answer many directions with the same vertex: one copy of each is enough.
    pts.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])).then(p[2].total_cmp(&q[2])));
    pts.dedup();
    let hull = hull3(&pts);
    let vertices: Vec<P3> = hull.vertices.iter().map(|&i| pts[i]).collect();
    let triangles = match hull.kind {
        HullKind::Polyhedron | HullKind::Polygon => hull
            .faces
            .iter()
            .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |k| [f[0], f[k], f[k + 1]]))
            .collect(),
        HullKind::Segment | HullKind::Point => Vec::new(),
    };
    Mesh { vertices, triangles }
}

/// Convex hull (Andrew's monotone chain), counter-clockwise, without repeated or collinear points.
pub fn hull(mut pts: Vec<P2>) -> Vec<P2> {
    pts.retain(|p| p[0].is_finite() && p[1].is_finite());
    pts.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let scale = pts.iter().fold(0.0f64, |m, p| m.max(p[0].abs()).max(p[1].abs())).max(f64::MIN_POSITIVE);
    let tol = 1e-12 * scale * scale;
    let cross = |o: P2, a: P2, b: P2| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let mut h: Vec<P2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let base = h.len();
        let iter: Box<dyn Iterator<Item = &P2>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in iter {
            while h.len() >= base + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= tol {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    if h.len() < 3 {
        // All points collinear: the two ends.
        h.truncate(2);
    }
    h
}

/// A number with three decimals, a true minus sign and no negative zero.
pub fn num(x: f64) -> String {
    let s = format!("{:.3}", x);
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|c| c == b'0' || c == b'.') => rest.to_string(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => s,
    }
}

/// A point or vector as `(x, y)` or `(x, y, z)`.
pub fn vec(p: P3, dim: usize) -> String {
    let c: Vec<String> = p[..dim].iter().map(|x| num(*x)).collect();
    // A no-break space: a point is never split across caption lines.
    format!("({})", c.join(",\u{a0}"))
}

/// A number as subscript digits.
pub fn subscript(n: u32) -> String {
    n.to_string().chars().map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c)).collect()
}

/// A short name of a decision, and what it means.
pub fn decision_text(d: Decision, dim: usize) -> (&'static str, &'static str) {
    match d {
        Decision::Continue => {
            ("closer", "v moved closer to the origin: keep the part of the simplex nearest it, search again")
        }
        Decision::Intersecting => ("intersecting", "the simplex encloses the origin: the shapes intersect"),
        Decision::Converged => {
            ("converged", "w is no farther along d than v: v is the point of A − B nearest the origin")
        }
        Decision::Separated if dim == 2 => {
            ("separated", "w does not reach the origin along d: the line through w across d separates the shapes")
        }
        Decision::Separated => {
            ("separated", "w does not reach the origin along d: the plane through w across d separates the shapes")
        }
        Decision::Stalled => ("stalled", "no progress in this precision: the previous simplex is the answer"),
        Decision::MaxIterations => ("iteration cap", "the iteration cap was reached"),
    }
}
