//! `intersects` on two boxes is decided by separating axes, not GJK: its answer must still be exactly
//! `distance(..).intersecting`, in 2D and 3D, f32 and f64, for boxes far apart, overlapping, sharing a centre,
//! and touching faces, edges and vertices to within tiny gaps (±1e-9 of their size, inside f32's touching
//! threshold and outside f64's), near the origin and at 1e5.

use crate::common;

use crate::common::{log_uniform, rng, uniform, unit2, unit3, unit_quat, Space2, Space3};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::{Cuboid, SupportMap};
use gjk::{distance, intersects};
use rand::rngs::SmallRng;
use rand::Rng;
use std::sync::Arc;

/// Gaps of the touching scenarios, as fractions of the boxes' size.
const GAPS: [f64; 7] = [0.0, 1e-9, -1e-9, 1e-12, -1e-12, 1e-6, -1e-6];

/// Asserts `intersects` = `distance(..).intersecting` for the boxes, directly and through `&`, `Box` and
/// `Arc<dyn>` (which must forward the box hook); returns the answer.
fn agree<V: Vector>(ha: V, pa: &Iso<V>, hb: V, pb: &Iso<V>) -> bool {
    let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
    let want = distance(&a, pa, &b, pb).intersecting;
    assert_eq!(intersects(&a, pa, &b, pb), want, "ha {ha:?} pa {pa:?} hb {hb:?} pb {pb:?}");
    let (ra, rb): (&Cuboid<V>, Box<Cuboid<V>>) = (&a, Box::new(b));
    assert_eq!(intersects(&ra, pa, &rb, pb), want);
    let (da, db): (Arc<dyn SupportMap<V>>, Arc<dyn SupportMap<V>>) = (Arc::new(a), Arc::new(b));
    assert_eq!(intersects(&*da, pa, &*db, pb), want);
    assert_eq!(intersects(&da, pa, &db, pb), want);
    want
}

/// The support (half-width) of the box `h` rotated by `q` along the unit `u`: Σₖ hₖ |u·cₖ|.
fn width3(h: DVec3, q: DQuat, u: DVec3) -> f64 {
    let l = q.inverse() * u;
    h.dot(l.abs())
}

/// The box's corner farthest along the world direction `u`, relative to its centre (world orientation).
fn corner3(h: DVec3, q: DQuat, u: DVec3) -> DVec3 {
    let l = q.inverse() * u;
    q * DVec3::new(h.x.copysign(l.x), h.y.copysign(l.y), h.z.copysign(l.z))
}

fn half_extents3(rng: &mut SmallRng, size: f64) -> DVec3 {
    DVec3::new(log_uniform(rng, 0.05, 1.0), log_uniform(rng, 0.05, 1.0), log_uniform(rng, 0.05, 1.0)) * size
}

/// A random 3D scenario in A's frame (A's centre at the origin before `offset`): B's half-extents, rotation and
/// centre. `kind` picks: 0 anywhere nearby, 1 same centre, 2 face on face (parallel, flush + gap), 3 vertex of B
/// on a face of A (+ gap), 4 vertex on vertex (+ gap along a diagonal), 5 edge on edge (projections along
/// eᵢ × cⱼ touching + gap), 6 separated along a random direction by exactly the gap's projection.
fn scenario3(rng: &mut SmallRng, kind: u32, ha: DVec3, size: f64, gap: f64) -> (DVec3, DQuat, DVec3) {
    let hb = half_extents3(rng, size);
    let g = gap * size;
    match kind {
        0 => (hb, unit_quat(rng), common::in_cube3(rng, 2.0 * size)),
        1 => (hb, unit_quat(rng), DVec3::ZERO),
        2 => {
            // B turned about A's face normal eᵢ only (or not at all), its face flush with A's face i.
            let i = rng.gen_range(0..3);
            let s = if rng.gen::<bool>() { 1.0 } else { -1.0 };
            let e = DVec3::AXES[i];
            let q =
                if rng.gen::<bool>() { DQuat::IDENTITY } else { DQuat::from_axis_angle(e, uniform(rng, -3.2, 3.2)) };
            let lateral = common::in_cube3(rng, 0.5 * size) * (DVec3::ONE - e);
            (hb, q, e * s * (ha[i] + width3(hb, q, e) + g) + lateral)
        }
        3 => {
            // B's deepest corner along −eᵢ on a random point of A's face i.
            let i = rng.gen_range(0..3);
            let e = DVec3::AXES[i] * if rng.gen::<bool>() { 1.0 } else { -1.0 };
            let q = unit_quat(rng);
            let on_face = common::in_cube3(rng, 1.0) * ha * (DVec3::ONE - e.abs()) + e * ha[i];
            (hb, q, on_face + e * g - corner3(hb, q, -e))
        }
        4 => {
            // A's corner along u and B's corner along −u made one point, then B moved by g along u.
            let u = unit3(rng);
            let q = unit_quat(rng);
            let pa = DVec3::new(ha.x.copysign(u.x), ha.y.copysign(u.y), ha.z.copysign(u.z));
            (hb, q, pa + u * g - corner3(hb, q, -u))
        }
        5 => {
            let q = unit_quat(rng);
            let (i, j) = (rng.gen_range(0..3), rng.gen_range(0..3));
            let n = DVec3::AXES[i].cross(q * DVec3::AXES[j]).normalize();
            let n = if rng.gen::<bool>() { n } else { -n };
            (hb, q, n * (ha.dot(n.abs()) + width3(hb, q, n) + g))
        }
        _ => {
            let u = unit3(rng);
            let q = unit_quat(rng);
            (hb, q, u * (ha.dot(u.abs()) + width3(hb, q, u) + g))
        }
    }
}

/// Runs `n` scenarios of every kind in precision `V`, A at a random pose (at `offset` from the origin); returns
/// how many were not intersecting and how many were.
fn run3<V: Space3>(seed: u64, n: usize, offset: f64) -> [usize; 2] {
    let mut rng = rng(seed);
    let mut counts = [0, 0];
    for kind in 0..7 {
        for _ in 0..n {
            let size = 10f64.powf(uniform(&mut rng, -2.0, 2.0));
            let ha = half_extents3(&mut rng, size);
            let gap = GAPS[rng.gen_range(0..GAPS.len())];
            let (hb, qb, cb) = scenario3(&mut rng, kind, ha, size, gap);
            let qa = unit_quat(&mut rng);
            let ta = common::in_cube3(&mut rng, size) + DVec3::splat(offset);
            let pa = Iso::new(qa, ta);
            let pb = Iso::new(qa * qb, ta + qa * cb);
            let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
            counts[usize::from(agree(V::from64(ha), &pa, V::from64(hb), &pb))] += 1;
        }
    }
    counts
}

#[test]
fn boxes_3d_f64_intersects_is_distance_intersecting() {
    let [no, yes] = run3::<DVec3>(0xb0c5_0001, 3000, 0.0);
    assert!(yes > 2000 && no > 2000, "{yes} intersecting, {no} not");
}

#[test]
fn boxes_3d_f32_intersects_is_distance_intersecting() {
    let [no, yes] = run3::<Vec3>(0xb0c5_0002, 3000, 0.0);
    assert!(yes > 2000 && no > 2000, "{yes} intersecting, {no} not");
}

#[test]
fn boxes_3d_far_from_origin_intersects_is_distance_intersecting() {
    for (seed, offset) in [(3, 1e5), (4, -1e5)] {
        run3::<DVec3>(0xb0c5_0000 + seed, 1000, offset);
        run3::<Vec3>(0xb0c5_0010 + seed, 1000, offset);
    }
}

/// The 2D scenarios: 0 anywhere nearby, 1 same centre, 2 edge on edge (parallel), 3 corner of B on an edge of
/// A, 4 corner on corner, 5 separated along a random direction by exactly the gap's projection.
fn run2<V: Space2>(seed: u64, n: usize, offset: f64) -> [usize; 2] {
    let mut rng = rng(seed);
    let mut counts = [0, 0];
    let width = |h: DVec2, r: Rot2<f64>, u: DVec2| h.dot(r.inverse_rotate(u).abs());
    let corner = |h: DVec2, r: Rot2<f64>, u: DVec2| {
        let l = r.inverse_rotate(u);
        r.rotate(DVec2::new(h.x.copysign(l.x), h.y.copysign(l.y)))
    };
    for kind in 0..6 {
        for _ in 0..n {
            let size = 10f64.powf(uniform(&mut rng, -2.0, 2.0));
            let mut he = || DVec2::new(log_uniform(&mut rng, 0.05, 1.0), log_uniform(&mut rng, 0.05, 1.0)) * size;
            let (ha, hb) = (he(), he());
            let g = GAPS[rng.gen_range(0..GAPS.len())] * size;
            let turn = Rot2::from_angle(common::angle(&mut rng));
            let (rb, cb) = match kind {
                0 => (turn, common::in_square2(&mut rng, 2.0 * size)),
                1 => (turn, DVec2::ZERO),
                2 => {
                    let i = rng.gen_range(0..2);
                    let e = [DVec2::X, DVec2::Y][i] * if rng.gen::<bool>() { 1.0 } else { -1.0 };
                    let r =
                        Rot2::from_angle([0.0, std::f64::consts::FRAC_PI_2, std::f64::consts::PI][rng.gen_range(0..3)]);
                    let lateral = e.perp() * uniform(&mut rng, -size, size);
                    (r, e * (ha[i] + width(hb, r, e) + g) + lateral)
                }
                3 => {
                    let i = rng.gen_range(0..2);
                    let e = [DVec2::X, DVec2::Y][i] * if rng.gen::<bool>() { 1.0 } else { -1.0 };
                    let on_edge = e * ha[i] + e.perp().abs() * ha * uniform(&mut rng, -1.0, 1.0);
                    (turn, on_edge + e * g - corner(hb, turn, -e))
                }
                4 => {
                    let u = unit2(&mut rng);
                    let pa = DVec2::new(ha.x.copysign(u.x), ha.y.copysign(u.y));
                    (turn, pa + u * g - corner(hb, turn, -u))
                }
                _ => {
                    let u = unit2(&mut rng);
                    (turn, u * (ha.dot(u.abs()) + width(hb, turn, u) + g))
                }
            };
            let ra = Rot2::from_angle(common::angle(&mut rng));
            let ta = common::in_square2(&mut rng, size) + DVec2::splat(offset);
            let pa = Iso::new(ra, ta);
            let pb = Iso::new(ra.compose(&rb), ta + ra.rotate(cb));
            let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
            counts[usize::from(agree(V::from64(ha), &pa, V::from64(hb), &pb))] += 1;
        }
    }
    counts
}

#[test]
fn boxes_2d_intersects_is_distance_intersecting() {
    for (seed, offset) in [(0, 0.0), (1, 1e5), (2, -1e5)] {
        let [no, yes] = run2::<DVec2>(0xb0c5_0020 + seed, 2000, offset);
        assert!(yes > 1000 && no > 1000, "f64 {offset}: {yes} intersecting, {no} not");
        let [no, yes] = run2::<Vec2>(0xb0c5_0030 + seed, 2000, offset);
        assert!(yes > 1000 && no > 1000, "f32 {offset}: {yes} intersecting, {no} not");
    }
}

/// Exactly touching boxes (faces, edges, corners; axis-aligned and a cube turned 45° resting on an edge or a
/// corner) intersect, and just apart they don't, in both queries and both precisions.
#[test]
fn boxes_exactly_touching() {
    fn check3<V: Space3>() {
        let h = V::from64(DVec3::splat(0.5));
        let at = |x: f64, y: f64, z: f64| Iso::from_translation(V::from64(DVec3::new(x, y, z)));
        let o = at(0.0, 0.0, 0.0);
        for (x, y, z) in [(1.0, 0.0, 0.0), (1.0, 1.0, 0.0), (1.0, 1.0, 1.0), (0.0, -1.0, 0.3), (-1.0, 0.2, -1.0)] {
            assert!(agree(h, &o, h, &at(x, y, z)), "{} touching at ({x}, {y}, {z})", V::NAME);
            assert!(!agree(h, &o, h, &at(x * 1.01, y * 1.01, z * 1.01)), "{} apart", V::NAME);
        }
        // A cube turned 45° about z rests on its vertical edge against A's face x = 0.5: its centre at
        // 0.5 + 0.5·√2 (rounded: touching or overlapping by an ulp, and within the touching threshold if apart).
        let turned = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4);
        let pb = Iso::new(turned, DVec3::new(0.5 + 0.5 * 2f64.sqrt(), 0.2, 0.1));
        assert!(agree(h, &o, h, &V::pose_from64(&pb)), "{} edge on face", V::NAME);
        // Turned to stand on a corner along x: the corner (√3/2 from the centre) touches the face.
        let corner_x = DQuat::from_rotation_arc(DVec3::ONE.normalize(), DVec3::NEG_X);
        let pb = Iso::new(corner_x, DVec3::new(0.5 + 0.75f64.sqrt(), 0.1, -0.2));
        assert!(agree(h, &o, h, &V::pose_from64(&pb)), "{} corner on face", V::NAME);
    }
    fn check2<V: Space2>() {
        let h = V::from64(DVec2::new(0.5, 0.25));
        let at = |x: f64, y: f64| Iso::from_translation(V::from64(DVec2::new(x, y)));
        let o = at(0.0, 0.0);
        for (x, y) in [(1.0, 0.0), (1.0, 0.5), (-1.0, -0.5), (0.3, 0.5)] {
            assert!(agree(h, &o, h, &at(x, y)), "{} touching at ({x}, {y})", V::NAME);
            assert!(!agree(h, &o, h, &at(x * 1.01 + 0.001, y * 1.01)), "{} apart", V::NAME);
        }
    }
    check3::<DVec3>();
    check3::<Vec3>();
    check2::<DVec2>();
    check2::<Vec2>();
}

/// A gap of 1e-9 of the size is beyond f64's touching threshold (64 ulps of the size) but inside f32's: the
/// answer flips with the precision, the same in both queries.
#[test]
fn boxes_tiny_gap_depends_on_precision() {
    for g in [1e-9, -1e-9] {
        let p = Iso::from_translation(DVec3::new(2.0 + g * 2.0, 0.3, -0.2));
        let h = DVec3::ONE;
        assert_eq!(agree(h, &Iso::identity(), h, &p), g < 0.0);
        let p32 = Iso::from_translation(Vec3::new(2.0 + g as f32 * 2.0, 0.3, -0.2));
        assert!(agree(Vec3::ONE, &Iso::identity(), Vec3::ONE, &p32));
    }
}
