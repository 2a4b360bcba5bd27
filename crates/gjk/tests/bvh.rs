//! The static BVH against brute force: every traversal (closest first, ray closest and any hit, box overlap, tree
//! against tree) gives the answer of a loop over all the boxes, on random scenes in 2D and 3D, f32 and f64, and on
//! adversarial ones (identical boxes, nested boxes, a long chain, one box).

use gjk::bvh::{box_distance_squared, point_box_distance_squared, Bvh, Ray, RelativeBoxes, MAX_DEPTH};
use gjk::math::{DVec2, DVec3, Iso, Real, Rotation, Vec2, Vec3, Vector};
use gjk::shape::Aabb;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn v<V: Vector>(rng: &mut SmallRng, s: f64) -> V {
    V::from_fn(|_| V::Real::from_f64(rng.gen_range(-s..s)))
}

fn random_boxes<V: Vector>(rng: &mut SmallRng, n: usize) -> Vec<Aabb<V>> {
    (0..n)
        .map(|_| {
            let c: V = v(rng, 10.0);
            let h = V::from_fn(|_| V::Real::from_f64(rng.gen_range(0.0..0.6)));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

/// Every primitive appears once, and every node's box holds its children's (or its primitives').
fn check_structure<V: Vector>(bvh: &Bvh<V>, boxes: &[Aabb<V>]) {
    let mut seen = bvh.primitives().to_vec();
    seen.sort();
    assert_eq!(seen, (0..boxes.len() as u32).collect::<Vec<_>>());
    assert!(bvh.depth() <= MAX_DEPTH);
    let contains = |outer: &Aabb<V>, inner: &Aabb<V>| {
        (0..V::DIM).all(|i| outer.min.get(i) <= inner.min.get(i) && inner.max.get(i) <= outer.max.get(i))
    };
    for p in 0..boxes.len() as u32 {
        // The primitive's box is inside the root's.
        assert!(contains(&bvh.root_aabb().unwrap(), &boxes[p as usize]));
    }
}

fn traversals_match_brute_force<V: Vector>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for n in [1usize, 2, 3, 7, 50, 600] {
        let boxes = random_boxes::<V>(&mut rng, n);
        let bvh = Bvh::new(&boxes);
        check_structure(&bvh, &boxes);
        assert_eq!(bvh, Bvh::new(&boxes), "deterministic");
        for _ in 0..40 {
            // Closest box to a point, with and without a limit.
            let p: V = v(&mut rng, 14.0);
            let brute = boxes.iter().map(|b| point_box_distance_squared(p, b)).fold(V::Real::INFINITY, |a, b| a.min(b));
            let mut visited = 0;
            let got = bvh.closest_first(
                V::Real::INFINITY,
                |b| point_box_distance_squared(p, b),
                |i, best| {
                    visited += 1;
                    let d = point_box_distance_squared(p, &boxes[i as usize]);
                    (d < best).then_some(d)
                },
            );
            assert_eq!(got, brute, "closest box, n = {n}");
            assert!(visited <= n);
            let limit = V::Real::from_f64(rng.gen_range(0.0..4.0));
            let got = bvh.closest_first(
                limit,
                |b| point_box_distance_squared(p, b),
                |i, best| {
                    let d = point_box_distance_squared(p, &boxes[i as usize]);
                    (d <= best).then_some(d)
                },
            );
            assert_eq!(got, if brute <= limit { brute } else { limit });

            // Ray: the nearest entry time over all boxes; any hit is a real hit.
            let ray = Ray::new(v::<V>(&mut rng, 14.0), v::<V>(&mut rng, 1.0));
            let max_t = V::Real::from_f64(rng.gen_range(1.0..40.0));
            let brute = boxes
                .iter()
                .filter_map(|b| ray.entry(b, max_t))
                .fold(None, |a: Option<V::Real>, t| Some(a.map_or(t, |a| a.min(t))));
            let got = bvh.cast_ray(&ray, max_t, false, |i, m| ray.entry(&boxes[i as usize], m));
            assert_eq!(got, brute, "nearest ray hit");
            let any = bvh.cast_ray(&ray, max_t, true, |i, m| ray.entry(&boxes[i as usize], m));
            assert_eq!(any.is_some(), brute.is_some());

            // Overlap with a box.
            let q = random_boxes::<V>(&mut rng, 1)[0].loosened(V::Real::from_f64(rng.gen_range(0.0..3.0)));
            let mut got = Vec::new();
            bvh.for_each_overlap(&q, |i| {
                if boxes[i as usize].intersects(&q) {
                    got.push(i);
                }
                true
            });
            got.sort();
            let brute: Vec<u32> = (0..n as u32).filter(|&i| boxes[i as usize].intersects(&q)).collect();
            assert_eq!(got, brute, "overlap");
        }
        // Tree against tree, the other tree posed anywhere.
        let others = random_boxes::<V>(&mut rng, 1 + n / 2);
        let other = Bvh::new(&others);
        for _ in 0..10 {
            let pose = random_pose::<V>(&mut rng);
            let rel = RelativeBoxes::new(pose);
            let mut got = Vec::new();
            bvh.for_each_pair(&other, &rel, V::Real::ZERO, |a, b| {
                if boxes[a as usize].intersects(&rel.transform(&others[b as usize])) {
                    got.push((a, b));
                }
                true
            });
            got.sort();
            let mut brute = Vec::new();
            for a in 0..n as u32 {
                for b in 0..others.len() as u32 {
                    if boxes[a as usize].intersects(&rel.transform(&others[b as usize])) {
                        brute.push((a, b));
                    }
                }
            }
            assert_eq!(got, brute, "pairs");
            let brute = (0..n)
                .flat_map(|a| others.iter().map(move |o| (a, o)))
                .map(|(a, o)| box_distance_squared(&boxes[a], &rel.transform(o)))
                .fold(V::Real::INFINITY, |a, b| a.min(b));
            let got = bvh.closest_pair_first(&other, &rel, V::Real::INFINITY, |a, b, best| {
                let d = box_distance_squared(&boxes[a as usize], &rel.transform(&others[b as usize]));
                (d < best).then_some(d)
            });
            assert_eq!(got, brute, "closest pair");
        }
    }
}

fn random_pose<V: Vector>(rng: &mut SmallRng) -> Iso<V> {
    // Any rotation will do (it need not be uniform): integrate a random angular velocity.
    let mut pose = Iso::<V>::identity();
    pose.translation = v(rng, 8.0);
    pose.rotation = random_rotation::<V>(rng);
    pose
}

fn random_rotation<V: Vector>(rng: &mut SmallRng) -> V::Rotation {
    let angle = V::Real::from_f64(rng.gen_range(-3.0..3.0));
    let axis: V = v(rng, 1.0);
    rotation_from::<V>(axis, angle)
}

fn rotation_from<V: Vector>(axis: V, angle: V::Real) -> V::Rotation {
    let id = V::Rotation::identity();
    let w = angular_of::<V>(axis, angle);
    id.integrate(w, V::Real::ONE)
}

/// An angular velocity of `V`'s space: `angle` about `axis` (3D) or `angle` (2D).
fn angular_of<V: Vector>(axis: V, angle: V::Real) -> <V::Rotation as Rotation<V>>::Angular {
    use std::any::Any;
    let mut out = <<V::Rotation as Rotation<V>>::Angular as Default>::default();
    let any: &mut dyn Any = &mut out;
    if let Some(w) = any.downcast_mut::<f64>() {
        *w = angle.to_f64();
    } else if let Some(w) = any.downcast_mut::<f32>() {
        *w = angle.to_f64() as f32;
    } else if let Some(w) = any.downcast_mut::<DVec3>() {
        *w = DVec3::from_array(axis.to_f64_array()).normalize_or_zero() * angle.to_f64();
    } else if let Some(w) = any.downcast_mut::<Vec3>() {
        *w = (DVec3::from_array(axis.to_f64_array()).normalize_or_zero() * angle.to_f64()).as_vec3();
    }
    out
}

#[test]
fn traversals_match_brute_force_3d_f64() {
    traversals_match_brute_force::<DVec3>(1);
}
#[test]
fn traversals_match_brute_force_3d_f32() {
    traversals_match_brute_force::<Vec3>(2);
}
#[test]
fn traversals_match_brute_force_2d_f64() {
    traversals_match_brute_force::<DVec2>(3);
}
#[test]
fn traversals_match_brute_force_2d_f32() {
    traversals_match_brute_force::<Vec2>(4);
}

/// Identical boxes (every centroid at one point) and boxes nested in each other (SAH finds no useful split) still
/// give a tree of logarithmic depth, with small leaves, and the traversals still find everything.
#[test]
fn degenerate_inputs_keep_a_shallow_tree() {
    let same = vec![Aabb::new(DVec3::ZERO, DVec3::ONE); 10_000];
    let nested: Vec<Aabb<DVec3>> =
        (1..=10_000).map(|i| Aabb::new(DVec3::splat(-(i as f64)), DVec3::splat(i as f64))).collect();
    let chain: Vec<Aabb<DVec3>> = (0..10_000)
        .map(|i| Aabb::new(DVec3::new(1.5f64.powi(i % 60), 0.0, 0.0), DVec3::new(1.5f64.powi(i % 60) + 1.0, 1.0, 1.0)))
        .collect();
    for boxes in [same, nested, chain] {
        let bvh = Bvh::new(&boxes);
        assert!(bvh.depth() <= 48, "depth {}", bvh.depth());
        for n in bvh.nodes() {
            assert!(!n.is_leaf() || bvh.node_primitives(n).len() <= gjk::bvh::MAX_LEAF);
        }
        let mut count = 0;
        bvh.for_each_overlap(&Aabb::new(DVec3::splat(-1e12), DVec3::splat(1e12)), |_| {
            count += 1;
            true
        });
        assert_eq!(count, boxes.len());
    }
}

/// An empty tree answers every traversal with nothing; an infinite query box (a half-space's bounds) does not
/// break the overlap test or the distance bound.
#[test]
fn empty_tree_and_infinite_query_boxes() {
    let empty = Bvh::<DVec2>::new(&[]);
    assert_eq!(empty.root_aabb(), None);
    assert_eq!(empty.closest_first(5.0, |_| 0.0, |_, _| Some(0.0)), 5.0);
    assert_eq!(empty.cast_ray(&Ray::new(DVec2::ZERO, DVec2::X), 1.0, false, |_, _| Some(0.0)), None);
    let boxes = [Aabb::new(DVec2::ZERO, DVec2::ONE), Aabb::new(DVec2::splat(3.0), DVec2::splat(4.0))];
    let bvh = Bvh::new(&boxes);
    let below = Aabb::new(DVec2::new(-f64::INFINITY, -f64::INFINITY), DVec2::new(f64::INFINITY, 2.0));
    let mut hits = Vec::new();
    bvh.for_each_overlap(&below, |i| {
        hits.push(i);
        true
    });
    assert_eq!(hits, [0]);
    assert_eq!(box_distance_squared(&below, &boxes[1]), 1.0);
    // A ray along an axis, grazing a face, still counts it.
    let graze = Ray::new(DVec2::new(-1.0, 1.0), DVec2::X);
    assert_eq!(graze.entry(&boxes[0], 10.0), Some(1.0));
}
