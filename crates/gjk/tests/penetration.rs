//! Reference tests of the penetration query ([`gjk::penetration`]: GJK on the cores, EPA when the cores overlap),
//! against exact answers computed independently in this file, in f64, from the inputs exactly as the query sees
//! them.
//!
//! # The exact references
//!
//! * **box–box**: the separating-axis theorem with the 15 axes (3 + 3 face normals and the 9 cross products of
//!   the boxes' edge directions; 4 face normals in 2D), the overlap along an axis L being
//!   `Σ ha_i |L·a_i| + Σ hb_j |L·b_j| ∓ L·(c_B − c_A)`.
//! * **polytope–polytope** (and any polytope core with a radius): the penetration depth is the distance from the
//!   origin to the boundary of A − B, i.e. the minimum over the facet normals n of A − B of its support function
//!   `h(n) = max_A n·a − min_B n·b`. The facets of a Minkowski difference of polytopes have normals that are face
//!   normals of A, face normals of B, or cross products of an edge of A with an edge of B. The normals of *all*
//!   point triples of each cloud include every face normal, and the cross products of *all* point pairs'
//!   directions include every edge–edge normal, so this brute-force set is a superset of the facet normals. Any
//!   unit n has h(n) ≥ depth (the ball of radius depth about the origin lies in A − B), so the extra directions can
//!   never lower the minimum: the minimum over the superset *is* the depth, with no hull to build and no
//!   tolerance to choose. The direction that attains it is the normal.
//! * **sphere–sphere**, **sphere–box** (clamp the centre to the box; inside, the nearest face) and
//!   **capsule–capsule** (segment–segment distance, Ericson's closed form in `common`, minus the radii) in
//!   closed form.
//! * **cores apart** (rounded shapes overlapping through their radii only): the radii minus the brute-force
//!   distance between the cores (`common::brute_closest3`).
//!
//! Every 16th pair of each family is also answered by the generic superset reference, and the two references
//! must agree (1e-12 relative: both are a handful of f64 operations on the same inputs).
//!
//! # What is checked on every pair (see [`verify`])
//!
//! * depth within `REL_DEPTH = 1e-9 · size` of the exact depth (size: the larger shape's bounding radius). EPA
//!   stops when its lower and upper bounds meet to 64·eps relative plus 8 ulps of the coordinates, so the
//!   expected error is ~1e-14; 1e-9 is the accuracy the suite asks for;
//! * the reported depth is a lower bound and depth + `error_bound` an upper bound on the exact depth, up to
//!   `BOUND_SLACK = 1e-12 · size` (≈ 4500 ulps of the coordinates: the rounding of the poses and of our sums);
//! * `distance == −depth`, `intersecting`, a unit normal (|1 − |n|| ≤ 1e-12: it is divided by its length);
//! * `point_b − point_a = distance · normal` (1e-9 · size): counted and printed by the family tests, failed by
//!   `witness_points_are_a_matched_pair` (a known defect, documented there, that would otherwise fail every family
//!   and hide any other regression);
//! * the normal *realises* the depth: h_{A−B}(normal) − depth ≤ 1e-9 · size (the "excess"). This is the
//!   exact form of "moving B by depth along the normal separates the shapes", and holds for any valid normal,
//!   unique or not; the reference must also never find h(normal) below its depth (a check on the reference);
//! * where the minimising direction is unique — every candidate direction more than `SAME_AXIS` away has h at
//!   least `UNIQUE = 1e-6 · size` above the minimum (the margin `cond`) — the angle to the exact normal is at
//!   most `SAME_AXIS + 4 · excess / cond` for a facet normal (the polar body of A − B has a vertex at n*/depth and
//!   every other vertex is at most 1/(depth + cond) from the origin; a direction with h = depth + excess lies
//!   within 2·excess/cond of it) and `SAME_AXIS + √(2 · excess / cond)` when the nearest boundary point is
//!   curved (cores apart: h grows quadratically, as cond·angle²/2 with cond the core distance). The excess is
//!   floored at `H_ROUNDING = 1e-13 · size`, the rounding of our own h;
//! * the witness points lie on their shapes (within 1e-9 · size) and on their supporting planes along the
//!   normal (A's deepest point into B, B's into A); where a shape's support along the exact normal is a single
//!   vertex (by 1e-6 · size) the witness must be that vertex (plus the radius along the normal);
//! * `gjk::distance` says separated after moving B by (depth + 1e-9 · size) · normal, and intersecting after
//!   moving it by (depth − 1e-9 · size) · normal (when the depth exceeds 2e-9 · size; any move shorter than the
//!   depth leaves them overlapping).
//!
//! Failures are collected per family and reported together, by kind and configuration with examples, after the
//! family's figures are printed, so one run shows everything. Run with `--nocapture` to see the figures.
//!
//! # The tests
//!
//! 1. 3D families, 10,000 overlapping pairs each: box–box (random, identity and face-aligned rotations — about a
//!    shared axis, by quarter turns — placed at random, face to face 1e-6·size to 0.1·size deep, shallow along the
//!    exact normal, one inside the other, at the same centre), hull–hull (4–8 random points; identical copies at
//!    the same rotation give exactly parallel faces), sphere–sphere, sphere–box, capsule–capsule (parallel,
//!    crossing, collinear cores included).
//! 2. 2D families, 2,500 pairs each: box–box, polygon–polygon.
//! 3. parry3d-f64 0.31 `query::contact` on the shared families: disagreements beyond 1e-7·size, refereed by the
//!    exact reference; the test fails only where we are wrong.
//! 4. Swapping A and B, and a common rigid motion (also 1e4 and 1e6 from the origin).
//! 5. Degenerate inputs (proptest): `*_never_panic*` — no panic, finite output, depth ≥ 0, unit normal, a status,
//!    finite contact manifolds; `*_signed_distance_is_exact` — the signed distance's sign, its bounds and its value
//!    against the exact reference. `thin_slabs_and_needles_overlapping` pins what the latter found.

// `!(x <= tol)` is written on purpose: unlike `x > tol` it also fails on NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::common::{
    angle, brute_closest2, brute_closest3, differences, in_cube3, in_square2, log_uniform, parry_pose3, parry_vec3,
    rng, segment_segment, support_value, uniform, unit2, unit3, unit_quat,
};
use gjk::manifold::contact_manifold;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Rotation, Vec3, Vector};
use gjk::shape::{support_full, Ball, Capsule, ConvexPolytope, Cuboid, Point, Rounded, Segment, SupportMap};
use gjk::{distance, penetration, Penetration, Status};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::rngs::SmallRng;
use rand::Rng;

/// Depth agreement with the exact references, relative to the pair's size (see the module docs).
const REL_DEPTH: f64 = 1e-9;
/// The step beyond (and short of) the depth in the separation test, relative to size.
const STEP: f64 = 1e-9;
/// Margin (relative to size) by which the exact normal must beat every other direction to count as unique.
const UNIQUE: f64 = 1e-6;
/// Candidate directions closer than this (radians) are the same axis: one facet normal computed two ways (a face
/// normal and an edge cross product, or two rotated axes) differs by a few ulps.
const SAME_AXIS: f64 = 1e-9;
/// Rounding of one evaluation of h by the reference (dot products of coordinates of magnitude ≤ ~4·size, a few
/// ulps each), relative to size.
const H_ROUNDING: f64 = 1e-13;
/// Slack of the bound checks and of the agreement between two references, relative to size.
const BOUND_SLACK: f64 = 1e-12;
/// Pairs per 3D family (the brief asks for at least 10,000).
const PAIRS_3D: usize = 10_000;
/// Pairs per 2D family (at least 2,000).
const PAIRS_2D: usize = 2_500;

// ---------------------------------------------------------------------------------------------------------------
// Dimension-generic reference machinery.

/// What the generic checks need from a dimension.
trait Space: Vector<Real = f64> {
    /// The point of the convex hull of `pts` nearest the origin (`None` when the origin is inside), by brute force.
    fn closest_of_hull(pts: &[Self]) -> Option<Self>;

    /// Distance from the origin to the convex hull of `pts` (0 inside).
    fn hull_distance(pts: &[Self]) -> f64 {
        Self::closest_of_hull(pts).map_or(0.0, |x| x.length())
    }
}

impl Space for DVec3 {
    fn closest_of_hull(pts: &[Self]) -> Option<Self> {
        brute_closest3(pts)
    }
}

impl Space for DVec2 {
    fn closest_of_hull(pts: &[Self]) -> Option<Self> {
        brute_closest2(pts)
    }
}

/// A shape as the references see it: its core's vertices in the world, its radius, and the candidate directions
/// it contributes (unit face normals, either sign, and unit edge directions; world frame).
#[derive(Clone, Debug)]
struct Ref<V> {
    pts: Vec<V>,
    radius: f64,
    faces: Vec<V>,
    edges: Vec<V>,
}

impl<V: Space> Ref<V> {
    /// Support of the whole shape along the unit `n`: max n·p + radius.
    fn high(&self, n: V) -> f64 {
        self.pts.iter().fold(f64::NEG_INFINITY, |m, p| m.max(p.dot(n))) + self.radius
    }
    /// min n·p − radius.
    fn low(&self, n: V) -> f64 {
        self.pts.iter().fold(f64::INFINITY, |m, p| m.min(p.dot(n))) - self.radius
    }
}

/// h_{A−B}(n) of the whole shapes: how far B must move along n to clear A.
fn h_diff<V: Space>(a: &Ref<V>, b: &Ref<V>, n: V) -> f64 {
    a.high(n) - b.low(n)
}

/// How the error of a normal relates to the excess of h along it (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// The nearest boundary point is on a facet of a polytope: linear.
    Facet,
    /// It is on a curved part (cores apart, radii overlapping): quadratic.
    Curved,
}

/// The exact answer.
#[derive(Clone, Copy, Debug)]
struct Exact<V> {
    /// Signed depth (negative when apart).
    depth: f64,
    /// Unit normal from A toward B (zero when undefined).
    normal: V,
    /// How well the normal is determined: the margin of the minimiser over every other candidate direction
    /// (facets) or the distance between the cores (curved).
    cond: f64,
    kind: Kind,
}

impl<V: Space> Exact<V> {
    fn swapped(self) -> Self {
        Self { normal: -self.normal, ..self }
    }
}

/// Angle between two unit vectors, accurate at small angles.
fn angle_between<V: Space>(a: V, b: V) -> f64 {
    2.0 * ((a - b).length() / 2.0).min(1.0).asin()
}

/// The smallest h over the (h, outward direction) list, its direction, and the margin by which it beats every
/// direction more than `SAME_AXIS` away.
fn pick<V: Space>(all: &[(f64, V)]) -> Option<(f64, V, f64)> {
    let best = *all.iter().min_by(|x, y| x.0.total_cmp(&y.0))?;
    // Chord |d − best| > SAME_AXIS: the angle exceeds SAME_AXIS (to 1e-18), without an asin per direction.
    let far = |d: V| (d - best.1).length_squared() > SAME_AXIS * SAME_AXIS;
    let second = all.iter().filter(|(_, d)| far(*d)).fold(f64::INFINITY, |m, x| m.min(x.0));
    Some((best.0, best.1, second - best.0))
}

/// SAT over candidate directions: for each n both h(n) (outward n) and h(−n).
fn sat_min<V: Space>(a: &Ref<V>, b: &Ref<V>, cands: &[V]) -> Option<(f64, V, f64)> {
    let mut all = Vec::with_capacity(2 * cands.len());
    for &n in cands {
        let (amax, amin) = (a.high(n) - a.radius, a.low(n) + a.radius);
        let (bmax, bmin) = (b.high(n) - b.radius, b.low(n) + b.radius);
        all.push((amax - bmin, n));
        all.push((bmax - amin, -n));
    }
    pick(&all)
}

/// The exact signed depth of two polytope cores with radii, from candidate directions containing every facet
/// normal of the cores' difference (see the module docs).
fn exact_from<V: Space>(a: &Ref<V>, b: &Ref<V>, cands: &[V]) -> Exact<V> {
    let radii = a.radius + b.radius;
    let sat = sat_min(a, b, cands);
    if let Some((h, n, cond)) = sat {
        if h > 0.0 {
            // The origin is strictly inside the cores' difference.
            return Exact { depth: h + radii, normal: n, cond, kind: Kind::Facet };
        }
    }
    match V::closest_of_hull(&differences(&a.pts, &b.pts)) {
        Some(x) if x.length() > 0.0 => {
            // x is the point of A − B nearest the origin; B must move along −x to separate.
            let d = x.length();
            Exact { depth: radii - d, normal: -x * (1.0 / d), cond: d, kind: Kind::Curved }
        }
        // The cores touch (or their difference is flat through the origin): only the radii overlap, and the
        // direction is not determined.
        _ => Exact { depth: radii, normal: sat.map_or(V::zero(), |s| s.1), cond: 0.0, kind: Kind::Facet },
    }
}

/// A direction made unit, or `None` when it is too short to have one.
fn unit_or_none<V: Space>(v: V, min_len: f64) -> Option<V> {
    let l = v.length();
    (l > min_len).then(|| v * (1.0 / l))
}

/// The only point of `pts` farthest along `n` by at least `margin` (coincident copies count once).
fn unique_extreme<V: Space>(pts: &[V], n: V, margin: f64) -> Option<V> {
    let best = *pts.iter().max_by(|x, y| x.dot(n).total_cmp(&y.dot(n)))?;
    let second = pts.iter().filter(|&&q| q != best).fold(f64::NEG_INFINITY, |m, q| m.max(q.dot(n)));
    (second < best.dot(n) - margin).then_some(best)
}

// ---------------------------------------------------------------------------------------------------------------
// 3D references.

/// Reference of a point cloud (the hull's candidates are all triples' normals and all pairs' directions).
fn ref_cloud3(local: &[DVec3], pose: &Iso<DVec3>, radius: f64) -> Ref<DVec3> {
    let scale = local.iter().fold(0.0f64, |m, p| m.max(p.length())).max(f64::MIN_POSITIVE);
    let (mut faces, mut edges) = (Vec::new(), Vec::new());
    for i in 0..local.len() {
        for j in i + 1..local.len() {
            let e = local[j] - local[i];
            if let Some(u) = unit_or_none(e, 1e-12 * scale) {
                edges.push(pose.transform_vector(u));
            }
            for k in j + 1..local.len() {
                if let Some(n) = unit_or_none(e.cross(local[k] - local[i]), 1e-12 * scale * scale) {
                    faces.push(pose.transform_vector(n));
                }
            }
        }
    }
    Ref { pts: local.iter().map(|p| pose.transform_point(*p)).collect(), radius, faces, edges }
}

fn corners3(h: DVec3) -> Vec<DVec3> {
    let s = |i: usize, k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
    (0..8).map(|i| DVec3::new(h.x * s(i, 0), h.y * s(i, 1), h.z * s(i, 2))).collect()
}

fn box_axes3(pose: &Iso<DVec3>) -> [DVec3; 3] {
    [pose.transform_vector(DVec3::X), pose.transform_vector(DVec3::Y), pose.transform_vector(DVec3::Z)]
}

fn ref_cuboid3(h: DVec3, pose: &Iso<DVec3>) -> Ref<DVec3> {
    let axes = box_axes3(pose).to_vec();
    Ref {
        pts: corners3(h).iter().map(|p| pose.transform_point(*p)).collect(),
        radius: 0.0,
        faces: axes.clone(),
        edges: axes,
    }
}

/// The 3D candidate directions of two references: the faces of both, the cross products of all edge pairs.
fn cands3(a: &Ref<DVec3>, b: &Ref<DVec3>) -> Vec<DVec3> {
    let mut cands: Vec<DVec3> = a.faces.iter().chain(&b.faces).copied().collect();
    for ea in &a.edges {
        for eb in &b.edges {
            // Unit edges: |ea × eb| = sin of their angle. Exactly (or to rounding) parallel edges make no facet.
            if let Some(n) = unit_or_none(ea.cross(*eb), 1e-12) {
                cands.push(n);
            }
        }
    }
    cands
}

/// The generic superset reference in 3D.
fn exact_cores3(a: &Ref<DVec3>, b: &Ref<DVec3>) -> Exact<DVec3> {
    exact_from(a, b, &cands3(a, b))
}

/// Box–box by the 15-axis separating-axis theorem, written out.
fn sat_box_box3(ha: DVec3, pa: &Iso<DVec3>, hb: DVec3, pb: &Iso<DVec3>) -> Exact<DVec3> {
    let (aa, ab) = (box_axes3(pa), box_axes3(pb));
    let t = pb.translation - pa.translation;
    let mut axes: Vec<DVec3> = aa.iter().chain(&ab).copied().collect();
    for x in &aa {
        for y in &ab {
            if let Some(n) = unit_or_none(x.cross(*y), 1e-12) {
                axes.push(n);
            }
        }
    }
    let radius = |h: DVec3, ax: &[DVec3; 3], l: DVec3| {
        h.x * l.dot(ax[0]).abs() + h.y * l.dot(ax[1]).abs() + h.z * l.dot(ax[2]).abs()
    };
    let mut all = Vec::with_capacity(2 * axes.len());
    for l in axes {
        let r = radius(ha, &aa, l) + radius(hb, &ab, l);
        let s = l.dot(t);
        all.push((r - s, l));
        all.push((r + s, -l));
    }
    let (depth, normal, cond) = pick(&all).expect("15 axes");
    Exact { depth, normal, cond, kind: Kind::Facet }
}

fn sphere_sphere(ra: f64, pa: &Iso<DVec3>, rb: f64, pb: &Iso<DVec3>) -> Exact<DVec3> {
    let c = pb.translation - pa.translation;
    let d = c.length();
    let normal = if d > 0.0 { c / d } else { DVec3::ZERO };
    Exact { depth: ra + rb - d, normal, cond: d, kind: Kind::Curved }
}

/// A = box, B = ball.
fn box_sphere(h: DVec3, pa: &Iso<DVec3>, r: f64, pb: &Iso<DVec3>) -> Exact<DVec3> {
    let p = pa.inverse_transform_point(pb.translation);
    let q = p.clamp(-h, h);
    if p != q {
        let d = (p - q).length();
        return Exact { depth: r - d, normal: pa.transform_vector((p - q) / d), cond: d, kind: Kind::Curved };
    }
    // Centre inside: out through the nearest face (h_i − p_i along +e_i, h_i + p_i along −e_i).
    let mut all = Vec::new();
    for (i, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
        all.push((h[i] - p[i], pa.transform_vector(e)));
        all.push((h[i] + p[i], pa.transform_vector(-e)));
    }
    let (slack, normal, cond) = pick(&all).expect("six faces");
    Exact { depth: r + slack, normal, cond, kind: Kind::Facet }
}

fn capsule_segment(hh: f64, pose: &Iso<DVec3>) -> (DVec3, DVec3) {
    (pose.transform_point(DVec3::new(0.0, -hh, 0.0)), pose.transform_point(DVec3::new(0.0, hh, 0.0)))
}

fn capsule_capsule(a: (f64, f64), pa: &Iso<DVec3>, b: (f64, f64), pb: &Iso<DVec3>) -> Exact<DVec3> {
    let (a0, a1) = capsule_segment(a.0, pa);
    let (b0, b1) = capsule_segment(b.0, pb);
    let (ca, cb) = segment_segment(a0, a1, b0, b1);
    let d = (cb - ca).length();
    if d > 0.0 {
        return Exact { depth: a.1 + b.1 - d, normal: (cb - ca) / d, cond: d, kind: Kind::Curved };
    }
    // Crossing segments: the cores' difference is flat through the origin, only the radii overlap.
    let n = unit_or_none((a1 - a0).cross(b1 - b0), 0.0).unwrap_or(DVec3::ZERO);
    Exact { depth: a.1 + b.1, normal: n, cond: 0.0, kind: Kind::Facet }
}

/// A 3D shape of the suites.
#[derive(Clone, Debug)]
enum Spec3 {
    Cuboid(DVec3),
    Hull(Vec<DVec3>),
    Ball(f64),
    Capsule(f64, f64),
}

impl Spec3 {
    fn shape(&self) -> Arc<dyn SupportMap<DVec3>> {
        match self {
            Spec3::Cuboid(h) => Arc::new(Cuboid::new(*h).unwrap()),
            Spec3::Hull(p) => Arc::new(ConvexPolytope::new(p).unwrap()),
            Spec3::Ball(r) => Arc::new(Ball::new(*r).unwrap()),
            Spec3::Capsule(hh, r) => Arc::new(Capsule::new(*hh, *r).unwrap()),
        }
    }

    fn reference(&self, pose: &Iso<DVec3>) -> Ref<DVec3> {
        match self {
            Spec3::Cuboid(h) => ref_cuboid3(*h, pose),
            Spec3::Hull(p) => ref_cloud3(p, pose, 0.0),
            Spec3::Ball(r) => ref_cloud3(&[DVec3::ZERO], pose, *r),
            Spec3::Capsule(hh, r) => ref_cloud3(&[DVec3::new(0.0, -hh, 0.0), DVec3::new(0.0, *hh, 0.0)], pose, *r),
        }
    }

    /// Bounding radius about the local origin.
    fn size(&self) -> f64 {
        match self {
            Spec3::Cuboid(h) => h.length(),
            Spec3::Hull(p) => p.iter().fold(0.0f64, |m, q| m.max(q.length())),
            Spec3::Ball(r) => *r,
            Spec3::Capsule(hh, r) => hh + r,
        }
    }

    fn parry(&self) -> Option<Box<dyn parry3d_f64::shape::Shape>> {
        use parry3d_f64::shape as p;
        Some(match self {
            Spec3::Cuboid(h) => Box::new(p::Cuboid::new(parry_vec3(*h))),
            Spec3::Hull(pts) => {
                let pts: Vec<_> = pts.iter().map(|&v| parry_vec3(v)).collect();
                Box::new(p::ConvexPolyhedron::from_convex_hull(&pts)?)
            }
            Spec3::Ball(r) => Box::new(p::Ball::new(*r)),
            Spec3::Capsule(hh, r) => Box::new(p::Capsule::new_y(*hh, *r)),
        })
    }
}

/// The closed form (or written-out SAT) where there is one, else the generic superset reference.
fn exact_for3(sa: &Spec3, pa: &Iso<DVec3>, sb: &Spec3, pb: &Iso<DVec3>) -> Exact<DVec3> {
    match (sa, sb) {
        (Spec3::Cuboid(ha), Spec3::Cuboid(hb)) => sat_box_box3(*ha, pa, *hb, pb),
        (Spec3::Ball(ra), Spec3::Ball(rb)) => sphere_sphere(*ra, pa, *rb, pb),
        (Spec3::Cuboid(h), Spec3::Ball(r)) => box_sphere(*h, pa, *r, pb),
        (Spec3::Ball(r), Spec3::Cuboid(h)) => box_sphere(*h, pb, *r, pa).swapped(),
        (Spec3::Capsule(ha, ra), Spec3::Capsule(hb, rb)) => capsule_capsule((*ha, *ra), pa, (*hb, *rb), pb),
        _ => exact_cores3(&sa.reference(pa), &sb.reference(pb)),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 2D references.

/// Reference of a 2D point cloud: the perpendiculars of all pairs contain every edge normal of its hull.
fn ref_cloud2(local: &[DVec2], pose: &Iso<DVec2>) -> Ref<DVec2> {
    let scale = local.iter().fold(0.0f64, |m, p| m.max(p.length())).max(f64::MIN_POSITIVE);
    let mut faces = Vec::new();
    for i in 0..local.len() {
        for j in i + 1..local.len() {
            if let Some(u) = unit_or_none((local[j] - local[i]).perp(), 1e-12 * scale) {
                faces.push(pose.transform_vector(u));
            }
        }
    }
    Ref { pts: local.iter().map(|p| pose.transform_point(*p)).collect(), radius: 0.0, faces, edges: Vec::new() }
}

fn corners2(h: DVec2) -> Vec<DVec2> {
    vec![DVec2::new(-h.x, -h.y), DVec2::new(h.x, -h.y), DVec2::new(h.x, h.y), DVec2::new(-h.x, h.y)]
}

fn box_axes2(pose: &Iso<DVec2>) -> [DVec2; 2] {
    [pose.transform_vector(DVec2::X), pose.transform_vector(DVec2::Y)]
}

fn ref_cuboid2(h: DVec2, pose: &Iso<DVec2>) -> Ref<DVec2> {
    Ref {
        pts: corners2(h).iter().map(|p| pose.transform_point(*p)).collect(),
        radius: 0.0,
        faces: box_axes2(pose).to_vec(),
        edges: Vec::new(),
    }
}

/// Box–box in 2D by the 4-axis separating-axis theorem, written out.
fn sat_box_box2(ha: DVec2, pa: &Iso<DVec2>, hb: DVec2, pb: &Iso<DVec2>) -> Exact<DVec2> {
    let (aa, ab) = (box_axes2(pa), box_axes2(pb));
    let t = pb.translation - pa.translation;
    let radius = |h: DVec2, ax: &[DVec2; 2], l: DVec2| h.x * l.dot(ax[0]).abs() + h.y * l.dot(ax[1]).abs();
    let mut all = Vec::new();
    for l in aa.iter().chain(&ab).copied() {
        let r = radius(ha, &aa, l) + radius(hb, &ab, l);
        let s = l.dot(t);
        all.push((r - s, l));
        all.push((r + s, -l));
    }
    let (depth, normal, cond) = pick(&all).expect("4 axes");
    Exact { depth, normal, cond, kind: Kind::Facet }
}

#[derive(Clone, Debug)]
enum Spec2 {
    Cuboid(DVec2),
    Polygon(Vec<DVec2>),
}

impl Spec2 {
    fn shape(&self) -> Arc<dyn SupportMap<DVec2>> {
        match self {
            Spec2::Cuboid(h) => Arc::new(Cuboid::new(*h).unwrap()),
            Spec2::Polygon(p) => Arc::new(ConvexPolytope::new(p).unwrap()),
        }
    }
    fn reference(&self, pose: &Iso<DVec2>) -> Ref<DVec2> {
        match self {
            Spec2::Cuboid(h) => ref_cuboid2(*h, pose),
            Spec2::Polygon(p) => ref_cloud2(p, pose),
        }
    }
    fn size(&self) -> f64 {
        match self {
            Spec2::Cuboid(h) => h.length(),
            Spec2::Polygon(p) => p.iter().fold(0.0f64, |m, q| m.max(q.length())),
        }
    }
}

fn exact_for2(sa: &Spec2, pa: &Iso<DVec2>, sb: &Spec2, pb: &Iso<DVec2>) -> Exact<DVec2> {
    match (sa, sb) {
        (Spec2::Cuboid(ha), Spec2::Cuboid(hb)) => sat_box_box2(*ha, pa, *hb, pb),
        _ => exact_generic2(&sa.reference(pa), &sb.reference(pb)),
    }
}

fn exact_generic2(a: &Ref<DVec2>, b: &Ref<DVec2>) -> Exact<DVec2> {
    let cands: Vec<DVec2> = a.faces.iter().chain(&b.faces).copied().collect();
    exact_from(a, b, &cands)
}

// ---------------------------------------------------------------------------------------------------------------
// Cases and their verification.

/// One pair: the library's shapes, poses, the references' view of them and the exact answer.
struct Case<V: Space> {
    label: String,
    desc: String,
    a: Arc<dyn SupportMap<V>>,
    b: Arc<dyn SupportMap<V>>,
    pa: Iso<V>,
    pb: Iso<V>,
    ra: Ref<V>,
    rb: Ref<V>,
    ex: Exact<V>,
    size: f64,
}

impl<V: Space> Case<V> {
    fn swapped(&self) -> Self {
        Case {
            label: format!("{} (swapped)", self.label),
            desc: format!("{} (A and B swapped)", self.desc),
            a: self.b.clone(),
            b: self.a.clone(),
            pa: self.pb,
            pb: self.pa,
            ra: self.rb.clone(),
            rb: self.ra.clone(),
            ex: self.ex.swapped(),
            size: self.size,
        }
    }
}

fn case3(label: String, sa: &Spec3, pa: Iso<DVec3>, sb: &Spec3, pb: Iso<DVec3>) -> Case<DVec3> {
    Case {
        desc: format!("A = {sa:?} at {pa:?}\n  B = {sb:?} at {pb:?}"),
        a: sa.shape(),
        b: sb.shape(),
        ra: sa.reference(&pa),
        rb: sb.reference(&pb),
        ex: exact_for3(sa, &pa, sb, &pb),
        size: sa.size().max(sb.size()),
        label,
        pa,
        pb,
    }
}

fn case2(label: String, sa: &Spec2, pa: Iso<DVec2>, sb: &Spec2, pb: Iso<DVec2>) -> Case<DVec2> {
    Case {
        desc: format!("A = {sa:?} at {pa:?}\n  B = {sb:?} at {pb:?}"),
        a: sa.shape(),
        b: sb.shape(),
        ra: sa.reference(&pa),
        rb: sb.reference(&pb),
        ex: exact_for2(sa, &pa, sb, &pb),
        size: sa.size().max(sb.size()),
        label,
        pa,
        pb,
    }
}

/// The figures of one family, and its failures.
#[derive(Default)]
struct Stats {
    name: String,
    pairs: usize,
    max_depth_err: f64,
    worst_depth: String,
    normals_checked: usize,
    max_angle: f64,
    worst_angle: String,
    max_excess: f64,
    max_witness_gap: f64,
    vertex_witnesses: usize,
    non_converged: BTreeMap<String, usize>,
    /// Pairs where point_b − point_a ≠ distance·normal (beyond 1e-9·size), by configuration; failures only when
    /// `strict_relation`.
    relation_violations: BTreeMap<String, usize>,
    strict_relation: bool,
    /// Failed checks counted by (kind, configuration), with the first two examples of each kind.
    failures: BTreeMap<(String, String), usize>,
    examples: BTreeMap<String, Vec<String>>,
}

impl Stats {
    fn new(name: &str) -> Self {
        Stats { name: name.to_string(), ..Stats::default() }
    }

    fn print(&self) {
        let nc: usize = self.non_converged.values().sum();
        let nr: usize = self.relation_violations.values().sum();
        let mut worst: Vec<(&String, &usize)> = self.relation_violations.iter().collect();
        worst.sort_by(|x, y| y.1.cmp(x.1));
        let worst: Vec<String> = worst.iter().take(3).map(|(k, n)| format!("{n} on {k}")).collect();
        println!(
            "{}: {} pairs; max |depth − exact|/size {:.2e} ({}); unique normals {} of them, max angle error {:.2e} rad \
             ({}); max excess h(normal) − depth {:.2e}·size; max |pb − pa − distance·n| {:.2e}·size, > 1e-9·size in \
             {nr} pairs{}; {} witnesses checked against a unique vertex; {} not Converged{}",
            self.name,
            self.pairs,
            self.max_depth_err,
            self.worst_depth,
            self.normals_checked,
            self.max_angle,
            self.worst_angle,
            self.max_excess,
            self.max_witness_gap,
            if nr == 0 { String::new() } else { format!(" (most: {})", worst.join(", ")) },
            self.vertex_witnesses,
            nc,
            if nc == 0 { String::new() } else { format!(": {:?}", self.non_converged) },
        );
    }

    fn fail(&mut self, kind: &str, config: &str, message: String) {
        *self.failures.entry((kind.to_string(), config.to_string())).or_default() += 1;
        let ex = self.examples.entry(kind.to_string()).or_default();
        if ex.len() < 2 {
            ex.push(message);
        }
    }

    /// Prints the figures, then fails listing the failed checks by kind and configuration, with examples.
    fn finish(&self) {
        self.print();
        if !self.failures.is_empty() {
            let total: usize = self.failures.values().sum();
            let mut text = format!("{}: {total} failed checks\n", self.name);
            for ((kind, config), n) in &self.failures {
                text += &format!("  {n:5} × {kind} — on {config}\n");
            }
            for (kind, examples) in &self.examples {
                text += &format!("examples of \"{kind}\":\n");
                for e in examples {
                    text += &format!("{e}\n");
                }
            }
            println!("{text}");
            panic!("{}: {total} failed checks (listed above)", self.name);
        }
    }
}

/// The tolerance on the angle to the exact normal, or `None` where the normal is not unique.
fn normal_tol<V: Space>(ex: &Exact<V>, excess: f64, size: f64) -> Option<f64> {
    if !(ex.cond >= UNIQUE * size) {
        return None;
    }
    let e = excess.max(0.0) + H_ROUNDING * size;
    Some(
        SAME_AXIS
            + match ex.kind {
                Kind::Facet => 4.0 * e / ex.cond,
                Kind::Curved => (2.0 * e / ex.cond).sqrt(),
            },
    )
}

fn check<V: Space>(st: &mut Stats, c: &Case<V>) -> Penetration<V> {
    let p = penetration(&*c.a, &c.pa, &*c.b, &c.pb);
    verify(st, c, &p);
    p
}

/// Every check of the module docs on one answer.
fn verify<V: Space>(st: &mut Stats, c: &Case<V>, p: &Penetration<V>) {
    st.pairs += 1;
    let (size, ex) = (c.size, &c.ex);
    let mut errs: Vec<String> = Vec::new();
    if p.status != Status::Converged {
        *st.non_converged.entry(format!("{:?} on {}", p.status, c.label)).or_default() += 1;
    }
    let finite = p.depth.is_finite()
        && p.distance.is_finite()
        && p.error_bound.is_finite()
        && p.normal.is_finite()
        && p.point_a.is_finite()
        && p.point_b.is_finite();
    if !finite {
        errs.push("non-finite output".into());
    } else {
        if ex.depth > BOUND_SLACK * size && !p.intersecting {
            errs.push("not intersecting".into());
        }
        if p.depth > 0.0 && p.distance != -p.depth {
            errs.push("distance != −depth".into());
        }
        let derr = (p.depth - ex.depth).abs() / size;
        if derr > st.max_depth_err {
            st.max_depth_err = derr;
            st.worst_depth = c.label.clone();
        }
        if derr > REL_DEPTH {
            errs.push(format!("depth error: {derr:.3e}·size"));
        }
        if p.depth > ex.depth + BOUND_SLACK * size {
            errs.push("the depth is not a lower bound".into());
        }
        if ex.depth > p.depth + p.error_bound + BOUND_SLACK * size {
            errs.push(format!("exact depth above depth + error_bound: {:e}", p.error_bound));
        }
        let len = p.normal.length();
        if !((len - 1.0).abs() <= 1e-12) {
            errs.push(format!("normal not unit: length {len}"));
        }
        let gap = ((p.point_b - p.point_a) - p.normal * p.distance).length() / size;
        st.max_witness_gap = st.max_witness_gap.max(gap);
        if gap > REL_DEPTH {
            // A known defect (see `witness_points_are_a_matched_pair`): counted and printed here, failed there.
            *st.relation_violations.entry(c.label.clone()).or_default() += 1;
            if st.strict_relation {
                errs.push(format!("point_b − point_a ≠ distance·normal: off by {gap:.3e}·size"));
            }
        }
        let n = p.normal * (1.0 / len);
        // The normal realises the depth.
        let excess = h_diff(&c.ra, &c.rb, n) - ex.depth;
        st.max_excess = st.max_excess.max(excess / size);
        if excess > REL_DEPTH * size {
            errs.push(format!("normal does not realise the depth: h(normal) − depth = {:.3e}·size", excess / size));
        }
        if excess < -2.0 * H_ROUNDING * size {
            errs.push(format!("REFERENCE WRONG, h(normal) below the exact depth: by {:.3e}·size", -excess / size));
        }
        if let Some(tol) = normal_tol(ex, excess, size) {
            let a = angle_between(n, ex.normal);
            st.normals_checked += 1;
            if a > st.max_angle {
                st.max_angle = a;
                st.worst_angle = c.label.clone();
            }
            if a > tol {
                errs.push(format!("normal off the unique exact one: {a:.3e} rad (tolerance {tol:.3e})"));
            }
            // Where a shape meets the other with a single vertex, the witness is that vertex.
            if let Some(v) = unique_extreme(&c.ra.pts, ex.normal, UNIQUE * size) {
                st.vertex_witnesses += 1;
                let off = (p.point_a - (v + n * c.ra.radius)).length() / size;
                if off > REL_DEPTH {
                    errs.push(format!("point_a is not A's unique deepest vertex: {off:.3e}·size from {v:?}"));
                }
            }
            if let Some(v) = unique_extreme(&c.rb.pts, -ex.normal, UNIQUE * size) {
                st.vertex_witnesses += 1;
                let off = (p.point_b - (v - n * c.rb.radius)).length() / size;
                if off > REL_DEPTH {
                    errs.push(format!("point_b is not B's unique deepest vertex: {off:.3e}·size from {v:?}"));
                }
            }
        }
        // Witnesses: on their shapes, and on their supporting planes along the normal.
        let rel_to = |pts: &[V], q: V| pts.iter().map(|x| *x - q).collect::<Vec<V>>();
        let out_a = V::hull_distance(&rel_to(&c.ra.pts, p.point_a)) - c.ra.radius;
        let out_b = V::hull_distance(&rel_to(&c.rb.pts, p.point_b)) - c.rb.radius;
        if out_a > REL_DEPTH * size || out_b > REL_DEPTH * size {
            errs.push(format!(
                "witness outside its shape: {:.3e}·size (A) / {:.3e}·size (B)",
                out_a / size,
                out_b / size
            ));
        }
        let plane_a = (c.ra.high(n) - n.dot(p.point_a)).abs();
        let plane_b = (n.dot(p.point_b) - c.rb.low(n)).abs();
        if plane_a > REL_DEPTH * size || plane_b > REL_DEPTH * size {
            errs.push(format!(
                "witness off its supporting plane: {:.3e}·size (A) / {:.3e}·size (B)",
                plane_a / size,
                plane_b / size
            ));
        }
        // Moving B by a little more than the depth separates; by a little less does not.
        let step = STEP * size;
        let moved = |by: f64| Iso::new(c.pb.rotation, c.pb.translation + n * by);
        let beyond = distance(&*c.a, &c.pa, &*c.b, &moved(p.depth + step));
        if beyond.intersecting {
            errs.push("still intersecting after moving B by depth + 1e-9·size along the normal".into());
        }
        if p.depth > 2.0 * step {
            let short = distance(&*c.a, &c.pa, &*c.b, &moved(p.depth - step));
            if !short.intersecting {
                errs.push(format!("separated after moving B by depth − 1e-9·size: gap {:e}", short.distance));
            }
        }
    }
    if !errs.is_empty() {
        let message = format!(
            "{}: {}\n  {}\n  exact: depth {:e}, normal {:?}, cond {:e}\n  got: {:?}",
            c.label,
            errs.join("; "),
            c.desc,
            ex.depth,
            ex.normal,
            ex.cond,
            p
        );
        for e in &errs {
            st.fail(e.split(':').next().unwrap_or(e), &c.label, message.clone());
        }
    }
}

/// Cross-checks a family's reference against the generic superset one.
fn cross_check<V: Space>(st: &mut Stats, c: &Case<V>, generic: &Exact<V>) {
    let d = (generic.depth - c.ex.depth).abs();
    if d > BOUND_SLACK * c.size {
        let msg = format!("{}: {:e} vs generic {:e}\n  {}", c.label, c.ex.depth, generic.depth, c.desc);
        st.fail("REFERENCES DISAGREE", &c.label, msg);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Generators.

type Gen3 = (String, Spec3, Iso<DVec3>, Spec3, Iso<DVec3>);
type Gen2 = (String, Spec2, Iso<DVec2>, Spec2, Iso<DVec2>);
type GenFn3 = fn(&mut SmallRng, usize) -> Gen3;
type GenFn2 = fn(&mut SmallRng, usize) -> Gen2;

fn rand_vec3(r: &mut SmallRng, lo: f64, hi: f64) -> DVec3 {
    DVec3::new(uniform(r, lo, hi), uniform(r, lo, hi), uniform(r, lo, hi))
}

fn rand_vec2(r: &mut SmallRng, lo: f64, hi: f64) -> DVec2 {
    DVec2::new(uniform(r, lo, hi), uniform(r, lo, hi))
}

/// A shallow target depth: log-uniform in [1e-6, 1e-1]·size, and exactly 1e-6·size one time in eight.
fn shallow(r: &mut SmallRng, size: f64) -> f64 {
    if r.gen_ratio(1, 8) {
        1e-6 * size
    } else {
        size * log_uniform(r, 1e-6, 1e-1)
    }
}

/// A random product of quarter turns about the axes (aligns faces exactly, up to the quaternion's rounding).
fn quarter_turns(r: &mut SmallRng) -> DQuat {
    let q = |k: u32| k as f64 * std::f64::consts::FRAC_PI_2;
    DQuat::from_rotation_x(q(r.gen_range(0..4)))
        * DQuat::from_rotation_y(q(r.gen_range(0..4)))
        * DQuat::from_rotation_z(q(r.gen_range(0..4)))
}

/// `pose` moved by `by`.
fn moved<V: Space>(pose: &Iso<V>, by: V) -> Iso<V> {
    Iso::new(pose.rotation, pose.translation + by)
}

/// Whether the shapes overlap, for the generators: for two polytopes the superset SAT decides it (positive
/// minimum: the origin is inside A − B) without the brute-force distance, which costs O(n⁴) on the 64 points of
/// A − B when they are apart.
fn overlaps3(sa: &Spec3, pa: &Iso<DVec3>, sb: &Spec3, pb: &Iso<DVec3>) -> bool {
    match (sa, sb) {
        (Spec3::Hull(_) | Spec3::Cuboid(_), Spec3::Hull(_) | Spec3::Cuboid(_)) => {
            let (a, b) = (sa.reference(pa), sb.reference(pb));
            sat_min(&a, &b, &cands3(&a, &b)).is_some_and(|s| s.0 > 0.0)
        }
        _ => exact_for3(sa, pa, sb, pb).depth > 0.0,
    }
}

fn overlaps2(sa: &Spec2, pa: &Iso<DVec2>, sb: &Spec2, pb: &Iso<DVec2>) -> bool {
    let (a, b) = (sa.reference(pa), sb.reference(pb));
    let cands: Vec<DVec2> = a.faces.iter().chain(&b.faces).copied().collect();
    sat_min(&a, &b, &cands).is_some_and(|s| s.0 > 0.0)
}

/// Places B at a random overlapping position near A (rejection sampling against the exact reference).
fn overlapping3(r: &mut SmallRng, sa: &Spec3, pa: &Iso<DVec3>, sb: &Spec3, qb: DQuat) -> Iso<DVec3> {
    let reach = sa.size() + sb.size();
    loop {
        let pb = Iso::new(qb, pa.translation + in_cube3(r, reach));
        if overlaps3(sa, pa, sb, &pb) {
            return pb;
        }
    }
}

/// Moves B along the exact normal so that the depth becomes `s` (the depth falls by exactly the distance moved
/// along the minimising normal, as long as it stays positive).
fn to_depth3(sa: &Spec3, pa: &Iso<DVec3>, sb: &Spec3, pb: Iso<DVec3>, s: f64) -> Iso<DVec3> {
    let ex = exact_for3(sa, pa, sb, &pb);
    if ex.normal == DVec3::ZERO || ex.depth <= s {
        return pb;
    }
    moved(&pb, ex.normal * (ex.depth - s))
}

const BOX_ROT: [&str; 4] = ["random", "identity", "shared-axis", "quarter-turns"];
const PLACE: [&str; 5] = ["overlap", "face-shallow", "shallow", "inside", "same-centre"];

fn gen_box_box3(r: &mut SmallRng, i: usize) -> Gen3 {
    let (rot, place) = (i % 4, (i / 4) % 5);
    let ha = rand_vec3(r, 0.1, 1.5);
    let hb = if place == 3 { ha * rand_vec3(r, 0.05, 0.3) } else { rand_vec3(r, 0.1, 1.5) };
    let qa = if rot == 1 { DQuat::IDENTITY } else { unit_quat(r) };
    let qb = match rot {
        0 => unit_quat(r),
        1 => DQuat::IDENTITY,
        2 => qa * DQuat::from_rotation_z(angle(r)),
        _ => qa * quarter_turns(r),
    };
    let pa = Iso::new(qa, in_cube3(r, 1.0));
    let (sa, sb) = (Spec3::Cuboid(ha), Spec3::Cuboid(hb));
    let size = ha.length().max(hb.length());
    // B's extent along each of A's axes.
    let (aa, ab) = (box_axes3(&pa), box_axes3(&Iso::new(qb, DVec3::ZERO)));
    let ext = |k: usize| hb.x * aa[k].dot(ab[0]).abs() + hb.y * aa[k].dot(ab[1]).abs() + hb.z * aa[k].dot(ab[2]).abs();
    let pb = match place {
        0 => overlapping3(r, &sa, &pa, &sb, qb),
        1 => {
            // B's centre over the interior of one of A's faces, overlapping it by s across that face.
            let k = if rot == 2 { 2 } else { r.gen_range(0..3) };
            let sign = if r.gen_bool(0.5) { 1.0 } else { -1.0 };
            let s = shallow(r, size);
            let mut o = DVec3::ZERO;
            for j in 0..3 {
                o[j] = if j == k { sign * (ha[k] + ext(k) - s) } else { uniform(r, -0.5, 0.5) * ha[j] };
            }
            Iso::new(qb, pa.translation + qa * o)
        }
        2 => {
            let pb = overlapping3(r, &sa, &pa, &sb, qb);
            to_depth3(&sa, &pa, &sb, pb, shallow(r, size))
        }
        3 => {
            let o = DVec3::new(
                uniform(r, -0.9, 0.9) * (ha.x - ext(0)).max(0.0),
                uniform(r, -0.9, 0.9) * (ha.y - ext(1)).max(0.0),
                uniform(r, -0.9, 0.9) * (ha.z - ext(2)).max(0.0),
            );
            Iso::new(qb, pa.translation + qa * o)
        }
        _ => Iso::new(qb, pa.translation),
    };
    (format!("box-box rot={} place={}", BOX_ROT[rot], PLACE[place]), sa, pa, sb, pb)
}

/// 4–8 random points in a random box, rejected while their hull is thinner than 0.1 of its size along some
/// triple's normal (no slivers: the degenerate ones are the proptest's business).
fn hull_points(r: &mut SmallRng, n: usize) -> Vec<DVec3> {
    loop {
        let scale = rand_vec3(r, 0.3, 1.5);
        let pts: Vec<DVec3> = (0..n).map(|_| in_cube3(r, 1.0) * scale).collect();
        let rf = ref_cloud3(&pts, &Iso::identity(), 0.0);
        let size = pts.iter().fold(0.0f64, |m, p| m.max(p.length()));
        let thin = rf.faces.iter().any(|&f| rf.high(f) - rf.low(f) < 0.1 * size);
        if !thin {
            return pts;
        }
    }
}

const HULL_ROT: [&str; 3] = ["random", "identical-copy", "random-other"];

fn gen_hull_hull3(r: &mut SmallRng, i: usize) -> Gen3 {
    let (rot, place) = (i % 3, (i / 3) % 5);
    let pts_a = hull_points(r, 4 + i % 5);
    let centroid = |p: &[DVec3]| p.iter().fold(DVec3::ZERO, |s, q| s + *q) / p.len() as f64;
    let mut pts_b = if rot == 1 { pts_a.clone() } else { hull_points(r, 4 + (i / 5) % 5) };
    if place == 3 {
        // Small and centred on its centroid, placed at A's centroid below: deep inside A.
        let c = centroid(&pts_b);
        pts_b = pts_b.iter().map(|p| (*p - c) * 0.15).collect();
    }
    let qa = unit_quat(r);
    let qb = if rot == 1 { qa } else { unit_quat(r) };
    let pa = Iso::new(qa, in_cube3(r, 1.0));
    let size = Spec3::Hull(pts_a.clone()).size().max(Spec3::Hull(pts_b.clone()).size());
    let (sa, sb) = (Spec3::Hull(pts_a), Spec3::Hull(pts_b));
    let pb = match place {
        0 => overlapping3(r, &sa, &pa, &sb, qb),
        1 | 2 => {
            // Identical copies moved along a facet normal of A − A: parallel faces meeting face to face.
            let pb = overlapping3(r, &sa, &pa, &sb, qb);
            to_depth3(&sa, &pa, &sb, pb, shallow(r, size))
        }
        3 => {
            let Spec3::Hull(pa_pts) = &sa else { unreachable!() };
            Iso::new(qb, pa.transform_point(centroid(pa_pts)))
        }
        _ => Iso::new(qb, pa.translation),
    };
    (format!("hull-hull rot={} place={}", HULL_ROT[rot], PLACE[place]), sa, pa, sb, pb)
}

const BALL_PLACE: [&str; 5] = ["overlap", "shallow", "inside", "same-centre", "near-concentric"];

fn gen_sphere_sphere(r: &mut SmallRng, i: usize) -> Gen3 {
    let place = i % 5;
    let ra = uniform(r, 0.1, 2.0);
    let rb = if place == 2 { ra * uniform(r, 0.05, 0.5) } else { uniform(r, 0.1, 2.0) };
    let size = ra.max(rb);
    let d = match place {
        0 => uniform(r, 0.0, ra + rb),
        1 => ra + rb - shallow(r, size),
        2 => uniform(r, 0.0, ra - rb),
        3 => 0.0,
        _ => 1e-9 * size * uniform(r, 0.5, 2.0),
    };
    let pa = Iso::new(unit_quat(r), in_cube3(r, 1.0));
    let pb = Iso::new(unit_quat(r), pa.translation + unit3(r) * d);
    (format!("sphere-sphere place={}", BALL_PLACE[place]), Spec3::Ball(ra), pa, Spec3::Ball(rb), pb)
}

const SB_PLACE: [&str; 6] = ["face-shallow", "edge-shallow", "vertex-shallow", "outside", "inside", "same-centre"];

fn gen_sphere_box(r: &mut SmallRng, i: usize) -> Gen3 {
    let place = i % 6;
    let h = rand_vec3(r, 0.1, 1.5);
    let qa = if i.is_multiple_of(3) { DQuat::IDENTITY } else { unit_quat(r) };
    let pa = Iso::new(qa, in_cube3(r, 1.0));
    // The centre in the box's frame: in the Voronoi region of a face, an edge or a vertex, anywhere around the
    // box, inside, or at the centre. Outside, the radius is chosen after the centre: the gap plus the depth.
    let out = |r: &mut SmallRng, k: usize| {
        // k coordinates pushed out of the box, the others inside.
        let mut p = DVec3::ZERO;
        let axes = {
            let mut a = [0, 1, 2];
            for j in 0..3 {
                a.swap(j, r.gen_range(j..3));
            }
            a
        };
        for (m, &j) in axes.iter().enumerate() {
            let sign = if r.gen_bool(0.5) { 1.0 } else { -1.0 };
            p[j] = if m < k { sign * (h[j] + uniform(r, 0.0, 0.5)) } else { uniform(r, -1.0, 1.0) * h[j] };
        }
        p
    };
    let p = match place {
        0 => out(r, 1),
        1 => out(r, 2),
        2 => out(r, 3),
        3 => in_cube3(r, 1.0) * (h + DVec3::splat(0.5)),
        4 => in_cube3(r, 1.0) * h,
        _ => DVec3::ZERO,
    };
    let gap = (p - p.clamp(-h, h)).length();
    let radius = if gap > 0.0 {
        let s = if place < 3 { shallow(r, h.length()) } else { uniform(r, 1e-3, 1.0) };
        gap + s
    } else {
        uniform(r, 0.05, 1.0)
    };
    let pb = Iso::new(unit_quat(r), pa.transform_point(p));
    (format!("sphere-box place={}", SB_PLACE[place]), Spec3::Cuboid(h), pa, Spec3::Ball(radius), pb)
}

const CAP_PLACE: [&str; 6] = ["overlap", "shallow", "parallel", "crossing", "collinear", "inside"];

fn gen_capsule_capsule(r: &mut SmallRng, i: usize) -> Gen3 {
    let place = i % 6;
    let (ha, ra) = (uniform(r, 0.0, 1.5), uniform(r, 0.05, 0.6));
    let hb = if place == 5 { ha * uniform(r, 0.0, 0.3) } else { uniform(r, 0.0, 1.5) };
    let qa = unit_quat(r);
    let qb = if matches!(place, 2 | 4) { qa } else { unit_quat(r) };
    let pa = Iso::new(qa, in_cube3(r, 1.0));
    let axis = qa * DVec3::Y;
    let tb = match place {
        0 | 1 => pa.translation + in_cube3(r, 1.5),
        2 => {
            let perp = (unit3(r) - axis * axis.dot(unit3(r))).normalize_or_zero();
            pa.translation + perp * uniform(r, 0.0, 1.0) + axis * uniform(r, -1.0, 1.0)
        }
        3 => pa.translation,
        4 => pa.translation + axis * uniform(r, -1.0, 1.0) * (ha + hb),
        _ => pa.translation + axis * uniform(r, -0.8, 0.8) * ha,
    };
    let pb = Iso::new(qb, tb);
    let (a0, a1) = capsule_segment(ha, &pa);
    let (b0, b1) = capsule_segment(hb, &pb);
    let (ca, cb) = segment_segment(a0, a1, b0, b1);
    let d = (cb - ca).length();
    let size_guess = (ha + ra).max(hb + 1.0);
    // The second radius makes them overlap: by a shallow depth, or by a random amount; inside, smaller than A's.
    let rb = match place {
        1 => d - ra + shallow(r, size_guess),
        5 => ra * uniform(r, 0.05, 0.5),
        _ => (d - ra).max(0.0) + uniform(r, 0.01, 0.6),
    }
    .max(1e-3);
    let rb = if d >= ra + rb { d - ra + shallow(r, size_guess) } else { rb };
    (format!("capsule-capsule place={}", CAP_PLACE[place]), Spec3::Capsule(ha, ra), pa, Spec3::Capsule(hb, rb), pb)
}

const ROT2: [&str; 4] = ["random", "identity", "quarter-turns", "same-angle"];

fn quarter2(k: usize) -> Rot2<f64> {
    let (c, s) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][k % 4];
    Rot2 { cos: c, sin: s }
}

fn overlapping2(r: &mut SmallRng, sa: &Spec2, pa: &Iso<DVec2>, sb: &Spec2, qb: Rot2<f64>) -> Iso<DVec2> {
    let reach = sa.size() + sb.size();
    loop {
        let pb = Iso::new(qb, pa.translation + in_square2(r, reach));
        if overlaps2(sa, pa, sb, &pb) {
            return pb;
        }
    }
}

fn to_depth2(sa: &Spec2, pa: &Iso<DVec2>, sb: &Spec2, pb: Iso<DVec2>, s: f64) -> Iso<DVec2> {
    let ex = exact_for2(sa, pa, sb, &pb);
    if ex.normal == DVec2::ZERO || ex.depth <= s {
        return pb;
    }
    moved(&pb, ex.normal * (ex.depth - s))
}

fn gen_box_box2(r: &mut SmallRng, i: usize) -> Gen2 {
    let (rot, place) = (i % 4, (i / 4) % 5);
    let ha = rand_vec2(r, 0.1, 1.5);
    let hb = if place == 3 { ha * rand_vec2(r, 0.05, 0.3) } else { rand_vec2(r, 0.1, 1.5) };
    let qa = if rot == 1 { Rot2 { cos: 1.0, sin: 0.0 } } else { Rot2::from_angle(angle(r)) };
    let qb = match rot {
        0 => Rot2::from_angle(angle(r)),
        1 => qa,
        2 => qa.compose(&quarter2(r.gen_range(0..4))),
        _ => qa,
    };
    let pa = Iso::new(qa, in_square2(r, 1.0));
    let (sa, sb) = (Spec2::Cuboid(ha), Spec2::Cuboid(hb));
    let size = ha.length().max(hb.length());
    let (aa, ab) = (box_axes2(&pa), box_axes2(&Iso::new(qb, DVec2::ZERO)));
    let ext = |k: usize| hb.x * aa[k].dot(ab[0]).abs() + hb.y * aa[k].dot(ab[1]).abs();
    let pb = match place {
        0 => overlapping2(r, &sa, &pa, &sb, qb),
        1 => {
            let k = r.gen_range(0..2);
            let sign = if r.gen_bool(0.5) { 1.0 } else { -1.0 };
            let s = shallow(r, size);
            let mut o = DVec2::ZERO;
            o[k] = sign * (ha[k] + ext(k) - s);
            o[1 - k] = uniform(r, -0.5, 0.5) * ha[1 - k];
            Iso::new(qb, pa.transform_point(o))
        }
        2 => {
            let pb = overlapping2(r, &sa, &pa, &sb, qb);
            to_depth2(&sa, &pa, &sb, pb, shallow(r, size))
        }
        3 => {
            let o = DVec2::new(
                uniform(r, -0.9, 0.9) * (ha.x - ext(0)).max(0.0),
                uniform(r, -0.9, 0.9) * (ha.y - ext(1)).max(0.0),
            );
            Iso::new(qb, pa.transform_point(o))
        }
        _ => Iso::new(qb, pa.translation),
    };
    (format!("box-box-2d rot={} place={}", ROT2[rot], PLACE[place]), sa, pa, sb, pb)
}

fn polygon_points(r: &mut SmallRng, n: usize) -> Vec<DVec2> {
    loop {
        let scale = rand_vec2(r, 0.3, 1.5);
        let pts: Vec<DVec2> = (0..n).map(|_| in_square2(r, 1.0) * scale).collect();
        let rf = ref_cloud2(&pts, &Iso::identity());
        let size = pts.iter().fold(0.0f64, |m, p| m.max(p.length()));
        // The pairs' perpendiculars include the edge normals, where the minimum width is attained.
        if !rf.faces.iter().any(|&f| rf.high(f) - rf.low(f) < 0.1 * size) {
            return pts;
        }
    }
}

fn gen_polygon_polygon2(r: &mut SmallRng, i: usize) -> Gen2 {
    let (rot, place) = (i % 3, (i / 3) % 5);
    let pts_a = polygon_points(r, 3 + i % 6);
    let centroid = |p: &[DVec2]| p.iter().fold(DVec2::ZERO, |s, q| s + *q) / p.len() as f64;
    let mut pts_b = if rot == 1 { pts_a.clone() } else { polygon_points(r, 3 + (i / 6) % 6) };
    if place == 3 {
        let c = centroid(&pts_b);
        pts_b = pts_b.iter().map(|p| (*p - c) * 0.15).collect();
    }
    let qa = Rot2::from_angle(angle(r));
    let qb = if rot == 1 { qa } else { Rot2::from_angle(angle(r)) };
    let pa = Iso::new(qa, in_square2(r, 1.0));
    let (sa, sb) = (Spec2::Polygon(pts_a.clone()), Spec2::Polygon(pts_b));
    let size = sa.size().max(sb.size());
    let pb = match place {
        0 => overlapping2(r, &sa, &pa, &sb, qb),
        1 | 2 => {
            let pb = overlapping2(r, &sa, &pa, &sb, qb);
            to_depth2(&sa, &pa, &sb, pb, shallow(r, size))
        }
        3 => Iso::new(qb, pa.transform_point(centroid(&pts_a))),
        _ => Iso::new(qb, pa.translation),
    };
    (format!("polygon-polygon-2d rot={} place={}", HULL_ROT[rot], PLACE[place]), sa, pa, sb, pb)
}

/// The i-th case of a generator, drawn again until the shapes overlap (a few constructions — B's centre over A's
/// face for rotated boxes, hulls whose points are off their local origin at the same pose — can miss).
fn overlapping_case3(r: &mut SmallRng, i: usize, gen: GenFn3) -> Case<DVec3> {
    loop {
        let (label, sa, pa, sb, pb) = gen(r, i);
        if overlaps3(&sa, &pa, &sb, &pb) {
            return case3(label, &sa, pa, &sb, pb);
        }
    }
}

fn overlapping_case2(r: &mut SmallRng, i: usize, gen: GenFn2) -> Case<DVec2> {
    loop {
        let (label, sa, pa, sb, pb) = gen(r, i);
        if overlaps2(&sa, &pa, &sb, &pb) {
            return case2(label, &sa, pa, &sb, pb);
        }
    }
}

fn run_family3(name: &str, seed: u64, pairs: usize, gen: GenFn3) {
    let mut st = Stats::new(name);
    let mut r = rng(seed);
    for i in 0..pairs {
        let c = overlapping_case3(&mut r, i, gen);
        check(&mut st, &c);
        if i % 16 == 0 {
            cross_check(&mut st, &c, &exact_cores3(&c.ra, &c.rb));
        }
    }
    st.finish();
}

fn run_family2(name: &str, seed: u64, pairs: usize, gen: GenFn2) {
    let mut st = Stats::new(name);
    let mut r = rng(seed);
    for i in 0..pairs {
        let c = overlapping_case2(&mut r, i, gen);
        check(&mut st, &c);
        if i % 16 == 0 {
            cross_check(&mut st, &c, &exact_generic2(&c.ra, &c.rb));
        }
    }
    st.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// 1. 3D families against exact references.

#[test]
fn hand_computed_answers() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    // Unit cubes overlapping by 0.1 along y (the smallest of the three overlaps 0.8, 0.1, 0.9).
    let p = penetration(&cube, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(0.2, 0.9, 0.1)));
    assert!((p.depth - 0.1).abs() < 1e-15, "{p:?}");
    assert!((p.normal - DVec3::Y).length() < 1e-15, "{p:?}");
    // Balls of radii 1 and 0.5 whose centres are 1.2 apart along −z: depth 0.3, normal −z, points on the balls.
    let (a, b) = (Ball::new(1.0).unwrap(), Ball::new(0.5).unwrap());
    let p = penetration(&a, &Iso::identity(), &b, &Iso::from_translation(DVec3::new(0.0, 0.0, -1.2)));
    assert!((p.depth - 0.3).abs() < 1e-15 && (p.normal + DVec3::Z).length() < 1e-15, "{p:?}");
    assert!((p.point_a - DVec3::new(0.0, 0.0, -1.0)).length() < 1e-15, "{p:?}");
    assert!((p.point_b - DVec3::new(0.0, 0.0, -0.7)).length() < 1e-15, "{p:?}");
    // A unit cube with a small box at its centre: the small box must leave through the nearest face of the
    // difference, half-extents 0.5 + (0.1, 0.2, 0.3): 0.6 along ±x.
    let small = Cuboid::new(DVec3::new(0.1, 0.2, 0.3)).unwrap();
    let p = penetration(&cube, &Iso::identity(), &small, &Iso::identity());
    assert!((p.depth - 0.6).abs() < 1e-15 && p.normal.x.abs() > 1.0 - 1e-15, "{p:?}");
    // Crossing capsule cores (flat difference): depth = the sum of the radii, normal along the cross product.
    let cap = Capsule::new(1.0, 0.25).unwrap();
    let turned = Iso::new(DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2), DVec3::ZERO);
    let p = penetration(&cap, &Iso::identity(), &cap, &turned);
    assert!((p.depth - 0.5).abs() < 1e-15 && p.normal.x.abs() > 1.0 - 1e-12, "{p:?}");
}

#[test]
fn box_box_3d_against_15_axis_sat() {
    run_family3("box-box 3D (15-axis SAT)", 0x9e01, PAIRS_3D, gen_box_box3);
}

#[test]
fn hull_hull_3d_against_brute_force_facet_normals() {
    run_family3("hull-hull 3D (brute-force facets)", 0x9e02, PAIRS_3D, gen_hull_hull3);
}

#[test]
fn sphere_sphere_closed_form() {
    run_family3("sphere-sphere", 0x9e03, PAIRS_3D, gen_sphere_sphere);
}

#[test]
fn sphere_box_closed_form() {
    run_family3("sphere-box", 0x9e04, PAIRS_3D, gen_sphere_box);
}

#[test]
fn capsule_capsule_closed_form() {
    run_family3("capsule-capsule", 0x9e05, PAIRS_3D, gen_capsule_capsule);
}

/// The documented invariant `point_b − point_a = distance · normal` (1e-9·size), on minimal reproductions and on
/// 1,000 pairs of every family. The family tests above count its violations without failing on them (so that they
/// keep guarding depth, normal and witnesses); this test fails on them.
///
/// It fails at present, for two reasons (both leave the depth and the normal exact, and each point on its own
/// supporting plane, but not the two points facing each other along the normal):
/// * EPA's nearest face is chosen by its plane's distance alone; when a facet of A − B is split into coplanar
///   triangles (edges in 2D) their distances tie to rounding, and the one picked may not contain the origin's
///   projection. The witnesses then come from the face's point nearest the origin, one of its vertices or edges,
///   off the projection by up to the facet's size.
/// * When A − B is a segment through the origin (collinear capsule cores, a ball centred on a capsule's axis,
///   identical segments), the flat answer keeps the first vertex of the segment as its witness instead of the
///   segment's point nearest the origin.
#[test]
fn witness_points_are_a_matched_pair() {
    let mut st = Stats::new("witness pairs (point_b − point_a = distance·normal)");
    st.strict_relation = true;
    let at = |x: f64, y: f64, z: f64| Iso::from_translation(DVec3::new(x, y, z));
    let id3 = Iso::<DVec3>::identity();
    let repros3 = [
        (
            "repro: unit-ish cubes, same centre",
            Spec3::Cuboid(DVec3::splat(0.1)),
            id3,
            Spec3::Cuboid(DVec3::new(0.1, 0.3, 0.2)),
            id3,
        ),
        ("repro: collinear capsules", Spec3::Capsule(1.0, 0.25), id3, Spec3::Capsule(0.5, 0.25), at(0.0, 0.3, 0.0)),
        ("repro: ball at a capsule's centre", Spec3::Ball(0.5), id3, Spec3::Capsule(1.0, 0.25), id3),
        ("repro: identical capsules, identical poses", Spec3::Capsule(0.5, 0.1), id3, Spec3::Capsule(0.5, 0.1), id3),
    ];
    for (label, sa, pa, sb, pb) in repros3 {
        check(&mut st, &case3(label.to_string(), &sa, pa, &sb, pb));
    }
    let id2 = Iso::<DVec2>::identity();
    let (a2, b2) = (Spec2::Cuboid(DVec2::new(0.5, 0.7)), Spec2::Cuboid(DVec2::new(0.5, 0.4)));
    check(&mut st, &case2("repro: 2D boxes, same centre".to_string(), &a2, id2, &b2, id2));
    let mut r = rng(0x9e61);
    let gens3: [GenFn3; 5] = [gen_box_box3, gen_hull_hull3, gen_sphere_sphere, gen_sphere_box, gen_capsule_capsule];
    for gen in gens3 {
        for i in 0..1_000 {
            check(&mut st, &overlapping_case3(&mut r, i, gen));
        }
    }
    let gens2: [GenFn2; 2] = [gen_box_box2, gen_polygon_polygon2];
    for gen in gens2 {
        for i in 0..1_000 {
            check(&mut st, &overlapping_case2(&mut r, i, gen));
        }
    }
    st.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// 2. 2D families.

#[test]
fn box_box_2d_against_4_axis_sat() {
    run_family2("box-box 2D (4-axis SAT)", 0x9e21, PAIRS_2D, gen_box_box2);
}

#[test]
fn polygon_polygon_2d_against_edge_normals() {
    run_family2("polygon-polygon 2D (brute-force edges)", 0x9e22, PAIRS_2D, gen_polygon_polygon2);
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Differential against parry3d-f64's `query::contact`.

/// Agreement with parry: its GJK/EPA stop on their own tolerances (and its cuboid–cuboid is a SAT of its own),
/// so a depth within 1e-7 of ours (relative to size) is an agreement; beyond, the exact reference referees.
const PARRY_AGREE: f64 = 1e-7;

#[derive(Default)]
struct ParryStats {
    pairs: usize,
    disagreements: usize,
    ours_wrong: usize,
    parry_wrong: usize,
    undecided: usize,
    parry_none: usize,
    max_parry_err: f64,
    parry_normal_off: usize,
    parry_wrong_by_place: BTreeMap<&'static str, usize>,
    example: Option<String>,
}

fn random_spec(r: &mut SmallRng, kind: usize) -> Spec3 {
    match kind {
        0 => Spec3::Ball(uniform(r, 0.1, 1.5)),
        1 => Spec3::Cuboid(rand_vec3(r, 0.1, 1.5)),
        2 => Spec3::Capsule(uniform(r, 0.0, 1.2), uniform(r, 0.05, 0.6)),
        _ => {
            let n = 4 + r.gen_range(0..5);
            Spec3::Hull(hull_points(r, n))
        }
    }
}

#[test]
fn parry3d_contact_differential() {
    const KINDS: [&str; 4] = ["ball", "cuboid", "capsule", "hull"];
    const PER_COMBINATION: usize = 1_000;
    const PLACES: [&str; 4] = ["overlap", "shallow", "deep", "same-centre"];
    let mut st = Stats::new("parry-shared families (ours vs exact)");
    let mut table: BTreeMap<String, ParryStats> = BTreeMap::new();
    let mut r = rng(0x9e31);
    for (ka, kind_a) in KINDS.iter().enumerate() {
        for (kb, kind_b) in KINDS.iter().enumerate().skip(ka) {
            let key = format!("{kind_a}-{kind_b}");
            let ps = table.entry(key.clone()).or_default();
            for i in 0..PER_COMBINATION {
                let (sa, sb) = (random_spec(&mut r, ka), random_spec(&mut r, kb));
                let pa = Iso::new(unit_quat(&mut r), in_cube3(&mut r, 1.0));
                let qb = unit_quat(&mut r);
                let size = sa.size().max(sb.size());
                let place = i % 4;
                let pb = match place {
                    0 => overlapping3(&mut r, &sa, &pa, &sb, qb),
                    1 => {
                        let pb = overlapping3(&mut r, &sa, &pa, &sb, qb);
                        to_depth3(&sa, &pa, &sb, pb, shallow(&mut r, size))
                    }
                    2 => Iso::new(qb, pa.translation + in_cube3(&mut r, 0.1 * size)),
                    _ => Iso::new(qb, pa.translation),
                };
                let c = case3(format!("{key} place={}", PLACES[place]), &sa, pa, &sb, pb);
                if !(c.ex.depth > 0.0) {
                    continue;
                }
                let ours = check(&mut st, &c);
                let (Some(qa), Some(qb)) = (sa.parry(), sb.parry()) else { continue };
                ps.pairs += 1;
                let theirs = match parry3d_f64::query::contact(&parry_pose3(&pa), &*qa, &parry_pose3(&pb), &*qb, 0.0) {
                    Ok(Some(ct)) => ct,
                    Ok(None) => {
                        ps.parry_none += 1;
                        continue;
                    }
                    Err(e) => panic!("parry does not support {key}: {e:?}"),
                };
                let parry_depth = -theirs.dist;
                let parry_err = (parry_depth - c.ex.depth).abs() / size;
                let our_err = (ours.depth - c.ex.depth).abs() / size;
                ps.max_parry_err = ps.max_parry_err.max(parry_err);
                let n1 = DVec3::new(theirs.normal1.x, theirs.normal1.y, theirs.normal1.z);
                if let Some(tol) = normal_tol(&c.ex, h_diff(&c.ra, &c.rb, n1) - c.ex.depth, size) {
                    if angle_between(n1, c.ex.normal) > tol.max(1e-6) {
                        ps.parry_normal_off += 1;
                    }
                }
                if (ours.depth - parry_depth).abs() > PARRY_AGREE * size {
                    ps.disagreements += 1;
                    if our_err > REL_DEPTH {
                        ps.ours_wrong += 1;
                    } else if parry_err > PARRY_AGREE / 2.0 {
                        ps.parry_wrong += 1;
                        *ps.parry_wrong_by_place.entry(PLACES[place]).or_default() += 1;
                        if ps.example.is_none() {
                            ps.example = Some(format!(
                                "{}: exact {:e}, ours {:e}, parry {:e}\n    {}",
                                c.label,
                                c.ex.depth,
                                ours.depth,
                                parry_depth,
                                c.desc.replace('\n', "\n  ")
                            ));
                        }
                    } else {
                        ps.undecided += 1;
                    }
                }
            }
        }
    }
    for (key, ps) in &table {
        println!(
            "parry {key}: {} pairs, {} depth disagreements > {PARRY_AGREE:e}·size (ours wrong {}, parry wrong {}, \
             undecided {}); parry returned no contact {} times; parry max |depth − exact|/size {:.2e}; parry normal \
             off the unique exact one (> max(tol, 1e-6) rad) {} times",
            ps.pairs,
            ps.disagreements,
            ps.ours_wrong,
            ps.parry_wrong,
            ps.undecided,
            ps.parry_none,
            ps.max_parry_err,
            ps.parry_normal_off
        );
        if ps.parry_wrong > 0 {
            println!("  parry wrong by placement: {:?}", ps.parry_wrong_by_place);
        }
        if let Some(e) = &ps.example {
            println!("  first case where parry is wrong: {e}");
        }
    }
    // We fail only where we are wrong against the exact reference (the checks of `verify`, which include the
    // depth to 1e-9·size).
    let ours_wrong: usize = table.values().map(|p| p.ours_wrong).sum();
    st.finish();
    assert_eq!(ours_wrong, 0);
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Properties: swapping A and B, and a common rigid motion (also 1e4 and 1e6 from the origin).

/// Where the exact normal is this well determined (relative to size), it must survive the motions to 1e-7 rad:
/// far from the origin each pose's translation is rounded to ulp(|T|)/2 per coordinate, moving B relative to A
/// by up to √3·ulp(|T|) (2.0e-10 at |T| = 1e6·√3, so ≤ 4e-10 for both); a facet normal moves by that over the
/// facet's width (≥ this margin) and a curved one over the core distance (this margin): ≤ 4e-8 rad.
const INVARIANT_COND: f64 = 1e-2;

#[derive(Default)]
struct PropStats {
    pairs: usize,
    max_swap_depth: f64,
    max_swap_angle: f64,
    swapped_points: usize,
    max_motion_depth: [f64; 3],
    max_motion_angle: [f64; 3],
}

fn properties<V: Space>(st: &mut Stats, ps: &mut PropStats, c: &Case<V>, motions: &[Iso<V>; 3]) {
    ps.pairs += 1;
    let size = c.size;
    let p = check(st, c);
    let s = c.swapped();
    let q = check(st, &s);
    let fail = |st: &mut Stats, kind: &str, what: String| {
        st.fail(kind, &c.label, format!("{}: {kind}: {what}\n  {}\n  got {p:?}\n  swapped {q:?}", c.label, c.desc))
    };
    // Swap: same depth, opposite normal, swapped points (the last where both points are determined: each shape's
    // support along the exact normal a single vertex).
    let dd = (p.depth - q.depth).abs() / size;
    ps.max_swap_depth = ps.max_swap_depth.max(dd);
    if dd > REL_DEPTH {
        fail(st, "swap changes the depth", format!("by {dd:.3e}·size"));
    }
    let excess = |x: &Penetration<V>, a: &Ref<V>, b: &Ref<V>| h_diff(a, b, x.normal) - c.ex.depth;
    if let (Some(tp), Some(tq)) =
        (normal_tol(&c.ex, excess(&p, &c.ra, &c.rb), size), normal_tol(&s.ex, excess(&q, &s.ra, &s.rb), size))
    {
        let a = angle_between(q.normal, -p.normal);
        ps.max_swap_angle = ps.max_swap_angle.max(a);
        if a > tp + tq {
            fail(
                st,
                "swap does not negate the normal",
                format!("{a:.3e} rad from −normal (tolerance {:.3e})", tp + tq),
            );
        }
        let margin = UNIQUE * size;
        if unique_extreme(&c.ra.pts, c.ex.normal, margin).is_some()
            && unique_extreme(&c.rb.pts, -c.ex.normal, margin).is_some()
        {
            ps.swapped_points += 1;
            let off = (q.point_a - p.point_b).length().max((q.point_b - p.point_a).length()) / size;
            if off > 2.0 * REL_DEPTH {
                fail(st, "swap does not swap the points", format!("by {off:.3e}·size"));
            }
        }
    }
    // A common rigid motion.
    for (k, m) in motions.iter().enumerate() {
        let (ma, mb) = (m.compose(&c.pa), m.compose(&c.pb));
        let r = penetration(&*c.a, &ma, &*c.b, &mb);
        let far = m.translation.length();
        let tol = REL_DEPTH * size + 8.0 * f64::EPSILON * far;
        let dd = (r.depth - p.depth).abs();
        ps.max_motion_depth[k] = ps.max_motion_depth[k].max(dd / size);
        if !(dd <= tol) {
            let what = format!("by {dd:.3e} under {m:?} (tolerance {tol:.3e}); moved answer {r:?}");
            fail(st, "a rigid motion changes the depth", what);
        }
        if c.ex.cond >= INVARIANT_COND * size {
            let a = angle_between(r.normal, m.transform_vector(p.normal));
            ps.max_motion_angle[k] = ps.max_motion_angle[k].max(a);
            if !(a <= 1e-7) {
                fail(st, "a rigid motion turns the normal", format!("by {a:.3e} rad under {m:?}; moved answer {r:?}"));
            }
        }
    }
}

#[test]
fn swap_and_rigid_motion_invariance() {
    const PAIRS: usize = 400;
    let mut r = rng(0x9e41);
    let mut st = Stats::new("swap/motion pairs (ours vs exact, both orders)");
    let mut ps = PropStats::default();
    let gens3: [GenFn3; 5] = [gen_box_box3, gen_hull_hull3, gen_sphere_sphere, gen_sphere_box, gen_capsule_capsule];
    for gen in gens3 {
        for i in 0..PAIRS {
            let c = overlapping_case3(&mut r, i, gen);
            let motions = [
                Iso::new(unit_quat(&mut r), in_cube3(&mut r, 10.0)),
                Iso::new(unit_quat(&mut r), unit3(&mut r) * 1e4),
                Iso::new(unit_quat(&mut r), unit3(&mut r) * 1e6),
            ];
            properties(&mut st, &mut ps, &c, &motions);
        }
    }
    let gens2: [GenFn2; 2] = [gen_box_box2, gen_polygon_polygon2];
    for gen in gens2 {
        for i in 0..PAIRS {
            let c = overlapping_case2(&mut r, i, gen);
            let motions = [
                Iso::new(Rot2::from_angle(angle(&mut r)), in_square2(&mut r, 10.0)),
                Iso::new(Rot2::from_angle(angle(&mut r)), unit2(&mut r) * 1e4),
                Iso::new(Rot2::from_angle(angle(&mut r)), unit2(&mut r) * 1e6),
            ];
            properties(&mut st, &mut ps, &c, &motions);
        }
    }
    println!(
        "swap/motion: {} pairs; swap: max depth difference {:.2e}·size, max angle(n_BA, −n_AB) {:.2e} rad, {} point \
         pairs compared; motions (near, 1e4, 1e6): max depth change {:.2e} / {:.2e} / {:.2e}·size, max normal turn \
         {:.2e} / {:.2e} / {:.2e} rad",
        ps.pairs,
        ps.max_swap_depth,
        ps.max_swap_angle,
        ps.swapped_points,
        ps.max_motion_depth[0],
        ps.max_motion_depth[1],
        ps.max_motion_depth[2],
        ps.max_motion_angle[0],
        ps.max_motion_angle[1],
        ps.max_motion_angle[2],
    );
    st.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Robustness over degenerate configurations (proptest, fixed seed, no persistence files).

fn config(cases: u32, seed: u64) -> Config {
    Config { cases, failure_persistence: None, rng_seed: RngSeed::Fixed(seed), ..Config::default() }
}

/// A degenerate (or not) 3D shape.
#[derive(Clone, Debug)]
enum Degen {
    /// A cloud: its hull may be a point, a segment, a polygon, a needle, a 1e-9 slab or a solid; rounded by the
    /// radius when it is positive.
    Cloud(&'static str, Vec<DVec3>, f64),
    Cuboid(DVec3),
    Ball(f64),
    Capsule(f64, f64),
    Segment(DVec3, DVec3),
    Point(DVec3),
}

impl Degen {
    fn shape(&self) -> Arc<dyn SupportMap<DVec3>> {
        match self {
            Degen::Cloud(kind, p, r) => {
                // Every cloud here is finite and non-empty: a construction error names the kind of cloud.
                let hull = ConvexPolytope::new(p).unwrap_or_else(|e| panic!("{kind} cloud: {e}"));
                if *r > 0.0 {
                    Arc::new(Rounded::new(hull, *r).unwrap())
                } else {
                    Arc::new(hull)
                }
            }
            Degen::Cuboid(h) => Arc::new(Cuboid::new(*h).unwrap()),
            Degen::Ball(r) => Arc::new(Ball::new(*r).unwrap()),
            Degen::Capsule(hh, r) => Arc::new(Capsule::new(*hh, *r).unwrap()),
            Degen::Segment(a, b) => Arc::new(Segment::new(*a, *b).unwrap()),
            Degen::Point(p) => Arc::new(Point::new(*p).unwrap()),
        }
    }
    fn reference(&self, pose: &Iso<DVec3>) -> Ref<DVec3> {
        match self {
            Degen::Cloud(_, p, r) => ref_cloud3(p, pose, *r),
            Degen::Cuboid(h) => ref_cuboid3(*h, pose),
            Degen::Ball(r) => ref_cloud3(&[DVec3::ZERO], pose, *r),
            Degen::Capsule(hh, r) => ref_cloud3(&[DVec3::new(0.0, -hh, 0.0), DVec3::new(0.0, *hh, 0.0)], pose, *r),
            Degen::Segment(a, b) => ref_cloud3(&[*a, *b], pose, 0.0),
            Degen::Point(p) => ref_cloud3(&[*p], pose, 0.0),
        }
    }
    fn size(&self) -> f64 {
        match self {
            Degen::Cloud(_, p, r) => p.iter().fold(0.0f64, |m, q| m.max(q.length())) + r,
            Degen::Cuboid(h) => h.length(),
            Degen::Ball(r) => *r,
            Degen::Capsule(hh, r) => hh + r,
            Degen::Segment(a, b) => a.length().max(b.length()),
            Degen::Point(p) => p.length(),
        }
    }
}

fn coord() -> impl Strategy<Value = f64> {
    -1.0..1.0f64
}

fn v3() -> impl Strategy<Value = DVec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

fn cloud() -> impl Strategy<Value = (&'static str, Vec<DVec3>)> {
    use proptest::collection::vec;
    prop_oneof![
        v3().prop_map(|p| ("single point", vec![p])),
        (v3(), 2..6usize).prop_map(|(p, n)| ("duplicated point", vec![p; n])),
        (v3(), v3(), vec(coord(), 2..6)).prop_map(|(p, d, ts)| ("collinear", ts.iter().map(|t| p + d * *t).collect())),
        (vec((coord(), coord()), 3..8), coord())
            .prop_map(|(xy, z)| ("coplanar", xy.iter().map(|&(x, y)| DVec3::new(x, y, z)).collect())),
        vec((coord(), coord()), 3..8).prop_map(|xy| (
            "slab 1e-9",
            xy.iter().enumerate().map(|(i, &(x, y))| DVec3::new(x, y, if i % 2 == 0 { 0.0 } else { 1e-9 })).collect()
        )),
        (v3(), v3()).prop_map(|(p, d)| (
            "needle",
            vec![p - d, p + d, p + DVec3::new(1e-9, 0.0, 0.0), p + DVec3::new(0.0, 1e-9, 1e-9)]
        )),
        (v3(), v3(), v3()).prop_map(|(a, b, c)| ("triangle with duplicates", vec![a, b, c, a, b])),
        vec(v3(), 4..9).prop_map(|p| ("solid", p)),
    ]
}

fn extent() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1e-9), 0.01..1.0f64]
}

fn degen() -> impl Strategy<Value = Degen> {
    prop_oneof![
        3 => (cloud(), prop_oneof![Just(0.0), Just(0.0), 0.0..0.3f64]).prop_map(|((k, p), r)| Degen::Cloud(k, p, r)),
        2 => (extent(), extent(), extent()).prop_map(|(x, y, z)| Degen::Cuboid(DVec3::new(x, y, z))),
        1 => prop_oneof![Just(0.0), 0.01..1.0f64].prop_map(Degen::Ball),
        1 => (prop_oneof![Just(0.0), 0.0..1.0f64], prop_oneof![Just(0.0), 1e-9..0.5f64])
            .prop_map(|(h, r)| Degen::Capsule(h, r)),
        1 => (v3(), v3()).prop_map(|(a, b)| Degen::Segment(a, b)),
        1 => v3().prop_map(Degen::Point),
    ]
}

fn quat() -> impl Strategy<Value = DQuat> {
    prop_oneof![
        Just(DQuat::IDENTITY),
        Just(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4)),
        Just(DQuat::from_axis_angle(DVec3::new(1.0, 1.0, 0.0).normalize(), 0.955_316_618_124_509_2)),
        (coord(), coord(), coord(), coord()).prop_map(|(x, y, z, w)| {
            let q = DQuat::from_xyzw(x, y, z, w);
            if q.length() > 1e-3 {
                q.normalize()
            } else {
                DQuat::IDENTITY
            }
        }),
    ]
}

/// How B is placed relative to A.
#[derive(Clone, Debug)]
enum Place {
    /// The same pose as A.
    Identical,
    /// A's translation plus an offset.
    Offset(DVec3),
    /// Touching along a world direction (face, edge or vertex contact depending on the rotations), then moved by
    /// the jitter along it.
    Touch(DVec3, f64),
}

fn place() -> impl Strategy<Value = Place> {
    let dir = prop_oneof![
        Just(DVec3::X),
        Just(DVec3::NEG_Y),
        Just(DVec3::Z),
        Just(DVec3::new(1.0, 1.0, 0.0).normalize()),
        Just(DVec3::ONE.normalize()),
        v3().prop_map(|v| v.try_normalize().unwrap_or(DVec3::X)),
    ];
    prop_oneof![
        1 => Just(Place::Identical),
        2 => v3().prop_map(Place::Offset),
        3 => (dir, prop_oneof![Just(0.0), Just(1e-12), Just(-1e-12), Just(-1e-9)]).prop_map(|(d, j)| Place::Touch(d, j)),
    ]
}

/// The world point of `s` at `pose` farthest along the world direction `d` (radius included).
fn world_support(s: &dyn SupportMap<DVec3>, pose: &Iso<DVec3>, d: DVec3) -> DVec3 {
    pose.transform_point(support_full(s, pose.inverse_transform_vector(d)))
}

fn place_b(
    a: &dyn SupportMap<DVec3>,
    pa: &Iso<DVec3>,
    b: &dyn SupportMap<DVec3>,
    qb: DQuat,
    how: &Place,
) -> Iso<DVec3> {
    match how {
        Place::Identical => *pa,
        Place::Offset(o) => Iso::new(qb, pa.translation + *o),
        Place::Touch(d, jitter) => {
            let high_a = d.dot(world_support(a, pa, *d));
            let low_b = d.dot(world_support(b, &Iso::new(qb, DVec3::ZERO), -*d));
            Iso::new(qb, *d * (high_a - low_b + jitter))
        }
    }
}

/// What a robustness property checks: `Basic` — no panic, finite output, non-negative depth, unit normal, a
/// status, depth = max(0, −distance), finite manifolds; `Accurate` — also the signed distance's sign and value.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Basic,
    Accurate,
}

fn robustness_3d(
    sa: &Degen,
    sb: &Degen,
    (qa, ta, qb): (DQuat, DVec3, DQuat),
    how: &Place,
    level: Level,
) -> Result<(), TestCaseError> {
    let (a, b) = (sa.shape(), sb.shape());
    let pa = Iso::new(qa, ta);
    let pb = place_b(&*a, &pa, &*b, qb, how);
    let p = penetration(&*a, &pa, &*b, &pb);
    let ctx = || format!("A = {sa:?} at {pa:?}\nB = {sb:?} at {pb:?}\ngot {p:?}");
    prop_assert!(
        p.depth.is_finite()
            && p.distance.is_finite()
            && p.error_bound.is_finite()
            && p.normal.is_finite()
            && p.point_a.is_finite()
            && p.point_b.is_finite(),
        "non-finite output\n{}",
        ctx()
    );
    prop_assert!(p.depth >= 0.0, "negative depth\n{}", ctx());
    prop_assert!((p.normal.length() - 1.0).abs() <= 1e-12, "normal not unit\n{}", ctx());
    prop_assert!(p.status != Status::AboveBound, "AboveBound from a query with no bound\n{}", ctx());
    prop_assert!(p.depth == (-p.distance).max(0.0), "depth != max(0, −distance)\n{}", ctx());
    let size = sa.size().max(sb.size()).max(1e-3);
    // point_b − point_a = distance·normal is not asserted here: it fails on flat differences (a known defect pinned
    // by `witness_points_are_a_matched_pair`) and would hide everything else from the search.
    if level == Level::Accurate {
        // Overlapping (or touching) means a signed distance ≤ 0, up to GJK's touching tolerance (64 ulps).
        prop_assert!(!p.intersecting || p.distance <= 1e-12 * size, "intersecting with a positive distance\n{}", ctx());
        // The signed depth against the exact reference (which handles any point cloud, flat or not): the answer is
        // a lower bound and the answer plus error_bound an upper bound (up to 1e-9·size: on slivers 1e-9 thick the
        // faces' normals carry eps/1e-9 of rounding); a Converged answer is within 1e-9·size.
        let ex = exact_cores3(&sa.reference(&pa), &sb.reference(&pb));
        let got = -p.distance;
        prop_assert!(
            got - 1e-9 * size <= ex.depth && ex.depth <= got + p.error_bound + 1e-9 * size,
            "exact signed depth {:e} outside [{got:e}, {got:e} + error_bound]\n{}",
            ex.depth,
            ctx()
        );
        if p.status == Status::Converged {
            let err = (got - ex.depth).abs();
            prop_assert!(err <= 1e-9 * size, "Converged, but signed depth {got:e} vs exact {:e}\n{}", ex.depth, ctx());
        }
    }
    // Contact manifolds on the same input: no panic, finite output.
    for prediction in [0.0, 0.05] {
        let m = contact_manifold(&*a, &pa, &*b, &pb, prediction);
        prop_assert!(m.len <= 4 && m.normal.is_finite() && m.distance.is_finite(), "manifold {m:?}\n{}", ctx());
        for k in m.contacts() {
            prop_assert!(
                k.point_a.is_finite() && k.point_b.is_finite() && k.depth.is_finite(),
                "manifold contact {k:?}\n{}",
                ctx()
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(768, 0x9e51))]

    #[test]
    fn degenerate_3d_never_panics_nor_returns_nan(
        sa in degen(),
        sb in degen(),
        qa in quat(),
        ta in v3(),
        qb in quat(),
        how in place(),
    ) {
        robustness_3d(&sa, &sb, (qa, ta, qb), &how, Level::Basic)?;
    }

    #[test]
    fn degenerate_3d_signed_distance_is_exact(
        sa in degen(),
        sb in degen(),
        qa in quat(),
        ta in v3(),
        qb in quat(),
        how in place(),
    ) {
        robustness_3d(&sa, &sb, (qa, ta, qb), &how, Level::Accurate)?;
    }

    #[test]
    fn identical_degenerate_shapes_at_identical_poses_never_panic(s in degen(), q in quat(), t in v3()) {
        robustness_3d(&s, &s, (q, t, q), &Place::Identical, Level::Basic)?;
    }

    #[test]
    fn identical_degenerate_shapes_at_identical_poses_signed_distance_is_exact(s in degen(), q in quat(), t in v3()) {
        robustness_3d(&s, &s, (q, t, q), &Place::Identical, Level::Accurate)?;
    }
}

/// Checks (i) intersecting ⇒ distance ≤ 0 (up to 1e-12·size), (ii) the exact signed depth lies in
/// [−distance, −distance + error_bound] (up to 1e-12·size), (iii) a Converged answer is within 1e-9·size.
fn thin_case_errors(p: &Penetration<DVec3>, exact: f64, size: f64) -> Vec<&'static str> {
    let got = -p.distance;
    let mut e = Vec::new();
    if p.intersecting && p.distance > 1e-12 * size {
        e.push("intersecting with a positive distance");
    }
    if !(got - 1e-12 * size <= exact && exact <= got + p.error_bound + 1e-12 * size) {
        e.push("exact signed depth outside [−distance, −distance + error_bound]");
    }
    if p.status == Status::Converged && !((got - exact).abs() <= REL_DEPTH * size) {
        e.push("Converged but off the exact signed depth by more than 1e-9·size");
    }
    e
}

/// Thin configurations found by the `*_signed_distance_is_exact` proptests, pinned deterministically. Fails at
/// present:
/// * identical slabs 2e-9 thick (half-extent 1e-9) at identical random poses: in about a quarter of them GJK stalls
///   on the cores — its first vertex is the point of A − B 2e-9 from the origin on the slab's face, and each new
///   support point shortens v by ~1e-18, no progress in f64 — with its lower bound still 0 (nothing proven), and
///   the penetration query takes the stall for "cores apart": not intersecting, distance +2e-9, error_bound 2e-9,
///   where the exact depth is 2e-9. (Slabs 1e-8 thick and more, and a 1e-9 slab against a box, are all right.)
/// * a segment lying inside a needle box 2e-9 wide, along its axis: the same stall at 7e-10, answered as apart.
/// * a needle hull (two dimensions ~1e-9) against itself at the same pose: EPA's nearest face comes out 8.3e-9
///   on the wrong side of the origin (rounding in a needle-thin A − B), and the query answers intersecting with a
///   positive distance, with status Converged and an error_bound of 9.4e-9.
#[test]
fn thin_slabs_and_needles_overlapping() {
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    let mut first: Vec<String> = Vec::new();
    let mut record = |what: &str, p: &Penetration<DVec3>, exact: f64, size: f64, desc: String| {
        for e in thin_case_errors(p, exact, size) {
            *failures.entry(format!("{e} — {what}")).or_default() += 1;
            if first.len() < 3 {
                first.push(format!("{what}: {e}; exact {exact:e}\n  {desc}\n  got {p:?}"));
            }
        }
    };
    let mut r = rng(0x9e71);
    const SLABS: usize = 500;
    for _ in 0..SLABS {
        let h = DVec3::new(1e-9, uniform(&mut r, 0.1, 1.0), uniform(&mut r, 0.1, 1.0));
        let pose = Iso::new(unit_quat(&mut r), in_cube3(&mut r, 1.0));
        let slab = Cuboid::new(h).unwrap();
        let p = penetration(&slab, &pose, &slab, &pose);
        // A − A is the box of half-extents 2h: the depth is 2e-9.
        record("identical 1e-9 slabs at identical poses", &p, 2e-9, h.length(), format!("{h:?} at {pose:?}"));
    }
    let needle = Cuboid::new(DVec3::new(1e-9, 0.23998201921936033, 1e-9)).unwrap();
    let seg = Capsule::new(0.48684290286795456, 0.0).unwrap();
    let p = penetration(&needle, &Iso::identity(), &seg, &Iso::identity());
    // The segment runs along the needle's axis: it leaves sideways, 1e-9.
    record("segment along a 2e-9-wide needle box", &p, 1e-9, 0.48684290286795456, format!("{needle:?}, {seg:?}"));
    let pts = [
        DVec3::new(-0.11894316683866946, 0.979951070155322, -0.05730345555677624),
        DVec3::new(0.11894316683866946, -0.3308465276710963, 0.05730345555677624),
        DVec3::new(1e-9, 0.3245522712421129, 0.0),
        DVec3::new(0.0, 0.3245522722421129, 1e-9),
    ];
    let hull = ConvexPolytope::new(&pts).unwrap();
    let p = penetration(&hull, &Iso::identity(), &hull, &Iso::identity());
    let exact = exact_cores3(&ref_cloud3(&pts, &Iso::identity(), 0.0), &ref_cloud3(&pts, &Iso::identity(), 0.0)).depth;
    record("needle hull against itself", &p, exact, 1.0, format!("hull of {pts:?}"));
    println!("thin configurations: {SLABS} identical slabs + 2 needles; failed checks: {failures:?}");
    for f in &first {
        println!("{f}");
    }
    assert!(failures.is_empty(), "thin configurations: {failures:?}");
}

/// 2D degenerate polygons: a point, duplicates, collinear points, a 1e-9 sliver, a general polygon; and flat or
/// needle rectangles.
#[derive(Clone, Debug)]
enum Degen2 {
    Cloud(&'static str, Vec<DVec2>),
    Cuboid(DVec2),
}

impl Degen2 {
    fn shape(&self) -> Arc<dyn SupportMap<DVec2>> {
        match self {
            Degen2::Cloud(kind, p) => Arc::new(ConvexPolytope::new(p).unwrap_or_else(|e| panic!("{kind} cloud: {e}"))),
            Degen2::Cuboid(h) => Arc::new(Cuboid::new(*h).unwrap()),
        }
    }
    fn reference(&self, pose: &Iso<DVec2>) -> Ref<DVec2> {
        match self {
            Degen2::Cloud(_, p) => ref_cloud2(p, pose),
            Degen2::Cuboid(h) => ref_cuboid2(*h, pose),
        }
    }
    fn size(&self) -> f64 {
        match self {
            Degen2::Cloud(_, p) => p.iter().fold(0.0f64, |m, q| m.max(q.length())),
            Degen2::Cuboid(h) => h.length(),
        }
    }
}

fn v2() -> impl Strategy<Value = DVec2> {
    (coord(), coord()).prop_map(|(x, y)| DVec2::new(x, y))
}

fn degen2() -> impl Strategy<Value = Degen2> {
    use proptest::collection::vec;
    prop_oneof![
        v2().prop_map(|p| Degen2::Cloud("single point", vec![p])),
        (v2(), 2..5usize).prop_map(|(p, n)| Degen2::Cloud("duplicated point", vec![p; n])),
        (v2(), v2(), vec(coord(), 2..6))
            .prop_map(|(p, d, ts)| Degen2::Cloud("collinear", ts.iter().map(|t| p + d * *t).collect())),
        (v2(), v2()).prop_map(|(p, d)| Degen2::Cloud("sliver 1e-9", vec![p - d, p + d, p + d.perp() * 1e-9])),
        vec(v2(), 3..8).prop_map(|p| Degen2::Cloud("general", p)),
        (extent(), extent()).prop_map(|(x, y)| Degen2::Cuboid(DVec2::new(x, y))),
    ]
}

proptest! {
    #![proptest_config(config(512, 0x9e52))]

    #[test]
    fn degenerate_2d_never_panics_nor_returns_nan(
        sa in degen2(),
        sb in degen2(),
        ang_a in -3.2..3.2f64,
        ang_b in prop_oneof![Just(0.0), Just(std::f64::consts::FRAC_PI_2), -3.2..3.2f64],
        offset in prop_oneof![Just(DVec2::ZERO), v2()],
    ) {
        let (a, b) = (sa.shape(), sb.shape());
        let pa = Iso::new(Rot2::from_angle(ang_a), DVec2::new(0.25, -0.5));
        let pb = Iso::new(Rot2::from_angle(ang_b), pa.translation + offset);
        let p = penetration(&*a, &pa, &*b, &pb);
        let ctx = || format!("A = {sa:?} at {pa:?}\nB = {sb:?} at {pb:?}\ngot {p:?}");
        prop_assert!(
            p.depth.is_finite() && p.distance.is_finite() && p.normal.is_finite() && p.point_a.is_finite()
                && p.point_b.is_finite() && p.error_bound.is_finite(),
            "non-finite output\n{}", ctx()
        );
        prop_assert!(p.depth >= 0.0 && (p.normal.length() - 1.0).abs() <= 1e-12, "{}", ctx());
        prop_assert!(p.status != Status::AboveBound, "{}", ctx());
        let size = sa.size().max(sb.size()).max(1e-3);
        // point_b − point_a = distance·normal: see the 3D proptest.
        prop_assert!(!p.intersecting || p.distance <= 1e-12 * size, "intersecting with a positive distance\n{}", ctx());
        let ex = exact_generic2(&sa.reference(&pa), &sb.reference(&pb));
        if p.status == Status::Converged {
            prop_assert!((-p.distance - ex.depth).abs() <= 1e-9 * size, "exact {:e}\n{}", ex.depth, ctx());
        }
        for prediction in [0.0, 0.05] {
            let m = contact_manifold(&*a, &pa, &*b, &pb, prediction);
            prop_assert!(m.len <= 2 && m.normal.is_finite(), "manifold {m:?}\n{}", ctx());
            for k in m.contacts() {
                prop_assert!(k.point_a.is_finite() && k.point_b.is_finite() && k.depth.is_finite(), "{k:?}\n{}", ctx());
            }
        }
    }
}

/// Exact depth of a capsule (core: the segment `p`–`q`, world) overlapping a box, from the box's frame: the depth
/// is the least support value h(n) = max(n·p, n·q) + Σ hᵢ|nᵢ| of core − box over the facet normals of that
/// difference — the box's three face axes and the cross products of the segment's direction with them, each
/// either way (any other unit n has h(n) at least the depth, so the superset's minimum is exact) — plus the
/// radius. With the core wholly inside, the face axes give how far the segment's farthest end must move to
/// leave through that face; a core across a corner leaves faster across an edge, which the cross products catch.
fn capsule_box_exact(p: DVec3, q: DVec3, radius: f64, half: DVec3, pose_box: &Iso<DVec3>) -> f64 {
    let (p, q) = (pose_box.inverse_transform_point(p), pose_box.inverse_transform_point(q));
    let d = q - p;
    let mut axes = vec![DVec3::X, DVec3::Y, DVec3::Z];
    axes.extend(
        [DVec3::X, DVec3::Y, DVec3::Z].map(|e| d.cross(e)).into_iter().filter(|c| c.length() > 1e-12 * d.length()),
    );
    let h = |n: DVec3| n.dot(p).max(n.dot(q)) + half.x * n.x.abs() + half.y * n.y.abs() + half.z * n.z.abs();
    axes.into_iter().map(|a| a.normalize()).flat_map(|n| [h(n), h(-n)]).fold(f64::INFINITY, f64::min) + radius
}

/// Fuzz seed 7 case 24233: a capsule (half height 2, radius 1.57) whose core lies down the middle of a box 15,587
/// long, both 1e4 from the origin with centres 7e-10 apart. GJK on the cores built the segment between two opposite
/// support points of core − box, which passes 2.4e-10 from the origin — above the touching distance, below the
/// rounding of the 1.4e4-long points — so v's direction was 1 % off along the segment, the support along it was the
/// segment's own end, and GJK stopped "converged" at a core distance of 2.4e-10: the answer was the radius alone
/// (1.5702, status converged, error bound 2.4e-10) for an exact depth of 2.9561 (the other order found it). A GJK
/// run whose lower bound proves no gap now always goes to EPA. Also checked on random variants: boxes 1e2–2e4
/// long, cores inside them or crossing a face, 1e4–1e5 from the origin, centres equal to rounding or apart, in
/// both orders: the depth within 1e-9 of the box's size of the exact one, and the bounds holding it.
#[test]
fn capsule_core_inside_a_long_box_far_off_is_as_deep_as_the_box_allows() {
    let unit = |x: f64, y: f64, z: f64, w: f64| Rotation::<DVec3>::normalized(&DQuat::from_xyzw(x, y, z, w)).unwrap();
    let fuzz_case = (
        (1.9885060476768905, 1.5702049105793252),
        Iso::new(
            unit(-5.33204063729508e-10, -3.6781945987877456e-9, -2.990032608340414e-9, -1.0),
            DVec3::new(10366.367508963183, -9010.629279634082, -5090.078115612465),
        ),
        DVec3::new(2.215135903727943, 15587.046139961914, 1.051424319610554),
        Iso::new(
            unit(0.5075356206119148, 0.17609289515998078, -0.8343113005366103, -0.12378828652648965),
            DVec3::new(10366.367508963143, -9010.629279634742, -5090.078115612512),
        ),
    );
    let mut r = rng(0xca95_b0c5);
    let mut cases = vec![fuzz_case];
    for i in 0..2000 {
        let long = log_uniform(&mut r, 1e2, 2e4);
        let (thin_a, thin_b) = (log_uniform(&mut r, 0.5, 5.0), log_uniform(&mut r, 0.5, 5.0));
        let half = match i % 3 {
            0 => DVec3::new(thin_a, long, thin_b),
            1 => DVec3::new(long, thin_a, thin_b),
            _ => DVec3::new(thin_a, thin_b, long),
        };
        let pose_b = Iso::new(unit_quat(&mut r), unit3(&mut r) * log_uniform(&mut r, 1e4, 1e5));
        // The core's centre: the box's (to rounding) most often, else anywhere along the long axis, sometimes
        // across a face.
        let local = match i % 4 {
            0 => DVec3::ZERO,
            1 => half * DVec3::new(uniform(&mut r, -0.9, 0.9), uniform(&mut r, -0.9, 0.9), uniform(&mut r, -0.9, 0.9)),
            2 => half * DVec3::new(uniform(&mut r, -1.2, 1.2), uniform(&mut r, -1.2, 1.2), uniform(&mut r, -1.2, 1.2)),
            _ => in_cube3(&mut r, 1e-9),
        };
        let pose_a = Iso::new(unit_quat(&mut r), pose_b.transform_point(local));
        cases.push(((log_uniform(&mut r, 0.1, 5.0), log_uniform(&mut r, 0.1, 3.0)), pose_a, half, pose_b));
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for ((half_height, radius), pose_a, half, pose_b) in cases {
        let capsule = Capsule::new(half_height, radius).unwrap();
        let cuboid = Cuboid::new(half).unwrap();
        let (p, q) = (pose_a.transform_point(DVec3::Y * half_height), pose_a.transform_point(DVec3::Y * -half_height));
        let exact = capsule_box_exact(p, q, radius, half, &pose_b);
        if !(exact > 0.0) {
            continue;
        }
        checked += 1;
        let size = half.max_element().max(half_height + radius);
        let tol = REL_DEPTH * size;
        for (order, got) in [
            ("capsule, box", penetration(&capsule, &pose_a, &cuboid, &pose_b)),
            ("box, capsule", penetration(&cuboid, &pose_b, &capsule, &pose_a)),
        ] {
            let ok = got.intersecting
                && (got.depth - exact).abs() <= tol
                && got.depth <= exact + BOUND_SLACK * size
                && got.depth + got.error_bound >= exact - BOUND_SLACK * size;
            if !ok {
                failures.push(format!(
                    "{order}: depth {:e} (status {:?}, error bound {:e}), exact {exact:e}\n  capsule ({half_height:e}, \
                     {radius:e}) at {pose_a:?}\n  box {half:?} at {pose_b:?}",
                    got.depth, got.status, got.error_bound
                ));
            }
        }
    }
    assert!(checked > 1000, "only {checked} overlapping pairs");
    assert!(
        failures.is_empty(),
        "{} of {checked} pairs wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
}

/// Two equal thin boxes at one centre (gjk-fuzz seed 3 case 385: 2D, 0.0594 × 1.73e-7, turned 0.81 rad). The depth
/// 2t was right, but EPA stopped on a chord of A − B — from a long side's midpoint, a support point tied between
/// two corners, to the far corner — because the least support value, met along another direction, already equalled
/// the chord's distance. Its normal was the chord's, 2.9e-6 rad (3D: 6.5e-6) off the thin axis, and along it the
/// supporting planes were 2t apart more than the depth. The normal must be the thin axis and realise the depth, in
/// 2D and 3D, at thicknesses from 1e-3 to 1e-9 of the length, turned or not, near the origin and 1e4 from it.
#[test]
fn equal_thin_boxes_at_one_centre_part_along_the_thin_axis_fuzz_3_385() {
    let long = 0.05940854197566036;
    for t in [1.730005140516927e-7, 1e-3 * long, 1e-6 * long, 1e-9 * long] {
        for (turn, at) in [(0.8092097726893166, 0.0), (0.0, 0.0), (0.3, 1e4), (2.5, 1e4)] {
            let centre2 = DVec2::new(0.3392858004793542, 0.6353086790281743) + DVec2::splat(at);
            let pose2 = Iso::new(Rot2::from_angle(turn), centre2);
            let box2 = Cuboid::new(DVec2::new(long, t)).unwrap();
            let p = penetration(&box2, &pose2, &box2, &pose2);
            let axis = DVec2::new(-turn.sin(), turn.cos());
            let along = support_value(&box2, &pose2, p.normal) + support_value(&box2, &pose2, -p.normal);
            let what = format!("2D, t {t:e}, turn {turn}, at {at:e}: {p:?}");
            // 1e4 from the origin the poses' coordinates carry 1e4·ε of rounding.
            let tol = 1e-9 * long + 1e4 * f64::EPSILON * at.max(1.0);
            assert!((p.depth - 2.0 * t).abs() <= tol, "{what}");
            assert!((along - p.depth).abs() <= tol, "{what}: along the normal the planes are {along:e} apart");
            assert!(p.normal.perp_dot(axis).abs() <= 1e-9, "{what}: normal off the thin axis");

            let q = DQuat::from_rotation_z(turn) * DQuat::from_rotation_x(0.2 * turn);
            let pose3 = Iso::new(q, centre2.extend(0.1 + at));
            let box3 = Cuboid::new(DVec3::new(long, t, 0.5 * long)).unwrap();
            let p = penetration(&box3, &pose3, &box3, &pose3);
            let along = support_value(&box3, &pose3, p.normal) + support_value(&box3, &pose3, -p.normal);
            let what = format!("3D, t {t:e}, turn {turn}, at {at:e}: {p:?}");
            assert!((p.depth - 2.0 * t).abs() <= tol, "{what}");
            assert!((along - p.depth).abs() <= tol, "{what}: along the normal the planes are {along:e} apart");
            assert!(p.normal.cross(q * DVec3::Y).length() <= 1e-9, "{what}: normal off the thin axis");
        }
    }
}

/// gjk-fuzz seed 1 case 4403 (f32): a box 2250 long and 0.25 × 0.20 across around a hull of 35 points 0.3 wide, at
/// one centre. EPA's visibility test allowed 1000 ulps of the largest coordinate (2250: 0.27 in f32), so a support
/// point up to 0.27 in front of a face did not remove it: the polytope folded, the nearest face (0.045 away) was a
/// dent whose own support point was already a vertex, and the run stopped "converged" within 1024 ulps of 2250 —
/// depth 0.045 for an exact 0.2056, along a normal where the planes were 0.357 apart. The allowance is now 64 ulps.
/// Checked in f32 and f64, both orders, against the exact depth by separating axes over every facet normal of
/// A − B (the inputs as each precision holds them): the depth, the supporting planes along the normal, and
/// `point_b − point_a = distance · normal`.
#[test]
fn hull_at_the_centre_of_a_box_2250_long_gets_its_exact_depth_in_f32_fuzz_1_4403() {
    use crate::common::{support_value, Space3};
    let hull: [[f64; 3]; 35] = [
        [-0.027212680005831016, -0.10614234474696696, -0.09316102761622481],
        [-0.14325551675451034, -0.0027783919730968876, 0.012483662340706768],
        [-0.13223646707580383, 0.04368378351601366, 0.03592976761726476],
        [0.10677551820543311, -0.06858099821436306, 0.06768559495104919],
        [0.08066480991143943, 0.10485394518602754, -0.05643175514611977],
        [0.005789812861877601, 0.11738730623001549, -0.08289995639974575],
        [-0.13606273114538778, 0.038895256513983074, 0.025686505834078024],
        [0.08947036775429111, 0.043421529251335335, 0.10390057006283497],
        [0.08857661834478765, -0.11078839072042329, 0.02378696139012708],
        [-0.10135758559101486, 0.09812222245503478, -0.02800667191294796],
        [-0.00946563432775348, -0.004419635625326742, -0.14344536575193825],
        [-0.06768252021816051, -0.06133143751318291, 0.11110011520011838],
        [0.025659057128774847, -0.00446498787694743, -0.14144744974200038],
        [0.0670815848369594, -0.1211511460353867, 0.03883510213800099],
        [-0.06322762807186573, -0.057578912654497674, -0.11564013245377354],
        [0.05918158358830336, 0.11523094613529718, 0.062490587969226574],
        [0.07807971102368097, -0.03304044627514759, 0.11617913756089043],
        [0.06736407144122825, 0.08424010938031604, 0.0951387944975562],
        [-0.04239865846885431, -0.12289948518293667, 0.06151239444051354],
        [-0.05849885835997952, -0.10268971725834407, 0.08196590698561904],
        [-0.036217475132197696, -0.05380580874943645, 0.12837029955508578],
        [0.11559185007514952, -0.0819779853680313, -0.02457312514105078],
        [-0.11333441540063219, -0.0882732313659477, -0.006989368927560839],
        [-0.07978396370235073, 0.11654020254941436, -0.027177282676496634],
        [-0.052161403000332986, -0.029869065843412434, -0.13066266226689816],
        [-0.1166971331509505, -0.03438856279591239, 0.07671316856430624],
        [-0.01228938571115051, -0.13325818342180765, -0.05269660252765048],
        [0.004226455318124607, -0.12527107886343733, 0.07053366744916291],
        [-0.11874961330874961, 0.0005255280661342692, -0.08114158938096348],
        [0.08733529338753196, -0.04914400548285246, -0.10316548658349763],
        [0.10423151078701662, -0.08494101781274489, 0.05105408916027911],
        [-0.1287117459368762, -0.050430242916985106, -0.03969611347738775],
        [-0.012564202026229562, -0.04732544069116317, -0.1352336787151264],
        [-0.013352862846646576, -0.1024325633141955, 0.10007484896154839],
        [-0.023382507272396817, -0.11643104556785791, -0.0811342982321684],
    ];
    let half = DVec3::new(0.12339619369951474, 0.09800135862812012, 2250.449428098649);
    let pose_box = Iso::new(
        DQuat::from_xyzw(8.12270487678423e-12, 1.9204933883793337e-12, -8.014716044300049e-12, 1.0).normalize(),
        DVec3::new(0.7782692177672557, 0.8470093641789387, 0.1656728041745139),
    );
    let pose_hull = Iso::new(
        DQuat::from_xyzw(-0.304288422940932, 0.16771816334793802, 0.7491771679763286, -0.5639261869520538).normalize(),
        DVec3::new(0.7782692177672557, 0.8470093641789387, 0.1656728041745139),
    );

    fn run<V: Space3>(hull: &[[f64; 3]], half: DVec3, poses: [Iso<DVec3>; 2]) {
        use gjk::math::Real;
        let cloud: Vec<V> = hull.iter().map(|q| V::from64(DVec3::from_array(*q))).collect();
        let a = Cuboid::new(V::from64(half)).unwrap();
        let b = ConvexPolytope::new(&cloud).unwrap();
        let (pa, pb) = (V::pose_from64(&poses[0]), V::pose_from64(&poses[1]));
        // The same shapes in f64, as V holds them: the references.
        let cloud64: Vec<DVec3> = cloud.iter().map(|p| p.to64()).collect();
        let half64 = V::from64(half).to64();
        let (pa64, pb64) = (V::pose_to64(&pa), V::pose_to64(&pb));
        let exact = exact_cores3(&ref_cuboid3(half64, &pa64), &ref_cloud3(&cloud64, &pb64, 0.0));
        let (a64, b64) = (Cuboid::new(half64).unwrap(), ConvexPolytope::new(&cloud64).unwrap());
        // EPA's visibility allowance in f32: 64 ulps of the largest coordinate (2250), 0.017; the bug was 0.16 off.
        // 1e-9 of the box's length in f64.
        let tol = if V::NAME == "f32" { 64.0 * f64::from(f32::EPSILON) * 2250.5 } else { 1e-9 * 2250.5 };
        let answers = [gjk::penetration(&a, &pa, &b, &pb), gjk::penetration(&b, &pb, &a, &pa)];
        for (k, p) in answers.iter().enumerate() {
            let (sa, sb, qa, qb): (&dyn SupportMap<DVec3>, &dyn SupportMap<DVec3>, _, _) =
                if k == 0 { (&a64, &b64, pa64, pb64) } else { (&b64, &a64, pb64, pa64) };
            let what = format!("{} order {k}: {p:?} (exact depth {})", V::NAME, exact.depth);
            let (n, depth) = (p.normal.to64(), p.depth.to_f64());
            assert!(p.intersecting && (n.length() - 1.0).abs() < 1e-6, "{what}");
            assert!((depth - exact.depth).abs() <= tol, "{what}");
            let h = support_value(sa, &qa, n) + support_value(sb, &qb, -n);
            assert!((h - depth).abs() <= tol, "{what}: along the normal the planes are {h} apart");
            let (wa, wb) = (p.point_a.to64(), p.point_b.to64());
            let identity = (wb - wa - n * p.distance.to_f64()).length();
            assert!(identity <= tol, "{what}: |point_b − point_a − distance·normal| = {identity:e}");
        }
    }
    run::<Vec3>(&hull, half, [pose_box, pose_hull]);
    run::<DVec3>(&hull, half, [pose_box, pose_hull]);
}

/// gjk-fuzz seed 59 case 2067 (f32): a hull of 22 points inside a hull of 11 swept by a box 98.7 long, 0.017 and
/// 0.032 across (a `MinkowskiSum`), both at one centre. With the swept hull as A, EPA's polytope folded under f32
/// rounding where A − B has a face 98 long and 0.017 wide: its nearest face's normal was 1.5e-3 rad off and the
/// origin's projection fell 0.87 beyond it, so the witnesses (the face's nearest point) broke
/// `point_b − point_a = distance · normal` by 0.93, though the depth was within rounding (1024 ulps of 51).
/// Checked in f32 and f64, both orders, against the inputs as each precision holds them (f64 references): the
/// identity, the supporting planes along the normal, the witnesses inside their shapes along 2000 directions, and
/// no direction of those (or the other order's normal) with a smaller support value than the depth.
#[test]
fn hull_inside_a_hull_swept_by_a_box_98_long_keeps_its_witnesses_paired_fuzz_59_2067() {
    use crate::common::{support_value, unit3, Space3};
    use gjk::shape::MinkowskiSum;
    let inner: [[f64; 3]; 22] = [
        [1.333666497632369, -1.4611791501837097, -1.2621381305885573],
        [-1.6739823462013157, 1.380187409836479, -1.637344662889051],
        [0.09824777734250066, -1.1335359604845563, -1.128327786201725],
        [-1.6935796637794596, -1.651547101220384, 1.2429023556981216],
        [0.06954239259318863, 0.8739195539600708, -1.000448991983033],
        [-1.5530746030790248, 0.3481561651971612, -1.3233033519506883],
        [1.068748244070978, 1.4335361642596218, -0.17783669638484512],
        [0.5169563877245829, 1.006729585556509, -0.7755206419490234],
        [1.2314520689239106, 1.2257015232814694, -0.7874604545248681],
        [0.3621769922823122, -0.8522463521107437, 0.02743353125624552],
        [-0.34366938063657293, -0.6414162543981814, 0.5412668155816021],
        [1.3205323620957514, 0.9651209025089049, 1.6439544353632025],
        [-1.097669591244737, 1.2384718586602572, 1.3851803660444928],
        [-1.587276085692965, 1.6930377277207962, -1.5940499545557982],
        [0.4888305436169932, 0.9863155139132584, 1.6301433942357233],
        [0.051958162168185065, -0.3358502837586794, 1.3315449163094164],
        [0.5377244119102552, -1.615207591911688, -1.1478649301421953],
        [0.1095092854747082, 0.7513900171738915, -0.14923478334992074],
        [0.24092754527686464, -0.8252079981274112, -0.8543380569684511],
        [-1.1019573354000773, 1.5097472920163413, 0.9362352262936421],
        [1.4606474787773422, -1.4021860541867082, -0.7234262827306684],
        [-1.7611886242504204, 0.4862162184954014, 1.2493667670817432],
    ];
    let swept: [[f64; 3]; 11] = [
        [-1.6984374524647685, 0.9905654690955216, -1.348161214979242],
        [-0.5040813739549195, 0.7873137768078444, -0.2681111317653657],
        [1.32385840372925, -1.7018979834494092, -0.6505498140320629],
        [1.0487405538775825, 0.28127880841359254, 0.11736846123512497],
        [-1.3772965934365167, 0.15305995188742433, -0.0848657505861663],
        [1.5773646836164765, 0.7621986596144614, -1.2511748889144025],
        [-1.260644510027227, 0.9961098710054721, 1.1304246774056108],
        [1.2640815685080906, 0.4465074017766163, -0.935906804274502],
        [-1.5181707196882859, -1.44441624368849, -0.3507376715094098],
        [1.705168410909213, -0.44014591844311, 1.3871236759208707],
        [0.9895770566025469, -0.36303034729345157, -0.347498608692543],
    ];
    let half = DVec3::new(49.3287978464755, 0.008470036660991567, 0.016215284980660355);
    let centre = DVec3::new(-0.026631316916674086, -0.6128491408905821, 0.4608563216482864);
    let turn = DQuat::from_xyzw(-0.4317814535821804, -0.20090550150533623, -0.5221846840138737, -0.7074778523661922);
    let pose_inner = Iso::new(turn.normalize(), centre);
    let pose_swept = Iso::from_translation(centre);
    let mut rng = crate::common::rng(2067);
    let dirs: Vec<DVec3> = (0..2000).map(|_| unit3(&mut rng)).collect();

    fn run<V: Space3>(inner: &[[f64; 3]], swept: &[[f64; 3]], half: DVec3, poses: [Iso<DVec3>; 2], dirs: &[DVec3]) {
        use gjk::math::Real;
        let cloud = |p: &[[f64; 3]]| p.iter().map(|q| V::from64(DVec3::from_array(*q))).collect::<Vec<V>>();
        let a = ConvexPolytope::new(&cloud(inner)).unwrap();
        let b = MinkowskiSum::new(ConvexPolytope::new(&cloud(swept)).unwrap(), Cuboid::new(V::from64(half)).unwrap());
        let (pa, pb) = (V::pose_from64(&poses[0]), V::pose_from64(&poses[1]));
        // The same shapes in f64, as V holds them: the references.
        let back = |p: &[[f64; 3]]| p.iter().map(|q| V::from64(DVec3::from_array(*q)).to64()).collect::<Vec<_>>();
        let a64 = ConvexPolytope::new(&back(inner)).unwrap();
        let b64 =
            MinkowskiSum::new(ConvexPolytope::new(&back(swept)).unwrap(), Cuboid::new(V::from64(half).to64()).unwrap());
        let (pa64, pb64) = (V::pose_to64(&pa), V::pose_to64(&pb));
        // 1024 ulps of the Minkowski difference's size (51), as EPA's rounding; 1e-9 of it in f64.
        let tol = if V::NAME == "f32" { 1024.0 * f64::from(f32::EPSILON) * 51.0 } else { 1e-9 * 51.0 };
        let answers = [gjk::penetration(&a, &pa, &b, &pb), gjk::penetration(&b, &pb, &a, &pa)];
        let normals = answers.map(|p| p.normal.to64());
        for (k, p) in answers.iter().enumerate() {
            let (sa, sb, qa, qb): (&dyn SupportMap<DVec3>, &dyn SupportMap<DVec3>, _, _) =
                if k == 0 { (&a64, &b64, pa64, pb64) } else { (&b64, &a64, pb64, pa64) };
            let what = format!("{} order {k}: {p:?}", V::NAME);
            let (n, depth) = (p.normal.to64(), p.depth.to_f64());
            let (wa, wb) = (p.point_a.to64(), p.point_b.to64());
            assert!(p.intersecting && (n.length() - 1.0).abs() < 1e-6, "{what}");
            let identity = (wb - wa - n * p.distance.to_f64()).length();
            assert!(identity <= tol, "{what}: |point_b − point_a − distance·normal| = {identity:e} > {tol:e}");
            let h = |d: DVec3| support_value(sa, &qa, d) + support_value(sb, &qb, -d);
            assert!((h(n) - depth).abs() <= tol, "{what}: the planes along the normal overlap by {}", h(n));
            let least = dirs.iter().chain(&normals).map(|&d| h(d)).fold(f64::INFINITY, f64::min);
            assert!(depth <= least + tol, "{what}: a direction overlaps by only {least}");
            for d in dirs {
                let outside = (d.dot(wa) - support_value(sa, &qa, *d)).max(d.dot(wb) - support_value(sb, &qb, *d));
                assert!(outside <= tol, "{what}: a witness lies {outside:e} beyond its shape along {d}");
            }
        }
    }
    run::<Vec3>(&inner, &swept, half, [pose_inner, pose_swept], &dirs);
    run::<DVec3>(&inner, &swept, half, [pose_inner, pose_swept], &dirs);
}
