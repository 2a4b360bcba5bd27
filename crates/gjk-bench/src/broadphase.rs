//! Broadphase scaling: a world of moving boxes, frame by frame, through our dynamic tree, our sweep and prune, and
//! parry's `Bvh` driven the way rapier's `BroadPhaseBvh::update` drives it.
//!
//! **World.** `n` bodies, half-extents 0.25–0.75 on each axis, centres uniform in a cube sized for 8 units of
//! volume per body (about one overlapping neighbour per body). Each frame (dt = 1/60 s) every body moves by its
//! velocity: 90 % of the bodies are slow (each velocity component normal with σ = 0.5 units/s, under a hundredth of
//! their size per frame), 10 % fast (σ = 3 units/s); 2 % per frame get a new velocity; bodies bounce off the
//! cube's walls. The motion is computed outside the timings; every contender receives the same boxes.
//!
//! **Contenders**, each ending a frame with an up-to-date list of candidate pairs that contains every
//! overlapping pair (checked against sweep and prune's exact list on the first and last measured frame):
//! * *ours, dynamic tree*: `DynamicTree::move_proxy` for every body (with its displacement), then
//!   `DynamicTree::update_pairs` (added and removed pairs);
//! * *ours, sweep and prune*: `SweepAndPrune::pairs` over the boxes (the exact list, from its kept order);
//! * *parry `Bvh`, rapier's recipe*: rapier's `BroadPhaseBvh::update` (rapier HEAD, `broad_phase_bvh/update.rs`)
//!   without its collider bookkeeping: every moved leaf through `update_partially_if_present` with the margin
//!   (or `reinsert_or_update_if_present` when under 1/16 of the leaves changed the frame before), its
//!   `optimize_incremental` schedule, `refit` or `refit_partial`, `traverse_bvtt_single_tree::<true>` over the
//!   changed leaves, new pairs into a hash map (parry's `HashMap`, as rapier) with adjacency lists, and the stale
//!   pairs of changed leaves removed. rapier defers the optimisation to overlap its narrow phase; standalone it
//!   runs at the start of the next update, and so it does here (single thread, as every contender).
//!
//! Both trees get the same margin. Times are per frame; the figure is the median over the measured frames.

use std::hint::black_box;
use std::time::Instant;

use gjk::broadphase::{DynamicTree, PairChanges, ProxyPair, SweepAndPrune};
use gjk::math::{DVec3, Real, Vec3, Vector, Vector3};
use gjk::shape::Aabb;

use crate::rng::Rng;
use crate::timing::median;

/// The margin both trees grow boxes by: a tenth of a body's typical size (Box2D's 0.1 m for 1 m bodies).
pub const MARGIN: f64 = 0.1;
/// Seconds per frame.
const DT: f64 = 1.0 / 60.0;

/// The moving world, in f64; each frame's boxes are rounded into the contenders' precision.
pub struct World {
    center: Vec<DVec3>,
    half: Vec<DVec3>,
    velocity: Vec<DVec3>,
    fast: Vec<bool>,
    side: f64,
    rng: Rng,
}

impl World {
    /// `n` bodies from a fixed seed.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let side = (8.0 * n as f64).cbrt();
        let mut w = World {
            center: Vec::new(),
            half: Vec::new(),
            velocity: Vec::new(),
            fast: Vec::new(),
            side,
            rng: Rng::new(0),
        };
        for _ in 0..n {
            w.center.push(DVec3::new(rng.range(0.0, side), rng.range(0.0, side), rng.range(0.0, side)));
            w.half.push(DVec3::new(rng.range(0.25, 0.75), rng.range(0.25, 0.75), rng.range(0.25, 0.75)));
            let fast = rng.unit() < 0.1;
            w.fast.push(fast);
            w.velocity.push(Self::draw_velocity(&mut rng, fast));
        }
        w.rng = rng;
        w
    }

    fn draw_velocity(rng: &mut Rng, fast: bool) -> DVec3 {
        let s = if fast { 3.0 } else { 0.5 };
        DVec3::new(rng.normal(), rng.normal(), rng.normal()) * s
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.center.len()
    }

    /// True when the world has no body.
    pub fn is_empty(&self) -> bool {
        self.center.is_empty()
    }

    /// One frame of motion; writes each body's new box and its displacement, in `V`'s precision.
    pub fn step<V: Vector3>(&mut self, boxes: &mut Vec<Aabb<V>>, displacement: &mut Vec<V>) {
        boxes.clear();
        displacement.clear();
        for i in 0..self.center.len() {
            if self.rng.unit() < 0.02 {
                self.velocity[i] = Self::draw_velocity(&mut self.rng, self.fast[i]);
            }
            let c = self.center[i];
            let v = &mut self.velocity[i];
            for k in 0..3 {
                if (c[k] < 0.0 && v[k] < 0.0) || (c[k] > self.side && v[k] > 0.0) {
                    v[k] = -v[k];
                }
            }
            let d = *v * DT;
            self.center[i] = c + d;
            boxes.push(Self::to_box(self.center[i], self.half[i]));
            displacement.push(V::new3(V::Real::from_f64(d.x), V::Real::from_f64(d.y), V::Real::from_f64(d.z)));
        }
    }

    /// The boxes as they are now.
    pub fn boxes<V: Vector3>(&self) -> Vec<Aabb<V>> {
        (0..self.center.len()).map(|i| Self::to_box(self.center[i], self.half[i])).collect()
    }

    fn to_box<V: Vector3>(c: DVec3, h: DVec3) -> Aabb<V> {
        let p = |v: DVec3| V::new3(V::Real::from_f64(v.x), V::Real::from_f64(v.y), V::Real::from_f64(v.z));
        Aabb::new(p(c - h), p(c + h))
    }
}

/// One broadphase under test.
pub trait Contender<V: Vector> {
    /// Its name in the tables.
    fn name(&self) -> &'static str;
    /// Takes in the first boxes (untimed).
    fn build(&mut self, boxes: &[Aabb<V>]);
    /// One frame: the new boxes (and each body's displacement since the last frame).
    fn frame(&mut self, boxes: &[Aabb<V>], displacement: &[V]);
    /// Candidate pairs held after the last frame.
    fn candidates(&self) -> usize;
    /// True when the candidates hold every pair of `exact` (body indices, sorted).
    fn holds(&self, exact: &[(u32, u32)]) -> bool;
    /// Bytes held on the heap.
    fn heap_bytes(&self) -> usize;
}

/// Our dynamic tree.
pub struct OursTree<V: Vector> {
    tree: DynamicTree<V>,
    changes: PairChanges,
    ids: Vec<gjk::broadphase::ProxyId>,
    /// Moves that renewed a proxy's stored box, over the frames.
    pub reinserted: usize,
    /// Frames run.
    pub frames: usize,
}

impl<V: Vector> OursTree<V> {
    /// An empty tree with the benchmark's margin.
    pub fn new() -> Self {
        Self {
            tree: DynamicTree::new(V::Real::from_f64(MARGIN)),
            changes: PairChanges::default(),
            ids: Vec::new(),
            reinserted: 0,
            frames: 0,
        }
    }

    /// The tree (for its statistics).
    pub fn tree(&self) -> &DynamicTree<V> {
        &self.tree
    }
}

impl<V: Vector> Default for OursTree<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> Contender<V> for OursTree<V> {
    fn name(&self) -> &'static str {
        "ours: dynamic tree"
    }
    fn build(&mut self, boxes: &[Aabb<V>]) {
        self.ids = boxes.iter().enumerate().map(|(i, b)| self.tree.insert(*b, i as u64).expect("valid box")).collect();
        self.tree.update_pairs(&mut self.changes);
    }
    fn frame(&mut self, boxes: &[Aabb<V>], displacement: &[V]) {
        for ((id, b), d) in self.ids.iter().zip(boxes).zip(displacement) {
            self.reinserted += self.tree.move_proxy(*id, *b, *d).expect("valid box") as usize;
        }
        self.tree.update_pairs(&mut self.changes);
        self.frames += 1;
        black_box(&self.changes);
    }
    fn candidates(&self) -> usize {
        self.tree.candidate_pairs().len()
    }
    fn holds(&self, exact: &[(u32, u32)]) -> bool {
        // Proxy ids are the body indices (inserted in order into a fresh tree, none removed).
        let c = self.tree.candidate_pairs();
        exact.iter().all(|&(a, b)| c.binary_search_by(|p: &ProxyPair| (p.0.index(), p.1.index()).cmp(&(a, b))).is_ok())
    }
    fn heap_bytes(&self) -> usize {
        self.tree.heap_bytes()
    }
}

/// Our sweep and prune, through its own API (the exact pairs every frame).
#[derive(Default)]
pub struct OursSap {
    sap: SweepAndPrune,
    pairs: Vec<(u32, u32)>,
    /// Bytes of the box array the caller hands it each frame, counted with it.
    box_bytes: usize,
}

impl<V: Vector> Contender<V> for OursSap {
    fn name(&self) -> &'static str {
        "ours: sweep and prune"
    }
    fn build(&mut self, boxes: &[Aabb<V>]) {
        self.sap.pairs(boxes, &mut self.pairs);
        self.box_bytes = core::mem::size_of_val(boxes);
    }
    fn frame(&mut self, boxes: &[Aabb<V>], _displacement: &[V]) {
        self.sap.pairs(boxes, &mut self.pairs);
        black_box(&self.pairs);
    }
    fn candidates(&self) -> usize {
        self.pairs.len()
    }
    fn holds(&self, exact: &[(u32, u32)]) -> bool {
        exact.iter().all(|p| self.pairs.binary_search(p).is_ok())
    }
    fn heap_bytes(&self) -> usize {
        self.sap.heap_bytes() + self.pairs.capacity() * 8 + self.box_bytes
    }
}

macro_rules! parry_contender {
    ($name:ident, $parry:ident, $v:ty, $real:ty) => {
        /// parry's `Bvh` driven as rapier's `BroadPhaseBvh::update` drives it (see the module documentation).
        pub struct $name {
            tree: $parry::partitioning::Bvh,
            workspace: $parry::partitioning::BvhWorkspace,
            pairs: $parry::utils::hashmap::HashMap<(u32, u32), u32>,
            adjacency: Vec<Vec<u32>>,
            frame_index: u32,
            changes_since_optimize: u32,
            reinsert_leaf_updates: bool,
            deferred_optimize_pending: bool,
            prev_updated: Vec<u32>,
            curr_updated: Vec<u32>,
            updated_mask: Vec<bool>,
            candidates: Vec<(u32, u32)>,
            stale: Vec<(u32, u32)>,
            deferred_inserts: Vec<u32>,
            /// Pairs added and removed over the frames.
            pub events: usize,
            /// Leaves whose stored box changed, over the frames.
            pub changed: usize,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    tree: $parry::partitioning::Bvh::new(),
                    workspace: Default::default(),
                    pairs: Default::default(),
                    adjacency: Vec::new(),
                    frame_index: 0,
                    changes_since_optimize: 0,
                    reinsert_leaf_updates: false,
                    deferred_optimize_pending: false,
                    prev_updated: Vec::new(),
                    curr_updated: Vec::new(),
                    updated_mask: Vec::new(),
                    candidates: Vec::new(),
                    stale: Vec::new(),
                    deferred_inserts: Vec::new(),
                    events: 0,
                    changed: 0,
                }
            }
        }

        impl $name {
            fn aabb(b: &Aabb<$v>) -> $parry::bounding_volume::Aabb {
                let p = |v: $v| $parry::math::Vector::new(v.x, v.y, v.z);
                $parry::bounding_volume::Aabb::new(p(b.min), p(b.max))
            }

            /// rapier's update, for bodies `0..boxes.len()` all moved (rapier's `modified_colliders`).
            fn update(&mut self, boxes: &[Aabb<$v>]) {
                use $parry::partitioning::BvhLeafUpdateStatus as Status;
                let margin = MARGIN as $real;
                self.frame_index = self.frame_index.wrapping_add(1);
                if self.deferred_optimize_pending {
                    self.deferred_optimize_pending = false;
                    self.tree.optimize_incremental(&mut self.workspace);
                }
                let first_pass = self.tree.is_empty();
                self.curr_updated.clear();
                let leaf_count = self.tree.leaf_count() as usize;
                let use_reinsert = self.reinsert_leaf_updates && boxes.len() * 16 < leaf_count && !first_pass;
                self.deferred_inserts.clear();
                for (i, b) in boxes.iter().enumerate() {
                    let aabb = Self::aabb(b);
                    let status = if use_reinsert {
                        self.tree.reinsert_or_update_if_present(aabb, i as u32, margin)
                    } else {
                        self.tree.update_partially_if_present(aabb, i as u32, margin)
                    };
                    match status {
                        None => self.deferred_inserts.push(i as u32),
                        Some(Status::Unchanged) => {}
                        Some(s) => {
                            if !use_reinsert && s == Status::UpdatedInPlace {
                                self.changes_since_optimize = self.changes_since_optimize.saturating_add(1);
                            }
                            self.curr_updated.push(i as u32);
                        }
                    }
                }
                for k in 0..self.deferred_inserts.len() {
                    let i = self.deferred_inserts[k];
                    self.tree.insert_or_update_partially(Self::aabb(&boxes[i as usize]), i, margin);
                    self.curr_updated.push(i);
                }
                let num_updated = self.curr_updated.len();
                self.changed += num_updated;
                self.reinsert_leaf_updates = num_updated * 16 < self.tree.leaf_count() as usize;
                let run_optimizer = self.changes_since_optimize > 0
                    && (num_updated * 16 >= leaf_count
                        || (self.frame_index % 8 == 0 && self.changes_since_optimize as usize * 64 >= leaf_count));
                let must_full_refit = first_pass;
                let defer_optimize = run_optimizer && !must_full_refit;
                if run_optimizer {
                    self.changes_since_optimize = 0;
                }
                if run_optimizer && !defer_optimize {
                    self.tree.optimize_incremental(&mut self.workspace);
                }
                let partial_too_expensive =
                    (num_updated + self.prev_updated.len()) * 16 >= self.tree.leaf_count() as usize;
                if must_full_refit || (run_optimizer && !defer_optimize) || partial_too_expensive {
                    self.tree.refit(&mut self.workspace);
                } else {
                    self.tree.refit_partial(&self.prev_updated, &self.curr_updated);
                }
                core::mem::swap(&mut self.prev_updated, &mut self.curr_updated);
                self.deferred_optimize_pending |= defer_optimize;

                // New pairs: the traversal over changed leaves, filtered by the pair map.
                let mut candidates = core::mem::take(&mut self.candidates);
                candidates.clear();
                self.tree.traverse_bvtt_single_tree::<true>(&mut self.workspace, &mut |a, b| candidates.push((a, b)));
                if self.adjacency.len() < boxes.len() {
                    self.adjacency.resize(boxes.len(), Vec::new());
                }
                for &(a, b) in &candidates {
                    let key = (a.min(b), a.max(b));
                    if !self.pairs.contains_key(&key) {
                        self.pairs.insert(key, self.frame_index);
                        self.adjacency[a as usize].push(b);
                        self.adjacency[b as usize].push(a);
                        self.events += 1;
                    }
                }
                self.candidates = candidates;

                // Stale pairs: those of this frame's changed leaves whose leaves no longer overlap.
                let updated = &self.prev_updated; // (swapped above: this frame's)
                self.updated_mask.clear();
                self.updated_mask.resize(boxes.len(), false);
                for &h in updated {
                    self.updated_mask[h as usize] = true;
                }
                self.stale.clear();
                for &h in updated {
                    let node_self = self.tree.leaf_node(h);
                    for &other in &self.adjacency[h as usize] {
                        if h > other && self.updated_mask[other as usize] {
                            continue;
                        }
                        let key = (h.min(other), h.max(other));
                        match (node_self, self.tree.leaf_node(other)) {
                            (Some(n0), Some(n1)) => {
                                if (n0.is_changed() || n1.is_changed()) && !n0.intersects(n1) {
                                    self.stale.push(key);
                                }
                            }
                            _ => self.stale.push(key),
                        }
                    }
                }
                self.stale.sort_unstable();
                for k in 0..self.stale.len() {
                    let (a, b) = self.stale[k];
                    if self.pairs.remove(&(a, b)).is_some() {
                        for (x, y) in [(a, b), (b, a)] {
                            let list = &mut self.adjacency[x as usize];
                            if let Some(pos) = list.iter().position(|&o| o == y) {
                                list.swap_remove(pos);
                            }
                        }
                        self.events += 1;
                    }
                }
            }
        }

        impl Contender<$v> for $name {
            fn name(&self) -> &'static str {
                concat!(stringify!($parry), " Bvh (rapier's recipe)")
            }
            fn build(&mut self, boxes: &[Aabb<$v>]) {
                self.update(boxes);
            }
            fn frame(&mut self, boxes: &[Aabb<$v>], _displacement: &[$v]) {
                self.update(boxes);
            }
            fn candidates(&self) -> usize {
                self.pairs.len()
            }
            fn holds(&self, exact: &[(u32, u32)]) -> bool {
                exact.iter().all(|p| self.pairs.contains_key(p))
            }
            fn heap_bytes(&self) -> usize {
                self.tree.total_memory_size()
                    + self.pairs.capacity() * (core::mem::size_of::<((u32, u32), u32)>() + 1)
                    + self.adjacency.iter().map(|a| a.capacity() * 4 + core::mem::size_of::<Vec<u32>>()).sum::<usize>()
                    + (self.prev_updated.capacity() + self.curr_updated.capacity()) * 4
                    + self.updated_mask.capacity()
                    + (self.candidates.capacity() + self.stale.capacity()) * 8
            }
        }
    };
}

parry_contender!(ParryBvh3, parry3d, Vec3, f32);
parry_contender!(ParryBvh3F64, parry3d_f64, DVec3, f64);

/// How many frames to let the world settle (untimed: fattened boxes reach their steady state after about
/// margin / slow speed ≈ 12 frames) and how many to time, at `n` bodies.
pub fn frames_for(n: usize) -> (usize, usize) {
    match n {
        0..=2_000 => (60, 400),
        2_001..=20_000 => (60, 200),
        20_001..=200_000 => (60, 60),
        _ => (40, 20),
    }
}

/// Sweep and prune along one axis tests every pair of boxes overlapping along that axis: about n · n^(2/3) in
/// this uniform 3D world, so it is timed on this many frames only (it keeps no state the skipped frames would
/// have changed but its sort order, which it rebuilds on its first frame), and not at all from 1e6 bodies.
pub fn sap_frames(n: usize) -> Option<usize> {
    match n {
        0..=20_000 => None,
        20_001..=200_000 => Some(5),
        _ => Some(0),
    }
}

/// The exact overlapping pairs of `boxes` (indices, sorted), by a uniform grid of cells as large as the largest
/// box: each box is listed in the cells it overlaps (at most two per axis), and the boxes sharing a cell are
/// tested pairwise. Independent of every contender; linear in the number of boxes.
pub fn exact_pairs<V: Vector3>(boxes: &[Aabb<V>]) -> Vec<(u32, u32)> {
    let cell = 1.5;
    let index = |x: V::Real| (x.to_f64() / cell).floor() as i64 + (1 << 20);
    let mut entries: Vec<(u64, u32)> = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let lo: Vec<i64> = (0..3).map(|k| index(b.min.get(k))).collect();
        let hi: Vec<i64> = (0..3).map(|k| index(b.max.get(k))).collect();
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    entries.push((((x as u64) << 42) | ((y as u64) << 21) | z as u64, i as u32));
                }
            }
        }
    }
    entries.sort_unstable();
    let mut out = Vec::new();
    for group in entries.chunk_by(|a, b| a.0 == b.0) {
        for (k, &(_, i)) in group.iter().enumerate() {
            for &(_, j) in &group[k + 1..] {
                if boxes[i as usize].intersects(&boxes[j as usize]) {
                    out.push((i.min(j), i.max(j)));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What one run measured for one contender.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Contender name.
    pub name: &'static str,
    /// Median time per frame, ns (NaN when not run).
    pub median_ns: f64,
    /// Mean time per frame, ns (NaN when not run): with the occasional costly frame (a rebuild, an
    /// optimisation pass) that the median leaves out.
    pub mean_ns: f64,
    /// Candidate pairs held at the end.
    pub candidates: usize,
    /// Heap bytes held at the end.
    pub heap_bytes: usize,
    /// The candidates held every exact pair on the first and last frames it was timed.
    pub holds: bool,
}

/// One run of the world: `n` bodies, settle then measured frames, every contender fed the same boxes each frame
/// in turn. `timed[k]`: `None` for a contender that takes every frame from the start, `Some(c)` for one that
/// starts (untimed build) just before the last `c` timed frames. Returns each contender's figures and the
/// number of exact pairs at the end.
pub fn run<V: Vector3>(
    n: usize,
    seed: u64,
    contenders: &mut [&mut dyn Contender<V>],
    timed: &[Option<usize>],
) -> (Vec<Measured>, usize) {
    let (settle, frames) = frames_for(n);
    let start: Vec<usize> = timed.iter().map(|t| t.map_or(0, |c| settle + frames - c.min(frames))).collect();
    let mut world = World::new(n, seed);
    let first = world.boxes::<V>();
    for (k, c) in contenders.iter_mut().enumerate() {
        if timed[k].is_none() {
            c.build(&first);
        }
    }
    let (mut boxes, mut displacement) = (Vec::new(), Vec::new());
    let mut times = vec![Vec::with_capacity(frames); contenders.len()];
    let mut holds = vec![true; contenders.len()];
    let mut exact = Vec::new();
    let end = settle + frames;
    for f in 0..end {
        world.step(&mut boxes, &mut displacement);
        for (k, c) in contenders.iter_mut().enumerate() {
            if timed[k].is_some() && (f + 1 < start[k] || start[k] >= end) {
                continue;
            }
            if timed[k].is_some() && f + 1 == start[k] {
                c.build(&boxes);
                continue;
            }
            let t = Instant::now();
            c.frame(&boxes, &displacement);
            if f >= settle.max(start[k]) {
                times[k].push(t.elapsed().as_secs_f64() * 1e9);
            }
        }
        let first_timed = |k: usize| f == settle.max(start[k]);
        if f == end - 1 || (0..contenders.len()).any(first_timed) {
            exact = exact_pairs(&boxes);
            for (k, c) in contenders.iter().enumerate() {
                if first_timed(k) || (f == end - 1 && start[k] < end) {
                    holds[k] &= c.holds(&exact);
                }
            }
        }
    }
    let measured = contenders
        .iter()
        .zip(times.iter_mut())
        .zip(holds)
        .map(|((c, t), holds)| Measured {
            name: c.name(),
            mean_ns: t.iter().sum::<f64>() / t.len() as f64,
            median_ns: median(t),
            candidates: c.candidates(),
            heap_bytes: c.heap_bytes(),
            holds,
        })
        .collect();
    (measured, exact.len())
}

/// One world size: every repeat's figures for each contender (in the order tree, sweep and prune, parry).
#[derive(Clone, Debug)]
pub struct Row {
    /// Bodies.
    pub n: usize,
    /// Precision label (`3D f32`, `3D f64`).
    pub space: &'static str,
    /// `runs[r][k]`: repeat `r`, contender `k`.
    pub runs: Vec<Vec<Measured>>,
    /// Exact overlapping pairs at the end.
    pub exact_pairs: usize,
    /// Our tree: share of body moves that renewed a proxy's stored box, over the timed and settling frames.
    pub reinserted_share: f64,
    /// Our tree's height and its balanced height at the end of the last repeat.
    pub height: (u32, u32),
}

impl Row {
    /// Median over the repeats of contender `k`'s mean frame time, ns.
    pub fn mean(&self, k: usize) -> f64 {
        let mut t: Vec<f64> = self.runs.iter().map(|r| r[k].mean_ns).collect();
        median(&mut t)
    }

    /// Median over the repeats of contender `k`'s median frame time, and the lowest and highest, ns.
    pub fn time(&self, k: usize) -> (f64, f64, f64) {
        let mut t: Vec<f64> = self.runs.iter().map(|r| r[k].median_ns).collect();
        let lo = t.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = t.iter().copied().fold(0.0, f64::max);
        (median(&mut t), lo, hi)
    }
}

/// Runs `repeats` fresh worlds of `n` bodies in `V`'s precision against parry contender `P`.
pub fn measure_size<V: Vector3, P: Contender<V> + Default>(n: usize, repeats: usize, space: &'static str) -> Row {
    let mut runs = Vec::new();
    let (mut exact_pairs, mut share, mut height) = (0, 0.0, (0, 0));
    for r in 0..repeats {
        let (mut tree, mut sap, mut parry) = (OursTree::<V>::new(), OursSap::default(), P::default());
        let timed = [None, sap_frames(n), None];
        let (m, exact) = run::<V>(n, 0x5EED_0000 + n as u64, &mut [&mut tree, &mut sap, &mut parry], &timed);
        eprintln!(
            "  {space} n = {n:>7} repeat {}: tree {:>10.3} ms  sap {:>10.3} ms  parry {:>10.3} ms",
            r + 1,
            m[0].median_ns / 1e6,
            m[1].median_ns / 1e6,
            m[2].median_ns / 1e6
        );
        runs.push(m);
        exact_pairs = exact;
        share = tree.reinserted as f64 / (tree.frames * n) as f64;
        let s = tree.tree().stats();
        height = (s.height, s.balanced_height);
    }
    Row { n, space, runs, exact_pairs, reinserted_share: share, height }
}

/// The markdown section of `bench/RESULTS.md`.
pub fn section(rows: &[Row], load_before: &str, load_after: &str) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "## Broadphase: dynamic tree, sweep and prune, parry's Bvh\n");
    let _ = writeln!(
        w,
        "Time per frame to take in every body's new box and bring the candidate pairs up to date (median over the \
         timed frames; each size run {} time(s) on fresh worlds: the figure is the median of the runs' medians, \
         with the lowest and highest in brackets). Load average (1, 5, 15 min) before / after: {load_before} / \
         {load_after}.\n",
        rows.first().map_or(0, |r| r.runs.len())
    );
    let _ = writeln!(
        w,
        "- **World**: bodies of half-extents 0.25–0.75, 8 units of volume per body, moving at 60 frames per \
         second: 90 % slowly (σ = 0.5 units/s per axis, about a hundredth of their size per frame), 10 % fast \
         (σ = 3 units/s), 2 % per frame changing velocity, bouncing off the walls. Motion is computed outside the \
         timings; every contender gets the same boxes, in turn, each frame.\n\
         - **Ours, dynamic tree**: `DynamicTree::move_proxy` per body (margin {MARGIN}, boxes stretched by twice \
         the displacement; a body that leaves its stored box gets a new one, refitted in place), then \
         `update_pairs` (one tree query per renewed box, added and removed pairs; a balanced rebuild when the \
         refits have loosened the tree by a quarter of its measure — the mean column counts those frames). **Ours, sweep and prune**: \
         `SweepAndPrune::pairs` (the exact pairs, from its kept order). **parry `Bvh`**: parry 0.31's \
         `partitioning::Bvh` driven as rapier's `BroadPhaseBvh::update` drives it (leaf updates with the same \
         margin as change detection, its refit / partial refit and `optimize_incremental` schedule, \
         `traverse_bvtt_single_tree` over changed leaves, a pair map with adjacency lists, stale pairs removed); \
         rapier itself is not used because its broad phase reads its `ColliderSet`'s change flags and runs inside \
         its physics pipeline, which would time more than the broad phase — the tree, the recipe and the pair map \
         are rapier's.\n\
         - Sweep and prune along one axis meets every pair of boxes that overlap along it, about n · n^(2/3) in a \
         uniform 3D world: from 1e5 bodies it is timed on the last 5 frames only (its first frame sorts from \
         scratch, untimed), and not run at 1e6.\n\
         - Every contender's candidates were checked to hold every overlapping pair on its first and last timed \
         frames, against an independent uniform-grid search: *checked* below.\n"
    );
    let _ = writeln!(
        w,
        "| space | bodies | tree (ms) | sweep and prune (ms) | parry Bvh (ms) | tree / parry | tree / SAP | \
         mean (ms): tree / parry | overlapping pairs | candidates: tree / parry | tree boxes renewed per frame | \
         tree height (balanced) | bytes per body: tree / SAP / parry | checked |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    for r in rows {
        let t: Vec<(f64, f64, f64)> = (0..3).map(|k| r.time(k)).collect();
        let last = r.runs.last().expect("at least one run");
        let ms = |x: (f64, f64, f64)| {
            if x.0.is_nan() {
                "not run".to_string()
            } else {
                format!("{:.3} [{:.3}–{:.3}]", x.0 / 1e6, x.1 / 1e6, x.2 / 1e6)
            }
        };
        let ratio = |a: f64, b: f64| if (a / b).is_nan() { "–".to_string() } else { format!("{:.2}", a / b) };
        let sap_bytes =
            if t[1].0.is_nan() { "–".to_string() } else { format!("{:.0}", last[1].heap_bytes as f64 / r.n as f64) };
        let holds = r.runs.iter().all(|run| run.iter().all(|m| m.holds));
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | **{}** | {} | {:.3} / {:.3} | {} | {} / {} | {:.1} % | {} ({}) | {:.0} / {} / \
             {:.0} | {} |",
            r.space,
            r.n,
            ms(t[0]),
            ms(t[1]),
            ms(t[2]),
            ratio(t[0].0, t[2].0),
            ratio(t[0].0, t[1].0),
            r.mean(0) / 1e6,
            r.mean(2) / 1e6,
            r.exact_pairs,
            last[0].candidates,
            last[2].candidates,
            100.0 * r.reinserted_share,
            r.height.0,
            r.height.1,
            last[0].heap_bytes as f64 / r.n as f64,
            sap_bytes,
            last[2].heap_bytes as f64 / r.n as f64,
            if holds { "yes" } else { "**NO**" }
        );
    }
    let target = rows.iter().find(|r| r.n == 100_000 && r.space == "3D f32");
    if let Some(r) = target {
        let ratio = r.time(0).0 / r.time(2).0;
        let _ = writeln!(
            w,
            "\nTarget: 1e5 moving bodies, dynamic tree ≤ 0.8× parry's Bvh per frame: **{:.2}×, {}**.\n",
            ratio,
            if ratio <= 0.8 { "met" } else { "missed" }
        );
    }
    let _ = writeln!(
        w,
        "Bytes per body: every buffer's capacity divided by the bodies — ours: nodes, proxy records, pair lists \
         and scratch (`DynamicTree::heap_bytes`); sweep and prune: its order, the pair list and the box array it \
         is handed; parry: `Bvh::total_memory_size` plus the pair map and adjacency lists. Candidates: our tree \
         keeps the pairs whose stored (fattened) boxes overlap; parry's map keeps pairs until a changed leaf \
         stops overlapping.\n"
    );
    s
}

/// `report --profile broadphase/N --who ours|parry [--calls FRAMES]`: one contender alone on a world of `n`
/// bodies (3D f32), settled untimed, then `frames` frames; returns the median frame time in ns. For `perf` or
/// callgrind to see where a frame goes without the other contenders in the profile.
pub fn profile(n: usize, who: &str, frames: usize) -> Result<f64, String> {
    let (settle, _) = frames_for(n);
    let mut tree = OursTree::<Vec3>::new();
    let mut parry = ParryBvh3::default();
    let contender: &mut dyn Contender<Vec3> = match who {
        "ours" => &mut tree,
        "parry" => &mut parry,
        _ => return Err(format!("--who {who}: the broadphase profile runs `ours` or `parry`")),
    };
    let mut world = World::new(n, 0x5EED_0000 + n as u64);
    contender.build(&world.boxes());
    let (mut boxes, mut displacement) = (Vec::new(), Vec::new());
    let mut times = Vec::with_capacity(frames);
    for f in 0..settle + frames {
        world.step(&mut boxes, &mut displacement);
        let t = Instant::now();
        contender.frame(&boxes, &displacement);
        if f >= settle {
            times.push(t.elapsed().as_secs_f64() * 1e9);
        }
    }
    if !contender.holds(&exact_pairs(&boxes)) {
        return Err(format!("{} misses an overlapping pair", contender.name()));
    }
    if who == "ours" {
        let s = tree.tree().stats();
        eprintln!(
            "  tree: height {} (balanced {}), area ratio {:.1}, {} rebuilds ({} loosened), {} candidates, {:.1} % \
             renewed boxes",
            s.height,
            s.balanced_height,
            s.area_ratio,
            s.rebuilds + s.loosened_rebuilds,
            s.loosened_rebuilds,
            s.candidate_pairs,
            100.0 * tree.reinserted as f64 / (tree.frames * n) as f64
        );
    }
    Ok(median(&mut times))
}

/// Puts `section` (a `## Broadphase` section as [`section`] writes it) in place of the report's broadphase
/// section, which runs from its heading to the next `## ` heading (or the end); appended when absent.
pub fn splice_section(report: &str, section: &str) -> String {
    let heading = "## Broadphase: dynamic tree";
    let Some(start) = report.find(heading) else {
        return format!("{report}{section}");
    };
    let end = report[start + heading.len()..].find("\n## ").map_or(report.len(), |k| start + heading.len() + k + 1);
    format!("{}{}{}", &report[..start], section, &report[end..])
}

/// The world sizes of the scaling curve.
pub const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// Measures every size up to `max_bodies` (3D f32 against parry3d; 3D f64 against parry3d-f64 at 1e5), each
/// `repeats` times (once at 1e6), and returns the report's section. `load` reads the load average.
pub fn report_section(max_bodies: usize, repeats: usize, load: impl Fn() -> String) -> String {
    let before = load();
    let mut rows = Vec::new();
    for n in SIZES.into_iter().filter(|&n| n <= max_bodies) {
        let r = if n >= 1_000_000 { 1 } else { repeats.max(1) };
        rows.push(measure_size::<Vec3, ParryBvh3>(n, r, "3D f32"));
    }
    if max_bodies >= 100_000 {
        rows.push(measure_size::<DVec3, ParryBvh3F64>(100_000, repeats.max(1), "3D f64"));
    }
    section(&rows, &before, &load())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid reference equals sweep and prune on the benchmark's world, and after some frames every
    /// contender's candidates hold every overlapping pair.
    #[test]
    fn reference_and_contenders_agree() {
        let mut world = World::new(2000, 7);
        let (mut tree, mut sap, mut parry) = (OursTree::<Vec3>::new(), OursSap::default(), ParryBvh3::default());
        let first = world.boxes::<Vec3>();
        for c in [&mut tree as &mut dyn Contender<Vec3>, &mut sap, &mut parry] {
            c.build(&first);
        }
        let (mut boxes, mut displacement, mut exact) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..40 {
            world.step(&mut boxes, &mut displacement);
            for c in [&mut tree as &mut dyn Contender<Vec3>, &mut sap, &mut parry] {
                c.frame(&boxes, &displacement);
            }
            SweepAndPrune::new().pairs(&boxes, &mut exact);
            assert_eq!(exact_pairs(&boxes), exact);
            assert!(exact.len() > 500, "the world has overlaps: {}", exact.len());
            for c in [&tree as &dyn Contender<Vec3>, &sap, &parry] {
                assert!(c.holds(&exact), "{} misses a pair", c.name());
                assert!(c.candidates() >= exact.len());
            }
        }
        assert!(tree.reinserted > 0 && parry.changed > 0);
    }
}
