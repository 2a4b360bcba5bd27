//! The closed-form contact manifold of a box or a capsule on a mesh triangle (`manifold::box_triangle`,
//! `segment_triangle`: the shapes' features known without asking them, small stack buffers) against the general
//! clipper's: the same mesh queried with the shape hidden behind a plain support map ([`Opaque`]), so that EPA
//! finds the normal and the general clipper builds the manifold from the shapes' supporting features.
//!
//! Where the two normals agree (within 1e-9 rad: they come from different penetration solvers, the closed form and
//! EPA, which may pick different axes only at ties), the manifolds must be the same: the same points with the
//! same ids (the closed form follows the general clipper's rules). Always, every contact must keep the manifold's
//! invariants: depth = separation along the normal (`point_a − point_b = depth · normal`), its points on the
//! triangle and on (or, for a capsule's rounded end, in) the shape, none deeper than the penetration depth and the
//! deepest equal to it; and the shape queried as A gives the same manifold flipped.
//!
//! Cases: random boxes and capsules against random triangles (touching, overlapping, apart within the
//! prediction, and offset 1e4); a flat patch of triangles (its interior edges inactive, so the ghost-normal
//! correction runs) with a box resting flat, tilted and on an edge, a capsule lying flat and standing.

use crate::common::{point_segment, rng, uniform, unit_quat, Opaque};
use gjk::composite::TriMesh;
use gjk::math::{DQuat, DVec3, Iso};
use gjk::query::{self, Convex, Manifold};
use gjk::shape::{Capsule, Cuboid};
use rand::rngs::SmallRng;

#[derive(Clone, Copy, Debug)]
enum Body {
    Capsule(Capsule<f64>),
    Cuboid(Cuboid<DVec3>),
}

impl Body {
    /// How far `p` (world) lies outside the shape posed by `pose` (zero inside).
    fn outside(&self, pose: &Iso<DVec3>, p: DVec3) -> f64 {
        let q = pose.inverse_transform_point(p);
        match self {
            Body::Capsule(c) => {
                let (a, b) = (DVec3::Y * c.half_height, DVec3::Y * -c.half_height);
                ((point_segment(q, a, b) - q).length() - c.radius).max(0.0)
            }
            Body::Cuboid(c) => (q.abs() - c.half_extents).max(DVec3::ZERO).length(),
        }
    }

    /// How far `p` lies inside the box (zero outside; a capsule: zero, its contact points may lie inside it when
    /// the normal is not across its core, in both builders).
    fn inside(&self, pose: &Iso<DVec3>, p: DVec3) -> f64 {
        let q = pose.inverse_transform_point(p);
        match self {
            Body::Capsule(_) => 0.0,
            Body::Cuboid(c) => (c.half_extents - q.abs()).min_element().max(0.0),
        }
    }
}

/// A query's manifolds.
type Manifolds = Vec<Manifold<DVec3>>;

/// The contacts of `body` at `pose` on `mesh`: ours, the general path's (the body opaque), and ours with the body
/// as A.
fn query(mesh: &TriMesh<DVec3>, body: &Body, pose: &Iso<DVec3>, prediction: f64) -> (Manifolds, Manifolds, Manifolds) {
    let (mut ours, mut general, mut flipped) = (Vec::new(), Vec::new(), Vec::new());
    let id = Iso::identity();
    match body {
        Body::Capsule(s) => {
            query::contacts(mesh, &id, s, pose, prediction, &mut ours);
            query::contacts(mesh, &id, &Convex(Opaque(s)), pose, prediction, &mut general);
            query::contacts(s, pose, mesh, &id, prediction, &mut flipped);
        }
        Body::Cuboid(s) => {
            query::contacts(mesh, &id, s, pose, prediction, &mut ours);
            query::contacts(mesh, &id, &Convex(Opaque(s)), pose, prediction, &mut general);
            query::contacts(s, pose, mesh, &id, prediction, &mut flipped);
        }
    }
    (ours, general, flipped)
}

/// The manifolds, one contact a line.
fn show(all: &[Manifold<DVec3>]) -> String {
    let mut s = String::new();
    for m in all {
        s += &format!("normal {:?}, {} points\n", m.normal, m.len);
        for c in m.points() {
            s += &format!(
                "  a {:?} b {:?} depth {:e} id {:#x} parts {:?}\n",
                c.point_a,
                c.point_b,
                c.depth,
                c.id,
                (c.part_a, c.part_b)
            );
        }
    }
    s
}

/// What a comparison found.
#[derive(Default, Debug)]
struct Tally {
    /// Manifolds compared point by point (normals within 1e-9 rad).
    same_normal: usize,
    /// Manifolds whose normals differed (ties between the solvers' axes): invariants only.
    ties: usize,
    /// Manifolds with more than one point (so the clipping, not only the witness pair, was compared).
    several: usize,
    /// Manifolds clipped on B's feature (the box face or the capsule's segment as reference: bit 63 of an id).
    on_b: usize,
}

/// Checks `ours` against `general` and its invariants; `ctx` names the case.
#[allow(clippy::too_many_arguments)]
fn check(
    mesh: &TriMesh<DVec3>,
    body: &Body,
    pose: &Iso<DVec3>,
    depth: f64,
    ours: &[Manifold<DVec3>],
    general: &[Manifold<DVec3>],
    flipped: &[Manifold<DVec3>],
    tol: f64,
    same_points: bool,
    tally: &mut Tally,
    ctx: &dyn Fn() -> String,
) {
    assert_eq!(ours.len(), general.len(), "manifold count: {}", ctx());
    assert_eq!(ours.len(), flipped.len(), "flipped manifold count: {}", ctx());
    let deepest = |m: &[Manifold<DVec3>]| m.iter().map(|m| m.max_depth()).fold(f64::NEG_INFINITY, f64::max);
    if !ours.is_empty() {
        assert!((deepest(ours) - deepest(general)).abs() <= tol, "deepest: {}", ctx());
        assert!((deepest(ours) - depth).abs() <= tol, "deepest vs the penetration depth {depth}: {}", ctx());
    }
    for (k, (m, g)) in ours.iter().zip(general).enumerate() {
        // The angle from its sine and cosine (acos alone loses digits near 0).
        let angle = m.normal.cross(g.normal).length().atan2(m.normal.dot(g.normal));
        if angle <= 1e-9 {
            tally.same_normal += 1;
            tally.several += usize::from(m.len > 1);
            tally.on_b += usize::from(m.points().iter().any(|c| c.id >> 63 == 1));
            assert_eq!(m.len, g.len, "point count of manifold {k}: {}", ctx());
            if !same_points {
                continue;
            }
            let mut ids: Vec<_> = m.points().iter().map(|c| (c.part_a, c.id)).collect();
            let mut gids: Vec<_> = g.points().iter().map(|c| (c.part_a, c.id)).collect();
            ids.sort_unstable();
            gids.sort_unstable();
            assert_eq!(ids, gids, "ids of manifold {k}: {}", ctx());
            for c in m.points() {
                // Ids of crossings of crossings may repeat (in both builders): the nearest of the same id.
                let twin = g
                    .points()
                    .iter()
                    .filter(|d| (d.part_a, d.id) == (c.part_a, c.id))
                    .min_by(|d, e| (d.point_a - c.point_a).length().total_cmp(&(e.point_a - c.point_a).length()))
                    .expect("same ids");
                assert!((c.point_a - twin.point_a).length() <= tol, "point_a: {}", ctx());
                assert!((c.point_b - twin.point_b).length() <= tol, "point_b: {}", ctx());
                assert!((c.depth - twin.depth).abs() <= tol, "depth: {}", ctx());
            }
        } else {
            tally.ties += 1;
        }
        for c in m.points() {
            let facet = mesh.facet(c.part_a.expect("a triangle's id"));
            // A normal turned to the face's (a ghost on an inactive ridge) pairs along it: the mesh's point is on
            // the face's plane, not always inside the triangle (the general path does the same).
            let face = facet.normal().expect("a triangle").dot(m.normal).abs() > 0.9999;
            let on_triangle = (facet.closest_point(c.point_a).0 - c.point_a).length();
            assert!(on_triangle <= tol || face, "point_a {on_triangle:e} off the triangle: {c:?} {}", ctx());
            assert!((c.point_a - c.point_b - m.normal * c.depth).length() <= tol, "pairing: {c:?} {}", ctx());
            assert!(body.outside(pose, c.point_b) <= tol, "point_b outside the shape: {c:?} {}", ctx());
            assert!(body.inside(pose, c.point_b) <= tol, "point_b inside the box: {c:?} {}", ctx());
            assert!(c.depth <= depth + tol, "deeper than the penetration: {c:?} {}", ctx());
        }
    }
    // The shape as A: the same manifolds, flipped (normal negated, points and parts swapped, same ids).
    for (m, f) in ours.iter().zip(flipped) {
        assert_eq!(m.normal, -f.normal, "flipped normal: {}", ctx());
        assert_eq!(m.len, f.len, "flipped count: {}", ctx());
        for (c, d) in m.points().iter().zip(f.points()) {
            assert!(c.point_a == d.point_b && c.point_b == d.point_a && c.id == d.id, "flipped: {}", ctx());
            assert!(c.part_a == d.part_b && c.part_b == d.part_a && c.depth == d.depth, "flipped: {}", ctx());
        }
    }
}

fn random_body(rng: &mut SmallRng, boxed: bool) -> (Body, f64) {
    if boxed {
        let h = DVec3::new(uniform(rng, 0.05, 0.8), uniform(rng, 0.05, 0.8), uniform(rng, 0.05, 0.8));
        (Body::Cuboid(Cuboid::new(h).unwrap()), h.length())
    } else {
        let (half, radius) = (uniform(rng, 0.0, 0.8), uniform(rng, 0.02, 0.4));
        (Body::Capsule(Capsule::new(half, radius).unwrap()), half + radius)
    }
}

/// Random shapes on one random triangle, from apart within the prediction to deep.
fn random_triangles(boxed: bool, seed: u64) {
    let mut rng = rng(seed);
    let prediction = 0.2;
    let mut tally = Tally::default();
    for i in 0..3000 {
        let shift = if i % 5 == 4 { DVec3::new(1e4, -2e4, 3e4) } else { DVec3::ZERO };
        let tri = [0; 3].map(|_| DVec3::new(uniform(&mut rng, -1.0, 1.0), uniform(&mut rng, -1.0, 1.0), 0.0));
        let tri = tri.map(|p| p + DVec3::Z * uniform(&mut rng, -0.3, 0.3));
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
        let (body, reach) = random_body(&mut rng, boxed);
        let w = [uniform(&mut rng, -0.2, 1.0), uniform(&mut rng, -0.2, 1.0)];
        let at = tri[0] + (tri[1] - tri[0]) * w[0] + (tri[2] - tri[0]) * w[1] * (1.0 - w[0]).max(0.0);
        let pose = Iso::new(unit_quat(&mut rng), at + n * uniform(&mut rng, -0.8, 1.1) * reach + shift);
        let mesh = TriMesh::new(tri.map(|p| p + shift).to_vec(), vec![[0, 1, 2]]).unwrap();
        let p = match &body {
            Body::Capsule(s) => query::penetration(&mesh, &Iso::identity(), s, &pose),
            Body::Cuboid(s) => query::penetration(&mesh, &Iso::identity(), s, &pose),
        };
        let tol = 1e-9 + 1e-13 * shift.length();
        if (p.distance - prediction).abs() <= tol {
            continue; // at the bound: either answer
        }
        let (ours, general, flipped) = query(&mesh, &body, &pose, prediction);
        let ctx = || format!("case {i} {tri:?} {body:?} {pose:?}\nours {}general {}", show(&ours), show(&general));
        // 1e4 away, the general clipper works in the mesh's frame, where a point within 1e-12 of the coordinates
        // (3e-8) outside a side plane counts as inside; the closed form, in the shape's frame, is 1e4 times finer:
        // there the two may clip a point on a plane differently, so only counts and depths are compared.
        let same_points = shift == DVec3::ZERO;
        check(&mesh, &body, &pose, -p.distance, &ours, &general, &flipped, tol, same_points, &mut tally, &ctx);
    }
    // Most manifolds compared point by point, many with several points, many clipped on each shape's feature.
    let t = &tally;
    assert!(t.same_normal > 1500 && t.ties * 20 < t.same_normal && t.several > 300 && t.on_b > 200, "{t:?}");
}

#[test]
fn box_on_random_triangles_matches_the_general_clipper() {
    random_triangles(true, 1401);
}

#[test]
fn capsule_on_random_triangles_matches_the_general_clipper() {
    random_triangles(false, 1402);
}

/// A flat 6 × 6 patch of unit squares, each split in two (every interior edge inactive).
fn flat_patch() -> TriMesh<DVec3> {
    let n = 6;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(DVec3::new(i as f64 - 3.0, 0.0, j as f64 - 3.0));
        }
    }
    let mut triangles = Vec::new();
    let m = n as u32 + 1;
    for i in 0..n as u32 {
        for j in 0..n as u32 {
            let k = i * m + j;
            triangles.push([k, k + 1, k + m + 1]);
            triangles.push([k, k + m + 1, k + m]);
        }
    }
    TriMesh::new(vertices, triangles).unwrap()
}

/// Named poses on the flat patch, each jittered: the manifolds must match the general clipper's (every triangle's
/// normal is the face's on both paths) in count and depth, with at least the points the pose touches by (more where the
/// touching feature spans several triangles: each gives its own piece's ends).
#[test]
fn shapes_on_a_flat_patch_match_the_general_clipper() {
    let mesh = flat_patch();
    let mut rng = rng(1403);
    let mut tally = Tally::default();
    let unit = Cuboid::new(DVec3::new(0.7, 0.3, 0.45)).unwrap();
    let capsule = Capsule::new(0.6, 0.2).unwrap();
    for i in 0..300 {
        let jitter = DVec3::new(uniform(&mut rng, -1.5, 1.5), 0.0, uniform(&mut rng, -1.5, 1.5));
        let spin = DQuat::from_rotation_y(uniform(&mut rng, -3.0, 3.0));
        let sink = uniform(&mut rng, 0.001, 0.1);
        // (name, body, pose, fewest points in the one manifold)
        let (name, body, pose, points) = match i % 5 {
            0 => ("box resting flat", Body::Cuboid(unit), Iso::new(spin, jitter + DVec3::Y * (0.3 - sink)), 4),
            1 => {
                // Tilted about a horizontal axis: one edge of its bottom face down, 2 points.
                let tilt = spin * DQuat::from_rotation_x(uniform(&mut rng, 0.2, 0.6));
                let bottom = [-1.0, 1.0]
                    .iter()
                    .flat_map(|&y| [-1.0, 1.0].map(|z| (tilt * DVec3::new(0.0, y * 0.3, z * 0.45)).y))
                    .fold(f64::INFINITY, f64::min);
                ("box tilted on an edge", Body::Cuboid(unit), Iso::new(tilt, jitter - DVec3::Y * (bottom + sink)), 2)
            }
            2 => {
                // On a corner: tilted about two axes.
                let tilt = spin * DQuat::from_rotation_x(0.5) * DQuat::from_rotation_z(0.4);
                let bottom = (0..8)
                    .map(|k| {
                        let s = |b: usize| if k >> b & 1 == 1 { 1.0 } else { -1.0 };
                        (tilt * DVec3::new(s(0) * 0.7, s(1) * 0.3, s(2) * 0.45)).y
                    })
                    .fold(f64::INFINITY, f64::min);
                ("box on a corner", Body::Cuboid(unit), Iso::new(tilt, jitter - DVec3::Y * (bottom + sink)), 1)
            }
            3 => {
                let lying = spin * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
                ("capsule lying flat", Body::Capsule(capsule), Iso::new(lying, jitter + DVec3::Y * (0.2 - sink)), 2)
            }
            _ => ("capsule standing", Body::Capsule(capsule), Iso::new(spin, jitter + DVec3::Y * (0.8 - sink)), 1),
        };
        let (ours, general, flipped) = query(&mesh, &body, &pose, 0.0);
        let ctx = || format!("{name} {i} {pose:?}\nours {}general {}", show(&ours), show(&general));
        assert_eq!(ours.len(), 1, "one face normal: {}", ctx());
        assert_eq!(ours[0].normal, DVec3::Y, "{}", ctx());
        assert!(ours[0].len >= points, "{}", ctx());
        // Many contacts tie in depth here, and the reduction to four keeps the first of equals: the closed form's
        // depths (shape frame) and the general clipper's (mesh frame) differ in their last bits, so the points kept
        // may differ (not their count nor depth).
        check(&mesh, &body, &pose, sink, &ours, &general, &flipped, 1e-9, false, &mut tally, &ctx);
    }
    assert_eq!(tally.ties, 0, "{tally:?}");
}
