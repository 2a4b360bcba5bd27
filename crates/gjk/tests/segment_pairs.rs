//! Two segment cores in closed form (capsules, segments): the distance, intersection and penetration queries answer
//! them from the segments' closest points, without the GJK loop. Checked against exact distances built into each
//! configuration — cores crossing over each other at angles down to 1e-9 rad (nearly parallel), exactly parallel
//! and overlapping, end beyond end, end to end on one line, touching and overlapping capsules — at sizes 1e-6 to
//! 1e6 and offsets to 1e5, in both orders, and against the general path (the same shapes with their hooks hidden)
//! on random pairs in 2D and 3D, f32 and f64.

use crate::analytic_pairs::{both, both_signed, both_where};
use crate::common::{log_uniform, rng, support_value, uniform, unit_quat, Opaque, Space2, Space3};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Vec2, Vec3};
use gjk::shape::{Capsule, Segment};
use gjk::{distance, intersects, penetration};
use std::f64::consts::FRAC_PI_2;

/// A capsule whose core runs from `c − hh·u` to `c + hh·u` in the scene frame `scene`, with `u = (cos φ, sin φ, 0)`
/// (a capsule's core is its local y axis: turned about z by φ − π/2).
fn posed(scene: &Iso<DVec3>, c: DVec3, phi: f64) -> Iso<DVec3> {
    let local = Iso::new(DQuat::from_rotation_z(phi - FRAC_PI_2), c);
    Iso::new(scene.rotation * local.rotation, scene.transform_point(c))
}

/// 3D f64, both orders, distance and penetration: A's core along x through the origin, B's core at angle φ in the
/// plane z = zc, centred at x = cx (the lines' closest points are then (cx, 0, 0) and (cx, 0, zc), inside both
/// segments when |cx| < ha: the distance is zc less the radii); B beyond A's end and across it (the distance from
/// A's end); parallel and overlapping (zc); end to end on one line.
#[test]
fn capsule_pairs_3d_exact() {
    let q = DQuat::from_axis_angle(DVec3::new(-1.0, 0.5, 2.0).normalize(), 1.3);
    for scale in [1e-6f64, 1.0, 1e6] {
        for offset in [0.0, 3e4, -1e5] {
            let scene = Iso::new(q, DVec3::new(offset, 0.5 * offset, -offset) * scale.min(1.0));
            for (ha, ra, hb, rb) in [(1.0, 0.5, 0.7, 0.25), (2.0, 0.0, 1.0, 0.0), (50.0, 1e-3, 0.3, 2.0)] {
                let (ha, ra, hb, rb) = (ha * scale, ra * scale, hb * scale, rb * scale);
                let (a, b) = (Capsule::new(ha, ra).unwrap(), Capsule::new(hb, rb).unwrap());
                let pa = posed(&scene, DVec3::ZERO, 0.0);
                let size = 2.0 * (ha + hb + ra + rb) + scene.translation.abs().max_element() * 4.0;
                let check = |pb: &Iso<DVec3>, exact: f64, unique: bool| {
                    both_where(&a, &pa, &b, pb, size, Some(exact), unique);
                    both_where(&b, pb, &a, &pa, size, Some(exact), unique);
                    both_signed(&a, &pa, &b, pb, size, Some(exact));
                    both_signed(&b, pb, &a, &pa, size, Some(exact));
                };
                for gap in [1.0, 1e-6, 0.0, -0.5] {
                    // Overlaps of half the smaller radius; none for two bare segments.
                    let zc = ra + rb + if gap < 0.0 { gap * ra.min(rb) } else { gap * scale };
                    if zc <= 0.0 {
                        continue;
                    }
                    let exact = zc - ra - rb;
                    for phi in [1.2, 0.3, 1e-3, 1e-6, 1e-9] {
                        for cx in [0.3 * ha, -0.7 * ha] {
                            // Nearly parallel, the closest pair is ill-conditioned: B's direction turned by α out
                            // of the plane slides it along the lines by zc·α / sin²φ, and the poses' rounding is
                            // such an α. The loop's points are compared only at wider angles, the closed form's with
                            // the construction within that reach.
                            let pb = posed(&scene, DVec3::new(cx, 0.0, zc), phi);
                            check(&pb, exact, phi >= 1e-3);
                            let d = distance(&a, &pa, &b, &pb);
                            let on_a = scene.transform_point(DVec3::new(cx, 0.0, 0.0)) + d.normal * ra;
                            let reach = 1e3 * f64::EPSILON * size / phi.sin().powi(2);
                            assert!((d.point_a - on_a).length() <= reach, "{phi} {cx}: {d:?} vs {on_a:?}");
                        }
                    }
                    // Across A's end, beyond it by e: the end and B's middle.
                    let e = 0.4 * ha.max(scale);
                    check(
                        &posed(&scene, DVec3::new(ha + e, 0.0, zc), FRAC_PI_2),
                        (e * e + zc * zc).sqrt() - ra - rb,
                        true,
                    );
                    // Parallel, overlapping along x: every point of the overlap is closest.
                    check(&posed(&scene, DVec3::new(0.2 * ha, 0.0, zc), 0.0), exact, false);
                    // End to end on one line, the ends zc apart.
                    check(&posed(&scene, DVec3::new(ha + hb + zc, 0.0, 0.0), 0.0), exact, true);
                }
            }
        }
    }
}

/// The closed form is taken (no iteration) for capsules and segments in every combination, 2D and 3D.
#[test]
fn segment_cores_take_the_closed_form() {
    let cap = Capsule::new(1.0, 0.25).unwrap();
    let seg = Segment::new(DVec3::new(-1.0, 0.5, 0.0), DVec3::new(2.0, -0.5, 1.0)).unwrap();
    let pb = Iso::new(DQuat::from_rotation_x(0.7), DVec3::new(0.3, 0.1, 2.5));
    for d in [distance(&cap, &Iso::identity(), &seg, &pb), distance(&seg, &pb, &cap, &Iso::identity())] {
        assert_eq!((d.iterations, d.error_bound), (0, 0.0), "{d:?}");
        assert!(!d.intersecting && d.distance > 0.0, "{d:?}");
    }
    let p = penetration(&cap, &Iso::identity(), &cap, &pb);
    assert_eq!(p.iterations, 0, "{p:?}");
    let looped = gjk::distance(&Opaque(&cap), &Iso::identity(), &Opaque(&seg), &pb);
    assert!(looped.iterations > 0, "the hidden pair runs the loop: {looped:?}");
}

/// 2D: two capsules crossing (their cores cut each other: intersecting, distance 0), crossing at their ends,
/// apart at an angle beside an end, parallel side by side, and end to end; f64 and f32.
#[test]
fn capsule_pairs_2d_exact() {
    for scale in [1e-6f64, 1.0, 1e6] {
        for offset in [0.0, 3e4] {
            let at = DVec2::new(offset, -0.5 * offset) * scale.min(1.0);
            let (a, b) =
                (Capsule::new(1.0 * scale, 0.25 * scale).unwrap(), Capsule::new(0.5 * scale, 0.1 * scale).unwrap());
            let size = 8.0 * scale + at.abs().max_element() * 4.0;
            // A's core along y through `at`.
            let pa = Iso::new(Rot2::from_angle(0.0), at);
            let check = |pb: &Iso<DVec2>, exact: f64, unique: bool| {
                both_where(&a, &pa, &b, pb, size, Some(exact), unique);
                both_where(&b, pb, &a, &pa, size, Some(exact), unique);
                if exact > 0.0 {
                    both_signed(&a, &pa, &b, pb, size, Some(exact));
                    both_signed(&b, pb, &a, &pa, size, Some(exact));
                }
                let (a32, b32) = (
                    Capsule::new(scale as f32, 0.25 * scale as f32).unwrap(),
                    Capsule::new(0.5 * scale as f32, 0.1 * scale as f32).unwrap(),
                );
                let (pa32, pb32) = (Vec2::pose_from64(&pa), Vec2::pose_from64(pb));
                assert_eq!(intersects(&a32, &pa32, &b32, &pb32), exact <= 0.0, "f32 {pb:?}");
            };
            // Crossing at right angles and at a shallow angle through both middles.
            check(&Iso::new(Rot2::from_angle(FRAC_PI_2), at + DVec2::new(0.0, 0.2) * scale), -0.35 * scale, true);
            check(&Iso::new(Rot2::from_angle(0.1), at), -0.35 * scale, false);
            // B across the line of A's core, 0.3 beyond A's upper end: end to middle.
            check(&Iso::new(Rot2::from_angle(FRAC_PI_2), at + DVec2::new(0.0, 1.3) * scale), -0.05 * scale, true);
            check(&Iso::new(Rot2::from_angle(FRAC_PI_2), at + DVec2::new(0.0, 1.7) * scale), 0.35 * scale, true);
            // Parallel, side by side 0.6 apart, overlapping along y.
            check(&Iso::new(Rot2::from_angle(0.0), at + DVec2::new(0.6, 0.3) * scale), 0.25 * scale, false);
            // End to end on one line, 0.5 apart.
            check(&Iso::new(Rot2::from_angle(0.0), at + DVec2::new(0.0, 2.0) * scale), 0.15 * scale, true);
        }
    }
}

/// Random capsules and segments in 2D and 3D, f32 and f64, near the origin and at 1e4–1e5: the closed form against
/// the loop (distance, intersection, penetration when the cores are apart).
#[test]
fn random_segment_pairs_agree_with_the_loop() {
    let mut rng = rng(0x5E6_0001);
    for n in 0..3000 {
        let far = [0.0, 1e4, -1e5][n % 3];
        let mut len = || log_uniform(&mut rng, 1e-3, 2.0);
        let (ha, hb) = (len(), len());
        let (ra, rb) = if n % 4 == 0 { (0.0, 0.0) } else { (len() * 0.5, len() * 0.5) };
        let off = DVec3::new(far, -far, 0.5 * far);
        let pa = Iso::new(unit_quat(&mut rng), off + crate::common::in_cube3(&mut rng, 2.0));
        let pb = Iso::new(unit_quat(&mut rng), off + crate::common::in_cube3(&mut rng, 2.0));
        let size = 8.0 + far.abs() * 2.0;
        let (a, b) = (Capsule::new(ha, ra).unwrap(), Capsule::new(hb, rb).unwrap());
        let d = both(&a, &pa, &b, &pb, size, None);
        if d.distance > 0.0 {
            both_signed(&a, &pa, &b, &pb, size, None);
        }
        let (a32, b32) = (Capsule::new(ha as f32, ra as f32).unwrap(), Capsule::new(hb as f32, rb as f32).unwrap());
        both(&a32, &Vec3::pose_from64(&pa), &b32, &Vec3::pose_from64(&pb), size, None);
        let at = DVec2::new(far, far);
        let pa2 =
            Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), at + crate::common::in_square2(&mut rng, 2.0));
        let pb2 =
            Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), at + crate::common::in_square2(&mut rng, 2.0));
        let d2 = both(&a, &pa2, &b, &pb2, size, None);
        if d2.distance > 0.0 {
            both_signed(&a, &pa2, &b, &pb2, size, None);
        }
        both(&a32, &Vec2::pose_from64(&pa2), &b32, &Vec2::pose_from64(&pb2), size, None);
    }
}

/// The boolean query's early test across the midpoints' line (`intersects` before the closest points) against the
/// distance query, at gaps from 1e-15 to 1e-2 of the size and touching, side by side and end to end, at offsets
/// to 1e5, f32 and f64: the two always agree, and where the precision resolves the gap they say apart.
#[test]
fn capsules_apart_by_little_agree_between_queries() {
    let mut rng = rng(0x5E6_0002);
    for n in 0..4000 {
        let far = [0.0, 1.0, 1e3, 1e5][n % 4];
        let gap = [0.0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-4, 1e-2][n % 7];
        let (ha, hb, ra, rb) = (
            uniform(&mut rng, 0.1, 2.0),
            uniform(&mut rng, 0.1, 2.0),
            uniform(&mut rng, 0.0, 1.0),
            uniform(&mut rng, 0.0, 1.0),
        );
        let scene = Iso::new(unit_quat(&mut rng), DVec3::new(far, -0.5 * far, 0.25 * far));
        let pa = posed(&scene, DVec3::ZERO, 0.0);
        // Side by side (parallel, zc apart) or end to end on one line.
        let pb = if n % 2 == 0 {
            posed(&scene, DVec3::new(0.3 * ha, 0.0, ra + rb + gap), uniform(&mut rng, 0.0, 0.5))
        } else {
            posed(&scene, DVec3::new(ha + hb + ra + rb + gap, 0.0, 0.0), 0.0)
        };
        let (a, b) = (Capsule::new(ha, ra).unwrap(), Capsule::new(hb, rb).unwrap());
        let d = distance(&a, &pa, &b, &pb);
        assert_eq!(intersects(&a, &pa, &b, &pb), d.intersecting, "f64 {n}: {d:?}");
        let resolved = |eps: f64| gap > 1024.0 * eps * (far + 8.0);
        if resolved(f64::EPSILON) {
            assert!(!d.intersecting, "f64 {n} gap {gap}: {d:?}");
        }
        let (a32, b32) = (Capsule::new(ha as f32, ra as f32).unwrap(), Capsule::new(hb as f32, rb as f32).unwrap());
        let (pa32, pb32) = (Vec3::pose_from64(&pa), Vec3::pose_from64(&pb));
        let d32 = distance(&a32, &pa32, &b32, &pb32);
        assert_eq!(intersects(&a32, &pa32, &b32, &pb32), d32.intersecting, "f32 {n}: {d32:?}");
    }
}

/// gjk-fuzz seed 66 case 3550: one segment 0.47 long at two poses 1e-11 rad apart (about the same point), so that
/// the two copies cross 3.9e-12 apart. The lines' common perpendicular n = u₁ × u₂ is then 1e-11 long, and its
/// rounding tilted it towards the segments by 2.4e-6 rad: along the answer's normal the supporting planes were
/// 1.2e-6 apart on the wrong side (B, A) and 1.2e-8 (A, B), where they must meet at the distance. Now, in both
/// orders, for distance and penetration, the planes along the normal are the answer's distance apart to 8 ulps of
/// the coordinates (about 1).
#[test]
fn nearly_parallel_crossing_segments_have_a_perpendicular_normal_fuzz_66_3550() {
    let seg = Segment::new(
        DVec3::new(0.15862487742307785, 0.01927807787389251, 0.4233974738211482),
        DVec3::new(0.01015116195011804, -0.3244372545873426, 0.1467976982109822),
    )
    .unwrap();
    let t = DVec3::new(-0.9399771140831472, 0.4402890896388634, -0.8742921498984579);
    let pa = Iso::new(
        DQuat::from_xyzw(6.446656475912341e-12, 2.187891919674292e-12, 3.847581765575913e-12, 1.0).normalize(),
        t,
    );
    let pb = Iso::new(
        DQuat::from_xyzw(1.0379764392836162e-12, 4.1393121082225005e-13, 1.8129381866114227e-12, -1.0).normalize(),
        t,
    );
    // The gap of the slab between the two along the unit n (from A toward B): a lower bound of their distance,
    // equal to it along the normal of the closest points.
    let gap = |n: DVec3, pa: &Iso<DVec3>, pb: &Iso<DVec3>| -support_value(&seg, pb, -n) - support_value(&seg, pa, n);
    for (label, p, q) in [("(A, B)", &pa, &pb), ("(B, A)", &pb, &pa)] {
        let d = distance(&seg, p, &seg, q);
        assert!(!d.intersecting && d.distance > 1e-12 && d.distance < 1e-11, "{label}: {d:?}");
        let g = gap(d.normal, p, q);
        assert!(
            (g - d.distance).abs() <= 8.0 * f64::EPSILON,
            "{label} distance: planes {g:e} apart, distance {:e}",
            d.distance
        );
        let pen = penetration(&seg, p, &seg, q);
        let g = gap(pen.normal, p, q);
        assert!(
            (g - pen.distance).abs() <= 8.0 * f64::EPSILON,
            "{label} penetration: planes {g:e} apart, {:e}",
            pen.distance
        );
    }
}
