//! Pair finding.
//!
//! The candidate pairs are kept as the pairs whose *stored* (fattened) boxes overlap. A stored box changes only
//! when its proxy is inserted or leaves it (the move buffer), so a pair can appear or disappear only if one of
//! its proxies is in the move buffer or was removed. Each pair update finds the pairs of the buffered proxies —
//! as Box2D's `b2UpdateBroadPhasePairs` does with one tree query per buffered proxy, but here in one traversal
//! of the tree against itself restricted to the subtrees holding a buffered leaf, so the upper levels that every
//! query would cross again are crossed once — and re-checks only the old pairs of buffered or removed proxies.
//! Since every stored box holds its proxy's box, every overlapping pair is a candidate.

use super::node::{cost, NULL};
use super::DynamicTree;
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
        if self.reinserted_since_reorder >= self.proxies.len() {
            // As many re-insertions as proxies since the nodes were last laid out: lay them out again.
            self.reorder_depth_first();
            self.reinserted_since_reorder = 0;
        }
        self.find_new_pairs();
        self.mark_touched();
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
    /// buffered: the tree is traversed against itself (the bounding volume test tree), each pair of leaves
    /// reached once through their lowest common ancestor, and only through nodes that hold a buffered leaf — so
    /// the upper levels, which every buffered proxy would otherwise query again, are visited once in all.
    fn find_new_pairs(&mut self) {
        let mut found = core::mem::take(&mut self.found);
        let mut stack = core::mem::take(&mut self.pair_stack);
        found.clear();
        stack.clear();
        self.mark_moved_nodes();
        let marked = |bits: &[u64], n: u32| bits[(n / 64) as usize] >> (n % 64) & 1 == 1;
        let bits = &self.node_marks;
        if self.root != NULL && marked(bits, self.root) {
            stack.push((self.root, self.root));
        }
        // (n, n): pairs within the subtree of n. (a, b): pairs between the subtrees of a and b.
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            if a == b {
                if !na.is_leaf() && marked(bits, a) {
                    stack.push((na.child1, na.child1));
                    stack.push((na.child2, na.child2));
                    stack.push((na.child1, na.child2));
                }
                continue;
            }
            if !(marked(bits, a) || marked(bits, b)) || !na.aabb.intersects(&nb.aabb) {
                continue;
            }
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => found.push((ProxyId(na.child1.min(nb.child1)), ProxyId(na.child1.max(nb.child1)))),
                (true, false) => {
                    stack.push((a, nb.child1));
                    stack.push((a, nb.child2));
                }
                (false, true) => {
                    stack.push((na.child1, b));
                    stack.push((na.child2, b));
                }
                (false, false) => {
                    // Split the larger box: its children are the more likely to miss the other box.
                    if cost(&na.aabb) >= cost(&nb.aabb) {
                        stack.push((na.child1, b));
                        stack.push((na.child2, b));
                    } else {
                        stack.push((a, nb.child1));
                        stack.push((a, nb.child2));
                    }
                }
            }
        }
        self.node_marks.iter_mut().for_each(|w| *w = 0);
        found.sort_unstable();
        self.found = found;
        self.pair_stack = stack;
    }

    /// Marks the leaf of every buffered live proxy and its ancestors (a walk up stops at a marked node: its
    /// ancestors are marked already).
    fn mark_moved_nodes(&mut self) {
        let words = self.nodes.len().div_ceil(64);
        if self.node_marks.len() < words {
            self.node_marks.resize(words, 0);
        }
        for &m in &self.move_buffer {
            let Some(proxy) = self.proxies.get(ProxyId(m)) else {
                continue; // removed after it moved
            };
            if !proxy.moved {
                continue;
            }
            let mut n = proxy.leaf;
            while n != NULL && self.node_marks[(n / 64) as usize] >> (n % 64) & 1 == 0 {
                self.node_marks[(n / 64) as usize] |= 1 << (n % 64);
                n = self.nodes[n as usize].parent;
            }
        }
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
