//! The broadphase against brute force: every pair of boxes tested with `Aabb::intersects`. Random scenes in 2D and
//! 3D, f32 and f64, with clusters (many overlaps) and spread-out fields (few); the same `SweepAndPrune` reused over
//! frames of coherent motion (its insertion sort path), and after the boxes are shuffled or their number changes
//! (its full sort path); and degenerate sets: none, one, identical boxes, zero-size boxes, boxes touching at a face,
//! an edge or a corner, boxes all on one line.

use gjk::broadphase::{overlapping_pairs, SweepAndPrune};
use gjk::math::{DVec2, DVec3, Real, Vec3, Vector};
use gjk::shape::Aabb;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn brute<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if boxes[i].intersects(&boxes[j]) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// `n` boxes of sizes up to `size` with centres in a cube (square) of half-width `field`.
fn random_boxes<V: Vector>(r: &mut SmallRng, n: usize, field: f64, size: f64) -> Vec<Aabb<V>> {
    (0..n)
        .map(|_| {
            let c = V::from_fn(|_| V::Real::from_f64(r.gen_range(-field..field)));
            let h = V::from_fn(|_| V::Real::from_f64(r.gen_range(0.0..size)));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

fn check_random<V: Vector>(seed: u64) {
    let mut r = SmallRng::seed_from_u64(seed);
    let mut total = 0;
    for scene in 0..60 {
        let n = r.gen_range(0..300);
        // Dense clusters and sparse fields alike.
        let field = if scene % 2 == 0 { 2.0 } else { 50.0 };
        let boxes = random_boxes::<V>(&mut r, n, field, 1.0);
        let want = brute(&boxes);
        assert_eq!(overlapping_pairs(&boxes), want, "scene {scene} ({n} boxes)");
        total += want.len();
    }
    assert!(total > 1000, "the scenes have overlaps to find: {total}");
}

#[test]
fn random_scenes_match_brute_force() {
    check_random::<DVec3>(1);
    check_random::<Vec3>(2);
    check_random::<DVec2>(3);
}

/// One `SweepAndPrune` over 200 frames: boxes drifting (the kept order is re-sorted by insertion), then shuffled,
/// grown in number and shrunk (a full sort). Every frame must match brute force.
#[test]
fn coherent_motion_across_frames_matches_brute_force() {
    let mut r = SmallRng::seed_from_u64(4);
    let mut boxes = random_boxes::<DVec3>(&mut r, 400, 20.0, 1.5);
    let mut velocities: Vec<DVec3> = (0..boxes.len())
        .map(|_| DVec3::new(r.gen_range(-0.3..0.3), r.gen_range(-0.3..0.3), r.gen_range(-0.3..0.3)))
        .collect();
    let mut sap = SweepAndPrune::new();
    let mut got = Vec::new();
    for frame in 0..200 {
        for (b, v) in boxes.iter_mut().zip(&velocities) {
            *b = Aabb::new(b.min + *v, b.max + *v);
        }
        match frame {
            80 => {
                // Shuffled: the kept order no longer describes the boxes' indices.
                for k in (1..boxes.len()).rev() {
                    let j = r.gen_range(0..=k);
                    boxes.swap(k, j);
                    velocities.swap(k, j);
                }
            }
            120 => {
                boxes.extend(random_boxes::<DVec3>(&mut r, 50, 20.0, 1.5));
                velocities.extend(std::iter::repeat_n(DVec3::ZERO, 50));
            }
            160 => {
                boxes.truncate(300);
                velocities.truncate(300);
            }
            _ => {}
        }
        sap.pairs(&boxes, &mut got);
        assert_eq!(got, brute(&boxes), "frame {frame}");
    }
}

#[test]
fn degenerate_sets() {
    let unit = Aabb::new(DVec3::ZERO, DVec3::ONE);
    assert!(overlapping_pairs::<DVec3>(&[]).is_empty());
    assert!(overlapping_pairs(&[unit]).is_empty());
    // Identical boxes: every pair.
    assert_eq!(overlapping_pairs(&[unit; 4]).len(), 6);
    // Zero-size boxes (points): only coincident ones meet, and a point on a box's face touches it.
    let point = |x: f64, y: f64, z: f64| Aabb::new(DVec3::new(x, y, z), DVec3::new(x, y, z));
    assert_eq!(overlapping_pairs(&[point(0.5, 0.5, 0.5), point(0.5, 0.5, 0.5), point(2.0, 0.0, 0.0)]), [(0, 1)]);
    assert_eq!(overlapping_pairs(&[unit, point(1.0, 0.5, 0.5)]), [(0, 1)]);
    // Touching at a face, an edge, a corner: overlapping, as Aabb::intersects says; a hair apart: not.
    let shifted = |d: DVec3| Aabb::new(d, d + DVec3::ONE);
    for d in [DVec3::X, DVec3::new(1.0, 1.0, 0.3), DVec3::ONE] {
        assert_eq!(overlapping_pairs(&[unit, shifted(d)]), [(0, 1)], "touching at {d:?}");
        let apart = d + DVec3::splat(1e-12);
        assert!(overlapping_pairs(&[unit, shifted(apart)]).is_empty(), "apart at {apart:?}");
    }
    // All on one line along x, each overlapping its neighbours only: a chain.
    let chain: Vec<Aabb<DVec3>> = (0..10).map(|k| shifted(DVec3::X * (0.9 * k as f64))).collect();
    assert_eq!(overlapping_pairs(&chain), (0..9).map(|k| (k, k + 1)).collect::<Vec<_>>());
    // The same boxes stacked along y instead: the sweep axis changes and the answer does not.
    let column: Vec<Aabb<DVec3>> = (0..10).map(|k| shifted(DVec3::Y * (0.9 * k as f64))).collect();
    assert_eq!(overlapping_pairs(&column), (0..9).map(|k| (k, k + 1)).collect::<Vec<_>>());
}
