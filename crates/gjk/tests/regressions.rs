//! Configurations that break GJK implementations (ours or others', see shared/PEER-FAILURES.md), each with an
//! answer known exactly by construction. Each test says what it guards against.

use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Vec3};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Point, Segment, SupportMap, Triangle,
};
use gjk::{distance, distance_with, intersects, DistanceOptions, Status};

fn at(x: f64, y: f64, z: f64) -> Iso<DVec3> {
    Iso::from_translation(DVec3::new(x, y, z))
}

fn unit_cube() -> Cuboid<DVec3> {
    Cuboid::new(DVec3::splat(0.5)).unwrap()
}

/// Asserts a separated answer: distance to `tol`, unit normal, points consistent with distance and normal.
fn assert_separated<S: SupportMap<DVec3> + ?Sized, T: SupportMap<DVec3> + ?Sized>(
    a: &S,
    pa: &Iso<DVec3>,
    b: &T,
    pb: &Iso<DVec3>,
    want: f64,
    tol: f64,
) -> gjk::Distance<DVec3> {
    let d = distance(a, pa, b, pb);
    assert!(!d.intersecting, "reported intersecting; want distance {want}: {d:?}");
    assert!((d.distance - want).abs() <= tol, "distance {} want {want} (tol {tol:e})", d.distance);
    assert!((d.normal.length() - 1.0).abs() < 1e-12, "normal not unit: {:?}", d.normal);
    let gap = d.point_b - d.point_a;
    assert!((gap - d.normal * d.distance).length() <= tol, "point_b - point_a != distance * normal");
    assert!(intersects(a, pa, b, pb) == d.intersecting, "intersects disagrees with distance");
    d
}

fn assert_touching_or_overlapping<S: SupportMap<DVec3> + ?Sized, T: SupportMap<DVec3> + ?Sized>(
    a: &S,
    pa: &Iso<DVec3>,
    b: &T,
    pb: &Iso<DVec3>,
) {
    let d = distance(a, pa, b, pb);
    assert!(d.intersecting && d.distance == 0.0, "{d:?}");
    assert!(d.point_a.is_finite() && d.point_b.is_finite() && d.normal.is_finite(), "NaN in {d:?}");
    assert_eq!(d.status, Status::Converged);
    assert!(intersects(a, pa, b, pb));
}

/// Stacked cubes touching face to face: libccd #25 produced a NaN search direction here.
#[test]
fn touching_boxes_face_to_face() {
    assert_touching_or_overlapping(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(0.0, 1.0, 0.0));
    assert_touching_or_overlapping(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(0.3, 1.0, -0.2));
}

#[test]
fn touching_boxes_edge_to_edge_and_vertex_to_vertex() {
    assert_touching_or_overlapping(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(1.0, 1.0, 0.0));
    assert_touching_or_overlapping(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(1.0, 1.0, 1.0));
}

/// A gap of 1e-6 between parallel faces must be measured, not rounded to touching.
#[test]
fn boxes_face_to_face_with_a_gap_of_1e_6() {
    assert_separated(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(0.2, 1.0 + 1e-6, 0.1), 1e-6, 1e-15);
}

/// The same gap far from the origin: parry #70/#396 and mujoco_warp #1613 lost it at large coordinates. At 1e5
/// the inputs themselves are rounded to ulp(1e5) ≈ 1.5e-11, which bounds the accuracy.
#[test]
fn boxes_with_a_gap_of_1e_6_at_offset_1e5() {
    let o = 1e5;
    let d = assert_separated(&unit_cube(), &at(o, o, -o), &unit_cube(), &at(o + 0.2, o + 1.0 + 1e-6, -o), 1e-6, 3e-11);
    assert!((d.normal - DVec3::Y).length() < 1e-4);
}

/// One shape inside another with the same centre: GJK must end with the origin enclosed, not loop.
#[test]
fn box_inside_box_same_centre() {
    let small = Cuboid::new(DVec3::new(0.1, 0.2, 0.3)).unwrap();
    assert_touching_or_overlapping(&unit_cube(), &at(0.0, 0.0, 0.0), &small, &at(0.0, 0.0, 0.0));
    assert_touching_or_overlapping(&small, &at(5.0, 5.0, 5.0), &unit_cube(), &at(5.0, 5.0, 5.0));
}

/// Identical shapes at identical poses: A − B is symmetric about the origin.
#[test]
fn identical_shapes_at_identical_poses() {
    let q = Iso::new(DQuat::from_rotation_x(0.4), DVec3::new(1.0, 2.0, 3.0));
    assert_touching_or_overlapping(&unit_cube(), &q, &unit_cube(), &q);
    let p = Point::new(DVec3::ZERO).unwrap();
    assert_touching_or_overlapping(&p, &q, &p, &q);
}

/// Shapes 1e-3 in size: tolerances must be relative, or everything looks touching.
#[test]
fn millimetre_boxes_with_a_micrometre_gap() {
    let c = Cuboid::new(DVec3::splat(5e-4)).unwrap();
    assert_separated(&c, &at(0.0, 0.0, 0.0), &c, &at(1e-3 + 1e-6, 2e-4, 0.0), 1e-6, 1e-18);
}

/// Extreme size ratio, molecule against plane (coal #380): a 1e-3 ball over a 1e3 slab.
#[test]
fn tiny_ball_over_huge_slab() {
    let slab = Cuboid::new(DVec3::new(1e3, 1.0, 1e3)).unwrap();
    let ball = Ball::new(1e-3).unwrap();
    assert_separated(&slab, &at(0.0, 0.0, 0.0), &ball, &at(123.0, 1.0 + 2e-3, -77.0), 1e-3, 1e-12);
}

/// A needle (segment) crossing a thin slab and one just missing its edge.
#[test]
fn needle_against_thin_slab() {
    let slab = Cuboid::new(DVec3::new(1.0, 1e-6, 1.0)).unwrap();
    let needle = Segment::new(DVec3::new(0.0, -5.0, 0.0), DVec3::new(0.0, 5.0, 0.0)).unwrap();
    assert_touching_or_overlapping(&slab, &at(0.0, 0.0, 0.0), &needle, &at(0.3, 0.0, 0.2));
    assert_separated(&slab, &at(0.0, 0.0, 0.0), &needle, &at(1.0 + 1e-7, 0.0, 0.2), 1e-7, 1e-15);
}

/// Coplanar flat polygons overlapping in their common plane: openGJK #3 called these separated.
#[test]
fn coplanar_flat_polygons_overlapping() {
    let square = |s: f64| {
        ConvexPolytope::new(&[
            DVec3::new(-s, 0.0, -s),
            DVec3::new(s, 0.0, -s),
            DVec3::new(s, 0.0, s),
            DVec3::new(-s, 0.0, s),
        ])
        .unwrap()
    };
    assert_touching_or_overlapping(&square(1.0), &at(0.0, 0.0, 0.0), &square(0.5), &at(0.7, 0.0, 0.3));
    assert_separated(&square(1.0), &at(0.0, 0.0, 0.0), &square(0.5), &at(2.0, 0.0, 0.0), 0.5, 1e-14);
}

/// Point sets with duplicates and collinear points are valid hulls and measure like their hull.
#[test]
fn duplicated_and_collinear_hull_points() {
    let line = ConvexPolytope::new(&[
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.5, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.25, 0.0, 0.0),
    ])
    .unwrap();
    let p = Point::new(DVec3::new(0.5, 2.0, 0.0)).unwrap();
    assert_separated(&line, &at(0.0, 0.0, 0.0), &p, &at(0.0, 0.0, 0.0), 2.0, 1e-15);
    let single = ConvexPolytope::new(&[DVec3::ONE, DVec3::ONE, DVec3::ONE]).unwrap();
    assert_separated(&single, &at(0.0, 0.0, 0.0), &unit_cube(), &at(0.0, 0.0, 0.0), 0.5 * 3f64.sqrt(), 1e-15);
}

/// A triangle touching a box edge-on and a degenerate (collinear) triangle.
#[test]
fn degenerate_triangle_measures_like_its_segment() {
    let flat = Triangle::new(DVec3::new(-1.0, 2.0, 0.0), DVec3::new(1.0, 2.0, 0.0), DVec3::new(0.0, 2.0, 0.0)).unwrap();
    assert_separated(&unit_cube(), &at(0.0, 0.0, 0.0), &flat, &at(0.0, 0.0, 0.0), 1.5, 1e-15);
}

/// Capsules whose core segments are parallel (the segment–segment closest pair is not unique).
#[test]
fn capsule_capsule_parallel_segments() {
    let c = Capsule::new(1.0, 0.25).unwrap();
    let d = assert_separated(&c, &at(0.0, 0.0, 0.0), &c, &at(1.0, 0.5, 0.0), 0.5, 1e-15);
    assert!((d.normal - DVec3::X).length() < 1e-15);
}

/// Capsule lying just above a box, a 1e-6 gap: exact through core + radius (parry #378 had a wrong witness).
#[test]
fn capsule_above_box_within_prediction_distance() {
    let c = Capsule::new(1.0, 0.25).unwrap();
    let lying = Iso::new(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2), DVec3::new(0.1, 0.75 + 1e-6, 0.0));
    let d = assert_separated(&unit_cube(), &at(0.0, 0.0, 0.0), &c, &lying, 1e-6, 1e-15);
    assert!((d.point_a.y - 0.5).abs() < 1e-15 && (d.point_b.y - 0.5 - 1e-6).abs() < 1e-15);
}

/// MuJoCo #3383: separated shapes reported at distance 0 after an early exit. With a bound below the distance
/// the answer must still say separated, with a lower bound, never intersecting.
#[test]
fn early_exit_above_bound_never_reports_intersecting() {
    let opts = DistanceOptions { max_distance: Some(0.1), ..DistanceOptions::default() };
    let d = distance_with(&unit_cube(), &at(0.0, 0.0, 0.0), &unit_cube(), &at(0.3, 1.5, 0.0), &opts, None, &mut ());
    assert!(!d.intersecting);
    assert_eq!(d.status, Status::AboveBound);
    assert!(d.distance > 0.1 && d.distance <= 0.5 + 1e-15, "lower bound {}", d.distance);
}

/// 2D: rectangles touching at corners and a circle exactly touching a rectangle's side.
#[test]
fn touching_rectangles_and_circle_in_2d() {
    let r = Cuboid::new(DVec2::new(1.0, 0.5)).unwrap();
    let o = Iso::<DVec2>::identity();
    assert!(distance(&r, &o, &r, &Iso::from_translation(DVec2::new(2.0, 1.0))).intersecting);
    let disc = Ball::new(0.5).unwrap();
    assert!(distance(&r, &o, &disc, &Iso::from_translation(DVec2::new(0.3, 1.0))).intersecting);
    let d = distance(&r, &o, &disc, &Iso::from_translation(DVec2::new(0.3, 1.0 + 1e-6)));
    assert!(!d.intersecting && (d.distance - 1e-6).abs() < 1e-15);
}

/// f32: the same face-to-face gap, at the precision f32 can hold (ulp(1) ≈ 1.2e-7).
#[test]
fn boxes_face_to_face_in_f32() {
    let c = Cuboid::new(Vec3::splat(0.5)).unwrap();
    let d = distance(&c, &Iso::identity(), &c, &Iso::new(Quat::IDENTITY, Vec3::new(0.2, 1.001, 0.1)));
    assert!(!d.intersecting && (d.distance - 0.001).abs() < 1e-6, "{d:?}");
    assert!(distance(&c, &Iso::identity(), &c, &Iso::new(Quat::IDENTITY, Vec3::new(0.2, 1.0, 0.1))).intersecting);
}

/// The exact capsule and cylinder ray casts agree with the GJK ray cast of the same shapes (given as support
/// functions, which have no fast path) on random rays: times to 1e-9 of the size; normals to 1e-9 on the capsule
/// (core + radius makes the GJK path exact too) and to 5e-4 on the cylinder, whose curved side has no radius to
/// carry the normal, so the GJK path's normal is only as good as the direction of a distance at rounding level
/// (1.9e-4 at worst over these 4000 rays, ray 1111) — the reason the exact fast path exists.
#[test]
fn capsule_and_cylinder_ray_fast_paths_agree_with_gjk() {
    use gjk::cast::ray_cast;
    use gjk::shape::{Cylinder, SupportFn};
    let cap = Capsule::new(0.7, 0.3).unwrap();
    let cyl = Cylinder::new(0.7, 0.3).unwrap();
    let cap_gjk = SupportFn::rounded(|d: DVec3| DVec3::new(0.0, if d.y < 0.0 { -0.7 } else { 0.7 }, 0.0), 0.3);
    let cyl_gjk = SupportFn::new(move |d: DVec3| cyl.support(d));
    let mut seed = 12345u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let (mut hits, mut ahead, mut agree) = (0, 0, 0);
    for i in 0..4000 {
        let pose = Iso::new(
            DQuat::from_euler(glam::EulerRot::XYZ, rnd() * 3.0, rnd() * 3.0, rnd() * 3.0),
            DVec3::new(rnd(), rnd(), rnd()),
        );
        let origin = DVec3::new(rnd(), rnd(), rnd()) * 3.0;
        let target = pose.translation + DVec3::new(rnd(), rnd(), rnd()) * 0.8;
        let dir = (target - origin) * (0.5 + rnd().abs());
        let solid = i % 2 == 0;
        for (fast, slow, normal_tol) in [
            (
                ray_cast(&cap, &pose, origin, dir, 10.0, solid),
                ray_cast(&cap_gjk, &pose, origin, dir, 10.0, solid),
                1e-9,
            ),
            (
                ray_cast(&cyl, &pose, origin, dir, 10.0, solid),
                ray_cast(&cyl_gjk, &pose, origin, dir, 10.0, solid),
                5e-4,
            ),
        ] {
            assert_eq!(fast.iterations, 0, "the fast path was taken");
            if fast.hit != slow.hit {
                // Only a graze (the ray passing within rounding of the surface) may be called either way.
                let t = if fast.hit { fast.toi } else { slow.toi };
                let p = origin + dir * t;
                let d = distance(&Point::new(p).unwrap(), &Iso::identity(), &cap, &pose)
                    .distance
                    .min(distance(&Point::new(p).unwrap(), &Iso::identity(), &cyl, &pose).distance);
                assert!(d < 1e-7, "{i}: fast {fast:?} vs gjk {slow:?}");
                continue;
            }
            if fast.hit {
                hits += 1;
                assert!((fast.toi - slow.toi).abs() * dir.length() <= 1e-9, "{i}: toi {} vs {}", fast.toi, slow.toi);
                if fast.toi > 0.0 {
                    ahead += 1;
                    agree += usize::from((fast.normal - slow.normal).length() <= normal_tol);
                }
            }
        }
    }
    assert!(hits > 2000, "the sample must exercise hits: {hits}");
    println!("capsule/cylinder rays: {hits} hits, {ahead} ahead of the origin, normals agree on {agree}");
    assert_eq!(agree, ahead, "every normal agrees");
}

/// Two point cores skip the GJK loop when nobody observes; observed, the same queries run the loop. The answers
/// must be the same bit for bit (compared through their `Debug` text, which tells −0 from +0). Two balls (cores at
/// their shapes' origins) take the world-coordinate closed form observed or not, so for them this checks that an
/// observed query answers what an unobserved one does; a point off its origin and a posed ball still run the loop
/// when observed. Centres
/// apart, touching within rounding, coincident, in f32 and f64, 2D and 3D, near and far from the origin, with
/// rounded points and nested poses.
#[test]
fn point_cores_skip_the_loop_with_the_loops_answer() {
    use gjk::math::{Real, Rot2, Vec2, Vector};
    use gjk::penetration_with;
    use gjk::shape::{Posed, Rounded};
    use gjk::trace::Recorder;
    use gjk::{intersection, WarmStart};

    fn same<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) {
        let opts = DistanceOptions::default();
        let bound = DistanceOptions { max_distance: Some(V::Real::from_f64(0.25)), ..opts };
        for o in [opts, bound] {
            let fast = distance_with(a, pa, b, pb, &o, None, &mut ());
            let looped = distance_with(a, pa, b, pb, &o, None, &mut Recorder::default());
            assert_eq!(format!("{fast:?}"), format!("{looped:?}"));
            let (mut c1, mut c2) = (WarmStart::default(), WarmStart::default());
            let fast = distance_with(a, pa, b, pb, &o, Some(&mut c1), &mut ());
            let looped = distance_with(a, pa, b, pb, &o, Some(&mut c2), &mut Recorder::default());
            assert_eq!(format!("{fast:?}"), format!("{looped:?}"));
            assert_eq!(format!("{c1:?}"), format!("{c2:?}"));
            let fast = intersection(a, pa, b, pb, &o, None, &mut ());
            let looped = intersection(a, pa, b, pb, &o, None, &mut Recorder::default());
            assert_eq!(fast, looped);
            let fast = penetration_with(a, pa, b, pb, &o, &mut ());
            let looped = penetration_with(a, pa, b, pb, &o, &mut Recorder::default());
            assert_eq!(format!("{fast:?}"), format!("{looped:?}"));
        }
    }
    let (b1, b2) = (Ball::new(0.5).unwrap(), Ball::new(0.25).unwrap());
    let q = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    for far in [0.0, 1e6] {
        for (x, y) in [(2.0, 0.3), (0.75, 0.0), (0.7, 0.1), (0.0, 0.0), (1e-9, -3.0)] {
            let pa = Iso::new(q, DVec3::new(far, -far, 0.5 * far));
            let pb = Iso::new(q.inverse(), pa.translation + DVec3::new(x, y, -0.1 * x));
            same(&b1, &pa, &b2, &pb);
            same(&Point::new(DVec3::new(0.1, 0.2, 0.3)).unwrap(), &pa, &b1, &pb);
            same(&Rounded::new(b2, 0.125).unwrap(), &pa, &Posed::new(b1, Iso::new(q, DVec3::X)), &pb);
            let (pa32, pb32) =
                (Iso::new(q.as_quat(), pa.translation.as_vec3()), Iso::new(Quat::IDENTITY, pb.translation.as_vec3()));
            same(&Ball::new(0.5f32).unwrap(), &pa32, &Ball::new(0.25f32).unwrap(), &pb32);
            let pa2 = Iso::new(Rot2::from_angle(0.3), DVec2::new(far, 0.0));
            let pb2 = Iso::new(Rot2::from_angle(-1.0), DVec2::new(far + x, y));
            same(&b1, &pa2, &b2, &pb2);
            let pb2f = Iso::new(Rot2::from_angle(-1.0f32), Vec2::new(x as f32, y as f32));
            same(&Ball::new(0.5f32).unwrap(), &Iso::identity(), &Ball::new(0.25f32).unwrap(), &pb2f);
        }
    }
    // Random pairs (apart, overlapping, concentric; near the origin and at 1e5), both precisions, 3D and 2D.
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(0x9017_0001);
    for n in 0..2000 {
        let far = [0.0, 1e5, -3.0][n % 3];
        let mut unit = || DVec3::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
        let (axis_a, axis_b, at, off) = (unit().normalize(), unit().normalize(), unit(), unit());
        let (r1, r2, turn) = (rng.gen_range(0.0..2.0), rng.gen_range(0.0..2.0), rng.gen_range(-3.0..3.0));
        let off = if n % 7 == 0 { DVec3::ZERO } else { off * 3.0 };
        let pa = Iso::new(DQuat::from_axis_angle(axis_a, turn), at + DVec3::splat(far));
        let pb = Iso::new(DQuat::from_axis_angle(axis_b, -turn), pa.translation + off);
        let (b1, b2) = (Ball::new(r1).unwrap(), Ball::new(r2).unwrap());
        same(&b1, &pa, &b2, &pb);
        same(&Point::new(at).unwrap(), &pa, &b2, &pb);
        let (pa32, pb32) = (
            Iso::new(pa.rotation.as_quat(), pa.translation.as_vec3()),
            Iso::new(pb.rotation.as_quat(), pb.translation.as_vec3()),
        );
        same(&Ball::new(r1 as f32).unwrap(), &pa32, &Ball::new(r2 as f32).unwrap(), &pb32);
        let pa2 = Iso::new(Rot2::from_angle(turn), pa.translation.truncate());
        let pb2 = Iso::new(Rot2::from_angle(2.0 * turn), pb.translation.truncate());
        same(&b1, &pa2, &b2, &pb2);
    }
}

/// `intersection` stops at the first separating plane it finds, `distance` runs to convergence: at the touching
/// threshold they must still agree, or a shortcut that decides "apart" from a support point's bound before GJK's
/// touching test has run would say "apart" where `distance` says "touching" (MuJoCo #3383's early exit, the other
/// way round). Tried in this project and reverted: a first-support-point exit before the loop failed this test
/// on the boxes below (gap 1e-14, touching threshold ~1.9e-14 of the final simplex's scale, larger than the first
/// point's). Hulls whose centres lie along u, their supporting planes along u (the first search direction) `gap`
/// apart, near the origin and at 1e5; then boxes face to face along their centre line.
#[test]
fn intersection_agrees_with_distance_at_touching() {
    let mut s = 0x005e_edf1_u64;
    let mut uniform = move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let unit = |f: &mut dyn FnMut() -> f64| loop {
        let v = DVec3::new(f(), f(), f());
        if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
            break v.normalize();
        }
    };
    for round in 0..60 {
        let cloud = |f: &mut dyn FnMut() -> f64| (0..24).map(|_| DVec3::new(f(), f(), f())).collect::<Vec<_>>();
        let (a, b) =
            (ConvexPolytope::new(&cloud(&mut uniform)).unwrap(), ConvexPolytope::new(&cloud(&mut uniform)).unwrap());
        let offset = if round % 2 == 0 { 0.0 } else { 1e5 };
        let qa = DQuat::from_axis_angle(unit(&mut uniform), uniform() * 3.0);
        let qb = DQuat::from_axis_angle(unit(&mut uniform), uniform() * 3.0);
        let pa = Iso::new(qa, DVec3::splat(offset) + DVec3::new(uniform(), uniform(), uniform()));
        let u = unit(&mut uniform);
        // Along u: A reaches `reach_a` beyond its centre, B `reach_b` behind its own.
        let ca = pa.transform_point(a.center());
        let reach_a = a.vertices().iter().map(|v| (pa.transform_point(*v) - ca).dot(u)).fold(f64::MIN, f64::max);
        let cb_local = b.center();
        let reach_b = b.vertices().iter().map(|v| -(qb * (*v - cb_local)).dot(u)).fold(f64::MIN, f64::max);
        for gap in [0.0, 1e-15, -1e-15, 1e-13, 1e-12, -1e-12, 1e-10, 1e-9, 1e-6] {
            let centre_b = ca + u * (reach_a + reach_b + gap);
            let pb = Iso::new(qb, centre_b - qb * cb_local);
            let d = distance(&a, &pa, &b, &pb);
            let i = gjk::intersection(&a, &pa, &b, &pb, &DistanceOptions::default(), None, &mut ());
            assert_eq!(i.intersecting, d.intersecting, "round {round} gap {gap:e}: {i:?} vs {d:?}");
            assert_eq!(intersects(&a, &pa, &b, &pb), d.intersecting, "round {round} gap {gap:e}");
            let bound = DistanceOptions { max_distance: Some(0.5 * gap.abs()), ..DistanceOptions::default() };
            let e = distance_with(&a, &pa, &b, &pb, &bound, None, &mut ());
            assert_eq!(e.intersecting, d.intersecting, "round {round} gap {gap:e}: {e:?} vs {d:?}");
        }
    }

    // Boxes face to face along their centre line: the first support point's bound is the gap itself, and the
    // distance is the gap, so the gaps inside the touching threshold are where the two tests meet.
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let (mut touching, mut cases) = (0, 0);
    for round in 0..40 {
        let q = DQuat::from_axis_angle(unit(&mut uniform), uniform() * 3.0);
        let base = DVec3::splat(if round % 2 == 0 { 0.0 } else { 1e5 });
        let pa = Iso::new(q, base);
        for gap in [0.0, 1e-16, 1e-15, -1e-15, 1e-14, 3e-14, 1e-13, -1e-13, 1e-12, 1e-9] {
            let pb = Iso::new(q, base + q * DVec3::new(1.0 + gap, 0.0, 0.0));
            let d = distance(&cube, &pa, &cube, &pb);
            let i = gjk::intersection(&cube, &pa, &cube, &pb, &DistanceOptions::default(), None, &mut ());
            assert_eq!(i.intersecting, d.intersecting, "boxes round {round} gap {gap:e}: {i:?} vs {d:?}");
            touching += usize::from(d.intersecting);
            cases += 1;
        }
    }
    // Both answers occur among the boxes: gaps inside the touching threshold and beyond it.
    assert!(touching > 0 && touching < cases, "{touching} of {cases} touching");
}

/// A big polygon with one edge parallel to a box's face a small gap away, the pair turned off the axes (fuzz seed
/// 31 case 12540: a 63-gon 6.6e6 across, 1.9e-3 from a box, came back `stalled` with an error bound equal to the
/// distance). The nearest point of A − B on that edge, formed as Σ λᵢ wᵢ from points of size ~1e7, was tilted by
/// ε·|w| / |v| ≈ 1e-6 rad; the support along it was the far end of the edge, so the lower bound v·w / |v| fell
/// below zero and touching could not be excluded. The 2D edge is now projected on its exact normal.
#[test]
fn big_polygon_edge_parallel_to_a_box_a_small_gap_away_converges() {
    use gjk::math::Rot2;
    for (r, gap_rel) in [(1e2, 1e-6), (1e4, 3e-10), (6.6e6, 3e-10), (1e7, 1e-8)] {
        for k in 0..8 {
            let theta = 0.37 + 0.71 * k as f64;
            // A regular 64-gon of circumradius r: vertex i at angle (2i − 1)·π/64, so edge 0–1 faces +x.
            let n: i32 = 64;
            let half = std::f64::consts::PI / n as f64;
            let poly: Vec<DVec2> = (0..n)
                .map(|i| {
                    let a = (2 * i - 1) as f64 * half;
                    DVec2::new(r * a.cos(), r * a.sin())
                })
                .collect();
            let hull = ConvexPolytope::new(&poly).unwrap();
            // The edge's line x = r cos(π/64), as rounded in the two vertices (equal: cos is even).
            let apothem = poly[0].x.max(poly[1].x);
            let gap = gap_rel * r;
            let box_half = DVec2::new(0.4 * r, 0.3 * r);
            let b = Cuboid::new(box_half).unwrap();
            let rot = Rot2::from_angle(theta);
            let pa = Iso::new(rot, DVec2::new(0.25 * r, -0.5 * r));
            // B's centre along A's +x, so that its −x face is `gap` beyond A's edge, in A's frame turned by θ.
            let local = DVec2::new(apothem + gap + box_half.x, 0.1 * r);
            let pb = Iso::new(rot, pa.transform_point(local));
            let d = distance(&hull, &pa, &b, &pb);
            let size = r;
            let msg = format!("r {r:e} gap {gap:e} θ {theta}: {d:?}");
            assert!(!d.intersecting, "{msg}");
            assert_eq!(d.status, Status::Converged, "{msg}");
            // The placement of B rounds by a few ulps of r: the gap itself is known to that.
            assert!((d.distance - gap).abs() <= 1e-12 * size, "{msg}");
            assert!(d.error_bound <= 1e-12 * size && d.distance - d.error_bound > 0.0, "{msg}");
            assert!(intersects(&hull, &pa, &b, &pb) == d.intersecting, "{msg}");
        }
    }
}

/// Checks the answer of a pair whose run ends on a sliver simplex: the witnesses are `distance · normal` apart to
/// rounding (1e-12 relative, where a weight off by ε·|w|²/area would leave 1e-9), each lies on its shape to the
/// properties' 1e-9, and the weights are a convex combination.
fn assert_sliver_answer<S: SupportMap<DVec3>, T: SupportMap<DVec3>>(
    a: &S,
    pa: &Iso<DVec3>,
    b: &T,
    pb: &Iso<DVec3>,
    size: f64,
) {
    let d = distance(a, pa, b, pb);
    assert!(!d.intersecting, "{d:?}");
    let gap = ((d.point_b - d.point_a) - d.normal * d.distance).length();
    assert!(gap <= 1e-12 * size, "point_b - point_a - distance * normal = {gap:e}: {d:?}");
    let on = |p: DVec3, s: &dyn SupportMap<DVec3>, pose: &Iso<DVec3>| {
        distance(&Point::new(p).unwrap(), &Iso::identity(), s, pose).distance
    };
    assert!(on(d.point_a, a, pa) <= 1e-9 * size, "point_a off A: {d:?}");
    assert!(on(d.point_b, b, pb) <= 1e-9 * size, "point_b off B: {d:?}");
    let weights = &d.simplex.weights[..d.simplex.len];
    assert!(weights.iter().all(|&w| w >= 0.0), "{weights:?}");
    assert!((weights.iter().sum::<f64>() - 1.0).abs() <= 32.0 * f64::EPSILON, "{weights:?}");
    let back = distance(b, pb, a, pa);
    assert!((back.distance - d.distance).abs() <= 1e-12 * size, "d(A,B) {} d(B,A) {}", d.distance, back.distance);
}

/// A flat ellipsoid against a long triangle (found by the properties test when the tetrahedron solve began to stop
/// at the first facet holding the closest point): GJK ends on a sliver triangle of A − B, two support points 1e-7
/// apart and the third 2.5 away. Its weights came from sub-areas spanning the long edges, each off by ε·|w|²/area
/// ≈ 1e-9; renormalised, they moved Σ λᵢ aᵢ off the projection v by 2.4e-9, so the witnesses disagreed with the
/// distance and normal by that much.
#[test]
fn ellipsoid_triangle_sliver_witnesses_meet_the_normal() {
    let a = Ellipsoid::new(DVec3::new(0.24429784148017378, 1.4455932280282442, 0.10325006215322673)).unwrap();
    let b = Triangle::new(
        DVec3::new(-0.833196026449743, 0.6637180921070497, 1.1081810112633372),
        DVec3::new(-0.6122252691958074, 1.0132537992193489, 0.04004392763862597),
        DVec3::new(-1.0063779951565364, -1.0688842163958063, -1.1551185391047696),
    )
    .unwrap();
    let pa = Iso::new(
        DQuat::from_xyzw(0.749626346869899, 0.6132195664119542, -0.17484521949599552, -0.17734501026931124),
        DVec3::ZERO,
    );
    let pb = Iso::new(
        DQuat::from_xyzw(-0.19074796402938288, 0.850231657779946, -0.14858025264084365, -0.4675951783889491),
        DVec3::new(-1.9809284027529572, 0.5653370266516063, 1.3673557206011973),
    );
    assert_sliver_answer(&a, &pa, &b, &pb, 1.5);
}

/// A segment against a cone, the same sliver the other way round (two close support points on the cone's rim, the
/// far one at the segment's other end): the area spanning the short edge was computed from the projection's
/// corner, ε × 0.5², and the whole area from the two long edges, both 1e-9 relative; the witnesses were 1.8e-9
/// off the normal.
#[test]
fn segment_cone_sliver_witnesses_meet_the_normal() {
    let a = Segment::new(
        DVec3::new(0.7450490755011094, 0.8749038335788157, 0.7526458402842594),
        DVec3::new(-0.834644362144487, -1.0914568760290722, -0.6978823452895188),
    )
    .unwrap();
    let b = Cone::new(0.4822366452626154, 0.8236911473256872).unwrap();
    let pa = Iso::new(
        DQuat::from_xyzw(0.7341428158455034, 0.2840612791491281, -0.6137863244364649, -0.060082140153053264),
        DVec3::new(0.0, -1.3758299161592036, 0.0),
    );
    let pb = Iso::new(
        DQuat::from_xyzw(-0.10293092183353111, -0.6906105142999452, -0.5466763182726448, 0.4621767474773376),
        DVec3::new(0.4052593555605593, -0.9305919179717304, -0.832321466343694),
    );
    assert_sliver_answer(&a, &pa, &b, &pb, 2.0);
}

/// gjk-fuzz seed 3 case 4398: two identical segments 4e-6 long, 0.5 from the origin, one translated by 2e-16 (the
/// rounding of its position). A − B is the segment shifted by that offset, 1.9e-16 from the origin, while its ends
/// are 4e-6 away. GJK had the distance right (to 1e-23) but came back `stalled` with an error bound equal to it,
/// saying "apart" where touching was not excluded: v = Σ λᵢ wᵢ carried ε·|w| of rounding along the segment, which
/// at |v| = 1.9e-16 tilted v by 5e-6 rad, so the lower bound v·w / |v| at the segment's far end fell below zero.
/// Now v is the origin's projection onto the segment's line, projected twice, and the run converges.
/// Then random segments 2e-6 to 1e-3 long, 0.5 to 1e4 from the origin, the copy moved by 1 to 1000 ulps of its
/// position, in both orders: converged, the distance the offset's part across the segment to the rounding of
/// the segment's ends, with an error bound of that rounding.
#[test]
fn parallel_segments_a_rounding_apart_converge_apart_fuzz_3_4398() {
    let s = Segment::new(
        DVec3::new(-2.036960082668321e-6, -2.4011171220493005e-7, 1.5200691730456967e-6),
        DVec3::new(-4.939727906489181e-7, 6.07916451292555e-7, -2.031188113197244e-6),
    )
    .unwrap();
    let pa = at(0.30649737740705385, -0.33791562522454144, -0.4474463458143756);
    let pb = at(0.3064973774070536, -0.3379156252245414, -0.44744634581437526);
    check_parallel_copies(&s, &pa, &pb);

    let mut r = crate::common::rng(4398);
    for _ in 0..400 {
        let length = crate::common::log_uniform(&mut r, 2e-6, 1e-3);
        let e = crate::common::unit3(&mut r) * length;
        let middle = crate::common::in_cube3(&mut r, length);
        let s = Segment::new(middle - e * 0.5, middle + e * 0.5).unwrap();
        let far = crate::common::log_uniform(&mut r, 0.5, 1e4);
        let pa = Iso::from_translation(crate::common::unit3(&mut r) * far);
        let ulps = crate::common::log_uniform(&mut r, 1.0, 1e3);
        let pb = Iso::from_translation(pa.translation + crate::common::unit3(&mut r) * (ulps * f64::EPSILON * far));
        check_parallel_copies(&s, &pa, &pb);
    }
}

/// `s` at `pa` and at `pb` (translations only, close enough that their difference is exact), in both orders.
fn check_parallel_copies(s: &Segment<DVec3>, pa: &Iso<DVec3>, pb: &Iso<DVec3>) {
    let offset = pb.translation - pa.translation;
    let e = s.b - s.a;
    let exact = (offset - e * (offset.dot(e) / e.length_squared())).length();
    // The pair's frame puts B's ends at its own ends plus the offset, each rounded by ε of the segment's size.
    let rounding = 8.0 * f64::EPSILON * s.a.abs().max(s.b.abs()).max_element();
    for (first, second) in [(pa, pb), (pb, pa)] {
        let d = distance(s, first, s, second);
        let case = format!("offset {offset:?}, exact {exact:e}: {d:?}");
        assert_eq!(d.status, Status::Converged, "{case}");
        assert!(d.error_bound <= rounding, "{case}");
        assert!((d.distance - exact).abs() <= d.error_bound + rounding, "{case}");
        if exact > 2.0 * rounding {
            assert!(!d.intersecting, "{case}");
        }
    }
}

/// In f32 a triangle's normal n = e₁ × e₂ has |n|² of the fourth power of its size, which overflows past edges of
/// ~1e9 and underflows below ~1e-10: GJK's projection onto a triangle of support points came out 0 (gjk-fuzz seed 3
/// case 1931: two f32 cylinders, one 9.4e9 wide, 2.02e7 apart along a separating axis, called intersecting one
/// way and apart the other), and EPA found no face with a normal (penetrations of depth 0 with a zero normal, and
/// shapes 2.2 sizes apart at distance 0). The same pairs scaled by 1e-15 … 3e10 now give the answers of scale 1,
/// scaled, to f32 rounding: distance, penetration depth and normal, in both orders.
#[test]
fn f32_shapes_of_1e10_and_1e_15_keep_the_answers_of_scale_1_fuzz_3_1931() {
    let q = Quat::from_xyzw(1.0946723e-9, -2.232192e-9, -2.4508938e-9, -1.0);
    let (a, b) = (Cylinder::new(292236.33, 9.418058e9).unwrap(), Cylinder::new(290951.96, 235967.5).unwrap());
    let (pa, pb) = (
        Iso::new(q, Vec3::new(0.632787, 0.10227369, -0.06528175)),
        Iso::new(q, Vec3::new(9.092492e8, -2.0820046e7, -2.8353146e9)),
    );
    for (first, second) in [((&a, &pa), (&b, &pb)), ((&b, &pb), (&a, &pa))] {
        let d = distance(first.0, first.1, second.0, second.1);
        assert!(!d.intersecting && !intersects(first.0, first.1, second.0, second.1), "{d:?}");
        assert!((d.distance - 2.0236856e7).abs() <= 1e-5 * 2.0236856e7 + d.error_bound, "{d:?}");
    }

    let shapes = |s: f32| {
        let boxed = Cuboid::new(Vec3::new(1.0, 2.0, 3.0) * s).unwrap();
        let round = Ellipsoid::new(Vec3::new(2.0, 1.0, 1.5) * s).unwrap();
        let drum = Cylinder::new(0.5 * s, 2.0 * s).unwrap();
        (boxed, round, drum)
    };
    let pa = Iso::new(Quat::from_rotation_y(0.3), Vec3::ZERO);
    let near = |s: f32| Iso::new(Quat::from_rotation_x(0.2), Vec3::new(2.5, 0.1, 0.0) * s);
    let far = |s: f32| Iso::new(Quat::from_rotation_x(0.2), Vec3::new(5.5, 0.1, 0.0) * s);
    let (boxed, round, drum) = shapes(1.0);
    let unit = [
        gjk::penetration(&boxed, &pa, &round, &near(1.0)),
        gjk::penetration(&boxed, &pa, &drum, &near(1.0)),
        gjk::penetration(&round, &near(1.0), &boxed, &pa),
    ];
    let unit_gap = distance(&boxed, &pa, &drum, &far(1.0)).distance;
    assert!(unit.iter().all(|p| p.distance < -0.5) && unit_gap > 2.0, "{unit:?} {unit_gap}");
    for s in [1e-15f32, 1e-10, 1e-5, 1e5, 1e9, 1e10, 3e10] {
        let (boxed, round, drum) = shapes(s);
        let scaled = [
            gjk::penetration(&boxed, &pa, &round, &near(s)),
            gjk::penetration(&boxed, &pa, &drum, &near(s)),
            gjk::penetration(&round, &near(s), &boxed, &pa),
        ];
        for (p, u) in scaled.iter().zip(&unit) {
            assert!((p.distance / s - u.distance).abs() <= 1e-5, "scale {s:e}: {p:?} against {u:?}");
            assert!((p.normal - u.normal).length() <= 1e-5, "scale {s:e}: {p:?} against {u:?}");
        }
        let gap = distance(&boxed, &pa, &drum, &far(s));
        assert!(!gap.intersecting && (gap.distance / s - unit_gap).abs() <= 1e-5, "scale {s:e}: {gap:?}");
    }
}

/// A point at the centre of a flat cone (half-height 0.124, radius 1574; gjk-fuzz seed 41 case 8524, a capsule
/// of zero size there) is 0.124 deep, yet with the point as A GJK said "apart, 4.9e-11, converged": its triangle
/// of two opposite rim points and the apex passes within rounding of the origin, so v (5e-11, against 1574-sized
/// points) is rounding noise; the next support, 1570 beyond the origin, made a tetrahedron whose signed volumes
/// could not place the origin inside, and the no-progress stop called a run whose lower bound was 0 apart. A run
/// that stalls within rounding of the origin with no support plane excluding touching now says touching.
/// Then flat cones, cylinders and ellipsoids (aspect 1e2 … 1e5, random rotations, offsets up to 1e3) with a point
/// at their centre — intersecting in both orders and for `intersects` — and the point moved out past the flat side
/// by a gap of 1e-6 … 1e-2 of the thickness: apart, at that gap.
#[test]
fn point_at_the_centre_of_a_flat_cone_is_inside_fuzz_41_8524() {
    let cone = Cone::new(0.1235827530881735, 1574.1513203429627).unwrap();
    let t = DVec3::new(0.42445308647909763, -0.9535121448543531, -0.13421090094972277);
    let q = DQuat::from_xyzw(0.2172682983482203, 0.4333735393927909, 0.18920465391247654, -0.8539223974254885);
    let (pose_cone, pose_point) = (Iso::new(q.normalize(), t), Iso::from_translation(t));
    let point = Capsule::new(0.0, 0.0).unwrap();
    assert!(distance(&point, &pose_point, &cone, &pose_cone).intersecting);
    assert!(distance(&cone, &pose_cone, &point, &pose_point).intersecting);
    assert!(intersects(&point, &pose_point, &cone, &pose_cone));

    let mut r = crate::common::rng(8524);
    let point = Point::new(DVec3::ZERO).unwrap();
    for case in 0..600 {
        let thick = crate::common::log_uniform(&mut r, 1e-2, 1.0);
        let wide = thick * crate::common::log_uniform(&mut r, 1e2, 1e5);
        let rotation = crate::common::unit_quat(&mut r);
        let centre = crate::common::in_cube3(&mut r, 1e3);
        let pose = Iso::new(rotation, centre);
        let gap = thick * crate::common::log_uniform(&mut r, 1e-6, 1e-2);
        // The flat side's outward normal (local −y: the cone's base, the cylinder's bottom, the ellipsoid's pole)
        // and its distance from the centre.
        let (shape, half): (Box<dyn SupportMap<DVec3>>, f64) = match case % 3 {
            0 => (Box::new(Cone::new(thick, wide).unwrap()), thick),
            1 => (Box::new(Cylinder::new(thick, wide).unwrap()), thick),
            _ => (Box::new(Ellipsoid::new(DVec3::new(wide, thick, wide * 0.7)).unwrap()), thick),
        };
        let label = format!("case {case}: thickness {thick:e}, width {wide:e}, gap {gap:e}");
        let at_centre = Iso::from_translation(centre);
        let d = distance(&point, &at_centre, &*shape, &pose);
        assert!(d.intersecting, "{label}: point first {d:?}");
        let d = distance(&*shape, &pose, &point, &at_centre);
        assert!(d.intersecting, "{label}: point second {d:?}");
        assert!(intersects(&point, &at_centre, &*shape, &pose), "{label}: intersects");
        let outside = Iso::from_translation(centre + rotation * DVec3::new(0.0, -(half + gap), 0.0));
        for d in [distance(&point, &outside, &*shape, &pose), distance(&*shape, &pose, &point, &outside)] {
            assert!(!d.intersecting, "{label}: moved out {d:?}");
            // The position's rounding at the offset (1e3) and the flat side's across the width.
            let rounding = 64.0 * f64::EPSILON * (1e3 + wide);
            assert!((d.distance - gap).abs() <= rounding + 1e-9 * gap, "{label}: {} vs {gap:e}", d.distance);
        }
    }
}
