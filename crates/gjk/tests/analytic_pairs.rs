//! Closed-form pairs: a ball or point against a box or a capsule (segment core), in either order, and two balls. The distance,
//! intersection and penetration queries answer them without the GJK loop; the same shapes behind a wrapper that
//! hides their core hooks ([`Opaque`](crate::common::Opaque)) go through the general path (GJK, EPA). Both must agree within the general
//! path's error bound, and the closed form must meet the exact answer built into each configuration: a sphere centre on a box face, edge or corner, inside the box, on a 1e-9 slab, at gaps of 1e-6,
//! at offsets of 1e4–1e5, with tiny and huge sizes and zero radii, 2D and 3D, f32 and f64.

use crate::common;
use crate::common::{log_uniform, rng, uniform, unit_quat, Opaque, Space2, Space3};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::{Ball, Capsule, Cuboid, Point, Segment, SupportMap};
use gjk::trace::Recorder;
use gjk::{distance_with, intersection, intersects, penetration_with, Distance, DistanceOptions, Status, WarmStart};

/// The closed form (fast) and the general path (hooks hidden) on one configuration; checks they agree and returns the fast one.
/// `size` is the configuration's length scale (for the tolerance), `exact` the true distance when known.
pub(crate) fn both<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    pa: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    size: f64,
    exact: Option<f64>,
) -> Distance<V> {
    both_where(a, pa, b, pb, size, exact, true)
}

/// [`both`], comparing the closest points with the loop's only when `unique_points` (two parallel segments have a
/// whole range of closest pairs, and the closed form and the loop may pick different ones).
pub(crate) fn both_where<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    pa: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    size: f64,
    exact: Option<f64>,
    unique_points: bool,
) -> Distance<V> {
    let o = DistanceOptions::default();
    let fast = distance_with(a, pa, b, pb, &o, None, &mut ());
    let looped = distance_with(&Opaque(a), pa, &Opaque(b), pb, &o, None, &mut ());
    // Observed, the same closed form: the same answer and no step.
    let mut rec = Recorder::default();
    assert_eq!(distance_with(a, pa, b, pb, &o, None, &mut rec), fast);
    assert!(rec.steps.is_empty());
    let eps = V::Real::EPSILON.to_f64();
    // Rounding of the poses and the shapes' numbers: a few hundred ulps of the size (the loop's own touching
    // threshold is 64 ulps of its points).
    let tol = 512.0 * eps * size;
    let (df, dl) = (fast.distance.to_f64(), looped.distance.to_f64());
    let ctx = format!("pa {pa:?} pb {pb:?}\nfast {fast:?}\nloop {looped:?}");
    assert_eq!(fast.iterations, 0, "the closed form ran: {ctx}");
    assert_eq!(fast.status, Status::Converged, "{ctx}");
    assert_eq!(fast.error_bound.to_f64(), 0.0, "{ctx}");
    assert!((df - dl).abs() <= looped.error_bound.to_f64() + tol, "distance {df} vs loop {dl}: {ctx}");
    if let Some(x) = exact {
        assert!((df - x.max(0.0)).abs() <= tol, "distance {df} vs exact {x}: {ctx}");
        if x.abs() > 4.0 * tol {
            assert_eq!(fast.intersecting, x <= 0.0, "{ctx}");
        }
    }
    // The flags agree wherever the loop's answer decides them (a loop that stalls within rounding of touching
    // reports a bound that covers zero: there the exact answer, above, decides).
    if dl - looped.error_bound.to_f64() > 4.0 * tol || looped.intersecting && df == 0.0 {
        assert_eq!(fast.intersecting, looped.intersecting, "{ctx}");
    }
    assert_eq!(intersects(a, pa, b, pb), fast.intersecting, "intersects = distance().intersecting: {ctx}");
    let plain = intersection(a, pa, b, pb, &o, None, &mut ());
    assert_eq!((plain.intersecting, plain.status), (fast.intersecting, Status::Converged), "{ctx}");
    if !fast.intersecting {
        // The witness: point_b − point_a = distance · normal, a unit normal, one vertex of A − B with weight 1.
        let n = fast.normal.to_f64_array();
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!((len - 1.0).abs() <= 8.0 * eps, "{ctx}");
        let gap = (fast.point_b - fast.point_a - fast.normal * fast.distance).max_abs().to_f64();
        let at = fast.point_a.max_abs().to_f64().max(fast.point_b.max_abs().to_f64());
        assert!(gap <= tol + 8.0 * eps * at, "{ctx}");
        assert_eq!((fast.simplex.len, fast.simplex.weights[0]), (1, V::Real::ONE), "{ctx}");
        if !unique_points {
            return fast;
        }
        let lp = looped.point_a.to_f64_array();
        let fp = fast.point_a.to_f64_array();
        let moved = (0..3).map(|i| (lp[i] - fp[i]).abs()).fold(0.0, f64::max);
        // The closest points are unique here (a point against a convex set, two segments not parallel). The loop's are within its distance
        // bound's reach (a point off by e is off the distance by e²/size at most) plus the rounding of its simplex
        // weights, which that bound does not count: 1e-9 of the size (f64; measured up to 1e-9 at sizes of 1e-6,
        // where the weights' rounding is a larger share of the points' own size).
        let weights = if eps < 1e-10 { 1e-9 } else { 1e-4 } * size;
        assert!(moved <= (looped.error_bound.to_f64() * size).sqrt() + weights, "points: {ctx}");
    }
    fast
}

/// Where a sphere centre goes in a box's frame (half-extents `h`): beyond a face, an edge (3-4-5), a corner
/// (1-2-2) at gap `g`; exactly on a face, an edge, a corner; at the centre; just inside.
fn box_cases(h: DVec3, g: f64) -> Vec<DVec3> {
    let (a, b) = (0.6 * g, 0.8 * g);
    vec![
        DVec3::new(h.x + g, 0.3 * h.y, -0.2 * h.z),
        DVec3::new(h.x + a, h.y + b, 0.5 * h.z),
        DVec3::new(-h.x - 2.0 * g / 3.0, h.y + g / 3.0, -h.z - 2.0 * g / 3.0),
        DVec3::new(h.x, 0.3 * h.y, 0.1 * h.z),
        DVec3::new(h.x, -h.y, 0.1 * h.z),
        DVec3::new(h.x, h.y, -h.z),
        DVec3::ZERO,
        DVec3::new(0.999 * h.x, 0.0, 0.0),
    ]
}

/// The signed distance of the point `p` to the box `[−h, h]`: the distance outside, minus the nearest face's
/// distance inside.
fn box_signed(p: DVec3, h: DVec3) -> f64 {
    let (_, d) = common::point_box3(p, h);
    if d > 0.0 {
        d
    } else {
        -(h - p.abs()).min_element()
    }
}

/// The penetration query, closed form (fast) against GJK + EPA (observed): the same signed distance within the
/// loop's error bound, and the exact one when known; the points `depth · normal` apart.
pub(crate) fn both_signed<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    pa: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    size: f64,
    exact: Option<f64>,
) {
    let o = DistanceOptions::default();
    let fast = penetration_with(a, pa, b, pb, &o, &mut ());
    let looped = penetration_with(&Opaque(a), pa, &Opaque(b), pb, &o, &mut ());
    let mut rec = Recorder::default();
    assert_eq!(penetration_with(a, pa, b, pb, &o, &mut rec), fast);
    assert_eq!(rec.steps.len() + rec.epa_steps.len(), fast.iterations as usize);
    let eps = V::Real::EPSILON.to_f64();
    let tol = 512.0 * eps * size;
    let ctx = format!("pa {pa:?} pb {pb:?}\nfast {fast:?}\nloop {looped:?}");
    let (df, dl) = (fast.distance.to_f64(), looped.distance.to_f64());
    if fast.iterations == 0 {
        assert_eq!((fast.status, fast.error_bound.to_f64()), (Status::Converged, 0.0), "{ctx}");
    }
    if let Some(x) = exact {
        assert!((df - x).abs() <= tol, "signed {df} vs exact {x}: {ctx}");
    }
    // GJK + EPA is held to the project's bound, 1e-9 of the size, not to 512 ulps: on spheres of 1e6 inside or
    // a 1e-6 gap from boxes and capsules of 1e6 it lands 1e-6 off (about 4500 ulps, 1e-12 of the size; 42 of the
    // configurations here), where the closed form meets the exact answer to 512 ulps (checked above).
    let loop_tol = tol.max(1e-9 * size);
    assert!((df - dl).abs() <= looped.error_bound.to_f64() + loop_tol, "signed {df} vs loop {dl}: {ctx}");
    let gap = (fast.point_b - fast.point_a - fast.normal * fast.distance).max_abs().to_f64();
    let at = fast.point_a.max_abs().to_f64().max(fast.point_b.max_abs().to_f64());
    assert!(gap <= tol + 8.0 * eps * at, "{ctx}");
    assert_eq!(fast.depth, (-fast.distance).max(V::Real::ZERO), "{ctx}");
}

/// A ball (and a point) against a box in 3D f64 and f32, in both orders, at every region of the box, every gap,
/// radius, size and offset: against the exact distance and the loop.
#[test]
fn ball_box_3d_exact_in_every_region() {
    let q = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let mut checked = 0;
    for scale in [1e-6, 1.0, 1e6] {
        for h in [DVec3::new(1.0, 2.0, 3.0), DVec3::new(1.0, 1.0, 1e-9), DVec3::new(1e-9, 1e-9, 2.0)] {
            for offset in [0.0, 1e4, -1e5] {
                for r in [0.0, 1e-3, 0.5, 2.0] {
                    for g in [1e-6, 1e-3, 1.0] {
                        let h = h * scale;
                        let (r, g) = (r * scale, g * scale);
                        let cube = Cuboid::new(h).unwrap();
                        let ball = Ball::new(r).unwrap();
                        let pose_box = Iso::new(q, DVec3::new(offset, -0.5 * offset, 0.25 * offset) * scale.min(1.0));
                        for local in box_cases(h, g) {
                            let pose_ball = Iso::new(q.inverse(), pose_box.transform_point(local));
                            // The centre's world position is rounded: the size for the tolerance includes it.
                            let size = h.max_element() + r + g + pose_box.translation.abs().max_element() * 4.0;
                            let exact = box_signed(local, h) - r;
                            both(&ball, &pose_ball, &cube, &pose_box, size, Some(exact));
                            both(&cube, &pose_box, &ball, &pose_ball, size, Some(exact));
                            both_signed(&ball, &pose_ball, &cube, &pose_box, size, Some(exact));
                            both_signed(&cube, &pose_box, &ball, &pose_ball, size, Some(exact));
                            if offset == 0.0 && scale == 1.0 {
                                let (b32, c32) = (Ball::new(r as f32).unwrap(), Cuboid::new(h.as_vec3()).unwrap());
                                let (p32, q32) = (Vec3::pose_from64(&pose_ball), Vec3::pose_from64(&pose_box));
                                let d = both(&b32, &p32, &c32, &q32, size, None);
                                assert!((d.distance as f64 - exact.max(0.0)).abs() <= 1e-5 * size);
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * 3 * 4 * 3 * 8);
}

/// A sphere inside a box (cores overlapping): intersecting, distance 0, both points the centre, no normal.
#[test]
fn ball_inside_box_reports_the_common_point() {
    let cube = Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let ball = Ball::new(0.25).unwrap();
    let at = Iso::from_translation(DVec3::new(0.5, -1.0, 2.0));
    let d = both(&ball, &at, &cube, &Iso::identity(), 3.0, Some(-0.5));
    assert!(d.intersecting);
    assert_eq!((d.distance, d.normal, d.point_a, d.point_b), (0.0, DVec3::ZERO, at.translation, at.translation));
}

/// A ball against a capsule (and a point against a segment), both orders, 3D f64: beside the side, beyond each
/// end, on the axis, inside, at offsets and scales; against the exact distance and the loop.
#[test]
fn ball_capsule_3d_exact() {
    let q = DQuat::from_axis_angle(DVec3::new(-1.0, 0.5, 2.0).normalize(), 1.3);
    for scale in [1e-6, 1.0, 1e6] {
        for offset in [0.0, 3e4, -1e5] {
            for (hh, rc) in [(1.0, 0.5), (0.0, 0.5), (1.0, 0.0), (1e-9, 1e-9), (50.0, 1e-3)] {
                for r in [0.0, 0.25, 3.0] {
                    let (hh, rc, r) = (hh * scale, rc * scale, r * scale);
                    let cap = Capsule::new(hh, rc).unwrap();
                    let ball = Ball::new(r).unwrap();
                    let pose_cap = Iso::new(q, DVec3::new(offset, 0.5 * offset, -offset) * scale.min(1.0));
                    for (x, y, z) in
                        [(1.0, 0.3, 0.0), (0.2, 2.0, -0.1), (-0.3, -1.5, 0.4), (0.0, 0.5, 0.0), (1e-6, 0.0, 0.0)]
                    {
                        let local = DVec3::new(x, y * hh.max(scale), z) * if hh > 0.0 { 1.0 } else { scale };
                        let foot = DVec3::new(0.0, local.y.clamp(-hh, hh), 0.0);
                        let exact = (local - foot).length() - rc - r;
                        let pose_ball = Iso::new(q.inverse(), pose_cap.transform_point(local));
                        let size = hh + rc + r + local.length() + pose_cap.translation.abs().max_element() * 4.0;
                        both(&ball, &pose_ball, &cap, &pose_cap, size, Some(exact));
                        both(&cap, &pose_cap, &ball, &pose_ball, size, Some(exact));
                        both_signed(&ball, &pose_ball, &cap, &pose_cap, size, Some(exact));
                        both_signed(&cap, &pose_cap, &ball, &pose_ball, size, Some(exact));
                        let seg = Segment::new(DVec3::new(0.0, -hh, 0.0), DVec3::new(0.0, hh, 0.0)).unwrap();
                        let point = Point::new(local * 0.5).unwrap();
                        let pexact = (local * 0.5 - DVec3::new(0.0, (0.5 * local.y).clamp(-hh, hh), 0.0)).length();
                        both(&point, &pose_cap, &seg, &pose_cap, size, Some(pexact));
                        both(&seg, &pose_cap, &point, &pose_cap, size, Some(pexact));
                    }
                }
            }
        }
    }
}

/// Random poses in 2D and 3D, f32 and f64: balls against boxes and capsules, compared with the loop.
#[test]
fn random_pairs_agree_with_the_loop() {
    let mut rng = rng(0xA7A1_0001);
    for n in 0..3000 {
        let far = [0.0, 1e4, -1e5][n % 3];
        let r = [0.0, log_uniform(&mut rng, 1e-3, 2.0)][n % 2];
        let h = DVec3::new(log_uniform(&mut rng, 1e-3, 2.0), uniform(&mut rng, 0.1, 2.0), uniform(&mut rng, 0.1, 2.0));
        let (hh, rc) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.0, 1.0));
        let off = DVec3::new(far, -far, 0.5 * far);
        let pa = Iso::new(unit_quat(&mut rng), off + common::in_cube3(&mut rng, 3.0));
        let pb = Iso::new(unit_quat(&mut rng), off + common::in_cube3(&mut rng, 3.0));
        let size = 8.0 + far.abs() * 2.0;
        let (ball, cube, cap) = (Ball::new(r).unwrap(), Cuboid::new(h).unwrap(), Capsule::new(hh, rc).unwrap());
        both(&ball, &pa, &cube, &pb, size, None);
        both(&cap, &pa, &ball, &pb, size, None);
        both_signed(&ball, &pa, &cube, &pb, size, None);
        both_signed(&cap, &pa, &ball, &pb, size, None);
        let (b32, c32, k32) = (
            Ball::new(r as f32).unwrap(),
            Cuboid::new(h.as_vec3()).unwrap(),
            Capsule::new(hh as f32, rc as f32).unwrap(),
        );
        let (pa32, pb32) = (Vec3::pose_from64(&pa), Vec3::pose_from64(&pb));
        both(&c32, &pa32, &b32, &pb32, size, None);
        both(&b32, &pa32, &k32, &pb32, size, None);
        let pa2 = Iso::new(
            Rot2::from_angle(common::angle(&mut rng)),
            DVec2::new(far, far) + common::in_square2(&mut rng, 3.0),
        );
        let pb2 = Iso::new(
            Rot2::from_angle(common::angle(&mut rng)),
            DVec2::new(far, far) + common::in_square2(&mut rng, 3.0),
        );
        let cube2 = Cuboid::new(DVec2::new(h.x, h.y)).unwrap();
        both(&ball, &pa2, &cube2, &pb2, size, None);
        both(&cap, &pb2, &ball, &pa2, size, None);
        let (pa2f, pb2f) = (Vec2::pose_from64(&pa2), Vec2::pose_from64(&pb2));
        both(&Cuboid::new(Vec2::new(h.x as f32, h.y as f32)).unwrap(), &pa2f, &b32, &pb2f, size, None);
    }
}

/// Through `&dyn SupportMap` and `Box<dyn>` (the CLI's shapes), the hooks forward and the closed form is taken.
#[test]
fn dyn_shapes_take_the_closed_form() {
    let ball: Box<dyn SupportMap<DVec3>> = Box::new(Ball::new(0.5).unwrap());
    let cube: Box<dyn SupportMap<DVec3>> = Box::new(Cuboid::new(DVec3::splat(1.0)).unwrap());
    let at = Iso::from_translation(DVec3::new(2.0, 2.0, 0.0));
    let d = both(&ball, &at, &cube, &Iso::identity(), 3.0, Some(2f64.sqrt() - 0.5));
    assert_eq!(d.normal, DVec3::new(-1.0, -1.0, 0.0).normalize());
}

/// `max_distance`: farther than it, the answer stops as the loop does (status `AboveBound`, a lower bound that
/// here is the distance itself); the warm-start cache keeps the one vertex, and a warm query answers the same.
#[test]
fn bound_and_warm_start_keep_their_meaning() {
    let ball = Ball::new(0.5).unwrap();
    let cube = Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let at = Iso::from_translation(DVec3::new(4.0, 0.0, 0.0));
    let o = DistanceOptions { max_distance: Some(1.0), ..DistanceOptions::default() };
    let fast = distance_with(&ball, &at, &cube, &Iso::identity(), &o, None, &mut ());
    let looped = distance_with(&Opaque(&ball), &at, &Opaque(&cube), &Iso::identity(), &o, None, &mut ());
    assert_eq!((fast.status, looped.status), (Status::AboveBound, Status::AboveBound));
    assert!(fast.distance > 1.0 && fast.distance <= 2.5 && looped.distance <= fast.distance);
    let mut cache = WarmStart::default();
    let cold =
        distance_with(&ball, &at, &cube, &Iso::identity(), &DistanceOptions::default(), Some(&mut cache), &mut ());
    assert_eq!(cold.distance, 2.5);
    let warm =
        distance_with(&ball, &at, &cube, &Iso::identity(), &DistanceOptions::default(), Some(&mut cache), &mut ());
    assert_eq!(cold, warm);
    // The cache then starts the general path at the right vertex: it converges to the same answer.
    let (hb, hc) = (Opaque(&ball), Opaque(&cube));
    let looped = distance_with(&hb, &at, &hc, &Iso::identity(), &DistanceOptions::default(), Some(&mut cache), &mut ());
    assert!((looped.distance - 2.5).abs() <= 1e-12);
}

/// 2D: a disc on a square's corner, edge and inside, and a disc against a 2D capsule, f32 and f64.
#[test]
fn discs_2d_exact() {
    let sq = Cuboid::new(DVec2::new(1.0, 0.5)).unwrap();
    let disc = Ball::new(0.25).unwrap();
    let rot = Rot2::from_angle(0.4);
    for (local, exact) in [
        (DVec2::new(2.0, 0.0), 0.75),
        (DVec2::new(1.3, 0.9), 0.25),
        (DVec2::new(1.0, 0.5), -0.25),
        (DVec2::new(0.0, 0.0), -0.75),
        (DVec2::new(-1.0 - 1e-6, 0.0), 1e-6 - 0.25),
    ] {
        let pose_sq = Iso::new(rot, DVec2::new(1e5, -1e5));
        let pose_disc = Iso::new(Rot2::from_angle(-1.0), pose_sq.transform_point(local));
        both(&disc, &pose_disc, &sq, &pose_sq, 4e5, Some(exact));
        let (d32, s32) = (Ball::new(0.25f32).unwrap(), Cuboid::new(Vec2::new(1.0, 0.5)).unwrap());
        let ps = Iso::new(Rot2::from_angle(0.4f32), Vec2::ZERO);
        let pd = Iso::new(Rot2::from_angle(0.0f32), ps.transform_point(local.as_vec2()));
        both(&d32, &pd, &s32, &ps, 4.0, Some(exact));
        let cap = Capsule::new(1.0, 0.5).unwrap();
        let foot = DVec2::new(0.0, local.y.clamp(-1.0, 1.0));
        both(&cap, &pose_sq, &disc, &pose_disc, 4e5, Some((local - foot).length() - 0.75));
    }
}

/// gjk-fuzz seed 31 cases 17896 (2D), 17496 (2D) and 6972 (3D): a ball whose centre is 1e-12–1e-8 from a capsule's
/// core segment, inside it. The closed form's normal was the direction of the centre less its foot on the core —
/// a vector of rounding size whose direction was noise, 2.3e-5 rad off the core's perpendicular — and along it the
/// capsule reached 2.6e-5 farther than the depth said. The normal is now made perpendicular to the core: the
/// depth (radii less the centre's distance to the core) is then exact along it. Here, and on balls centred within
/// 1e-15–1e-6 of random capsules' cores, in both orders: the normal is perpendicular to the core, and along it the
/// supporting planes are the depth apart.
#[test]
fn ball_centred_within_rounding_of_a_capsule_core_gets_a_perpendicular_normal_fuzz_31_17896_6972() {
    fn check<V: Vector<Real = f64>>(cap: &Capsule<f64>, pc: &Iso<V>, ball: &Ball<f64>, pb: &Iso<V>, name: &str) {
        let axis = pc.rotation.rotate(V::axis(1));
        for swapped in [false, true] {
            let p = if swapped {
                penetration_with(ball, pb, cap, pc, &DistanceOptions::default(), &mut ())
            } else {
                penetration_with(cap, pc, ball, pb, &DistanceOptions::default(), &mut ())
            };
            let size = cap.half_height + cap.radius + ball.radius;
            assert!(
                p.normal.dot(axis).abs() <= 1e-14,
                "{name} swapped {swapped}: normal {:?} not across the core",
                p.normal
            );
            // Along the normal (from the first shape toward the second) the planes overlap by exactly the depth.
            let h = |s: &dyn SupportMap<V>, pose: &Iso<V>, n: V| {
                pose.transform_point(s.support(pose.rotation.inverse_rotate(n))).dot(n) + s.radius()
            };
            let n = p.normal;
            let overlap = if swapped { h(ball, pb, n) + h(cap, pc, -n) } else { h(cap, pc, n) + h(ball, pb, -n) };
            assert!(
                (overlap - p.depth).abs() <= 1e-12 * size,
                "{name} swapped {swapped}: depth {} along a normal overlapping by {overlap}",
                p.depth
            );
        }
    }
    let cap = Capsule::new(1.0896484251755214, 0.9335401526681003).unwrap();
    let ball = Ball::new(1.1544559349803003).unwrap();
    let pc =
        Iso::new(Rot2::from_angle(std::f64::consts::FRAC_PI_2), DVec2::new(-0.9994115279602838, -0.3092441101740897));
    let pb = Iso::from_translation(DVec2::new(-0.999411527958394, -0.30924411017882913));
    check(&cap, &pc, &ball, &pb, "fuzz 31:17896");
    let cap3 = Capsule::new(133.83758649416615, 348.7241345606616).unwrap();
    let ball3 = Ball::new(72.39422785785966).unwrap();
    let pc3 = Iso::new(
        DQuat::from_xyzw(1.0, 0.0, 0.0, 0.0),
        DVec3::new(0.6894850055212369, 0.03439245890259501, 0.48027627404870654),
    );
    let pb3 = Iso::from_translation(DVec3::new(0.6894850517892527, 0.03439241588348153, 0.48027626145362495));
    check(&cap3, &pc3, &ball3, &pb3, "fuzz 31:6972");
    let mut r = rng(17896);
    for k in 0..300 {
        let cap = Capsule::new(log_uniform(&mut r, 1e-3, 1e3), log_uniform(&mut r, 1e-3, 1e3)).unwrap();
        let ball = Ball::new(log_uniform(&mut r, 1e-3, 1e3)).unwrap();
        let off = log_uniform(&mut r, 1e-15, 1e-6) * cap.half_height.max(1.0);
        let t = uniform(&mut r, -0.95, 0.95) * cap.half_height;
        let pc = Iso::new(unit_quat(&mut r), DVec3::new(uniform(&mut r, -1.0, 1.0), uniform(&mut r, -1.0, 1.0), 0.5));
        let side = common::unit3(&mut r);
        let centre = pc.transform_point(DVec3::new(0.0, t, 0.0) + (side - DVec3::Y * side.y).normalize() * off);
        check(&cap, &pc, &ball, &Iso::from_translation(centre), &format!("3D {k}"));
        let pc2 = Iso::new(Rot2::from_angle(common::angle(&mut r)), DVec2::new(uniform(&mut r, -1.0, 1.0), 0.5));
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        let centre2 = pc2.transform_point(DVec2::new(sign * off, t));
        check(&cap, &pc2, &ball, &Iso::from_translation(centre2), &format!("2D {k}"));
    }
}

/// The exact signed distance of two balls whose centres are the translations `ta`, `tb` (in f64, from the numbers
/// the query was given: an f32 pose's translation exactly).
fn balls_signed(ta: &[f64], tb: &[f64], radii: f64) -> f64 {
    ta.iter().zip(tb).map(|(a, b)| (b - a) * (b - a)).sum::<f64>().sqrt() - radii
}

/// Two balls (the world-coordinate closed form, `analytic`) against the loop on the same balls behind
/// [`Opaque`](crate::common::Opaque) and against the exact signed distance of their centres: apart by 1 and by 1e-6, touching exactly,
/// overlapping by 1e-6 and by half the smaller radius, one inside the other, concentric; radii from 1e-6 to 1e6
/// and zero; centres at 0, 1e5 and −1e5 with random rotations (which must not matter); 3D and 2D, f64 and f32
/// (the f32 poses rounded, their exact answer taken from the rounded numbers).
#[test]
fn ball_pairs_exact_at_every_gap_size_and_offset() {
    let mut rng = rng(0xBA11_0014);
    let mut checked = 0;
    for n in 0..600 {
        let far = [0.0, 1e5, -1e5][n % 3];
        let scale = [1.0, 1e-6, 1e6, 1.0][(n / 3) % 4];
        let (ra, rb) = match n % 5 {
            0 => (0.0, scale),
            1 => (scale, 0.5 * scale),
            _ => (log_uniform(&mut rng, 0.1, 2.0) * scale, log_uniform(&mut rng, 0.1, 2.0) * scale),
        };
        let small = ra.min(rb);
        let gaps = [1.0 * scale, 1e-6 * scale, 0.0, -1e-6 * scale, -0.5 * small, -(ra + rb - 0.25 * small), -(ra + rb)];
        let (u3, u2) = (common::unit3(&mut rng), common::unit2(&mut rng));
        let (q, angle) = (unit_quat(&mut rng), common::angle(&mut rng));
        let ta = DVec3::new(far, -far, 0.5 * far) + common::in_cube3(&mut rng, 2.0 * scale);
        let size = 8.0 * (ra + rb + scale) + 4.0 * far.abs();
        for gap in gaps {
            // (The centres' distance rounds: the exact answer is taken from the centres as placed.)
            let tb = ta + u3 * (ra + rb + gap);
            let (pa, pb) = (Iso::new(q, ta), Iso::new(q.inverse(), tb));
            let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
            let exact = balls_signed(&ta.to_array(), &tb.to_array(), ra + rb);
            let d = both(&a, &pa, &b, &pb, size, Some(exact));
            if !d.intersecting || d.normal != DVec3::ZERO {
                // The normal is the line of centres (zero only for concentric balls).
                assert!((d.normal - u3).length() <= 1e-6 || (tb - ta).length() < 1e-3 * size, "{d:?}");
            }
            both_signed(&a, &pa, &b, &pb, size, Some(exact));
            // 2D.
            let (sa, sb) = (DVec2::new(ta.x, ta.y), DVec2::new(ta.x, ta.y) + u2 * (ra + rb + gap));
            let (pa2, pb2) = (Iso::new(Rot2::from_angle(angle), sa), Iso::new(Rot2::from_angle(-angle), sb));
            let exact2 = balls_signed(&sa.to_array(), &sb.to_array(), ra + rb);
            both(&a, &pa2, &b, &pb2, size, Some(exact2));
            both_signed(&a, &pa2, &b, &pb2, size, Some(exact2));
            // f32: the poses rounded, the exact answer from the rounded centres.
            let (a32, b32) = (Ball::new(ra as f32).unwrap(), Ball::new(rb as f32).unwrap());
            let (pa32, pb32) = (Vec3::pose_from64(&pa), Vec3::pose_from64(&pb));
            let radii32 = f64::from(ra as f32) + f64::from(rb as f32);
            let exact32 =
                balls_signed(&pa32.translation.as_dvec3().to_array(), &pb32.translation.as_dvec3().to_array(), radii32);
            both(&a32, &pa32, &b32, &pb32, size, Some(exact32));
            both_signed(&a32, &pa32, &b32, &pb32, size, Some(exact32));
            let (pa2f, pb2f) = (Vec2::pose_from64(&pa2), Vec2::pose_from64(&pb2));
            let exact2f =
                balls_signed(&pa2f.translation.as_dvec2().to_array(), &pb2f.translation.as_dvec2().to_array(), radii32);
            both(&a32, &pa2f, &b32, &pb2f, size, Some(exact2f));
            checked += 1;
        }
    }
    assert_eq!(checked, 600 * 7);
}

/// Two balls with a warm start, a distance bound, and witnesses: the cache keeps the one search direction (in
/// A's frame, toward the origin from A − B's point), from which the loop on the same balls starts and converges to
/// the same distance; beyond `max_distance` the status is `AboveBound` with the distance itself as the bound; the
/// witnesses are the two centres; a rounded ball and a point at the origin take the same closed form.
#[test]
fn ball_pairs_keep_warm_start_bound_and_witnesses() {
    use gjk::shape::Rounded;
    let (a, b) = (Ball::new(0.5).unwrap(), Ball::new(0.25).unwrap());
    let q = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let pa = Iso::new(q, DVec3::new(1e5, -2.0, 3.0));
    let pb = Iso::new(q.inverse(), pa.translation + DVec3::new(3.0, 0.0, 4.0));
    let o = DistanceOptions::default();
    let mut cache = WarmStart::default();
    let cold = distance_with(&a, &pa, &b, &pb, &o, Some(&mut cache), &mut ());
    assert_eq!((cold.distance, cold.iterations, cache.directions().len()), (4.25, 0, 1));
    // The direction is −(c_A − c_B) = (3, 0, 4) turned into A's frame.
    let dir = pa.rotation.rotate(cache.directions()[0]);
    assert!((dir - DVec3::new(3.0, 0.0, 4.0)).length() <= 1e-12, "{dir:?}");
    let looped = distance_with(&Opaque(&a), &pa, &Opaque(&b), &pb, &o, Some(&mut cache), &mut ());
    assert!((looped.distance - 4.25).abs() <= 1e-9 + looped.error_bound, "{looped:?}");
    let bound = DistanceOptions { max_distance: Some(1.0), ..o };
    let above = distance_with(&a, &pa, &b, &pb, &bound, None, &mut ());
    assert_eq!((above.status, above.distance, above.intersecting), (Status::AboveBound, 4.25, false));
    let within = distance_with(&a, &pa, &b, &pb, &DistanceOptions { max_distance: Some(5.0), ..o }, None, &mut ());
    assert_eq!(within, cold);
    let (d, w) = gjk::distance_with_witnesses(&a, &pa, &b, &pb, &o);
    assert_eq!(d, cold);
    assert_eq!((w.len, w.points_a[0], w.points_b[0]), (1, pa.translation, pb.translation));
    assert_eq!(d.simplex.points[0], pa.translation - pb.translation);
    // A rounded ball and a point at the origin are balls too.
    let rounded = Rounded::new(Ball::new(0.25).unwrap(), 0.25).unwrap();
    let r = distance_with(&rounded, &pa, &Point::new(DVec3::ZERO).unwrap(), &pb, &o, None, &mut ());
    assert_eq!((r.distance, r.iterations), (4.5, 0));
    // No iteration allowed: the closed form does not run (the general path answers, as for every pair).
    let none = distance_with(&a, &pa, &b, &pb, &DistanceOptions { max_iterations: 0, ..o }, None, &mut ());
    assert_eq!((none.iterations, none.status), (0, Status::MaxIterations));
}
