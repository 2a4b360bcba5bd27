//! Binned SAH build (Wald 2007). At each node the primitives' centroids are binned along the axis where they
//! spread most; the split between bins that minimises `area(left)·count(left) + area(right)·count(right)` is taken
//! if it beats keeping a leaf (up to [`MAX_LEAF`] primitives), and the primitives are partitioned in place. A node's
//! two children are stored side by side, after it.

use super::{half_area, Bvh, Node, MAX_DEPTH, MAX_LEAF, MEDIAN_DEPTH};
use crate::math::{Real, Vector};
use crate::shape::Aabb;
use alloc::vec::Vec;

/// Bins along the split axis. Sixteen keeps the heuristic close to a full sweep at a fraction of its cost.
const BINS: usize = 16;

/// Cost of visiting a node relative to testing one primitive's box: a split must save at least this much.
const TRAVERSAL_COST: f64 = 1.0;

struct Builder<'a, V: Vector> {
    boxes: &'a [Aabb<V>],
    centroids: Vec<V>,
    nodes: Vec<Node<V>>,
    depth: usize,
}

pub(super) fn build<V: Vector>(boxes: &[Aabb<V>]) -> Bvh<V> {
    let n = boxes.len();
    let mut primitives: Vec<u32> = (0..n as u32).collect();
    if n == 0 {
        return Bvh { nodes: Vec::new(), primitives, depth: 0 };
    }
    let mut b = Builder {
        boxes,
        centroids: boxes.iter().map(|b| b.center()).collect(),
        nodes: Vec::with_capacity(2 * n.div_ceil(2)),
        depth: 0,
    };
    let root = Node { aabb: boxes[0], link: 0, count: 0 };
    b.nodes.push(root);
    b.node(&mut primitives, 0, 0, 1);
    let Builder { mut nodes, depth, .. } = b;
    nodes.shrink_to_fit();
    Bvh { nodes, primitives, depth }
}

impl<V: Vector> Builder<'_, V> {
    /// Builds the subtree over `prims` (which start at `offset` in the final primitive list) at `depth` into the
    /// slot `index`, reserved by its parent. The two children of a node are reserved side by side, so a traversal
    /// that tests both reads one contiguous pair.
    fn node(&mut self, prims: &mut [u32], offset: usize, index: usize, depth: usize) {
        self.depth = self.depth.max(depth);
        let aabb = self.bounds(prims);
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

    fn bounds(&self, prims: &[u32]) -> Aabb<V> {
        let first = self.boxes[prims[0] as usize];
        prims[1..].iter().fold(first, |b, &i| b.merged(&self.boxes[i as usize]))
    }

    /// Partitions `prims` and returns the size of the left part, or `None` to keep a leaf.
    fn split(&self, prims: &mut [u32], aabb: &Aabb<V>, depth: usize) -> Option<usize> {
        let n = prims.len();
        // Centroid bounds: the axis of largest spread, and the bins' extent along it.
        let c0 = self.centroids[prims[0] as usize];
        let (lo, hi) = prims.iter().fold((c0, c0), |(lo, hi), &i| {
            let c = self.centroids[i as usize];
            (lo.min_elem(c), hi.max_elem(c))
        });
        let spread = hi - lo;
        let axis = (1..V::DIM).fold(0, |a, k| if spread.get(k) > spread.get(a) { k } else { a });
        let extent = spread.get(axis);
        if depth >= MEDIAN_DEPTH || !(extent > V::Real::ZERO) {
            // Deep (adversarial input) or every centroid at one point: halve by position (or by index).
            return if n > MAX_LEAF || depth >= MEDIAN_DEPTH { Some(self.median(prims, axis)) } else { None };
        }
        // Bin the centroids.
        let scale = V::Real::from_f64(BINS as f64) / extent;
        let bin_of = |c: V| {
            let b = ((c.get(axis) - lo.get(axis)) * scale).to_f64();
            (b as usize).min(BINS - 1)
        };
        let mut counts = [0usize; BINS];
        let mut bounds: [Option<Aabb<V>>; BINS] = [None; BINS];
        for &i in prims.iter() {
            let k = bin_of(self.centroids[i as usize]);
            counts[k] += 1;
            let b = &self.boxes[i as usize];
            bounds[k] = Some(bounds[k].map_or(*b, |x| x.merged(b)));
        }
        // Sweep from the right to know each suffix's area, then from the left for the cost of each split.
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
        let leaf_cost = n as f64;
        let split_cost = TRAVERSAL_COST + if area > 0.0 { best.0 / area } else { n as f64 };
        if best.0.is_infinite() || (n <= MAX_LEAF && split_cost >= leaf_cost) {
            return if n > MAX_LEAF { Some(self.median(prims, axis)) } else { None };
        }
        let mid = partition(prims, |i| bin_of(self.centroids[i as usize]) <= best.1);
        Some(mid)
    }

    /// Splits at the median centroid along `axis` (ties by index, so the result is deterministic).
    fn median(&self, prims: &mut [u32], axis: usize) -> usize {
        let mid = prims.len() / 2;
        let key = |i: u32| self.centroids[i as usize].get(axis).to_f64();
        prims.select_nth_unstable_by(mid, |&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
        mid
    }
}

/// Moves the items for which `left` holds to the front (order otherwise as found); returns how many.
fn partition(prims: &mut [u32], left: impl Fn(u32) -> bool) -> usize {
    let mut mid = 0;
    for k in 0..prims.len() {
        if left(prims[k]) {
            prims.swap(mid, k);
            mid += 1;
        }
    }
    mid
}
