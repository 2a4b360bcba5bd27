//! The build against the plain binned SAH it speeds up: an index list partitioned in place, each node's bounds and
//! centroid bounds measured by a pass over its primitives, all sixteen bins swept. Both must give the same tree:
//! the same nodes (boxes, links, counts), the same depth and the same primitive list.

use super::super::{half_area, Bvh, Node, MAX_DEPTH, MAX_LEAF, MEDIAN_DEPTH};
use super::{BINS, TRAVERSAL_COST};
use crate::math::{DVec2, DVec3, Real, Vec2, Vec3, Vector};
use crate::shape::Aabb;
use alloc::vec::Vec;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

struct Plain<'a, V: Vector> {
    boxes: &'a [Aabb<V>],
    centroids: Vec<V>,
    nodes: Vec<Node<V>>,
    depth: usize,
}

fn plain<V: Vector>(boxes: &[Aabb<V>]) -> Bvh<V> {
    let mut primitives: Vec<u32> = (0..boxes.len() as u32).collect();
    if boxes.is_empty() {
        return Bvh { nodes: Vec::new(), primitives, depth: 0 };
    }
    let mut b = Plain { boxes, centroids: boxes.iter().map(|b| b.center()).collect(), nodes: Vec::new(), depth: 0 };
    b.nodes.push(Node { aabb: boxes[0], link: 0, count: 0 });
    b.node(&mut primitives, 0, 0, 1);
    Bvh { nodes: b.nodes, primitives, depth: b.depth }
}

impl<V: Vector> Plain<'_, V> {
    fn node(&mut self, prims: &mut [u32], offset: usize, index: usize, depth: usize) {
        self.depth = self.depth.max(depth);
        let aabb = prims[1..].iter().fold(self.boxes[prims[0] as usize], |b, &i| b.merged(&self.boxes[i as usize]));
        self.nodes[index] = Node { aabb, link: offset as u32, count: prims.len() as u32 };
        if prims.len() <= 1 || depth >= MAX_DEPTH {
            return;
        }
        let Some(mid) = self.split(prims, &aabb, depth) else {
            return;
        };
        let (left, right) = prims.split_at_mut(mid);
        let first = self.nodes.len();
        self.nodes.push(Node { aabb, link: 0, count: 0 });
        self.nodes.push(Node { aabb, link: 0, count: 0 });
        self.node(left, offset, first, depth + 1);
        self.node(right, offset + mid, first + 1, depth + 1);
        self.nodes[index] = Node { aabb, link: first as u32, count: 0 };
    }

    fn split(&self, prims: &mut [u32], aabb: &Aabb<V>, depth: usize) -> Option<usize> {
        let n = prims.len();
        let c0 = self.centroids[prims[0] as usize];
        let (lo, hi) = prims.iter().fold((c0, c0), |(lo, hi), &i| {
            let c = self.centroids[i as usize];
            (lo.min_elem(c), hi.max_elem(c))
        });
        let spread = hi - lo;
        let axis = (1..V::DIM).fold(0, |a, k| if spread.get(k) > spread.get(a) { k } else { a });
        let extent = spread.get(axis);
        if depth >= MEDIAN_DEPTH || !(extent > V::Real::ZERO) {
            return (n > MAX_LEAF || depth >= MEDIAN_DEPTH).then(|| self.median(prims, axis));
        }
        let scale = V::Real::from_f64(BINS as f64) / extent;
        let bin_of = |c: V| (((c.get(axis) - lo.get(axis)) * scale).to_f64() as usize).min(BINS - 1);
        let mut counts = [0usize; BINS];
        let mut bounds: [Option<Aabb<V>>; BINS] = [None; BINS];
        for &i in prims.iter() {
            let k = bin_of(self.centroids[i as usize]);
            counts[k] += 1;
            let b = &self.boxes[i as usize];
            bounds[k] = Some(bounds[k].map_or(*b, |x| x.merged(b)));
        }
        let mut right_area = [0.0f64; BINS];
        let mut acc: Option<Aabb<V>> = None;
        for k in (1..BINS).rev() {
            if let Some(b) = bounds[k] {
                acc = Some(acc.map_or(b, |a| a.merged(&b)));
            }
            right_area[k] = acc.map_or(0.0, |a| half_area(&a).to_f64());
        }
        let mut best = (f64::INFINITY, 0);
        let (mut left, mut left_count) = (None::<Aabb<V>>, 0);
        for k in 0..BINS - 1 {
            if let Some(b) = bounds[k] {
                left = Some(left.map_or(b, |a| a.merged(&b)));
            }
            left_count += counts[k];
            if left_count == 0 || left_count == n {
                continue;
            }
            let l = left.map_or(0.0, |a| half_area(&a).to_f64());
            let cost = l * left_count as f64 + right_area[k + 1] * (n - left_count) as f64;
            if cost < best.0 {
                best = (cost, k);
            }
        }
        let area = half_area(aabb).to_f64();
        let split_cost = TRAVERSAL_COST + if area > 0.0 { best.0 / area } else { n as f64 };
        if best.0.is_infinite() || (n <= MAX_LEAF && split_cost >= n as f64) {
            return (n > MAX_LEAF).then(|| self.median(prims, axis));
        }
        let mut mid = 0;
        for k in 0..n {
            if bin_of(self.centroids[prims[k] as usize]) <= best.1 {
                prims.swap(mid, k);
                mid += 1;
            }
        }
        Some(mid)
    }

    fn median(&self, prims: &mut [u32], axis: usize) -> usize {
        let mid = prims.len() / 2;
        let key = |i: u32| self.centroids[i as usize].get(axis).to_f64();
        prims.select_nth_unstable_by(mid, |&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
        mid
    }
}

/// The same tree, bit for bit: nodes, depth, primitive list.
fn assert_same_tree<V: Vector>(boxes: &[Aabb<V>], what: &str) {
    let (fast, reference) = (Bvh::new(boxes), plain(boxes));
    assert_eq!(fast.nodes, reference.nodes, "{what}: nodes");
    assert_eq!(fast.depth, reference.depth, "{what}: depth");
    assert_eq!(fast.primitives, reference.primitives, "{what}: primitives");
}

fn random_boxes<V: Vector>(rng: &mut SmallRng, n: usize, spread: f64, size: f64) -> Vec<Aabb<V>> {
    (0..n)
        .map(|_| {
            let c = V::from_fn(|_| V::Real::from_f64(rng.gen_range(-spread..spread)));
            let h = V::from_fn(|_| V::Real::from_f64(rng.gen_range(0.0..size)));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

/// Random scenes: sparse, dense, a few clusters of identical boxes (bins left empty, centroids at one point).
fn same_tree_as_plain<V: Vector>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for n in [1usize, 2, 3, 4, 5, 9, 17, 100, 1000, 5000] {
        assert_same_tree(&random_boxes::<V>(&mut rng, n, 10.0, 0.6), "sparse");
        assert_same_tree(&random_boxes::<V>(&mut rng, n, 1.0, 3.0), "dense");
        let few = random_boxes::<V>(&mut rng, 3, 10.0, 0.5);
        let clustered: Vec<Aabb<V>> = (0..n).map(|_| few[rng.gen_range(0..3)]).collect();
        assert_same_tree(&clustered, "clustered");
    }
}

#[test]
fn same_tree_as_plain_binned_sah() {
    same_tree_as_plain::<DVec3>(1);
    same_tree_as_plain::<Vec3>(2);
    same_tree_as_plain::<DVec2>(3);
    same_tree_as_plain::<Vec2>(4);
}

/// Inputs that reach the median splits: identical boxes, nested boxes (one centroid), a chain growing
/// geometrically (the heuristic peels one box at a time until `MEDIAN_DEPTH`).
#[test]
fn same_tree_as_plain_on_degenerate_inputs() {
    let same = alloc::vec![Aabb::new(DVec3::ZERO, DVec3::ONE); 3000];
    let nested: Vec<Aabb<DVec3>> =
        (1..=3000).map(|i| Aabb::new(DVec3::splat(-(i as f64)), DVec3::splat(i as f64))).collect();
    let chain: Vec<Aabb<DVec3>> = (0..3000)
        .map(|i| Aabb::new(DVec3::new(1.5f64.powi(i % 60), 0.0, 0.0), DVec3::new(1.5f64.powi(i % 60) + 1.0, 1.0, 1.0)))
        .collect();
    for (boxes, what) in [(same, "same"), (nested, "nested"), (chain, "chain")] {
        assert_same_tree(&boxes, what);
    }
}

/// Every node's box is exactly the box around what is below it (its children's, or its primitives'), every
/// primitive is in exactly one leaf, and a leaf built by the heuristic holds at most `MAX_LEAF` primitives.
pub(in crate::bvh) fn check_tight<V: Vector>(bvh: &Bvh<V>, boxes: &[Aabb<V>]) {
    let mut seen = alloc::vec![0u32; boxes.len()];
    for (index, node) in bvh.nodes.iter().enumerate() {
        let expected = if node.is_leaf() {
            let prims = bvh.leaf_primitives(node);
            assert!(prims.len() <= MAX_LEAF || bvh.depth == MAX_DEPTH, "leaf of {}", prims.len());
            prims.iter().for_each(|&i| seen[i as usize] += 1);
            prims[1..].iter().fold(boxes[prims[0] as usize], |b, &i| b.merged(&boxes[i as usize]))
        } else {
            let (l, r) = bvh.children(index as u32);
            assert!(l as usize > index, "children after their parent");
            bvh.nodes[l as usize].aabb.merged(&bvh.nodes[r as usize].aabb)
        };
        assert_eq!(node.aabb, expected, "node {index}");
    }
    assert!(seen.iter().all(|&k| k == 1), "every primitive in one leaf");
}

#[test]
fn boxes_are_tight_and_every_primitive_is_in_one_leaf() {
    let mut rng = SmallRng::seed_from_u64(5);
    for n in [1usize, 2, 5, 33, 700, 4000] {
        let boxes = random_boxes::<DVec3>(&mut rng, n, 10.0, 0.6);
        check_tight(&Bvh::new(&boxes), &boxes);
        let boxes = random_boxes::<Vec2>(&mut rng, n, 1.0, 2.0);
        check_tight(&Bvh::new(&boxes), &boxes);
        let boxes: Vec<Aabb<DVec3>> = (0..n).map(|i| boxes_line(i % 7)).collect();
        check_tight(&Bvh::new(&boxes), &boxes);
    }
}

/// Seven boxes along x, repeated: many primitives share a centroid.
fn boxes_line(i: usize) -> Aabb<DVec3> {
    Aabb::new(DVec3::new(i as f64, 0.0, 0.0), DVec3::new(i as f64 + 0.5, 1.0, 1.0))
}
