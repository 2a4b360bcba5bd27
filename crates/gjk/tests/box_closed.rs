//! Two boxes in 3D are answered from their separating axes when the axes prove the answer (`gjk/boxes.rs`):
//! `distance` (closest points apart, a common point overlapping) and `penetration` (closest points apart, the
//! deepest points overlapping). The same boxes behind `common::Opaque` (no box hook) run GJK (and EPA) as before,
//! which makes them the reference here: a query that did not take the shortcut must be bit for bit the general
//! one, and one that did must agree with it within both error bounds and mean the same (status converged, error
//! bound within the tolerance, points on the boxes, `point_b − point_a = distance · normal`, normal from A toward
//! B), observed or not (an observer sees no step). Apart poses are also checked against brute force (the hull of
//! the 64 vertex differences). Scenarios: anywhere nearby,
//! a corner on a face, edge on edge, corner on corner, faces flush (features parallel to the axis), along a random
//! direction, a shared centre; gaps from 1 to ±1e-12 of the size and 0; boxes from cubes to slabs 1e-3 thin; at
//! the origin and at ±1e5; f32 and f64.

use crate::common::{self, brute_distance3, differences, log_uniform, rng, uniform, unit3, unit_quat, Opaque, Space3};
use gjk::math::{DQuat, DVec3, Iso, Real, Vector};
use gjk::shape::Cuboid;
use gjk::trace::Step;
use gjk::{distance, distance_with, distance_with_witnesses, penetration, penetration_with, Distance, Status};
use rand::rngs::SmallRng;
use rand::Rng;

/// Gaps as fractions of the size: apart, touching to within rounding, overlapping.
const GAPS: [f64; 13] = [1.0, 0.3, 1e-3, 1e-6, 1e-9, 1e-12, 0.0, -1e-12, -1e-9, -1e-6, -1e-3, -0.05, -0.3];

/// The support (half-width) of the box `h` rotated by `q` along the unit `u`.
fn width(h: DVec3, q: DQuat, u: DVec3) -> f64 {
    h.dot((q.inverse() * u).abs())
}

/// The box's corner farthest along `u`, relative to its centre (world orientation).
fn corner(h: DVec3, q: DQuat, u: DVec3) -> DVec3 {
    let l = q.inverse() * u;
    q * DVec3::new(h.x.copysign(l.x), h.y.copysign(l.y), h.z.copysign(l.z))
}

/// Half-extents from cubes to slabs 1e-3 thin.
fn half_extents(rng: &mut SmallRng, size: f64) -> DVec3 {
    DVec3::new(log_uniform(rng, 1e-3, 1.0), log_uniform(rng, 0.05, 1.0), log_uniform(rng, 0.05, 1.0)) * size
}

/// B's half-extents, rotation and centre in A's frame (A of half-extents `ha` at the identity) for scenario `kind`.
fn scenario(rng: &mut SmallRng, kind: u32, ha: DVec3, size: f64, g: f64) -> (DVec3, DQuat, DVec3) {
    let hb = half_extents(rng, size);
    let q = unit_quat(rng);
    let sign = |rng: &mut SmallRng| if rng.gen::<bool>() { 1.0 } else { -1.0 };
    match kind {
        0 => (hb, q, common::in_cube3(rng, 2.0 * size)),
        1 => {
            // B's deepest corner along −e on a random point of A's face e, moved by the gap along e.
            let i = rng.gen_range(0..3);
            let e = DVec3::AXES[i] * sign(rng);
            let on_face = common::in_cube3(rng, 1.0) * ha * (DVec3::ONE - e.abs()) + e * ha[i];
            (hb, q, on_face + e * g - corner(hb, q, -e))
        }
        2 => {
            // Edge on edge: the projections along eᵢ × cⱼ apart by the gap.
            let (i, j) = (rng.gen_range(0..3), rng.gen_range(0..3));
            let n = DVec3::AXES[i].cross(q * DVec3::AXES[j]).normalize() * sign(rng);
            let lateral = common::in_cube3(rng, 0.3 * size);
            let lateral = lateral - n * n.dot(lateral);
            (hb, q, n * (ha.dot(n.abs()) + width(hb, q, n) + g) + lateral)
        }
        3 => {
            // Corner on corner, apart by the gap along a random direction.
            let u = unit3(rng);
            let pa = DVec3::new(ha.x.copysign(u.x), ha.y.copysign(u.y), ha.z.copysign(u.z));
            (hb, q, pa + u * g - corner(hb, q, -u))
        }
        4 => {
            // Faces flush and parallel (B turned about A's face normal only, or not at all), slid sideways.
            let i = rng.gen_range(0..3);
            let e = DVec3::AXES[i];
            let turn =
                if rng.gen::<bool>() { DQuat::IDENTITY } else { DQuat::from_axis_angle(e, uniform(rng, -3.2, 3.2)) };
            let lateral = common::in_cube3(rng, size) * (DVec3::ONE - e);
            (hb, turn, e * sign(rng) * (ha[i] + width(hb, turn, e) + g) + lateral)
        }
        5 => {
            let u = unit3(rng);
            (hb, q, u * (ha.dot(u.abs()) + width(hb, q, u) + g))
        }
        _ => (hb, q, common::in_cube3(rng, 1e-3 * size)),
    }
}

/// How the shortcut went over a run: answered without iterations apart / overlapping, and left to GJK.
#[derive(Default, Debug)]
struct Counts {
    apart: usize,
    overlap: usize,
    general: usize,
}

/// The local coordinates of a world point `p` in the box of half-extents `h` at `pose` exceed them by at most
/// `tol`.
fn on_box<V: Space3>(p: V, h: DVec3, pose: &Iso<V>, tol: f64) -> bool {
    let l = V::pose_to64(pose).inverse_transform_point(p.to64());
    (l.abs() - h).max_element() <= tol
}

/// Checks one pose; returns which path `distance` and `penetration` took.
fn check<V: Space3>(ha: DVec3, pa: &Iso<V>, hb: DVec3, pb: &Iso<V>, counts: &mut Counts) {
    let (a, b) = (Cuboid::new(V::from64(ha)).unwrap(), Cuboid::new(V::from64(hb)).unwrap());
    let (ha, hb) = (a.half_extents.to64(), b.half_extents.to64());
    let eps = V::Real::EPSILON.to_f64();
    // The rounding of the pair frame's numbers (both paths work there), and of placing points in the world.
    let rel = pa.relative(pb);
    let scale = ha.max_element() + hb.max_element() + rel.translation.to64().abs().max_element();
    let tol = 64.0 * eps * scale;
    let world = tol + 8.0 * eps * pa.translation.to64().abs().max_element();
    let ctx = format!("{} ha {ha:?} hb {hb:?} pa {pa:?} pb {pb:?}", V::NAME);
    let (oa, ob) = (Opaque(&a), Opaque(&b));

    let fast = distance(&a, pa, &b, pb);
    let slow = distance(&oa, pa, &ob, pb);
    let (fw, wit) = distance_with_witnesses(&a, pa, &b, pb, &Default::default());
    assert_eq!(fw, fast, "witness query answers as the plain one: {ctx}");
    let mut steps = 0;
    let watched = distance_with(&a, pa, &b, pb, &Default::default(), None, &mut |_: &Step<V>| steps += 1);
    assert_eq!(watched, fast, "observed as unobserved: {ctx}");
    assert!(fast.iterations > 0 || steps == 0, "no step runs: {ctx}");
    if fast.iterations > 0 {
        assert_eq!(fast, slow, "left to GJK, the same run: {ctx}");
        counts.general += 1;
    } else {
        check_distance(&fast, &slow, (ha, pa), (hb, pb), (tol, world), &ctx);
        assert_eq!(wit.len, 1);
        assert_eq!((wit.points_a[0], wit.points_b[0]), (fast.point_a, fast.point_b), "{ctx}");
        if fast.intersecting {
            counts.overlap += 1;
        } else {
            counts.apart += 1;
        }
    }
    // Brute force on the vertices as the query was given them (f64 from the cast poses), near the origin.
    if !fast.intersecting && pa.translation.to64().abs().max_element() < 1e3 {
        let verts = |h: DVec3, pose: &Iso<V>| {
            let p = V::pose_to64(pose);
            (0..8).map(|k| p.transform_point(DVec3::new(h.x, h.y, h.z) * corner_signs(k))).collect::<Vec<_>>()
        };
        let want = brute_distance3(&differences(&verts(ha, pa), &verts(hb, pb)));
        let got = fast.distance.to_f64();
        // The brute force accepts a supporting plane to 1e-12·scale² (common::brute_closest3), so its distance is
        // good to about 1e-12·scale: that, and the rounding of the numbers the query was given.
        let slack = fast.error_bound.to_f64() + 1e3 * eps * scale + 2e-12 * scale;
        assert!((got - want).abs() <= slack, "brute force {want} vs {got}: {ctx}");
    }

    let fp = penetration(&a, pa, &b, pb);
    let sp = penetration(&oa, pa, &ob, pb);
    let mut steps = 0;
    let watched = penetration_with(&a, pa, &b, pb, &Default::default(), &mut |_: &Step<V>| steps += 1);
    assert_eq!(watched, fp, "observed as unobserved: {ctx}");
    if fp.iterations > 0 {
        assert_eq!(fp, sp, "left to GJK and EPA, the same run: {ctx}");
        return;
    }
    assert_eq!(steps, 0, "no step runs: {ctx}");
    assert_eq!(fp.status, Status::Converged, "{ctx}");
    let (d, dslow) = (fp.distance.to_f64(), sp.distance.to_f64());
    let bounds = fp.error_bound.to_f64() + sp.error_bound.to_f64();
    // EPA stops converged when its bounds meet to within its stall rounding, 1024 ε of the scale (its error bound
    // then says 0): the overlap depths agree to that (apart, both are GJK-converged and within `tol`). Within that
    // band of touching, GJK's run may also prove no gap at all and leave the pair to EPA, which calls it touching
    // (f32 at a pair-frame scale of 100: a gap of 2.6e-3, 200 ε of the scale, which the axes prove and the plain
    // `distance` query finds too).
    let epa = if fp.intersecting || sp.intersecting { 1024.0 * eps * scale } else { 0.0 };
    let near_touching = d.abs() <= epa && dslow.abs() <= epa;
    assert!(fp.intersecting == sp.intersecting || near_touching, "{d} vs {dslow}: {ctx}");
    assert!((d - dslow).abs() <= bounds + tol + epa, "penetration {d} vs {dslow} (bounds {bounds}): {ctx}");
    assert!((fp.normal.to64().length() - 1.0).abs() <= 4.0 * eps, "{ctx}");
    let joined = fp.point_b.to64() - fp.point_a.to64() - fp.normal.to64() * d;
    assert!(joined.length() <= 2.0 * world, "point_b − point_a = distance · normal: {joined:?} {ctx}");
    assert!(on_box(fp.point_a, ha, pa, world) && on_box(fp.point_b, hb, pb, world), "points on the boxes: {ctx}");
    if fp.intersecting {
        assert_eq!(fp.depth.to_f64(), -d, "{ctx}");
        // The normal is an axis of least overlap: the boxes overlap along it by the depth (the least: see above).
        let n = fp.normal.to64();
        let (pa64, pb64) = (V::pose_to64(pa), V::pose_to64(pb));
        let reach_a = n.dot(pa64.translation) + width(ha, pa64.rotation, n);
        let low_b = n.dot(pb64.translation) - width(hb, pb64.rotation, n);
        assert!((low_b - reach_a - d).abs() <= 2.0 * world, "overlap along the normal {}: {ctx}", low_b - reach_a);
    } else {
        assert!(fp.normal.to64().dot(sp.normal.to64()) >= 1.0 - 1e-3, "normal from A toward B: {ctx}");
        assert!(fp.error_bound.to_f64() <= 64.0 * eps * d + 16.0 * eps * scale, "{ctx}");
    }
}

/// The corner of signs given by the bits of `k` (bit i set: + along axis i).
fn corner_signs(k: usize) -> DVec3 {
    DVec3::from_fn(|i| if (k >> i) & 1 == 1 { 1.0 } else { -1.0 })
}

/// A distance answered by the shortcut against the general run's (`slow`).
fn check_distance<V: Space3>(
    fast: &Distance<V>,
    slow: &Distance<V>,
    (ha, pa): (DVec3, &Iso<V>),
    (hb, pb): (DVec3, &Iso<V>),
    (tol, world): (f64, f64),
    ctx: &str,
) {
    let eps = V::Real::EPSILON.to_f64();
    assert_eq!(fast.status, Status::Converged, "{ctx}");
    // The axes prove gaps the general run cannot: where its bounds met only to its rounding with no gap proven, it
    // says intersecting, its error bound covering the gap (f32 boxes 2.6e-3 apart at a pair-frame scale of 60).
    let undecided = slow.intersecting && fast.distance.to_f64() <= slow.error_bound.to_f64();
    assert!(fast.intersecting == slow.intersecting || undecided, "{ctx}: {fast:?} vs {slow:?}");
    assert_eq!((fast.simplex.len, fast.simplex.weights[0].to_f64()), (1, 1.0), "{ctx}");
    assert!(on_box(fast.point_a, ha, pa, world) && on_box(fast.point_b, hb, pb, world), "points on the boxes: {ctx}");
    if fast.intersecting {
        assert_eq!(fast.point_a, fast.point_b, "a common point: {ctx}");
        assert_eq!((fast.distance.to_f64(), fast.normal.to64()), (0.0, DVec3::ZERO), "{ctx}");
        return;
    }
    // Both bound the same distance: [distance − error bound, distance] overlap (an intersecting run's: [0, its
    // error bound]).
    let (d, e) = (fast.distance.to_f64(), fast.error_bound.to_f64());
    let (ds, es) = (slow.distance.to_f64(), slow.error_bound.to_f64());
    let (low, high) = if slow.intersecting { (0.0, es) } else { (ds - es, ds) };
    assert!(d - e <= high + tol && low <= d + tol, "distance {d} ± {e} vs GJK {ds} ± {es}: {ctx}");
    // Converged: the error bound within the tolerance (64 ε relative) and the rounding noise.
    assert!(e <= 64.0 * eps * d + 16.0 * eps * (d + tol / (64.0 * eps)), "error bound {e}: {ctx}");
    let n = fast.normal.to64();
    assert!((n.length() - 1.0).abs() <= 4.0 * eps, "{ctx}");
    let joined = fast.point_b.to64() - fast.point_a.to64() - n * d;
    assert!(joined.length() <= 2.0 * world, "point_b − point_a = distance · normal: {joined:?} {ctx}");
    assert!(n.dot(slow.normal.to64()) >= 1.0 - 1e-3, "normal from A toward B: {ctx}");
    let w = fast.simplex.points[0].to64();
    assert!((w - (fast.point_a.to64() - fast.point_b.to64())).length() <= 2.0 * world, "{ctx}");
}

/// Runs `n` poses of every scenario in precision `V`, A at a random pose `offset` from the origin.
fn run<V: Space3>(seed: u64, n: usize, offset: f64) -> Counts {
    let mut rng = rng(seed);
    let mut counts = Counts::default();
    for kind in 0..7 {
        for _ in 0..n {
            let size = 10f64.powf(uniform(&mut rng, -2.0, 2.0));
            let ha = half_extents(&mut rng, size);
            let g = GAPS[rng.gen_range(0..GAPS.len())] * size;
            let (hb, qb, cb) = scenario(&mut rng, kind, ha, size, g);
            let qa = unit_quat(&mut rng);
            let ta = common::in_cube3(&mut rng, size) + DVec3::splat(offset);
            let (pa, pb) = (Iso::new(qa, ta), Iso::new(qa * qb, ta + qa * cb));
            check(ha, &V::pose_from64(&pa), hb, &V::pose_from64(&pb), &mut counts);
        }
    }
    counts
}

/// Every path is taken: most poses are proven by the axes, apart and overlapping, and the ones touching to within
/// rounding (or with features the axes cannot pin down) are left to GJK.
fn assert_mixed(c: &Counts, n: usize) {
    assert!(c.apart > n && c.overlap > n / 2 && c.general > n / 10, "{c:?}");
}

#[test]
fn boxes_3d_f64_closed_answers_are_the_runs() {
    assert_mixed(&run::<DVec3>(0xb0c1_0001, 800, 0.0), 800);
}

#[test]
fn boxes_3d_f32_closed_answers_are_the_runs() {
    assert_mixed(&run::<gjk::math::Vec3>(0xb0c1_0002, 800, 0.0), 800);
}

#[test]
fn boxes_3d_far_from_origin_closed_answers_are_the_runs() {
    for (seed, offset) in [(3, 1e5), (4, -1e5)] {
        assert_mixed(&run::<DVec3>(0xb0c1_0000 + seed, 300, offset), 300);
        assert_mixed(&run::<gjk::math::Vec3>(0xb0c1_0010 + seed, 300, offset), 300);
    }
}
