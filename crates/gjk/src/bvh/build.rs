//! Binned SAH build (Wald 2007). At each node the primitives' centroids are binned along the axis where they
//! spread most; the split between bins that minimises `area(left)·count(left) + area(right)·count(right)` is taken
//! if it beats keeping a leaf (up to [`MAX_LEAF`] primitives), and the primitives are partitioned in place. A node's
//! two children are stored side by side, after it.
//!
//! The primitives travel with their boxes (an `Item` array, partitioned in place), so every pass over a node reads
//! one contiguous run instead of gathering boxes by index. A node makes two passes over its run: one bins the
//! primitives, the other partitions them. Each bin keeps the box around its primitives' boxes and the box around
//! their centres, so the chosen split hands both children their bounds and their centroid bounds: nothing is
//! measured twice. The sweeps visit only the occupied bins, so a small node costs what it holds, not the bin count.

use super::{half_area, Bvh, Node, MAX_DEPTH, MAX_LEAF, MEDIAN_DEPTH};
use crate::math::{Real, Vector};
use crate::shape::Aabb;
use alloc::vec::Vec;

/// Bins along the split axis. Sixteen keeps the heuristic close to a full sweep at a fraction of its cost.
const BINS: usize = 16;

/// Cost of visiting a node relative to testing one primitive's box: a split must save at least this much.
const TRAVERSAL_COST: f64 = 1.0;

/// A primitive as the builder moves it: its box and its index, side by side, and the bin the node being split put
/// it in (in f64 it fills the padding after the index), which the partition then reads instead of recomputing it.
#[derive(Clone, Copy)]
struct Item<V: Vector> {
    aabb: Aabb<V>,
    index: u32,
    bin: u32,
}

/// What the builder knows of a run of primitives: the box around their boxes, the box around their centres, and
/// how many they are.
#[derive(Clone, Copy)]
struct Bounds<V: Vector> {
    aabb: Aabb<V>,
    centroids: Aabb<V>,
    count: usize,
}

impl<V: Vector> Bounds<V> {
    /// Nothing yet: inverted infinite boxes, which any merge replaces.
    fn empty() -> Self {
        Self { aabb: nothing(), centroids: nothing(), count: 0 }
    }

    /// Bounds of one primitive with centre `c`.
    #[inline]
    fn of(b: &Aabb<V>, c: V) -> Self {
        Self { aabb: *b, centroids: Aabb::new(c, c), count: 1 }
    }

    #[inline]
    fn add(&mut self, b: &Aabb<V>, c: V) {
        self.aabb = grow(&self.aabb, b.min, b.max);
        self.centroids = grow(&self.centroids, c, c);
        self.count += 1;
    }

    #[inline]
    fn merged(&self, other: &Self) -> Self {
        Self {
            aabb: grow(&self.aabb, other.aabb.min, other.aabb.max),
            centroids: grow(&self.centroids, other.centroids.min, other.centroids.max),
            count: self.count + other.count,
        }
    }

    /// The bounds of a run of items, measured.
    fn measure(items: &[Item<V>]) -> Self {
        items.iter().fold(Self::empty(), |mut acc, it| {
            acc.add(&it.aabb, it.aabb.center());
            acc
        })
    }
}

/// The inverted infinite box, which any merge replaces: the bounds of nothing.
fn nothing<V: Vector>() -> Aabb<V> {
    let inf = V::from_fn(|_| V::Real::INFINITY);
    Aabb::new(inf, -inf)
}

/// The box `b` grown to take in the box `lo..hi` (or the point `lo = hi`). One comparison per bound: for the finite
/// numbers of the build the same as [`Aabb::merged`] (up to the sign of a zero bound), whose `min` and `max` also
/// sort out NaN, at a third of the instructions (this is the binning's inner loop).
#[inline]
fn grow<V: Vector>(b: &Aabb<V>, lo: V, hi: V) -> Aabb<V> {
    let min = V::from_fn(|i| if lo.get(i) < b.min.get(i) { lo.get(i) } else { b.min.get(i) });
    let max = V::from_fn(|i| if hi.get(i) > b.max.get(i) { hi.get(i) } else { b.max.get(i) });
    Aabb::new(min, max)
}

/// A node's split: where its run divides, and the two children's bounds.
struct Split<V: Vector> {
    mid: usize,
    left: Bounds<V>,
    right: Bounds<V>,
}

struct Builder<V: Vector> {
    nodes: Vec<Node<V>>,
    depth: usize,
    /// The bins of the node being split. A bin is written when its first primitive arrives (the `occupied` mask of
    /// `split` says which), so the array is never cleared and stale bins are never read.
    bins: [Bounds<V>; BINS],
}

pub(super) fn build<V: Vector>(boxes: &[Aabb<V>]) -> Bvh<V> {
    let n = boxes.len();
    if n == 0 {
        return Bvh { nodes: Vec::new(), primitives: Vec::new(), depth: 0 };
    }
    let mut items: Vec<Item<V>> = boxes.iter().zip(0..).map(|(&aabb, index)| Item { aabb, index, bin: 0 }).collect();
    let root = Bounds::measure(&items);
    let mut b = Builder { nodes: Vec::with_capacity(2 * n.div_ceil(2)), depth: 0, bins: [Bounds::empty(); BINS] };
    b.nodes.push(Node { aabb: root.aabb, link: 0, count: 0 });
    b.node(&mut items, 0, 0, 1, &root);
    let Builder { mut nodes, depth, .. } = b;
    nodes.shrink_to_fit();
    Bvh { nodes, primitives: items.iter().map(|it| it.index).collect(), depth }
}

impl<V: Vector> Builder<V> {
    /// Builds the subtree over `items` (which start at `offset` in the final primitive list, and whose bounds are
    /// `bounds`) at `depth` into the slot `index`, reserved by its parent. The two children of a node are reserved
    /// side by side, so a traversal that tests both reads one contiguous pair.
    fn node(&mut self, items: &mut [Item<V>], offset: usize, index: usize, depth: usize, bounds: &Bounds<V>) {
        self.depth = self.depth.max(depth);
        let aabb = bounds.aabb;
        self.nodes[index] = Node { aabb, link: offset as u32, count: items.len() as u32 };
        if items.len() <= 1 || depth >= MAX_DEPTH {
            return;
        }
        let Some(Split { mid, left, right }) = self.split(items, bounds, depth) else {
            return;
        };
        let (l, r) = items.split_at_mut(mid);
        let first = self.nodes.len();
        self.nodes.push(Node { aabb, link: 0, count: 0 });
        self.nodes.push(Node { aabb, link: 0, count: 0 });
        self.node(l, offset, first, depth + 1, &left);
        self.node(r, offset + mid, first + 1, depth + 1, &right);
        self.nodes[index] = Node { aabb, link: first as u32, count: 0 };
    }

    /// Partitions `items` and returns the split, or `None` to keep a leaf.
    fn split(&mut self, items: &mut [Item<V>], bounds: &Bounds<V>, depth: usize) -> Option<Split<V>> {
        let n = items.len();
        // The axis of largest centroid spread, and the bins' extent along it.
        let (lo, hi) = (bounds.centroids.min, bounds.centroids.max);
        let spread = hi - lo;
        let axis = (1..V::DIM).fold(0, |a, k| if spread.get(k) > spread.get(a) { k } else { a });
        let extent = spread.get(axis);
        if depth >= MEDIAN_DEPTH || !(extent > V::Real::ZERO) {
            // Deep (adversarial input) or every centroid at one point: halve by position (or by index).
            return (n > MAX_LEAF || depth >= MEDIAN_DEPTH).then(|| median(items, axis));
        }
        let scale = V::Real::from_f64(BINS as f64) / extent;
        let origin = lo.get(axis);
        // Through i32 (cheaper than a saturating usize conversion): the same bins, as both clamp below at 0 (NaN too).
        let bin_of = |x: V::Real| (((x - origin) * scale).to_f64() as i32).clamp(0, BINS as i32 - 1) as usize;
        // Bin the centroids; `occupied` has bit k set once bin k holds a primitive.
        let mut occupied = 0u32;
        for it in items.iter_mut() {
            let c = it.aabb.center();
            let k = bin_of(c.get(axis));
            it.bin = k as u32;
            if occupied & (1 << k) == 0 {
                occupied |= 1 << k;
                self.bins[k] = Bounds::of(&it.aabb, c);
            } else {
                self.bins[k].add(&it.aabb, c);
            }
        }
        let (best_cost, best) = self.best_plane(occupied, n);
        let area = half_area(&bounds.aabb).to_f64();
        let leaf_cost = n as f64;
        let split_cost = TRAVERSAL_COST + if area > 0.0 { best_cost / area } else { n as f64 };
        if best_cost.is_infinite() || (n <= MAX_LEAF && split_cost >= leaf_cost) {
            return (n > MAX_LEAF).then(|| median(items, axis));
        }
        // The children's bounds are their bins', merged.
        let merge = |mask: u32| bits(mask).fold(Bounds::empty(), |acc, k| acc.merged(&self.bins[k]));
        let below = (1u32 << (best + 1)) - 1;
        let (left, right) = (merge(occupied & below), merge(occupied & !below));
        let mid = partition(items, |it| it.bin as usize <= best);
        debug_assert_eq!(mid, left.count);
        Some(Split { mid, left, right })
    }

    /// The split plane of least cost among the occupied bins: `(cost, k)` for left = bins `0..=k`, or an infinite
    /// cost when every primitive is in one bin. Between two occupied bins every plane has the same cost; the first
    /// (right after the lower bin) is taken.
    fn best_plane(&self, occupied: u32, n: usize) -> (f64, usize) {
        // Sweep from the right to know each suffix's area, then from the left for the cost of each split.
        let mut right_area = [0.0f64; BINS];
        let mut right = nothing::<V>();
        for k in bits(occupied).rev() {
            right = grow(&right, self.bins[k].aabb.min, self.bins[k].aabb.max);
            right_area[k] = half_area(&right).to_f64();
        }
        let mut best = (f64::INFINITY, 0);
        let (mut left, mut left_count) = (nothing::<V>(), 0);
        let mut lower = bits(occupied).peekable();
        while let (Some(k), Some(&next)) = (lower.next(), lower.peek()) {
            let bin = &self.bins[k];
            left = grow(&left, bin.aabb.min, bin.aabb.max);
            left_count += bin.count;
            let cost = half_area(&left).to_f64() * left_count as f64 + right_area[next] * (n - left_count) as f64;
            if cost < best.0 {
                best = (cost, k);
            }
        }
        best
    }
}

/// The set bits of a bin mask, lowest first.
fn bits(mask: u32) -> impl DoubleEndedIterator<Item = usize> {
    (0..BINS).filter(move |&k| mask & (1 << k) != 0)
}

/// Splits at the median centroid along `axis` (ties by index, so the result is deterministic), measuring the two
/// halves.
fn median<V: Vector>(items: &mut [Item<V>], axis: usize) -> Split<V> {
    let mid = items.len() / 2;
    let key = |it: &Item<V>| it.aabb.center().get(axis).to_f64();
    items.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)).then(a.index.cmp(&b.index)));
    Split { mid, left: Bounds::measure(&items[..mid]), right: Bounds::measure(&items[mid..]) }
}

/// Moves the items for which `left` holds to the front, in the order found; returns how many. The swaps are those
/// of the plain index-list build (tests.rs), so both give the same primitive list, and every query the same visiting
/// order; a two-ended partition swaps less but orders the leaves otherwise.
fn partition<V: Vector>(items: &mut [Item<V>], left: impl Fn(&Item<V>) -> bool) -> usize {
    let mut mid = 0;
    for k in 0..items.len() {
        if left(&items[k]) {
            items.swap(mid, k);
            mid += 1;
        }
    }
    mid
}

#[cfg(test)]
pub(super) mod tests;
