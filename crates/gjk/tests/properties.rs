//! Properties every answer must have, on random shapes and poses (proptest, fixed seed, no persistence files):
//! symmetry, invariance under a common rigid motion (also 1e4 and 1e6 from the origin), witness points on their
//! shapes, non-negative distances, `intersects` agreeing with `distance`, observers not changing results and
//! seeing one step per iteration (GJK's and EPA's, whose record must describe the answer), and warm starts
//! agreeing with cold queries.
//!
//! Tolerances:
//! * Distances: 1e-9 relative to max(distance, size); both answers are within 64·eps of the truth.
//! * Normals (and witness points of strictly convex shapes): GJK stops when the duality gap |v|² − v·w is below
//!   64·eps·|v|² (plus rounding noise), or when no progress is possible and its bounds meet to 1024·eps·scale.
//!   Either bounds the distance well within 1e-9, but the direction of v only by the square root: for v and the
//!   exact v* in A − B, |v − v*|² ≤ |v|² − |v*|² ≤ 2|v|(|v| − d), so |v − v*|/|v| ≤ √(2·(64·eps + 1024·eps·scale/d))
//!   ([`normal_tol`], doubled for comparing two answers). On curved shapes the stop does come that early. A run
//!   that stalls reports its own bound (`error_bound` = |v| − lower bound), which adds √(2·error_bound/d).
//! * Far from the origin: composing a motion with a translation T rounds each pose's translation to ulp(|T|)/2
//!   per coordinate, which moves the shapes relative to each other by up to √3·ulp(|T|) (2e-10 at 1e6), so
//!   invariance allows 8·eps·|T| on top of the relative tolerance.

use crate::common::Space3;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2, Vec3, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Point, Rounded, Segment, SupportMap, Triangle,
};
use gjk::trace::{Decision, Recorder};
use gjk::{distance, distance_with, intersection, intersects, penetration_with, DistanceOptions, WarmStart};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Relative tolerance on distances.
const REL: f64 = 1e-9;
/// Tolerance on the difference of two normals (or of two witnesses of strictly convex shapes, relative to the
/// distance) reported at distance `d` for shapes of size `size`, in a precision with machine epsilon `eps`: twice
/// the bound of the module docs, for two answers.
fn normal_tol(eps: f64, d: f64, size: f64) -> f64 {
    let scale = 2.0 * size + d;
    2.0 * (2.0 * (64.0 * eps + 1024.0 * eps * scale / d)).sqrt()
}

/// The direction slack of answers that reported an error bound (stalled runs): √(2·error_bound/d) each.
fn stalled_slack(d: f64, bounds: &[f64]) -> f64 {
    bounds.iter().map(|eb| (2.0 * eb / d).sqrt()).sum()
}

fn config(cases: u32, seed: u64) -> Config {
    Config { cases, failure_persistence: None, rng_seed: RngSeed::Fixed(seed), ..Config::default() }
}

// -------------------------------------------------------------------------------------------------------------
// Shapes and poses.

#[derive(Clone, Debug)]
enum Shape3 {
    Ball(f64),
    Cuboid(DVec3),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Ellipsoid(DVec3),
    Hull(Vec<DVec3>),
    Segment(DVec3, DVec3),
    Triangle(DVec3, DVec3, DVec3),
    RoundedBox(DVec3, f64),
}

impl Shape3 {
    /// The shape in precision `V` (sizes cast from f64).
    fn build<V: Space3>(&self) -> Box<dyn SupportMap<V>> {
        let r = |x: f64| V::Real::from_f64(x);
        let v = V::from64;
        match self {
            Shape3::Ball(x) => Box::new(Ball::new(r(*x)).unwrap()),
            Shape3::Cuboid(h) => Box::new(Cuboid::new(v(*h)).unwrap()),
            Shape3::Capsule(hh, x) => Box::new(Capsule::new(r(*hh), r(*x)).unwrap()),
            Shape3::Cylinder(hh, x) => Box::new(Cylinder::new(r(*hh), r(*x)).unwrap()),
            Shape3::Cone(hh, x) => Box::new(Cone::new(r(*hh), r(*x)).unwrap()),
            Shape3::Ellipsoid(radii) => Box::new(Ellipsoid::new(v(*radii)).unwrap()),
            Shape3::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| v(q)).collect::<Vec<_>>()).unwrap()),
            Shape3::Segment(a, b) => Box::new(Segment::new(v(*a), v(*b)).unwrap()),
            Shape3::Triangle(a, b, c) => Box::new(Triangle::new(v(*a), v(*b), v(*c)).unwrap()),
            Shape3::RoundedBox(h, x) => Box::new(Rounded::new(Cuboid::new(v(*h)).unwrap(), r(*x)).unwrap()),
        }
    }

    /// Radius of a ball about the local origin holding the shape.
    fn size(&self) -> f64 {
        match self {
            Shape3::Ball(r) => *r,
            Shape3::Cuboid(h) | Shape3::Ellipsoid(h) => h.length(),
            Shape3::Capsule(hh, r) => hh + r,
            Shape3::Cylinder(hh, r) | Shape3::Cone(hh, r) => hh.hypot(*r),
            Shape3::Hull(p) => p.iter().fold(0.0f64, |m, v| m.max(v.length())),
            Shape3::Segment(a, b) => a.length().max(b.length()),
            Shape3::Triangle(a, b, c) => a.length().max(b.length()).max(c.length()),
            Shape3::RoundedBox(h, r) => h.length() + r,
        }
    }
}

fn size() -> impl Strategy<Value = f64> {
    0.1f64..1.5
}

fn vec3(s: f64) -> impl Strategy<Value = DVec3> {
    (-s..s, -s..s, -s..s).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

fn half_extents() -> impl Strategy<Value = DVec3> {
    (size(), size(), size()).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

fn shape3() -> impl Strategy<Value = Shape3> {
    prop_oneof![
        size().prop_map(Shape3::Ball),
        half_extents().prop_map(Shape3::Cuboid),
        (size(), size()).prop_map(|(h, r)| Shape3::Capsule(h, 0.5 * r)),
        (size(), size()).prop_map(|(h, r)| Shape3::Cylinder(h, r)),
        (size(), size()).prop_map(|(h, r)| Shape3::Cone(h, r)),
        half_extents().prop_map(Shape3::Ellipsoid),
        prop::collection::vec(vec3(1.2), 4..=8).prop_map(Shape3::Hull),
        (vec3(1.2), vec3(1.2)).prop_map(|(a, b)| Shape3::Segment(a, b)),
        (vec3(1.2), vec3(1.2), vec3(1.2)).prop_map(|(a, b, c)| Shape3::Triangle(a, b, c)),
        (half_extents(), size()).prop_map(|(h, r)| Shape3::RoundedBox(h * 0.7, 0.3 * r)),
    ]
}

fn strictly_convex_shape3() -> impl Strategy<Value = Shape3> {
    prop_oneof![size().prop_map(Shape3::Ball), half_extents().prop_map(Shape3::Ellipsoid)]
}

/// A uniformly distributed rotation (Shoemake's method from three uniforms).
fn quat() -> impl Strategy<Value = DQuat> {
    (0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0).prop_map(|(u1, u2, u3)| {
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        DQuat::from_xyzw(a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos())
    })
}

fn unit3() -> impl Strategy<Value = DVec3> {
    (-1.0f64..1.0, -std::f64::consts::PI..std::f64::consts::PI).prop_map(|(z, phi)| {
        let s = (1.0 - z * z).max(0.0).sqrt();
        DVec3::new(s * phi.cos(), s * phi.sin(), z)
    })
}

/// Two poses: A anywhere near the origin, B at 0 … 4 from it in a random direction (separated, touching or
/// overlapping depending on the shapes).
fn poses3() -> impl Strategy<Value = (Iso<DVec3>, Iso<DVec3>)> {
    (quat(), vec3(2.0), quat(), unit3(), 0.0f64..4.0)
        .prop_map(|(qa, ta, qb, dir, dist)| (Iso::new(qa, ta), Iso::new(qb, ta + dir * dist)))
}

/// `motion` applied after `pose`, computed here rather than with the library's `compose`.
fn moved(motion: &Iso<DVec3>, pose: &Iso<DVec3>) -> Iso<DVec3> {
    Iso::new(motion.rotation * pose.rotation, motion.rotation * pose.translation + motion.translation)
}

// -------------------------------------------------------------------------------------------------------------
// 2D shapes.

#[derive(Clone, Debug)]
enum Shape2 {
    Ball(f64),
    Cuboid(DVec2),
    Capsule(f64, f64),
    Ellipse(DVec2),
    Polygon(Vec<DVec2>),
    Segment(DVec2, DVec2),
    Triangle(DVec2, DVec2, DVec2),
}

impl Shape2 {
    fn build(&self) -> Box<dyn SupportMap<DVec2>> {
        match self {
            Shape2::Ball(r) => Box::new(Ball::new(*r).unwrap()),
            Shape2::Cuboid(h) => Box::new(Cuboid::new(*h).unwrap()),
            Shape2::Capsule(hh, r) => Box::new(Capsule::new(*hh, *r).unwrap()),
            Shape2::Ellipse(r) => Box::new(Ellipsoid::new(*r).unwrap()),
            Shape2::Polygon(p) => Box::new(ConvexPolytope::new(p).unwrap()),
            Shape2::Segment(a, b) => Box::new(Segment::new(*a, *b).unwrap()),
            Shape2::Triangle(a, b, c) => Box::new(Triangle::new(*a, *b, *c).unwrap()),
        }
    }

    fn size(&self) -> f64 {
        match self {
            Shape2::Ball(r) => *r,
            Shape2::Cuboid(h) | Shape2::Ellipse(h) => h.length(),
            Shape2::Capsule(hh, r) => hh + r,
            Shape2::Polygon(p) => p.iter().fold(0.0f64, |m, v| m.max(v.length())),
            Shape2::Segment(a, b) => a.length().max(b.length()),
            Shape2::Triangle(a, b, c) => a.length().max(b.length()).max(c.length()),
        }
    }
}

fn vec2(s: f64) -> impl Strategy<Value = DVec2> {
    (-s..s, -s..s).prop_map(|(x, y)| DVec2::new(x, y))
}

fn shape2() -> impl Strategy<Value = Shape2> {
    prop_oneof![
        size().prop_map(Shape2::Ball),
        (size(), size()).prop_map(|(x, y)| Shape2::Cuboid(DVec2::new(x, y))),
        (size(), size()).prop_map(|(h, r)| Shape2::Capsule(h, 0.5 * r)),
        (size(), size()).prop_map(|(x, y)| Shape2::Ellipse(DVec2::new(x, y))),
        prop::collection::vec(vec2(1.2), 3..=8).prop_map(Shape2::Polygon),
        (vec2(1.2), vec2(1.2)).prop_map(|(a, b)| Shape2::Segment(a, b)),
        (vec2(1.2), vec2(1.2), vec2(1.2)).prop_map(|(a, b, c)| Shape2::Triangle(a, b, c)),
    ]
}

fn poses2() -> impl Strategy<Value = (Iso<DVec2>, Iso<DVec2>)> {
    let pi = std::f64::consts::PI;
    (-pi..pi, vec2(2.0), -pi..pi, -pi..pi, 0.0f64..4.0).prop_map(|(aa, ta, ab, dir, dist)| {
        (
            Iso::new(Rot2::from_angle(aa), ta),
            Iso::new(Rot2::from_angle(ab), ta + DVec2::new(dir.cos(), dir.sin()) * dist),
        )
    })
}

// -------------------------------------------------------------------------------------------------------------
// Checks shared by the properties.

/// A penetration query watched by a [`Recorder`] answers as an unwatched one, and the record describes the run: one
/// GJK step per GJK iteration and one EPA step per EPA iteration (numbered from 1), faces of `DIM` valid indices,
/// the nearest face's plane at `lower` along `normal` (which checks the indices and the turn into the world),
/// `lower ≤ upper`, and, when EPA converged, its last lower bound plus the radii is the reported depth.
fn penetration_record_describes_the_answer<V: Vector<Real = f64>>(
    a: &dyn SupportMap<V>,
    pa: &Iso<V>,
    b: &dyn SupportMap<V>,
    pb: &Iso<V>,
    size: f64,
) -> Result<(), TestCaseError> {
    let opts = DistanceOptions::default();
    let quiet = penetration_with(a, pa, b, pb, &opts, &mut ());
    let mut rec = Recorder::default();
    let watched = penetration_with(a, pa, b, pb, &opts, &mut rec);
    prop_assert_eq!(quiet, watched);
    prop_assert_eq!(rec.steps.len() + rec.epa_steps.len(), quiet.iterations as usize);
    let tol = 1e-9 * size;
    for (i, s) in rec.epa_steps.iter().enumerate() {
        prop_assert_eq!(s.iteration as usize, i + 1);
        prop_assert_eq!(s.face_indices.len() % V::DIM, 0);
        prop_assert!(s.face_indices.iter().all(|&k| (k as usize) < s.vertices.len()), "{:?}", s);
        let nearest = s.faces().nth(s.nearest).expect("the nearest face is a face");
        for &k in nearest {
            let off = s.normal.dot(s.vertices[k as usize]) - s.lower;
            prop_assert!(off.abs() <= tol, "nearest face {:?} off its plane by {}: {:?}", nearest, off, s);
        }
        prop_assert!((s.normal.length() - 1.0).abs() <= 1e-12);
        prop_assert!(s.lower <= s.upper + tol, "{:?}", s);
        prop_assert!(s.normal.dot(s.support) >= s.upper - tol, "{:?}", s);
        let last = i + 1 == rec.epa_steps.len();
        prop_assert_eq!(s.decision == Decision::Continue, !last, "{:?}", s);
    }
    if let Some(last) = rec.epa_steps.last() {
        if last.decision == Decision::Converged && last.lower >= 0.0 {
            let radii = a.radius() + b.radius();
            prop_assert!((last.lower + radii - quiet.depth).abs() <= tol, "{:?} vs {:?}", last, quiet);
        }
    }
    Ok(())
}

/// Distance from the world point `p` to `shape` at `pose`, asked of the library with a `Point` shape.
fn point_to_shape<V: Vector>(p: V, shape: &dyn SupportMap<V>, pose: &Iso<V>) -> f64 {
    let point = Point::new(p).expect("witness points are finite");
    distance(&point, &Iso::identity(), shape, pose).distance.to_f64()
}

/// Distance non-negative and finite, `intersecting` exactly when the distance is zero, unit normal and
/// point_b − point_a = distance · normal when separated.
fn basic_answer<V: Vector>(d: &gjk::Distance<V>, size: f64) -> Result<(), TestCaseError> {
    let dist = d.distance.to_f64();
    prop_assert!(dist.is_finite() && dist >= 0.0, "distance {dist}");
    prop_assert_eq!(d.intersecting, dist == 0.0, "intersecting flag vs distance {}", dist);
    let points = [d.point_a, d.point_b, d.normal];
    prop_assert!(points.iter().all(|p| p.is_finite()), "non-finite output {:?}", d);
    if !d.intersecting {
        let eps = V::Real::EPSILON.to_f64();
        prop_assert!((d.normal.length().to_f64() - 1.0).abs() <= 64.0 * eps, "normal not unit {:?}", d.normal);
        let gap = ((d.point_b - d.point_a) - d.normal * d.distance).length().to_f64();
        prop_assert!(gap <= REL * size.max(dist), "point_b - point_a - distance * normal = {gap:e}");
    }
    Ok(())
}

// -------------------------------------------------------------------------------------------------------------
// 3D properties.

proptest! {
    #![proptest_config(config(512, 0x5eed_0001))]

    #[test]
    fn distance_is_symmetric_normals_negate(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let ab = distance(&*sa, &pa, &*sb, &pb);
        let ba = distance(&*sb, &pb, &*sa, &pa);
        basic_answer(&ab, size)?;
        basic_answer(&ba, size)?;
        let scale = ab.distance.max(size);
        prop_assert!((ab.distance - ba.distance).abs() <= REL * scale, "d(A,B) {} d(B,A) {}", ab.distance, ba.distance);
        if ab.distance > REL * size && ba.distance > REL * size {
            let tol = normal_tol(f64::EPSILON, ab.distance, size)
                + stalled_slack(ab.distance, &[ab.error_bound, ba.error_bound]);
            prop_assert!((ab.normal + ba.normal).length() <= tol, "normals {:?} {:?}", ab.normal, ba.normal);
            // The swapped points lie on the same supporting planes (the closest pair need not be unique).
            let n = ab.normal;
            prop_assert!((ba.point_a - ab.point_b).dot(n).abs() <= tol * scale, "B's witnesses off one plane");
            prop_assert!((ba.point_b - ab.point_a).dot(n).abs() <= tol * scale, "A's witnesses off one plane");
        }
    }

    #[test]
    fn witness_points_swap_for_strictly_convex_shapes(
        a in strictly_convex_shape3(), b in strictly_convex_shape3(), (pa, pb) in poses3()
    ) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let ab = distance(&*sa, &pa, &*sb, &pb);
        let ba = distance(&*sb, &pb, &*sa, &pa);
        if !ab.intersecting && !ba.intersecting {
            // Unique closest points, as accurate as the normal (see the module docs).
            let tol = (normal_tol(f64::EPSILON, ab.distance, size)
                + stalled_slack(ab.distance, &[ab.error_bound, ba.error_bound]))
                * ab.distance.max(size);
            prop_assert!((ab.point_a - ba.point_b).length() <= tol, "{:?} vs {:?}", ab.point_a, ba.point_b);
            prop_assert!((ab.point_b - ba.point_a).length() <= tol, "{:?} vs {:?}", ab.point_b, ba.point_a);
        }
    }

    #[test]
    fn distance_invariant_under_common_rigid_motion(
        a in shape3(), b in shape3(), (pa, pb) in poses3(), rot in quat(), dir in unit3(),
        far in prop_oneof![Just(0.0), 0.0f64..10.0, Just(1e4), Just(1e6)]
    ) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let motion = Iso::new(rot, dir * far);
        let here = distance(&*sa, &pa, &*sb, &pb);
        let there = distance(&*sa, &moved(&motion, &pa), &*sb, &moved(&motion, &pb));
        basic_answer(&there, size)?;
        let tol = REL * here.distance.max(size) + 8.0 * f64::EPSILON * far;
        prop_assert!((here.distance - there.distance).abs() <= tol,
            "distance {} moved {} (far {far:e})", here.distance, there.distance);
        if here.distance > tol && there.distance > tol {
            let turned = rot * here.normal;
            // Plus the relative displacement the rounding of far poses causes, over the distance.
            let ntol = normal_tol(f64::EPSILON, here.distance, size)
                + stalled_slack(here.distance, &[here.error_bound, there.error_bound])
                + 8.0 * f64::EPSILON * far / here.distance;
            prop_assert!((turned - there.normal).length() <= ntol, "normal {:?} moved {:?}", turned, there.normal);
        }
    }

    #[test]
    fn witness_points_lie_on_their_shapes(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let d = distance(&*sa, &pa, &*sb, &pb);
        basic_answer(&d, size)?;
        let (on_a, on_b) = (point_to_shape(d.point_a, &*sa, &pa), point_to_shape(d.point_b, &*sb, &pb));
        prop_assert!(on_a <= REL * size, "point_a {:e} from A ({:?})", on_a, d);
        prop_assert!(on_b <= REL * size, "point_b {:e} from B ({:?})", on_b, d);
    }

    /// The witness simplex is what the docs say: weights ≥ 0 summing to one (to rounding: 8·eps per weight), whose
    /// combination of the points is the closest point of the cores' difference, at distance + radii from the
    /// origin when separated. Weights that do not sum to one scale v off A − B and make the distance an
    /// underestimate that `error_bound` does not cover.
    #[test]
    fn witness_simplex_is_a_convex_combination(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let d = distance(&*sa, &pa, &*sb, &pb);
        let s = &d.simplex;
        prop_assert!((1..=4).contains(&s.len), "simplex of {} points", s.len);
        let weights = &s.weights[..s.len];
        prop_assert!(weights.iter().all(|&w| w >= 0.0), "negative weight {:?}", weights);
        let sum: f64 = weights.iter().sum();
        prop_assert!((sum - 1.0).abs() <= 8.0 * f64::EPSILON * s.len as f64, "weights sum to 1 {:+e}", sum - 1.0);
        if !d.intersecting {
            let v: DVec3 = s.points[..s.len].iter().zip(weights).map(|(p, w)| *p * *w).sum();
            let radii = sa.radius() + sb.radius();
            prop_assert!((v.length() - (d.distance + radii)).abs() <= REL * size, "|v| {} vs distance + radii {}",
                v.length(), d.distance + radii);
        }
    }

    /// `Status::Converged` means "the answer meets the tolerance": the run's own bounds (`error_bound` = upper −
    /// lower) are within the default relative tolerance 64·eps of the distance, or within the rounding allowance of
    /// a run that can make no more progress (1024·eps·scale, scale ≤ the sum of the shapes' sizes plus the
    /// distance).
    #[test]
    fn converged_answers_meet_the_tolerance(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let d = distance(&*sa, &pa, &*sb, &pb);
        if d.status == gjk::Status::Converged && !d.intersecting {
            let scale = 2.0 * a.size().max(b.size()) + d.distance;
            let allowed = 64.0 * f64::EPSILON * d.distance + 1024.0 * f64::EPSILON * scale;
            prop_assert!(d.error_bound <= allowed, "converged with error_bound {:e} > {allowed:e} at distance {:e}",
                d.error_bound, d.distance);
        }
    }

    #[test]
    fn intersects_agrees_with_distance(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let d = distance(&*sa, &pa, &*sb, &pb);
        prop_assert_eq!(intersects(&*sa, &pa, &*sb, &pb), d.intersecting, "distance says {:?}", d);
        prop_assert_eq!(d.intersecting, d.distance == 0.0);
    }

    #[test]
    fn observer_does_not_change_results(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let opts = DistanceOptions::default();
        let mut rec = Recorder::default();
        let quiet = distance_with(&*sa, &pa, &*sb, &pb, &opts, None, &mut ());
        let watched = distance_with(&*sa, &pa, &*sb, &pb, &opts, None, &mut rec);
        prop_assert_eq!(quiet, watched);
        prop_assert_eq!(rec.steps.len(), quiet.iterations as usize);
        for (i, s) in rec.steps.iter().enumerate() {
            prop_assert_eq!(s.iteration as usize, i + 1);
        }
        if let Some(last) = rec.steps.last() {
            // The last step's simplex is the witness simplex the query reports.
            prop_assert_eq!(last.simplex(), &quiet.simplex.points[..quiet.simplex.len]);
        }
        let mut rec = Recorder::default();
        let quiet = intersection(&*sa, &pa, &*sb, &pb, &opts, None, &mut ());
        let watched = intersection(&*sa, &pa, &*sb, &pb, &opts, None, &mut rec);
        prop_assert_eq!(quiet, watched);
        prop_assert_eq!(rec.steps.len(), quiet.iterations as usize);
    }

    #[test]
    fn observer_does_not_change_penetration(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        penetration_record_describes_the_answer(&*sa, &pa, &*sb, &pb, a.size().max(b.size()))?;
    }

    #[test]
    fn warm_start_matches_cold_query_after_small_motion(
        a in shape3(), b in shape3(), (pa, pb) in poses3(), step in vec3(1e-2), axis in unit3(), turn in -1e-2f64..1e-2
    ) {
        let (sa, sb) = (a.build::<DVec3>(), b.build::<DVec3>());
        let size = a.size().max(b.size());
        let opts = DistanceOptions::default();
        let mut cache = WarmStart::default();
        let first = distance_with(&*sa, &pa, &*sb, &pb, &opts, Some(&mut cache), &mut ());
        let pb2 = Iso::new(DQuat::from_axis_angle(axis, turn) * pb.rotation, pb.translation + step);
        let warm = distance_with(&*sa, &pa, &*sb, &pb2, &opts, Some(&mut cache), &mut ());
        let cold = distance(&*sa, &pa, &*sb, &pb2);
        basic_answer(&warm, size)?;
        prop_assert!((warm.distance - cold.distance).abs() <= REL * cold.distance.max(size),
            "warm {} cold {} (first {})", warm.distance, cold.distance, first.distance);
        prop_assert_eq!(warm.intersecting, cold.intersecting);
    }
}

// f32: the same symmetry and witness properties at f32's tolerance (1e-4 relative: the stop allows 64·eps ≈
// 7.6e-6 and the poses are rounded to f32; normals by `normal_tol` with f32's epsilon).
proptest! {
    #![proptest_config(config(256, 0x5eed_0002))]

    #[test]
    fn distance_is_symmetric_f32(a in shape3(), b in shape3(), (pa, pb) in poses3()) {
        let (sa, sb) = (a.build::<Vec3>(), b.build::<Vec3>());
        let (pa, pb) = (Vec3::pose_from64(&pa), Vec3::pose_from64(&pb));
        let size = a.size().max(b.size());
        let ab = distance(&*sa, &pa, &*sb, &pb);
        let ba = distance(&*sb, &pb, &*sa, &pa);
        let (dab, dba) = (ab.distance as f64, ba.distance as f64);
        prop_assert!(dab.is_finite() && dab >= 0.0 && dba.is_finite() && dba >= 0.0);
        prop_assert!((dab - dba).abs() <= 1e-4 * dab.max(size), "d(A,B) {dab} d(B,A) {dba}");
        if dab > 1e-4 * size && dba > 1e-4 * size {
            let tol = normal_tol(f32::EPSILON as f64, dab, size)
                + stalled_slack(dab, &[ab.error_bound as f64, ba.error_bound as f64]);
            prop_assert!(((ab.normal + ba.normal).length() as f64) <= tol, "normals {:?} {:?}", ab.normal, ba.normal);
        }
        let on_a = point_to_shape(ab.point_a, &*sa, &pa);
        prop_assert!(on_a <= 1e-4 * size, "point_a {on_a:e} from A");
    }
}

// -------------------------------------------------------------------------------------------------------------
// 2D properties.

proptest! {
    #![proptest_config(config(512, 0x5eed_0003))]

    #[test]
    fn distance_is_symmetric_2d(a in shape2(), b in shape2(), (pa, pb) in poses2()) {
        let (sa, sb) = (a.build(), b.build());
        let size = a.size().max(b.size());
        let ab = distance(&*sa, &pa, &*sb, &pb);
        let ba = distance(&*sb, &pb, &*sa, &pa);
        basic_answer(&ab, size)?;
        basic_answer(&ba, size)?;
        prop_assert!((ab.distance - ba.distance).abs() <= REL * ab.distance.max(size));
        if ab.distance > REL * size && ba.distance > REL * size {
            let tol = normal_tol(f64::EPSILON, ab.distance, size)
                + stalled_slack(ab.distance, &[ab.error_bound, ba.error_bound]);
            prop_assert!((ab.normal + ba.normal).length() <= tol, "normals {:?} {:?}", ab.normal, ba.normal);
        }
    }

    #[test]
    fn distance_invariant_under_common_rigid_motion_2d(
        a in shape2(), b in shape2(), (pa, pb) in poses2(), turn in -3.2f64..3.2, dir in -3.2f64..3.2,
        far in prop_oneof![Just(0.0), 0.0f64..10.0, Just(1e4), Just(1e6)]
    ) {
        use gjk::math::Rotation;
        let (sa, sb) = (a.build(), b.build());
        let size = a.size().max(b.size());
        let rot = Rot2::from_angle(turn);
        let shift = DVec2::new(dir.cos(), dir.sin()) * far;
        let mv = |p: &Iso<DVec2>| Iso::new(rot.compose(&p.rotation), rot.rotate(p.translation) + shift);
        let here = distance(&*sa, &pa, &*sb, &pb);
        let there = distance(&*sa, &mv(&pa), &*sb, &mv(&pb));
        basic_answer(&there, size)?;
        let tol = REL * here.distance.max(size) + 8.0 * f64::EPSILON * far;
        prop_assert!((here.distance - there.distance).abs() <= tol, "{} vs {}", here.distance, there.distance);
    }

    #[test]
    fn witness_points_lie_on_their_shapes_2d(a in shape2(), b in shape2(), (pa, pb) in poses2()) {
        let (sa, sb) = (a.build(), b.build());
        let size = a.size().max(b.size());
        let d = distance(&*sa, &pa, &*sb, &pb);
        prop_assert!(point_to_shape(d.point_a, &*sa, &pa) <= REL * size, "point_a off A: {:?}", d);
        prop_assert!(point_to_shape(d.point_b, &*sb, &pb) <= REL * size, "point_b off B: {:?}", d);
        prop_assert_eq!(intersects(&*sa, &pa, &*sb, &pb), d.intersecting);
    }

    #[test]
    fn observer_does_not_change_results_2d(a in shape2(), b in shape2(), (pa, pb) in poses2()) {
        let (sa, sb) = (a.build(), b.build());
        let mut rec = Recorder::default();
        let opts = DistanceOptions::default();
        let quiet = distance_with(&*sa, &pa, &*sb, &pb, &opts, None, &mut ());
        let watched = distance_with(&*sa, &pa, &*sb, &pb, &opts, None, &mut rec);
        prop_assert_eq!(quiet, watched);
        prop_assert_eq!(rec.steps.len(), quiet.iterations as usize);
        if let Some(last) = rec.steps.last() {
            prop_assert_eq!(last.simplex(), &quiet.simplex.points[..quiet.simplex.len]);
        }
    }

    #[test]
    fn observer_does_not_change_penetration_2d(a in shape2(), b in shape2(), (pa, pb) in poses2()) {
        let (sa, sb) = (a.build(), b.build());
        penetration_record_describes_the_answer(&*sa, &pa, &*sb, &pb, a.size().max(b.size()))?;
    }
}

// -------------------------------------------------------------------------------------------------------------
// A pinned case of `witness_simplex_is_a_convex_combination`.

/// A cone against a box, where GJK ends on a thin triangle (two of its points 1e-6 apart, the third 2.3 away).
/// The distance must not be below the separation along the reported normal, computed here from the shapes'
/// closed-form support functions (a certified lower bound on the distance), and the weights must sum to one.
#[test]
fn cone_box_thin_final_simplex_weights_sum_to_one() {
    let (hh, r) = (1.1112493146843936, 0.7851585528208385);
    let h = DVec3::new(1.2106292311905535, 0.850051727672171, 0.7545911754855161);
    let pa = Iso::new(
        DQuat::from_xyzw(-0.09372551987927363, -0.43053772483450536, 0.262366395488977, 0.8584967495196526),
        DVec3::ZERO,
    );
    let pb = Iso::new(
        DQuat::from_xyzw(-0.1700136276678527, 0.20499924477678103, -0.7688388917632974, 0.5813410656063708),
        DVec3::new(1.1106770530123586, 0.14729806697611142, -2.294256798612338),
    );
    let d = distance(&Cone::new(hh, r).unwrap(), &pa, &Cuboid::new(h).unwrap(), &pb);
    assert!(!d.intersecting);
    // max over the cone (apex (0, hh, 0), base circle of radius r at y = −hh) and over the box of x·u.
    let cone_support = |u: DVec3| (hh * u.y).max(-hh * u.y + r * u.x.hypot(u.z));
    let box_support = |u: DVec3| h.dot(u.abs());
    let n = d.normal;
    let separation = (pb.translation - pa.translation).dot(n)
        - box_support(-(pb.rotation.inverse() * n))
        - cone_support(pa.rotation.inverse() * n);
    let sum: f64 = d.simplex.weights[..d.simplex.len].iter().sum();
    assert!(
        d.distance >= separation - 1e-14,
        "distance {:.17e} below the certified lower bound {separation:.17e} (error_bound {:e}, weights sum to 1 {:+e})",
        d.distance,
        d.error_bound,
        sum - 1.0
    );
    assert!((sum - 1.0).abs() <= 8.0 * f64::EPSILON * d.simplex.len as f64, "weights sum to 1 {:+e}", sum - 1.0);
}

/// A segment against a cone, nearly touching: GJK ends on a thin triangle and stops on a repeated support point.
/// `Converged` promises the tolerance, and the distance must lie within the interval certified by closed forms:
/// the separation along the reported normal below, and the reported witness points' gap plus their exact
/// distances to the shapes above (here the cone's point is checked in its meridian half-plane).
#[test]
fn segment_cone_nearly_touching_converged_within_tolerance() {
    let (hh, r) = (1.4399604620591342, 0.4046491489295362);
    let (s0, s1) = (
        DVec3::new(0.3558629380190059, 0.6732258880351107, 0.390678151392571),
        DVec3::new(-1.0078780081382104, 0.2691253846840067, 0.526974127375543),
    );
    let pa = Iso::new(
        DQuat::from_xyzw(0.5450925202303719, -0.6954153108144946, -0.16888440675869784, 0.4367490664299628),
        DVec3::new(-0.7018999809592636, -0.5671646942834072, -0.7251458597077431),
    );
    let pb = Iso::new(
        DQuat::from_xyzw(0.6038110208660551, -0.4273180395017526, 0.48116450445005016, 0.4704171168807622),
        DVec3::new(-2.2443378532306544, -0.7553229937532846, 0.09974537327008348),
    );
    let d = distance(&Segment::new(s0, s1).unwrap(), &pa, &Cone::new(hh, r).unwrap(), &pb);
    assert!(!d.intersecting);
    // Lower bound: separation along the normal (segment's support: its farther end; cone's: apex or rim).
    let n = d.normal;
    let (w0, w1) = (pa.transform_point(s0), pa.transform_point(s1));
    let ub = pb.rotation.inverse() * -n;
    let cone_support = (hh * ub.y).max(-hh * ub.y + r * ub.x.hypot(ub.z));
    let lower = pb.translation.dot(n) - cone_support - w0.dot(n).max(w1.dot(n));
    // Upper bound: the witnesses' gap plus each witness's exact distance to its shape (the cone's measured in its
    // meridian half-plane, where its section is the triangle (0, hh), (0, −hh), (r, −hh)).
    let to_segment = |p: DVec3, a: DVec3, b: DVec3| {
        let ab = b - a;
        (p - (a + ab * ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0))).length()
    };
    let off_a = to_segment(d.point_a, w0, w1);
    let lb = pb.inverse_transform_point(d.point_b);
    let q = DVec3::new(lb.x.hypot(lb.z), lb.y, 0.0);
    let inside = q.y >= -hh && q.y <= hh && q.x * 2.0 * hh <= r * (hh - q.y);
    let (apex, foot, rim) = (DVec3::new(0.0, hh, 0.0), DVec3::new(0.0, -hh, 0.0), DVec3::new(r, -hh, 0.0));
    let off_b = if inside {
        0.0
    } else {
        to_segment(q, apex, foot).min(to_segment(q, foot, rim)).min(to_segment(q, rim, apex))
    };
    let upper = (d.point_b - d.point_a).length() + off_a + off_b;
    let size = s0.length().max(s1.length()).max(hh.hypot(r));
    assert!(lower <= upper + 1e-15, "certificate inconsistent: [{lower:e}, {upper:e}]");
    assert!(
        d.distance <= upper + 1e-9 * size && d.distance >= lower - 1e-9 * size,
        "distance {:e} outside the certified [{lower:e}, {upper:e}] ({:?}, error_bound {:e})",
        d.distance,
        d.status,
        d.error_bound
    );
    if d.status == gjk::Status::Converged {
        let allowed = 64.0 * f64::EPSILON * d.distance + 1024.0 * f64::EPSILON * 3.0 * size;
        assert!(d.error_bound <= allowed, "Converged with error_bound {:e} > {allowed:e}", d.error_bound);
    }
}

/// Two boxes overlapping 0.3 deep, in 3D and in 2D: GJK encloses the origin, EPA runs, and its record ends with
/// the nearest face at the depth along the normal the query reports (the record is checked in full by
/// `penetration_record_describes_the_answer`; this case makes sure it has an EPA part to check).
#[test]
fn overlapping_boxes_record_their_epa_steps() {
    // Behind `Opaque`: two plain boxes in 3D are answered from their separating axes with no EPA step at all
    // (`gjk/boxes.rs`); the general path is the one whose record is checked here.
    let plain = Cuboid::new(DVec3::splat(1.0)).unwrap();
    let cube = crate::common::Opaque(&plain);
    let (pa, pb) = (Iso::identity(), Iso::new(DQuat::from_rotation_y(0.2), DVec3::new(0.3, 1.7, 0.1)));
    let mut rec = Recorder::default();
    let p = penetration_with(&cube, &pa, &cube, &pb, &DistanceOptions::default(), &mut rec);
    assert!(!rec.epa_steps.is_empty() && p.intersecting);
    let last = rec.epa_steps.last().unwrap();
    assert_eq!(last.decision, Decision::Converged);
    assert!((last.lower - p.depth).abs() < 1e-12 && (last.normal - p.normal).length() < 1e-12, "{last:?} {p:?}");
    penetration_record_describes_the_answer::<DVec3>(&cube, &pa, &cube, &pb, 2.0).unwrap();

    let square = Cuboid::new(DVec2::splat(1.0)).unwrap();
    let (pa, pb) = (Iso::identity(), Iso::new(Rot2::from_angle(0.2), DVec2::new(0.3, 1.7)));
    let mut rec = Recorder::default();
    let p = penetration_with(&square, &pa, &square, &pb, &DistanceOptions::default(), &mut rec);
    let last = rec.epa_steps.last().expect("EPA ran");
    assert_eq!(last.decision, Decision::Converged);
    assert!((last.lower - p.depth).abs() < 1e-12 && (last.normal - p.normal).length() < 1e-12, "{last:?} {p:?}");
    assert_eq!(last.faces().count(), last.vertices.len(), "a polygon has as many edges as vertices");
    penetration_record_describes_the_answer::<DVec2>(&square, &pa, &square, &pb, 2.0).unwrap();
}
