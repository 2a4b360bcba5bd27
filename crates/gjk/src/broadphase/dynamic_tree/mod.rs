//! The dynamic AABB tree: a bounding volume hierarchy over moving bodies, kept balanced as they are inserted,
//! moved and removed (after Box2D's `b2DynamicTree`).
//!
//! One flat array of nodes with a free list; a leaf per proxy holding the proxy's *fattened* box — its box grown
//! by a margin on every side and stretched along its predicted displacement — so that a body that moves a little
//! stays inside its stored box and the tree does not change. A new body is put where the surface-area heuristic
//! says, and tree rotations on the way up keep the tree tight. A body that leaves its stored box gets a new one
//! in place: its leaf stays, its ancestors' boxes are refitted (as parry's `Bvh` and rapier do), which costs a
//! short walk up instead of a removal and an insertion at a random place in memory; when those refits have
//! loosened the tree by a set share of its measure, it is rebuilt (balanced, laid out depth-first). Pair
//! finding queries only the bodies whose stored box changed (Box2D's move buffer).
//!
//! Files: `node.rs` (the node and the box measures), `insert.rs` (insertion, removal, rotations),
//! `rebuild.rs` (a balanced rebuild from scratch, the depth-first layout), `query.rs` (region queries, ray casts), `pairs.rs` (pair
//! finding), `validate.rs` (the invariants, checked, and quality figures).

use alloc::vec::Vec;
mod insert;
mod node;
mod pairs;
mod query;
mod rebuild;
mod validate;

use super::slots::Slots;
use super::{valid_box, BroadPhase, BroadPhaseError, PairChanges, ProxyId, ProxyPair};
use crate::math::{Real, Vector};
use crate::shape::Aabb;
use node::{Node, NULL};

pub use query::{RayControl, RayScratch};
pub use validate::TreeStats;

/// A proxy's record: its box as given (the *tight* box), a copy of its stored box (so that a move that stays
/// inside it reads only this record, not the tree), its user data, its leaf, and whether it is in the move buffer.
#[derive(Clone, Copy, Debug)]
struct Proxy<V: Vector> {
    aabb: Aabb<V>,
    fat: Aabb<V>,
    user_data: u64,
    leaf: u32,
    moved: bool,
}

/// The depth of the traversal stacks. The tree is rebuilt whenever its height exceeds [`height_limit`], at
/// most 4 · 32 + 16 = 144 for 32-bit ids, and a depth-first traversal holds at most height + 1 nodes.
const STACK: usize = 160;

/// The tallest tree tolerated for `n` leaves before a full rebuild: four times the balanced height, plus slack.
/// Incremental insertion stays far below it on any input seen in the tests (about 2 log₂ n); it only guarantees
/// that no input sequence makes queries slow or overflows the traversal stacks.
fn height_limit(n: usize) -> u32 {
    let log2 = usize::BITS - n.leading_zeros(); // ⌈log₂(n + 1)⌉
    4 * log2 + 16
}

/// A dynamic AABB tree broadphase: proxies with user data, fattened boxes, pair finding over the proxies that
/// moved, region queries and closest-first ray casts. Generic over the vector type (2D and 3D, f32 and f64).
///
/// ```
/// use gjk::broadphase::{DynamicTree, PairChanges};
/// use gjk::math::DVec2;
/// use gjk::shape::Aabb;
///
/// let mut tree = DynamicTree::new(0.1);
/// let boxes = [(0.0, 0.0), (1.5, 0.0), (0.8, 0.5)].map(|(x, y)| {
///     let c = DVec2::new(x, y);
///     Aabb::new(c - DVec2::splat(0.5), c + DVec2::splat(0.5))
/// });
/// let ids: Vec<_> = boxes.iter().enumerate().map(|(i, b)| tree.insert(*b, i as u64).unwrap()).collect();
/// let mut changes = PairChanges::default();
/// tree.update_pairs(&mut changes);
/// assert_eq!(changes.added, [(ids[0], ids[2]), (ids[1], ids[2])]);
///
/// // A small move stays inside the fattened box: the tree is unchanged and no pair is looked for.
/// let nudged = Aabb::new(boxes[1].min + DVec2::new(0.05, 0.0), boxes[1].max + DVec2::new(0.05, 0.0));
/// assert!(!tree.move_proxy(ids[1], nudged, DVec2::new(0.05, 0.0)).unwrap());
/// tree.update_pairs(&mut changes);
/// assert!(changes.added.is_empty() && changes.removed.is_empty());
///
/// // Which proxies does a region touch, and what does a ray along y = 0 meet first?
/// let mut hits = Vec::new();
/// tree.query(&Aabb::new(DVec2::new(1.2, -0.1), DVec2::new(1.3, 0.1)), |_, user| {
///     hits.push(user);
///     true
/// });
/// hits.sort();
/// assert_eq!(hits, [1, 2]);
/// let mut first = None;
/// let mut scratch = gjk::broadphase::RayScratch::default();
/// tree.ray_cast(DVec2::new(-5.0, 0.0), DVec2::X, f64::INFINITY, &mut scratch, |_, user, t| {
///     first = Some((user, t));
///     gjk::broadphase::RayControl::Stop
/// });
/// assert_eq!(first, Some((0, 4.5)));
/// tree.validate().unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTree<V: Vector> {
    nodes: Vec<Node<V>>,
    /// Head of the free list of nodes (linked through `parent`).
    free_node: u32,
    root: u32,
    proxies: Slots<Proxy<V>>,
    margin: V::Real,
    prediction: V::Real,
    /// Proxies whose stored box changed since the last pair update (inserted, or moved out of their box).
    move_buffer: Vec<u32>,
    /// The candidate pairs (those whose stored boxes overlap), sorted.
    candidates: Vec<ProxyPair>,
    /// Scratch: the next candidate list, the pairs found by the moved proxies, a bit per proxy slot.
    next: Vec<ProxyPair>,
    found: Vec<ProxyPair>,
    touched: Vec<u64>,
    /// Scratch for rebuilds and reordering (`pending` also holds the buffered leaves in query order).
    leaves: Vec<u32>,
    pending: Vec<u32>,
    spare_nodes: Vec<Node<V>>,
    rebuilds: u64,
    loosened_rebuilds: u64,
    /// Leaves inserted since the nodes were last laid out depth-first (see `reorder_depth_first`).
    inserted_since_reorder: usize,
    /// Σ of the internal nodes' measures when the tree was last rebuilt (or first measured), and how much the
    /// in-place refits of moving leaves have added to it since: see [`DynamicTree::keep_quality`].
    baseline_cost: Option<f64>,
    refit_growth: f64,
}

impl<V: Vector> DynamicTree<V> {
    /// An empty tree whose proxies' boxes are stored grown by `margin` on every side (in the boxes' units; a
    /// NaN, negative or infinite margin counts as 0), and stretched along a move's displacement by twice
    /// its length (see [`DynamicTree::with_prediction`]).
    ///
    /// The margin trades tree updates against candidate pairs: a body re-enters the tree only when it has moved
    /// about `margin` since it last did, but pairs are reported for boxes up to about twice `margin` apart.
    /// Box2D uses 0.1 m for bodies of about 1 m; the benchmark in `bench/RESULTS.md` used a tenth of the typical
    /// body size.
    pub fn new(margin: V::Real) -> Self {
        Self {
            nodes: Vec::new(),
            free_node: NULL,
            root: NULL,
            proxies: Slots::default(),
            margin: sanitize(margin),
            prediction: V::Real::TWO,
            move_buffer: Vec::new(),
            candidates: Vec::new(),
            next: Vec::new(),
            found: Vec::new(),
            touched: Vec::new(),
            leaves: Vec::new(),
            pending: Vec::new(),
            spare_nodes: Vec::new(),
            rebuilds: 0,
            loosened_rebuilds: 0,
            inserted_since_reorder: 0,
            baseline_cost: None,
            refit_growth: 0.0,
        }
    }

    /// The same tree with its boxes stretched by `factor` times a move's displacement (default 2; 0 turns
    /// the prediction off; NaN, negative or infinite counts as 0).
    pub fn with_prediction(mut self, factor: V::Real) -> Self {
        self.prediction = sanitize(factor);
        self
    }

    /// The margin the boxes are grown by.
    pub fn margin(&self) -> V::Real {
        self.margin
    }

    /// Adds a proxy with box `aabb` and the caller's `user_data`; returns its id. It takes part in the next
    /// pair update as a moved proxy.
    pub fn insert(&mut self, aabb: Aabb<V>, user_data: u64) -> Result<ProxyId, BroadPhaseError> {
        if !valid_box(&aabb) {
            return Err(BroadPhaseError::InvalidBox);
        }
        // A leaf and its new parent: two nodes, below the NULL marker.
        if self.free_node == NULL && self.nodes.len() + 2 >= NULL as usize {
            return Err(BroadPhaseError::Full);
        }
        let fat = self.fattened(&aabb, V::zero());
        let id = self.proxies.insert(Proxy { aabb, fat, user_data, leaf: NULL, moved: true })?;
        let leaf = self.allocate_node();
        self.nodes[leaf as usize] = Node { aabb: fat, parent: NULL, child1: id.0, child2: NULL, height: 0 };
        self.proxies.live_mut(id.0).leaf = leaf;
        self.insert_leaf(leaf);
        self.inserted_since_reorder += 1;
        self.move_buffer.push(id.0);
        self.keep_height_bounded();
        Ok(id)
    }

    /// Gives proxy `id` its new box `aabb`, having moved by `displacement` since its last box (used to stretch
    /// the stored box ahead of the motion; pass zero for a teleport). Returns true when the proxy left its
    /// stored box and got a new one (it is then looked at by the next pair update), false when the stored
    /// box still holds it and the tree is unchanged. A stored box much larger than needed (a fast body that
    /// slowed down) is also refreshed, so pairs are not reported far beyond the margin.
    ///
    /// A new stored box is refitted in place: the leaf keeps its place and its ancestors' boxes follow it. The
    /// next [`DynamicTree::update_pairs`] rebuilds the tree once such refits have loosened it by a quarter of
    /// its total measure (counted in [`TreeStats::loosened_rebuilds`]); the answers never depend on the tree's
    /// shape, only the time to find them does.
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb<V>, displacement: V) -> Result<bool, BroadPhaseError> {
        let proxy = self.proxies.get_mut(id).ok_or(BroadPhaseError::UnknownProxy(id))?;
        if !valid_box(&aabb) {
            return Err(BroadPhaseError::InvalidBox);
        }
        if !displacement.is_finite() {
            return Err(BroadPhaseError::InvalidDisplacement);
        }
        proxy.aabb = aabb;
        let (leaf, stored) = (proxy.leaf, proxy.fat);
        let fat = self.fattened(&aabb, displacement);
        if node::contains(&stored, &aabb) {
            // Still inside. Keep the stored box unless it exceeds the fresh one grown by four margins.
            let huge = fat.loosened(self.margin * V::Real::from_f64(4.0));
            if node::contains(&huge, &stored) {
                return Ok(false);
            }
        }
        // The leaf stays where it is in the tree; its ancestors' boxes follow it (see `refit_ancestors`).
        self.nodes[leaf as usize].aabb = fat;
        self.refit_ancestors(leaf);
        let proxy = self.proxies.live_mut(id.0);
        proxy.fat = fat;
        if !proxy.moved {
            proxy.moved = true;
            self.move_buffer.push(id.0);
        }
        Ok(true)
    }

    /// Removes proxy `id`; returns its user data. The next pair update reports its pairs as removed; its id is
    /// reused only after that.
    pub fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let proxy = self.proxies.remove(id)?;
        self.remove_leaf(proxy.leaf);
        self.free_node(proxy.leaf);
        Ok(proxy.user_data)
    }

    /// The user data of a live proxy.
    pub fn user_data(&self, id: ProxyId) -> Option<u64> {
        self.proxies.get(id).map(|p| p.user_data)
    }

    /// The box last given to a live proxy.
    pub fn aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.proxies.get(id).map(|p| p.aabb)
    }

    /// The box stored in the tree for a live proxy (its box fattened by the margin and the prediction).
    pub fn fat_aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.proxies.get(id).map(|p| p.fat)
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.proxies.len()
    }

    /// True when the tree holds no proxy.
    pub fn is_empty(&self) -> bool {
        self.proxies.len() == 0
    }

    /// The tree's height: 0 for one leaf (or none), the longest root-to-leaf path in edges otherwise.
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// `aabb` grown by the margin on every side, then stretched along `prediction · displacement`.
    fn fattened(&self, aabb: &Aabb<V>, displacement: V) -> Aabb<V> {
        let zero = V::Real::ZERO;
        let m = V::from_fn(|_| self.margin);
        let d = displacement * self.prediction;
        Aabb::new(aabb.min - m + V::from_fn(|i| d.get(i).min(zero)), aabb.max + m + V::from_fn(|i| d.get(i).max(zero)))
    }

    /// Rebuilds the whole tree if it has grown taller than [`height_limit`] allows.
    fn keep_height_bounded(&mut self) {
        if self.height() > height_limit(self.proxies.len()) {
            self.rebuild();
        }
    }
}

/// A margin or factor: finite and at least zero, else zero.
fn sanitize<R: Real>(x: R) -> R {
    if x >= R::ZERO && x.is_finite() {
        x
    } else {
        R::ZERO
    }
}

impl<V: Vector> BroadPhase<V> for DynamicTree<V> {
    fn insert(&mut self, aabb: Aabb<V>, user_data: u64) -> Result<ProxyId, BroadPhaseError> {
        DynamicTree::insert(self, aabb, user_data)
    }

    fn update(&mut self, proxy: ProxyId, aabb: Aabb<V>) -> Result<(), BroadPhaseError> {
        self.move_proxy(proxy, aabb, V::zero()).map(|_| ())
    }

    fn remove(&mut self, proxy: ProxyId) -> Result<u64, BroadPhaseError> {
        DynamicTree::remove(self, proxy)
    }

    fn update_pairs(&mut self, changes: &mut PairChanges) {
        DynamicTree::update_pairs(self, changes)
    }

    fn candidate_pairs(&self) -> &[ProxyPair] {
        DynamicTree::candidate_pairs(self)
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        DynamicTree::overlapping_pairs(self, out)
    }

    fn user_data(&self, proxy: ProxyId) -> Option<u64> {
        DynamicTree::user_data(self, proxy)
    }

    fn aabb(&self, proxy: ProxyId) -> Option<Aabb<V>> {
        DynamicTree::aabb(self, proxy)
    }

    fn len(&self) -> usize {
        DynamicTree::len(self)
    }
}
