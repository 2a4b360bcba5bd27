//! GJK against an exact brute force on random convex polytopes: the distance from the origin to the convex hull
//! of all pairwise differences of the two shapes' world vertices, found by projecting the origin onto every
//! subset of 1..=DIM difference points and keeping the supporting candidates (`common::brute_closest3`). No GJK
//! and no hull code is involved in the reference.
//!
//! Polytopes have 4–8 vertices (3D) or 3–8 (2D), some of them degenerate: coplanar, collinear, with duplicated
//! points, or a single point. Pairs are placed at random (separated or overlapping), nearly touching (moved along
//! the exact closest direction to a gap of 1e-6), or overlapping (centres close).
//!
//! Tolerance: 1e-9 relative to max(distance, shape size). GJK on polytopes ends on an exact face of the
//! Minkowski difference, so its answer is as exact as the projection arithmetic (≈ 1e-15 relative); 1e-9 is the
//! accuracy the suite promises and leaves room for ill-conditioned faces.

use crate::common::*;
use gjk::math::{DVec2, DVec3, Iso, Rot2};
use gjk::shape::ConvexPolytope;
use rand::rngs::SmallRng;
use rand::Rng;

/// Relative tolerance (see the module docs).
const REL: f64 = 1e-9;
/// The gap of the nearly-touching pairs.
const NEAR_GAP: f64 = 1e-6;
/// Pairs per dimension.
const PAIRS: usize = 3000;

/// What a point cloud degenerates to, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Solid,
    Coplanar,
    Collinear,
    Duplicated,
    Single,
}

fn draw_kind(rng: &mut SmallRng, dim: usize) -> Kind {
    match rng.gen_range(0..10) {
        0 if dim == 3 => Kind::Coplanar,
        1 => Kind::Collinear,
        2 => Kind::Duplicated,
        3 => Kind::Single,
        _ => Kind::Solid,
    }
}

/// How a pair is placed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Placement {
    Random,
    NearlyTouching,
    Overlapping,
}

fn draw_placement(rng: &mut SmallRng) -> Placement {
    match rng.gen_range(0..20) {
        0..=7 => Placement::Random,
        8..=14 => Placement::NearlyTouching,
        _ => Placement::Overlapping,
    }
}

/// A local point cloud of `kind` with `n` points, inside an anisotropic box of half-size ≤ 1.5.
fn cloud3(rng: &mut SmallRng, kind: Kind, n: usize) -> Vec<DVec3> {
    let axes = DVec3::new(uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5));
    let pt = |rng: &mut SmallRng| in_cube3(rng, 1.0) * axes;
    match kind {
        Kind::Solid => (0..n).map(|_| pt(rng)).collect(),
        // Exactly flat in the local frame (z = 0); the pose tilts the plane.
        Kind::Coplanar => (0..n).map(|_| pt(rng) * DVec3::new(1.0, 1.0, 0.0)).collect(),
        // Exactly on the local x axis.
        Kind::Collinear => (0..n).map(|_| DVec3::X * uniform(rng, -1.5, 1.5)).collect(),
        Kind::Duplicated => {
            let base: Vec<DVec3> = (0..rng.gen_range(1..=4)).map(|_| pt(rng)).collect();
            (0..n).map(|i| if i < base.len() { base[i] } else { base[rng.gen_range(0..base.len())] }).collect()
        }
        Kind::Single => vec![pt(rng); rng.gen_range(1..=3)],
    }
}

/// [`cloud3`] in 2D (no coplanar kind).
fn cloud2(rng: &mut SmallRng, kind: Kind, n: usize) -> Vec<DVec2> {
    let axes = DVec2::new(uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5));
    let pt = |rng: &mut SmallRng| in_square2(rng, 1.0) * axes;
    match kind {
        Kind::Solid | Kind::Coplanar => (0..n).map(|_| pt(rng)).collect(),
        Kind::Collinear => (0..n).map(|_| DVec2::X * uniform(rng, -1.5, 1.5)).collect(),
        Kind::Duplicated => {
            let base: Vec<DVec2> = (0..rng.gen_range(1..=3)).map(|_| pt(rng)).collect();
            (0..n).map(|i| if i < base.len() { base[i] } else { base[rng.gen_range(0..base.len())] }).collect()
        }
        Kind::Single => vec![pt(rng); rng.gen_range(1..=3)],
    }
}

/// Largest |local vertex|: the shape's size.
fn size_of<T: Copy>(pts: &[T], len: impl Fn(T) -> f64) -> f64 {
    pts.iter().fold(0.0f64, |m, &p| m.max(len(p)))
}

/// Figures of one dimension's run, printed at the end.
#[derive(Default)]
struct Report {
    pairs: usize,
    separated: usize,
    near: usize,
    intersecting: usize,
    max_rel: f64,
    iterations: u64,
    max_iterations: u32,
}

impl Report {
    fn print(&self, name: &str) {
        println!(
            "{name}: {} pairs ({} separated, {} of them at gap {NEAR_GAP:e}; {} intersecting), \
             max relative error vs brute force {:.3e}, iterations mean {:.2} max {}",
            self.pairs,
            self.separated,
            self.near,
            self.intersecting,
            self.max_rel,
            self.iterations as f64 / self.pairs as f64,
            self.max_iterations
        );
    }
}

/// Compares one answer with the brute-force closest point (`None`: the origin is inside A − B).
fn check(
    d: &gjk::Distance<impl gjk::math::Vector<Real = f64>>,
    want: Option<f64>,
    size: f64,
    report: &mut Report,
    ctx: &dyn Fn() -> String,
) -> f64 {
    report.pairs += 1;
    report.iterations += d.iterations as u64;
    report.max_iterations = report.max_iterations.max(d.iterations);
    assert!(d.distance.is_finite() && d.distance >= 0.0, "bad distance: {}", ctx());
    assert!(!d.intersecting || d.distance == 0.0, "intersecting with a distance: {}", ctx());
    match want {
        None => {
            assert!(d.intersecting, "origin inside A − B but not intersecting: {}", ctx());
            report.intersecting += 1;
            0.0
        }
        Some(want) => {
            let err = rel_err(d.distance, want, size);
            assert!(err <= REL, "distance {:e} want {want:e}: rel err {err:e}: {}", d.distance, ctx());
            if want > REL * size {
                assert!(!d.intersecting, "separated by {want:e} but intersecting: {}", ctx());
                report.separated += 1;
            } else if d.intersecting {
                report.intersecting += 1;
            }
            report.max_rel = report.max_rel.max(err);
            err
        }
    }
}

/// The reference itself on configurations known by hand: unit cubes 0.5 apart face to face, edge to edge
/// (distance √2·0.5) and corner to corner (√3·0.5); overlapping cubes; squares in 2D.
#[test]
fn brute_force_reference_on_known_configurations() {
    let cube: Vec<DVec3> = (0..8)
        .map(|i| DVec3::new((i & 1) as f64 - 0.5, ((i >> 1) & 1) as f64 - 0.5, ((i >> 2) & 1) as f64 - 0.5))
        .collect();
    let moved = |t: DVec3| cube.iter().map(|&p| p + t).collect::<Vec<_>>();
    let cases = [
        (DVec3::new(1.5, 0.3, -0.2), 0.5),
        (DVec3::new(1.5, 1.5, 0.1), 0.5 * 2f64.sqrt()),
        (DVec3::new(1.5, 1.5, 1.5), 0.5 * 3f64.sqrt()),
        (DVec3::new(0.5, 0.5, 0.5), 0.0),
    ];
    for (t, want) in cases {
        let got = brute_distance3(&differences(&cube, &moved(t)));
        assert!((got - want).abs() < 1e-15, "offset {t:?}: got {got} want {want}");
    }
    assert!(brute_closest3(&differences(&cube, &moved(DVec3::splat(0.2)))).is_none());
    let square: Vec<DVec2> = cube.iter().take(4).map(|p| p.truncate()).collect();
    let got =
        brute_distance2(&differences(&square, &square.iter().map(|&p| p + DVec2::new(1.25, 1.5)).collect::<Vec<_>>()));
    assert!((got - 0.25f64.hypot(0.5)).abs() < 1e-15, "2D got {got}");
}

#[test]
fn random_polytopes_3d_against_brute_force() {
    let mut rng = rng(101);
    let mut report = Report::default();
    for case in 0..PAIRS {
        let (ka, kb) = (draw_kind(&mut rng, 3), draw_kind(&mut rng, 3));
        let (na, nb) = (rng.gen_range(4..=8), rng.gen_range(4..=8));
        let (a, b) = (cloud3(&mut rng, ka, na), cloud3(&mut rng, kb, nb));
        let placement = draw_placement(&mut rng);
        let pa = pose3(&mut rng, 1.0);
        let reach = if placement == Placement::Overlapping { 0.2 } else { 4.0 };
        let mut pb = Iso::new(unit_quat(&mut rng), pa.translation + unit3(&mut rng) * uniform(&mut rng, 0.0, reach));
        let world = |pose: &Iso<DVec3>, pts: &[DVec3]| pts.iter().map(|&p| pose.transform_point(p)).collect::<Vec<_>>();
        if placement == Placement::NearlyTouching {
            // A − B lies beyond the plane through its closest point x perpendicular to x, so moving B by
            // (|x| − gap) along x̂ (toward A) leaves exactly `gap` between them.
            if let Some(x) = brute_closest3(&differences(&world(&pa, &a), &world(&pb, &b))) {
                if x.length() > 10.0 * NEAR_GAP {
                    pb.translation += x.normalize() * (x.length() - NEAR_GAP);
                }
            }
        }
        let (sa, sb) = (ConvexPolytope::new(&a).unwrap(), ConvexPolytope::new(&b).unwrap());
        let d = gjk::distance(&sa, &pa, &sb, &pb);
        let want = brute_closest3(&differences(&world(&pa, &a), &world(&pb, &b))).map(|x| x.length());
        let size = size_of(&a, DVec3::length).max(size_of(&b, DVec3::length));
        let ctx = || format!("case {case} {ka:?} {kb:?} {placement:?}: A {a:?} {pa:?} B {b:?} {pb:?} -> {d:?}");
        check(&d, want, size, &mut report, &ctx);
        if want.is_some_and(|w| w > REL * size) {
            assert!((d.normal.length() - 1.0).abs() < 1e-12, "normal not unit: {}", ctx());
            let gap = (d.point_b - d.point_a) - d.normal * d.distance;
            assert!(gap.length() <= REL * size, "point_b - point_a != distance * normal: {}", ctx());
            if placement == Placement::NearlyTouching && want.is_some_and(|w| (w - NEAR_GAP).abs() < 1e-9) {
                report.near += 1;
            }
        }
    }
    report.print("3D polytopes");
    assert!(report.near > PAIRS / 5 && report.intersecting > PAIRS / 10, "placement mix too thin");
}

#[test]
fn random_polygons_2d_against_brute_force() {
    let mut rng = rng(102);
    let mut report = Report::default();
    for case in 0..PAIRS {
        let (ka, kb) = (draw_kind(&mut rng, 2), draw_kind(&mut rng, 2));
        let (na, nb) = (rng.gen_range(3..=8), rng.gen_range(3..=8));
        let (a, b) = (cloud2(&mut rng, ka, na), cloud2(&mut rng, kb, nb));
        let placement = draw_placement(&mut rng);
        let pa = pose2(&mut rng, 1.0);
        let reach = if placement == Placement::Overlapping { 0.2 } else { 4.0 };
        let mut pb = Iso::new(
            Rot2::from_angle(angle(&mut rng)),
            pa.translation + unit2(&mut rng) * uniform(&mut rng, 0.0, reach),
        );
        let world = |pose: &Iso<DVec2>, pts: &[DVec2]| pts.iter().map(|&p| pose.transform_point(p)).collect::<Vec<_>>();
        if placement == Placement::NearlyTouching {
            if let Some(x) = brute_closest2(&differences(&world(&pa, &a), &world(&pb, &b))) {
                if x.length() > 10.0 * NEAR_GAP {
                    pb.translation += x.normalize() * (x.length() - NEAR_GAP);
                }
            }
        }
        let (sa, sb) = (ConvexPolytope::new(&a).unwrap(), ConvexPolytope::new(&b).unwrap());
        let d = gjk::distance(&sa, &pa, &sb, &pb);
        let want = brute_closest2(&differences(&world(&pa, &a), &world(&pb, &b))).map(|x| x.length());
        let size = size_of(&a, DVec2::length).max(size_of(&b, DVec2::length));
        let ctx = || format!("case {case} {ka:?} {kb:?} {placement:?}: A {a:?} {pa:?} B {b:?} {pb:?} -> {d:?}");
        check(&d, want, size, &mut report, &ctx);
        if want.is_some_and(|w| w > REL * size) {
            assert!((d.normal.length() - 1.0).abs() < 1e-12, "normal not unit: {}", ctx());
            let gap = (d.point_b - d.point_a) - d.normal * d.distance;
            assert!(gap.length() <= REL * size, "point_b - point_a != distance * normal: {}", ctx());
            if placement == Placement::NearlyTouching && want.is_some_and(|w| (w - NEAR_GAP).abs() < 1e-9) {
                report.near += 1;
            }
        }
    }
    report.print("2D polygons");
    assert!(report.near > PAIRS / 5 && report.intersecting > PAIRS / 10, "placement mix too thin");
}
