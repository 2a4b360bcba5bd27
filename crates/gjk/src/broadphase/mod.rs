//! Broadphase: which of many bodies may touch, decided from their bounding boxes before any GJK query runs.
//!
//! Two structures, one contract:
//!
//! * [`SweepAndPrune`] sorts the boxes along one axis and sweeps them: it answers "every overlapping pair of
//!   these boxes" from scratch each frame, in about linear time when the bodies move little. No state but its
//!   sort order; the simplest choice when every body moves every frame. [`SweepAndPruneSet`] wraps it behind the
//!   [`BroadPhase`] trait (proxies with ids, inserted, moved and removed).
//! * [`DynamicTree`] is a bounding volume hierarchy kept up to date as bodies move, as Box2D's `b2DynamicTree`:
//!   each body's box is stored enlarged (*fattened*) by a margin and by its predicted motion, so a body that
//!   moves a little stays inside its stored box and costs nothing; only bodies that leave their box are
//!   re-inserted, and only they are queried for new pairs. It also answers region queries and ray casts.
//!
//! Both implement [`BroadPhase`], so a scene can switch between them:
//!
//! ```
//! use gjk::broadphase::{BroadPhase, DynamicTree, PairChanges, SweepAndPruneSet};
//! use gjk::math::DVec3;
//! use gjk::shape::Aabb;
//!
//! fn step<B: BroadPhase<DVec3>>(world: &mut B) -> Vec<(u64, u64)> {
//!     let a = world.insert(Aabb::new(DVec3::ZERO, DVec3::ONE), 10).unwrap();
//!     let b = world.insert(Aabb::new(DVec3::splat(3.0), DVec3::splat(4.0)), 20).unwrap();
//!     let mut changes = PairChanges::default();
//!     world.update_pairs(&mut changes);
//!     assert!(changes.added.is_empty());
//!     // b moves onto a: the pair appears.
//!     world.update(b, Aabb::new(DVec3::splat(0.5), DVec3::splat(1.5))).unwrap();
//!     world.update_pairs(&mut changes);
//!     assert_eq!(changes.added, [(a, b)]);
//!     changes.added.iter().map(|&(p, q)| (world.user_data(p).unwrap(), world.user_data(q).unwrap())).collect()
//! }
//! assert_eq!(step(&mut DynamicTree::new(0.1)), [(10, 20)]);
//! assert_eq!(step(&mut SweepAndPruneSet::new()), [(10, 20)]);
//! ```
//!
//! Boxes are checked where they enter ([`BroadPhaseError::InvalidBox`]): no coordinate may be NaN, each lower
//! corner must be at most its upper corner, and a box may reach to infinity (a ground plane's box) but not lie
//! entirely at it. Every traversal is bounded by the number of nodes, so no box can make a query loop.

use alloc::vec::Vec;
mod dynamic_tree;
mod slots;
mod sweep_and_prune;

use core::fmt;

use crate::math::{Real, Vector};
use crate::shape::Aabb;

pub use dynamic_tree::{DynamicTree, RayControl, RayScratch, TreeStats};
pub use sweep_and_prune::{overlapping_pairs, SweepAndPrune, SweepAndPruneSet};

/// A body's handle in a broadphase: the index of its slot, reused after the body is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId(u32);

impl ProxyId {
    /// The slot index.
    pub fn index(self) -> u32 {
        self.0
    }
}

/// A pair of proxies, the lower id first.
pub type ProxyPair = (ProxyId, ProxyId);

/// What [`BroadPhase::update_pairs`] changed in the list of candidate pairs: applying `removed` then `added` to
/// the previous list gives the current one. Both lists are sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairChanges {
    /// Pairs that became candidates.
    pub added: Vec<ProxyPair>,
    /// Pairs that stopped being candidates, including every pair of a removed proxy.
    pub removed: Vec<ProxyPair>,
}

impl PairChanges {
    /// Empties both lists (keeping their buffers).
    pub fn clear(&mut self) {
        self.added.clear();
        self.removed.clear();
    }
}

/// Why a broadphase refused an operation. The broadphase is unchanged after an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// A coordinate is NaN, a lower corner exceeds its upper corner, or the box lies entirely at infinity.
    InvalidBox,
    /// A displacement (motion prediction) has a NaN coordinate.
    InvalidDisplacement,
    /// The id names no live proxy (never inserted, or removed).
    UnknownProxy(ProxyId),
    /// More proxies than 32-bit ids can name.
    Full,
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadPhaseError::InvalidBox => {
                write!(f, "invalid box: a NaN coordinate, min > max, or a box lying entirely at infinity")
            }
            BroadPhaseError::InvalidDisplacement => write!(f, "invalid displacement: a NaN coordinate"),
            BroadPhaseError::UnknownProxy(id) => write!(f, "no live proxy with id {}", id.0),
            BroadPhaseError::Full => write!(f, "too many proxies for 32-bit ids"),
        }
    }
}

impl core::error::Error for BroadPhaseError {}

/// A broadphase over a changing set of boxes: the pair finding that [`SweepAndPruneSet`] and [`DynamicTree`]
/// share, so a scene is written once and can switch between them.
///
/// Two lists of pairs, both over live proxies and sorted with the lower id first:
/// * the **candidate** pairs kept up to date by [`update_pairs`](BroadPhase::update_pairs): every pair whose
///   boxes overlap, and possibly pairs whose boxes are only near (a [`DynamicTree`] keeps the pairs whose
///   enlarged boxes overlap, so a pair is not dropped and found again while two bodies jostle);
/// * the **overlapping** pairs of [`overlapping_pairs`](BroadPhase::overlapping_pairs): exactly the pairs whose
///   boxes, as last given, overlap or touch ([`Aabb::intersects`]) — the same list from every implementation.
pub trait BroadPhase<V: Vector> {
    /// Adds a proxy for a body whose box is `aabb`, carrying `user_data` (a body or shape id).
    fn insert(&mut self, aabb: Aabb<V>, user_data: u64) -> Result<ProxyId, BroadPhaseError>;
    /// Gives a proxy its new box.
    fn update(&mut self, proxy: ProxyId, aabb: Aabb<V>) -> Result<(), BroadPhaseError>;
    /// Removes a proxy; returns its user data. Its id may be reused after the next
    /// [`update_pairs`](BroadPhase::update_pairs), which reports its pairs as removed.
    fn remove(&mut self, proxy: ProxyId) -> Result<u64, BroadPhaseError>;
    /// Brings the candidate pairs up to date with every insert, update and remove since the last call, and
    /// writes into `changes` (cleared first) what changed.
    fn update_pairs(&mut self, changes: &mut PairChanges);
    /// The current candidate pairs, as of the last [`update_pairs`](BroadPhase::update_pairs).
    fn candidate_pairs(&self) -> &[ProxyPair];
    /// Writes into `out` (cleared first) every pair of live proxies whose boxes overlap or touch, sorted.
    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>);
    /// The user data of a live proxy.
    fn user_data(&self, proxy: ProxyId) -> Option<u64>;
    /// The box last given to a live proxy.
    fn aabb(&self, proxy: ProxyId) -> Option<Aabb<V>>;
    /// Number of live proxies.
    fn len(&self) -> usize;
    /// True when no proxy is live.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A box the broadphase can store: no NaN, `min ≤ max` on every axis, and not entirely at infinity (so every
/// extent `max − min` is a number ≥ 0 or +∞, never NaN).
pub(crate) fn valid_box<V: Vector>(b: &Aabb<V>) -> bool {
    (0..V::DIM).all(|i| {
        let (lo, hi) = (b.min.get(i), b.max.get(i));
        lo <= hi && lo < V::Real::INFINITY && -V::Real::INFINITY < hi
    })
}

/// Turns the previous candidate list into `current`, both sorted, writing the differences into `changes`.
pub(crate) fn diff_sorted(previous: &[ProxyPair], current: &[ProxyPair], changes: &mut PairChanges) {
    let (mut i, mut j) = (0, 0);
    while i < previous.len() && j < current.len() {
        match previous[i].cmp(&current[j]) {
            core::cmp::Ordering::Less => {
                changes.removed.push(previous[i]);
                i += 1;
            }
            core::cmp::Ordering::Greater => {
                changes.added.push(current[j]);
                j += 1;
            }
            core::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    changes.removed.extend_from_slice(&previous[i..]);
    changes.added.extend_from_slice(&current[j..]);
}
