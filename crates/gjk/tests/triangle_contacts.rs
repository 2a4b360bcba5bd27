//! The closed-form penetration of a capsule or a box into a mesh triangle (`analytic::triangle`, run by a mesh's contact
//! and penetration queries instead of GJK and EPA) against the general path: EPA on the triangle as a convex
//! shape, which is exact on polytopes, and the whole mesh's contacts computed with the capsule hidden behind a
//! plain support map (so the closed form cannot see its segment core and GJK and EPA run).
//!
//! Poses: separated within the prediction, touching, penetrating, crossing; degenerate ones: the capsule's axis
//! parallel to the face and to an edge, radius 0, a zero-length core (a ball); the box lying flat on the face, a
//! box face parallel to a triangle edge, a zero half-extent; and everything offset by 1e4.

use crate::common::{rng, uniform, unit3, unit_quat, Opaque};
use gjk::composite::TriMesh;
use gjk::math::{DQuat, DVec3, Iso, Quat, Vec3};
use gjk::query::{self, Convex};
use gjk::shape::{Capsule, Cuboid, SupportMap, Triangle};
use rand::rngs::SmallRng;
use rand::Rng;

/// Which degenerate configuration a random case is drawn in.
#[derive(Clone, Copy, Debug)]
enum Kind {
    General,
    /// Capsule: axis in the face's plane; box: a face flat on the triangle.
    InFace,
    /// Capsule: axis along a triangle edge; box: an edge of the triangle parallel to a box face.
    AlongEdge,
    /// Capsule: radius 0; box: one half-extent 0.
    ZeroSize,
    /// Capsule: a zero-length core (a ball); box: two half-extents 0 (a segment).
    ZeroCore,
    FarOffset,
}

const KINDS: [Kind; 6] =
    [Kind::General, Kind::InFace, Kind::AlongEdge, Kind::ZeroSize, Kind::ZeroCore, Kind::FarOffset];

/// The shape on the triangle.
#[derive(Clone, Copy, Debug)]
enum Body {
    Capsule(Capsule<f64>),
    Cuboid(Cuboid<DVec3>),
}

struct Case {
    tri: [DVec3; 3],
    body: Body,
    pose: Iso<DVec3>,
    /// Largest coordinate magnitude in play, for the rounding part of the tolerance.
    reach: f64,
}

fn case(rng: &mut SmallRng, kind: Kind, boxed: bool) -> Case {
    let tri = [0; 3].map(|_| DVec3::new(uniform(rng, -1.0, 1.0), uniform(rng, -1.0, 1.0), uniform(rng, -0.3, 0.3)));
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
    let edge = (tri[1] - tri[0]).normalize();
    let (body, reach) = if boxed {
        let mut h = DVec3::new(uniform(rng, 0.05, 0.8), uniform(rng, 0.05, 0.8), uniform(rng, 0.05, 0.8));
        match kind {
            Kind::ZeroSize => h[rng.gen_range(0..3)] = 0.0,
            Kind::ZeroCore => {
                let k = rng.gen_range(0..3);
                h = DVec3::ZERO;
                h[k] = uniform(rng, 0.05, 0.8);
            }
            _ => {}
        }
        (Body::Cuboid(Cuboid::new(h).unwrap()), h.length())
    } else {
        let half = match kind {
            Kind::ZeroCore => 0.0,
            _ => uniform(rng, 0.05, 0.8),
        };
        let radius = match kind {
            Kind::ZeroSize => 0.0,
            _ => uniform(rng, 0.02, 0.4),
        };
        (Body::Capsule(Capsule::new(half, radius).unwrap()), half + radius)
    };
    // The capsule's core is along its local y; a box's local y is one of its face normals.
    let turn = match kind {
        Kind::InFace if boxed => {
            DQuat::from_rotation_arc(DVec3::Y, n) * DQuat::from_rotation_y(uniform(rng, -3.0, 3.0))
        }
        Kind::InFace => {
            let v = unit3(rng);
            DQuat::from_rotation_arc(DVec3::Y, (v - n * v.dot(n)).normalize())
        }
        Kind::AlongEdge if boxed => {
            // Box local y across the edge: the edge is parallel to the two faces of normal ±y.
            let v = unit3(rng);
            DQuat::from_rotation_arc(DVec3::Y, (v - edge * v.dot(edge)).normalize())
        }
        Kind::AlongEdge => DQuat::from_rotation_arc(DVec3::Y, edge),
        _ => unit_quat(rng),
    };
    // A point around the triangle (a little outside it too), then off its plane by up to the shape's reach.
    let w = [uniform(rng, -0.3, 1.0), uniform(rng, -0.3, 1.0)];
    let at = tri[0] + (tri[1] - tri[0]) * w[0] + (tri[2] - tri[0]) * w[1] * (1.0 - w[0]).max(0.0);
    let off = uniform(rng, -1.2, 1.2) * (reach + 0.1);
    let centre = at + n * off;
    let shift = match kind {
        Kind::FarOffset => DVec3::new(1e4, -2e4, 3e4),
        _ => DVec3::ZERO,
    };
    let tri = tri.map(|p| p + shift);
    Case { tri, body, pose: Iso::new(turn, centre + shift), reach: 1.0 + shift.abs().max_element() }
}

impl Case {
    fn shape(&self) -> &dyn SupportMap<DVec3> {
        match &self.body {
            Body::Capsule(c) => c,
            Body::Cuboid(c) => c,
        }
    }

    /// Signed separation of the shape from the triangle along the unit `n` (from the triangle toward the shape).
    fn separation(&self, n: DVec3) -> f64 {
        let top = self.tri.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max);
        let s = self.shape();
        let low = self.pose.transform_point(s.support(self.pose.inverse_transform_vector(-n)));
        low.dot(n) - s.radius() - top
    }

    /// How far `p` lies off the shape's surface.
    fn off_surface(&self, p: DVec3) -> f64 {
        let q = self.pose.inverse_transform_point(p);
        match &self.body {
            Body::Capsule(c) => {
                let (a, b) = (DVec3::Y * c.half_height, DVec3::Y * -c.half_height);
                ((crate::common::point_segment(q, a, b) - q).length() - c.radius).abs()
            }
            Body::Cuboid(c) => {
                let d = q.abs() - c.half_extents;
                // Outside: the distance to the box; inside: the depth below its nearest face.
                d.max(DVec3::ZERO).length() + d.max_element().min(0.0).abs()
            }
        }
    }

    /// How far `p` lies outside the shape (zero inside).
    fn outside(&self, p: DVec3) -> f64 {
        let q = self.pose.inverse_transform_point(p);
        match &self.body {
            Body::Capsule(c) => {
                let (a, b) = (DVec3::Y * c.half_height, DVec3::Y * -c.half_height);
                ((crate::common::point_segment(q, a, b) - q).length() - c.radius).max(0.0)
            }
            Body::Cuboid(c) => (q.abs() - c.half_extents).max(DVec3::ZERO).length(),
        }
    }

    fn to_triangle(&self, p: DVec3) -> f64 {
        let t = gjk::composite::Facet::new(self.tri);
        (t.closest_point(p).0 - p).length()
    }
}

/// The mesh penetration (closed form) equals EPA's on the triangle: same signed distance; the normal realises it
/// (the separation along it is the distance, so it is EPA's normal up to ties); the witness points lie on the two
/// shapes and differ by distance · normal.
fn penetration_matches_epa(boxed: bool, seed: u64) {
    let mut rng = rng(seed);
    let mut overlapping = [0usize; 6];
    for (k, kind) in KINDS.iter().enumerate() {
        for i in 0..2000 {
            let c = case(&mut rng, *kind, boxed);
            let tol = 1e-9 * 2.0 + 1e-13 * c.reach;
            let mesh = TriMesh::new(c.tri.to_vec(), vec![[0, 1, 2]]).unwrap();
            let tri = Triangle::new(c.tri[0], c.tri[1], c.tri[2]).unwrap();
            let want = gjk::penetration(&tri, &Iso::identity(), c.shape(), &c.pose);
            let got = match &c.body {
                Body::Capsule(s) => query::penetration(&mesh, &Iso::identity(), s, &c.pose),
                Body::Cuboid(s) => query::penetration(&mesh, &Iso::identity(), s, &c.pose),
            };
            if !want.intersecting {
                continue;
            }
            overlapping[k] += 1;
            let ctx = || format!("{kind:?} case {i} {:?} {:?} {:?}: ours {got:?}\nEPA {want:?}", c.tri, c.body, c.pose);
            assert!(got.intersecting, "{}", ctx());
            assert!((got.distance - want.distance).abs() <= tol, "{}", ctx());
            assert!((c.separation(got.normal) - got.distance).abs() <= tol, "normal does not realise it: {}", ctx());
            assert!((got.point_b - got.point_a - got.normal * got.distance).length() <= tol, "{}", ctx());
            assert!(c.to_triangle(got.point_a) <= tol, "{}", ctx());
            assert!(c.off_surface(got.point_b) <= tol, "{}", ctx());
        }
    }
    // Each kind overlaps in a good share of its cases (so the assertions above ran).
    assert!(overlapping.iter().all(|&n| n > 200), "{overlapping:?}");
}

#[test]
fn capsule_triangle_penetration_matches_epa() {
    penetration_matches_epa(false, 1201);
}

#[test]
fn box_triangle_penetration_matches_epa() {
    penetration_matches_epa(true, 1211);
}

/// Contacts within a prediction distance (apart, touching and overlapping): the deepest contact of the mesh's
/// manifold is minus EPA's signed distance, and every contact keeps the manifold invariants (its points on the
/// two shapes, `point_a − point_b = depth · normal`).
fn contacts_match_epa(boxed: bool, seed: u64) {
    let mut rng = rng(seed);
    let prediction = 0.5;
    let mut manifolds = Vec::new();
    let (mut apart, mut overlapping) = (0, 0);
    for kind in KINDS {
        for i in 0..2000 {
            let c = case(&mut rng, kind, boxed);
            let tol = 1e-9 * 2.0 + 1e-13 * c.reach;
            let mesh = TriMesh::new(c.tri.to_vec(), vec![[0, 1, 2]]).unwrap();
            let tri = Triangle::new(c.tri[0], c.tri[1], c.tri[2]).unwrap();
            let want = gjk::penetration(&tri, &Iso::identity(), c.shape(), &c.pose);
            match &c.body {
                Body::Capsule(s) => query::contacts(&mesh, &Iso::identity(), s, &c.pose, prediction, &mut manifolds),
                Body::Cuboid(s) => query::contacts(&mesh, &Iso::identity(), s, &c.pose, prediction, &mut manifolds),
            }
            let ctx =
                || format!("{kind:?} case {i} {:?} {:?} {:?}: ours {manifolds:?}\nEPA {want:?}", c.tri, c.body, c.pose);
            if want.distance > prediction + tol {
                assert!(manifolds.is_empty(), "{}", ctx());
                continue;
            }
            if want.distance > prediction - tol {
                continue; // at the bound: either answer
            }
            if want.distance > 0.0 {
                apart += 1;
            } else {
                overlapping += 1;
            }
            assert_eq!(manifolds.len(), 1, "{}", ctx());
            let m = &manifolds[0];
            assert!((m.max_depth() + want.distance).abs() <= tol, "{}", ctx());
            assert!((c.separation(m.normal) + m.max_depth()).abs() <= tol, "{}", ctx());
            for p in m.points() {
                assert!((p.point_a - p.point_b - m.normal * p.depth).length() <= tol, "{}", ctx());
                assert!(c.to_triangle(p.point_a) <= tol, "{}", ctx());
                assert!(c.outside(p.point_b) <= tol, "{}", ctx());
            }
        }
    }
    assert!(apart > 1000 && overlapping > 1000, "{apart} apart, {overlapping} overlapping");
}

#[test]
fn capsule_triangle_contacts_match_epa() {
    contacts_match_epa(false, 1202);
}

#[test]
fn box_triangle_contacts_match_epa() {
    contacts_match_epa(true, 1212);
}

/// A bumpy synthetic floor (a grid with random heights, flat patches among them, so some ridges are inactive and
/// the ghost-contact correction runs): the mesh's contacts with a capsule or a box equal those computed on the
/// general path (the shape hidden behind [`Opaque`]): the same penetration and deepest contact, and every contact
/// on the mesh and the shape, paired along its manifold's normal.
fn bumpy_mesh_matches_the_general_path(boxed: bool, seed: u64) {
    let mut rng = rng(seed);
    let n = 12;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            // Flat patches (height 0) over a third of the grid, bumps elsewhere.
            let h = if (i / 4 + j / 4) % 3 == 0 { 0.0 } else { uniform(&mut rng, -0.15, 0.15) };
            vertices.push(DVec3::new(i as f64 * 0.5, h, j as f64 * 0.5));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let k = (i * (n + 1) + j) as u32;
            let m = n as u32 + 1;
            triangles.push([k, k + 1, k + m + 1]);
            triangles.push([k, k + m + 1, k + m]);
        }
    }
    let mesh = TriMesh::new(vertices, triangles).unwrap();
    let (mut ours, mut general) = (Vec::new(), Vec::new());
    let mut compared = 0;
    for i in 0..400 {
        let turn = if i % 3 == 0 { DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2) } else { unit_quat(&mut rng) };
        let turn = if boxed && i % 3 == 0 { DQuat::from_rotation_y(uniform(&mut rng, -3.0, 3.0)) } else { turn };
        let at = DVec3::new(uniform(&mut rng, 0.5, 5.5), uniform(&mut rng, -0.2, 0.6), uniform(&mut rng, 0.5, 5.5));
        let pose = Iso::new(turn, at);
        let body = if boxed {
            let s =
                DVec3::new(uniform(&mut rng, 0.05, 0.6), uniform(&mut rng, 0.05, 0.4), uniform(&mut rng, 0.05, 0.6));
            Body::Cuboid(Cuboid::new(s).unwrap())
        } else {
            Body::Capsule(Capsule::new(uniform(&mut rng, 0.0, 0.6), uniform(&mut rng, 0.05, 0.4)).unwrap())
        };
        let c = Case { tri: [DVec3::ZERO; 3], body, pose, reach: 1.0 };
        let inside = |p: DVec3| c.outside(p);
        let id = Iso::identity();
        let (po, pg) = match &body {
            Body::Capsule(s) => {
                query::contacts(&mesh, &id, s, &pose, 0.1, &mut ours);
                query::contacts(&mesh, &id, &Convex(Opaque(s)), &pose, 0.1, &mut general);
                (query::penetration(&mesh, &id, s, &pose), query::penetration(&mesh, &id, &Convex(Opaque(s)), &pose))
            }
            Body::Cuboid(s) => {
                query::contacts(&mesh, &id, s, &pose, 0.1, &mut ours);
                query::contacts(&mesh, &id, &Convex(Opaque(s)), &pose, 0.1, &mut general);
                (query::penetration(&mesh, &id, s, &pose), query::penetration(&mesh, &id, &Convex(Opaque(s)), &pose))
            }
        };
        assert_eq!(po.intersecting, pg.intersecting);
        assert!((po.distance - pg.distance).abs() <= 1e-9, "penetration {po:?} vs {pg:?}");
        let ctx = || format!("case {i}: ours {ours:#?}\ngeneral {general:#?}");
        // Manifolds split and reduce differently where triangles tie (a shape across a shared edge), so the
        // comparison is on what does not depend on ties: the deepest contact, and every contact's invariants.
        let deepest = |m: &[query::Manifold<DVec3>]| m.iter().map(|m| m.max_depth()).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(ours.is_empty(), general.is_empty(), "{}", ctx());
        assert!((deepest(&ours) - deepest(&general)).abs() <= 1e-9 || ours.is_empty(), "{}", ctx());
        for (who, all) in [("ours", &ours), ("general", &general)] {
            for m in all.iter() {
                for p in m.points() {
                    // A point merged into a manifold keeps its own leaf's normal, up to the merging angle
                    // (MERGE_COS, about 0.8°: sin < 0.0142).
                    let pair = (p.point_a - p.point_b - m.normal * p.depth).length();
                    let pair_ok = pair <= 1e-9 + 0.0142 * p.depth.abs();
                    // A normal turned to the face's (a ghost contact on an inactive ridge) measures the separation
                    // along it from the shape's support point: the point on the mesh side is on the face's plane,
                    // not always inside the triangle (the general path does the same).
                    let facet = mesh.facet(p.part_a.unwrap());
                    let on = (facet.closest_point(p.point_a).0 - p.point_a).length();
                    let face = facet.normal().unwrap().dot(m.normal).abs() > 0.9999; // query::contact::MERGE_COS
                    let out = inside(p.point_b);
                    assert!(
                        pair_ok && (on <= 1e-9 || face) && out <= 1e-9,
                        "{who} {pair:e} {on:e} {out:e} {p:?} {}",
                        ctx()
                    );
                }
            }
        }
        compared += usize::from(!general.is_empty());
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn capsule_on_bumpy_mesh_matches_the_general_path() {
    bumpy_mesh_matches_the_general_path(false, 1203);
}

#[test]
fn box_on_bumpy_mesh_matches_the_general_path() {
    bumpy_mesh_matches_the_general_path(true, 1213);
}

/// f32: the mesh's contacts with a box or a capsule on one triangle (the closed form, with the shape prepared once
/// per query in the mesh's frame) against the same contacts on the general path (GJK, EPA, the clipper: the shape
/// hidden behind [`Opaque`]): the same manifolds' count and deepest contact, every contact on leaf 0. The far kind
/// poses the mesh and the shape 1e4 away rather than moving the corners, as f32 only resolves a size-1 pair there
/// through the poses' difference.
fn f32_contacts_match_the_general_path(boxed: bool, seed: u64) {
    let mut rng = rng(seed);
    let prediction = 0.25f32;
    let (mut ours, mut general) = (Vec::new(), Vec::new());
    let mut compared = 0;
    for kind in KINDS {
        for i in 0..1000 {
            let c = case(&mut rng, kind, boxed);
            let shift = if let Kind::FarOffset = kind { DVec3::new(1e4, -2e4, 3e4) } else { DVec3::ZERO };
            let f = |p: DVec3| Vec3::new(p.x as f32, p.y as f32, p.z as f32);
            let tri = c.tri.map(|p| f(p - shift));
            let mesh = TriMesh::new(tri.to_vec(), vec![[0, 1, 2]]).unwrap();
            let pm = Iso::from_translation(f(shift));
            let r = c.pose.rotation;
            let pose = Iso::new(Quat::from_xyzw(r.x as f32, r.y as f32, r.z as f32, r.w as f32), f(c.pose.translation));
            match &c.body {
                Body::Capsule(s) => {
                    let s = Capsule::new(s.half_height as f32, s.radius as f32).unwrap();
                    query::contacts(&mesh, &pm, &s, &pose, prediction, &mut ours);
                    query::contacts(&mesh, &pm, &Convex(Opaque(&s)), &pose, prediction, &mut general);
                }
                Body::Cuboid(s) => {
                    let s = Cuboid::new(f(s.half_extents)).unwrap();
                    query::contacts(&mesh, &pm, &s, &pose, prediction, &mut ours);
                    query::contacts(&mesh, &pm, &Convex(Opaque(&s)), &pose, prediction, &mut general);
                }
            }
            let deepest =
                |m: &[query::Manifold<Vec3>]| m.iter().map(|m| m.max_depth()).fold(f64::NEG_INFINITY, f64::max);
            // f32 rounding of size-1 numbers, and of the poses' difference 1e4 away.
            let tol = 2e-4 + 4.0 * f64::from(f32::EPSILON) * shift.abs().max_element();
            let ctx = || format!("{kind:?} case {i} {:?} {:?}: ours {ours:?}\ngeneral {general:?}", c.body, c.pose);
            // At the prediction distance either answer is right.
            let at_bound = |m: &[query::Manifold<Vec3>]| (deepest(m) + f64::from(prediction)).abs() <= tol;
            if ours.is_empty() != general.is_empty() {
                assert!(at_bound(&ours) || at_bound(&general), "{}", ctx());
                continue;
            }
            if ours.is_empty() {
                continue;
            }
            compared += 1;
            assert_eq!(ours.len(), 1, "{}", ctx());
            assert_eq!(general.len(), 1, "{}", ctx());
            assert!((deepest(&ours) - deepest(&general)).abs() <= tol, "{}", ctx());
            assert!(ours[0].points().iter().all(|p| p.part_a == Some(0) && p.part_b.is_none()), "{}", ctx());
        }
    }
    assert!(compared > 2000, "{compared}");
}

#[test]
fn f32_capsule_triangle_contacts_match_the_general_path() {
    f32_contacts_match_the_general_path(false, 1204);
}

#[test]
fn f32_box_triangle_contacts_match_the_general_path() {
    f32_contacts_match_the_general_path(true, 1214);
}

/// The closed form drops a triangle on the shape's own box axes before anything else: a triangle lying just within
/// the prediction beyond a face of the box (or the end of the capsule's box) is kept, one just beyond it is not,
/// turned and 1e4 away as near the origin.
#[test]
fn triangles_at_the_prediction_beyond_a_box_axis_are_kept_within_and_dropped_beyond() {
    let mut rng = rng(1221);
    let prediction = 0.1;
    let cuboid = Cuboid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap();
    let capsule = Capsule::new(0.5, 0.2).unwrap();
    let mut out = Vec::new();
    for i in 0..200 {
        let (turn, shift) =
            if i == 0 { (DQuat::IDENTITY, DVec3::ZERO) } else { (unit_quat(&mut rng), DVec3::new(1e4, 2e4, -1e4)) };
        let pose = Iso::new(turn, shift);
        for (top, boxed) in [(0.3, true), (0.7, false)] {
            for (margin, kept) in [(-1e-7, true), (1e-7, false)] {
                // A wide triangle in the plane y = top + gap of the shape's frame, facing it.
                let y = top + prediction + margin;
                let local = [DVec3::new(-3.0, y, -3.0), DVec3::new(3.0, y, -3.0), DVec3::new(0.0, y, 3.0)];
                let mesh = TriMesh::new(local.map(|p| pose.transform_point(p)).to_vec(), vec![[0, 1, 2]]).unwrap();
                if boxed {
                    query::contacts(&mesh, &Iso::identity(), &cuboid, &pose, prediction, &mut out);
                } else {
                    query::contacts(&mesh, &Iso::identity(), &capsule, &pose, prediction, &mut out);
                }
                assert_eq!(!out.is_empty(), kept, "case {i} boxed {boxed} margin {margin}: {out:?}");
                if kept {
                    let gap = prediction + margin;
                    assert!((out[0].max_depth() + gap).abs() <= 1e-9, "case {i} boxed {boxed}: {out:?}");
                }
            }
        }
    }
}
