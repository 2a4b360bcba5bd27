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

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::slots::Slots;
use super::{diff_sorted, valid_box, BroadPhase, BroadPhaseError, PairChanges, ProxyId, ProxyPair};
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

    /// Bytes held on the heap (the kept order and the sweep's list).
    pub fn heap_bytes(&self) -> usize {
        (self.order.capacity() + self.open.capacity()) * core::mem::size_of::<u32>()
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

/// Sweep and prune behind the [`BroadPhase`] trait: proxies with ids and user data, whose boxes are swept
/// together at each pair update. Its candidate pairs are exactly the overlapping pairs.
///
/// ```
/// use gjk::broadphase::{BroadPhase, PairChanges, SweepAndPruneSet};
/// use gjk::math::DVec2;
/// use gjk::shape::Aabb;
/// let mut set = SweepAndPruneSet::new();
/// let a = set.insert(Aabb::new(DVec2::ZERO, DVec2::ONE), 7).unwrap();
/// let b = set.insert(Aabb::new(DVec2::splat(0.5), DVec2::splat(2.0)), 8).unwrap();
/// let mut changes = PairChanges::default();
/// set.update_pairs(&mut changes);
/// assert_eq!(changes.added, [(a, b)]);
/// set.remove(b).unwrap();
/// set.update_pairs(&mut changes);
/// assert_eq!(changes.removed, [(a, b)]);
/// ```
#[derive(Clone, Debug)]
pub struct SweepAndPruneSet<V: Vector> {
    slots: Slots<(Aabb<V>, u64)>,
    sap: SweepAndPrune,
    /// The live boxes by increasing id, and their ids: the sweep's input.
    boxes: Vec<Aabb<V>>,
    ids: Vec<ProxyId>,
    found: Vec<(u32, u32)>,
    candidates: Vec<ProxyPair>,
    current: Vec<ProxyPair>,
}

impl<V: Vector> Default for SweepAndPruneSet<V> {
    fn default() -> Self {
        Self {
            slots: Slots::default(),
            sap: SweepAndPrune::new(),
            boxes: Vec::new(),
            ids: Vec::new(),
            found: Vec::new(),
            candidates: Vec::new(),
            current: Vec::new(),
        }
    }
}

impl<V: Vector> SweepAndPruneSet<V> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes held on the heap (every buffer's capacity).
    pub fn heap_bytes(&self) -> usize {
        self.slots.heap_bytes()
            + self.sap.heap_bytes()
            + self.boxes.capacity() * core::mem::size_of::<Aabb<V>>()
            + self.ids.capacity() * 4
            + self.found.capacity() * 8
            + (self.candidates.capacity() + self.current.capacity()) * core::mem::size_of::<ProxyPair>()
    }

    /// The sweep over the live boxes, written into `out` as proxy pairs.
    fn sweep(&mut self, out: &mut Vec<ProxyPair>) {
        self.boxes.clear();
        self.ids.clear();
        for (id, (aabb, _)) in self.slots.iter() {
            self.boxes.push(*aabb);
            self.ids.push(id);
        }
        self.sap.pairs(&self.boxes, &mut self.found);
        // Ids increase with the index into `boxes`, so the sorted index pairs map to sorted id pairs.
        out.clear();
        out.extend(self.found.iter().map(|&(i, j)| (self.ids[i as usize], self.ids[j as usize])));
    }
}

impl<V: Vector> BroadPhase<V> for SweepAndPruneSet<V> {
    fn insert(&mut self, aabb: Aabb<V>, user_data: u64) -> Result<ProxyId, BroadPhaseError> {
        if !valid_box(&aabb) {
            return Err(BroadPhaseError::InvalidBox);
        }
        self.slots.insert((aabb, user_data))
    }

    fn update(&mut self, proxy: ProxyId, aabb: Aabb<V>) -> Result<(), BroadPhaseError> {
        let slot = self.slots.get_mut(proxy).ok_or(BroadPhaseError::UnknownProxy(proxy))?;
        if !valid_box(&aabb) {
            return Err(BroadPhaseError::InvalidBox);
        }
        slot.0 = aabb;
        Ok(())
    }

    fn remove(&mut self, proxy: ProxyId) -> Result<u64, BroadPhaseError> {
        self.slots.remove(proxy).map(|(_, user)| user)
    }

    fn update_pairs(&mut self, changes: &mut PairChanges) {
        changes.clear();
        let mut current = core::mem::take(&mut self.current);
        self.sweep(&mut current);
        diff_sorted(&self.candidates, &current, changes);
        self.current = core::mem::replace(&mut self.candidates, current);
        self.slots.release_removed();
    }

    fn candidate_pairs(&self) -> &[ProxyPair] {
        &self.candidates
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        self.sweep(out);
    }

    fn user_data(&self, proxy: ProxyId) -> Option<u64> {
        self.slots.get(proxy).map(|s| s.1)
    }

    fn aabb(&self, proxy: ProxyId) -> Option<Aabb<V>> {
        self.slots.get(proxy).map(|s| s.0)
    }

    fn len(&self) -> usize {
        self.slots.len()
    }
}
