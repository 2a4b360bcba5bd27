//! `intersects` on two point cores (balls, points, rounded points) is decided from the distance of their centres
//! in world coordinates, not by GJK in the pair frame: its answer must still be exactly
//! `distance(..).intersecting`, in 2D and 3D, f32 and f64, for balls far apart, overlapping, sharing a centre and
//! touching to within tiny gaps (±1e-12 to ±1e-3 of their size, inside and outside each precision's touching
//! threshold), near the origin and at 1e5, where the world coordinates dwarf the gap.

use crate::common;

use crate::common::{log_uniform, rng, uniform, unit2, unit3, unit_quat, Space2, Space3};
use gjk::math::{DVec2, DVec3, Iso, Rot2, Vec2, Vec3, Vector};
use gjk::shape::{Ball, Point, Rounded, SupportMap};
use gjk::{distance, intersects};
use rand::rngs::SmallRng;
use rand::Rng;
use std::sync::Arc;

/// Gaps between the surfaces, as fractions of the radii's sum.
const GAPS: [f64; 12] = [0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 1e-6, -1e-6, 1e-3, -0.5, 0.5];

/// Asserts `intersects` = `distance(..).intersecting`, directly and through `&`, `Box` and `Arc<dyn>` (which must
/// forward the point-core hook); returns the answer.
fn agree<V: Vector, A: SupportMap<V> + 'static, B: SupportMap<V> + 'static>(
    a: A,
    pa: &Iso<V>,
    b: B,
    pb: &Iso<V>,
) -> bool {
    let want = distance(&a, pa, &b, pb).intersecting;
    assert_eq!(intersects(&a, pa, &b, pb), want, "pa {pa:?} pb {pb:?}");
    let (ra, rb): (&A, Box<B>) = (&a, Box::new(b));
    assert_eq!(intersects(&ra, pa, &rb, pb), want);
    let (da, db): (Arc<dyn SupportMap<V>>, Arc<dyn SupportMap<V>>) = (Arc::new(a), Arc::new(*rb));
    assert_eq!(intersects(&*da, pa, &*db, pb), want);
    want
}

/// A pair of radii (one may be zero: a point against a ball) and the distance of the centres for `gap`.
fn radii_and_centres(rng: &mut SmallRng) -> (f64, f64, f64) {
    let size = 10f64.powf(uniform(rng, -3.0, 2.0));
    let ra = if rng.gen_range(0..8) == 0 { 0.0 } else { log_uniform(rng, 0.01, 1.0) * size };
    let rb = log_uniform(rng, 0.01, 1.0) * size;
    let gap = GAPS[rng.gen_range(0..GAPS.len())];
    // One case in 16: the same centre.
    let d = if rng.gen_range(0..16) == 0 { 0.0 } else { ((ra + rb) * (1.0 + gap)).max(0.0) };
    (ra, rb, d)
}

/// Balls (or a point, or a rounded point) in 3D at `offset`; returns [not intersecting, intersecting] counts.
fn run3<V: Space3>(seed: u64, n: usize, offset: f64) -> [usize; 2] {
    let mut rng = rng(seed);
    let mut counts = [0, 0];
    for _ in 0..n {
        let (ra, rb, d) = radii_and_centres(&mut rng);
        let ta = common::in_cube3(&mut rng, ra + rb) + DVec3::splat(offset);
        let pa = Iso::new(unit_quat(&mut rng), ta);
        let pb = Iso::new(unit_quat(&mut rng), ta + unit3(&mut rng) * d);
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let r = |x: f64| V::from64(DVec3::splat(x)).get(0);
        let b = Ball::new(r(rb)).unwrap();
        let answer = match rng.gen_range(0..3) {
            0 => agree(Ball::new(r(ra)).unwrap(), &pa, b, &pb),
            // A point off its shape's origin: the core is rotated into the world.
            1 => {
                let off = V::from64(unit3(&mut rng) * ra);
                let point = Point::new(off).unwrap();
                agree(Rounded::new(point, r(0.0)).unwrap(), &pa, b, &pb)
            }
            _ => agree(Rounded::new(Point::new(V::from64(DVec3::ZERO)).unwrap(), r(ra)).unwrap(), &pa, b, &pb),
        };
        counts[usize::from(answer)] += 1;
    }
    counts
}

/// The 2D counterpart of [`run3`].
fn run2<V: Space2>(seed: u64, n: usize, offset: f64) -> [usize; 2] {
    let mut rng = rng(seed);
    let mut counts = [0, 0];
    for _ in 0..n {
        let (ra, rb, d) = radii_and_centres(&mut rng);
        let ta = common::in_square2(&mut rng, ra + rb) + DVec2::splat(offset);
        let pa = Iso::new(Rot2::from_angle(common::angle(&mut rng)), ta);
        let pb = Iso::new(Rot2::from_angle(common::angle(&mut rng)), ta + unit2(&mut rng) * d);
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let r = |x: f64| V::from64(DVec2::splat(x)).get(0);
        let answer = agree(Ball::new(r(ra)).unwrap(), &pa, Ball::new(r(rb)).unwrap(), &pb);
        counts[usize::from(answer)] += 1;
    }
    counts
}

/// Asserts that a run saw both answers, hundreds of each (so the touching band was crossed both ways).
fn both_answers([no, yes]: [usize; 2], what: &str) {
    assert!(yes > 500 && no > 500, "{what}: {yes} intersecting, {no} not");
}

#[test]
fn balls_3d_intersects_is_distance_intersecting() {
    for (seed, offset) in [(0xba11_0001, 0.0), (0xba11_0002, 1e5)] {
        both_answers(run3::<DVec3>(seed, 6000, offset), &format!("f64 at {offset}"));
        both_answers(run3::<Vec3>(seed + 16, 6000, offset), &format!("f32 at {offset}"));
    }
}

#[test]
fn balls_2d_intersects_is_distance_intersecting() {
    for (seed, offset) in [(0xba11_0101, 0.0), (0xba11_0102, 1e5)] {
        both_answers(run2::<DVec2>(seed, 6000, offset), &format!("f64 at {offset}"));
        both_answers(run2::<Vec2>(seed + 16, 6000, offset), &format!("f32 at {offset}"));
    }
}

/// Touching exactly along an axis, at the origin and far from it: the answer is the distance query's.
#[test]
fn touching_balls_along_an_axis() {
    for offset in [0.0, 1.0, 1e5, -3e7] {
        let a = Iso::from_translation(DVec3::new(offset, 0.0, 0.0));
        let b = Iso::from_translation(DVec3::new(offset + 1.5, 0.0, 0.0));
        assert!(agree(Ball::new(0.5).unwrap(), &a, Ball::new(1.0).unwrap(), &b), "touching at {offset}");
        let b = Iso::from_translation(DVec3::new(offset + 1.5 + 1e-6, 0.0, 0.0));
        assert!(!agree(Ball::new(0.5).unwrap(), &a, Ball::new(1.0).unwrap(), &b), "1e-6 apart at {offset}");
    }
}
