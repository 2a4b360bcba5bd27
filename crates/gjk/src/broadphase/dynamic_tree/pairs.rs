//! Pair finding.
//!
//! The candidate pairs are kept as the pairs whose *stored* (fattened) boxes overlap. A stored box changes only
//! when its proxy is inserted or leaves it (the move buffer), so a pair can appear or disappear only if one of
//! its proxies is in the move buffer or was removed. Each pair update finds the pairs of the buffered proxies —
//! one tree query per buffered proxy, as Box2D's `b2UpdateBroadPhasePairs` — and re-checks only the old pairs of
//! buffered or removed proxies. Since every stored box holds its proxy's box, every overlapping pair is a
//! candidate.
//!
//! The queries beat a traversal of the tree against itself restricted to the subtrees holding a buffered leaf
//! (tried, and replaced): with a tenth of the bodies buffered, nearly every node near the root holds one, the
//! restriction prunes little, and the traversal met about twice the node pairs, at random places in memory.
//! Queries run in the node array's (depth-first) order of their leaves, so consecutive ones walk the same
//! nodes while they are in cache.

use super::{DynamicTree, STACK};
use crate::broadphase::{PairChanges, ProxyId, ProxyPair};
use crate::math::Vector;
use alloc::vec::Vec;

impl<V: Vector> DynamicTree<V> {
    /// Brings the candidate pairs up to date with the inserts, moves and removes since the last call, writing
    /// into `changes` (cleared first) the pairs that appeared and those that went (every pair of a removed
    /// proxy among them). Costs a tree query per proxy that was inserted or left its stored box, plus a pass
    /// over the candidate list when anything changed.
    pub fn update_pairs(&mut self, changes: &mut PairChanges) {
        changes.clear();
        if self.move_buffer.is_empty() && !self.proxies.any_removed() {
            return;
        }
        self.keep_quality();
        if self.inserted_since_reorder >= self.proxies.len() {
            // As many re-insertions as proxies since the nodes were last laid out: lay them out again.
            self.reorder_depth_first();
            self.inserted_since_reorder = 0;
        }
        self.find_new_pairs();
        self.merge(changes);
        self.clear_touched();
        for &i in &self.move_buffer {
            if let Some(p) = self.proxies.get_mut(ProxyId(i)) {
                p.moved = false;
            }
        }
        self.move_buffer.clear();
        self.proxies.release_removed();
    }

    /// The candidate pairs as of the last [`DynamicTree::update_pairs`]: every pair whose stored boxes overlap
    /// (so every pair whose boxes overlap), sorted with the lower id first.
    pub fn candidate_pairs(&self) -> &[ProxyPair] {
        &self.candidates
    }

    /// Writes into `out` (cleared first) every pair of live proxies whose boxes, as last given, overlap or
    /// touch, sorted: the same list as sweep and prune gives for the same boxes. When the candidates are up to
    /// date it filters them; otherwise it queries the tree once per proxy.
    pub fn overlapping_pairs(&self, out: &mut Vec<ProxyPair>) {
        out.clear();
        if self.move_buffer.is_empty() && !self.proxies.any_removed() {
            // Every proxy's box lies in its stored box, which has not changed since the last update.
            out.extend(
                self.candidates
                    .iter()
                    .copied()
                    .filter(|&(a, b)| self.proxies.live(a.0).aabb.intersects(&self.proxies.live(b.0).aabb)),
            );
            return;
        }
        for (id, p) in self.proxies.iter() {
            let start = out.len();
            self.visit_leaves(&p.aabb, |other| {
                if other > id.0 && self.proxies.live(other).aabb.intersects(&p.aabb) {
                    out.push((id, ProxyId(other)));
                }
                true
            });
            out[start..].sort_unstable();
        }
    }

    /// Collects into `found`, sorted, every pair of proxies whose stored boxes overlap and one of which is
    /// buffered, by one tree query per buffered proxy (Box2D's `b2UpdateBroadPhasePairs`). A pair of two buffered
    /// proxies is kept only by the query of the lower id. The queries run in the order of the buffered leaves in
    /// the node array — depth-first, so nearly in space — so that consecutive queries walk the same nodes while
    /// they are in cache.
    fn find_new_pairs(&mut self) {
        let mut found = core::mem::take(&mut self.found);
        let mut order = core::mem::take(&mut self.pending);
        found.clear();
        order.clear();
        self.mark_touched();
        for &m in &self.move_buffer {
            if let Some(p) = self.proxies.get(ProxyId(m)) {
                if p.moved {
                    order.push(p.leaf);
                }
            }
        }
        order.sort_unstable();
        let bits = &self.touched;
        let touched = |i: u32| bits[(i / 64) as usize] >> (i % 64) & 1 == 1;
        let nodes = &self.nodes;
        let mut stack = [0u32; STACK];
        for &leaf in &order {
            let me = nodes[leaf as usize].child1;
            let fat = nodes[leaf as usize].aabb;
            stack[0] = self.root;
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let node = &nodes[stack[top] as usize];
                if !node.aabb.intersects(&fat) {
                    continue;
                }
                if node.is_leaf() {
                    let other = node.child1;
                    if other != me && (other > me || !touched(other)) {
                        found.push((ProxyId(me.min(other)), ProxyId(me.max(other))));
                    }
                } else if top + 2 <= STACK {
                    stack[top] = node.child2;
                    stack[top + 1] = node.child1;
                    top += 2;
                }
            }
        }
        found.sort_unstable();
        self.found = found;
        self.pending = order;
    }

    /// Sets the bit of every buffered and every removed proxy.
    fn mark_touched(&mut self) {
        let words = self.proxies.capacity().div_ceil(64);
        if self.touched.len() < words {
            self.touched.resize(words, 0);
        }
        for &i in self.move_buffer.iter().chain(self.proxies.removed()) {
            self.touched[(i / 64) as usize] |= 1 << (i % 64);
        }
    }

    fn clear_touched(&mut self) {
        self.touched.iter_mut().for_each(|w| *w = 0);
    }

    /// Merges the old candidates with the pairs found: an old pair of an untouched proxy pair stays; an old pair
    /// with a touched proxy stays only if found again (else it is removed); a found pair not in the old list is
    /// added.
    fn merge(&mut self, changes: &mut PairChanges) {
        let touched = |(a, b): ProxyPair, bits: &[u64]| {
            let bit = |i: u32| bits[(i / 64) as usize] >> (i % 64) & 1 == 1;
            bit(a.0) || bit(b.0)
        };
        let (old, found, bits) = (&self.candidates, &self.found, &self.touched);
        let next = &mut self.next;
        next.clear();
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < found.len() {
            let order = match (old.get(i), found.get(j)) {
                (Some(o), Some(f)) => o.cmp(f),
                (Some(_), None) => core::cmp::Ordering::Less,
                _ => core::cmp::Ordering::Greater,
            };
            match order {
                core::cmp::Ordering::Less => {
                    if touched(old[i], bits) {
                        changes.removed.push(old[i]);
                    } else {
                        next.push(old[i]);
                    }
                    i += 1;
                }
                core::cmp::Ordering::Greater => {
                    next.push(found[j]);
                    changes.added.push(found[j]);
                    j += 1;
                }
                core::cmp::Ordering::Equal => {
                    next.push(found[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        core::mem::swap(&mut self.candidates, &mut self.next);
    }
}
