//! Broadphase: which of many bodies may touch, decided from their bounding boxes before any GJK query runs.
//!
//! Sweep and prune. Every box is an interval on one axis — the axis along which the boxes' centres spread most,
//! so the intervals overlap least there. Sorted by their lower ends, the intervals are swept in order while a list
//! keeps those still open; each new box is tested against the open ones on the other axes. That costs
//! O(n log n) for the sort plus the number of overlaps along the sweep axis. [`SweepAndPrune`] keeps its order
//! and buffers from one call to the next: bodies move little between frames, so the previous order is nearly
//! sorted and an insertion sort restores it in about linear time, with no allocation once the buffers have grown.
//!
//! ```
//! use gjk::broadphase::SweepAndPrune;
//! use gjk::math::DVec3;
//! use gjk::shape::Aabb;
//! let boxes = [
//!     Aabb::new(DVec3::ZERO, DVec3::ONE),
//!     Aabb::new(DVec3::splat(0.5), DVec3::splat(2.0)),
//!     Aabb::new(DVec3::splat(5.0), DVec3::splat(6.0)),
//! ];
//! let mut sap = SweepAndPrune::new();
//! let mut pairs = Vec::new();
//! sap.pairs(&boxes, &mut pairs);
//! assert_eq!(pairs, [(0, 1)]);
//! ```

use core::cmp::Ordering;

use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Sweep and prune over axis-aligned boxes, keeping its sort order and buffers between calls.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    /// Box indices by increasing lower end along `axis` (ties by index), as left by the last call.
    order: Vec<u32>,
    /// The sweep axis of the last call.
    axis: usize,
    /// Boxes whose interval along the axis is still open during the sweep.
    open: Vec<u32>,
}

impl SweepAndPrune {
    /// An empty sweep; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes into `out` (cleared first) every pair `(i, j)`, `i < j`, of boxes that overlap or touch (as
    /// [`Aabb::intersects`] decides), sorted, so the same boxes always give the same list.
    pub fn pairs<V: Vector>(&mut self, boxes: &[Aabb<V>], out: &mut Vec<(u32, u32)>) {
        out.clear();
        let n = boxes.len();
        let axis = spread_axis(boxes);
        // (As f64: exact for f32 too, and it has a total order.)
        let key = |i: u32| boxes[i as usize].min.get(axis).to_f64();
        // Lower ends in increasing order; equal ends by index, so the order is a function of the boxes alone.
        let before = |i: u32, j: u32| key(i).total_cmp(&key(j)).then(i.cmp(&j));
        if self.order.len() == n && self.axis == axis {
            insertion_sort(&mut self.order, before);
        } else {
            self.order.clear();
            self.order.extend(0..n as u32);
            self.order.sort_unstable_by(|&i, &j| before(i, j));
            self.axis = axis;
        }
        self.open.clear();
        for &i in &self.order {
            let b = &boxes[i as usize];
            // Intervals that ended before this one starts will not meet any later box either: close them.
            self.open.retain(|&j| !(boxes[j as usize].max.get(axis) < b.min.get(axis)));
            for &j in &self.open {
                // Overlapping along the sweep axis already; the other axes decide.
                if b.intersects(&boxes[j as usize]) {
                    out.push((i.min(j), i.max(j)));
                }
            }
            self.open.push(i);
        }
        out.sort_unstable();
    }
}

/// Every pair of overlapping or touching boxes, sorted: a one-off [`SweepAndPrune::pairs`].
pub fn overlapping_pairs<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    SweepAndPrune::new().pairs(boxes, &mut out);
    out
}

/// The axis along which the boxes' centres vary most (the first of equals; 0 for fewer than two boxes).
fn spread_axis<V: Vector>(boxes: &[Aabb<V>]) -> usize {
    if boxes.len() < 2 {
        return 0;
    }
    let count = V::Real::from_f64(boxes.len() as f64);
    let mean = boxes.iter().fold(V::zero(), |s, b| s + b.center()) * (V::Real::ONE / count);
    let variance = |k: usize| {
        boxes.iter().fold(V::Real::ZERO, |s, b| {
            let d = b.center().get(k) - mean.get(k);
            s + d * d
        })
    };
    (1..V::DIM).fold(0, |best, k| if variance(k) > variance(best) { k } else { best })
}

/// Sorts a nearly sorted list in place: each element moves left past the ones it should precede.
fn insertion_sort(v: &mut [u32], before: impl Fn(u32, u32) -> Ordering) {
    for k in 1..v.len() {
        let x = v[k];
        let mut j = k;
        while j > 0 && before(x, v[j - 1]) == Ordering::Less {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}
